# Verification only: pure-Python MACE VB, with strategies either aligned or
# misaligned the way crowd-kit 1.4.1's pandas groupby/factorize mix does.
import sys, math, random
path, goldp, misalign = sys.argv[1], sys.argv[2], sys.argv[3] == '1'
rows = [l.rstrip('\n').split('\t') for l in open(path)][1:]
def factorize(xs):
    d = {}
    for x in xs:
        if x not in d: d[x] = len(d)
    return d
T = factorize(r[0] for r in rows); W = factorize(r[1] for r in rows); Lb = factorize(r[2] for r in rows)
K = len(Lb); nw = len(W)
ti = [T[r[0]] for r in rows]; wi = [W[r[1]] for r in rows]; li = [Lb[r[2]] for r in rows]
wnames = sorted(W, key=lambda s: s); lnames = sorted(Lb)
# position in sorted order for each factorize id
wsorted = {w: i for i, w in enumerate(wnames)}; lsorted = {l: i for i, l in enumerate(lnames)}
inv_w = {v: k for k, v in W.items()}; inv_l = {v: k for k, v in Lb.items()}
def dg(x):
    r = 0.0
    while x < 6: r -= 1 / x; x += 1
    f = 1 / (x * x)
    return r + math.log(x) - 0.5 / x - f * (1/12 - f * (1/120 - f * (1/252 - f * (1/240 - f / 132))))
rng = random.Random(0)
spam = []; know = []
for w in range(nw):
    u, v = rng.uniform(1, 2.5), rng.uniform(1, 2.5); spam.append(u/(u+v)); know.append(v/(u+v))
xi = []
for w in range(nw):
    a = [rng.uniform(1, 2.5) for _ in range(K)]; s = sum(a); xi.append([x/s for x in a])
byt = {}
for n, t in enumerate(ti): byt.setdefault(t, []).append(n)
def estep():
    post = {}
    cs = [0.0]*nw; ck = [0.0]*nw; cx = [[0.0]*K for _ in range(nw)]
    for t, idx in byt.items():
        lq = [0.0]*K
        for n in idx:
            w, a = wi[n], li[n]
            sp = spam[w]*xi[w][a]
            for y in range(K): lq[y] += math.log(sp + (know[w] if y == a else 0))
        m = max(lq); q = [math.exp(v-m) for v in lq]; s = sum(q); q = [v/s for v in q]
        post[t] = q
        for n in idx:
            w, a = wi[n], li[n]
            sp = spam[w]*xi[w][a]
            h = q[a]*know[w]/(know[w]+sp)
            ck[w] += h; cs[w] += 1-h; cx[w][a] += 1-h
    return post, cs, ck, cx
for it in range(51):
    post, cs, ck, cx = estep()
    if it == 50: break
    for w in range(nw):
        tot = dg(1.0 + cs[w] + ck[w]); spam[w] = math.exp(dg(0.5+cs[w]) - tot); know[w] = math.exp(dg(0.5+ck[w]) - tot)
    newxi = []
    for w in range(nw):
        s = sum(cx[w]) + 10*K
        newxi.append([math.exp(dg(cx[w][y]+10) - dg(s)) for y in range(K)])
    if misalign:
        # row r of the groupby table is the r-th worker by name; column c the c-th label by value
        byname = {}
        for w in range(nw): byname[wsorted[inv_w[w]]] = newxi[w]
        xi = []
        for w in range(nw):
            row = byname[w]  # worker factorize id w reads the w-th sorted row
            xi.append([row[lsorted[inv_l[y]]] if False else row[y] for y in range(K)])
        # columns: factorize label id y reads sorted column y; row holds columns in factorize order, so re-map
        xi2 = []
        for w in range(nw):
            rowf = byname[w]
            sorted_cols = [rowf[Lb[l]] for l in lnames]  # row as the groupby table holds it (sorted columns)
            xi2.append([sorted_cols[y] for y in range(K)])
        xi = xi2
    else:
        xi = newxi
gold = dict(l.rstrip('\n').split('\t') for l in list(open(goldp))[1:])
inv_t = {v: k for k, v in T.items()}
c = n = 0
for t, q in post.items():
    name = inv_t[t]
    if name in gold:
        best = max(range(K), key=lambda y: (q[y], -lsorted[inv_l[y]]))
        n += 1; c += inv_l[best] == gold[name]
print(path.split('/')[-2], 'misalign' if misalign else 'aligned', c, n)
