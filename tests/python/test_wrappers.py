"""compare, agreement, estimate (confidence), pool and aggregate: values derived by
hand, and equal to the CLI's where the CLI computes the same thing."""
import json
import math
import os

import pytest

import qrelkit

SCORES = {"a": {"t1": 0.5, "t2": 0.6, "t3": 0.7}, "b": {"t1": 0.4, "t2": 0.4, "t3": 0.5}}


def test_compare_t_test_by_hand():
    (pair,) = qrelkit.compare(SCORES, test="t")
    # differences 0.1, 0.2, 0.2: mean 1/6, sd 1/sqrt(300), t = (1/6) / (sd / sqrt(3)) = 5
    assert pair["a"] == "a" and pair["b"] == "b"
    assert pair["delta"] == pytest.approx(1 / 6)
    assert pair["statistic"] == pytest.approx(5.0)
    # two-sided p of t with 2 degrees of freedom: 1 - t / sqrt(t^2 + 2)
    assert pair["p"] == pytest.approx(1 - 5 / math.sqrt(27))
    assert pair["significant"] and pair["n"] == 3
    assert pair["mean_a"] == pytest.approx(0.6) and pair["mean_b"] == pytest.approx(13 / 30)


def test_compare_sign_test_and_per_query_results():
    # sign test: 3 of 3 positive differences, two-sided p = 2 / 2^3
    (pair,) = qrelkit.compare(SCORES, test="sign")
    assert pair["p"] == pytest.approx(0.25)
    per_query = {r: {t: {"AP": v, "P_10": 0.0} for t, v in s.items()} for r, s in SCORES.items()}
    per_query["a"]["all"] = {"AP": 0.6}
    (pair2,) = qrelkit.compare(per_query, measure="AP", test="sign")
    assert pair2["p"] == pair["p"]
    with pytest.raises(ValueError, match="measure="):
        qrelkit.compare(per_query)
    with pytest.raises(qrelkit.UsageError, match="unknown test 'z'"):
        qrelkit.compare(SCORES, test="z")


def test_agreement_by_hand():
    truth = {"r1": 0.4, "r2": 0.3, "r3": 0.2, "r4": 0.1}
    est = {"r1": 0.4, "r2": 0.2, "r3": 0.3, "r4": 0.1}
    ag = qrelkit.agreement(truth, est)
    # one swapped pair of six: tau = (5 - 1) / 6
    assert ag["tau_a"] == pytest.approx(4 / 6) and ag["swapped_pairs"] == 1
    assert ag["rmse"] == pytest.approx(math.sqrt(0.02 / 4))


def test_pool_depth_by_hand():
    a = qrelkit.run({"t1": {"d1": 3, "d2": 2, "d3": 1}}, name="a")
    b = qrelkit.run({"t1": {"d4": 3, "d1": 2, "d5": 1}}, name="b")
    picks = qrelkit.pool([a, b], "depth", depth=2, batch=10)
    # the top 2 of each run: d1, d2 and d4, d1
    assert sorted(p[1] for p in picks) == ["d1", "d2", "d4"]
    judged = qrelkit.qrels({"t1": {"d1": 1}})
    picks = qrelkit.pool([a, b], "depth", depth=2, batch=10, qrels=judged)
    assert sorted(p[1] for p in picks) == ["d2", "d4"]
    with pytest.raises(qrelkit.UsageError, match="unknown method"):
        qrelkit.pool([a, b], "nope")


def test_aggregate_majority_vote_by_hand():
    labels = [("t1", "w1", "1"), ("t1", "w2", "1"), ("t1", "w3", "0"),
              ("t2", "w1", "0"), ("t2", "w2", "0"), ("t2", "w3", "1")]
    res = qrelkit.aggregate(labels, "mv")
    assert res["labels"] == {"t1": "1", "t2": "0"}
    assert res["posteriors"]["t1"]["1"] == pytest.approx(2 / 3)
    ds = qrelkit.aggregate(labels, "ds")
    assert set(ds["labels"]) == {"t1", "t2"}
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(labels, columns=["task", "worker", "label"])
    assert qrelkit.aggregate(df, "mv")["labels"] == res["labels"]


def test_confidence_equals_cli(data, cli, tmp_path):
    d = os.path.join(data, "clef-tar-2017")
    qrels_path = os.path.join(d, "qrel_abs_test.txt")
    runs = [os.path.join(d, "runs", f) for f in ("ECNU-run2.run", "QUT-result_bool_es_test.run")]
    res = qrelkit.estimate(runs, qrels=qrels_path, model="mtc", depth=20)
    rc, out = cli(["confidence", "--depth", "20", "--format", "json", qrels_path] + runs)
    assert rc == 0, out
    doc = json.loads(out)
    assert res["runs"] == [r["run"] for r in doc["runs"]]
    assert res["emap"] == pytest.approx([r["emap"] for r in doc["runs"]], rel=1e-12)
    assert res["vmap"] == pytest.approx([r["var"] for r in doc["runs"]], rel=1e-12, abs=1e-300)
    (pair,) = doc["pairs"]
    # run-major n x n matrices: pair (a, b) = (0, 1) is entry 1
    assert res["e_dmap"][1] == pytest.approx(pair["e_dmap"], rel=1e-12)
    assert res["p_less"][1] == pytest.approx(pair["p_a_below_b"], rel=1e-9)


def test_estimate_many_runs_keyed(data):
    d = os.path.join(data, "estimators")
    runs = {n: os.path.join(d, "runs", n + ".run") for n in ("AMC.amc_run", "ECNU.run2")}
    res = qrelkit.estimate(runs, prels=os.path.join(d, "qrels", "statap.prels"))
    assert set(res) == set(runs) and all("statAP" in v for v in res.values())
