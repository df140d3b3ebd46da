#!/usr/bin/env bash
# Reading the real run files of ../shared/data, paired: BASE and NEW
# binaries alternate, ROUNDS rounds (default 9); each round runs
# `eval --threads 1 -m num_q ONE_LINE_QRELS RUN` REPS times (default 5)
# under `perf stat` (task-clock) for one binary, then the other, and the
# same with a one-line run (the start-up). The table gives per file the
# median over rounds of each binary's mean CPU ms, the median of the
# per-round new/base ratios (and in how many rounds new was faster), and
# the reading rate: file MB (10^6 bytes) per CPU second of (CPU of the
# file - CPU of the one-line run), both medians over rounds. Load averages
# before and after are printed.
# Usage: bash bench/runs-real.sh BASE NEW [RUN...] (default: every file of
# clef-tar-2017/runs and estimators/runs)
set -euo pipefail
rounds=${ROUNDS:-9} reps=${REPS:-5}
. "$(dirname "$0")/real-pair.sh"
real_pair_setup "$1" "$2"
shift 2
printf '1 0 d1 1\n' >"$work/one.qrels"
if [ $# -gt 0 ]; then files=("$@"); else files=("$data"/clef-tar-2017/runs/* "$data"/estimators/runs/*); fi
one() { # binary run -> task-clock ms (mean of reps)
    perf stat -x, -r "$reps" -e task-clock "$1" eval --threads 1 -m num_q "$work/one.qrels" "$2" 2>&1 >/dev/null |
        awk -F, '$3 == "task-clock" { printf "%.4f\n", $1 }'
}
real_pair_rounds "$work/one.run" "${files[@]}"
python3 - "$work/raw" "$work/one.run" <<'PY'
import os, statistics as st, sys
rows = {}
for line in open(sys.argv[1]):
    _, f, who, t = line.split()
    rows.setdefault(f, {}).setdefault(who, []).append(float(t))
one = {w: st.median(v) for w, v in rows.pop(sys.argv[2]).items()}
print(f"one-line run (start-up): base {one['base']:.2f} ms, new {one['new']:.2f} ms")
print("| run | MB | base CPU ms | new CPU ms | new/base (new faster) | base MB/CPU-s | new MB/CPU-s |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for f, d in rows.items():
    mb = os.path.getsize(f) / 1e6
    b, n = st.median(d['base']), st.median(d['new'])
    ratios = [y / x for x, y in zip(d['base'], d['new'])]
    fast = sum(r < 1 for r in ratios)
    rate = lambda x, o: mb / ((x - o) / 1e3) if x > o else float('nan')
    print(f"| {os.path.basename(f)} | {mb:.2f} | {b:.2f} | {n:.2f} | {st.median(ratios):.3f} ({fast}/{len(ratios)}) | "
          f"{rate(b, one['base']):.0f} | {rate(n, one['new']):.0f} |")
PY
