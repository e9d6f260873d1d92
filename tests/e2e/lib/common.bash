# common.bash - the start every e2e test shares; sourced first (not run:
# it is no test):
#   . "$(dirname "$0")/lib/common.bash"
# Sets root (the repository), S (the slabsim binary under test: $SLABSIM
# as `make e2e` passes it, else the one in build/) and tmp (a scratch
# directory removed on exit; a test with more to clean up sets its own
# EXIT trap and removes $tmp there too), and stops the test at the first
# failing command.  Then the checks several tests use.
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
