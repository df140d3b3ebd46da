#!/usr/bin/env bash
# The Python binding's overhead: qrelkit.evaluate vs `qrelkit eval` on the same input.
#   CLEF  the 16 CLEF 2017 TAR runs (../shared/data/clef-tar-2017), all_trec, -c,
#         --dedup first (one run repeats documents), summaries only
#   A     bench/gen's input A: 5,000 topics x 1,000 retrieved, 1.5 M qrels lines,
#         all_trec with per-topic values (-q)
# Python is timed from files (paths passed to evaluate: reading included) and from
# dicts in pytrec_eval's shapes (made beforehand with to_dict; the conversion into
# the library's objects is included), each best of REPS. The CLI's figure is the
# best of REPS wall times with its output sent to /dev/null.
# Usage: bash bench/python.sh [path/to/qrelkit]   (env: REPS=3, PYTHON=python3)
set -euo pipefail
qk=$(realpath "${1:-build/default/qrelkit}")
build=$(dirname "$qk")
reps=${REPS:-3}
py=${PYTHON:-$(test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)}
src=$(cd "$(dirname "$0")/.." && pwd)
clef=${QK_SHARED:-$src/../shared}/data/clef-tar-2017

bash "$src/bench/gen" "$qk"
(cd "$src/python" && QRELKIT_BUILD_DIR="$build" "$py" setup.py -q build --build-base "$build/python/build" \
  --build-lib "$build/python/lib" >/dev/null)

best() { # best wall time of reps runs of CMD (stdout discarded)
  local b="" t0 t1 t
  for ((i = 0; i < reps; i++)); do
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$t; fi
  done
  echo "$b"
}

echo "machine: $(nproc) CPUs, $(uptime | sed 's/.*load average/load average/')"
echo "commit: $(git -C "$src" rev-parse --short HEAD)"
mapfile -t runs < <(ls "$clef"/runs/*.run)
echo "CLEF CLI  qrelkit eval -c --dedup first -m all_trec (16 runs): $(best "$qk" eval -c --dedup first -m all_trec "$clef/qrel_abs_test.txt" "${runs[@]}") s"
echo "A    CLI  qrelkit eval -q -m all_trec: $(best "$qk" eval -q -m all_trec "$src/bench/work/A/qrels.txt" "$src/bench/work/A/runs/run01.run") s"
PYTHONPATH="$build/python/lib" "$py" - "$clef" "$src/bench/work/A" "$reps" <<'PY'
import glob, os, sys, time
import qrelkit

clef, a_dir, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])

def best(fn):
    b = None
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        t = time.perf_counter() - t
        b = t if b is None or t < b else b
    return b

qp = os.path.join(clef, "qrel_abs_test.txt")
runs = {os.path.basename(p): p for p in sorted(glob.glob(os.path.join(clef, "runs", "*.run")))}
kw = dict(complete=True, dedup="first")
print("CLEF py   files, threads=0 (all CPUs): %.3f s" % best(lambda: qrelkit.evaluate(qp, runs, ["all_trec"], **kw)))
print("CLEF py   files, threads=1:            %.3f s" % best(lambda: qrelkit.evaluate(qp, runs, ["all_trec"], threads=1, **kw)))
qd = qrelkit.read_qrels(qp).to_dict()
rd = {n: qrelkit.read_run(p).to_dict() for n, p in runs.items()}
print("CLEF py   dicts, threads=0:            %.3f s" % best(lambda: qrelkit.evaluate(qd, rd, ["all_trec"], **kw)))
q, r = qrelkit.read_qrels(qp), {n: qrelkit.read_run(p) for n, p in runs.items()}
print("CLEF py   objects (evaluation only):   %.3f s" % best(lambda: qrelkit.evaluate(q, r, ["all_trec"], **kw)))

aq, ar = os.path.join(a_dir, "qrels.txt"), os.path.join(a_dir, "runs", "run01.run")
print("A    py   files (per_query):           %.3f s" % best(lambda: qrelkit.evaluate(aq, ar, ["all_trec"], per_query=True, summary=True)))
t = time.perf_counter()
qd, rd = qrelkit.read_qrels(aq).to_dict(), qrelkit.read_run(ar).to_dict()
print("A    py   (making the dicts: %.3f s, not counted)" % (time.perf_counter() - t))
print("A    py   dicts (per_query):           %.3f s" % best(lambda: qrelkit.evaluate(qd, rd, ["all_trec"], per_query=True, summary=True)))
print("A    py   dicts -> Qrels, Run only:    %.3f s" % best(lambda: (qrelkit.qrels(qd), qrelkit.run(rd))))
q, r = qrelkit.read_qrels(aq), qrelkit.read_run(ar)
print("A    py   objects, summary only:       %.3f s" % best(lambda: qrelkit.evaluate(q, r, ["all_trec"])))
print("A    py   objects, per_query:          %.3f s" % best(lambda: qrelkit.evaluate(q, r, ["all_trec"], per_query=True, summary=True)))
import resource
print("peak RSS of the python process: %d MB" % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024))
PY
