#!/usr/bin/env bash
# Bad input to the campaign server: forged and expired tokens, another
# assessor's assignment, missing CSRF tokens, malformed and oversized posts,
# SQL and HTML injection strings. Each is refused with its status, logged,
# and leaves the database as it was. Usage: security.sh QK
set -u
QK=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
data=$here/../cli/campaign
db=$QK_TMP/c.db
fails=0
expect() { # expect WHAT WANT GOT
  if [ "$2" = "$3" ]; then echo "ok   $1 ($3)"; else echo "FAIL $1: status $3, expected $2"; fails=$((fails + 1)); fi
}
logged() { # logged WHAT PATTERN: the server's log has a line for it
  if grep -q -- "$2" "$QK_TMP/server.log"; then echo "ok   $1 logged"; else echo "FAIL $1 not logged ('$2')"; fails=$((fails + 1)); fi
}
labels() { sqlite3 "$db" "SELECT COUNT(*) FROM labels"; }

"$QK" campaign init "$db" --runs "$data/A.run" "$data/B.run" --topics "$data/topics.tsv" \
  --corpus "$data/corpus.jsonl" --budget 3 || exit 1
ta=$("$QK" campaign person "$db" alice); tb=$("$QK" campaign person "$db" bob)
to=$("$QK" campaign person "$db" org --organiser)
"$QK" campaign plan "$db" --method depth --batch 3 >/dev/null || exit 1
te=$("$QK" campaign person "$db" late --expires 1)
start_server "$db"

forged=0000000000000000000000000000000000000000000000000000000000000000
expect "forged token" 403 "$(get x "/login?t=$forged")"; logged "forged token" "403 /login.*unknown token"
expect "malformed token" 403 "$(get x "/login?t=%27%20OR%201=1--")"
expect "no token" 403 "$(get x /login)"
sleep 1.2
expect "expired token" 403 "$(get x "/login?t=$te")"; logged "expired token" "403 /login.*expired token"
expect "expired session" 401 "$(get "$te" /judge)"
expect "no session" 401 "$(curl -s -o /dev/null -w '%{http_code}' "$(url /judge)")"; logged "no session" "401 /judge.*no session"
expect "forged session" 401 "$(get "$forged" /judge)"
expect "login" 303 "$(curl -s -o /dev/null -w '%{http_code}' "$(url "/login?t=$ta")")"

# alice's open assignment, and bob's form token
expect "alice's page" 200 "$(get "$ta" /judge)"
a_alice=$(field a); c_alice=$(field csrf); s_alice=$(field shown)
grep -q '&lt;prices&gt;' "$QK_TMP/page" && echo "ok   topic text escaped" || { echo "FAIL topic text not escaped"; fails=$((fails + 1)); }
expect "bob's page" 200 "$(get "$tb" /judge)"
c_bob=$(field csrf); s_bob=$(field shown)
n0=$(labels)
expect "another's assignment" 403 "$(post "$tb" /label "csrf=$c_bob&a=$a_alice&shown=$s_bob&v=1")"
logged "another's assignment" "asked for assignment $a_alice of someone else"
expect "another's skip" 403 "$(post "$tb" /skip "csrf=$c_bob&a=$a_alice")"
expect "alice's form token used by bob" 403 "$(post "$tb" /label "csrf=$c_alice&a=$a_alice&shown=$s_alice&v=1")"
expect "no CSRF token" 403 "$(post "$ta" /label "a=$a_alice&shown=$s_alice&v=1")"; logged "no CSRF token" "CSRF"
expect "no such assignment" 403 "$(post "$ta" /label "csrf=$c_alice&a=999999&shown=$s_alice&v=1")"
expect "assignment not a number" 400 "$(post "$ta" /label "csrf=$c_alice&a=abc&shown=$s_alice&v=1")"
expect "SQL in the assignment" 400 "$(post "$ta" /label "csrf=$c_alice&a=1%20OR%201%3D1&shown=$s_alice&v=1")"
expect "SQL in the grade" 400 "$(post "$ta" /label "csrf=$c_alice&a=$a_alice&shown=$s_alice&v=1%3B%20DROP%20TABLE%20labels")"
expect "grade not configured" 400 "$(post "$ta" /label "csrf=$c_alice&a=$a_alice&shown=$s_alice&v=7")"
expect "time in the future" 400 "$(post "$ta" /label "csrf=$c_alice&a=$a_alice&shown=99999999999999&v=1")"
expect "bad escape" 400 "$(post "$ta" /label "csrf=$c_alice&a=%zz&shown=$s_alice&v=1")"
expect "field twice" 400 "$(post "$ta" /label "csrf=$c_alice&a=$a_alice&a=$a_alice&shown=$s_alice&v=1")"
expect "NUL byte" 400 "$(post "$ta" /label "csrf=$c_alice&a=$a_alice&shown=$s_alice&v=1%00")"
big=$(head -c 10000 /dev/zero | tr '\0' 'x')
expect "oversized post" 413 "$(post "$ta" /label "csrf=$c_alice&a=$a_alice&v=1&pad=$big")"; logged "oversized post" "413 /label"
expect "not a form" 415 "$(curl -s -o /dev/null -w '%{http_code}' -b "qk_session=$ta" -H 'Content-Type: application/json' --data-binary '{"a":1}' "$(url /label)")"
expect "no label stored by any of these" "$n0" "$(labels)"
expect "labels table intact" 1 "$(sqlite3 "$db" "SELECT COUNT(*) FROM sqlite_master WHERE name = 'labels'")"

expect "a good label" 303 "$(post "$ta" /label "csrf=$c_alice&a=$a_alice&shown=$s_alice&v=1")"
expect "the same assignment again" 409 "$(post "$ta" /label "csrf=$c_alice&a=$a_alice&shown=$s_alice&v=0")"
expect "one label stored" $((n0 + 1)) "$(labels)"
expect "label took its value" 1 "$(sqlite3 "$db" "SELECT value FROM labels WHERE assignment_id = $a_alice")"

# the document with an HTML injection string is shown as text
found=0
for _ in 1 2 3; do
  get "$ta" /judge >/dev/null
  if grep -q 'id="docno">d<' "$QK_TMP/page"; then found=1; break; fi
  post "$ta" /skip "csrf=$c_alice&a=$(field a)" >/dev/null
done
if [ $found = 1 ] && grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$QK_TMP/page" && ! grep -q '<script>alert' "$QK_TMP/page"; then
  echo "ok   document text escaped"
else echo "FAIL document d not shown escaped"; fails=$((fails + 1)); fi
csp=$(curl -s -D - -o /dev/null -b "qk_session=$ta" "$(url /judge)" | grep -i '^content-security-policy')
case "$csp" in *"default-src 'none'"*) echo "ok   CSP header";; *) echo "FAIL no CSP header"; fails=$((fails + 1));; esac

expect "dashboard as an assessor" 403 "$(get "$ta" /dashboard)"
expect "dashboard as the organiser" 200 "$(get "$to" /dashboard)"
c_org=$(curl -s -b "qk_session=$to" "$(url /judge)" | sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -1)
expect "organiser labelling" 403 "$(post "$to" /label "csrf=$c_org&a=$a_alice&shown=$s_alice&v=1")"
expect "unknown page" 404 "$(get "$ta" /nope)"
expect "static path escape" 404 "$(get "$ta" /static/../c.db)"
expect "PUT" 405 "$(curl -s -o /dev/null -w '%{http_code}' -X PUT -b "qk_session=$ta" "$(url /judge)")"

# login rate limiting: after 10 failures a minute the address must wait
for _ in $(seq 12); do get x "/login?t=$forged" >/dev/null; done
expect "rate limit" 429 "$(get x "/login?t=$ta")"; logged "rate limit" "429 /login"

stop_server
for t in "$ta" "$tb" "$to" "$te"; do
  if grep -q "$t" "$QK_TMP/server.log"; then echo "FAIL a token is in the log"; fails=$((fails + 1)); fi
done
[ "$(sqlite3 "$db" 'SELECT COUNT(*) FROM people WHERE token_hash IN (SELECT token_hash FROM people WHERE length(token_hash) = 64)')" = 4 ] &&
  ! sqlite3 "$db" .dump | grep -q "$ta" && echo "ok   tokens stored hashed" || { echo "FAIL tokens not hashed"; fails=$((fails + 1)); }
expect "integrity" ok "$(sqlite3 "$db" 'PRAGMA integrity_check')"
[ $fails = 0 ] || { echo "$fails failed; server log:"; cat "$QK_TMP/server.log"; exit 1; }
