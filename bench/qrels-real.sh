#!/usr/bin/env bash
# Reading the real qrels files of ../shared/data, paired: BASE and NEW
# binaries alternate, ROUNDS rounds (default 9); each round runs
# `eval --threads 1 -m num_q QRELS ONE_LINE_RUN` REPS times (default 5)
# under `perf stat` (task-clock, user and system time) for one binary,
# then the other. The table gives per file and binary the median over
# rounds of the mean CPU ms (task-clock), user ms and system ms, the
# new/base ratio of those medians and the median (min-max) of the
# per-round new/base ratios, and the reading rate: file MB (10^6 bytes) per CPU
# second of (CPU of the file - CPU of a 1-line qrels file), the start-up
# taken out that way. Load averages before and after are printed.
# Usage: bash bench/qrels-real.sh BASE NEW
set -euo pipefail
rounds=${ROUNDS:-9} reps=${REPS:-5}
. "$(dirname "$0")/real-pair.sh"
real_pair_setup "$1" "$2"
printf '1 0 d1 1\n' >"$work/one.qrels"
files="$work/one.qrels clef-tar-2017/train.clef2017.qrels clef-tar-2017/qrel_abs_test.txt
estimators/qrels/full.qrels mq-prels/qrels.adhoc.451-550.txt mq-prels/qrels.adhoc.351-400.txt
trec_eval-suite/qrels.test mq-prels/prels.mq.1-10000.txt"
one() { # binary file -> "task user sys" in ms (means of reps)
    local fmt=() f=$2
    case $f in */prels*) fmt=(-R prels) ;; esac
    case $f in /*) ;; *) f=$data/$f ;; esac
    perf stat -x, -r "$reps" -e task-clock,user_time,system_time "$1" eval --threads 1 -m num_q "${fmt[@]}" \
        "$f" "$work/one.run" 2>&1 >/dev/null | awk -F, '
        $3 == "task-clock" { t = $1 } $3 == "user_time" { u = $1 / 1e6 } $3 == "system_time" { s = $1 / 1e6 }
        END { printf "%.3f %.3f %.3f\n", t, u, s }'
}
# shellcheck disable=SC2086 # the file list splits on blanks
real_pair_rounds $files
python3 - "$work/raw" "$data" "$work/one.qrels" <<'PY'
import os, statistics as st, sys
raw, data, oneq = sys.argv[1:4]
rows = {}
for line in open(raw):
    _, f, who, t, u, s = line.split()
    rows.setdefault(f, {}).setdefault(who, []).append((float(t), float(u), float(s)))
med = {f: {w: [st.median(x[i] for x in v) for i in range(3)] for w, v in d.items()} for f, d in rows.items()}
print("| file | MB | base CPU ms (user/sys) | new CPU ms (user/sys) | new/base | new/base per round: median (min-max) | base MB/CPU-s | new MB/CPU-s |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for f, d in med.items():
    path = f if f.startswith('/') else os.path.join(data, f)
    mb = os.path.getsize(path) / 1e6
    b, n = d['base'], d['new']
    name = 'one-line qrels (start-up)' if f == oneq else f
    rate = lambda x, one: (mb / ((x[0] - one[0]) / 1e3)) if f != oneq and x[0] > one[0] else float('nan')
    pr = [y[0] / x[0] for x, y in zip(rows[f]['base'], rows[f]['new'])]
    print(f"| {name} | {mb:.2f} | {b[0]:.2f} ({b[1]:.2f}/{b[2]:.2f}) | {n[0]:.2f} ({n[1]:.2f}/{n[2]:.2f}) | "
          f"{n[0]/b[0]:.3f} | {st.median(pr):.3f} ({min(pr):.2f}-{max(pr):.2f}) | "
          f"{rate(b, med[oneq]['base']):.0f} | {rate(n, med[oneq]['new']):.0f} |")
PY
