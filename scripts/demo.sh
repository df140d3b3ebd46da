#!/usr/bin/env bash
# make demo: build a small synthetic collection whose true order of runs is
# known, evaluate every run with qrelkit eval, and show how well the measures
# recover that order. Usage: bash scripts/demo.sh [path/to/qrelkit]
set -euo pipefail

qk=${1:-build/default/qrelkit}
if [ ! -x "$qk" ]; then
    echo "demo: '$qk' is not an executable; run 'make build' first" >&2
    exit 3
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/qrelkit-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

topics=25 runs=12 depth=100 seed=7
gen=("$qk" sim collection --out "$work" --topics $topics --docs-per-topic 500 --depth $depth
     --runs $runs --seed $seed --quiet)
measures=(-m AP -m P@10 -m nDCG@10)

echo "== 1. A synthetic collection with known truth"
echo "   \$ qrelkit ${gen[*]:1}" | sed "s|$work|DIR|"
"${gen[@]}"
echo "   $topics topics, $(wc -l <"$work/qrels.txt") judged documents (grades 0-2), $runs runs of $depth documents per topic"
echo "   Each run has a hidden quality between 0.1 and 0.9 (DIR/manifest.json)."
echo

echo "== 2. Evaluate all runs at once"
echo "   \$ qrelkit eval ${measures[*]} --format tsv DIR/qrels.txt DIR/runs/*.run"
if ! "$qk" eval "${measures[@]}" --format tsv "$work/qrels.txt" "$work"/runs/*.run >"$work/eval.tsv"; then
    echo "demo: qrelkit eval failed (see the message above)" >&2
    exit 3
fi
echo

# True qualities, one "name quality" line per run, from the manifest's
# one-line-per-run entries.
sed -n 's/.*"name": "\([^"]*\)".*"quality": \([0-9.]*\).*/\1 \2/p' "$work/manifest.json" \
    >"$work/truth.txt"

# Summary rows "run MAP P@10 nDCG@10" from the TSV. The header names the
# columns, so both layouts work: long (run, qid, measure, value; summary rows
# have qid "all") and wide (one column per measure).
awk -F'\t' '
function canon(m) {
    if (m == "AP" || m == "map") return "MAP"
    if (m == "P@10" || m == "P_10") return "P@10"
    if (m == "nDCG@10" || m == "ndcg_cut_10") return "nDCG@10"
    return ""
}
function runname(r) { sub(/.*\//, "", r); sub(/\.run$/, "", r); return r }
NR == 1 {
    for (i = 1; i <= NF; i++) {
        h = $i
        if (h == "run" || h == "runid" || h == "run_id" || h == "system") rc = i
        else if (h == "qid" || h == "topic" || h == "query_id") qc = i
        else if (h == "measure" || h == "metric") mc = i
        else if (h == "value") vc = i
        else if (canon(h) != "") wide[i] = canon(h)
    }
    next
}
{
    if (qc && $qc != "all") next
    r = runname($rc)
    if (!(r in seen)) { seen[r] = 1; order[++n] = r }
    if (mc) { m = canon($mc); if (m != "") v[r, m] = $vc }
    else for (i in wide) v[r, wide[i]] = $i
}
END {
    for (k = 1; k <= n; k++) {
        r = order[k]
        if (!((r, "MAP") in v)) { print "demo: no MAP for run " r " in the eval output" > "/dev/stderr"; exit 1 }
        print r, v[r, "MAP"], v[r, "P@10"], v[r, "nDCG@10"]
    }
}' "$work/eval.tsv" >"$work/summary.txt"

if [ "$(wc -l <"$work/summary.txt")" -ne $runs ]; then
    echo "demo: expected $runs runs in the eval output, found $(wc -l <"$work/summary.txt")" >&2
    exit 3
fi

echo "== 3. Runs by MAP, next to their true quality"
join <(sort "$work/summary.txt") <(sort "$work/truth.txt") | sort -k2,2gr |
    awk 'BEGIN { printf "   %-6s %7s %7s %8s %8s\n", "run", "MAP", "P@10", "nDCG@10", "quality" }
         { printf "   %-6s %7.4f %7.4f %8.4f %8.4f\n", $1, $2, $3, $4, $5 }'
echo

# Kendall tau between MAP and true quality: 1 means the measure ranks the
# runs exactly as their hidden quality does.
tau=$(join <(sort "$work/summary.txt") <(sort "$work/truth.txt") |
    awk '{ m[NR] = $2; q[NR] = $5 }
         END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
                   s = (m[i] - m[j]) * (q[i] - q[j]); c += (s > 0); d += (s < 0) }
               printf "%.3f", (c - d) / (NR * (NR - 1) / 2) }')
echo "   True quality order (best first): $(sort -k2,2gr "$work/truth.txt" | awk '{ printf "%s%s", (NR > 1 ? " > " : ""), $1 }')"
echo "   Kendall's tau between MAP and true quality: $tau (1 = same order)"
echo
# ---- 4. From raw documents to runs (qrelkit index / search) -------------
# A toy corpus written here (no shared data needed): 16 documents on four
# subjects, four topics, and their complete judgments.
toy=$work/toy
mkdir -p "$toy"
cat >"$toy/corpus.trec" <<'TOY'
<DOC><DOCNO>T01</DOCNO>Solar panels convert sunlight into electricity with photovoltaic cells.</DOC>
<DOC><DOCNO>T02</DOCNO>The efficiency of solar cells depends on the semiconductor and on sunlight.</DOC>
<DOC><DOCNO>T03</DOCNO>Wind turbines and solar farms feed the electricity grid.</DOC>
<DOC><DOCNO>T04</DOCNO>A garden in sunlight: tomatoes need six hours of sun.</DOC>
<DOC><DOCNO>T05</DOCNO>Sourdough bread rises slowly with wild yeast and flour.</DOC>
<DOC><DOCNO>T06</DOCNO>Baking bread: knead the dough, let the yeast work, bake hot.</DOC>
<DOC><DOCNO>T07</DOCNO>Flour mills grind wheat; the flour trade in the middle ages.</DOC>
<DOC><DOCNO>T08</DOCNO>Yeast cells divide by budding, a model organism in biology.</DOC>
<DOC><DOCNO>T09</DOCNO>Migrating birds navigate by the stars and the magnetic field.</DOC>
<DOC><DOCNO>T10</DOCNO>Bird migration: swallows fly south to Africa each autumn.</DOC>
<DOC><DOCNO>T11</DOCNO>A magnetic compass points north along the field lines.</DOC>
<DOC><DOCNO>T12</DOCNO>Birds of the garden: robins and sparrows at the feeder.</DOC>
<DOC><DOCNO>T13</DOCNO>Chess openings: the Sicilian defence and the queen's gambit.</DOC>
<DOC><DOCNO>T14</DOCNO>Computer chess engines search millions of positions per second.</DOC>
<DOC><DOCNO>T15</DOCNO>Search engines rank web pages by links and text.</DOC>
<DOC><DOCNO>T16</DOCNO>The queen is the strongest chess piece; openings develop pieces.</DOC>
TOY
printf 'q1\tsolar electricity from sunlight\nq2\tyeast and flour\nq3\tbirds navigate by the magnetic field\nq4\tchess openings\n' >"$toy/topics.tsv"
printf '%s\n' "q1 0 T01 1" "q1 0 T02 1" "q1 0 T03 1" "q1 0 T04 0" "q2 0 T05 1" "q2 0 T06 1" "q2 0 T07 0" \
    "q2 0 T08 0" "q3 0 T09 1" "q3 0 T10 1" "q3 0 T11 0" "q3 0 T12 0" "q4 0 T13 1" "q4 0 T14 0" \
    "q4 0 T15 0" "q4 0 T16 1" >"$toy/qrels.txt"
echo "== 4. From raw documents to runs: index a toy corpus, search, evaluate"
echo "   \$ qrelkit index -o DIR/toy.idx DIR/corpus.trec"
"$qk" index --quiet -o "$toy/toy.idx" "$toy/corpus.trec"
echo "   $("$qk" index --info "$toy/toy.idx" | awk -F'\t' '$1 == "documents" { d = $2 } $1 == "terms" { t = $2 } $1 == "analysis" { a = $2 }
    END { printf "%s documents, %s terms (%s)", d, t, a }')"
for run in "bm25:-m bm25" "qld:-m qld --mu 10" "bm25-rm3:-m bm25 --rm3 --fb-docs 2"; do
    name=${run%%:*} m=${run#*:}
    echo "   \$ qrelkit search -i DIR/toy.idx -t DIR/topics.tsv $m --tag $name -o DIR/$name.run"
    # shellcheck disable=SC2086
    "$qk" search -i "$toy/toy.idx" -t "$toy/topics.tsv" $m --tag "$name" -o "$toy/$name.run"
done
echo "   \$ qrelkit eval -m map -m P.2 --format tsv DIR/qrels.txt DIR/*.run"
printf '   %-10s %7s %7s\n' run MAP P@2
"$qk" eval -m map -m P.2 --format tsv "$toy/qrels.txt" "$toy"/*.run |
    awk -F'\t' 'NR > 1 { v[$1, $2] = $4; runs[$1] = 1 }
         END { for (r in runs) printf "   %-10s %7.4f %7.4f\n", r, v[r, "map"], v[r, "P_2"] }' | sort
echo "   With your own documents: 'qrelkit help index', 'qrelkit help search' (--zoo N for a pool)."
echo

echo "Next: 'qrelkit help sim', 'qrelkit help eval', or the same with your own runs and qrels."
