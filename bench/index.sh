#!/usr/bin/env bash
# qrelkit index speed and memory, search throughput (issue #14). Corpora: the
# Vaswani NPL texts (TREC, 3.5 MB), the CLEF 2017 TAR abstracts (JSON lines,
# 42 MB) and a larger one made from them: the abstracts five times under new
# ids (210 MB, 136 k documents). Each is indexed with the default --memory
# and with --memory 32; MB/s is per core (corpus MB over user+system CPU
# seconds, the build is one thread), wall time beside it; peak RSS is GNU
# time's maximum resident set, compared with the --memory bound. Then BM25
# throughput: NPL's 93 queries and the 20 CLEF topic titles, each set
# repeated 20 times under new ids, over the NPL index and the 210 MB index.
# Best of REPS for time, highest of REPS for peak RSS.
# Usage: bash bench/index.sh [path/to/qrelkit]   (env: REPS=3)
set -euo pipefail
qk=$(realpath "${1:-build/default/qrelkit}")
reps=${REPS:-3}
data=$(cd "$(dirname "$0")/../../shared/data" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-bench-index.XXXXXX")
trap 'rm -rf "$work"' EXIT

# best CMD...: "wall cpu peak_kib" (best wall, best cpu, highest peak).
best() {
    local w=1e9 c=1e9 m=0 i
    for ((i = 0; i < reps; i++)); do
        /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 3; }
        read -r tw tu ts tm <"$work/t"
        w=$(awk -v a="$tw" -v b="$w" 'BEGIN { print (a < b ? a : b) }')
        c=$(awk -v a="$tu" -v s="$ts" -v b="$c" 'BEGIN { print (a + s < b ? a + s : b) }')
        m=$(awk -v a="$tm" -v b="$m" 'BEGIN { print (a > b ? a : b) }')
    done
    echo "$w $c $m"
}

clef=("$data"/clef-tar-2017-texts/doctexts/CD*)
npl=$data/vaswani-npl/corpus/doc-text.trec
cat "${clef[@]}" >"$work/clef.jsonl"
for r in 1 2 3 4 5; do sed "s/^{\"id\": \"/{\"id\": \"r$r-/" "$work/clef.jsonl"; done >"$work/clef5.jsonl"

echo "| corpus | MB | --memory | spilled runs | wall (s) | CPU (s) | MB/s per core | peak RSS (MB) | peak / --memory |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
row() { # name memory out files...
    local name=$1 mem=$2 out=$3 mb; shift 3
    mb=$(cat "${@: -1}" | wc -c | awk '{ printf "%.1f", $1 / 1e6 }')
    read -r w c m < <(best "$qk" index -o "$out" --memory "$mem" "$@")
    "$qk" index -o "$out" --memory "$mem" "$@" 2>"$work/msg" >/dev/null
    spills=$(sed -n 's/.*, \([0-9]*\) spilled runs.*/\1/p' "$work/msg")
    awk -v n="$name" -v mb="$mb" -v mem="$mem" -v s="$spills" -v w="$w" -v c="$c" -v m="$m" \
        'BEGIN { printf "| %s | %s | %d | %d | %.2f | %.2f | %.0f | %.1f | %.2f |\n", n, mb, mem, s, w, c, mb / c, m / 1024, m / 1024 / mem }'
}
row "Vaswani NPL (TREC)" 256 "$work/npl.idx" "$npl"
row "CLEF 2017 TAR abstracts (--fields content)" 256 "$work/clef.idx" --skip-duplicates --fields content "$work/clef.jsonl"
row "CLEF 2017 TAR abstracts (--fields content)" 32 "$work/clef.idx" --skip-duplicates --fields content "$work/clef.jsonl"
row "CLEF abstracts x5, new ids (--fields content)" 256 "$work/clef5.idx" --skip-duplicates --fields content "$work/clef5.jsonl"
row "CLEF abstracts x5, new ids (--fields content)" 32 "$work/clef5.idx" --skip-duplicates --fields content "$work/clef5.jsonl"

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
echo "| index | queries | model | wall (s) | CPU (s) | fixed CPU (s) | queries/s (CPU) |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: |"
qps() { # name idx topics
    local nq
    nq=$(wc -l <"$3")
    read -r w c m < <(best "$qk" search -i "$2" -t "$3" --threads 1 -m bm25)
    read -r fw f fm < <(best "$qk" search -i "$2" -t "$work/none.tsv" --threads 1 -m bm25)
    awk -v n="$1" -v q="$nq" -v w="$w" -v c="$c" -v f="$f" \
        'BEGIN { d = c - f; if (d <= 0) d = 0.001; printf "| %s | %d | `-m bm25` | %.2f | %.2f | %.2f | %.0f |\n", n, q, w, c, f, q / d }'
}
qps "NPL" "$work/npl.idx" "$work/npl-x20.tsv"
qps "CLEF abstracts x5 (210 MB)" "$work/clef5.idx" "$work/clef-x20.tsv"
