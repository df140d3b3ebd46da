#!/usr/bin/env bash
# doc/demo-report.png: headless Chromium's picture of the top of the demo
# report (the README shows it). Usage: screenshot.sh REPORT.html OUT.png
set -euo pipefail
page=${1:?report page}
png=${2:?output png}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "screenshot: needs chromium (apt-get install --no-install-recommends chromium)" >&2
    exit 3
fi
abs=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The first three sections (collection, evaluation, budgets) at a width where
# two charts sit side by side.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$tmp/profile" \
    --window-size=1040,2000 --screenshot="$tmp/shot.png" "file://$abs" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log" >&2; exit 3; }
mv "$tmp/shot.png" "$png"
echo "wrote $png"
