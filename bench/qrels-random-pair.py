#!/usr/bin/env python3
"""Random qrels and runs through two qrelkit binaries, compared byte for byte.

For a change to the qrels reader or organiser: every case writes a random
qrels file and a run over half of its topics, then runs
`eval --threads 1 -q -c -m all_trec [--dedup first] QRELS RUN` with BASE and
NEW and compares stdout, stderr and the exit code. The cases vary what the
reader's paths depend on: topic ids (numbers of different widths, CLEF-like,
t0 t1 ...) in reading, strcmp or shuffled order; docnos (PubMed-like digits,
short, ClueWeb-like, FBIS-like) sorted within a topic or not, with a repeat
now and then; separators; some files with their lines shuffled (topics in
several blocks); tied and untied scores; `--dedup first` or the default
error. A differing case is kept in WORK/badN/.

Usage: python3 bench/qrels-random-pair.py BASE NEW [CASES [SEED]]
(default 300 cases, seed 1; WORK is $TMPDIR or /tmp). Prints the differing
cases and a summary line with the exit codes seen."""
import os
import random
import shutil
import subprocess
import sys
import tempfile


def docno(rng, style):
    if style == 0:
        return str(rng.randint(1, 30000000))
    if style == 1:
        return "d%d" % rng.randint(0, 5000)
    if style == 2:
        return "clueweb09-en%04d-%02d-%05d" % (rng.randint(0, 11), rng.randint(0, 99), rng.randint(0, 99999))
    return "FBIS3-%d" % rng.randint(1, 60000)


def topic_ids(rng, nt):
    shape = rng.randrange(3)
    ids = []
    for t in range(nt):
        if shape == 0:
            ids.append(str(rng.randint(1, 10 ** rng.randint(1, 7))))
        elif shape == 1:
            ids.append("CD%06d" % rng.randint(0, 999999))
        else:
            ids.append("t%d" % t)
    ids = list(dict.fromkeys(ids))
    order = rng.randrange(3)
    if order == 1:
        ids.sort()
    elif order == 2:
        rng.shuffle(ids)
    return ids


def make_case(rng, qpath, rpath):
    style = rng.randrange(4)
    topics = topic_ids(rng, rng.choice([1, 2, 5, 20, 100, 1000]))
    sep = rng.choice([" ", "\t", "  "])
    lines, judged = [], {}
    for q in topics:
        ds = [docno(rng, style) for _ in range(rng.choice([1, 2, 3, 10, 50, 300]))]
        if rng.random() < 0.5:
            ds = sorted(set(ds))
        if rng.random() < 0.15 and ds:
            ds.insert(rng.randrange(len(ds)), rng.choice(ds))  # a docno judged twice
        judged[q] = ds
        for d in ds:
            lines.append(sep.join([q, "0", d, str(rng.choice([0, 0, 1, 2, -1]))]))
    if rng.random() < 0.2:
        rng.shuffle(lines)  # topics in several blocks
    with open(qpath, "w") as f:
        f.write("\n".join(lines) + "\n")
    run = []
    for q in rng.sample(topics, max(1, len(topics) // 2)):
        pool = list(dict.fromkeys(judged[q][:200] + [docno(rng, style) for _ in range(20)]))
        rng.shuffle(pool)
        tied = rng.random() < 0.3
        for k, d in enumerate(pool):
            score = rng.choice([1.0, 2.0, 3.5]) if tied else 100 - k * 0.1
            run.append("%s Q0 %s %d %.3f r" % (q, d, k + 1, score))
    with open(rpath, "w") as f:
        f.write("\n".join(run) + "\n")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    base, new = sys.argv[1], sys.argv[2]
    cases = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    work = tempfile.mkdtemp(prefix="qk-qrels-pair.")
    qpath, rpath = os.path.join(work, "q.txt"), os.path.join(work, "r.txt")
    diffs, codes = 0, {}
    for case in range(cases):
        make_case(rng, qpath, rpath)
        dedup = rng.choice([[], ["--dedup", "first"]])
        args = ["eval", "--threads", "1", "-q", "-c", "-m", "all_trec"] + dedup + [qpath, rpath]
        outs = [subprocess.run([b] + args, capture_output=True) for b in (base, new)]
        got = [(p.returncode, p.stdout, p.stderr) for p in outs]
        codes[got[1][0]] = codes.get(got[1][0], 0) + 1
        if got[0] != got[1]:
            diffs += 1
            keep = os.path.join(work, "bad%d" % case)
            os.makedirs(keep)
            shutil.copy(qpath, keep)
            shutil.copy(rpath, keep)
            print("differs: case %d %s (exit %d vs %d), kept in %s" % (case, " ".join(dedup), got[0][0],
                                                                       got[1][0], keep))
    print("cases %d, differing %d, exit codes %s" % (cases, diffs, dict(sorted(codes.items()))))
    if not diffs:
        shutil.rmtree(work)
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
