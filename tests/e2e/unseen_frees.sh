#!/bin/bash
# unseen_frees.sh - scripts/unseen-frees.sh on a capture made by hand:
# each of its counts has one object of its own, and an object of another
# cache and a page free of order 1 test the parsing; hashed pointers and
# a missing after-read are errors.
. "$(dirname "$0")/lib/common.bash"
need_cmd zstd
cap=$tmp/cap
mkdir "$cap"
echo "hashed_pointers=no" > "$cap/meta"
echo "cache=maple_node name=maple_node align=256 object_size=256 objs_per_slab=16 order=0 slab_size=256" > "$cap/slab-after.txt"
# slab ffff888000101000: objects 4 and 5 free (the second hex digit: 3),
# the first free object ffff888000101400
cat > "$cap/slab-fill-after.txt" << 'EOF'
slabsim-slabfill 4 nodes=1 cpus=2
cache=kmalloc-256
n 0 ffffea0000004000 ffff888000201000 16 16 0 ffff
cache=maple_node
n 0 ffffea0000004040 ffff888000101400 2 16 0 0300
b 0 10 3 320
s 0 2 17 28
EOF
ev() { # TIME EVENT FIELDS
	printf '           x-1     [000] .....  %s: %s: %s\n' "$1" "$2" "$3"
}
{
	# A: object 4 of the listed slab, live at the end, free in the after-read
	ev 1.000001 kmem_cache_alloc "call_site=mas_preallocate+0x1/0x2 ptr=ffff888000101400 name=maple_node bytes_req=256 bytes_alloc=256 gfp_flags=GFP_KERNEL node=-1 accounted=false"
	# B: freed by an event
	ev 1.000002 kmem_cache_alloc "call_site=mas_wr_bnode+0x1/0x2 ptr=ffff888000101000 name=maple_node bytes_req=256 bytes_alloc=256 gfp_flags=GFP_NOWAIT node=-1 accounted=false"
	ev 1.000003 kfree "call_site=__mt_destroy+0x1/0x2 ptr=ffff888000101000"
	# C: allocated twice with no free between
	ev 1.000004 kmem_cache_alloc "call_site=mas_wr_bnode+0x1/0x2 ptr=ffff888000102000 name=maple_node bytes_req=256 bytes_alloc=256 gfp_flags=GFP_NOWAIT node=-1 accounted=false"
	ev 1.000005 kmem_cache_alloc "call_site=mas_wr_bnode+0x1/0x2 ptr=ffff888000102000 name=maple_node bytes_req=256 bytes_alloc=256 gfp_flags=GFP_NOWAIT node=-1 accounted=false"
	# D: on a page the kernel frees (pfn 0x103), E on one of order 1 (0x104-0x105)
	ev 1.000006 kmem_cache_alloc "call_site=mas_wr_bnode+0x1/0x2 ptr=ffff888000103100 name=maple_node bytes_req=256 bytes_alloc=256 gfp_flags=GFP_NOWAIT node=-1 accounted=false"
	ev 1.000007 kmem_cache_alloc "call_site=mas_wr_bnode+0x1/0x2 ptr=ffff888000104f00 name=maple_node bytes_req=256 bytes_alloc=256 gfp_flags=GFP_NOWAIT node=-1 accounted=false"
	ev 1.000008 mm_page_free "page=ffffea00000040c0 pfn=0x103 order=0"
	ev 1.000009 mm_page_free "page=ffffea0000004100 pfn=0x104 order=1"
	# F: object 6 of the listed slab, not free in the after-read
	ev 1.000010 kmem_cache_alloc "call_site=mas_wr_bnode+0x1/0x2 ptr=ffff888000101600 name=maple_node bytes_req=256 bytes_alloc=256 gfp_flags=GFP_NOWAIT node=-1 accounted=false"
	# another cache's object at a free slot of the listed slab's cache page
	ev 1.000011 kmem_cache_alloc "call_site=x+0x1/0x2 ptr=ffff888000101500 name=maple_node_x bytes_req=256 bytes_alloc=256 gfp_flags=GFP_KERNEL node=-1 accounted=false"
} | zstd -q -c > "$cap/capture.ftrace.zst"

out=$(bash "$root/scripts/unseen-frees.sh" "$cap" maple_node)
expect_eq "geometry" "$(sed -n 1p <<< "$out")" "cache=maple_node stride=256 objs_per_slab=16 order=0"
expect_eq "counts" "$(sed -n 2p <<< "$out")" "allocs=7 freed=1 again=1 page_freed=2 live_end=3 free_after=1 listed_slabs=1"
expect_eq "sheaves" "$(sed -n '4,$p' <<< "$out" | tr -s ' ')" "$(printf ' b 0 10 3 320\n s 0 2 17 28')"

# hashed pointers name no slab; a capture without the after-read; usage
echo "hashed_pointers=yes" > "$cap/meta"
if bash "$root/scripts/unseen-frees.sh" "$cap" maple_node > /dev/null 2> "$tmp/err"; then fail "hashed pointers accepted"; fi
grep -q "hashed pointers" "$tmp/err" || fail "hashed pointers: $(cat "$tmp/err")"
echo "hashed_pointers=no" > "$cap/meta"
rm "$cap/slab-fill-after.txt"
if bash "$root/scripts/unseen-frees.sh" "$cap" maple_node > /dev/null 2> "$tmp/err"; then fail "no after-read accepted"; fi
grep -q "slab-fill-after.txt: not readable" "$tmp/err" || fail "no after-read: $(cat "$tmp/err")"
expect_rc 2 bash "$root/scripts/unseen-frees.sh" "$cap"
echo "unseen_frees: ok"
