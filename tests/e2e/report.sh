#!/bin/bash
# report.sh - `slabsim report` on the hand-written fixtures
# (tests/fixtures/report/), then the gnuplot scripts and the make rules of
# mk/report.inc on its plot data.  The gnuplot part is skipped, with
# a message, when gnuplot is not installed.
. "$(dirname "$0")/lib/common.bash"
fixture=$root/tests/fixtures/report/smack17k
seed=$root/workloads/smack17k/seed.csv

[ -x "$S" ] || fail "no binary at $S"
[ -d "$fixture/runs" ] || fail "no fixtures at $fixture"

# ---- the report -------------------------------------------------------------
out=$tmp/rep
mkdir -p "$out"
cp -r "$fixture/runs" "$out/"
"$S" report --workload smack17k --dir "$out" --seed-table "$seed" \
	--command "make sim WORKLOAD=smack17k" --calibration "catmap_bytes=20" \
	>"$tmp/stdout" 2>"$tmp/stderr" || fail "report failed: $(cat "$tmp/stderr")"
for f in report.md summary.csv waste.dat latency.dat title.gp figures.csv; do
	[ -s "$out/$f" ] || fail "no $f"
done
has "$out/report.md" "| ref | 1946 | 1876–1988 | 1904 | -42 | -2.2% |"
has "$out/report.md" "| patch3 → patch4 | 288 | 188–372 | 264 | -24 | -8.3% |"
has "$out/report.md" "| catmap_bytes | 20 | fitted | docs/cost-model.md |"
has "$out/report.md" "| arm32-3.10: cache_line | 32 | inferred |"
grep -Eq 'Verdict|\| (pass|FAIL) \|' "$out/report.md" && fail "report.md: a pass/fail verdict against the seed"
for s in "## Slab memory: each variant's footprint (KiB)" "## Headline figures and their intervals" \
	"## 1. What was run" "## 2. Seed vs simulator" "## 3. Fitted and inferred parameters" \
	"## 4. Where the bytes go" "## 5. Where the waste is" "## 6. Latency"; do
	has "$out/report.md" "$s"
done
# the memory answer leads: the first section and the first table are the
# variants' footprints, the seed's KiB beside the models', before any time
[ "$(grep -m1 '^## ' "$out/report.md")" = "## Slab memory: each variant's footprint (KiB)" ] ||
	fail "report.md: first section '$(grep -m1 '^## ' "$out/report.md")'"
first_table=$(grep -m1 '^| ' "$out/report.md")
[[ $first_table =~ ^\|\ variant\ +\|\ seed\ +\|\ traced\  ]] ||
	fail "report.md: first table '$first_table', want variant, seed, models"
grep -m1 -A2 '^| variant .*| seed ' "$out/report.md" | grep -Eq '^\| ref +\| +1946 \|' ||
	fail "report.md: the first table's ref row has not the seed's 1946 KiB"
[ "$(grep -n -m1 'Headline figures' "$out/report.md" | cut -d: -f1)" -gt \
  "$(grep -n -m1 '^| variant .*| seed ' "$out/report.md" | cut -d: -f1)" ] ||
	fail "report.md: the times come before the memory answer"
if grep -q "Strategies compared" "$out/report.md"; then fail "report.md: the footprint grid twice"; fi
[ "$(wc -l <"$out/summary.csv")" -eq 15 ] || fail "summary.csv: want 1 header + 14 rows"
[ "$(grep -vc '^#' "$out/waste.dat")" -eq 28 ] || fail "waste.dat: want 28 rows (end and peak of 14 runs)"
has "$out/title.gp" "workload = 'smack17k, arm32-3.10, 2 CPUs'"

# deterministic: the same inputs give byte-identical outputs
mkdir -p "$tmp/again"
cp -r "$fixture/runs" "$tmp/again/"
"$S" report --workload smack17k --dir "$tmp/again" --seed-table "$seed" \
	--command "make sim WORKLOAD=smack17k" --calibration "catmap_bytes=20" 2>/dev/null
for f in summary.csv waste.dat latency.dat figures.csv; do
	cmp -s "$out/$f" "$tmp/again/$f" || fail "$f differs between two runs"
done

# ---- bad input and bad usage ---------------------------------------------------
bad=$tmp/bad
mkdir -p "$bad"
cp -r "$fixture/runs" "$bad/"
sed -i '2s/,1904,/,19x04,/' "$bad/runs/ref__traced/summary.csv"
rc=0
"$S" report --workload smack17k --dir "$bad" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || fail "malformed summary: exit $rc, want 1"
grep -q "ref__traced/summary.csv:2: column 'footprint_kib': '19x04' is not a number" "$tmp/err" ||
	fail "malformed summary: message '$(cat "$tmp/err")'"
[ "$(ls "$bad")" = runs ] || fail "malformed summary left output: $(ls "$bad")"

rc=0
"$S" report --workload smack17k --dir "$out" --bogus >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || fail "unknown option: exit $rc, want 2"
[ -s "$tmp/err" ] || fail "unknown option: no message"

# ---- plots ---------------------------------------------------------------------
has_cmd "${GNUPLOT:-gnuplot}" || skip_rest_unless_ci "the plots and make report: no gnuplot (Debian gnuplot-nox; make deps installs it)"
GNUPLOT=$(command -v "${GNUPLOT:-gnuplot}")

# check_png FILE / check_svg FILE: real images, not trivially small
check_png() {
	[ "$(stat -c %s "$1")" -gt 8000 ] || fail "$1: only $(stat -c %s "$1") bytes"
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "$1: not a PNG"
}
check_svg() {
	[ "$(stat -c %s "$1")" -gt 8000 ] || fail "$1: only $(stat -c %s "$1") bytes"
	grep -q '<svg' "$1" || fail "$1: not an SVG"
}

for p in waste latency; do
	for ext in png svg; do
		"$GNUPLOT" -e "datafile='$out/$p.dat'; outfile='$out/$p.$ext'; load '$out/title.gp'" \
			"$root/analysis/$p.gp" 2>"$tmp/gp.err" || fail "gnuplot $p.gp: $(cat "$tmp/gp.err")"
		[ ! -s "$tmp/gp.err" ] || fail "gnuplot $p.gp warned: $(cat "$tmp/gp.err")"
		"check_$ext" "$out/$p.$ext"
	done
done

# ---- mk/report.inc: `make report` builds the five files and four plots -------------
mk=$tmp/rules
mkdir -p "$mk"
cp -r "$fixture/runs" "$mk/"
cat >"$tmp/test.mk" <<EOF
SLABSIM := $S
WORKLOAD := smack17k
REPORT := $mk
RUN_SUMMARIES := \$(wildcard $mk/runs/*/summary.csv)
VARIANTS := ref memfix patch2 patch3 patch4
MODELS := traced kmem_cache traced+FZPU
CALIBRATION := catmap_bytes=20
GNUPLOT := $GNUPLOT
include mk/plot.inc
include mk/stamp.inc
include mk/report.inc
EOF
# a clean make: no flags or variables inherited from a `make e2e` above us
submake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES make -C "$root" -f "$tmp/test.mk" "$@"
}
submake -s report >"$tmp/make.out" 2>&1 ||
	fail "make report: $(cat "$tmp/make.out")"
for f in report.md summary.csv waste.dat latency.dat title.gp; do
	[ -s "$mk/$f" ] || fail "make report: no $f"
done
check_png "$mk/waste.png"
check_png "$mk/latency.png"
check_svg "$mk/waste.svg"
check_svg "$mk/latency.svg"
has "$mk/report.md" "| variant | seed | traced | kmem_cache | traced+FZPU |"
has "$mk/report.md" "| catmap_bytes | 20 |"
case "$(ls "$mk")" in
*tmp*) fail "make report left temporary files: $(ls "$mk")" ;;
esac
again=$(submake report 2>&1)
case "$again" in
*"Nothing to be done"*) ;;
*) fail "make report: a second run rebuilt something: $again" ;;
esac
echo "report.sh: ok"
