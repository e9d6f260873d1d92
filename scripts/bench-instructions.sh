#!/bin/bash
# bench-instructions.sh SLABSIM TRACE CSV - instructions per event under
# callgrind (deterministic, unlike timings on a shared machine), for
# `make bench` (docs/bench.md): the whole `slabsim run --model traced`
# process, result files included, and the read-only replay of `slabsim
# bench` (the forked child that decodes and nothing else).  Writes CSV
# (measure,instructions,events,per_event,want) and prints PASS/FAIL lines
# against issue 19's goals (traced <= 120, read-only <= 25).  Needs
# valgrind; without it, says so and exits 0.
set -euo pipefail
S=$1 trace=$2 csv=$3
command -v valgrind >/dev/null || {
	echo "bench-instructions: valgrind missing (apt-get install valgrind): instruction counts skipped"
	exit 0
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
irefs() { awk '/^summary:/ { print $2 }' "$1"; }
events=$("$S" bench --target x86_64-4.6 --models read-only x="$trace" 2>/dev/null | awk -F, '$1 == "read-only" { print $3 }')
valgrind --tool=callgrind --callgrind-out-file="$tmp/run.out" \
	"$S" run --trace "$trace" --model traced --target x86_64-4.6 --out "$tmp/o" >/dev/null 2>&1
valgrind --tool=callgrind --callgrind-out-file="$tmp/bench.%p" \
	"$S" bench --target x86_64-4.6 --models read-only x="$trace" >/dev/null 2>&1
# three processes: the parent (under one instruction per event), the
# read-only child and the glibc baseline child (hundreds): the middle one
child=$(for f in "$tmp"/bench.*; do echo "$(irefs "$f") $f"; done | sort -n | sed -n 2p | cut -d' ' -f2)
{
	echo "measure,instructions,events,per_event,want"
	echo "traced (slabsim run),$(irefs "$tmp/run.out"),$events,$(awk -v i="$(irefs "$tmp/run.out")" -v e="$events" 'BEGIN { printf "%.1f", i / e }'),120"
	echo "read-only (slabsim bench),$(irefs "$child"),$events,$(awk -v i="$(irefs "$child")" -v e="$events" 'BEGIN { printf "%.1f", i / e }'),25"
} >"$csv.tmp"
mv "$csv.tmp" "$csv"
awk -F, 'NR > 1 { ok = $4 <= $5; printf "%s %s: %.1f instructions per event (callgrind, %d events; want <= %d)\n",
	ok ? "PASS" : "FAIL", $1, $4, $3, $5 }' "$csv"
