#!/usr/bin/env bash
# Issue 21, "must show" 2: a real one-node Slurm (scripts/slurm-local.sh)
# runs `eval` over the 16 CLEF 2017 runs and a 40-trial `simulate pool` as
# job arrays (scripts/slurm/submit.sh: shard array + afterok merge job); the
# merged files must equal the single-process outputs byte for byte, and a
# failing array gets its merge job cancelled and leaves no part. The
# cluster is stopped and its directory removed on every exit path.
# Skipped (77) only when slurm-wlm is not installed, or without the shared
# CLEF data (a failure when QK_REQUIRE_SHARED=1).
# Usage (ctest sets QK_SOURCE): slurm_e2e.sh path/to/qrelkit
set -u
src=${QK_SOURCE:?}
qk=$(cd "$(dirname "${1:?}")" && pwd)/$(basename "$1")
shared=${QK_SHARED:-$src/../shared}
clef=$shared/data/clef-tar-2017
for p in slurmctld slurmd sbatch squeue sinfo scontrol; do
    command -v "$p" >/dev/null || { echo "SKIP: '$p' not found: slurm-wlm is not installed (scripts/install-deps.sh installs it)"; exit 77; }
done
if [ ! -d "$clef/runs" ]; then
    [ "${QK_REQUIRE_SHARED:-0}" = 1 ] && { echo "FAIL: $clef is missing"; exit 1; }
    echo "SKIP: $clef not found (the shared data)"; exit 77
fi
work=$(mktemp -d)
cluster=$work/cluster
cleanup() { bash "$src/scripts/slurm-local.sh" stop "$cluster" >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
if ! out=$(bash "$src/scripts/slurm-local.sh" start "$cluster" 2>&1); then
    echo "FAIL: the local cluster did not start:"; echo "$out"; exit 1
fi
export SLURM_CONF=$cluster/slurm.conf
export QRELKIT=$qk
cd "$clef" || exit 1
rc=0

# The two commands; their single-process outputs, made while the jobs run.
eval_args=(eval --dedup first -c -m map -m P.10 -m ndcg_cut.10 "$clef/qrel_abs_test.txt" "$clef"/runs/*.run)
# shellcheck disable=SC2054 # commas inside an option's value
pool_args=(simulate pool --qrels "$clef/qrel_abs_test.txt" --runs "$clef"/runs/*.run
           --methods depth,statap,active --budgets 10,20 --trials 40 --seed 3)
ids_eval=$(bash "$src/scripts/slurm/submit.sh" 4 "$work/eval" "$work/eval.merged" "${eval_args[@]}") ||
    { echo "FAIL: cannot submit the eval array"; exit 1; }
ids_pool=$(bash "$src/scripts/slurm/submit.sh" 3 "$work/pool" "$work/pool.merged" "${pool_args[@]}") ||
    { echo "FAIL: cannot submit the pool array"; exit 1; }
# A failing array: kill_invalid_depend must cancel its merge job, not leave it pending.
ids_bad=$(bash "$src/scripts/slurm/submit.sh" 2 "$work/bad" "$work/bad.merged" eval --no-such-option x y) ||
    { echo "FAIL: cannot submit the failing array"; exit 1; }
"$qk" "${eval_args[@]}" >"$work/eval.single" 2>/dev/null || { echo "FAIL: eval failed"; rc=1; }
"$qk" "${pool_args[@]}" >"$work/pool.single" 2>/dev/null || { echo "FAIL: simulate pool failed"; rc=1; }

# Wait (at most 300 s) until no job of ours is left in the queue.
for _ in $(seq 1 1500); do
    [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
    sleep 0.2
done
if [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
    echo "FAIL: jobs still queued after 300 s:"; squeue; rc=1
fi
for what in eval pool; do
    if [ ! -s "$work/$what.merged" ]; then
        echo "FAIL: the $what merge job wrote nothing; job logs:"
        tail -n 5 "$work/$what"/slurm-*.out 2>/dev/null
        rc=1
    elif ! cmp -s "$work/$what.single" "$work/$what.merged"; then
        echo "FAIL: $what merged by Slurm differs from the single-process run"
        diff "$work/$what.single" "$work/$what.merged" | head -n 5
        rc=1
    fi
done
state=$(scontrol show job "${ids_bad#* }" 2>/dev/null | grep -o 'JobState=[A-Z_]*')
[ "$state" = JobState=CANCELLED ] || { echo "FAIL: the merge job after a failed array is '$state', not cancelled"; rc=1; }
[ -e "$work/bad.merged" ] && { echo "FAIL: a merged file after a failed array"; rc=1; }
left=$(find "$work/bad" -name '*part*')
[ -n "$left" ] && { echo "FAIL: a failed task left a part: $left"; rc=1; }
[ "$(find "$work/eval" -name 'part.*' | wc -l)" = 4 ] || { echo "FAIL: expected 4 eval parts"; rc=1; }
[ $rc -eq 0 ] && echo "ok: eval (jobs $ids_eval) and simulate pool (jobs $ids_pool) merged byte-identically on Slurm"
exit $rc
