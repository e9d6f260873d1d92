#!/bin/bash
# boots.sh CAPS WORK... - the boots of make lab-matrix (docs/lab.md): for each
# workload, configuration A (the default boot) twice (A and A2: how far
# two boots of one configuration agree) and every cell's configuration B
# of lab/matrix/cells.conf, one boot at a time.  A capture already in
# CAPS is kept (the matrix resumes where it stopped).  A boot that fails
# is reported and the others go on; exit 1 if any failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: boots.sh CAPS WORK..." >&2; exit 2; }
caps=$1
shift
failed=0
boot() { # NAME WORK make-lab-variables...
	local name=$1 work=$2
	shift 2
	[ ! -e "$caps/$name/meta" ] || return 0
	echo "lab-matrix: boot $name ($work${*:+, $*})" >&2
	local t0=$SECONDS
	if make -s --no-print-directory -C "$repo" lab NAME="$name" WORK="$work" CAPTURE_DIR="$caps" "$@"; then
		echo "lab-matrix: $name took $((SECONDS - t0)) s" >&2
	else
		echo "lab-matrix: boot $name FAILED" >&2
		failed=1
	fi
}
for w in "$@"; do
	boot "$w-A" "$w"
	boot "$w-A2" "$w"
	while IFS='|' read -r cell bvars _; do
		cell=$(echo "$cell" | tr -d ' ')
		[ -n "$cell" ] && [[ $cell != \#* ]] || continue
		# shellcheck disable=SC2086 # the variables are words
		boot "$w-$cell" "$w" $bvars
	done < "$here/cells.conf"
done
exit $failed
