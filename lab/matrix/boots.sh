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
# The boots run a copy of the lab's scripts taken now: bash reads a script
# as it runs it, and an edit of lab/ during the matrix's hours would
# otherwise break the boot that is running.
mkdir -p "$caps"
snap=$(mktemp -d "$caps/.lab-scripts.XXXXXX")
trap 'rm -rf "$snap"' EXIT
mkdir "$snap/scripts"
cp -r "$repo/lab" "$snap/lab"
cp "$repo/scripts/slab-snapshot.sh" "$repo/scripts/capture-tracefs.sh" "$snap/scripts/"
export LAB_DATA=${LAB_DATA:-$repo/datasets/lab}
boot() { # NAME WORK make-lab-variables...
	local name=$1 work=$2
	shift 2
	[ ! -e "$caps/$name/meta" ] || return 0
	echo "lab-matrix: boot $name ($work${*:+, $*})" >&2
	local t0=$SECONDS
	local v args=()
	for v in "$@"; do
		case $v in
		BOOT=*) args+=(-b "${v#BOOT=}") ;;
		CPUS=*) args+=(-c "${v#CPUS=}") ;;
		KERNEL=*) args+=(-k "${v#KERNEL=}") ;;
		ARCH=*) args+=(-a "${v#ARCH=}") ;;
		MEMCG=1) args+=(-g) ;;
		*) echo "lab-matrix: unknown boot variable $v in cells.conf" >&2; failed=1; return ;;
		esac
	done
	if "$snap/lab/run.sh" -n "$name" -w "$work" -d "$caps" "${args[@]}"; then
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
