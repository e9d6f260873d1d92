#!/bin/bash
# lab.sh - `make lab` end to end (docs/lab.md): Debian's 6.1 x86_64 kernel
# booted under QEMU with the tiny workload, the capture's files and meta
# checked, every kmem_cache_alloc named, the capture imported and
# replayed by `make sim TRACE=`; then the failures, each with its message
# and no capture left: a kernel that panics, one that hangs past TIMEOUT,
# a module the kernel lacks, a package that cannot be fetched, a kernel
# not in the table.
#
# The kernel is fetched into the lab's cache (datasets/lab, LAB_DATA) by
# the test itself, once.  SKIP (exit 77) when not root, in the sanitizer
# pass (SLABSIM_QUICK: the boot runs once, in the plain pass), or when
# QEMU is missing or the kernel cannot be fetched -- except under CI=true,
# where QEMU is installed (deps.sh install lab) and a kernel that cannot
# be fetched fails the test.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "not root (make lab boots a kernel as root)"
[ -z "${SLABSIM_QUICK:-}" ] || skip "SLABSIM_QUICK (the sanitizer pass): the lab boot runs in the plain pass"
ci=${CI:-}
if ! "$here/scripts/deps.sh" check lab > /dev/null 2>&1; then
	[ "$ci" = true ] || skip "QEMU or the lab's tools missing (make lab-deps)"
	"$here/scripts/deps.sh" install lab > /dev/null || fail "deps.sh install lab failed"
fi
export LAB_DATA=${LAB_DATA:-$here/datasets/lab}
if ! "$here/lab/fetch-kernel.sh" 6.1 x86_64 2> /tmp/lab-test-fetch.$$; then
	msg=$(tail -1 /tmp/lab-test-fetch.$$)
	rm -f /tmp/lab-test-fetch.$$
	[ "$ci" = true ] && fail "kernel 6.1 x86_64 could not be fetched: $msg"
	skip "kernel 6.1 x86_64 could not be fetched: $msg"
fi
rm -f /tmp/lab-test-fetch.$$

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; rm -rf "$here/reports/labtest-$$" "$here/datasets/import/labtest-$$"' EXIT
caps=$tmp/caps
lab() { make -s --no-print-directory -C "$here" lab CAPTURE_DIR="$caps" SETTLE=1 "$@"; }
no_left() { # nothing of a failed run left in CAPTURE_DIR
	[ -z "$(find "$caps" -mindepth 1 -maxdepth 1 2> /dev/null)" ] || fail "$1: left $(ls -A "$caps")"
}

# ---- a boot, its capture, its replay ----------------------------------------------
t0=$SECONDS
lab NAME=tiny WORK=tiny TIMEOUT=300 > "$tmp/out" 2> "$tmp/err" || fail "make lab: $(tail -30 "$tmp/err")"
echo "lab.sh: boot took $((SECONDS - t0)) s"
d=$caps/tiny
for f in capture.ftrace.zst walk.ftrace.zst slab-before.txt slab-after.txt slabinfo-before slabinfo-after meta; do
	[ -s "$d/$f" ] || fail "$f missing or empty"
done
[ -z "$(find "$caps" -mindepth 1 -maxdepth 1 -name '.*')" ] || fail "temporary files left in $caps"
meta() { sed -n "s/^$1=//p" "$d/meta"; }
[ "$(head -1 "$d/meta")" = "slabsim-capture 1" ] || fail "meta header"
[ "$(meta lab)" = yes ] || fail "meta lab= is '$(meta lab)'"
[ "$(meta lab_kernel)" = 6.1 ] && [ "$(meta lab_arch)" = x86_64 ] && [ "$(meta lab_cpus)" = 1 ] ||
	fail "meta lab_kernel/arch/cpus: $(meta lab_kernel) $(meta lab_arch) $(meta lab_cpus)"
[[ $(meta kernel) == 6.1.* ]] || fail "meta kernel= '$(meta kernel)' is not the 6.1 guest's"
[ "$(meta lossy)" = no ] || fail "lossy capture: $(meta lossy_reason)"
[ "$(meta phases)" = "start end settled" ] || fail "phases '$(meta phases)'"
[ "$(meta events)" -gt 1000 ] || fail "only $(meta events) events"
[[ $(meta lab_cache_names) == kprobe* ]] || fail "6.1's allocations not named by the kprobes: $(meta lab_cache_names)"
unnamed=$(zstd -dc "$d/capture.ftrace.zst" | grep ': kmem_cache_alloc: ' | grep -vc ' name=' || true)
[ "$unnamed" = 0 ] || fail "$unnamed kmem_cache_alloc events without name="
zstd -dc "$d/capture.ftrace.zst" | grep -q ': slabsim_kca' && fail "kprobe lines left in the trace"
head -1 "$d/slab-before.txt" | grep -q '^slabsim-slab 1 phase=before .*kernel=6\.1\.' || fail "slab-before.txt header"
grep -q '^cache=.* name=dentry .*si_active_objs=' "$d/slab-before.txt" || fail "slab-before.txt has no dentry line with slabinfo counts"
# the capture's own target and CPUs; one model (a what-if of MODELS: its
# report goes where REPORT= says)
r=$here/reports/labtest-$$
make -s --no-print-directory -C "$here" sim TRACE="$d" NAME="labtest-$$" MODELS=traced REPORT="$r" \
	> "$tmp/sim" 2>&1 || fail "make sim TRACE=: $(tail -20 "$tmp/sim")"
grep -q 'x86_64-6\.1' "$r/runs/trace__traced/summary.csv" || fail "a 6.1 capture not replayed on x86_64-6.1"
[ -s "$r/kernel.csv" ] && [ -s "$r/runs/trace__traced/slabinfo" ] || fail "no kernel.csv or replay slabinfo"
grep -q '^shmem_inode_cache,' "$r/kernel.csv" || fail "kernel.csv has no shmem_inode_cache row (the workload's files)"
grep -q 'The live kernel and the simulator' "$r/report.md" || fail "report.md lacks the live-kernel section"

# ---- failures: a message that says which, the console's tail, nothing left ----
rm -rf "$caps"
lab NAME=panic WORK=tiny BOOT=rdinit=/no-such-init TIMEOUT=120 > "$tmp/out" 2> "$tmp/err" && fail "a kernel without init: exit 0"
grep -q 'panicked' "$tmp/err" || fail "panic not named: $(cat "$tmp/err")"
grep -q "the guest console's last lines" "$tmp/err" || fail "no console tail on a panic"
no_left panic
lab NAME=hang WORK=tiny TIMEOUT=2 > "$tmp/out" 2> "$tmp/err" && fail "TIMEOUT=2: exit 0"
grep -q 'hung: the guest had not finished after 2s' "$tmp/err" || fail "hang not named: $(cat "$tmp/err")"
no_left hang
w=labtest$$
trap 'rm -rf "$tmp" "$here/lab/work/$w.sh" "$here/reports/labtest-$$" "$here/datasets/import/labtest-$$"' EXIT
printf '# needs a module no kernel has\n# lab-modules: slabsim_no_such_module\ntrue\n' > "$here/lab/work/$w.sh"
lab NAME=nomod WORK=$w > "$tmp/out" 2> "$tmp/err" && fail "a missing module: exit 0"
grep -q 'lacks module slabsim_no_such_module' "$tmp/err" || fail "missing module not named: $(cat "$tmp/err")"
no_left nomod
lab NAME=nokernel WORK=tiny KERNEL=0.1 > "$tmp/out" 2> "$tmp/err" && fail "KERNEL=0.1: exit 0"
grep -q 'no kernel 0.1 for x86_64' "$tmp/err" || fail "unknown kernel not named: $(cat "$tmp/err")"
no_left nokernel
printf '0.2\tx86_64\tbookworm\tamd64\tslabsim-no-such-package\n' > "$tmp/kernels.conf"
LAB_KERNELS=$tmp/kernels.conf lab NAME=nopkg WORK=tiny KERNEL=0.2 > "$tmp/out" 2> "$tmp/err" && fail "a package that does not exist: exit 0"
grep -q 'cannot fetch kernel 0.2' "$tmp/err" || fail "unfetchable package not named: $(cat "$tmp/err")"
[ ! -e "$LAB_DATA/kernels/0.2-x86_64" ] && [ ! -e "$LAB_DATA/kernels/0.2-x86_64.tmp" ] || fail "a half-fetched kernel left"
no_left nopkg
rc=0
lab NAME=bad WORK=tiny CPUS=0 > "$tmp/out" 2> "$tmp/err" || rc=$?
[ $rc = 2 ] || fail "CPUS=0: exit $rc, not 2"
grep -q "bad CPUS '0'" "$tmp/err" || fail "CPUS=0 not named: $(cat "$tmp/err")"
echo "lab.sh: ok"
