#!/bin/bash
# capture.sh OUT - the lab guest's capture (docs/lab.md): what
# scripts/capture.sh does on a live machine, in a guest whose only tasks
# are this script and its workload.  The same tracefs helpers
# (capture-tracefs.sh) and snapshot (slab-snapshot.sh) are used, so the
# files are make capture's; the host (lab/assemble.sh) compresses them
# and writes meta.  Differences, all for the guest:
#   - the trace is read from the instance's `trace` file once tracing is
#     off (the ring buffer holds it all: BUFFER_KB per CPU, overwrite off,
#     so a full buffer drops new events and counts them), not streamed:
#     no reader or compressor runs in the window;
#   - pointers are real with the boot option no_hash_pointers, which the
#     host always gives, on kernels without the hash-ptr trace option;
#   - where kmem_cache_alloc has no name= (6.1, 6.12), kprobes on the
#     entry of the functions that end with the event (6.1 mm/slub.c
#     kmem_cache_alloc(), kmem_cache_alloc_lru(), kmem_cache_alloc_node(),
#     6.12's *_noprof: slab_alloc*() then trace_kmem_cache_alloc(),
#     always) record s->name
#     (NAME_OFFSET: offsetof(struct kmem_cache, name) from the kernel's
#     BTF, else calibrated here on kmem_cache_free); the host gives each event the name of its task's latest
#     kprobe line (lab/name-allocs.awk).  The event's own probe function
#     would pair exactly, but it is notrace, and Debian's kernels refuse
#     kprobes there (CONFIG_KPROBE_EVENTS_ON_NOTRACE off);
#   - no slab-fill (BPF) or slab-pages reads, no reaper: meta says no;
#   - /proc/meminfo is copied right before each snapshot (meminfo-before,
#     meminfo-after: SUnreclaim).
# Settings come from /lab/env (lab/run.sh writes it).
set -euo pipefail
prog=lab-guest
die() { echo "SLABSIM-LAB-FAIL: $*" >&2; exit 1; }
# shellcheck source=/dev/null
. /lab/env
# shellcheck source=scripts/capture-tracefs.sh
. /lab/capture-tracefs.sh

[ $# -eq 1 ] || die "usage: capture.sh OUT"
out=$1
mkdir -p "$out"
now_us() { now=${EPOCHREALTIME/[.,]/}; }

tfs_mount
# real pointers: the hash-ptr option where the kernel has it, else the
# boot option no_hash_pointers (checked here: without either the
# replay cannot tell which slab an object is on)
raw=0
[ -e "$TFS/options/hash-ptr" ] && raw=1
no_hash=no
grep -qw no_hash_pointers /proc/cmdline && no_hash=yes
[ $raw = 1 ] || [ $no_hash = yes ] || die "pointers would be hashed: no hash-ptr trace option and no no_hash_pointers boot option"

# the cache names of kmem_cache_alloc (before the instance: its event
# files are made with it)
name_source=tracepoint
if ! grep -q 'field:.* name;' "$TFS/events/kmem/kmem_cache_alloc/format"; then
	case $(uname -m) in
	x86_64) s_reg=%di x_reg=%si word=8 ;;
	arm*) s_reg=%r0 x_reg=%r1 word=4 ;;
	*) die "no kprobe argument register known for $(uname -m)" ;;
	esac
	offset_source=BTF
	if [ -z "${LAB_NAME_OFFSET:-}" ]; then
		# no BTF (Debian's armmp 6.1): the offset is read off the kernel
		# itself.  kmem_cache_free(s, x) names s in its event (name=, 6.1):
		# a kprobe at its entry per word of s reads a string there (one
		# string an event: an event of many strings outgrows a ring
		# buffer page and is dropped), and the offset is the lowest whose
		# string is the event's name for every free of the calibration
		# (ls -l of /bin and /lab, twice) it was read for (a full buffer
		# drops some of a free's 64 lines), 20 at least.  The lowest: s->name comes
		# before the embedded kobject, whose own name (kobj.name) is the
		# same string for a cache no other was merged into (6.1
		# include/linux/slub_def.h struct kmem_cache).
		cal=$TFS/instances/slabsim-cal
		mkdir "$cal" || die "cannot create tracing instance $cal"
		echo 16384 > "$cal/buffer_size_kb"
		for ((k = 0; k < 64; k++)); do
			echo "p:kprobes/slabsim_cal$k kmem_cache_free x=$x_reg:x$((word * 8)) s=+0(+$((k * word))($s_reg)):string" >> "$TFS/kprobe_events" ||
				die "cannot place the calibration kprobes on kmem_cache_free"
			echo 1 > "$cal/events/kprobes/slabsim_cal$k/enable"
		done
		echo 1 > "$cal/events/kmem/kmem_cache_free/enable"
		ls -l /bin /lab > /dev/null 2>&1 || true
		ls -l /bin /lab > /dev/null 2>&1 || true
		echo 0 > "$cal/tracing_on"
		LAB_NAME_OFFSET=$(awk -v word="$word" '
			function ptr(p) { p = tolower(p); sub(/^0x/, "", p); sub(/^0+/, "", p); return p }
			function val(line, key,   v) {
				if (!match(line, " " key "=[^ ]*")) return ""
				v = substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2)
				gsub(/"/, "", v)
				return v
			}
			match($0, /: slabsim_cal[0-9]+: /) {
				k = substr($0, RSTART + 13, RLENGTH - 15) + 0
				cx[k] = ptr(val($0, "x")); cs[k] = val($0, "s")
				next
			}
			/: kmem_cache_free: / {
				p = ptr(val($0, "ptr")); n = val($0, "name"); seen = 0
				# a free counts for offset k where the line of k came with it
				if (n != "")
					for (k in cx) if (cx[k] == p) { tried[k]++; if (cs[k] == n) hits[k]++; else if (miss[k]++ < 3) missed[k] = missed[k] " " n "/" cs[k] }
				delete cx; delete cs
			}
			END {
				best = -1
				for (k in hits) if (tried[k] >= 20 && hits[k] == tried[k] && (best < 0 || k + 0 < best)) best = k + 0
				if (best >= 0) {
					print best * word, hits[best]
				} else {
					top = ""
					for (k in hits) if (hits[k] * 2 >= tried[k]) top = top " " k * word ":" hits[k] "/" tried[k] " (missed:" missed[k] ")"
					printf "lab-guest: calibration: offsets naming half their frees or more:%s\n", top > "/dev/stderr"
				}
			}' "$cal/trace")
		for ((k = 0; k < 64; k++)); do echo 0 > "$cal/events/kprobes/slabsim_cal$k/enable"; done
		echo 0 > "$cal/events/kmem/kmem_cache_free/enable"
		rmdir "$cal"
		for ((k = 0; k < 64; k++)); do echo "-:kprobes/slabsim_cal$k" >> "$TFS/kprobe_events"; done
		[ -n "$LAB_NAME_OFFSET" ] ||
			die "kmem_cache_alloc has no name= on this kernel, it has no BTF, and kmem_cache_free's calibration found no offset of s->name (none named each of 20 frees or more)"
		read -r LAB_NAME_OFFSET cal_hits <<< "$LAB_NAME_OFFSET"
		offset_source="calibrated on kmem_cache_free: $cal_hits frees named, none missed"
	fi
	KCA_PROBES=()
	# 6.10+ (memory allocation profiling) names them *_noprof
	for fn in kmem_cache_alloc kmem_cache_alloc_lru kmem_cache_alloc_node \
		kmem_cache_alloc_noprof kmem_cache_alloc_lru_noprof kmem_cache_alloc_node_noprof; do
		grep -q " $fn\$" /proc/kallsyms || continue
		ev=slabsim_kca${fn#kmem_cache_alloc}
		echo "p:kprobes/$ev $fn name=+0(+$LAB_NAME_OFFSET($s_reg)):string" >> "$TFS/kprobe_events" ||
			die "cannot place the kprobe naming kmem_cache_alloc's cache on $fn"
		KCA_PROBES+=("$ev")
	done
	[ ${#KCA_PROBES[@]} -gt 0 ] || die "none of kmem_cache_alloc, kmem_cache_alloc_lru, kmem_cache_alloc_node (or their *_noprof) in /proc/kallsyms"
	name_source="kprobe ${KCA_PROBES[*]} s->name at +$LAB_NAME_OFFSET ($offset_source)"
fi

PAGE_FREES=1
tfs_instance "$LAB_BUFFER_KB" local $raw
# raw by no_hash_pointers: the page frees can be matched as with hash-ptr
if [ $raw = 0 ]; then
	TFS_RAW=1
	tfs_write 1 "$INST/events/kmem/mm_page_free/enable"
	KMEM_ENABLED+=(mm_page_free)
fi
# a full buffer keeps the oldest events and counts the rest as dropped
tfs_write 0 "$INST/options/overwrite"
if [ "$name_source" != tracepoint ]; then
	for ev in "${KCA_PROBES[@]}"; do
		tfs_write 1 "$INST/events/kprobes/$ev/enable"
		KMEM_ENABLED+=("$ev")
	done
fi
read -r buffer_kb_set _ < "$INST/buffer_size_kb"
markers_copied=no
[ -e "$INST/options/copy_trace_marker" ] && markers_copied=yes

# MEMCG=1: the workload runs in a memory cgroup of its own (cgroup v2),
# made before the before-snapshot: its accounted objects are charged to
# it (obj_cgroup vectors on the kmalloc-cg-* and SLAB_ACCOUNT slabs)
if [ "${LAB_MEMCG:-no}" = yes ]; then
	mkdir -p /sys/fs/cgroup
	mount -t cgroup2 none /sys/fs/cgroup || die "cannot mount cgroup2 (MEMCG=1)"
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control || die "no memory controller (MEMCG=1)"
	mkdir /sys/fs/cgroup/lab || die "cannot create a memory cgroup (MEMCG=1)"
fi

SLAB_SYSFS=/sys/kernel/slab
stat -c '' "$SLAB_SYSFS"/*/* > /dev/null 2>&1 || true
walk_events=0 walk_overrun=0
if [ -e "$INST/set_event_notrace_pid" ] && [ -e "$INST/options/event-fork" ]; then
	tfs_write 1 "$INST/options/event-fork"
	tfs_walk_instance
	cp /proc/meminfo "$out/meminfo-before"
	/lab/slab-snapshot.sh -p before -S "$out/slabinfo-before" -T "$INST" ${WALK_INST:+-W "$WALK_INST"} "$out/slab-before.txt"
	tfs_write "" "$INST/set_event_notrace_pid"
	tfs_write 0 "$INST/options/event-fork"
	if [ -n "$WALK_INST" ]; then
		tfs_write 0 "$WALK_INST/tracing_on"
		grep -v '^#' "$WALK_INST/trace" > "$out/walk.ftrace" || true
		walk_events=$(grep -c . "$out/walk.ftrace" || true)
		for f in "$WALK_INST"/per_cpu/cpu*/stats; do
			while read -r key val _; do
				[ "$key" != overrun: ] || walk_overrun=$((walk_overrun + val))
			done < "$f"
		done
	fi
	trace_from=snapshot
else
	cp /proc/meminfo "$out/meminfo-before"
	/lab/slab-snapshot.sh -p before -S "$out/slabinfo-before" "$out/slab-before.txt"
	tfs_write 1 "$INST/tracing_on"
	trace_from=after-snapshot
fi

# a marker the buffer has no room for is lost with the events around it
# (meta lossy=yes says so): a warning, not the end of the capture
marker() { { printf '%s\n' "slabsim-phase $1" > "$INST/trace_marker"; } 2> /dev/null || echo "lab-guest: warning: marker $1 not written (ring buffer full?)" >&2; }
tfs_written; w0=$written
sleep 1
tfs_written; baseline=$((written - w0))

marker start
now_us; start_us=$now
status=0
mkdir -p /tmp/work
(
	cd /tmp/work
	[ "${LAB_MEMCG:-no}" != yes ] || echo "$BASHPID" > /sys/fs/cgroup/lab/cgroup.procs
	# LAB_OUT: files the workload wants back (the capture's extra/)
	SLABSIM_TRACE_MARKER=$INST/trace_marker LAB_OUT=$out/extra exec /bin/bash /lab/work.sh
) || status=$?
now_us; end_us=$now
marker end

# the settle of scripts/capture.sh: at least min(6 s, SETTLE), then until
# a second with no more than twice the baseline rate + 100 events
settle=$LAB_SETTLE
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
stat -c '' "$SLAB_SYSFS"/*/* > /dev/null 2>&1 || true
marker settled
tfs_write 0 "$INST/tracing_on"
cp /proc/meminfo "$out/meminfo-after"
/lab/slab-snapshot.sh -p after -S "$out/slabinfo-after" "$out/slab-after.txt"

# the trace, once tracing is off: the `trace` file's lines without its
# header, as trace_pipe gives them
grep -v '^#' "$INST/trace" > "$out/capture.ftrace" || true
lost=0
{
	for f in "$INST"/per_cpu/cpu*/stats; do
		cpu=${f%/stats}
		cpu=${cpu##*/}
		while IFS=: read -r key val; do
			val=${val// /}
			case $key in
			overrun) echo "${cpu}_overrun=$val"; lost=$((lost + val)) ;;
			"commit overrun") echo "${cpu}_commit_overrun=$val"; lost=$((lost + val)) ;;
			"dropped events") echo "${cpu}_dropped=$val"; lost=$((lost + val)) ;;
			entries) echo "${cpu}_read=$val"; echo "${cpu}_unread=0" ;;
			esac
		done < "$f"
	done
	echo "lost_total=$lost"
	echo "unread_total=0"
} > "$out/.stats"

slab_params=""
for p in $(< /proc/cmdline); do
	case $p in slub_* | slab_* | slub=* | slab=* | init_on_* | kfence* | page_poison*) slab_params+=${slab_params:+ }$p ;; esac
done
{
	echo "kernel=$(uname -r)"
	echo "kernel_version=$(uname -v)"
	echo "machine=$(uname -m)"
	echo "cpus_online=$(< /sys/devices/system/cpu/online)"
	echo "cpus_possible=$(< /sys/devices/system/cpu/possible)"
	echo "slab_boot_params=$slab_params"
	echo "lab_cmdline=$(< /proc/cmdline)"
	echo "exit_status=$status"
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
	echo "trace_clock=local"
	echo "hashed_pointers=no"
	echo "lab_pointers=$([ $raw = 1 ] && echo "hash-ptr off" || echo "no_hash_pointers")"
	echo "lab_cache_names=$name_source"
	echo "lab_memcg=${LAB_MEMCG:-no}"
	echo "markers_copied=$markers_copied"
	echo "kmem_events=${KMEM_ENABLED[*]}"
	echo "reader=clean"
	cat "$out/.stats"
} > "$out/guest-meta"
rm -f "$out/.stats"
