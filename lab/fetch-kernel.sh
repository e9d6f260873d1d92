#!/bin/bash
# fetch-kernel.sh KERNEL ARCH - a Debian kernel for the lab, fetched once
# into $LAB_DATA/kernels/KERNEL-ARCH (docs/lab.md), and the guest's
# userland for ARCH into $LAB_DATA/userland/DEB_ARCH.  Nothing is
# installed on the host: the packages are downloaded through a private apt
# configuration (lab-apt.sh) and unpacked with dpkg-deb -x.
#
# The kernel directory holds vmlinuz, config, the module tree under
# lib/modules/KVER with its modules.dep (depmod -b), and kernel.env:
#   KVER=6.1.0-50-amd64  PACKAGES='pkg=version ...'  SUITE=bookworm  DEB_ARCH=amd64
#   NAME_OFFSET=96   offsetof(struct kmem_cache, name) from the kernel's
#                    BTF (bpftool), for kernels whose kmem_cache_alloc
#                    event has no name= (6.1): empty when not found
# The directory appears whole or not at all (staged, then renamed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prog=fetch-kernel.sh
die() { echo "lab: $*" >&2; exit 1; }
# shellcheck source=lab/lab-apt.sh
. "$here/lab-apt.sh"

[ $# -eq 2 ] || { echo "usage: $prog KERNEL ARCH" >&2; exit 2; }
kernel=$1 arch=$2
LAB_DATA=${LAB_DATA:-datasets/lab}
mkdir -p "$LAB_DATA" && LAB_DATA=$(cd "$LAB_DATA" && pwd)
dest=$LAB_DATA/kernels/$kernel-$arch
# LAB_KERNELS: another kernel table (tests)
kernels=${LAB_KERNELS:-$here/kernels.conf}
row=$(awk -v k="$kernel" -v a="$arch" '!/^#/ && $1 == k && $2 == a' "$kernels")
if [ -e "$dest/kernel.env" ]; then # fetched, or built (make lab-kernel)
	deb_arch=$(sed -n 's/^DEB_ARCH=//p' "$dest/kernel.env")
	[ -n "$deb_arch" ] || deb_arch=$(echo "$row" | awk '{print $4}')
else
	[ -n "$row" ] || die "no kernel $kernel for $arch in $kernels (there: $(awk '!/^#/ && NF {printf "%s/%s ", $1, $2}' "$kernels"))"
	read -r _ _ suite deb_arch meta <<< "$row"
fi
for tool in apt-get dpkg-deb depmod bpftool readelf xz zstd; do
	command -v "$tool" > /dev/null || die "$tool not found (make lab-deps)"
done

# ---- the guest's userland: busybox and bash (static), GNU find ------------------
# slab-snapshot.sh runs in the guest as it runs on the host: bash, and
# GNU find (-printf).  find is dynamic: its libraries come along (NEEDED,
# read with readelf), with the dynamic loader.
USER_PKGS="busybox-static bash-static findutils libc6 libselinux1 libpcre2-8-0"
userland=$LAB_DATA/userland/$deb_arch
if [ ! -e "$userland/ready" ]; then
	echo "lab: fetching the guest userland for $deb_arch (Debian bookworm: $USER_PKGS)" >&2
	rm -rf "$userland.tmp"
	mkdir -p "$userland.tmp/debs" "$userland.tmp/root"
	pkgs=()
	for p in $USER_PKGS; do pkgs+=("$p:$deb_arch"); done
	lab_apt_download bookworm "$userland.tmp/debs" "${pkgs[@]}"
	for d in "$userland.tmp/debs"/*.deb; do dpkg-deb -x "$d" "$userland.tmp/root"; done
	(cd "$userland.tmp/debs" && ls) > "$userland.tmp/packages"
	rm -rf "$userland.tmp/debs"
	touch "$userland.tmp/ready"
	rm -rf "$userland"
	mv "$userland.tmp" "$userland"
fi

# ---- the kernel ----------------------------------------------------------------
[ ! -e "$dest/kernel.env" ] && [ -e "$dest.tmp" ] && rm -rf "$dest.tmp"
if [ -e "$dest/kernel.env" ]; then
	exit 0
fi
echo "lab: fetching kernel $kernel for $arch (Debian $suite, $meta:$deb_arch)" >&2
image=$(lab_apt_depends "$suite" "$meta:$deb_arch" | grep -m1 '^linux-image-' || true)
[ -n "$image" ] || die "Debian $suite has no $meta for $deb_arch: cannot fetch kernel $kernel"
image=${image%:*}
[[ $image == linux-image-$kernel* ]] ||
	die "Debian $suite's $meta is $image, not a $kernel kernel: fix lab/kernels.conf"
# the unsigned build where there is one (the same kernel without the
# Secure Boot signature)
if lab_apt_exists "$suite" "$image-unsigned:$deb_arch"; then
	image=$image-unsigned
fi
pkgs=("$image:$deb_arch")
for p in $(lab_apt_depends "$suite" "$image:$deb_arch"); do
	case ${p%:*} in linux-binary-* | linux-modules-* | linux-base-[0-9]*) pkgs+=("${p%:*}:$deb_arch") ;; esac
done
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp/debs" "$dest.tmp/root"
trap 'rm -rf "$dest.tmp"' EXIT
lab_apt_download "$suite" "$dest.tmp/debs" "${pkgs[@]}"
for d in "$dest.tmp/debs"/*.deb; do
	dpkg-deb -x "$d" "$dest.tmp/root" || die "cannot unpack $d"
done
packages=$(cd "$dest.tmp/debs" && for d in *.deb; do dpkg-deb -W --showformat='${Package}=${Version} ' "$d"; done)
packages=${packages% }
rm -rf "$dest.tmp/debs"
root=$dest.tmp/root
# modules under /usr/lib/modules (merged /usr) or /lib/modules
mdir=$(ls -d "$root"/usr/lib/modules/*/ "$root"/lib/modules/*/ 2> /dev/null | head -1 || true)
mdir=${mdir%/}
[ -n "$mdir" ] || die "kernel $kernel ($image): no module tree in the package"
kver=$(basename "$mdir")
# /boot/vmlinuz-KVER, or (linux-binary-*, 6.19+) vmlinuz in the module tree
vmlinuz=$(ls "$root"/boot/vmlinuz-"$kver" "$root"/boot/vmlinuz-* "$mdir/vmlinuz" 2> /dev/null | head -1 || true)
[ -n "$vmlinuz" ] || die "kernel $kernel ($image): no /boot/vmlinuz in the package"
config=$(ls "$root"/boot/config-"$kver" "$mdir/config" 2> /dev/null | head -1 || true)
mv "$vmlinuz" "$dest.tmp/vmlinuz"
[ -z "$config" ] || mv "$config" "$dest.tmp/config"
mkdir -p "$dest.tmp/lib/modules"
mv "$mdir" "$dest.tmp/lib/modules/$kver"
rm -rf "$root"
depmod -b "$dest.tmp" "$kver" || die "depmod failed for $kver"

# offsetof(struct kmem_cache, name): the kernel's BTF, from the vmlinux
# packed inside vmlinuz (found by its compressor's magic, as the kernel's
# scripts/extract-vmlinux does)
name_offset=""
tmpv=$dest.tmp/vmlinux
for magic in $'\xfd7zXZ\x00' $'\x28\xb5\x2f\xfd' $'\x1f\x8b\x08'; do
	for off in $(LC_ALL=C grep -abo "$magic" "$dest.tmp/vmlinuz" 2> /dev/null | cut -d: -f1 | head -5); do
		case $magic in
		*7zXZ*) dec="xz -dc" ;; $'\x28'*) dec="zstd -dc" ;; *) dec="gzip -dc" ;;
		esac
		tail -c +$((off + 1)) "$dest.tmp/vmlinuz" | $dec > "$tmpv" 2> /dev/null || true
		[ "$(head -c 4 "$tmpv" 2> /dev/null)" = $'\x7fELF' ] || continue
		name_offset=$(bpftool btf dump file "$tmpv" format raw 2> /dev/null | awk '
			/^\[[0-9]+\] STRUCT .kmem_cache. / { f = 1; next }
			f && /^\[/ { exit }
			f && /^\t.name. / { sub(/.*bits_offset=/, ""); print $1 / 8; exit }') || true
		[ -z "$name_offset" ] || break 2
	done
done
rm -f "$tmpv"
cat > "$dest.tmp/kernel.env" << EOF
KVER=$kver
SUITE=$suite
DEB_ARCH=$deb_arch
PACKAGES='$packages'
NAME_OFFSET=$name_offset
EOF
rm -rf "$dest"
mv "$dest.tmp" "$dest"
trap - EXIT
echo "lab: kernel $kernel for $arch: $kver ($packages) in $dest" >&2
