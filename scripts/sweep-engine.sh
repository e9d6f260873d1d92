#!/bin/bash
# sweep-engine.sh - run a sweep's points on GNU parallel or Slurm instead
# of sub-makes (mk/sweep.mk, ENGINE=parallel|slurm; docs/distributed.md).
#
#   sweep-engine.sh --engine parallel|slurm --dir SWEEP_DIR --slabsim BIN
#       --var MAKEVAR [--sshloginfile F] [--jobs N] [--slurm-wait 0|1]
#       [--slurm-opts "..."] --point VALUE COMMAND ... -- MAKE-ARGS...
#
# Each point is `make sweep-point MAKE-ARGS MAKEVAR=VALUE` into
# SWEEP_DIR/VALUE, as the make engine does it (scripts/sweep-point.sh).
# parallel: a kit (tracked files of the tree + build/slabsim) goes to each
# host once, every point comes back as a tar.gz and replaces
# SWEEP_DIR/VALUE; without SSHLOGINFILE the points run here.  slurm: the
# tree is on a filesystem every node sees; one array task per point.
set -euo pipefail

engine= dir= slabsim= var= logins= jobs= slurm_wait=1 slurm_opts=
values=() commands=()
while [ $# -gt 0 ]; do
	case $1 in
	--engine) engine=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--slabsim) slabsim=$2; shift 2 ;;
	--var) var=$2; shift 2 ;;
	--sshloginfile) logins=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--slurm-wait) slurm_wait=$2; shift 2 ;;
	--slurm-opts) slurm_opts=$2; shift 2 ;;
	--point) values+=("$2"); commands+=("$3"); shift 3 ;;
	--) shift; break ;;
	*) echo "sweep-engine.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
args=("$@")
root=$(pwd)
n=${#values[@]}
[ "$n" -gt 0 ] || { echo "sweep-engine.sh: no point" >&2; exit 2; }
mkdir -p "$dir"
sweepdir=$dir # as make names it: a point's report.md shows it
dir=$(cd "$dir" && pwd)
stage=$dir/.$engine
rm -rf "$stage"
mkdir -p "$stage"
{ declare -p args values commands; printf 'var=%q\nsweepdir=%q\n' "$var" "$sweepdir"; } >"$stage/sweep-args.sh"

run_parallel() {
	command -v parallel >/dev/null || { echo "make sweep ENGINE=parallel: GNU parallel is missing (make deps)" >&2; exit 2; }
	# the kit: what make needs to make a point, under unique names (the
	# files land in each remote host's home directory)
	local tag="slabsim-sweep-$$-$(date +%s)" logarg=()
	(cd "$root" && git ls-files -z --cached --others --exclude-standard 2>/dev/null | tar --null -T - -czf "$stage/$tag-kit.tar.gz" \
		--transform "s|^$(realpath --relative-to="$root" "$slabsim")\$|build/slabsim|" \
		"$(realpath --relative-to="$root" "$slabsim")") ||
		{ echo "make sweep ENGINE=parallel: cannot build the kit (a git tree?)" >&2; exit 1; }
	mv "$stage/sweep-args.sh" "$stage/$tag-args.sh"
	cp "$root/scripts/sweep-point.sh" "$stage/$tag-point.sh"
	[ -n "$logins" ] && logarg=(--sshloginfile "$(realpath "$logins")")
	cd "$stage"
	parallel --will-cite --halt now,fail=1 ${jobs:+--jobs "$jobs"} "${logarg[@]}" \
		--basefile "$tag-kit.tar.gz" --basefile "$tag-args.sh" --basefile "$tag-point.sh" \
		--return "point-{}.tar.gz" --cleanup \
		bash "$tag-point.sh" kit "$tag-kit.tar.gz" "$tag-args.sh" "{}" ::: $(seq 0 $((n - 1)))
	for ((i = 0; i < n; i++)); do
		local out="$dir/${values[i]}"
		rm -rf "$out.new"
		mkdir -p "$out.new"
		tar -xzf "point-$i.tar.gz" -C "$out.new"
		rm -rf "$out"
		mv "$out.new" "$out"
	done
	cd "$root"
	rm -rf "$stage"
}

run_slurm() {
	command -v sbatch >/dev/null || { echo "make sweep ENGINE=slurm: sbatch is missing (slurm-wlm client)" >&2; exit 2; }
	local job=$stage/job.sh
	{
		echo "#!/bin/bash"
		echo "# slabsim sweep: one point per array task (written by scripts/sweep-engine.sh)"
		echo "#SBATCH --job-name=slabsim-sweep"
		echo "#SBATCH --array=0-$((n - 1))"
		echo "#SBATCH --output=$stage/point-%a.log"
		echo "#SBATCH --chdir=$root"
		printf 'values=('; printf '%q ' "${values[@]}"; echo ')'
		printf 'exec bash %q tree %q %q "$SLURM_ARRAY_TASK_ID" %q/"${values[$SLURM_ARRAY_TASK_ID]}" %q\n' \
			"$root/scripts/sweep-point.sh" "$root" "$stage/sweep-args.sh" "$sweepdir" "$slabsim"
	} >"$job"
	if [ "$slurm_wait" = 0 ]; then
		# shellcheck disable=SC2086
		sbatch --parsable $slurm_opts "$job" >"$stage/job-id"
		echo "slabsim: submitted slurm job $(cat "$stage/job-id") ($n points); when it is done:"
		echo "  make sweep-collect with the same arguments"
		return
	fi
	# shellcheck disable=SC2086
	sbatch --wait $slurm_opts "$job" || {
		echo "make sweep ENGINE=slurm: the array failed; logs in $stage/point-*.log" >&2
		exit 1
	}
	rm -rf "$stage"
}

case $engine in
parallel) run_parallel ;;
slurm) run_slurm ;;
*) echo "sweep-engine.sh: unknown engine '$engine'" >&2; exit 2 ;;
esac
