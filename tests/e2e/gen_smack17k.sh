#!/bin/bash
# gen_smack.sh - `slabsim gen smack17k` end to end: rule files, every variant's
# trace (headers and event counts worked out by hand), bad rule files and
# bad usage (exit codes, file:line on stderr, no output left behind).
. "$(dirname "$0")/lib/common.bash"
meta() { awk -v k="$2" '$1 == "meta" && $2 == k { $1 = $2 = ""; sub(/^  /, ""); print }' "$1"; }

# ---- the gen command and its table of workloads ----
"$S" gen --help | grep '^  smack17k ' >/dev/null || fail "gen --help does not list smack17k"
"$S" gen smack17k --help | grep -- '--from-rules FILE' >/dev/null || fail "gen smack17k --help"
set +e
"$S" gen nosuch >/dev/null 2>&1; rc=$?
set -e
expect_eq "unknown workload exit" "$rc" 2

# ---- the rule set: 200 rules over 20 labels ----
N=200 L=20
"$S" gen smack17k --rules $N --labels $L --seed 3 --write-rules "$tmp/r.txt"
"$S" gen smack17k --rules $N --labels $L --seed 3 --write-rules "$tmp/r2.txt"
cmp -s "$tmp/r.txt" "$tmp/r2.txt" || fail "same seed gave different rule files"
"$S" gen smack17k --rules $N --labels $L --seed 4 --write-rules "$tmp/r4.txt"
cmp -s "$tmp/r.txt" "$tmp/r4.txt" && fail "seeds 3 and 4 gave the same rules"
grep -q '^# generator: slabsim gen smack17k (.*), seed 3$' "$tmp/r.txt" || fail "rule file header: generator"
grep -q "^# rules: $N, labels: $L\$" "$tmp/r.txt" || fail "rule file header: counts"
expect_eq "rule lines" "$(grep -vc '^#' "$tmp/r.txt")" $N
expect_eq "distinct pairs" "$(grep -v '^#' "$tmp/r.txt" | awk '{ print $1, $2 }' | sort -u | wc -l)" $N
expect_eq "labels used" "$(grep -v '^#' "$tmp/r.txt" | awk '{ print $1; print $2 }' | sort -u | wc -l)" $L
expect_eq "self rules" "$(grep -v '^#' "$tmp/r.txt" | awk '$1 == $2' | wc -l)" 0
expect_eq "access strings" \
	"$(grep -v '^#' "$tmp/r.txt" | awk '$3 !~ /^(-|r?w?x?a?t?)$/ || $3 == ""' | wc -l)" 0
ls "$tmp" | grep -q 'tmp' && fail "temporary file left behind"

# ---- one trace per variant, counts worked out by hand ----
# Per write (N of them): ref allocates data, the leaked parsed rule, four
# sscanf buffers and two label copies (8); memfix 7; patch2-4 3.  Each of
# the L new labels adds smack_known + catmap (2), each of the N distinct
# pairs a rule + a master entry (2).  Frees per write: data, the four
# buffers (ref, memfix), and the label copies of labels that already
# existed: 2N - L in all.  Work per write: write_syscall, 2 smk_find_entry,
# smk_set_access, and sscanf in ref and memfix.
P=$N
want_allocs() {
	case $1 in
	ref) echo $((N * 8 + 2 * L + 2 * P)) ;;
	memfix) echo $((N * 7 + 2 * L + 2 * P)) ;;
	*) echo $((N * 3 + 2 * L + 2 * P)) ;;
	esac
}
want_frees() {
	case $1 in
	ref | memfix) echo $((N * 5 + 2 * N - L)) ;;
	*) echo $((N + 2 * N - L)) ;;
	esac
}
want_work() {
	case $1 in
	ref | memfix) echo $((N * 5)) ;;
	*) echo $((N * 4)) ;;
	esac
}
for v in ref memfix patch2 patch3 patch4; do
	t="$tmp/$v.trace"
	"$S" gen smack17k --from-rules "$tmp/r.txt" --variant $v -o "$t" --cpu 2 --system-kib 3
	expect_eq "$v magic" "$(head -1 "$t")" "slabsim-trace 1"
	expect_eq "$v workload" "$(meta "$t" workload)" smack17k
	expect_eq "$v variant" "$(meta "$t" variant)" $v
	expect_eq "$v rules" "$(meta "$t" rules)" $N
	expect_eq "$v labels" "$(meta "$t" labels)" $L
	expect_eq "$v source" "$(meta "$t" source)" "$tmp/r.txt"
	expect_eq "$v system_kib" "$(meta "$t" system_kib)" 3
	# 3 KiB of system objects of 256 bytes: 12
	expect_eq "$v system allocs" "$(awk '$1 == "a" && $4 == "system:other" && $5 == "system-other" && $6 == 256' "$t" | wc -l)" 12
	expect_eq "$v allocs" "$(count "$t" a)" $(($(want_allocs $v) + 12))
	expect_eq "$v frees" "$(count "$t" f)" "$(want_frees $v)"
	expect_eq "$v work" "$(count "$t" w)" "$(want_work $v)"
	expect_eq "$v phases" "$(awk '$1 == "p" { printf "%s ", $2 }' "$t")" "system load "
	expect_eq "$v cpu" "$(awk '($1 == "a" || $1 == "f" || $1 == "w") && $2 != 2' "$t" | wc -l)" 0
	expect_eq "$v write_syscall" "$(awk '$1 == "w" && $4 == "write_syscall"' "$t" | wc -l)" $N
	expect_eq "$v labels created" "$(awk '$1 == "a" && $4 == "smk_import_entry:smack_known" && $6 == 72' "$t" | wc -l)" $L
	expect_eq "$v catmaps" "$(awk '$1 == "a" && $4 == "smk_netlbl_mls:catmap" && $6 == 48' "$t" | wc -l)" $L
	# every free names a live object; what stays live: system objects,
	# 3 per label, 2 per pair, and in ref one leaked parsed rule per write
	live=$(awk '$1 == "a" { if ($3 in live) bad++; live[$3] = 1 }
		    $1 == "f" { if (!($3 in live)) bad++; delete live[$3] }
		    END { n = 0; for (k in live) n++; print (bad ? "bad" : n) }' "$t")
	want_live=$((12 + 3 * L + 2 * P))
	[ $v = ref ] && want_live=$((want_live + N))
	expect_eq "$v live objects" "$live" $want_live
done
# the caches each variant declares, with 32-bit ARM sizes
expect_eq "ref caches" "$(grep '^cache ' "$tmp/ref.trace")" "cache system-other size=256 align=8"
expect_eq "patch3 caches" "$(grep '^cache ' "$tmp/patch3.trace" | tr '\n' ';')" \
	"cache smack_rule size=20 align=4;cache system-other size=256 align=8;"
expect_eq "patch4 caches" "$(grep '^cache ' "$tmp/patch4.trace" | tr '\n' ';')" \
	"cache smack_rule size=20 align=4;cache smack_master_list size=12 align=4;cache system-other size=256 align=8;"
expect_eq "patch2 rules in kmalloc" "$(awk '$4 == "smk_set_access:rule" && $5 == "kmalloc" && $6 == 20' "$tmp/patch2.trace" | wc -l)" $P
expect_eq "patch3 rules in cache" "$(awk '$4 == "smk_set_access:rule" && $5 == "smack_rule" && $6 == 20' "$tmp/patch3.trace" | wc -l)" $P
expect_eq "patch3 masters in kmalloc" "$(awk '$4 == "smk_set_access:master" && $5 == "kmalloc" && $6 == 12' "$tmp/patch3.trace" | wc -l)" $P
expect_eq "patch4 masters in cache" "$(awk '$4 == "smk_set_access:master" && $5 == "smack_master_list"' "$tmp/patch4.trace" | wc -l)" $P
expect_eq "ref leaked parsed rules" "$(awk '$4 == "smk_write_rules_list:rule" && $6 == 16' "$tmp/ref.trace" | wc -l)" $N
expect_eq "memfix leaked parsed rules" "$(awk '$4 == "smk_write_rules_list:rule"' "$tmp/memfix.trace" | wc -l)" 0

# generating directly gives the same events as loading the written file
"$S" gen smack17k --rules $N --labels $L --seed 3 --variant patch3 -o "$tmp/direct.trace" \
	--write-rules "$tmp/direct.txt" --cpu 2 --system-kib 3
cmp -s "$tmp/r.txt" "$tmp/direct.txt" || fail "-o changed the rule file"
expect_eq "direct seed meta" "$(meta "$tmp/direct.trace" seed)" 3
diff <(grep -v '^meta' "$tmp/direct.trace") <(grep -v '^meta' "$tmp/patch3.trace") >/dev/null ||
	fail "generated and reloaded rule sets gave different traces"
# defaults: cpu 0, system_kib from SMACK_SYSTEM_SLAB_KIB
"$S" gen smack17k --rules 10 --labels 5 --variant ref -o - >"$tmp/stdout.trace"
expect_eq "stdout trace cpu" "$(awk '$1 == "a" && $2 != 0' "$tmp/stdout.trace" | wc -l)" 0
expect_eq "stdout trace rules" "$(meta "$tmp/stdout.trace" rules)" 10

# an empty rule file is a valid load of nothing
: >"$tmp/empty.rules"
"$S" gen smack17k --from-rules "$tmp/empty.rules" --variant ref -o "$tmp/empty.trace" --system-kib 0
expect_eq "empty rules" "$(meta "$tmp/empty.trace" rules)" 0
expect_eq "empty events" "$(count "$tmp/empty.trace" a)$(count "$tmp/empty.trace" w)" 00

# ---- bad rule files: exit 1, file:line: reason, nothing written ----
nbad=0
for f in "$root"/tests/bad/smack/*.rules; do
	line=$(sed -n '1s/^# expect: \([0-9]*\) .*/\1/p' "$f")
	reason=$(sed -n '1s/^# expect: [0-9]* //p' "$f")
	[ -n "$line" ] || fail "$f: no '# expect: LINE REASON' header"
	set +e
	"$S" gen smack17k --from-rules "$f" --variant ref -o "$tmp/bad.trace" \
		--write-rules "$tmp/bad.rules" 2>"$tmp/err"
	rc=$?
	set -e
	expect_eq "$(basename "$f") exit" $rc 1
	grep -qF "$f:$line: " "$tmp/err" || fail "$(basename "$f"): stderr lacks '$f:$line: ': $(cat "$tmp/err")"
	grep -qF -- "$reason" "$tmp/err" || fail "$(basename "$f"): stderr lacks '$reason': $(cat "$tmp/err")"
	ls "$tmp" | grep -q '^bad\.' && fail "$(basename "$f"): output left behind"
	nbad=$((nbad + 1))
done
[ $nbad -ge 10 ] || fail "only $nbad bad rule files found"
set +e
"$S" gen smack17k --from-rules "$tmp/nonexistent" --variant ref -o "$tmp/bad.trace" 2>"$tmp/err"
rc=$?
set -e
expect_eq "missing rule file exit" $rc 1
grep -q "nonexistent: cannot open" "$tmp/err" || fail "missing file message: $(cat "$tmp/err")"

# ---- bad usage: exit 2, nothing written ----
usage_case() {
	set +e
	"$S" gen smack17k "$@" >/dev/null 2>"$tmp/err"
	local rc=$?
	set -e
	expect_eq "usage '$*' exit" $rc 2
	ls "$tmp" | grep -q '^u\.' && fail "usage '$*': output left behind"
	return 0
}
usage_case --bogus -o "$tmp/u.trace" --variant ref
usage_case --from-rules "$tmp/r.txt" --rules 5 -o "$tmp/u.trace" --variant ref
usage_case --from-rules "$tmp/r.txt" --seed 5 --write-rules "$tmp/u.rules"
usage_case --variant patch1 -o "$tmp/u.trace"
usage_case -o "$tmp/u.trace"
usage_case --variant ref
usage_case --rules 12x --write-rules "$tmp/u.rules"
usage_case --rules -5 --write-rules "$tmp/u.rules"
usage_case --labels 1 --rules 1 --write-rules "$tmp/u.rules"
usage_case --labels 20 --rules 5 --write-rules "$tmp/u.rules"
usage_case --labels 3 --rules 7 --write-rules "$tmp/u.rules"
usage_case --cpu 70000 --variant ref -o "$tmp/u.trace"
usage_case --system-kib x --variant ref -o "$tmp/u.trace"
usage_case --write-rules
usage_case
usage_case stray --write-rules "$tmp/u.rules"
usage_case --help=yes
usage_case --variant ref -o "$tmp/u.x" --write-rules "$tmp/u.x"
grep -q "try 'slabsim gen smack17k --help'" "$tmp/err" || fail "usage errors should point at --help"

echo "gen_smack.sh: all checks passed"
