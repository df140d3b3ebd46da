# Document texts for the synthetic collection of `make demo`, so that a
# technology-assisted review (`qrelkit tar`, which ranks by the words of the
# documents) can run on it. For every qrels line `TOPIC 0 DOCNO GRADE` of the
# first NTOPICS topics (default all) it writes one JSON line
# {"id": DOCNO, "content": TEXT} to DIR/TOPIC, then EXTRA (default 0) more
# non-relevant documents TOPIC-X0001... that the qrels do not name (what a
# search brings in besides the judged pool), and one line `TOPIC<TAB>TITLE`
# per topic to the file TOPICS.
#
# Words are made-up syllable words. Each topic owns 30 words of its own; a
# document mixes them into common background words (Zipf-like frequencies)
# at a rate that rises with its grade: relevant documents use the topic's
# words more, but some use them barely at all (they are hard to find), and a
# few non-relevant documents use them quite a lot (they look relevant). The
# topic's title is its four most frequent words.
#
# Seeded: its own random generator (Park-Miller, exact in doubles), not the
# awk's rand(), which differs between awks (only mawk has been tried).
# Usage: awk -v seed=N -v dir=DIR -v topics=FILE [-v ntopics=NTOPICS]
#            [-v extra=EXTRA] -f corpus.awk QRELS
# (the qrels grouped by topic, as `qrelkit simulate collection` writes them)

function rnd() {
    state = (16807 * state) % 2147483647
    return state / 2147483647
}

# The word with number n (0 <= n < 75^k) of `k` syllables: consonant-vowel
# pairs; n is scrambled first (7919 is prime to 75^k) so that neighbouring
# numbers do not make look-alike words.
function word(n, k,    w, i) {
    n = (n * 7919) % (k == 2 ? 5625 : 421875)
    w = ""
    for (i = 0; i < k; i++) {
        w = w substr(CONS, n % 15 + 1, 1) substr(VOW, int(n / 15) % 5 + 1, 1)
        n = int(n / 75)
    }
    return w
}

# A rank in 0..n-1 drawn with probability about proportional to 1 / (rank + 1).
function zipf(n,    r) {
    r = int(exp(rnd() * log(n + 1))) - 1
    return r < n ? r : n - 1
}

function topic_word(t, j) { return word(t * NTW + j + 1000, 3) }

BEGIN {
    CONS = "bdfgklmnprstvzh"
    VOW = "aeiou"
    NBG = 3000 # background vocabulary
    NTW = 30   # words of each topic
    state = (seed + 0) % 2147483646 + 1
    for (i = 0; i < 10; i++)
        rnd()
    if (dir == "" || topics == "") {
        print "corpus.awk: set -v dir=DIR -v topics=FILE" > "/dev/stderr"
        exit 1
    }
}

function fillers(    i) {
    for (i = 1; i <= extra; i++)
        doc(sprintf("%s-X%04d", cur, i), -1)
    close(dir "/" cur)
}

$1 != cur && (ntopics == "" || nt < ntopics) {
    if (cur != "")
        fillers()
    cur = $1
    nt++
    title = ""
    for (j = 0; j < 4; j++)
        title = title (j ? " " : "") topic_word(nt, j)
    print cur "\t" title > topics
}

# One document of grade g (-1: an unjudged filler, not relevant) to DIR/cur.
function doc(id, g,    u, p, len, text, i, w) {
    u = rnd()
    if (g > 0)
        p = u < 0.04 ? 0.02 : 0.08 + 0.06 * g * rnd() # 4 % hard to find
    else
        p = u < 0.03 ? 0.03 + 0.06 * rnd() : 0.005     # 3 % look relevant
    len = 30 + int(rnd() * 40)
    text = ""
    for (i = 0; i < len; i++) {
        w = rnd() < p ? topic_word(nt, zipf(NTW)) : word(zipf(NBG), 2)
        text = text (i ? " " : "") w
    }
    printf "{\"id\": \"%s\", \"content\": \"%s\"}\n", id, text > (dir "/" cur)
}

(ntopics == "" || nt < ntopics || $1 == cur) {
    doc($3, $4 + 0)
}

END {
    if (cur != "")
        fillers()
}
