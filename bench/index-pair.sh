#!/usr/bin/env bash
# Paired CPU time of two qrelkit builds on `qrelkit index` (issue #14): the
# CLEF 2017 abstracts (42 MB of JSON lines) and the same five times under new
# ids (210 MB), as in bench/index.sh, each at several --memory values. The
# two binaries run alternately (A B A B ...), REPS times each; the table gives
# median CPU seconds (user + system), MB per CPU second, highest peak RSS and
# the load average before and after the row. Every pair of index files is
# compared byte for byte (cmp), and NPL at --memory 256, 32 and 1.
# Usage: bash bench/index-pair.sh OLD NEW   (env: REPS=3, MEMS="256 32 16 8",
#        CORPORA="clef clef5", EXTRA="--no-text" to add an option)
set -euo pipefail
old=$(realpath "$1")
new=$(realpath "$2")
reps=${REPS:-3}
mems=${MEMS:-256 32 16 8}
corpora=${CORPORA:-clef clef5}
extra=${EXTRA:-}
data=$(cd "$(dirname "$0")/../../shared/data" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-index-pair.XXXXXX")
trap 'rm -rf "$work"' EXIT

cat "$data"/clef-tar-2017-texts/doctexts/CD* >"$work/clef.jsonl"
for r in 1 2 3 4 5; do sed "s/^{\"id\": \"/{\"id\": \"r$r-/" "$work/clef.jsonl"; done >"$work/clef5.jsonl"
load() { cut -d' ' -f1 /proc/loadavg; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "| corpus | --memory | runs | CPU s old (median) | CPU s new (median) | MB per CPU s old → new | ratio | peak RSS old → new (MB) | new / --memory | load | index files |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
for c in $corpora; do
    mb=$(wc -c <"$work/$c.jsonl" | awk '{ printf "%.1f", $1 / 1e6 }')
    for m in $mems; do
        l0=$(load)
        : >"$work/co" && : >"$work/cn" && po=0 && pn=0
        for ((i = 0; i < reps; i++)); do
            for side in o n; do
                bin=$old && [ $side = n ] && bin=$new
                # shellcheck disable=SC2086
                /usr/bin/time -f '%U %S %M' -o "$work/t" "$bin" index --quiet -o "$work/$side.idx" --memory "$m" \
                    --skip-duplicates --fields content $extra "$work/$c.jsonl"
                read -r u s k <"$work/t"
                awk -v u="$u" -v s="$s" 'BEGIN { print u + s }' >>"$work/c$side"
                if [ $side = o ]; then po=$((k > po ? k : po)); else pn=$((k > pn ? k : pn)); fi
            done
        done
        same=identical && cmp -s "$work/o.idx" "$work/n.idx" || same=DIFFER
        co=$(median <"$work/co") cn=$(median <"$work/cn")
        awk -v c="$c" -v m="$m" -v r="$reps" -v co="$co" -v cn="$cn" -v mb="$mb" -v po="$po" -v pn="$pn" \
            -v l="$l0-$(load)" -v same="$same" 'BEGIN { printf "| %s | %d | %d+%d | %.2f | %.2f | %.1f → %.1f | %.2fx | %.1f → %.1f | %.2f | %s | %s |\n",
            c, m, r, r, co, cn, mb / co, mb / cn, co / cn, po / 1024, pn / 1024, pn / 1024 / m, l, same }'
    done
done
npl=$data/vaswani-npl/corpus/doc-text.trec
for m in 256 32 1; do
    # shellcheck disable=SC2086
    "$old" index --quiet -o "$work/o.idx" --memory $m $extra "$npl"
    # shellcheck disable=SC2086
    "$new" index --quiet -o "$work/n.idx" --memory $m $extra "$npl"
    cmp -s "$work/o.idx" "$work/n.idx" && echo "NPL --memory $m: identical" || echo "NPL --memory $m: DIFFER"
done
