#!/usr/bin/env bash
# qrelkit trec_eval / eval on one run with a per-topic table of 2^20 values
# or more read the qrels a window of topics at a time (about 16,384 lines
# each) when the file lists its topics in strcmp order, and whole otherwise.
# The bytes must not depend on it: the same qrels with its first two topic
# blocks swapped (read whole) must give the same output, with -q, without,
# with -c, and the same error for a judgment repeated in a late window.
set -u
qk=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# 11,000 topics x 8 judgments (88,000 lines: 6 windows), grades 0-2,
# docnos not in order within a topic.
awk 'BEGIN { for (t = 1; t <= 11000; t++) for (d = 0; d < 8; d++)
             printf "T%05d 0 D%d %d\n", t, (d * 3 + t) % 8, (t * d) % 3 }' >"$dir/qrels"
# Swapped: the last topic's block first (out of strcmp order across
# windows; inside one window the order would not matter).
{ tail -n 8 "$dir/qrels"; head -n -8 "$dir/qrels"; } >"$dir/swapped"
# Every other topic retrieved, 12 documents (some unjudged), ties in score.
awk 'BEGIN { for (t = 2; t <= 11000; t += 2) for (d = 0; d < 12; d++)
             printf "T%05d Q0 D%d %d %g r\n", t, (d * 5 + t) % 24, d, int((12 - d) / 2) }' >"$dir/run"
fail=0
for opts in "-q -m all_trec" "-m all_trec" "-q -c -m all_trec"; do
    for cmd in trec_eval eval; do
        # shellcheck disable=SC2086
        "$qk" $cmd $opts "$dir/qrels" "$dir/run" >"$dir/a" 2>"$dir/ea" || { echo "FAIL: $cmd $opts: exit $?"; cat "$dir/ea"; fail=1; }
        # shellcheck disable=SC2086
        "$qk" $cmd $opts "$dir/swapped" "$dir/run" >"$dir/b" 2>"$dir/eb" || { echo "FAIL: $cmd $opts swapped: exit $?"; fail=1; }
        if ! cmp -s "$dir/a" "$dir/b"; then
            echo "FAIL: qrelkit $cmd $opts: windowed and whole qrels give different outputs"
            diff "$dir/a" "$dir/b" | head -5
            fail=1
        fi
    done
done
# With -c, the summary's num_rel is the file's count of positive grades
# (counted by awk); num_q is the 5,500 retrieved topics.
want=$(awk '$4 > 0 { n++ } END { print n }' "$dir/qrels")
got=$("$qk" trec_eval -m num_rel -m num_q -c "$dir/qrels" "$dir/run" 2>/dev/null | awk '$1 == "num_rel" { print $3 }')
[ "$got" = "$want" ] || { echo "FAIL: -c num_rel $got, expected $want"; fail=1; }
got=$("$qk" trec_eval -m all_trec "$dir/qrels" "$dir/run" 2>/dev/null | awk '$1 == "num_q" { print $3 }')
[ "$got" = 5500 ] || { echo "FAIL: num_q $got, expected 5500"; fail=1; }
# A judgment repeated near the end: the error of the whole read, and no
# output before it.
{ cat "$dir/qrels"; tail -n 1 "$dir/qrels"; } >"$dir/dup"
"$qk" trec_eval -q -m all_trec "$dir/dup" "$dir/run" >"$dir/o" 2>"$dir/e"
rc=$?
if [ "$rc" != 2 ] || [ -s "$dir/o" ] || ! grep -q "judged twice for topic 'T11000'" "$dir/e"; then
    echo "FAIL: repeated judgment: exit $rc, $(wc -c <"$dir/o") bytes out, error: $(cat "$dir/e")"
    fail=1
fi
exit $fail
