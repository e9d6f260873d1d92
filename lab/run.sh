#!/bin/bash
# run.sh - boot a Debian kernel under QEMU, run a workload in it, and bring
# back a capture directory in make capture's format (docs/lab.md).  Root.
#
#   run.sh -n NAME -w WORK [-k KERNEL] [-a ARCH] [-b BOOT] [-c CPUS] [-m MEM]
#          [-d DIR] [-t TIMEOUT] [-B BUFFER_KB] [-s SETTLE] [-g] [-i DIR] [-f]
#
#   -n NAME     the capture's directory name (as make capture's NAME)
#   -w WORK     a workload of lab/work/ (WORK.sh), or a shell snippet
#   -k KERNEL   6.1, 6.12, 7.2 ... (lab/kernels.conf; default 6.1)
#   -a ARCH     x86_64 or arm32 (lab/arch.conf; default x86_64)
#   -b BOOT     more kernel boot options ('slub_debug=P slab_nomerge')
#   -c CPUS     guest CPUs (default 1)
#   -m MEM      guest memory, QEMU's -m (default 1024M)
#   -d DIR      where NAME/ goes (default datasets/captures)
#   -t TIMEOUT  seconds before a guest that has not finished is stopped
#               and called hung (default 900)
#   -B KB       trace ring buffer per CPU, KiB, or auto: 65536 (the default)
#   -s SECONDS  settle limit after the workload (default 10)
#   -g          run the workload in a memory cgroup of its own (cgroup v2)
#   -i DIR      files the workload reads: in the guest at /lab/in
#   -f          replace an existing DIR/NAME
#
# Exit 0 with DIR/NAME written; 1 on any failure (the kernel could not be
# fetched, lacks a module, panicked, hung, or the capture failed: the
# error says which, with the guest console's last lines), nothing
# written; 2 on bad usage.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
prog=lab
die() { echo "$prog: $*" >&2; exit 1; }
usage() {
	[ $# -eq 0 ] || echo "$prog: $*" >&2
	echo "usage: run.sh -n NAME -w WORK [-k KERNEL] [-a ARCH] [-b BOOT] [-c CPUS] [-m MEM] [-d DIR] [-t TIMEOUT] [-B KB] [-s SETTLE] [-g] [-i DIR] [-f]" >&2
	exit 2
}

name="" work="" kernel=6.1 arch=x86_64 boot="" cpus=1 mem=1024M dir=datasets/captures
timeout_s=900 buffer_kb=65536 settle=10 force=0 memcg=no input=""
while getopts n:w:k:a:b:c:m:d:t:B:s:gi:f opt; do
	case $opt in
	n) name=$OPTARG ;; w) work=$OPTARG ;; k) kernel=$OPTARG ;; a) arch=$OPTARG ;;
	b) boot=$OPTARG ;; c) cpus=$OPTARG ;; m) mem=$OPTARG ;; d) dir=$OPTARG ;;
	t) timeout_s=$OPTARG ;; B) buffer_kb=$OPTARG ;; s) settle=$OPTARG ;; g) memcg=yes ;; i) input=$OPTARG ;; f) force=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage "unexpected argument '$1'"

# ---- checks: refuse before touching anything ---------------------------------
[[ $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ ]] ||
	usage "bad NAME '$name': 1-64 letters, digits, '.', '_' or '-', not starting with '.', '_' or '-'"
[ -n "$work" ] || usage "WORK is required: a workload of lab/work/ ($(cd "$here/work" && ls *.sh | sed 's/\.sh$//' | tr '\n' ' ')) or a shell snippet"
[[ $cpus =~ ^[1-9][0-9]{0,2}$ ]] || usage "bad CPUS '$cpus': 1 to 999"
[[ $mem =~ ^[1-9][0-9]*[MG]?$ ]] || usage "bad MEM '$mem': QEMU's -m, e.g. 1024M or 2G"
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || usage "bad TIMEOUT '$timeout_s': seconds"
buffer_rule=given
if [ "$buffer_kb" = auto ]; then buffer_kb=65536 buffer_rule=auto; fi
[[ $buffer_kb =~ ^[1-9][0-9]*$ ]] || usage "bad BUFFER_KB '$buffer_kb': KiB per CPU, or auto"
[[ $settle =~ ^[0-9]+$ ]] && [ "$settle" -le 3600 ] || usage "bad SETTLE '$settle': 0 to 3600"
[[ $boot != *$'\n'* ]] || usage "BOOT is one line of kernel options"
arow=$(awk -v a="$arch" '!/^#/ && $1 == a' "$here/arch.conf")
[ -n "$arow" ] || usage "no ARCH '$arch' in lab/arch.conf (there: $(awk '!/^#/ && NF {printf "%s ", $1}' "$here/arch.conf"))"
read -r _ qemu console modules kargs machine <<< "$arow"
[ "$kargs" != - ] || kargs=""
[ "$(id -u)" = 0 ] || die "must run as root (make lab boots a kernel and reads its tracefs)"
for tool in "$qemu" timeout cpio zstd tar; do
	command -v "$tool" > /dev/null || die "$tool not found (make lab-deps)"
done
# WORK: a name is a file of lab/work/; anything else is a snippet
if [[ $work =~ ^[A-Za-z0-9_-]+$ ]]; then
	workfile=$here/work/$work.sh
	[ -r "$workfile" ] || usage "no workload lab/work/$work.sh (there: $(cd "$here/work" && ls *.sh | sed 's/\.sh$//' | tr '\n' ' '))"
	# a workload may name more modules: a line "# lab-modules: veth,bridge"
	more=$(sed -n 's/^# lab-modules: *//p' "$workfile" | tr -d ' ' | paste -sd, || true)
	[ -z "$more" ] || modules+=",$more"
else
	workfile=""
fi
[ -z "$input" ] || [ -d "$input" ] || usage "LAB_IN '$input' is not a directory"
mkdir -p "$dir" || die "cannot create $dir"
dir=$(cd "$dir" && pwd)
dest=$dir/$name
[ ! -e "$dest" ] || [ "$force" = 1 ] || die "$dest exists (FORCE=1 to replace it)"

# ---- clean-up: no half capture ------------------------------------------------
tmp="" committed=0 qemu_pid=""
cleanup() {
	local rc=$?
	set +e
	[ -z "$qemu_pid" ] || kill "$qemu_pid" 2> /dev/null
	[ -z "$tmp" ] || rm -rf "$tmp"
	[ "$committed" = 1 ] || [ -z "$tmp" ] || echo "$prog: no capture written" >&2
	exit "$rc"
}
trap cleanup EXIT
trap 'echo "$prog: interrupted" >&2; exit 130' INT
trap 'echo "$prog: terminated" >&2; exit 143' TERM HUP
tmp=$(mktemp -d "$dir/.$name.lab.XXXXXX")

# ---- the kernel, the initramfs ------------------------------------------------
LAB_DATA=${LAB_DATA:-$repo/datasets/lab}
export LAB_DATA
"$here/fetch-kernel.sh" "$kernel" "$arch" || die "kernel $kernel for $arch could not be fetched (above)"
kdir=$LAB_DATA/kernels/$kernel-$arch
# shellcheck source=/dev/null
. "$kdir/kernel.env"
deb_arch=${DEB_ARCH:-$(awk -v k="$kernel" -v a="$arch" '!/^#/ && $1 == k && $2 == a {print $4}' "${LAB_KERNELS:-$here/kernels.conf}")}
if [ -z "$workfile" ]; then
	workfile=$tmp/work.sh
	printf '%s\n' "$work" > "$workfile"
fi
cat > "$tmp/env" << EOF
LAB_BUFFER_KB=$buffer_kb
LAB_SETTLE=$settle
LAB_NAME_OFFSET=$NAME_OFFSET
LAB_MEMCG=$memcg
EOF
LAB_IN=$input "$here/make-initramfs.sh" "$kdir" "$LAB_DATA/userland/$deb_arch" "$modules" "$workfile" "$tmp/env" "$tmp/initramfs.cpio"

# ---- boot ---------------------------------------------------------------------
# KVM where the guest is the host's architecture and /dev/kvm opens, TCG
# otherwise (-cpu max: TCG's cmpxchg16b and the rest, as a real CPU has)
accel=tcg cpu_args=()
if [ "$arch" = "$(uname -m)" ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
	accel=kvm cpu_args=(-cpu host)
elif [ "$arch" = x86_64 ]; then
	cpu_args=(-cpu max)
fi
truncate -s 4G "$tmp/results.img"
cmdline="console=$console panic=-1 no_hash_pointers loglevel=4${kargs:+ ${kargs//,/ }}${boot:+ $boot}"
machine=${machine//@DISK@/$tmp/results.img}
# shellcheck disable=SC2206 # the machine's arguments are words
qargs=(-accel "$accel" "${cpu_args[@]}" $machine -smp "$cpus" -m "$mem" -nodefaults -display none
	-monitor none -serial "file:$tmp/console.log" -no-reboot
	-kernel "$kdir/vmlinuz" -initrd "$tmp/initramfs.cpio" -append "$cmdline")
echo "$prog: booting $kernel ($KVER) on $arch, $cpus CPU(s), $mem, $accel${boot:+, $boot}" >&2
t0=$(date +%s)
timeout -k 5 "$timeout_s" "$qemu" "${qargs[@]}" > "$tmp/qemu.log" 2>&1 || qrc=$?
t1=$(date +%s)
qrc=${qrc:-0}
tail_console() {
	echo "--- the guest console's last lines ($tmp/console.log):" >&2
	tail -n 25 "$tmp/console.log" 2> /dev/null | sed 's/^/  /' >&2 || true
	[ ! -s "$tmp/qemu.log" ] || { echo "--- QEMU said:" >&2; tail -n 5 "$tmp/qemu.log" | sed 's/^/  /' >&2; }
}
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	tail_console
	die "kernel $kernel ($KVER) hung: the guest had not finished after ${timeout_s}s (TIMEOUT=)"
fi
if grep -q '^SLABSIM-LAB-FAIL: ' "$tmp/console.log" 2> /dev/null; then
	tail_console
	die "the guest failed: $(sed -n 's/^SLABSIM-LAB-FAIL: //p' "$tmp/console.log" | head -1)"
fi
if ! grep -q '^SLABSIM-LAB-DONE' "$tmp/console.log" 2> /dev/null; then
	tail_console
	if grep -q 'Kernel panic' "$tmp/console.log" 2> /dev/null; then
		die "kernel $kernel ($KVER) panicked: $(grep -m1 'Kernel panic' "$tmp/console.log" | sed 's/^.*Kernel panic - //')"
	fi
	die "the guest ended without its results (QEMU exit $qrc)"
fi

# ---- the capture directory ----------------------------------------------------
mkdir "$tmp/res"
tar -C "$tmp/res" -xf "$tmp/results.img" 2> "$tmp/tar.err" || { cat "$tmp/tar.err" >&2; die "cannot read the results disk"; }
rm -f "$tmp/results.img"
for f in capture.ftrace slab-before.txt slab-after.txt slabinfo-before slabinfo-after meminfo-before meminfo-after guest-meta; do
	[ -e "$tmp/res/$f" ] || die "the results lack $f"
done
cap=$tmp/capture
mkdir "$cap"
names=""
if grep -q '^lab_cache_names=kprobe' "$tmp/res/guest-meta"; then
	awk -f "$here/name-allocs.awk" "$tmp/res/capture.ftrace" 2> "$tmp/names" > "$tmp/res/named.ftrace"
	mv "$tmp/res/named.ftrace" "$tmp/res/capture.ftrace"
	names=$(cat "$tmp/names")
fi
zstd -q -1 -c "$tmp/res/capture.ftrace" > "$cap/capture.ftrace.zst"
[ ! -e "$tmp/res/walk.ftrace" ] || zstd -q -1 -c "$tmp/res/walk.ftrace" > "$cap/walk.ftrace.zst"
cp "$tmp/res"/slab-before.txt "$tmp/res"/slab-after.txt "$tmp/res"/slabinfo-before "$tmp/res"/slabinfo-after \
	"$tmp/res"/meminfo-before "$tmp/res"/meminfo-after "$cap/"
awk -f "$here/trace-counts.awk" "$tmp/res/capture.ftrace" > "$tmp/counts"
esc() { local s=${1//\\/\\\\}; s=${s//$'\n'/\\n}; esc_out=${s//$'\t'/\\t}; }
esc "$(if [ -n "$work" ] && [[ $work =~ ^[A-Za-z0-9_-]+$ ]]; then echo "lab/work/$work.sh"; else echo "$work"; fi)"
lost_total=$(sed -n 's/^lost_total=//p' "$tmp/res/guest-meta")
lost_markers=$(sed -n 's/^lost_markers=//p' "$tmp/counts")
reasons=""
[ "$lost_total" -gt 0 ] && reasons+=" ring buffer lost $lost_total events (overrun/dropped);"
[ "$lost_markers" -gt 0 ] && reasons+=" trace reported $lost_markers lost events;"
lossy=no
[ -z "$reasons" ] || lossy=yes
{
	echo "slabsim-capture 1"
	echo "name=$name"
	echo "command=$esc_out"
	cat "$tmp/res/guest-meta"
	echo "buffer_rule=$buffer_rule"
	echo "slab_fill=no (lab guest: no slab-fill)"
	echo "slab_fill_after=no (lab guest: no slab-fill)"
	echo "slab_pages=no (lab guest: no slab-pages)"
	echo "slab_fill_start=no (lab guest: no slab-fill)"
	echo "staging=tmpfs /tmp (the guest's)"
	echo "untraced_tasks=unknown"
	echo "subreaper=no"
	cat "$tmp/counts"
	echo "capture_bytes=$(stat -c %s "$cap/capture.ftrace.zst")"
	echo "lossy=$lossy"
	echo "lossy_reason=${reasons# }"
	echo "lab=yes"
	echo "lab_kernel=$kernel"
	echo "lab_arch=$arch"
	echo "lab_packages=$PACKAGES"
	echo "lab_boot=$boot"
	echo "lab_cpus=$cpus"
	echo "lab_mem=$mem"
	echo "lab_accel=$accel"
	echo "lab_boot_s=$((t1 - t0))"
	[ -z "$names" ] || echo "lab_kprobe_names=$names"
} > "$cap/meta"
cp "$tmp/console.log" "$cap/console.log"
# what the workload wrote into $LAB_OUT
[ ! -d "$tmp/res/extra" ] || cp -a "$tmp/res/extra" "$cap/extra"
chmod -R go-rwx "$cap" # real kernel addresses, as make capture's raw pointers

old=""
if [ -e "$dest" ]; then
	old=$(mktemp -d "$dir/.$name.old.XXXXXX")
	mv -T "$dest" "$old/$name"
fi
mv -T "$cap" "$dest"
committed=1
[ -z "$old" ] || rm -rf "$old"
events=$(sed -n 's/^events=//p' "$dest/meta")
echo "$prog: $dest: $events events, guest ran $((t1 - t0)) s ($accel)${names:+, kprobe names: $names}" >&2
[ "$lossy" = no ] || echo "$prog: WARNING: lossy capture:${reasons% ;} -- raise BUFFER_KB" >&2
st=$(sed -n 's/^exit_status=//p' "$dest/meta")
[ "$st" = 0 ] || echo "$prog: warning: the workload exited with status $st" >&2
