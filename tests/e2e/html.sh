#!/bin/bash
# html.sh - reports/index.html and the reports' own pages, opened in a
# headless Chromium: a small workload's report, with a comparison, a
# what-if and a topology plot beside it; every page has balanced tags and
# every link (files and #anchors) resolves; Chromium renders the landing
# page to a screenshot that is not blank.  Chromium is
# installed by scripts/deps.sh (as root) for this test only; without it
# the browser part is skipped with a message.
. "$(dirname "$0")/lib/common.bash"
. "$root/tests/e2e/lib/plots.bash"
need_gnuplot
# the ASan pass: the binary's part is covered by the tests of index above
[ -z "${SLABSIM_QUICK:-}" ] || skip "SLABSIM_QUICK: slabsim index runs under the sanitizers in compare.sh"

rep=$tmp/reports
w=(WORKLOAD=smack17k RULES=300 LABELS=30 MODELS=traced SLABSIM="$S" REPORTS="$rep"
	DATASETS="$tmp/datasets")
base=smack17k--labels-30--models-traced--rules-300
make -C "$root" --no-print-directory sim "${w[@]}" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make sim"; }
# beside it, what other makes leave there (cheaper copied than made: make
# compare and a what-if have tests of their own): a comparison, a what-if
# directory with ',' in its name, the topology plot
mkdir -p "$rep/$base/compare" "$rep/topology"
cp "$rep/$base/report.md" "$rep/$base/compare/compare.md"
cp "$rep/$base/waste.png" "$rep/$base/compare/"
whatif=$base--variants-ref,patch4
cp -r "$rep/$base" "$rep/$whatif"
cp "$rep/$base/waste.png" "$rep/topology/topology.png"
# a plot being drawn (mk/plot.inc's NAME.tmp.PID.png): never listed
cp "$rep/$base/waste.png" "$rep/$base/sweep.tmp.4242.png"
"$S" index --dir "$rep" || fail "slabsim index"
! grep -rq 'tmp\.4242' "$rep"/*.html "$rep/$base"/*.html || fail "index: a temporary plot is listed"
rm "$rep/$base/sweep.tmp.4242.png"

idx=$rep/index.html
pages=$(cd "$rep" && find . -name '*.html' | sort)
for p in $pages; do
	check_html "$rep/$p"
	# anchors: every href="#x" has its id="x" on the page
	for a in $(grep -o 'href="#[^"]*"' "$rep/$p" | sed 's/href="#//; s/"$//' | sort -u); do
		grep -q "id=\"$a\"" "$rep/$p" || fail "$p: #$a has no target"
	done
done
for p in "$base/report.html" "$base/compare/compare.html" "$whatif/report.html" index.html; do
	[ -s "$rep/$p" ] || fail "no $p: $pages"
done
# the landing page: contents, a card per report, the what-if, topology
grep -q '<h2>Contents</h2>' "$idx" || fail "index: no contents"
grep -q "href=\"#$base-report\"" "$idx" || fail "index: contents lack the report"
grep -q "<section id=\"$whatif\">" "$idx" || fail "index: no what-if section"
grep -q "href=\"$base/compare/compare.html\"" "$idx" || fail "index: no compare card"
grep -q 'src="topology/topology.png"' "$idx" || fail "index: no topology plot"
grep -q 'runs: footprint .* KiB at the end of the trace, at most .* KiB at the peak' "$idx" ||
	fail "index: no headline figures"
# a report page: its plots and the markdown as HTML tables (libcmark + pipe tables)
grep -q '<img src="waste.png"' "$rep/$base/report.html" || fail "report page: no plot"
grep -q '<th class="r">requested</th>' "$rep/$base/report.html" || fail "report page: no table"
grep -q '<a href="../index.html">all reports</a>' "$rep/$base/report.html" || fail "report page: no way back"

# ---- the browser --------------------------------------------------------------------
if ! command -v chromium >/dev/null; then
	"$root/scripts/deps.sh" install chromium >/dev/null 2>&1 || true
fi
has_cmd chromium ||
	skip_rest_unless_ci "the browser checks: no chromium (as root: scripts/deps.sh install chromium)"
browse() { # browse ARGS... URL: a fresh profile each time, nothing from the network
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$tmp/profile.XXXX")" "$@" 2>>"$tmp/chromium.log"
}
# One screenshot of the landing page.  Not blank: a blank 1280x1600 page
# is about 9 kB of PNG, this one (text, tables of cards, a dozen plots)
# several hundred.
browse --window-size=1280,1600 --screenshot="$tmp/index.png" "file://$idx" >/dev/null ||
	fail "chromium --screenshot: $(tail -3 "$tmp/chromium.log")"
[ "$(od -An -tu1 -j16 -N8 "$tmp/index.png" | tr -s ' ' | sed 's/^ //')" = "0 0 5 0 0 0 6 64" ] ||
	fail "the screenshot is not 1280x1600"
size=$(stat -c %s "$tmp/index.png")
[ "$size" -gt 100000 ] || fail "the screenshot looks blank: $size bytes"
echo "html: ok"
