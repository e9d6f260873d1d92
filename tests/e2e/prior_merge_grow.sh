#!/bin/bash
# prior_merge_grow.sh - a what-if merge that grows a cache holding the
# kernel's objects (run --initial-state, the kmem_cache model): the
# initial objects are counted at the cache's object_size, and grow with
# it when __kmem_cache_alias() makes it bigger, so frees of all of them
# leave requested bytes at what the trace's own object asked, not a
# wrapped figure (a 120-byte eventpoll_epi grown to 128 by a kmalloc-128
# site's cache merged into it, as below).
. "$(dirname "$0")/lib/common.bash"
cd "$tmp"
cat > snap.txt <<'SNAP'
slabinfo - version: 2.1
foo 64 64 128 32 1 : tunables 0 0 0 : slabdata 2 2 0
SNAP
{
	echo "slabsim-trace 1"
	echo "meta workload import"
	echo "meta cpus 2"
	echo "cache foo size=120 align=64 flags=hwcache"
	echo "u 0 free_x foo 0"
	# the site's own 128-byte cache merges into foo, which grows to 128
	echo "a 0 1 alloc_y kmalloc 128"
	for i in $(seq 1 63); do echo "u 1 free_x foo 0"; done
} > t.trace
"$S" run --trace t.trace --model kmem_cache --target x86_64-6.x --initial-state snap.txt \
	--out km > km.out 2>&1 || fail "run: $(tail -2 km.out)"
col() { awk -F, -v c="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$1 == c { print $h[n] }' "$1/caches.csv"; }
expect_eq "foo grew to the merged size" "$(col km foo object_size)" 128
expect_eq "foo: the trace's one object left" "$(col km foo objects)" 1
expect_eq "foo: its requested bytes" "$(col km foo requested_bytes)" 128
expect_eq "foo: no rounding" "$(col km foo rounding_bytes)" 0
# every prior object freed: prior.csv's count
expect_eq "prior frees" "$(awk -F, '$1 == "foo" { print $4 }' km/prior.csv)" 64
echo "prior_merge_grow: ok"
