"""Fixtures of the Python binding's tests (run by tests/python/run.sh under ctest).

QK_SHARED: ../shared (data with oracle outputs); its tests are skipped when it is
absent, and fail instead when QK_REQUIRE_SHARED=1 (CI). QK_BUILD: the build tree
whose `qrelkit` program the values are compared with."""
import os
import subprocess

import pytest

SOURCE = os.environ.get("QK_SOURCE") or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SHARED = os.environ.get("QK_SHARED") or os.path.join(os.path.dirname(SOURCE), "shared")
BUILD = os.environ.get("QK_BUILD") or os.path.join(SOURCE, "build", "default")


def _need(path):
    if os.path.exists(path):
        return path
    msg = "shared data not found: %s" % path
    if os.environ.get("QK_REQUIRE_SHARED") == "1":
        pytest.fail(msg)
    pytest.skip(msg)


@pytest.fixture(scope="session")
def data():
    """../shared/data, or skip (fail with QK_REQUIRE_SHARED=1)."""
    return _need(os.path.join(SHARED, "data"))


@pytest.fixture(scope="session")
def cli():
    """Run the qrelkit program of the build tree: cli(args) -> (exit code, stdout)."""
    exe = os.path.join(BUILD, "qrelkit")
    if not os.access(exe, os.X_OK):
        pytest.skip("no qrelkit program in %s" % BUILD)

    def run(args):
        p = subprocess.run([exe] + list(args), capture_output=True, text=True)
        return p.returncode, p.stdout

    return run


def trec_lines(text):
    """trec_eval output as a set of (measure, qid, value text)."""
    out = set()
    for line in text.splitlines():
        f = line.split()
        if len(f) == 3:
            # relstring is printed quoted; the binding gives the bare string
            v = f[2][1:-1] if f[0].startswith("relstring") and f[2].startswith("'") else f[2]
            out.add((f[0], f[1], v))
    return out


def fmt(v):
    """A binding value as trec_eval prints it (%6.4f for numbers, %ld for counts)."""
    if isinstance(v, str):
        return v
    if isinstance(v, int):
        return str(v)
    return "%.4f" % v


def binding_lines(res, per_query):
    """evaluate(..., per_query=True, summary=True) output as trec_lines() gives."""
    out = set()
    for qid, vals in res.items():
        if not per_query and qid != "all":
            continue
        for m, v in vals.items():
            out.add((m, qid, fmt(v)))
    return out
