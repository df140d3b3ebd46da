#!/usr/bin/env bash
# qrelkit index + search on Vaswani (NPL) evaluated with qrelkit eval: MAP must
# land where BM25, QL and RM3 are known to land on this collection (Terrier
# documents 0.2992 for BM25), the zoo must spread, and --threads must not
# change a byte. Ranges, not copied values: the engine may change details.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.bash"
need_shared
qk=$1
data=$QK_SHARED/data/vaswani-npl
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-search-npl.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0

"$qk" index --quiet -o "$work/npl.idx" "$data/corpus/doc-text.trec"
"$qk" index --info "$work/npl.idx" | grep -qx $'documents\t11429' || { echo "expected 11429 documents"; fail=1; }

map() { "$qk" eval -m map "$data/qrels" "$1" | awk '$1 == "map" { print $3 }'; }
check() { # name run lo hi
    local m; m=$(map "$2")
    if awk -v m="$m" -v lo="$3" -v hi="$4" 'BEGIN { exit !(m >= lo && m <= hi) }'; then
        echo "ok: $1 MAP $m in [$3, $4]"
    else
        echo "FAIL: $1 MAP $m outside [$3, $4]"; fail=1
    fi
}
s() { local out=$1; shift; "$qk" search -i "$work/npl.idx" -t "$data/query-text.trec" "$@" -o "$work/$out"; }

s bm25.run
s bm25-robertson.run --k1 1.2 --b 0.75
s qljm.run -m qljm --lambda 0.5
s qld.run -m qld --mu 100
s rm3.run --rm3
check "BM25 default" "$work/bm25.run" 0.28 0.32
check "BM25 k1 1.2 b 0.75" "$work/bm25-robertson.run" 0.27 0.32
check "QL Jelinek-Mercer" "$work/qljm.run" 0.25 0.31
check "QL Dirichlet mu 100" "$work/qld.run" 0.25 0.31
check "BM25+RM3" "$work/rm3.run" "$(map "$work/bm25.run")" 0.34

# 1000 lines per topic at most, ranks 1.., one tag.
awk '{ if ($4 != ++r[$1]) bad = 1; tags[$6] = 1 } END { n = 0; for (t in tags) n++; exit bad || n != 1 }' \
    "$work/bm25.run" || { echo "FAIL: ranks or tags malformed"; fail=1; }

# Threads: byte-identical output.
s rm3-t3.run --rm3 --threads 3
cmp -s "$work/rm3.run" "$work/rm3-t3.run" || { echo "FAIL: --threads 3 changed the run"; fail=1; }

# Zoo: 12 systems, MAP spread at least 0.1 between best and worst.
"$qk" search -i "$work/npl.idx" -t "$data/query-text.trec" --zoo 12 --seed 3 -o "$work/zoo"
[ "$(ls "$work"/zoo/*.run | wc -l)" -eq 12 ] || { echo "FAIL: zoo wrote $(ls "$work"/zoo/*.run | wc -l) runs"; fail=1; }
spread=$("$qk" eval -m map --format tsv "$data/qrels" "$work"/zoo/*.run |
    awk -F'\t' 'NR > 1 { if (min == "" || $4 < min) min = $4; if ($4 > max) max = $4 } END { print max - min }')
awk -v s="$spread" 'BEGIN { exit !(s >= 0.1) }' && echo "ok: zoo MAP spread $spread" ||
    { echo "FAIL: zoo MAP spread $spread < 0.1"; fail=1; }
exit $fail
