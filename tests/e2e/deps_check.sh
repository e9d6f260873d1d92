#!/bin/bash
# deps_check.sh - scripts/deps.sh check names exactly the packages that are
# not installed: it asks dpkg-query once for all of them, so a package the
# query does not print, or that only prefixes an installed one, is missing.
. "$(dirname "$0")/lib/common.bash"
need_cmd dpkg-query dpkg
dpkg-query -W -f='${Status}\n' zstd 2>/dev/null | grep -q "install ok installed" ||
	skip_unless_ci "zstd not installed (make deps installs it)"

# the script with its package list replaced: one installed (zstd), one
# missing name, and a prefix of zstd that is no package
sed 's/^PKGS=".*"$/PKGS="zstd nosuchpkg-slabsim zst"/' "$root/scripts/deps.sh" > "$tmp/deps.sh"
grep -q '^PKGS="zstd nosuchpkg-slabsim zst"$' "$tmp/deps.sh" || fail "package list not replaced"
expect_rc 1 sh "$tmp/deps.sh" check
expect_eq "missing" "$(cat "$tmp/err")" "slabsim: missing packages: nosuchpkg-slabsim zst "

sed 's/^PKGS=".*"$/PKGS="zstd"/' "$root/scripts/deps.sh" > "$tmp/deps.sh"
expect_rc 0 sh "$tmp/deps.sh" check
expect_eq "nothing missing" "$(cat "$tmp/err")" ""
echo "deps_check: ok"
