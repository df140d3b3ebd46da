#!/usr/bin/env bash
# The MACE answers of qrelkit and of crowd-kit 1.4.1 (reproduced by
# --compat crowdkit, which crowd_reference.sh checks task by task) differ on
# trec2011-vuurens and adultcontent2. The claim of doc/examples/crowd-mace.md:
# qrelkit's answer explains the labels better, i.e. the log-likelihood of the
# labels under its final parameters is higher, on every data set where the
# two differ. Both runs report log P(labels | parameters) = sum over tasks of
# log((1/K) sum_t prod_labels P(a | t)), the quantity both programs maximise.
set -u
. "$(dirname "$0")/common.bash"
need_shared
Q=$1
D=$QK_SHARED/data/crowd
fail=0
ll() { "$Q" aggregate -m mace "$@" 2>/dev/null | awk -F'\t' '$1=="loglik"{print $2}'; }
for d in trec2011-vuurens adultcontent2 trec2011; do
  [ -d "$D/$d" ] || continue
  ours=$(ll "$D/$d/labels.tsv"); ck=$(ll --compat crowdkit "$D/$d/labels.tsv")
  if [ -n "$ours" ] && [ -n "$ck" ] && awk -v a="$ours" -v b="$ck" 'BEGIN{exit !(a > b)}'; then
    echo "ok   $d: log-likelihood qrelkit $ours > crowd-kit $ck"
  else
    echo "FAIL $d: log-likelihood qrelkit '$ours', crowd-kit '$ck'"; fail=1
  fi
done
exit $fail
