#!/bin/bash
# model_names.sh - a model's name in either spelling ('-' and '_' are one
# letter: kmem-cache is kmem_cache, kmalloc_buckets is kmalloc-buckets) is
# taken as the registry spells it by every command and make target that
# names models: run (directories and summary rows), report, compare,
# sweep, advise, make sim and make compare.
. "$(dirname "$0")/lib/common.bash"
command -v gnuplot > /dev/null || { echo "SKIP: gnuplot missing"; exit 77; }
cd "$tmp"
"$S" gen smack17k --rules 200 --labels 20 --write-rules rules.txt > /dev/null
"$S" gen smack17k --from-rules rules.txt --variant ref -o ref.trace
# run: %m and the summary row in the registry's spelling
"$S" run --quiet --trace ref.trace --model "kmem-cache kmalloc_buckets+P" --target arm32-3.10 \
	--out "runs/ref__%m"
[ -s runs/ref__kmem_cache/summary.csv ] && [ -s runs/ref__kmalloc-buckets+P/summary.csv ] ||
	fail "run: directories $(ls runs)"
expect_eq "summary model" "$(col runs/ref__kmem_cache/summary.csv model)" kmem_cache
# report and compare take either spelling of the runs they read
"$S" report --workload smack17k --dir . --models "kmem-cache kmalloc_buckets+P" > /dev/null ||
	fail "report --models kmem-cache"
grep -q '^- Models (slub_debug): kmem_cache (-), kmalloc-buckets+P (P)' report.md || fail "report.md models: $(grep Models report.md)"
"$S" compare --workload smack17k --dir . --models "kmem-cache" --out cmp > /dev/null || fail "compare --models kmem-cache"
grep -q '^- Models: kmem_cache$' cmp/compare.md || fail "compare.md models: $(grep '^- Models' cmp/compare.md)"
# advise's baseline model
"$S" advise --trace ref.trace --target arm32-3.10 --model kmem-cache --max-proposals 1 --jobs 1 --out adv > /dev/null ||
	fail "advise --model kmem-cache"
grep -q 'kmem_cache' adv/advice.md || fail "advice.md does not name kmem_cache"
# make: the run directories, the report and the comparison
R=$tmp/reports D=$tmp/datasets
args=(WORKLOAD=smack17k RULES=200 LABELS=20 "MODELS=traced kmem-cache" SLABSIM="$S" REPORTS="$R" DATASETS="$D")
make -C "$root" --no-print-directory sim "${args[@]}" > log 2>&1 || { tail -20 log; fail "make sim MODELS=kmem-cache"; }
rep=$R/smack17k--labels-20--models-traced,kmem_cache--rules-200
[ -s "$rep/runs/ref__kmem_cache/summary.csv" ] || fail "make sim: $(ls "$R")"
grep -q '^- Models (slub_debug): traced (-), kmem_cache (-)' "$rep/report.md" || fail "make sim: report.md models"
make -C "$root" --no-print-directory compare "${args[@]}" > log 2>&1 || { tail -20 log; fail "make compare MODELS=kmem-cache"; }
grep -q '^- Models: traced, kmem_cache$' "$R/smack17k--labels-20--rules-200/compare/compare.md" ||
	fail "make compare: $(ls "$R")"
make -C "$root" --no-print-directory sweep "${args[@]}" PARAM=rules VALUES="100 200" > log 2>&1 ||
	{ tail -20 log; fail "make sweep MODELS=kmem-cache"; }
grep -q 'kmem_cache' "$R/smack17k--labels-20--rules-200/sweep-rules/sweep.csv" || fail "make sweep: no kmem_cache in sweep.csv"
echo "model_names: ok"
