#!/usr/bin/env bash
# A real single-node Slurm cluster from Debian 12's packages (slurm-wlm,
# munge), started by hand: no systemd, no cgroups, no accounting. Everything
# it writes (config, state, spool, logs, pid files, munge's socket) is inside
# STATE_DIR; outside it, it reads only the munge key (/etc/munge/munge.key,
# made by `mungekey` as the munge user if missing).
#
# Usage: cluster.sh start|stop|status STATE_DIR
#   start   writes STATE_DIR/slurm.conf, starts munged, slurmctld and slurmd,
#           and waits until the node is idle. Prints the line to source
#           (`. STATE_DIR/env.sh`, which sets SLURM_CONF) to use the cluster.
#           Stops first whatever an earlier start in STATE_DIR left running.
#   stop    cancels the cluster's jobs and stops exactly the daemons that
#           start started (by their pid files); leaves nothing running.
#   status  exit 0 if all three daemons run and the node answers, else 1.
# Exit codes of start: 0 up; 2 this machine cannot run it (not root, or the
# packages missing: scripts/install-deps.sh installs them); 3 a daemon did
# not start or the node did not come up in time (its logs are printed).
#
# Why a munged of its own: munged runs as the munge user with its socket in
# STATE_DIR/munge (slurm.conf's AuthInfo=socket=... tells every Slurm daemon
# and command where it is), so two clusters, or a munged that the munge
# package or the machine started on /run/munge, never share or stop each
# other's. /run/munge is still created, as the package's own tools expect it.
#
# Why SlurmUser=root: the tests run as root and this cluster runs only their
# jobs; a slurm user would only add chowns. Ports: SlurmctldPort and
# SlurmdPort are picked free at start (the kernel's port 0), so clusters of
# two builds' suites never collide.
set -euo pipefail

usage() { echo "usage: $0 start|stop|status STATE_DIR" >&2; exit 64; }
[[ $# -eq 2 ]] || usage
action=$1
[[ $action != start ]] || mkdir -p "$2"
if [[ ! -d $2 ]]; then
  echo "cluster.sh: no directory $2: no cluster there" >&2
  [[ $action == stop ]] && exit 0 || exit 1
fi
state=$(cd "$2" && pwd)
conf=$state/slurm.conf
export SLURM_CONF=$conf
node=$(hostname -s)
boot_timeout=${SLURM_TEST_BOOT_TIMEOUT:-30}

say() { echo "cluster.sh: $*" >&2; }

# pid_of NAME: the pid in STATE_DIR's pid file for daemon NAME, if that
# process is alive and is that daemon (a stale file's pid may be reused).
pid_of() {
  local name=$1 file pid comm
  case $name in
    munged) file=$state/munge/munged.pid ;;
    *) file=$state/$name.pid ;;
  esac
  [[ -s $file ]] || return 1
  pid=$(tr -dc 0-9 < "$file")
  [[ -n $pid ]] || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  # slurmctld/slurmd are alternatives links to slurmctld-wlm/slurmd-wlm.
  [[ $comm == "$name"* ]] || return 1
  echo "$pid"
}

show_logs() {
  local f
  for f in "$state"/munge/munged.log "$state"/log/slurmctld.log "$state"/log/slurmd.log \
           "$state"/log/*.out; do
    [[ -s $f ]] || continue
    echo "---- $f (last 40 lines)" >&2
    tail -n 40 "$f" >&2
  done
}

# stop_daemons NAME...: SIGTERM to each that runs, then wait for all of them
# (slurmd and slurmctld take 1-2 s each to shut down: in parallel, not in turn).
stop_daemons() {
  local name pid pids=() names=() i j
  for name in "$@"; do
    pid=$(pid_of "$name") || continue
    kill -TERM "$pid" 2>/dev/null && { pids+=("$pid"); names+=("$name"); }
  done
  for ((i = 0; i < 150; i++)); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || return 0
    sleep 0.1
  done
  for j in "${!pids[@]}"; do
    if kill -0 "${pids[j]}" 2>/dev/null; then
      say "${names[j]} (${pids[j]}) ignored SIGTERM for 15 s: SIGKILL"
      kill -KILL "${pids[j]}" 2>/dev/null || true
    fi
  done
}

stop() {
  if ! pid_of munged > /dev/null && ! pid_of slurmctld > /dev/null && ! pid_of slurmd > /dev/null; then
    [[ $action == stop ]] && say "no daemon of a cluster in $state runs"
    return 0
  fi
  # Jobs first, while slurmctld and slurmd still run to end them, so that no
  # slurmstepd or job process outlives the cluster.
  if pid_of slurmctld > /dev/null && [[ -f $conf ]]; then
    if [[ -n $(timeout 5 squeue -h -o %i 2>/dev/null) ]]; then
      timeout 5 scancel --user="$(id -un)" 2>/dev/null || true
      for ((i = 0; i < 50; i++)); do
        [[ -z $(timeout 5 squeue -h -o %i 2>/dev/null) ]] && break
        sleep 0.2
      done
    fi
  fi
  stop_daemons slurmd slurmctld
  stop_daemons munged
}

status() {
  local d
  for d in munged slurmctld slurmd; do
    pid_of "$d" > /dev/null || { say "$d is not running"; return 1; }
  done
  local s
  s=$(timeout 5 sinfo -h -n "$node" -o %t 2>/dev/null) || { say "sinfo failed"; return 1; }
  echo "node $node: $s"
  [[ $s == idle* || $s == mix* || $s == alloc* ]]
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])'
}

start() {
  if [[ $(id -u) -ne 0 ]]; then
    say "needs root (SlurmUser=root and munged started as the munge user)"; return 2
  fi
  local missing=() b
  for b in munged mungekey slurmctld slurmd sbatch sinfo squeue scancel scontrol python3 setpriv; do
    command -v "$b" > /dev/null || missing+=("$b")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    say "missing ${missing[*]}: install the Debian packages slurm-wlm and munge (scripts/install-deps.sh)"
    return 2
  fi
  id munge > /dev/null 2>&1 || { say "no munge user: reinstall the munge package"; return 2; }
  # What an earlier start here left running, and its files.
  stop
  rm -rf "$state/munge" "$state/ctld" "$state/spool" "$state/log" "$state"/*.pid "$conf" "$state/env.sh"

  # munge: the key (as the package's postinst makes it), and a munged of our own.
  mkdir -p /run/munge
  chown munge:munge /run/munge
  chmod 0755 /run/munge
  if [[ ! -s /etc/munge/munge.key ]]; then
    mkdir -p /etc/munge
    chown munge:munge /etc/munge
    chmod 0700 /etc/munge
    setpriv --reuid=munge --regid=munge --init-groups mungekey --create --keyfile=/etc/munge/munge.key
  fi
  # munged runs as the munge user, who must reach its directory: STATE_DIR
  # (often mktemp's 0700) gets go+x. It also wants its socket's directory
  # searchable by all (clients connect there) and writable by none but it.
  chmod go+x "$state"
  mkdir -p "$state/munge"
  chown munge:munge "$state/munge"
  chmod 0711 "$state/munge"
  if ! setpriv --reuid=munge --regid=munge --init-groups test -w "$state/munge"; then
    say "the munge user cannot reach $state/munge: every directory above STATE_DIR must be searchable by others (chmod o+x)"
    return 3
  fi
  local sock=$state/munge/munge.socket
  if ! setpriv --reuid=munge --regid=munge --init-groups \
      munged --socket="$sock" --pid-file="$state/munge/munged.pid" \
        --log-file="$state/munge/munged.log" --seed-file="$state/munge/munged.seed" \
        > "$state/munge/start.out" 2>&1; then
    say "munged did not start:"; cat "$state/munge/start.out" >&2; show_logs; return 3
  fi
  if ! munge -S "$sock" -n | unmunge -S "$sock" > /dev/null 2>&1; then
    say "munged started but a credential does not round-trip"; show_logs; return 3
  fi

  mkdir -p "$state/ctld" "$state/spool" "$state/log"
  local ctld_port slurmd_port
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  while [[ $slurmd_port == "$ctld_port" ]]; do slurmd_port=$(free_port); done
  cat > "$conf" <<EOF
# Written by tests/slurm/cluster.sh: a single-node test cluster in $state.
ClusterName=sitemill
SlurmctldHost=$node
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups: linuxproc tracks a job's processes through /proc.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# Finished jobs stay in scontrol's view (there is no accounting) for 5 min.
MinJobAge=300
InactiveLimit=0
KillWait=5
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  printf 'export SLURM_CONF=%q\n' "$conf" > "$state/env.sh"

  if ! slurmctld -c -f "$conf" > "$state/log/slurmctld.out" 2>&1; then
    say "slurmctld did not start"; show_logs; stop; return 3
  fi
  if ! slurmd -f "$conf" > "$state/log/slurmd.out" 2>&1; then
    say "slurmd did not start"; show_logs; stop; return 3
  fi
  local deadline=$((SECONDS + boot_timeout)) s=""
  while ((SECONDS < deadline)); do
    s=$(timeout 5 sinfo -h -n "$node" -o %t 2>/dev/null || true)
    [[ $s == idle ]] && break
    # A node that registered while the daemons were settling may stay down
    # or drained: ReturnToService=2 usually resumes it, this makes sure.
    if [[ $s == down* || $s == drain* ]]; then
      timeout 5 scontrol update NodeName="$node" State=RESUME > /dev/null 2>&1 || true
    fi
    sleep 0.2
  done
  if [[ $s != idle ]]; then
    say "node $node not idle after ${boot_timeout} s (sinfo: '${s:-no answer}')"
    timeout 5 scontrol show node "$node" >&2 2>&1 || true
    show_logs
    stop
    return 3
  fi
  say "up: node $node idle, slurmctld port $ctld_port, slurmd port $slurmd_port; use: . $state/env.sh"
}

case $action in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
