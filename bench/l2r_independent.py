"""Part of bench/l2r-independent.sh: reads LETOR records and qrelkit's
`qrelkit-gbrt 1` models, trains scikit-learn's and XGBoost's tree learners
with the same settings on the same records, and prints one markdown table.

Usage: l2r_independent.py CASES.tsv   (in the work directory; each line:
train-name, test-name, qrelkit MART CPU s, qrelkit LambdaMART CPU s; the
files NAME.letor, TRAIN.mart and TRAIN.lmart are read from there)
"""
import sys
import time

import numpy as np
from scipy.stats import kendalltau, pearsonr
from sklearn.ensemble import GradientBoostingRegressor, HistGradientBoostingRegressor
import xgboost

NFEAT = 63
TREES, LEAVES, RATE = 50, 10, 0.1


def read_letor(path):
    """Rows of 63 features (absent ones 0), labels, qids, in file order."""
    xs, ys, qs = [], [], []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            row = np.zeros(NFEAT)
            for tok in line[2:]:
                k, v = tok.split(":", 1)
                row[int(k) - 1] = float(v)
            xs.append(row)
            ys.append(float(line[0]))
            qs.append(int(line[1].split(":", 1)[1]))
    return np.array(xs), np.array(ys), np.array(qs)


def read_model(path):
    """A qrelkit-gbrt 1 model: shrinkage and trees of nodes
    (feature, threshold, left, right) or (-1, value)."""
    with open(path) as f:
        lines = [l.split() for l in f if l.strip()]
    if lines[0] != ["qrelkit-gbrt", "1"]:
        raise SystemExit(f"{path}: not a qrelkit-gbrt 1 model")
    shrink = float.fromhex(lines[1][5])
    trees, i = [], 2
    while i < len(lines):
        n = int(lines[i][1])
        nodes = []
        for l in lines[i + 1:i + 1 + n]:
            if l[0] == "split":
                nodes.append((int(l[1]), float.fromhex(l[2]), int(l[3]), int(l[4])))
            else:
                nodes.append((-1, float.fromhex(l[1]), 0, 0))
        trees.append(nodes)
        i += 1 + n
    return shrink, trees


def predict_model(model, x):
    shrink, trees = model
    out = np.zeros(len(x))
    for nodes in trees:
        for r in range(len(x)):
            k = 0
            while nodes[k][0] >= 0:
                f, t, left, right = nodes[k]
                k = left if x[r, f] <= t else right
            out[r] += shrink * nodes[k][1]
    return out


def groups(q):
    order = np.argsort(q, kind="stable")
    qs = q[order]
    cuts = np.flatnonzero(np.diff(qs)) + 1
    return np.split(order, cuts)


def scores(y, p, q, ref):
    """RMSE, mean within-scenario tau_b, top-1 rate, Pearson r with ref."""
    taus, hits = [], []
    for g in groups(q):
        if len(g) < 2 or np.all(y[g] == y[g][0]):
            continue
        t = kendalltau(p[g], y[g]).statistic if np.ptp(p[g]) > 0 else 0.0
        taus.append(t)
        hits.append(y[g][int(np.argmax(p[g]))] == y[g].max())
    rmse = float(np.sqrt(np.mean((p - y) ** 2)))
    r = pearsonr(p, ref).statistic if ref is not None else 1.0
    return rmse, float(np.mean(taus)), float(np.mean(hits)), r


def timed(fit):
    t0 = time.process_time()
    m = fit()
    return m, time.process_time() - t0


def main(cases):
    print("| train → test | learner | RMSE | mean τ_b in a scenario | top-1 best | r with qrelkit | train CPU (s) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for line in open(cases):
        tr, te, mart_cpu, lmart_cpu = line.split()
        xtr, ytr, qtr = read_letor(tr + ".letor")
        xte, yte, qte = read_letor(te + ".letor")
        ours = predict_model(read_model(tr + ".mart"), xte)
        ours_l = predict_model(read_model(tr + ".lmart"), xte)
        rows = [("qrelkit MART", ours, None, float(mart_cpu), True)]
        gbr, c = timed(lambda: GradientBoostingRegressor(
            n_estimators=TREES, max_leaf_nodes=LEAVES, learning_rate=RATE, min_samples_leaf=1,
            subsample=1.0, random_state=0).fit(xtr, ytr))
        rows.append(("sklearn GradientBoostingRegressor", gbr.predict(xte), ours, c, True))
        hgb, c = timed(lambda: HistGradientBoostingRegressor(
            max_iter=TREES, max_leaf_nodes=LEAVES, learning_rate=RATE, min_samples_leaf=1,
            max_bins=255, l2_regularization=0.0, early_stopping=False, random_state=0).fit(xtr, ytr))
        rows.append(("sklearn HistGradientBoostingRegressor", hgb.predict(xte), ours, c, True))
        rows.append(("qrelkit LambdaMART", ours_l, None, float(lmart_cpu), False))
        order = np.argsort(qtr, kind="stable")
        xgb, c = timed(lambda: xgboost.XGBRanker(
            objective="rank:ndcg", n_estimators=TREES, learning_rate=RATE, tree_method="hist",
            grow_policy="lossguide", max_leaves=LEAVES, max_depth=0, min_child_weight=0,
            reg_lambda=0.0, max_bin=256, n_jobs=1, random_state=0).fit(
                xtr[order], ytr[order], qid=qtr[order]))
        rows.append(("XGBoost rank:ndcg (LambdaMART)", xgb.predict(xte), ours_l, c, False))
        for name, p, ref, c, reg in rows:
            rmse, tau, top, r = scores(yte, p, qte, ref)
            print(f"| {tr} → {te} | {name} | {rmse:.2f} |" if reg else f"| {tr} → {te} | {name} | — |",
                  f"{tau:.3f} | {top:.3f} | {r:.3f} | {c:.1f} |")


if __name__ == "__main__":
    main(sys.argv[1])
