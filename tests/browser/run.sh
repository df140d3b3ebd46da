#!/usr/bin/env bash
# The campaign pages end to end in headless Debian chromium driven by
# playwright-core (npm; tests/browser/package.json, installed here with
# `npm ci`). Skipped (77) with the reason when chromium, node or the npm
# package cannot be had, unless QK_REQUIRE_BROWSER=1 (set by .ci/run), where
# that is a failure. QK_SCREENSHOTS=DIR also writes the two screenshots
# (doc/campaign-judge.png, doc/campaign-dashboard.png come from here).
# Usage: run.sh QK
set -u
qk=${1:?}
here=$(cd "$(dirname "$0")" && pwd)
skip() {
  if [ "${QK_REQUIRE_BROWSER:-0}" = 1 ]; then echo "FAIL: $1 (QK_REQUIRE_BROWSER=1)"; exit 1; fi
  echo "SKIP: $1"; exit 77
}
case ${QK_BUILD:-} in
*/asan) echo "SKIP: the pages do not depend on the build; tested in the default build"; exit 77 ;;
esac
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip "chromium is not installed (scripts/install-deps.sh --browser)"
command -v node >/dev/null || skip "node is not installed (scripts/install-deps.sh --browser)"
command -v curl >/dev/null || skip "curl is not installed"
if [ ! -d "$here/node_modules/playwright-core" ]; then
  command -v npm >/dev/null || skip "npm is not installed (scripts/install-deps.sh --browser)"
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >&2 || skip "npm ci could not install playwright-core"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
QK_CHROMIUM=$browser timeout 240 node "$here/campaign.mjs" "$qk" "$here/../cli/campaign" "$work" ${QK_SCREENSHOTS:+"$QK_SCREENSHOTS"}
