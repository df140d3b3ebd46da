#!/usr/bin/env bash
# make demo: qrelkit's story on a synthetic collection whose truth is known,
# in a few narrated lines, and a report to open afterwards.
#   0. a collection with complete judgments and runs of known quality
#   1. evaluate every run
#   2. judge only a budget (depth pooling, statAP and active sampling)
#   3. how far to trust it (statAP intervals, MTC/RTC confidence, t-tests)
#   4. noisy crowd labels aggregated, and what they do to the ranking
#   5. which topics to judge (random, greedy, convex, Adaptive subsets)
#   6. when to stop a screening review (AutoStop, Knee, Target over AutoTAR)
#   7. topics and documents planned together (budget plan: QDP; simulate budget)
# The steps are in scripts/demo/steps.sh, the report in scripts/demo/report.py.
# Usage: bash scripts/demo.sh [path/to/qrelkit] [REPORT_DIR]   (default demo-report)
# Prints under 60 lines and ends with the path of REPORT_DIR/index.html.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
qk=${1:-build/default/qrelkit}
out=${2:-demo-report}
if [ ! -x "$qk" ]; then
    echo "demo: '$qk' is not an executable; run 'make build' first" >&2
    exit 3
fi
if ! command -v python3 >/dev/null; then
    echo "demo: the report needs python3 (scripts/install-deps.sh installs it)" >&2
    exit 3
fi
# The recorded commands say `qrelkit`: put this build first on PATH.
bindir=$(cd "$(dirname "$qk")" && pwd)
case $(basename "$qk") in
qrelkit) ;;
*) mkdir -p "$out/.bin" && ln -sf "$bindir/$(basename "$qk")" "$out/.bin/qrelkit" && bindir=$(cd "$out/.bin" && pwd) ;;
esac
export PATH="$bindir:$PATH"
DEMO_DIR=$here/demo

# A fresh report every time: the old data would mix with the new commands.
rm -rf "$out/collection" "$out/data" "$out/index.html"
mkdir -p "$out/data"
out=$(cd "$out" && pwd)
cd "$out"
# shellcheck source=scripts/demo/lib.sh
source "$DEMO_DIR/lib.sh"
# shellcheck source=scripts/demo/steps.sh
source "$DEMO_DIR/steps.sh"

for step in "${DEMO_STEPS[@]}"; do
    "step_$step"
done
python3 "$DEMO_DIR/report.py" --html . > index.html.tmp && mv index.html.tmp index.html
say ""
say "Every number above, with charts and the commands that made them (re-run any"
say "of them on your own runs and qrels):"
say "  $out/index.html"
