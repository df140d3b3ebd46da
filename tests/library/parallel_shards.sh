#!/usr/bin/env bash
# Issue 21, "must show" 3: the GNU parallel one-liner of doc/scale-out.md
# runs `eval` over the 16 CLEF 2017 runs (4 shards) and a 40-trial
# `simulate pool` (3 shards); `qrelkit merge` of the parts must equal the
# single-process outputs byte for byte. Skipped (77) only without GNU
# parallel, or without the shared CLEF data (a failure when
# QK_REQUIRE_SHARED=1).
# Usage (ctest sets QK_SOURCE): parallel_shards.sh path/to/qrelkit
set -u
src=${QK_SOURCE:?}
qk=${1:?}
shared=${QK_SHARED:-$src/../shared}
clef=$shared/data/clef-tar-2017
command -v parallel >/dev/null || { echo "SKIP: GNU parallel is not installed (scripts/install-deps.sh installs it)"; exit 77; }
parallel --version 2>/dev/null | grep -q "GNU parallel" || { echo "SKIP: 'parallel' is not GNU parallel"; exit 77; }
if [ ! -d "$clef/runs" ]; then
    [ "${QK_REQUIRE_SHARED:-0}" = 1 ] && { echo "FAIL: $clef is missing"; exit 1; }
    echo "SKIP: $clef not found (the shared data)"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$clef" || exit 1
export QK=$qk
rc=0
# check NAME N ARGS...: parallel over N shards, merged, against one process.
check() {
    local name=$1 n=$2
    shift 2
    "$qk" "$@" >"$work/$name.single" 2>/dev/null || { echo "FAIL: $name failed"; rc=1; return; }
    # the one-liner of doc/scale-out.md
    if ! parallel --will-cite --halt now,fail=1 -j 2 "\"\$QK\" $* --shard {}/$n > $work/$name.part.{}" ::: $(seq 0 $((n - 1))) 2>"$work/err"; then
        echo "FAIL: parallel $name:"; cat "$work/err"; rc=1; return
    fi
    "$qk" merge "$work/$name".part.* >"$work/$name.merged" || { echo "FAIL: merge $name"; rc=1; return; }
    cmp -s "$work/$name.single" "$work/$name.merged" || { echo "FAIL: $name differs"; diff "$work/$name.single" "$work/$name.merged" | head -n 5; rc=1; }
}
check eval 4 eval --dedup first -c -m map -m P.10 qrel_abs_test.txt runs/*.run
check pool 3 simulate pool --qrels qrel_abs_test.txt --runs runs/*.run --methods depth,statap,active --budgets 10,20 --trials 40 --seed 3
[ $rc -eq 0 ] && echo "ok: eval and simulate pool under GNU parallel merged byte-identically"
exit $rc
