#!/usr/bin/env bash
# Regenerates topics-npl.tsv, topics-npl.svg and topics-npl-table.md: the
# topic-selection experiment on Vaswani (NPL, 93 topics) with 30 runs made by
# qrelkit itself (`qrelkit search --zoo 30` over a Porter and an unstemmed
# index; complete NPL qrels), AP per topic. Leave one group out with the
# systems grouped by retrieval model (bm25, qld, qljm): three trials, each
# holding out about a third of the systems. Random: 200 draws per trial.
# Usage: doc/examples/topics-npl.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../build/default/qrelkit}
data=$here/../../../shared/data/vaswani-npl
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-topicsnpl.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$qk" index --quiet -o "$work/p.idx" "$data/corpus/doc-text.trec"
"$qk" index --quiet -o "$work/n.idx" --stemmer none "$data/corpus/doc-text.trec"
"$qk" search -i "$work/p.idx" -i "$work/n.idx" -t "$data/query-text.trec" --zoo 30 --seed 5 --threads 2 -o "$work/zoo"
awk -F'\t' 'NR > 1 { print $1, $3 }' "$work/zoo/zoo.tsv" > "$work/groups.txt"
"$qk" eval -c --matrix AP "$data/qrels" "$work"/zoo/*.run > "$work/ap.tsv"
"$qk" simulate topics --matrix "$work/ap.tsv" --groups "$work/groups.txt" \
    --methods random,greedy-pearson,greedy-kendall,convex --max-size 50 --holdout group --trials 0 \
    --draws 200 --seed 17 --plot "$here/topics-npl.svg" > "$here/topics-npl.tsv"
{
    echo "Kendall tau_a [band] against MAP on all 93 topics (mean over the leave-one-model-out trials)."
    echo
    awk -v SIZES=1,3,5,10,20,30,50 -f "$here/topics-table.awk" "$here/topics-npl.tsv"
} > "$here/topics-npl-table.md"
