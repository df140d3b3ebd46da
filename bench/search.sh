#!/usr/bin/env bash
# Benchmarks of qrelkit index / search (issue #7): indexing throughput (MB/s
# of corpus text, documents/s) and peak memory on the CLEF 2017 TAR abstracts
# (JSON lines, 41 MB) and Vaswani NPL (TREC, 3.5 MB), with the default memory
# budget and with a small one that forces spilled runs; then mean query
# latency per model. Best of REPS runs for time, highest peak RSS (GNU time).
# Usage: bash bench/search.sh [path/to/qrelkit]   (env: REPS=3, THREADS=1)
set -euo pipefail
qk=$(realpath "${1:-build/default/qrelkit}")
reps=${REPS:-3}
threads=${THREADS:-1}
data=$(cd "$(dirname "$0")/../../shared/data" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-bench-search.XXXXXX")
trap 'rm -rf "$work"' EXIT

# best CMD...: "seconds peak_kib" over $reps runs.
best() {
    local t=1e9 m=0 i t0 t1 rss=$work/rss
    for ((i = 0; i < reps; i++)); do
        t0=$(date +%s.%N)
        /usr/bin/time -f '%M' -o "$rss" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 3; }
        t1=$(date +%s.%N)
        t=$(awk -v a="$t0" -v b="$t1" -v t="$t" 'BEGIN { d = b - a; print (d < t ? d : t) }')
        m=$(awk -v a="$(tail -n1 "$rss")" -v m="$m" 'BEGIN { print (a > m ? a : m) }')
    done
    echo "$t $m"
}

clef=("$data"/clef-tar-2017-texts/doctexts/CD*)
npl=$data/vaswani-npl/corpus/doc-text.trec
clef_mb=$(cat "${clef[@]}" | wc -c | awk '{ printf "%.1f", $1 / 1e6 }')
npl_mb=$(wc -c <"$npl" | awk '{ printf "%.2f", $1 / 1e6 }')
clef_docs=$(cat "${clef[@]}" | grep -c "^{")   # records read, repeated ids included
npl_docs=$(grep -c '<DOC>' "$npl")

echo "| corpus | MB | documents | --memory | spilled runs | time (s) | MB/s | documents/s | peak RSS (MB) | index (MB) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
row() { # name mb docs memory files...
    local name=$1 mb=$2 docs=$3 mem=$4; shift 4
    read -r t m < <(best "$qk" index -o "$work/x.idx" --memory "$mem" "$@")
    "$qk" index -o "$work/x.idx" --memory "$mem" "$@" 2>"$work/msg" >/dev/null
    spills=$(sed -n 's/.*, \([0-9]*\) spilled runs.*/\1/p' "$work/msg")
    size=$(stat -c %s "$work/x.idx")
    awk -v n="$name" -v mb="$mb" -v d="$docs" -v mem="$mem" -v s="$spills" -v t="$t" -v m="$m" -v z="$size" \
        'BEGIN { printf "| %s | %s | %d | %d | %d | %.2f | %.1f | %.0f | %.1f | %.1f |\n", n, mb, d, mem, s, t, mb / t, d / t, m / 1024, z / 1e6 }'
}
row "CLEF 2017 TAR abstracts (JSON lines, --fields content)" "$clef_mb" "$clef_docs" 256 --skip-duplicates --fields content "${clef[@]}"
row "CLEF 2017 TAR abstracts (JSON lines, --fields content)" "$clef_mb" "$clef_docs" 4 --skip-duplicates --fields content "${clef[@]}"
row "Vaswani NPL (TREC)" "$npl_mb" "$npl_docs" 256 "$npl"
row "Vaswani NPL (TREC)" "$npl_mb" "$npl_docs" 1 "$npl"

# Query latency. A run of 93 or 20 queries is over before the fixed costs
# (start, map and check the index, read topics) are, so each query set is
# repeated 20 times under new ids, and the fixed cost is measured apart with
# one query that matches nothing; latency = (total - fixed) / queries.
"$qk" index --quiet -o "$work/npl.idx" "$npl"
"$qk" index --quiet -o "$work/clef.idx" --skip-duplicates --fields content "${clef[@]}"
awk '/<num>/ { match($0, /<num>[^<]*/); id = substr($0, RSTART + 5, RLENGTH - 5); getline; print id "\t" $0 }' \
    "$data/vaswani-npl/query-text.trec" >"$work/npl-topics.tsv"
for f in "$data"/clef-tar-2017-texts/topics/CD*; do
    printf '%s\t%s\n' "$(basename "$f")" "$(sed 's/.*"title": "\([^"]*\)".*/\1/' "$f")"
done >"$work/clef-topics.tsv"
for c in npl clef; do
    for ((r = 1; r <= 20; r++)); do sed "s/^/r$r-/" "$work/$c-topics.tsv"; done >"$work/$c-x20.tsv"
done
printf 'none\tzzzzqqqq\n' >"$work/none.tsv"
echo
echo "| index | queries | model | threads | total (s) | fixed (s) | mean latency (ms/query) | queries/s |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |"
lat() { # name idx topics args...
    local name=$1 idx=$2 topics=$3 nq; shift 3
    nq=$(wc -l <"$topics")
    read -r t m < <(best "$qk" search -i "$idx" -t "$topics" --threads "$threads" "$@")
    read -r f m < <(best "$qk" search -i "$idx" -t "$work/none.tsv" "$@")
    awk -v n="$name" -v q="$nq" -v a="$*" -v th="$threads" -v t="$t" -v f="$f" \
        'BEGIN { printf "| %s | %d | `%s` | %d | %.3f | %.3f | %.3f | %.0f |\n", n, q, a, th, t, f, 1000 * (t - f) / q, q / (t - f) }'
}
for args in "-m bm25" "-m qld" "-m bm25 --rm3"; do
    # shellcheck disable=SC2086
    lat NPL "$work/npl.idx" "$work/npl-x20.tsv" $args
done
for args in "-m bm25" "-m qld" "-m bm25 --rm3"; do
    # shellcheck disable=SC2086
    lat "CLEF abstracts" "$work/clef.idx" "$work/clef-x20.tsv" $args
done
