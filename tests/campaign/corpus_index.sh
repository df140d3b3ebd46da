#!/usr/bin/env bash
# `campaign init --corpus INDEX` stores the same documents' text as
# `--corpus FILE` on the same corpus: the documents table, the assessors'
# pages (served on loopback, fetched with curl) and the export are the same
# for both databases, and the text is the corpus's own (checked against the
# literals written here: HTML-escaped on the page, UTF-8 kept, an empty
# document shown as having no text). An index built with --fields stores
# only those fields. Usage: corpus_index.sh QK
set -u
QK=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
command -v sqlite3 >/dev/null || { echo "skipped: sqlite3 not installed" >&2; exit 77; }
fails=0
check() { # check WHAT WANT GOT
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got '$3', expected '$2'"; fails=$((fails + 1)); fi
}
T=$QK_TMP
cat > "$T/corpus.jsonl" <<'JSON'
{"id": "a", "title": "Solar", "text": "Solar panel prices fell again this year."}
{"id": "d", "title": "Farms", "text": "<script>alert(1)</script> Solar & wind farms."}
{"id": "u", "title": "Caf\u00e9", "text": "Caf\u00e9 na\u00efve \u03b2-blockers \u2014 \u65e5\u672c\u8a9e"}
{"id": "e", "title": "", "text": ""}
{"id": "x", "title": "Unpooled", "text": "Never retrieved by a run."}
JSON
printf '1\tsolar energy\n' > "$T/topics.tsv"
printf '1 Q0 a 1 4 R\n1 Q0 d 2 3 R\n1 Q0 u 3 2 R\n1 Q0 e 4 1 R\n1 Q0 gone 5 0 R\n' > "$T/R.run"
"$QK" index --quiet -o "$T/c.idx" "$T/corpus.jsonl" || exit 1
"$QK" index --quiet --fields text -o "$T/f.idx" "$T/corpus.jsonl" || exit 1
for kind in file index fields; do
  case $kind in file) src=$T/corpus.jsonl ;; index) src=$T/c.idx ;; fields) src=$T/f.idx ;; esac
  "$QK" campaign init "$T/$kind.db" --runs "$T/R.run" --topics "$T/topics.tsv" --corpus "$src" --budget 5 || exit 1
  sqlite3 "$T/$kind.db" "SELECT docno, quote(text) FROM documents ORDER BY docno" > "$T/$kind.docs"
done
check "documents table: --corpus INDEX = --corpus FILE" "$(cat "$T/file.docs")" "$(cat "$T/index.docs")"
# default fields: every string field but the id, in the object's order, joined by a space
check "text of d (all fields)" "Farms <script>alert(1)</script> Solar & wind farms." \
  "$(sqlite3 "$T/index.db" "SELECT text FROM documents WHERE docno = 'd'")"
check "text of u (--fields text)" "Café naïve β-blockers — 日本語" \
  "$(sqlite3 "$T/fields.db" "SELECT text FROM documents WHERE docno = 'u'")"
check "text of d (--fields text)" "<script>alert(1)</script> Solar & wind farms." \
  "$(sqlite3 "$T/fields.db" "SELECT text FROM documents WHERE docno = 'd'")"
check "empty document: empty text" "''" "$(sqlite3 "$T/index.db" "SELECT quote(text) FROM documents WHERE docno = 'e'")"
check "retrieved, not in the index: no text" "NULL" \
  "$(sqlite3 "$T/index.db" "SELECT quote(text) FROM documents WHERE docno = 'gone'")"
check "unpooled document not stored" "0" "$(sqlite3 "$T/index.db" "SELECT COUNT(*) FROM documents WHERE docno = 'x'")"
# The pages: one assessor judges the five documents in each database; the
# text on each page is kept.
for kind in file index fields; do
  db=$T/$kind.db
  tok=$("$QK" campaign person "$db" alice) || exit 1
  "$QK" campaign plan "$db" --method depth --batch 5 >/dev/null || exit 1
  start_server "$db"
  : > "$T/$kind.pages"
  while [ "$(get "$tok" /judge)" = 200 ] && grep -q 'id="docno"' "$QK_TMP/page"; do
    d=$(sed -n 's/.*id="docno">\([^<]*\)<.*/\1/p' "$QK_TMP/page")
    printf '%s\t%s\n' "$d" "$(tr '\n' ' ' < "$QK_TMP/page" | sed -n 's|.*<pre id="text">\(.*\)</pre>.*|\1|p')" >> "$T/$kind.pages"
    [ "$(post "$tok" /label "csrf=$(field csrf)&a=$(field a)&shown=$(field shown)&v=1")" = 303 ] || { echo "FAIL label"; exit 1; }
  done
  stop_server
  "$QK" campaign export "$db" --out "$T/$kind.out" >/dev/null || exit 1
done
check "five pages served" "5" "$(wc -l < "$T/index.pages")"
check "pages: --corpus INDEX = --corpus FILE" "$(sort "$T/file.pages")" "$(sort "$T/index.pages")"
check "page of d (--fields text), escaped" "&lt;script&gt;alert(1)&lt;/script&gt; Solar &amp; wind farms." \
  "$(awk -F '\t' '$1 == "d" {print $2}' "$T/fields.pages")"
check "page of u (--fields text), UTF-8" "Café naïve β-blockers — 日本語" "$(awk -F '\t' '$1 == "u" {print $2}' "$T/fields.pages")"
check "page of e: no text" "(no text stored for this document)" "$(awk -F '\t' '$1 == "e" {print $2}' "$T/index.pages")"
check "export: --corpus INDEX = --corpus FILE" "" "$(diff -r "$T/file.out" "$T/index.out")"
[ $fails -eq 0 ] || exit 1
