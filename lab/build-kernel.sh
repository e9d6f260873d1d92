#!/bin/bash
# build-kernel.sh FRAGMENT NAME - make lab-kernel (docs/lab.md): an x86_64
# kernel built from Debian's linux-source-6.1 (bookworm) with tinyconfig
# and the Kconfig fragment FRAGMENT (lab/kernel/*.config), into
# $LAB_DATA/kernels/NAME-x86_64 (vmlinuz, config, kernel.env, an empty
# module tree), which `make lab KERNEL=NAME` boots.  Built once: an
# existing kernel is kept.  Staged, then renamed.  Long (a tinyconfig
# build: tens of minutes on 2 cores): run it nice'd.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "lab: $*" >&2; exit 1; }
# shellcheck source=lab/lab-apt.sh
. "$here/lab-apt.sh"
[ $# -eq 2 ] || { echo "usage: build-kernel.sh FRAGMENT NAME" >&2; exit 2; }
frag=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
name=$2
[ -r "$frag" ] || die "no Kconfig fragment $1"
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || die "bad kernel name '$name'"
for t in make gcc flex bison bc xz; do command -v $t > /dev/null || die "$t not found (scripts/deps.sh install lab-kernel)"; done
LAB_DATA=${LAB_DATA:-datasets/lab}
mkdir -p "$LAB_DATA" && LAB_DATA=$(cd "$LAB_DATA" && pwd)
dest=$LAB_DATA/kernels/$name-x86_64
[ ! -e "$dest/kernel.env" ] || { echo "lab: $dest already built" >&2; exit 0; }
src=$LAB_DATA/src
if [ ! -e "$src/ready" ]; then
	rm -rf "$src"
	mkdir -p "$src/debs"
	lab_apt_download bookworm "$src/debs" linux-source-6.1
	dpkg-deb -x "$src"/debs/linux-source-6.1_*.deb "$src/root"
	tar -C "$src" -xf "$src"/root/usr/src/linux-source-6.1.tar.xz
	dpkg-deb -W --showformat='${Package}=${Version}' "$src"/debs/linux-source-6.1_*.deb > "$src/package"
	rm -rf "$src/debs" "$src/root"
	touch "$src/ready"
fi
tree=$src/linux-source-6.1
b=$dest.tmp
rm -rf "$b"
mkdir -p "$b/build"
trap 'rm -rf "$b"' EXIT
make -s -C "$tree" O="$b/build" ARCH=x86_64 tinyconfig
"$tree/scripts/kconfig/merge_config.sh" -m -O "$b/build" "$b/build/.config" "$frag" > "$b/merge.log"
make -s -C "$tree" O="$b/build" ARCH=x86_64 olddefconfig
# every line of the fragment must have held (a dependency Kconfig dropped
# would build a kernel without what the fragment asks)
while IFS= read -r l; do
	case $l in '#'* | '') continue ;; esac
	grep -qxF "$l" "$b/build/.config" || die "the fragment's '$l' did not hold in the built config (a missing dependency)"
done < "$frag"
make -s -C "$tree" O="$b/build" ARCH=x86_64 -j"$(nproc)" bzImage
kver=$(make -s -C "$tree" O="$b/build" ARCH=x86_64 kernelrelease)
cp "$b/build/arch/x86/boot/bzImage" "$b/vmlinuz"
cp "$b/build/.config" "$b/config"
mkdir -p "$b/lib/modules/$kver"
: > "$b/lib/modules/$kver/modules.dep"
cp "$b/build/modules.builtin" "$b/lib/modules/$kver/modules.builtin" 2> /dev/null || : > "$b/lib/modules/$kver/modules.builtin"
cat > "$b/kernel.env" << EOT
KVER=$kver
SUITE=bookworm
DEB_ARCH=amd64
PACKAGES='$(cat "$src/package") built with $(basename "$frag") ($(sha256sum "$frag" | cut -c1-12))'
NAME_OFFSET=
EOT
rm -rf "$b/build"
rm -rf "$dest"
mv "$b" "$dest"
trap - EXIT
echo "lab: kernel $name ($kver) in $dest" >&2
