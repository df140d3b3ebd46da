#!/usr/bin/env bash
# Regenerates every file in this folder: MAP per topic of the CLEF 2017 TAR runs
# (UOS-sis.TMAL30Q_BM25 is left out: it repeats documents and trec_eval rejects
# it), then the pairwise significance tables and discriminative power.
# Usage: doc/examples/compare-clef2017/make.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../../build/default/qrelkit}
data=$here/../../../../shared/data/clef-tar-2017
cd "$data"
runs=$(ls runs/*.run | grep -v TMAL30Q_BM25)
printf '%s\n' $runs > "$here/runs.txt"      # column order of the matrix
"$qk" eval --matrix map -c qrel_abs_test.txt $runs > "$here/map.tsv"
cd "$here"
"$qk" compare --pairs map.tsv --test t > pairs-t.tsv 2>/dev/null
"$qk" compare --pairs map.tsv --test t --summary > pairs-t-summary.tsv 2>/dev/null
"$qk" compare --pairs map.tsv --test t --correct holm --summary > pairs-t-holm-summary.tsv 2>/dev/null
"$qk" compare --pairs map.tsv --test perm --trials 100000 --seed 1 > pairs-perm.tsv 2>/dev/null
"$qk" compare --pairs map.tsv --test perm --trials 100000 --seed 1 --summary > pairs-perm-summary.tsv 2>/dev/null
"$qk" compare --pairs map.tsv --test perm --trials 100000 --seed 1 --correct holm --summary > pairs-perm-holm-summary.tsv 2>/dev/null
