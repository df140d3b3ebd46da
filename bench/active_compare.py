#!/usr/bin/env python3
"""Old against new active-sampling estimates (bench/active_compare.sh).

Reads two files of `seed method budget judged relevant rmse_map ...` rows
(one row per trial and budget) and prints, per budget and statistic, the
means and standard deviations of both and three two-sample p-values:
Kolmogorov-Smirnov (asymptotic Kolmogorov law with Stephens' small-sample
correction; conservative for the discrete columns), Welch's t on the means and
Brown-Forsythe (Levene on absolute deviations from the group medians) on the
spread. With 1,000 trials a side both t statistics have ~2,000 degrees of
freedom, so their p-values use the normal law. Standard library only.
"""
import math
import statistics
import sys

STATS = ["judged", "relevant", "rmse_map", "bias_map", "rmse_p10", "rmse_rprec", "tau"]
COLS = ["seed", "method", "budget", "judged", "relevant", "rmse_map", "bias_map", "rmse_p10",
        "bias_p10", "rmse_rprec", "bias_rprec", "rmse_map_sd", "tau"]


def read(path):
    rows = {}
    with open(path) as f:
        for line in f:
            v = line.rstrip("\n").split("\t")
            rec = dict(zip(COLS, v))
            for s in STATS:
                rows.setdefault((int(rec["budget"]), s), []).append(float(rec[s]))
    return rows


def ks_p(a, b):
    a, b = sorted(a), sorted(b)
    n, m = len(a), len(b)
    i = j = 0
    d = 0.0
    while i < n and j < m:
        x = min(a[i], b[j])
        while i < n and a[i] == x:
            i += 1
        while j < m and b[j] == x:
            j += 1
        d = max(d, abs(i / n - j / m))
    ne = n * m / (n + m)
    lam = (math.sqrt(ne) + 0.12 + 0.11 / math.sqrt(ne)) * d
    if lam < 1e-3:
        return 1.0
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return min(max(p, 0.0), 1.0)


def norm_two_sided(z):
    return math.erfc(abs(z) / math.sqrt(2))


def welch_p(a, b):
    va, vb = statistics.variance(a), statistics.variance(b)
    se = math.sqrt(va / len(a) + vb / len(b))
    if se == 0:
        return 1.0 if statistics.mean(a) == statistics.mean(b) else 0.0
    return norm_two_sided((statistics.mean(a) - statistics.mean(b)) / se)


def brown_forsythe_p(a, b):
    ma, mb = statistics.median(a), statistics.median(b)
    return welch_p([abs(x - ma) for x in a], [abs(x - mb) for x in b])


def main():
    old, new = read(sys.argv[1]), read(sys.argv[2])
    tests = 0
    low = []
    print("| budget | statistic | old mean (sd) | new mean (sd) | KS p | Welch t p | Brown-Forsythe p |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted(old):
        a, b = old[key], new.get(key, [])
        if len(a) < 2 or len(b) < 2:
            continue
        ps = (ks_p(a, b), welch_p(a, b), brown_forsythe_p(a, b))
        tests += 3
        low += [p for p in ps if p < 0.05]
        print("| %d | %s | %.4f (%.4f) | %.4f (%.4f) | %.3f | %.3f | %.3f |" % (
            key[0], key[1], statistics.mean(a), statistics.stdev(a), statistics.mean(b),
            statistics.stdev(b), *ps))
    n = len(next(iter(old.values())))
    print()
    print("%d trials a side, %d tests; %d below 0.05 (%.1f expected by chance), smallest p %s; "
          "Bonferroni threshold 0.05/%d = %.5f" % (n, tests, len(low), 0.05 * tests,
                                                    "%.4f" % min(low) if low else "-", tests,
                                                    0.05 / tests))


if __name__ == "__main__":
    main()
