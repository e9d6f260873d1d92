#!/bin/bash
# deps_check.sh - scripts/deps.sh check names exactly the packages that are
# not installed: it asks dpkg-query once for all of them, so a package the
# query does not print, or that only prefixes an installed one, is missing.
. "$(dirname "$0")/lib/common.bash"
command -v dpkg-query >/dev/null || { echo "deps_check: no dpkg-query, skipped"; exit 0; }
dpkg-query -W -f='${Status}\n' zstd 2>/dev/null | grep -q "install ok installed" ||
	{ echo "deps_check: zstd not installed, skipped"; exit 0; }

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
