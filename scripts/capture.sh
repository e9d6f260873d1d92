#!/bin/bash
# capture.sh - record what the kernel's slab allocator does while a command
# runs: the kmem tracepoints streamed from trace_pipe, and the state of
# every cache before and after (docs/capture.md).  Root only.
#
#   capture.sh [-d DIR] [-b KB] [-s SECONDS] [-c CLOCK] [-r|-R] [-f] [-P]
#              [-x SLABSIM] NAME CMD
#
#   -d DIR      where captures go (default datasets/captures): DIR/NAME/
#   -b KB       ring buffer per CPU in KiB, or auto (default): 1/32 of
#               MemAvailable over the online CPUs, 64 MiB to 1 GiB each
#   -s SECONDS  settle limit after CMD (default 10)
#   -c CLOCK    trace clock (default local)
#   -r          raw kernel pointers instead of hashed ones (hash-ptr off)
#   -R          raw pointers where the kernel has the hash-ptr option, else
#               hashed with a warning (make capture's default)
#   -f          replace an existing DIR/NAME
#   -P          without kmem:mm_page_free (recorded by default with raw
#               pointers: which kernel slabs died, docs/capture.md)
#   -x SLABSIM  run CMD under `SLABSIM reap` (make capture's default): the
#               processes it orphans are reaped, traced, there and not by
#               init (capture-orphans.sh)
#
# Environment: SLABSIM_STAGE, a tmpfs for the files written inside the
# window (default /dev/shm; below).
#
# Exit: 0 when the capture was written (even if CMD failed or events were
# lost: meta says so and a warning is printed), 1 on an error or
# interruption (nothing is left behind), 2 on bad usage.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
prog=capture.sh
die() { echo "$prog: $*" >&2; exit 1; }
usage() {
	[ $# -eq 0 ] || echo "$prog: $*" >&2
	echo "usage: $prog [-d DIR] [-b KB] [-s SECONDS] [-c CLOCK] [-r|-R] [-f] [-P] [-x SLABSIM] NAME CMD" >&2
	exit 2
}
# shellcheck source=scripts/capture-tracefs.sh
. "$here/capture-tracefs.sh"
# shellcheck source=scripts/capture-untraced.sh
. "$here/capture-untraced.sh"
# shellcheck source=scripts/capture-orphans.sh
. "$here/capture-orphans.sh"

dir=datasets/captures buffer_kb=auto settle=10 clock=local raw=0 force=0 reaper=""
while getopts d:b:s:c:rRfPx: opt; do
	case $opt in
	d) dir=$OPTARG ;;
	b) buffer_kb=$OPTARG ;;
	s) settle=$OPTARG ;;
	c) clock=$OPTARG ;;
	r) raw=1 ;;
	R) raw=2 ;;
	f) force=1 ;;
	P) PAGE_FREES=0 ;;
	x) reaper=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage "NAME and CMD are required (make capture NAME=N CMD='...')"
name=$1 cmd=$2

# ---- checks: refuse before touching anything --------------------------------
# NAME becomes a directory name: no slashes, no dot-files, no blanks.
[ -n "$name" ] || usage "NAME is required (make capture NAME=N CMD='...')"
[[ $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ ]] ||
	usage "bad NAME '$name': 1-64 letters, digits, '.', '_' or '-', not starting with '.', '_' or '-'"
[ -n "$cmd" ] || usage "CMD is required (make capture NAME=N CMD='...')"
# auto: a burst of a busy workload outruns the reader (perf bench sched
# messaging: ~1 M events a second, 64 MiB per CPU lost 1.2 M of them),
# so the ring buffer holds what memory allows without squeezing the
# workload: 1/32 of MemAvailable over the online CPUs (a policy, not a
# fitted figure), within 64 MiB and 1 GiB per CPU.
buffer_rule=given
if [ "$buffer_kb" = auto ]; then
	buffer_rule=auto
	avail=$(sed -n 's/^MemAvailable:[[:space:]]*\([0-9]*\) kB$/\1/p' /proc/meminfo)
	ncpu=$(getconf _NPROCESSORS_ONLN)
	buffer_kb=$(( ${avail:-0} / 32 / (ncpu > 0 ? ncpu : 1) ))
	[ "$buffer_kb" -ge 65536 ] || buffer_kb=65536
	[ "$buffer_kb" -le 1048576 ] || buffer_kb=1048576
fi
[[ $buffer_kb =~ ^[0-9]+$ ]] && [ "$buffer_kb" -ge 64 ] && [ "$buffer_kb" -le 16777216 ] ||
	usage "bad BUFFER_KB '$buffer_kb': KiB per CPU, 64 to 16777216, or auto"
[[ $settle =~ ^[0-9]+$ ]] && [ "$settle" -le 3600 ] ||
	usage "bad SETTLE '$settle': whole seconds, 0 to 3600"
[[ $clock =~ ^[a-z0-9_-]+$ ]] || usage "bad trace clock '$clock'"
[ "$(id -u)" = 0 ] || die "must run as root (tracefs and /sys/kernel/slab are root-only)"
command -v zstd > /dev/null || die "zstd not found (apt-get install zstd)"
[ -z "$reaper" ] || [ -x "$reaper" ] || die "$reaper: not an executable slabsim (-x)"
mkdir -p "$dir" || die "cannot create $dir"
dir=$(cd "$dir" && pwd)
dest=$dir/$name
if [ -e "$dest" ] && [ "$force" != 1 ]; then
	die "$dest exists (FORCE=1 to replace it)"
fi

# ---- clean-up: no half capture, no tracing left on --------------------------
tmp="" stage="" reader_pid="" zstd_pid="" committed=0
cleanup() {
	local rc=$?
	set +e
	# both, by PID: zstd may still be waiting for the fifo's writer
	[ -n "$reader_pid" ] && kill "$reader_pid" 2> /dev/null
	# (a stopped zstd, below, would keep the TERM pending)
	[ -n "$zstd_pid" ] && kill "$zstd_pid" 2> /dev/null && kill -CONT "$zstd_pid" 2> /dev/null
	[ -n "$reader_pid" ] && wait "$reader_pid" 2> /dev/null
	[ -n "$zstd_pid" ] && wait "$zstd_pid" 2> /dev/null
	ut_release
	tfs_release
	[ -z "$stage" ] || [ "$stage" = "$tmp" ] || rm -rf "$stage"
	if [ "$committed" != 1 ] && [ -n "$tmp" ]; then
		rm -rf "$tmp"
		echo "$prog: no capture written" >&2
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'echo "$prog: interrupted" >&2; exit 130' INT
trap 'echo "$prog: terminated" >&2; exit 143' TERM HUP

tmp=$(mktemp -d "$dir/.$name.tmp.XXXXXX")
# Every file but the trace is written to a staging directory in memory
# (tmpfs) and moved into the capture at the end.  Written into DIR, the
# files the snapshots write after the before-counts (their slabinfo copy,
# slab-before.txt) stay in the page cache with their buffer_heads,
# extent_status entries and radix_tree_nodes: objects in the
# after-counts that no trace has (measured: the 40 buffer_heads of a
# 20k-file rm's 1,862 came from there; docs/capture.md).  tmpfs pages
# have no buffer_heads.  SLABSIM_STAGE names another tmpfs; a directory
# that is not one is not used (meta staging= says which).
stage=$tmp staging="capture directory"
stage_root=${SLABSIM_STAGE:-/dev/shm}
if [ "$(stat -f -c %T "$stage_root" 2> /dev/null)" = tmpfs ] &&
	stage=$(mktemp -d "$stage_root/.slabsim-capture-$name.XXXXXX" 2> /dev/null); then
	staging="tmpfs $stage_root"
else
	stage=$tmp
	echo "$prog: warning: $stage_root is not a writable tmpfs: the snapshots are written into $dir, and their page cache's objects are in the after-counts only (SLABSIM_STAGE=)" >&2
fi

# ---- tracing instance and reader ----------------------------------------------
tfs_mount
tfs_instance "$buffer_kb" "$clock" "$raw"
raw=$TFS_RAW
read -r buffer_kb_set _ < "$INST/buffer_size_kb"
markers_copied=no
[ -e "$INST/options/copy_trace_marker" ] && markers_copied=yes
[ $markers_copied = yes ] ||
	echo "$prog: warning: this kernel does not copy $TFS/trace_marker into instances; CMD must write its markers to \$SLABSIM_TRACE_MARKER" >&2

# The reader streams trace_pipe (merged across CPUs in time order, so an
# allocation precedes its free on another CPU) through zstd while CMD runs,
# so the capture is not bounded by the ring buffer, only by how fast it is
# drained: reader and compressor run at a higher priority than the
# workload (a workload of many tasks would otherwise starve them and the
# ring buffer overrun), and zstd at a fast level.  The reader blocks until
# tracing starts, and gets end-of-file once tracing is off and the buffer
# is empty.
mkfifo "$tmp/.pipe"
nice -n -10 zstd -q -1 -c < "$tmp/.pipe" > "$tmp/capture.ftrace.zst" &
zstd_pid=$!
nice -n -10 cat "$INST/trace_pipe" > "$tmp/.pipe" &
reader_pid=$!

# A snapshot at real-time priority where the kernel allows it (chrt -f):
# every cache's figures are read in the shortest window the machine gives.
SLAB_SYSFS=${SLAB_DIR:-/sys/kernel/slab}
snapshot() {
	if command -v chrt > /dev/null && chrt -f 50 true 2> /dev/null; then
		chrt -f 50 "$here/slab-snapshot.sh" "$@"
	else
		"$here/slab-snapshot.sh" "$@"
	fi
}

# Both snapshots are taken with the instances (and their ring buffers'
# own kmalloc'd pages; the sched one of capture-untraced.sh too) in place,
# so what differs between them is what the trace saw, plus the short gaps
# around the tracing window.  Each snapshot's figures are its first read,
# /proc/slabinfo (slab-snapshot.sh): the before-snapshot turns kmem tracing
# on right after it, and walks /sys/kernel/slab with its own events left
# out of the trace (set_event_notrace_pid, event-fork for its children);
# the after-snapshot starts right after tracing is off.  No gap of the
# walk's length is left untraced, and the walk's own objects (a
# kernfs_open_node per file, freed by kfree_rcu() seconds later) are
# neither in the counts nor in the trace -- but for those of their frees
# kfree_rcu() makes one by one, traced: a second instance records the
# walk's allocations (walk.ftrace.zst), and the import drops the frees of
# those pointers (reconcile/import/rule_walk.c).
ut_setup
# init's zombies reaped now, not in the window (capture-orphans.sh)
orph_drain_init
[ "$ORPH_INIT_ZOMBIES" = 0 ] ||
	echo "$prog: warning: init still had $ORPH_INIT_ZOMBIES zombies to reap after ${ORPH_WAIT_S}s: their objects may leave the counts with no event" >&2
# The before-snapshot's lookups would create the dentries and inodes of
# ~7000 sysfs files where reclaim dropped them, after its counts and
# untraced: made now, they are in the counts.
stat -c '' "$SLAB_SYSFS"/*/* > /dev/null 2>&1 || true
# the tasks no tracepoint reports (capture-untraced.sh): watched over the
# whole window the kmem events cover
ut_start "$stage"
# read_file FILE CMD...: run CMD (which writes FILE); `read_status` gets
# yes, or "no (its first error)" with FILE removed and the error kept in
# `read_error` (the capture goes on without the file).
read_file() {
	local file=$1
	shift
	if "$@" 2> "$stage/.read-err"; then
		read_status=yes read_error=
	else
		read_error=$(cat "$stage/.read-err")
		read_status="no ($(head -c 200 "$stage/.read-err" | tr '\n' ' '))"
		rm -f "$file"
	fi
	rm -f "$stage/.read-err"
}
# Each cache's node partial slabs with their fill, in list order (the
# snapshot has them only as a count and a sum): slab-fill, a BPF
# kmem_cache iterator beside the slabsim binary, read right before the
# counts.  Without it (no BPF, a kernel before 6.13, not built) the replay
# spreads the count, as before; meta slab_fill says which.
slab_fill=no
fill_bin=${reaper:+$(dirname "$reaper")/slab-fill}
if [ -n "$fill_bin" ] && [ -x "$fill_bin" ]; then
	read_file "$stage/slab-fill-before.txt" "$fill_bin" "$stage/slab-fill-before.txt"
	slab_fill=$read_status
	[ "$slab_fill" = yes ] ||
		echo "$prog: warning: slab-fill: $read_error: node partial slabs' fills not measured" >&2
fi
if [ -e "$INST/set_event_notrace_pid" ] && [ -e "$INST/options/event-fork" ]; then
	tfs_write 1 "$INST/options/event-fork"
	tfs_walk_instance
	snapshot -p before -S "$stage/slabinfo-before" -T "$INST" ${WALK_INST:+-W "$WALK_INST"} "$stage/slab-before.txt"
	tfs_write "" "$INST/set_event_notrace_pid" # (before its PIDs are reused)
	tfs_write 0 "$INST/options/event-fork"
	tfs_walk_save "$stage/walk.ftrace.zst"
	trace_from=snapshot
else # before 5.8: the walk untraced, then tracing
	walk_events=0 walk_overrun=0
	snapshot -p before -S "$stage/slabinfo-before" "$stage/slab-before.txt"
	tfs_write 1 "$INST/tracing_on"
	trace_from=after-snapshot
fi
# Objects that did not exist when tracing began, read right after it
# began (so that whatever the reads miss was allocated with tracing on):
# which page frames are slab pages (/proc/kpageflags, slab-pages-start.txt)
# and each listed slab's free objects (slab-fill again,
# slab-fill-start.txt).  A free the trace shows of an object on another
# page, or of one free then, with no allocation event, is of an object a
# task no event reports allocated in the window (import --slab-pages and
# --free-objects, reconcile/import/rule_slab_pages.c).
slab_pages=no
if [ -n "$reaper" ]; then
	read_file "$stage/slab-pages-start.txt" "$reaper" slab-pages "$stage/slab-pages-start.txt"
	slab_pages=$read_status
	[ "$slab_pages" = yes ] || echo "$prog: warning: slab-pages: $read_error" >&2
fi
slab_fill_start=no
if [ "$slab_fill" = yes ]; then
	read_file "$stage/slab-fill-start.txt" "$fill_bin" "$stage/slab-fill-start.txt"
	slab_fill_start=$read_status
fi

# ---- trace -----------------------------------------------------------------
marker() { tfs_write "slabsim-phase $1" "$INST/trace_marker"; }
now_us() { now=${EPOCHREALTIME/[.,]/}; } # the decimal mark is the locale's
# One second of what the machine does without CMD: the settle below waits
# until the event rate is back near it.
tfs_written; w0=$written
sleep 1
tfs_written; baseline=$((written - w0))

marker start
now_us; start_us=$now
status=0
if [ -n "$reaper" ]; then
	SLABSIM_TRACE_MARKER=$INST/trace_marker "$reaper" reap --report "$stage/.reap" -- bash -c "$cmd" || status=$?
else
	SLABSIM_TRACE_MARKER=$INST/trace_marker bash -c "$cmd" || status=$?
fi
now_us; end_us=$now
marker end

# Frees that CMD caused but the kernel defers: RCU callbacks after a grace
# period, kfree_rcu() batches drained after up to 5 s (KFREE_DRAIN_JIFFIES),
# work items, writeback.  rcu_barrier() has no userspace entry, so wait at
# least min(6 s, SETTLE) and then until a second passes with no more than
# twice the baseline rate (+100), SETTLE at most.
settle_min=$((settle < 6 ? settle : 6))
quiet=$((2 * baseline + 100))
settled=0 settle_end=limit last_rate=0
tfs_written; prev=$written
while [ $settled -lt "$settle" ]; do
	sleep 1
	settled=$((settled + 1))
	tfs_written
	last_rate=$((written - prev))
	prev=$written
	if [ $settled -ge $settle_min ] && [ $last_rate -le $quiet ]; then
		settle_end=quiet
		break
	fi
done
# The after-snapshot reads ~7000 sysfs files: looking them up creates
# dentries and inodes wherever reclaim dropped them since the
# before-snapshot.  Do those lookups now, traced, so that the snapshot's
# own allocations are in the capture rather than only in the snapshot.
stat -c '' "$SLAB_SYSFS"/*/* > /dev/null 2>&1 || true
marker settled
# zstd writes the capture into DIR: drained after tracing is off, its
# pages' buffer_heads would be in the after-counts and in no trace
# (measured: 10 in one capture).  It waits, stopped, until the
# after-reads are done; the reader fills the pipe meanwhile and the ring
# buffer keeps the rest.
kill -STOP "$zstd_pid" 2> /dev/null || die "zstd, compressing the capture, is gone (disk full?)"
tfs_write 0 "$INST/tracing_on"
# Right away: what happens between tracing off and the snapshot is in the
# snapshot but not in the capture.  At real-time priority the snapshot
# takes ~0.1 s here instead of ~2 s on a busy machine.  The CPU slabs'
# free slots at the end, which the after-snapshot's `objects` counts as
# in use, are read right after its counts and before its walk (-A), for
# the report's objects in use (docs/own-trace.md): read after the walk,
# they had the walk's own allocations taken from them.  Only where the
# before read worked; a failure here costs that figure only.
fill_after=""
[ "$slab_fill" != yes ] || fill_after="$(printf '%q ' "$fill_bin" "$stage/slab-fill-after.txt")2> $(printf %q "$stage/.fill-err") || rm -f $(printf %q "$stage/slab-fill-after.txt")"
snapshot -p after -S "$stage/slabinfo-after" ${fill_after:+-A "$fill_after"} "$stage/slab-after.txt"
kill -CONT "$zstd_pid"
slab_fill_after=no
if [ "$slab_fill" = yes ]; then
	if [ -e "$stage/slab-fill-after.txt" ]; then
		slab_fill_after=yes
	else
		slab_fill_after="no ($(head -c 200 "$stage/.fill-err" 2> /dev/null | tr '\n' ' '))"
	fi
	rm -f "$stage/.fill-err"
fi
ut_stop "$stage"

# The reader ends by itself once the buffer is drained; a kernel that does
# not give trace_pipe readers end-of-file gets 30 s, then the reader is
# stopped and whatever it had not read counts as lost.
reader=clean
for _ in $(seq 300); do
	kill -0 "$reader_pid" 2> /dev/null || break
	sleep 0.1
done
if kill -0 "$reader_pid" 2> /dev/null; then
	kill "$reader_pid" 2> /dev/null || true
	reader=stopped
fi
wait "$reader_pid" 2> /dev/null || true
reader_pid=""
wait "$zstd_pid" || die "compressing the capture failed (disk full?)"
zstd_pid=""
rm -f "$tmp/.pipe"
tfs_stats > "$tmp/.stats"

ut_release
tfs_release
# The staged files into the capture (a copy across file systems: the
# window is over)
if [ "$stage" != "$tmp" ]; then
	for f in "$stage"/*; do
		[ ! -e "$f" ] || mv "$f" "$tmp/" || die "cannot move $f into $tmp"
	done
fi

# ---- meta ------------------------------------------------------------------
# Event counts by name, [LOST N EVENTS] totals and the phase markers in
# order, from the capture itself.
zstd -dc "$tmp/capture.ftrace.zst" | awk '
	/\[LOST [0-9]+ EVENTS\]/ {
		s = $0; sub(/.*\[LOST /, "", s); sub(/ .*/, "", s); lost += s; next }
	match($0, /\] [^ ]+ +[0-9]+\.[0-9]+: [a-z_0-9]+: /) {
		ev = substr($0, RSTART, RLENGTH); sub(/: $/, "", ev); sub(/.* /, "", ev)
		n[ev]++; events++
		# the name as slabsim import makes it: blanks become "_"
		if (ev == "tracing_mark_write" && match($0, /tracing_mark_write: slabsim-phase +[^ ]/)) {
			p = substr($0, RSTART + RLENGTH - 1)
			sub(/[ \t\r]+$/, "", p); gsub(/[ \t]/, "_", p)
			phases = phases (phases == "" ? "" : " ") p
		}
	}
	END {
		printf "lines=%d\nevents=%d\nlost_markers=%d\nphases=%s\n", NR, events, lost, phases
		for (e in n) printf "events_%s=%d\n", e, n[e]
	}' > "$tmp/.counts"

esc() { # one line: backslash, newline and tab escaped
	local s=${1//\\/\\\\}
	s=${s//$'\n'/\\n}
	esc_out=${s//$'\t'/\\t}
}
lost_total=$(sed -n 's/^lost_total=//p' "$tmp/.stats")
unread_total=$(sed -n 's/^unread_total=//p' "$tmp/.stats")
lost_markers=$(sed -n 's/^lost_markers=//p' "$tmp/.counts")
lossy=no reasons=""
[ "$lost_total" -gt 0 ] && reasons+=" ring buffer lost $lost_total events (overrun/dropped);"
[ "$lost_markers" -gt 0 ] && reasons+=" trace_pipe reported $lost_markers lost events;"
[ "$reader" = stopped ] && [ "$unread_total" -gt 0 ] && reasons+=" $unread_total events left unread;"
[ -n "$reasons" ] && lossy=yes
esc "$cmd"
slab_params=""
for p in $(< /proc/cmdline); do
	case $p in slub_* | slab_* | slub=* | slab=* | init_on_* | kfence* | page_poison*) slab_params+=${slab_params:+ }$p ;; esac
done
{
	echo "slabsim-capture 1"
	echo "name=$name"
	echo "kernel=$(uname -r)"
	echo "kernel_version=$(uname -v)"
	echo "machine=$(uname -m)"
	echo "cpus_online=$(< /sys/devices/system/cpu/online)"
	echo "cpus_possible=$(< /sys/devices/system/cpu/possible)"
	echo "slab_boot_params=$slab_params"
	echo "command=$esc_out"
	echo "exit_status=$status"
	printf 'start_time=%(%Y-%m-%dT%H:%M:%S%z)T\n' $((start_us / 1000000))
	printf 'end_time=%(%Y-%m-%dT%H:%M:%S%z)T\n' $((end_us / 1000000))
	echo "start_epoch_us=$start_us"
	echo "end_epoch_us=$end_us"
	echo "duration_us=$((end_us - start_us))"
	echo "trace_from=$trace_from"
	echo "walk_events=$walk_events"
	echo "walk_overrun=$walk_overrun"
	echo "settle_limit_s=$settle"
	echo "settle_s=$settled"
	echo "settle_end=$settle_end"
	echo "baseline_events_per_s=$baseline"
	echo "last_settle_events_per_s=$last_rate"
	echo "buffer_kb=$buffer_kb_set"
	echo "buffer_rule=$buffer_rule"
	echo "trace_clock=$clock"
	echo "hashed_pointers=$([ "$raw" = 1 ] && echo no || echo yes)"
	echo "markers_copied=$markers_copied"
	echo "kmem_events=${KMEM_ENABLED[*]}"
	echo "reader=$reader"
	echo "slab_fill=$slab_fill"
	echo "slab_pages=$slab_pages"
	echo "slab_fill_start=$slab_fill_start"
	echo "slab_fill_after=$slab_fill_after"
	echo "staging=$staging"
	cat "$tmp/.stats" "$tmp/.counts" "$stage/.ut-meta"
	orph_meta "${reaper:+$stage/.reap}"
	echo "capture_bytes=$(stat -c %s "$tmp/capture.ftrace.zst")"
	echo "lossy=$lossy"
	echo "lossy_reason=${reasons# }"
} > "$tmp/meta"
rm -f "$tmp/.stats" "$tmp/.counts" "$stage/.ut-meta" "$stage/.reap"

# ---- into place --------------------------------------------------------------
old=""
if [ -e "$dest" ]; then # FORCE=1: the old capture goes only once the new one is in place
	old=$(mktemp -d "$dir/.$name.old.XXXXXX")
	mv -T "$dest" "$old/$name"
fi
# mktemp made everything private; the capture is as readable as any file
# of the user's, unless it holds raw kernel addresses (-r).
if [ "$raw" = 1 ]; then chmod -R go-rwx "$tmp"; else chmod -R u+rwX,go+rX,go-w "$tmp"; fi
mv -T "$tmp" "$dest"
committed=1
[ -z "$old" ] || rm -rf "$old"

events=$(sed -n 's/^events=//p' "$dest/meta")
echo "$prog: $dest: $events events, $(stat -c %s "$dest/capture.ftrace.zst") bytes compressed, CMD exit $status, settled ${settled}s ($settle_end)"
[ "$status" = 0 ] || echo "$prog: warning: CMD exited with status $status" >&2
untraced=$(sed -n 's/^untraced_tasks=//p' "$dest/meta")
if [ "$untraced" != 0 ] && [ "$untraced" != unknown ]; then
	echo "$prog: warning: $untraced task(s) ran $(sed -n 's/^untraced_cpu_ms=//p' "$dest/meta") ms with no tracepoint firing for them ($(sed -n 's/^untraced_task_list=//p' "$dest/meta")): the slab objects they hold are in the snapshots and in no trace (docs/capture.md)" >&2
fi
left=$(sed -n 's/^orphans_left=//p' "$dest/meta")
if [ -n "$left" ] && [ "$left" != 0 ]; then
	echo "$prog: warning: $left orphaned process(es) of CMD's were still running 1 s after it ended: init reaps them, and the objects their reaping frees leave with no event (docs/capture.md)" >&2
fi
if [ $lossy = yes ]; then
	echo "$prog: WARNING: lossy capture:${reasons% ;} -- raise BUFFER_KB (now $buffer_kb_set KiB per CPU)" >&2
fi
