"""The binding's values equal trec_eval's (the suite's oracle outputs) and the CLI's
(`qrelkit trec_eval`) on ../shared/data: the trec_eval test suite and the CLEF 2017
TAR runs."""
import csv
import os

import pytest

import qrelkit
from conftest import binding_lines, trec_lines


def parse_options(opts):
    """trec_eval's options of a MANIFEST row -> (measures, evaluate keywords, per_query)."""
    toks = opts.split()
    measures, kw, per_query = [], {}, False
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "-m":
            measures.append(toks[i + 1])
            i += 1
        elif t.startswith("-m"):
            measures.append(t[2:])
        elif t == "-q":
            per_query = True
        elif t == "-c":
            kw["complete"] = True
        elif t.startswith("-M"):
            kw["max_ret"] = int(t[2:])
        elif t.startswith("-l"):
            kw["rel_level"] = int(t[2:])
        elif t == "-R":
            kw["format"] = toks[i + 1]
            i += 1
        else:
            return None
        i += 1
    return measures or ["official"], kw, per_query


def suite_rows(data):
    with open(os.path.join(data, "trec_eval-suite", "MANIFEST.tsv")) as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.mark.parametrize("row_id", range(1, 16))
def test_trec_eval_suite(data, cli, row_id):
    row = next(r for r in suite_rows(data) if r["id"] == str(row_id))
    parsed = parse_options(row["options"])
    if parsed is None:
        pytest.skip("options %r (z-scores) are not evaluate() keywords" % row["options"])
    measures, kw, per_query = parsed
    d = os.path.join(data, "trec_eval-suite")
    fmt = kw.pop("format", "qrels")
    q = qrelkit.read_qrels(os.path.join(d, row["qrels"]), format=fmt)
    res = qrelkit.evaluate(q, os.path.join(d, row["run"]), measures, per_query=True, summary=True, **kw)
    got = binding_lines(res, per_query)
    with open(os.path.join(d, row["expected_output"])) as f:
        want = trec_lines(f.read())
    assert_same_values(got, want)
    rc, out = cli(["trec_eval"] + row["options"].split() + [os.path.join(d, row["qrels"]),
                                                             os.path.join(d, row["run"])])
    assert rc == 0
    assert_same_values(got, trec_lines(out))


def assert_same_values(got, want):
    """got has every line of want. It may have more only where the list gives a
    measure parameters after a nickname ('-m all_trec -m relstring.20'): trec_eval
    computes relstring_20 alone, the binding computes every item of the list, so it
    also has all_trec's relstring_10; those extra values are of a measure want has,
    under value names want lacks."""
    assert want <= got, sorted(want - got)[:5]
    want_names = {w[0] for w in want}
    want_measures = {w[0].split("_")[0] for w in want}
    for m, _, _ in got - want:
        assert m not in want_names and m.split("_")[0] in want_measures, m


def clef_runs(data):
    d = os.path.join(data, "clef-tar-2017", "runs")
    return sorted(os.path.join(d, f) for f in os.listdir(d))


def test_clef_runs_equal_cli(data, cli):
    qrels_path = os.path.join(data, "clef-tar-2017", "qrel_abs_test.txt")
    runs = clef_runs(data)
    assert len(runs) == 16
    q = qrelkit.read_qrels(qrels_path)
    names = [os.path.basename(r) for r in runs]
    # all 16 runs in one call, on several threads; one run repeats docnos (trec_eval
    # rejects it), so both sides keep the first copy
    res = qrelkit.evaluate(q, dict(zip(names, runs)), ["all_trec"], per_query=True, summary=True,
                           complete=True, dedup="first")
    for name, path in zip(names, runs):
        rc, out = cli(["eval", "-q", "-c", "-m", "all_trec", "--dedup", "first", qrels_path, path])
        assert rc == 0
        # the binding keys runs by the name given; the CLI prints the file's run id
        want = {x for x in trec_lines(out) if x[0] != "runid"}
        got = {x for x in binding_lines(res[name], True) if x[0] != "runid"}
        assert got == want, name


def test_clef_rejected_run_raises_cli_message(data, cli):
    d = os.path.join(data, "clef-tar-2017")
    bad = os.path.join(d, "runs", "UOS-sis.TMAL30Q_BM25.run")
    with pytest.raises(qrelkit.InputError) as e:
        qrelkit.evaluate(os.path.join(d, "qrel_abs_test.txt"), bad, ["map"])
    assert e.value.line == 333 and e.value.file == bad
    rc, _ = cli(["trec_eval", "-m", "map", os.path.join(d, "qrel_abs_test.txt"), bad])
    assert rc == 2
    assert str(e.value).startswith("'%s' line 333: docno '9874007' appears twice" % bad)


def test_clef_golden(data):
    d = os.path.join(data, "clef-tar-2017")
    q = qrelkit.read_qrels(os.path.join(d, "qrel_abs_test.txt"))
    golden = sorted(f for f in os.listdir(os.path.join(d, "golden")) if f.endswith(".all_trec.q.txt"))
    assert golden
    for g in golden:
        run = os.path.join(d, "runs", g[:-len(".all_trec.q.txt")] + ".run")
        res = qrelkit.evaluate(q, run, ["all_trec"], per_query=True, summary=True, complete=True)
        with open(os.path.join(d, "golden", g)) as f:
            assert binding_lines(res, True) == trec_lines(f.read()), g


def test_clef_threads_agree(data):
    d = os.path.join(data, "clef-tar-2017")
    q = qrelkit.read_qrels(os.path.join(d, "qrel_abs_test.txt"))
    runs = [qrelkit.read_run(p) for p in clef_runs(data)]
    m = ["AP", "nDCG@10", "P@10"]
    a = qrelkit.evaluate(q, runs, m, threads=1, per_query=True, dedup="first")
    b = qrelkit.evaluate(q, runs, m, threads=3, per_query=True, dedup="first")
    assert a == b


def test_statap_xinfap_oracles(data):
    d = os.path.join(data, "estimators")
    run = qrelkit.read_run(os.path.join(d, "runs", "AMC.amc_run.run"))
    st = qrelkit.estimate(run, prels=os.path.join(d, "qrels", "statap.prels"))
    with open(os.path.join(d, "golden", "AMC.amc_run.statap.txt")) as f:
        text = f.read()
    want = float(text.split("statMAP_on_valid_topics=")[1].split()[0])
    assert st["statAP"] == pytest.approx(want, rel=1e-12)
    xi = qrelkit.estimate(run, strata=os.path.join(d, "qrels", "xinfap.qrels"), per_query=True)
    with open(os.path.join(d, "golden", "AMC.amc_run.sample_eval.txt")) as f:
        lines = trec_lines(f.read())
    for m, qid, v in lines:
        if m == "infAP":
            assert "%.4f" % xi[qid]["infAP"] == v, qid
