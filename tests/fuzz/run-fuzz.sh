#!/usr/bin/env bash
# Run every libFuzzer harness of a fuzz build for a bounded time, starting
# from the seed corpus. New inputs go to a scratch corpus (the seeds in git
# stay as they are); a crash leaves crash-* files in the scratch folder and
# fails the script. Usage: run-fuzz.sh BUILD_DIR [SECONDS_EACH] (default 60).
set -u
build=${1:?usage: run-fuzz.sh BUILD_DIR [SECONDS_EACH]}
secs=${2:-${QK_FUZZ_SECONDS:-60}}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/qk-fuzz.XXXXXX")
fail=0
for src in "$here"/fuzz_*.c; do
  name=$(basename "$src" .c)
  bin=$(find "$build" -type f -name "$name" -perm -u+x | head -n 1)
  if [ -z "$bin" ]; then echo "run-fuzz: no binary for $name under $build" >&2; fail=1; continue; fi
  mkdir -p "$work/$name"
  echo "== $name (${secs}s)"
  if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
       -artifact_prefix="$work/$name/" "$work/$name" "$here/corpus/$name" 2>"$work/$name.log"; then
    echo "run-fuzz: $name failed; log and reproducer in $work/$name*" >&2
    tail -n 30 "$work/$name.log" >&2
    fail=1
  else
    grep -E '^(#[0-9]+ *DONE|Done)' "$work/$name.log" | tail -n 1
  fi
done
if [ "$fail" = 0 ]; then rm -rf "$work"; fi
exit $fail
