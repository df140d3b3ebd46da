"""The GIL is released while the library works: a Python thread keeps running while
another thread's evaluate() is in C, and evaluate() may be called from several
threads at once."""
import glob
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import qrelkit


def clef(data):
    d = os.path.join(data, "clef-tar-2017")
    q = qrelkit.read_qrels(os.path.join(d, "qrel_abs_test.txt"))
    runs = [qrelkit.read_run(p) for p in sorted(glob.glob(os.path.join(d, "runs", "*.run")))]
    return q, runs


def test_other_threads_run_during_evaluate(data):
    q, runs = clef(data)
    runs = runs * 4  # long enough to see: 64 evaluations on one thread
    done = threading.Event()
    took = []

    def work():
        t = time.perf_counter()
        qrelkit.evaluate(q, runs, ["all_trec"], threads=1, complete=True, dedup="first")
        took.append(time.perf_counter() - t)
        done.set()

    th = threading.Thread(target=work)
    ticks, gap, last = 0, 0.0, time.perf_counter()
    th.start()
    while not done.is_set():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
        ticks += 1
    th.join()
    # with the GIL held for the whole C call, this loop would stop for all of it
    assert took[0] > 0.2, took
    assert gap < took[0] / 2, (gap, took[0])
    assert ticks > 1000


def test_concurrent_calls_agree(data):
    q, runs = clef(data)
    want = qrelkit.evaluate(q, runs, ["AP", "nDCG@10"], threads=1, dedup="first")
    with ThreadPoolExecutor(max_workers=4) as ex:
        got = list(ex.map(lambda _: qrelkit.evaluate(q, runs, ["AP", "nDCG@10"], threads=2,
                                                     dedup="first"), range(8)))
    assert all(g == want for g in got)
