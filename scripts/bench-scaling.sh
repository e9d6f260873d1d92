#!/bin/bash
# bench-scaling.sh SLABSIM TRACE CSV - decode once, replay many, on every
# core (sim/multi.h), for `make bench` (docs/bench.md): a 16-run pass over
# TRACE (four models on four targets, one `slabsim run --runs`), timed
# with one worker thread and with two, one after the other in this run.
# Writes CSV (jobs,runs,wall_s,cpu_s,speedup) and prints PASS/FAIL
# against the goal (two workers >= 1.8x faster than one), with the load
# average: the ratio is taken within one run of this script, so other
# work on a shared machine weighs on both measures.  Both passes must
# write the same files.
set -euo pipefail
S=$1 trace=$2 csv=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for m in traced traced+P kmalloc-buckets traced+F; do
	for t in x86_64-4.5 x86_64-4.6 x86_64-6.1 x86_64-6.x; do
		printf -- '--model %s --target %s --out %s/JOBS/%s__%s\n' "$m" "$t" "$tmp" "$t" "$m"
	done
done >"$tmp/runs.tpl"
now() { date +%s.%N; }
# one pass with $1 workers: "wall cpu" (cpu: user + system of the process)
pass() {
	sed "s|/JOBS/|/$1/|" "$tmp/runs.tpl" >"$tmp/runs$1"
	local t0 t1
	t0=$(now)
	/usr/bin/time -f '%U %S' -o "$tmp/time$1" "$S" run --quiet --trace "$trace" \
		--jobs "$1" --runs "$tmp/runs$1"
	t1=$(now)
	awk -v a="$t0" -v b="$t1" '{ printf "%.2f %.2f\n", b - a, $1 + $2 }' "$tmp/time$1"
}
read -r w1 c1 < <(pass 1)
read -r w2 c2 < <(pass 2)
diff -r "$tmp/1" "$tmp/2" >/dev/null || { echo "bench-scaling: FAIL: two workers wrote other files than one"; exit 1; }
speedup=$(awk -v a="$w1" -v b="$w2" 'BEGIN { printf "%.2f", a / b }')
{
	echo "jobs,runs,wall_s,cpu_s,speedup"
	echo "1,16,$w1,$c1,1.00"
	echo "2,16,$w2,$c2,$speedup"
} >"$csv.tmp"
mv "$csv.tmp" "$csv"
ok=$(awk -v s="$speedup" 'BEGIN { print (s >= 1.8 ? "PASS" : "FAIL") }')
echo "$ok 16-run pass over $(basename "$trace"): ${w1} s with one worker, ${w2} s with two: ${speedup}x (want >= 1.8x); cpu ${c1} s and ${c2} s; load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
[ "$ok" = PASS ]
