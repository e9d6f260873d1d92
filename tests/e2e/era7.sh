#!/bin/bash
# era7.sh - a workload on a 7.x target (SLUB with sheaves for every cache):
# `make sim WORKLOAD=smack17k TARGET=x86_64-7.2` also replays its runs
# under 6.18's rules on the same machine and options (era-6.18/, the
# target file with era = 6.18), and report.md's section "What SLUB 7.x
# changes" sets each run beside its twin: a debug model (no sheaves in
# either era) unchanged, the others holding objects in sheaves at the end;
# hackbench asks with VARIANTS (its variants name their targets); a
# workload's default target makes no such runs and no such section.
. "$(dirname "$0")/lib/common.bash"
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot missing"; exit 77; }

args=(WORKLOAD=smack17k RULES=300 LABELS=30 SLABSIM="$S" DATA="$tmp/data")
make -C "$root" --no-print-directory sim "${args[@]}" TARGET=x86_64-7.2 REPORT="$tmp/r72" \
	> "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "make sim TARGET=x86_64-7.2"; }
t=$tmp/r72/era-6.18/x86_64-7.2-rules-6.18.target
[ -s "$t" ] || fail "no era-base target"
grep -qx "era = 6.18" "$t" || fail "era-base target: era"
grep -qx "CONFIG_INIT_ON_ALLOC_DEFAULT_ON = y" "$t" || fail "era-base target: not the 7.2 target's options"
grep -qx "era=6.18" "$tmp/r72/era-6.18/runs/ref__traced/kernel.txt" || fail "era-base run: era"
grep -qx "target=x86_64-7.2-rules-6.18" "$tmp/r72/era-6.18/runs/ref__traced/kernel.txt" ||
	fail "era-base run: target"
md=$tmp/r72/report.md
grep -q "^## [0-9]*\. What SLUB 7.x changes: the same runs under 6.18's rules" "$md" ||
	fail "no 7.x section"
# each run beside its twin, from the two runs' own summary.csv
row() { grep "^| $1 *| $2 *|" "$md" | head -1 | tr -d ' '; }
kib() { awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } { print $h[c] }' "$1/summary.csv"; }
for m in traced traced+FZPU; do
	a=$(kib "$tmp/r72/era-6.18/runs/ref__$m" footprint_kib)
	b=$(kib "$tmp/r72/runs/ref__$m" footprint_kib)
	r=$(row ref "$m")
	[ -n "$r" ] || fail "no row for ref $m"
	case $r in "|ref|$m|$(printf '%.0f' "$a")|$(printf '%.0f' "$b")|"*) ;; *) fail "ref $m: '$r' against $a and $b KiB" ;; esac
done
# the debug model: no sheaves in either era, the same figures
expect_eq "FZPU footprint" "$(kib "$tmp/r72/runs/ref__traced+FZPU" footprint_kib)" \
	"$(kib "$tmp/r72/era-6.18/runs/ref__traced+FZPU" footprint_kib)"
grep -q "^At the end 7.x held [1-9][0-9]* objects in sheaves and barns" "$md" ||
	fail "no objects in sheaves said"

# hackbench: a 7.x variant and its twin (a few loops)
make -C "$root" --no-print-directory sim WORKLOAD=hackbench HB_LOOPS=20 VARIANTS="none-6.18 none-7.2" \
	SLABSIM="$S" DATA="$tmp/hbdata" REPORT="$tmp/hb" > "$tmp/hblog" 2>&1 ||
	{ tail -20 "$tmp/hblog"; fail "make sim WORKLOAD=hackbench VARIANTS=..."; }
[ -s "$tmp/hb/era-6.18/runs/none-7.2__traced/summary.csv" ] || fail "hackbench: no twin of none-7.2"
[ ! -e "$tmp/hb/era-6.18/runs/none-6.18__traced" ] || fail "hackbench: a twin of a 6.18 variant"
grep -q "^| none-7.2 *| traced *|" "$tmp/hb/report.md" || fail "hackbench: no row for none-7.2"
if grep -q "no run under 6.18's rules" "$tmp/hb/report.md"; then fail "hackbench: a 6.18 variant counted as alone"; fi

# the default target (arm32-3.10): none of it
make -C "$root" --no-print-directory sim "${args[@]}" REPORT="$tmp/rdef" > "$tmp/logd" 2>&1 ||
	fail "make sim (default target)"
[ ! -e "$tmp/rdef/era-6.18" ] || fail "default target: era-base runs"
if grep -q "What SLUB 7.x changes" "$tmp/rdef/report.md"; then fail "default target: the 7.x section"; fi
# ... and hackbench's default variants (4.5, 4.6, 6.1): none either
if make -C "$root" --no-print-directory -n sim WORKLOAD=hackbench SLABSIM="$S" DATA="$tmp/hbd" REPORT="$tmp/hbdef" |
	grep -q -- "--era-base"; then fail "hackbench's default variants: era-base runs"; fi
