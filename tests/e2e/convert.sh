#!/bin/bash
# convert.sh - `slabsim convert` and the binary format end to end: text ->
# sbt -> sbt.zst -> text.zst -> text keeps every event, every format
# replays to byte-identical results, binary is smaller, pipes are written
# in place, bad input and usage fail cleanly.
. "$(dirname "$0")/lib/common.bash"
cd "$tmp"

"$S" gen smack17k --rules 300 --labels 30 --seed 5 --write-rules rules.txt
"$S" gen smack17k --from-rules rules.txt --variant patch4 -o a.trace
"$S" convert a.trace b.sbt > /dev/null
"$S" convert b.sbt c.sbt.zst > /dev/null
"$S" convert c.sbt.zst d.trace.zst > /dev/null
"$S" convert --to text d.trace.zst e.out > /dev/null
grep -v '^#' a.trace > a.nocomment
cmp -s a.nocomment e.out || fail "text -> sbt -> sbt.zst -> text.zst -> text changed the trace"
head -c 8 b.sbt | od -An -tx1 | grep -q '89 53 42 54 0d 0a 1a 0a' || fail "sbt magic"
head -c 4 c.sbt.zst | od -An -tx1 | grep -q '28 b5 2f fd' || fail "zstd magic"
[ $(stat -c %s b.sbt) -lt $(( $(stat -c %s a.trace) / 3 )) ] || fail "sbt not 3x smaller than text"
[ $(stat -c %s c.sbt.zst) -lt $(stat -c %s b.sbt) ] || fail "zstd did not shrink sbt"

for f in a.trace b.sbt c.sbt.zst d.trace.zst; do
	"$S" run --trace $f --model traced --target arm32-3.10 --out run-$f > /dev/null
done
for f in b.sbt c.sbt.zst d.trace.zst; do
	for out in summary.csv caches.csv counters.csv latency.csv timeline.csv; do
		cmp -s run-a.trace/$out run-$f/$out || fail "$f: $out differs from the text trace's"
	done
done

# stdin in, stdout out; a FIFO is written in place (never renamed over)
"$S" convert --to sbt - - < a.trace 2> /dev/null > f.sbt
cmp -s f.sbt b.sbt || fail "stdin -> stdout differs"
mkfifo pipe
cat pipe > from-pipe.sbt &
"$S" convert a.trace pipe --to sbt > /dev/null
wait
[ -p pipe ] || fail "the FIFO was replaced"
cmp -s from-pipe.sbt b.sbt || fail "FIFO output differs"

# truncated binary: an error naming the file, never a shorter trace
head -c $(( $(stat -c %s b.sbt) - 3 )) b.sbt > cut.sbt
set +e
"$S" convert cut.sbt cut.trace 2> err.txt; rc=$?
"$S" convert --to nonsense a.trace x.sbt 2> /dev/null; rc2=$?
"$S" convert a.trace 2> /dev/null; rc3=$?
set -e
[ $rc = 1 ] || fail "truncated input: exit $rc"
grep -q "cut.sbt: .*truncated" err.txt || fail "message: $(cat err.txt)"
[ ! -e cut.trace ] || fail "half-written output left behind"
[ $rc2 = 2 ] || fail "bad --to: exit $rc2"
[ $rc3 = 2 ] || fail "missing OUT: exit $rc3"
echo "convert.sh: ok"
