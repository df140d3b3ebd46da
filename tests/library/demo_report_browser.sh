#!/usr/bin/env bash
# The demo report renders in headless Chromium and every chart in it has
# data: the DOM Chromium builds from demo-report/index.html must hold the
# seven charts, each with data marks at finite positions inside the chart.
# Skipped (77) when chromium or python3 is missing: chromium is an optional
# dependency (scripts/install-deps.sh). Usage: demo_report_browser.sh qrelkit
set -u
src=${QK_SOURCE:?}
qk=${1:?}
case ${QK_BUILD:-} in
*/asan) echo "SKIP: the page does not depend on the build; rendered in the default build"; exit 77 ;;
esac
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium is not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$src/scripts/demo.sh" "$qk" "$work/r" >/dev/null || { echo "FAIL: scripts/demo.sh failed"; exit 1; }
if ! timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" \
        --dump-dom "file://$work/r/index.html" >"$work/dom.html" 2>"$work/chromium.log"; then
    tail -n 5 "$work/chromium.log"
    echo "FAIL: chromium could not load the report"
    exit 1
fi
python3 - "$work/dom.html" <<'PY'
import math, re, sys
from html.parser import HTMLParser

class Charts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts, self.cur = [], None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "chart" in (a.get("class") or "").split():
            vb = [float(x) for x in a["viewbox" if "viewbox" in a else "viewBox"].split()]
            self.cur = {"title": a.get("aria-label"), "w": vb[2], "h": vb[3], "marks": 0, "bad": []}
            self.charts.append(self.cur)
        elif self.cur is not None and "mark" in (a.get("class") or "").split():
            self.cur["marks"] += 1
            if tag == "circle":
                x, y = float(a["cx"]), float(a["cy"])
            else:  # path "Mx,y ..."
                x, y = (float(v) for v in re.match(r"M([-\d.]+),([-\d.]+)", a["d"]).groups())
            if not (math.isfinite(x) and math.isfinite(y) and 0 <= x <= self.cur["w"] and 0 <= y <= self.cur["h"]):
                self.cur["bad"].append((x, y))
            if not math.isfinite(float(a.get("data-y", "nan"))):
                self.cur["bad"].append(("data-y", a.get("data-y")))
    def handle_endtag(self, tag):
        if tag == "svg":
            self.cur = None

p = Charts()
p.feed(open(sys.argv[1], encoding="utf-8").read())
ok = len(p.charts) >= 7
if not ok:
    print("FAIL: %d charts in the rendered report (expected 7)" % len(p.charts))
for c in p.charts:
    if c["marks"] == 0 or c["bad"]:
        ok = False
        print("FAIL: chart '%s': %d marks, bad: %s" % (c["title"], c["marks"], c["bad"][:3]))
if ok:
    print("ok: %d charts rendered, marks per chart: %s" % (len(p.charts), [c["marks"] for c in p.charts]))
sys.exit(0 if ok else 1)
PY
