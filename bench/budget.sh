#!/usr/bin/env bash
# QDP benchmark (issue #17): one `qrelkit budget plan` step on the pooling
# benchmark's collection (bench/pool.sh: 100 runs x 1,000 topics, every run
# ranking 100 of 1,000 candidates per topic, `qrelkit sim collection` seed 5;
# the depth-100 pool holds about 1,000 documents per topic). Stage 1 (no
# judgments: uniform) plans 2,000 pairs, which are judged from the qrels;
# then one QDP stage of 2,000 pairs with lambda 0 (X-hat, V, Sigma, beta)
# and with lambda 0.5 (plus r_j: the classifier over the judged documents
# and every unjudged pooled one), and the UN / SA stages for comparison.
# Reported: the plan time (the program's --timing clock around
# qk_budget_plan_next), the reading time, wall time and peak RSS (GNU time).
# usage: bash bench/budget.sh [path/to/qrelkit]
set -euo pipefail
Q=${1:-build/default/qrelkit}
W=${QK_BENCH_WORK:-bench/work}/pool
mkdir -p "$W"
if [ ! -s "$W/c/qrels.txt" ]; then
  "$Q" sim collection --out "$W/c" --topics 1000 --docs-per-topic 1000 --depth 100 --runs 100 --seed 5 --quiet
fi
judge() { awk 'NR == FNR { rel[$1 " " $3] = $4; next } FNR > 1 { print $1, 0, $2, (($1 " " $2) in rel ? rel[$1 " " $2] : 0) }' "$W/c/qrels.txt" -; }
"$Q" budget plan --method un --budget 2000 --runs "$W"/c/runs/*.run > "$W/stage1.tsv"
judge < "$W/stage1.tsv" > "$W/budget-judged.qrels"
echo "| stage 2 | lambda | pairs | plan s | read s | wall s | peak RSS (MB) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for spec in "qdp 0" "qdp 0.5" "qdp-star 0" "un 0" "sa 0"; do
  set -- $spec
  out=$( { /usr/bin/time -f "TIME %e %M" "$Q" budget plan --method "$1" --lambda "$2" --budget 2000 \
           --judged "$W/budget-judged.qrels" --runs "$W"/c/runs/*.run --timing > "$W/next.tsv"; } 2>&1 )
  awk -v m="$1" -v l="$2" '$1=="seconds_plan"{p=$2} $1=="seconds_read"{r=$2} $1=="planned"{n=$2}
       $1=="TIME"{w=$2; k=$3} END { printf "| %s | %s | %d | %.3f | %.2f | %.2f | %.0f |\n", m, l, n, p, r, w, k / 1024 }' <<<"$out"
done
