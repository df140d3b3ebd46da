# Two assessors judge a depth batch through the page (curl); the export and
# the status are printed. Usage: bash flow.sh QK
QK=$1
. ../../campaign/lib.sh
db=$QK_TMP/c.db
"$QK" campaign init "$db" --runs A.run B.run --topics topics.tsv --corpus corpus.jsonl --budget 3 || exit 1
ta=$("$QK" campaign person "$db" alice); tb=$("$QK" campaign person "$db" bob)
"$QK" campaign plan "$db" --method depth --batch 2 --overlap 2 || exit 1
start_server "$db"
for g in 1 0 1 1; do echo "alice $(judge "$ta" $g) $g"; done
for g in 1 1 1 0; do echo "bob $(judge "$tb" $g) $g"; done
stop_server
"$QK" campaign export "$db" --out "$QK_TMP/out" | sed "s|$QK_TMP|TMP|"
echo "== qrels"; cat "$QK_TMP/out/qrels"
echo "== labels"; cat "$QK_TMP/out/labels"
echo "== eval"; "$QK" eval -m map "$QK_TMP/out/qrels" A.run B.run
echo "== status"; "$QK" campaign status "$db" | sed "/^alice\|^bob/ s/\t[^\t]*$/\tS/"
