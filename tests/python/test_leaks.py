"""No reference or memory leaks over 10,000 calls.

sys.gettotalrefcount exists only in debug builds of Python, so three release-build
measures stand in for it, each after a warm-up and a gc.collect():
  * sys.getrefcount of every object passed in (the input dicts, a key string, the
    measure list, the Qrels and Run objects) is unchanged: a missing Py_DECREF on an
    argument shows here;
  * tracemalloc's traced Python memory grows by less than 64 KiB: one leaked result
    object per call (>= 24 bytes x 10,000) would be 240 KiB;
  * the process's resident set (/proc/self/statm) grows by less than 2 MiB: a leaked
    library object per call (a run, a result: hundreds of bytes) would be several MiB.
    Not under AddressSanitizer (QK_SANITIZE=1, set by run.sh): its quarantine keeps
    freed memory resident, so the resident set grows whatever the binding does.
"""
import gc
import os
import sys
import tracemalloc

import pytest

import qrelkit

N = 10_000


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def one_round(qd, rd, key, measures, q, r, path):
    q2 = qrelkit.qrels(qd)
    r2 = qrelkit.run(rd, name="x")
    res = qrelkit.evaluate(q2, [r2, r], measures, per_query=True, summary=True, threads=2)
    assert res[0]["all"]["AP"] == res[1]["all"]["AP"]
    qrelkit.evaluate(q, r, measures)
    qrelkit.evaluate(q, path, measures)  # a file, streamed by the library
    r2.to_dict()
    q2.to_dict()
    try:
        qrelkit.evaluate(q, r, ["nope"])
    except qrelkit.UsageError:
        pass
    try:
        qrelkit.run({key: {"d": "x"}})
    except TypeError:
        pass
    qrelkit.compare({"a": {key: 0.5, "q2": 0.3, "q3": 0.1}, "b": {key: 0.2, "q2": 0.1, "q3": 0.0}})


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
def test_no_leaks_over_10000_calls(tmp_path):
    key = "q1"
    qd = {key: {"d%d" % i: i % 3 for i in range(20)}, "q2": {"d1": 1}}
    rd = {key: {"d%d" % i: float(i) for i in range(30)}, "q2": {"d1": 0.5, "d2": 0.7}}
    measures = ["AP", "nDCG@10", "P(rel=2)@5", "P.5,10", "relstring.5", "runid"]
    q = qrelkit.qrels(qd)
    r = qrelkit.run(rd)
    path = str(tmp_path / "run.txt")
    with open(path, "w") as f:
        f.writelines("%s Q0 %s 0 %r r\n" % (t, d, s) for t, ds in rd.items() for d, s in ds.items())
    watched = [qd, rd, qd[key], key, measures, q, r, path]
    for _ in range(500):
        one_round(qd, rd, key, measures, q, r, path)
    gc.collect()
    refs = [sys.getrefcount(o) for o in watched]
    tracemalloc.start()
    mem0 = tracemalloc.get_traced_memory()[0]
    rss0 = rss()
    for _ in range(N):
        one_round(qd, rd, key, measures, q, r, path)
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - mem0
    tracemalloc.stop()
    rss_grown = rss() - rss0
    assert [sys.getrefcount(o) for o in watched] == refs
    assert grown < 64 * 1024, grown
    if os.environ.get("QK_SANITIZE") != "1":
        assert rss_grown < 2 * 1024 * 1024, rss_grown
