"""qrelkit: IR evaluation in Python over libqrelkit (the C library behind the `qrelkit` program).

    import qrelkit
    qrels = qrelkit.read_qrels("qrels.txt")            # or a dict / DataFrame
    run = qrelkit.read_run("run.txt")                   # or {qid: {docno: score}}
    qrelkit.evaluate(qrels, run, ["AP", "nDCG@10", "P.10"])
    # {'AP': 0.31, 'nDCG@10': 0.42, 'P_10': 0.5}

Every function maps to one call of the C library, made with the GIL released;
nothing is copied through temporary files. Library errors are raised as
qrelkit.Error subclasses whose message is the library's ('run.txt' line 17: ...).
See doc/python.md.
"""
import os
from concurrent.futures import ThreadPoolExecutor

from . import _qrelkit
from ._qrelkit import CalcError, Error, InputError, IOError, Qrels, Run, UsageError

__version__ = _qrelkit.version
__all__ = [
    "Qrels", "Run", "Error", "UsageError", "InputError", "CalcError", "IOError",
    "read_qrels", "read_run", "qrels", "run", "evaluate", "measure_names",
    "compare", "agreement", "estimate", "pool", "aggregate", "to_frame",
]


def _is_frame(obj):
    mod = type(obj).__module__ or ""
    return mod.startswith("pandas") and hasattr(obj, "columns")


def _column(df, names, what):
    for n in names:
        if n in df.columns:
            return df[n]
    raise ValueError("a %s DataFrame needs a column %s (has: %s)"
                     % (what, " or ".join(repr(n) for n in names), ", ".join(map(str, df.columns))))


def _str_list(col):
    return [str(x) for x in col.tolist()]


# ---- inputs -------------------------------------------------------------------------------
def read_qrels(path, format="qrels", dedup="error"):
    """Read a qrels file (plain or gzip). format: qrels, qrels_jg, prefs, qrels_prefs;
    dedup: 'error' (a repeated judgment is an error) or 'first'."""
    return _qrelkit.qrels_read(path, format=format, dedup=dedup)


def read_run(path, name=None):
    """Read a TREC run file (plain or gzip); its name is the run id of the last line."""
    r = _qrelkit.run_read(path)
    if name is not None:
        r.name = name
    return r


def qrels(obj, format="qrels", dedup="error"):
    """A Qrels from a Qrels, a file path, a dict {qid: {docno: rel}} (pytrec_eval's
    shape) or a pandas DataFrame with columns query_id, doc_id, relevance
    (ir_measures' names; an optional iteration column is the judgment group when
    format='qrels_jg')."""
    if isinstance(obj, Qrels):
        return obj
    if isinstance(obj, (str, bytes, os.PathLike)):
        return read_qrels(obj, format=format, dedup=dedup)
    if isinstance(obj, dict):
        return _qrelkit.qrels_from_dict(obj, dedup=dedup)
    if _is_frame(obj):
        groups = None
        if format == "qrels_jg":
            groups = _str_list(_column(obj, ("iteration",), "qrels"))
        return _qrelkit.qrels_from_columns(
            _str_list(_column(obj, ("query_id",), "qrels")),
            _str_list(_column(obj, ("doc_id",), "qrels")),
            _column(obj, ("relevance",), "qrels").tolist(), groups, dedup=dedup)
    raise TypeError("qrels must be a Qrels, a path, a dict or a DataFrame, not %s" % type(obj).__name__)


_as_qrels = qrels  # for functions whose `qrels` argument hides the function


def run(obj, name=None):
    """A Run from a Run, a file path, a dict {qid: {docno: score}} (pytrec_eval's
    shape) or a pandas DataFrame with columns query_id, doc_id, score. name
    renames it (dicts and DataFrames are called 'run' otherwise)."""
    if isinstance(obj, Run):
        if name is not None and name != obj.name:
            raise ValueError("rename a Run with run.name = %r" % name)
        return obj
    if isinstance(obj, (str, bytes, os.PathLike)):
        return read_run(obj, name)
    if isinstance(obj, dict):
        return _qrelkit.run_from_dict(obj, name=name or "run")
    if _is_frame(obj):
        return _qrelkit.run_from_columns(
            _str_list(_column(obj, ("query_id",), "run")),
            _str_list(_column(obj, ("doc_id",), "run")),
            _column(obj, ("score",), "run").tolist(), name=name or "run")
    raise TypeError("a run must be a Run, a path, a dict or a DataFrame, not %s" % type(obj).__name__)


def _is_run_like(obj):
    if isinstance(obj, (Run, str, bytes, os.PathLike)) or _is_frame(obj):
        return True
    if isinstance(obj, dict):
        # {qid: {docno: score}}: the inner values are numbers, not dicts
        for inner in obj.values():
            if not isinstance(inner, dict):
                return False
            for v in inner.values():
                return not isinstance(v, dict)
        return True
    return False


def _is_path(x):
    return isinstance(x, (str, bytes, os.PathLike))


def _runs(run_or_runs, threads, keep_paths=False):
    """(names, [Run], single): one run, a list of runs, or a dict {name: run}.
    Files are read on several threads (the readers release the GIL); with
    keep_paths, file names are passed on (as bytes) for the library to stream."""
    if keep_paths and _is_path(run_or_runs):
        return None, [os.fsencode(run_or_runs)], True
    if _is_run_like(run_or_runs):
        return None, [run(run_or_runs)], True
    if isinstance(run_or_runs, dict):
        names = [str(k) for k in run_or_runs]
        items = list(run_or_runs.values())
    else:
        names, items = None, list(run_or_runs)
    if keep_paths:
        return names, [os.fsencode(x) if _is_path(x) else run(x) for x in items], False
    workers = threads if threads and threads > 0 else (os.cpu_count() or 1)
    paths = sum(_is_path(x) for x in items)
    if paths > 1 and workers > 1:
        with ThreadPoolExecutor(max_workers=min(workers, paths)) as ex:
            runs = list(ex.map(run, items))
    else:
        runs = [run(x) for x in items]
    if names is not None:  # name the runs made here; a Run passed in is not renamed
        for n, r, x in zip(names, runs, items):
            if r.name != n and not isinstance(x, Run):
                r.name = n
    return names, runs, False


# ---- evaluation -----------------------------------------------------------------------------
def measure_names(measures):
    """The keys evaluate() uses for a measure list: ir_measures-style names that name
    one value stay as given ('nDCG@10'), the others are trec_eval's value names
    ('map', 'P_10', 'P_20' for 'P.10,20'). Unlike trec_eval's -m, where the first
    parameters given for a measure win, every item of the list is computed:
    ['P@5', 'P@10'] gives both."""
    if isinstance(measures, str):
        measures = [measures]
    return list(dict.fromkeys(_qrelkit.measure_names(list(measures))))


def evaluate(qrels, run_or_runs, measures, per_query=False, *, summary=False, threads=0,
             as_frame=False, rel_level=1, complete=False, judged_only=False, max_ret=None,
             num_docs=0, dedup="error", format="qrels"):
    """Evaluate one run or many against judgments.

    qrels: Qrels, path, {qid: {docno: rel}} or DataFrame (see qrels()).
    run_or_runs: one run (Run, path, {qid: {docno: score}}, DataFrame), a list of
      them, or a dict {name: run}. Many runs are evaluated on `threads` threads
      (0: one per CPU) with the GIL released.
    measures: a measure name or a list: trec_eval's ('map', 'P.5,10', 'ndcg_cut.10',
      'official', 'all_trec') or ir_measures' ('AP', 'nDCG@10', 'P(rel=2)@5', 'R@100').
    per_query: {qid: {measure: value}} (pytrec_eval's shape), plus the summary under
      'all' when summary=True; else {measure: value} with the summary values.
    The trec_eval flags are keywords: rel_level (-l), complete (-c), judged_only (-J),
    max_ret (-M), num_docs (-N); dedup 'error' or 'first' for repeated docnos.
    Returns the result for one run, a list of results for a list of runs (same order)
    or {name: result} for a dict; with as_frame a pandas DataFrame (run_id, query_id,
    measure, value; query_id 'all' for summaries; run_id "i:name" for a list).
    """
    if isinstance(measures, str):
        measures = [measures]
    q = _as_qrels(qrels, format=format)
    names, runs, single = _runs(run_or_runs, threads, keep_paths=True)
    res = _qrelkit.evaluate(q, runs, list(measures), per_query=per_query, summary=summary,
                            threads=threads, rel_level=rel_level, complete=complete,
                            judged_only=judged_only, max_ret=-1 if max_ret is None else max_ret,
                            num_docs=num_docs, dedup=dedup)
    if single:
        out = res[0][1]
        return to_frame({res[0][0]: out}, per_query) if as_frame else out
    if names is None:  # a list: results in its order
        out = [r for _, r in res]
        return to_frame({"%d:%s" % (i, rid): x for i, (rid, x) in enumerate(res)},
                        per_query) if as_frame else out
    out = {n: r for n, (_, r) in zip(names, res)}
    return to_frame(out, per_query) if as_frame else out


def to_frame(results, per_query):
    """{run: result} from evaluate() as a long pandas DataFrame."""
    import pandas as pd

    rows = []
    for name, res in results.items():
        if per_query:
            for qid, vals in res.items():
                rows.extend((name, qid, m, v) for m, v in vals.items())
        else:
            rows.extend((name, "all", m, v) for m, v in res.items())
    return pd.DataFrame(rows, columns=["run_id", "query_id", "measure", "value"])


# ---- compare, estimate, pool, aggregate -------------------------------------------------------
def _matrix(scores, measure):
    """{run: {qid: value}} (or evaluate()'s per-query output with `measure`) as the
    runs × topics table of the topics every run has ('all' excluded)."""
    table = {}
    for r, per_q in scores.items():
        row = {}
        for qid, v in per_q.items():
            if qid == "all":
                continue
            if isinstance(v, dict):
                if measure is None:
                    raise ValueError("per-query results hold several measures: name one with measure=")
                v = v[measure]
            row[qid] = v
        table[str(r)] = row
    if not table:
        raise ValueError("no runs to compare")
    topics = sorted(set.intersection(*(set(row) for row in table.values())))
    runs = list(table)
    return runs, topics, [[table[r][t] for t in topics] for r in runs]


def compare(scores, measure=None, test="t", correction="none", alpha=0.05, trials=100000, seed=1):
    """Paired significance tests over every pair of runs (qk_stats_pairwise; `qrelkit
    compare --pairs`). scores: {run: {qid: value}} or evaluate(..., per_query=True)
    output for several runs with `measure` naming the value. Topics: those every run
    has. test: t, wilcoxon, sign, perm, bootstrap; correction: none, bonferroni, holm.
    Returns one dict per pair (a, b, mean_a, mean_b, delta, effect, statistic, p,
    p_adj, significant, n, exact)."""
    runs, topics, values = _matrix(scores, measure)
    return _qrelkit.pairwise(runs, topics, values, test=test, correction=correction,
                             alpha=alpha, trials=trials, seed=seed)


def agreement(truth, est, measure=None):
    """How two scorings of the same systems agree (qk_stats_agreement; `qrelkit compare
    --truth`): Kendall's tau_a/tau_b, tau_ap, Spearman, Pearson, RMSE, bias, swapped
    pairs, max drop. truth, est: {run: score} (or evaluate() summaries with
    `measure`), matched by run name."""
    def flat(d):
        return {k: (v[measure] if isinstance(v, dict) else v) for k, v in d.items()}

    a, b = flat(truth), flat(est)
    names = [n for n in a if n in b]
    return _qrelkit.agreement([a[n] for n in names], [b[n] for n in names])


def estimate(run_or_runs, *, prels=None, strata=None, qrels=None, model="mtc", depth=100,
             prior=0.5, rel_level=1, prec_k=0, per_query=False, max_ret=1000, threads=0):
    """Evaluation with incomplete judgments, one C call each:
      prels=PATH   statAP, statP@k, statNDCG@k (qk_statap_eval) per run
      strata=PATH  xinfAP, infNDCG, iP@k (qk_xinfap_eval) per run
      qrels=Q      MTC/RTC expectations (qk_conf_eval over all runs; model mtc, rtc,
                   ip): E and Var of each run's MAP, of every pair's MAP difference
                   and P(MAP_a < MAP_b) (`qrelkit confidence`).
    Returns {name: {value: estimate}} for prels/strata (per_query: {qid: ...} with
    'all'), a dict of lists for qrels."""
    if sum(x is not None for x in (prels, strata, qrels)) != 1:
        raise ValueError("give exactly one of prels=, strata=, qrels=")
    names, runs, single = _runs(run_or_runs, threads)
    if qrels is not None:
        return _qrelkit.confidence(_as_qrels(qrels), runs, model=model, depth=depth,
                                   prior=prior, rel_level=rel_level, prec_k=prec_k)
    method, path = ("statap", prels) if prels is not None else ("xinfap", strata)
    out = [_qrelkit.estimate_sampled(method, path, r, per_query=per_query, max_ret=max_ret)
           for r in runs]
    if single:
        return out[0]
    return out if names is None else dict(zip(names, out))


def pool(runs, method="depth", *, depth=100, batch=10, budget=100, seed=42, qrels=None,
         rel_level=1, as_frame=False):
    """The next documents to judge (qk_pool_next; `qrelkit pool`): up to `batch` per
    topic from the runs' top `depth`, skipping what `qrels` already judges. method:
    depth, topk, rrf, rbp, strat, statap, active, mtc, mtf, mab, rtc (a sampler starts
    a fresh design with `seed` on every call). Returns [(qid, docno, pi, score)]."""
    _, rs, _ = _runs(runs, 0)
    q = None if qrels is None else _as_qrels(qrels)
    picks = _qrelkit.pool(rs, method=method, depth=depth, batch=batch, budget=budget, seed=seed,
                          qrels=q, rel_level=rel_level)
    if as_frame:
        import pandas as pd
        return pd.DataFrame(picks, columns=["query_id", "doc_id", "pi", "score"])
    return picks


def aggregate(labels, method="mv", *, max_iter=100, seed=1, classes=None):
    """Crowd labels to one label per task (qk_crowd_aggregate; `qrelkit aggregate`).
    labels: (task, worker, label) triples or a DataFrame with columns task, worker,
    label (crowd-kit's names). method: mv, ds, onecoin, glad, mace, magp, gpmv, lk.
    Returns {'labels': {task: label}, 'posteriors': {task: {class: p}},
    'skill': {worker: share correct}, 'iterations', 'converged'}."""
    if _is_frame(labels):
        tasks, workers, labs = (_str_list(labels[c]) for c in ("task", "worker", "label"))
    else:
        triples = list(labels)
        tasks = [str(t[0]) for t in triples]
        workers = [str(t[1]) for t in triples]
        labs = [str(t[2]) for t in triples]
    r = _qrelkit.aggregate(tasks, workers, labs, method=method, max_iter=max_iter, seed=seed,
                           classes=None if classes is None else [str(c) for c in classes])
    return {
        "labels": dict(zip(r["tasks"], r["label"])),
        "posteriors": {t: dict(zip(r["classes"], p)) for t, p in zip(r["tasks"], r["posteriors"])},
        "skill": dict(zip(r["workers"], r["skill"])),
        "iterations": r["iterations"],
        "converged": r["converged"],
    }
