#!/usr/bin/env bash
# Kendall tau (and the rest of `compare --truth`) on N random systems: two
# scorings of the same N runs, the second a noisy copy of the first. Appends
# machine, date, command and wall time to bench/RESULTS-compare.md.
# Usage: bench/compare.sh [N=10000] [path/to/qrelkit]
set -euo pipefail
n=${1:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
qk=${2:-$root/build/default/qrelkit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# awk's srand makes the inputs reproducible; ties are frequent at 4 decimals
awk -v n="$n" 'BEGIN { srand(1); print "run\tscore";
  for (i = 0; i < n; i++) printf "sys%d\t%.4f\n", i, rand() }' > "$tmp/a.tsv"
awk 'BEGIN { srand(2) } NR == 1 { print; next }
  { printf "%s\t%.4f\n", $1, $2 + 0.1 * (rand() - 0.5) }' "$tmp/a.tsv" > "$tmp/b.tsv"
cmd="qrelkit compare --truth a.tsv b.tsv   # $n systems"
start=$(date +%s.%N)
"$qk" compare --truth "$tmp/a.tsv" "$tmp/b.tsv" > "$tmp/out.tsv"
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
tau=$(awk -F'\t' '$1 == "tau_b" { print $2 }' "$tmp/out.tsv")
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
{
  [ -s "$root/bench/RESULTS-compare.md" ] || printf '# compare benchmarks\n\n| date | machine | command | wall s | tau_b |\n| --- | --- | --- | --- | --- |\n'
  printf '| %s | %s CPUs, %s | `%s` | %s | %s |\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(nproc)" "$cpu" "$cmd" "$secs" "$tau"
} >> "$root/bench/RESULTS-compare.md"
echo "$n systems: $secs s (tau_b $tau)"
