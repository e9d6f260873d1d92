# shellcheck shell=bash
# capture-untraced.sh - tasks no tracepoint reports, for scripts/capture.sh
# (sourced, not run).
#
# A task can run, allocate and free slab objects while no tracepoint ever
# fires for it.  Measured on the 6.18 sandboxes this project is built on:
# the init process (PID 1, process_api) and its threads.  `perf stat -p 1
# -e raw_syscalls:sys_enter,sched:sched_switch,task-clock` counts 0
# syscalls and 0 context switches while task-clock counts 15-40 ms, and
# a thread of it that reads /proc after every new process leaves ~6
# proc_inode_cache, dentry and lsm_inode_cache objects per process in
# /proc/slabinfo with no kmem event (tests of 1000 `sleep`s: +6,100
# proc inodes, 8 kmem_cache_alloc events).  Their objects are in the
# kernel's snapshots and in no trace, so a replay cannot predict them: the
# capture says which tasks they were, and how long they ran.
#
# How: a second tracing instance records sched:sched_switch while the
# kmem events are recorded.  The event fires in the context of the task
# being switched out (prev), and for a hidden task not at all: measured
# here, PID 1's threads are next_pid in sched_switch events (the task
# before them is seen) and never prev_pid.  Every task that runs is
# switched out again, so a task whose CPU time (/proc/TID/schedstat, the
# first field: ns on a CPU) grew by UT_MIN_NS or more in the window and
# that is never prev_pid -- with UT_GRACE seconds after the window for the
# last switch-out of a task still running at its end -- is one the
# tracepoints did not see.  UT_MIN_NS is a noise floor, not a fitted
# value.  Needs die(),
# tfs_write(), tfs_rmdir() and TFS (capture-tracefs.sh); UT_PROC (default /proc) is
# read for the tasks, so that a test can give it a tree of its own.

UT_MIN_NS=1000000
UT_GRACE=0.2
UT_PROC=${UT_PROC:-/proc}
UT_INST="" UT_READER=""

# Every task's CPU time on stdout, "TID TGID NS COMM" per line, by TID; a
# task that exits while it is read is skipped.
ut_tasks() {
	local t tid tgid ns comm rest
	for t in "$UT_PROC"/[0-9]*/task/[0-9]*; do
		{ read -r ns rest < "$t/schedstat" && read -r comm < "$t/comm"; } 2> /dev/null || continue
		tid=${t##*/}
		tgid=${t%/task/*}
		tgid=${tgid##*/}
		echo "$tid $tgid $ns ${comm// /_}"
	done | LC_ALL=C sort -n -k1,1
}

# The instance, stopped, with its buffer and sched_switch on: made before
# the before-snapshot and removed after the after-snapshot, as the
# capture's own instance is, so that its trace_event_file objects, event
# directories and buffer are in both snapshots and in neither change.
ut_setup() {
	[ -e "$TFS/events/sched/sched_switch/enable" ] || return 0
	UT_INST=$TFS/instances/slabsim-sched-$$
	mkdir "$UT_INST" 2> /dev/null || { UT_INST=""; return 0; }
	tfs_write 0 "$UT_INST/tracing_on"
	tfs_write 1024 "$UT_INST/buffer_size_kb"
	tfs_write 1 "$UT_INST/events/sched/sched_switch/enable"
}

# Start recording: the reader (each PID it sees switched out, once: the
# file stays small whatever the switch rate), tracing, and the tasks' CPU
# times.  $1 = the capture's staging directory.
ut_start() {
	local dir=$1
	[ -n "$UT_INST" ] || return 0
	nice -n -10 awk '{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^prev_pid=[0-9]+$/) {
				p = $i; sub(/.*=/, "", p)
				if (!(p in seen)) { seen[p] = 1; print p; fflush() }
			}
	}' "$UT_INST/trace_pipe" > "$dir/.ut-seen" &
	UT_READER=$!
	tfs_write 1 "$UT_INST/tracing_on"
	ut_tasks > "$dir/.ut-before"
}

# Stop recording and write the meta lines (ut_meta) to $dir/.ut-meta;
# the instance stays until ut_release, after the after-snapshot.
ut_stop() {
	local dir=$1 lost=0 f key val
	if [ -z "$UT_INST" ]; then
		echo "untraced_tasks=unknown" > "$dir/.ut-meta"
		return 0
	fi
	ut_tasks > "$dir/.ut-after"
	sleep "$UT_GRACE"
	tfs_write 0 "$UT_INST/tracing_on"
	for f in "$UT_INST"/per_cpu/cpu*/stats; do
		while IFS=: read -r key val; do
			case $key in
			overrun | "commit overrun" | "dropped events") lost=$((lost + ${val// /})) ;;
			esac
		done < "$f"
	done
	# the reader has what the buffer held once it is empty
	for _ in $(seq 50); do
		[ "$(cat "$UT_INST"/per_cpu/cpu*/stats | awk '$1 == "entries:" { n += $2 } END { print n + 0 }')" = 0 ] && break
		sleep 0.1
	done
	ut_stop_reader
	ut_meta "$dir/.ut-before" "$dir/.ut-after" "$dir/.ut-seen" "$lost" > "$dir/.ut-meta"
	rm -f "$dir/.ut-before" "$dir/.ut-after" "$dir/.ut-seen"
}

# The meta lines from the two task lists and the PIDs seen:
#   untraced_tasks=N            tasks that ran >= UT_MIN_NS unseen
#   untraced_cpu_ms=X           their CPU time in the window
#   untraced_task_list=...      "TID/COMM@TGID:MS" by CPU time, the first 10
#   untraced_sched_lost=N       sched_switch events lost (N > 0: unsure)
ut_meta() {
	awk -v min="$UT_MIN_NS" -v lost="$4" -v beforef="$1" -v seenf="$3" '
		BEGIN {
			while ((getline l < beforef) > 0) { split(l, f, " "); was[f[1]] = f[3] }
			while ((getline p < seenf) > 0) seen[p] = 1
		}
		# TID TGID NS COMM; a task born in the window ran all of NS in it
		{
			d = $3 - ($1 in was ? was[$1] : 0)
			if (d >= min && !($1 in seen)) {
				n++; ns += d; key[n] = d
				line[n] = sprintf("%s/%s@%s:%.1f", $1, $4, $2, d / 1e6)
			}
		}
		END {
			# by CPU time, then TID (the input order): deterministic
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && key[j] > key[j - 1]; j--) {
					t = key[j]; key[j] = key[j - 1]; key[j - 1] = t
					t = line[j]; line[j] = line[j - 1]; line[j - 1] = t
				}
			list = ""
			for (i = 1; i <= n && i <= 10; i++)
				list = list (i > 1 ? " " : "") line[i]
			printf "untraced_tasks=%d\nuntraced_cpu_ms=%.1f\nuntraced_task_list=%s\nuntraced_sched_lost=%d\n", n, ns / 1e6, list, lost
		}' "$2"
}

ut_stop_reader() {
	if [ -n "$UT_READER" ]; then
		kill "$UT_READER" 2> /dev/null || true
		wait "$UT_READER" 2> /dev/null || true
		UT_READER=""
	fi
}

# Stop the reader and remove the instance (from a trap, too).
ut_release() {
	ut_stop_reader
	if [ -n "$UT_INST" ] && [ -d "$UT_INST" ]; then
		{ echo 0 > "$UT_INST/tracing_on"; } 2> /dev/null || true
		{ echo 0 > "$UT_INST/events/sched/sched_switch/enable"; } 2> /dev/null || true
		tfs_rmdir "$UT_INST"
	fi
	UT_INST=""
}
