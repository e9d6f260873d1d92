#!/bin/bash
# geometry.sh - `slabsim geometry` key=value output for worked examples,
# usage errors, and `slabsim validate` on the saved kernel data (always) and
# on this machine's /sys/kernel/slab (when readable).
. "$(dirname "$0")/lib/common.bash"
data=$root/tests/data/slab

# expect FILE KEY VALUE: the output has the line KEY=VALUE
expect() {
	grep -qx "$2=$3" "$1" ||
		fail "$(basename "$1"): want $2=$3, got '$(grep "^$2=" "$1" || true)'"
}

# validates OUT LAST WHAT ARGS...: `slabsim validate ARGS` exits 0 with
# LAST as its last line (output in OUT)
validates() {
	local out=$1 last=$2 what=$3
	shift 3
	"$S" validate "$@" >"$out" || fail "$what: $(tail -1 "$out")"
	tail -1 "$out" | grep -qx "$last" || fail "$what: $(tail -1 "$out")"
}

# usage_error ARGS...: exit status 2 and a message on stderr
usage_error() {
	local rc=0
	"$S" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "'$*': exit $rc, want 2"
	[ -s "$tmp/err" ] || fail "'$*': no message on stderr"
	[ ! -s "$tmp/out" ] || fail "'$*': printed output on a usage error"
}

# SMACK seed: KMEM_CACHE(smack_rule), 20 bytes, align 4, 3.10 ARM -> 24.
"$S" geometry --target arm32-3.10 --size 20 --align 4 >"$tmp/smack"
expect "$tmp/smack" target arm32-3.10
expect "$tmp/smack" era 3.10
expect "$tmp/smack" object_size 20
expect "$tmp/smack" slab_size 24
expect "$tmp/smack" align 8
expect "$tmp/smack" offset 0
expect "$tmp/smack" order 0
expect "$tmp/smack" objs_per_slab 170
expect "$tmp/smack" slab_bytes 4096
expect "$tmp/smack" cpu_partial 30
expect "$tmp/smack" debug -
for k in target era object_size slab_size align inuse offset red_left_pad \
	order objs_per_slab slab_bytes min_partial cpu_partial \
	cpu_partial_slabs debug; do
	grep -q "^$k=" "$tmp/smack" || fail "missing key $k"
done

# slub.md: 6.x FZPU kmalloc-64 = 256 bytes, order 1, 32 objects (8 CPUs).
"$S" geometry --target x86_64-6.x --kmalloc --size 50 --debug FZPU >"$tmp/fzpu"
expect "$tmp/fzpu" request 50
expect "$tmp/fzpu" cache kmalloc-64
expect "$tmp/fzpu" slab_size 256
expect "$tmp/fzpu" red_left_pad 64
expect "$tmp/fzpu" order 1
expect "$tmp/fzpu" objs_per_slab 32
expect "$tmp/fzpu" slab_bytes 8192
expect "$tmp/fzpu" cpu_partial 0
expect "$tmp/fzpu" debug FZPU

# --cpus and --era change the order rules: kmalloc-1k is 3/32 with 8 CPUs,
# 2/16 with 2; a 12000-byte cache is order 2 before 6.7, 3 after.
"$S" geometry --target x86_64-6.x --kmalloc --size 1000 --cpus 2 >"$tmp/k1k"
expect "$tmp/k1k" cache kmalloc-1k
expect "$tmp/k1k" order 2
expect "$tmp/k1k" objs_per_slab 16
"$S" geometry --target x86_64-6.x --size 12000 --era 6.1 >"$tmp/old"
expect "$tmp/old" era 6.1
expect "$tmp/old" order 2
"$S" geometry --target x86_64-6.x --size 12000 >"$tmp/new"
expect "$tmp/new" order 3

# kmalloc classes of the ARM target, zero and large requests.
"$S" geometry --target arm32-3.10 --kmalloc --size 65 >"$tmp/k96"
expect "$tmp/k96" cache kmalloc-96
expect "$tmp/k96" slab_size 96
"$S" geometry --target arm32-3.10 --kmalloc --size 8192 >"$tmp/k8k"
expect "$tmp/k8k" cache kmalloc-8192
"$S" geometry --target x86_64-6.x --kmalloc --size 8193 >"$tmp/large"
expect "$tmp/large" cache kmalloc_large
expect "$tmp/large" order 2
"$S" geometry --target x86_64-6.x --kmalloc --size 0 >"$tmp/zero"
expect "$tmp/zero" cache zero

# A target given by path.
"$S" geometry --target "$root/allocators/targets/x86_64-4.6.target" \
	--size 64 --rcu >"$tmp/path"
expect "$tmp/path" target x86_64-4.6
expect "$tmp/path" slab_size 72

# --help documents every option.
"$S" geometry --help >"$tmp/help"
for o in --target --size --align --hwcache --rcu --ctor --freeptr --kmalloc \
	--debug --cpus --era --help; do
	grep -q -- "$o" "$tmp/help" || fail "geometry --help lacks $o"
done
"$S" validate --help >"$tmp/vhelp"
for o in --sys --slabinfo --cpus --target --help; do
	grep -q -- "$o" "$tmp/vhelp" || fail "validate --help lacks $o"
done

usage_error geometry --size 64
usage_error geometry --target x86_64-6.x
usage_error geometry --target x86_64-6.x --size abc
usage_error geometry --target x86_64-6.x --size 0
usage_error geometry --target x86_64-6.x --size 64 --align 24
usage_error geometry --target x86_64-6.x --size 64 --debug FX
usage_error geometry --target x86_64-6.x --size 64 --era 6.x
usage_error geometry --target x86_64-6.x --size 64 --cpus 0
usage_error geometry --target x86_64-6.x --size 64 --bogus
usage_error geometry --target x86_64-6.x --size 64 --kmalloc --rcu
usage_error geometry --target x86_64-6.x --size 64 extra
usage_error validate --sys /x --slabinfo /y
usage_error validate --cpus many

rc=0
"$S" geometry --target no-such-target --size 64 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || fail "unknown target: exit $rc, want 1"
grep -q no-such-target "$tmp/err" || fail "unknown target: message lacks the name"
rc=0
"$S" geometry --target x86_64-6.x --size 64 --freeptr 8 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || fail "--freeptr without --rcu: exit $rc, want 1"

# kmalloc above KMALLOC_MAX_CACHE_SIZE: the page allocator, or NULL with a
# warning above its largest order (10: 4 MiB of 4 KiB pages)
"$S" geometry --target x86_64-6.1 --kmalloc --size 20000 >"$tmp/out" 2>"$tmp/err"
grep -qx "cache=kmalloc_large" "$tmp/out" && grep -qx "order=3" "$tmp/out" &&
	grep -qx "pages=8" "$tmp/out" && grep -qx "result=pages" "$tmp/out" || fail "20000: $(cat "$tmp/out")"
grep -q "above KMALLOC_MAX_CACHE_SIZE (8192): no slab cache, kmalloc_large() takes 8 pages" "$tmp/err" ||
	fail "20000: $(cat "$tmp/err")"
"$S" geometry --target x86_64-6.1 --kmalloc --size 4194304 >"$tmp/out" 2>"$tmp/err"
grep -qx "order=10" "$tmp/out" && grep -qx "result=pages" "$tmp/out" || fail "4 MiB: $(cat "$tmp/out")"
"$S" geometry --target x86_64-6.1 --kmalloc --size 20000000 >"$tmp/out" 2>"$tmp/err"
grep -qx "order=13" "$tmp/out" && grep -qx "max_order=10" "$tmp/out" &&
	grep -qx "result=NULL" "$tmp/out" || fail "20000000: $(cat "$tmp/out")"
grep -q "warning: kmalloc(20000000) needs order 13, above the page allocator's largest order 10" "$tmp/err" ||
	fail "20000000: no warning: $(cat "$tmp/err")"
# a bad --debug names the letters
rc=0
"$S" geometry --target x86_64-6.1 --size 20 --debug Q 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || fail "--debug Q: exit $rc, want 2"
grep -q "letters among F Z P U T O" "$tmp/err" || fail "--debug Q: $(cat "$tmp/err")"

# validate on the saved copies of the 6.18 machine (2 present CPUs).
"$S" validate --sys "$data/sys-kernel-slab" --cpus 2 >"$tmp/val"
tail -1 "$tmp/val" | grep -qx "validate: 16 caches, 15 match, 0 mismatch, 1 explicit-freeptr; sheaf_capacity: 2 checked, 0 mismatch" ||
	fail "saved sysfs: $(tail -1 "$tmp/val")"
grep -q "^vm_area_struct .* freeptr " "$tmp/val" || fail "vm_area_struct not reported as freeptr"
grep -qx "sheaf maple_node  *kernel   32 model   32 match" "$tmp/val" || fail "maple_node sheaf_capacity not checked"
# ... and the sheaf check can fail: a target that says 16 for maple_node
sed 's/^sheaf_capacity.maple_node = 32/sheaf_capacity.maple_node = 16/' \
	"$root/allocators/targets/x86_64-6.18.target" >"$tmp/sheaf16.target"
rc=0
"$S" validate --sys "$data/sys-kernel-slab" --cpus 2 --target "$tmp/sheaf16.target" >"$tmp/val16" || rc=$?
[ "$rc" -eq 1 ] || fail "validate with a wrong sheaf capacity: exit $rc, want 1"
grep -qx "sheaf maple_node  *kernel   32 model   16 MISMATCH" "$tmp/val16" || fail "wrong capacity not reported"
# ... and a target older than sheaves does not check them
"$S" validate --sys "$data/sys-kernel-slab" --cpus 2 --target x86_64-6.x >"$tmp/val6x"
grep -q "^sheaf maple_node .* not checked" "$tmp/val6x" || fail "6.11 target checked sheaves"
# ... and a 7.x target computes every cache's capacity
# (calculate_sheaf_capacity()), no CPU partial lists: the 6.18 copy fails it
rc=0
"$S" validate --sys "$data/sys-kernel-slab" --cpus 2 --target x86_64-7.2 >"$tmp/val72" || rc=$?
[ "$rc" -eq 1 ] || fail "6.18 sysfs against x86_64-7.2: exit $rc, want 1"
grep -qx "sheaf kmalloc-64  *kernel    0 model   60 MISMATCH" "$tmp/val72" ||
	fail "7.2 kmalloc-64 capacity not computed"
grep -q "^kmalloc-96 .*MISMATCH cpu_partial: model 0, kernel 120" "$tmp/val72" ||
	fail "7.2 cpu_partial not 0"
# a 7.2-shaped tree (values from mm/slub.c 7.2, 2 CPUs) matches it
mk72() { # NAME OBJSZ SLABSZ ORDER OBJS ALIGN HW RCU CTOR SHEAF MINPARTIAL
	local d=$tmp/sys72/$1
	mkdir -p "$d"
	echo "$2" >"$d/object_size"; echo "$3" >"$d/slab_size"; echo "$4" >"$d/order"
	echo "$5" >"$d/objs_per_slab"; echo "$6" >"$d/align"; echo "$7" >"$d/hwcache_align"
	echo "$8" >"$d/destroy_by_rcu"; printf '%s' "$9" >"$d/ctor"; echo "${10}" >"$d/sheaf_capacity"
	for f in poison red_zone store_user sanity_checks trace cpu_partial cpu_slabs; do echo 0 >"$d/$f"; done
	echo "${11:-5}" >"$d/min_partial"; echo "0(0)" >"$d/slabs_cpu_partial"
}
mk72 kmalloc-64 64 64 0 64 64 0 0 "" 60
mk72 kmalloc-8k 8192 8192 3 4 8192 0 0 "" 4 6
mk72 maple_node 256 256 0 16 256 0 0 "" 32
mk72 vm_area_struct 192 192 0 21 64 1 1 "" 60
mk72 kmem_cache 256 256 0 16 64 1 0 "" 0
validates "$tmp/v72" "validate: 5 caches, 4 match, 0 mismatch, 1 explicit-freeptr; sheaf_capacity: 4 checked, 0 mismatch" \
	"7.2 tree" --sys "$tmp/sys72" --cpus 2 --target x86_64-7.2
grep -qx "sheaf vm_area_struct  *kernel   60 model   60 match" "$tmp/v72" || fail "7.2 vm_area_struct sheaf"
# a real 7.2 kernel's caches (a Debian 7.2.13 guest of the kernel lab, 1
# CPU: tests/data/slab/lab-7.2/README.md): every cache and every sheaf
# capacity as the 7.2 rules give them
validates "$tmp/vlab72" "validate: 17 caches, 15 match, 0 mismatch, 2 explicit-freeptr; sheaf_capacity: 16 checked, 0 mismatch" \
	"7.2 guest" --sys "$data/lab-7.2/sys-kernel-slab" --cpus 1 --target x86_64-7.2
validates "$tmp/vlab72si" "validate: 193 caches, 193 match, 0 mismatch, 0 explicit-freeptr" \
	"7.2 guest slabinfo" --slabinfo "$data/lab-7.2/proc-slabinfo-7.2.txt" --cpus 1 --target x86_64-7.2
# ... which the 6.18 rules do not give (no CPU partial lists, every cache
# with sheaves)
rc=0
"$S" validate --sys "$data/lab-7.2/sys-kernel-slab" --cpus 1 --target x86_64-6.18 >"$tmp/vlab618" || rc=$?
[ "$rc" -eq 1 ] || fail "7.2 guest against x86_64-6.18: exit $rc, want 1"
# Debian's armmp 7.2 kernel in the lab's arm32 guest (1 CPU:
# tests/data/slab/lab-7.2-armmp/README.md), its before-snapshot laid out
# as a /sys/kernel/slab tree (a directory per cache, a file per
# attribute): every cache and every sheaf capacity as arm32-7.2-armmp,
# the target pick-target gives its captures, computes them ...
armmp=$data/lab-7.2-armmp
mkdir "$tmp/sysarmmp"
awk -v t="$tmp/sysarmmp" '/^cache=/ {
	for (i = 1; i <= NF; i++) {
		k = $i; sub(/=.*/, "", k); v = substr($i, length(k) + 2)
		if (k == "cache") { d = t "/" v; system("mkdir \"" d "\""); continue }
		if (k == "name" || k ~ /^si_/) continue
		print v > (d "/" k); close(d "/" k)
	} }' "$armmp/slab-snapshot-7.2-armmp.txt"
validates "$tmp/varmmp" "validate: 163 caches, 159 match, 0 mismatch, 4 explicit-freeptr; sheaf_capacity: 161 checked, 0 mismatch" \
	"armmp 7.2 guest" --sys "$tmp/sysarmmp" --cpus 1 --target arm32-7.2-armmp
grep -qx "sheaf kmalloc-64  *kernel  123 model  123 match" "$tmp/varmmp" || fail "armmp 7.2 kmalloc-64 sheaf"
validates "$tmp/varmmpsi" "validate: 163 caches, 163 match, 0 mismatch, 0 explicit-freeptr" \
	"armmp 7.2 guest slabinfo" --slabinfo "$armmp/proc-slabinfo-7.2-armmp.txt" --cpus 1 --target arm32-7.2-armmp
# ... and arm32-7.2 (the SMACK board's 32-byte lines) does not: 32 sheaf
# capacities differ
rc=0
"$S" validate --sys "$tmp/sysarmmp" --cpus 1 --target arm32-7.2 >"$tmp/varm72" || rc=$?
[ "$rc" -eq 1 ] || fail "armmp 7.2 guest against arm32-7.2: exit $rc, want 1"
tail -1 "$tmp/varm72" | grep -q "sheaf_capacity: 161 checked, 32 mismatch$" ||
	fail "armmp 7.2 guest against arm32-7.2: $(tail -1 "$tmp/varm72")"
"$S" geometry --target x86_64-7.2 --size 256 --align 256 >"$tmp/g72"
expect "$tmp/g72" sheaf_capacity 28
expect "$tmp/g72" cpu_partial 0
"$S" geometry --target x86_64-6.18 --size 256 --align 256 >"$tmp/g618"
grep -q "^sheaf_capacity=" "$tmp/g618" && fail "6.18 geometry prints a computed sheaf capacity"
"$S" validate --slabinfo "$data/proc-slabinfo-6.18.txt" --cpus 2 >"$tmp/vsi"
tail -1 "$tmp/vsi" | grep -qx "validate: 232 caches, 232 match, 0 mismatch, 0 explicit-freeptr" ||
	fail "saved slabinfo: $(tail -1 "$tmp/vsi")"
# ... and the check can fail: 8 CPUs give other orders.
rc=0
"$S" validate --sys "$data/sys-kernel-slab" --cpus 8 >"$tmp/val8" || rc=$?
[ "$rc" -eq 1 ] || fail "validate with the wrong CPU count: exit $rc, want 1"
rc=0
"$S" validate --sys "$tmp/nonexistent" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || fail "validate on a missing dir: exit $rc, want 1"

# This machine's own caches, when visible.
if [ -r /sys/kernel/slab/kmalloc-64/slab_size ]; then
	"$S" validate >"$tmp/live" || fail "validate on this machine: $(tail -1 "$tmp/live")"
	tail -1 "$tmp/live" | grep -q " 0 mismatch," || fail "live: $(tail -1 "$tmp/live")"
	echo "geometry.sh: live $(tail -1 "$tmp/live")"
else
	skip_part_unless_ci "validate on this machine: /sys/kernel/slab not readable (SLUB's sysfs, as root)"
fi
echo "geometry.sh: ok"
