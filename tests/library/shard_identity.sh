#!/usr/bin/env bash
# Issue 21, "must show" 1: for every sharded command, `qrelkit merge` of
# shards 0..n-1 is byte-identical to the unsharded output for n = 1, 2, 3, 7
# (so the result does not depend on n), with the parts given in reverse
# order. eval over the 16 CLEF 2017 runs (when ../shared/data is there) and
# over the small pool fixture; simulate pool over the fixture with sampling
# and deterministic methods, mtc's pairwise records, a noisy assessor, JSON
# and budgets in hours; compare --pairs (by run pair and replicate block:
# pair k's replicates are seeded from seed + k and the block) with every
# test and correction, and compare --swap-rate (by size and trial); simulate crowd
# --curve (by crowd: crowd r of value c is seeded seed + 1000003c + r);
# eval of one run (by qrels topic) on a CLEF 2017 run and the trec_eval
# test suite's inputs;
# tune --method grid|random with the engine and a command objective;
# simulate budget (by trial) on a generated fixture, literal and sampled;
# simulate topics (every kind, --budget-hours --statap and --logo too) and
# simulate tar on a generated collection.
# Usage (ctest sets QK_SOURCE): shard_identity.sh path/to/qrelkit
set -u
src=${QK_SOURCE:?}
qk=${1:?}
shared=${QK_SHARED:-$src/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rc=0
checked=0

# same LABEL ARGS...: the command with ARGS, unsharded and in n shards.
same() {
    local label=$1
    shift
    if ! "$qk" "$@" >"$work/full" 2>"$work/err"; then
        echo "FAIL [$label]: the unsharded command failed:"; cat "$work/err"; rc=1; return
    fi
    [ -s "$work/full" ] || { echo "FAIL [$label]: empty output"; rc=1; return; }
    for n in 1 2 3 7; do
        rm -f "$work"/part.*
        local parts=()
        for ((i = n - 1; i >= 0; i--)); do
            if ! "$qk" "$@" --shard "$i/$n" >"$work/part.$i" 2>"$work/err"; then
                echo "FAIL [$label]: shard $i/$n failed:"; cat "$work/err"; rc=1; return
            fi
            parts+=("$work/part.$i")
        done
        if ! "$qk" merge "${parts[@]}" >"$work/merged" 2>"$work/err"; then
            echo "FAIL [$label]: merge of $n parts failed:"; cat "$work/err"; rc=1; continue
        fi
        if cmp -s "$work/full" "$work/merged"; then
            checked=$((checked + 1))
        else
            echo "FAIL [$label]: merge of $n shards differs from the unsharded output:"
            diff "$work/full" "$work/merged" | head -n 10
            rc=1
        fi
    done
}

pool=$src/tests/cli/pool
cd "$pool" || exit 1
same "eval trec, 2 runs" eval full.qrels A.run B.run
same "eval trec, 1 run" eval -q full.qrels A.run
same "eval tsv" eval --format tsv -q -m map -m P.5 full.qrels A.run B.run
same "eval json" eval --format json -q -c -m all_trec full.qrels A.run B.run
same "simulate pool" simulate pool --qrels full.qrels --runs A.run B.run \
    --methods depth,statap,active,mtc,strat,rrf --budgets 2,4,6 --trials 9 --seed 7
same "simulate pool noisy json" simulate pool --qrels full.qrels --runs A.run B.run \
    --methods depth,active,mtc,mtf --budgets 1,3 --trials 5 --error-rate 0.2 --format json
same "simulate pool hours" simulate pool --qrels full.qrels --runs A.run B.run \
    --methods statap,depth --budgets 0.01,0.02 --hours --trials 4 --threads 2

cmp_dir=$src/tests/cli/compare
cd "$cmp_dir" || exit 1
same "compare pairs t" compare --pairs m.tsv
same "compare pairs wilcoxon holm" compare --pairs m.tsv --test wilcoxon --correct holm --precision 6
same "compare pairs sign bonferroni summary" compare --pairs m.tsv --test sign --correct bonferroni --summary
same "compare pairs perm json" compare --pairs m.tsv --test perm --format json --precision 6 --seed 5
same "compare pairs bootstrap holm" compare --pairs m.tsv --test bootstrap --trials 2000 --seed 9 --correct holm
# a pair with no differences: effect is NaN in the part's hex floats
printf 'topic\tA\tB\tC\nq1\t0.1\t0.1\t0.3\nq2\t0.5\t0.5\t0.2\nq3\t0.2\t0.2\t0.9\n' >"$work/nan.tsv"
same "compare pairs NaN effect" compare --pairs "$work/nan.tsv" --format json

# compare's replicates (replicate t of pair k draws from block t / 1000 of
# seed + k; swap-rate trial t of size c from its own seed): one pair's
# 4500 permutation or bootstrap replicates are 5 items, split over up to 7
# shards; swap-rate splits by (size, trial), binned and on SDs too.
awk 'BEGIN { print "topic\tA\tB"; for (t = 1; t <= 25; t++) printf "q%d\t%.3f\t%.3f\n", t, (t * 37 % 100) / 100, (t * 53 % 100) / 100 }' >"$work/one.tsv"
same "compare one pair perm 4500 replicates" compare --pairs "$work/one.tsv" --test perm --trials 4500 --seed 3
same "compare one pair bootstrap 4500 replicates json" compare --pairs "$work/one.tsv" --test bootstrap \
    --trials 4500 --format json --precision 8
same "compare pairs bootstrap 2 blocks bonferroni" compare --pairs m.tsv --test bootstrap --trials 1500 --correct bonferroni
same "compare swap-rate" compare --swap-rate m.tsv --trials 9 --seed 4
same "compare swap-rate binned json" compare --swap-rate m.tsv --sizes 2,4 --trials 5 --bin-width 0.05 --bins 3 \
    --format json
same "compare swap-rate on sd" compare --swap-rate m.tsv --sizes 2,3 --trials 4 --on sd --alpha 0.5

cd "$work" || exit 1
same "simulate crowd curve" simulate crowd --curve 1,2.5,3 --reps 3 --tasks 150 --workers 15 --quiet --seed 11
same "simulate crowd curve gaussian" simulate crowd --curve 1,3 --reps 4 --tasks 100 --workers 10 --model gaussian \
    --methods mv,ds,magp --quiet

# tune's grid and random baselines (evaluation i depends on (seed, i) only):
# the built-in engine on the small index of tests/cli/tune, and a command
# objective with a failing evaluation (NA rows, the running best).
tune=$src/tests/cli/tune
cd "$tune" || exit 1
"$qk" index --quiet -o "$work/x.idx" c.trec || { echo "FAIL: cannot index $tune/c.trec"; exit 1; }
same "tune grid engine" tune -s k1.json -q t.qrels -i "$work/x.idx" -t q.tsv --method grid --grid-steps 5 --quiet
same "tune random engine" tune -s large.json -q t.qrels -i "$work/x.idx" -t q.tsv --method random \
    --budget 9 --seed 3 --quiet
same "tune grid command, a failed evaluation" tune -s order.json -q t.qrels --method grid \
    --cmd "sh make-run.sh {order} {run}" --run-dir "$work" --quiet

# simulate budget (by trial: trial t is seeded seed + 7919 t): six runs of
# three groups over four topics, written here (any awk: both sides read the
# same files), literal and sampled documents, tuned lambda.
cd "$work" || exit 1
awk 'BEGIN { srand(3); for (t = 1; t <= 4; t++) for (d = 1; d <= 40; d++)
    print t, 0, "d" d, (rand() < 0.3) ? 1 : 0 > "b.qrels";
  for (g = 1; g <= 3; g++) for (v = 1; v <= 2; v++) { f = "g" g "-r" v ".run";
    for (t = 1; t <= 4; t++) { for (d = 1; d <= 40; d++) { k[d] = d; s[d] = rand() + (d % (g + v)) * 0.1 }
      for (i = 1; i <= 40; i++) for (j = i + 1; j <= 40; j++) if (s[k[j]] > s[k[i]]) { x = k[i]; k[i] = k[j]; k[j] = x }
      for (i = 1; i <= 30; i++) print t, "Q0", "d" k[i], i, 31 - i, "g" g "r" v > f } } }'
same "simulate budget literal" simulate budget --qrels b.qrels --budgets 20,40 --trials 5 --depth 20 --seed 4 \
    g1-r1.run g1-r2.run g2-r1.run g2-r2.run g3-r1.run g3-r2.run
same "simulate budget sampled" simulate budget --qrels b.qrels --budgets 30 --trials 4 --depth 20 --docs sampled --ra-draws 3 \
    --methods qdp,ra,un g1-r1.run g1-r2.run g2-r1.run g2-r2.run g3-r1.run g3-r2.run
same "simulate budget MAR split" simulate budget --qrels b.qrels --budgets 24,36 --trials 5 --depth 20 \
    --participating 1 --new-sites 1 --docs sampled g1-r1.run g1-r2.run g2-r1.run g2-r2.run g3-r1.run g3-r2.run
same "simulate budget tuned" simulate budget --qrels b.qrels --budgets 40 --trials 3 --depth 20 --methods qdp \
    --lambda tuned-new --group-sep none g1-r1.run g1-r2.run g2-r1.run g2-r2.run g3-r1.run g3-r2.run
# simulate topics, its --budget-hours form, topics-reuse and
# topics-adaptive (by trial: trial t is seeded mix(seed + t); --statap's
# from mix(seed ^ mix(t + 1))) on a made-up collection's MAP matrix and runs, and simulate tar (by topic; the summary
# is computed in the merge from the topics' exact rows) on its texts.
cd "$work" || exit 1
if "$qk" simulate collection --out coll --topics 12 --docs-per-topic 60 --depth 30 --runs 8 --seed 5 --quiet &&
    "$qk" eval --matrix map coll/qrels.txt coll/runs/*.run >coll/map.tsv; then
    same "simulate topics fraction" simulate topics --matrix coll/map.tsv --max-size 6 --trials 5 --draws 20 \
        --holdout fraction --group-sep none --seed 4
    same "simulate topics groups json" simulate topics --matrix coll/map.tsv --max-size 5 --trials 0 --draws 10 \
        --methods random,greedy-kendall,convex --group-sep none --format json --precision 6
    same "simulate topics reduced pool" simulate topics --methods random,greedy-pearson --max-size 4 --trials 4 \
        --draws 5 --holdout fraction --group-sep none --reduced-pool 10 coll/qrels.txt coll/runs/*.run
    same "simulate topics-reuse" simulate topics-reuse --budget 200 --participating 4 --new-sites 2 --k0 5 \
        --trials 5 --seed 9 coll/qrels.txt coll/runs/*.run
    same "simulate topics --budget-hours" simulate topics --budget-hours 0.05,0.2 --depths 2,5,10 --tdc 20 \
        --judging-error --trials 6 --seed 2 coll/qrels.txt coll/runs/*.run
    same "simulate topics --budget-hours --statap" simulate topics --budget-hours 0.05,0.3 --statap \
        --topics 2,5,20 --tdc 20 --judging-error --trials 7 --seed 3 coll/qrels.txt coll/runs/*.run
    same "simulate topics --budget-hours --statap --logo" simulate topics --budget-hours 0.2 --statap \
        --topics 3,6 --tdc 10 --logo --trials 5 --seed 8 coll/qrels.txt coll/runs/*.run
    same "simulate topics-adaptive" simulate topics-adaptive --qrels coll/qrels.txt --runs coll/runs/*.run \
        --methods random,adaptive,oracle,greedy-true --sizes 2,4 --trials 3 --random-trials 20 \
        --oracle-trials 50 --pool-depth 20 --seed 3
    same "simulate topics-adaptive held-out json" simulate topics-adaptive --qrels coll/qrels.txt \
        --runs coll/runs/*.run --methods random,adaptive,iqp,oracle --sizes 1,3 --trials 4 --random-trials 10 \
        --oracle-trials 30 --pool-depth 20 --held-out --format json
    mkdir -p coll/texts
    awk -v seed=3 -v ntopics=8 -v extra=40 -v dir=coll/texts -v topics=coll/tar-topics.tsv \
        -f "$src/scripts/demo/corpus.awk" coll/qrels.txt
    same "simulate tar, a corpus per topic" simulate tar --corpus coll/texts --topics coll/tar-topics.tsv \
        --qrels coll/qrels.txt --stop autostop,knee,target,sd-training --target 0.8,1 --threads 2 --quiet
else
    echo "FAIL: cannot make the collection for simulate topics and tar"; rc=1
fi
cd "$src/tests/cli/tar" || exit 1
same "simulate tar, one topic" simulate tar --corpus run-corpus.jsonl --topics run-topic.json --qrels run-qrels \
    --stop knee,sd-sampling --sd-sample 0.5 --target 0.5,1 --threads 1

clef=$shared/data/clef-tar-2017
if [ -d "$clef/runs" ]; then
    cd "$clef" || exit 1
    same "eval CLEF 16 runs trec" eval --dedup first -c qrel_abs_test.txt runs/*.run
    same "eval CLEF 16 runs json -q" eval --dedup first --format json -q -m map -m P.10 qrel_abs_test.txt runs/*.run
    "$qk" eval --dedup first --matrix map qrel_abs_test.txt runs/*.run >"$work/map.tsv" 2>/dev/null
    same "compare CLEF 120 pairs perm holm" compare --pairs "$work/map.tsv" --test perm --trials 3000 --correct holm
    same "compare CLEF swap-rate" compare --swap-rate "$work/map.tsv" --trials 6 --sizes 5,10
    # eval of one run splits by qrels topic; the summary is computed in the
    # merge from the topics' exact values
    run1=$(ls runs/*.run | head -n 1)
    same "eval CLEF one run by topic -q all_trec" eval --dedup first -q -m all_trec qrel_abs_test.txt "$run1"
    same "eval CLEF one run by topic json relstring" eval --dedup first --format json -q -m map -m relstring.10 \
        qrel_abs_test.txt "$run1"
else
    echo "note: $clef not found; the CLEF 2017 cases are skipped"
fi
# eval by topic on every case of the trec_eval test suite (-c with missing
# topics, -M, -l, -Z, preference and jg qrels), with -q and without
suite=$shared/data/trec_eval-suite
if [ -f "$suite/MANIFEST.tsv" ]; then
    cd "$suite" || exit 1
    while IFS= read -r line; do
        opts=$(printf '%s' "$line" | cut -f2)
        qrels=$(printf '%s' "$line" | cut -f3)
        run=$(printf '%s' "$line" | cut -f4)
        # shellcheck disable=SC2086 # the options are words
        same "eval by topic, trec_eval suite: $opts $qrels $run" eval $opts "$qrels" "$run"
    done < <(tail -n +2 MANIFEST.tsv)
    same "eval by topic, trec_eval suite tsv -c" eval --format tsv -q -c -m all_trec qrels.test results.trunc
else
    echo "note: $suite not found; the trec_eval suite cases are skipped"
fi
[ $rc -eq 0 ] && echo "ok: $checked merges byte-identical to the unsharded output"
exit $rc
