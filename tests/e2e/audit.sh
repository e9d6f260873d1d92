#!/bin/bash
# audit.sh - the audit workload end to end at small scale: `gen audit`
# options and errors, byte-identical traces, the calibration (on-2.6.16 vs
# off within +-10% of the seed's 146%), `slabsim report`'s audit sections
# and extra files, then `make sim WORKLOAD=audit` and a second make that
# does nothing.
. "$(dirname "$0")/lib/common.bash"
export SLABSIM_HOME=$root
cd "$tmp"

# ---- usage and errors: exit 2, nothing written --------------------------------
"$S" gen audit --help | grep 'on-2.6.16' >/dev/null || fail "--help"
expect_usage() { # expect_usage PATTERN ARGS...
	local pat=$1 rc=0
	shift
	"$S" gen audit "$@" -o bad.trace 2> err || rc=$?
	[ $rc = 2 ] || fail "gen audit $*: exit $rc, want 2"
	grep -q -- "$pat" err || { cat err; fail "gen audit $*: no '$pat' in the message"; }
	[ ! -e bad.trace ] || fail "gen audit $*: left a trace"
}
expect_usage "want off, on-2.6.16" --variant on
expect_usage "unknown option" --variant off --frobnicate
expect_usage "s0..s15" --variant off --context u:r:t:s16
expect_usage "does not dominate" --variant off --context u:r:t:s1-s0
expect_usage "not stat, access or open" --variant off --mix read:1
expect_usage "fewer than the 2 contexts" --variant off --context u:r:t:s0 --context u:r:t:s1 --files 1
expect_usage "integer 1.." --variant off --syscalls 0
expect_rc 2 "$S" gen audit --variant off
grep -q -- "-o TRACE" "$tmp/err" || fail "no -o: $(cat "$tmp/err")"

# ---- a failed write leaves nothing ---------------------------------------------
rc=0
"$S" gen audit --variant off -o no-such-dir/x.trace 2> err || rc=$?
[ $rc = 1 ] || fail "unwritable output: exit $rc, want 1"

# ---- traces: deterministic, the header says how they were made ----------------
N=2000
for v in off on-2.6.16 on-sid on-cached on-ctxcache; do
	"$S" gen audit --variant $v --syscalls $N -o $v.trace
done
"$S" gen audit --variant on-2.6.16 --syscalls $N -o again.trace
cmp -s on-2.6.16.trace again.trace || fail "two traces of one variant differ"
grep -q '^meta syscalls 2000$' off.trace || fail "meta syscalls"
grep -q '^meta rules 4$' off.trace || fail "default rules are not the seed's 4"
grep -q '^cache names_cache size=4096 align=0 flags=hwcache$' off.trace || fail "names_cache declaration"
grep -q '^cache audit_ctx size=27 ' on-ctxcache.trace || fail "audit_ctx is not the longest string (27)"

# ---- replay and the calibration -------------------------------------------------
mkdir -p rep/runs
for v in off on-2.6.16 on-sid on-cached on-ctxcache; do
	"$S" run --trace $v.trace --model traced --target x86_64-6.1 --out rep/runs/${v}__traced > /dev/null
done
t_off=$(col rep/runs/off__traced/summary.csv sim_time_ms)
t_on=$(col rep/runs/on-2.6.16__traced/summary.csv sim_time_ms)
awk -v a="$t_off" -v b="$t_on" 'BEGIN { h = (b / a - 1) * 100; exit !(h >= 131.4 && h <= 160.6) }' ||
	fail "on-2.6.16 vs off = $t_off -> $t_on ms, not 146% +- 10%"
grep -q '^user_loop,2000,' rep/runs/off__traced/work.csv || fail "work.csv: user_loop events != syscalls"

# ---- the report: sections, extra files, the sweep when present -------------------
mkdir -p rep/sweep
for r in 0 90; do
	"$S" gen audit --variant on-sid --syscalls $N --rules $r -o s$r.trace
	"$S" run --trace s$r.trace --model traced --target x86_64-6.1 --out rep/sweep/r$r > /dev/null
done
"$S" report --workload audit --dir rep --variants "off on-2.6.16 on-sid on-cached on-ctxcache" \
	--models traced --calibration AUDIT_PROFILE_SCALE_PERMILLE=1227 > /dev/null
for f in report.md breakdown.dat sweep.dat overhead.csv; do
	[ -s rep/$f ] || fail "report: $f missing"
done
grep -Eq '^## [0-9]+\. Audit: the calibration' rep/report.md || fail "report.md: no calibration section"
grep -q 'points from the fitted figure\*\*' rep/report.md || fail "report.md: the calibration's difference not stated"
grep -Eq '\*\*(pass|FAIL)\*\*' rep/report.md && fail "report.md: a pass/fail verdict against the seed"
grep -q '^overhead_pct:on-2.6.16,%,' rep/figures.csv || fail "figures.csv: no on-2.6.16 overhead"
grep -q 'Allocator share of the hit' rep/report.md || fail "report.md: no allocator share"
grep -q '| on-sid .* 23 |' rep/report.md || fail "report.md: on-sid not beside the 23%"
[ "$(grep -vc '^#' rep/breakdown.dat)" = 5 ] || fail "breakdown.dat: want 5 variants"
grep -q '^90 185 3.7755 [0-9.]* [0-9.]*$' rep/sweep.dat || fail "sweep.dat: 90-rule row"
grep -q '^10 56 1.1429 NaN NaN$' rep/sweep.dat || fail "sweep.dat: a missing point is NaN"
awk -F, 'NR > 1 && $1 == "off" && $5 != "0.00" { bad = 1 } END { exit bad }' rep/overhead.csv ||
	fail "overhead.csv: off is not 0"
# a work label the audit report does not know is an error naming the file
echo 'mystery,1,10,0.001' >> rep/runs/off__traced/work.csv
rc=0
"$S" report --workload audit --dir rep --models traced > /dev/null 2> err || rc=$?
[ $rc = 1 ] && grep -q "work.csv:.*mystery" err || { cat err; fail "bad work.csv: exit $rc"; }

# ---- make sim at small scale, then nothing to redo -------------------------------
[ -z "${SLABSIM_QUICK:-}" ] || skip_rest "make sim WORKLOAD=audit (SLABSIM_QUICK: the replays above ran under the sanitizers)"
has_cmd gnuplot || skip_rest_unless_ci "make sim WORKLOAD=audit: no gnuplot (Debian gnuplot-nox; make deps installs it)"
args=(WORKLOAD=audit SYSCALLS=1000 MODELS=traced SLABSIM="$S" DATA="$tmp/data" REPORT="$tmp/mk")
make -C "$root" --no-print-directory sim "${args[@]}" > log 2>&1 || { tail -30 log; fail "make sim"; }
for f in report.md summary.csv overhead.csv waste.png latency.png breakdown.png breakdown.svg sweep.png sweep.svg; do
	[ -s mk/$f ] || fail "make sim: $f missing"
done
[ $(($(wc -l < mk/summary.csv) - 1)) = 5 ] || fail "summary.csv: want 5 variants x 1 model"
# overhead_pct against `off`, same model: 0 for off, t_on/t_off - 1 for on-2.6.16
[ "$(head -1 mk/summary.csv | awk -F, '{print $NF}')" = overhead_pct ] || fail "no overhead_pct column"
awk -F, 'NR>1 && $2=="off" && $NF!="0.00"{exit 1}' mk/summary.csv || fail "off's overhead_pct is not 0"
awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i=="sim_time_ms") c=i} NR>1{t[$2]=$c; o[$2]=$NF}
	END{want=100*(t["on-2.6.16"]-t["off"])/t["off"]; d=o["on-2.6.16"]-want; exit !(d<0.01 && d>-0.01)}' \
	mk/summary.csv || fail "on-2.6.16's overhead_pct does not follow from sim_time_ms"
grep -q 'AUDIT_PROFILE_SCALE_PERMILLE' mk/report.md || fail "the fitted constant is not in report.md"
make -C "$root" --no-print-directory sim "${args[@]}" > log2 2>&1 || fail "second make sim"
if grep -E '^ *(GEN|RUN|REPORT|GNUPLOT) ' log2; then fail "second make sim redid work"; fi
echo "audit: ok"
