#!/usr/bin/env bash
# Every long command shows progress on stderr when it is a terminal, and is
# silent under --quiet or when stderr is not a terminal (DESIGN §3). The
# terminal is a pty from script(1). Usage (ctest): progress_tty.sh qrelkit
set -u
qk=$(cd "$(dirname "${1:?}")" && pwd)/$(basename "$1")
command -v script >/dev/null || { echo "SKIP: script(1) is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
rc=0
fail() { echo "FAIL: $*"; rc=1; }

# Inputs: a small collection, a crowd, and a corpus of 10000 one-line
# documents (index reports every 10000 documents) with two topics.
"$qk" sim collection --out c --topics 4 --docs-per-topic 60 --depth 20 --runs 4 --quiet || exit 1
awk 'BEGIN { for (i = 1; i <= 10000; i++) printf "<DOC><DOCNO>d%05d</DOCNO>word%d common text %d</DOC>\n", i, i % 97, i % 13 }' >corpus.trec
printf 'q1\tword5 common\nq2\ttext word7\n' >topics.tsv
"$qk" index --quiet -o small.idx corpus.trec || exit 1

# name | the progress line's text, after a carriage return | command (without --quiet)
cases=(
    "sim collection|qrelkit sim: |$qk sim collection --out c2 --topics 4 --docs-per-topic 60 --depth 20 --runs 4"
    "simulate pool|simulate pool: trial|$qk simulate pool --qrels c/qrels.txt --runs c/runs/*.run --methods statap --budgets 5,10 --trials 3"
    "confidence --simulate|qrelkit confidence: trial|$qk confidence --simulate c/qrels.txt --trials 3 --runs-per-trial 3 --depth 20 c/runs/*.run"
    "simulate crowd --curve|qrelkit simulate crowd: crowds|$qk simulate crowd --curve 1,3 --reps 2 --tasks 100 --workers 10 --methods mv,ds"
    "index|qrelkit index: 10000 documents|$qk index -o big.idx corpus.trec"
    "search --zoo|qrelkit search: zoo runs|$qk search -i small.idx -t topics.tsv --zoo 3 --depth 10 -o zoo"
)
for c in "${cases[@]}"; do
    IFS='|' read -r name want cmd <<<"$c"
    # On a terminal: the progress line.
    script -qec "$cmd >/dev/null" /dev/null >tty.txt 2>&1 </dev/null
    grep -qF $'\r'"$want" tty.txt || fail "$name: no progress on a terminal (expected '$want'; got '$(tr '\r' '~' <tty.txt | head -c 200)')"
    # --quiet on a terminal: nothing but the summary lines some commands print.
    script -qec "$cmd --quiet >/dev/null" /dev/null >quiet.txt 2>&1 </dev/null
    if grep -qF $'\r'"$want" quiet.txt || grep -q $'\r.' quiet.txt; then
        fail "$name: progress under --quiet: '$(tr '\r' '~' <quiet.txt | head -c 200)'"
    fi
    # Piped: no progress line.
    bash -c "$cmd" >/dev/null 2>piped.txt </dev/null
    if grep -q $'\r' piped.txt; then
        fail "$name: progress when stderr is not a terminal"
    fi
    rm -rf c2 big.idx zoo
done
[ $rc = 0 ] && echo "ok: ${#cases[@]} long commands show progress on a terminal only, none under --quiet"
exit $rc
