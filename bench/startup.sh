#!/usr/bin/env bash
# Fixed start-up cost (issue 14: qrelkit is run thousands of times on small inputs):
# CPU time (perf stat task-clock) of a one-line evaluation, `trec_eval q1 r1` and
# `eval -m num_q q1 r1`, for qrelkit, an optional second qrelkit to pair with (e.g. a
# build of the previous commit) and the reference trec_eval binary, alternating, REPS
# (default 15) times each; medians, plus how many shared objects each program maps.
# Usage: bash bench/startup.sh [path/to/qrelkit [path/to/base-qrelkit]]
set -euo pipefail
qk=$(realpath "${1:-build/default/qrelkit}")
base=${2:+$(realpath "$2")}
ref=$(realpath "$(dirname "$0")/../../shared/bench/trec_eval" 2>/dev/null || true)
reps=${REPS:-15}
command -v perf >/dev/null || { echo "startup: perf not installed" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
printf '1 0 d1 1\n' >q1
printf '1 Q0 d1 1 1.0 r\n' >r1
progs=(new:"$qk")
[ -n "$base" ] && progs=(base:"$base" "${progs[@]}")
[ -x "$ref" ] && progs+=(trec_eval:"$ref")
load() { sed 's/ .*//' /proc/loadavg; }
load_before=$(load)
tc() { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ {print $1}'; }
for _ in $(seq "$reps"); do
    for p in "${progs[@]}"; do
        name=${p%%:*} bin=${p#*:}
        if [ "$name" = trec_eval ]; then
            echo "trec_eval $name $(tc "$bin" q1 r1)"
            echo "num_q $name $(tc "$bin" -m num_q q1 r1)"
        else
            echo "trec_eval $name $(tc "$bin" trec_eval q1 r1)"
            echo "num_q $name $(tc "$bin" eval -m num_q q1 r1)"
        fi
    done
done >raw
echo "$reps runs each, alternating; 1-minute load $load_before before, $(load) after"
printf '%-10s %-10s %12s %10s %10s %6s\n' command program "median ms" min max "ldd"
for cmd in trec_eval num_q; do
    for p in "${progs[@]}"; do
        name=${p%%:*} bin=${p#*:}
        n=$(ldd "$bin" | grep -c '=>' || true)
        awk -v c="$cmd" -v p="$name" '$1 == c && $2 == p {print $3}' raw | sort -g |
            awk -v c="$cmd" -v p="$name" -v n="$n" '{a[NR] = $1} END {
                printf "%-10s %-10s %12.3f %10.3f %10.3f %6d\n", c, p, a[int((NR + 1) / 2)], a[1], a[NR], n }'
    done
done
