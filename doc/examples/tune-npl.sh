#!/usr/bin/env bash
# The NPL experiment of doc/examples/tune-npl.md: BM25 defaults vs the best of
# a grid vs BO (EI) and random search at a tenth of the grid's evaluations,
# over SEEDS seeds, for (k1, b) and for the larger space (model, RM3).
# Usage: tune-npl.sh QRELKIT OUTDIR [SEEDS] [SPACE...]   (SPACE: bm25, large)
set -eu
qk=$1; out=$2; seeds=${3:-10}; shift 3 || shift $#
spaces=${*:-bm25 large}
here=$(cd "$(dirname "$0")" && pwd)
npl=${QK_SHARED:-$here/../../../shared}/data/vaswani-npl
mkdir -p "$out"
[ -f "$out/npl.idx" ] || "$qk" index --quiet -o "$out/npl.idx" "$npl/corpus/doc-text.trec"
common=(-q "$npl/qrels" -i "$out/npl.idx" -t "$npl/query-text.trec" --quiet)
for sp in $spaces; do
  space=$here/tune-npl-$sp.json
  if [ "$sp" = bm25 ]; then steps=20; budget=40; else steps=3; budget=100; fi
  [ -s "$out/$sp-grid.tsv" ] || "$qk" tune -s "$space" "${common[@]}" --method grid --grid-steps $steps > "$out/$sp-grid.tsv"
  for s in $(seq 1 "$seeds"); do
    for m in bo random; do
      f=$out/$sp-$m-$s.tsv
      [ -s "$f" ] || /usr/bin/time -f "%U %S" -o "$f.cpu" "$qk" tune -s "$space" "${common[@]}" --method $m \
        --budget $budget --seed "$s" --log "$out/$sp-$m-$s.jsonl" > "$f"
    done
  done
done
