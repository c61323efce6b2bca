#!/usr/bin/env bash
# Submits a WRF job and the TileCast extraction that depends on it (afterok: only when WRF
# ended with exit 0; if WRF fails, Slurm never starts the extraction and the store and bucket
# keep the previous cycle).
#
# usage: submit-after-wrf.sh WRF_SBATCH_SCRIPT RUN_DIR   (STORE, MODEL, BUCKET, ... as in extract-publish.sbatch)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
wrf_script=${1:?usage: submit-after-wrf.sh WRF_SBATCH_SCRIPT RUN_DIR}
run_dir=${2:?usage: submit-after-wrf.sh WRF_SBATCH_SCRIPT RUN_DIR}
wrf=$(sbatch --parsable --export=ALL,RUN_DIR="$run_dir" "$wrf_script")
extract=$(sbatch --parsable --dependency=afterok:"$wrf" --kill-on-invalid-dep=yes \
  --export=ALL,RUN_DIR="$run_dir" "$here/extract-publish.sbatch")
echo "wrf job $wrf; extraction job $extract (after $wrf succeeds)"
