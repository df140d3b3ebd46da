#!/usr/bin/env bash
# Pooling benchmark (issue #5): time per batch of MTC and active sampling on a
# synthetic collection of 100 runs x 1,000 topics, 1,000 candidate documents
# per topic, every run ranking 100 of them (`qrelkit sim collection`, seed 5;
# the pool holds about 1,000 documents per topic, 10^7 run lines). Each batch
# is one `qrelkit pool` call: MTC one document per topic (exact MTC, weights
# over all 100 runs), active sampling one round of 3 new documents per topic.
# The judgments of each batch come from the collection's qrels and are
# appended before the next call, so later batches work on a growing judged
# set and (active) a growing design. Reported: the choosing time of a batch
# (the program's own --timing clock around qk_pool_next; mean of batches
# 2-6), the reading time (runs + judgments + design) and wall time of one call,
# and peak RSS (GNU time %M).
# usage: bash bench/pool.sh [path/to/qrelkit]
set -euo pipefail
Q=${1:-build/default/qrelkit}
W=${QK_BENCH_WORK:-bench/work}/pool
mkdir -p "$W"
if [ ! -s "$W/c/qrels.txt" ]; then
  "$Q" sim collection --out "$W/c" --topics 1000 --docs-per-topic 1000 --depth 100 --runs 100 --seed 5 --quiet
fi
judge() { awk 'NR == FNR { rel[$1 " " $3] = $4; next } FNR > 1 { print $1, 0, $2, (($1 " " $2) in rel ? rel[$1 " " $2] : 0) }' "$W/c/qrels.txt" -; }
echo "| method | batch per topic | documents per batch | choose s / batch (mean of batches 2-6) | read s / call | wall s / call | peak RSS (MB) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for m in mtc active; do
  b=1; [ $m = active ] && b=3
  rm -f "$W/judged.qrels" "$W/design.txt"; : > "$W/judged.qrels"
  sel=0; rd=0; wall=0; rss=0; docs=0
  for i in 1 2 3 4 5 6; do
    out=$( { /usr/bin/time -f "TIME %e %M" "$Q" pool --method $m --design "$W/design.txt" --batch $b --budget 1000 \
             --judged "$W/judged.qrels" --runs "$W"/c/runs/*.run --timing > "$W/next.tsv"; } 2>&1 )
    judge < "$W/next.tsv" >> "$W/judged.qrels"
    if [ $i -gt 1 ]; then
      sel=$(awk -v s="$sel" '$1=="seconds_select"{print s + $2}' <<<"$out")
      rd=$(awk -v s="$rd" '$1=="seconds_read"{print s + $2}' <<<"$out")
      wall=$(awk -v s="$wall" '$1=="TIME"{print s + $2}' <<<"$out")
      rss=$(awk -v s="$rss" '$1=="TIME"{print ($3 > s) ? $3 : s}' <<<"$out")
      docs=$(awk '$1=="selected"{print $2}' <<<"$out")
    fi
  done
  awk -v m=$m -v b=$b -v d="$docs" -v s="$sel" -v r="$rd" -v w="$wall" -v k="$rss" \
    'BEGIN { printf "| %s | %d | %d | %.3f | %.2f | %.2f | %.0f |\n", m, b, d, s / 5, r / 5, w / 5, k / 1024 }'
done
