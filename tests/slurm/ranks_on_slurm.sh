#!/usr/bin/env bash
# The many-machine path on a real scheduler, on one machine: Debian's Slurm
# (slurm-wlm + munge) as a single-node cluster on localhost. A generated
# 16-rank data-parallel run is summarized rank by rank by a job array
# (`sbatch --array`, one `stepline report RANK --json` per task, as each
# machine of a cluster would), the reports are merged with `stepline ranks
# --from-reports`, and the merge must equal `stepline ranks` over the traces.
#
# Needs root (it installs packages, writes /etc/slurm and starts daemons);
# stops what it started and removes its files on exit. Usage:
#   tests/slurm/ranks_on_slurm.sh path/to/stepline [RANKS]
set -euo pipefail
stepline="$(realpath "${1:?usage: ranks_on_slurm.sh path/to/stepline [RANKS]}")"
ranks="${2:-16}"
work="$(mktemp -d /tmp/stepline-slurm.XXXXXX)"
chmod 755 "$work"
started=()

cleanup() {
  local rc=$?
  if [[ $rc != 0 ]]; then
    for log in "$work"/log/*.log "$work"/log/*.out; do
      [[ -f "$log" ]] && { echo "--- $log"; tail -15 "$log"; }
    done
  fi
  # Newest first: the Slurm daemons before munge, which they talk to.
  for ((i = ${#started[@]} - 1; i >= 0; i--)); do
    [[ -s "${started[i]}" ]] || continue
    pid="$(cat "${started[i]}")"
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    echo "stopped $(basename "${started[i]}" .pid) ($pid)"
  done
  [[ -n "${installed_conf:-}" ]] && rm -f /etc/slurm/slurm.conf /etc/slurm/cgroup.conf
  rm -rf "$work"
}
trap cleanup EXIT

say() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*"; }

# 1. Packages (only when missing).
if ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >"$work/apt.log" 2>&1 ||
    { tail -20 "$work/apt.log"; exit 1; }
fi

# 2. munge: a key and the daemon (Slurm authenticates every message with it).
mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
if [[ ! -s /etc/munge/munge.key ]]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge
chmod 400 /etc/munge/munge.key
if ! munge -n >/dev/null 2>&1; then
  # munged runs as munge: its pid file goes in a folder it may write.
  mkdir -p "$work/munge" && chown munge:munge "$work/munge"
  runuser -u munge -- munged --pid-file="$work/munge/munged.pid" 2>/dev/null ||
    su -s /bin/sh munge -c "munged --pid-file=$work/munge/munged.pid"
  started+=("$work/munge/munged.pid")
  for _ in $(seq 20); do [[ -s "$work/munge/munged.pid" ]] && break; sleep 0.2; done
fi
munge -n | unmunge >/dev/null

# 3. Slurm: one node, this machine, every core; no cgroups, no accounting.
host="$(hostname -s)"
cpus="$(nproc)"
mem_mb="$(awk '/MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)"
mkdir -p /etc/slurm "$work/spool/ctld" "$work/spool/d" "$work/log"
if [[ -e /etc/slurm/slurm.conf ]]; then
  echo "/etc/slurm/slurm.conf exists: not overwriting a configured cluster" >&2
  exit 1
fi
installed_conf=1
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=stepline-test
SlurmctldHost=$host
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/spool/ctld
SlurmdSpoolDir=$work/spool/d
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
InactiveLimit=0
MinJobAge=30
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
cat > /etc/slurm/cgroup.conf <<CONF
CgroupPlugin=autodetect
IgnoreSystemd=yes
CONF
say "starting slurmctld and slurmd ($host, $cpus CPUs)"
slurmctld -i || { echo "slurmctld did not start" >&2; exit 1; }
started+=("$work/slurmctld.pid")
slurmd || { echo "slurmd did not start" >&2; exit 1; }
started+=("$work/slurmd.pid")
for _ in $(seq 60); do
  sinfo -h -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated)' && break
  sleep 1
done
sinfo

# 4. The run: RANKS rank traces (one straggler), then one array task per rank.
say "generating a $ranks-rank run"
"$stepline" demo ddp-straggler --ranks "$ranks" --out "$work/run" --force >/dev/null
mkdir -p "$work/reports"
cat > "$work/rank_report.sh" <<JOB
#!/bin/sh
# One rank, as the machine that recorded it would summarize it.
set -e
trace=\$(ls "$work/run" | grep -E '\.json' | sort | sed -n "\$((SLURM_ARRAY_TASK_ID + 1))p")
"$stepline" report "$work/run/\$trace" --json --no-cache > "$work/reports/\$trace.report.json"
JOB
chmod 755 "$work/rank_report.sh"
say "sbatch --array=0-$((ranks - 1))"
start=$(date +%s.%N)
sbatch --wait --array="0-$((ranks - 1))" --cpus-per-task=1 --output="$work/log/task-%a.out" \
  --job-name=stepline-ranks "$work/rank_report.sh"
end=$(date +%s.%N)
say "array done in $(echo "$end - $start" | bc) s"
count=$(ls "$work/reports" | wc -l)
[[ "$count" == "$ranks" ]] || { echo "expected $ranks reports, got $count" >&2; exit 1; }

# 5. The merge equals the analysis of the traces (times of the run aside).
"$stepline" ranks --from-reports "$work/reports" --json > "$work/merged.json"
"$stepline" ranks "$work/run" --json --no-cache > "$work/direct.json"
python3 - "$work/merged.json" "$work/direct.json" <<'PY'
import json, sys
merged, direct = (json.load(open(p)) for p in sys.argv[1:3])
def strip(v):
    # Wall-clock fields of the two commands differ by nature.
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in ("load_ms", "analysis_ms", "path", "paths", "source")}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
a, b = strip(merged), strip(direct)
if a != b:
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            print("differs:", k, str(a.get(k))[:300], "|", str(b.get(k))[:300])
    sys.exit(1)
print("ranks --from-reports equals ranks over the traces:", len(direct.get("ranks", [])), "ranks, straggler",
      direct.get("straggler"))
PY
say "ok"
