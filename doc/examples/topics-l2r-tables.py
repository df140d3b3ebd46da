#!/usr/bin/env python3
"""Markdown tables for doc/examples/topics-l2r.md from the TSVs that
topics-l2r.sh and topics-l2r-budget.sh write (run from doc/examples)."""
import collections
import importlib.util
import os


def rows(path):
    with open(path) as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#")]
    return lines[0], lines[1:]


def curves(path, skip=0):
    head, body = rows(path)
    c = collections.OrderedDict()
    for r in body:
        c.setdefault(tuple(r[:skip + 1]), {})[int(r[skip + 1])] = float(r[skip + 2])
    return c


def cross(c, sizes, upto, part="cross"):
    cv = curves(f"topics-l2r-{part}-{c}.tsv")
    print(f"| method | " + " | ".join(f"k={k}" for k in sizes) + f" | mean 1..{upto} |")
    print("| --- |" + " ---: |" * (len(sizes) + 1))
    for (m,), v in cv.items():
        mean = sum(v[k] for k in range(1, upto + 1)) / upto
        print(f"| {m} | " + " | ".join(f"{v[k]:.3f}" for k in sizes) + f" | {mean:.3f} |")
    print()


def halves():
    cv = curves("topics-l2r-halves.tsv", skip=2)
    print("| collection | tested on | method | mean tau over every size | k=5 | k=10 |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for (c, h, m), v in cv.items():
        n = max(v)
        print(f"| {c} | half {h} ({n} topics) | {m} | {sum(v.values()) / n:.3f} | {v[5]:.3f} | {v[10]:.3f} |")
    print()


def ablation():
    head, body = rows("topics-l2r-ablation.tsv")
    base = float(body[0][2])
    print("| left out | features kept | mean tau, sizes 1..93 | change |")
    print("| --- | ---: | ---: | ---: |")
    for r in body:
        print(f"| {r[0]} | {r[1]} | {float(r[2]):.4f} | {100 * (float(r[2]) - base) / base:+.1f} % |")
    print()


def budget(c):
    head, body = rows(f"topics-l2r-budget-{c}.tsv")
    hours = sorted({float(r[1]) for r in body})
    methods = list(collections.OrderedDict.fromkeys(r[2] for r in body))
    for e in ("off", "on"):
        print(f"Judging error {e}" + (" (accuracy 0.92 at TDC 76 s)" if e == "on" else "") + ": tau_b (mean topics judged)")
        print()
        print("| method | depth | " + " | ".join(f"{h:g} h" for h in hours) + " |")
        print("| --- | ---: |" + " ---: |" * len(hours))
        for m in methods:
            for d in sorted({int(r[3]) for r in body}):
                cells = []
                for h in hours:
                    r = [x for x in body if x[0] == e and float(x[1]) == h and x[2] == m and int(x[3]) == d][0]
                    cells.append("NA" if r[6] == "NA" else f"{float(r[6]):.3f} ({float(r[4]):.1f})")
                print(f"| {m} | {d} | " + " | ".join(cells) + " |")
        print()


def cell(r, tau=6, x=3):
    """'tau (x*)' of a statAP row: budget_h method topics judgments judged tau sd n (tau at index tau)."""
    return "NA" if r[tau] == "NA" else f"{float(r[tau]):.3f} ({r[x]})"


def statap(c):
    head, body = rows(f"topics-l2r-statap-{c}.tsv")
    hours = sorted({float(r[1]) for r in body})
    methods = list(collections.OrderedDict.fromkeys(r[2] for r in body))
    sizes = sorted({int(r[3]) for r in body})
    for e in ("off", "on"):
        print(f"Judging error {e}" + (" (accuracy 0.92 at TDC 76 s)" if e == "on" else "")
              + ": tau_b (judgments per topic x*)")
        print()
        print("| method | topics | " + " | ".join(f"{h:g} h" for h in hours) + " |")
        print("| --- | ---: |" + " ---: |" * len(hours))
        for m in methods:
            for k in sizes:
                cells = []
                for h in hours:
                    r = [x for x in body if x[0] == e and float(x[1]) == h and x[2] == m and int(x[3]) == k][0]
                    cells.append(cell(r, 6, 4))
                print(f"| {m} | {k} | " + " | ".join(cells) + " |")
        print()



def plotter():
    """The plot function of topics-l2r-eval.py (its file name is not a module name)."""
    spec = importlib.util.spec_from_file_location("l2r_eval", "topics-l2r-eval.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.svg

def logo(c):
    head, body = rows(f"topics-l2r-logo-{c}.tsv")
    _, pooled = rows(f"topics-l2r-statap-{c}.tsv")
    hours = sorted({float(r[0]) for r in body})
    methods = list(collections.OrderedDict.fromkeys(r[1] for r in body))
    sizes = sorted({int(r[2]) for r in body})
    print("tau_b with each group left out of the pool / with every run pooled (error off, same seed)")
    print()
    print("| method | topics | " + " | ".join(f"{h:g} h: left out / pooled" for h in hours) + " |")
    print("| --- | ---: |" + " ---: |" * len(hours))
    series = []
    for m in methods:
        for k in sizes:
            cells = []
            for h in hours:
                a = [x for x in body if float(x[0]) == h and x[1] == m and int(x[2]) == k][0]
                p = [x for x in pooled if x[0] == "off" and float(x[1]) == h and x[2] == m and int(x[3]) == k]
                pa = "NA" if not p or p[0][6] == "NA" else f"{float(p[0][6]):.3f}"
                cells.append(("NA" if a[5] == "NA" else f"{float(a[5]):.3f}") + f" / {pa}")
            print(f"| {m} | {k} | " + " | ".join(cells) + " |")
        h = hours[-1]
        pts = [(int(x[2]), float(x[5])) for x in body if float(x[0]) == h and x[1] == m and x[5] != "NA"]
        series.append((f"{m} (out)", pts, False))
        pp = [(int(x[3]), float(x[6])) for x in pooled
              if x[0] == "off" and float(x[1]) == h and x[2] == m and x[6] != "NA"]
        series.append((f"{m} (pooled)", pp, True))
    print()
    plotter()(f"topics-l2r-logo-{c}.svg", f"{c}: leave one group out, {hours[-1]:g} h, TDC 76 s, Eq. 9, statAP",
              series, max(sizes), xlabel="topics (the budget split equally)", ylabel="Kendall tau_b vs MAP@100")


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    print("### Cross-collection: CLEF 2017 (L2R trained on NPL)\n")
    cross("clef", [1, 3, 5, 10, 20, 29], 29)
    print("### Cross-collection: NPL (L2R trained on CLEF 2017)\n")
    cross("npl", [1, 3, 5, 10, 20, 30, 50], 50)
    print("### Half the topics\n")
    halves()
    if os.path.exists("topics-l2r-ablation.tsv"):
        print("### Feature ablation (trained on CLEF 2017, tested on NPL)\n")
        ablation()
    for c, sizes, upto in (("clef", [1, 3, 5, 10, 20, 29], 29), ("npl", [1, 3, 5, 10, 20, 30, 50], 50)):
        if os.path.exists(f"topics-l2r-lambdamart-{c}.tsv"):
            print(f"### LambdaMART vs MART: {c}\n")
            cross(c, sizes, upto, "lambdamart")
    for c in ("npl", "clef"):
        if os.path.exists(f"topics-l2r-budget-{c}.tsv"):
            print(f"### Few deep or many shallow: {c}\n")
            budget(c)
    for c in ("npl", "clef"):
        if os.path.exists(f"topics-l2r-statap-{c}.tsv"):
            print(f"### Few deep or many shallow, statAP form: {c}\n")
            statap(c)
    for c in ("npl", "clef"):
        if os.path.exists(f"topics-l2r-logo-{c}.tsv"):
            print(f"### Leave one group out: {c}\n")
            logo(c)
