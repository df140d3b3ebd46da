# campaign plan with a budget method (qdp): each batch must be the pairs
# `qrelkit budget plan` gives on the same runs and the labels exported so
# far. Stage 1 (nothing judged) is uniform; stage 2 steers by the labels.
# Usage: bash budget.sh QK
QK=$1
. ../../campaign/lib.sh
db=$QK_TMP/c.db
"$QK" campaign init "$db" --runs A.run B.run C.run --topics topics.tsv --corpus corpus.jsonl --budget 5 || exit 1
ta=$("$QK" campaign person "$db" alice); tb=$("$QK" campaign person "$db" bob)
batch() { sqlite3 "$db" "SELECT DISTINCT t.qid, d.docno FROM assignments a JOIN topics t ON t.id = a.topic_id JOIN documents d ON d.id = a.doc_id WHERE a.batch = $1 ORDER BY t.qid, d.docno" | tr '|' '\t'; }
plan() { "$QK" budget plan --runs A.run B.run C.run --method qdp "$@" 2>/dev/null | awk -F'\t' 'NR > 1 {print $1 "\t" $2}' | sort; }
"$QK" campaign plan "$db" --method qdp --batch 4 --overlap 2 || exit 1
echo "== batch 1"; batch 1
echo "== budget plan"; plan --budget 4
start_server "$db"
for g in 1 0 0 1; do echo "alice $(judge "$ta" $g) $g"; done
for g in 1 0 0 1; do echo "bob $(judge "$tb" $g) $g"; done
stop_server
"$QK" campaign export "$db" --out "$QK_TMP/out" >/dev/null || exit 1
echo "== qrels"; cat "$QK_TMP/out/qrels"
"$QK" campaign plan "$db" --method qdp --batch 3 --overlap 2 || exit 1
echo "== batch 2"; batch 2
echo "== budget plan"; plan --budget 3 --judged "$QK_TMP/out/qrels"
"$QK" campaign plan "$db" --method un --batch 3 2>&1 | sed "s|$QK_TMP|TMP|"
echo "== status"; "$QK" campaign status "$db" | head -1
