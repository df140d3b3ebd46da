#!/usr/bin/env bash
# BO overhead per iteration of `qrelkit tune` at 50, 200 and 1,000
# observations: CPU milliseconds of one step (GP hyper-parameter fit +
# acquisition on 1,000 candidates + local search from the best 5), cold
# (full fit with 3 restarts, made whenever the data have doubled) and warm
# (one search from the previous values, every other step); medians of 3.
# Spaces: BM25 (k1, b) and the 9-parameter NPL space of doc/examples.
# The cold step at 1,000 observations takes minutes of CPU with the
# reference BLAS (every likelihood evaluation factors and inverts a
# 1000 x 1000 matrix): TUNE_SIZES="50 200" skips it.
# Usage: bash bench/tune.sh [path/to/qrelkit or its build dir] [sizes]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/default}
[ -d "$build" ] || build=$(dirname "$build") # the binary sits next to libqrelkit.a
sizes=${2:-${TUNE_SIZES:-50 200 1000}}
work=$here/work
mkdir -p "$work"
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$here/../include" "$here/tune_overhead.c" -o "$work/tune_overhead" \
   "$build/libqrelkit.a" $(pkg-config --libs jansson lapacke nlopt zlib) -llinear -lpthread -lm
echo "load: $(uptime | sed 's/.*load average: //')"
echo "| space | observations | cold step (ms CPU) | warm step (ms CPU) |"
echo "| --- | ---: | ---: | ---: |"
for sp in bm25 large; do
  for n in $sizes; do
    reps=3; [ "$n" -ge 1000 ] && reps=1
    r=$("$work/tune_overhead" "$here/../doc/examples/tune-npl-$sp.json" "$n" $reps)
    echo "$r" | awk -F'\t' -v sp="$sp" '{printf "| %s | %d | %s | %s |\n", sp, $1, $2, $3}'
  done
done
