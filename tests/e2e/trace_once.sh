#!/bin/bash
# trace_once.sh - a trace is read as its user gave it, once: an imported
# capture replayed from a file, from standard input and from a FIFO gives
# the same run (its meta cpus, its prior frees counted by the pre-pass),
# alone and with other runs, and a FIFO does not hang.
. "$(dirname "$0")/lib/common.bash"
"$S" import --cpus 2 -o "$tmp/cap.trace" "$root/tests/data/import/ls-etc-6.18.ftrace.zst" \
	>/dev/null || fail "import"
snap=$root/tests/data/slab/proc-slabinfo-6.18.txt
args=(--model traced --target x86_64-6.x --initial-state "$snap" --quiet)
"$S" run --trace "$tmp/cap.trace" "${args[@]}" --out "$tmp/path" || fail "run, by path"
expect_eq "CPUs, by path" "$(col "$tmp/path/summary.csv" cpus)" 2
same_as_path() { # DIR (kernel.txt names the trace each run read: the rest of it is the same)
	for f in "$tmp/path"/*; do
		if [ "$(basename "$f")" = kernel.txt ]; then
			diff <(grep -v '^trace=' "$f") <(grep -v '^trace=' "$1/kernel.txt") >/dev/null ||
				fail "$1: kernel.txt differs from the file's beyond its trace="
		else
			cmp -s "$f" "$1/$(basename "$f")" || fail "$1: $(basename "$f") differs from the file's"
		fi
	done
}
"$S" run --trace - "${args[@]}" --out "$tmp/stdin" <"$tmp/cap.trace" || fail "run, standard input"
same_as_path "$tmp/stdin"
# (the writer is killed if the run never opens the FIFO)
mkfifo "$tmp/fifo"
cat "$tmp/cap.trace" >"$tmp/fifo" &
writer=$!
trap 'kill "$writer" 2>/dev/null || true; rm -rf "$tmp"' EXIT
timeout 60 "$S" run --trace "$tmp/fifo" "${args[@]}" --out "$tmp/fifo-run" || fail "run, a FIFO"
wait
same_as_path "$tmp/fifo-run"
# several runs from standard input: each the run it is alone
"$S" run --trace - --model "traced kmem_cache" --target x86_64-6.x --initial-state "$snap" --quiet \
	--out "$tmp/set/%m" <"$tmp/cap.trace" || fail "two runs, standard input"
same_as_path "$tmp/set/traced"
echo "trace_once: ok"
