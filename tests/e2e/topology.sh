#!/bin/bash
# topology.sh - topologies end to end: `slabsim topology` sizes for a
# synthetic description and the shipped XML files, model runs on hwloc
# topologies with each CPU map (smack17k and hackbench on a synthetic
# 2 x 16 x 2 machine), host mode (measured files only, pinned threads,
# unsupported events reported, refusal of a topology bigger than this
# host) and `slabsim calibrate` feeding `--costs`.
. "$(dirname "$0")/lib/common.bash"
cd "$root"
# json FILE KEY: a top-level string or number of our JSON files
json() { sed -n -e "s/^  \"$2\": \"\(.*\)\",\{0,1\}$/\1/p" -e "s/^  \"$2\": \([0-9.]*\),\{0,1\}$/\1/p" "$1"; }
SYNTH2x16x2='synth:"pack:2 numa:1 core:16 pu:2"'

# ---- slabsim topology ----
"$S" topology --topology 'synth:"pack:2 numa:2 core:16 pu:2"' >"$tmp/t"
expect_eq "synthetic sizes" "$(grep -E '^(packages|numa_nodes|cores|pus)=' "$tmp/t" | tr '\n' ' ')" \
	"packages=2 numa_nodes=4 cores=64 pus=128 "
"$S" topology --topology xml:datasets/topologies/xeon-gold-6248-2s.xml >"$tmp/t"
expect_eq "2-socket XML" "$(grep -E '^(packages|numa_nodes|pus)=' "$tmp/t" | tr '\n' ' ')" \
	"packages=2 numa_nodes=2 pus=80 "
"$S" topology --topology xml:datasets/topologies/epyc-7742-2s-nps4.xml | grep -qx 'pus=256' \
	|| fail "EPYC XML is not 256 PUs"
"$S" topology --topology host | grep -qx "pus=$(nproc)" || fail "host PUs"
# scatter on 2 packages: trace CPU 1 lands on the second package
"$S" topology --topology "$SYNTH2x16x2" --map scatter --pus >"$tmp/t"
grep -qx 'cpu=1 pu=32' "$tmp/t" || fail "scatter: cpu 1 not on pu 32"
grep -qx 'pu=32 os=32 package=1 node=1' "$tmp/t" || fail "pu 32 line"
expect_rc 1 "$S" topology --topology 'synth:pack:x'
grep -q "bad synthetic description 'pack:x'" "$tmp/err" || fail "bad synth message: $(cat "$tmp/err")"
expect_rc 1 "$S" topology --topology xml:"$tmp/none.xml"
grep -q "none.xml: cannot read" "$tmp/err" || fail "missing xml message"
expect_rc 2 "$S" topology
expect_rc 2 "$S" topology --topology host --map diagonal

# ---- model runs: a 4-CPU trace on 2 packages of 2 cores ----
{
	echo "slabsim-trace 1"
	echo "meta workload unit"
	for c in 0 1 2 3; do
		for i in 0 1 2 3 4 5 6 7; do echo "a $c $((c * 8 + i)) s kmalloc 64"; done
	done
	for c in 0 1 2 3; do # each CPU frees the next CPU's objects
		for i in 0 1 2 3 4 5 6 7; do echo "f $c $((((c + 1) % 4) * 8 + i))"; done
	done
} >"$tmp/cpu4.trace"
run() { "$S" run --trace "$tmp/cpu4.trace" --model traced --target x86_64-6.1 "$@"; }
run --topology 'synth:pack:2 core:2 pu:1' --out "$tmp/m1"
expect_eq "topology in summary.json" "$(json "$tmp/m1/summary.json" topology)" \
	"synth:pack:2 core:2 pu:1: 2 packages, 1 NUMA node, 4 cores, 4 PUs; map identity"
expect_eq "cpus column" "$(awk -F, 'NR == 2 { print $7 }' "$tmp/m1/summary.csv")" 4
run --topology 'synth:pack:2 [numa] core:2 pu:1' --map scatter --out "$tmp/m2"
grep -q '"topology": "synth:pack:2 \[numa\] core:2 pu:1: 2 packages, 2 NUMA nodes, 4 cores, 4 PUs; map scatter"' \
	"$tmp/m2/summary.json" || fail "scatter summary: $(grep topology "$tmp/m2/summary.json")"
# two nodes: frees of the other node's objects are node_remote
[ "$(awk -F, '$2 == "node_remote" { n += $4 } END { print n + 0 }' "$tmp/m2/counters.csv")" -gt 0 ] \
	|| fail "no node_remote in counters.csv"
[ "$(awk -F, '$2 == "node_remote" { n += $4 } END { print n + 0 }' "$tmp/m1/counters.csv")" -eq 0 ] \
	|| fail "node_remote on a single node"
# a topology too small for the trace: the line, the PU count, the map
expect_rc 1 run --topology 'synth:pack:1 core:2 pu:1' --out "$tmp/m3"
grep -q "cpu4.trace:[0-9]*: cpu 2 is outside the topology (2 PUs, map identity" "$tmp/err" \
	|| fail "small topology message: $(cat "$tmp/err")"
[ ! -e "$tmp/m3/summary.csv" ] || fail "failed run left summary.csv"
# fold (make topo-plot's map): trace CPU n runs where scatter puts CPU
# n mod PUs, so the 4-CPU trace on 3 PUs gives what the trace with its
# CPUs folded by hand gives under scatter (which trace CPUs share a PU;
# test_topology.c checks the very PU); W.dat's pus is summary's cpus
awk '$1 == "a" || $1 == "f" { $2 = $2 % 3 } 1' "$tmp/cpu4.trace" >"$tmp/cpu4-folded.trace"
run --topology 'synth:pack:1 [numa] core:3 pu:1' --map fold --out "$tmp/fold"
"$S" run --trace "$tmp/cpu4-folded.trace" --model traced --target x86_64-6.1 \
	--topology 'synth:pack:1 [numa] core:3 pu:1' --map scatter --out "$tmp/folded"
sed -i 's/; map fold"/; map scatter"/' "$tmp/fold/summary.json"
# (kernel.txt names the trace and the map each was given)
diff -r -x kernel.txt "$tmp/fold" "$tmp/folded" >&2 || fail "fold differs from the trace folded by hand"
expect_eq "fold: cpus column (W.dat's pus)" "$(awk -F, 'NR == 2 { print $7 }' "$tmp/fold/summary.csv")" 3
expect_rc 2 run --topology host --cpus 4 --out "$tmp/m4"
expect_rc 2 run --map sideways --out "$tmp/m4"
expect_rc 2 run --events task-clock --out "$tmp/m4"

# ---- smack17k and hackbench on 2 packages x 16 cores x 2 threads ----
"$S" gen smack17k --rules 300 --labels 30 --seed 2 --write-rules "$tmp/rules.txt"
"$S" gen smack17k --from-rules "$tmp/rules.txt" --variant ref -o "$tmp/smack.trace"
"$S" run --trace "$tmp/smack.trace" --model traced --target arm32-3.10 \
	--topology "$SYNTH2x16x2" --out "$tmp/smack"
grep -q '"topology": "synth:pack:2 numa:1 core:16 pu:2: 2 packages, 2 NUMA nodes, 32 cores, 64 PUs' \
	"$tmp/smack/summary.json" || fail "smack17k topology"
"$S" gen hackbench -g 2 -l 20 --cpus 64 -o "$tmp/hb.trace" 2>/dev/null
"$S" run --trace "$tmp/hb.trace" --model traced+P --target x86_64-4.6 \
	--topology "$SYNTH2x16x2" --map scatter --out "$tmp/hb"
grep -q '64 PUs; map scatter' "$tmp/hb/summary.json" || fail "hackbench topology"

# ---- host mode: measured files only ----
nproc=$(nproc)
"$S" run --trace "$tmp/smack.trace" --model traced+P --target arm32-3.10 --mode host \
	--events 'cycles,task-clock,page-faults,no-such-event' --out "$tmp/h"
for f in measured.json measured.csv measured_latency.csv measured_events.csv; do
	[ -s "$tmp/h/$f" ] || fail "host mode wrote no $f"
done
for f in summary.csv summary.json latency.csv; do
	[ ! -e "$tmp/h/$f" ] || fail "host mode wrote the model's $f"
done
expect_eq "kind" "$(json "$tmp/h/measured.json" kind)" measured
expect_eq "measured.csv kind" "$(awk -F, 'NR == 2 { print $1 }' "$tmp/h/measured.csv")" measured
expect_eq "threads" "$(grep -c '"pu": ' "$tmp/h/measured.json")" "$nproc"
# every replay thread's affinity is exactly its host PU
grep '"pu": ' "$tmp/h/measured.json" | while read -r l; do
	os=$(sed 's/.*"host_pu_os": \([0-9]*\).*/\1/' <<<"$l")
	[[ $l == *"\"affinity_cpus\": 1, \"affinity_cpu\": $os}"* ]] || fail "not pinned: $l"
done
grep -q '^measured,task-clock,counted,[1-9]' "$tmp/h/measured_events.csv" || fail "task-clock not counted"
grep -q '^measured,page-faults,counted,[1-9]' "$tmp/h/measured_events.csv" || fail "page-faults not counted"
grep -q '^measured,no-such-event,unsupported,0,0,0,0,libpfm4: ' "$tmp/h/measured_events.csv" \
	|| fail "unknown event not reported unsupported"
grep -Eq '^measured,cycles,(counted,[1-9]|unsupported,0,0,0,[1-9][0-9]*,perf_event_open: )' \
	"$tmp/h/measured_events.csv" || fail "cycles: $(grep cycles "$tmp/h/measured_events.csv")"
[ "$(json "$tmp/h/measured.json" poison_checked_bytes)" -gt 0 ] || fail "no poison checked"
# a topology bigger than this host is refused, naming both sizes
expect_rc 1 "$S" run --trace "$tmp/smack.trace" --model traced --target arm32-3.10 \
	--mode host --topology "$SYNTH2x16x2" --out "$tmp/h2"
grep -q "has 64 PUs but this host has $(nproc)" "$tmp/err" || fail "refusal: $(cat "$tmp/err")"
[ ! -e "$tmp/h2/measured.csv" ] || fail "refused run wrote measured.csv"

# ---- calibrate ----
expect_rc 2 "$S" calibrate
"$S" calibrate --quick -o "$tmp/host.costs"
grep -q '^# slabsim cost table: MEASURED on this host' "$tmp/host.costs" || fail "calibrate header"
grep -q '^# date: 20' "$tmp/host.costs" || fail "calibrate date"
for step in poison_write_byte poison_check_byte list_lock slab_lock alloc_fastpath \
	free_fastpath alloc_slowpath free_slowpath; do
	grep -Eq "^$step +[0-9.]+ +[0-9.]+ +[0-9.]+ +# measured: " "$tmp/host.costs" || fail "calibrate: no $step with its spread"
done
"$S" run --trace "$tmp/smack.trace" --model traced --target arm32-3.10 \
	--costs "$tmp/host.costs" --out "$tmp/c"
expect_eq "cost table used" "$(json "$tmp/c/summary.json" cost_table)" "$tmp/host.costs"
echo "topology.sh: ok"
