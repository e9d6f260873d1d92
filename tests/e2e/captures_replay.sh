#!/bin/bash
# captures_replay.sh - the real captures checked in under
# tests/data/captures/ (README.md there) replayed as a user would, `make
# sim TRACE=DIR`: each one's kernel.csv is byte-identical to its
# expected-kernel.csv.
#
# Byte-identical, not "within bounds": a replay is deterministic (the same
# inputs and seed give the same CSV), so any difference is a change of
# the import, the model or the report, and it is shown here, held caches
# first, for review; a change meant to move the figures updates the
# expected tables (tests/data/captures/remake.sh expect) in the same
# commit, where the diff says what moved.  Needs gnuplot (make sim's
# plots): SKIP (exit 77) otherwise.  No root: the captures are files.
. "$(dirname "$0")/lib/common.bash"
declare -F skip > /dev/null || skip() { echo "SKIP: $*"; exit 77; }
command -v gnuplot > /dev/null || skip "no gnuplot (make deps)"
command -v zstd > /dev/null || skip "no zstd (make deps)"

caps=$root/tests/data/captures
n=0
for d in "$caps"/*/; do
	d=${d%/}
	name=${d##*/}
	[ -e "$d/meta" ] || continue
	n=$((n + 1))
	[ -s "$d/expected-kernel.csv" ] || fail "$name: no expected-kernel.csv"
	make -s -C "$root" --no-print-directory sim TRACE="$d" MODELS=traced SLABSIM="$S" \
		DATA="$tmp/$name/data" REPORT="$tmp/$name/report" > "$tmp/$name.log" 2>&1 ||
		{ tail -20 "$tmp/$name.log"; fail "$name: make sim TRACE= failed"; }
	got=$tmp/$name/report/kernel.csv
	if ! cmp -s "$got" "$d/expected-kernel.csv"; then
		held() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next } $c["held"] == 1' "$1"; }
		echo "$name: held caches, expected then now:" >&2
		diff <(held "$d/expected-kernel.csv") <(held "$got") >&2 || true
		echo "$name: every row that differs:" >&2
		diff "$d/expected-kernel.csv" "$got" | head -20 >&2 || true
		fail "$name: kernel.csv is not expected-kernel.csv (a change meant to move the figures: tests/data/captures/remake.sh expect $name)"
	fi
	echo "captures_replay.sh: $name: kernel.csv as expected ($(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["held"] == 1 { h++; w += $c["within"] } END { print h + 0 " held caches, " w + 0 " within" }' "$got"))"
done
[ "$n" -ge 2 ] || fail "$n captures in $caps, want 2 or more"
# readable by anyone (make capture writes them root-only), and light
unreadable=$(find "$caps" -type f ! -perm -0444)
[ -z "$unreadable" ] || fail "not readable by all: $unreadable"
bytes=$(du -sb "$caps" | cut -f1)
[ "$bytes" -le $((10 * 1024 * 1024)) ] || fail "$caps holds $bytes bytes, more than 10 MiB"
echo "captures_replay.sh: ok"
