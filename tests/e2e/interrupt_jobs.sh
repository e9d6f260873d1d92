#!/bin/bash
# interrupt_jobs.sh - the jobs that replay a trace many times (make
# compare ALLOCATORS=, make sweep, make advise, make check-captures, make
# sensitivity) each
# print progress off a terminal, a line per finished unit, and stop
# cleanly when interrupted once that work is under way (its first progress
# line):
#   - ^C: SIGINT to make's whole process group;
#   - kill: SIGTERM to make alone (make passes it to its recipes only);
# either way make exits non-zero within a few seconds, no *.tmp.* file or
# directory is left under the reports, the data or the job's TMPDIR (and
# nothing else there of the job's temporary files), no process the job
# started is left (make leads a session of its own), no run's directory is left without its summary.csv
# (which would stop the next run), and the job made again completes.
# Needs gnuplot: SKIP (exit 77) otherwise.
. "$(dirname "$0")/lib/common.bash"
need_gnuplot
need_cmd zstd

# A seconds-long trace for make advise's replays (its progress lines
# begin two seconds into the pass).
"$S" gen hackbench -g 20 -l 800 -o "$tmp/hb.sbt" >/dev/null 2>&1 || fail "slabsim gen hackbench"

# job NAME: the make arguments of job NAME, and the progress line to wait for
job_args() {
	case $1 in
	compare) args=(compare WORKLOAD=smack17k RULES=60000 ALLOCATORS="slub slab" MODELS="traced kmem_cache")
		first='^compare: 1 of 5 done' ;;
	sweep) args=(sweep WORKLOAD=smack17k RULES=60000 MODELS=traced PARAM=target
		VALUES="arm32-3.10 x86_64-4.6 x86_64-6.1 x86_64-6.18")
		first='^sweep: 1 of 4 done' ;;
	advise) args=(advise TRACE="$tmp/hb.sbt" TARGET=x86_64-6.1)
		first='hb.sbt advise: [0-9]+ replays .*%' ;;
	check-captures) args=(check-captures CAPTURES="$root/tests/data/captures" DRAWS=2)
		first='^check-captures: 1 of 6 done' ;;
	sensitivity) args=(sensitivity WORKLOAD=hackbench HB_GROUPS=2 HB_LOOPS=200 SENS_JOBS=2
		SENS_ONLY="alloc_slowpath list_lock poison_write_byte clock_mhz HB_QUANTUM")
		first='^sensitivity: 1 of 6 done' ;;
	esac
}

# run NAME DIR: job NAME into DIR (reports, data, TMPDIR), its log DIR/log
run() {
	mkdir -p "$2/tmpdir"
	job_args "$1"
	TMPDIR=$2/tmpdir make -C "$root" --no-print-directory "${args[@]}" SLABSIM="$S" \
		REPORTS="$2/reports" DATASETS="$2/data" >"$2/log" 2>&1
}

# left_in SESSION: the processes of that session still running, one a
# line (not one that has ended and waits to be reaped: a zombie does
# nothing)
left_in() { ps -eo sess=,pid=,stat=,args= | awk -v s="$1" '$1 == s && $3 !~ /^Z/' || true; }

# half_runs DIR [-v]: false when a run's directory under DIR (any
# */runs/*/) has files but no summary.csv; -v: print them
half_runs() {
	local r bad=0
	for r in $(find "$1" -path '*/runs/*' -prune -type d 2>/dev/null); do
		[ -e "$r/summary.csv" ] || [ -z "$(ls -A "$r")" ] && continue
		bad=1
		[ "${2:-}" = -v ] && echo "$r"
	done
	[ $bad = 0 ]
}

# interrupt NAME SIGNAL WHOM (group or make): job NAME interrupted, checked
interrupt() {
	local name=$1 sig=$2 whom=$3 d=$tmp/$1-$2 pid rc t0 t1 left
	mkdir -p "$d/tmpdir"
	job_args "$name"
	# make leads a session of its own, and so its process group, as a
	# command of an interactive shell leads its group (a background
	# command of a script would start with SIGINT ignored: env puts it
	# back); every process the job starts is in that session
	TMPDIR=$d/tmpdir env --default-signal=INT setsid make -C "$root" --no-print-directory "${args[@]}" \
		SLABSIM="$S" REPORTS="$d/reports" DATASETS="$d/data" >"$d/log" 2>&1 &
	pid=$!
	for _ in $(seq 1200); do
		grep -Eq "$first" "$d/log" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	grep -Eq "$first" "$d/log" || { tail -20 "$d/log"; fail "$name: no progress line '$first'"; }
	kill -0 "$pid" 2>/dev/null || fail "$name: done before the interrupt (a longer job is needed)"
	sleep 0.3
	t0=$(date +%s)
	if [ "$whom" = group ]; then kill -"$sig" -- -"$pid"; else kill -"$sig" "$pid"; fi 2>/dev/null ||
		fail "$name: done before the interrupt (a longer job is needed)"
	rc=0
	wait "$pid" || rc=$?
	t1=$(date +%s)
	[ "$rc" -ne 0 ] || fail "$name, SIG$sig to $whom: make exited 0 ($(tail -3 "$d/log"))"
	[ $((t1 - t0)) -le 10 ] || fail "$name, SIG$sig to $whom: make took $((t1 - t0)) s to stop"
	# what runs on after make has gone: a $(shell ...) a sub-make forked
	# as the signal came (after the group was signalled) ends by itself
	# within moments, so a process still there after 2 s is one left
	# running; and again a second later
	for _ in $(seq 20); do
		left=$(left_in "$pid")
		[ -n "$left" ] || break
		sleep 0.1
	done
	[ -z "$left" ] || fail "$name, SIG$sig to $whom: processes of the job left: $left"
	sleep 1
	left=$(left_in "$pid")
	[ -z "$left" ] || fail "$name, SIG$sig to $whom: processes of the job left: $left"
	left=$(find "$d/reports" "$d/data" "$d/tmpdir" -name '*.tmp.*' 2>/dev/null)
	[ -z "$left" ] || fail "$name, SIG$sig to $whom: left $left"
	left=$(ls -A "$d/tmpdir")
	[ -z "$left" ] || fail "$name, SIG$sig to $whom: left in TMPDIR: $left"
	# no run's directory holds files but no summary.csv (make deleting a
	# finished run's: the next run would refuse the directory)
	half_runs "$d/reports" || fail "$name, SIG$sig to $whom: a run's directory without its summary.csv: $(half_runs "$d/reports" -v)"
	echo "interrupt_jobs: $name, SIG$sig to $whom: make exit $rc after $((t1 - t0)) s, nothing left"
}

for name in compare sweep advise check-captures sensitivity; do
	interrupt "$name" INT group
	interrupt "$name" TERM make
	# made again where the second interrupt left it: it completes (compare
	# and sensitivity; the others' completion is their own tests')
	case $name in compare | sensitivity) ;; *) continue ;; esac
	run "$name" "$tmp/$name-TERM" || { tail -20 "$tmp/$name-TERM/log"; fail "$name after an interrupt"; }
	job_args "$name"
	case $name in
	compare) grep -Eq '^compare: 5 units in ' "$tmp/$name-TERM/log" || fail "compare: no closing progress line" ;;
	sensitivity) grep -Eq '^sensitivity: 6 units in ' "$tmp/$name-TERM/log" || fail "sensitivity: no closing progress line" ;;
	esac
	left=$(find "$tmp/$name-TERM" -name '*.tmp.*')
	[ -z "$left" ] || fail "$name made again: left $left"
done
echo "interrupt_jobs: ok"
