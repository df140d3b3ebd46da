#!/usr/bin/env bash
# TAR review benchmark (issue #18, must-show 5): the 20 CLEF TAR 2017 topics
# with texts (28,030 documents), the AutoTAR / CAL loop with AutoStop (HT,
# con1) at target recall 0.9 and 1.0, qrels as the reviewer, 2 threads:
# wall time, CPU time (user + sys) and peak RSS (GNU time), best of 3 wall
# times. Target: under 60 s for all 20 topics on 2 cores.
# usage: bash bench/tar-run.sh [path/to/qrelkit] [path/to/shared/data]
set -euo pipefail
Q=${1:-build/default/qrelkit}
D=${2:-../shared/data}/clef-tar-2017-texts
[ -d "$D/doctexts" ] || { echo "tar-run.sh: no $D/doctexts" >&2; exit 3; }
echo "| target | reviews | wall s (best of 3) | CPU s (user + sys) | peak RSS (MB) |"
echo "| --- | ---: | ---: | ---: | ---: |"
for t in 0.9 1; do
  best=""; cpu=""; rss=0
  for i in 1 2 3; do
    /usr/bin/time -f "%e %U %S %M" -o /tmp/qk-tar-run.$$ "$Q" simulate tar --corpus "$D/doctexts" \
        --fields content --topics "$D/topics" --qrels "$D/qrels" --stop autostop --target "$t" \
        --threads 2 --quiet > /dev/null
    read -r e u s m < /tmp/qk-tar-run.$$
    if [ -z "$best" ] || awk -v a="$e" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$e; cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }'); fi
    [ "$m" -gt "$rss" ] && rss=$m
  done
  rm -f /tmp/qk-tar-run.$$
  printf '| %s | 20 | %s | %s | %.1f |\n' "$t" "$best" "$cpu" "$(awk -v m="$rss" 'BEGIN { print m / 1024 }')"
done
