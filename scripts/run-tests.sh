#!/usr/bin/env bash
# Run the whole suite in both builds (normal, then ASan+UBSan) and print one
# combined closing line.
set -uo pipefail
cd "$(dirname "$0")/.."
total_pass=0; total_fail=0; rc=0
for preset in default asan; do
  echo "== ctest ($preset build) =="
  log=$(mktemp)
  ctest --preset "$preset" -j "$(nproc 2>/dev/null || echo 2)" 2>&1 | tee "$log"
  st=${PIPESTATUS[0]}
  [ "$st" -ne 0 ] && rc=1
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -n1)
  if [ -n "$line" ]; then
    failed=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/')
    all=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/')
    total_pass=$((total_pass + all - failed)); total_fail=$((total_fail + failed))
  else
    rc=1
  fi
  rm -f "$log"
done
echo "$total_pass passed, $total_fail failed"
exit $rc
