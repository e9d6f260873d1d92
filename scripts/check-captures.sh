#!/bin/bash
# check-captures.sh OUT PATH... - `make check-captures` (mk/check-captures.mk):
# every capture under the PATHs through `make sim TRACE=`, then one table
# of their held caches against the live kernel (`slabsim kernel-table`,
# docs/own-trace.md "Checking your own captures").
#
# A PATH is a `make capture` directory or a directory holding them (a
# CAPTURE_DIR).  A capture's report is REPORTS/PARENT-NAME/ (PARENT the
# directory it is in, so that two CAPTURE_DIRs' captures of one name do not
# share a report).  A capture without both slab snapshots cannot be
# compared with the kernel: it is skipped, and said so.  The first make sim
# that fails stops the check, with no table written.
#
# With DRAWS=N each capture is also replayed N more times under `traced`
# with other draws of the initial state (run --draw-seed 1 .. N, reports
# REPORTS/PARENT-NAME.drawS), and the table gives each held cache's range
# over the draws (docs/own-trace.md).  The draws are replayed with the
# capture's models, from one pass over its trace (CHECK_DRAWS=N to its
# make sim: mk/check-captures.mk); each draw's own make sim then writes
# its report.
#
# Environment: MAKE (the make to run), SLABSIM (the binary), DRAWS,
# CHECK_RUN_FLAGS (make's RUN_FLAGS, kept beside --draw-seed), REPORTS and
# DATASETS (where the reports and imported traces go: REPORTS/PARENT-NAME,
# DATASETS/import/PARENT-NAME; default reports, datasets).  make's
# command-line variables (MODELS=, TARGET=) reach each make sim through
# MAKEFLAGS.
set -euo pipefail
# (each make through forward: a SIGTERM to this script reaches it too)
. "$(dirname "$0")/forward.bash"
out=${1:?usage: check-captures.sh OUT PATH...}
shift
[ $# -gt 0 ] || { echo "check-captures.sh: no CAPTURES given" >&2; exit 2; }
MAKE=${MAKE:-make}
SLABSIM=${SLABSIM:-build/slabsim}
REPORTS=${REPORTS:-reports}
DATASETS=${DATASETS:-datasets}
DRAWS=${DRAWS:-0}
[[ $DRAWS =~ ^[0-9]+$ ]] && [ "$DRAWS" -le 1000 ] || { echo "check-captures: DRAWS=$DRAWS: want 0 .. 1000" >&2; exit 2; }

# an older table must not pass for this check's
rm -f "$out/kernel-table.md" "$out/kernel-table.csv"
is_capture() { [ -e "$1/capture.ftrace.zst" ] || [ -e "$1/trace.dat" ]; }
caps=()
for p in "$@"; do
	p=${p%/}
	[ -d "$p" ] || { echo "check-captures: $p: not a directory" >&2; exit 1; }
	if is_capture "$p"; then
		caps+=("$p")
		continue
	fi
	found=0
	for c in "$p"/*/; do
		c=${c%/}
		is_capture "$c" || continue
		caps+=("$c")
		found=1
	done
	[ "$found" = 1 ] || { echo "check-captures: $p: no capture in it (a make capture directory has capture.ftrace.zst or trace.dat)" >&2; exit 1; }
done

log=$(mktemp)
prog=$(mktemp)
trap 'rm -f "$log" "$prog"' EXIT
# a line per capture (and draw) done, with the time left (scripts/progress.sh)
scripts/progress.sh start "$prog" check-captures $((${#caps[@]} * (DRAWS + 1)))
reports=()
for c in "${caps[@]}"; do
	if [ ! -e "$c/slab-before.txt" ] || [ ! -e "$c/slab-after.txt" ]; then
		echo "check-captures: $c: skipped (no slab-before.txt and slab-after.txt to compare with)"
		scripts/progress.sh done "$prog" "$c" $((DRAWS + 1))
		continue
	fi
	parent=$(basename "$(cd "$c/.." && pwd)")
	name=$parent-$(basename "$c")
	echo "check-captures: $c -> $REPORTS/$name"
	# (the draws' runs from the same pass: mk/check-captures.mk)
	if ! CHECK_DRAWS=$DRAWS forward "$MAKE" --no-print-directory sim TRACE="$c" NAME="$name" REPORT="$REPORTS/$name" \
		DATA="$DATASETS/import/$name" > "$log" 2>&1; then
		tail -n 20 "$log" >&2
		echo "check-captures: make sim TRACE=$c NAME=$name failed; no table written" >&2
		exit 1
	fi
	scripts/progress.sh done "$prog" "$name"
	for ((s = 1; s <= DRAWS; s++)); do
		if ! forward "$MAKE" --no-print-directory sim TRACE="$c" NAME="$name.draw$s" MODELS=traced \
			REPORT="$REPORTS/$name.draw$s" DATA="$DATASETS/import/$name" \
			RUN_FLAGS="${CHECK_RUN_FLAGS:-} --draw-seed $s" > "$log" 2>&1; then
			tail -n 20 "$log" >&2
			echo "check-captures: make sim TRACE=$c, draw seed $s, failed; no table written" >&2
			exit 1
		fi
		scripts/progress.sh done "$prog" "$name.draw$s"
	done
	reports+=("$REPORTS/$name")
done
scripts/progress.sh end "$prog"
[ ${#reports[@]} -gt 0 ] || { echo "check-captures: no capture has both slab snapshots" >&2; exit 1; }
forward "$SLABSIM" kernel-table --out "$out" --draws "$DRAWS" \
	--command "make check-captures CAPTURES=\"$*\"$([ "$DRAWS" = 0 ] || echo " DRAWS=$DRAWS")" "${reports[@]}"
echo "check-captures: $out/kernel-table.md, $out/kernel-table.csv written ($(sed -n 's/^\*\*\(.*\)\*\*.*/\1/p' "$out/kernel-table.md"))"
