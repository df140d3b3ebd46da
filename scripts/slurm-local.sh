#!/usr/bin/env bash
# A real one-node Slurm (Debian slurm-wlm 22.05) on this machine, for the
# tests and for trying the job-array scripts of scripts/slurm/
# (doc/scale-out.md). No systemd, no accounting, no cgroups.
#
#   scripts/slurm-local.sh start [DIR]   write DIR/slurm.conf, start slurmctld
#                                        and slurmd, wait until the node is
#                                        idle, print `export SLURM_CONF=...`
#   scripts/slurm-local.sh stop [DIR]    stop both daemons (by the PIDs in
#                                        their pid files) and wait for them
#
# DIR defaults to $QK_SLURM_DIR or /tmp/qrelkit-slurm-$(id -u). The ports are
# free ones picked at start (two clusters can run side by side), or
# $QK_SLURM_PORT and the one after it. Authentication: auth/munge when a
# munged answers (QK_SLURM_AUTH=munge), else auth/none (the default: a
# single-user test cluster). Every client needs SLURM_CONF=DIR/slurm.conf.
# Exit codes: 0 ok, 1 usage, 2 slurm not installed, 3 the cluster did not
# come up (the daemons' logs are printed).
set -u
cmd=${1:-}
dir=${2:-${QK_SLURM_DIR:-/tmp/qrelkit-slurm-$(id -u)}}
node=qknode

die() { echo "slurm-local: $*" >&2; exit "${2:-3}"; }

stop() {
    local pids=() f p
    for f in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
        [ -s "$f" ] || continue
        p=$(cat "$f")
        [[ $p =~ ^[0-9]+$ ]] && kill "$p" 2>/dev/null && pids+=("$p")
    done
    for _ in $(seq 1 50); do
        local alive=0
        for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ $alive -eq 0 ] && break
        sleep 0.2
    done
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && kill -9 "$p" 2>/dev/null; done
    rm -f "$dir/slurmd.pid" "$dir/slurmctld.pid"
    return 0
}

free_ports() {
    if [ -n "${QK_SLURM_PORT:-}" ]; then
        echo "$QK_SLURM_PORT $((QK_SLURM_PORT + 1))"
        return
    fi
    python3 -c 'import socket
ss=[socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])'
}

start() {
    local ctl_port d_port auth host
    for p in slurmctld slurmd sinfo sbatch; do
        command -v "$p" >/dev/null || die "'$p' is not installed (apt-get install slurm-wlm, or scripts/install-deps.sh)" 2
    done
    [ -s "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null &&
        die "a cluster already runs in $dir (stop it first)" 1
    mkdir -p "$dir/state" "$dir/spool" || die "cannot create $dir"
    read -r ctl_port d_port < <(free_ports) || die "cannot pick free ports"
    auth=none
    [ "${QK_SLURM_AUTH:-none}" = munge ] && auth=munge
    host=$(hostname -s)
    cat >"$dir/slurm.conf" <<CONF
# written by scripts/slurm-local.sh: a one-node test cluster
ClusterName=qrelkit
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/$auth
CredType=cred/$auth
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
DependencyParameters=kill_invalid_depend
MaxArraySize=100001
MaxJobCount=100000
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=300
NodeName=$node NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -c -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 || { cat "$dir"/slurmctld.*; stop; die "slurmctld did not start"; }
    slurmd -N "$node" -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 || { cat "$dir"/slurmd.*; stop; die "slurmd did not start"; }
    for _ in $(seq 1 150); do
        if [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]; then
            echo "export SLURM_CONF=$SLURM_CONF"
            return 0
        fi
        sleep 0.2
    done
    echo "slurm-local: the node is not idle after 30 s: $(sinfo -h -N -o %t 2>&1)" >&2
    tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 2>/dev/null
    stop
    exit 3
}

case $cmd in
start) start ;;
stop) stop ;;
*) echo "usage: scripts/slurm-local.sh start|stop [DIR]" >&2; exit 1 ;;
esac
