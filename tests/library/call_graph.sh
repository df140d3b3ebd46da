#!/usr/bin/env bash
# No two source files call each other, directly or round a ring: the graph of
# "file A uses a symbol that file B defines" (from the object files' symbol
# tables) has no cycle, in the library and in the CLI. A cycle means shared
# helpers that belong in a file of their own.
# Usage (ctest sets QK_BUILD): call_graph.sh
set -u
build=${QK_BUILD:?}
command -v nm >/dev/null || { echo "skipped: nm not installed" >&2; exit 77; }
command -v python3 >/dev/null || { echo "skipped: python3 not installed" >&2; exit 77; }
rc=0
for dir in "$build/CMakeFiles/qrelkit_objects.dir" "$build/CMakeFiles/qrelkit.dir"; do
  [ -d "$dir/src" ] || { echo "FAIL: no object files under $dir"; rc=1; continue; }
  python3 - "$dir" "$(dirname "$0")/../../src" <<'PY' || rc=1
import os, subprocess, sys
root, src = sys.argv[1], os.path.abspath(sys.argv[2])
defs, uses = {}, {}
for d, _, files in os.walk(os.path.join(root, 'src')):
    for f in files:
        if not f.endswith('.c.o'):
            continue
        o = os.path.join(d, f)
        name = os.path.relpath(o, root)[:-2]
        if not os.path.exists(os.path.join(os.path.dirname(src), name)):
            continue  # an object left behind by a removed source file
        for line in subprocess.run(['nm', o], capture_output=True, text=True).stdout.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in 'TDRB':
                defs[p[2]] = name
            elif len(p) == 2 and p[0] == 'U':
                uses.setdefault(name, set()).add(p[1])
graph = {f: {defs[u] for u in us if u in defs and defs[u] != f} for f, us in uses.items()}
index, low, stack, on, cycles, n = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(100000)
def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in graph.get(v, ()):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            cycles.append(sorted(comp))
for v in list(graph):
    if v not in index:
        visit(v)
for c in cycles:
    print('FAIL: these files call each other in a ring:', ' '.join(c))
print(f'{os.path.basename(root)}: {len(graph)} files, {len(cycles)} cycles')
sys.exit(1 if cycles else 0)
PY
done
exit $rc
