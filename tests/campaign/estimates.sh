#!/usr/bin/env bash
# The dashboard's and `campaign status`'s numbers are those of the other
# commands on the export: MAP = `qrelkit eval -m map` on the exported qrels,
# statAP = `qrelkit eval -R prels` on the exported prels (statap), MTC's
# expected MAP = `qrelkit confidence` on the qrels (depth). The labels come
# in through the page (curl). Usage: estimates.sh QK
set -u
QK=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
data=$here/../cli/campaign
fails=0
check() { # check WHAT WANT GOT
  if [ "$2" = "$3" ]; then echo "ok   $1 ($3)"; else echo "FAIL $1: $3, expected $2"; fails=$((fails + 1)); fi
}
# relevant: a (topic 1), p and q (topic 2)
grade() { case "$1" in "1 a" | "2 p" | "2 q") echo 1 ;; *) echo 0 ;; esac; }
judge_all() { # judge_all TOKEN: answer every open assignment
  while [ "$(get "$1" /judge)" = 200 ] && grep -q 'id="docno"' "$QK_TMP/page"; do
    local q d
    q=$(sed -n 's/.*id="qid">\([^<]*\)<.*/\1/p' "$QK_TMP/page"); d=$(sed -n 's/.*id="docno">\([^<]*\)<.*/\1/p' "$QK_TMP/page")
    [ "$(post "$1" /label "csrf=$(field csrf)&a=$(field a)&shown=$(field shown)&v=$(grade "$q $d")")" = 303 ] || { echo "FAIL label"; exit 1; }
  done
}
dash_cell() { # dash_cell RUN COLUMN(2..5) from the dashboard page
  sed -n "s|.*<tr><td>$1</td>\(.*\)</tr>.*|\1|p" "$QK_TMP/dash" | sed 's|<td class="n">||g; s|</td>| |g' | awk -v c=$(($2 - 1)) '{print $c}'
}
for method in statap depth; do
  db=$QK_TMP/$method.db
  "$QK" campaign init "$db" --runs "$data/A.run" "$data/B.run" --topics "$data/topics.tsv" --budget 4 || exit 1
  ta=$("$QK" campaign person "$db" alice); to=$("$QK" campaign person "$db" org --organiser)
  "$QK" campaign plan "$db" --method $method --batch 2 >/dev/null || exit 1
  start_server "$db"
  judge_all "$ta"
  get "$to" /dashboard >/dev/null; cp "$QK_TMP/page" "$QK_TMP/dash"
  stop_server
  "$QK" campaign export "$db" --out "$QK_TMP/$method" >/dev/null || exit 1
  "$QK" campaign status "$db" > "$QK_TMP/status"
  "$QK" eval -m map "$QK_TMP/$method/qrels" "$data/A.run" "$data/B.run" > "$QK_TMP/eval"
  if [ $method = statap ]; then
    "$QK" eval -R prels "$QK_TMP/$method/prels" "$data/A.run" "$data/B.run" | awk '$2 == "statAP" {print $1, $4}' > "$QK_TMP/est"
  else
    "$QK" confidence "$QK_TMP/$method/qrels" "$data/A.run" "$data/B.run" | awk 'NR > 1 && NF == 4 {print $1, $2}' > "$QK_TMP/est"
  fi
  for run in A B; do
    map=$(awk -v r=$run '$1 == r {print $4}' "$QK_TMP/eval")
    est=$(awk -v r=$run '$1 == r {print $2}' "$QK_TMP/est")
    check "$method $run status MAP = eval" "$map" "$(awk -v r=$run '$1 == r && NF == 5 {print $2}' "$QK_TMP/status")"
    check "$method $run status estimate = eval -R prels / confidence" "$est" "$(awk -v r=$run '$1 == r && NF == 5 {print $3}' "$QK_TMP/status")"
    check "$method $run dashboard MAP" "$map" "$(dash_cell $run 2)"
    check "$method $run dashboard estimate" "$est" "$(dash_cell $run 3)"
  done
  check "$method judged = labels exported" "$(wc -l < "$QK_TMP/$method/labels")" "$(sed -n 's|.*id="budget-spent">\([0-9]*\)<.*|\1|p' "$QK_TMP/dash")"
done
[ $fails = 0 ] || exit 1
