#!/usr/bin/env bash
# Campaign server load (issue #20): 50 assessors (one thread each in
# tests/campaign/loadgen.c) fetch their page and post a label, again and
# again, for 60 s on loopback against `qrelkit campaign serve` (4 worker
# threads, WAL, synchronous=FULL: every label is fsynced before the 303).
# A fresh TCP connection per request. Campaign: 100 topics x 200 pooled
# documents, all assigned (400 per assessor, more than 60 s can use).
# Reported: labels/s, requests/s, latency percentiles over all requests
# (page and label), errors, the server's CPU seconds, the load average.
# Stand-alone (not part of make bench): bash bench/campaign.sh [qrelkit] [seconds]
set -euo pipefail
QK=$(realpath "${1:-build/default/qrelkit}")
secs=${2:-60}
loadgen=$(dirname "$QK")/tests/campaign_loadgen
[ -x "$loadgen" ] || { echo "no $loadgen: build first" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/campaign/lib.sh"
db=$QK_TMP/c.db
make_campaign "$db" 100 200 50
start_server "$db"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
"$loadgen" "$QK_PORT" "$db.tokens" "$secs" > "$QK_TMP/load.out"
load1=$(cut -d' ' -f1-3 /proc/loadavg)
read -r ut st < <(awk '{print $14, $15}' "/proc/$QK_SERVER_PID/stat")
cpu=$(awk -v u="$ut" -v s="$st" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (u + s) / hz }')
stop_server
read -r -a f < "$QK_TMP/load.out"
# fields: assessors N seconds S labels L requests R errors E conflicts C labels/s X requests/s Y p50_ms .. p95_ms .. p99_ms .. max_ms ..
echo "| assessors | seconds | labels | labels/s | requests/s | p50 ms | p95 ms | p99 ms | max ms | errors | server CPU s | load before / after |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
echo "| ${f[1]} | ${f[3]} | ${f[5]} | ${f[13]} | ${f[15]} | ${f[17]} | ${f[19]} | ${f[21]} | ${f[23]} | ${f[9]} | $cpu | $load0 / $load1 |"
echo "labels stored: $(sqlite3 "$db" 'SELECT COUNT(*) FROM labels')"
