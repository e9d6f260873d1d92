#!/bin/bash
# many_caches.sh - the cost of a cache lookup must not grow with the number
# of caches (issue 16): `kmem_cache --no-merge` gives each of 80k sites its
# own cache.  A linear strcmp over the caches took 61 s there (over 20 s
# of CPU on this machine, checked by putting the loop back); the name hash
# (allocators/slub_model.c, ss_strtab) takes about 1 s.  The bound is CPU
# time (ulimit -S -t: SIGXCPU), not wall time, so a loaded machine cannot
# make it flaky; 20 s leaves room for ASan (`make test`'s second pass).
. "$(dirname "$0")/lib/common.bash"
sites=80000
awk -v n=$sites 'BEGIN { print "slabsim-trace 1"
	for (i = 0; i < n; i++) {
		printf "a 0 %d site_%d kmalloc %d\n", 2 * i, i, 8 + i % 200
		printf "a 1 %d site_%d kmalloc %d\n", 2 * i + 1, i, 8 + i % 200
	} }' >"$tmp/many.trace"
rc=0
(ulimit -S -t 20; exec "$S" run --trace "$tmp/many.trace" --model kmem_cache --no-merge \
	--target x86_64-6.x --cpus 2 --out "$tmp/run" >/dev/null) || rc=$?
[ $rc -ne $((128 + $(kill -l XCPU))) ] || fail "$sites caches took over 20 s of CPU: a lookup linear in the caches?"
[ $rc -eq 0 ] || fail "run: exit $rc"
# each site had a cache of its own (else the test measured nothing)
expect_eq "site caches" "$(grep -c '^site_' "$tmp/run/caches.csv")" $sites
echo "many_caches: ok"
