#!/usr/bin/env bash
# Regenerates topics-adaptive-{clef2017,npl}-{all,heldout}.tsv and their SVG
# plots: Hosseini's chapter-6 experiments (E6.1 every system participates,
# E6.4 systems held out by group) with `qrelkit simulate topics-adaptive`, on
# the CLEF 2017 TAR runs and qrels and on Vaswani NPL with a 30-run
# `qrelkit search --zoo` (held-out groups: CLEF teams, NPL retrieval models).
# Usage: doc/examples/topics-adaptive.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../build/default/qrelkit}
clef=$here/../../../shared/data/clef-tar-2017
npl=$here/../../../shared/data/vaswani-npl
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-topicsad.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$qk" index --quiet -o "$work/p.idx" "$npl/corpus/doc-text.trec"
"$qk" index --quiet -o "$work/n.idx" --stemmer none "$npl/corpus/doc-text.trec"
"$qk" search -i "$work/p.idx" -i "$work/n.idx" -t "$npl/query-text.trec" --zoo 30 --seed 5 --threads 2 -o "$work/zoo"
awk -F'\t' 'NR > 1 { print $1, $3 }' "$work/zoo/zoo.tsv" > "$work/groups.txt"

parts=${PARTS:-clef npl}   # PARTS=npl regenerates the NPL tables only
common=(--metric ap --pool-depth 100 --random-trials 1000 --oracle-trials 10000 --seed 7)
if [[ $parts == *clef* ]]; then
    cr=("$clef"/runs/*.run)
    sizes=2,4,6,8,10,12,15,18,24
    "$qk" simulate topics-adaptive --qrels "$clef/qrel_abs_test.txt" --runs "${cr[@]}" "${common[@]}" --trials 20 \
        --methods random,adaptive,iqp,oracle,greedy-true --sizes $sizes > "$here/topics-adaptive-clef2017-all.tsv"
    "$qk" simulate topics-adaptive --qrels "$clef/qrel_abs_test.txt" --runs "${cr[@]}" "${common[@]}" --trials 20 \
        --held-out --methods random,adaptive,adaptive-plus,oracle --sizes $sizes \
        > "$here/topics-adaptive-clef2017-heldout.tsv"
    # ablations: Adaptive without U, and with the true labels (a perfect classifier)
    { "$qk" simulate topics-adaptive --qrels "$clef/qrel_abs_test.txt" --runs "${cr[@]}" "${common[@]}" --trials 20 \
          --methods adaptive --sizes $sizes --no-uncertainty | sed 's/^adaptive\t/adaptive-no-u\t/'
      "$qk" simulate topics-adaptive --qrels "$clef/qrel_abs_test.txt" --runs "${cr[@]}" "${common[@]}" --trials 20 \
          --methods adaptive --sizes $sizes --true-labels | sed 's/^adaptive\t/adaptive-true-labels\t/' | grep -v '^[#m]'
    } > "$here/topics-adaptive-clef2017-ablation.tsv"
fi
if [[ $parts == *npl* ]]; then
    # the four runs are independent: in parallel
    sizes=5,10,19,28
    "$qk" simulate topics-adaptive --qrels "$npl/qrels" --runs "$work"/zoo/*.run "${common[@]}" --trials 5 \
        --methods random,adaptive,iqp,oracle,greedy-true --sizes $sizes > "$here/topics-adaptive-npl-all.tsv" &
    "$qk" simulate topics-adaptive --qrels "$npl/qrels" --runs "$work"/zoo/*.run "${common[@]}" --trials 5 \
        --held-out --groups "$work/groups.txt" --methods random,adaptive,adaptive-plus,oracle --sizes $sizes \
        > "$here/topics-adaptive-npl-heldout.tsv" &
    "$qk" simulate topics-adaptive --qrels "$npl/qrels" --runs "$work"/zoo/*.run "${common[@]}" --trials 5 \
        --methods adaptive --sizes $sizes --no-uncertainty > "$work/npl-no-u.tsv" &
    "$qk" simulate topics-adaptive --qrels "$npl/qrels" --runs "$work"/zoo/*.run "${common[@]}" --trials 5 \
        --methods adaptive --sizes $sizes --true-labels > "$work/npl-true.tsv" &
    wait
    { sed 's/^adaptive\t/adaptive-no-u\t/' "$work/npl-no-u.tsv"
      sed 's/^adaptive\t/adaptive-true-labels\t/' "$work/npl-true.tsv" | grep -v '^[#m]'
    } > "$here/topics-adaptive-npl-ablation.tsv"
fi

# tau against the number of topics: random's mean with its 2.5-97.5 % band,
# the other methods' means
for f in clef2017-all clef2017-heldout npl-all npl-heldout; do
    tsv=$here/topics-adaptive-$f.tsv
    [ -s "$tsv" ] || continue
    for m in random adaptive iqp oracle greedy-true adaptive-plus; do
        awk -F'\t' -v m=$m '$1 == m { print $2, $4, $7, $8 }' "$tsv" > "$work/$m.dat"
    done
    {
        echo "set terminal svg size 720,440 dynamic background '#ffffff'"
        echo "set output '$here/topics-adaptive-$f.svg'"
        echo "set title 'Kendall tau of MAP over the subset vs all topics ($f)'"
        echo "set xlabel 'topics judged'; set ylabel 'tau'; set key bottom right; set grid"
        printf "plot '%s' using 1:3:4 with filledcurves lc rgb '#dddddd' title 'random 95%% band'" "$work/random.dat"
        for m in random adaptive iqp oracle greedy-true adaptive-plus; do
            [ -s "$work/$m.dat" ] && printf ", '%s' using 1:2 with linespoints title '%s'" "$work/$m.dat" "$m"
        done
        echo
    } | gnuplot
done
