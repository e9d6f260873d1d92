#!/bin/bash
# run_many.sh - decode once, replay many: `slabsim run` with several models
# or a run list gives each run exactly the files it gets alone, whatever
# the threads and whether the trace is a file, standard input or a FIFO;
# a run that fails leaves nothing and the others finish; a bad run list
# is a usage error naming its line.
. "$(dirname "$0")/lib/common.bash"
t=$tmp/hb.sbt
"$S" gen hackbench -g 2 -l 5 --cpus 4 -o "$t" >/dev/null 2>&1
for m in traced traced+P kmem_cache; do
	"$S" run --trace "$t" --model "$m" --target x86_64-4.6 --out "$tmp/one/$m" || fail "run $m"
done
"$S" run --trace "$t" --model "traced traced+P kmem_cache" --target x86_64-4.6 --out "$tmp/many/%m" ||
	fail "run, three models"
"$S" run --trace "$t" --model "kmem_cache traced traced+P" --target x86_64-4.6 --jobs 1 --out "$tmp/many1" ||
	fail "run, three models, one thread"
for m in traced traced+P kmem_cache; do
	diff -r "$tmp/one/$m" "$tmp/many/$m" >/dev/null || fail "$m: --model list differs from a run alone"
	diff -r "$tmp/one/$m" "$tmp/many1/$m" >/dev/null || fail "$m: --jobs 1 differs from a run alone"
done

# a run list: per-line targets and variants on top of the command line's
cat >"$tmp/runs" <<LIST
# two eras, one with slub_debug
--model traced --target x86_64-4.5 --variant 'none 4.5' --out $tmp/list/a
--model traced+P --target x86_64-6.1 --out "$tmp/list/b"

--model traced --target x86_64-4.6 --out $tmp/list/c  # the single run's twin
LIST
"$S" run --trace "$t" --runs "$tmp/runs" --jobs 2 || fail "run --runs"
"$S" run --trace "$t" --model traced --target x86_64-4.5 --variant 'none 4.5' --out "$tmp/alone-a"
"$S" run --trace "$t" --model traced+P --target x86_64-6.1 --out "$tmp/alone-b"
diff -r "$tmp/alone-a" "$tmp/list/a" >/dev/null || fail "run list line 2 differs from the run alone"
diff -r "$tmp/alone-b" "$tmp/list/b" >/dev/null || fail "run list line 3 differs from the run alone"
diff -r "$tmp/one/traced" "$tmp/list/c" >/dev/null || fail "run list line 5 differs from the run alone"

# one run over its memory cap: it fails and leaves nothing, the other runs finish
printf -- '--model traced --out %s/cap/ok\n--model traced --max-memory 64K --out %s/cap/bad\n' "$tmp" "$tmp" >"$tmp/runs2"
rc=0
"$S" run --trace "$t" --target x86_64-4.6 --runs "$tmp/runs2" 2>"$tmp/err" || rc=$?
expect_eq "exit, one run failed" "$rc" 1
grep -q "cap/bad: .*over the cap" "$tmp/err" || fail "no error naming the failed run: $(cat "$tmp/err")"
grep -q "1 of 2 runs failed" "$tmp/err" || fail "no count of failed runs"
[ -s "$tmp/cap/ok/summary.csv" ] || fail "the good run did not finish"
[ -z "$(ls -A "$tmp/cap/bad" 2>/dev/null)" ] || fail "the failed run left $(ls "$tmp/cap/bad")"

# bad lists: exit 2 naming the line
bad_list() { # MESSAGE LINE
	printf '%s\n' "$2" >"$tmp/bad"
	rc=0
	"$S" run --trace "$t" --target x86_64-4.6 --runs "$tmp/bad" 2>"$tmp/err" || rc=$?
	expect_eq "exit for '$2'" "$rc" 2
	grep -qF -- "$1" "$tmp/err" || fail "'$2': no '$1' in $(cat "$tmp/err")"
}
bad_list "bad:1: bad run" "--model traced --trace other --out x"
bad_list "bad:1: bad run" "--model traced"
bad_list "bad:1: unterminated quote" "--model 'traced --out x"
bad_list "no run in the list" "# nothing"
# two runs writing one --out: a usage error naming both, before any replay
bad_list "bad:3: --out $tmp/dup//./a/: line 1 writes there too" \
	"$(printf -- '--model traced --out %s/dup/a\n--model traced+P --out %s/dup/b\n--model kmem_cache --out %s/dup//./a/' "$tmp" "$tmp" "$tmp")"
[ -e "$tmp/dup" ] && fail "a run list writing one --out twice left $(ls -R "$tmp/dup")"
rc=0
"$S" run --trace "$t" --model "traced kmem_cache traced" --target x86_64-4.6 --out "$tmp/dupm/%m" 2>"$tmp/err" || rc=$?
expect_eq "exit, one model twice" "$rc" 2
grep -qF -- "--model 'traced' and 'traced' both write --out $tmp/dupm/traced" "$tmp/err" ||
	fail "one model twice: $(cat "$tmp/err")"
[ -e "$tmp/dupm" ] && fail "a model given twice left $(ls -R "$tmp/dupm")"
# standard input and a FIFO: the runs the file gives (read once; kept
# for a second reading where a run needs one: kmem_cache's site sizes)
"$S" run --trace - --model "traced traced+P kmem_cache" --target x86_64-4.6 --out "$tmp/stdin/%m" \
	<"$t" || fail "several runs from stdin"
mkfifo "$tmp/fifo"
cat "$t" >"$tmp/fifo" &
writer=$!
trap 'kill "$writer" 2>/dev/null || true; rm -rf "$tmp"' EXIT
timeout 120 "$S" run --trace "$tmp/fifo" --model "kmem_cache traced" --target x86_64-4.6 --jobs 2 \
	--out "$tmp/fifo-runs/%m" || fail "several runs from a FIFO"
wait
# (kernel.txt names the trace each run read: the rest of it is the same)
same_but_trace() { # DIR_A DIR_B
	diff -r --exclude=kernel.txt "$1" "$2" >/dev/null &&
		diff <(grep -v '^trace=' "$1/kernel.txt") <(grep -v '^trace=' "$2/kernel.txt") >/dev/null
}
for m in traced traced+P kmem_cache; do
	same_but_trace "$tmp/one/$m" "$tmp/stdin/$m" || fail "$m: standard input differs from the file"
done
for m in traced kmem_cache; do
	same_but_trace "$tmp/one/$m" "$tmp/fifo-runs/$m" || fail "$m: a FIFO differs from the file"
done
# binary version 1 is still read, and said to be unchecked; version 2 is not
rc=0
"$S" run --trace "$root/tests/bad/trace/double_free.sbt" --model traced --target x86_64-4.6 \
	--out "$tmp/v1" 2>"$tmp/err" || rc=$?
grep -q "binary trace version 1 carries no checksum: read unchecked" "$tmp/err" || fail "no unchecked note for version 1"
"$S" run --trace "$t" --model traced --target x86_64-4.6 --out "$tmp/v2" 2>"$tmp/err"
grep -q "unchecked" "$tmp/err" && fail "a version-2 trace said to be unchecked"
echo "run_many: ok"
