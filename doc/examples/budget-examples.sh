#!/usr/bin/env bash
# Regenerates the budget-*.tsv / budget-*.svg files of budget-clef2017.md and
# budget-npl.md: `qrelkit simulate budget` (Hosseini ch. 7: QDP, QDP*, UN, RA,
# SA) on CLEF 2017 TAR (16 runs, 7 teams) and on Vaswani NPL with the 30-run
# zoo of topics-npl.sh (grouped by retrieval model), 21 leave-one-group-out
# trials each. CLEF: one UOS run lists a document twice for a topic; the
# copies here keep a document's first line (eval's --dedup first).
# Usage: doc/examples/budget-examples.sh [path/to/qrelkit]   (about 10 minutes)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../build/default/qrelkit}
clef=$here/../../../shared/data/clef-tar-2017
npl=$here/../../../shared/data/vaswani-npl
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-budget.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/clef"
for f in "$clef"/runs/*.run; do awk '!seen[$1 " " $3]++' "$f" > "$work/clef/$(basename "$f")"; done
"$qk" simulate budget --qrels "$clef/qrel_abs_test.txt" --budgets 300,600,1200,2400,4800 --trials 21 \
    --seed 17 --plot "$here/budget-clef2017.svg" "$work"/clef/*.run > "$here/budget-clef2017.tsv"
"$qk" simulate budget --qrels "$clef/qrel_abs_test.txt" --budgets 300,600,1200,2400,4800 --trials 21 \
    --seed 17 --lambda 0.5 "$work"/clef/*.run > "$here/budget-clef2017-lambda0.5.tsv"
"$qk" simulate budget --qrels "$clef/qrel_abs_test.txt" --budgets 300,600,1200,2400,4800 --trials 21 \
    --seed 17 --docs sampled --plot "$here/budget-clef2017-sampled.svg" "$work"/clef/*.run > "$here/budget-clef2017-sampled.tsv"
"$qk" simulate budget --qrels "$clef/qrel_abs_test.txt" --budgets 300,600,1200,2400,4800 --trials 21 \
    --seed 17 --participating 3 --new-sites 2 --ra-draws 20 "$work"/clef/*.run > "$here/budget-clef2017-mar.tsv"
"$qk" simulate budget --qrels "$clef/qrel_abs_test.txt" --budgets 300,600,1200,2400,4800 --trials 21 \
    --seed 17 --docs sampled --participating 3 --new-sites 2 --ra-draws 20 "$work"/clef/*.run \
    > "$here/budget-clef2017-sampled-mar.tsv"
"$qk" simulate budget --qrels "$clef/qrel_abs_test.txt" --budgets 600,2400 --trials 21 --seed 17 \
    --docs sampled --participating 3 --new-sites 2 --lambda tuned-new "$work"/clef/*.run \
    > "$here/budget-clef2017-sampled-mar-tuned.tsv"
"$qk" index --quiet -o "$work/p.idx" "$npl/corpus/doc-text.trec"
"$qk" index --quiet -o "$work/n.idx" --stemmer none "$npl/corpus/doc-text.trec"
"$qk" search -i "$work/p.idx" -i "$work/n.idx" -t "$npl/query-text.trec" --zoo 30 --seed 5 --threads 2 -o "$work/zoo"
awk -F'\t' 'NR > 1 { print $1, $3 }' "$work/zoo/zoo.tsv" > "$work/groups.txt"
"$qk" simulate budget --qrels "$npl/qrels" --groups "$work/groups.txt" --budgets 500,1000,2000,4000 \
    --trials 21 --seed 17 --plot "$here/budget-npl.svg" "$work"/zoo/*.run > "$here/budget-npl.tsv"
"$qk" simulate budget --qrels "$npl/qrels" --groups "$work/groups.txt" --budgets 500,1000 --trials 21 \
    --methods qdp --lambda tuned-new --seed 17 "$work"/zoo/*.run > "$here/budget-npl-tuned-new.tsv"
"$qk" simulate budget --qrels "$npl/qrels" --groups "$work/groups.txt" --budgets 500,1000,2000,4000 \
    --trials 21 --seed 17 --docs sampled --plot "$here/budget-npl-sampled.svg" "$work"/zoo/*.run > "$here/budget-npl-sampled.tsv"
"$qk" simulate budget --qrels "$npl/qrels" --groups "$work/groups.txt" --budgets 500,1000,2000,4000 \
    --trials 21 --seed 17 --docs sampled --participating 1 --new-sites 1 --ra-draws 20 "$work"/zoo/*.run \
    > "$here/budget-npl-sampled-mar.tsv"
