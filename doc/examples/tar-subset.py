#!/usr/bin/env python3
"""Mean ± sd (ddof 1) of recall, cost, reliability, loss_er, RE per rule and
target over a subset of topics, from `qrelkit simulate tar --rows` files.

usage: tar-subset.py TOPICS ROWS.tsv [ROWS.tsv ...]   (TOPICS: comma-separated ids)
"""
import csv
import statistics
import sys


def ms(v):
    if len(v) < 2:
        return f"{v[0]:.3f} ± 0.000"
    return f"{statistics.mean(v):.3f} ± {statistics.stdev(v):.3f}"


def main():
    topics = set(sys.argv[1].split(","))
    cells = {}
    for f in sys.argv[2:]:
        with open(f, newline="") as fh:
            for r in csv.DictReader(fh, delimiter="\t"):
                if r["topic"] in topics:
                    cells.setdefault((r["rule"], r["target"]), []).append(r)
    print("| rule | target | topics | recall | cost | reliability | loss_er | RE |")
    print("| --- | --- | ---: | --- | --- | --- | --- | --- |")
    for (rule, target), rows in cells.items():
        col = lambda k: [float(r[k]) for r in rows]
        print(f"| {rule} | {target} | {len(rows)} | {ms(col('recall'))} | {ms(col('cost'))} | "
              f"{ms(col('reached'))} | {ms(col('loss_er'))} | {ms(col('RE'))} |")


if __name__ == "__main__":
    main()
