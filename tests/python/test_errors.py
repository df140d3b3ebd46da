"""Bad input raises a qrelkit.Error (or TypeError/ValueError for wrong Python types)
carrying the library's message; the fuzz corpora replayed through the binding's
readers never crash the interpreter."""
import os

import pytest

import qrelkit
from conftest import SOURCE

QRELS = {"q1": {"d1": 1, "d2": 0}}
RUN = {"q1": {"d1": 1.0, "d2": 0.5}}


def test_exception_classes():
    assert issubclass(qrelkit.UsageError, qrelkit.Error) and issubclass(qrelkit.UsageError, ValueError)
    assert issubclass(qrelkit.InputError, ValueError)
    assert issubclass(qrelkit.IOError, OSError)


def test_bad_measures():
    with pytest.raises(qrelkit.UsageError, match="unknown measure 'nope'") as e:
        qrelkit.evaluate(QRELS, RUN, ["nope"])
    assert e.value.code == -1
    with pytest.raises(qrelkit.UsageError, match="5x"):
        qrelkit.evaluate(QRELS, RUN, ["P.5x"])
    with pytest.raises(qrelkit.UsageError, match="rel 'x' is not an integer"):
        qrelkit.evaluate(QRELS, RUN, ["P(rel=x)@5"])
    with pytest.raises(TypeError):
        qrelkit.evaluate(QRELS, RUN, [5])


def test_bad_files(tmp_path):
    with pytest.raises(qrelkit.IOError, match="cannot open"):
        qrelkit.read_run(tmp_path / "missing.run")
    bad = tmp_path / "bad.run"
    bad.write_text("q1 Q0 d1 1 1.0 r\nq1 Q0 d2 2 abc r\n")
    with pytest.raises(qrelkit.InputError) as e:
        qrelkit.read_run(bad)
    assert e.value.line == 2 and e.value.file == str(bad) and str(e.value).startswith("'%s' line 2" % bad)
    badq = tmp_path / "bad.qrels"
    badq.write_text("q1 0 d1 1\nq1 0 d1 0\n")
    with pytest.raises(qrelkit.InputError, match="line 2"):
        qrelkit.read_qrels(badq)
    assert len(qrelkit.read_qrels(badq, dedup="first")) == 1
    with pytest.raises(qrelkit.UsageError, match="unknown relevance format"):
        qrelkit.read_qrels(badq, format="nope")


def test_bad_python_values():
    with pytest.raises(TypeError, match="relevance must be an integer"):
        qrelkit.qrels({"q1": {"d1": "yes"}})
    with pytest.raises(TypeError, match="relevance must be an integer, not 1.5"):
        qrelkit.qrels({"q1": {"d1": 1.5}})
    assert qrelkit.qrels({"q1": {"d1": 2.0}}).to_dict() == {"q1": {"d1": 2}}
    with pytest.raises(TypeError, match="query id must be str"):
        qrelkit.qrels({1: {"d1": 1}})
    with pytest.raises(TypeError, match="score must be a number"):
        qrelkit.run({"q1": {"d1": "high"}})
    with pytest.raises(TypeError):
        qrelkit.run({"q1": [("d1", 1.0)]})
    with pytest.raises(ValueError, match="NUL"):
        qrelkit.run({"q1": {"d\0": 1.0}})
    with pytest.raises(qrelkit.InputError):
        qrelkit.evaluate(QRELS, {"q9": {"d1": 1.0}}, ["map"])  # no topic in common
    with pytest.raises(TypeError):
        qrelkit.evaluate(QRELS, [RUN, 3], ["map"])
    # as in run files, a score must be finite
    with pytest.raises(qrelkit.InputError, match="query 'q1' doc 'd1': score nan is not a finite number"):
        qrelkit.run({"q1": {"d1": float("nan")}})
    with pytest.raises(qrelkit.InputError, match="inf"):
        qrelkit.run({"q1": {"d1": float("inf")}})


def corpus(name):
    d = os.path.join(SOURCE, "tests", "fuzz", "corpus", name)
    if not os.path.isdir(d):
        pytest.skip("no fuzz corpus %s" % d)
    return [os.path.join(d, f) for f in sorted(os.listdir(d))]


def replay(fn):
    """fn() either returns or raises qrelkit.Error (or ValueError/TypeError for
    text the binding refuses before the library sees it)."""
    try:
        fn()
    except (qrelkit.Error, ValueError, UnicodeDecodeError) as e:
        assert str(e)


@pytest.mark.parametrize("name,fmt", [("fuzz_qrels", "qrels"), ("fuzz_qrels", "qrels_jg"),
                                      ("fuzz_prefs", "prefs"), ("fuzz_prefs", "qrels_prefs")])
def test_fuzz_qrels_readers(name, fmt):
    for path in corpus(name):
        replay(lambda: qrelkit.read_qrels(path, format=fmt).to_dict())


def test_fuzz_run_reader():
    for path in corpus("fuzz_run"):
        replay(lambda: qrelkit.read_run(path).to_dict())


def test_fuzz_measure_specs():
    for path in corpus("fuzz_measure_spec"):
        with open(path, "rb") as f:
            lines = [l.decode("utf-8", "replace").replace("\0", "") for l in f.read().split(b"\n") if l]
        replay(lambda: qrelkit.evaluate(QRELS, RUN, lines or ["map"]))
        for line in lines:
            replay(lambda: qrelkit.measure_names([line]))


def test_fuzz_eval_end_to_end(tmp_path):
    # the harness's input: a flags byte, then qrels "====" run
    for path in corpus("fuzz_eval"):
        with open(path, "rb") as f:
            data = f.read()
        if not data:
            continue
        flags, body = data[0], data[1:]
        qtext, _, rtext = body.partition(b"====")
        (tmp_path / "q").write_bytes(qtext)
        (tmp_path / "r").write_bytes(rtext)

        def go():
            qrelkit.evaluate(tmp_path / "q", tmp_path / "r", ["all_trec"], per_query=True,
                             summary=True, complete=bool(flags & 1), judged_only=bool(flags & 2),
                             dedup="first" if flags & 4 else "error",
                             max_ret=2 if flags & 8 else None)
        replay(go)


def test_fuzz_estimate_readers(tmp_path):
    for path in corpus("fuzz_estimate"):
        with open(path, "rb") as f:
            judg, _, rtext = f.read().partition(b"====")
        (tmp_path / "j").write_bytes(judg)
        (tmp_path / "r").write_bytes(rtext)
        for kind in ("prels", "strata"):
            replay(lambda: qrelkit.estimate(tmp_path / "r", **{kind: tmp_path / "j"}))
