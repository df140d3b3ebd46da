#!/usr/bin/env bash
# Regenerates the tables and plots of doc/examples/topics-l2r.md: Kutlu et
# al.'s learning-to-rank topic selection (spec 001-004 §1.5-1.8, §1.12) on
# CLEF eHealth TAR 2017 (16 public runs, 30 test topics, abstract qrels,
# --dedup first) and Vaswani NPL (93 topics, the 30-run zoo of topics-npl.sh).
# Ground truth: MAP@100 (AP@100 per topic) on all topics of the test set.
#   cross:  MART trained on one collection's Alg. 3 records, tested on the other
#   halves: trained on the odd-numbered half of a collection's topics (in the
#           qrels' order), tested on the even half, and the reverse
# Against the Greedy Oracle (Alg. 1, needs all judgments), the prediction
# baseline (Adaptive from a random first topic; 5 seeds; in the cross and the
# halves tables) and random subsets
# (1,000 draws). Ablation: the CLEF-trained model without each feature subset,
# tested on NPL, mean tau over every size.
# Usage: doc/examples/topics-l2r.sh [path/to/qrelkit]   (about 15 min CPU)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../build/default/qrelkit}
ev="python3 $here/topics-l2r-eval.py"
data=${QK_DATA:-$here/../../../shared/data}
npl=$data/vaswani-npl
clef=$data/clef-tar-2017
work=${QK_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/qk-l2r.XXXXXX")}
[ -n "${QK_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
cd "$work"
# ---- the collections --------------------------------------------------------
if [ ! -d zoo ]; then
    "$qk" index --quiet -o p.idx "$npl/corpus/doc-text.trec"
    "$qk" index --quiet -o n.idx --stemmer none "$npl/corpus/doc-text.trec"
    "$qk" search -i p.idx -i n.idx -t "$npl/query-text.trec" --zoo 30 --seed 5 --threads 2 -o zoo
fi
nplruns=(zoo/*.run)
clefruns=("$clef"/runs/*.run)
"$qk" eval -c --matrix AP@100 "$npl/qrels" "${nplruns[@]}" > npl-ap.tsv
"$qk" eval -c --dedup first --matrix AP@100 "$clef/qrel_abs_test.txt" "${clefruns[@]}" > clef-ap.tsv 2>/dev/null
cp "$npl/qrels" npl-qrels.txt
cp "$clef/qrel_abs_test.txt" clef-qrels.txt
# halves: the matrix' topics alternately to A and B
for c in npl clef; do
    awk -F'\t' 'NR == 1 { print > "'$c'-A-ap.tsv"; print > "'$c'-B-ap.tsv"; next }
                { print > ((NR % 2 == 0) ? "'$c'-A-ap.tsv" : "'$c'-B-ap.tsv") }' $c-ap.tsv
    for h in A B; do
        awk -F'\t' 'NR > 1 { print $1 }' $c-$h-ap.tsv > $c-$h.topics
        awk 'NR == FNR { keep[$1] = 1; next } ($1 in keep)' $c-$h.topics $c-qrels.txt > $c-$h-qrels.txt
    done
done
runs_of() { if [ "$1" = npl ]; then echo "${nplruns[@]}"; else echo "${clefruns[@]}"; fi; }
reps() { if [ "$1" = npl ]; then echo 30; else echo 100; fi; }
# ---- training: Alg. 3 records, MART (50 trees, 10 leaves) ---------------------
for c in npl clef; do
    "$qk" topics train --no-train --write-data $c.letor --reps "$(reps $c)" --collection $c \
        --matrix $c-ap.tsv $(runs_of $c)
    "$qk" topics train --model $c.model --data $c.letor
    for h in A B; do
        "$qk" topics train --model $c-$h.model --reps "$(reps $c)" --collection $c-$h \
            --matrix $c-$h-ap.tsv $(runs_of $c)
    done
done
# ---- selection and tau vs topics ----------------------------------------------
other() { if [ "$1" = npl ]; then echo clef; else echo npl; fi; }
for c in npl clef; do
    n=$(($(wc -l < $c-ap.tsv) - 1))
    "$qk" topics select --method l2r --model "$(other $c)".model --size $n --qrels $c-qrels.txt \
        $(runs_of $c) > l2r-cross-$c.tsv
    "$qk" topics select --method greedy-oracle --size $n --matrix $c-ap.tsv > go-$c.tsv
    pred=""
    for s in 1 2 3 4 5; do
        "$qk" topics select --method prediction --size $((n < 50 ? n : 50)) --seed $s $c-qrels.txt \
            $(runs_of $c) > pred-$c-$s.tsv 2>/dev/null
        pred="$pred${pred:+,}pred-$c-$s.tsv"
    done
    $ev $c-ap.tsv --order "l2r (trained on $(other $c))=l2r-cross-$c.tsv" --order greedy-oracle=go-$c.tsv \
        --order "prediction (5 seeds)=$pred" --draws 1000 --seed 7 \
        --title "$c: tau_b vs MAP@100 on all $n topics; L2R trained on $(other $c)" \
        --svg "$here/topics-l2r-cross-$c.svg" > "$here/topics-l2r-cross-$c.tsv"
    for h in A B; do
        t=$([ $h = A ] && echo B || echo A)
        m=$(($(wc -l < $c-$t-ap.tsv) - 1))
        "$qk" topics select --method l2r --model $c-$h.model --size $m --qrels $c-$t-qrels.txt \
            $(runs_of $c) > l2r-half-$c-$t.tsv
        "$qk" topics select --method greedy-oracle --size $m --matrix $c-$t-ap.tsv > go-$c-$t.tsv
        pred=""
        for s in 1 2 3 4 5; do
            "$qk" topics select --method prediction --size $((m < 50 ? m : 50)) --seed $s $c-$t-qrels.txt \
                $(runs_of $c) > pred-$c-$t-$s.tsv 2>/dev/null
            pred="$pred${pred:+,}pred-$c-$t-$s.tsv"
        done
        $ev $c-$t-ap.tsv --order "l2r (trained on half $h)=l2r-half-$c-$t.tsv" --order greedy-oracle=go-$c-$t.tsv \
            --order "prediction (5 seeds)=$pred" --draws 1000 --seed 7 > "$work/half-$c-$t.tsv"
    done
done
# the halves plot: half B of each collection, L2R trained on half A
for c in npl clef; do
    m=$(($(wc -l < $c-B-ap.tsv) - 1))
    $ev $c-B-ap.tsv --order "l2r (trained on half A)=l2r-half-$c-B.tsv" --order greedy-oracle=go-$c-B.tsv \
        --draws 1000 --seed 7 --title "$c half B ($m topics); L2R trained on half A" \
        --svg "$here/topics-l2r-half-$c.svg" > /dev/null
done
cat half-npl-A.tsv half-npl-B.tsv half-clef-A.tsv half-clef-B.tsv | awk 'NR == 1 || $1 != "method"' \
    > "$here/topics-l2r-halves.tsv.tmp"
{
    printf 'collection\ttest_half\t'
    head -1 half-npl-A.tsv
    for f in half-npl-A half-npl-B half-clef-A half-clef-B; do
        c=${f#half-}; c=${c%-*}; h=${f##*-}
        awk -v c=$c -v h=$h -F'\t' 'NR > 1 { print c "\t" h "\t" $0 }' $f.tsv
    done
} > "$here/topics-l2r-halves.tsv"
rm -f "$here/topics-l2r-halves.tsv.tmp"
# ---- feature ablation (§1.12): trained on CLEF without a subset, tested on NPL --
n=$(($(wc -l < npl-ap.tsv) - 1))
{
    printf 'left_out\tfeatures\tmean_tau_1_%s\n' "$n"
    for d in none c1 c2 c3 c4 c5 c6 c7 tc P Pbar P+t Pbar-t; do
        if [ $d = none ]; then "$qk" topics train --model abl.model --data clef.letor
        else "$qk" topics train --model abl.model --drop $d --data clef.letor; fi
        "$qk" topics select --method l2r --model abl.model --size $n --qrels npl-qrels.txt \
            "${nplruns[@]}" > abl.tsv
        k=$(case $d in none) echo 63;; c?) echo 54;; tc) echo 56;; *) echo 49;; esac)
        $ev npl-ap.tsv --order l2r=abl.tsv --draws 1 | awk -F'\t' -v d=$d -v k=$k \
            '$1 == "l2r" { s += $3; n++ } END { printf "%s\t%d\t%.4f\n", d, k, s / n }'
    done
} > "$here/topics-l2r-ablation.tsv"
