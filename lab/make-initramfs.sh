#!/bin/bash
# make-initramfs.sh KDIR USERLAND MODULES WORK ENV OUT - the lab guest's
# initramfs (docs/lab.md), an uncompressed cpio (newc) written to OUT:
#   /init, /lab/capture.sh           lab/guest/
#   /lab/capture-tracefs.sh, /lab/slab-snapshot.sh   scripts/, as make capture runs them
#   /lab/work.sh                     the workload (WORK, a file)
#   /lab/env                         the settings (ENV, a file)
#   /lab/in                          the directory LAB_IN, if set
#   /bin/busybox, /bin/bash          busybox-static, bash-static
#   /usr/bin/find + its libraries    GNU findutils (slab-snapshot.sh uses -printf)
#   /lab/modules/*.ko, modules.list  the modules MODULES (comma-separated)
#                                    need, with what they depend on, in load order
# KDIR is a fetch-kernel.sh directory, USERLAND its userland/DEB_ARCH.
# A module neither built in nor in the kernel's tree is an error that
# names it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
die() { echo "lab: $*" >&2; exit 1; }
[ $# -eq 6 ] || { echo "usage: make-initramfs.sh KDIR USERLAND MODULES WORK ENV OUT" >&2; exit 2; }
kdir=$1 userland=$2 modules=$3 work=$4 env=$5 out=$6
# shellcheck source=/dev/null
. "$kdir/kernel.env"
mtree=$kdir/lib/modules/$KVER
[ -e "$mtree/modules.dep" ] || die "$mtree/modules.dep missing: fetch the kernel again (rm -r $kdir)"

root=$(mktemp -d "${TMPDIR:-/tmp}/slabsim-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,usr/bin,lab/modules,proc,sys,dev,tmp}
cp "$here/guest/init" "$root/init"
cp "$here/guest/capture.sh" "$root/lab/capture.sh"
cp "$repo/scripts/capture-tracefs.sh" "$repo/scripts/slab-snapshot.sh" "$root/lab/"
cp "$work" "$root/lab/work.sh"
cp "$env" "$root/lab/env"
# LAB_IN: a directory of files the workload reads (/lab/in)
[ -z "${LAB_IN:-}" ] || cp -r "$LAB_IN" "$root/lab/in"
chmod 755 "$root/init" "$root/lab/"*.sh
u=$userland/root
cp "$u/bin/busybox" "$root/bin/busybox"
cp "$u/bin/bash-static" "$root/bin/bash"
cp "$u/usr/bin/find" "$root/usr/bin/find"

# find's libraries, by the NEEDED entries (readelf reads any ELF), and its
# dynamic loader (PT_INTERP)
add_lib() { # NAME: the library from the userland's lib dirs, with its own
	local f
	[ ! -e "$root/.libs/$1" ] || return 0
	f=$(find "$u/lib" "$u/usr/lib" -name "$1" \( -type f -o -type l \) 2> /dev/null | head -1)
	[ -n "$f" ] || die "guest userland: library $1 not found under $u"
	mkdir -p "$root/.libs" "$root/$(dirname "${f#"$u"/}")"
	cp -L "$f" "$root/${f#"$u"/}"
	touch "$root/.libs/$1"
	for n in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do add_lib "$n"; done
}
interp=$(readelf -l "$u/usr/bin/find" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
[ -n "$interp" ] || die "guest userland: find has no interpreter"
for n in $(readelf -d "$u/usr/bin/find" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do add_lib "$n"; done
add_lib "$(basename "$interp")"
# the loader where PT_INTERP says (/lib64/... on x86_64)
if [ ! -e "$root$interp" ]; then
	mkdir -p "$root$(dirname "$interp")"
	cp -L "$(find "$u" -name "$(basename "$interp")" | head -1)" "$root$interp"
fi
rm -rf "$root/.libs"

# the modules, each after what it depends on (modules.dep lists a
# module's dependencies, the one to load first last)
declare -A loaded=()
order=()
load() { # PATH relative to the tree
	local rel=$1 dep
	[ -z "${loaded[$rel]+x}" ] || return 0
	loaded[$rel]=1
	local deps
	deps=$(awk -v m="$rel:" '$1 == m { for (i = NF; i > 1; i--) print $i }' "$mtree/modules.dep")
	for dep in $deps; do load "$dep"; done
	order+=("$rel")
}
IFS=, read -r -a wanted <<< "$modules"
for m in "${wanted[@]}"; do
	[ -n "$m" ] || continue
	pat=${m//[-_]/[-_]}
	if grep -Eq "/$pat\.ko(\.[a-z]+)?$" "$mtree/modules.builtin" 2> /dev/null; then
		continue
	fi
	# a kernel built without modules (make lab-kernel): its config
	sym=CONFIG_${m^^}
	if grep -qx "${sym//-/_}=y" "$kdir/config" 2> /dev/null; then
		continue
	fi
	rel=$(awk -F: '{print $1}' "$mtree/modules.dep" | grep -E "/$pat\.ko(\.[a-z]+)?$" | head -1 || true)
	[ -n "$rel" ] || die "kernel $KVER lacks module $m: neither built in nor in its module tree"
	load "$rel"
done
: > "$root/lab/modules.list"
for rel in "${order[@]}"; do
	base=$(basename "$rel")
	case $base in
	*.ko.xz) xz -dc "$mtree/$rel" > "$root/lab/modules/${base%.xz}"; base=${base%.xz} ;;
	*.ko.zst) zstd -q -dc "$mtree/$rel" > "$root/lab/modules/${base%.zst}"; base=${base%.zst} ;;
	*.ko.gz) gzip -dc "$mtree/$rel" > "$root/lab/modules/${base%.gz}"; base=${base%.gz} ;;
	*) cp "$mtree/$rel" "$root/lab/modules/$base" ;;
	esac
	echo "$base" >> "$root/lab/modules.list"
done

(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$out.tmp.$$" ||
	die "cannot write the initramfs $out"
mv -f "$out.tmp.$$" "$out"
