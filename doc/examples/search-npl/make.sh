#!/usr/bin/env bash
# Regenerates results.tsv and zoo.tsv in this folder: MAP and P@10 on the
# Vaswani (NPL) collection for BM25 (default and a grid), query likelihood
# (Dirichlet, Jelinek-Mercer), RM3 on both, and a 30-run zoo.
# Usage: doc/examples/search-npl/make.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../../../build/default/qrelkit}
data=$here/../../../../shared/data/vaswani-npl
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-npl.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Three analyses: Porter + stop list (default), no stemming, S stemmer without stop list.
"$qk" index --quiet -o "$work/porter.idx" "$data/corpus/doc-text.trec"
"$qk" index --quiet -o "$work/none.idx" --stemmer none "$data/corpus/doc-text.trec"
"$qk" index --quiet -o "$work/s-nostop.idx" --stemmer s --no-stop "$data/corpus/doc-text.trec"

# One line "name<TAB>settings<TAB>MAP<TAB>P@10" per configuration.
row() {
    local name=$1; shift
    "$qk" search -i "$work/porter.idx" -t "$data/query-text.trec" --threads 2 "$@" -o "$work/run"
    "$qk" eval -m map -m P.10 "$data/qrels" "$work/run" |
        awk -v n="$name" -v s="$*" '$1 == "map" { m = $3 } $1 == "P_10" { p = $3 }
                                    END { printf "%s\t%s\t%s\t%s\n", n, s, m, p }'
}
{
    printf 'name\tsettings\tmap\tP_10\n'
    row "BM25 default" -m bm25
    for k1 in 0.6 0.9 1.2 1.5; do
        for b in 0.3 0.5 0.75; do row "BM25 grid" -m bm25 --k1 $k1 --b $b; done
    done
    for mu in 50 100 250 500 1000 2000; do row "QL Dirichlet" -m qld --mu $mu; done
    for l in 0.2 0.5 0.7; do row "QL Jelinek-Mercer" -m qljm --lambda $l; done
    row "BM25+RM3 default" -m bm25 --rm3
    for d in 5 10 20; do
        for t in 10 20 50; do row "BM25+RM3 grid" -m bm25 --rm3 --fb-docs $d --fb-terms $t; done
    done
    row "QLD+RM3" -m qld --mu 100 --rm3
} >"$here/results.tsv"

# The zoo: 30 systems over the three indexes, evaluated.
"$qk" search -i "$work/porter.idx" -i "$work/none.idx" -i "$work/s-nostop.idx" \
    -t "$data/query-text.trec" --zoo 30 --seed 1 --threads 2 -o "$work/zoo"
"$qk" eval -m map -m P.10 --format tsv "$data/qrels" "$work"/zoo/*.run |
    awk -F'\t' 'NR > 1 { sub(/.*\//, "", $1); sub(/\.run$/, "", $1); v[$1, $2] = $4; r[$1] = 1 }
                END { print "run\tmap\tP_10"; for (k in r) printf "%s\t%s\t%s\n", k, v[k, "map"], v[k, "P_10"] }' |
    (read -r h; echo "$h"; sort -t$'\t' -k2,2gr) >"$here/zoo.tsv"
