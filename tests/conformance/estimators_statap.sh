#!/usr/bin/env bash
# statAP on the CLEF 2017 sample: `qrelkit eval -q -R prels --compat` must
# reproduce statAP_MQ_eval_v4.pl's output (golden/*.statap.txt, see the
# README of ../shared/data/estimators). Every line is compared as text; a line
# that differs must have the same words and numbers equal to a relative 1e-9,
# the precision the README gives for the script's full-precision varAP and
# summary numbers (they are summed in Perl hash order, so their 15th digit can
# change with the hash seed).
set -u
. "$(dirname "$0")/common.bash"
need_shared
bin=$1
dir="$QK_SHARED/data/estimators"
fail=0; n=0; inexact=0
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
for golden in "$dir"/golden/*.statap.txt; do
  run=$(basename "$golden" .statap.txt)
  n=$((n + 1))
  "$bin" eval -q -R prels --compat "$dir/qrels/statap.prels" "$dir/runs/$run.run" > "$tmp" || { echo "FAIL $run: exit $?"; fail=1; continue; }
  res=$(awk -v tol=1e-9 '
    function skel(s,   t) { t = s; gsub(/-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/, "#", t); return t }
    function nums(s, a,   t, k) { t = s; k = 0
      while (match(t, /-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/)) { a[++k] = substr(t, RSTART, RLENGTH) + 0; t = substr(t, RSTART + RLENGTH) }
      return k }
    NR == FNR { g[FNR] = $0; ng = FNR; next }
    { no = FNR
      if ($0 == g[FNR]) next
      if (skel($0) != skel(g[FNR])) { print "line " FNR ": " $0 " | " g[FNR]; bad = 1; next }
      k1 = nums($0, x); k2 = nums(g[FNR], y)
      for (i = 1; i <= k1; i++) { d = x[i] - y[i]; if (d < 0) d = -d; m = (x[i] < 0 ? -x[i] : x[i]); if (d > tol * m + 1e-300) { print "line " FNR ": " $0 " | " g[FNR]; bad = 1 } }
      approx++ }
    END { if (no != ng) { print "line count " no " vs " ng; bad = 1 }
          print (bad ? "BAD" : "OK") " " approx + 0 }' "$golden" "$tmp")
  case "$res" in
    *BAD*) echo "FAIL $run"; echo "$res" | head; fail=1 ;;
    *) inexact=$((inexact + ${res##* })) ;;
  esac
done
[ "$n" -eq 6 ] || { echo "expected 6 golden files, found $n"; fail=1; }
[ $fail -eq 0 ] && echo "all $n statAP outputs match ($inexact lines equal to 1e-9 relative, the rest byte-identical)"
exit $fail
