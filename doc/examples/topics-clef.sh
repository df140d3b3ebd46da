#!/usr/bin/env bash
# Regenerates topics-clef.tsv, topics-clef.svg and topics-clef-table.md: the
# topic-selection experiment on CLEF eHealth TAR 2017 (the 16 participant
# runs whose content is public, 30 test topics, abstract qrels), AP per
# topic. Each of 30 trials holds out the runs of 40 % of the teams (a team is
# the run name up to its first -; the thesis protocol, EXP-4.2/4.3): the methods
# choose from the other teams rows; both groups are scored against MAP on all 30 topics.
# Random: 100 draws per trial (3,000 draws per size).
# Usage: doc/examples/topics-clef.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../build/default/qrelkit}
data=$here/../../../shared/data/clef-tar-2017
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-topicsclef.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$qk" eval -c --dedup first --matrix AP "$data/qrel_abs_test.txt" "$data"/runs/*.run > "$work/ap.tsv"
"$qk" simulate topics --matrix "$work/ap.tsv" --methods random,greedy-pearson,greedy-kendall,convex \
    --max-size 29 --holdout fraction --holdout-frac 0.4 --trials 30 --draws 100 --seed 17 \
    --plot "$here/topics-clef.svg" > "$here/topics-clef.tsv"
{
    echo "Kendall tau_a [band] against MAP on all 30 topics (mean over 30 trials, 40 % of the teams held out in each)."
    echo
    awk -v SIZES=1,3,5,10,15,20 -f "$here/topics-table.awk" "$here/topics-clef.tsv"
    echo
    echo "Chosen on all 16 runs (topics select, first 10):"
    echo
    for m in greedy-pearson greedy-kendall convex; do
        printf -- '- %s: ' "$m"
        "$qk" topics select --method "$m" --size 10 --matrix "$work/ap.tsv" | awk -F'\t' 'NR > 1 { printf "%s%s", (NR > 2 ? ", " : ""), $2 } END { print "" }'
    done
} > "$here/topics-clef-table.md"
