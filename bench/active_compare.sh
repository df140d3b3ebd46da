#!/usr/bin/env bash
# Active sampling before and after the per-round counts (issue #14): the
# draw order changed once, so the same seed gives other samples; this checks
# that the estimates have the same distribution. OLD and NEW are two qrelkit
# binaries (OLD built from the commit before, e.g. `git worktree add
# /tmp/old 4e854a6`). Each makes TRIALS independent one-trial runs of
# `simulate pool --methods active` (seeds 1..TRIALS) on the first 8 CLEF 2017
# topics at pool depth 20 (about 72 documents per topic), at budgets 10, 40
# and 80 judgments per topic; 80 judges the pools to the end, where rounds
# take thousands of draws, the case the change is about. Then
# bench/active_compare.py tests, per budget and per statistic (judged,
# relevant, rmse_map, bias_map, tau, rmse_p10, rmse_rprec), old against new:
# two-sample Kolmogorov-Smirnov, Welch's t on the means, Brown-Forsythe
# (Levene on medians) on the spread.
# usage: bash bench/active_compare.sh OLD NEW [TRIALS, default 1000]
set -euo pipefail
OLD=$1 NEW=$2 TRIALS=${3:-1000}
here=$(cd "$(dirname "$0")" && pwd)
D=${QK_CLEF2017:-$here/../../shared/data/clef-tar-2017}
W=${QK_BENCH_WORK:-bench/work}/active-compare
mkdir -p "$W/runs"
[ -s "$D/qrel_abs_test.txt" ] || { echo "active_compare.sh: no CLEF 2017 data at $D" >&2; exit 3; }
awk '{print $1}' "$D/qrel_abs_test.txt" | uniq | head -8 > "$W/topics.txt"
awk 'NR==FNR{t[$1]=1;next} ($1 in t)' "$W/topics.txt" "$D/qrel_abs_test.txt" > "$W/qrels.txt"
# each run's 20 best documents per topic (score down, docno down; a
# collection of its own, cheap to read, the same input for both binaries)
for f in "$D"/runs/*.run; do
  awk 'NR==FNR{t[$1]=1;next} ($1 in t)' "$W/topics.txt" "$f" | LC_ALL=C sort -k1,1 -k5,5gr -k3,3r |
    awk '{ if (++n[$1] <= 20) print }' > "$W/runs/$(basename "$f")"
done
one() { # binary label
  local out="$W/$2.tsv"
  : > "$out"
  for s in $(seq 1 "$TRIALS"); do
    "$1" simulate pool --qrels "$W/qrels.txt" --runs "$W"/runs/*.run --methods active \
      --budgets 10,40,80 --depth 20 --trials 1 --seed "$s" --threads 1 --quiet |
      awk -v s="$s" 'NR > 1 { print s "\t" $0 }' >> "$out"
  done
}
one "$OLD" old &
one "$NEW" new &
wait
python3 "$here/active_compare.py" "$W/old.tsv" "$W/new.tsv"
