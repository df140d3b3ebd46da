#!/usr/bin/env bash
# make bench: qrelkit against the reference trec_eval (../shared/bench/trec_eval,
# see its README) on the same inputs in the same run, paired: the two programs
# alternate, REPS times each, and the table gives the median wall time and
# median peak RSS of each, their ratios, and the load average at the time.
# Inputs (bench/gen makes them into bench/work/, git-ignored; RESULTS.md
# lists them):
#   5k x 1k  A: 5,000 topics x 1,000 retrieved, 1.5 M qrels, `trec_eval -q -m all_trec`
#   A        the same files through `qrelkit eval` (the historical make bench row)
#   80k x 10 B: 80,000 topics x 10 retrieved, 15 qrels lines each
#   30 runs  R: 30 runs x 10^6 lines, one qrelkit call against 30 trec_eval calls
#   M        MS MARCO-shaped: 100,000 qrels topics of 1-4 judgments and a run of
#            5,000 of them in no order, `trec_eval -c -m recip_rank -m map -m ndcg_cut.10`
#   D        one topic of 951,714 ranked documents and 951,940 judgments,
#            `trec_eval -m all_trec` (memory: one deep topic's arrays)
# then the scaling table (qrelkit alone: ms per 1,000 topics at 1k, 5k, 20k,
# 80k topics, prefixes of B), and finally every other bench/*.sh that is not
# one of the stand-alone benchmarks (compare, crowd, index-pair, pool, search), so that
# new sections join `make bench` by adding a script.
#
# Usage: bash bench/run.sh [--write-results] [--dry-run] [path/to/qrelkit]
#        (in any order; an unknown option or a second binary is an error, exit 1;
#        --dry-run prints the binary and whether results are written, and stops)
#   env REPS=3        repetitions of each program per input (median of them)
#       QUICK=1       REPS=3, B20k instead of B for trec_eval, 5 of the 30 runs,
#                     no other bench scripts: about a minute on a quiet machine
#       TREC_EVAL=... the reference binary (default ../shared/bench/trec_eval)
#       THREADS=N     qrelkit --threads (default: qrelkit's own choice)
#       ROWS=A,E,B,R,M,D,S only these rows (A: trec_eval on A, E: eval on A, B: B or
#                     B20k, R: the runs row, M: MS MARCO-shaped, D: one deep topic,
#                     S: the scaling table); default all;
#                     with ROWS set, no other bench scripts run
# --write-results appends the tables, with machine, date, load and commit, to
# bench/RESULTS.md (review, then commit it).
set -euo pipefail

usage() { echo "usage: bash bench/run.sh [--write-results] [--dry-run] [path/to/qrelkit]" >&2; }
write=0
dry=0
qk_arg=
while [ $# -gt 0 ]; do
    case "$1" in
    --write-results) write=1 ;;
    --dry-run) dry=1 ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    -*) echo "bench: unknown option '$1'" >&2; usage; exit 1 ;;
    *)
        if [ -n "$qk_arg" ]; then
            echo "bench: more than one qrelkit binary ('$qk_arg', '$1')" >&2
            usage
            exit 1
        fi
        qk_arg=$1
        ;;
    esac
    shift
done
if [ $# -gt 0 ]; then
    if [ -n "$qk_arg" ] || [ $# -gt 1 ]; then
        echo "bench: more than one qrelkit binary" >&2
        usage
        exit 1
    fi
    qk_arg=$1
fi
qk_arg=${qk_arg:-build/default/qrelkit}
if [ ! -x "$qk_arg" ]; then
    echo "bench: no qrelkit binary at '$qk_arg'" >&2
    exit 3
fi
qk=$(realpath "$qk_arg")
if [ "$dry" = 1 ]; then
    echo "qrelkit=$qk write_results=$write"
    exit 0
fi
quick=${QUICK:-0}
reps=${REPS:-3}
here=$(cd "$(dirname "$0")" && pwd)
te=${TREC_EVAL:-$here/../../shared/bench/trec_eval}
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
cd "$here"
if [ ! -x "$te" ]; then
    echo "bench: no trec_eval at $te (set TREC_EVAL)" >&2
    exit 3
fi
te=$(realpath "$te")

load() { cut -d' ' -f1 /proc/loadavg; }

# measure CMD...: run once, print "seconds peak_kib" (GNU time %M: the
# largest peak of the command and of any process it waited for).
measure() {
    local rss t0 t1
    rss=$(mktemp)
    t0=$(date +%s.%N)
    if ! /usr/bin/time -f '%M' -o "$rss" "$@" >/dev/null; then
        echo "bench: command failed: $*" >&2
        rm -f "$rss"
        return 3
    fi
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" -v m="$(tail -n1 "$rss")" 'BEGIN { printf "%.3f %d\n", b - a, m }'
    rm -f "$rss"
}

# want ROW: is ROW among $ROWS (all when ROWS is unset or empty)?
want() { [ -z "${ROWS:-}" ] || [[ ",$ROWS," == *",$1,"* ]]; }

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# paired NAME -- QRELKIT CMD... -- TREC_EVAL CMD...: alternate the two
# commands reps times (qrelkit first on odd rounds, trec_eval first on even
# ones) and print one markdown row.
paired() {
    local name=$1 qcmd=() tcmd=() qt=() qm=() tt=() tm=() l0 l1 out
    shift 2
    while [ "$1" != -- ]; do qcmd+=("$1"); shift; done
    shift
    tcmd=("$@")
    # Read the inputs (and binaries) into the page cache first, so that the
    # first timed round does not pay for the disk that later rounds do not.
    for a in "${qcmd[@]}" "${tcmd[@]}"; do
        [ -f "$a" ] && cat "$a" >/dev/null
    done
    l0=$(load)
    for ((i = 0; i < reps; i++)); do
        for who in $([ $((i % 2)) = 0 ] && echo "q t" || echo "t q"); do
            if [ "$who" = q ]; then
                out=$(measure "${qcmd[@]}") || exit 3
                qt+=("${out% *}"); qm+=("${out#* }")
            else
                out=$(measure "${tcmd[@]}") || exit 3
                tt+=("${out% *}"); tm+=("${out#* }")
            fi
        done
    done
    l1=$(load)
    awk -v n="$name" -v qt="$(printf '%s\n' "${qt[@]}" | median)" -v tt="$(printf '%s\n' "${tt[@]}" | median)" \
        -v qm="$(printf '%s\n' "${qm[@]}" | median)" -v tm="$(printf '%s\n' "${tm[@]}" | median)" \
        -v l0="$l0" -v l1="$l1" 'BEGIN {
        printf "| %s | %.3f | %.3f | **%.1fx** | %.1f | %.1f | 1/%.1f | %s-%s |\n",
            n, qt, tt, tt / qt, qm / 1024, tm / 1024, tm / qm, l0, l1 }'
}

bash gen "$qk"
# Freshly generated inputs (about 1.4 GB) are written back to disk for some
# seconds after gen. In the quiet run of b8286f6 the first row (A through
# `qrelkit trec_eval`) was 1.5x slower than the second (the same files and the
# same code path through `qrelkit eval`) and trec_eval 1.16x slower in it than
# in the second; both commands use the same CPU time when measured alone. Let
# the writeback finish before timing anything.
sync

out=$(mktemp)
trap 'rm -f "$out"' EXIT
{
    echo "| input | qrelkit (s) | trec_eval (s) | speed-up | qrelkit MB | trec_eval MB | memory | load |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    want A && paired "5k x 1k, \`trec_eval -q -m all_trec\` (A)" -- "$qk" trec_eval "${threads[@]}" -q -m all_trec \
        work/A/qrels.txt work/A/runs/run01.run -- "$te" -q -m all_trec work/A/qrels.txt work/A/runs/run01.run
    want E && paired "A, \`eval -q -m all_trec\`" -- "$qk" eval "${threads[@]}" -q -m all_trec \
        work/A/qrels.txt work/A/runs/run01.run -- "$te" -q -m all_trec work/A/qrels.txt work/A/runs/run01.run
    if [ "$quick" = 1 ]; then
        want B && paired "20k x 10 (B20k), \`-q -m all_trec\`" -- "$qk" trec_eval "${threads[@]}" -q -m all_trec \
            work/B20000.qrels work/B20000.run -- "$te" -q -m all_trec work/B20000.qrels work/B20000.run
        nr=5
    else
        want B && paired "80k x 10 (B), \`-q -m all_trec\`" -- "$qk" trec_eval "${threads[@]}" -q -m all_trec \
            work/B/qrels.txt work/B/runs/run01.run -- "$te" -q -m all_trec work/B/qrels.txt work/B/runs/run01.run
        nr=30
    fi
    runs=()
    for ((k = 1; k <= nr; k++)); do runs+=("work/R/runs/run$(printf %02d "$k").run"); done
    want R && paired "$nr runs x 10^6 lines (R), one call vs $nr calls, \`-m all_trec\`" -- "$qk" eval "${threads[@]}" \
        -m all_trec work/R/qrels.txt "${runs[@]}" -- \
        bash -c 'te=$1 q=$2; shift 2; for r in "$@"; do "$te" -m all_trec "$q" "$r" || exit 1; done' _ \
        "$te" work/R/qrels.txt "${runs[@]}"
    want M && paired "MS MARCO-shaped (M): 100k qrels topics, a run of 5k in no order, \`-c -m recip_rank -m map -m ndcg_cut.10\`" -- \
        "$qk" trec_eval "${threads[@]}" -c -m recip_rank -m map -m ndcg_cut.10 work/M/qrels100k.txt work/M/run.run -- \
        "$te" -c -m recip_rank -m map -m ndcg_cut.10 work/M/qrels100k.txt work/M/run.run
    want D && paired "one topic of 951,714 documents (D), \`trec_eval -m all_trec\`" -- "$qk" trec_eval "${threads[@]}" \
        -m all_trec work/D/qrels.txt work/D/run.run -- "$te" -m all_trec work/D/qrels.txt work/D/run.run
    if want S; then
    echo
    echo "Scaling (qrelkit alone, \`trec_eval -q -m all_trec\` on the first N topics of B, median of $reps):"
    echo
    echo "| topics | run lines | time (s) | ms / 1,000 topics | peak RSS (MB) |"
    echo "| ---: | ---: | ---: | ---: | ---: |"
    for n in 1000 5000 20000 80000; do
        if [ "$n" = 80000 ]; then qf=work/B/qrels.txt rf=work/B/runs/run01.run; else qf=work/B$n.qrels rf=work/B$n.run; fi
        ts=() ms=()
        for ((i = 0; i < reps; i++)); do
            o=$(measure "$qk" trec_eval "${threads[@]}" -q -m all_trec "$qf" "$rf") || exit 3
            ts+=("${o% *}"); ms+=("${o#* }")
        done
        awk -v n="$n" -v r="$(wc -l <"$rf")" -v t="$(printf '%s\n' "${ts[@]}" | median)" \
            -v m="$(printf '%s\n' "${ms[@]}" | median)" \
            'BEGIN { printf "| %d | %d | %.3f | %.1f | %.1f |\n", n, r, t, 1000 * t / (n / 1000), m / 1024 }'
    done
    fi
    echo
    echo "Paired: the two programs alternate, $reps runs each per input; times and peak RSS (GNU time %M) are"
    echo "medians; speed-up = trec_eval time / qrelkit time, memory = qrelkit MB / trec_eval MB; load ="
    echo "1-minute load average before-after the input's runs. qrelkit threads: ${THREADS:-default (0, cost model)}."
    echo
    echo "- machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -n1), $(awk '/MemTotal/ { printf "%.0f GB RAM", $2 / 1048576 }' /proc/meminfo)"
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- commit: $(git -C "$here" rev-parse --short HEAD)$(git -C "$here" diff --quiet HEAD -- ../src ../include 2>/dev/null || echo ' (with uncommitted changes)'); $("$qk" --version)"
    echo "- trec_eval: $te"
} | tee "$out"

if [ "$write" = 1 ]; then
    {
        echo
        echo "## $(date -u +%Y-%m-%d) — paired with trec_eval, commit $(git -C "$here" rev-parse --short HEAD)$([ "$quick" = 1 ] && echo ' (QUICK=1)')"
        echo
        cat "$out"
    } >>RESULTS.md
    echo "bench: appended to bench/RESULTS.md" >&2
fi

# Other sections: every bench/*.sh but this one and the stand-alone ones.
if [ "$quick" != 1 ] && [ -z "${ROWS:-}" ]; then
    for s in "$here"/*.sh; do
        case "$(basename "$s")" in
        run.sh | active_compare.sh | campaign.sh | compare.sh | crowd.sh | index-pair.sh | pool.sh | search.sh) continue ;;
        esac
        echo
        echo "== bench/$(basename "$s")"
        (cd "$here/.." && bash "$s" "$qk")
    done
fi
