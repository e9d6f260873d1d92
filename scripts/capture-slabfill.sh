# shellcheck shell=bash
# capture-slabfill.sh - the capture's reads of the slab lists and of the
# slab page frames through one `slab-fill --serve` (capture/slabfill.c),
# for scripts/capture.sh (sourced, not run).
#
# slab-fill loads a BPF program, and loading it runs the verifier, whose
# own objects are ~700,000 kmem events a load on 6.18
# (copy_verifier_state() in kmalloc-cg-2k, copy_array() in kmalloc-cg-4k,
# kernel/bpf/verifier.c): more than the command of most captures.  So the
# program is loaded once, before tracing begins, and the same process
# serves every read after that: those inside the tracing window
# (slab-pages-start.txt, slab-fill-start.txt) cost only the iterator's
# file and the output file's objects, and slab-fill-after.txt, read right
# after the after-counts, has no verifier's objects in what it reads.
#
# Requests and replies go through two FIFOs, whose descriptors (FILL_W,
# FILL_R) are inherited by the snapshot's -A command (slab-snapshot.sh).
# Needs die().  FILL_PID is the server, a tool process of the window (meta
# tool_pids); FILL_READY says whether its program loaded (FILL_WHY: why
# not; the slab page frames are read either way).

FILL_PID="" FILL_W="" FILL_R="" FILL_READY=no FILL_WHY="not started"

# fill_start BIN DIR: start BIN --serve, its FIFOs made in DIR and removed
# once open.  The request FIFO is opened read-write, which never blocks;
# the reply FIFO read-only, so that a server gone ends the reply's read.
fill_start() {
	local bin=$1 dir=$2
	mkfifo "$dir/.fill-in" "$dir/.fill-out" || die "cannot make slab-fill's FIFOs in $dir"
	exec {FILL_W}<> "$dir/.fill-in"
	"$bin" --serve < "$dir/.fill-in" > "$dir/.fill-out" {FILL_W}>&- &
	FILL_PID=$!
	exec {FILL_R}< "$dir/.fill-out"
	rm -f "$dir/.fill-in" "$dir/.fill-out"
}

# fill_ready: wait for the server's first line (the program loaded or why
# not); sets FILL_READY and FILL_WHY.
fill_ready() {
	local line=""
	[ -n "$FILL_PID" ] || return 0
	if ! read -r line <&"$FILL_R"; then
		FILL_WHY="slab-fill ended before it was ready"
		fill_stop
	elif [ "$line" = ok ]; then
		FILL_READY=yes FILL_WHY=""
	else
		FILL_WHY=${line#error }
	fi
}

# fill_request fill|pages OUT: one read into OUT.  Sets read_status (yes,
# or "no (why)") and read_error (why), as capture.sh's read_file does.
fill_request() {
	local line=""
	read_status=yes read_error=""
	if [ -z "$FILL_PID" ]; then
		read_error=$FILL_WHY
	elif ! printf '%s %s\n' "$1" "$2" >&"$FILL_W" || ! read -r line <&"$FILL_R"; then
		read_error="slab-fill ended"
	elif [ "$line" != ok ]; then
		read_error=${line#error }
	fi
	[ -z "$read_error" ] || read_status="no (${read_error:0:200})"
}

# fill_after_cmd OUT ERRFILE: sets FILL_AFTER_CMD, the fill request as a
# command for slab-snapshot.sh -A, which runs it right after its counts;
# the reply, when not ok, is written to ERRFILE.  Made with builtins
# only: called before the window ends, nothing is forked for it.
fill_after_cmd() {
	local out err
	printf -v out %q "$1"
	printf -v err %q "$2"
	FILL_AFTER_CMD="printf 'fill %s\\n' $out >&$FILL_W && read -r reply <&$FILL_R && [ \"\$reply\" = ok ] || printf '%s\\n' \"\${reply#error }\" > $err"
}

# fill_stop: end the server (its program goes with it) and wait for it.
# Safe to call twice and from a trap.
fill_stop() {
	if [ -n "$FILL_W" ]; then
		exec {FILL_W}>&-
		FILL_W=""
	fi
	if [ -n "$FILL_PID" ]; then
		# (it ends at the end of its input; a request it is in the
		# middle of is cut short)
		kill -TERM "$FILL_PID" 2> /dev/null || true
		wait "$FILL_PID" 2> /dev/null || true
		FILL_PID=""
	fi
	if [ -n "$FILL_R" ]; then
		exec {FILL_R}<&-
		FILL_R=""
	fi
}
