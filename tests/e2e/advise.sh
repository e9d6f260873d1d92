#!/bin/bash
# advise.sh - `slabsim advise` end to end: on a small smack17k patch2
# trace the two dedicated-cache proposals the 2013 patches made come out
# on top, every saving advice.csv reports equals the difference of two
# `slabsim run`s (baseline, and --place with the proposal's file), the
# output does not depend on the number of threads, bad input names
# FILE:LINE and leaves nothing, and `make advise` imports a capture.
. "$(dirname "$0")/lib/common.bash"
cd "$tmp"

"$S" gen smack17k --rules 2000 --labels 100 --seed 1 --write-rules rules.txt
"$S" gen smack17k --from-rules rules.txt --variant patch2 -o p2.trace
"$S" advise --trace p2.trace --out adv --jobs 2 >log 2>&1 || { cat log; fail "advise"; }
for f in advice.csv advice.md savings.dat proposals/01.place; do
	[ -s "adv/$f" ] || fail "$f missing"
done

# every row has the header's fields (no site name here holds a comma)
awk -F, 'NR == 1 { n = NF } NF != n { print FILENAME ":" NR ": " NF " fields, want " n; bad = 1 }
	END { exit bad }' adv/advice.csv || fail "advice.csv rows"
# column NAME of advice.csv's row RANK
acol() { awk -F, -v n="$2" -v r="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i }
	NR > 1 && $1 == r { print $c }' adv/advice.csv; }

# the top two dedicated caches: the master list entry (12 bytes) and the
# rule (20 bytes), each out of kmalloc-32
ded=$(awk -F, 'NR > 1 && $4 == "dedicated" { print $2 }' adv/advice.csv | head -2 | tr '\n' ' ')
expect_eq "top dedicated proposals" "$ded" "smk_set_access:master smk_set_access:rule "
has adv/advice.md 'kmem_cache_create("smk_set_access_master", sizeof(struct …) /* 12 bytes */'

# ---- a replayed saving is the difference of two runs ----
run() { "$S" run --trace p2.trace --model traced --target arm32-3.10 --sample-every 1 "$@" >/dev/null; }
peak() { awk -F, 'NR > 1 && $3 > m { m = $3 } END { printf "%.2f", m }' "$1/timeline.csv"; }
run --out base
rows=$(($(wc -l < adv/advice.csv) - 1))
[ "$rows" -ge 4 ] || fail "only $rows proposals"
for r in 1 2 3 "$rows"; do
	run --place "adv/$(acol "$r" place)" --out "p$r"
	want=$(awk -v a="$(col base/summary.csv footprint_kib)" -v b="$(col "p$r"/summary.csv footprint_kib)" \
		'BEGIN { printf "%.2f", a - b }')
	expect_eq "rank $r replayed saving" "$(acol "$r" replayed_saving_kib)" "$want"
	want=$(awk -v a="$(peak base)" -v b="$(peak "p$r")" 'BEGIN { printf "%.2f", a - b }')
	expect_eq "rank $r peak saving" "$(acol "$r" peak_saving_kib)" "$want"
	expect_eq "rank $r slab pages" "$(acol "$r" slab_pages_saved)" \
		"$(($(col base/summary.csv slab_pages) - $(col "p$r"/summary.csv slab_pages)))"
	# sim_time_ms is rounded to 1 us in each summary: within 2 us
	awk -v d="$(acol "$r" time_delta_ms)" -v a="$(col base/summary.csv sim_time_ms)" \
		-v b="$(col "p$r"/summary.csv sim_time_ms)" 'BEGIN { x = d - (b - a); exit !(x < 0.002 && x > -0.002) }' ||
		fail "rank $r time delta $(acol "$r" time_delta_ms)"
done

# ---- the acceptance figures: the full 17000-rule trace ----
# the top two dedicated caches are master and rule again, and each saving
# is within 10% of what two plain runs give (the runs are the reference:
# no figure written here)
"$S" gen smack17k --variant patch2 -o full.trace
"$S" advise --trace full.trace --out fadv --jobs 2 >log 2>&1 || { cat log; fail "advise on the full trace"; }
fcol() { awk -F, -v n="$2" -v s="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i }
	NR > 1 && $2 == s && $4 == "dedicated" { print $c }' fadv/advice.csv; }
ded=$(awk -F, 'NR > 1 && $4 == "dedicated" { print $2 }' fadv/advice.csv | head -2 | tr '\n' ' ')
expect_eq "full trace: top dedicated proposals" "$ded" "smk_set_access:master smk_set_access:rule "
"$S" run --trace full.trace --model traced --target arm32-3.10 --out fbase >/dev/null
for site in smk_set_access:master smk_set_access:rule; do
	"$S" run --trace full.trace --model traced --target arm32-3.10 \
		--place "fadv/$(fcol "$site" place)" --out "f-$site" >/dev/null
	awk -v got="$(fcol "$site" replayed_saving_kib)" -v a="$(col fbase/summary.csv footprint_kib)" \
		-v b="$(col "f-$site"/summary.csv footprint_kib)" \
		'BEGIN { want = a - b; exit !(want > 0 && got >= 0.9 * want && got <= 1.1 * want) }' ||
		fail "full trace: $site saves $(fcol "$site" replayed_saving_kib) KiB, two runs give" \
			"$(col fbase/summary.csv footprint_kib) - $(col "f-$site"/summary.csv footprint_kib)"
done
# the dedicated rule cache merges into kmalloc-32 only with SLAB_HWCACHE_ALIGN,
# and that row was replayed unmerged: the words say so
has fadv/advice.md "This row was replayed with the cache kept unmerged"
if grep -q "the row above is the unmerged cache" fadv/advice.md; then fail "advice.md: 'the row above'"; fi

# ---- the same advice from one thread and from two ----
"$S" advise --trace p2.trace --out adv1 --jobs 1 >/dev/null
for f in advice.csv savings.dat proposals/01.place; do
	cmp -s "adv/$f" "adv1/$f" || fail "$f differs between --jobs 1 and --jobs 2"
done
sed 's|adv1/proposals|adv/proposals|' adv1/advice.md | cmp -s adv/advice.md - ||
	fail "advice.md differs between --jobs 1 and --jobs 2"

# ---- bad input: FILE:LINE, exit 1, no output ----
head -40 p2.trace > bad.trace
echo "a 0 1 smk_set_access:rule kmalloc" >> bad.trace
if "$S" advise --trace bad.trace --out badout 2>err; then fail "advise took a bad trace"; fi
grep -q "bad.trace:41:" err || fail "no FILE:LINE for a bad trace: $(cat err)"
[ ! -e badout/advice.csv ] || fail "a failed advise left advice.csv"
printf 'site smk_set_access:rule cache=r size=20 align=3\n' > bad.place
if run --place bad.place --out badrun 2>err; then fail "run took a bad placement"; fi
grep -q "bad.place:1: cache r: align 3 is not a power of two" err || fail "bad place: $(cat err)"
[ ! -e badrun/summary.csv ] || fail "a failed run left summary.csv"
printf 'site smk_set_access:rule cache=r size=8\n' > small.place
if run --place small.place --out badrun 2>err; then fail "a cache too small was taken"; fi
grep -q "small.place:1: site smk_set_access:rule asks 20 bytes, more than cache r holds (8)" err ||
	fail "small cache: $(cat err)"

# ---- an imported capture replays on its own CPUs (meta cpus), not the target's ----
"$S" import -o ls.sbt "$root/tests/data/import/ls-etc-6.18.ftrace.zst" >/dev/null
for c in def 2 8; do
	"$S" advise --trace ls.sbt --out "lsa-$c" --jobs 2 $([ "$c" = def ] || echo --cpus "$c") >/dev/null ||
		fail "advise on an import, cpus $c"
done
has lsa-def/advice.md "(kernel 6.11, 2 CPUs: the trace's \`meta cpus\`)"
has lsa-8/advice.md "(kernel 6.11, 8 CPUs: --cpus)"
cmp -s lsa-def/advice.csv lsa-2/advice.csv || fail "an import's advice is not that of its 2 CPUs"
# on 8 CPUs the figures differ: the default is not the target's 8
if cmp -s lsa-def/advice.csv lsa-8/advice.csv; then fail "an import advised on the target's 8 CPUs"; fi

# ---- kernel options: the random kmalloc caches replayed, --config reaching every replay ----
# the proposal flips CONFIG_RANDOM_KMALLOC_CACHES; its row has no .place
rnd=$(grep ',random_kmalloc_caches=y,' lsa-def/advice.csv) || fail "no random kmalloc proposal replayed"
[ "$(echo "$rnd" | awk -F, '{ print $NF }')" = - ] || fail "the random kmalloc row names a place file: $rnd"
# the command advice.md gives for it reproduces its footprint
cmd=$(grep -A4 'random_kmalloc_caches=y' lsa-def/advice.md | grep -o '`slabsim run [^`]*`' | tr -d '`')
case "$cmd" in *"--config CONFIG_RANDOM_KMALLOC_CACHES=y --out RUN") ;; *) fail "replay command: $cmd" ;; esac
set -- ${cmd#slabsim run }
"$S" run "${@:1:$(($# - 1))}" rnd-run >/dev/null || fail "the random kmalloc replay command"
fp=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "footprint_kib") c = i } NR == 2 { print $c }' rnd-run/summary.csv)
[ "$fp" = "$(echo "$rnd" | cut -d, -f14)" ] || fail "replayed $fp KiB, advice.csv says $(echo "$rnd" | cut -d, -f14)"
# with the option in the baseline: that baseline is the proposal's replay, and the proposal is =n
"$S" advise --trace ls.sbt --out lsa-rnd --jobs 2 --config CONFIG_RANDOM_KMALLOC_CACHES=y >/dev/null ||
	fail "advise --config"
has lsa-rnd/advice.md "model \`traced\`, kernel options \`CONFIG_RANDOM_KMALLOC_CACHES=y\`"
has lsa-rnd/advice.md "footprint $fp KiB at the end"
grep -q ',random_kmalloc_caches=n,' lsa-rnd/advice.csv || fail "no =n proposal under --config ...=y"
# a kernel that cannot have it: listed with the kernel's reason, not replayed
"$S" advise --trace ls.sbt --out lsa-46 --jobs 2 --target x86_64-4.6 >/dev/null || fail "advise on 4.6"
has lsa-46/advice.md "random_kmalloc_caches=y (*): target x86_64-4.6 (era 4.6): CONFIG_RANDOM_KMALLOC_CACHES (6.6) is not in that kernel"
if grep -q random lsa-46/advice.csv; then fail "a 4.6 kernel's random kmalloc row was ranked"; fi

# ---- make advise on a kernel capture: import, advice, plot ----
has_cmd gnuplot || skip_rest_unless_ci "make advise: no gnuplot (Debian gnuplot-nox; make deps installs it)"
cap="$root/tests/data/import/ls-etc-6.18.ftrace.zst"
margs=(TRACE="$cap" ADVISE_DIR="$tmp/madv" SLABSIM="$S" MAX_PROPOSALS=4)
make -C "$root" --no-print-directory advise "${margs[@]}" >mlog 2>&1 || { cat mlog; fail "make advise"; }
for f in trace.sbt advice.csv advice.md savings.png savings.svg; do
	[ -s "madv/$f" ] || fail "make advise: $f missing"
done
grep -q 'kmem_buckets' madv/advice.csv || fail "no kmem_buckets proposal for a capture"
grep -q ',random_kmalloc_caches=y,' madv/advice.csv || fail "make advise: no random kmalloc row"
make -C "$root" --no-print-directory advise "${margs[@]}" >mlog2 2>&1
if grep -E '^ *(IMPORT|ADVISE) ' mlog2; then fail "second make advise redid work"; fi

# every x label inside the 1200x700 SVG: 25 long labels, each cut to at
# most 42 characters, runs from its tick down and right at 45 degrees,
# about 5.4 px (Arial 9) a character, 0.71 of that across and down
for i in $(seq 25); do
	printf '%d %d %d "%d. a_long_function_name_for_the_label merged:some_other_cache (9 sites)"\n' \
		"$i" "$((26 - i))" "$((26 - i))" "$i"
done > long.dat
gnuplot -e "datafile='long.dat'; outfile='long.svg'" "$root/sim/advise/advice.gp" || fail "plot long labels"
awk 'match($0, /translate\([0-9.]+,[0-9.]+\) rotate\(45\)/) {
		split(substr($0, RSTART + 10, RLENGTH - 22), xy, ","); x = xy[1]; y = xy[2]; next }
	x != "" && /<text>/ { t = $0; sub(/^[ \t]*<text>/, "", t); sub(/<\/text>.*/, "", t); gsub(/…/, ".", t)
		n = length(t); if (n > 42 || x + n * 5.4 * 0.71 > 1200 || y + n * 5.4 * 0.71 > 700) {
			print "label cut off: " n " chars at " x "," y ": " t; bad = 1 }
		labels++; x = "" }
	END { exit bad || labels != 25 }' long.svg || fail "savings plot labels"
echo "advise: ok"
