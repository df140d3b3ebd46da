#!/usr/bin/env bash
# Pooling on the CLEF 2017 runs and qrels (../shared/data/clef-tar-2017):
#  1. the depth-100 pool that `qrelkit pool --method depth` hands out is the
#     union of every run's top 100, computed here independently with sort/awk
#     (trec_eval's order: score descending, ties by docno descending; a docno
#     repeated within a run topic keeps its first place);
#  2. the judging loop run in batches with the qrels as the assessor gives
#     the same judgments as one big batch (statap: the sample is nested);
#  3. with a budget that covers every pool, statAP has pi = 1 and must give
#     the complete-judgment MAP exactly (RMSE 0, tau 1).
set -u
. "$(dirname "$0")/common.bash"
need_shared
bin=$1
dir="$QK_SHARED/data/clef-tar-2017"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# 1. independent depth-100 pool
for r in "$dir"/runs/*.run; do
  tr -d '\r' < "$r" | awk 'NF >= 6 { print $1, $3, $5 }' |
    sort -k1,1 -k3,3gr -k2,2r | awk '!seen[$1 " " $2]++ { if (++n[$1] <= 100) print $1 "\t" $2 }'
done | sort -u > "$tmp/want"
"$bin" pool --method depth --runs "$dir"/runs/*.run --budget 1000000 --batch 1000000 |
  tail -n +2 | cut -f1,2 | sort -u > "$tmp/got"
if ! cmp -s "$tmp/want" "$tmp/got"; then
  echo "FAIL depth-100 pool: $(wc -l < "$tmp/got") documents, expected $(wc -l < "$tmp/want")"; fail=1
fi

# 2. batches of 5 (4 calls) == one batch of 20
judge() { awk 'NR == FNR { rel[$1 " " $3] = $4; next } FNR > 1 { print $1, 0, $2, (($1 " " $2) in rel ? rel[$1 " " $2] : 0) }' "$dir/qrel_abs_test.txt" -; }
: > "$tmp/j"
for i in 1 2 3 4; do
  "$bin" pool --method statap --design "$tmp/d" --judged "$tmp/j" --runs "$dir"/runs/*.run --budget 20 --batch 5 --seed 9 | judge >> "$tmp/j"
done
"$bin" pool --method statap --design "$tmp/d1" --runs "$dir"/runs/*.run --budget 20 --batch 20 --seed 9 | judge > "$tmp/j1"
if ! cmp -s <(sort "$tmp/j") <(sort "$tmp/j1"); then echo "FAIL statap in batches differs from one batch"; fail=1; fi
[ "$(wc -l < "$tmp/j")" -eq 600 ] || { echo "FAIL statap: $(wc -l < "$tmp/j") judgments, expected 30 x 20"; fail=1; }

# 3. statAP with every pool document sampled is exact
"$bin" simulate pool --qrels "$dir/qrel_abs_test.txt" --runs "$dir"/runs/*.run --methods statap \
  --budgets 100000 --trials 1 --quiet > "$tmp/sim" || { echo "FAIL simulate exit $?"; fail=1; }
awk -F'\t' 'NR == 2 && ($5 + 0 > 1e-9 || $12 + 0 < 1 - 1e-9) { print "FAIL full-budget statAP: rmse " $5 ", tau " $12; exit 1 }' "$tmp/sim" || fail=1
[ $fail = 0 ] && echo "ok: depth-100 pool ($(wc -l < "$tmp/got") documents), batched loop, exact full-budget statAP"
exit $fail
