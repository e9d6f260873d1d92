#!/bin/bash
# test-slurm.sh - `make test-slurm`: ENGINE=slurm for real, on a one-node
# cluster this test starts on localhost and stops again (Debian
# slurm-wlm: slurmctld, slurmd, sbatch; auth/none, so no munge; daemons
# run as root).  Opt-in, not part of `make test`: it needs root and two
# free ports and takes about a minute.  docs/distributed.md.
#
# Checks: `make sweep ENGINE=slurm` (sbatch --array --wait) gives the same
# files, byte for byte, as `make -j2 sweep`; `SLURM_WAIT=0` submits and
# returns, `make sweep-collect` refuses while points are missing and
# gathers the same files once the array is done.
. "$(dirname "$0")/../e2e/lib/common.bash"
for c in slurmctld slurmd sbatch squeue sinfo; do
	command -v "$c" >/dev/null || fail "$c missing: apt-get install slurm-wlm (make deps installs slurm-wlm only for this test: scripts/deps.sh install slurm)"
done
[ "$(id -u)" = 0 ] || fail "slurmd runs as root here: run make test-slurm as root"

rel=reports/test-slurm-$$
d=$tmp/cluster
ctld_pid= slurmd_pid=
cleanup() {
	[ -n "$slurmd_pid" ] && kill "$slurmd_pid" 2>/dev/null
	[ -n "$ctld_pid" ] && kill "$ctld_pid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$root/$rel" "$tmp"
}
trap cleanup EXIT
mkdir -p "$d/state" "$d/spool"
host=$(hostname -s)
port=$((26000 + $$ % 3000))
cat >"$d/slurm.conf" <<CONF
ClusterName=slabsimtest
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/ctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/ctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$d/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$d/ctld.out" 2>&1 &
ctld_pid=$!
sleep 1
slurmd -D -f "$SLURM_CONF" >"$d/slurmd.out" 2>&1 &
slurmd_pid=$!
for _ in $(seq 30); do
	sinfo -h -o %t 2>/dev/null | grep -q idle && break
	sleep 1
done
sinfo -h -o %t 2>/dev/null | grep -q idle ||
	fail "the one-node cluster did not come up: $(tail -3 "$d/ctld.log" "$d/slurmd.log" 2>&1)"
echo "test-slurm: cluster up ($host, ports $port-$((port + 1)))"

args=(WORKLOAD=smack17k LABELS=30 VARIANTS="ref patch4" MODELS="traced kmem_cache"
	PARAM=rules VALUES="100 400" SLABSIM="$S" DATA="$rel/data" REPORT="$rel/rep")
sweep() { # LOG TARGET MAKE-ARGS...
	local log=$1
	shift
	make -C "$root" --no-print-directory "${args[@]}" "$@" >"$log" 2>&1 ||
		{ tail -30 "$log"; fail "make $*"; }
}

rm -rf "${root:?}/$rel"
sweep "$tmp/log-make" sweep -j2
mv "$root/$rel" "$tmp/ref"

sweep "$tmp/log-slurm" sweep ENGINE=slurm
diff -r "$tmp/ref" "$root/$rel" || fail "ENGINE=slurm: files differ from make -j2"
echo "test-slurm: ENGINE=slurm matches make -j2"

rm -rf "${root:?}/$rel"
sweep "$tmp/log-submit" sweep ENGINE=slurm SLURM_WAIT=0
grep -q "submitted slurm job" "$tmp/log-submit" || fail "SLURM_WAIT=0: no job submitted"
job=$(cat "$root/$rel/rep/sweep-rules/.slurm/job-id")
for _ in $(seq 120); do
	[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
	sleep 1
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "job $job still queued after 2 minutes"
sweep "$tmp/log-collect" sweep-collect
diff -r "$tmp/ref" "$root/$rel" || fail "sweep-collect: files differ from make -j2"
echo "test-slurm: SLURM_WAIT=0 + sweep-collect match make -j2"
echo "test-slurm: 3 passed, 0 failed"
