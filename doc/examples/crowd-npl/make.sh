#!/usr/bin/env bash
# MAGP with real task features: the Vaswani (NPL) collection, whose documents
# and topics are in shared/data, with simulated crowd labels on the top-20
# BM25 documents of every topic (truth = the NPL qrels). Prints one TSV row per
# method: accuracy, F1 and AUC against the truth.
# Crowd model (Li 2020, Algorithm 10 style): worker noise ~ U[2, 4), task
# noise 1, label = [N(±1, noise) > 0], 3 labels per task from 60 workers picked
# with P(j) ∝ j^-1.5. awk's seeded rand makes the labels (mawk and gawk give
# different streams, so figures depend on the awk in use; results.tsv was made
# with the one named in it).
# Usage: doc/examples/crowd-npl/make.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../../build/default/qrelkit}
data=$here/../../../../shared/data/vaswani-npl
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-crowd-npl.XXXXXX")
trap 'rm -rf "$work"' EXIT; [ -n "${KEEP:-}" ] && trap - EXIT && echo "$work" >&2
"$qk" index --quiet -o "$work/npl.idx" "$data/corpus/doc-text.trec"
"$qk" search -i "$work/npl.idx" -t "$data/query-text.trec" --depth 20 -o "$work/bm25.run"
"$qk" search -i "$work/npl.idx" -t "$data/query-text.trec" -m qld --depth 20 -o "$work/qld.run"
# Tasks and truth: the BM25 top 20 of each topic; relevant iff in the qrels.
awk 'NR==FNR {rel[$1" "$3]=1; next} {t=$1" "$3; print $1"\t"$3"\t"(t in rel ? 1 : 0)}' \
    "$data/qrels" "$work/bm25.run" > "$work/truth.tsv"
{ printf 'topic\tdocno\tlabel\n'; cat "$work/truth.tsv"; } > "$work/gold.tsv"
awk -v seed=7 'BEGIN {srand(seed); M=60; z=0
       for (j=1; j<=M; j++) {noise[j]=2+2*rand(); z+=j^-1.5; cdf[j]=z}}
     function gauss() {return sqrt(-2*log(1-rand()))*cos(6.283185307179586*rand())}
     function pick(  u, j) {u=rand()*z; for (j=1; j<M && cdf[j]<u; j++); return j}
     BEGIN {print "topic\tdocno\tworker\tlabel"}
     {y=$3 ? 1 : -1; n=0; delete used
      while (n<3) {j=pick(); if (j in used) continue; used[j]=1; n++
        b=y+sqrt(1+noise[j])*gauss(); print $1"\t"$2"\tw"j"\t"(b>0 ? 1 : 0)}}' \
    "$work/truth.tsv" > "$work/labels.tsv"
printf 'method\taccuracy\tf1\tauc\n'
row() {
    local name=$1; shift
    "$qk" aggregate "$@" "$work/labels.tsv" --gold "$work/gold.tsv" 2>/dev/null |
        awk -F'\t' -v n="$name" '$1=="accuracy"{a=$2} $1=="f1"{f=$2} $1=="auc"{u=$2} END{printf "%s\t%s\t%s\t%s\n", n, a, f, u}'
}
row mv -m mv
row ds -m ds
row glad -m glad
row mace -m mace
row "magp (no features)" -m magp
row "magp + lexical" -m magp --lexical "$work/npl.idx" --topics "$data/query-text.trec"
row "magp + lexical + ranks" -m magp --lexical "$work/npl.idx" --topics "$data/query-text.trec" \
    --run "$work/bm25.run" --run "$work/qld.run" --rank-features
row "gpmv (no features)" -m gpmv
row "gpmv + lexical" -m gpmv --lexical "$work/npl.idx" --topics "$data/query-text.trec"
row "gpmv + lexical + ranks" -m gpmv --lexical "$work/npl.idx" --topics "$data/query-text.trec" \
    --run "$work/bm25.run" --run "$work/qld.run" --rank-features
row lk -m lk
row "magp, learnt kernel" -m magp --learn-kernel
row "magp + lexical, learnt kernel" -m magp --learn-kernel --lexical "$work/npl.idx" --topics "$data/query-text.trec"
row "magp + lexical + ranks, learnt kernel" -m magp --learn-kernel --lexical "$work/npl.idx" \
    --topics "$data/query-text.trec" --run "$work/bm25.run" --run "$work/qld.run" --rank-features
