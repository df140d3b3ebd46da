#!/usr/bin/env bash
# make bench: time and peak memory of `qrelkit eval -m all_trec -q` on two
# synthetic inputs that stress different things:
#   A  5,000 topics x 1,000 retrieved, 1.5 M qrels lines (long rankings)
#   B  80,000 topics x 10 retrieved, 15 qrels lines each (many topics), also
#      cut to its first 20,000 and 40,000 topics to show linear scaling.
# Inputs are made by bench/gen (qrelkit sim collection) into bench/work/
# (git-ignored) and reused while their parameters stay the same.
# Usage: bash bench/run.sh [path/to/qrelkit]   (env: REPS=3, TREC_EVAL=path)
set -euo pipefail

qk=$(realpath "${1:-build/default/qrelkit}")
reps=${REPS:-3}
cd "$(dirname "$0")"

# measure CMD...: run once, print "seconds peak_kib". Peak RSS comes from GNU
# time when present; otherwise from a python3 parent's getrusage(children),
# which cannot go below python's own ~14 MB (exec keeps the pre-exec peak).
measure() {
    local t0 t1 rss
    if [ -x /usr/bin/time ]; then
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
        return
    fi
    python3 - "$@" <<'EOF'
import resource, subprocess, sys, time
t = time.perf_counter()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
dt = time.perf_counter() - t
if rc != 0:
    sys.exit("bench: command failed with status %d: %s" % (rc, " ".join(sys.argv[1:])))
print("%.3f %d" % (dt, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
EOF
}

# Best time and highest peak RSS over $reps runs: the minimum is the figure
# least disturbed by other load on the machine.
best_of() {
    local best="" peak=0 out t m
    for ((i = 0; i < reps; i++)); do
        out=$(measure "$@") || exit 3
        read -r t m <<<"$out"
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
        [ "$m" -gt "$peak" ] && peak=$m
    done
    echo "$best $peak"
}

bash gen "$qk"

# name|topics|qrels|run|trec_eval seconds|trec_eval MB (reference figures
# measured on this machine class; empty when not measured).
inputs=("A|5000|work/A/qrels.txt|work/A/runs/run01.run|8.2|459"
        "B20k|20000|work/B20000.qrels|work/B20000.run||"
        "B40k|40000|work/B40000.qrels|work/B40000.run||"
        "B|80000|work/B/qrels.txt|work/B/runs/run01.run|24.9|")

echo
echo "| input | topics | qrels lines | run lines | time (s) | ms / 1k topics | peak RSS (MB) | trec_eval 10.0 | speed-up | memory ratio |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
for row in "${inputs[@]}"; do
    IFS='|' read -r name topics qrels run ref_s ref_mb <<<"$row"
    read -r t kib <<<"$(best_of "$qk" eval -m all_trec -q "$qrels" "$run")"
    awk -v n="$name" -v topics="$topics" -v q="$(wc -l <"$qrels")" -v r="$(wc -l <"$run")" \
        -v t="$t" -v kib="$kib" -v rs="$ref_s" -v rm="$ref_mb" 'BEGIN {
        mb = kib / 1024
        ref = rs == "" ? "" : rs " s" (rm == "" ? "" : ", " rm " MB")
        up = rs == "" ? "" : sprintf("%.1fx", rs / t)
        mem = rm == "" ? "" : sprintf("1/%.1f", rm / mb)
        printf "| %s | %d | %d | %d | %.2f | %.1f | %.1f | %s | %s | %s |\n",
            n, topics, q, r, t, 1000 * t / (topics / 1000), mb, ref, up, mem }'
done

# Optional: the real trec_eval on the same inputs, for a same-machine ratio.
if [ -n "${TREC_EVAL:-}" ]; then
    echo
    echo "| input | trec_eval time (s) | trec_eval peak RSS (MB) |"
    echo "| --- | ---: | ---: |"
    for row in "${inputs[0]}" "${inputs[3]}"; do
        IFS='|' read -r name topics qrels run _ _ <<<"$row"
        read -r t kib <<<"$(measure "$TREC_EVAL" -m all_trec -q "$qrels" "$run")"
        printf '| %s | %.2f | %.1f |\n' "$name" "$t" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')"
    done
fi

echo
echo "command: qrelkit eval -m all_trec -q QRELS RUN > /dev/null (wall time: best of $reps; peak RSS: highest, $([ -x /usr/bin/time ] && echo 'GNU time %M' || echo 'python3 getrusage'))"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(awk '/MemTotal/ { printf "%.0f GB RAM", $2 / 1048576 }' /proc/meminfo); $(date -u +%Y-%m-%d)"
