#!/bin/bash
# bad_input.sh - the bad-input catalogue of docs/bad-input.md: every row of
# its table is run (the command of the file's area, see the doc) and must
# exit as the row says, print the row's message, and leave no output behind.
# Then the cases that are not file contents: missing, unreadable and
# directory inputs, a full disk (tmpfs) and a file size limit while writing
# results, a failing summary.json, bad option values.
. "$(dirname "$0")/lib/common.bash"
bad=$root/tests/bad
doc=$root/docs/bad-input.md
mnt=
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

printf 'slabsim-trace 1\na 0 1 s kmalloc 8\n' >"$tmp/ok.trace"
RUN=(--model traced --target x86_64-6.x)

# run_case AREA FILE OUTDIR [OPTIONS...]: the area's command; exit status out
run_case() {
	local area=$1 file=$2 out=$3
	shift 3
	case $area in
	trace) "$S" run --trace "$file" "${RUN[@]}" --cpus 4 --out "$out" "$@" ;;
	smack) "$S" gen smack17k --from-rules "$file" --variant ref -o "$out/t.trace" \
		--write-rules "$out/r.rules" "$@" ;;
	costs) "$S" run --trace "$tmp/ok.trace" "${RUN[@]}" --costs "$file" --out "$out" "$@" ;;
	target) "$S" run --trace "$tmp/ok.trace" --model traced --target "$file" --out "$out" "$@" ;;
	topology) "$S" run --trace "$tmp/ok.trace" "${RUN[@]}" --topology "synth:$(cat "$file")" \
		--out "$out" "$@" ;;
	import) "$S" import -o "$out/t.trace" "$file" "$@" ;;
	place) "$S" run --trace "$tmp/ok.trace" "${RUN[@]}" --place "$file" --out "$out" "$@" ;;
	kernel) mkdir -p "$out.rep" && cp "$file" "$out.rep/kernel.csv" &&
		"$S" kernel-table --out "$out" "$out.rep" "$@" ;;
	*) fail "unknown area '$area'" ;;
	esac
}

# expect_fail_in DIR WHAT EXIT MESSAGE CMD...: exit status, message on
# DIR.err, nothing left in DIR (the command's output directory, made
# anew with mode $out_mode when set).  Builtins
# only besides the command: the catalogue runs it a hundred times.
shopt -s nullglob dotglob
expect_fail_in() {
	local dir=$1 what=$2 want=$3 msg=$4 rc out=''
	local -a left
	shift 4
	[ -d "$dir" ] && rm -rf "$dir"
	mkdir "$dir"
	[ -z "${out_mode:-}" ] || chmod "$out_mode" "$dir"
	set +e
	"$@" >/dev/null 2>"$dir.err"
	rc=$?
	set -e
	read -rd '' out <"$dir.err" || true
	[ "$rc" -eq "$want" ] || fail "$what: exit $rc, want $want: $out"
	[[ $out == *"$msg"* ]] || fail "$what: stderr lacks '$msg': $out"
	left=("$dir"/* "$dir".tmp.*)
	[ ${#left[@]} -eq 0 ] || fail "$what: left behind: ${left[*]}"
	[[ $out == *AddressSanitizer* || $out == *"runtime error"* ]] && fail "$what: sanitizer report"
	return 0
}
expect_fail() { expect_fail_in "$tmp/o" "$@"; cp "$tmp/o.err" "$tmp/err"; }

# One catalogue row, in its own directory $tmp/row-N.  "@bad/" in the
# options stands for tests/bad/ (a format file that goes with a capture).
check_row() {
	local n=$1 file=$2 opts=${3//@bad\//$bad/} code=$4 msg=$5 area=${2%%/*} out=$tmp/row-$1
	local -a optv
	read -ra optv <<<"$opts"
	if [ "$code" -eq 0 ]; then
		mkdir "$out"
		run_case "$area" "$bad/$file" "$out" "${optv[@]}" >/dev/null 2>"$out.err" ||
			fail "$file: exit $?, want 0: $(cat "$out.err")"
		cp -r "$out" "$tmp/ok-$(basename "$file")"
	else
		expect_fail_in "$out" "$file" "$code" "$msg" run_case "$area" "$bad/$file" "$out" "${optv[@]}"
	fi
}

# A table cell without its padding and one pair of backticks, into $cell.
strip() {
	cell=$1
	cell=${cell#"${cell%%[! ]*}"} cell=${cell%"${cell##*[! ]}"}
	cell=${cell#\`} cell=${cell%\`}
}

# ---- the catalogue table -----------------------------------------------------
# Rows run four at a time (each slabsim start costs ~0.2 s under ASan).
n=0
declare -A listed
while IFS='|' read -r _ file opts code msg _; do
	strip "$file"; file=$cell
	strip "$opts"; opts=$cell
	strip "$code"; code=$cell
	strip "$msg"; msg=$cell
	[ -f "$bad/$file" ] || fail "catalogue row for missing file tests/bad/$file"
	listed[$file]=1
	n=$((n + 1))
	check_row $n "$file" "$opts" "$code" "$msg" 2>"$tmp/row-$n.fail" &
	if [ $((n % 4)) -eq 0 ]; then wait; fi
done < <(grep -E '^\| `(trace|smack|costs|target|topology|import|place|kernel)/' "$doc")
wait
cat /dev/null "$tmp"/row-*.fail >"$tmp/fails"
[ -s "$tmp/fails" ] && fail "catalogue: $(cat "$tmp/fails")"
[ $n -ge 70 ] || fail "only $n catalogue rows in $doc"
for f in "$bad"/{trace,smack,costs,target,topology,import,place,kernel}/*; do
	rel=${f#"$bad"/}
	[ -n "${listed[$rel]:-}" ] || fail "tests/bad/$rel has no row in docs/bad-input.md"
done

# Names that need quoting everywhere (variant a,b"c\d #e, cache my,cache"1,
# site #site2, phase ../../escaped): every result file passes the strict
# readers (tests/fuzz/strict.h), the names come back whole, and the phase
# snapshot stays inside the directory.
esc=$tmp/ok-escaped_names.trace
chk=$(dirname "$S")/tests/check_outputs
"$chk" "$esc" >/dev/null || fail "escaped names: $("$chk" "$esc" 2>&1)"
row=$(head -2 "$esc/summary.csv" | tail -1)
[[ $row == '"#w,x","a,b""c\d #e",kmem_cache,-,'* ]] || fail "escaped summary row: $row"
grep -qF '"variant": "a,b\"c\\d #e"' "$esc/summary.json" || fail "summary.json variant: $(grep variant "$esc/summary.json")"
grep -qF '"s,ite""1",24,' "$esc/caches.csv" || fail "caches.csv: cache name not quoted: $(cat "$esc/caches.csv")"
[ -f "$esc/slabinfo.2-.._.._escaped" ] || fail "phase ../../escaped: $(ls "$esc")"
[ ! -e "$tmp/escaped" ] || fail "a phase name wrote outside the run directory"
# SLUB merging: siteB (24 bytes) joins siteA's cache (20 bytes); the
# kernel's __kmem_cache_alias() grows object_size to 24, so rounding is
# 48 - 44 = 4 bytes, not 2^64 - 4
sum=$tmp/ok-merge_alias.trace/summary.csv
[ "$(col "$sum" rounding_bytes)" = 4 ] || fail "merged caches: rounding_bytes $(col "$sum" rounding_bytes)"
"$chk" "$tmp/ok-merge_alias.trace" >/dev/null || fail "merged caches: $("$chk" "$tmp/ok-merge_alias.trace" 2>&1)"

# ZERO_SIZE_PTR and kmalloc_large: 0 bytes is no object and no memory,
# 8193 bytes is get_order(8193) = 2: four pages from the page allocator.
sum=$tmp/ok-size_zero_and_large.trace/summary.csv
[ "$(col "$sum" large_bytes)" = 16384 ] || fail "8193-byte kmalloc_large: large_bytes $(col "$sum" large_bytes)"
[ "$(col "$sum" requested_bytes)" = 8193 ] || fail "requested_bytes $(col "$sum" requested_bytes)"
[ "$(col "$sum" live_objects)" = 1 ] || fail "ZERO_SIZE_PTR counted as an object"
[ "$(col "$sum" alloc_ops)" = 2 ] || fail "alloc_ops $(col "$sum" alloc_ops)"

# The whole slub_debug-style report, once: cache, object, tracks, fix.
set +e
"$S" run --trace "$bad/trace/double_free_cache.trace" "${RUN[@]}" --cpus 4 --out "$tmp/o" 2>"$tmp/err"
set -e
cat >"$tmp/want" <<EOF
slabsim run: $bad/trace/double_free_cache.trace:5: BUG smack_rule (slabsim): Object already free
Object id 1: 20 bytes requested, a 20-byte object
Allocated in smk_set_access:rule cpu=2
Freed cpu=3
FIX smack_rule: Object id 1 not freed
EOF
diff "$tmp/want" "$tmp/err" >&2 || fail "double free report differs"

# ---- inputs that are not there, not readable, not files ----------------------
for area in trace smack costs target import; do
	expect_fail "$area: missing file" 1 "No such file or directory" run_case $area "$tmp/nonexistent" "$tmp/o"
	grep -qF "$tmp/nonexistent" "$tmp/err" || fail "$area: missing file not named: $(cat "$tmp/err")"
done
for area in trace smack costs import; do
	expect_fail "$area: a directory" 1 "read error: Is a directory" run_case $area "$tmp" "$tmp/o"
done
expect_fail "target: a directory" 1 "read error: Is a directory" run_case target "$tmp/" "$tmp/o"
: >"$tmp/empty.rules"
run_case smack "$tmp/empty.rules" "$tmp/o" >/dev/null 2>&1 || fail "an empty rule file is a valid load of nothing"
rm -f "$tmp/o/t.trace" "$tmp/o/r.rules"

# Unreadable: root reads anything, so as root the cases run as nobody
# (65534), on copies nobody can read in $tmp: the binary, the data it
# finds beside it (allocators/targets, allocators/costs) and the inputs.
# The checkout may sit in a folder nobody may enter (a clone in a 0700
# directory), so nothing of it is run or read as nobody.
as_user=() us=$S ok_in=$root/tests/bad/trace/size_zero_and_large.trace
if ! has_root; then
	as_user=(env)
elif has_cmd setpriv; then
	pub=$tmp/pub
	mkdir -p "$pub/build" "$pub/allocators"
	cp "$S" "$pub/build/slabsim"
	cp -r "$root/allocators/targets" "$root/allocators/costs" "$pub/allocators/"
	cp "$ok_in" "$pub/ok_in.trace"
	# the sanitizer pass's LeakSanitizer suppressions, copied the same way
	lsan=${LSAN_OPTIONS:-}
	if [[ $lsan =~ suppressions=([^:]*) ]]; then
		cp "${BASH_REMATCH[1]}" "$pub/lsan.supp"
		lsan=${lsan/"${BASH_REMATCH[1]}"/$pub/lsan.supp}
	fi
	chmod -R a+rX "$pub"
	chmod 755 "$tmp"
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups env LSAN_OPTIONS="$lsan")
	us=$pub/build/slabsim ok_in=$pub/ok_in.trace
	"${as_user[@]}" "$us" --version >/dev/null 2>"$tmp/err" ||
		{ skip_part_unless_ci "unreadable-file cases: nobody cannot run $us: $(cat "$tmp/err")"; as_user=(); }
else
	skip_part_unless_ci "unreadable-file cases: root without setpriv (util-linux)"
fi
if [ ${#as_user[@]} -gt 0 ]; then
	for f in locked.rules locked.costs locked.target locked.txt; do
		cp "$tmp/ok.trace" "$tmp/$f" && chmod 000 "$tmp/$f"
	done
	chmod 000 "$tmp/ok.trace"
	# the output directory and its parent (where the run stages its files)
	# writable: each failure is the input's, and its message names the
	# file nobody could not read
	mkdir -m 1777 "$tmp/w"
	out_mode=777
	expect_fail_in "$tmp/w/o" "trace: unreadable" 1 "$tmp/ok.trace: cannot open trace: Permission denied" \
		"${as_user[@]}" "$us" run --trace "$tmp/ok.trace" "${RUN[@]}" --out "$tmp/w/o"
	expect_fail_in "$tmp/w/o" "smack: unreadable" 1 "$tmp/locked.rules: cannot open rule file: Permission denied" \
		"${as_user[@]}" "$us" gen smack17k --from-rules "$tmp/locked.rules" --variant ref -o "$tmp/w/o/t.trace"
	expect_fail_in "$tmp/w/o" "costs: unreadable" 1 "$tmp/locked.costs: cannot open cost table: Permission denied" \
		"${as_user[@]}" "$us" run --trace "$ok_in" "${RUN[@]}" --costs "$tmp/locked.costs" --out "$tmp/w/o"
	expect_fail_in "$tmp/w/o" "target: unreadable" 1 "$tmp/locked.target: cannot open: Permission denied" \
		"${as_user[@]}" "$us" run --trace "$ok_in" --model traced --target "$tmp/locked.target" --out "$tmp/w/o"
	expect_fail_in "$tmp/w/o" "import: unreadable" 1 "$tmp/locked.txt: cannot open capture: Permission denied" \
		"${as_user[@]}" "$us" import -o "$tmp/w/o/t.trace" "$tmp/locked.txt"
	chmod 644 "$tmp/ok.trace"
	out_mode=
fi

# ---- writing results fails ----------------------------------------------------
# 30 phases: 30 slabinfo snapshots, more than a 16 KiB disk holds and more
# than the 16 files an earlier cmd_run.c could remember to remove.
big=$tmp/phases.trace
{ echo 'slabsim-trace 1'; for i in $(seq 1 30); do echo "p ph$i"; echo "a 0 $i s$i kmalloc $((i * 40))"; done; } >"$big"
full=$tmp/full
mkdir "$full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=16k slabsim-full "$full" 2>/dev/null; then
	mnt=$full
	set +e
	"$S" run --trace "$big" "${RUN[@]}" --out "$full/o" >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	[ $rc -eq 1 ] || fail "full disk: exit $rc: $(cat "$tmp/err")"
	grep -q "write failed: No space left on device" "$tmp/err" || fail "full disk message: $(cat "$tmp/err")"
	[ -z "$(ls -A "$full/o")" ] || fail "full disk: left behind: $(ls -A "$full/o")"
	rmdir "$full/o"
	# gen smack17k: trace and rule file both, or neither
	set +e
	"$S" gen smack17k --rules 2000 --labels 100 --variant ref -o "$full/t.trace" \
		--write-rules "$full/r.rules" >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	[ $rc -eq 1 ] || fail "gen on a full disk: exit $rc"
	grep -q "No space left on device" "$tmp/err" || fail "gen full disk message: $(cat "$tmp/err")"
	[ -z "$(ls -A "$full")" ] || fail "gen full disk: left behind: $(ls -A "$full")"
	umount "$full" && mnt=
elif ! has_root; then
	skip_part_unless_ci "full-disk cases: a tmpfs mount needs root"
else
	skip_part_unless_ci "full-disk cases: mount -t tmpfs failed"
fi
# RLIMIT_FSIZE: a result file above 4 KiB (timeline.csv, one row per event
# here) fails with EFBIG (SIGXFSZ ignored: an inherited SIG_IGN survives exec).
set +e
{ echo 'slabsim-trace 1'; for i in $(seq 1 300); do echo "a 0 $i s kmalloc 64"; done; } >"$tmp/long.trace"
( trap '' XFSZ; ulimit -f 4; exec "$S" run --trace "$tmp/long.trace" "${RUN[@]}" --sample-every 1 --out "$tmp/o" ) >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "file size limit: exit $rc: $(cat "$tmp/err")"
grep -q "write failed: File too large" "$tmp/err" || fail "file size limit message: $(cat "$tmp/err")"
[ -z "$(ls -A "$tmp/o" | grep -v '^$')" ] || fail "file size limit: left behind: $(ls -A "$tmp/o")"
# An output directory holding what no run writes (here a directory named
# summary.json) is not replaced, and not touched.
rm -rf "$tmp/o" && mkdir -p "$tmp/o/summary.json"
set +e
"$S" run --trace "$tmp/ok.trace" "${RUN[@]}" --out "$tmp/o" >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "summary.json directory: exit $rc"
grep -q "holds 'summary.json', which no run writes" "$tmp/err" || fail "summary.json directory message: $(cat "$tmp/err")"
[ "$(ls -A "$tmp/o")" = summary.json ] || fail "summary.json directory: left behind: $(ls -A "$tmp/o")"
# the rule file cannot go into place after the trace did: the trace goes too
rm -rf "$tmp/o" && mkdir -p "$tmp/o/r.rules"
set +e
"$S" gen smack17k --rules 20 --labels 10 --variant ref -o "$tmp/o/t.trace" \
	--write-rules "$tmp/o/r.rules" >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "rules rename failure: exit $rc"
[ "$(ls -A "$tmp/o")" = r.rules ] || fail "rules rename failure: left behind: $(ls -A "$tmp/o")"
rmdir "$tmp/o/r.rules"
# more phase snapshots than any fixed list: all removed when the run fails
{ cat "$big"; echo "f 0 999"; } >"$tmp/phases_bad.trace"
expect_fail "31 snapshots then a bad free" 1 "never allocated" \
	"$S" run --trace "$tmp/phases_bad.trace" "${RUN[@]}" --out "$tmp/o"

# ---- bad option values: usage, exit 2 -----------------------------------------
for case in "--max-memory 0" "--max-memory -1" "--max-memory 12Q" "--max-memory 1e3" \
	"--max-memory 2000T" "--max-objects 0" "--cpus 99999"; do
	read -r opt v <<<"$case"
	expect_fail "$opt '$v'" 2 "bad value '$v' for $opt" \
		"$S" run --trace "$tmp/ok.trace" "${RUN[@]}" --out "$tmp/o" "$opt" "$v"
done
# the unit suffixes of --max-memory: 300K lets the 33rd 8 KiB object through
# (9 slabs of 32 KiB = 288 KiB), 256K does not
rm -rf "$tmp/o"
"$S" run --trace "$bad/trace/too_much_memory.trace" "${RUN[@]}" --max-memory 3M --out "$tmp/o" >/dev/null ||
	fail "100 x 8 KiB under --max-memory 3M"
expect_fail "--max-memory 300K" 1 "too_much_memory.trace:38: simulated memory reached 327680 bytes" \
	"$S" run --trace "$bad/trace/too_much_memory.trace" "${RUN[@]}" --max-memory 300K --out "$tmp/o"

echo "bad_input: $n catalogue rows and the special cases ok"
