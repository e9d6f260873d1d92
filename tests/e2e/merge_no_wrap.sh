#!/bin/bash
# merge_no_wrap.sh - the merged-cache case that once wrapped: 192-byte
# dentries merged into filp (184-byte objects, a 192-byte stride) made the
# requested bytes exceed the allocated ones and rounding_bytes read
# 18446744073709480895.  __kmem_cache_alias() grows the merged cache's
# object_size to the new cache's, so every figure stays >= 0; and an
# imported trace's own caches are never merged at all.
. "$(dirname "$0")/lib/common.bash"
cat > "$tmp/t.trace" <<'T'
slabsim-trace 1
cache filp size=184 align=0 flags=hwcache
cache dentry size=192
a 0 0 do_filp_open filp 184
a 0 1 d_alloc dentry 192
a 0 2 d_alloc dentry 192
f 0 0
T
"$S" run --trace "$tmp/t.trace" --model traced --target x86_64-6.x --cpus 1 --out "$tmp/run" > /dev/null
expect_eq "requested" "$(col "$tmp/run/summary.csv" requested_bytes)" 384
expect_eq "rounding (no wrap)" "$(col "$tmp/run/summary.csv" rounding_bytes)" 0
grep -q '^filp,192,192,' "$tmp/run/caches.csv" || fail "filp's object_size did not grow to 192: $(grep ^filp "$tmp/run/caches.csv")"
grep -q '^dentry,' "$tmp/run/caches.csv" && fail "dentry was not merged into filp"
grep -q '"rounding_bytes": 0,' "$tmp/run/summary.json" || fail "summary.json rounding_bytes"

# the same caches in an imported trace are the kernel's own: not merged
sed 's/^slabsim-trace 1$/slabsim-trace 1\nmeta workload import/' "$tmp/t.trace" > "$tmp/imp.trace"
"$S" run --trace "$tmp/imp.trace" --model traced --target x86_64-6.x --cpus 1 --out "$tmp/imp" > /dev/null
grep -q '^filp,184,192,' "$tmp/imp/caches.csv" || fail "imported filp changed"
grep -q '^dentry,192,192,' "$tmp/imp/caches.csv" || fail "imported dentry merged"
expect_eq "imported rounding" "$(col "$tmp/imp/summary.csv" rounding_bytes)" 0
# the alias declared while the first cache's objects are live: they move
# bytes from align to allocated mid-trace, in the running totals too (the
# replay folds them in when read, sim/account.h; the run ends with a check
# of those totals against the model's caches)
{
	printf 'slabsim-trace 1\ncache filp size=184 align=0 flags=hwcache\n'
	printf 'a 0 0 do_filp_open filp 184\na 0 1 do_filp_open filp 180\na 0 2 do_filp_open filp 184\n'
	printf 'cache dentry size=192\na 0 3 d_alloc dentry 192\nf 0 0\n'
	for i in $(seq 4 40); do echo "a 0 $i d_alloc dentry 190"; done
} > "$tmp/late.trace"
"$S" run --trace "$tmp/late.trace" --model traced --target x86_64-6.x --cpus 1 --out "$tmp/late" > /dev/null
expect_eq "late alias: allocated" "$(col "$tmp/late/summary.csv" allocated_bytes)" $((40 * 192))
expect_eq "late alias: align" "$(col "$tmp/late/summary.csv" align_bytes)" 0
expect_eq "late alias: peak align" "$(col "$tmp/late/summary.csv" peak_align_bytes)" 0
echo "merge_no_wrap.sh: ok"
