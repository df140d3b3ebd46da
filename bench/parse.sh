#!/usr/bin/env bash
# Input reading speed (issue 14's goal: >= 1 GB/s per core on runs and
# qrels), one thread: `qrelkit eval --threads 1 -m num_q` with a one-topic
# qrels over the whole 195 MB run of input A (every line is split and its
# score parsed; one topic is ranked and scored), and with the 31.5 MB qrels
# of A against a one-line run (every qrels line is read and organised).
# `wc -l` on the same file shows the floor of reading it at all.
# Median of REPS (default 3) runs; files from bench/gen.
# Usage: bash bench/parse.sh [path/to/qrelkit]
set -euo pipefail
qk=$(realpath "${1:-build/default/qrelkit}")
reps=${REPS:-3}
cd "$(dirname "$0")"
bash gen "$qk" 2>/dev/null
run=work/A/runs/run01.run qrels=work/A/qrels.txt
t1=$(head -n1 "$run" | cut -d' ' -f1)
grep "^$t1 " "$qrels" >work/parse-one.qrels
head -n1 "$run" >work/parse-one.run

secs() {
    local ts=()
    for ((i = 0; i < reps; i++)); do
        local t0 t1
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>&1 || { echo "bench/parse.sh: failed: $*" >&2; exit 3; }
        t1=$(date +%s.%N)
        ts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
    done
    printf '%s\n' "${ts[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

row() { # name file seconds
    awk -v n="$1" -v b="$(stat -c %s "$2")" -v t="$3" \
        'BEGIN { printf "| %s | %.1f | %.3f | %.0f |\n", n, b / 1048576, t, b / 1048576 / t }'
}

echo "| reading | MB | time (s) | MB/s |"
echo "| --- | ---: | ---: | ---: |"
row "run, qrelkit" "$run" "$(secs "$qk" eval --threads 1 -m num_q work/parse-one.qrels "$run")"
row "run, wc -l" "$run" "$(secs wc -l "$run")"
row "qrels, qrelkit" "$qrels" "$(secs "$qk" eval --threads 1 -m num_q "$qrels" work/parse-one.run)"
row "qrels, wc -l" "$qrels" "$(secs wc -l "$qrels")"
echo
echo "median of $reps; load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
