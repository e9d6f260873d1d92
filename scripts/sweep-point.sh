#!/bin/bash
# sweep-point.sh - make one point of a sweep (mk/sweep.mk, docs/distributed.md).
#
#   sweep-point.sh tree ROOT ARGS INDEX OUTDIR SLABSIM
#       in the source tree ROOT (a shared filesystem: Slurm), into OUTDIR
#   sweep-point.sh kit KIT ARGS INDEX
#       on a GNU parallel worker, in the current directory, where parallel
#       put KIT (the tree and build/slabsim, tar.gz) and ARGS: unpack KIT in
#       a temporary directory, make the point there and leave its
#       directory as point-INDEX.tar.gz for parallel to send back
#
# ARGS (sweep-args.sh) defines the point's make arguments: `args` (common
# to every point), `var`, and per point `values` and `commands` (the
# command its report.md records).  The point is made exactly as `make
# sweep -jN` makes it, so its files are the same byte for byte.
set -euo pipefail

make_point() { # ROOT INDEX OUTDIR SLABSIM
	make -C "$1" --no-print-directory sweep-point "${args[@]}" \
		"$var=${values[$2]}" "SWEEP_POINT_COMMAND=${commands[$2]}" \
		DATA="$3/data" REPORT="$3" SLABSIM="$4" SWEEP_POINT=1 DEPS_OK=yes
}

case "${1:-}" in
tree)
	. "$3"
	make_point "$2" "$4" "$5" "$6"
	;;
kit)
	. "./$3"
	work=$(mktemp -d "${TMPDIR:-/tmp}/slabsim-point.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	tar -xzf "./$2" -C "$work"
	# the point's directory under the same name as on the submitting host
	# when that is relative to the tree (what its report.md names)
	case $sweepdir in
	/*) out=point ;;
	*) out=$sweepdir/${values[$4]} ;;
	esac
	make_point "$work" "$4" "$out" "$work/build/slabsim" >&2
	tar -czf "point-$4.tar.gz" -C "$work/$out" .
	;;
*)
	echo "usage: $0 tree ROOT ARGS INDEX OUTDIR SLABSIM | kit KIT ARGS INDEX" >&2
	exit 2
	;;
esac
