#!/usr/bin/env bash
# Scale-out overhead (issue 21): a 200-trial `simulate pool` over the 16 CLEF
# 2017 runs as 1 process against a 2-task job array + merge job on the local
# one-node Slurm (scripts/slurm-local.sh, scripts/slurm/submit.sh), the two
# alternating REPS times (default 3); medians of wall time (array: from
# submission until the merged file exists) and, load-independent, the CPU
# time (user+sys, GNU time) of 1 process against the 2 shards plus the merge
# run one after another. Every merged file is checked against the 1-process
# bytes. Usage: bash bench/shard.sh build/default/qrelkit [REPS]
set -eu
qk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
reps=${2:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
clef=${QK_SHARED:-$src/../shared}/data/clef-tar-2017
work=$(mktemp -d)
cluster=$work/cluster
trap 'bash "$src/scripts/slurm-local.sh" stop "$cluster" >/dev/null 2>&1; rm -rf "$work"' EXIT
bash "$src/scripts/slurm-local.sh" start "$cluster" >/dev/null
export SLURM_CONF=$cluster/slurm.conf QRELKIT=$qk
cd "$clef"
# shellcheck disable=SC2054 # commas inside an option's value
args=(simulate pool --qrels "$clef/qrel_abs_test.txt" --runs "$clef"/runs/*.run
      --methods depth,statap,active --budgets 10,20,40 --trials 200 --seed 5)
now() { date +%s.%N; }
# cpu OUT CMD...: run CMD with stdout to OUT, print its user+sys seconds
cpu() { local out=$1; shift; /usr/bin/time -f "%U %S" -o "$work/t" "$@" >"$out" 2>/dev/null; awk '{print $1 + $2}' "$work/t"; }
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$work/w1"; : >"$work/w2"; : >"$work/c1"; : >"$work/c2"
for r in $(seq 1 "$reps"); do
    t0=$(now); "$qk" "${args[@]}" >"$work/single"; t1=$(now)
    echo "$t1 - $t0" | bc -l >>"$work/w1"
    rm -rf "$work/parts" "$work/merged"
    t0=$(now)
    bash "$src/scripts/slurm/submit.sh" 2 "$work/parts" "$work/merged" "${args[@]}" >/dev/null
    while [ ! -s "$work/merged" ]; do
        [ -z "$(squeue -h -o %i)" ] && [ ! -s "$work/merged" ] && { echo "the array failed"; exit 1; }
        sleep 0.05
    done
    t1=$(now)
    echo "$t1 - $t0" | bc -l >>"$work/w2"
    cmp -s "$work/single" "$work/merged" || { echo "merged bytes differ"; exit 1; }
    # CPU time: one process, then both shards and the merge one after another
    cpu "$work/cpu1" "$qk" "${args[@]}" >>"$work/c1"
    a=$(cpu "$work/p0" "$qk" "${args[@]}" --shard 0/2)
    b=$(cpu "$work/p1" "$qk" "${args[@]}" --shard 1/2)
    m=$(cpu "$work/m" "$qk" merge "$work/p0" "$work/p1")
    cmp -s "$work/single" "$work/m" || { echo "merged bytes differ (sequential)"; exit 1; }
    echo "$a + $b + $m" | bc -l >>"$work/c2"
    echo "rep $r: wall 1 process $(tail -n1 "$work/w1") s, 2-task array $(tail -n1 "$work/w2") s; CPU $(tail -n1 "$work/c1") s vs $(tail -n1 "$work/c2") s (shards $a + $b, merge $m)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
w1=$(median <"$work/w1"); w2=$(median <"$work/w2"); c1=$(median <"$work/c1"); c2=$(median <"$work/c2")
printf '| median of %d | 1 process | 2-task Slurm array + merge | ratio |\n| --- | ---: | ---: | ---: |\n' "$reps"
printf '| wall time (s) | %.2f | %.2f | %.2f |\n' "$w1" "$w2" "$(echo "$w2 / $w1" | bc -l)"
printf '| CPU time, user+sys (s) | %.2f | %.2f | %.2f |\n' "$c1" "$c2" "$(echo "$c2 / $c1" | bc -l)"
