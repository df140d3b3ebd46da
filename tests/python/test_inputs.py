"""Qrels and runs from files (plain, gzip), dicts (pytrec_eval's shapes) and pandas
DataFrames (ir_measures' column names) give the same objects and the same values;
the values of a small example are derived by hand."""
import gzip
import math
import shutil

import pytest

import qrelkit

QRELS = {"q1": {"d1": 1, "d2": 0, "d3": 1, "d9": 2}, "q2": {"d1": 0, "d4": 2}}
RUN = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d4": 0.5, "d5": 0.9}}


def write_files(tmp_path):
    q = tmp_path / "qrels.txt"
    r = tmp_path / "run.txt"
    q.write_text("".join("%s 0 %s %d\n" % (qid, d, rel) for qid, j in QRELS.items()
                         for d, rel in j.items()))
    lines = []
    for qid, scores in RUN.items():
        for rank, (d, s) in enumerate(sorted(scores.items(), key=lambda x: -x[1])):
            lines.append("%s Q0 %s %d %g hand\n" % (qid, d, rank + 1, s))
    r.write_text("".join(lines))
    return q, r


def test_hand_values():
    res = qrelkit.evaluate(QRELS, RUN, ["AP", "P@2", "RR", "nDCG@10", "P(rel=2)@2", "num_rel"],
                           per_query=True)
    # q1: relevant d1, d3, d9 (3); ranked d1 (rel), d2, d3 (rel): AP = (1 + 2/3) / 3
    assert res["q1"]["AP"] == pytest.approx((1 + 2 / 3) / 3)
    assert res["q1"]["P@2"] == pytest.approx(0.5)
    assert res["q1"]["RR"] == pytest.approx(1.0)
    # gains 1, 0, 1 against the ideal 2, 1, 1
    dcg = 1 + 1 / math.log2(4)
    idcg = 2 + 1 / math.log2(3) + 1 / math.log2(4)
    assert res["q1"]["nDCG@10"] == pytest.approx(dcg / idcg)
    assert res["q1"]["num_rel"] == 3 and isinstance(res["q1"]["num_rel"], int)
    # q2: d5 (0.9, unjudged) then d4 (grade 2): AP = (1/2) / 1, RR = 1/2
    assert res["q2"]["AP"] == pytest.approx(0.5)
    assert res["q2"]["RR"] == pytest.approx(0.5)
    # at level 2 only d9 (q1) and d4 (q2) are relevant
    assert res["q1"]["P(rel=2)@2"] == pytest.approx(0.0)
    assert res["q2"]["P(rel=2)@2"] == pytest.approx(0.5)
    summary = qrelkit.evaluate(QRELS, RUN, ["AP", "P(rel=2)@2"])
    assert summary["AP"] == pytest.approx(((1 + 2 / 3) / 3 + 0.5) / 2)
    assert summary["P(rel=2)@2"] == pytest.approx(0.25)


def test_rel_level_measure_equals_rel_level_option():
    a = qrelkit.evaluate(QRELS, RUN, ["P(rel=2)@2", "AP(rel=2)"])
    b = qrelkit.evaluate(QRELS, RUN, ["P@2", "AP"], rel_level=2)
    assert a["P(rel=2)@2"] == b["P@2"] and a["AP(rel=2)"] == b["AP"]


def test_files_dicts_frames_agree(tmp_path):
    qf, rf = write_files(tmp_path)
    qgz = tmp_path / "qrels.txt.gz"
    rgz = tmp_path / "run.gz"
    for src, dst in ((qf, qgz), (rf, rgz)):
        with open(src, "rb") as f, gzip.open(dst, "wb") as g:
            shutil.copyfileobj(f, g)
    measures = ["official", "nDCG@10", "P(rel=2)@5"]
    want = qrelkit.evaluate(QRELS, RUN, measures, per_query=True, summary=True)
    for q, r in ((qf, rf), (str(qgz), str(rgz)), (qrelkit.read_qrels(qf), qrelkit.read_run(rf))):
        got = qrelkit.evaluate(q, r, measures, per_query=True, summary=True)
        got["all"].pop("runid")
        w = dict(want)
        w["all"] = {k: v for k, v in want["all"].items() if k != "runid"}
        assert got == w
    assert qrelkit.read_qrels(qgz).to_dict() == QRELS
    assert qrelkit.read_run(rgz).to_dict() == RUN


def test_dataframes():
    pd = pytest.importorskip("pandas")
    qdf = pd.DataFrame([(q, d, r) for q, j in QRELS.items() for d, r in j.items()],
                       columns=["query_id", "doc_id", "relevance"])
    rdf = pd.DataFrame([(q, d, s) for q, j in RUN.items() for d, s in j.items()],
                       columns=["query_id", "doc_id", "score"])
    rdf = rdf.sample(frac=1, random_state=3)  # row order does not matter
    measures = ["AP", "nDCG@10", "P_10"]
    assert qrelkit.evaluate(qdf, rdf, measures, per_query=True) == \
        qrelkit.evaluate(QRELS, RUN, measures, per_query=True)
    assert qrelkit.qrels(qdf).to_dict() == QRELS
    # integer query ids are read as text
    qdf2 = qdf.assign(query_id=qdf.query_id.str[1:].astype(int))
    assert sorted(qrelkit.qrels(qdf2).topics()) == ["1", "2"]
    frame = qrelkit.evaluate(QRELS, {"a": RUN, "b": RUN}, ["AP"], per_query=True, as_frame=True)
    assert list(frame.columns) == ["run_id", "query_id", "measure", "value"]
    assert len(frame) == 4
    with pytest.raises(ValueError, match="relevance"):
        qrelkit.qrels(qdf.rename(columns={"relevance": "rel"}))


def test_many_runs_threads():
    runs = {"r%d" % i: {q: {d: s * (i + 1) % 7 for d, s in j.items()} for q, j in RUN.items()}
            for i in range(9)}
    one = qrelkit.evaluate(QRELS, runs, ["AP", "P@2"], threads=1)
    as_list = qrelkit.evaluate(QRELS, list(runs.values()), ["AP", "P@2"], threads=2)
    assert as_list == list(one.values())
    four = qrelkit.evaluate(QRELS, runs, ["AP", "P@2"], threads=4)
    assert one == four and list(one) == list(runs)
    single = {n: qrelkit.evaluate(QRELS, r, ["AP", "P@2"]) for n, r in runs.items()}
    assert single == one


def test_run_objects():
    r = qrelkit.run(RUN, name="x")
    assert r.name == "x" and len(r) == 5 and r.topics() == ["q1", "q2"]
    r.name = "y"
    assert qrelkit.evaluate(QRELS, r, ["runid"])["runid"] == "y"
    q = qrelkit.qrels(QRELS)
    assert len(q) == 6 and q.format == "qrels" and q.topics() == ["q1", "q2"]


def test_measure_names():
    assert qrelkit.measure_names(["map", "P.5,10", "nDCG@10", "P(rel=2)@5"]) == \
        ["map", "P_5", "P_10", "nDCG@10", "P(rel=2)@5"]


def test_every_listed_measure_is_computed():
    # trec_eval's -m keeps the first parameters of a measure (-m P.1 -m P.2 is P_1 only);
    # a Python list asks for each item: P@1 = 1 (d1 relevant), P@2 = 1/2
    res = qrelkit.evaluate(QRELS, RUN, ["P@1", "P@2", "P.1,2", "official", "P@7"], per_query=True)
    assert res["q1"]["P@1"] == 1.0 and res["q1"]["P@2"] == 0.5
    assert res["q1"]["P_1"] == 1.0 and res["q1"]["P_2"] == 0.5
    assert res["q1"]["P_1000"] == pytest.approx(2 / 1000)  # official's default cutoffs stay
    assert res["q1"]["P@7"] == pytest.approx(2 / 7)
    names = qrelkit.measure_names(["P@1", "P@2", "P.1,2", "official", "P@7"])
    assert len(names) == len(set(names)) and {"P@1", "P@2", "P_1", "P_2", "P@7", "map"} <= set(names)
