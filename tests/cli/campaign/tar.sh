# campaign plan --method tar: every batch must be what `qrelkit tar run
# --judgments` proposes for the topic from the same texts (the topic's pooled
# documents, read from the corpus file, in docno order) and the labels
# exported so far. The assessor labels by tar_truth.qrels through the page.
# CAL's batches grow 1, 2, 3, 4 per topic; topic 3 (3 documents) is exhausted
# after two rounds, topic 2 (6) after three, topic 1 (8) after four.
# Usage: bash tar.sh QK
QK=$1
. ../../campaign/lib.sh
db=$QK_TMP/c.db
"$QK" campaign init "$db" --runs T1.run T2.run --topics tar_topics.tsv --corpus tar_corpus.jsonl || exit 1
ta=$("$QK" campaign person "$db" alice)
batch() { sqlite3 "$db" "SELECT t.qid, d.docno FROM assignments a JOIN topics t ON t.id = a.topic_id JOIN documents d ON d.id = a.doc_id WHERE a.batch = $1 ORDER BY t.qid, d.docno" | tr '|' ' '; }
# what tar run proposes for every topic, from the corpus file and the export
tar_batch() {
  for q in 1 2 3; do
    awk -v q=$q '$1 == q {print $3}' T1.run T2.run | LC_ALL=C sort -u |
      while read -r d; do grep "\"id\": \"$d\"" tar_corpus.jsonl; done > "$QK_TMP/corpus$q.jsonl"
    "$QK" tar run --corpus "$QK_TMP/corpus$q.jsonl" --topic tar_topics.tsv --topic-id $q --stop none --seed 7 \
      --judgments "$QK_TMP/out/qrels" --batch "$QK_TMP/b$q" -o "$QK_TMP/run$q" 2>/dev/null || exit 1
    [ -f "$QK_TMP/b$q" ] && awk '{print $1, $3}' "$QK_TMP/b$q" | LC_ALL=C sort; rm -f "$QK_TMP/b$q"
  done
}
# label the next open assignment by the truth file
label() {
  local code q d a c s g
  code=$(get "$ta" /judge); [ "$code" = 200 ] || { echo "FAIL: /judge gave $code"; exit 1; }
  q=$(sed -n 's/.*id="qid">\([^<]*\)<.*/\1/p' "$QK_TMP/page"); d=$(sed -n 's/.*id="docno">\([^<]*\)<.*/\1/p' "$QK_TMP/page")
  a=$(field a); c=$(field csrf); s=$(field shown)
  g=$(awk -v q="$q" -v d="$d" '$1 == q && $3 == d {print $4}' tar_truth.qrels); g=${g:-0}
  code=$(post "$ta" /label "csrf=$c&a=$a&shown=$s&v=$g")
  [ "$code" = 303 ] || { echo "FAIL: /label gave $code"; exit 1; }
}
mkdir -p "$QK_TMP/out"
for round in 1 2 3 4 5; do
  "$QK" campaign plan "$db" --method tar --batch 10 --seed 7 || exit 1
  batch $round > "$QK_TMP/campaign"; tar_batch > "$QK_TMP/tar"
  echo "== round $round: $(wc -l < "$QK_TMP/campaign") documents"; cat "$QK_TMP/campaign"
  if cmp -s "$QK_TMP/campaign" "$QK_TMP/tar"; then echo "tar run: same"; else echo "tar run differs:"; cat "$QK_TMP/tar"; fi
  [ $round = 1 ] && "$QK" campaign plan "$db" --method tar --batch 10 --seed 7   # nothing new before labels
  n=$(wc -l < "$QK_TMP/campaign")
  start_server "$db"; for _ in $(seq "$n"); do label; done; stop_server
  "$QK" campaign export "$db" --out "$QK_TMP/out" >/dev/null || exit 1
done
echo "== runs written by tar run at the end (every pooled document screened)"
for q in 1 2 3; do wc -l < "$QK_TMP/run$q"; done
echo "== --batch 1: the first document of the loop's batch only"
"$QK" campaign init "$QK_TMP/one.db" --runs T1.run T2.run --topics tar_topics.tsv --corpus tar_corpus.jsonl || exit 1
"$QK" campaign person "$QK_TMP/one.db" alice >/dev/null
"$QK" campaign plan "$QK_TMP/one.db" --method tar --batch 1 --seed 7
echo "== refusals"
"$QK" campaign plan "$db" --method depth --batch 1 --seed 7 2>&1 | sed "s|$QK_TMP|TMP|"; echo "exit ${PIPESTATUS[0]}"
"$QK" campaign init "$QK_TMP/n.db" --runs T1.run T2.run --topics tar_topics.tsv || exit 1
"$QK" campaign person "$QK_TMP/n.db" alice >/dev/null
"$QK" campaign plan "$QK_TMP/n.db" --method tar --batch 2 2>&1 | sed "s|$QK_TMP|TMP|"; echo "exit ${PIPESTATUS[0]}"
"$QK" campaign init "$QK_TMP/b.db" --runs T4.run --topics tar_topics_bad.tsv --corpus tar_corpus.jsonl || exit 1
"$QK" campaign person "$QK_TMP/b.db" alice >/dev/null
"$QK" campaign plan "$QK_TMP/b.db" --method tar --batch 2 2>&1 | sed "s|$QK_TMP|TMP|"; echo "exit ${PIPESTATUS[0]}"
sqlite3 "$QK_TMP/b.db" "SELECT COUNT(*) FROM assignments"
