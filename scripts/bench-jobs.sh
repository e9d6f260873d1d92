#!/bin/bash
# bench-jobs.sh CSV - `make bench-jobs` (docs/bench.md): the wall and CPU
# time of the jobs that replay one trace many times, each from a warm
# build and its inputs made first, each with its command:
#   make sensitivity WORKLOAD=hackbench      (its settings removed first)
#   make compare WORKLOAD=smack17k ALLOCATORS="slub slab slub-tiny"  (its runs removed first)
#   slabsim advise on smack17k's ref trace
# Writes CSV (job,command,wall_s,cpu_s,load_before,load_after).  Long: the
# first takes about a minute on an idle 2-core machine.
set -euo pipefail
csv=$1
MAKE=${MAKE:-make}
S=${SLABSIM:-build/slabsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }
# job NAME COMMAND...: one row
job() {
	local name=$1 l0 l1 t0 t1
	shift
	l0=$(load)
	t0=$(date +%s.%N)
	/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >"$tmp/log" 2>&1 ||
		{ tail -20 "$tmp/log"; echo "bench-jobs: $name failed" >&2; exit 1; }
	t1=$(date +%s.%N)
	l1=$(load)
	awk -v n="$name" -v c="$*" -v a="$t0" -v b="$t1" -v l0="$l0" -v l1="$l1" \
		'{ printf "%s,\"%s\",%.1f,%.1f,%s,%s\n", n, c, b - a, $1 + $2, l0, l1 }' "$tmp/t" >>"$csv.tmp"
	tail -1 "$csv.tmp"
}
echo "job,command,wall_s,cpu_s,load_before,load_after" >"$csv.tmp"
"$MAKE" --no-print-directory sim WORKLOAD=hackbench >/dev/null
rm -rf reports/hackbench/sensitivity reports/hackbench/sensitivity.csv
job sensitivity "$MAKE" --no-print-directory sensitivity WORKLOAD=hackbench
"$MAKE" --no-print-directory sim WORKLOAD=smack17k >/dev/null
rm -rf reports/smack17k/kernels
job compare "$MAKE" --no-print-directory compare WORKLOAD=smack17k ALLOCATORS="slub slab slub-tiny"
job advise "$S" advise --trace datasets/smack17k/ref.trace --target arm32-3.10 --out "$tmp/advise"
mv "$csv.tmp" "$csv"
