#!/bin/sh
# deps.sh check|install [fuzz|chromium|slurm|lab|lab-kernel] - the Debian packages slabsim
# builds and runs with (`fuzz`: clang and its libFuzzer runtime, for `make
# fuzz` only; `chromium`: the headless browser tests/e2e/html.sh opens
# reports/index.html in, for that test only; `slurm`: slurm-wlm, for `make
# test-slurm` only; `lab`: QEMU and the tools that fetch and unpack Debian's
# kernels, for `make lab` and its test only; `lab-kernel`: what `make lab-kernel`
# builds a kernel with; docs/lab.md).
# `check` exits 0 when everything is present; `install` runs apt-get as root,
# or prints the exact command for a user who is not root.
set -u
# libtracecmd-dev, libtraceevent-dev (and libtracefs-dev, whose .pc libtracecmd
# needs): slabsim import reads trace.dat; trace-cmd: the e2e test records one.
PKGS="build-essential pkg-config libhwloc-dev hwloc libpfm4-dev libcmocka-dev gnuplot-nox libzstd-dev zstd libxxhash-dev parallel rsync openssh-client openssh-server libtracecmd-dev libtraceevent-dev libtracefs-dev trace-cmd libcmark-dev clang libbpf-dev linux-libc-dev strace"
[ "${2:-}" = fuzz ] && PKGS="clang libclang-rt-14-dev"
[ "${2:-}" = chromium ] && PKGS="chromium"
[ "${2:-}" = slurm ] && PKGS="slurm-wlm"
# make lab-kernel: Debian's linux-source built with a Kconfig fragment
[ "${2:-}" = lab-kernel ] && PKGS="build-essential flex bison bc libelf-dev libssl-dev xz-utils"
# the guest's busybox and bash are fetched for its architecture by the lab
# itself (lab/fetch-kernel.sh), not installed here
[ "${2:-}" = lab ] && PKGS="qemu-system-x86 qemu-system-arm cpio kmod bpftool binutils xz-utils zstd debian-archive-keyring"

# One dpkg-query for all the packages: every make invocation runs `check`
# (make sim runs four), and a query per package cost ~0.6 s each time.
# It prints the packages it knows; one not printed as installed is missing.
missing() {
	inst=" $(dpkg-query -W -f='${Package} ${Status}\n' $PKGS 2>/dev/null | \
		awk '$2 == "install" && $3 == "ok" && $4 == "installed" {printf "%s ", $1}')"
	for p in $PKGS; do
		case "$inst" in *" $p "*) ;; *) printf '%s ' "$p" ;; esac
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
	echo "usage: $0 check|install [fuzz|chromium|slurm|lab|lab-kernel]" >&2
	exit 2
	;;
esac
