#!/usr/bin/env bash
# Regenerates topics-l2r-e7.tsv and topics-l2r-e7-ttest.tsv (doc/examples/topics-l2r.md,
# "Judging speed"):
# Kutlu et al.'s E7 (spec 001-004 §2, Fig. 7) on the collections at hand. At
# Kutlu's 40-hour budget, and at 5 hours (about the share of the pools 40 hours
# buy on Robust 2004, ~3 %), with no topic development cost, the L2R order (trained on the
# other collection) is judged in the statAP form (`simulate topics --statap`,
# 20 samples per cell) once with a constant 15 s per judgment and once with
# Eq. 9's speed (15 s falling to 9 s as a topic's judgments accumulate); tau_b
# against MAP@100 on all judgments for each number of topics M. The paired
# t-test (`qrelkit compare --pairs --test ttest`) pairs the two speeds' tau at
# the same M (the pairing the spec's §C3 asks to state), over every M and over
# the M where the two speeds judged different numbers of documents (elsewhere
# both judge the topics' whole pools and tie by construction).
# Uses the work folder of topics-l2r.sh when QK_WORK names one (its zoo,
# matrices and models); otherwise makes what it needs (about 5 min CPU).
# Usage: [QK_WORK=dir] doc/examples/topics-l2r-e7.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../build/default/qrelkit}
data=${QK_DATA:-$here/../../../shared/data}
npl=$data/vaswani-npl
clef=$data/clef-tar-2017
work=${QK_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/qk-e7.XXXXXX")}
[ -n "${QK_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
cd "$work"
# ---- what topics-l2r.sh makes, when it is not there ---------------------------
if [ ! -d zoo ]; then
    "$qk" index --quiet -o p.idx "$npl/corpus/doc-text.trec"
    "$qk" index --quiet -o n.idx --stemmer none "$npl/corpus/doc-text.trec"
    "$qk" search -i p.idx -i n.idx -t "$npl/query-text.trec" --zoo 30 --seed 5 --threads 2 -o zoo
fi
runs_of() { if [ "$1" = npl ]; then echo zoo/*.run; else echo "$clef"/runs/*.run; fi; }
other() { if [ "$1" = npl ]; then echo clef; else echo npl; fi; }
[ -s npl-ap.tsv ] || "$qk" eval -c --matrix AP@100 "$npl/qrels" zoo/*.run > npl-ap.tsv
[ -s clef-ap.tsv ] || "$qk" eval -c --dedup first --matrix AP@100 "$clef/qrel_abs_test.txt" "$clef"/runs/*.run \
    > clef-ap.tsv 2>/dev/null
[ -s npl-qrels.txt ] || cp "$npl/qrels" npl-qrels.txt
[ -s clef-qrels.txt ] || cp "$clef/qrel_abs_test.txt" clef-qrels.txt
for c in npl clef; do
    w=$([ $c = npl ] && echo 30 || echo 100)
    [ -s $c.letor ] || "$qk" topics train --no-train --write-data $c.letor --reps $w --collection $c \
        --matrix $c-ap.tsv $(runs_of $c)
    [ -s $c.model ] || "$qk" topics train --model $c.model --data $c.letor
done
for c in npl clef; do
    n=$(($(wc -l < $c-ap.tsv) - 1))
    [ -s l2r-cross-$c.tsv ] || "$qk" topics select --method l2r --model $(other $c).model --size $n \
        --qrels $c-qrels.txt $(runs_of $c) > l2r-cross-$c.tsv
done
# ---- E7: constant vs Eq. 9 speed ------------------------------------------------
out=$here/topics-l2r-e7.tsv
printf 'collection\tspeed\tbudget_h\tmethod\ttopics\tjudgments\tjudged\ttau\tsd\tn\n' > "$out"
for c in npl clef; do
    sizes=$([ $c = npl ] && echo 1,3,5,10,20,30,40,50,60,70,80,93 || echo 1,3,5,10,15,20,25,30)
    for s in constant eq9; do
        "$qk" simulate topics --statap --budget-hours 5,40 --topics $sizes --cost-model $s --tdc 0 \
            --trials 20 --seed 7 --order l2r=l2r-cross-$c.tsv $c-qrels.txt $(runs_of $c) |
            awk -F'\t' -v c=$c -v s=$s 'NR > 1 && $2 == "l2r" { print c "\t" s "\t" $0 }' >> "$out"
    done
done
# the two speeds' tau as the columns of a matrix whose rows are M
tt=$here/topics-l2r-e7-ttest.tsv
printf 'collection\tbudget\tpairs\trun_a\trun_b\tmean_a\tmean_b\tdelta\teffect\tstatistic\tn\tp\tp_adj\tsignificant\n' > "$tt"
for c in npl clef; do
    for h in 5 40; do
        for only in all differ; do
            awk -F'\t' -v c=$c -v h=$h -v only=$only 'BEGIN { print "topic\tconstant\teq9" }
                $1 != c || $3 != h { next }
                $2 == "constant" { k[++n] = $5; a[$5] = $8; ja[$5] = $7 } $2 == "eq9" { b[$5] = $8; jb[$5] = $7 }
                END { for (i = 1; i <= n; i++) { m = k[i]
                    if (a[m] != "NA" && b[m] != "NA" && (only == "all" || ja[m] != jb[m])) print "M" m "\t" a[m] "\t" b[m] } }' \
                "$out" > e7-$c-$h-$only.tsv
            { printf '%s\t%s h\t%s M\t' $c $h $only
              "$qk" compare --pairs e7-$c-$h-$only.tsv --test ttest | awk -F'\t' 'NR == 2'; } | tee -a "$tt"
        done
    done
done
