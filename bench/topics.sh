#!/usr/bin/env bash
# Benchmark of topic selection at Million Query scale: a synthetic matrix of
# 10,000 topics x 100 systems (AP-like scores: logistic of system ability x
# topic discrimination + topic difficulty + noise, Python's seeded Mersenne
# Twister, so every machine measures the same bytes), then `qrelkit topics
# select` with each method and size. Prints a markdown table: wall seconds
# and peak RSS (GNU time), one run each (the machine is shared; the figures
# are single measurements, not a best of n).
# Usage: bash bench/topics.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../build/default/qrelkit}
work=$here/work
mkdir -p "$work"
m=$work/topics-10000x100.tsv
if [ ! -s "$m" ]; then
    python3 - "$m" <<'PY'
import math, random, sys
random.seed(20131)
L, N = 100, 10000
ability = [random.gauss(0, 1) for _ in range(L)]
with open(sys.argv[1], "w") as f:
    f.write("topic\t" + "\t".join("s%03d" % s for s in range(L)) + "\n")
    for q in range(N):
        d, k = random.gauss(-1, 1), random.uniform(0.2, 1.5)
        f.write("t%05d\t" % q + "\t".join("%.4f" % (1 / (1 + math.exp(-(k * a + d + random.gauss(0, 1))))) for a in ability) + "\n")
PY
fi
echo "| method | size | time (s) | peak RSS (MB) |"
echo "| --- | ---: | ---: | ---: |"
run() { # method size
    local t
    t=$( { /usr/bin/time -f '%e %M' "$qk" topics select --method "$1" --size "$2" --matrix "$m" > /dev/null; } 2>&1 | tail -1)
    awk -v m="$1" -v k="$2" -v t="$t" 'BEGIN { split(t, a, " "); printf "| %s | %s | %.2f | %.1f |\n", m, k, a[1], a[2] / 1024 }'
}
run random 1          # reading and checking the 7 MB matrix, nothing else
run greedy-pearson 100
run greedy-pearson 1000
run greedy-pearson 10000
run greedy-kendall 100
run convex 10
run convex 50
run convex 99
run convex 100
t=$( { /usr/bin/time -f "%e %M" "$qk" topics select --method budget --budget 1 --omega 100 --matrix "$m" > /dev/null; } 2>&1 | tail -1)
awk -v t="$t" 'BEGIN { split(t, a, " "); printf "| budget (B/Omega = 0.01) | output | %.2f | %.1f |\n", a[1], a[2] / 1024 }'
