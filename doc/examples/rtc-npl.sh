#!/usr/bin/env bash
# The RTC experiment (Carterette 2007; spec 002 sec. 5-7) on the Vaswani NPL
# collection with 30 runs made by qrelkit itself (`qrelkit search --zoo 30` over
# a Porter and an unstemmed index), the complete NPL qrels as the assessor:
#   rtc-npl.tsv         the experiment with the paper's settings (50 trials)
#   rtc-npl-tuning.tsv  the stage-2 pseudo-count s (the prior the paper does not
#                       report, spec 002 A6) over a grid, 30 trials each with
#                       another seed: NPL as the training collection, the way the
#                       paper tuned its priors on TREC-4 before testing elsewhere
# Usage (from anywhere): doc/examples/rtc-npl.sh [path/to/qrelkit]
# About 25 minutes on one core. Seeded, so the files are the same on every machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../build/default/qrelkit}
data=$here/../../../shared/data/vaswani-npl
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-rtcnpl.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$qk" index --quiet -o "$work/p.idx" "$data/corpus/doc-text.trec"
"$qk" index --quiet -o "$work/n.idx" --stemmer none "$data/corpus/doc-text.trec"
"$qk" search -i "$work/p.idx" -i "$work/n.idx" -t "$data/query-text.trec" --zoo 30 --seed 95 \
    --threads 2 -o "$work/zoo"
cd "$work" # run names in the output are then zoo/NAME.run, the same on every machine
"$qk" confidence --simulate "$data/qrels" --trials 50 zoo/*.run > "$here/rtc-npl.tsv"
{
  printf 's\tmethod\tpairs\tW\taccuracy\ttau\tmedian_judged\tmean_judged\n'
  for s in 0.03 0.1 0.3 1 3 10; do
    "$qk" confidence --simulate "$data/qrels" --trials 30 --seed 95 --rtc-s "$s" zoo/*.run |
      awk -v s="$s" -F'\t' '$1 == "method" && $2 == "pairs" { on = 1; next }
                            on && NF == 0 { exit }
                            on { print s "\t" $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 }'
  done
} > "$here/rtc-npl-tuning.tsv"
