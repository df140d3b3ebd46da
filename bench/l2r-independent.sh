#!/usr/bin/env bash
# `qrelkit topics train` against independent tree learners (issue #16: "a
# comparison of the tree learner against an independent implementation's
# accuracy on the same feature file"): scikit-learn's GradientBoostingRegressor
# (Friedman's MART, exact splits) and HistGradientBoostingRegressor (255-bin
# histograms, close to qrelkit's 256 quantile thresholds), and XGBoost's
# rank:ndcg (LambdaMART) against `--objective lambdamart`, all with the same
# 50 trees, at most 10 leaves, learning rate 0.1 and 1 row per leaf.
# Data: Kutlu's Alg. 3 records (the 63 features, labels in 50 bins) of CLEF
# 2017 TAR (16 runs, W = 100) and Vaswani NPL (the 30-run zoo, W = 30), as in
# doc/examples/topics-l2r.sh. Tests: each collection's scenarios split by
# parity of their qid (train on odd, test on even), and across collections
# (train on one, test on the other, the paper's setting). Prints a markdown
# table: test RMSE of the labels, the mean Kendall tau_b between predicted and
# true labels within a scenario, how often the top-scored candidate carries
# the scenario's best label, the Pearson correlation of each learner's test
# predictions with qrelkit's, and the training CPU seconds.
# Needs Debian's python3-sklearn and python3-xgboost
# (`bash scripts/install-deps.sh --bench`, which `make bench` runs); without
# them it says so and stops (exit 0, so the rest of `make bench` goes on).
# Usage: bash bench/l2r-independent.sh [path/to/qrelkit]   (about 3 min CPU)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=$(realpath "${1:-$here/../build/default/qrelkit}")
py=/usr/bin/python3
if ! "$py" -c 'import sklearn, xgboost, scipy' 2>/dev/null; then
    echo "bench/l2r-independent.sh: skipped: needs python3-sklearn and python3-xgboost (bash scripts/install-deps.sh --bench)" >&2
    exit 0
fi
data=${QK_DATA:-$here/../../shared/data}
npl=$data/vaswani-npl
clef=$data/clef-tar-2017
work=$here/work/l2r-independent
mkdir -p "$work"
cd "$work"
if [ ! -d zoo ]; then
    "$qk" index --quiet -o p.idx "$npl/corpus/doc-text.trec"
    "$qk" index --quiet -o n.idx --stemmer none "$npl/corpus/doc-text.trec"
    "$qk" search -i p.idx -i n.idx -t "$npl/query-text.trec" --zoo 30 --seed 5 --threads 2 -o zoo
fi
"$qk" eval -c --matrix AP@100 "$npl/qrels" zoo/*.run > npl-ap.tsv
"$qk" eval -c --dedup first --matrix AP@100 "$clef/qrel_abs_test.txt" "$clef"/runs/*.run > clef-ap.tsv 2>/dev/null
[ -s npl.letor ] || "$qk" topics train --no-train --write-data npl.letor --reps 30 --collection npl \
    --matrix npl-ap.tsv zoo/*.run
[ -s clef.letor ] || "$qk" topics train --no-train --write-data clef.letor --reps 100 --collection clef \
    --matrix clef-ap.tsv "$clef"/runs/*.run
# parity split by scenario (qid)
for c in npl clef; do
    awk '/^#/ { next } { split($2, q, ":"); print > ((q[2] % 2) ? "'$c'-odd.letor" : "'$c'-even.letor") }' $c.letor
done
cpu() { # OUT.model ARGS...: train, print user + sys seconds
    local out=$1
    shift
    /usr/bin/time -f '%U %S' -o time.txt "$qk" topics train --model "$out" "$@" > /dev/null
    awk '{ printf "%.2f", $1 + $2 }' time.txt
}
: > cases.tsv
for split in "npl-odd npl-even" "clef-odd clef-even" "clef npl" "npl clef"; do
    set -- $split
    tr=$1 te=$2
    m=$(cpu "$tr.mart" --data "$tr.letor")
    l=$(cpu "$tr.lmart" --objective lambdamart --data "$tr.letor")
    printf '%s\t%s\t%s\t%s\n' "$tr" "$te" "$m" "$l" >> cases.tsv
done
"$py" "$here/l2r_independent.py" cases.tsv
