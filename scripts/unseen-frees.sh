#!/bin/bash
# unseen-frees.sh - how many of a cache's objects a capture leaves live
# although the kernel freed them with no kmem event (docs/sheaves.md,
# "What a capture shows of sheaves"), from what the capture itself
# recorded: the trace, its mm_page_free events and the after-read of
# slab-fill (slab-fill-after.txt).
#
#   unseen-frees.sh CAPTURE_DIR CACHE
#
# Over the trace, per object of CACHE allocated with an event (pointers
# as printed; raw ones required):
#   allocs          kmem_cache_alloc events naming CACHE
#   freed           of those, freed by a kfree / kmem_cache_free event
#   again           allocated again while live: its free had no event
#   page_freed      live when the kernel freed its slab's pages
#                   (kmem:mm_page_free of the page the object is on): the
#                   slab was empty, so the object had been freed unseen
#   live_end        live at the end of the trace
#   free_after      of live_end, free on its slab in the after-read (a
#                   node partial, CPU or CPU partial slab's free bitmap):
#                   freed unseen and flushed to the slab
# and the after-read's sheaf lines of CACHE (b NODE FULL EMPTY OBJECTS,
# s CPU MAIN SPARE RCU: the objects the kernel's sheaves held then, freed
# or never handed out, which no read names one by one).
#
# Addresses are compared by their low 48 bits (the kernel's canonical
# upper half), a page frame's address as the direct map's base
# (DIRECT_MAP, default ffff888000000000: x86_64 without memory KASLR)
# plus pfn x 4096.  Exit 0, 1 on a missing file or hashed pointers,
# 2 on bad usage.
set -euo pipefail
prog=unseen-frees.sh
[ $# -eq 2 ] || { echo "usage: $prog CAPTURE_DIR CACHE" >&2; exit 2; }
cap=$1 cache=$2
dm=${DIRECT_MAP:-ffff888000000000}
for f in meta capture.ftrace.zst slab-after.txt slab-fill-after.txt; do
	[ -r "$cap/$f" ] || { echo "$prog: $cap/$f: not readable" >&2; exit 1; }
done
grep -qx 'hashed_pointers=no' "$cap/meta" ||
	{ echo "$prog: $cap/meta: hashed pointers name no slab (make capture RAW_PTR=1)" >&2; exit 1; }
# the cache's stride, objects per slab and slab order (slab-snapshot.sh)
geo=$(awk -v c="cache=$cache" '$1 == c {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	print v["slab_size"], v["objs_per_slab"], v["order"]; exit }' "$cap/slab-after.txt")
[ -n "$geo" ] || { echo "$prog: $cap/slab-after.txt: no cache $cache" >&2; exit 1; }
read -r stride per_slab order <<< "$geo"
{
	echo "AFTER"
	cat "$cap/slab-fill-after.txt"
	echo "TRACE"
	zstd -dc "$cap/capture.ftrace.zst"
} | awk -v cache="$cache" -v stride="$stride" -v per="$per_slab" -v order="$order" -v dm="$dm" '
# (array keys as "%.0f" strings: mawk turns large numbers into "%.6g" ones)
function k(n) { return sprintf("%.0f", n) }
function hex(s,    i, n) { # the low 48 bits of a hex address
	s = tolower(s); sub(/^0x/, "", s)
	if (length(s) > 12) s = substr(s, length(s) - 11)
	n = 0
	for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n
}
function field(line, key,    s) { # the value of KEY= on a trace line
	if (!match(line, " " key "=[^ ]+")) return ""
	s = substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2)
	return s
}
BEGIN { base = hex(dm); slab_bytes = 4096; for (i = 0; i < order; i++) slab_bytes *= 2 }
$0 == "AFTER" { part = "after"; next }
$0 == "TRACE" { part = "trace"; next }
part == "after" {
	if ($0 ~ /^cache=/) { mine = ($0 == "cache=" cache); next }
	if (!mine) next
	if ($1 == "b" || $1 == "s") { sheaves = sheaves "  " $0 "\n"; next }
	if ($1 != "n" && $1 != "p" && $1 != "c") next
	addr = hex($4); bits = $NF
	if (addr == 0 || bits == "-") next
	start = addr - (addr - base) % slab_bytes
	listed++
	for (i = 1; i <= length(bits); i++) {
		v = index("0123456789abcdef", substr(bits, i, 1)) - 1
		for (b = 0; b < 4; b++) {
			if (v % 2) free_after[k(start + (4 * (i - 1) + b) * stride)] = 1
			v = int(v / 2)
		}
	}
	next
}
part == "trace" {
	if (index($0, " kmem_cache_alloc: ") && index($0, " name=" cache " ")) {
		p = k(hex(field($0, "ptr"))); allocs++
		if (p in live) again++
		live[p] = 1
		next
	}
	if (index($0, " kfree: ") || index($0, " kmem_cache_free: ")) {
		p = k(hex(field($0, "ptr")))
		if (p in live) { delete live[p]; freed++ }
		next
	}
	if (index($0, " mm_page_free: ")) {
		pg = base + hex(field($0, "pfn")) * 4096
		n = 4096; for (i = 0; i < field($0, "order") + 0; i++) n *= 2
		# the objects of a slab that began on this page
		for (i = 0; i < per && i * stride < n; i++)
			if (k(pg + i * stride) in live) { delete live[k(pg + i * stride)]; page_freed++ }
	}
}
END {
	for (p in live) { live_end++; if (p in free_after) fa++ }
	printf "cache=%s stride=%d objs_per_slab=%d order=%d\n", cache, stride, per, order
	printf "allocs=%d freed=%d again=%d page_freed=%d live_end=%d free_after=%d listed_slabs=%d\n",
		allocs, freed, again, page_freed, live_end, fa, listed
	printf "sheaves (after-read):\n%s", sheaves
}'
