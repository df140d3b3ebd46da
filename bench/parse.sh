#!/usr/bin/env bash
# Input reading speed (issue 14's goal: >= 1 GB/s per core on runs and
# qrels), one thread: `qrelkit eval --threads 1 -m num_q` with a one-topic
# qrels over the whole 195 MB run of input A (every line is split and its
# score parsed; one topic is ranked and scored), and with the 31.5 MB qrels
# of A against a one-line run (every qrels line is read and organised);
# crowd labels: `qrelkit aggregate -m mv` over the 17 MB of 1,000,000
# labels that bench/crowd.sh uses (every label read, interned and grouped
# by task; majority vote is a small part). `wc -l` on the same file shows
# the floor of reading it at all. The "reading only" rows time the
# library's reader alone, in-process (bench/read_qrels.c, read_labels.c),
# the labels also on the real crowd sets of ../shared/data/crowd
# (QK_CROWD_DATA) when present;
# the qrels "floor" row a process that maps and reads the file and writes
# arrays of the reader's sizes without parsing (bench/floor_qrels.c).
# Median of REPS (default 3) runs, wall and CPU time; files from bench/gen.
# ROWS (default "run qrels many labels") picks the inputs: ROWS=labels
# needs only the crowd labels, not bench/gen's collections; "many" is the
# qrels of 502,000 small topics listed in no order (bench/gen's M, shaped
# as MS MARCO's train qrels).
# Usage: bash bench/parse.sh [path/to/qrelkit]
set -euo pipefail
# the binary's absolute path as given (-s: symlinks kept), so that the
# library is looked for beside a symlinked binary first, then beside its
# target
qk=$(realpath -s "${1:-build/default/qrelkit}")
lib=
for d in "$(dirname "$qk")" "$(dirname "$(realpath "$qk")")"; do
    if [ -f "$d/libqrelkit.a" ]; then lib=$d/libqrelkit.a && break; fi
done
reps=${REPS:-3}
cd "$(dirname "$0")"
rows=${ROWS:-run qrels many labels}
want() { case " $rows " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
run=work/A/runs/run01.run qrels=work/A/qrels.txt labels=work/crowd/labels.tsv
crowd=${QK_CROWD_DATA:-../../shared/data/crowd}
if want run || want qrels || want many; then
    bash gen "$qk" 2>/dev/null
fi
mkdir -p work
if [ ! -s "$labels" ]; then # the input of bench/crowd.sh
    "$qk" simulate crowd --out work/crowd --tasks 100000 --workers 5000 --labels-per-task 10 \
        --accuracy-range 0.55,0.95 --seed 1 >/dev/null
fi
# the libraries libqrelkit.a needs, as words (bench/read_qrels.c, read_labels.c)
read -r -a deplibs <<<"$(pkg-config --libs jansson sqlite3 zlib)"
if want run || want qrels; then
    t1=$(head -n1 "$run" | cut -d' ' -f1)
    grep "^$t1 " "$qrels" >work/parse-one.qrels
    head -n1 "$run" >work/parse-one.run
fi

# secs CMD...: "wall cpu", the medians of REPS runs; cpu = user + system
# time of the process, which a loaded machine inflates far less than wall
# time (MB per CPU second is the per-core reading speed).
secs() {
    local rows=()
    for ((i = 0; i < reps; i++)); do
        /usr/bin/time -o work/parse-time -f "%e %U %S" "$@" >/dev/null 2>&1 ||
            { echo "bench/parse.sh: failed: $*" >&2; exit 3; }
        rows+=("$(awk '{ print $1, $2 + $3 }' work/parse-time)")
    done
    med() { printf '%s\n' "${rows[@]}" | cut -d' ' -f"$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
    echo "$(med 1) $(med 2)"
}

row() { # name file "wall cpu"
    awk -v n="$1" -v b="$(stat -L -c %s "$2")" -v t="$3" \
        'BEGIN { split(t, x, " "); m = b / 1048576
                 printf "| %s | %.1f | %.3f | %s | %.3f | %s |\n", n, m, x[1], rate(m, x[1]), x[2], rate(m, x[2]) }
                 # below the 10 ms resolution of time(1) there is no rate to give
                 function rate(mb, s) { return s > 0 ? sprintf("%.0f", mb / s) : "-" }'
}

echo "| reading | MB | wall (s) | MB/s | CPU (s) | MB per CPU s |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
if want run; then
    row "run, qrelkit" "$run" "$(secs "$qk" eval --threads 1 -m num_q work/parse-one.qrels "$run")"
    row "run, wc -l" "$run" "$(secs wc -l "$run")"
fi
if want qrels; then
    row "qrels, qrelkit" "$qrels" "$(secs "$qk" eval --threads 1 -m num_q "$qrels" work/parse-one.run)"
    # reading alone (bench/read_qrels.c): the first read of the process,
    # with fresh pages as the command has, then the median of REPS reads
    if [ -n "$lib" ] &&
        cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I../include read_qrels.c -o work/read_qrels \
            "$lib" "${deplibs[@]}" -lpthread -ldl -lm 2>/dev/null; then
        r=$(work/read_qrels "$qrels" "$reps")
        awk -v r="$r" 'BEGIN { split(r, x, " "); m = x[1] / 1048576
                 printf "| qrels, reading only (first read) | %.1f | | | %.4f | %.0f |\n", m, x[2] / 1000, x[4]
                 printf "| qrels, reading only (median of %d) | %.1f | | | %.4f | %.0f |\n", '"$reps"', m, x[3] / 1000, x[5] }'
    fi
    row "qrels, wc -l" "$qrels" "$(secs wc -l "$qrels")"
    # the floor under the qrels row (bench/floor_qrels.c: the file mapped and
    # read, arrays of the reader's sizes written to fresh pages, no parsing)
    # and the command, both by perf stat's task-clock (time(1)'s 10 ms
    # resolution is too coarse at these times)
    if command -v perf >/dev/null && cc -O2 -std=c11 floor_qrels.c -o work/floor_qrels 2>/dev/null; then
        tc() { perf stat -r "$reps" -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 / 1000 }'; }
        f=$(tc work/floor_qrels "$qrels") c=$(tc "$qk" eval --threads 1 -m num_q "$qrels" work/parse-one.run)
        awk -v b="$(stat -L -c %s "$qrels")" -v f="$f" -v c="$c" 'BEGIN { m = b / 1048576
                 printf "| qrels, floor (floor_qrels.c; perf stat) | %.1f | | | %.4f | %.0f |\n", m, f, m / f
                 printf "| qrels, qrelkit (perf stat) | %.1f | | | %.4f | %.0f |\n", m, c, m / c }'
    fi
fi
if want many; then
    many=work/M/qrels.txt
    head -n1 work/M/run.run >work/parse-many.run
    row "qrels of 502,000 topics in no order (M), qrelkit" "$many" \
        "$(secs "$qk" eval --threads 1 -m num_q "$many" work/parse-many.run)"
    if command -v perf >/dev/null; then
        c=$(perf stat -r "$reps" -x, -e task-clock "$qk" eval --threads 1 -m num_q "$many" work/parse-many.run \
            2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 / 1000 }')
        awk -v b="$(stat -L -c %s "$many")" -v c="$c" 'BEGIN { m = b / 1048576
                 printf "| qrels of 502,000 topics (M), qrelkit (perf stat) | %.1f | | | %.4f | %.0f |\n", m, c, m / c }'
    fi
fi
if want labels; then
    row "labels, qrelkit" "$labels" "$(secs "$qk" aggregate -m mv "$labels")"
    if [ -n "$lib" ] &&
        cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I../include read_labels.c -o work/read_labels \
            "$lib" "${deplibs[@]}" -lpthread -ldl -lm 2>/dev/null; then
        r=$(work/read_labels "$labels" "$reps")
        awk -v r="$r" 'BEGIN { split(r, x, " "); m = x[1] / 1048576
                 printf "| labels, reading only | %.1f | | | %.3f | %.0f |\n", m, x[3] / 1000, x[4] }'
        # the real crowd sets (../shared/data/crowd, when present): long
        # task names, URLs, tasks out of order, workers of two words
        for set in trec2011 hitspam-crowdflower adultcontent2; do
            f=$crowd/$set/labels.tsv
            [ -f "$f" ] || continue
            r=$(work/read_labels "$f" "$reps")
            awk -v r="$r" -v n="$set" 'BEGIN { split(r, x, " "); m = x[1] / 1048576
                     printf "| labels, reading only, %s | %.1f | | | %.4f | %.0f |\n", n, m, x[3] / 1000, x[4] }'
        done
    fi
    row "labels, wc -l" "$labels" "$(secs wc -l "$labels")"
    # the command by perf stat's task-clock, as the qrels row above
    if command -v perf >/dev/null; then
        c=$(perf stat -r "$reps" -x, -e task-clock "$qk" aggregate -m mv "$labels" 2>&1 >/dev/null |
            awk -F, '/task-clock/ { print $1 / 1000 }')
        awk -v b="$(stat -L -c %s "$labels")" -v c="$c" 'BEGIN { m = b / 1048576
                 printf "| labels, qrelkit (perf stat) | %.1f | | | %.4f | %.0f |\n", m, c, m / c }'
    fi
fi
echo
echo "median of $reps; load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
