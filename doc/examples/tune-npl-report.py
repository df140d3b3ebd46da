#!/usr/bin/env python3
"""Table and convergence plot of the NPL tuning experiment (tune-npl.sh).

Usage: tune-npl-report.py OUTDIR SVG DEFAULTS
DEFAULTS: space=MAP pairs for the default configurations, e.g. bm25=0.2908,large=0.3055.
Reads OUTDIR/{space}-grid.tsv and {space}-{bo,random}-{seed}.tsv (qrelkit tune's TSV);
prints a markdown table and writes the SVG (mean best-so-far over seeds)."""
import glob, os, statistics, sys

out, svg, defaults = sys.argv[1], sys.argv[2], dict(kv.split("=") for kv in sys.argv[3].split(","))


def trace(path):
    ys = []
    with open(path) as f:
        next(f)
        for line in f:
            c = line.rstrip("\n").split("\t")
            if c[0] == "best":
                break
            ys.append(float(c[2]) if c[2] != "NA" else float("nan"))
    return ys


def best_so_far(ys):
    b, r = -1.0, []
    for y in ys:
        if y == y and y > b:
            b = y
        r.append(b)
    return r


spaces = [s for s in ("bm25", "large") if glob.glob(f"{out}/{s}-grid.tsv") and os.path.getsize(f"{out}/{s}-grid.tsv")]
curves = {}
print("| space | method | evaluations | best MAP: mean ± sd over seeds | min | max | seeds within 0.001 of the grid's best |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for sp in spaces:
    grid = trace(f"{out}/{sp}-grid.tsv")
    gbest = max(y for y in grid if y == y)
    print(f"| {sp} | default | 1 | {float(defaults[sp]):.4f} | | | |")
    print(f"| {sp} | grid | {len(grid)} | {gbest:.4f} | | | |")
    for m in ("bo", "random"):
        done = [p for p in sorted(glob.glob(f"{out}/{sp}-{m}-*.tsv")) if os.path.getsize(p)]
        runs = [best_so_far(trace(p)) for p in done]
        if not runs:
            continue
        name = "BO (EI)" if m == "bo" else "random"
        # the whole budget, and (when it is more) the first tenth of the grid's evaluations
        for k in sorted({len(runs[0]), min(len(runs[0]), len(grid) // 10)}):
            finals = [r[k - 1] for r in runs]
            sd = statistics.stdev(finals) if len(finals) > 1 else 0.0
            near = sum(1 for v in finals if v >= gbest - 0.001)
            print(f"| {sp} | {name} | {k} | {statistics.mean(finals):.4f} ± {sd:.4f} | {min(finals):.4f} | "
                  f"{max(finals):.4f} | {near}/{len(runs)} |")
        curves[(sp, m)] = [statistics.mean(r[i] for r in runs) for i in range(len(runs[0]))]
    curves[(sp, "grid")] = gbest
    curves[(sp, "default")] = float(defaults[sp])

# The SVG: one panel per space, mean best-so-far against evaluations.
W, H, PW = 460 * len(spaces), 360, 460
colours = {"bo": "#1f77b4", "random": "#d62728", "grid": "#2ca02c", "default": "#7f7f7f"}
s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
     f'<rect width="{W}" height="{H}" fill="white"/>']
for k, sp in enumerate(spaces):
    x0, y0, w, h = k * PW + 60, 40, PW - 90, H - 100
    series = {m: curves[(sp, m)] for m in ("bo", "random") if (sp, m) in curves}
    n = max(len(v) for v in series.values())
    vals = [v for c in series.values() for v in c[min(3, len(c) - 1):]] + [curves[(sp, "grid")], curves[(sp, "default")]]
    lo, hi = min(vals), max(vals)
    lo, hi = lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo)
    X = lambda i: x0 + w * (i - 1) / (n - 1)
    Y = lambda v: y0 + h * (1 - (min(max(v, lo), hi) - lo) / (hi - lo))
    title = "BM25 (k1, b)" if sp == "bm25" else "model, parameters, RM3 (9 dimensions)"
    s.append(f'<text x="{x0 + w / 2}" y="22" text-anchor="middle" font-size="14">Vaswani NPL: {title}</text>')
    s.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="black"/>')
    for t in range(6):
        v = lo + (hi - lo) * t / 5
        s.append(f'<text x="{x0 - 6}" y="{Y(v) + 4:.1f}" text-anchor="end">{v:.4f}</text>')
        s.append(f'<line x1="{x0}" x2="{x0 + w}" y1="{Y(v):.1f}" y2="{Y(v):.1f}" stroke="#eee"/>')
    for t in range(5):
        i = 1 + round((n - 1) * t / 4)
        s.append(f'<text x="{X(i):.1f}" y="{y0 + h + 16}" text-anchor="middle">{i}</text>')
    s.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 34}" text-anchor="middle">evaluations</text>')
    s.append(f'<text x="{x0 - 48}" y="{y0 + h / 2}" transform="rotate(-90 {x0 - 48} {y0 + h / 2})" '
             f'text-anchor="middle">best MAP so far (mean of seeds)</text>')
    for m in ("grid", "default"):
        v = curves[(sp, m)]
        s.append(f'<line x1="{x0}" x2="{x0 + w}" y1="{Y(v):.1f}" y2="{Y(v):.1f}" stroke="{colours[m]}" '
                 f'stroke-dasharray="6 4"/>')
    for m, c in series.items():
        pts = " ".join(f"{X(i + 1):.1f},{Y(v):.1f}" for i, v in enumerate(c))
        s.append(f'<polyline points="{pts}" fill="none" stroke="{colours[m]}" stroke-width="2"/>')
    legend = [("bo", "BO (EI)"), ("random", "random search"), ("grid", "grid best"), ("default", "default")]
    for j, (m, label) in enumerate(legend):
        ly = y0 + h - 70 + 16 * j
        dash = ' stroke-dasharray="6 4"' if m in ("grid", "default") else ""
        s.append(f'<line x1="{x0 + w - 140}" x2="{x0 + w - 115}" y1="{ly}" y2="{ly}" stroke="{colours[m]}" '
                 f'stroke-width="2"{dash}/>')
        s.append(f'<text x="{x0 + w - 110}" y="{ly + 4}">{label}</text>')
s.append("</svg>")
with open(svg, "w") as f:
    f.write("\n".join(s) + "\n")
