#!/usr/bin/env bash
# No label lost: eight assessors post labels through the load generator
# while the server is killed with SIGKILL five times and restarted on the
# same port. Every label the server acknowledged (303) is in the database
# afterwards, and SQLite's integrity check passes. Bounded: about 8 seconds.
# Usage: sigkill.sh QK (QK_BUILD: the build with campaign_loadgen)
set -u
QK=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
loadgen=${QK_BUILD:?}/tests/campaign_loadgen
[ -x "$loadgen" ] || { echo "FAIL: no $loadgen"; exit 1; }
db=$QK_TMP/c.db
make_campaign "$db" 20 100 8
start_server "$db"
port=$QK_PORT
"$loadgen" "$port" "$db.tokens" 8 "$QK_TMP/acks" > "$QK_TMP/load.out" &
lg=$!
kills=0
for _ in 1 2 3 4 5; do
  sleep 1.$((RANDOM % 5))
  kill -KILL "$QK_SERVER_PID"; wait "$QK_SERVER_PID" 2>/dev/null
  kills=$((kills + 1))
  # emptied here, not by the background command's own redirection, which may
  # come after the first look and leave the killed server's "listening" there
  : > "$QK_TMP/server.out"
  "$QK" campaign serve "$db" --port "$port" >> "$QK_TMP/server.out" 2>> "$QK_TMP/server.log" &
  QK_SERVER_PID=$!
  for _ in $(seq 600); do grep -q listening "$QK_TMP/server.out" 2>/dev/null && break; sleep 0.05; done
  grep -q listening "$QK_TMP/server.out" || { echo "FAIL: the server did not come back"; cat "$QK_TMP/server.log"; exit 1; }
done
wait $lg
stop_server
cat "$QK_TMP/load.out"
acked=$(sort -u "$QK_TMP/acks" | wc -l)
[ "$acked" -gt 0 ] || { echo "FAIL: nothing was acknowledged"; exit 1; }
sort -u "$QK_TMP/acks" | awk '{print "INSERT INTO acked VALUES(" $1 ");"}' > "$QK_TMP/acks.sql"
missing=$(sqlite3 "$db" "CREATE TEMP TABLE acked(id INTEGER); $(cat "$QK_TMP/acks.sql") SELECT COUNT(*) FROM acked WHERE NOT EXISTS (SELECT 1 FROM labels l WHERE l.assignment_id = acked.id AND l.undone = 0);")
stored=$(sqlite3 "$db" "SELECT COUNT(*) FROM labels WHERE undone = 0")
integrity=$(sqlite3 "$db" "PRAGMA integrity_check")
echo "kills $kills acknowledged $acked stored $stored missing $missing integrity $integrity"
[ "$missing" = 0 ] && [ "$stored" -ge "$acked" ] && [ "$integrity" = ok ] || { echo FAIL; exit 1; }
