#!/usr/bin/env bash
# Submit a qrelkit command as an N-task job array plus its merge job
# (doc/scale-out.md); prints the two job ids ("ARRAY MERGE").
#
#   scripts/slurm/submit.sh N OUTDIR RESULT QRELKIT-ARGS...
#
# e.g. scripts/slurm/submit.sh 8 parts/eval eval.txt eval -c qrels.txt runs/*.run
# Extra sbatch options (partition, time limit, ...) go in $SBATCH_OPTS.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=${1:?usage: submit.sh N OUTDIR RESULT QRELKIT-ARGS...}
out=${2:?usage: submit.sh N OUTDIR RESULT QRELKIT-ARGS...}
result=${3:?usage: submit.sh N OUTDIR RESULT QRELKIT-ARGS...}
shift 3
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: N must be a positive integer, not '$n'" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out"/part.*
# shellcheck disable=SC2086 # SBATCH_OPTS is a list of options
array=$(sbatch --parsable ${SBATCH_OPTS:-} --array=0-$((n - 1)) -o "$out/slurm-%A_%a.out" \
    "$here/shard-array.sbatch" "$out" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} --dependency=afterok:"$array" -o "$out/slurm-%j.out" \
    "$here/merge.sbatch" "$out" "$result")
echo "${array} ${merge%%;*}"
