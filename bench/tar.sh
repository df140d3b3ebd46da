#!/usr/bin/env bash
# `qrelkit tar eval` on the largest CLEF TAR 2017 runs (issue #18): wall time
# and CPU time (user + sys), each the best of 5, and peak RSS (GNU time %M) of the whole command: read the
# abstract qrels (117,562 lines), read the run, score, print.
# usage: bash bench/tar.sh [path/to/qrelkit]   (needs ../shared/data)
set -euo pipefail
Q=${1:-build/default/qrelkit}
D=${QK_SHARED:-../shared}/data/clef-tar-2017
echo "| run | lines | wall s | CPU s (user + sys) | peak RSS (MB) |"
echo "| --- | ---: | ---: | ---: | ---: |"
for run in UOS-sis.TMAL30Q_BM25 Waterloo-B-rank-normal AMC-amc.run; do
  best=999; cpu=999; rss=0
  for _ in 1 2 3 4 5; do
    out=$( { /usr/bin/time -f "TIME %e %M %U %S" "$Q" tar eval "$D/qrel_abs_test.txt" "$D/runs/$run.run" >/dev/null; } 2>&1 )
    w=$(awk '$1=="TIME"{print $2}' <<<"$out"); r=$(awk '$1=="TIME"{print $3}' <<<"$out")
    c=$(awk '$1=="TIME"{print $4+$5}' <<<"$out")
    best=$(awk -v a="$w" -v b="$best" 'BEGIN{print (a<b)?a:b}')
    cpu=$(awk -v a="$c" -v b="$cpu" 'BEGIN{print (a<b)?a:b}')
    [ "$r" -gt "$rss" ] && rss=$r
  done
  printf '| %s | %s | %.2f | %.2f | %.1f |\n' "$run" "$(wc -l <"$D/runs/$run.run")" "$best" "$cpu" "$(awk -v k="$rss" 'BEGIN{print k/1024}')"
done
