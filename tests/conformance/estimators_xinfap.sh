#!/usr/bin/env bash
# xinfAP / infNDCG / iP on the CLEF 2017 samples (../shared/data/estimators):
#  - `qrelkit eval -q -R strata --compat` must equal sample_eval.pl's output
#    byte for byte, for the 3-stratum sample and the single-stratum one;
#  - `qrelkit trec_eval -q -m infAP` on the 4-column sample must equal
#    trec_eval's infAP byte for byte.
set -u
. "$(dirname "$0")/common.bash"
need_shared
bin=$1
dir="$QK_SHARED/data/estimators"
fail=0; n=0
check() { # name golden command...
  local name=$1 golden=$2; shift 2
  n=$((n + 1))
  if ! "$@" | cmp -s - "$golden"; then
    echo "FAIL $name"; "$@" 2>&1 | diff - "$golden" | head; fail=1
  fi
}
for run in "$dir"/runs/*.run; do
  r=$(basename "$run" .run)
  check "$r sample_eval" "$dir/golden/$r.sample_eval.txt" "$bin" eval -q -R strata --compat "$dir/qrels/xinfap.qrels" "$run"
  check "$r sample_eval 1 stratum" "$dir/golden/$r.sample_eval_1stratum.txt" "$bin" eval -q -R strata --compat "$dir/qrels/infap_1stratum.qrels" "$run"
  check "$r trec_eval infAP" "$dir/golden/$r.trec_eval_infAP.txt" "$bin" trec_eval -q -m infAP "$dir/qrels/infap.qrels" "$run"
done
[ "$n" -eq 18 ] || { echo "expected 18 comparisons, found $n"; fail=1; }
[ $fail -eq 0 ] && echo "all $n outputs byte-identical (sample_eval x12, trec_eval infAP x6)"
exit $fail
