#!/usr/bin/env python3
"""The report of `make demo`: demo-report/index.html from the files in data/.

Usage: report.py --html DIR | --trust-summary DIR | --crowd-summary DIR
       | --topics-summary DIR | --tar-summary DIR | --plan-summary DIR

DIR is the report directory (data/ and collection/ in it). --html writes one
self-contained page (inline SVG and CSS, no script, no network) to standard
output; the summaries print the few lines the demo narrates for steps 3 to 7.
Everything shown is read from data/, which only the commands in data/*.cmds
write, so the page is a function of those commands' outputs (the test
tests/library/demo_report.sh re-runs them and compares).

Adding a step: a function section_NAME(d) returning HTML, and NAME in
SECTIONS (same name as the step in scripts/demo/steps.sh).
"""
import html
import math
import os
import sys

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


# ---- reading ---------------------------------------------------------------
def read_tsv(d, name):
    """Rows (lists of fields) of a TAB-separated file under data/."""
    with open(os.path.join(d, "data", name), encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def read_table(d, name, first=0):
    """Dict rows of the header table that starts at row `first`."""
    rows = read_tsv(d, name)[first:]
    head = rows[0]
    out = []
    for r in rows[1:]:
        if len(r) != len(head):
            break
        out.append(dict(zip(head, r)))
    return out


def read_kv(d, name):
    return {r[0]: r[1] for r in read_tsv(d, name) if len(r) >= 2}


def num(s):
    try:
        return float(s)
    except ValueError:
        return float("nan")


def quality(d):
    return {r["run"]: num(r["score"]) for r in read_table(d, "quality.tsv")}


def true_map(d):
    """MAP of every run with every pool document judged (data/true-map.tsv)."""
    return {r["run"]: num(r["value"]) for r in read_table(d, "true-map.tsv")
            if r["measure"] == "map" and r["topic"] == "all"}


def conf_pairs(d, name):
    """(a, b) -> P(MAP_a < MAP_b) from `confidence --pairs` (second table)."""
    rows = read_tsv(d, name)
    start = next(i for i, r in enumerate(rows) if r[0] == "a" and len(r) > 2)
    return {(r["a"], r["b"]): num(r["P(a<b)"]) for r in read_table(d, name, start)}


def p_less(pairs, a, b):
    """P(MAP_a < MAP_b) whichever way round the pair is stored."""
    if (a, b) in pairs:
        return pairs[(a, b)]
    return 1 - pairs[(b, a)]


def neighbours(d):
    """Pairs of runs next to each other in the true MAP order, best first."""
    t = true_map(d)
    order = sorted(t, key=lambda r: -t[r])
    return t, [(order[i], order[i + 1]) for i in range(len(order) - 1)]


def crowd_runs(d, name):
    """method summary (key -> value) and per-run (map_crowd, map_gold)."""
    kv, runs = {}, {}
    for r in read_tsv(d, name):
        if len(r) == 2:
            kv[r[0]] = r[1]
    for key, v in kv.items():
        if key.startswith("map_crowd_"):
            runs.setdefault(key[len("map_crowd_"):], [None, None])[0] = num(v)
        elif key.startswith("map_gold_"):
            runs.setdefault(key[len("map_gold_"):], [None, None])[1] = num(v)
    return kv, runs


# ---- SVG ---------------------------------------------------------------------
W, H, ML, MR, MT, MB = 460, 260, 56, 110, 16, 42


def esc(s):
    return html.escape(str(s), quote=True)


def axes(title, xlab, ylab, xt, yt, sx, sy):
    """Frame, ticks and labels; xt/yt: (value, label) ticks."""
    g = ['<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" '
         'width="%d" height="%d" role="img" aria-label="%s">' % (W, H, W, H, esc(title))]
    g.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>'
             % (ML, MT, W - ML - MR, H - MT - MB))
    for v, lab in xt:
        g.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#999"/>'
                 '<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                 % (sx(v), sx(v), H - MB, H - MB + 4, sx(v), H - MB + 16, esc(lab)))
    for v, lab in yt:
        g.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#eee"/>'
                 '<text x="%d" y="%.1f" text-anchor="end">%s</text>'
                 % (ML, W - MR, sy(v), sy(v), ML - 4, sy(v) + 4, esc(lab)))
    g.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % ((ML + W - MR) / 2, H - 6, esc(xlab)))
    g.append('<text transform="translate(14,%.1f) rotate(-90)" text-anchor="middle">%s</text>'
             % ((MT + H - MB) / 2, esc(ylab)))
    return g


def nice_ticks(lo, hi, n=5):
    step = (hi - lo) / n if hi > lo else 1
    mag = 10 ** math.floor(math.log10(step))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= step), default=step)
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    return [round(k * step, 10) for k in range(first, max(last, first + 1) + 1)]


def scale(lo, hi, a, b):
    if hi <= lo:
        hi = lo + 1
    return lambda v: a + (v - lo) * (b - a) / (hi - lo)


def legend(g, names):
    for i, n in enumerate(names):
        y = MT + 10 + 16 * i
        g.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                 '<text x="%d" y="%d">%s</text>' % (W - MR + 8, W - MR + 26, y, y, PALETTE[i % 6],
                                                    W - MR + 30, y + 4, esc(n)))


def line_chart(title, series, xs, xlabels, xlab, ylab, fmt="%.2f", zero=True):
    """series: [(name, [y per x])]; one polyline with a mark per point. The
    y axis starts at 0 when zero is true, else just below the data."""
    ys = [y for _, s in series for y in s if not math.isnan(y)]
    yt = nice_ticks(min(ys + [0]) if zero else min(ys), max(ys), 4)
    sx = scale(min(xs), max(xs), ML + 20, W - MR - 20)
    sy = scale(yt[0], yt[-1], H - MB, MT)
    g = axes(title, xlab, ylab, list(zip(xs, xlabels)), [(v, fmt % v) for v in yt], sx, sy)
    for i, (name, s) in enumerate(series):
        c = PALETTE[i % 6]
        pts = [(sx(x), sy(y)) for x, y in zip(xs, s) if not math.isnan(y)]
        g.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                 % (c, " ".join("%.1f,%.1f" % p for p in pts)))
        for (px, py), x, y in zip(pts, xs, s):
            g.append('<circle class="mark" cx="%.1f" cy="%.1f" r="3.5" fill="%s" data-series="%s" '
                     'data-x="%s" data-y="%s"><title>%s at %s: %s</title></circle>'
                     % (px, py, c, esc(name), x, y, esc(name), x, y))
    legend(g, [n for n, _ in series])
    g.append("</svg>")
    return "\n".join(g)


def interval_chart(title, runs, truth, series, ylab):
    """Per run (x, in the order given): the truth as a black diamond and each
    series (name, {run: (estimate, half-width)}) as a dot with a bar."""
    vals = [truth[r] for r in runs]
    for _, s in series:
        vals += [s[r][0] - s[r][1] for r in runs] + [s[r][0] + s[r][1] for r in runs]
    vals = [v for v in vals if not math.isnan(v)]
    yt = nice_ticks(min(vals + [0]), max(vals))
    sx = scale(0, len(runs) - 1, ML + 16, W - MR - 16)
    sy = scale(yt[0], yt[-1], H - MB, MT)
    g = axes(title, "run (best first by true MAP)", ylab, [(i, r[-2:]) for i, r in enumerate(runs)],
             [(v, "%.2f" % v) for v in yt], sx, sy)
    off = [(k - (len(series) - 1) / 2) * 6 for k in range(len(series))]
    for k, (name, s) in enumerate(series):
        c = PALETTE[k % 6]
        for i, r in enumerate(runs):
            e, hw = s[r]
            x = sx(i) + off[k]
            g.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"/>'
                     % (x, x, sy(e - hw), sy(e + hw), c))
            g.append('<circle class="mark" cx="%.1f" cy="%.1f" r="3" fill="%s" data-series="%s" '
                     'data-x="%s" data-y="%.6f" data-ci="%.6f"><title>%s %s: %.4f &#177; %.4f</title></circle>'
                     % (x, sy(e), c, esc(name), r, e, hw, r, esc(name), e, hw))
    for i, r in enumerate(runs):
        x, y = sx(i), sy(truth[r])
        g.append('<path class="mark" d="M%.1f,%.1f l5,5 l-5,5 l-5,-5 z" fill="#000" data-series="true MAP" '
                 'data-x="%s" data-y="%.6f"><title>%s true MAP %.4f</title></path>'
                 % (x, y - 5, r, truth[r], r, truth[r]))
    legend(g, [n for n, _ in series])
    y = MT + 10 + 16 * len(series)
    g.append('<path d="M%d,%d l5,5 l-5,5 l-5,-5 z" fill="#000"/><text x="%d" y="%d">true MAP</text>'
             % (W - MR + 17, y - 5, W - MR + 30, y + 4))
    g.append("</svg>")
    return "\n".join(g)


def xy_chart(title, series, xlab, ylab, xt, ylim, band=None, xfmt="%.1f", yfmt="%.2f"):
    """series: [(name, [(x, y)], lines)]: marks at the points, joined when
    lines is true. band: (name, [(x, lo, hi)]), a shaded range drawn first.
    xt: the x ticks (the first and last bound the axis)."""
    yt = nice_ticks(*ylim, 4)
    sx = scale(xt[0], xt[-1], ML + 10, W - MR - 10)
    sy = scale(yt[0], yt[-1], H - MB, MT)
    g = axes(title, xlab, ylab, [(v, xfmt % v) for v in xt], [(v, yfmt % v) for v in yt], sx, sy)
    names = []
    if band:
        pts = [(sx(x), sy(hi)) for x, _, hi in band[1]] + [(sx(x), sy(lo)) for x, lo, _ in reversed(band[1])]
        g.append('<polygon fill="#ddd" stroke="none" points="%s"><title>%s</title></polygon>'
                 % (" ".join("%.1f,%.1f" % p for p in pts), esc(band[0])))
    for i, (name, pts, lines) in enumerate(series):
        c = PALETTE[i % 6]
        names.append(name)
        if lines and len(pts) > 1:
            g.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                     % (c, " ".join("%.1f,%.1f" % (sx(x), sy(y)) for x, y in pts)))
        r = 2 if len(pts) > 20 else 4
        for x, y in pts:
            g.append('<circle class="mark" cx="%.1f" cy="%.1f" r="%d" fill="%s" data-series="%s" '
                     'data-x="%s" data-y="%s"><title>%s at %s: %s</title></circle>'
                     % (sx(x), sy(y), r, c, esc(name), x, y, esc(name), x, y))
    legend(g, names)
    if band:
        y = MT + 10 + 16 * len(names)
        g.append('<rect x="%d" y="%d" width="18" height="8" fill="#ddd"/><text x="%d" y="%d">%s</text>'
                 % (W - MR + 8, y - 4, W - MR + 30, y + 4, esc(band[0])))
    g.append("</svg>")
    return "\n".join(g)


def table(head, rows, cls=""):
    t = ['<table class="%s"><tr>%s</tr>' % (cls, "".join("<th>%s</th>" % esc(h) for h in head))]
    for r in rows:
        t.append("<tr>%s</tr>" % "".join("<td>%s</td>" % esc(c) for c in r))
    t.append("</table>")
    return "\n".join(t)


def commands(d, step):
    with open(os.path.join(d, "data", step + ".cmds"), encoding="utf-8") as f:
        cmds = f.read()
    return ('<details open><summary>Commands (run in the report directory; '
            'put your own runs and qrels in their place)</summary><pre>%s</pre></details>' % esc(cmds))


# ---- sections ----------------------------------------------------------------
def section_collection(d):
    q = quality(d)
    return ("<h2>0. A collection whose truth is known</h2><p>25 topics of 500 documents, every one "
            "judged (grades 0&#8211;2), and %d runs of hidden quality between %.1f and %.1f "
            "(<code>collection/</code>; the table of step 1 lists them). Each run scores a document "
            "by its grade times its quality, plus noise.</p>" % (len(q), min(q.values()), max(q.values()))
            + commands(d, "collection"))


def section_evaluate(d):
    q = quality(d)
    v = {}
    for r in read_table(d, "eval.tsv"):
        if r["topic"] == "all":
            v.setdefault(r["run"], {})[r["measure"]] = num(r["value"])
    tau = read_kv(d, "evaluate-tau.tsv")
    runs = sorted(v, key=lambda r: -v[r]["map"])
    chart = line_chart("MAP against hidden quality",
                       [("MAP", [v[r]["map"] for r in runs]), ("nDCG@10", [v[r]["ndcg_cut_10"] for r in runs])],
                       [q[r] for r in runs], [("%.2f" % q[r]) if i % 2 == 0 else "" for i, r in enumerate(runs)],
                       "hidden run quality", "score")
    rows = [(r, "%.4f" % v[r]["map"], "%.4f" % v[r]["P_10"], "%.4f" % v[r]["ndcg_cut_10"], "%.4f" % q[r])
            for r in runs]
    return ("<h2>1. Evaluate every run</h2><p>With complete judgments, MAP orders the runs as their "
            "hidden quality does: Kendall's &#964; = %s.</p>" % esc(tau.get("tau_b", "?"))
            + '<div class="fig">' + chart + table(["run", "MAP", "P@10", "nDCG@10", "quality"], rows) + "</div>"
            + commands(d, "evaluate"))


def budget_rows(d):
    rows = read_table(d, "budget.tsv")
    methods = list(dict.fromkeys(r["method"] for r in rows))
    budgets = sorted({int(num(r["budget"])) for r in rows})
    get = {(r["method"], int(num(r["budget"]))): r for r in rows}
    return methods, budgets, get


def section_budget(d):
    methods, budgets, get = budget_rows(d)
    labels = ["%d (%d%%)" % (b, p) for b, p in zip(budgets, (5, 10, 20))]
    tau = line_chart("Kendall tau vs budget", [(m, [num(get[m, b]["tau"]) for b in budgets]) for m in methods],
                     budgets, labels, "judged documents per topic", "tau of the MAP ranking", "%.3f", zero=False)
    rmse = line_chart("RMSE of MAP vs budget",
                      [(m, [num(get[m, b]["rmse_map"]) for b in budgets]) for m in methods],
                      budgets, labels, "judged documents per topic", "RMSE of MAP", "%.3f")
    rows = [(m, b, get[m, b]["tau"], get[m, b]["tau_sd"], get[m, b]["rmse_map"], get[m, b]["bias_map"])
            for m in methods for b in budgets]
    return ("<h2>2. Judge only a budget</h2><p>Each strategy judges 5, 10 and 20&#160;% of the "
            "depth-100 pool of every topic, in 20 trials; the complete judgments score the result. "
            "&#964; compares the estimated MAP ranking with the true one, RMSE the MAP values.</p>"
            '<div class="fig">' + tau + rmse + "</div>"
            + table(["method", "budget", "tau", "tau sd", "RMSE MAP", "bias MAP"], rows)
            + commands(d, "budget"))


def trust_data(d):
    t, pairs = neighbours(d)
    mtc, rtc = conf_pairs(d, "conf-mtc.tsv"), conf_pairs(d, "conf-rtc.tsv")
    sig = {(r["run_a"], r["run_b"]): r for r in read_table(d, "significance.tsv")}
    rows = []
    for a, b in pairs:
        s = sig.get((a, b)) or sig.get((b, a))
        rows.append((a, b, t[a] - t[b], 1 - p_less(mtc, a, b), 1 - p_less(rtc, a, b), num(s["p_adj"])))
    return t, rows


def trust_summary(d):
    t, rows = trust_data(d)
    stat = {r["run"]: num(r["value"]) for r in read_table(d, "statap-eval.tsv")
            if r["measure"] == "statAP" and r["topic"] == "all"}
    var = {r["run"]: num(r["value"]) for r in read_table(d, "statap-eval.tsv")
           if r["measure"] == "var_statAP" and r["topic"] == "all"}
    inside = sum(abs(stat[r] - t[r]) <= 1.96 * math.sqrt(var[r]) for r in t)
    print("statAP from the sample: true MAP inside the 95%% interval for %d of %d runs" % (inside, len(t)))
    print("P(better run wins), neighbours in the true order (MTC, RTC; t-test p, Holm):")
    for a, b, dm, pm, pr, p in rows[:3]:
        print("  %s > %s (true dMAP %.3f): MTC %.2f, RTC %.2f; p = %.3g" % (a, b, dm, pm, pr, p))
    print("A confidence near 0.5, or a large p, says: judge more before naming a winner.")


def section_trust(d):
    t, rows = trust_data(d)
    ev = read_table(d, "statap-eval.tsv")
    stat = {r["run"]: num(r["value"]) for r in ev if r["measure"] == "statAP" and r["topic"] == "all"}
    var = {r["run"]: num(r["value"]) for r in ev if r["measure"] == "var_statAP" and r["topic"] == "all"}
    rtc_rows = read_table(d, "conf-rtc.tsv")
    emap = {r["run"]: (num(r["EMAP"]), 1.96 * math.sqrt(num(r["var"]))) for r in rtc_rows}
    runs = sorted(t, key=lambda r: -t[r])
    chart = interval_chart("Estimated vs true MAP", runs, t,
                           [("statAP sample", {r: (stat[r], 1.96 * math.sqrt(var[r])) for r in runs}),
                            ("RTC E[MAP]", emap)], "MAP (95% interval)")
    trows = [(a, b, "%.4f" % dm, "%.3f" % pm, "%.3f" % pr, "%.3g" % p) for a, b, dm, pm, pr, p in rows]
    return ("<h2>3. How far to trust it</h2><p>One real round at 10&#160;% of the pool: a statAP "
            "sample gives unbiased MAP with a variance (bars: 95&#160;% intervals); the top of the pool "
            "judged by depth gives MTC and RTC the confidence that one run beats another. The t-test "
            "over topics (complete judgments, Holm-corrected) says which differences the topics support.</p>"
            '<div class="fig">' + chart
            + table(["better", "worse", "true dMAP", "MTC P(better wins)", "RTC P(better wins)", "t-test p (Holm)"],
                    trows) + "</div>" + commands(d, "trust"))


def crowd_data(d):
    out = {}
    for m in ("mv", "ds"):
        out[m] = crowd_runs(d, "crowd-%s.tsv" % m)
    return out


def crowd_summary(d):
    c = crowd_data(d)
    for m, name in (("mv", "majority vote"), ("ds", "Dawid-Skene")):
        kv = c[m][0]
        print("%-13s label accuracy %.3f, tau of the MAP ranking vs true labels %.3f"
              % (name, num(kv["accuracy"]), num(kv.get("kendall_tau_runs", "nan"))))
    curve = read_table(d, "crowd-curve.tsv")
    acc = {(r["labels_per_task"], r["method"]): r["accuracy"] for r in curve}
    ls = list(dict.fromkeys(r["labels_per_task"] for r in curve))
    print("accuracy with " + ", ".join(ls) + " labels per document: "
          + "; ".join(m + " " + " ".join("%.2f" % num(acc[x, m]) for x in ls) for m in ("mv", "ds")))


def section_crowd(d):
    c = crowd_data(d)
    curve = read_table(d, "crowd-curve.tsv")
    ls = list(dict.fromkeys(int(r["labels_per_task"]) for r in curve))
    methods = list(dict.fromkeys(r["method"] for r in curve))
    acc = {(int(r["labels_per_task"]), r["method"]): r for r in curve}
    chart = line_chart("Crowd label accuracy vs labels per task",
                       [(m, [num(acc[x, m]["accuracy"]) for x in ls]) for m in methods], ls, [str(x) for x in ls],
                       "labels per document", "accuracy against the truth")
    curve_rows = [(x, *("%s &#177; %s" % (acc[x, m]["accuracy"], acc[x, m]["ci95"]) for m in methods))
                  for x in ls]
    keys = ("accuracy", "precision", "recall", "f1", "kendall_tau_runs")
    summ = [(m, *(c[m][0].get(k, "NA") for k in keys)) for m in ("mv", "ds")]
    return ("<h2>4. Noisy crowd labels</h2><p>Every document of the depth-20 pool gets 5 labels "
            "from simulated workers (mean accuracy 0.7, 20&#160;% spammers). Majority vote and "
            "Dawid&#8211;Skene turn them into qrels; &#964; compares the MAP ranking under those qrels "
            "with the ranking under the true labels of the same documents.</p>"
            '<div class="fig">' + chart
            + table(["labels per document", *methods], curve_rows).replace("&amp;#177;", "&#177;")
            + "</div>" + table(["method", "accuracy", "precision", "recall", "F1", "tau of MAP ranking vs true labels"], summ) + commands(d, "crowd"))


TOPIC_SIZES = (1, 3, 5, 10)  # the sizes narrated and tabled
TOPICS_N = 5  # "judging N of 25 topics chosen by greedy ..."


def topics_data(d):
    """method -> {size: (tau, lo, hi)} over the held-out runs, random first,
    then simulate topics' methods, then adaptive (simulate topics-adaptive)."""
    out = {}
    for r in read_table(d, "topics.tsv"):
        if r["systems"] == "heldout":
            out.setdefault(r["method"], {})[int(r["size"])] = (num(r["tau"]), num(r["tau_lo"]), num(r["tau_hi"]))
    for r in read_table(d, "topics-adaptive.tsv", 1):
        out.setdefault(r["method"], {})[int(r["size"])] = (
            num(r["tau"]), num(r["tau"]) - num(r["tau_ci95"]), num(r["tau"]) + num(r["tau_ci95"]))
    return out


def topics_summary(d):
    t = topics_data(d)
    print("tau at %s topics judged:  " % "/".join(map(str, TOPIC_SIZES))
          + "".join("%7d" % k for k in TOPIC_SIZES))
    for m, v in t.items():
        print("  %-24s" % m + "".join("%7.3f" % v[k][0] for k in TOPIC_SIZES)
              + ("   (95 %% of draws >= %.2f at %d)" % (v[TOPICS_N][1], TOPICS_N) if m == "random" else ""))
    g, r = t["greedy-pearson"][TOPICS_N][0], t["random"][TOPICS_N][0]
    print("Judging %d of 25 topics chosen by greedy gives tau %.3f vs %.3f at random." % (TOPICS_N, g, r))


def section_topics(d):
    t = topics_data(d)
    sizes = sorted(t["random"])
    rnd = t["random"]
    short = {"greedy-pearson": "greedy (P)", "greedy-kendall": "greedy (K)"}
    series = [(short.get(m, m), [(k, v[k][0]) for k in sorted(v)], True) for m, v in t.items()]
    lo = min(min(v[k][0] for k in v) for v in t.values())
    chart = xy_chart("tau of held-out runs vs topics judged", series, "topics judged (of 25)",
                     "Kendall tau, held-out runs", list(range(0, max(sizes) + 1, 2)),
                     (min(lo, min(rnd[k][1] for k in sizes)), 1),
                     band=("random 95 %", [(k, rnd[k][1], rnd[k][2]) for k in sizes]), xfmt="%d")
    rows = [(m, *("%.3f (%.2f&#8211;%.2f)" % v[k] for k in TOPIC_SIZES)) for m, v in t.items()]
    return ("<h2>5. Which topics to judge</h2><p>Half of the runs (chosen at random, 20 trials) pick "
            "the topics from their per-topic AP; the other half, which the choice never saw, are ranked "
            "by their mean AP over the picked topics, and Kendall's &#964; compares that ranking with "
            "the one over all 25 topics. Random subsets: the mean and the range of 95&#160;% of the "
            "draws (shaded; in brackets); greedy on Pearson's (P) or Kendall's (K) objective, the convex "
            "relaxation and Adaptive (which judges topics one by one and predicts the rest with a "
            "relevance model): the mean over trials and its 95&#160;% interval (in brackets).</p>"
            '<div class="fig">' + chart + "</div>"
            + table(["method", *("tau, %d topic%s" % (k, "s" if k > 1 else "") for k in TOPIC_SIZES)], rows).replace("&amp;#8211;", "&#8211;")
            + commands(d, "topics"))


def tar_data(d):
    """rows of the two simulate tar summaries, AutoStop first."""
    return read_table(d, "tar-autostop.tsv") + read_table(d, "tar-knee-target.tsv")


def tar_gain(d):
    return [(num(r["cost"]), num(r["recall"])) for r in read_table(d, "tar-gain.tsv")]


def tar_summary(d):
    rows = tar_data(d)
    gain = tar_gain(d)
    c90 = next((c for c, r in gain if r >= 0.9), float("nan"))
    print("AutoTAR ranks by active learning: 90 %% of the relevant are among the first %.0f %% "
          "screened. When to stop?" % (100 * c90))
    print("%-16s %7s %7s   %s" % ("rule (target)", "recall", "cost", "topics at target"))
    for r in rows:
        n = int(num(r["topics"]))
        print("%-16s %7.3f %7.3f   %d of %d" % ("%s (%s)" % (r["rule"], r["target"]), num(r["recall"]),
                                              num(r["cost"]), round(num(r["reliability"]) * n), n))
    a = next(r for r in rows if r["rule"] == "autostop" and num(r["target"]) == 0.9)
    n = int(num(a["topics"]))
    print("AutoStop aiming at 90 %% recall screens %.0f %% of the documents and reaches it on %d of %d topics."
          % (100 * num(a["cost"]), round(num(a["reliability"]) * n), n))


def section_tar(d):
    rows = tar_data(d)
    gain = tar_gain(d)
    series = [("AutoTAR", [(0.0, 0.0)] + gain, True)]
    for m in dict.fromkeys(r["rule"] for r in rows):
        series.append((m, [(num(r["cost"]), num(r["recall"])) for r in rows if r["rule"] == m], True))
    chart = xy_chart("recall vs cost of a screening review", series, "cost: share of the documents screened",
                     "recall (mean over topics)", [0, 0.2, 0.4, 0.6, 0.8, 1], (0, 1))
    keys = ("recall", "cost", "reliability", "loss_er", "RE", "R_hat_RE")
    trows = [(r["rule"], r["target"], *("%s &#177; %s" % (r[k], r[k + "_sd"]) if r[k] != "-" else "-"
                                          for k in keys)) for r in rows]
    return ("<h2>6. Stop a screening review at a target recall</h2><p>A systematic review screens the "
            "documents a search found, in the order an active learner (AutoTAR: logistic regression "
            "on tf-idf, retrained after every batch) proposes, and must decide when it has found "
            "enough. 8 topics of the collection get texts (<code>scripts/demo/corpus.awk</code>: "
            "relevant documents use their topic's words more) and 1000 more non-relevant documents "
            "each. The line is the ranking screened to the end; the marks are where each rule stopped, "
            "as mean recall and cost over topics. AutoStop samples the ranking to estimate how many "
            "relevant documents there are and stops at the target (0.8, 0.9, 1); Knee and Target aim "
            "at every relevant document. Reliability is the share of topics that reached the target; "
            "R&#770; RE the relative error of AutoStop's estimate of R.</p>"
            '<div class="fig">' + chart + "</div>"
            + table(["rule", "target", "recall", "cost", "reliability", "loss_er", "RE", "R&#770; RE"],
                    trows).replace("&amp;#177;", "&#177;").replace("R&amp;#770;", "R&#770;")
            + commands(d, "tar"))


def plan_counts(d, name):
    """judgments per topic in a `budget plan` batch, in the batch's order."""
    out = {}
    for r in read_table(d, name):
        out[r["topic"]] = out.get(r["topic"], 0) + 1
    return out


def plan_sim(d):
    """methods, budgets and (method, budget) -> row of data/plan-sim.tsv."""
    rows = read_tsv(d, "plan-sim.tsv")
    head = rows[0]
    # the header repeats "sd" after each statistic: name them
    names = []
    for h in head:
        names.append(names[-1] + "_sd" if h == "sd" else h)
    rows = [dict(zip(names, r)) for r in rows[1:]]
    methods = list(dict.fromkeys(r["method"] for r in rows))
    budgets = sorted({int(num(r["budget"])) for r in rows})
    return methods, budgets, {(r["method"], int(num(r["budget"]))): r for r in rows}


def plan_summary(d):
    s1, s2 = plan_counts(d, "plan-stage1.tsv"), plan_counts(d, "plan-stage2.tsv")
    top = sorted(s2.items(), key=lambda kv: -kv[1])[:3]
    lo, hi = min(s1.values()), max(s1.values())
    print("stage 1, nothing judged yet: %d judgments, %s on each of the %d topics"
          % (sum(s1.values()), str(lo) if lo == hi else "%d-%d" % (lo, hi), len(s1)))
    print("stage 2, QDP on the answers: %d on %d of %d topics, most on %s"
          % (sum(s2.values()), len(s2), len(s1), ", ".join("%s (%d)" % kv for kv in top)))
    methods, budgets, get = plan_sim(d)
    print("simulate budget, 12 trials: tau of contributing runs | RMSE of MAP of held-out runs")
    print("%-8s" % "judged" + "".join("%7d" % b for b in budgets) + "   |" + "".join("%8d" % b for b in budgets))
    for m in methods:
        print("%-8s" % m + "".join("%7.3f" % num(get[m, b]["tau_part"]) for b in budgets) + "   |"
              + "".join("%8.4f" % num(get[m, b]["rmse_new"]) for b in budgets))
    if "qdp" in methods and "un" in methods:
        tau = sum(num(get["qdp", b]["tau_part"]) > num(get["un", b]["tau_part"]) for b in budgets)
        rmse = sum(num(get["qdp", b]["rmse_new"]) < num(get["un", b]["rmse_new"]) for b in budgets)
        print("QDP against uniform: higher tau at %d of %d budgets, lower held-out RMSE at %d of %d."
              % (tau, len(budgets), rmse, len(budgets)))


def section_plan(d):
    s1, s2 = plan_counts(d, "plan-stage1.tsv"), plan_counts(d, "plan-stage2.tsv")
    topics = list(s1)
    bars = line_chart("judgments per topic, stage 1 and stage 2 (QDP)",
                      [("stage 1", [s1.get(t, 0) for t in topics]), ("stage 2", [s2.get(t, 0) for t in topics])],
                      list(range(len(topics))), [t if i % 4 == 0 else "" for i, t in enumerate(topics)],
                      "topic", "judgments", "%.0f")
    methods, budgets, get = plan_sim(d)
    tau = line_chart("tau vs judgments, contributing runs",
                     [(m, [num(get[m, b]["tau_part"]) for b in budgets]) for m in methods],
                     budgets, [str(b) for b in budgets], "judgments (all topics)", "Kendall tau", "%.3f",
                     zero=False)
    rmse = line_chart("RMSE of MAP vs judgments, held-out runs",
                      [(m, [num(get[m, b]["rmse_new"]) for b in budgets]) for m in methods],
                      budgets, [str(b) for b in budgets], "judgments (all topics)", "RMSE of MAP", "%.3f")
    rows = [(m, b, *("%.3f &#177; %.3f" % (num(get[m, b][k]), num(get[m, b][k + "_sd"]))
                     for k in ("tau_part", "rmse_part", "tau_new", "rmse_new")))
            for m in methods for b in budgets]
    return ("<h2>7. Plan topics and documents together</h2><p><code>qrelkit budget plan</code> names the "
            "next (topic, document) pairs to judge (Hosseini's QDP): with nothing judged it spreads the "
            "first stage evenly; after the assessor's answers it weighs each topic by a convex program "
            "over the topics' covariance across runs and the uncertainty of their estimated AP, and "
            "each document by its AP prior, and judges the pairs of highest product. "
            "<code>qrelkit simulate budget</code> repeats that with the qrels as the assessor: half of "
            "each total budget uniformly, the rest in two stages by the method (QDP, uniform UN, subset "
            "allocation SA), one of 4 groups of runs held out of the pool per trial (12 trials); MAP "
            "is then estimated from the judgments and compared with the true MAP.</p>"
            '<div class="fig">' + bars + tau + rmse + "</div>"
            + table(["method", "judgments", "tau contributing", "RMSE contributing", "tau held out",
                     "RMSE held out"], rows).replace("&amp;#177;", "&#177;")
            + commands(d, "plan"))


SECTIONS = ["collection", "evaluate", "budget", "trust", "crowd", "topics", "tar", "plan"]

CSS = """body{font:15px/1.45 system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd}
.fig{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
svg.chart{font:11px sans-serif;background:#fff}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}td,th{border:1px solid #ddd;padding:2px 8px;text-align:right}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:12px;white-space:pre-wrap}
summary{cursor:pointer;color:#555}"""


def page(d):
    body = "\n".join(globals()["section_" + s](d) for s in SECTIONS)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>qrelkit demo report</title>"
            "<style>%s</style></head><body><h1>qrelkit: judge on a budget, and know how far to trust it</h1>"
            "<p>What <code>make demo</code> just ran, on a synthetic collection whose truth is known. "
            "Each chart is drawn from the files in <code>data/</code>; the commands beside it wrote "
            "them.</p>\n%s\n</body></html>\n" % (CSS, body))


def main(argv):
    modes = {"--trust-summary": trust_summary, "--crowd-summary": crowd_summary,
             "--topics-summary": topics_summary, "--tar-summary": tar_summary, "--plan-summary": plan_summary}
    if len(argv) != 3 or (argv[1] != "--html" and argv[1] not in modes):
        sys.stderr.write(__doc__)
        return 1
    d = argv[2]
    if argv[1] == "--html":
        sys.stdout.write(page(d))
    else:
        modes[argv[1]](d)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
