#!/bin/bash
# hackbench.sh - `slabsim gen hackbench` end to end at small scale: the
# trace (header, event counts, ids, work cycles worked out by hand), text
# and binary traces replaying alike, the era ordering of the six variants,
# pipes, bad usage, and `make sim WORKLOAD=hackbench` into a temporary
# directory (every promised output, the ratio check, nothing redone).
. "$(dirname "$0")/lib/common.bash"
export SLABSIM_HOME=$root
meta() { awk -v k="$2" '$1 == "meta" && $2 == k { print $3 }' "$1"; }

"$S" gen --help | grep '^  hackbench ' >/dev/null || fail "gen --help does not list hackbench"
"$S" gen hackbench --help | grep -- '--datasize B' >/dev/null || fail "gen hackbench --help"

# ---- a small trace: 2 groups of 4 + 4 tasks, 3 loops, 2 CPUs ----
# messages = groups x fds x fds x loops = 2 x 4 x 4 x 3 = 96; each is one
# skbuff_head_cache object (232) and a 448-byte kmalloc head, both freed.
# msg-cycles 100: 50 per message on each side, 9600 cycles in all.
gen=(-g 2 -l 3 --fds 4 --cpus 2 --quantum 5 --msg-cycles 100)
"$S" gen hackbench "${gen[@]}" -o "$tmp/t.trace" 2>"$tmp/gen.err"
grep -q '96 messages' "$tmp/gen.err" || fail "gen summary: $(cat "$tmp/gen.err")"
expect_eq "workload" "$(meta "$tmp/t.trace" workload)" hackbench
expect_eq "messages" "$(meta "$tmp/t.trace" messages)" 96
expect_eq "window" "$(meta "$tmp/t.trace" window)" 278
expect_eq "allocs" "$(count "$tmp/t.trace" a)" 192
expect_eq "frees" "$(count "$tmp/t.trace" f)" 192
expect_eq "sk_buffs" "$(awk '$1 == "a" && $5 == "skbuff_head_cache" && $6 == 232' "$tmp/t.trace" | wc -l)" 96
expect_eq "heads" "$(awk '$1 == "a" && $5 == "kmalloc" && $6 == 448' "$tmp/t.trace" | wc -l)" 96
expect_eq "work cycles" "$(awk '$1 == "w" { n += $3 } END { print n }' "$tmp/t.trace")" 9600
grep -q '^cache skbuff_head_cache size=232 align=0 flags=hwcache$' "$tmp/t.trace" || fail "cache line"
# ids: never allocated while live, never freed unless live, all freed
awk '$1 == "a" { if (live[$3]) bad = 1; live[$3] = 1 }
     $1 == "f" { if (!live[$3]) bad = 1; delete live[$3] }
     END { for (i in live) bad = 1; exit bad }' "$tmp/t.trace" || fail "id discipline"
"$S" gen hackbench "${gen[@]}" -o "$tmp/t2.trace" 2>/dev/null
cmp -s "$tmp/t.trace" "$tmp/t2.trace" || fail "same parameters gave different traces"

# ---- text and binary traces replay to the same figures ----
"$S" gen hackbench "${gen[@]}" -o "$tmp/t.sbt" 2>/dev/null
for f in trace sbt; do
	"$S" run --trace "$tmp/t.$f" --model traced+P --target x86_64-4.5 --cpus 2 \
		--variant P-4.5 --out "$tmp/r-$f"
done
cmp -s "$tmp/r-trace/summary.csv" "$tmp/r-sbt/summary.csv" || fail "text and binary replays differ"

# ---- the six variants: P costs most before the series, least in 6.1 ----
for v in none-4.5 P-4.5 none-4.6 P-4.6 none-6.1 P-6.1; do
	m=traced; [ "${v%%-*}" = P ] && m=traced+P
	"$S" run --trace "$tmp/t.sbt" --model $m --target "x86_64-${v#*-}" --cpus 2 \
		--variant "$v" --out "$tmp/rep/runs/${v}__$m"
done
simt() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "sim_time_ms") c = i }
		 NR == 2 { print $c }' "$tmp/rep/runs/$1/summary.csv"
}
awk -v a="$(simt P-4.5__traced+P)" -v b="$(simt P-4.6__traced+P)" -v c="$(simt P-6.1__traced+P)" \
    -v n="$(simt none-4.5__traced)" 'BEGIN { exit !(a > b && b > c && c > n) }' \
	|| fail "P-4.5 > P-4.6 > P-6.1 > none does not hold"
"$S" report --workload hackbench --dir "$tmp/rep" \
	--variants 'none-4.5 P-4.5 none-4.6 P-4.6 none-6.1 P-6.1' --models 'traced traced+P'
grep -q '^\*\*P-4.5 / P-4.6 = ' "$tmp/rep/report.md" || fail "ratio check missing from report.md"
grep -q 'deactivate_slab share' "$tmp/rep/report.md" || fail "deactivate share missing"
expect_eq "time.dat rows" "$(grep -vc '^#' "$tmp/rep/time.dat")" 6
# six runs on three kernels: counted as such, never pooled across kernels,
# no grid of n/a, no panel slot without a run, no "(no data)" legend
has "$tmp/rep/report.md" "- Runs: 6 from $tmp/rep/runs/, of the 12 pairs of 6 variants and 2 models"
# each kernel with the runs that took it (their summary.csv), the CPUs once
has "$tmp/rep/report.md" "- Target: differs between runs: x86_64-4.5 (kernel era 4.5) (none-4.5__traced, P-4.5__traced+P); x86_64-4.6 (kernel era 4.6) (none-4.6__traced, P-4.6__traced+P); x86_64-6.1 (kernel era 6.1) (none-6.1__traced, P-6.1__traced+P)"
has "$tmp/rep/report.md" "- CPUs: 2 ("
sed '/hackbench: run time under/q' "$tmp/rep/report.md" | grep -n 'n/a' &&
	fail "report.md's generic sections have n/a cells"
expect_eq "latency curves" "$(grep -c '^"[^"]*" [^ ]* [^ ]* alloc$' "$tmp/rep/latency.dat")" 6
grep -q '^"P-4.6 traced+P" P-4.6 traced+P free$' "$tmp/rep/latency.dat" || fail "latency.dat: no P-4.6 curve"
grep -q 'no data' "$tmp/rep/latency.dat" && fail "latency.dat: a (no data) curve"
# waste.dat: each model's panel holds its three runs, slots 0 1 2
expect_eq "traced+P slots" "$(awk '$2 == "traced+P" && $3 == "end" { printf "%s", $13 }' "$tmp/rep/waste.dat")" 012
# the peak is in summary.csv and the report: objects live then, none at
# the end (every message freed)
sum=$tmp/rep/runs/P-6.1__traced+P/summary.csv
awk -v p="$(col "$sum" peak_footprint_kib)" -v e="$(col "$sum" footprint_kib)" \
	-v r="$(col "$sum" peak_requested_bytes)" -v d="$(col "$sum" peak_debug_bytes)" \
	'BEGIN { exit !(p >= e && r > 0 && d > 0) }' || fail "peak columns: $(cut -d, -f33- "$sum")"
expect_eq "requested at the end" "$(col "$sum" requested_bytes)" 0
grep -q '^| P-6.1 *| traced+P *| peak, event' "$tmp/rep/report.md" || fail "no peak row"
"$S" compare --workload hackbench --dir "$tmp/rep" --out "$tmp/cmp" 2>/dev/null || fail "compare"
grep -q 'n/a' "$tmp/cmp/compare.md" && fail "compare.md has n/a cells"
grep -q 'no data' "$tmp/cmp/timeline.dat" && fail "timeline.dat: a (no data) header"
has "$tmp/cmp/compare.md" "| P-4.6 | traced+P |"

# ---- pipes: no slab objects, only work ----
"$S" gen hackbench "${gen[@]}" --pipes -o "$tmp/p.trace" 2>/dev/null
expect_eq "pipe allocs" "$(count "$tmp/p.trace" a)" 0
expect_eq "pipe mode" "$(meta "$tmp/p.trace" mode)" pipes
expect_eq "pipe work" "$(awk '$1 == "w" { n += $3 } END { print n }' "$tmp/p.trace")" 9600

# ---- bad usage: exit 2, nothing written; failed write: exit 1 ----
bad() {
	set +e
	"$S" gen hackbench "$@" >/dev/null 2>"$tmp/err"; rc=$?
	set -e
	echo $rc
}
expect_eq "unknown option" "$(bad --nosuch -o "$tmp/x")" 2
expect_eq "no output" "$(bad -g 2)" 2
expect_eq "datasize 0" "$(bad --datasize 0 -o "$tmp/x")" 2
expect_eq "datasize too big" "$(bad --datasize 200000 -o "$tmp/x")" 2
grep -q 'datasize 200000' "$tmp/err" || fail "datasize message: $(cat "$tmp/err")"
expect_eq "bad number" "$(bad -g 2x -o "$tmp/x")" 2
expect_eq "zero cpus" "$(bad --cpus 0 -o "$tmp/x")" 2
expect_eq "unwritable" "$(bad -g 1 -l 1 --fds 1 -o "$tmp/nodir/x.trace")" 1
[ ! -e "$tmp/x" ] || fail "bad usage left output"
if ls "$tmp" | grep -q 'tmp'; then fail "temporary file left behind"; fi

# ---- make sim at small scale, into a temporary directory ----
# (skipped in the ASan pass, SLABSIM_QUICK: the replays above covered it)
[ -z "${SLABSIM_QUICK:-}" ] || skip_rest "make sim WORKLOAD=hackbench (SLABSIM_QUICK: the replays above ran under the sanitizers)"
has_cmd gnuplot || skip_rest_unless_ci "make sim WORKLOAD=hackbench: no gnuplot (Debian gnuplot-nox; make deps installs it)"
args=(WORKLOAD=hackbench HB_GROUPS=2 HB_LOOPS=5 HB_FDS=4 SLABSIM="$S"
      DATA="$tmp/data" REPORT="$tmp/msim")
make -C "$root" --no-print-directory sim "${args[@]}" >"$tmp/log" 2>&1 \
	|| { cat "$tmp/log"; fail "make sim"; }
for f in report.md summary.csv time.png time.svg time.dat latency.png; do
	[ -s "$tmp/msim/$f" ] || fail "make sim: $f missing"
done
expect_eq "summary rows" "$(cut -d, -f2 "$tmp/msim/summary.csv" | tail -n +2 | tr '\n' ' ')" \
	"none-4.5 P-4.5 none-4.6 P-4.6 none-6.1 P-6.1 "
grep -q 'HB_MSG_CYCLES' "$tmp/msim/report.md" || fail "fitted constant not reported"
head -c 8 "$tmp/msim/time.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "time.png is not a PNG"
make -C "$root" --no-print-directory sim "${args[@]}" >"$tmp/log2" 2>&1 || fail "second make sim"
if grep -E '^ *(GEN|RUN|REPORT) ' "$tmp/log2"; then fail "second make sim redid work"; fi
# under a reports root the index is written too, after the workload's
# own plots (mk/index.mk): time.png is on it, no temporary file is
make -C "$root" --no-print-directory sim WORKLOAD=hackbench HB_GROUPS=2 HB_LOOPS=5 HB_FDS=4 \
	SLABSIM="$S" REPORTS="$tmp/reports" DATASETS="$tmp/datasets" >"$tmp/log3" 2>&1 \
	|| { cat "$tmp/log3"; fail "make sim REPORTS="; }
grep -q 'time\.png' "$tmp/reports/index.html" || fail "index.html: no time.png"
if grep -q '\.tmp\.' "$tmp/reports/index.html"; then fail "index.html lists a temporary file"; fi
echo "hackbench.sh: ok"
