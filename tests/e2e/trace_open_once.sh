#!/bin/bash
# trace_open_once.sh - `slabsim run` opens its trace file once, however
# many readings its runs need (a pre-pass for site sizes and prior frees,
# then the replay: the same descriptor rewound), alone or as a set.
. "$(dirname "$0")/lib/common.bash"
need_cmd strace
"$S" import --cpus 2 -o "$tmp/cap.trace" "$root/tests/data/import/ls-etc-6.18.ftrace.zst" \
	>/dev/null || fail "import"
opens() { # the openat calls of the trace file by "$S run ARGS"
	# (LeakSanitizer cannot run under ptrace: the sanitizer pass's leak
	# check is left to the other tests)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -e trace=openat -o "$tmp/strace" "$S" run --trace "$tmp/cap.trace" "$@" --quiet \
		>/dev/null || fail "run $*"
	grep -c "\"$tmp/cap.trace\"" "$tmp/strace" || true
}
snap=$root/tests/data/slab/proc-slabinfo-6.18.txt
expect_eq "opens, one run" "$(opens --model kmem_cache --target x86_64-6.x --initial-state "$snap" \
	--out "$tmp/one")" 1
expect_eq "opens, three runs" "$(opens --model "traced kmem_cache traced+P" --target x86_64-6.x \
	--initial-state "$snap" --jobs 2 --out "$tmp/set/%m")" 1
echo "trace_open_once: ok"
