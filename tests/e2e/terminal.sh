#!/bin/bash
# terminal.sh - what slabsim says on a terminal: the slabtop-style summary
# of `slabsim run` (and none with --quiet), `slabsim diff`, `slabsim list`,
# `--version`, `make help`, and unknown names answered with the valid ones.
. "$(dirname "$0")/lib/common.bash"
cd "$tmp"

# a small trace: 300 kmalloc(20) (kmalloc-32), 100 of them freed, and 40
# objects of a declared 100-byte cache
{
	echo "slabsim-trace 1"
	echo "meta workload small"
	echo "cache thing size=100 align=0"
	for i in $(seq 0 299); do echo "a 0 $i s kmalloc 20"; done
	for i in $(seq 0 99); do echo "f 0 $i"; done
	for i in $(seq 300 339); do echo "a 0 $i t thing 100"; done
} >a.trace
"$S" run --trace a.trace --model traced --target x86_64-6.1 --cpus 1 --out a >a.out
has a.out "small -, model traced on x86_64-6.1 (kernel 6.1), 1 CPU: 340 allocs, 100 frees"
# slots: kmalloc-32 3 slabs of 128 (300 allocated once), thing 2 of 39
# (100 bytes in a 104-byte stride)
has a.out " Active / Total Objects (% used) : 240 / 462 (51.9%)"
has a.out "OBJS ACTIVE USE OBJ SIZE SLABS OBJ/SLAB CACHE SIZE NAME"
has a.out " 384 200 52% 0.03K 3 128 12K kmalloc-32"
has a.out " 78 40 51% 0.10K 2 39 8K thing"
# kmalloc-32's waste: 12288 - 200 x 20 = 8288 bytes: 200 x 12 rounding,
# 184 free slots x 32; thing's: 40 x 4 align, 38 x 104 free, 2 x 40 tail
has a.out " 8K 2.3K 0.0K 0.0K 5.8K 0.0K kmalloc-32"
has a.out " 4K 0.0K 0.2K 0.0K 3.9K 0.1K thing"
"$S" run --trace a.trace --model traced --target x86_64-6.1 --cpus 1 --out a --quiet >q.out
[ ! -s q.out ] || fail "--quiet printed: $(cat q.out)"

# diff: B frees 100 more of the kmalloc-32 objects (their slabs stay:
# min_partial keeps them on the partial list)
{ cat a.trace; for i in $(seq 100 199); do echo "f 0 $i"; done; } >b.trace
"$S" run --trace b.trace --model traced --target x86_64-6.1 --cpus 1 --out b --quiet
"$S" diff a b >d.out
has d.out "A: small - traced, x86_64-6.1 (a)"
has d.out "| kmalloc-32 | 200 → 100 (-100) | 3 → 3 (+0) | 12.0 → 12.0 (+0.0) | 8.1 → 10.0 (+2.0) |"
has d.out "| thing | 40 → 40 (+0) | 2 → 2 (+0) | 8.0 → 8.0 (+0.0) | 4.1 → 4.1 (+0.0) |"
has d.out "| total (summary.csv) | 240 → 140 (-100) | 5 → 5 (+0) | 20.0 → 20.0 (+0.0) | 12.2 → 14.1 (+2.0) |"
rc=0
"$S" diff a "$tmp/nonexistent" 2>err || rc=$?
[ "$rc" = 1 ] || fail "diff of a missing run: exit $rc, want 1"
grep -q "nonexistent/summary.csv" err || fail "diff of a missing run: $(cat err)"

# list
"$S" list targets >l.out
grep -q '^x86_64-6.1 *kernel 6.1, 8 CPUs, 4096-byte pages' l.out || fail "list targets: $(cat l.out)"
"$S" list models | grep -q '^kmem_cache ' || fail "list models"
"$S" list workloads | grep -q '^hackbench ' || fail "list workloads"
"$S" list steps | grep -q '^alloc_fastpath *op$' || fail "list steps"
# unknown names: the valid ones
rc=0
"$S" run --trace a.trace --model traced --target x86_64-9.9 --out x 2>err || rc=$?
[ "$rc" = 1 ] || fail "unknown target: exit $rc"
# every target file of the tree, in name order
known=$(cd "$root/allocators/targets" && ls -- *.target | sed 's/\.target$//' | LC_ALL=C sort | tr '\n' ' ')
grep -qF "known: ${known% })" err || fail "unknown target: want 'known: ${known% }', got $(cat err)"
rc=0
"$S" run --trace a.trace --model slob --target x86_64-6.1 --out x 2>err || rc=$?
grep -q "models: traced, kmalloc-buckets, kmem_cache" err || fail "unknown model: $(cat err)"

# --version, make help
"$S" --version >v.out
grep -q '^slabsim [0-9]' v.out && grep -q '^trace formats: text 1, binary 1$' v.out || fail "--version: $(cat v.out)"
make -C "$root" --no-print-directory help >h.out
grep -q '^  sim  ' h.out && grep -q 'reports/W--name-value/' h.out || fail "make help: $(cat h.out)"
echo "terminal.sh: ok"
