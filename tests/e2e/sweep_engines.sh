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
[ -z "${SLABSIM_QUICK:-}" ] || skip_rest "ssh to 127.0.0.1 (SLABSIM_QUICK: the sanitizer pass)"
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || skip_rest_unless_ci "ssh to 127.0.0.1: no sshd (Debian openssh-server; make deps installs it)"
has_cmd rsync || skip_rest_unless_ci "ssh to 127.0.0.1: no rsync (make deps installs it)"
d=$tmp/sshd
mkdir -p "$d"
ssh-keygen -q -t ed25519 -N '' -f "$d/host" && ssh-keygen -q -t ed25519 -N '' -f "$d/client" ||
	skip_rest_unless_ci "ssh to 127.0.0.1: ssh-keygen failed"
cp "$d/client.pub" "$d/authorized_keys"
chmod 600 "$d/authorized_keys"
port=$((20000 + $$ % 20000))
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
CONF
mkdir -p /run/sshd 2>/dev/null || true
"$sshd" -D -f "$d/config" -E "$d/log" &
sshd_pid=$!
ssh_cmd="ssh -p $port -i $d/client -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
for _ in 1 2 3 4 5 6 7 8 9 10; do
	$ssh_cmd 127.0.0.1 true 2>/dev/null && break
	sleep 0.5
done
$ssh_cmd 127.0.0.1 true 2>/dev/null || skip_rest_unless_ci "ssh to 127.0.0.1: sshd on 127.0.0.1:$port did not accept the test's key ($(tail -1 "$d/log" 2>/dev/null))"
echo "2/$ssh_cmd 127.0.0.1" >"$tmp/ssh.logins"
sweep "$tmp/log-ssh" ENGINE=parallel SSHLOGINFILE="$tmp/ssh.logins"
same "ENGINE=parallel over ssh"
# the remote side was cleaned up: no kit left in its home directory
if $ssh_cmd 127.0.0.1 'ls ~/slabsim-sweep-* 2>/dev/null' | grep -q .; then fail "files left on the ssh host"; fi
echo "sweep_engines: ok (local and ssh)"
