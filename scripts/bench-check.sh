#!/bin/bash
# bench-check.sh BENCH.CSV - the two acceptance figures of `make bench`
# (docs/bench.md): model traced against glibc malloc on the hackbench trace
# (want >= 3x events/s; issue 19), and each replay's peak RSS on the 100 M-event trace
# against the 10 M-event one (want <= 2x).  Prints PASS/FAIL lines; exits
# 1 if a figure misses, so a CI can gate on it.
set -euo pipefail
csv=$1
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ key = $c["model"] SUBSEP $c["workload"]
  rate[key] = $c["events_per_s"]; base[key] = $c["baseline_events_per_s"]
  ratio[key] = $c["ratio"]; rss[key] = $c["peak_rss_kib"]; models[$c["model"]] = 1 }
END {
	bad = 0
	k = "traced" SUBSEP "hackbench"
	if (!(k in ratio)) { print "bench-check: no traced row on hackbench"; exit 1 }
	ok = ratio[k] >= 3
	printf "%s traced on hackbench: %.0f events/s, glibc malloc %.0f events/s: %.2fx (want >= 3x)\n",
		ok ? "PASS" : "FAIL", rate[k], base[k], ratio[k]
	bad += !ok
	for (m in models) {
		a = m SUBSEP "hackbench-10M"; b = m SUBSEP "hackbench-100M"
		if (!(a in rss) || !(b in rss) || rss[a] == 0) continue
		r = rss[b] / rss[a]; ok = r <= 2
		printf "%s %s peak RSS: %d KiB at 100M events, %d KiB at 10M: %.2fx (want <= 2x)\n",
			ok ? "PASS" : "FAIL", m, rss[b], rss[a], r
		bad += !ok
	}
	exit bad > 0
}' "$csv"
