#!/bin/bash
# capture.sh - `make capture` end to end on this machine's kernel: a small
# command (3,000 files made and removed in /dev/shm) captured into a
# temporary directory, its files, meta and slab snapshots checked, the
# tool's own events at most 1% of the capture, the capture imported (its
# phase markers become phase events), refusals and the tracing state left
# as it was found.  Needs root and tracefs: SKIP (exit 77) otherwise.  The
# slab-fill reads' agreement with sysfs is capture_slabfill.sh's;
# interruptions are capture_interrupt.sh's.
. "$(dirname "$0")/lib/common.bash"
here=$root
declare -F skip > /dev/null || skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "not root"
grep -qw tracefs /proc/filesystems || skip "no tracefs in this kernel"
[ -d /sys/kernel/slab ] || skip "no /sys/kernel/slab (not SLUB)"
command -v zstd > /dev/null || skip "no zstd command (apt-get install zstd)"

caps=$tmp/caps
mounts_before=$(grep -c ' tracefs ' /proc/mounts || true)
capture() { make -s --no-print-directory -C "$here" capture CAPTURE_DIR="$caps" SETTLE=1 "$@"; }
meta() { sed -n "s/^$2=//p" "$caps/$1/meta"; }

# A command that makes and removes 3,000 files in /dev/shm, reads its
# standard input, fails (its status is recorded, the capture kept) and
# marks a phase of its own both ways: the top-level trace_marker (copied
# into the capture's instance on 6.17+) and $SLABSIM_TRACE_MARKER.
# (the tracing instances of the machine meanwhile: another tool's removed
# inside the window puts its teardown in the trace, below)
{ while :; do ls /sys/kernel/tracing/instances 2> /dev/null; sleep 0.2; done > "$tmp/instances-seen"; } &
watcher=$!
trap 'kill "$watcher" 2> /dev/null || true; rm -rf "$tmp"' EXIT
capture NAME=tiny CMD='d=$(mktemp -d /dev/shm/slabsim-e2e.XXXXXX)
for i in $(seq 3000); do echo x > $d/f$i; done
rm -rf $d
read -r line && echo "$line" > '"$tmp/stdin-seen"'
echo "slabsim-phase middle part" > $SLABSIM_TRACE_MARKER
(sleep 0.1 &)
[ -e /sys/kernel/tracing/instances/slabsim-capture-*/options/copy_trace_marker ] &&
	echo "slabsim-phase top" > /sys/kernel/tracing/trace_marker
exit 3' <<< "typed at make" > "$tmp/out" 2> "$tmp/err" || fail "make capture: $(cat "$tmp/err")"
kill "$watcher" 2> /dev/null || true
grep -q "CMD exited with status 3" "$tmp/err" || fail "no warning for CMD's status: $(cat "$tmp/err")"
# CMD runs in the background of the script (an interrupt ends it at once),
# with make's standard input
expect_eq "CMD's standard input" "$(cat "$tmp/stdin-seen" 2> /dev/null)" "typed at make"
d=$caps/tiny
for f in capture.ftrace.zst slab-before.txt slab-after.txt slabinfo-before slabinfo-after meta; do
	[ -s "$d/$f" ] || fail "$f missing or empty"
done
[ -z "$(find "$caps" -mindepth 1 -maxdepth 1 -name '.*')" ] || fail "temporary files left in $caps"

# meta
[ "$(head -1 "$d/meta")" = "slabsim-capture 1" ] || fail "meta header"
[ "$(meta tiny exit_status)" = 3 ] || fail "exit_status $(meta tiny exit_status)"
[ "$(meta tiny kernel)" = "$(uname -r)" ] || fail "kernel"
[ "$(meta tiny cpus_online)" = "$(cat /sys/devices/system/cpu/online)" ] || fail "cpus_online"
grep -q '^command=d=$(mktemp -d /dev/shm/slabsim-e2e.XXXXXX)\\nfor i in ' "$d/meta" || fail "command not recorded on one line"
# BUFFER_KB=auto (the default): 1/32 of MemAvailable per online CPU, 64 MiB .. 1 GiB
[ "$(meta tiny buffer_rule)" = auto ] || fail "buffer_rule=$(meta tiny buffer_rule), want auto"
bk=$(meta tiny buffer_kb)
[ "$bk" -ge 65536 ] && [ "$bk" -le 1048576 ] || fail "auto buffer_kb=$bk outside 64 MiB .. 1 GiB"
for k in start_time end_time settle_s buffer_kb cpu0_overrun cpu0_dropped lost_total lines capture_bytes; do
	[ -n "$(meta tiny $k)" ] || fail "meta has no $k"
done
[ "$(meta tiny capture_bytes)" = "$(stat -c %s "$d/capture.ftrace.zst")" ] || fail "capture_bytes"
# The tool's own events (scripts/capture.sh, "the tracing window"): its
# processes listed, their events counted as the meta says, none of them
# the BPF verifier's (slab-fill's program is loaded before tracing
# begins), and a few thousand at most.
tp=$(meta tiny tool_pids) own=$(meta tiny tool_events) events=$(meta tiny events)
[[ $tp =~ ^[0-9]+( [0-9]+)+$ ]] || fail "tool_pids='$tp'"
[[ $own =~ ^[0-9]+$ ]] || fail "tool_events='$own'"
read -r recount verifier < <(zstdcat "$d/capture.ftrace.zst" | awk -v tools="$tp" '
	BEGIN { nt = split(tools, t, " "); for (i = 1; i <= nt; i++) tool[t[i]] = 1 }
	/tracing_mark_write: / { next }
	match($0, /-[0-9]+ +\[[0-9]+\] [^ ]+ /) {
		split(substr($0, RSTART + 1, RLENGTH - 1), f, " ")
		if (!(f[1] in tool)) next
		if (substr(f[3], 3, 1) == ".") n++
		if ($0 ~ /call_site=(copy_verifier_state|copy_array|bpf_check|do_check)/) v++
	}
	END { print n + 0, v + 0 }')
expect_eq "tool_events against the trace" "$recount" "$own"
expect_eq "verifier events of the tool's processes" "$verifier" 0
# slabsim reap exits after the window (cmd_hold: its exit_mmap() frees
# ~70 vm_area_structs) and the notrace PID list is freed after it
# (trace_pid_list_free(), ~280 kfrees); without slab-fill a `slabsim
# slab-pages` runs and exits in the window
read -r reaper_exit pid_list_free < <(zstdcat "$d/capture.ftrace.zst" | awk -v tools="$tp" '
	BEGIN { nt = split(tools, t, " "); for (i = 1; i <= nt; i++) tool[t[i]] = 1 }
	match($0, /-[0-9]+ +\[[0-9]+\] /) {
		split(substr($0, RSTART + 1, RLENGTH - 1), f, " ")
		if (!(f[1] in tool)) next
		if ($0 ~ /^ *slabsim-[0-9]+ / && $0 ~ /call_site=exit_mmap/) r++
		if ($0 ~ /call_site=trace_pid_list_free/) p++
	}
	END { print r + 0, p + 0 }')
[ "$(meta tiny slab_fill)" != yes ] || expect_eq "slabsim reap's exit_mmap() frees in the window" "$reaper_exit" 0
expect_eq "the notrace PID list's frees in the window" "$pid_list_free" 0
# an absolute bound: the command's own events depend on the machine's
# background, the tool's do not (a load of the BPF program inside the
# window alone was ~700,000)
[ "$own" -le 3000 ] || fail "the tool's own events are $own of $events, more than 3,000"
grep -q "($own of them the capture's own processes'" "$tmp/out" || fail "make capture does not say the tool's share: $(cat "$tmp/out")"
lossy=$(meta tiny lossy) lost=$(meta tiny lost_total) lm=$(meta tiny lost_markers)
case $lossy in
no) [ "$lost" = 0 ] && [ "$lm" = 0 ] || fail "lossy=no with $lost lost, $lm [LOST] markers" ;;
yes) [ "$lost" != 0 ] || [ "$lm" != 0 ] || [ "$(meta tiny reader)" = stopped ] || fail "lossy=yes without a loss"
     echo "capture.sh: note: the tiny capture lost events (a busy machine?)" ;;
*) fail "lossy=$lossy" ;;
esac
# tasks no tracepoint reports (scripts/capture-untraced.sh): a count (or
# "unknown" without sched_switch), and a list as long as the count says
ut=$(meta tiny untraced_tasks)
[[ $ut =~ ^([0-9]+|unknown)$ ]] || fail "untraced_tasks='$ut'"
if [ "$ut" != unknown ]; then
	[[ $(meta tiny untraced_sched_lost) =~ ^[0-9]+$ ]] || fail "untraced_sched_lost"
	listed=$(meta tiny untraced_task_list | wc -w)
	[ "$listed" = $((ut < 10 ? ut : 10)) ] || fail "untraced_task_list has $listed tasks, untraced_tasks=$ut"
	# capture.sh itself runs for more than the floor in the window, seen
	meta tiny untraced_task_list | grep -q '/capture.sh@' && fail "capture.sh listed as untraced: $(meta tiny untraced_task_list)"
fi
# CMD ran under slabsim reap (capture-orphans.sh): the sleep its subshell
# left behind was reaped there, not by init
[ "$(meta tiny subreaper)" = yes ] || fail "subreaper=$(meta tiny subreaper)"
[ "$(meta tiny orphans_reaped)" = 1 ] && [ "$(meta tiny orphans_left)" = 0 ] ||
	fail "orphans: reaped $(meta tiny orphans_reaped), left $(meta tiny orphans_left)"
[[ $(meta tiny init_zombies_before) =~ ^[0-9]+$ ]] || fail "init_zombies_before"
# the files written inside the window were staged on tmpfs (no page cache
# buffer_heads in the after-counts), moved in, and the stage removed
if [ "$(stat -f -c %T /dev/shm 2> /dev/null)" = tmpfs ]; then
	[ "$(meta tiny staging)" = "tmpfs /dev/shm" ] || fail "staging=$(meta tiny staging), /dev/shm is a tmpfs"
else
	[ "$(meta tiny staging)" = "capture directory" ] || fail "staging=$(meta tiny staging), no tmpfs at /dev/shm"
fi
[ -z "$(find /dev/shm -maxdepth 1 -name '.slabsim-capture-tiny.*' 2> /dev/null)" ] || fail "staging directory left in /dev/shm"
phases=$(meta tiny phases)
[[ " $phases " == " start "*"middle_part "*"end settled " ]] || fail "phases '$phases'"
# tracing began at the before-snapshot's /proc/slabinfo read, its sysfs
# walk (slab-snapshot.sh, ~7000 opens: a kernfs_fop_open kmalloc each)
# left out of the trace; slabinfo-before is that read, the snapshot's si_*
# (set_event_notrace_pid and event-fork are 5.8's: the kernel's version
# decides, not whether tracefs is mounted now -- the capture unmounts
# what it mounted, which skipped this block)
IFS=. read -r kmaj kmin _ <<< "$(uname -r)"
if [ "$kmaj" -gt 5 ] || { [ "$kmaj" = 5 ] && [ "${kmin%%[!0-9]*}" -ge 8 ]; }; then
	[ "$(meta tiny trace_from)" = snapshot ] || fail "trace_from=$(meta tiny trace_from)"
	# the walk's own tasks are the ones walk.ftrace.zst traced (another
	# capture on the machine has walks of its own, under other PIDs)
	pids=$(zstdcat "$d/walk.ftrace.zst" | awk 'match($0, /-[0-9]+ +\[[0-9]+\]/) {
		p = substr($0, RSTART + 1, RLENGTH - 1); sub(/ .*/, "", p); print p }' | sort -u | tr '\n' ' ')
	[ -n "$pids" ] || fail "walk.ftrace.zst names no task"
	n=$(zstdcat "$d/capture.ftrace.zst" | awk -v pids="$pids" '
		BEGIN { n = split(pids, a, " "); for (i = 1; i <= n; i++) walk[a[i]] = 1 }
		match($0, /-[0-9]+ +\[[0-9]+\]/) { p = substr($0, RSTART + 1, RLENGTH - 1); sub(/ .*/, "", p)
			if (p in walk && $0 ~ /slab-snapshot/) c++ }
		END { print c + 0 }')
	[ "$n" = 0 ] || fail "$n events of the snapshot's own walk in the trace"
	# ... and recorded beside it, whole: its kernfs_fop_open kmallocs
	# (import_walk.c drops the traced frees of those objects)
	[ -s "$d/walk.ftrace.zst" ] || fail "no walk.ftrace.zst"
	[ "$(meta tiny walk_overrun)" = 0 ] || fail "walk_overrun=$(meta tiny walk_overrun)"
	k=$(zstdcat "$d/walk.ftrace.zst" | grep -c 'kmalloc: call_site=kernfs_fop_open' || true)
	[ "$k" -ge 1000 ] || fail "walk.ftrace.zst: $k kernfs_fop_open kmallocs"
	[ "$(zstdcat "$d/walk.ftrace.zst" | wc -l)" = "$(meta tiny walk_events)" ] || fail "walk_events"
	"$S" import --snapshot "$d/slab-before.txt" --walk "$d/walk.ftrace.zst" \
		-o "$tmp/walk.sbt" "$d/capture.ftrace.zst" > "$tmp/walk-import.txt" ||
		fail "import --walk"
	grep -q "the before-snapshot walk.s objects, of [1-9][0-9]* it allocated" "$tmp/walk-import.txt" ||
		fail "import --walk: no walk line: $(cat "$tmp/walk-import.txt")"
	# the walk's instance lives until after the after-snapshot: no
	# instance teardown inside the trace (its eventfs inodes, event
	# files and buffer pages freed there were the capture's own objects,
	# in the before-snapshot's counts and not the after's)
	# (unless another tool's instance came or went meanwhile: its
	# teardown is the machine's, and in the trace)
	cap_pid=""
	for p in $(sed -n 's/^slabsim-capture-\([0-9]*\)$/\1/p' "$tmp/instances-seen" | sort -u); do
		[[ " $(meta tiny tool_pids) " != *" $p "* ]] || cap_pid=$p
	done
	others=$(sort -u "$tmp/instances-seen" | grep -vx "slabsim-\(capture\|walk\|sched\)-${cap_pid:-none}" || true)
	n=$(zstdcat "$d/capture.ftrace.zst" |
		grep -cE 'call_site=(free_ei_rcu|rb_free_cpu_buffer|remove_event_file_dir)\+' || true)
	if [ -n "$others" ]; then
		echo "capture.sh: note: other tracing instances meanwhile ($(echo $others)): $n instance teardown frees in the trace not checked"
	else
		[ "$n" = 0 ] || fail "$n frees of a tracing instance's teardown in the trace"
	fi
	# (ours: another capture may run beside this one)
	[ -z "$cap_pid" ] || [ ! -e "/sys/kernel/tracing/instances/slabsim-walk-$cap_pid" ] || fail "walk instance left behind"
fi
grep -q '^slabinfo - version: 2.1' "$d/slabinfo-before" || fail "slabinfo-before is not /proc/slabinfo"
si96=$(awk '$1 == "kmalloc-96" {print $2}' "$d/slabinfo-before")
sn96=$(sed -n 's/^cache=kmalloc-96 .* si_active_objs=\([0-9]*\) .*/\1/p' "$d/slab-before.txt")
[ -z "$si96" ] || [ "$si96" = "$sn96" ] || fail "slabinfo-before kmalloc-96 $si96, slab-before.txt si_active_objs $sn96"

# snapshots: one line per cache, aliases pointing at listed caches
for s in before after; do
	f=$d/slab-$s.txt
	read -r magic version phase _ < "$f"
	[ "$magic $version $phase" = "slabsim-slab 1 phase=$s" ] || fail "slab-$s.txt header"
	want=$(head -1 "$f" | sed -n 's/.* caches=\([0-9]*\).*/\1/p')
	[ "$(grep -c '^cache=' "$f")" = "$want" ] || fail "slab-$s.txt: caches= $want lines"
	grep '^cache=' "$f" | grep -v ' object_size=[0-9]* ' && fail "slab-$s.txt: a cache without object_size"
	for k in object_size slab_size objs_per_slab order align min_partial cpu_partial; do
		grep -q "^cache=.* $k=[0-9]" "$f" || fail "slab-$s.txt: no $k"
	done
	grep -q ' hwcache_align=[01] ' "$f" || fail "slab-$s.txt: no flag files"
	grep -q ' si_num_objs=[0-9]' "$f" || fail "slab-$s.txt: no /proc/slabinfo counts"
	awk '/^cache=/ { split($1, c, "="); have[c[2]] = 1 }
	     /^alias=/ { split($2, t, "="); if (!(t[2] in have)) { print "alias to " t[2]; bad = 1 } }
	     END { exit bad }' "$f" || fail "slab-$s.txt: alias to an unknown cache"
	head -1 "$d/slabinfo-$s" | grep -q '^slabinfo - version' || fail "slabinfo-$s"
done

# the importer reads it; the markers are phases
cd "$tmp"
"$S" import --totals t.csv -o t.trace "$d/capture.ftrace.zst" > import.out 2>&1 || fail "import: $(tail -3 import.out)"
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' t.csv; }
[ "$(col allocs)" -gt 0 ] || fail "no allocations imported"
[ "$(col phases)" = "$(wc -w <<< "$phases")" ] || fail "import phases $(col phases), meta '$phases'"
grep -q '^p middle_part$' t.trace || fail "phase 'middle part' not in the trace"
[ "$lossy" = yes ] || [ "$(col lost_events)" = 0 ] || fail "import found lost events in a clean capture"
# page frees (PAGE_FREES, on by default with raw pointers): recorded, and
# every one of them read by the import
npf=$(zstdcat "$d/capture.ftrace.zst" | grep -c ' mm_page_free: ' || true)
if [ "$(meta tiny hashed_pointers)" = no ] && [ -e /sys/kernel/tracing/events/kmem/mm_page_free ]; then
	[[ " $(meta tiny kmem_events) " == *" mm_page_free "* ]] || fail "kmem_events '$(meta tiny kmem_events)' without mm_page_free"
	[ "$npf" -gt 0 ] || fail "no mm_page_free in a raw-pointer capture"
	"$S" import --snapshot "$d/slab-before.txt" --totals pf.csv -o pf.sbt "$d/capture.ftrace.zst" > pf.out 2>&1 ||
		fail "import --snapshot: $(tail -3 pf.out)"
	pcol() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' pf.csv; }
	[ "$(pcol page_frees)" = "$npf" ] || fail "import read $(pcol page_frees) page frees of $npf"
	grep -q "^Page frees (mm_page_free): $npf," pf.out || fail "import does not say what the page frees gave: $(cat pf.out)"
	[ "$(pcol kslabs_freed)" -le "$npf" ] || fail "more slabs freed than page frees"
fi

# the node partial and CPU slabs one by one (build/slab-fill, a BPF
# kmem_cache iterator, 6.13+): the file, its slabs against the snapshot's list
# counts, and an import numbering kernel slabs by their place, which
# `run --slab-fill` takes only with the same file
if [ "$kmaj" -gt 6 ] || { [ "$kmaj" = 6 ] && [ "${kmin%%[!0-9]*}" -ge 13 ]; } && [ -e /sys/kernel/btf/vmlinux ]; then
	[ "$(meta tiny slab_fill)" = yes ] || fail "slab_fill=$(meta tiny slab_fill) on $(uname -r)"
fi
if [ "$(meta tiny slab_fill)" = yes ]; then
	f=$d/slab-fill-before.txt
	# the files whole (their agreement with sysfs: capture_slabfill.sh);
	# every cache of the snapshot in each, once
	for g in slab-fill-before.txt slab-fill-start.txt slab-fill-after.txt; do
		[ "$(head -1 "$d/$g" | cut -d' ' -f1-2)" = "slabsim-slabfill 4" ] || fail "$g header"
		[ "$(grep -c '^cache=' "$d/$g")" -gt 0 ] || fail "$g: no cache"
		dup=$(grep '^cache=' "$d/$g" | sort | uniq -d | head -3)
		[ -z "$dup" ] || fail "$g: caches listed twice: $dup"
		bad=$({ grep -Ev '^(slabsim-slabfill 4 nodes=[0-9]+ cpus=[0-9]+|cache=.+|[np] [0-9]+ [0-9a-f]+ [0-9a-f]+ [0-9]+ [0-9]+ ([0-9a-f]+|-)|c [0-9]+ [0-9a-f]+ [0-9a-f]+ [0-9]+ [0-9]+ ([0-9]+|-) ([0-9a-f]+|-)|s [0-9]+( ([0-9]+|-)){3}|b [0-9]+ [0-9]+ [0-9]+ ([0-9]+|-))$' "$d/$g" || true; } | head -3)
		[ -z "$bad" ] || fail "$g: lines not in the format: $bad"
	done
	"$S" import --snapshot "$d/slab-before.txt" --slab-fill "$f" -o fill.trace \
		"$d/capture.ftrace.zst" > fill.out 2>&1 || fail "import --slab-fill: $(tail -3 fill.out)"
	grep -Eq '^meta slab_fill [0-9a-f]{16}$' fill.trace || fail "no meta slab_fill in the trace"
	"$S" run --trace fill.trace --model traced --target x86_64-6.x --initial-state "$d/slab-before.txt" \
		--slab-fill "$f" --out fill-run > fill-run.out 2>&1 || fail "run --slab-fill: $(tail -3 fill-run.out)"
	{ cat "$f"; echo "cache=nosuch"; } > other-fill.txt
	rc=0; "$S" run --trace fill.trace --model traced --target x86_64-6.x --initial-state "$d/slab-before.txt" \
		--slab-fill other-fill.txt --out fill-run2 > fill-run2.out 2>&1 || rc=$?
	[ $rc != 0 ] && grep -q "imported with another slab-fill file" fill-run2.out ||
		fail "run with another slab-fill file than the import's not refused: $(cat fill-run2.out)"
fi

# the slab page frames and the listed slabs' free objects as tracing
# began (/proc/kpageflags, slab-fill again; root): the files whole, every
# slab slab-fill listed on a frame slab-pages marks, and an import that
# uses both (frees of objects not there then: allocated in the window)
[ "$(meta tiny slab_pages)" = yes ] || fail "slab_pages=$(meta tiny slab_pages)"
p=$d/slab-pages-start.txt
read -r runs pages < <(awk 'NR == 1 { for (i = 2; i <= NF; i++) { split($i, a, "="); h[a[1]] = a[2] } next }
	{ r++; n += $2 } END { print (r == h["runs"]) ? "ok" : "bad", (n == h["slab"]) ? n : -1 }' "$p")
[ "$runs" = ok ] && [ "$pages" -gt 0 ] || fail "slab-pages-start.txt: runs $runs, pages $pages: $(head -2 "$p")"
if [ "$(meta tiny slab_fill)" = yes ] && [ "$(meta tiny hashed_pointers)" = no ]; then
	[ "$(meta tiny slab_fill_start)" = yes ] || fail "slab_fill_start=$(meta tiny slab_fill_start)"
	"$S" import --snapshot "$d/slab-before.txt" --slab-fill "$d/slab-fill-before.txt" --slab-pages "$p" \
		--free-objects "$d/slab-fill-start.txt" -o pages.trace "$d/capture.ftrace.zst" > pages.out 2>&1 ||
		fail "import --slab-pages --free-objects: $(tail -3 pages.out)"
	grep -q "of those on pages no slab held as tracing began" pages.out ||
		fail "import did not use slab-pages: $(grep -i slab-pages pages.out)"
	grep -q "of those of objects a listed slab had free as tracing began" pages.out ||
		fail "import did not use the free objects: $(cat pages.out)"
fi

# refusals: an existing capture, a bad name, a non-root user
rc=0; capture NAME=tiny CMD=true > /dev/null 2> err || rc=$?
[ $rc != 0 ] && grep -q "exists (FORCE=1" err || fail "existing capture not refused: $(cat err)"
rc=0; capture NAME=../x CMD=true > /dev/null 2> err || rc=$?
[ $rc != 0 ] && grep -q "bad NAME" err || fail "bad NAME not refused: $(cat err)"
rc=0; capture NAME=x > /dev/null 2> err || rc=$?
[ $rc != 0 ] && grep -q "CMD is required" err || fail "missing CMD not refused"
if command -v setpriv > /dev/null; then
	# (the scripts copied where nobody can read them: the checkout may be
	# in a folder only root can enter)
	pub=$(mktemp -d -p /tmp slabsim-e2e-nobody.XXXXXX)
	cp "$here"/scripts/capture*.sh "$pub/"
	chmod 755 "$pub" && chmod 644 "$pub"/*.sh
	rc=0; (cd / && setpriv --reuid=65534 --regid=65534 --clear-groups bash "$pub/capture.sh" -d "$caps" x true) 2> err || rc=$?
	rm -rf "$pub"
	[ $rc = 1 ] && grep -q "must run as root" err || fail "non-root not refused (exit $rc): $(cat err)"
fi
[ -z "$(find "$caps" -mindepth 1 -maxdepth 1 ! -name tiny)" ] || fail "a refused capture left files"
# (and SLABSIM_STAGE, not a tmpfs: written into the capture directory, said)
mkdir "$tmp/notmpfs"
SLABSIM_STAGE=$tmp/notmpfs capture NAME=tiny CMD=true FORCE=1 PAGE_FREES=0 > /dev/null 2> err || fail "FORCE=1 did not replace: $(cat err)"
[ "$(meta tiny exit_status)" = 0 ] || fail "FORCE=1: old capture still there"
if [ "$(stat -f -c %T "$tmp/notmpfs")" != tmpfs ]; then
	[ "$(meta tiny staging)" = "capture directory" ] && grep -q "is not a writable tmpfs" err ||
		fail "SLABSIM_STAGE on $(stat -f -c %T "$tmp/notmpfs"): staging=$(meta tiny staging), $(cat err)"
fi
for f in slab-before.txt slab-after.txt slabinfo-before slabinfo-after; do
	[ -s "$caps/tiny/$f" ] || fail "SLABSIM_STAGE not a tmpfs: $f missing"
done
# PAGE_FREES=0: the page frees left off
[[ " $(meta tiny kmem_events) " != *" mm_page_free "* ]] || fail "PAGE_FREES=0: kmem_events '$(meta tiny kmem_events)'"
[ "$(zstdcat "$caps/tiny/capture.ftrace.zst" | grep -c ' mm_page_free: ' || true)" = 0 ] || fail "PAGE_FREES=0: page frees recorded"

# the tracing state is as we found it
[ "$(grep -c ' tracefs ' /proc/mounts || true)" = "$mounts_before" ] || fail "tracefs mount state changed"
# (an instance is named after its capture's PID: one whose process still
# runs is another capture's, e.g. a test run beside this one)
for i in /sys/kernel/tracing/instances/slabsim-capture-* /sys/kernel/tracing/instances/slabsim-sched-* /sys/kernel/tracing/instances/slabsim-walk-*; do
	[ ! -e "$i" ] || [ -d "/proc/${i##*-}" ] || fail "tracing instance $i left behind"
done
echo "capture.sh: ok"
