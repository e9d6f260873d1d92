#!/bin/bash
# fuzz_regressions.sh - replay every kept fuzz input (tests/fuzz/regressions/
# <target>/, crashes found and fixed) and every seed (tests/fuzz/corpus/
# <target>/) through the plain build of each harness: the one next to
# $S, so under `make test` it runs once normally and once with
# ASan + UBSan.  The harnesses check their own invariants (tests/fuzz/fuzz.h).
# Reproducers of bugs not fixed yet wait in regressions/<target>/open/, which
# the driver does not enter (docs/bad-input.md, "Open problems").
. "$(dirname "$0")/lib/common.bash"
bin=$(dirname "$S")/tests
# leaks inside libhwloc are hwloc's (tests/fuzz/lsan.supp)
export LSAN_OPTIONS=suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0

n=0
for src in "$root"/tests/fuzz/fuzz_*.c; do
	t=$(basename "$src" .c)
	t=${t#fuzz_}
	[ -x "$bin/fuzz_$t" ] || fail "$bin/fuzz_$t not built (make $bin/fuzz_$t)"
	seeds=$(find "$root/tests/fuzz/corpus/$t" -type f 2>/dev/null | wc -l)
	[ "$seeds" -gt 0 ] || fail "$t: no seed inputs in tests/fuzz/corpus/$t"
	dirs=("$root/tests/fuzz/corpus/$t")
	[ -d "$root/tests/fuzz/regressions/$t" ] && dirs+=("$root/tests/fuzz/regressions/$t")
	out=$("$bin/fuzz_$t" "${dirs[@]}" 2>&1) ||
		fail "$t: $(tail -30 <<<"$out")"
	echo "$out" | tail -1
	n=$((n + 1))
done
[ $n -ge 6 ] || fail "only $n fuzz harnesses"
echo "fuzz_regressions: $n harnesses ok"
