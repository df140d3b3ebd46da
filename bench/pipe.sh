#!/usr/bin/env bash
# Runs on a pipe, side by side with trec_eval: `trec_eval -q -m all_trec` on
# input A's qrels and its 195 MB run given four ways (the file; a named pipe,
# a shell's <(cat run); standard input from a pipe, `-`; and a named pipe of
# the same lines with each topic's block cut in two halves that come one
# after the other, which is read twice: from the copy qrelkit keeps in
# $TMPDIR; that cut run as a file, file-split, which qrelkit reads topic by
# topic by blocks; and the same lines shuffled, every line a block of its
# own, as a file, file-shuffled, which it reads whole).
# For each way qrelkit and ../shared/bench/trec_eval alternate, REPS (default
# 3) times each; medians of wall time, CPU time (user + system) and peak RSS
# (GNU time), and the ratios. trec_eval reads no pipe ("Cannot read results
# file"): its turn reads the same lines from the file (the run, or the cut
# one), the anchor of the ratios. With BASE=path/to/an/older/qrelkit, that
# binary takes its turn too (before and after a change, in the same run); a
# way it refuses prints "refused".
# TREC_EVAL=... the reference binary (default ../shared/bench/trec_eval).
# Usage: bash bench/pipe.sh [path/to/qrelkit]
set -euo pipefail
qk=$(realpath "${1:-build/default/qrelkit}")
base=${BASE:+$(realpath "$BASE")}
reps=${REPS:-3}
cd "$(dirname "$0")"
te=$(realpath "${TREC_EVAL:-../../shared/bench/trec_eval}" 2>/dev/null || true)
[ -x "$te" ] || { echo "bench/pipe.sh: no trec_eval at ${TREC_EVAL:-../../shared/bench/trec_eval} (set TREC_EVAL)" >&2; exit 2; }
bash gen "$qk" >/dev/null 2>&1
qrels=work/A/qrels.txt run=work/A/runs/run01.run split=work/A/split-blocks.run
shuffled=work/A/shuffled.run
if [ ! -s "$split" ]; then # every topic's first half of lines, then every topic's second half
    awk '{ n[$1]++; line[$1, n[$1]] = $0; if (!($1 in seen)) { seen[$1] = 1; order[++t] = $1 } }
         END { for (h = 0; h < 2; h++) for (i = 1; i <= t; i++) { q = order[i]; m = int(n[q] / 2)
               for (k = h ? m + 1 : 1; k <= (h ? n[q] : m); k++) print line[q, k] } }' "$run" >"$split.tmp"
    mv "$split.tmp" "$split"
fi
if [ ! -s "$shuffled" ]; then # the same order on every machine: a fixed random source
    shuf --random-source=<(yes) "$run" >"$shuffled.tmp"
    mv "$shuffled.tmp" "$shuffled"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one WAY STDIN PROGRAM...: one timed call, "wall cpu MB" (or "refused");
# STDIN: how the program names standard input; WAY file-split: the cut run
# as a file
one() {
    local way=$1 in=$2
    shift 2
    local rc=0
    # shellcheck disable=SC2002 # cat |: a pipe on standard input, not a file
    case $way in
    file) /usr/bin/time -o "$tmp/t" -f "%e %U %S %M" "$@" "$qrels" "$run" >"$tmp/out" 2>/dev/null || rc=$? ;;
    named) /usr/bin/time -o "$tmp/t" -f "%e %U %S %M" "$@" "$qrels" <(cat "$run") >"$tmp/out" 2>/dev/null || rc=$? ;;
    stdin) cat "$run" | /usr/bin/time -o "$tmp/t" -f "%e %U %S %M" "$@" "$qrels" "$in" >"$tmp/out" 2>/dev/null || rc=$? ;;
    split) /usr/bin/time -o "$tmp/t" -f "%e %U %S %M" "$@" "$qrels" <(cat "$split") >"$tmp/out" 2>/dev/null || rc=$? ;;
    file-split) /usr/bin/time -o "$tmp/t" -f "%e %U %S %M" "$@" "$qrels" "$split" >"$tmp/out" 2>/dev/null || rc=$? ;;
    file-shuffled) /usr/bin/time -o "$tmp/t" -f "%e %U %S %M" "$@" "$qrels" "$shuffled" >"$tmp/out" 2>/dev/null || rc=$? ;;
    esac
    if [ "$rc" -ne 0 ]; then
        echo refused
    else
        awk '{ printf "%s %.2f %.1f\n", $1, $2 + $3, $4 / 1024 }' "$tmp/t"
    fi
}

med() { sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }'; }

echo "| run given as | program | wall (s) | CPU (s) | peak MB | trec_eval wall / this | this MB / trec_eval MB |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for way in file named stdin file-split split file-shuffled; do
    : >"$tmp/raw"
    for ((i = 0; i < reps; i++)); do
        echo "qrelkit $(one "$way" - "$qk" trec_eval -q -m all_trec)" >>"$tmp/raw"
        if [ -n "$base" ]; then echo "base $(one "$way" - "$base" trec_eval -q -m all_trec)" >>"$tmp/raw"; fi
        # trec_eval reads files only: the same lines as a file
        if [ "$way" = split ] || [ "$way" = file-split ]; then
            echo "trec_eval $(one file-split - "$te" -q -m all_trec)" >>"$tmp/raw"
        elif [ "$way" = file-shuffled ]; then
            echo "trec_eval $(one file-shuffled - "$te" -q -m all_trec)" >>"$tmp/raw"
        else
            echo "trec_eval $(one file - "$te" -q -m all_trec)" >>"$tmp/raw"
        fi
    done
    tw=$(awk '$1 == "trec_eval" && $2 != "refused" { print $2 }' "$tmp/raw" | med)
    tm=$(awk '$1 == "trec_eval" && $2 != "refused" { print $4 }' "$tmp/raw" | med)
    for p in qrelkit ${base:+base} trec_eval; do
        if grep -q "^$p refused" "$tmp/raw"; then
            echo "| $way | $p | refused | | | | |"
            continue
        fi
        w=$(awk -v p="$p" '$1 == p { print $2 }' "$tmp/raw" | med)
        c=$(awk -v p="$p" '$1 == p { print $3 }' "$tmp/raw" | med)
        m=$(awk -v p="$p" '$1 == p { print $4 }' "$tmp/raw" | med)
        awk -v way="$way" -v p="$p" -v w="$w" -v c="$c" -v m="$m" -v tw="$tw" -v tm="$tm" \
            'BEGIN { printf "| %s | %s | %.2f | %.2f | %.1f | %.1fx | 1/%.1f |\n", way, p, w, c, m, tw / w, tm / m }'
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
