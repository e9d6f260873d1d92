#!/bin/bash
# sweep_engines.sh - `make sweep ENGINE=parallel` gives the same files, byte
# for byte, as `make -j2 sweep`: through GNU parallel with the local
# sshlogin `:`, then over ssh to 127.0.0.1 with an sshd this test starts on
# a free port (skipped, saying why, where that cannot work).  ENGINE=slurm
# is tested by `make test-slurm` (tests/slurm/test-slurm.sh), which needs
# daemons.  docs/distributed.md.
. "$(dirname "$0")/lib/common.bash"
need_cmd parallel
need_gnuplot
# The engines are make and GNU parallel around the same slabsim commands
# as sweep.sh's points, which the sanitizer pass runs there.
[ -z "${SLABSIM_QUICK:-}" ] || skip "SLABSIM_QUICK: the engines are make and GNU parallel; sweep.sh runs the points' slabsim commands"

# The points' directories are named relative to the tree (a point's
# report.md names them), so the sweep goes under reports/ (ignored by git)
# and every engine writes the same place in turn.
rel=reports/e2e-sweep-engines-$$
sshd_pid=
cleanup() {
	[ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null
	rm -rf "$root/$rel" "$tmp"
}
trap cleanup EXIT
args=(WORKLOAD=smack17k LABELS=30 VARIANTS="ref patch4" MODELS="traced kmem_cache"
	PARAM=rules VALUES="100 400" SLABSIM="$S" DATA="$rel/data" REPORT="$rel/rep")
sweep() { # LOG MAKE-ARGS...: one sweep from scratch
	local log=$1
	shift
	rm -rf "${root:?}/$rel"
	make -C "$root" --no-print-directory sweep "${args[@]}" "$@" >"$log" 2>&1 ||
		{ tail -30 "$log"; fail "make sweep $*"; }
}
same() { # WHAT: the sweep now in $rel is the reference, file for file
	diff -r "$tmp/ref" "$root/$rel" >"$tmp/diff" || { head -20 "$tmp/diff"; fail "$1: files differ from make -j2"; }
	[ -s "$root/$rel/rep/sweep-rules/sweep.csv" ] || fail "$1: no sweep.csv"
}

sweep "$tmp/log-make" -j2
mv "$root/$rel" "$tmp/ref"
[ "$(wc -l <"$tmp/ref/rep/sweep-rules/sweep.csv")" = 9 ] || fail "make -j2: sweep.csv rows"

# GNU parallel, the local sshlogin ':'
echo : >"$tmp/local.logins"
sweep "$tmp/log-local" ENGINE=parallel SSHLOGINFILE="$tmp/local.logins"
same "ENGINE=parallel SSHLOGINFILE=(:)"
[ ! -e "$root/$rel/rep/sweep-rules/.parallel" ] || fail "the staging directory was left behind"
grep -q "ENGINE\|SSHLOGINFILE" "$root/$rel/rep/sweep-rules/sweep.md" && fail "sweep.md names the engine"

# an unknown engine stops make with a message
rc=0
make -C "$root" --no-print-directory sweep "${args[@]}" ENGINE=nope >"$tmp/log-bad" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "unknown ENGINE 'nope'" "$tmp/log-bad" || fail "ENGINE=nope: exit $rc"

# ---- over ssh to 127.0.0.1 -----------------------------------------------------------
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || skip_rest_unless_ci "ssh to 127.0.0.1: no sshd (Debian openssh-server; make deps installs it)"
has_cmd rsync || skip_rest_unless_ci "ssh to 127.0.0.1: no rsync (make deps installs it)"
d=$tmp/sshd
mkdir -p "$d"
ssh-keygen -q -t ed25519 -N '' -f "$d/host" && ssh-keygen -q -t ed25519 -N '' -f "$d/client" ||
	skip_rest_unless_ci "ssh to 127.0.0.1: ssh-keygen failed"
cp "$d/client.pub" "$d/authorized_keys"
chmod 600 "$d/authorized_keys"
# The sessions start in a home of their own ($d/home), not the user's: the
# kit GNU parallel copies there is this sweep's alone, whatever else runs
# sweeps over ssh on this machine, and its removal is checked there.
mkdir -p "$d/home" /run/sshd 2>/dev/null || true
# A free port: another sshd (a test run beside this one) may hold the
# first one tried; sshd then exits at once.
ok=
for try in 1 2 3 4 5; do
	port=$((20000 + (RANDOM * 32768 + RANDOM + $$ + try) % 40000))
	cat >"$d/config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $d/host
AuthorizedKeysFile $d/authorized_keys
PidFile $d/pid
PermitRootLogin yes
StrictModes no
UsePAM no
PasswordAuthentication no
ForceCommand cd $d/home && HOME=$d/home exec /bin/sh -c "\$SSH_ORIGINAL_COMMAND"
CONF
	"$sshd" -D -f "$d/config" -E "$d/log" &
	sshd_pid=$!
	ssh_cmd="ssh -p $port -i $d/client -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
	# (up to 30 s to start on a loaded machine)
	for _ in $(seq 60); do
		$ssh_cmd 127.0.0.1 true 2>/dev/null && { ok=1; break 2; }
		kill -0 "$sshd_pid" 2>/dev/null || break
		sleep 0.5
	done
	kill "$sshd_pid" 2>/dev/null || true
	wait "$sshd_pid" 2>/dev/null || true
	sshd_pid=
done
[ -n "$ok" ] || skip_rest_unless_ci "ssh to 127.0.0.1: no sshd of the test's accepted its key ($(tail -1 "$d/log" 2>/dev/null))"
[ "$($ssh_cmd 127.0.0.1 pwd)" = "$d/home" ] || fail "the ssh session does not start in $d/home"
echo "2/$ssh_cmd 127.0.0.1" >"$tmp/ssh.logins"
sweep "$tmp/log-ssh" ENGINE=parallel SSHLOGINFILE="$tmp/ssh.logins"
same "ENGINE=parallel over ssh"
# the remote side was cleaned up: no kit left in its home directory
left=$(cd "$d/home" && ls -A)
[ -z "$left" ] || fail "files left on the ssh host: $left"
echo "sweep_engines: ok (local and ssh)"
