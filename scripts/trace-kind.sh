#!/bin/bash
# trace-kind.sh PATH - what `make sim TRACE=PATH` was given (workloads/
# import/import.mk, docs/own-trace.md), one word on stdout:
#   capture   a `make capture` directory (capture.ftrace.zst or trace.dat)
#   slabsim   a slabsim trace, text or binary, plain or zstd
#   dat       a trace-cmd trace.dat
#   text      anything else: ftrace, trace-cmd report or perf script text
# Exit 1 with a message when PATH is missing or unreadable.
set -euo pipefail
p=${1:?usage: trace-kind.sh PATH}
if [ -d "$p" ]; then
	if [ -e "$p/capture.ftrace.zst" ] || [ -e "$p/trace.dat" ]; then
		echo capture
		exit 0
	fi
	echo "trace-kind.sh: $p: a directory without capture.ftrace.zst or trace.dat" >&2
	exit 1
fi
[ -r "$p" ] || { echo "trace-kind.sh: $p: not readable" >&2; exit 1; }
head8() { od -An -tx1 -N8 | tr -d ' \n'; }
magic=$(head8 < "$p")
if [ "${magic:0:8}" = 28b52ffd ]; then # zstd: look inside
	magic=$(zstd -dcq < "$p" 2> /dev/null | head8 || true)
	first=$(zstd -dcq < "$p" 2> /dev/null | head -c 13 | tr -d '\000' || true)
else
	first=$(head -c 13 < "$p" | tr -d '\000')
fi
case $magic in
8953425*) echo slabsim ;;  # \x89SBT binary trace
17084474*) echo dat ;;     # \x17\x08D tracing (trace-cmd)
*) [ "$first" = slabsim-trace ] && echo slabsim || echo text ;;
esac
