#!/usr/bin/env bash
# Regenerate every rtc-clef2017*.tsv of doc/examples (see rtc-clef2017.md).
# Run from the repository root with qrelkit on PATH (or QK=path/to/qrelkit);
# about a minute per file on one core (17 files). Seeded (20071), so the files are the
# same on every machine.
set -eu
qk=${QK:-qrelkit}
d=../shared/data/clef-tar-2017
out=doc/examples
sim() { # name options...
  local name=$1; shift
  "$qk" confidence --simulate "$d/qrel_abs_test.txt" --trials 50 "$@" "$d"/runs/*.run > "$out/$name.tsv"
}
sim rtc-clef2017
sim rtc-clef2017-min60 --min-judged 60
sim rtc-clef2017-min60-intercept --min-judged 60 --rtc-intercept
sim rtc-clef2017-min60-poolR --min-judged 60 --truth-r pool
sim rtc-clef2017-cap95 --cap 0.95
sim rtc-clef2017-min60-cap95 --min-judged 60 --cap 0.95
# spec 002 options added later (see rtc-clef2017.md, "Options of the spec")
sim rtc-clef2017-min60-folds5 --min-judged 60 --rtc-folds 5
sim rtc-clef2017-normw --mtc-weights norm
sim rtc-clef2017-min60-normw --min-judged 60 --mtc-weights norm
sim rtc-clef2017-platt --rtc-calibration platt
sim rtc-clef2017-min60-platt --min-judged 60 --rtc-calibration platt
# The runs without short lists: the five that rank fewer documents than the median
# run on at least 4 of the 30 topics (the first comment line of every file above
# lists the short runs and on how many topics) are left out; the paper's TREC runs
# all ranked 1,000 documents per topic.
full=$(ls "$d"/runs/*.run | grep -v -e IIIT-run1 -e m10p5f0t0 -e m10p10f0t150 -e QUT-)
"$qk" confidence --simulate "$d/qrel_abs_test.txt" --trials 50 $full > "$out/rtc-clef2017-full.tsv"
"$qk" confidence --simulate "$d/qrel_abs_test.txt" --trials 50 --min-judged 60 $full \
    > "$out/rtc-clef2017-min60-full.tsv"
# spec 002 A9's sensitivity check: the truth at depth 1000 (the lists are still cut at 100)
"$qk" confidence --simulate "$d/qrel_abs_test.txt" --trials 50 --min-judged 60 --truth-depth 1000 \
    "$d"/runs/*.run > "$out/rtc-clef2017-min60-truth1000.tsv"
"$qk" confidence --simulate "$d/qrel_abs_test.txt" --trials 50 --truth-depth 1000 $full \
    > "$out/rtc-clef2017-full-truth1000.tsv"
# W and accuracy of RTC by run (every pair a run takes part in), --min-judged 60:
# which runs the over-confident predictions come from (see rtc-clef2017.md)
pairs=$(mktemp "${TMPDIR:-/tmp}/qk-rtcpairs.XXXXXX")
trap 'rm -f "$pairs"' EXIT
"$qk" confidence --simulate "$d/qrel_abs_test.txt" --trials 50 --min-judged 60 --pairs-out "$pairs" \
    "$d"/runs/*.run > /dev/null
awk -F'\t' 'NR > 1 && $2 == "RTC" {
    c = $9; y = $10; w = c >= 1 ? (y ? 1 : -100) : (y - c) / (1 - c); if (w < -100) w = -100
    for (k = 3; k <= 4; k++) { n = $k; sub(/.*\//, "", n); P[n]++; W[n] += w; A[n] += y; H[n] += c >= 0.95; HW[n] += (c >= 0.95) * (1 - y) }
  } END {
    print "run\tpairs\tW\taccuracy\tconfident_pairs\tconfident_wrong"
    for (n in P) printf "%s\t%d\t%.3f\t%.3f\t%d\t%d\n", n, P[n], W[n] / P[n], A[n] / P[n], H[n], HW[n]
  }' "$pairs" | { IFS= read -r h; echo "$h"; sort -t"$(printf '\t')" -k3,3g; } > "$out/rtc-clef2017-min60-byrun.tsv"
