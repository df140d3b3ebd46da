#!/usr/bin/env python3
"""Kendall's tau_b between the systems' mean over the first k chosen topics and
over all topics of a score matrix, for k = 1..K, for each method's topic order
(doc/examples/topics-l2r.sh). Random: the mean (and sd) over --draws uniform
subsets per k. Prints TSV: method, size, tau, sd, n; --svg writes a plot.

usage: topics-l2r-eval.py MATRIX.tsv --order NAME=FILE[,FILE...] ... [--draws N]
                          [--seed S] [--max K] [--title T] [--svg OUT.svg]
An order file is `qrelkit topics select` TSV output (topic in column 2); several
files for one name (e.g. seeds) are averaged."""
import argparse
import math
import random


def read_matrix(path):
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        rows = {}
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            p = line.rstrip("\n").split("\t")
            rows[p[0]] = [float(v) for v in p[1:]]
    return head[1:], rows


def tau_b(x, y):
    n = len(x)
    c = d = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            a = x[i] - x[j]
            b = y[i] - y[j]
            if a * b > 0:
                c += 1
            elif a * b < 0:
                d += 1
            elif a == 0 and b != 0:
                tx += 1
            elif b == 0 and a != 0:
                ty += 1
    den = math.sqrt((c + d + tx) * (c + d + ty))
    return (c - d) / den if den > 0 else 0.0


def curve(order, rows, full, kmax):
    nsys = len(full)
    s = [0.0] * nsys
    out = []
    for k, t in enumerate(order[:kmax]):
        for i in range(nsys):
            s[i] += rows[t][i]
        out.append(tau_b(full, s))
    return out


def read_order(path):
    with open(path) as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#")]
    return [p[1] for p in lines[1:]]


def svg(path, title, series, kmax, xlabel="topics chosen", ylabel="Kendall tau_b vs all topics"):
    """series: (name, ys) with ys[k] at k + 1 topics, or (name, [(k, y)...], dashed); a name
    "X (...)" takes the colour of the first "X ..." series."""
    series = [(s[0], list(enumerate(s[1], 1)), False) if len(s) == 2 else s for s in series]
    w, h, l, b, r, t = 640, 420, 60, 50, 170, 30
    pw, ph = w - l - r, h - t - b
    lo = min(min(v for _, v in pts if v == v) for _, pts, _ in series)
    lo = min(0.0, math.floor(lo * 10) / 10)
    X = lambda k: l + pw * (k - 1) / max(1, kmax - 1)
    Y = lambda v: t + ph * (1 - (v - lo) / (1 - lo))
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
         f'<rect width="{w}" height="{h}" fill="white"/>',
         f'<text x="{l}" y="18" font-size="13">{title}</text>',
         f'<line x1="{l}" y1="{t + ph}" x2="{l + pw}" y2="{t + ph}" stroke="black"/>',
         f'<line x1="{l}" y1="{t}" x2="{l}" y2="{t + ph}" stroke="black"/>',
         f'<text x="{l + pw / 2}" y="{h - 10}" text-anchor="middle">{xlabel}</text>',
         f'<text x="15" y="{t + ph / 2}" transform="rotate(-90 15 {t + ph / 2})" text-anchor="middle">{ylabel}</text>']
    v = lo
    while v <= 1.0001:
        o.append(f'<line x1="{l - 4}" y1="{Y(v):.1f}" x2="{l + pw}" y2="{Y(v):.1f}" stroke="#ddd"/>')
        o.append(f'<text x="{l - 6}" y="{Y(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>')
        v += 0.2
    step = 10 if kmax > 40 else 5
    for k in [1] + list(range(step, kmax + 1, step)):
        o.append(f'<text x="{X(k):.1f}" y="{t + ph + 16}" text-anchor="middle">{k}</text>')
    o.append(f'<line x1="{l}" y1="{Y(0.9):.1f}" x2="{l + pw}" y2="{Y(0.9):.1f}" stroke="#999" stroke-dasharray="4 3"/>')
    names = list(dict.fromkeys(n.split(" (")[0] for n, _, _ in series))
    for i, (name, pts, dashed) in enumerate(series):
        c = colours[names.index(name.split(" (")[0]) % len(colours)]
        d = ' stroke-dasharray="5 3"' if dashed else ""
        p = " ".join(f"{X(k):.1f},{Y(v):.1f}" for k, v in pts)
        o.append(f'<polyline fill="none" stroke="{c}" stroke-width="1.6"{d} points="{p}"/>')
        o.append(f'<line x1="{l + pw + 10}" y1="{t + 14 + 18 * i}" x2="{l + pw + 30}" y2="{t + 14 + 18 * i}" stroke="{c}" stroke-width="2"{d}/>')
        o.append(f'<text x="{l + pw + 35}" y="{t + 18 + 18 * i}">{name}</text>')
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("matrix")
    ap.add_argument("--order", action="append", default=[])
    ap.add_argument("--draws", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max", type=int, default=0)
    ap.add_argument("--title", default="")
    ap.add_argument("--svg")
    a = ap.parse_args()
    systems, rows = read_matrix(a.matrix)
    topics = list(rows)
    nsys = len(systems)
    full = [sum(rows[t][i] for t in topics) for i in range(nsys)]
    kmax = a.max or len(topics)
    print("method\tsize\ttau\tsd\tn")
    series = []
    for spec in a.order:
        name, files = spec.split("=", 1)
        curves = [curve(read_order(p), rows, full, kmax) for p in files.split(",")]
        m = []
        for k in range(min(len(c) for c in curves)):
            vals = [c[k] for c in curves]
            mu = sum(vals) / len(vals)
            sd = math.sqrt(sum((v - mu) ** 2 for v in vals) / len(vals))
            m.append(mu)
            print(f"{name}\t{k + 1}\t{mu:.4f}\t{sd:.4f}\t{len(vals)}")
        series.append((name, m))
    rng = random.Random(a.seed)
    m = []
    acc = [[] for _ in range(kmax)]
    for _ in range(a.draws):
        order = topics[:]
        rng.shuffle(order)
        for k, v in enumerate(curve(order, rows, full, kmax)):
            acc[k].append(v)
    for k in range(kmax):
        mu = sum(acc[k]) / len(acc[k])
        sd = math.sqrt(sum((v - mu) ** 2 for v in acc[k]) / len(acc[k]))
        m.append(mu)
        print(f"random\t{k + 1}\t{mu:.4f}\t{sd:.4f}\t{len(acc[k])}")
    series.append(("random", m))
    if a.svg:
        svg(a.svg, a.title, series, kmax)


if __name__ == "__main__":
    main()
