#!/usr/bin/env bash
# Zobel's power law for pool depth (qrelkit pool --zobel) on CLEF TAR 2017
# (the 16 participant runs, qrel_abs_test.txt) and on Vaswani NPL (16 runs
# made by qrelkit itself, as in pool-npl.sh). Writes pool-zobel-*.tsv here;
# the page is doc/examples/pool-zobel.md.
# Usage: doc/examples/pool-zobel.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../build/default/qrelkit}
clef=$here/../../../shared/data/clef-tar-2017
npl=$here/../../../shared/data/vaswani-npl
# CLEF: fit on depths up to 100 and extrapolate, then count the deep pools
"$qk" pool --zobel 1,2,5,10,20,50,100 --extrapolate 200,500,1000,2000 \
    --judged "$clef/qrel_abs_test.txt" --runs "$clef"/runs/*.run > "$here/pool-zobel-clef2017-fit100.tsv"
"$qk" pool --zobel 10,20,50,100 --extrapolate 200,500,1000,2000 \
    --judged "$clef/qrel_abs_test.txt" --runs "$clef"/runs/*.run > "$here/pool-zobel-clef2017-fit10-100.tsv"
"$qk" pool --zobel 1,2,5,10,20,50,100,200,500,1000,2000 \
    --judged "$clef/qrel_abs_test.txt" --runs "$clef"/runs/*.run > "$here/pool-zobel-clef2017-deep.tsv"
# NPL: runs from qrelkit search
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-zobel.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$qk" index --quiet -o "$work/p.idx" "$npl/corpus/doc-text.trec"
"$qk" index --quiet -o "$work/n.idx" --stemmer none "$npl/corpus/doc-text.trec"
"$qk" search -i "$work/p.idx" -i "$work/n.idx" -t "$npl/query-text.trec" --zoo 16 --seed 5 --threads 2 -o "$work/zoo"
"$qk" pool --zobel 1,2,5,10,20,50,100 --extrapolate 200,500,1000 \
    --judged "$npl/qrels" --runs "$work"/zoo/*.run > "$here/pool-zobel-npl-fit100.tsv"
"$qk" pool --zobel 1,2,5,10,20,50,100,200,500,1000 \
    --judged "$npl/qrels" --runs "$work"/zoo/*.run > "$here/pool-zobel-npl-deep.tsv"
