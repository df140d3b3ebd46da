#!/usr/bin/env bash
# Real participant runs (CLEF 2017 TAR): `qrelkit trec_eval -q -c -m all_trec`
# must equal trec_eval's own output byte for byte.
set -u
. "$(dirname "$0")/common.bash"
need_shared
bin=$1
dir="$QK_SHARED/data/clef-tar-2017"
fail=0; n=0
for golden in "$dir"/golden/*.all_trec.q.txt; do
  run=$(basename "$golden" .all_trec.q.txt)
  n=$((n + 1))
  if ! "$bin" trec_eval -q -c -m all_trec "$dir/qrel_abs_test.txt" "$dir/runs/$run.run" | cmp -s - "$golden"; then
    echo "FAIL $run"
    "$bin" trec_eval -q -c -m all_trec "$dir/qrel_abs_test.txt" "$dir/runs/$run.run" 2>&1 | diff - "$golden" | head
    fail=1
  fi
done
[ "$n" -ge 3 ] || { echo "expected 3 golden files, found $n"; fail=1; }
[ $fail -eq 0 ] && echo "all $n CLEF golden outputs byte-identical"
exit $fail
