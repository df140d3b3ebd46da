#!/usr/bin/env bash
# Reading the real prels files of ../shared/data, paired: BASE and NEW
# alternate, ROUNDS rounds (default 9); each round runs, per file,
# `eval --threads 1 -m num_q -R prels PRELS ONE_LINE_RUN` under
# `perf stat -r REPS -e task-clock` (default 3) for one binary, then the
# other. Per file: the median over rounds of the CPU ms, the median of the
# rounds' new/base ratios, of the same ratios with each binary's start-up
# (a one-line prels file, measured in the same round) taken off, and the
# reading rate in MB (10^6 bytes) per CPU second past start-up. Load
# averages before and after are printed.
# Usage: bash bench/prels-real.sh BASE NEW
set -euo pipefail
rounds=${ROUNDS:-9} reps=${REPS:-3}
. "$(dirname "$0")/real-pair.sh"
real_pair_setup "$1" "$2"
printf '1 d1 1 1 0.5\n' >"$work/one.prels"
files="$work/one.prels mq-prels/prels.mq.1-10000.txt mq-prels/prels.mq.10001-20000.txt
mq-prels/prels.mq.20001-60000.txt mq-prels/prels.web.1-50.txt estimators/qrels/statap.prels"
one() { # binary file -> task-clock ms (mean of reps)
    local f=$2
    case $f in /*) ;; *) f=$data/$f ;; esac
    perf stat -x, -r "$reps" -e task-clock "$1" eval --threads 1 -m num_q -R prels "$f" "$work/one.run" 2>&1 \
        >/dev/null | awk -F, '$3 == "task-clock" { printf "%.3f\n", $1 }'
}
# shellcheck disable=SC2086 # the file list splits on blanks
real_pair_rounds $files
python3 - "$work/raw" "$data" "$work/one.prels" <<'PY'
import os, statistics as st, sys
raw, data, one = sys.argv[1:4]
t = {}
for line in open(raw):
    r, f, who, ms = line.split()
    t[(r, f, who)] = float(ms)
rounds = sorted({k[0] for k in t}, key=int)
files = list(dict.fromkeys(k[1] for k in t))
print("| file | MB | base CPU ms | new CPU ms | new/base | new/base past start-up | base MB/CPU-s | new MB/CPU-s |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for f in files:
    path = f if f.startswith('/') else os.path.join(data, f)
    mb = os.path.getsize(path) / 1e6
    b = st.median(t[(r, f, 'base')] for r in rounds)
    n = st.median(t[(r, f, 'new')] for r in rounds)
    ratio = st.median(t[(r, f, 'new')] / t[(r, f, 'base')] for r in rounds)
    if f == one:
        print(f"| one-line prels (start-up) | {mb:.2f} | {b:.2f} | {n:.2f} | {ratio:.3f} | | | |")
        continue
    past = lambda r, w: t[(r, f, w)] - t[(r, one, w)]
    pr = st.median(past(r, 'new') / past(r, 'base') for r in rounds)
    rb = st.median(mb / (past(r, 'base') / 1e3) for r in rounds)
    rn = st.median(mb / (past(r, 'new') / 1e3) for r in rounds)
    print(f"| {f} | {mb:.2f} | {b:.2f} | {n:.2f} | {ratio:.3f} | {pr:.3f} | {rb:.0f} | {rn:.0f} |")
PY
