#!/bin/bash
# kernels.sh - make test-lab: the tiny workload on every kernel of the lab
# but the test boot's (6.1 arm32, 6.12 x86_64, 7.2 x86_64, 7.2 arm32): each
# capture complete, lossless, every kmem_cache_alloc named (the tracepoint's
# name= on 6.12+, the kprobes on 6.1), and imported and replayed by make
# sim TRACE= with the nearest target.  Root; SKIP (77) otherwise.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "SKIP: not root"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$here"/reports/labk-$$-* "$here"/datasets/import/labk-$$-*' EXIT
for kt in "6.1 arm32 arm32-6.6" "6.12 x86_64 x86_64-6.x" "7.2 x86_64 x86_64-7.2" "7.2 arm32 arm32-7.2-armmp"; do
	read -r k a t <<< "$kt"
	n=k${k/./}-$a
	make -s --no-print-directory -C "$here" lab NAME="$n" WORK=tiny KERNEL="$k" ARCH="$a" CAPTURE_DIR="$tmp" SETTLE=2 \
		2> "$tmp/err" || fail "$k $a: $(tail -20 "$tmp/err")"
	d=$tmp/$n
	grep -q '^lossy=no$' "$d/meta" || fail "$k $a: lossy"
	unnamed=$(zstd -dc "$d/capture.ftrace.zst" | grep ': kmem_cache_alloc: ' | grep -vc ' name=' || true)
	[ "$unnamed" = 0 ] || fail "$k $a: $unnamed kmem_cache_alloc events without name="
	make -s --no-print-directory -C "$here" sim TRACE="$d" NAME="labk-$$-$n" TARGET="$t" CPUS=1 MODELS=traced \
		> "$tmp/sim" 2>&1 || fail "$k $a: make sim TRACE=: $(tail -20 "$tmp/sim")"
	[ -s "$here/reports/labk-$$-$n/kernel.csv" ] || fail "$k $a: no kernel.csv"
	echo "kernels.sh: $k $a ok ($(sed -n 's/^lab_cache_names=//p' "$d/meta"))"
done
echo "kernels.sh: ok"
