#!/bin/bash
# determinism.sh - make test-lab: each workload of lab/work/ but tiny and
# sysfs-slab booted twice (6.1 x86_64, default boot); every cache whose
# objects changed by 1,500 or more agrees between the two boots within 3%
# (objects) and 5% (slabs), the slab memory's change within 5%
# (lab/matrix/compare.awk, the second boot in the model's place).  Root.
# LAB_WORKS="a b" limits it to those workloads; LAB_KEEP=DIR keeps the
# captures there.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "SKIP: not root"; exit 77; }
tmp=${LAB_KEEP:-$(mktemp -d)}
mkdir -p "$tmp"
[ -n "${LAB_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
for f in "$here"/lab/work/*.sh; do
	w=$(basename "$f" .sh)
	case $w in tiny | sysfs-slab | smack17k) continue ;; esac
	[ -z "${LAB_WORKS:-}" ] || [[ " $LAB_WORKS " == *" $w "* ]] || continue
	for i in 1 2; do
		[ ! -e "$tmp/$w-$i/meta" ] || continue
		make -s --no-print-directory -C "$here" lab NAME="$w-$i" WORK="$w" CAPTURE_DIR="$tmp" 2> "$tmp/err" ||
			fail "$w boot $i: $(tail -20 "$tmp/err")"
	done
	line=$(awk -v cell="$w,boots" -v rows="$tmp/rows" -f "$here/lab/matrix/compare.awk" "$tmp/$w-2/slab-after.txt" \
		"$tmp/$w-2/slabinfo-before" "$tmp/$w-2/slabinfo-after" "$tmp/$w-1/slabinfo-before" "$tmp/$w-1/slabinfo-after")
	echo "determinism.sh: $line"
	if [ -e "$tmp/rows" ]; then
		awk -F, '{ o = $6 + 0; s = $9 + 0; if (o < 0) o = -o; if (s < 0) s = -s
			if ($6 == "inf" || $9 == "inf" || o > 3 || s > 5) { print "FAIL: " $0; bad = 1 } else print "  " $0 }
			END { exit bad }' "$tmp/rows" || fail "$w: two boots disagree (above)"
		rm -f "$tmp/rows"
	fi
	echo "$line" | awk -F, '{ e = $7 + 0; if (e < 0) e = -e; exit !($7 != "inf" && e <= 5) }' ||
		fail "$w: the slab memory's change differs by $(echo "$line" | cut -d, -f7)% between two boots"
done
echo "determinism.sh: ok"
