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
# window, the trace too (default /dev/shm; below).
#
# Exit: 0 when the capture was written (even if CMD failed or events were
# lost: meta says so and a warning is printed), 1 on an error, 130 on
# SIGINT, 143 on SIGTERM or SIGHUP (nothing is left behind: the clean-up
# below), 2 on bad usage.
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
# shellcheck source=scripts/capture-slabfill.sh
. "$here/capture-slabfill.sh"
# shellcheck source=scripts/capture-children.sh
. "$here/capture-children.sh"

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

# CMD's standard input (make's, the user's terminal): CMD runs in the
# background (capture-children.sh), where bash would give it /dev/null.
{ exec {cmd_in}<&0; } 2> /dev/null || exec {cmd_in}< /dev/null

# ---- clean-up: no half capture, no tracing left on --------------------------
# On an error, an interruption (SIGINT, SIGTERM, SIGHUP) or the normal end:
# CMD and its processes or a snapshot it was waiting for ended, the
# slab-fill server ended (its BPF program goes with it), the reader and
# zstd stopped, the tracing instances removed (their events, options,
# set_event_pid and buffers go with them: the top-level tracer is never
# touched) and tracefs unmounted if the capture mounted it, the staging
# and temporary directories removed.  A second signal meanwhile is
# ignored, so that the clean-up ends.
tmp="" stage="" zstd_pid="" committed=0
cleanup() {
	local rc=$?
	set +e
	trap '' INT TERM HUP
	# (ended, not waited for: end_child, capture-children.sh)
	children_stop
	[ -z "$FILL_PID" ] || end_child "$FILL_PID"
	FILL_PID=""
	fill_stop
	[ -z "$zstd_pid" ] || end_child "$zstd_pid"
	[ -z "${UT_READER:-}" ] || end_child "$UT_READER"
	UT_READER=""
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
# a reader gone (the slab-fill server's FIFO) is an error to handle, not
# the end of the script (a handler, not SIG_IGN: CMD gets SIGPIPE as usual)
trap : PIPE

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

# ---- the slab-fill server: loaded before anything is read ------------------
# Its BPF program's load (the verifier) is the one costly step of the
# reads (capture-slabfill.sh): done now, it is in no snapshot's counts and
# no trace.  Without the binary (not built: no clang or libbpf) the slab
# page frames are read by `slabsim slab-pages` and no fill is read.
fill_bin=${reaper:+$(dirname "$reaper")/slab-fill}
if [ -n "$fill_bin" ] && [ -x "$fill_bin" ]; then
	fill_start "$fill_bin" "$tmp"
else
	FILL_WHY="${fill_bin:-slab-fill}: not built (make build/slab-fill; clang and libbpf: make deps)"
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

# The reader, zstd, streams trace_pipe (merged across CPUs in time order,
# so an allocation precedes its free on another CPU) while CMD runs, so
# the capture is not bounded by the ring buffer, only by how fast it is
# drained: it runs at a higher priority than the workload (a workload of
# many tasks would otherwise starve it and the ring buffer overrun), at a
# fast level.  It blocks until tracing starts, and gets end-of-file once
# tracing is off and the buffer is empty.  It reads trace_pipe itself (a
# pipe between a reader and it frees a page for every 4 KiB of text: an
# mm_page_free event each) and writes into the staging tmpfs (on a disk
# file system, every 4 KiB it writes gets a buffer_head: events of the
# tool's own, in the window); the file is moved into the capture at the end.
# (--no-asyncio, zstd 1.5.3+: no I/O threads, whose PIDs the tool's count
# would have to find)
zstd_opts=(-q -1 -c)
! zstd --no-asyncio -q -c < /dev/null > /dev/null 2>&1 || zstd_opts+=(--no-asyncio)
nice -n -10 zstd "${zstd_opts[@]}" < "$INST/trace_pipe" > "$stage/capture.ftrace.zst" &
zstd_pid=$!

# A snapshot at real-time priority where the kernel allows it (chrt -f):
# every cache's figures are read in the shortest window the machine gives.
SLAB_SYSFS=${SLAB_DIR:-/sys/kernel/slab}
rt=()
if command -v chrt > /dev/null && chrt -f 50 true 2> /dev/null; then
	rt=(chrt -f 50)
fi
snapshot() { run_child "${rt[@]}" "$here/slab-snapshot.sh" "$@"; }

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
# the slab-fill server's program loaded (its first line), and the server
# at the snapshots' priority: the reads right after the counts come first
fill_ready
[ -z "$FILL_PID" ] || [ ${#rt[@]} = 0 ] || chrt -f -p 50 "$FILL_PID" > /dev/null 2>&1 || true
fill_after_cmd "$stage/slab-fill-after.txt" "$stage/.fill-err"
# A 1 s wait that forks nothing (a `sleep` in the window would be a
# process of the tool's, with its own events): a read of a FIFO no one
# writes, with a timeout.
mkfifo "$tmp/.tick"
exec {tick_fd}<> "$tmp/.tick"
rm -f "$tmp/.tick"
tick() { read -r -t "$1" -u "$tick_fd" _ || true; }
# CMD's processes, waiting (capture-children.sh): forked and exec'd now,
# under `slabsim reap` (capture-orphans.sh), they start CMD in the window
# with no process of the tool's forked there.
mkfifo "$tmp/.go"
exec {go_fd}<> "$tmp/.go"
rm -f "$tmp/.go"
# slabsim reap says CMD's status and waits, its exit after the window
# and the after-snapshot (cmd_hold, cmd_release)
if [ -n "$reaper" ]; then
	cmd_hold "$tmp"
	CMD_REAPER=("$reaper" reap --report "$stage/.reap" "${CMD_HOLD_ARGS[@]}" --)
fi
SLABSIM_TRACE_MARKER=$INST/trace_marker cmd_start "$cmd_in" "$go_fd" "$tick_fd $FILL_W $FILL_R" "$cmd"
# the tasks no tracepoint reports (capture-untraced.sh): watched over the
# whole window the kmem events cover
ut_start "$stage"
# read_file FILE CMD...: run CMD (which writes FILE); `read_status` gets
# yes, or "no (its first error)" with FILE removed and the error kept in
# `read_error` (the capture goes on without the file).
read_file() {
	local file=$1
	shift
	if run_child "$@" 2> "$stage/.read-err"; then
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
if [ -n "$fill_bin" ] && [ -x "$fill_bin" ]; then
	if [ "$FILL_READY" = yes ]; then
		fill_request fill "$stage/slab-fill-before.txt"
		slab_fill=$read_status
	else
		slab_fill="no (${FILL_WHY:0:200})" read_error=$FILL_WHY
	fi
	[ "$slab_fill" = yes ] ||
		echo "$prog: warning: slab-fill: $read_error: node partial slabs' fills not measured" >&2
fi
if [ -e "$INST/set_event_notrace_pid" ] && [ -e "$INST/options/event-fork" ]; then
	tfs_write 1 "$INST/options/event-fork"
	tfs_walk_instance
	tfs_open_fds
	snapshot -p before -S "$stage/slabinfo-before" -T "$INST" ${WALK_INST:+-W "$WALK_INST"} "$stage/slab-before.txt"
	tfs_walk_stop
	# The snapshot's PIDs left the notrace list as each of its processes
	# exited, event-fork on (event_filter_pid_sched_process_exit(),
	# kernel/trace/trace_events.c, 5.8+): no PID reused in the window is
	# left out.  The list itself is freed, and event-fork turned off
	# (its probes unregistered), after the window and the after-snapshot
	# (trace_pid_list_free(): ~280 kmem events of the tool's own).
	pid_filter_set=yes
	trace_from=snapshot
else # before 5.8: the walk untraced, then tracing
	snapshot -p before -S "$stage/slabinfo-before" "$stage/slab-before.txt"
	tfs_open_fds
	tfs_fd_write 1 "$TFS_ON_FD" "$INST/tracing_on"
	trace_from=after-snapshot pid_filter_set=no
fi
# ---- the tracing window: from here to tracing off, the capture forks ------
# nothing (without slab-fill: slabsim slab-pages); CMD's processes were
# started before.  Its own processes here are zstd (the reader), the
# untraced-task reader, the slab-fill server, slabsim reap and this
# script (meta tool_pids, whose events meta counts as tool_events).
#
# Objects that did not exist when tracing began, read right after it
# began (so that whatever the reads miss was allocated with tracing on):
# which page frames are slab pages (/proc/kpageflags, slab-pages-start.txt)
# and each listed slab's free objects (slab-fill again,
# slab-fill-start.txt).  A free the trace shows of an object on another
# page, or of one free then, with no allocation event, is of an object a
# task no event reports allocated in the window (import --slab-pages and
# --free-objects, reconcile/import/rule_slab_pages.c).
slab_pages=no pages_pid=""
if [ -n "$FILL_PID" ]; then
	fill_request pages "$stage/slab-pages-start.txt"
	slab_pages=$read_status
elif [ -n "$reaper" ]; then
	read_file "$stage/slab-pages-start.txt" "$reaper" slab-pages "$stage/slab-pages-start.txt"
	pages_pid=$CHILD_LAST_PID
	slab_pages=$read_status
fi
[ "$slab_pages" = yes ] || [ -z "$reaper" ] || echo "$prog: warning: slab-pages: $read_error" >&2
slab_fill_start=no
if [ "$slab_fill" = yes ]; then
	fill_request fill "$stage/slab-fill-start.txt"
	slab_fill_start=$read_status
fi

# ---- trace -----------------------------------------------------------------
marker() { tfs_fd_write "slabsim-phase $1" "$TFS_MARKER_FD" "$INST/trace_marker"; }
now_us() { now=${EPOCHREALTIME/[.,]/}; } # the decimal mark is the locale's
# One second of what the machine does without CMD: the settle below waits
# until the event rate is back near it.
tfs_written; w0=$written
tick 1
tfs_written; baseline=$((written - w0))

marker start
now_us; start_us=$now
status=0
cmd_go "$go_fd"
cmd_wait || status=$?
now_us; end_us=$now
marker end

# Frees that CMD caused but the kernel defers: RCU callbacks after a grace
# period, kfree_rcu() batches drained after up to 5 s (KFREE_DRAIN_JIFFIES),
# work items, writeback.  rcu_barrier() has no userspace entry, so wait at
# least min(6 s, SETTLE) and then until a second passes with no more than
# twice the baseline rate (+100), SETTLE at most.
settle_min=$((settle < 6 ? settle : 6))
quiet=$((2 * baseline + 100))
# The rate is read from the second before settle_min on, not before:
# every read of the stats is an open and a kmalloc'd text per CPU, in the
# window (tfs_written), and an earlier second's rate decides nothing.
settled=0 settle_end=limit last_rate=0 prev=""
while [ $settled -lt "$settle" ]; do
	if [ -z "$prev" ] && [ $((settled + 1)) -ge $settle_min ]; then
		tfs_written; prev=$written
	fi
	tick 1
	settled=$((settled + 1))
	[ $settled -ge $settle_min ] || continue
	tfs_written
	last_rate=$((written - prev))
	prev=$written
	if [ $last_rate -le $quiet ]; then
		settle_end=quiet
		break
	fi
done
marker settled
# zstd, draining the ring buffer after tracing is off, would have its
# objects in the after-counts and in no trace (writing into DIR where no
# tmpfs stages the file: its pages' buffer_heads, measured 10 in one
# capture).  It waits, stopped, until the after-reads are done; the ring
# buffer keeps the rest meanwhile.
kill -STOP "$zstd_pid" 2> /dev/null || die "zstd, compressing the capture, is gone (disk full?)"
tfs_fd_write 0 "$TFS_ON_FD" "$INST/tracing_on"
# ---- the tracing window ends ------------------------------------------------
# Right away: what happens between tracing off and the snapshot is in the
# snapshot but not in the capture.  At real-time priority the snapshot
# takes ~0.1 s here instead of ~2 s on a busy machine.  The CPU slabs'
# free slots at the end, which the after-snapshot's `objects` counts as
# in use, are read right after its counts and before its walk (-A), for
# the report's objects in use (docs/own-trace.md): read after the walk,
# they had the walk's own allocations taken from them.  Only where the
# before read worked; a failure here costs that figure only.
fill_after=""
[ "$slab_fill" != yes ] || fill_after=$FILL_AFTER_CMD
snapshot -p after -S "$stage/slabinfo-after" ${fill_after:+-A "$fill_after"} "$stage/slab-after.txt"
kill -CONT "$zstd_pid"
# the tool's processes of the window, while they all still run (zstd's
# threads have their own PIDs in the trace)
tool_pids="$$ ${UT_READER:-} ${FILL_PID:-} ${reaper:+$CMD_LAST_PID} $pages_pid"
for t in /proc/"$zstd_pid"/task/[0-9]*; do [ -e "$t" ] && tool_pids+=" ${t##*/}"; done
# What the window's filters and the reaper held goes now, in neither the
# trace nor the counts
if [ "$pid_filter_set" = yes ]; then
	tfs_write "" "$INST/set_event_notrace_pid"
	tfs_write 0 "$INST/options/event-fork"
fi
cmd_release
tfs_close_fds
slab_fill_after=no
if [ "$slab_fill" = yes ]; then
	if [ -e "$stage/slab-fill-after.txt" ] && [ ! -e "$stage/.fill-err" ]; then
		slab_fill_after=yes
	else
		slab_fill_after="no ($(head -c 200 "$stage/.fill-err" 2> /dev/null | tr '\n' ' '))"
		rm -f "$stage/slab-fill-after.txt"
	fi
	rm -f "$stage/.fill-err"
fi
fill_stop
ut_stop "$stage"
tfs_walk_save "$stage/walk.ftrace.zst"

# The reader ends by itself once the buffer is drained; a kernel that does
# not give trace_pipe readers end-of-file gets 30 s, then the reader is
# stopped and whatever it had not read counts as lost (the file is then
# cut where zstd was stopped: meta says reader=stopped and lossy=yes).
reader=clean
for _ in $(seq 300); do
	kill -0 "$zstd_pid" 2> /dev/null || break
	sleep 0.1
done
if kill -0 "$zstd_pid" 2> /dev/null; then
	kill "$zstd_pid" 2> /dev/null || true
	reader=stopped
fi
zstd_rc=0
wait "$zstd_pid" || zstd_rc=$?
zstd_pid=""
[ "$zstd_rc" = 0 ] || [ "$reader" = stopped ] || die "compressing the capture failed (no room in $stage? SLABSIM_STAGE=)"
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
# order, from the capture itself; and the tool's own events: those of its
# processes of the window (tool_pids), in their own context -- not an
# interrupt's or a softirq's that ran on them (the third flag: "." for a
# task, "s" softirq, "h" hard irq ..., kernel/trace/trace_output.c
# trace_print_lat_fmt()) -- markers aside.
tool_pids=$(printf '%s\n' $tool_pids | sort -nu | tr '\n' ' ')
tool_pids=${tool_pids% }
# (a reader stopped cut the file short: what it holds is counted)
{ zstd -dc "$tmp/capture.ftrace.zst" 2> /dev/null || [ "$reader" = stopped ]; } | awk -v tools="$tool_pids" '
	BEGIN { nt = split(tools, t, " "); for (i = 1; i <= nt; i++) tool[t[i]] = 1 }
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
		} else if (match($0, /-[0-9]+ +\[[0-9]+\] [^ ]+ /)) {
			split(substr($0, RSTART + 1, RLENGTH - 1), f, " ")
			if ((f[1] in tool) && substr(f[3], 3, 1) == ".")
				own++
		}
	}
	END {
		printf "lines=%d\nevents=%d\nlost_markers=%d\nphases=%s\ntool_events=%d\n", NR, events, lost, phases, own
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
	echo "tool_pids=$tool_pids"
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
own=$(sed -n 's/^tool_events=//p' "$dest/meta")
share=$(awk -v o="$own" -v e="$events" 'BEGIN { printf "%.2f", e ? 100 * o / e : 0 }')
echo "$prog: $dest: $events events ($own of them the capture's own processes', $share%), $(stat -c %s "$dest/capture.ftrace.zst") bytes compressed, CMD exit $status, settled ${settled}s ($settle_end)"
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
