#!/bin/bash
# slab-snapshot.sh [-p PHASE] [-S SLABINFO_COPY] [-T INSTANCE [-W INSTANCE]] [-A CMD] OUT - the
# state of every SLUB cache, one line per cache, from /sys/kernel/slab and
# /proc/slabinfo (docs/capture.md):
#
#   slabsim-slab 1 phase=before time=1733040000.123456789 kernel=6.18.0 caches=230 aliases=191
#   cache=:0000064 name=kmalloc-64 align=64 ... objects=2596,N0=2596 ... si_active_objs=2590 ...
#   alias=kmalloc-64 target=:0000064
#
# Every readable attribute file of a cache becomes key=value, so a kernel
# with new attributes (sheaf_capacity in 6.18) or CONFIG_SLUB_STATS is
# recorded without a change here.  Files are read with bash builtins: a
# fork per file would be slow and would itself allocate slab objects
# (task_struct, mm, vma ...) while the caches are being read.
#
# /proc/slabinfo is read first, in one pass, and its counts (si_*) are the
# snapshot's figures of record: the walk opens ~30 sysfs files per cache,
# and each open leaves a kernfs_open_node in kmalloc-96 until kfree_rcu()
# frees it seconds later (base/slabsnap.c), so the caches read late in the
# walk are seen disturbed.  -S FILE keeps that read verbatim.  -T INSTANCE
# (a tracefs instance, with options/event-fork set by the caller) turns
# the instance's tracing on right after that read, with this script's own
# events excluded (set_event_notrace_pid, cleared by the caller): the
# trace then begins where the counts were read, and the walk's own
# allocations are in neither.  -W INSTANCE (with -T; event-fork set, the
# caller stops it) records this script's own events from then on
# (set_event_pid): the walk's objects, whose frees kfree_rcu() may put in
# the trace later (reconcile/import/rule_walk.c).  -A CMD runs CMD (a
# bash command, in this shell: a process forked for it would have objects
# of its own in what CMD reads) right after that read, before this script
# writes anything or starts its walk, whose own allocations would
# otherwise be in what CMD reads; its exit status is the caller's to check
# (by its output).
set -euo pipefail

SLAB_DIR=${SLAB_DIR:-/sys/kernel/slab}
SLABINFO=${SLABINFO:-/proc/slabinfo}
# Triggers (writing them acts on the cache, reading gives nothing) and
# multi-line debug listings.
SKIP=" validate shrink alloc_calls free_calls "

usage() { echo "usage: slab-snapshot.sh [-p PHASE] [-S SLABINFO_COPY] [-T INSTANCE [-W INSTANCE]] [-A CMD] OUT" >&2; exit 2; }
die() { echo "slab-snapshot.sh: $*" >&2; exit 1; }

phase=snapshot si_copy="" instance="" walk_instance="" after_read=""
while getopts p:S:T:W:A: opt; do
	case $opt in
	p) phase=$OPTARG ;;
	S) si_copy=$OPTARG ;;
	T) instance=$OPTARG ;;
	W) walk_instance=$OPTARG ;;
	A) after_read=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
out=$1
[[ $phase =~ ^[A-Za-z0-9_-]+$ ]] || die "bad phase '$phase' (letters, digits, _ and - only)"
[ -d "$SLAB_DIR" ] || die "$SLAB_DIR missing: not a SLUB kernel, or sysfs not mounted"
[ -r "$SLABINFO" ] || die "$SLABINFO not readable (needs root)"
[ -z "$instance" ] || [ -w "$instance/tracing_on" ] || die "$instance: not a tracing instance"
[ -z "$walk_instance" ] || { [ -n "$instance" ] && [ -w "$walk_instance/set_event_pid" ]; } ||
	die "-W $walk_instance: needs -T and a tracing instance with set_event_pid"

# A name as one token: % and blanks percent-encoded.  Sets `enc` (no
# subshell: see above).
enc_name() {
	enc=${1//%/%25}
	enc=${enc// /%20}
	enc=${enc//$'\t'/%09}
}
# A file's first line as one token: % and , percent-encoded, then each run
# of blanks -- the separator of the per-node "N0=5" and per-CPU "C1=3(1)"
# parts -- becomes a comma.  Sets `enc`.
enc_file() {
	local -a parts=()
	local i
	read -r -a parts < "$1" 2> /dev/null || true
	for i in "${!parts[@]}"; do
		parts[i]=${parts[i]//%/%25}
		parts[i]=${parts[i]//,/%2C}
	done
	local IFS=,
	enc="${parts[*]}"
}

# /proc/slabinfo: the name each cache is listed under, and its counts;
# the first thing read (above).
[ -z "$instance" ] || echo $$ > "$instance/set_event_notrace_pid" ||
	die "$instance: cannot exclude this script's events"
mapfile -t si_lines < "$SLABINFO"
[ -z "$instance" ] || echo 1 > "$instance/tracing_on" || die "$instance: cannot start tracing"
if [ -n "$walk_instance" ]; then
	echo $$ > "$walk_instance/set_event_pid" && echo 1 > "$walk_instance/tracing_on" ||
		die "$walk_instance: cannot trace this script's events"
fi
[ -z "$after_read" ] || eval "$after_read" || true
declare -A si
# name active num objsize perslab pages : tunables l b s : slabdata aslabs nslabs _
set -f # (word splitting, not a here-string: no pipe per line)
for ((i = 2; i < ${#si_lines[@]}; i++)); do # after the version and header lines
	f=(${si_lines[i]})
	si[${f[0]}]="si_active_objs=${f[1]} si_num_objs=${f[2]} si_active_slabs=${f[13]} si_num_slabs=${f[14]}"
done
set +f
if [ -n "$si_copy" ]; then
	printf '%s\n' "${si_lines[@]}" > "$si_copy.tmp.$$" && mv -f "$si_copy.tmp.$$" "$si_copy" ||
		die "$si_copy: cannot write"
fi

# Aliases: every symlink, with its target (one find instead of a readlink
# per link).  The target directory of a merged cache is a unique id such
# as ":0000064" or ":A-0001280"; the alias that /proc/slabinfo lists is
# the cache's own name.
declare -A cname
aliases=()
while IFS= read -r -d '' link && IFS= read -r -d '' target; do
	aliases+=("$link" "$target")
	[ -n "${si[$link]+x}" ] && cname[$target]=$link
done < <(find "$SLAB_DIR" -mindepth 1 -maxdepth 1 -type l -printf '%f\0%l\0')

tmp=$(mktemp "$out.tmp.XXXXXX")
trap 'rm -f "$tmp"' EXIT
ncache=0
{
	body=""
	for d in "$SLAB_DIR"/*; do
		[ -d "$d" ] && [ ! -L "$d" ] || continue
		dir=${d##*/}
		name=${cname[$dir]:-$dir}
		enc_name "$dir"; line="cache=$enc"
		enc_name "$name"; line+=" name=$enc"
		for f in "$d"/*; do
			attr=${f##*/}
			[ -f "$f" ] && [[ $SKIP != *" $attr "* ]] || continue
			enc_file "$f"
			line+=" $attr=$enc"
		done
		[ -n "${si[$name]+x}" ] && line+=" ${si[$name]}"
		body+=$line$'\n'
		ncache=$((ncache + 1))
	done
	for ((i = 0; i < ${#aliases[@]}; i += 2)); do
		enc_name "${aliases[i]}"; line="alias=$enc"
		enc_name "${aliases[i + 1]}"; body+="$line target=$enc"$'\n'
	done
	read -r kernel < /proc/sys/kernel/osrelease
	printf 'slabsim-slab 1 phase=%s time=%s kernel=%s caches=%d aliases=%d\n' \
		"$phase" "${EPOCHREALTIME/,/.}" "$kernel" "$ncache" $((${#aliases[@]} / 2))
	printf '%s' "$body"
} > "$tmp"
mv -f "$tmp" "$out"
trap - EXIT
