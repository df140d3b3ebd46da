#!/usr/bin/env bash
# Why IP's Kendall tau is above RTC's on CLEF 2017 and why the pairs of two new runs are
# RTC's worst group (see rtc-clef2017-tau.md). Run from the repository root with qrelkit
# on PATH (or QK=path/to/qrelkit) and python3; seeded (20071), so the files are the same
# on every machine. About 6 minutes for the 50-trial run and 2-3 minutes for each
# 20-trial variant on one core of the 2-core build machine.
set -eu
qk=${QK:-qrelkit}
d=../shared/data/clef-tar-2017
out=doc/examples
tau=$out/rtc-clef2017-tau.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qk-rtctau.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the eleven runs with full lists, as in rtc-clef2017.sh
full=$(ls "$d"/runs/*.run | grep -v -e IIIT-run1 -e m10p5f0t0 -e m10p10f0t150 -e QUT-)
sim() { # name trials options...
  local name=$1 trials=$2; shift 2
  "$qk" confidence --simulate "$d/qrel_abs_test.txt" --trials "$trials" --pairs-out "$tmp/$name.pairs" "$@" $full \
      > "$out/rtc-clef2017-tau-$name.tsv"
}
# 1. The experiment of rtc-clef2017-full.tsv (the same file but for the pairs), per trial
sim base 50
cmp <(grep -v '^#' "$out/rtc-clef2017-tau-base.tsv") <(grep -v '^#' "$out/rtc-clef2017-full.tsv")
python3 "$tau" "$tmp/base.pairs" > "$out/rtc-clef2017-tau-base.txt"
# its first 20 trials: the 20-trial variants draw the same runs in the same order
awk -F'\t' 'NR == 1 || $1 <= 20' "$tmp/base.pairs" > "$tmp/base20.pairs"
# 2. Variants, 20 trials each, compared trial by trial with the first 20 above
for v in "s0.1 --rtc-s 0.1" "s10 --rtc-s 10" "s0.01 --rtc-s 0.01" "budget150 --budget 150" \
         "ip0.24 --ip-prior 0.24" "ip0.5 --ip-prior 0.5" "ipmtc --ip-mtc-judgments" \
         "ipmtc0.24 --ip-mtc-judgments --ip-prior 0.24"; do
  set -- $v
  name=$1; shift
  sim "$name" 20 "$@"
  python3 "$tau" "$tmp/$name.pairs" "$tmp/base20.pairs" > "$out/rtc-clef2017-tau-$name.txt"
done
# 3. How RTC's p depends on rank: judge the top 5 of two runs on every topic, fit RTC
# with the eleven runs as experts (qrelkit confidence --model rtc --probs-out), and
# compare the mean p of the unjudged documents with the share of them that is relevant,
# by the best rank any of the eleven gives them
for f in $full; do
  sort -k1,1 -k5,5gr -k3,3r "$f" | awk '{if ($1 != t) {t = $1; r = 0} if (++r <= 100) print $1, $3, r, run}' run="${f##*/}"
done > "$tmp/top100"
awk 'NR == FNR {rel[$1" "$3] = $4 >= 1; next}
     ($4 == "ECNU-run2.run" || $4 == "Waterloo-A-rank-normal.run") && $3 <= 5 && !seen[$1" "$2]++ {print $1, 0, $2, rel[$1" "$2] + 0}' \
    "$d/qrel_abs_test.txt" "$tmp/top100" > "$tmp/judged.qrels"
for s in 10 1 0.1 0.01; do
  "$qk" confidence --model rtc --rtc-s "$s" --probs-out "$tmp/p.tsv" "$tmp/judged.qrels" $full > /dev/null 2>&1
  awk -v s="$s" 'FILENAME == ARGV[1] {rel[$1" "$3] = $4 >= 1; next}
       FILENAME == ARGV[2] {j[$1" "$3] = 1; next}
       FILENAME == ARGV[3] {k = $1" "$2; if (!(k in best) || $3 < best[k]) best[k] = $3; next}
       !($1" "$2 in j) && ($1" "$2 in best) {r = best[$1" "$2]; b = r <= 5 ? "1-5" : r <= 20 ? "6-20" : r <= 50 ? "21-50" : "51-100"
         n[b]++; p[b] += $3; y[b] += rel[$1" "$2]}
       END {split("1-5 6-20 21-50 51-100", o, " ")
            for (i = 1; i <= 4; i++) printf "%s\t%s\t%d\t%.3f\t%.3f\n", s, o[i], n[o[i]], p[o[i]] / n[o[i]], y[o[i]] / n[o[i]]}' \
      "$d/qrel_abs_test.txt" "$tmp/judged.qrels" "$tmp/top100" "$tmp/p.tsv"
done | { printf 's\tbest_rank\tunjudged\tmean_p\tshare_relevant\n'; cat; } > "$out/rtc-clef2017-tau-p-by-rank.tsv"
