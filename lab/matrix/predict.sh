#!/bin/bash
# predict.sh CAPS OUT WORK... - the predictions and the table of make
# lab-matrix (docs/lab.md).  For each workload W and each cell C of
# lab/matrix/cells.conf: `make sim TRACE=CAPS/W-A` with the cell's what-if
# variables (NAME=lab-W-C: reports/lab-W-C/), then lab/matrix/compare.awk
# against the booted B (CAPS/W-C).  Two more rows per workload: `boots`
# (two boots of A, W-A against W-A2: how far the kernel agrees with
# itself) and `same` (A's replay against W-A2: the model with no
# what-if).  Writes OUT/cells.csv, OUT/caches.csv and OUT/matrix.md.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -ge 3 ] || { echo "usage: predict.sh CAPS OUT WORK..." >&2; exit 2; }
caps=$(cd "$1" && pwd)
out=$2
shift 2
mkdir -p "$out"
tmp=$(mktemp -d "$out/.predict.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "workload,cell,kernel_dslab_kb,model_dslab_kb,kernel_slab_kb_after,model_slab_kb_after,dslab_error_pct,total_error_pct,big_caches,big_within,model_caches_not_in_B,model_starts_relaid,held,note" > "$tmp/cells.csv"
echo "workload,cell,cache,kernel_dobjects,model_dobjects,objects_error_pct,kernel_dslabs,model_dslabs,slabs_error_pct,within" > "$tmp/caches.csv"

row() { # W C NOTE [compare inputs...]: one cell's line
	local w=$1 c=$2 note=$3
	shift 3
	if [ $# -eq 0 ]; then
		echo "$w,$c,,,,,,,,,,,no,$note" >> "$tmp/cells.csv"
		return
	fi
	local line
	line=$(awk -v cell="$w,$c" -v rows="$tmp/rows" -f "$here/compare.awk" "$@") || {
		echo "$w,$c,,,,,,,,,,,no,compare failed" >> "$tmp/cells.csv"
		return
	}
	[ ! -e "$tmp/rows" ] || { sort "$tmp/rows" >> "$tmp/caches.csv"; rm -f "$tmp/rows"; }
	local held
	held=$(echo "$line" | awk -F, '{ t = $8 + 0; print ($8 != "inf" && t <= 5 && t >= -5 && $9 == $10) ? "yes" : "no" }')
	echo "$line,$held,$note" >> "$tmp/cells.csv"
}

for w in "$@"; do
	a=$caps/$w-A
	[ -e "$a/meta" ] || { echo "lab-matrix: $a missing: boot it first" >&2; continue; }
	if [ -e "$caps/$w-A2/meta" ]; then
		row "$w" boots "two boots of A (no model)" "$caps/$w-A2/slab-after.txt" \
			"$caps/$w-A2/slabinfo-before" "$caps/$w-A2/slabinfo-after" "$a/slabinfo-before" "$a/slabinfo-after"
	fi
	{
		echo "same | (A again: $w-A2) | CPUS=1"
		grep -v '^#' "$here/cells.conf"
	} | while IFS='|' read -r cell _ svars; do
		cell=$(echo "$cell" | tr -d ' ')
		[ -n "$cell" ] || continue
		b=$caps/$w-$cell
		[ "$cell" != same ] || b=$caps/$w-A2
		note=""
		[[ $svars != *'#'* ]] || note=$(echo "${svars#*#}" | sed 's/^ *//')
		svars=$(echo "${svars%%#*}" | sed 's/^ *//; s/ *$//')
		if [ ! -e "$b/meta" ]; then
			row "$w" "$cell" "B not booted (see boots.log)"
			continue
		fi
		if [ "$svars" = - ]; then
			row "$w" "$cell" "not expressible in slabsim: $note"
			continue
		fi
		# the cell's model, with traced beside it: the report's comparison
		# with the kernel is model traced's
		model=traced
		for v in $svars; do [[ $v != MODELS=* ]] || model=${v#MODELS=}; done
		svars=$(echo " $svars " | sed 's/ MODELS=[^ ]* / /')
		set -f
		if [ "$model" = traced ]; then margs=($svars MODELS=traced); else margs=($svars "MODELS=traced $model"); fi
		set +f
		name=lab-$w-$cell
		# (REPORT=: a what-if's report would go to reports/NAME--its-settings/)
		# shellcheck disable=SC2086 # the variables are words
		if ! make -s --no-print-directory -C "$repo" sim TRACE="$a" NAME="$name" \
			REPORT="$repo/reports/$name" "${margs[@]}" > "$tmp/sim.log" 2>&1; then
			row "$w" "$cell" "make sim failed: $(grep -m1 -iE 'error|slabsim:' "$tmp/sim.log" | tr ',' ';' | head -c 200)"
			continue
		fi
		run=$repo/reports/$name/runs/trace__$model
		# (prior.csv: the starts of the caches the run laid out its own way)
		start=("$a/slabinfo-before")
		[ ! -e "$run/prior.csv" ] || start+=("$run/prior.csv")
		row "$w" "$cell" "${margs[*]}" "$b/slab-after.txt" "$b/slabinfo-before" "$b/slabinfo-after" \
			"$run/slabinfo.1-start" "$run/slabinfo" "${start[@]}"
	done
done

# the table
awk -F, '
	NR == 1 { next }
	{
		if (!hdr++) {
			print "| workload | cell | kernel Δslab kB | model Δslab kB | Δ error | slab kB after (kernel) | (model) | total error | caches ≥1,500 Δobjects within | held | note |"
			print "|---|---|--:|--:|--:|--:|--:|--:|--:|---|---|"
		}
		printf "| %s | %s | %s | %s | %s%s | %s | %s | %s%s | %s | %s | %s |\n", $1, $2, $3, $4, $7, ($7 == "" ? "" : "%"), $5, $6, $8, ($8 == "" ? "" : "%"), ($9 == "" ? "" : $10 " of " $9), $13, $14
	}' "$tmp/cells.csv" > "$tmp/cells.md"
awk -F, '
	NR == 1 { next }
	{
		if (!hdr++) {
			print "| workload | cell | cache | kernel Δobjects | model Δobjects | error | kernel Δslabs | model Δslabs | error | within |"
			print "|---|---|---|--:|--:|--:|--:|--:|--:|---|"
		}
		printf "| %s | %s | %s | %s | %s | %s%% | %s | %s | %s%% | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
	}' "$tmp/caches.csv" > "$tmp/caches.md"
{
	echo "# make lab-matrix"
	echo
	echo "Configuration A: Debian's 6.1 x86_64 kernel, 1 CPU, default boot.  Each cell boots configuration B"
	echo "(lab/matrix/cells.conf) and predicts it with slabsim from A's capture; Δ = after - before."
	echo "Held: every cache whose objects changed by 1,500 or more within ±10% (objects) and ±15% (slabs),"
	echo "and the slab memory after within ±5% (the model's: B's before-count plus its predicted change)."
	echo
	cat "$tmp/cells.md"
	echo
	echo "## Caches whose objects changed by 1,500 or more"
	echo
	cat "$tmp/caches.md"
} > "$tmp/matrix.md"
mv -f "$tmp/cells.csv" "$out/cells.csv"
mv -f "$tmp/caches.csv" "$out/caches.csv"
mv -f "$tmp/matrix.md" "$out/matrix.md"
echo "lab-matrix: $out/matrix.md, cells.csv, caches.csv"
