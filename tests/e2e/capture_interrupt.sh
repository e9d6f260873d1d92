#!/bin/bash
# capture_interrupt.sh - `make capture` interrupted by a Ctrl-C (SIGINT to
# its process group) or a SIGTERM to make, at three moments: before
# tracing began (the before-snapshot waiting for its first read), during
# CMD, and during the after-reads (the after-snapshot waiting for its
# first read, zstd stopped).  Each time the kernel's tracing is left as it
# was found (the top level's switches, events, filters, buffer size,
# clock, options, PID lists; the capture's instances gone; tracefs mounted
# as before), no BPF program of the capture's stays loaded, no process of
# it or of CMD runs on, and no stage, temporary directory or capture is
# left behind.  The snapshots wait where the test wants them through
# SLABINFO (slab-snapshot.sh), a FIFO the test writes /proc/slabinfo into
# when it lets a read go.  Needs root, tracefs, SLUB and zstd: SKIP (exit
# 77) otherwise.
. "$(dirname "$0")/lib/common.bash"
declare -F skip > /dev/null || skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "not root"
grep -qw tracefs /proc/filesystems || skip "no tracefs in this kernel"
[ -d /sys/kernel/slab ] || skip "no /sys/kernel/slab (not SLUB)"
command -v zstd > /dev/null || skip "no zstd command (apt-get install zstd)"
command -v setsid > /dev/null || skip "no setsid (util-linux)"

TFS=/sys/kernel/tracing
# (watched from here: mounted for the test if it is not, as the capture
# would mount it)
tfs_mounted=0
if [ ! -d "$TFS/instances" ]; then
	mount -t tracefs nodev "$TFS" || skip "cannot mount tracefs at $TFS"
	tfs_mounted=1
fi
run_pid=""
# (a failed check leaves a capture running: ended as a user would, then
# by force)
stop_run() {
	[ -n "$run_pid" ] || return 0
	kill -TERM "$run_pid" 2> /dev/null || true
	wait_for 20 eval '! kill -0 "$run_pid" 2> /dev/null' || kill -KILL -- "-$run_pid" 2> /dev/null || true
	run_pid=""
}
trap 'stop_run
	[ "$tfs_mounted" = 0 ] || umount "$TFS" 2> /dev/null || true
	rm -rf "$tmp"' EXIT
caps=$tmp/caps
mkdir -p "$caps"

# The top level's tracing state, one line a setting.
state() {
	local f
	grep -c ' tracefs ' /proc/mounts || true
	for f in tracing_on buffer_size_kb trace_clock current_tracer trace_options \
		set_event set_event_pid set_event_notrace_pid set_ftrace_pid; do
		[ ! -e "$TFS/$f" ] || echo "$f: $({ tr '\n' ' ' < "$TFS/$f"; } 2>&1)"
	done
	for f in "$TFS"/events/kmem/*/enable "$TFS"/events/kmem/*/filter \
		"$TFS"/events/sched/sched_switch/enable "$TFS"/events/sched/sched_switch/filter; do
		echo "${f#"$TFS"/}: $(tr '\n' ' ' < "$f")"
	done
}
# The BPF programs named slab_fill, by ID (bpftool, where installed).
bpf_ids() {
	command -v bpftool > /dev/null || return 0
	{ bpftool prog show name slab_fill 2> /dev/null || true; } | sed -n 's/^\([0-9]*\): .*/\1/p' | sort
}
# The processes of process group $1 (/proc/PID/stat after the name's
# last ")": state, parent, group).
group() {
	local f line rest pgrp
	for f in /proc/[0-9]*/stat; do
		{ read -r line < "$f"; } 2> /dev/null || continue
		rest=${line##*) }
		rest=${rest#* }
		rest=${rest#* }
		pgrp=${rest%% *}
		[ "$pgrp" != "$1" ] || echo "${line%% *}"
	done
}
# wait_for SECONDS CMD...: until CMD succeeds.
wait_for() {
	local n=$(($1 * 10))
	shift
	while ! "$@"; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.1
	done
}
# capture.sh's PID: the suffix of the instance it made, for a process of
# this run's group
capture_pid() {
	local i p
	cpid=""
	for i in "$TFS"/instances/slabsim-capture-*; do
		p=${i##*-}
		[ -e "$i" ] && [ "$(group "$run_pid" | grep -cx "$p")" = 1 ] && cpid=$p && return 0
	done
	return 1
}
walk_made() { [ -d "$TFS/instances/slabsim-walk-$cpid" ]; }
cmd_started() { [ -e "$tmp/cmd-started" ]; }
# the after-snapshot runs (waiting for its first read)
after_snapshot() {
	local p
	for p in $(group "$run_pid"); do
		{ tr '\0' ' ' < "/proc/$p/cmdline"; } 2> /dev/null | grep -q 'slab-snapshot.sh -p after' && return 0
	done
	return 1
}

state_before=$(state)
bpf_before=$(bpf_ids)
n=0
# interrupt MOMENT SIGNAL: one capture, interrupted at MOMENT by SIGNAL
interrupt() {
	local moment=$1 sig=$2 cmd=true rc=0 name fifo="" feeder=""
	n=$((n + 1))
	name=int$n
	rm -f "$tmp/cmd-started"
	case $moment in
	before-tracing) fifo=$tmp/slabinfo.$n ;;
	during-cmd) cmd="touch $tmp/cmd-started; sleep 300" ;;
	after-reads)
		fifo=$tmp/slabinfo.$n
		# the before-snapshot's read, once
		mkfifo "$fifo"
		(cat /proc/slabinfo > "$fifo") &
		feeder=$!
		;;
	esac
	[ -z "$fifo" ] || [ -p "$fifo" ] || mkfifo "$fifo"
	# its own session and process group, SIGINT as a terminal's Ctrl-C
	# would find it (a background command of bash ignores it); the
	# tree's own build/slabsim and build/slab-fill (make capture's)
	SLABINFO=${fifo:-/proc/slabinfo} setsid env --default-signal=INT,QUIT \
		make -s -C "$root" --no-print-directory capture CAPTURE_DIR="$caps" NAME="$name" \
		BUFFER_KB=4096 SETTLE=0 CMD="$cmd" > "$tmp/$name.out" 2>&1 &
	run_pid=$!
	wait_for 60 capture_pid || fail "$moment: no capture instance within 60 s: $(cat "$tmp/$name.out")"
	case $moment in
	before-tracing) wait_for 90 walk_made || fail "$moment: the walk's instance never came: $(cat "$tmp/$name.out")" ;;
	during-cmd) wait_for 90 cmd_started || fail "$moment: CMD never started: $(cat "$tmp/$name.out")" ;;
	after-reads) wait_for 90 after_snapshot || fail "$moment: no after-snapshot: $(cat "$tmp/$name.out")" ;;
	esac
	sleep 0.5 # (into the wait)
	[ "$(cat "$TFS/instances/slabsim-capture-$cpid/tracing_on")" = "$([ "$moment" = during-cmd ] && echo 1 || echo 0)" ] ||
		fail "$moment: tracing_on is not what the moment has"
	if [ "$sig" = INT ]; then kill -INT -- "-$run_pid"; else kill -TERM "$run_pid"; fi
	# (at once: not when CMD or a snapshot would have ended)
	wait_for 20 eval '! kill -0 "$run_pid" 2> /dev/null' || fail "$moment, SIG$sig: make still runs 20 s later"
	wait "$run_pid" || rc=$?
	[ -z "$feeder" ] || { kill "$feeder" 2> /dev/null || true; wait "$feeder" 2> /dev/null || true; }
	[ "$rc" != 0 ] || fail "$moment, SIG$sig: make capture exited 0"
	grep -q "capture.sh: no capture written" "$tmp/$name.out" ||
		fail "$moment, SIG$sig: no 'no capture written': $(cat "$tmp/$name.out")"
	# nothing of it runs on (CMD's sleep included), nothing is left
	wait_for 5 eval '[ -z "$(group "$run_pid")" ]' ||
		fail "$moment, SIG$sig: processes left: $(for p in $(group "$run_pid"); do tr '\0' ' ' < "/proc/$p/cmdline"; echo; done)"
	run_pid=""
	for i in capture walk sched; do
		[ ! -e "$TFS/instances/slabsim-$i-$cpid" ] || fail "$moment, SIG$sig: instance slabsim-$i-$cpid left"
	done
	expect_eq "$moment, SIG$sig: the top level's tracing" "$(state)" "$state_before"
	left=$(find "$caps" /dev/shm -maxdepth 1 \( -name ".$name.*" -o -name ".slabsim-capture-$name.*" -o -name "$name" \))
	[ -z "$left" ] || fail "$moment, SIG$sig: left: $left"
	# (a program is freed once its last holder is gone: soon, not at once)
	wait_for 5 eval '[ -z "$(comm -13 <(echo "$bpf_before") <(bpf_ids))" ]' ||
		fail "$moment, SIG$sig: BPF programs left: $(comm -13 <(echo "$bpf_before") <(bpf_ids))"
	echo "capture_interrupt.sh: $moment, SIG$sig: left as found"
}
interrupt before-tracing INT
interrupt during-cmd TERM
interrupt after-reads INT
interrupt before-tracing TERM
interrupt during-cmd INT
interrupt after-reads TERM
command -v bpftool > /dev/null || echo "capture_interrupt.sh: note: no bpftool; the BPF programs' end is seen only as their process's"
echo "capture_interrupt.sh: ok"
