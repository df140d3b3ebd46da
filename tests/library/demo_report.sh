#!/usr/bin/env bash
# `make demo` and its report cannot drift from the code: run the demo, check
# its output (under 60 lines, ending with the report's path), then run every
# data/STEP.cmds file the report shows, in the demo's step order, in an empty
# directory, and require byte-identical data files and the same page drawn
# from them. Usage (ctest sets QK_SOURCE): demo_report.sh path/to/qrelkit
set -u
src=${QK_SOURCE:?}
qk=${1:?}
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rc=0
fail() { echo "FAIL: $*"; rc=1; }

# 1. The demo itself.
if ! bash "$src/scripts/demo.sh" "$qk" "$work/a" >"$work/out.txt" 2>"$work/err.txt"; then
    cat "$work/out.txt" "$work/err.txt"
    echo "FAIL: scripts/demo.sh failed"
    exit 1
fi
lines=$(wc -l <"$work/out.txt")
[ "$lines" -lt 60 ] || fail "the demo printed $lines lines (at most 59)"
[ "$(tail -n 1 "$work/out.txt" | sed 's/^ *//')" = "$work/a/index.html" ] ||
    fail "the last line is not the report's path: '$(tail -n 1 "$work/out.txt")'"
[ -s "$work/a/index.html" ] || fail "no report at $work/a/index.html"
[ -s "$work/err.txt" ] && fail "the demo wrote to stderr: $(head -n 3 "$work/err.txt")"

# 2. The report's commands, run again by a user in an empty directory.
mkdir -p "$work/b/data" "$work/bin"
ln -s "$(cd "$(dirname "$qk")" && pwd)/$(basename "$qk")" "$work/bin/qrelkit"
cp "$work"/a/data/*.cmds "$work/b/data/"
steps=$(bash -c "source '$src/scripts/demo/steps.sh'; echo \"\${DEMO_STEPS[*]}\"")
for s in $steps; do
    [ -f "$work/a/data/$s.cmds" ] || { fail "step $s wrote no data/$s.cmds"; continue; }
    (cd "$work/b" && PATH="$work/bin:$PATH" bash -e -o pipefail "$work/a/data/$s.cmds") 2>"$work/b-$s.err" ||
        fail "the commands of step $s failed: $(tail -n 3 "$work/b-$s.err")"
done
for f in $(cd "$work/a" && find data collection -type f ! -name stderr.log | sort); do
    cmp -s "$work/a/$f" "$work/b/$f" || fail "$f differs when its commands are run again"
done
extra=$(cd "$work/b" && find data collection -type f | sort | while read -r f; do [ -f "$work/a/$f" ] || echo "$f"; done)
[ -z "$extra" ] || fail "files the demo did not keep: $extra"

# 3. The page is what report.py draws from those data, and each chart has marks.
python3 "$src/scripts/demo/report.py" --html "$work/b" >"$work/b/index.html" || fail "report.py failed"
cmp -s "$work/a/index.html" "$work/b/index.html" || fail "index.html differs when drawn from the re-run data"
charts=$(grep -c '<svg class="chart"' "$work/a/index.html")
[ "$charts" -ge 7 ] || fail "$charts charts in the report (expected 7)"
for s in $steps; do
    grep -q "$(head -n 1 "$work/a/data/$s.cmds" | cut -c1-40)" "$work/a/index.html" ||
        fail "the commands of step $s are not shown in the report"
done
[ $rc = 0 ] && echo "ok: demo output $lines lines, $charts charts, every step's commands reproduce its data"
exit $rc
