# shellcheck shell=bash
# capture-tracefs.sh - tracefs for scripts/capture.sh (sourced, not run).
#
# The capture gets its own tracing instance (instances/slabsim-capture-PID):
# its own ring buffer, event switches, buffer size, clock and trace_pipe.
# The top-level tracer, which someone else may be using, is never touched,
# and "restore the state we changed" is one rmdir.  Needs die() and the
# globals below; sets TFS (tracefs root), TFS_MOUNTED and INST.

TFS=/sys/kernel/tracing
TFS_MOUNTED=0
INST=""
# The events we read (include/trace/events/kmem.h); the _node variants
# exist before 6.1 only.
KMEM_EVENTS="kmalloc kfree kmem_cache_alloc kmem_cache_free"
KMEM_EVENTS_OLD="kmalloc_node kmem_cache_alloc_node"
KMEM_ENABLED=()
# mm_page_free too (PAGE_FREES=1, the default): with raw pointers it tells
# which of the kernel's slabs died (an empty slab's pages go back to the
# buddy allocator: reconcile/import/pagefree.c).  Hashed pointers
# cannot be matched to a page, so it is left off with them.
PAGE_FREES=1

# Write a value to a tracefs file; a refusal (ENOMEM for a large buffer,
# EINVAL for an unknown clock) is fatal and says what was refused.
tfs_write() {
	{ printf '%s\n' "$1" > "$2"; } 2> /dev/null ||
		die "cannot write '$1' to $2"
}

# Find tracefs, mounting it at /sys/kernel/tracing if nothing is there
# (the debugfs location is where kernels before 4.1 put it).
tfs_mount() {
	if [ -e "$TFS/trace_marker" ]; then
		return 0
	fi
	if [ -e /sys/kernel/debug/tracing/trace_marker ]; then
		TFS=/sys/kernel/debug/tracing
		return 0
	fi
	grep -qw tracefs /proc/filesystems ||
		die "tracefs unavailable: this kernel has no tracefs (CONFIG_TRACING off?)"
	[ -d "$TFS" ] || die "tracefs unavailable: no mount point $TFS"
	mount -t tracefs nodev "$TFS" 2> /dev/null ||
		die "tracefs unavailable: cannot mount it at $TFS"
	TFS_MOUNTED=1
	[ -e "$TFS/trace_marker" ] || die "tracefs unavailable: $TFS has no trace_marker after mounting"
}

# Create and configure the instance: stopped, BUFFER_KB per CPU, the kmem
# events on.  $1 = per-CPU buffer KiB, $2 = trace clock, $3 = 1 to print
# raw pointers instead of hashed ones, 2 to where the kernel can, 0 not;
# TFS_RAW = 1 or 0, what the instance prints.
tfs_instance() {
	local kb=$1 clock=$2 raw=$3 e
	[ -d "$TFS/events/kmem/kmalloc" ] ||
		die "tracefs unavailable: no kmem tracepoints in $TFS/events/kmem"
	[ -d "$TFS/instances" ] || die "tracefs has no instances/ (kernel too old)"
	INST=$TFS/instances/slabsim-capture-$$
	mkdir "$INST" 2> /dev/null || { INST=""; die "cannot create tracing instance $TFS/instances/slabsim-capture-$$"; }
	tfs_write 0 "$INST/tracing_on"
	tfs_write "$kb" "$INST/buffer_size_kb"
	tfs_write "$clock" "$INST/trace_clock"
	# without it, writes to the top-level trace_marker (the user's own
	# phase markers) do not reach an instance (the option is from 6.17)
	if [ -e "$INST/options/copy_trace_marker" ]; then
		tfs_write 1 "$INST/options/copy_trace_marker"
	fi
	# raw: 1 required, 2 where the kernel has the option (make capture's
	# default), 0 hashed; it ends 1 or 0 (meta, the files' modes)
	if [ "$raw" != 0 ] && [ ! -e "$INST/options/hash-ptr" ]; then
		[ "$raw" = 1 ] && die "RAW_PTR=1: this kernel has no hash-ptr trace option"
		echo "$prog: warning: this kernel has no hash-ptr trace option: pointers as it prints them (hashed since 4.15); the replay cannot tell which slab an object was in" >&2
		raw=0
	fi
	if [ "$raw" != 0 ]; then
		raw=1
		tfs_write 0 "$INST/options/hash-ptr"
	fi
	TFS_RAW=$raw
	# listed now: a glob in the window opens directories and stats each
	# file, with kmem events of the capture's own (tfs_written)
	TFS_STATS=("$INST"/per_cpu/cpu*/stats)
	for e in $KMEM_EVENTS $KMEM_EVENTS_OLD; do
		if [ -e "$INST/events/kmem/$e/enable" ]; then
			tfs_write 1 "$INST/events/kmem/$e/enable"
			KMEM_ENABLED+=("$e")
		elif [[ " $KMEM_EVENTS " == *" $e "* ]]; then
			die "tracefs has no kmem:$e tracepoint"
		fi
	done
	if [ "$PAGE_FREES" = 1 ] && [ "$raw" = 1 ] && [ -e "$INST/events/kmem/mm_page_free/enable" ]; then
		tfs_write 1 "$INST/events/kmem/mm_page_free/enable"
		KMEM_ENABLED+=(mm_page_free)
	fi
}

# A second instance that records the before-snapshot walk's own
# allocations (slab-snapshot.sh -W): the walk's events are left out of
# the capture, but some of its objects' frees are not (kfree_rcu()'s
# kvfree_rcu_list path: reconcile/import/rule_walk.c).  Stopped; the
# allocation events only, pointers printed as the capture's; the walk
# and its children by set_event_pid (event-fork).  Sets WALK_INST, or
# leaves it empty where the kernel lacks set_event_pid or event-fork.
WALK_INST=""
tfs_walk_instance() {
	local e
	[ -e "$INST/set_event_pid" ] && [ -e "$INST/options/event-fork" ] || return 0
	WALK_INST=$TFS/instances/slabsim-walk-$$
	mkdir "$WALK_INST" 2> /dev/null || { WALK_INST=""; die "cannot create tracing instance $TFS/instances/slabsim-walk-$$"; }
	tfs_write 0 "$WALK_INST/tracing_on"
	tfs_write 8192 "$WALK_INST/buffer_size_kb"
	[ "$TFS_RAW" != 1 ] || tfs_write 0 "$WALK_INST/options/hash-ptr"
	tfs_write 1 "$WALK_INST/options/event-fork"
	for e in kmalloc kmem_cache_alloc $KMEM_EVENTS_OLD; do
		[ ! -e "$WALK_INST/events/kmem/$e/enable" ] || tfs_write 1 "$WALK_INST/events/kmem/$e/enable"
	done
}

# Stop recording the walk (right after it, inside the tracing window: a
# write, no process, no open: tfs_open_fds).
tfs_walk_stop() {
	[ -z "$TFS_WALK_ON_FD" ] || tfs_fd_write 0 "$TFS_WALK_ON_FD" "$WALK_INST/tracing_on"
}

# The files written inside the tracing window (the instance's tracing_on
# and trace_marker, the walk instance's tracing_on), opened before it:
# an open there allocates the file, its name and trace_marker's fault
# buffer (tracing_mark_open(), 6.18) in the trace, and the close frees
# them after it (tfs_close_fds), in neither.  Opened after CMD's
# processes are started, so that none of them holds one (an open file
# of an instance keeps its rmdir from working).
TFS_ON_FD="" TFS_MARKER_FD="" TFS_WALK_ON_FD=""
tfs_open_fds() {
	exec {TFS_ON_FD}> "$INST/tracing_on" {TFS_MARKER_FD}> "$INST/trace_marker" ||
		die "cannot open $INST/tracing_on and trace_marker"
	[ -z "$WALK_INST" ] || exec {TFS_WALK_ON_FD}> "$WALK_INST/tracing_on" ||
		die "cannot open $WALK_INST/tracing_on"
}

# tfs_fd_write VALUE FD FILE: tfs_write through descriptor FD (FILE's).
tfs_fd_write() {
	{ printf '%s\n' "$1" >&"$2"; } 2> /dev/null || die "cannot write '$1' to $3"
}

# Close what tfs_open_fds opened (safe twice, and from a trap).
tfs_close_fds() {
	[ -z "$TFS_ON_FD" ] || exec {TFS_ON_FD}>&-
	[ -z "$TFS_MARKER_FD" ] || exec {TFS_MARKER_FD}>&-
	[ -z "$TFS_WALK_ON_FD" ] || exec {TFS_WALK_ON_FD}>&-
	TFS_ON_FD="" TFS_MARKER_FD="" TFS_WALK_ON_FD=""
}

# The walk's allocations into $1 (zstd), after the window (its grep and
# zstd are processes with events of their own); sets walk_events and
# walk_overrun (events the full buffer lost: their frees stay prior
# frees).  The instance stays, off, until tfs_release, after the
# after-snapshot: removing it inside the window, with kmem tracing on,
# freed its eventfs inodes, event files and buffer pages inside the trace
# (measured on 6.18: 2,426 kfree()s of kmalloc-96 objects by
# free_ei_rcu and srcu_invoke_callbacks each, trace_event_file -2,268,
# kmalloc-64 ~-4,000 in every capture), objects of the capture's own
# that the before-snapshot counted and the after-snapshot did not.
tfs_walk_save() {
	local f key val
	walk_events=0 walk_overrun=0
	[ -n "$WALK_INST" ] || return 0
	tfs_write 0 "$WALK_INST/tracing_on"
	{ grep -v '^#' "$WALK_INST/trace" || true; } | zstd -q -1 -c > "$1" || die "cannot write $1"
	walk_events=$(zstd -dc "$1" | grep -c . || true)
	for f in "$WALK_INST"/per_cpu/cpu*/stats; do
		while read -r key val _; do
			[ "$key" != overrun: ] || walk_overrun=$((walk_overrun + val))
		done < "$f"
	done
}

# Remove instance directory $1, retrying while a reader closes its
# trace_pipe (rmdir says EBUSY until then); a warning if it stays.
tfs_rmdir() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		rmdir "$1" 2> /dev/null && return 0
		sleep 0.2
	done
	[ ! -d "$1" ] || echo "capture.sh: warning: could not remove $1; rmdir it by hand" >&2
}

# Remove the instance (its events and buffer go with it) and unmount
# tracefs if we mounted it.  Safe to call twice and from a trap; the
# reader must have closed trace_pipe first (rmdir says EBUSY otherwise).
tfs_release() {
	local e
	tfs_close_fds
	if [ -n "$INST" ] && [ -d "$INST" ]; then
		{ echo 0 > "$INST/tracing_on"; } 2> /dev/null || true
		for e in "${KMEM_ENABLED[@]}"; do
			{ echo 0 > "$INST/events/kmem/$e/enable"; } 2> /dev/null || true
		done
		tfs_rmdir "$INST"
	fi
	INST=""
	if [ -n "$WALK_INST" ] && [ -d "$WALK_INST" ]; then
		{ echo 0 > "$WALK_INST/tracing_on"; } 2> /dev/null || true
		tfs_rmdir "$WALK_INST"
	fi
	WALK_INST=""
	if [ "$TFS_MOUNTED" = 1 ]; then
		umount "$TFS" 2> /dev/null || echo "capture.sh: warning: could not unmount $TFS" >&2
		TFS_MOUNTED=0
	fi
}

# Events written to the instance's buffer so far, all CPUs: read by the
# reader + waiting in the buffer + overwritten + dropped.  Sets `written`.
# Read inside the tracing window: the files listed before it
# (tfs_instance), each in one read() (every read()
# of it makes its text anew, a kmalloc'd trace_seq: tracing_stats_read(),
# kernel/trace/trace.c), parsed with builtins.
tfs_written() {
	local f key re text
	written=0
	for f in "${TFS_STATS[@]}"; do
		text=""
		read -r -d '' text < "$f" || true
		for key in entries overrun 'dropped events' 'read events'; do
			re="(^|"$'\n'")$key: *([0-9]+)"
			[[ ! $text =~ $re ]] || written=$((written + BASH_REMATCH[2]))
		done
	done
}

# Per-CPU loss and volume, as meta lines on stdout:
#   cpuN_overrun, cpuN_commit_overrun, cpuN_dropped, cpuN_read, cpuN_unread
# and the totals lost_total (overrun + commit overrun + dropped) and
# unread_total (left in the buffer when the reader stopped).
tfs_stats() {
	local f cpu key val lost=0 unread=0
	for f in "$INST"/per_cpu/cpu*/stats; do
		cpu=${f%/stats}
		cpu=${cpu##*/}
		while IFS=: read -r key val; do
			val=${val// /}
			case $key in
			overrun) echo "${cpu}_overrun=$val"; lost=$((lost + val)) ;;
			"commit overrun") echo "${cpu}_commit_overrun=$val"; lost=$((lost + val)) ;;
			"dropped events") echo "${cpu}_dropped=$val"; lost=$((lost + val)) ;;
			"read events") echo "${cpu}_read=$val" ;;
			entries) echo "${cpu}_unread=$val"; unread=$((unread + val)) ;;
			esac
		done < "$f"
	done
	echo "lost_total=$lost"
	echo "unread_total=$unread"
}
