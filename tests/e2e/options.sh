#!/bin/bash
# options.sh - the command line of every command, through the one option
# scanner (base/opts.c): a missing value, an unknown option, a bad value
# and a stray argument are usage errors (exit 2, nothing on stdout, one
# message naming the option, then the --help hint); --help lists every
# option its synopsis names, and a long name does not run into its help.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
SLABSIM=${SLABSIM:-$repo/build/slabsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "options.sh: $*" >&2; exit 1; }

# usage_err "CMD" MESSAGE ARGS...: `slabsim CMD ARGS` exits 2, prints
# nothing on stdout and "slabsim CMD: MESSAGE" and the hint on stderr.
usage_err() {
	local cmd=$1 msg=$2 rc=0
	shift 2
	# shellcheck disable=SC2086 # CMD is "gen audit": two words
	"$SLABSIM" $cmd "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$cmd $*: exit $rc, want 2: $(cat "$tmp/err")"
	[ ! -s "$tmp/out" ] || fail "$cmd $*: printed on stdout"
	[ "$(head -1 "$tmp/err")" = "slabsim $cmd: $msg" ] ||
		fail "$cmd $*: stderr '$(cat "$tmp/err")', want 'slabsim $cmd: $msg'"
	[ "$(tail -1 "$tmp/err")" = "(try 'slabsim $cmd --help')" ] ||
		fail "$cmd $*: no --help hint: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" -eq 2 ] || fail "$cmd $*: more than message and hint: $(cat "$tmp/err")"
}

# A missing value names the option and its value, for every command.
usage_err run "--trace needs a value (TRACE)" --trace
usage_err run "--out needs a value (DIR)" --trace t --out
usage_err convert "--to needs a value (FORMAT)" a b --to
usage_err bench "--repeat needs a value (R)" --target x86_64-6.x w=t --repeat
usage_err topology "--topology needs a value (SPEC)" --topology
usage_err calibrate "-o needs a value (FILE)" -o
usage_err calibrate "--output needs a value (FILE)" --output
usage_err import "-o needs a value (TRACE)" in -o
usage_err geometry "--size needs a value (S)" --target x86_64-6.x --size
usage_err validate "--cpus needs a value (N)" --cpus
usage_err report "--dir needs a value (DIR)" --workload w --dir
usage_err compare "--top needs a value (N)" --top
usage_err sweep "--values needs a value (LIST)" --values
usage_err index "--dir needs a value (REPORTS)" --dir
usage_err "gen audit" "--variant needs a value (V)" --variant
usage_err "gen smack17k" "--write-rules needs a value (FILE)" --write-rules
usage_err "gen hackbench" "-o needs a value (TRACE)" -o
usage_err costs "--set needs a value (STEP=END)" --set
usage_err sensitivity "--dir needs a value (DIR)" --dir
usage_err advise "--max-proposals needs a value (N)" --max-proposals
usage_err kernel-table "--out needs a value (DIR)" --out

# Unknown options, in either form; no abbreviations.
for cmd in run convert bench topology calibrate import geometry validate report \
	compare sweep index diff list costs sensitivity advise kernel-table "gen audit" "gen smack17k" "gen hackbench"; do
	usage_err "$cmd" "unknown option '--foo'" --foo
	usage_err "$cmd" "unknown option '--foo=1'" --foo=1
done
usage_err run "unknown option '--tra'" --tra t

# Bad values name the option, whichever form gave them.
usage_err bench "bad value '0' for --repeat (want an integer 1..1000)" --repeat 0
usage_err bench "bad value '0' for --repeat (want an integer 1..1000)" --repeat=0
usage_err bench "bad value ',' for --models" --models ,
usage_err run "bad value 'x' for --mode" --mode x
usage_err run "bad value '0' for --cpus (want an integer 1..65536)" --cpus=0
usage_err topology "bad value 'x' for --map (identity, compact, scatter, fold)" --topology host --map x
usage_err convert "bad value 'x' for --to (text, text.zst, sbt, sbt.zst)" --to x a b
usage_err geometry "bad value '3' for --align" --align 3
usage_err compare "bad value '0' for --top (want an integer 1..1000)" --top 0
usage_err "gen hackbench" "bad value '2x' for --groups (want an integer 0..1048576)" -g 2x -o x
usage_err run "--no-merge takes no value" --no-merge=1
usage_err advise "bad value '0' for --jobs (want an integer 1..1024)" --jobs 0
usage_err advise "--trace and --out are required" --trace t

# Arguments where none belong; positionals where they do.
usage_err run "unexpected argument 'x'" x
usage_err calibrate "unexpected argument 'y'" -o x y
usage_err bench "want WORKLOAD=TRACE, got 'foo'" --target x86_64-6.x foo
usage_err convert "want IN and OUT" a
usage_err import "want -o TRACE and one INPUT" -o x a b
usage_err kernel-table "want one report directory or more"
usage_err kernel-table "bad value 'x' for --draws (want an integer 0..1000)" --draws x r
usage_err run "bad value '-1' for --draw-seed (want an integer 0..4294967295)" --draw-seed -1
# an option that only reads another is refused without it, never ignored
usage_err run "--initial-kernel names --initial-state's kernel: give both" \
	--trace t --model traced --target x86_64-6.18 --out "$tmp/never" --initial-kernel x86_64-6.1

# A usage error is found before --help is read; --help stops the scan.
usage_err run "unknown option '--foo'" --foo --help
"$SLABSIM" run --help --foo >"$tmp/out" || fail "run --help --foo: exit $?"

# --help: exit 0 on stdout, every long option of the synopsis listed with
# its help on the same line or, past the column, on the next one alone.
for cmd in run convert bench topology calibrate import geometry validate report \
	compare sweep index diff list costs sensitivity advise kernel-table "gen audit" "gen smack17k" "gen hackbench"; do
	# shellcheck disable=SC2086
	"$SLABSIM" $cmd --help >"$tmp/help" 2>"$tmp/err" || fail "$cmd --help: exit $?"
	[ ! -s "$tmp/err" ] || fail "$cmd --help: wrote on stderr"
	for o in $(sed -n '/^usage:/,/^$/p' "$tmp/help" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -q -- "^  \(-., \)\?$o\b" "$tmp/help" || fail "$cmd --help does not list $o"
	done
	grep -q -- '^  -h, --help  *this text$' "$tmp/help" || fail "$cmd --help does not list itself"
	# "--name VALUEhelp text": a name as wide as the column, no space after it
	! grep -E -- '^  (-., )?--[a-z-]+ [A-Z][A-Za-z=]*[a-z]' "$tmp/help" ||
		fail "$cmd --help: an option runs into its help"
done
"$SLABSIM" gen audit --help >"$tmp/help"
grep -qx -- '  --profile-scale-permille S' "$tmp/help" ||
	fail "gen audit --help: --profile-scale-permille S is not on a line of its own"

# the two new commands' own usage errors, and a bad --map names the valid ones
usage_err diff "want two run directories, RUN_A RUN_B" a
usage_err diff "want two run directories, got a third: 'c'" a b c
usage_err list "list what? one of: targets, models, workloads, steps"
usage_err list "unknown list 'bogus'; one of: targets, models, workloads, steps" bogus
usage_err run "bad value 'bogus' for --map (want identity, compact, scatter or fold)" --map bogus

echo "options.sh: ok"
