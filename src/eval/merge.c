/* The qrels merge of one topic (trec_eval spec §2.5): rank the run's
 * documents, truncate, look up relevance, apply -J, count. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/prefault.h"
#include "core/radix.h"
#include "core/shed.h"
#include "engine.h"
#include "io/qrels_view.h"

static int cmp_desc(const void *a, const void *b)
{
    const qk_ranked *x = a, *y = b;
    return qk_rank_cmp(x->score, x->docno, y->score, y->docno);
}

static int cmp_asc(const void *a, const void *b)
{
    const qk_ranked *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return strcmp(x->docno, y->docno);
}

/* Ranking without a general comparison sort: each entry gets a 64-bit key
 * from its score's bits, ordered so that ascending keys are descending
 * scores (-0 and +0 share one key, as they compare equal), an LSD radix sort
 * over the key bytes that differ orders the scores in O(n), and only runs of
 * equal scores are then ordered by docno (descending for trec_eval's rule,
 * ascending for the preference formats). The result is the order the
 * comparison functions above define; NaN scores (never from the readers)
 * and short topics take qsort. */
#define QK_RADIX_MIN 64

static uint64_t desc_key(double v)
{
    uint64_t b;
    if (v == 0)
        v = 0; /* -0 -> +0 */
    memcpy(&b, &v, sizeof b);
    b = b >> 63 ? ~b : b | 0x8000000000000000ULL; /* ascending with v */
    return ~b;
}

static int docno_cmp(const qk_ranked *x, const qk_ranked *y, int asc)
{
    int c = strcmp(x->docno, y->docno);
    return asc ? c : -c;
}

/* The bytes the docnos of a[0..n) (n >= 1) all share at their start. */
static size_t shared_prefix(const qk_ranked *a, size_t n)
{
    size_t lcp = strlen(a[0].docno);
    for (size_t i = 1; i < n && lcp > 0; i++)
        lcp = qk_shared_prefix(a[0].docno, a[i].docno, lcp, 0);
    return lcp;
}

static void insert_ties(qk_ranked *a, size_t n, int asc);

/* r[0..n) put in the order of the keys k[0..n) (the id of entry i: place
 * i; k + n: scratch for `sort`, one of core/radix.h's radix sorts),
 * stably; each run of equal keys that `goes_on` says does not settle the
 * order (every run when it is NULL) then ordered by `tie`. 0, or -1 when
 * out of memory (nothing moved). The ranking's sort on score bits and the
 * tie runs' sort on docno bytes below. */
static int order_by_keys(qk_ranked *r, qk_keyed *k, size_t n, int asc,
                         qk_keyed *(*sort)(qk_keyed *, qk_keyed *, size_t),
                         int (*goes_on)(uint64_t key, int asc), void (*tie)(qk_ranked *, size_t, int))
{
    qk_ranked *tmp = malloc(n * sizeof *tmp);
    qk_keyed *s;
    if (!tmp)
        return -1;
    s = sort(k, k + n, n);
    for (size_t i = 0; i < n; i++)
        tmp[i] = r[s[i].id];
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && s[j].key == s[i].key; j++)
            ;
        if (j - i > 1 && (!goes_on || goes_on(s[i].key, asc)))
            tie(tmp + i, j - i, asc);
    }
    memcpy(r, tmp, n * sizeof *r);
    free(tmp);
    return 0;
}

/* A docno key (below) whose docnos go on past its 8 bytes: equal keys
 * whose docnos end inside them are equal docnos. */
static int docno_goes_on(uint64_t key, int asc)
{
    return ((asc ? key : ~key) & 0xff) != 0;
}

/* Order a long run a[0..n) of equal scores (a run that gives many
 * documents one score: integer or quantised scores, Boolean runs) by
 * docno without comparing strings at every step: keys of the 8 bytes
 * after the bytes all the docnos share (core/bytes.h qk_prefix8; inverted
 * for the descending order), a radix sort, then docno comparisons only
 * among keys that tie and go on past their 8 bytes. 0, or -1 when out of
 * memory (nothing moved). */
static int radix_ties(qk_ranked *a, size_t n, int asc)
{
    qk_keyed *k = n <= UINT32_MAX ? malloc(2 * n * sizeof *k) : NULL;
    size_t lcp;
    int rc;
    if (!k)
        return -1;
    lcp = shared_prefix(a, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t w = qk_prefix8(a[i].docno + lcp, 0);
        k[i] = (qk_keyed){asc ? w : ~w, (uint32_t)i};
    }
    rc = order_by_keys(a, k, n, asc, qk_radix_keyed_fused, docno_goes_on, insert_ties);
    free(k);
    return rc;
}

/* Order a[0..n) (equal scores) by docno: insertion sort for the usual short
 * runs of ties, a radix sort on docno bytes for long ones. */
static void order_ties(qk_ranked *a, size_t n, int asc)
{
    if (n > 16) {
        if (radix_ties(a, n, asc) != 0)
            qsort(a, n, sizeof *a, asc ? cmp_asc : cmp_desc);
        return;
    }
    insert_ties(a, n, asc);
}

/* order_ties by insertion: n small, or keys that tie. */
static void insert_ties(qk_ranked *a, size_t n, int asc)
{
    if (n > 64) { /* many long docnos alike in their 8 bytes after the shared ones */
        qsort(a, n, sizeof *a, asc ? cmp_asc : cmp_desc);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        qk_ranked t = a[i];
        size_t j = i;
        while (j > 0 && docno_cmp(&a[j - 1], &t, asc) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = t;
    }
}

/* Are the scores of r[from - 1 .. n) non-increasing (no NaN)? A ranked
 * run whose only disorder is among equal scores (BM25 scores to 6
 * decimals tie often, and systems break ties their own way). */
static int scores_descend(const qk_ranked *r, size_t from, size_t n)
{
    unsigned ok = 1;
    for (size_t i = from; i < n; i++)
        ok &= r[i - 1].score >= r[i].score; /* false for NaN */
    return (int)ok;
}

/* r[0..n) with non-increasing scores, in order up to `from` (the first
 * place out of order, whose tie run may begin before it): each run of
 * equal scores from there put in docno order, nothing else moved. */
static void ties_in_place(qk_ranked *r, size_t from, size_t n, int asc)
{
    size_t a = from - 1;
    while (a > 0 && r[a - 1].score == r[a].score)
        a--;
    while (a < n) {
        size_t b = a + 1;
        while (b < n && r[b].score == r[a].score)
            b++;
        if (b - a > 1)
            order_ties(r + a, b - a, asc);
        a = b;
    }
}

/* 0 on success, -1 when the caller should fall back to qsort. */
static int radix_rank(qk_ranked *r, size_t n, int asc)
{
    qk_keyed *k = n <= UINT32_MAX ? malloc(2 * n * sizeof *k) : NULL;
    int rc = -1;
    if (!k)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (r[i].score != r[i].score)
            goto out; /* NaN */
        k[i] = (qk_keyed){desc_key(r[i].score), (uint32_t)i};
    }
    rc = order_by_keys(r, k, n, asc, qk_radix_keyed, NULL, order_ties);
out:
    free(k);
    return rc;
}

/* The two halves of a * b, xored. The low half as a 64-bit product of its
 * own: GCC 12 moves the 128-bit product's halves through the stack in the
 * ranking loop, two store-to-load round trips a step. */
static inline uint64_t mix64(uint64_t a, uint64_t b)
{
    return a * b ^ (uint64_t)((unsigned __int128)a * b >> 64);
}

/* The docno hash of the per-topic tables below: eight bytes a step (FNV-1a
 * went a byte a step and was a twentieth of a large evaluation). Only
 * these tables use it, so it need not match qk_hash_bytes. */
static uint32_t doc_hash_any(const char *s, size_t len)
{
    size_t n = len;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w = 0;
    const char *p = s;
    for (; n > 8; p += 8, n -= 8) {
        memcpy(&w, p, 8);
        h = mix64(h ^ w, 0xa0761d6478bd642fULL);
    }
    if (len >= 8) {
        memcpy(&w, s + len - 8, 8); /* the last 8 bytes, overlapping the step before */
    } else {
        w = 0;
        for (size_t i = 0; i < n; i++)
            w |= (uint64_t)(unsigned char)p[i] << (8 * i);
    }
    h = mix64(h ^ w, 0xe7037ed1a0b428dbULL);
    return (uint32_t)(h ^ (h >> 32));
}

/* doc_hash_any, its one step of the usual docno lengths (9 to 16 bytes)
 * written out, inline: the ranking loop then keeps its values in
 * registers. */
static inline uint32_t doc_hash(const char *s, size_t len)
{
    uint64_t w, w2, h;
    if (len <= 8 || len > 16)
        return doc_hash_any(s, len);
    memcpy(&w, s, 8);
    memcpy(&w2, s + len - 8, 8);
    h = mix64(mix64(0x9e3779b97f4a7c15ULL ^ len ^ w, 0xa0761d6478bd642fULL) ^ w2, 0xe7037ed1a0b428dbULL);
    return (uint32_t)(h ^ (h >> 32));
}

/* The duplicate check's per-topic hash table holds (hash << 32) | (value
 * + 1), 0 = empty: comparing the stored hash first spares most string
 * compares. Room for n entries at a load of at most 2/3. */
static uint64_t *table(qk_scratch *sc, size_t n, size_t *mask)
{
    size_t nslots = 16;
    while (nslots < n + n / 2)
        nslots *= 2;
    if (qk_grow((void **)&sc->set, &sc->set_cap, nslots, sizeof *sc->set) != QK_OK)
        return NULL;
    memset(sc->set, 0, nslots * sizeof *sc->set);
    *mask = nslots - 1;
    return sc->set;
}

/* The slot of the duplicate check's table (below) that holds x's docno,
 * or the empty one where it goes: entries (hash << 32) | (index into r +
 * 1), 0 = empty, linear probing. */
static inline size_t probe(const uint64_t *set, size_t mask, const qk_ranked *r, const qk_ranked *x)
{
    size_t h = x->hash & mask;
    for (; set[h]; h = (h + 1) & mask)
        if ((uint32_t)(set[h] >> 32) == x->hash && strcmp(r[(uint32_t)set[h] - 1].docno, x->docno) == 0)
            break;
    return h;
}

/* Finds a repeated docno among r[0..n) (hashes already in r); returns the
 * index of the second copy (in r order), -1 when none, -2 without memory. */
static long find_duplicate(qk_scratch *sc, const qk_ranked *r, size_t n, size_t *first)
{
    size_t mask;
    uint64_t *set = table(sc, n, &mask);
    if (!set)
        return -2;
    for (size_t i = 0; i < n; i++) {
        size_t h = probe(set, mask, r, &r[i]);
        if (set[h]) {
            *first = (size_t)(uint32_t)set[h] - 1;
            return (long)i;
        }
        set[h] = (uint64_t)r[i].hash << 32 | (i + 1);
    }
    return -1;
}

/* --dedup first: of each docno's copies among sc->ranked[0..*n), keep the
 * first in file order (the smallest line; a ranked run from memory lists
 * its entries in rank order, a stream in file order; of equal lines the
 * one listed first), the others dropped and the order kept. One pass over
 * the duplicate check's table, whose entry for a docno names its copy
 * kept so far, then one that closes the gaps: a topic of a million
 * documents with 50,000 repeats took minutes when each repeat found
 * restarted the search. 0, or -1 when out of memory (nothing dropped). */
static int drop_repeats(qk_scratch *sc, size_t *n)
{
    qk_ranked *r = sc->ranked;
    size_t mask, w = 0, dropped = 0;
    uint64_t *set = table(sc, *n, &mask);
    if (!set)
        return -1;
    for (size_t i = 0; i < *n; i++) {
        size_t h = probe(set, mask, r, &r[i]);
        if (set[h]) {
            size_t k = (size_t)(uint32_t)set[h] - 1;
            dropped++;
            /* the copy kept so far stays, or goes and this one takes its entry */
            if (r[k].line <= r[i].line)
                continue;
            r[k].docno = NULL;
        }
        r[w] = r[i];
        set[h] = (uint64_t)r[w].hash << 32 | (w + 1);
        w++;
    }
    if (dropped) {
        size_t k = 0;
        for (size_t i = 0; i < w; i++)
            if (r[i].docno)
                r[k++] = r[i];
        w = k;
    }
    *n = w;
    return 0;
}

/* The error for a docno at ranks first and second (in r order). */
static qk_status dup_error(const qk_scratch *sc, size_t first, size_t second, const char *qid, qk_error *err)
{
    long l1 = sc->ranked[first].line, l2 = sc->ranked[second].line;
    return qk_error_at(err, QK_EINPUT, sc->run_path, l1 > l2 ? l1 : l2, 0,
                       "docno '%s' appears twice for topic '%s' (also on line %ld); "
                       "use --dedup first to keep the first",
                       sc->ranked[second].docno, qid, l1 > l2 ? l2 : l1);
}

qk_status qk_rank_check_dups(qk_scratch *sc, const char *qid, qk_error *err)
{
    size_t first;
    long dup;
    if (!sc->dup_pending)
        return QK_OK;
    sc->dup_pending = 0;
    dup = find_duplicate(sc, sc->ranked, sc->nranked, &first);
    if (dup == -2)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return dup >= 0 ? dup_error(sc, first, (size_t)dup, qid, err) : QK_OK;
}

qk_status qk_rank_topic(qk_scratch *sc, const qk_run_topic *rt, const uint32_t *lens, const qk_eval_opts *o,
                        int prefs_order, int defer_dup, const char *run_path, qk_error *err)
{
    size_t n = rt->n;
    int strict = 0; /* the scores are strictly descending: ranked already */
    sc->dup_pending = 0;
    sc->run_path = run_path;
    if (qk_grow_filled((void **)&sc->ranked, &sc->ranked_cap, n + 1, sizeof *sc->ranked) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (lens && rt->lines) {
        const double *sco = rt->scores;
        const char *const *doc = rt->docnos;
        const long *ln = rt->lines;
        qk_ranked *r = sc->ranked;
        unsigned down = 1;
        /* With the entries, the ranking check of the usual case over the
         * plain scores, without a branch (NaN and ties leave it to the
         * full check below). */
        if (n > 0)
            r[0] = (qk_ranked){sco[0], doc[0], ln[0], doc_hash(doc[0], lens[0]), lens[0]};
        for (size_t i = 1; i < n; i++) {
            r[i] = (qk_ranked){sco[i], doc[i], ln[i], doc_hash(doc[i], lens[i]), lens[i]};
            down &= sco[i - 1] > sco[i];
        }
        strict = (int)down;
    } else
        for (size_t i = 0; i < n; i++) {
            size_t len = lens ? lens[i] : strlen(rt->docnos[i]);
            sc->ranked[i] = (qk_ranked){rt->scores[i], rt->docnos[i], rt->lines ? rt->lines[i] : 0,
                                        doc_hash(rt->docnos[i], len), (uint32_t)len};
        }
    if (o->dedup == QK_DEDUP_FIRST && drop_repeats(sc, &n) != 0)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    {
        /* Runs usually come sorted already: check in O(n) before sorting
         * (dropping copies above kept a strict order strict). */
        const qk_ranked *r = sc->ranked;
        size_t i = strict ? n : 1;
        while (i < n && (r[i - 1].score > r[i].score ||
                         (r[i - 1].score == r[i].score && docno_cmp(&r[i - 1], &r[i], prefs_order) <= 0)))
            i++;
        if (i < n && scores_descend(r, i, n))
            ties_in_place(sc->ranked, i, n, prefs_order);
        else if (i < n && (n < QK_RADIX_MIN || radix_rank(sc->ranked, n, prefs_order) != 0))
            qsort(sc->ranked, n, sizeof *sc->ranked, prefs_order ? cmp_asc : cmp_desc);
    }
    if ((long)n > o->max_ret)
        n = (size_t)(o->max_ret < 0 ? 0 : o->max_ret);
    sc->nranked = n;
    if (o->dedup == QK_DEDUP_ERROR) {
        sc->dup_pending = 1;
        if (!defer_dup)
            return qk_rank_check_dups(sc, rt->qid, err);
    }
    return QK_OK;
}

/* A judgment's grade as a level: qrels grades are integers read as long,
 * held in a double, so only LONG_MAX itself (2^63 as a double) needs care. */
static long level_of(double rel)
{
    return rel >= 0x1p63 ? LONG_MAX : (long)rel;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The distinct levels >= 0 of one judgment group with their counts,
 * ascending. Counting in an array indexed by grade is cheap only while the
 * largest grade is about the number of records; past that, sort the grades:
 * time and memory follow the input, not the largest grade. */
static qk_status count_levels(const qk_judgment *j, size_t nj, uint32_t jg, qk_merge_buf *b, qk_merge *m)
{
    size_t ng = 0, nl = 0;
    long maxlev = -1;
    for (size_t i = 0; i < nj; i++)
        if (j[i].jg == jg && j[i].rel >= 0) {
            long l = level_of(j[i].rel);
            ng++;
            if (l > maxlev)
                maxlev = l;
        }
    m->max_level = maxlev;
    if (qk_grow((void **)&b->levels, &b->levels_cap, ng + 1, sizeof *b->levels) != QK_OK)
        return QK_ENOMEM;
    if (maxlev >= 0 && (unsigned long)maxlev <= 2 * ng + 64) {
        if (qk_grow((void **)&b->grades, &b->grades_cap, (size_t)maxlev + 1, sizeof *b->grades) != QK_OK)
            return QK_ENOMEM;
        memset(b->grades, 0, ((size_t)maxlev + 1) * sizeof *b->grades);
        for (size_t i = 0; i < nj; i++)
            if (j[i].jg == jg && j[i].rel >= 0)
                b->grades[level_of(j[i].rel)]++;
        for (long l = 0; l <= maxlev; l++)
            if (b->grades[l] > 0)
                b->levels[nl++] = (qk_level_count){l, b->grades[l]};
    } else if (ng > 0) {
        size_t k = 0;
        if (qk_grow((void **)&b->grades, &b->grades_cap, ng, sizeof *b->grades) != QK_OK)
            return QK_ENOMEM;
        for (size_t i = 0; i < nj; i++)
            if (j[i].jg == jg && j[i].rel >= 0)
                b->grades[k++] = level_of(j[i].rel);
        qsort(b->grades, ng, sizeof *b->grades, cmp_long);
        for (size_t i = 0; i < ng; i++)
            if (nl > 0 && b->levels[nl - 1].level == b->grades[i])
                b->levels[nl - 1].count++;
            else
                b->levels[nl++] = (qk_level_count){b->grades[i], 1};
    }
    m->levels = b->levels;
    m->nlevels = nl;
    return QK_OK;
}

/* Relevance of every ranked doc for one judgment group, then the counts. */
qk_status qk_merge_topic(qk_scratch *sc, const qk_qrels *q, size_t topic, uint32_t jg, const qk_eval_opts *o,
                         qk_merge *m, qk_merge_buf *b, qk_error *err)
{
    size_t nj, n = sc->nranked;
    const qk_judgment *j = qk_qrels_judgments(q, topic, &nj);
    long L = o->rel_level, k = 0, rr = 0, nonpool = 0, unjudged = 0, rc = 0, nju = 0;
    long *rel, *jd;
    /* Plain qrels hold one record per docno, the one the lookup found. */
    int direct = qk_qrels_format(q) == QK_REL_QRELS;
    if (qk_grow_filled((void **)&b->v, &b->v_cap, n + 1, sizeof *b->v) != QK_OK ||
        qk_grow_filled((void **)&b->rc, &b->rc_cap, n + 1, sizeof *b->rc) != QK_OK ||
        qk_grow((void **)&b->rel, &b->rel_cap, n + 1, sizeof *b->rel) != QK_OK ||
        qk_grow((void **)&b->judged, &b->judged_cap, n + 1, sizeof *b->judged) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    rel = b->rel;
    jd = b->judged;
    memset(m, 0, sizeof *m);
    b->rc[0] = 0;
    if (direct && !o->judged_only) {
        /* The usual case without the branches of the general loop below:
         * every ranked document counts, its level read from a table by
         * judgment index + 1 (0: not judged, -1), so that no branch
         * depends on whether a document is judged (about a fifth of bench
         * input A's ranked documents are, in no order a predictor follows). */
        if (qk_grow_filled((void **)&b->lv, &b->lv_cap, nj + 1, sizeof *b->lv) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        b->lv[0] = -1;
        for (size_t i = 0; i < nj; i++)
            b->lv[i + 1] = j[i].rel < 0 ? -2 : level_of(j[i].rel);
        /* The rank lists are written without a branch: each rank is
         * stored at the list's end, which moves on only when it belongs.
         * A level is -1 (not judged), -2 (a negative grade) or >= 0, so
         * the counts of the loop below follow from three: the documents
         * not in the pool are the unjudged ones, and the relevant ones
         * retrieved are those at or past L, or (L < 0) the judged ones
         * that are not negative. */
        for (size_t i = 0; i < n; i++) {
            long v = b->lv[sc->doc_ids[i]];
            b->v[i] = v;
            rel[rc] = (long)i;
            rc += v >= L;
            jd[nju] = (long)i;
            nju += v != -1;
            b->rc[i + 1] = rc;
            unjudged += v == -2;
        }
        if (qk_shed_deep(b->lv_cap))
            qk_shed((void **)&b->lv, &b->lv_cap); /* only this loop reads it */
        k = (long)n;
        nonpool = k - nju;
        rr = L >= 0 ? rc : nju - unjudged;
    } else {
        for (size_t i = 0; i < n; i++) {
            uint32_t d = sc->doc_ids[i];
            const qk_judgment *r = !d ? NULL : direct ? &j[d - 1] : qk_qrels_get(q, topic, jg, j[d - 1].doc);
            long v = !r ? -1 : r->rel < 0 ? -2 : level_of(r->rel);
            if (o->judged_only && v < 0)
                continue;
            rel[rc] = k;
            jd[nju] = k;
            b->v[k++] = v;
            rc += v >= L;
            nju += v != -1;
            b->rc[k] = rc;
            rr += v >= 0 && v >= L;
            nonpool += v == -1;
            unjudged += v == -2;
        }
    }
    m->v = b->v;
    m->n = k;
    m->rc = b->rc;
    m->rel = rel;
    m->judged = jd;
    m->njudged = nju;
    m->num_rel_ret = rr;
    m->num_nonpool = nonpool;
    m->num_unjudged = unjudged;
    if (count_levels(j, nj, jg, b, m) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = m->nlevels; i-- > 0 && m->levels[i].level >= L;)
        m->num_rel += m->levels[i].count;
    return QK_OK;
}

/* A slot of the lookup table: a judgment index + 1, with LK_SEEN once a
 * ranked document matched it, or with LK_RUN a ranked document's index + 1
 * (an unjudged docno, entered for the duplicate check); 0 = empty. The
 * docno hashes are beside it (the judgments' in an array after the slots,
 * the ranked documents' in sc->ranked), not in the slot: four-byte slots
 * halve the table that every topic zeroes and that the probes walk. */
#define LK_RUN 0x80000000u
#define LK_SEEN 0x40000000u
#define LK_INDEX (LK_SEEN - 1)

/* The rank (< i) of the ranked document with judgment index + 1 d. */
static size_t rank_of_judged(const qk_scratch *sc, size_t i, uint32_t d)
{
    size_t k = 0;
    while (k < i && sc->doc_ids[k] != d)
        k++;
    return k;
}

/* Do a and b, both len bytes long, hold the same bytes? The usual docno
 * lengths (9 to 16) in two overlapping words each, inline. */
static inline int same_bytes(const char *a, const char *b, size_t len)
{
    uint64_t a0, a1, b0, b1;
    if (len <= 8 || len > 16)
        return memcmp(a, b, len) == 0;
    memcpy(&a0, a, 8);
    memcpy(&b0, b, 8);
    memcpy(&a1, a + len - 8, 8);
    memcpy(&b1, b + len - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

/* Topics of at most this many ranked documents take the bit filters of
 * lookup_filtered; larger ones the table alone (the duplicate filter's
 * false hits, each a scan of the ranks before, grow with n: about n /
 * 3,000 of them a topic, and its bits with 64 n). */
#define LK_FILTER_MAX 16384

/* The ranked document whose first slot the table's loop asks for ahead. */
#define LK_AHEAD 16

/* Lookup tables of more slots than this are filled to a load of 1/2, not
 * 1/4 (qk_lookup_docs): 4 MB of slots. */
#define LK_WIDE_SLOTS ((size_t)1 << 20)

/* Bits of a filter for n hashes: a power of two, at least 64 a hash (one
 * bit of 64 set, about 1 % false hits), at least one word. */
static size_t filter_bits(size_t n)
{
    size_t b = 64;
    while (b < 64 * n)
        b *= 2;
    return b;
}

static inline int has_bit(const uint64_t *f, size_t mask, uint32_t hash)
{
    size_t b = hash & mask;
    return (int)(f[b >> 6] >> (b & 63) & 1);
}

/* The first rank of r[0..i) with r[i]'s docno, or i when none has it. */
__attribute__((noinline, cold)) static size_t earlier_copy(const qk_ranked *r, size_t i)
{
    size_t k = 0;
    while (k < i && (r[k].hash != r[i].hash || strcmp(r[k].docno, r[i].docno) != 0))
        k++;
    return k;
}

/* The first rank of r[0..n) whose docno one before it has: 1, that rank
 * in *again and the first with its docno in *first; else 0. A filter of
 * two bits a hash (from its low and high half), the ranks before searched
 * where both are set already. */
static int first_repeat(const qk_ranked *r, size_t n, uint64_t *seen, size_t smask, size_t *first,
                        size_t *again)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t h = r[i].hash;
        size_t b = h & smask, c = (h >> 16 ^ h << 16) & smask;
        uint64_t bb = (uint64_t)1 << (b & 63), cb = (uint64_t)1 << (c & 63);
        if ((seen[b >> 6] & bb) && (seen[c >> 6] & cb) && (*first = earlier_copy(r, i)) < i) {
            *again = i;
            return 1;
        }
        seen[b >> 6] |= bb;
        seen[c >> 6] |= cb;
    }
    return 0;
}

/* qk_lookup_docs for topics of up to LK_FILTER_MAX ranked documents. The
 * table holds the judged docnos only, and a bit filter of their hashes
 * picks the ranked documents that may be judged (about a fifth of bench
 * input A's, plus 1 %): a first loop lists them without a branch, a second
 * probes the table for them. The table's probe of every ranked document
 * took a branch on an empty slot, either way in no order. The duplicate
 * check is a second filter, two bits of each ranked hash so far: where
 * both are set already (a repeat, or rarely not: about once in three
 * topics of A's size), the ranks before are searched; so the first rank
 * that repeats one before is found, with the same message as the table's
 * check. */
__attribute__((noinline)) static qk_status
lookup_filtered(qk_scratch *sc, const qk_qrels *q, size_t topic, int dup, uint32_t *slot, size_t mask,
                const uint32_t *jh, const uint32_t *jl, const char *const *jd, const uint64_t *judged,
                size_t jmask, uint64_t *seen, size_t smask, qk_error *err)
{
    const qk_ranked *r = sc->ranked;
    uint32_t *ids = sc->doc_ids, *cand = sc->doc_ids + sc->nranked;
    size_t nc = 0, n = sc->nranked, first, again;
    if (dup && first_repeat(r, n, seen, smask, &first, &again))
        return dup_error(sc, first, again, qk_qrels_topic(q, topic), err);
    /* a loop without calls, its values in registers */
    for (size_t i = 0; i < n; i++) {
        ids[i] = 0;
        cand[nc] = (uint32_t)i;
        nc += (size_t)has_bit(judged, jmask, r[i].hash);
    }
    for (size_t c = 0; c < nc; c++) {
        const qk_ranked *x = &r[cand[c]];
        uint32_t v;
        for (size_t h = x->hash & mask; (v = slot[h]) != 0; h = (h + 1) & mask)
            if (jh[v - 1] == x->hash && jl[v - 1] == x->len && same_bytes(jd[v - 1], x->docno, x->len)) {
                ids[cand[c]] = v;
                break;
            }
    }
    return QK_OK;
}

/* For each ranked document, its index in the topic's judgments + 1, or 0
 * when the topic does not judge it (the first judgment of the docno: for
 * qrels_jg the group's own record is found by qk_qrels_get). A small hash
 * table over the topic's own judgments keeps every probe in cache; a global
 * docno lookup per ranked document was the main cost on large runs. When
 * qk_rank_topic left the duplicate check here, the same probes make it: a
 * judged docno found twice is a repeat, and an unjudged one is entered in
 * the table where its probe ended, so that a second copy finds it; this
 * spares a table and a probe of every ranked document. Topics of up to
 * LK_FILTER_MAX ranked documents go to lookup_filtered instead. */
qk_status qk_lookup_docs(qk_scratch *sc, const qk_qrels *q, size_t topic, qk_error *err)
{
    size_t nj, mask, nslots, keys, ids, n = sc->nranked, jbits = 0, sbits = 0;
    const qk_judgment *j = qk_qrels_judgments(q, topic, &nj);
    int dup = sc->dup_pending && nj < LK_INDEX && n < LK_INDEX, filter = n <= LK_FILTER_MAX;
    uint32_t *slot, *jh, *jl;
    const char **jd;
    if (sc->dup_pending && !dup) {
        qk_status st = qk_rank_check_dups(sc, qk_qrels_topic(q, topic), err);
        if (st != QK_OK)
            return st;
    }
    sc->dup_pending = 0;
    /* Most probes of a ranked document end at an empty slot (most ranked
     * documents are unjudged), and under linear probing an unsuccessful
     * probe walks about (1 + 1 / (1 - load)^2) / 2 slots, each step a
     * branch that goes either way: five steps at a load of 2/3, about
     * 1.4 at a load of at most 1/4 (32 KB of slots for 1,000 ranked and
     * 300 judged documents). Past LK_WIDE_SLOTS slots the table is far
     * beyond the caches, each probe's first slot a miss whatever the load,
     * and it grows to a load of at most 1/2 (2.5 steps, mostly in the same
     * cache line): 16 bytes less for each judged and ranked docno of a
     * topic of a million documents. */
    keys = dup && !filter ? nj + n : nj;
    ids = (filter ? 2 * n : n) + 1; /* lookup_filtered lists its candidates after the ids */
    nslots = 16;
    while (nslots < 4 * keys && (nslots < LK_WIDE_SLOTS || nslots < 2 * keys))
        nslots *= 2;
    if (filter) {
        jbits = filter_bits(nj);
        sbits = dup ? filter_bits(n) : 0;
    }
    if (qk_grow((void **)&sc->bits, &sc->bits_cap, (jbits + sbits) / 64 + 1, sizeof *sc->bits) != QK_OK ||
        qk_grow_filled((void **)&sc->slots, &sc->slots_cap, nslots + 2 * nj + 1, sizeof *sc->slots) !=
            QK_OK ||
        qk_grow_filled((void **)&sc->jdocs, &sc->jdocs_cap, nj + 1, sizeof *sc->jdocs) != QK_OK ||
        qk_grow((void **)&sc->doc_ids, &sc->doc_ids_cap, ids, sizeof *sc->doc_ids) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    slot = sc->slots;
    jh = slot + nslots;
    jl = jh + nj;
    jd = sc->jdocs;
    mask = nslots - 1;
    memset(slot, 0, nslots * sizeof *slot);
    qk_qrels_topic_docnos(q, topic, jd, jl);
    for (size_t i = 0; i < nj; i++) {
        size_t h;
        if (i > 0 && j[i].doc == j[i - 1].doc)
            continue; /* a docno is entered once, whatever its groups */
        jh[i] = doc_hash(jd[i], jl[i]);
        h = jh[i] & mask;
        while (slot[h] && j[(slot[h] & LK_INDEX) - 1].doc != j[i].doc)
            h = (h + 1) & mask;
        if (!slot[h])
            slot[h] = (uint32_t)i + 1;
    }
    if (filter) {
        uint64_t *jf = sc->bits, *sf = sc->bits + jbits / 64;
        memset(sc->bits, 0, (jbits + sbits) / 8);
        for (size_t i = 0; i < nj; i++) {
            size_t b = jh[i] & (jbits - 1);
            if (i == 0 || j[i].doc != j[i - 1].doc)
                jf[b >> 6] |= (uint64_t)1 << (b & 63);
        }
        return lookup_filtered(sc, q, topic, dup, slot, mask, jh, jl, jd, jf, jbits - 1, sf,
                               sbits ? sbits - 1 : 0, err);
    }
    for (size_t i = 0; i < n; i++) {
        const qk_ranked *r = &sc->ranked[i];
        size_t h = r->hash & mask;
        uint32_t d = 0, v;
        if (i + LK_AHEAD < n)
            __builtin_prefetch(&slot[sc->ranked[i + LK_AHEAD].hash & mask], 1);
        for (; (v = slot[h]) != 0; h = (h + 1) & mask) {
            if (v & LK_RUN) {
                size_t k = (v & ~LK_RUN) - 1;
                if (sc->ranked[k].hash == r->hash && strcmp(sc->ranked[k].docno, r->docno) == 0)
                    return dup_error(sc, k, i, qk_qrels_topic(q, topic), err);
            } else if (jh[(v & LK_INDEX) - 1] == r->hash && jl[(v & LK_INDEX) - 1] == r->len &&
                       same_bytes(jd[(v & LK_INDEX) - 1], r->docno, r->len)) {
                d = v & LK_INDEX;
                if (dup && (v & LK_SEEN))
                    return dup_error(sc, rank_of_judged(sc, i, d), i, qk_qrels_topic(q, topic), err);
                slot[h] |= LK_SEEN;
                break;
            }
        }
        if (!d && dup)
            slot[h] = LK_RUN | ((uint32_t)i + 1);
        sc->doc_ids[i] = d;
    }
    return QK_OK;
}
