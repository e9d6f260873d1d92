#!/bin/bash
# import.sh - `slabsim import` on real captures (tests/data/import): the
# totals match perf kmem stat and an independent sum, the trace replays,
# a tracefs format file gives the same result, bad input fails cleanly.
. "$(dirname "$0")/lib/common.bash"
data=$root/tests/data/import
cd "$tmp"

# perf script input: perf kmem stat's own lines, verbatim
"$S" import -o perf.trace "$data/ls-etc-6.18.perf-script.zst" > perf.out
for k in "Total bytes requested" "Total bytes allocated" \
	 "Total bytes wasted on internal fragmentation" "Internal fragmentation"; do
	want=$(grep "^$k:" "$data/ls-etc-6.18.perf-kmem-stat.txt")
	got=$(grep "^$k:" perf.out)
	[ "$got" = "$want" ] || fail "perf script: '$got', perf kmem stat says '$want'"
done

# ftrace (tracefs trace file): the sums worked out in tests/data/import/README.md
"$S" import --totals ft.csv -o ft.sbt "$data/ls-etc-6.18.ftrace.zst" > ft.out
[ "$(col ft.csv allocs)" = 1347 ] || fail "ftrace allocs $(col ft.csv allocs)"
[ "$(col ft.csv bytes_requested)" = 2605059 ] || fail "ftrace requested"
[ "$(col ft.csv bytes_allocated)" = 2608016 ] || fail "ftrace allocated"
[ "$(col ft.csv internal_fragmentation_pct)" = 0.113381 ] || fail "ftrace fragmentation"
[ "$(col ft.csv realloc_live)" = 4 ] || fail "ftrace: 4 maple nodes freed in bulk"
[ "$(col ft.csv geometry_mismatch)" = 0 ] || fail "ftrace: every traced stride reproduced"
grep -q "^Internal fragmentation: 0.113381%$" ft.out || fail "summary line"
if has_cmd zstd; then # the same sums, independently
	zstd -dc "$data/ls-etc-6.18.ftrace.zst" | awk '/ (kmalloc|kmem_cache_alloc): /{
		for (i = 1; i <= NF; i++) { split($i, kv, "=")
			if (kv[1] == "bytes_req") r += kv[2]; if (kv[1] == "bytes_alloc") a += kv[2] } }
		END { printf "%d %d\n", r, a }' > awk.out
	[ "$(cat awk.out)" = "2605059 2608016" ] || fail "awk sums $(cat awk.out)"
else
	skip_part_unless_ci "the sums by awk: no zstd (make deps installs it)"
fi

# the same with the kernel's format files: fields found by name
fmts=()
for f in "$data"/format/*.format; do fmts+=(--format-file "$f"); done
"$S" import "${fmts[@]}" --totals ft2.csv -o ft2.sbt "$data/ls-etc-6.18.ftrace.zst" > /dev/null
cmp -s ft.csv ft2.csv || fail "format files changed the totals"
cmp -s ft.sbt ft2.sbt || fail "format files changed the trace"

# the import replays: its caches were declared with the traced strides
# (mergeable ones such as skbuff_head_cache merge into kmalloc-256, as
# SLUB does, and have no row of their own)
"$S" run --trace ft.sbt --model traced --target x86_64-6.x --cpus 2 --out run > /dev/null
grep -q '^names_cache,4096,4096,' run/caches.csv || fail "names_cache not 4096 -> 4096"
grep -q '^sock_inode_cache,768,832,' run/caches.csv || fail "sock_inode_cache not 768 -> 832"
grep -q '^anon_vma,96,104,' run/caches.csv || fail "anon_vma not 96 -> 104"

# pre-6.1 format, totals by hand (README.md)
"$S" import --target arm32-3.10 --totals old.csv -o old.trace "$data/pre-6.1.ftrace" > /dev/null
for kv in allocs=5 frees=4 bytes_requested=361 bytes_allocated=400 bytes_freed=376 \
	  internal_fragmentation_pct=9.750000 cross_cpu_frees=1 unknown_frees=1 \
	  null_frees=1 live_at_end=1 events=9 caches=1; do
	[ "$(col old.csv "${kv%%=*}")" = "${kv#*=}" ] || fail "pre-6.1 ${kv%%=*} = $(col old.csv "${kv%%=*}")"
done
grep -q '^cache cache-24 size=20 align=0$' old.trace || fail "pre-6.1: 20/24 -> cache-24"
# stdin, and the output on stdout
"$S" import --target arm32-3.10 -o - - < "$data/pre-6.1.ftrace" 2> /dev/null > stdin.trace
cmp -s stdin.trace <(sed 's|^meta source .*|meta source -|' old.trace) || fail "stdin import differs"

# bad input: file:line, exit 1, nothing written; bad usage: exit 2
printf 'a-1 [000] .... 1.0: kmalloc: call_site=f ptr=ff bytes_req=8\n' > bad.ftrace
set +e
"$S" import -o bad.trace bad.ftrace 2> err.txt; rc=$?
"$S" import bad.ftrace 2> /dev/null; rc2=$?
"$S" import --format-file /nonexistent -o x.trace bad.ftrace 2> /dev/null; rc3=$?
"$S" import -o x.trace /nonexistent 2> err4.txt; rc4=$?
set -e
[ $rc4 = 1 ] || fail "missing capture: exit $rc4"
grep -q "/nonexistent: cannot open capture" err4.txt || fail "missing capture: $(cat err4.txt)"
[ $rc = 1 ] || fail "bad line: exit $rc"
grep -q "bad.ftrace:1: allocation without bytes_req= and bytes_alloc=" err.txt || fail "message: $(cat err.txt)"
[ ! -e bad.trace ] || fail "half-written output left behind"
[ $rc2 = 2 ] || fail "missing -o: exit $rc2"
[ $rc3 = 1 ] || fail "missing format file: exit $rc3"
echo "import.sh: ok"
