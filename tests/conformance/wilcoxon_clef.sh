#!/usr/bin/env bash
# Wilcoxon signed-rank on real per-topic scores (CLEF 2017 TAR, P@10 of the 16
# runs, 30 topics): P@10 differences such as 0.3 - 0.2 and 0.2 - 0.1 are equal
# but differ in their last bit as doubles, and must tie. Checked against
#  1. AMC vs ECNU-run2: 22 non-zero differences, W+ = 68.5 and exact p =
#     0.0558 (2 * 117091 / 2^22), found by summing all 2^22 sign patterns in an
#     independent script (bit-equal ties gave W+ 57.5, p .0227: "significant");
#  2. every pair with 1..25 non-zero differences (exact p): an awk oracle that
#     reads the 6-decimal scores as integers (exact ties), takes doubled
#     mid-ranks and counts the null distribution of W+ by dynamic programming.
set -u
. "$(dirname "$0")/common.bash"
need_shared
bin=$1
dir="$QK_SHARED/data/clef-tar-2017"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

"$bin" eval --matrix P.10 --dedup first -c "$dir/qrel_abs_test.txt" "$dir"/runs/*.run \
  > "$tmp/p10.tsv" 2>/dev/null || { echo "FAIL eval --matrix P.10"; exit 1; }
"$bin" compare --pairs "$tmp/p10.tsv" --test wilcoxon --precision 10 > "$tmp/got" ||
  { echo "FAIL compare --pairs --test wilcoxon"; exit 1; }

# 1. the pair the audit found
row=$(awk -F'\t' '$1 == "AMC-amc.run" && $2 == "ECNU-run2"' "$tmp/got")
if ! awk -F'\t' '{ exit !($8 == 22 && $7 == 68.5 && ($9 - 117091 * 2 / 4194304) ^ 2 < 1e-18 && $11 == 0) }' <<< "$row"; then
  echo "FAIL AMC vs ECNU-run2: expected n 22, W+ 68.5, p 0.0558333397 (not significant), got:"
  echo "$row"; fail=1
fi

# 2. every exact pair against the oracle
awk 'BEGIN { FS = OFS = "\t" }
NR == 1 { for (j = 2; j <= NF; j++) name[j] = $j; nc = NF; next }
{ nt++; for (j = 2; j <= NF; j++) v[nt, j] = int($j * 1000000 + ($j < 0 ? -0.5 : 0.5)) }
END {
  for (a = 2; a <= nc; a++) for (b = a + 1; b <= nc; b++) {
    m = 0
    for (t = 1; t <= nt; t++) { dd = v[t, a] - v[t, b]; if (dd != 0) d[++m] = dd }
    if (m == 0 || m > 25) continue
    w2 = 0; tot = 0
    for (i = 1; i <= m; i++) {
      less = 0; eq = 0; x = d[i] < 0 ? -d[i] : d[i]
      for (k = 1; k <= m; k++) { y = d[k] < 0 ? -d[k] : d[k]; less += y < x; eq += y == x }
      r2[i] = 2 * less + eq + 1; tot += r2[i]   # twice the mean of positions less+1 .. less+eq
      if (d[i] > 0) w2 += r2[i]
    }
    delete c; c[0] = 1; reach = 0
    for (i = 1; i <= m; i++) { reach += r2[i]; for (s = reach; s >= r2[i]; s--) c[s] += c[s - r2[i]] }
    lo = 0; hi = 0
    for (s = 0; s <= tot; s++) { if (s <= w2) lo += c[s]; if (s >= w2) hi += c[s] }
    p = 2 * (lo < hi ? lo : hi) / 2 ^ m; if (p > 1) p = 1
    printf "%s\t%s\t%d\t%.1f\t%.12f\n", name[a], name[b], m, w2 / 2, p
  }
}' "$tmp/p10.tsv" > "$tmp/want"
n=$(wc -l < "$tmp/want")
[ "$n" -ge 90 ] || { echo "FAIL oracle: only $n exact pairs"; fail=1; }
bad=$(awk -F'\t' 'NR == FNR { want[$1 "\t" $2] = $3 "\t" $4 "\t" $5; next }
  FNR > 1 && (($1 "\t" $2) in want) {
    split(want[$1 "\t" $2], w, "\t")
    if ($8 != w[1] || $7 != w[2] || ($9 - w[3]) ^ 2 > 1e-18)
      print "  " $1 " vs " $2 ": got n " $8 " W+ " $7 " p " $9 "; expected " w[1] ", " w[2] ", " w[3]
  }' "$tmp/want" "$tmp/got")
seen=$(awk -F'\t' 'NR == FNR { want[$1 "\t" $2]; next } FNR > 1 && (($1 "\t" $2) in want)' "$tmp/want" "$tmp/got" | wc -l)
if [ -n "$bad" ] || [ "$seen" -ne "$n" ]; then
  echo "FAIL exact Wilcoxon p-values differ from the oracle ($seen of $n pairs found):"; echo "$bad"; fail=1
fi
[ $fail -eq 0 ] && echo "Wilcoxon on CLEF 2017 P@10: AMC vs ECNU-run2 W+ 68.5 p 0.0558; all $n exact pairs match the oracle"
exit $fail
