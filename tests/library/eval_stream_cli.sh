#!/usr/bin/env bash
# qrelkit trec_eval / eval: a per-topic table of 2^20 values or more is
# replaced by streaming the trec lines when the run's topics come in qrels
# order. The bytes must be those of the table path, which an out-of-order
# copy of the same run takes: same output whatever the run's topic order
# (trec_eval prints topics in qrels order), with -q, without, and with -c;
# and the summary alone in the other formats (below).
set -u
qk=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# 11,000 topics x 96 all_trec values = 1,056,000 values (>= 2^20).
awk 'BEGIN { for (t = 1; t <= 11000; t++) for (d = 1; d <= 3; d++)
             printf "T%05d 0 D%d %d\n", t, d, (t + d) % 3 }' >"$dir/qrels"
# Topics 2, 4, ... (odd ones missing: -c stand-ins in between): D1-D3 in an
# order that varies with the topic, and one unjudged document.
awk 'BEGIN { for (t = 2; t <= 11000; t += 2) { for (d = 1; d <= 3; d++)
             printf "T%05d Q0 D%d %d %g r\n", t, d, d, 1.0 / (1 + (d + t) % 3)
             printf "T%05d Q0 X%d 4 0.1 r\n", t, t } }' >"$dir/sorted.run"
# The same blocks, last topic first.
awk '{ k = $1; if (k != prev) { n++; prev = k } line[n] = line[n] $0 "\n" }
     END { for (i = n; i >= 1; i--) printf "%s", line[i] }' "$dir/sorted.run" >"$dir/reversed.run"
fail=0
for opts in "-q -m all_trec" "-m all_trec" "-q -c -m all_trec"; do
    for cmd in trec_eval eval; do
        # shellcheck disable=SC2086
        "$qk" $cmd $opts "$dir/qrels" "$dir/sorted.run" >"$dir/a" 2>/dev/null || { echo "FAIL: $cmd $opts sorted: exit $?"; fail=1; }
        # shellcheck disable=SC2086
        "$qk" $cmd $opts "$dir/qrels" "$dir/reversed.run" >"$dir/b" 2>/dev/null || { echo "FAIL: $cmd $opts reversed: exit $?"; fail=1; }
        if ! cmp -s "$dir/a" "$dir/b"; then
            echo "FAIL: qrelkit $cmd $opts: streamed and table outputs differ"
            diff "$dir/a" "$dir/b" | head -5
            fail=1
        fi
        want=$((5500 * 96))
        case "$opts" in -q\ -c*) want=$((11000 * 96)) ;; -m*) want=0 ;; esac
        got=$(grep -vc $'\tall\t' "$dir/a")
        if [ "$got" != "$want" ]; then
            echo "FAIL: qrelkit $cmd $opts: $got per-topic lines, expected $want"
            fail=1
        fi
    done
done
# eval --format tsv / json / --precision without -q write the summary
# alone and stream too: their summary must be the table path's, which -q
# takes (tsv and --precision: the "all" lines, and no other but tsv's
# header; json: the "summary" object and the skipped topics).
for c in "" "-c"; do
    for f in "--format tsv" "--precision 6"; do
        # shellcheck disable=SC2086
        "$qk" eval $f $c -m all_trec "$dir/qrels" "$dir/reversed.run" >"$dir/a" 2>/dev/null || { echo "FAIL: eval $f $c: exit $?"; fail=1; }
        # shellcheck disable=SC2086
        "$qk" eval $f $c -q -m all_trec "$dir/qrels" "$dir/reversed.run" 2>/dev/null | grep $'\tall\t' >"$dir/b"
        if ! grep $'\tall\t' "$dir/a" | cmp -s - "$dir/b" || [ "$(grep -vc $'^run\tmeasure\t' "$dir/a")" != "$(grep -c $'\tall\t' "$dir/a")" ] ||
            [ ! -s "$dir/b" ]; then
            echo "FAIL: qrelkit eval $f $c: the summary differs from -q's"
            fail=1
        fi
    done
    for q in "" "-q"; do
        # shellcheck disable=SC2086
        "$qk" eval --format json $q $c -m all_trec "$dir/qrels" "$dir/reversed.run" >"$dir/j$q" 2>/dev/null ||
            { echo "FAIL: eval --format json $q $c: exit $?"; fail=1; }
    done
    if ! python3 - "$dir/j" "$dir/j-q" <<'PY'
import json, sys
a, b = (json.load(open(p))["runs"][0] for p in sys.argv[1:3])
ok = a["summary"] == b["summary"] and a["skipped_topics"] == b["skipped_topics"] and "topics" not in a
ok = ok and len(a["summary"]) > 50 and a["summary"]["num_q"] == len(b["topics"])
sys.exit(0 if ok else 1)
PY
    then
        echo "FAIL: qrelkit eval --format json $c: the summary differs from -q's"
        fail=1
    fi
done
# Several runs without -q (each summed as it goes when the table is
# large, qk_eval_opts.summary_only): the summaries of -q's tables.
"$qk" eval -c -m all_trec "$dir/qrels" "$dir/sorted.run" "$dir/reversed.run" >"$dir/a" 2>/dev/null
"$qk" eval -c -q -m all_trec "$dir/qrels" "$dir/sorted.run" "$dir/reversed.run" 2>/dev/null | grep $'\tall\t' >"$dir/b"
if ! cmp -s "$dir/a" "$dir/b" || [ "$(wc -l <"$dir/a")" -lt 150 ]; then
    echo "FAIL: qrelkit eval -c, two runs: the summaries differ from -q's"
    fail=1
fi
# A run given as a pipe (a shell's <(...)) cannot be looked over first:
# it is scored into rows as a run out of order is (it used to stop with
# "cannot rewind"). Same bytes as the file, with -q and summary-only.
for args in "trec_eval -q -m all_trec" "eval --format tsv -c -m all_trec"; do
    # shellcheck disable=SC2086
    "$qk" $args "$dir/qrels" "$dir/sorted.run" >"$dir/a" 2>/dev/null
    # shellcheck disable=SC2086
    if ! "$qk" $args "$dir/qrels" <(cat "$dir/sorted.run") >"$dir/b" 2>"$dir/err" || ! cmp -s "$dir/a" "$dir/b"; then
        echo "FAIL: qrelkit $args on a pipe: $(head -c 200 "$dir/err")"
        fail=1
    fi
done
# A piped run whose topics come in several blocks is read twice (grouped):
# from the copy the pipe left in $TMPDIR as it was read. The same bytes as
# the file, named or on standard input, plain or gzip'd; the copy is gone
# after. Without a place for the copy: a message that says so and what to do.
{ head -n 4 "$dir/sorted.run"; tail -n 4 "$dir/sorted.run"; head -n 1 "$dir/sorted.run" | sed "s/ D1 / D9 /"; } >"$dir/split.run"
mkdir -p "$dir/tmp"
"$qk" trec_eval -q -m all_trec "$dir/qrels" "$dir/split.run" >"$dir/a" 2>/dev/null || { echo "FAIL: the split run as a file"; fail=1; }
for form in named stdin gzip; do
    # shellcheck disable=SC2002 # cat |: a pipe on standard input, not a file
    case $form in
    named) TMPDIR=$dir/tmp "$qk" trec_eval -q -m all_trec "$dir/qrels" <(cat "$dir/split.run") >"$dir/b" 2>"$dir/err" ;;
    stdin) cat "$dir/split.run" | TMPDIR=$dir/tmp "$qk" trec_eval -q -m all_trec "$dir/qrels" - >"$dir/b" 2>"$dir/err" ;;
    gzip) TMPDIR=$dir/tmp "$qk" trec_eval -q -m all_trec "$dir/qrels" <(gzip -c "$dir/split.run") >"$dir/b" 2>"$dir/err" ;;
    esac
    rc=$?
    if [ "$rc" -ne 0 ] || ! cmp -s "$dir/a" "$dir/b" || [ -n "$(ls -A "$dir/tmp")" ]; then
        echo "FAIL: a piped run in several blocks ($form): exit $rc, $(head -c 200 "$dir/err")"
        fail=1
    fi
done
TMPDIR=$dir/none "$qk" trec_eval -m map "$dir/qrels" <(cat "$dir/split.run") >/dev/null 2>"$dir/err"
rc=$?
if [ "$rc" -eq 0 ] || ! grep -q "could not be kept in $dir/none: No such file or directory; give it as a file" "$dir/err"; then
    echo "FAIL: a piped run in several blocks, no place for its copy: exit $rc, $(head -c 300 "$dir/err")"
    fail=1
fi
exit $fail
