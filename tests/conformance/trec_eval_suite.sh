#!/usr/bin/env bash
# The 15 reference commands of trec_eval's own test suite (MANIFEST.tsv):
# `qrelkit trec_eval` and the `trec_eval` link must reproduce every expected
# output byte for byte.
set -u
. "$(dirname "$0")/common.bash"
need_shared
bin=$1
dir="$QK_SHARED/data/trec_eval-suite"
link="$(dirname "$bin")/trec_eval"
cd "$dir" || exit 1
fail=0; n=0
while IFS=$'\x1f' read -r id opts qrels run expected; do
  [ "$id" = id ] && continue
  n=$((n + 1))
  # shellcheck disable=SC2086
  if ! "$bin" trec_eval $opts "$qrels" "$run" 2>/dev/null | cmp -s - "$expected"; then
    echo "FAIL command $id: qrelkit trec_eval $opts $qrels $run differs from $expected"
    "$bin" trec_eval $opts "$qrels" "$run" 2>&1 | diff - "$expected" | head -n 10
    fail=1
  fi
  # shellcheck disable=SC2086
  if [ -x "$link" ] && ! "$link" $opts "$qrels" "$run" 2>/dev/null | cmp -s - "$expected"; then
    echo "FAIL command $id through the trec_eval link"
    fail=1
  fi
done < <(tr '\t' '\037' < MANIFEST.tsv)
[ "$n" -eq 15 ] || { echo "expected 15 commands in MANIFEST.tsv, read $n"; fail=1; }
[ $fail -eq 0 ] && echo "all $n trec_eval suite commands byte-identical"
exit $fail
