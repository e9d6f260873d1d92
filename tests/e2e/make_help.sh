#!/bin/bash
# make_help.sh - `make help` names every make target and variable README.md
# names: each `make TARGET` of its examples and tables, each VAR= of them,
# and each variable of its paragraph of settings (`ALLOCATOR`, ...).
. "$(dirname "$0")/lib/common.bash"
help=$tmp/help
make -s -C "$root" --no-print-directory help > "$help" || fail "make help"
readme=$root/README.md
# the examples: ```sh lines and `make ...` code spans
{
	awk '/^```sh/ { on = 1; next } /^```/ { on = 0 } on && /^make / { print }' "$readme"
	grep -o '`make [^`]*`' "$readme" | tr -d '`'
} > "$tmp/examples"
targets=$(awk '{ print $2 }' "$tmp/examples" | grep -E '^[a-z][a-z-]*$' | sort -u)
vars=$(grep -oE '(^| |\[)[A-Z][A-Z0-9_]*=' "$tmp/examples" | tr -d ' [=' | grep -v '^CONFIG_' | sort -u)
# the settings paragraph: every `UPPER` code span between "Every run takes" and "For example"
params=$(sed -n '/^Every run takes the same settings/,/^For example/p' "$readme" |
	grep -oE '`[A-Z][A-Z0-9_]*`' | tr -d '`' | sort -u)
[ "$(echo "$targets" | wc -w)" -ge 15 ] || fail "found only $(echo "$targets" | wc -w) targets in README.md: $targets"
[ "$(echo "$params" | wc -w)" -ge 15 ] || fail "found only $(echo "$params" | wc -w) settings in README.md: $params"
missing=
for t in $targets; do
	grep -Eq "^  ([a-z-]+, )*$t([ ,]|$)" "$help" || missing="$missing target:$t"
done
for v in $vars $params; do
	grep -Eq "(^|[^A-Z_])$v([^A-Z0-9_]|$)" "$help" || missing="$missing variable:$v"
done
[ -z "$missing" ] || fail "make help does not name:$missing"
echo "make_help: $(echo $targets | wc -w) targets, $(echo $vars $params | tr ' ' '\n' | sort -u | wc -l) variables"

# ---- make's output: one line per step, the full commands with V=1 ----
args=(WORKLOAD=smack17k RULES=300 LABELS=30 MODELS=traced SLABSIM="$S")
make -C "$root" --no-print-directory sim "${args[@]}" REPORT="$tmp/r1" DATA="$tmp/d1" > "$tmp/quiet" 2>&1 ||
	{ cat "$tmp/quiet"; fail "make sim"; }
tail -1 "$tmp/quiet" | grep -q "^slabsim: $tmp/r1/report.md, .* written$" || fail "the written line is not last: $(tail -3 "$tmp/quiet")"
bad=$(sed '$d' "$tmp/quiet" | grep -Ev '^  [A-Z]+ +[^ ]' || true)
[ -z "$bad" ] || fail "make sim printed more than one line per step: $(echo "$bad" | head -3)"
for step in GEN RUN REPORT GNUPLOT; do grep -q "^  $step " "$tmp/quiet" || fail "no $step line: $(cat "$tmp/quiet")"; done
make -C "$root" --no-print-directory sim "${args[@]}" REPORT="$tmp/r2" DATA="$tmp/d2" V=1 > "$tmp/verbose" 2>&1 ||
	{ cat "$tmp/verbose"; fail "make sim V=1"; }
# (a one-command recipe execs its command: scripts/forward.bash)
grep -qE "^(exec )?$S run --quiet --trace $tmp/d2/ref.trace --variant ref --model \"traced\" .*--target arm32-3.10" "$tmp/verbose" ||
	fail "V=1 does not print the run command: $(head -5 "$tmp/verbose")"
grep -q "gnuplot -e" "$tmp/verbose" || fail "V=1 does not print the gnuplot commands"
if grep -Eq '^  (GEN|RUN|REPORT|GNUPLOT) ' "$tmp/verbose"; then fail "V=1 printed step lines too"; fi
tail -1 "$tmp/verbose" | grep -q "written$" || fail "V=1: the written line is not last"
echo "make_help: make sim prints $(sed '$d' "$tmp/quiet" | wc -l) step lines, the written line last"
