#!/bin/bash
# readme_examples.sh - every `make ...` example of README.md, run as
# written, in a copy of the tree (its reports/ and datasets/ are the
# copy's; the build is hard-linked, so nothing is rebuilt): each must
# succeed within two minutes.  An example is a `make` line of a ```sh
# block or a `make ...` code span; a template (W, N, PATH, DIR, "...",
# [optional parts], VAR= with no value) is syntax, not an example.  The
# examples that take longer, or need root or the network, are listed
# below with the reason; a new example must either run or be listed.
. "$(dirname "$0")/lib/common.bash"
[ -z "${SLABSIM_QUICK:-}" ] || { echo "SKIP: SLABSIM_QUICK (the sanitizer pass): the examples run build/slabsim as written"; exit 77; }
command -v gnuplot > /dev/null || { echo "SKIP: gnuplot missing"; exit 77; }
command -v git > /dev/null || { echo "SKIP: git missing"; exit 77; }

# command -> why it is not run here
declare -A slow=(
	["make test"]="the whole suite (~10 min), this test among it"
	["make deps"]="installs Debian packages (root, the network)"
	["make capture"]="root; traces the whole machine (tests/e2e/own_trace.sh runs one)"
	["make lab"]="root; boots a kernel under QEMU, a minute or more (tests/e2e/lab.sh runs one)"
	["make lab-matrix"]="hours under TCG (docs/lab-matrix.md)"
	["make sensitivity"]="every estimated cost at both ends: minutes (tests/e2e/sensitivity.sh)"
	["make bench"]="replay speed: minutes"
	["make topo-plot"]="1 to 256 PUs: minutes"
	["make test-slurm"]="root; starts a Slurm cluster"
	["make check-captures"]="needs captures (tests/e2e/own_trace.sh makes one)"
)

examples=$tmp/examples
{
	awk '/^```sh/ { on = 1; next } /^```/ { on = 0 } on && /^make / { print }' "$root/README.md"
	grep -o '`make [^`]*`' "$root/README.md" | tr -d '`'
} | sed 's/[[:space:]]*#.*$//; s/[[:space:]]*$//' | awk '!seen[$0]++' > "$examples"
[ "$(wc -l < "$examples")" -ge 10 ] || fail "found only $(wc -l < "$examples") make examples in README.md"
# `make clean` last: it removes the build and reports the others use
clean=$(grep -cx 'make clean' "$examples" || true)
grep -vx 'make clean' "$examples" > "$examples.ordered" || true

template() {
	grep -Eq '=(W|N|V|F|T|M|S|PATH|DIR|FILE)([] ]|$)|\.\.\.|\[|=$' <<< "$1"
}

# the copy: the tracked and new files as they are here, the build linked
tree=$tmp/tree
mkdir "$tree"
(cd "$root" && git ls-files -z --cached --others --exclude-standard) |
	(cd "$root" && xargs -0 cp -a --parents -t "$tree" 2> /dev/null) || true
[ -f "$tree/Makefile" ] || fail "could not copy the tree"
[ ! -d "$root/build" ] || cp -al "$root/build" "$tree/build" 2> /dev/null || cp -a "$root/build" "$tree/build"

ran=0 listed=0 templates=0
while IFS= read -r ex; do
	if [ -n "${slow[$ex]:-}" ]; then
		echo "not run: $ex (${slow[$ex]})"
		listed=$((listed + 1))
		continue
	fi
	if template "$ex"; then
		templates=$((templates + 1))
		continue
	fi
	start=$(date +%s)
	rc=0
	(cd "$tree" && eval "timeout 120 $ex") > "$tmp/log" 2>&1 || rc=$?
	[ "$rc" = 0 ] || { tail -20 "$tmp/log"; fail "README example failed (exit $rc): $ex"; }
	echo "ran in $(($(date +%s) - start)) s: $ex"
	ran=$((ran + 1))
done < "$examples.ordered"
# the issue's own: across allocators on smack17k, SLUB_TINY left out with its reason
if grep -qx 'make compare WORKLOAD=smack17k ALLOCATORS="slub slab slub-tiny"' "$examples"; then
	grep -q '^  - traced.slub-tiny: not run: .*SLUB_TINY (6.2' "$tree/reports/smack17k/kernels/compare/compare.md" ||
		fail "compare across allocators: slub-tiny's reason is not in compare.md"
fi
if [ "$clean" = 1 ]; then
	(cd "$tree" && make clean) > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "README example failed: make clean"; }
	[ ! -e "$tree/reports" ] && [ ! -e "$tree/build" ] || fail "make clean left reports/ or build/"
	echo "ran: make clean"
	ran=$((ran + 1))
fi
[ "$ran" -ge 8 ] || fail "only $ran README examples ran"
echo "readme_examples: $ran ran, $listed listed as slow or root, $templates templates"
