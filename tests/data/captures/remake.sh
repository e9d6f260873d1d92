#!/bin/bash
# remake.sh - the captures checked in here (README.md), made again:
#
#   remake.sh capture NAME 'CMD'   capture CMD with `make capture` (root),
#                                  keep the files a replay reads, readable
#   remake.sh expect [NAME...]     each capture's expected kernel table:
#                                  the kernel.csv `make sim TRACE=` writes
#                                  of it today (all captures by default)
#
# The traces are compressed again at zstd -19 (the same text; meta's
# capture_bytes stays the size make capture wrote).  Environment: SETTLE
# (make capture's, default 3 here: a short window keeps the file small),
# QUIET (capture: wait, 30 min at most, until the machine makes fewer kmem
# events a second than this, default 60000: the background is most of a
# small capture), MAX_EVENTS (capture: make it again, 20 times at most,
# while it has more events than this, default 600000); PAGE_FREES
# (make capture's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
die() { echo "remake.sh: $*" >&2; exit 1; }
# the files the replay of `make sim TRACE=` reads (workloads/import/
# import.mk); not the slabinfo copies (slab-*.txt have their counts) nor
# slab-fill-after.txt (the report's CPU slabs' free slots at the end, as
# big as slab-fill-before.txt: ~1 MB where a cache has 15,000 partial slabs)
KEEP="meta capture.ftrace.zst walk.ftrace.zst slab-before.txt slab-after.txt
slab-fill-before.txt slab-fill-start.txt slab-pages-start.txt"

# the machine's kmem events in one second, from a tracing instance of its own
rate() {
	local inst=/sys/kernel/tracing/instances/slabsim-rate-$BASHPID e n=0 f key val
	# (called as $(rate): a subshell of its own, its traps too)
	trap 'rmdir "$inst" 2> /dev/null; exit 1' INT TERM HUP
	mkdir "$inst"
	echo 1024 > "$inst/buffer_size_kb"
	# (and the page frees, which a capture records unless PAGE_FREES=0:
	# a process that ends frees its pages, a big one a million)
	for e in kmalloc kfree kmem_cache_alloc kmem_cache_free $([ "${PAGE_FREES:-1}" = 0 ] || echo mm_page_free); do
		echo 1 > "$inst/events/kmem/$e/enable"
	done
	sleep 1
	echo 0 > "$inst/tracing_on"
	for f in "$inst"/per_cpu/cpu*/stats; do
		while IFS=: read -r key val; do
			case $key in entries | overrun) n=$((n + val)) ;; esac
		done < "$f"
	done
	rmdir "$inst"
	echo "$n"
}

case ${1:-} in
capture)
	[ $# = 3 ] || die "usage: remake.sh capture NAME 'CMD'"
	name=$2 cmd=$3
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	quiet=${QUIET:-60000} max=${MAX_EVENTS:-600000}
	for try in $(seq 20); do
		for _ in $(seq 1800); do
			r=$(rate)
			[ "$r" -ge "$quiet" ] || break
		done
		echo "remake.sh: $r kmem events a second before the capture"
		make -s -C "$root" capture CAPTURE_DIR="$tmp" NAME="$name" SETTLE="${SETTLE:-3}" FORCE=1 CMD="$cmd"
		events=$(sed -n 's/^events=//p' "$tmp/$name/meta")
		[ "$events" -gt "$max" ] || break
		echo "remake.sh: $events events, more than $max (MAX_EVENTS): again ($try of 20)"
		[ "$try" -lt 20 ] || die "no capture of $max events or fewer in 20 tries"
	done
	rm -rf "${here:?}/$name.new"
	mkdir "$here/$name.new"
	for f in $KEEP; do
		[ -e "$tmp/$name/$f" ] || continue
		case $f in
		*.zst) zstd -dcq "$tmp/$name/$f" | zstd -q -19 -T2 -c > "$here/$name.new/$f" ;;
		*) cp "$tmp/$name/$f" "$here/$name.new/" ;;
		esac
	done
	chmod 755 "$here/$name.new"
	chmod 644 "$here/$name.new"/*
	rm -rf "${here:?}/$name"
	mv "$here/$name.new" "$here/$name"
	du -sh "$here/$name"
	;;
expect)
	shift
	[ $# -gt 0 ] || set -- $(cd "$here" && for d in */meta; do echo "${d%/meta}"; done)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for name; do
		[ -e "$here/$name/meta" ] || die "$here/$name: no capture"
		make -s -C "$root" --no-print-directory sim TRACE="$here/$name" MODELS=traced \
			DATA="$tmp/$name/data" REPORT="$tmp/$name/report" > "$tmp/$name.log" 2>&1 ||
			{ tail -20 "$tmp/$name.log"; die "make sim TRACE=$here/$name failed"; }
		cp "$tmp/$name/report/kernel.csv" "$here/$name/expected-kernel.csv"
		chmod 644 "$here/$name/expected-kernel.csv"
		echo "remake.sh: $name/expected-kernel.csv: $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["held"] == 1 { n++; w += $c["within"] } END { print n + 0 " held caches, " w + 0 " within" }' "$here/$name/expected-kernel.csv")"
	done
	;;
*) die "usage: remake.sh capture NAME 'CMD' | remake.sh expect [NAME...]" ;;
esac
