#!/usr/bin/env bash
# The long fuzz campaign (`make fuzz-long`): every libFuzzer harness of a fuzz
# build, one after the other (never two at once), SECONDS each. A crash does
# not end a harness's turn: the reproducer is kept under BUILD_DIR/crashes/
# <harness>/ and the harness is restarted on its grown corpus until its time
# is used up. One summary line per harness (harness, seconds, executions,
# cov, ft, crashes) goes to BUILD_DIR/fuzz-long.log and to stdout; the full
# libFuzzer output is in BUILD_DIR/long/<harness>.log.
#
# Usage: fuzz-long.sh BUILD_DIR [SECONDS_EACH]   (default 600, or $FUZZ_SECONDS)
# $FUZZ_HARNESSES (space-separated names) runs a subset, in that order.
# The grown corpus is BUILD_DIR/corpus/<harness> (the seeds in git are only
# read). Exit status 1 when any harness crashed or is missing.
set -u
build=$(cd "${1:?usage: fuzz-long.sh BUILD_DIR [SECONDS_EACH]}" && pwd)
secs=${2:-${FUZZ_SECONDS:-600}}
here=$(cd "$(dirname "$0")" && pwd)
summary=$build/fuzz-long.log
names=${FUZZ_HARNESSES:-$(cd "$here" && ls fuzz_*.c | sed 's/\.c$//')}
mkdir -p "$build/long" "$build/crashes" "$build/corpus"
{
  echo "# fuzz-long $(date -u '+%Y-%m-%d %H:%M:%S UTC'), commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?'),"
  echo "# $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(clang --version 2>/dev/null | head -n1)"
  printf '%-18s %8s %12s %6s %7s %7s\n' harness seconds executions cov ft crashes
} | tee -a "$summary"
fail=0
for name in $names; do
  bin=$build/tests/$name
  if [ ! -x "$bin" ]; then echo "fuzz-long: no binary $bin" >&2; fail=1; continue; fi
  seeds=$here/corpus/$name
  work=$build/long/$name.d
  crashes=$build/crashes/$name
  log=$build/long/$name.log
  mkdir -p "$work" "$crashes" "$build/corpus/$name"
  : >"$log"
  start=$(date +%s)
  execs=0
  ncrash=0
  cov=0
  ft=0
  while :; do
    left=$((start + secs - $(date +%s)))
    [ "$left" -ge 5 ] || break
    # -jobs=1 -workers=1: one fuzzing process, its output in $work/fuzz-0.log.
    rm -f "$work/fuzz-0.log"
    (cd "$work" && "$bin" -jobs=1 -workers=1 -max_total_time="$left" -timeout=30 -rss_limit_mb=2048 \
       -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/" \
       "$build/corpus/$name" "$seeds" >/dev/null 2>&1)
    cat "$work/fuzz-0.log" >>"$log" 2>/dev/null
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz-0.log" | tail -n1)
    execs=$((execs + ${n:-0}))
    last=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$work/fuzz-0.log" | tail -n1)
    if [ -n "$last" ]; then
      cov=$(echo "$last" | sed -E 's/.*cov: ([0-9]+).*/\1/')
      ft=$(echo "$last" | sed -E 's/.* ft: ([0-9]+).*/\1/')
    fi
    if grep -qE '^==[0-9]+==ERROR|^SUMMARY: |deadly signal|Test unit written to' "$work/fuzz-0.log"; then
      ncrash=$((ncrash + 1))
      grep -E 'Test unit written to' "$work/fuzz-0.log" | sed "s/^/  $name: /" >&2
      [ "$ncrash" -lt 20 ] || break # the same bug over and over: enough reproducers
    else
      break # the time was used up without a crash
    fi
  done
  took=$(($(date +%s) - start))
  [ "$ncrash" -gt 0 ] && fail=1
  printf '%-18s %8d %12d %6d %7d %7d\n' "$name" "$took" "$execs" "$cov" "$ft" "$ncrash" | tee -a "$summary"
done
exit $fail
