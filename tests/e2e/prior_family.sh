#!/bin/bash
# prior_family.sh - a replay from the kernel's caches (run --initial-state)
# of a trace imported from a 6.x capture: a prior free's flags pick the
# kmalloc family it leaves (kmalloc-rcl-96 for a dentry name, kmalloc-cg-N
# for an accounted object), a snapshot listing kmalloc-cg-N caches turns
# CONFIG_MEMCG on unless --config says otherwise, and the model makes no
# obj_exts vectors of its own for an imported trace (the kernel's are in
# it): docs/own-trace.md.
. "$(dirname "$0")/lib/common.bash"
cd "$tmp"
cat > snap.txt <<'SNAP'
slabinfo - version: 2.1
kmalloc-96 420 420 96 42 1 : tunables 0 0 0 : slabdata 10 10 0
kmalloc-rcl-96 1680 1680 96 42 1 : tunables 0 0 0 : slabdata 40 40 0
kmalloc-cg-96 420 420 96 42 1 : tunables 0 0 0 : slabdata 10 10 0
kmalloc-cg-64 640 640 64 64 1 : tunables 0 0 0 : slabdata 10 10 0
kmalloc-64 640 640 64 64 1 : tunables 0 0 0 : slabdata 10 10 0
SNAP
{
	echo "slabsim-trace 1"
	echo "meta workload import"
	echo "meta cpus 2"
	for i in 1 2 3 4 5; do echo "u 0 __d_free_external+0x10/0x20 kmalloc 96 gfp=reclaimable"; done
	echo "u 1 kvfree+0x2c/0x40 kmalloc 96"
	echo "u 1 free_x kmalloc 96 gfp=account"
	echo "u 1 free_x kmalloc 96 gfp=account"
	# 100 accounted 64-byte objects: kmalloc-cg-64, and no vector
	for i in $(seq 1 100); do echo "a 0 $i alloc_y kmalloc 64 gfp=account"; done
} > t.trace
freed() { awk -F, -v c="$2" '$1 == c { print $4 }' "$1/prior.csv"; }
objs() { awk -v c="$2" '$1 == c { print $2 }' "$1/slabinfo"; }

"$S" run --trace t.trace --model traced --target x86_64-6.x --initial-state snap.txt --out on >/dev/null
expect_eq "rcl-96 prior frees" "$(freed on kmalloc-rcl-96)" 5
expect_eq "kmalloc-96 prior frees" "$(freed on kmalloc-96)" 1
expect_eq "cg-96 prior frees" "$(freed on kmalloc-cg-96)" 2
# 100 objects need two more 64-object slabs; SLUB's count includes the
# free slots of CPU slabs: 640 + 128
expect_eq "cg-64 objects" "$(objs on kmalloc-cg-64)" 768
expect_eq "kmalloc-64 untouched (not listed)" "$(objs on kmalloc-64)" ""
# the model's own vector for the cg-64 slabs would be a kmalloc-16 object
# (two 64-object slabs: 512 bytes, kmalloc-512): none
awk '($1 == "kmalloc-16" || $1 == "kmalloc-512") && $2 != 0 { exit 1 }' on/slabinfo ||
	fail "the model made obj_exts vectors for an imported trace"

"$S" run --trace t.trace --model traced --target x86_64-6.x --initial-state snap.txt \
	--config CONFIG_MEMCG=n --out off >/dev/null
expect_eq "CONFIG_MEMCG=n: cg-96 prior frees" "$(freed off kmalloc-cg-96)" ""
expect_eq "CONFIG_MEMCG=n: kmalloc-96 prior frees" "$(freed off kmalloc-96)" 3
expect_eq "CONFIG_MEMCG=n: kmalloc-64 objects" "$(objs off kmalloc-64)" 768
expect_eq "CONFIG_MEMCG=n: cg-64 untouched" "$(objs off kmalloc-cg-64)" ""
echo "prior_family: ok"
