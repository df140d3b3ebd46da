#!/usr/bin/env bash
# Regenerates topics-l2r-lambdamart-{npl,clef}.tsv, topics-l2r-statap-{npl,clef}.tsv
# and topics-l2r-logo-{npl,clef}.tsv (doc/examples/topics-l2r.md):
#   - LambdaMART (`topics train --objective lambdamart`) on the same Alg. 3
#     records as MART, tested across collections: tau_b vs topics chosen;
#   - Kutlu's statAP-sampled fixed-budget experiment (spec 001-004 §1.9-1.10,
#     E9/E10; `simulate topics --budget-hours --statap`): for M topics the
#     budget is split equally after M x 76 s of topic development, x* documents
#     of each topic's depth-100 pool are sampled (AP prior, Eq. 9 speed) and
#     the runs ranked by mean statAP; judging error off and on; 10 samples
#     (and 10 random orders) per cell;
#   - leave-one-group-out (§1.11, E11; `--logo`): CLEF groups are the teams
#     (run name up to '-'), NPL's the zoo's retrieval models (zoo.tsv).
# Needs the work folder of topics-l2r.sh:
#   QK_WORK=/some/dir doc/examples/topics-l2r.sh && QK_WORK=/some/dir doc/examples/topics-l2r-statap.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../build/default/qrelkit}
ev="python3 $here/topics-l2r-eval.py"
clef=${QK_DATA:-$here/../../../shared/data}/clef-tar-2017
cd "${QK_WORK:?set QK_WORK to the work folder of topics-l2r.sh}"
other() { if [ "$1" = npl ]; then echo clef; else echo npl; fi; }
runs_of() { if [ "$1" = npl ]; then echo zoo/*.run; else echo "$clef"/runs/*.run; fi; }
# ---- LambdaMART vs MART, across collections ------------------------------------
for c in npl clef; do   # (re)trained when older than its records
    [ $c-lm.model -nt $c.letor ] || "$qk" topics train --objective lambdamart --model $c-lm.model --data $c.letor
done
for c in npl clef; do
    n=$(($(wc -l < $c-ap.tsv) - 1))
    o=$(other $c)
    "$qk" topics select --method l2r --model $o-lm.model --size $n --qrels $c-qrels.txt $(runs_of $c) \
        > l2r-lm-cross-$c.tsv
    $ev $c-ap.tsv --order "MART (trained on $o)=l2r-cross-$c.tsv" \
        --order "LambdaMART (trained on $o)=l2r-lm-cross-$c.tsv" --draws 1000 --seed 7 \
        > "$here/topics-l2r-lambdamart-$c.tsv"
done
# ---- the statAP form, judging error off and on ---------------------------------
awk -F'\t' 'NR > 1 { print $1, $3 }' zoo/zoo.tsv > npl-groups.txt
methods() {
    echo --order greedy-oracle=go-$1.tsv --order l2r=l2r-cross-$1.tsv --order l2r-lambdamart=l2r-lm-cross-$1.tsv \
        --order prediction=pred-$1-1.tsv
}
for c in npl clef; do
    if [ $c = npl ]; then hours=2,5,10,20; sizes=1,3,5,10,20,30,50,70,93; lh=5,10
    else hours=5,10,20,40; sizes=1,3,5,10,15,20,25,30; lh=10,20; fi
    for e in off on; do
        "$qk" simulate topics --statap --budget-hours $hours --topics $sizes --cost-model eq9 --tdc 76 \
            $([ $e = on ] && echo --judging-error) --trials 10 --seed 3 $(methods $c) \
            $c-qrels.txt $(runs_of $c) | awk -v e=$e 'NR == 1 { print; next } NR == 2 { print "error\t" $0; next } { print e "\t" $0 }'
    done | awk '/^error\tbudget_h/ { if (h++) next } { print }' > "$here/topics-l2r-statap-$c.tsv"
    "$qk" simulate topics --statap --budget-hours $lh --topics $sizes --cost-model eq9 --tdc 76 --trials 10 \
        --seed 3 $(methods $c) $([ $c = npl ] && echo --groups npl-groups.txt || echo --logo) \
        $c-qrels.txt $(runs_of $c) > "$here/topics-l2r-logo-$c.tsv"
done
