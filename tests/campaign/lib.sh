# Helpers for the campaign tests (sourced): a server on a free loopback port
# that the test starts and always stops, and an assessor's requests by curl.
# Needs: QK (the binary), curl. Every function fails loudly.
command -v curl >/dev/null || { echo "skipped: curl not installed" >&2; exit 77; }
QK_SERVER_PID=
QK_PORT=
QK_TMP=$(mktemp -d)
cleanup_campaign() {
  if [ -n "$QK_SERVER_PID" ]; then kill "$QK_SERVER_PID" 2>/dev/null; wait "$QK_SERVER_PID" 2>/dev/null; fi
  rm -rf "$QK_TMP"
}
trap cleanup_campaign EXIT

# start_server DB: serve on port 0 (any free port), wait for "listening PORT"
# (up to 30 s: a sanitizer build on a busy machine starts slowly).
start_server() {
  : > "$QK_TMP/server.out"
  "$QK" campaign serve "$1" --port 0 > "$QK_TMP/server.out" 2>> "$QK_TMP/server.log" &
  QK_SERVER_PID=$!
  for _ in $(seq 600); do
    QK_PORT=$(awk '$1 == "listening" {print $2}' "$QK_TMP/server.out")
    [ -n "$QK_PORT" ] && return 0
    kill -0 "$QK_SERVER_PID" 2>/dev/null || break
    sleep 0.05
  done
  echo "FAIL: the server did not start"; cat "$QK_TMP/server.log"; exit 1
}
stop_server() {
  kill "$QK_SERVER_PID"; wait "$QK_SERVER_PID" 2>/dev/null; QK_SERVER_PID=
}
url() { echo "http://127.0.0.1:$QK_PORT$1"; }
# status code of a GET with the token as session cookie: get TOKEN PATH
get() { curl -s -o "$QK_TMP/page" -w '%{http_code}' -b "qk_session=$1" "$(url "$2")"; }
# The open assignment of the page last fetched: fields a, csrf, shown.
field() { sed -n "s/.*name=\"$1\" value=\"\([^\"]*\)\".*/\1/p" "$QK_TMP/page" | head -1; }
# post TOKEN PATH BODY: status code
post() {
  curl -s -o "$QK_TMP/resp" -w '%{http_code}' -b "qk_session=$1" \
    -H 'Content-Type: application/x-www-form-urlencoded' --data-binary "$3" "$(url "$2")"
}
# judge TOKEN GRADE: label the assessor's next document; prints "topic docno"
judge() {
  local code
  code=$(get "$1" /judge); [ "$code" = 200 ] || { echo "FAIL: /judge gave $code"; exit 1; }
  local q d a c s
  q=$(sed -n 's/.*id="qid">\([^<]*\)<.*/\1/p' "$QK_TMP/page"); d=$(sed -n 's/.*id="docno">\([^<]*\)<.*/\1/p' "$QK_TMP/page")
  a=$(field a); c=$(field csrf); s=$(field shown)
  code=$(post "$1" /label "csrf=$c&a=$a&shown=$s&v=$2")
  [ "$code" = 303 ] || { echo "FAIL: /label gave $code"; cat "$QK_TMP/resp"; exit 1; }
  echo "$q $d"
}
# make_campaign DB TOPICS DOCS ASSESSORS: two runs of DOCS documents on
# TOPICS topics, all pooled and assigned (depth, overlap 1); the assessors'
# tokens in DB.tokens, one a line.
make_campaign() {
  local db=$1 nt=$2 nd=$3 na=$4 dir
  dir=$(dirname "$1")
  awk -v nt="$nt" -v nd="$nd" 'BEGIN { for (t = 1; t <= nt; t++) { printf "%d\ttopic %d\n", t, t > "'"$dir"'/topics.tsv";
      for (d = 1; d <= nd; d++) { printf "%d Q0 D%d-%d %d %d X\n", t, t, d, d, nd - d + 1 > "'"$dir"'/X.run";
                                  printf "%d Q0 D%d-%d %d %d Y\n", t, t, nd - d + 1, d, nd - d + 1 > "'"$dir"'/Y.run" } } }'
  "$QK" campaign init "$db" --runs "$dir/X.run" "$dir/Y.run" --topics "$dir/topics.tsv" --depth "$nd" --budget "$nd" || exit 1
  : > "$db.tokens"
  for i in $(seq "$na"); do "$QK" campaign person "$db" "a$i" >> "$db.tokens" || exit 1; done
  "$QK" campaign plan "$db" --method depth --batch "$nd" >/dev/null || exit 1
}
