#!/bin/sh
# deps.sh check|install [fuzz|chromium] - the Debian packages slabsim builds
# and runs with (`fuzz`: clang and its libFuzzer runtime, for `make fuzz`
# only; `chromium`: the headless browser tests/e2e/html.sh opens
# reports/index.html in, for that test only).
# `check` exits 0 when everything is present; `install` runs apt-get as root,
# or prints the exact command for a user who is not root.
set -u
PKGS="build-essential pkg-config libhwloc-dev hwloc libpfm4-dev libcmocka-dev gnuplot-nox libzstd-dev zstd libcmark-dev"
[ "${2:-}" = fuzz ] && PKGS="clang libclang-rt-14-dev"
[ "${2:-}" = chromium ] && PKGS="chromium"

missing() {
	for p in $PKGS; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || printf '%s ' "$p"
	done
}

case "${1:-check}" in
check)
	m=$(missing)
	[ -z "$m" ] && exit 0
	echo "slabsim: missing packages: $m" >&2
	exit 1
	;;
install)
	m=$(missing)
	if [ -z "$m" ]; then echo "slabsim: all dependencies present"; exit 0; fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "slabsim: missing packages; run as root:" >&2
		echo "  apt-get update && apt-get install -y $m" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq $m
	;;
*)
	echo "usage: $0 check|install [fuzz|chromium]" >&2
	exit 2
	;;
esac
