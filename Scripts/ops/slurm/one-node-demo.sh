#!/usr/bin/env bash
# Proves the Slurm pieces once on this machine (not part of CI): starts a one-node Slurm
# (Debian's slurm-wlm and munge, as root, all state in a temporary folder), an S3 bucket
# (moto's server on loopback), submits a fake WRF job and the dependent extraction + publish
# (submit-after-wrf.sh), waits, shows what ran, and reads a forecast back from the bucket.
# Stops everything it started.
#
# usage: sudo Scripts/ops/slurm/one-node-demo.sh   (TILECAST=path/to/tilecast, default .build/debug/tilecast)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
TILECAST=${TILECAST:-$repo/.build/debug/tilecast}
[ -x "$TILECAST" ] || { echo "build tilecast first (swift build)" >&2; exit 2; }
for tool in slurmctld slurmd munged sbatch; do
  command -v "$tool" >/dev/null || { echo "install slurm-wlm and munge (apt-get install slurm-wlm munge)" >&2; exit 2; }
done
work=$(mktemp -d /tmp/tilecast-slurm.XXXXXX)
node=$(hostname -s)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$work/slurmctld.pid" ] && kill "$(cat "$work/slurmctld.pid")" 2>/dev/null || true
  [ -f "$work/slurmd.pid" ] && kill "$(cat "$work/slurmd.pid")" 2>/dev/null || true
  [ -f "$work/munged.pid" ] && kill "$(cat "$work/munged.pid")" 2>/dev/null || true
}
trap cleanup EXIT

# munge: a key of our own, its own socket.
mkdir -p "$work/munge"
dd if=/dev/urandom bs=1 count=1024 of="$work/munge/munge.key" 2>/dev/null
chmod 700 "$work/munge"; chmod 400 "$work/munge/munge.key"
munged --key-file="$work/munge/munge.key" --socket="$work/munge/socket" --pid-file="$work/munged.pid" \
  --log-file="$work/munge/log" --seed-file="$work/munge/seed" --force
cpus=$(nproc)
memory=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" <<CONF
ClusterName=tilecast-demo
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CryptoType=crypto/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$node CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=main Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -c -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 50); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.2; done
echo "== sinfo"; sinfo

# The bucket: moto's S3 server on loopback.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m moto.server -H 127.0.0.1 -p "$port" > "$work/moto.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -s "http://127.0.0.1:$port" >/dev/null && break; sleep 0.1; done
export AWS_ACCESS_KEY_ID=demo AWS_SECRET_ACCESS_KEY=demo AWS_REGION=us-east-1
python3 -c "import boto3,sys; boto3.client('s3', endpoint_url=sys.argv[1]).create_bucket(Bucket='forecasts')" "http://127.0.0.1:$port"

export RUN_DIR=$work/run/2026112200 STORE=$work/store MODEL=wrf BUCKET=s3://forecasts/tilecast
export S3_ENDPOINT=http://127.0.0.1:$port TILECAST SAMPLES=$repo/SampleGrids
cd "$work"
echo "== submit"
"$here/submit-after-wrf.sh" "$here/fake-wrf.sbatch" "$RUN_DIR" | tee submit.txt
extract=$(awk '{print $6}' submit.txt)
squeue -o "%.6i %.18j %.10T %.20E" || true
for _ in $(seq 300); do
  state=$(scontrol show job "$extract" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case "$state" in COMPLETED|FAILED|CANCELLED|TIMEOUT) break ;; esac
  sleep 1
done
echo "== jobs"
scontrol show job | grep -E "JobId=|JobState=|Dependency=|ExitCode=" | sed 's/^ */  /'
echo "== job output"
for f in slurm-*.out; do echo "--- $f"; cat "$f"; done
echo "== a forecast read back from the bucket"
"$TILECAST" query --store "$BUCKET" --model wrf --s3-endpoint "$S3_ENDPOINT" --lat 38.72 --lon -9.14 \
  --start 2026-11-22T00Z --hours 3 --variables temperature_2m,precipitation --format table
