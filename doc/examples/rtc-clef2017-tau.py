#!/usr/bin/env python3
"""Kendall's tau and W by pair group from `qrelkit confidence --simulate --pairs-out`
files (see rtc-clef2017-tau.md).

    rtc-clef2017-tau.py PAIRS [PAIRS2]

Per method, over the trials of PAIRS: the mean, standard deviation and standard error
of tau_b (the experiment's statistic; ties in E[dMAP] or in the true dMAP leave a pair
out of the numerator and the matching denominator factor), of tau_a (ties count 0, the
denominator is always 45) and of tau_b over two subsets of the pairs (the pairs of two
new runs; the pairs with one or two judged runs); the paired differences between the
methods; W and accuracy by pair group with the standard error of W (clustered by trial)
and W without the wrong predictions made with confidence >= 0.95. With PAIRS2 (the same
trials with another option), the paired difference of each method's tau_b between the
two files. Standard library only.

E_dMAP and true_dMAP are printed with 6 decimals in the pairs file, so differences below
5e-7 read as ties here: the tau_b means can differ from the experiment's in the third
decimal.
"""
import collections
import math
import sys

METHODS = ("MTC", "RTC", "IP")


def load(path):
    """(method, trial) -> list of (originals, E_dMAP, true_dMAP, confidence, correct)."""
    out = collections.defaultdict(list)
    with open(path) as fh:
        header = next(fh).rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        for line in fh:
            c = line.rstrip("\n").split("\t")
            out[(c[col["method"]], int(c[col["trial"]]))].append(
                (int(c[col["originals"]]), float(c[col["E_dMAP"]]), float(c[col["true_dMAP"]]),
                 float(c[col["confidence"]]), int(c[col["correct"]])))
    return out


def tau(pairs, kind="b"):
    n = len(pairs)
    if n == 0:
        return float("nan")
    conc = sum(e * t > 0 for _, e, t, _, _ in pairs)
    disc = sum(e * t < 0 for _, e, t, _, _ in pairs)
    if kind == "a":
        return (conc - disc) / n
    tie_e = sum(e == 0 for _, e, _, _, _ in pairs)
    tie_t = sum(t == 0 for _, _, t, _, _ in pairs)
    den = math.sqrt((n - tie_e) * (n - tie_t))
    return (conc - disc) / den if den > 0 else 0.0


def summary(xs):
    xs = [x for x in xs if x == x]
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else float("nan")
    return m, sd, sd / math.sqrt(n), n


def w_of(conf, y):
    w = (1.0 if y else -100.0) if conf >= 1 else (y - conf) / (1 - conf)
    return max(w, -100.0)


STATS = (
    ("tau_b", lambda ps: tau(ps)),
    ("tau_a", lambda ps: tau(ps, "a")),
    ("tau_b_new_pairs", lambda ps: tau([p for p in ps if p[0] == 0])),
    ("tau_b_judged_pairs", lambda ps: tau([p for p in ps if p[0] > 0])),
)


def per_trial(data, method, stat):
    trials = sorted(t for (m, t) in data if m == method)
    return [stat(data[(method, t)]) for t in trials]


def main(argv):
    data = load(argv[1])
    print("method\tstatistic\tmean\tsd\tse\ttrials")
    vals = {}
    for m in METHODS:
        for name, fn in STATS:
            vals[(m, name)] = per_trial(data, m, fn)
            mean, sd, se, n = summary(vals[(m, name)])
            print(f"{m}\t{name}\t{mean:.3f}\t{sd:.3f}\t{se:.3f}\t{n}")
    print("\ncomparison\tstatistic\tmean_difference\tsd\tse\tt")
    for a, b in (("RTC", "IP"), ("RTC", "MTC"), ("IP", "MTC")):
        for name, _ in STATS:
            d = [x - y for x, y in zip(vals[(a, name)], vals[(b, name)]) if x == x and y == y]
            mean, sd, se, _ = summary(d)
            print(f"{a}-{b}\t{name}\t{mean:.3f}\t{sd:.3f}\t{se:.3f}\t{mean / se if se > 0 else float('nan'):.2f}")
    print("\nmethod\toriginals\tpairs\taccuracy\tW\tse_W\tconfident_wrong\tW_without_them")
    for m in METHODS:
        for g in (2, 1, 0):
            by_trial = collections.defaultdict(list)
            for (mm, t), ps in data.items():
                if mm == m:
                    by_trial[t] += [p for p in ps if p[0] == g]
            ps = [p for v in by_trial.values() for p in v]
            n = len(ps)
            w = sum(w_of(p[3], p[4]) for p in ps) / n
            k = len(by_trial)
            # the pooled mean's standard error with the trials as clusters
            se = math.sqrt(k / (k - 1) * sum((sum(w_of(p[3], p[4]) for p in v) - w * len(v)) ** 2
                                             for v in by_trial.values())) / n
            cw = [p for p in ps if p[3] >= 0.95 and not p[4]]
            rest = [w_of(p[3], p[4]) for p in ps if not (p[3] >= 0.95 and not p[4])]
            print(f"{m}\t{g}\t{n}\t{sum(p[4] for p in ps) / n:.3f}\t{w:.3f}\t{se:.3f}\t{len(cw)}\t"
                  f"{sum(rest) / len(rest):.3f}")
    if len(argv) > 2:
        other = load(argv[2])
        print(f"\nmethod\ttau_b_this\ttau_b_other\tmean_difference\tse\tt\t(other = {argv[2].split('/')[-1]})")
        for m in METHODS:
            x = per_trial(data, m, tau)
            y = per_trial(other, m, tau)
            d = [a - b for a, b in zip(x, y)]
            mean, sd, se, _ = summary(d)
            print(f"{m}\t{summary(x)[0]:.3f}\t{summary(y)[0]:.3f}\t{mean:.3f}\t{se:.3f}\t"
                  f"{mean / se if se > 0 else float('nan'):.2f}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: rtc-clef2017-tau.py PAIRS [PAIRS2]")
    main(sys.argv)
