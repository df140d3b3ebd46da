#!/usr/bin/env python3
"""Recall-cost plot (SVG, written directly) of `qrelkit simulate tar` summaries.

usage: tar-plot.py OUT.svg TITLE SUMMARY.tsv [SUMMARY.tsv ...]
Each summary line (rule, target, ..., recall, ..., cost, ...) is one point:
x = mean cost, y = mean recall, one colour per rule, labelled by the target.
"""
import csv
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]


def main():
    out, title, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    pts = []
    for f in files:
        with open(f, newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                pts.append((row["rule"], row["target"], float(row["cost"]), float(row["recall"])))
    rules = []
    for p in pts:
        if p[0] not in rules:
            rules.append(p[0])
    W, H, L, R, T, B = 640, 440, 60, 170, 40, 50
    pw, ph = W - L - R, H - T - B
    ylo = min(0.6, min(p[3] for p in pts) - 0.02)

    def x(c):
        return L + c * pw

    def y(r):
        return T + (1 - (r - ylo) / (1 - ylo)) * ph

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{L + pw / 2}" y="22" text-anchor="middle" font-size="13">{title}</text>',
         f'<rect x="{L}" y="{T}" width="{pw}" height="{ph}" fill="none" stroke="black"/>']
    for i in range(11):
        c = i / 10
        s.append(f'<line x1="{x(c)}" y1="{T + ph}" x2="{x(c)}" y2="{T + ph + 4}" stroke="black"/>')
        s.append(f'<text x="{x(c)}" y="{T + ph + 16}" text-anchor="middle">{c:.1f}</text>')
    k = 0
    while ylo + k * 0.05 <= 1.0001:
        r = ylo + k * 0.05
        s.append(f'<line x1="{L - 4}" y1="{y(r)}" x2="{L}" y2="{y(r)}" stroke="black"/>')
        s.append(f'<text x="{L - 6}" y="{y(r) + 4}" text-anchor="end">{r:.2f}</text>')
        s.append(f'<line x1="{L}" y1="{y(r)}" x2="{L + pw}" y2="{y(r)}" stroke="#eee"/>')
        k += 1
    s.append(f'<text x="{L + pw / 2}" y="{H - 12}" text-anchor="middle">mean cost (share of the collection screened)</text>')
    s.append(f'<text transform="translate(16,{T + ph / 2}) rotate(-90)" text-anchor="middle">mean recall</text>')
    for i, rule in enumerate(rules):
        col = COLOURS[i % len(COLOURS)]
        for p in pts:
            if p[0] != rule:
                continue
            s.append(f'<circle cx="{x(p[2]):.1f}" cy="{y(p[3]):.1f}" r="4" fill="{col}"/>')
            s.append(f'<text x="{x(p[2]) + 6:.1f}" y="{y(p[3]) - 4:.1f}" fill="{col}" font-size="9">{p[1]}</text>')
        s.append(f'<circle cx="{L + pw + 16}" cy="{T + 10 + 16 * i}" r="4" fill="{col}"/>')
        s.append(f'<text x="{L + pw + 26}" y="{T + 14 + 16 * i}">{rule}</text>')
    s.append(f'<text x="{L + pw + 10}" y="{T + 24 + 16 * len(rules)}" font-size="9">labels: target recall</text>')
    s.append("</svg>")
    with open(out, "w") as fh:
        fh.write("\n".join(s) + "\n")


if __name__ == "__main__":
    main()
