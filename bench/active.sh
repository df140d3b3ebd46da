#!/usr/bin/env bash
# Active sampling: time and memory against the budget (issue #14). One trial
# of `qrelkit simulate pool --methods active` on CLEF 2017 TAR (30 topics,
# 16 runs, depth-100 pools of 459 documents per topic on average; seed 2017,
# one thread) for each budget. Past the pool size a topic is judged to the
# end, where rounds take up to 100,000 draws (the per-round cap) to find the
# last documents of tiny probability (about 280 million draws at budget 800).
# Since the per-round counts (bench/RESULTS.md) those draws are not made one
# by one, so the cost follows the judgments, not the draws. Reported: wall and user
# CPU seconds (best of 2), the same for `--methods depth` (reading the runs
# and qrels, the floor under every row), and peak RSS (GNU time %M). The
# machine is shared: record `uptime` with the table.
# usage: bash bench/active.sh [path/to/qrelkit] [budgets, default 25,50,100,200,400,800]
set -euo pipefail
Q=${1:-build/default/qrelkit}
BUDGETS=${2:-25,50,100,200,400,800}
here=$(cd "$(dirname "$0")" && pwd)
D=${QK_CLEF2017:-$here/../../shared/data/clef-tar-2017}
W=${QK_BENCH_WORK:-bench/work}/active
mkdir -p "$W"
[ -s "$D/qrel_abs_test.txt" ] || { echo "active.sh: no CLEF 2017 data at $D" >&2; exit 3; }
runs=("$D"/runs/*.run)
sim() { # method budget -> "wall user rss_kb"
  local best_w=999999 best_u=999999 rss=0 out
  for _ in 1 2; do
    out=$( { /usr/bin/time -f "TIME %e %U %M" "$Q" simulate pool --qrels "$D/qrel_abs_test.txt" \
             --runs "${runs[@]}" --methods "$1" --budgets "$2" --trials 1 --seed 2017 --threads 1 \
             --quiet > "$W/out.tsv"; } 2>&1 )
    read -r w u r < <(awk '$1=="TIME"{print $2, $3, $4}' <<<"$out")
    best_w=$(awk -v a="$w" -v b="$best_w" 'BEGIN{print (a<b)?a:b}')
    best_u=$(awk -v a="$u" -v b="$best_u" 'BEGIN{print (a<b)?a:b}')
    rss=$(awk -v a="$r" -v b="$rss" 'BEGIN{print (a>b)?a:b}')
  done
  echo "$best_w $best_u $rss"
}
read -r bw bu brss < <(sim depth 10)
echo "| budget | judged / topic | wall s | user CPU s | user CPU s above reading | peak RSS (MB) |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
printf '| reading only (depth 10) | | %s | %s | | %.0f |\n' "$bw" "$bu" "$(awk -v k="$brss" 'BEGIN{print k/1024}')"
for b in ${BUDGETS//,/ }; do
  read -r w u r < <(sim active "$b")
  judged=$(awk -F'\t' 'NR==2{print $3}' "$W/out.tsv")
  awk -v b="$b" -v j="$judged" -v w="$w" -v u="$u" -v bu="$bu" -v k="$r" 'BEGIN {
    above = u - bu; if (above < 0) above = 0
    printf "| %d | %.1f | %.2f | %.2f | %.2f | %.0f |\n", b, j, w, u, above, k / 1024 }'
done
