#!/usr/bin/env bash
# Benchmark of Kutlu et al.'s L2R pipeline at 1,000 topics x 100 runs: a
# seeded synthetic collection (`qrelkit sim collection`, depth 100, 500
# candidates a topic), its AP@100 matrix, then
#   features  `topics features`: the 63 features of all 1,000 candidates
#             (the core features dominate: 4,950 list taus of up to 200
#             documents per topic)
#   records   `topics train --no-train --write-data /dev/null`: Alg. 3 with
#             W = 1 draw per size 0..200 (201 scenarios, about 180,000
#             records of 63 features, formatted and thrown away)
#   train     `topics train`: the same records, then MART (50 trees, 10
#             leaves); MART's own cost is the difference
#   select    `topics select --method l2r --size 100`
# Prints a markdown table: CPU seconds (user + sys) and peak RSS (GNU time),
# one run each (the machine is shared: CPU time, not wall time, is the
# figure to compare).
# Usage: bash bench/topics-l2r.sh [path/to/qrelkit]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
qk=${1:-$here/../build/default/qrelkit}
work=$here/work/l2r
mkdir -p "$work"
if [ ! -s "$work/coll/qrels.txt" ]; then
    "$qk" sim collection --out "$work/coll" --topics 1000 --runs 100 --depth 100 --docs-per-topic 500 \
        --seed 16 --quiet
fi
runs=("$work"/coll/runs/*.run)
"$qk" eval -c --matrix AP@100 "$work/coll/qrels.txt" "${runs[@]}" > "$work/ap.tsv"
t() { # label, command...
    local label=$1
    shift
    /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" > /dev/null
    read -r u s m < "$work/time"
    printf '| %s | %.1f | %.0f |\n' "$label" "$(echo "$u + $s" | bc)" "$(echo "$m / 1024" | bc)"
}
echo "| step (1,000 topics x 100 runs) | CPU (s) | peak RSS (MB) |"
echo "| --- | ---: | ---: |"
t "features: 63 x 1,000 candidates" "$qk" topics features "${runs[@]}"
t "records: Alg. 3, W = 1, sizes 0..200" "$qk" topics train --no-train --write-data /dev/null --reps 1 \
    --max-size 200 --matrix "$work/ap.tsv" "${runs[@]}"
t "records + MART (50 trees, 10 leaves)" "$qk" topics train --model "$work/m.model" --reps 1 --max-size 200 \
    --matrix "$work/ap.tsv" "${runs[@]}"
t "select --method l2r --size 100" "$qk" topics select --method l2r --model "$work/m.model" --size 100 "${runs[@]}"
"$qk" topics train --no-train --write-data - --reps 1 --max-size 200 --matrix "$work/ap.tsv" "${runs[@]}" |
    sed -n 2p
