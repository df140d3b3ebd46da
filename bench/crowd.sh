#!/usr/bin/env bash
# Crowd aggregation benchmark (issue #6): 1,000,000 binary labels, 100,000
# tasks, 5,000 workers with accuracy uniform in [0.55, 0.95], 10 labels per
# task, seed 1, made by `qrelkit simulate crowd`. Times Dawid-Skene, one-coin
# and MV: time per EM iteration (100 iterations, no early stop, from the
# program's own --timing clock around the aggregation only), wall time of the
# whole command (read + aggregate) and peak RSS (GNU time %M). Best of 3.
# usage: bash bench/crowd.sh [path/to/qrelkit]
set -euo pipefail
Q=${1:-build/default/qrelkit}
W=${QK_BENCH_WORK:-bench/work}/crowd
mkdir -p "$W"
if [ ! -s "$W/labels.tsv" ]; then
  "$Q" simulate crowd --out "$W" --tasks 100000 --workers 5000 --labels-per-task 10 \
      --accuracy-range 0.55,0.95 --seed 1
fi
echo "| method | labels | iterations | s / iteration (best of 3) | aggregate s | wall s (read + aggregate) | peak RSS (MB) | accuracy |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for m in "ds --tol -1 --max-iter 100" "onecoin --tol -1 --max-iter 100" "mv" "glad --tol -1 --max-iter 10" "mace --restarts 1"; do
  best_it=999; best_agg=999; best_wall=999; rss=0
  for _ in 1 2 3; do
    # shellcheck disable=SC2086
    out=$( { /usr/bin/time -f "TIME %e %M" "$Q" aggregate -m $m "$W/labels.tsv" --gold "$W/gold.tsv" --timing; } 2>&1 )
    it=$(awk '$1=="seconds_per_iteration"{print $2}' <<<"$out")
    agg=$(awk '$1=="seconds_aggregate"{print $2}' <<<"$out")
    wall=$(awk '$1=="TIME"{print $2}' <<<"$out"); r=$(awk '$1=="TIME"{print $3}' <<<"$out")
    acc=$(awk '$1=="accuracy"{print $2}' <<<"$out"); n=$(awk '$1=="iterations"{print $2}' <<<"$out")
    best_it=$(awk -v a="$it" -v b="$best_it" 'BEGIN{print (a<b)?a:b}')
    best_agg=$(awk -v a="$agg" -v b="$best_agg" 'BEGIN{print (a<b)?a:b}')
    best_wall=$(awk -v a="$wall" -v b="$best_wall" 'BEGIN{print (a<b)?a:b}')
    [ "$r" -gt "$rss" ] && rss=$r
  done
  printf '| %s | 1000000 | %s | %.4f | %.3f | %.2f | %.1f | %s |\n' "$m" "$n" "$best_it" "$best_agg" "$best_wall" \
    "$(awk -v k="$rss" 'BEGIN{print k/1024}')" "$acc"
done
