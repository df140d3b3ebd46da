#!/usr/bin/env bash
# Output identity of the prels reader: every prels file of ../shared/data
# (mq-prels/prels.*, estimators/qrels/statap.prels) against every run of
# estimators/runs and clef-tar-2017/runs, with the `eval -R prels` forms
# the docs and tests use (the default table, -q, -q --compat, -q --var,
# -m num_q) and, per prels file, `topics select --estimate statap` over
# each run directory's runs: stdout, stderr and exit code must be the same
# for BASE and NEW (a pair that shares no topic prints its NA rows, and
# an error must be the same message and exit code). Prints the number of
# invocations and of differences; exit 1 on any difference.
# Usage: bash bench/prels-check.sh BASE NEW
set -uo pipefail
base=$1 new=$2
data=$(cd "$(dirname "$0")/../../shared/data" 2>/dev/null && pwd || echo /work/shared/data)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 bad=0
same() { # args... : run with both binaries, compare
    "$base" "$@" >"$work/o1" 2>"$work/e1"
    echo "exit $?" >>"$work/o1"
    "$new" "$@" >"$work/o2" 2>"$work/e2"
    echo "exit $?" >>"$work/o2"
    n=$((n + 1))
    if ! cmp -s "$work/o1" "$work/o2" || ! cmp -s "$work/e1" "$work/e2"; then
        bad=$((bad + 1))
        echo "DIFF: $*"
    fi
}
for p in "$data"/mq-prels/prels.* "$data"/estimators/qrels/statap.prels; do
    for r in "$data"/estimators/runs/* "$data"/clef-tar-2017/runs/*; do
        same eval -R prels "$p" "$r"
        same eval -q -R prels "$p" "$r"
        same eval -q -R prels --compat "$p" "$r"
        same eval -q -R prels --var "$p" "$r"
        same eval --threads 1 -m num_q -R prels "$p" "$r"
    done
    same topics select --estimate statap --size 2 "$p" "$data"/estimators/runs/*
    same topics select --estimate statap "$p" "$data"/estimators/runs/*
    same topics select --estimate statap --size 2 "$p" "$data"/clef-tar-2017/runs/*
done
echo "$n invocations, $bad differences"
[ "$bad" = 0 ]
