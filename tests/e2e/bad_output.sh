#!/bin/bash
# bad_output.sh - the rest of docs/bad-input.md's catalogue (issue 16):
# what is not a bad input file but a bad place to write, a bad moment or
# a bad combination: a full standard output, an output that is the input,
# a corrupted zstd trace, an output directory that held another run, a
# signal in the middle of a run, a line over 16 MiB, a position in a
# binary trace, host mode's memory cap, generators and bench naming files,
# a failed report, compare or sweep over an older one, `make clean`, plain
# `make`, a compile killed half-way.
. "$(dirname "$0")/lib/common.bash"
bad=$root/tests/bad
RUN=(--model traced --target x86_64-6.x --cpus 4)
printf 'slabsim-trace 1\na 0 1 s kmalloc 8\n' >"$tmp/ok.trace"
grep -v '^#' "$root/tests/data/import/pre-6.1.ftrace" >"$tmp/cap.txt"

# expect CODE MESSAGE CMD...: exit status CODE and MESSAGE on stderr
expect() {
	local want=$1 msg=$2 rc out
	shift 2
	set +e
	"$@" >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	out=$(cat "$tmp/err")
	[ "$rc" -eq "$want" ] || fail "$*: exit $rc, want $want: $out"
	[[ $out == *"$msg"* ]] || fail "$*: stderr lacks '$msg': $out"
	[[ $out == *AddressSanitizer* || $out == *"runtime error"* ]] && fail "$*: sanitizer report"
	return 0
}
# expect_out CODE MESSAGE CMD...: the same with stdout on /dev/full
expect_full() {
	local want=$1 msg=$2 rc
	shift 2
	set +e
	"$@" >/dev/full 2>"$tmp/err"
	rc=$?
	set -e
	[ "$rc" -eq "$want" ] || fail "$* >/dev/full: exit $rc, want $want: $(cat "$tmp/err")"
	grep -qF -- "$msg" "$tmp/err" || fail "$* >/dev/full: stderr lacks '$msg': $(cat "$tmp/err")"
}

# ---- standard output: every write checked, the last flush too ----------------
full="standard output: write failed: No space left on device"
expect_full 1 "slabsim import: $full" "$S" import -o "$tmp/i.trace" "$tmp/cap.txt"
expect_full 1 "slabsim geometry: $full" "$S" geometry --target x86_64-6.x --size 100
expect_full 1 "slabsim topology: $full" "$S" topology --topology synth:"pack:2 core:2 pu:2"
expect_full 1 "slabsim: $full" "$S" --help
expect_full 1 "slabsim convert: stdout: write failed: No space left on device" \
	"$S" convert "$tmp/ok.trace" - --to text
# a trace to a full disk names it and the errno, not the input's line
for g in "gen smack17k --rules 200 --labels 20 --variant ref" "gen audit --variant off" "gen hackbench"; do
	read -ra gv <<<"$g"
	expect 1 "slabsim ${gv[0]} ${gv[1]}: /dev/full: write failed: No space left on device" \
		"$S" "${gv[@]}" -o /dev/full
done
expect 1 "slabsim import: /dev/full: write failed: No space left on device" \
	"$S" import -o /dev/full "$tmp/cap.txt"
grep -qF "cap.txt:" "$tmp/err" && fail "import blamed the capture for a failed write: $(cat "$tmp/err")"
# both outputs or neither: totals (or the summary) that cannot be written
# take the trace with them, and a failed import leaves no older trace or
# totals that would pass for this capture's
"$S" import -o "$tmp/i.trace" --totals "$tmp/i.csv" "$tmp/cap.txt" >/dev/null
expect 1 "slabsim import: /dev/full: write failed: No space left on device" \
	"$S" import -o "$tmp/i.trace" --totals /dev/full "$tmp/cap.txt"
[ ! -e "$tmp/i.trace" ] || fail "import left its trace when the totals failed"
"$S" import -o "$tmp/i.trace" --totals "$tmp/i.csv" "$tmp/cap.txt" >/dev/null
expect_full 1 "slabsim import: $full" "$S" import -o "$tmp/i.trace" --totals "$tmp/i.csv" "$tmp/cap.txt"
[ ! -e "$tmp/i.trace" ] && [ ! -e "$tmp/i.csv" ] || fail "import left its outputs when the summary failed"
"$S" import -o "$tmp/i.trace" --totals "$tmp/i.csv" "$tmp/cap.txt" >/dev/null
expect 1 "no_such.txt: cannot open" "$S" import -o "$tmp/i.trace" --totals "$tmp/i.csv" "$tmp/no_such.txt"
[ ! -e "$tmp/i.trace" ] && [ ! -e "$tmp/i.csv" ] || fail "a failed import left the previous trace or totals"

# ---- an output that is the input ----------------------------------------------
cp "$tmp/cap.txt" "$tmp/keep.txt"
expect 2 "-o $tmp/keep.txt is the input" "$S" import -o "$tmp/keep.txt" "$tmp/keep.txt"
expect 2 "is the input" "$S" import -o "$tmp/./keep.txt" "$tmp/keep.txt"
expect 2 "--totals $tmp/keep.txt is the input" "$S" import -o "$tmp/i.trace" --totals "$tmp/keep.txt" "$tmp/keep.txt"
cmp -s "$tmp/cap.txt" "$tmp/keep.txt" || fail "import overwrote its capture"
printf 'a b r\n' >"$tmp/r.rules"
expect 2 "is the input --from-rules" "$S" gen smack17k --from-rules "$tmp/r.rules" --write-rules "$tmp/./r.rules"

# ---- zstd traces carry a content checksum ----------------------------------------
# A one-event trace is stored raw in its zstd frame: flip the size digit
# 8 -> 9.  Without the checksum the replay reports 9 requested bytes, exit 0.
"$S" convert "$tmp/ok.trace" "$tmp/c.trace.zst" >/dev/null
off=$(grep -abo "kmalloc 8" "$tmp/c.trace.zst" | head -1 | cut -d: -f1)
[ -n "$off" ] || fail "the zstd frame is not raw: cannot place the corruption"
printf '9' | dd of="$tmp/c.trace.zst" bs=1 seek=$((off + 8)) conv=notrunc status=none
expect 1 "c.trace.zst: zstd content checksum mismatch: the trace is corrupt" \
	"$S" run --trace "$tmp/c.trace.zst" "${RUN[@]}" --out "$tmp/zo"

# ---- the output directory holds one run, or none ------------------------------------
{ echo 'slabsim-trace 1'; for i in 1 2 3; do echo "p ph$i"; echo "a 0 $i s kmalloc 64"; done; } >"$tmp/three.trace"
{ echo 'slabsim-trace 1'; echo 'p ph1'; echo 'a 0 1 s kmalloc 64'; } >"$tmp/one.trace"
D=$tmp/D
"$S" run --trace "$tmp/three.trace" "${RUN[@]}" --out "$D" >/dev/null
[ -f "$D/slabinfo.3-ph3" ] || fail "three phases: $(ls "$D")"
"$S" run --trace "$tmp/one.trace" "${RUN[@]}" --out "$D" >/dev/null
[ ! -e "$D/slabinfo.2-ph2" ] && [ ! -e "$D/slabinfo.3-ph3" ] ||
	fail "a run with fewer phases left the older snapshots: $(ls "$D")"
# the same files as the one-phase run makes in a fresh directory
"$S" run --trace "$tmp/one.trace" "${RUN[@]}" --out "$tmp/fresh" >/dev/null
expect_eq "one run's files" "$(ls "$D" | tr '\n' ' ')" "$(ls "$tmp/fresh" | tr '\n' ' ')"
# a failing run into D: the old run goes too, D is left empty
{ cat "$tmp/one.trace"; echo 'f 0 9'; } >"$tmp/bad.trace"
expect 1 "bad.trace:4: free of object id 9" "$S" run --trace "$tmp/bad.trace" "${RUN[@]}" --out "$D"
[ -z "$(ls -A "$D")" ] || fail "a failed run left: $(ls -A "$D")"
ls -d "$D".tmp.* 2>/dev/null && fail "a failed run left its staging directory"
# a directory that is not a run's is refused, and not touched
mkdir -p "$tmp/mine" && echo notes >"$tmp/mine/notes.txt"
expect 1 "holds 'notes.txt', which no run writes" "$S" run --trace "$tmp/ok.trace" "${RUN[@]}" --out "$tmp/mine"
[ -f "$tmp/mine/notes.txt" ] || fail "notes.txt removed"
expect 1 "name the output directory" "$S" run --trace "$tmp/ok.trace" "${RUN[@]}" --out .

# ---- report, compare, sweep: all their files, or none --------------------------------
# Their directories hold other files (runs/, plots), so no staging
# directory: a failure removes the outputs it would have written.
printf 'slabsim-trace 1\nmeta workload w\nmeta variant v\np ph1\na 0 1 s kmalloc 8\n' >"$tmp/w.trace"
R=$tmp/R
for d in "$R" "$tmp/SW/1" "$tmp/SW/2"; do
	"$S" run --trace "$tmp/w.trace" "${RUN[@]}" --out "$d/runs/v__traced" >/dev/null
	"$S" report --workload w --dir "$d"
done
"$S" compare --workload w --dir "$R"
"$S" sweep --workload w --param p --dir "$tmp/SW" --values "1 2" --figures footprint_kib
[ -f "$R/report.md" ] && [ -f "$R/compare/compare.md" ] && [ -f "$tmp/SW/sweep.csv" ] ||
	fail "no report, compare or sweep to leave behind"
cp "$R/runs/v__traced/summary.csv" "$tmp/good.csv"
echo 'garbage,"' >>"$R/runs/v__traced/summary.csv"
expect 1 "summary.csv:3: unterminated quoted field" "$S" report --workload w --dir "$R"
left=$(cd "$R" && ls -A | grep -vxE "runs|compare" || true)
[ -z "$left" ] || fail "a failed report left the previous one's: $left"
expect 1 "summary.csv:3: unterminated quoted field" "$S" compare --workload w --dir "$R"
[ -z "$(ls -A "$R/compare")" ] || fail "a failed compare left the previous one's: $(ls -A "$R/compare")"
cp "$tmp/good.csv" "$R/runs/v__traced/summary.csv"
"$S" report --workload w --dir "$R"
[ -f "$R/report.md" ] || fail "no report.md"
expect 1 "/nonexistent: No such file or directory" \
	"$S" report --workload w --dir "$R" --kernel-before /nonexistent --kernel-after /nonexistent
left=$(cd "$R" && ls -A | grep -vxE "runs|compare" || true)
[ -z "$left" ] || fail "a report whose kernel comparison failed left: $left"
echo 'garbage,"' >>"$tmp/SW/2/summary.csv"
expect 1 "summary.csv:3: unterminated quoted field" \
	"$S" sweep --workload w --param p --dir "$tmp/SW" --values "1 2" --figures footprint_kib
left=$(cd "$tmp/SW" && ls -A | grep -vx '[12]' || true)
[ -z "$left" ] || fail "a failed sweep left the previous one's: $left"

# ---- signals: no temporary file, no half run ---------------------------------------
# The trace is a FIFO: the run has created its staging directory and waits
# for the trace when the signal comes.  A background job of a script
# ignores SIGINT, so set -m (its own process group) for INT.
mkfifo "$tmp/fifo"
# A signal ignored when this script started (nohup, a background job of a
# non-interactive shell) stays ignored in every child, and slabsim keeps
# it so, as a program should: the run would wait on the FIFO for ever.
sig_ignored() {
	local ign
	ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status 2>/dev/null) || return 1
	[ -n "$ign" ] && (( (16#$ign >> ($(kill -l "$1") - 1)) & 1 ))
}
for sig in INT TERM HUP; do
	if sig_ignored "$sig"; then
		skip_part "SIG$sig: ignored when the test started (nohup, a background job): not sent"
		continue
	fi
	rm -rf "$tmp/S"
	set -m
	"$S" run --trace "$tmp/fifo" "${RUN[@]}" --out "$tmp/S" 2>/dev/null &
	pid=$!
	set +m
	for _ in $(seq 1 100); do ls -d "$tmp/S".tmp.* >/dev/null 2>&1 && break; sleep 0.05; done
	ls -d "$tmp/S".tmp.* >/dev/null 2>&1 || fail "$sig: no staging directory to remove"
	kill -"$sig" "$pid"
	set +e
	wait "$pid"
	rc=$?
	set -e
	[ $rc -eq $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit $rc, want death by the signal"
	ls -d "$tmp/S".tmp.* 2>/dev/null && fail "SIG$sig left the staging directory"
done
# a trace being written: convert from a FIFO that stalls after 400 KB
# (more than the reader's first 256 KiB read)
rm -f "$tmp/fifo.sbt"*
"$S" convert "$tmp/fifo" "$tmp/fifo.sbt" 2>/dev/null &
pid=$!
exec 3>"$tmp/fifo"
{ echo 'slabsim-trace 1'; for i in $(seq 1 20000); do echo "a 0 $i site_$i kmalloc 8"; done; } >&3
for _ in $(seq 1 100); do ls "$tmp"/fifo.sbt.tmp.* >/dev/null 2>&1 && break; sleep 0.05; done
ls "$tmp"/fifo.sbt.tmp.* >/dev/null 2>&1 || fail "convert: no temporary file to remove"
kill -TERM "$pid"
set +e
wait "$pid"
set -e
exec 3>&-
ls "$tmp"/fifo.sbt* 2>/dev/null && fail "SIGTERM left: $(ls "$tmp"/fifo.sbt*)"

# ---- positions ------------------------------------------------------------------------
# a line over 16 MiB: its number
{ printf 'slabsim-trace 1\na 0 1 s kmalloc 8\n# '; head -c $((17 << 20)) /dev/zero | tr '\0' x; echo; } >"$tmp/long.trace"
expect 1 "long.trace:3: line longer than 16777216 bytes" "$S" run --trace "$tmp/long.trace" "${RUN[@]}" --out "$tmp/lo"
rm -f "$tmp/long.trace"
# binary traces: the event number (a bad free, --max-objects)
"$S" convert "$tmp/bad.trace" "$tmp/bad.sbt" >/dev/null
expect 1 "bad.sbt: event 3: free of object id 9" "$S" run --trace "$tmp/bad.sbt" "${RUN[@]}" --out "$tmp/bo"
# the number past the first batches (512 events each; the batch decoder
# leaves numbering to the replay's count), work records among them: one
# model, two from one decode, the bench's glibc baseline
{ echo 'slabsim-trace 1'; echo 'p start'
  for i in $(seq 1 700); do echo "a 1 $i s kmalloc 8"; echo "w 2 $((i * 1000)) parse"; done
  echo 'f 0 9999'; } >"$tmp/late.trace"
"$S" convert "$tmp/late.trace" "$tmp/late.sbt" >/dev/null
expect 1 "late.sbt: event 1402: free of object id 9999" "$S" run --trace "$tmp/late.sbt" "${RUN[@]}" --out "$tmp/bo"
expect 1 "late.sbt: event 1402: free of object id 9999" \
	"$S" run --trace "$tmp/late.sbt" --model "traced kmem_cache" --target x86_64-6.x --cpus 4 --out "$tmp/bo"
expect 1 "late.sbt: event 1402: free of object id 9999" \
	"$S" bench --target x86_64-6.x --models traced w="$tmp/late.sbt"
# bench names the trace of a failed replay (glibc baseline included)
expect 1 "bad.trace:4: free of object id 9, which is not allocated" \
	"$S" bench --target x86_64-6.x --models traced w="$tmp/bad.trace"
expect 2 "bad value '0' for --repeat (want an integer 1..1000)" \
	"$S" bench --target x86_64-6.x --repeat 0 w="$tmp/ok.trace"
expect 2 "workload name 'a,b' is not [A-Za-z0-9._+-]+" \
	"$S" bench --target x86_64-6.x a,b="$tmp/ok.trace"

# ---- labels that no output could hold ---------------------------------------------------
expect 2 "--variant 'x" "$S" run --trace "$tmp/ok.trace" "${RUN[@]}" --out "$tmp/v" --variant $'x\ny'

# ---- host mode: --max-memory (model pages, checked at the trace line) ----------------
if "$S" run --trace "$tmp/ok.trace" --model traced --target x86_64-6.x --mode host \
	--topology 'synth:pu:1' --out "$tmp/h0" >/dev/null 2>&1; then
	expect 1 "too_much_memory.trace:34: simulated memory reached 294912 bytes" \
		"$S" run --trace "$bad/trace/too_much_memory.trace" --model traced --target x86_64-6.x \
		--mode host --topology 'synth:pu:1' --max-memory 256K --out "$tmp/h1"
else
	skip_part_unless_ci "host mode's --max-memory: host mode cannot run here"
fi

# ---- make clean: everything make and a killed slabsim made ------------------------------
# (in a copy of the make files: not in the tree under test)
mk=$tmp/mk
mkdir -p "$mk/scripts" "$mk/datasets/smack17k" "$mk/datasets/hackbench" "$mk/datasets/topologies" "$mk/reports/x"
cp -r "$root/Makefile" "$root/mk" "$mk/"
cp "$root/scripts/deps.sh" "$mk/scripts/"
(cd "$root" && find workloads -name '*.mk' -exec cp --parents {} "$mk/" \;)
touch "$mk/datasets/hackbench/hackbench.sbt" "$mk/datasets/hackbench/hackbench.sbt.tmp.123" \
	"$mk/datasets/smack17k/ref.trace" "$mk/datasets/smack17k/gen-params" \
	"$mk/datasets/smack17k/rules.txt" "$mk/datasets/smack17k/x.sbt.zst" \
	"$mk/datasets/topologies/keep.xml"
mkdir -p "$mk/datasets/smack17k/run.tmp.55" && touch "$mk/datasets/smack17k/run.tmp.55/a"
make -s -C "$mk" clean DEPS_OK=yes >/dev/null 2>&1 || fail "make clean failed"
left=$(cd "$mk" && find datasets reports -type f 2>/dev/null | grep -v '^datasets/topologies/keep.xml$' || true)
[ -z "$left" ] || fail "make clean left: $left"
[ -f "$mk/datasets/topologies/keep.xml" ] || fail "make clean removed a source"

# ---- make: plain make builds the binary; a killed compile leaves no .o -----------------
# (objects into a scratch BUILD: the tree's own build/ is not touched)
B=$tmp/b
make -n -C "$root" BUILD="$B" DEPS_OK=yes >"$tmp/plain" 2>&1 || fail "make -n: $(cat "$tmp/plain")"
grep -qE -- "-o $B/slabsim( |\$)" "$tmp/plain" || fail "plain make does not build $B/slabsim"
grep -qE "slabsim (gen|run|report) " "$tmp/plain" && fail "plain make runs the simulation"
# A compiler that writes half its object, then SIGKILLs its whole process
# group, make included, so neither make's interrupt handling nor
# .DELETE_ON_ERROR can tidy up (as the OOM killer or a lost session
# would).  The next make must compile the object again, not take the half
# one for done.
cat >"$tmp/cc-killed" <<'EOF'
#!/bin/bash
prev=
for a; do [ "$prev" = -o ] && printf '\177ELF half an object' >"$a"; prev=$a; done
kill -KILL 0
EOF
chmod +x "$tmp/cc-killed"
obj=$B/obj/base/error.o
set +e
(setsid -w make -C "$root" BUILD="$B" DEPS_OK=yes CC="$tmp/cc-killed" "$obj"; true) >/dev/null 2>&1
set -e
[ ! -e "$obj" ] || fail "a killed compile left $obj, which make takes for up to date"
make -s --no-print-directory -C "$root" BUILD="$B" DEPS_OK=yes "$obj" >/dev/null || fail "make after a killed compile"
nm "$obj" | grep -q ' T ss_errorf$' || fail "$obj is no whole object after make"

echo "bad_output: ok"
