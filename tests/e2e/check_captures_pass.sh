#!/bin/bash
# check_captures_pass.sh - make check-captures DRAWS=N replays a capture's
# draws with its models, from one pass over its trace (one `slabsim run`
# per capture, mk/check-captures.mk), and each draw's run is the one its
# own `make sim ... RUN_FLAGS=--draw-seed S` replays alone, file for file;
# each draw's make sim then only writes its report.  On the checked-in
# capture tests/data/captures/forks-200 (no root).  Needs gnuplot (make
# sim's plots): SKIP (exit 77) otherwise.
. "$(dirname "$0")/lib/common.bash"
need_gnuplot
need_cmd zstd

# every slabsim command make runs, logged
cat >"$tmp/slabsim" <<EOF
#!/bin/bash
echo "\$1" >>"$tmp/calls"
exec "$S" "\$@"
EOF
chmod +x "$tmp/slabsim"
mkdir "$tmp/caps"
cp -r "$root/tests/data/captures/forks-200" "$tmp/caps/"
make -C "$root" --no-print-directory check-captures CAPTURES="$tmp/caps" DRAWS=2 SLABSIM="$tmp/slabsim" \
	REPORTS="$tmp/reports" DATASETS="$tmp/datasets" >"$tmp/log" 2>&1 ||
	{ tail -20 "$tmp/log"; fail "make check-captures DRAWS=2"; }
expect_eq "slabsim run commands of make check-captures DRAWS=2 (one capture)" "$(grep -cx run "$tmp/calls")" 1
grep -q "check-captures: 3 of 3 done (caps-forks-200.draw2)" "$tmp/log" || fail "no progress line per draw: $(cat "$tmp/log")"
[ -s "$tmp/reports/kernel-table/kernel-table.csv" ] || fail "no kernel-table.csv"

# draw 1 replayed alone, as check-captures did before: the same files
make -C "$root" --no-print-directory sim TRACE="$tmp/caps/forks-200" NAME=alone MODELS=traced SLABSIM="$S" \
	REPORT="$tmp/alone" DATA="$tmp/datasets/import/caps-forks-200" RUN_FLAGS="--draw-seed 1" \
	>"$tmp/log2" 2>&1 || { tail -20 "$tmp/log2"; fail "make sim RUN_FLAGS=--draw-seed 1"; }
diff -r "$tmp/alone/runs" "$tmp/reports/caps-forks-200.draw1/runs" ||
	fail "draw 1 of the pass is not draw 1 replayed alone"
cmp "$tmp/alone/kernel.csv" "$tmp/reports/caps-forks-200.draw1/kernel.csv" || fail "draw 1's kernel.csv"
cmp -s "$tmp/alone/runs/trace__traced/prior.csv" "$tmp/reports/caps-forks-200/runs/trace__traced/prior.csv" &&
	fail "draw 1's prior.csv is the default draw's"

# a second check has nothing to replay
: >"$tmp/calls"
make -C "$root" --no-print-directory check-captures CAPTURES="$tmp/caps" DRAWS=2 SLABSIM="$tmp/slabsim" \
	REPORTS="$tmp/reports" DATASETS="$tmp/datasets" >"$tmp/log3" 2>&1 ||
	{ tail -20 "$tmp/log3"; fail "make check-captures again"; }
expect_eq "slabsim run commands of a second make check-captures" "$(grep -cx run "$tmp/calls" || true)" 0
echo "check_captures_pass: ok"
