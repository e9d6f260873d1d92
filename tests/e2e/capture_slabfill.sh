#!/bin/bash
# capture_slabfill.sh - build/slab-fill (capture/slabfill.c) against the
# kernel's own counts, as make capture runs it: one `slab-fill --serve`,
# its program loaded once, then reads on request.
#
# Every check compares reads of lists that change while they are read
# (the node and CPU partial lists, freelists: walked without their locks,
# as count_partial() reads them), so a check holds only what those races
# leave exact, whatever the machine's load:
# - a cache's node partial slabs (n lines) are sysfs `partial`
#   (n->nr_partial), and its CPU slabs (c and p lines) sysfs `cpu_slabs`
#   (an active slab per CPU plus the head CPU partial slab's `slabs`,
#   show_slab_objects(), mm/slub.c 6.18), in a round where its sysfs count
#   was the same just before and just after the fill was read.  A cache
#   can change and change back between those reads (the busiest do, every
#   few microseconds), so over five rounds a cache fails only when its
#   count held still across all five and the fill never agreed with it: a
#   reader of the wrong list or field misses every time, a race of a
#   cache at one count a fraction p of the time all five with p^2 (1 - p)
#   <= 4/27 each, < 1e-4;
# - a slab whose line is the same in two reads was read whole both times:
#   its free objects' bitmap counts objects - inuse (a partial slab), or
#   CPUFREE + objects - inuse (an active slab: its CPU freelist and its
#   own), and an active slab's CPU freelist was walked (not '-').
# - a cache's sheaves (6.18+): every cache sysfs gives a sheaf_capacity
#   has one s line per possible CPU and a b line per node, no sheaf over
#   its capacity, no barn's objects over its full sheaves' room; a cache
#   without (6.18: those that did not ask) has neither.
# Needs root, SLUB, build/slab-fill and the kmem_cache iterator (6.13+):
# SKIP (exit 77) otherwise.
. "$(dirname "$0")/lib/common.bash"
declare -F skip > /dev/null || skip() { echo "SKIP: $*"; exit 77; }
F=${SLAB_FILL:-$(dirname "$S")/slab-fill}

[ "$(id -u)" = 0 ] || skip "not root"
[ -d /sys/kernel/slab ] || skip "no /sys/kernel/slab (not SLUB)"
[ -x "$F" ] || skip "no $F (make build/slab-fill: clang and libbpf, make deps)"

# usage
expect_rc 2 "$F"
expect_rc 0 "$F" --help
has "$tmp/out" "--serve"

# the server: requests on one FIFO, replies on another
mkfifo "$tmp/in" "$tmp/reply"
exec {w}<> "$tmp/in"
"$F" --serve < "$tmp/in" > "$tmp/reply" {w}>&- &
pid=$!
trap 'kill "$pid" 2> /dev/null || true; rm -rf "$tmp"' EXIT
exec {r}< "$tmp/reply"
read -r line <&"$r" || fail "slab-fill --serve said nothing"
case $line in
ok) ;;
"error "*"refused the BPF program"* | "error cannot attach"*) skip "no kmem_cache iterator here: ${line#error }" ;;
*) fail "slab-fill --serve: '$line'" ;;
esac
req() { printf '%s\n' "$1" >&"$w"; reply=""; read -r reply <&"$r" || fail "no reply to '$1'"; }

req "pages $tmp/pages.txt"
expect_eq "pages" "$reply" ok
head -1 "$tmp/pages.txt" | grep -Eq '^slabsim-slabpages 1 frames=[1-9][0-9]* slab=[1-9][0-9]* runs=[1-9][0-9]*$' ||
	fail "pages: $(head -1 "$tmp/pages.txt")"
req "bogus request"
case $reply in "error unknown request 'bogus request'"*) ;; *) fail "a bad request: '$reply'" ;; esac
req "fill $tmp/no/such/dir/x.txt"
case $reply in "error $tmp/no/such/dir/x.txt"*) ;; *) fail "an unwritable OUT: '$reply'" ;; esac
# one read for the cache names
req "fill $tmp/f0.txt"
expect_eq "fill" "$reply" ok
grep '^cache=' "$tmp/f0.txt" | cut -d= -f2- > "$tmp/names"
[ "$(wc -l < "$tmp/names")" -gt 10 ] || fail "fill: $(wc -l < "$tmp/names") caches"

# sysfs_counts ATTR: "NAME COUNT" for every cache named (each name is a
# directory or an alias link of /sys/kernel/slab)
sysfs_counts() {
	local name v
	while IFS= read -r name; do
		{ read -r v _ < "/sys/kernel/slab/$name/$1"; } 2> /dev/null || continue
		printf '%s %s\n' "$name" "$v"
	done < "$tmp/names"
}
# round ATTR KINDS BEFORE AFTER FILL: "NAME held|moved agree|differ"
# for every cache with a non-zero sysfs count before: did its count hold
# across the fill's read, and does the fill have as many lines of KINDS
round() {
	awk -v kinds="$2" '
		FILENAME == ARGV[1] { before[$1] = $2; next }
		FILENAME == ARGV[2] { after[$1] = $2; next }
		/^cache=/ { name = substr($0, 7); lines[name] += 0; next }
		index(kinds, substr($0, 1, 1)) && substr($0, 2, 1) == " " { lines[name]++ }
		END {
			for (c in lines)
				if ((c in before) && before[c] > 0)
					print c, before[c] == after[c] ? "held" : "moved",
					      lines[c] == before[c] ? "agree" : "differ", before[c], lines[c]
		}' "$3" "$4" "$5"
}
for attr in partial:n cpu_slabs:cp; do
	kinds=${attr#*:} attr=${attr%:*}
	: > "$tmp/rounds"
	for _ in 1 2 3 4 5; do
		sysfs_counts "$attr" > "$tmp/s1"
		req "fill $tmp/f.txt"
		expect_eq "fill" "$reply" ok
		sysfs_counts "$attr" > "$tmp/s2"
		round "$attr" "$kinds" "$tmp/s1" "$tmp/s2" "$tmp/f.txt" >> "$tmp/rounds"
	done
	# a cache fails when it held in all five rounds and never agreed
	read -r agreed failed < <(awk '
		$2 == "held" { held[$1]++; if ($3 == "agree") ok[$1] = 1; last[$1] = $4 " in sysfs, " $5 " in the fill" }
		END {
			for (c in held) {
				if (c in ok) agreed++
				else if (held[c] == 5) { failed++; print c ": " last[c] > "/dev/stderr" }
			}
			print agreed + 0, failed + 0
		}' "$tmp/rounds" 2> "$tmp/differ")
	[ "$failed" = 0 ] ||
		fail "$attr: $failed caches held still in five rounds and the fill never agreed: $(head -5 "$tmp/differ" | tr '\n' ';')"
	[ "$agreed" -gt 0 ] || fail "$attr: no cache held still and agreed in five rounds"
	echo "capture_slabfill.sh: $attr: $agreed caches agreed in a round where they held still, none held still in all five without"
done

# the same slab twice: its free objects as its counts say
req "fill $tmp/f1.txt"
req "fill $tmp/f2.txt"
awk '
	FNR == 1 { file++ }
	/^cache=/ { c = $0; next }
	/^[npc] / { seen[c SUBSEP $0] += file }
	END {
		for (k in seen) {
			if (seen[k] != 3) continue
			split(k, a, SUBSEP)
			nf = split(a[2], f, " ")
			bits = f[nf]
			n = 0
			for (i = 1; i <= length(bits); i++)
				for (d = index("0123456789abcdef", substr(bits, i, 1)) - 1; d > 0; d = int(d / 2))
					n += d % 2
			stable++
			if (f[1] == "c" && f[7] == "-") { bad++; print "CPU freelist not walked:", a[1], a[2]; continue }
			want = f[1] == "c" ? f[7] + f[6] - f[5] : f[6] - f[5]
			if (bits == "-" ? f[6] <= 512 : n != want) { bad++; print a[1], a[2], "free", n, "want", want }
		}
		printf "%d %d\n", stable, bad > "/dev/stderr"
		exit bad > 0
	}' "$tmp/f1.txt" "$tmp/f2.txt" > "$tmp/slabs-bad" 2> "$tmp/slabs-count" ||
	fail "slabs read the same twice whose free objects are not their counts: $(head -5 "$tmp/slabs-bad")"
read -r stable bad < "$tmp/slabs-count"
[ "$stable" -gt 0 ] || fail "no slab read the same twice"
echo "capture_slabfill.sh: $stable slabs read the same twice, their free objects as their counts say"

# the end of its input ends it, and its program with it
exec {w}>&-
for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2> /dev/null; then fail "slab-fill --serve still runs after the end of its input"; fi
wait "$pid" || fail "slab-fill --serve exited $?"
echo "capture_slabfill.sh: ok"

# ---- sheaves and barns (6.18+, version 4) ------------------------------------
if ls /sys/kernel/slab/*/sheaf_capacity > /dev/null 2>&1; then
	cpus=$(sed -n '1s/.* cpus=\([0-9]*\).*/\1/p' "$tmp/f1.txt")
	nodes=$(sed -n '1s/.* nodes=\([0-9]*\).*/\1/p' "$tmp/f1.txt")
	for c in /sys/kernel/slab/*; do
		[ -L "$c" ] && continue
		printf '%s %s\n' "$(basename "$c")" "$(cat "$c/sheaf_capacity")"
	done > "$tmp/caps"
	awk -v cpus="$cpus" -v nodes="$nodes" 'FNR == NR { cap[$1] = $2; next }
		/^cache=/ { name = substr($0, 7); next }
		/^s / { s[name]++; for (i = 3; i <= 5; i++) if ($i != "-" && $i + 0 > cap[name] + 0) print "over " name ": " $0; next }
		/^b / { b[name]++; if ($5 != "-" && $5 + 0 > $3 * cap[name]) print "barn " name ": " $0; next }
		END { for (n in cap) { want = cap[n] > 0
			if ((s[n] + 0 != (want ? cpus : 0)) || (b[n] + 0 != (want ? nodes : 0)))
				print "count " n ": " s[n] + 0 " s, " b[n] + 0 " b, capacity " cap[n] } }' \
		"$tmp/caps" "$tmp/f1.txt" | grep -v '^count .*capacity 0$' > "$tmp/sheafbad" || true
	# (a cache sysfs names that the iterator did not reach: none expected)
	[ ! -s "$tmp/sheafbad" ] || fail "sheaves: $(head -3 "$tmp/sheafbad" | tr '\n' ';')"
	n=$(awk '$2 > 0' "$tmp/caps" | wc -l)
	[ "$n" -gt 0 ] && grep -q '^s ' "$tmp/f1.txt" || fail "sheaves: $n caches with sheaves, no s line"
	echo "capture_slabfill.sh: sheaves: $n caches with sheaves, each with its CPUs' and nodes' lines"
fi
