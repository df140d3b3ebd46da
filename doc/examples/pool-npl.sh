#!/usr/bin/env bash
# Regenerates pool-npl.tsv, pool-npl.svg and pool-npl-logo.tsv: the pooling
# simulation on the Vaswani (NPL) collection with 16 runs made by qrelkit
# itself (`qrelkit search --zoo 16` over a Porter and an unstemmed index), the
# complete NPL qrels as the assessor; then leave-one-group-out with the
# systems grouped by retrieval model (bm25, qld, qljm); and statAP's two sampling
# designs, active sampling, its non-adaptive counterpart (Li's "Stratif",
# --active-weights uniform) and the run weights of Li's released code
# (--active-weights judged) over 100 trials (pool-npl-design100.tsv).
# Usage: doc/examples/pool-npl.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../build/default/qrelkit}
data=$here/../../../shared/data/vaswani-npl
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-poolnpl.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$qk" index --quiet -o "$work/p.idx" "$data/corpus/doc-text.trec"
"$qk" index --quiet -o "$work/n.idx" --stemmer none "$data/corpus/doc-text.trec"
"$qk" search -i "$work/p.idx" -i "$work/n.idx" -t "$data/query-text.trec" --zoo 16 --seed 5 --threads 2 -o "$work/zoo"
awk -F'\t' 'NR > 1 { print $1, $3 }' "$work/zoo/zoo.tsv" > "$work/groups.txt"
"$qk" simulate pool --qrels "$data/qrels" --runs "$work"/zoo/*.run \
    --methods depth,statap,active,mtc,mtf,mab --budgets 10,20,40,80,160,320 \
    --trials 20 --seed 93 --threads 2 --quiet --plot "$here/pool-npl.svg" > "$here/pool-npl.tsv"
"$qk" simulate pool --qrels "$data/qrels" --runs "$work"/zoo/*.run --logo --groups "$work/groups.txt" \
    --methods depth,statap,active,mtf,mab --budgets 20,80,320 \
    --trials 10 --seed 93 --threads 2 --quiet > "$here/pool-npl-logo.tsv"
# statAP's two designs (pi-ps, the default, and --strata 8), active sampling and
# active sampling with uniform run weights, over 100 trials
"$qk" simulate pool --qrels "$data/qrels" --runs "$work"/zoo/*.run --methods statap,active \
    --budgets 10,20,40,80,160,320 --trials 100 --seed 93 --threads 2 --quiet > "$work/pps.tsv"
"$qk" simulate pool --qrels "$data/qrels" --runs "$work"/zoo/*.run --methods statap --strata 8 \
    --budgets 10,20,40,80,160,320 --trials 100 --seed 93 --threads 2 --quiet > "$work/strata.tsv"
"$qk" simulate pool --qrels "$data/qrels" --runs "$work"/zoo/*.run --methods active --active-weights uniform \
    --budgets 10,20,40,80,160,320 --trials 100 --seed 93 --threads 2 --quiet > "$work/uniform.tsv"
"$qk" simulate pool --qrels "$data/qrels" --runs "$work"/zoo/*.run --methods active --active-weights judged \
    --budgets 10,20,40,80,160,320 --trials 100 --seed 93 --threads 2 --quiet > "$work/judged.tsv"
{ cat "$work/pps.tsv"; tail -n +2 "$work/strata.tsv" | sed 's/^statap/statap-strata8/'
  tail -n +2 "$work/uniform.tsv" | sed 's/^active/active-uniform/'
  tail -n +2 "$work/judged.tsv" | sed 's/^active/active-judged/'; } > "$here/pool-npl-design100.tsv"
