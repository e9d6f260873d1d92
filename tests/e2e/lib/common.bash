# common.bash - the start every e2e test shares; sourced first (not run:
# it is no test):
#   . "$(dirname "$0")/lib/common.bash"
# Sets root (the repository), S (the slabsim binary under test: $SLABSIM
# as `make e2e` passes it, else the one in build/) and tmp (a scratch
# directory removed on exit; a test with more to clean up sets its own
# EXIT trap and removes $tmp there too), and stops the test at the first
# failing command.  Then the skips (skip, skip_unless_ci, skip_part,
# skip_rest, need_root, need_tracefs, need_cmd, need_gnuplot ...: exit 77
# and SKIP, or SKIP part) and the checks several tests use.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
S=${SLABSIM:-$root/build/slabsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fail MESSAGE: stop the test, naming it.
fail() {
	echo "$(basename "$0"): FAIL: $*" >&2
	exit 1
}

# ---- skips -------------------------------------------------------------------
# A test that cannot run here says why and exits 77; scripts/run-tests.sh
# prints it as SKIP and counts it apart.  A test that runs but leaves a
# part out says so with skip_part and goes on; run-tests.sh prints the
# reasons beside its PASS.  What CI gives every run (root, tracefs, the
# Debian packages `make deps` installs; .ci/run) is no reason to skip
# there: under CI=true the *_unless_ci forms and the need_* checks fail
# the test instead.

# skip REASON: the whole test cannot run here.
skip() {
	echo "SKIP: $*"
	exit 77
}

# in_ci: the environment says CI (CI=true, as CI services set it).
in_ci() { [ "${CI:-}" = true ]; }

# skip_unless_ci REASON: skip, but fail under CI, which provides REASON's need.
skip_unless_ci() {
	in_ci && fail "$* (CI=true: CI provides this, so a skip is a failure)"
	skip "$@"
}

# skip_part REASON: a part of the test is left out; the rest goes on.
skip_part() { echo "SKIP part: $*"; }

# skip_part_unless_ci REASON: skip_part, but fail under CI.
skip_part_unless_ci() {
	in_ci && fail "$* (CI=true: CI provides this, so a skip is a failure)"
	skip_part "$@"
}

# skip_rest REASON: the rest of the test cannot run here; what ran passed.
skip_rest() {
	skip_part "$@"
	exit 0
}

# skip_rest_unless_ci REASON: skip_rest, but fail under CI.
skip_rest_unless_ci() {
	skip_part_unless_ci "$@"
	exit 0
}

# need_root, need_tracefs, need_cmd CMD [PACKAGE], need_gnuplot: skip the
# whole test (fail under CI) when this machine lacks it.  has_root,
# has_tracefs, has_cmd CMD: the same questions, for a part of a test.
has_root() { [ "$(id -u)" -eq 0 ]; }
has_tracefs() { grep -qw tracefs /proc/filesystems; }
has_cmd() { command -v "$1" >/dev/null; }
need_root() { has_root || skip_unless_ci "needs root"; }
need_tracefs() { has_tracefs || skip_unless_ci "no tracefs in this kernel"; }
need_cmd() { has_cmd "$1" || skip_unless_ci "no $1 (Debian ${2:-$1}; make deps installs it)"; }
need_gnuplot() { need_cmd gnuplot gnuplot-nox; }

# machine_lock NAME: wait for, then hold until the test ends, the lock
# named NAME on this machine, for a resource tests cannot share or make
# private (tracefs, which a capture mounts and unmounts): the tests that
# take it run one at a time, across checkouts too.
machine_lock() {
	local f=/run/lock/slabsim-$1.lock fd
	[ -d /run/lock ] && [ -w /run/lock ] || f=/tmp/slabsim-$1.lock
	: >>"$f" 2>/dev/null || true
	exec {fd}<"$f"
	flock "$fd"
}

# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }

# expect_rc RC CMD...: CMD exits RC; its stdout and stderr in $tmp/out, $tmp/err
expect_rc() {
	local want=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	expect_eq "exit status of $*" "$rc" "$want"
}

# count TRACE KIND: the text trace's lines of one event kind (a f w p)
count() { awk -v k="$2" '$1 == k { n++ } END { print n + 0 }' "$1"; }

# col FILE NAME: the value of column NAME in the data row of a one-row CSV
col() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 { print $c }' "$1"; }

# has FILE TEXT: FILE holds TEXT once padding spaces are squeezed (no grep
# -q: quitting early would kill tr with SIGPIPE and fail the pipeline)
has() { tr -s ' ' <"$1" | grep -F -- "$2" >/dev/null || fail "$(basename "$1"): missing '$2'"; }
