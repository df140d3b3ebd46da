#!/usr/bin/env bash
# Regenerates topics-l2r-budget-{npl,clef}.tsv: few deep or many shallow at a
# fixed budget (Kutlu et al. 2017 §5.5; spec 001-004 E9/E10) with
# `qrelkit simulate topics --budget-hours`: for budgets in hours, pool depths
# 5..100, Eq. 9 judging speed, 76 s of topic development, the judging-error
# model off and on (accuracy 0.92 at 76 s); methods random (a new order each
# of 100 trials), the Greedy Oracle, L2R trained on the other collection and
# the prediction baseline (seed 1). Needs the work folder of topics-l2r.sh:
#   QK_WORK=/some/dir doc/examples/topics-l2r.sh && QK_WORK=/some/dir doc/examples/topics-l2r-budget.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${2:-$here/../../build/default/qrelkit}
cd "${QK_WORK:?set QK_WORK to the work folder of topics-l2r.sh}"
clef=${QK_DATA:-$here/../../../shared/data}/clef-tar-2017
for c in npl clef; do
    if [ $c = npl ]; then runs=(zoo/*.run); hours=2,5,10,20; else runs=("$clef"/runs/*.run); hours=5,10,20,40; fi
    for e in off on; do
        "$qk" simulate topics --budget-hours $hours --depths 5,10,20,50,100 --cost-model eq9 --tdc 76 \
            $([ $e = on ] && echo --judging-error) --trials 100 --seed 3 \
            --order greedy-oracle=go-$c.tsv --order l2r=l2r-cross-$c.tsv --order prediction=pred-$c-1.tsv \
            $c-qrels.txt "${runs[@]}" | awk -v e=$e 'NR == 1 { print; next } NR == 2 { print "error\t" $0; next } { print e "\t" $0 }'
    done | awk '/^error\tbudget_h/ { if (h++) next } { print }' > "$here/topics-l2r-budget-$c.tsv"
done
