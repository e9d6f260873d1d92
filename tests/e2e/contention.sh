#!/bin/bash
# contention.sh - lock waits and cmpxchg retries on the simulated clocks
# (docs/cost-model.md, Contention), end to end: a small hackbench trace on
# 8 CPUs under slub_debug=P waits for list_lock (summary.csv, locks.csv,
# counters.csv agree), the same trace's one-CPU replay never waits, and
# the one-CPU run's time figures are those of a run with zero-priced
# contention steps (nothing else moved).
. "$(dirname "$0")/lib/common.bash"

gen=(-g 2 -l 20 --fds 8 --quantum 16)
"$S" gen hackbench "${gen[@]}" --cpus 8 -o "$tmp/t8.sbt" 2>/dev/null
"$S" gen hackbench "${gen[@]}" --cpus 1 -o "$tmp/t1.sbt" 2>/dev/null

# ---- 8 CPUs, 4.5, P: every alloc and free takes the node's list_lock ----
"$S" run --trace "$tmp/t8.sbt" --model traced+P --target x86_64-4.5 --cpus 8 \
	--out "$tmp/r8"
waits=$(col "$tmp/r8/summary.csv" lock_waits)
wait_ms=$(col "$tmp/r8/summary.csv" lock_wait_ms)
[ "$waits" -gt 0 ] || fail "8 CPUs: lock_waits $waits, want > 0"
awk -v w="$wait_ms" 'BEGIN { exit !(w > 0) }' || fail "8 CPUs: lock_wait_ms $wait_ms"
[ "$(col "$tmp/r8/summary.csv" remote_line_transfers)" -gt 0 ] || fail "8 CPUs: no line transfers"
head -1 "$tmp/r8/locks.csv" | grep -qx 'cache,resource,uses,waits,retries,wait_ms,hold_ms' ||
	fail "locks.csv header: $(head -1 "$tmp/r8/locks.csv")"
# locks.csv's waits add up to summary's, and counters.csv counts them too
expect_eq "locks.csv waits" "$(awk -F, 'NR > 1 { n += $4 } END { print n }' "$tmp/r8/locks.csv")" "$waits"
expect_eq "counters.csv lock_wait" \
	"$(awk -F, '$2 == "lock_wait" { n += $4 } END { print n + 0 }' "$tmp/r8/counters.csv")" "$waits"
grep -q '^kmalloc-512,list_lock,' "$tmp/r8/locks.csv" || fail "no kmalloc-512 list_lock row"
# every row has the header's field count
awk -F, 'NF != 7 { exit 1 }' "$tmp/r8/locks.csv" || fail "locks.csv field count"

# ---- one CPU: the same messages, no wait, no retry, no transfer ----
"$S" run --trace "$tmp/t1.sbt" --model traced+P --target x86_64-4.5 --cpus 1 \
	--out "$tmp/r1"
expect_eq "1 CPU lock_waits" "$(col "$tmp/r1/summary.csv" lock_waits)" 0
expect_eq "1 CPU lock_wait_ms" "$(col "$tmp/r1/summary.csv" lock_wait_ms)" 0.000
expect_eq "1 CPU cmpxchg_retries" "$(col "$tmp/r1/summary.csv" cmpxchg_retries)" 0
expect_eq "1 CPU remote_line_transfers" "$(col "$tmp/r1/summary.csv" remote_line_transfers)" 0
[ "$(awk -F, 'NR > 1 { n += $3 } END { print n + 0 }' "$tmp/r1/locks.csv")" -gt 0 ] ||
	fail "1 CPU: locks.csv counts no uses"
# the contention steps priced at zero change nothing on one CPU
printf 'cmpxchg_retry 0\nslab_line_transfer 0\n' >"$tmp/zero.costs"
"$S" run --trace "$tmp/t1.sbt" --model traced+P --target x86_64-4.5 --cpus 1 \
	--costs "$tmp/zero.costs" --out "$tmp/r1z"
for c in sim_time_ms alloc_time_ms p50_ns p99_ns alloc_p99_ns free_p99_ns; do
	expect_eq "1 CPU $c" "$(col "$tmp/r1/summary.csv" $c)" "$(col "$tmp/r1z/summary.csv" $c)"
done
cmp -s "$tmp/r1/latency.csv" "$tmp/r1z/latency.csv" || fail "1 CPU latency.csv moved"
echo "contention.sh: ok"
