#!/bin/bash
# run_replay.sh - `slabsim run` end to end on a small smack trace: the waste
# parts add up to the footprint, runs are byte-identical, variants order as
# the seed does, and bad input fails cleanly.
. "$(dirname "$0")/lib/common.bash"

cd "$tmp"
"$S" gen smack17k --rules 400 --labels 40 --seed 7 --write-rules rules.txt
for v in ref patch4; do
	"$S" gen smack17k --from-rules rules.txt --variant $v -o $v.trace
	"$S" run --trace $v.trace --model traced --target arm32-3.10 --out out-$v
done

for v in ref patch4; do
	f=out-$v/summary.csv
	for file in summary.json caches.csv counters.csv latency.csv slabinfo timeline.csv sites.csv; do
		[ -s out-$v/$file ] || fail "$v: $file missing or empty"
	done
	sum=$(( $(col $f requested_bytes) + $(col $f padding_bytes) + $(col $f debug_bytes) + \
	        $(col $f free_slot_bytes) + $(col $f slab_tail_bytes) ))
	fp=$(col $f footprint_kib)
	[ "$(awk -v s=$sum 'BEGIN{printf "%.2f", s/1024}')" = "$fp" ] ||
		fail "$v: parts add to $sum bytes, footprint is $fp KiB"
	[ "$(col $f padding_bytes)" = $(( $(col $f rounding_bytes) + $(col $f align_bytes) )) ] ||
		fail "$v: padding != rounding + align"
	[ "$(col $f model)" = traced ] || fail "$v: model column"
	[ "$(col $f variant)" = $v ] || fail "$v: variant column"
done
# patch4's dedicated caches hold less than ref's leaky kmalloc-32 objects
awk -v a="$(col out-ref/summary.csv footprint_kib)" -v b="$(col out-patch4/summary.csv footprint_kib)" \
	'BEGIN{exit !(b < a)}' || fail "patch4 footprint not below ref"
grep -q '^smack_rule,20,24,' out-patch4/caches.csv || fail "smack_rule is not 20 -> 24 bytes"
grep -q '^slabinfo - version: 2.1' out-ref/slabinfo || fail "slabinfo header"

# ---- the peak and sites.csv, worked out by hand ----------------------------
# x86_64-6.1, one CPU: 200 kmalloc(20) from site s (kmalloc-32: 128 per
# 4 KiB slab, 2 slabs) and one kmalloc(10000) from site big (kmalloc_large:
# 4 pages, counted as slab memory in 6.1), then all but 10 of the small
# ones and the large one freed.  The peak is 2 slabs + 4 pages = 24 KiB,
# reached at the large allocation (event 200): 200 x 20 + 10000 requested,
# 200 x 12 + (16384 - 10000) rounding; free slots 56 x 32.
{
	echo "slabsim-trace 1"; echo "meta workload hand"
	for i in $(seq 0 199); do echo "a 0 $i s kmalloc 20"; done
	echo "a 0 200 big kmalloc 10000"
	for i in $(seq 10 199); do echo "f 0 $i"; done
	echo "f 0 200"
} >hand.trace
"$S" run --trace hand.trace --model traced --target x86_64-6.1 --cpus 1 --out hand
f=hand/summary.csv
expect_eq "peak_footprint_kib" "$(col $f peak_footprint_kib)" 24.00
expect_eq "peak_event" "$(col $f peak_event)" 200
expect_eq "peak_requested_bytes" "$(col $f peak_requested_bytes)" 14000
expect_eq "peak_rounding_bytes" "$(col $f peak_rounding_bytes)" $(( 200 * 12 + 16384 - 10000 ))
expect_eq "peak_padding_bytes" "$(col $f peak_padding_bytes)" $(( 200 * 12 + 16384 - 10000 ))
expect_eq "peak_free_slot_bytes" "$(col $f peak_free_slot_bytes)" $(( 56 * 32 ))
expect_eq "peak_debug_bytes" "$(col $f peak_debug_bytes)" 0
expect_eq "requested at the end" "$(col $f requested_bytes)" 200
expect_eq "sites.csv" "$(cat hand/sites.csv)" "site,cache,allocs,frees,requested_bytes,allocated_bytes,frag_pct,cross_cpu_frees,live_objects,peak_live_objects,live_requested_bytes,rounding_bytes,align_bytes,debug_bytes
big,kmalloc_large,1,1,10000,16384,38.96,0,0,1,0,0,0,0
s,kmalloc-32,200,190,4000,6400,37.50,0,10,200,200,120,0,0"
# the sites' allocations add up to the summary's
expect_eq "site allocs" "$(awk -F, 'NR > 1 { n += $3 } END { print n }' hand/sites.csv)" "$(col $f alloc_ops)"
# frees on another CPU: perf kmem's ping-pong
printf 'slabsim-trace 1\nmeta workload hand\na 0 0 s kmalloc 20\nf 1 0\n' >pp.trace
"$S" run --trace pp.trace --model traced --target x86_64-6.1 --cpus 2 --out pp
expect_eq "cross-CPU frees" "$(awk -F, 'NR == 2 { print $8 }' pp/sites.csv)" 1

# determinism: same inputs, byte-identical outputs
"$S" run --trace ref.trace --model traced --target arm32-3.10 --out again
for file in summary.csv caches.csv counters.csv latency.csv timeline.csv sites.csv; do
	cmp -s out-ref/$file again/$file || fail "$file differs between identical runs"
done

# every model and a debug model run
for m in kmalloc-buckets kmem_cache traced+FZPU; do
	"$S" run --trace patch4.trace --model $m --target arm32-3.10 --out m-$m
done
[ "$(col m-traced+FZPU/summary.csv debug_bytes)" -gt 0 ] || fail "FZPU adds no debug bytes"
[ "$(col m-kmalloc-buckets/summary.csv align_bytes)" = 0 ] || fail "kmalloc-buckets has alignment padding on arm32"

# a trace on stdin, for a model that reads it twice (kmem_cache scans the
# sites first): the same results as from the file, no spool file left
spool=$tmp/spool
mkdir "$spool"
TMPDIR=$spool "$S" run --trace - --model kmem_cache --target arm32-3.10 --out stdin-km < patch4.trace
cmp -s m-kmem_cache/caches.csv stdin-km/caches.csv || fail "--trace - differs from the file"
[ -z "$(ls -A "$spool")" ] || fail "stdin spool left behind: $(ls "$spool")"
# both spellings of a model name
"$S" run --trace patch4.trace --model kmem-cache --target arm32-3.10 --out m-spelled
cmp -s m-kmem_cache/caches.csv m-spelled/caches.csv || fail "kmem-cache is not kmem_cache"
set +e
"$S" run --trace patch4.trace --model slob --target arm32-3.10 --out m-bad 2> err.txt
set -e
grep -q "unknown model 'slob' (models: traced, kmalloc-buckets, kmem_cache)" err.txt ||
	fail "unknown model message: $(cat err.txt)"

# kmem_cache: two sites sharing their first 63 bytes get two caches (fuzz find)
"$S" run --trace "$root/tests/fuzz/regressions/replay/kmem_cache_long_site_names.trace" \
	--model kmem_cache --target x86_64-6.x --out longsite
[ "$(awk -F, 'NR>1{print $2}' longsite/caches.csv | sort -n | tr '\n' ' ')" = "16 4000 " ] ||
	fail "long site names share a cache: $(cat longsite/caches.csv)"

# bad input: file:line, exit 1, no summary left behind
printf 'slabsim-trace 1\na 0 1 s kmalloc 32\nf 0 2\n' > bad.trace
set +e
"$S" run --trace bad.trace --model traced --target arm32-3.10 --out badout 2> err.txt
rc=$?
set -e
[ $rc -eq 1 ] || fail "bad trace exit $rc"
grep -q 'bad.trace:3: free of object id 2' err.txt || fail "message: $(cat err.txt)"
[ ! -e badout/summary.csv ] || fail "summary written for a failed run"
# (a run stages its files in a sibling directory, badout.tmp.PID)
left=$(ls -d badout.tmp.* badout/*tmp* 2>/dev/null || true)
[ -z "$left" ] || fail "temporary files left: $left"
printf 'slabsim-trace 1\na 5 1 s kmalloc 32\n' > cpu.trace
if "$S" run --trace cpu.trace --model traced --target arm32-3.10 --out c 2> err.txt; then fail "cpu 5 accepted"; fi
grep -q 'cpu.trace:2: cpu 5 is outside the topology' err.txt || fail "cpu message: $(cat err.txt)"
set +e
"$S" run --trace ref.trace --model nosuch --target arm32-3.10 --out x 2>/dev/null; [ $? -eq 1 ] || fail "unknown model"
"$S" run --trace ref.trace --model traced --target arm32-3.10 --out x --cpus zero 2>/dev/null; [ $? -eq 2 ] || fail "bad --cpus"
"$S" run --trace ref.trace --model traced --target arm32-3.10 --out x --slub-debug Q 2>/dev/null; [ $? -eq 1 ] || fail "bad slub_debug"
set -e
"$S" run --help > help.txt || fail "help: exit $?"
grep -q -- '--slub-debug' help.txt || fail "help"
echo "run_replay: ok"
