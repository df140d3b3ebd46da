/* Preference judgments: per-topic preparation of trec_eval 10.0's prefs
 * measures (spec §9). Every count and ratio a measure reads is computed
 * here, so the quadratic structures (count matrix, closure bits) exist only
 * while one topic is being prepared. */
#include "prefs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A preference line once its doc has an internal id (§9.1 step 3). */
typedef struct rec {
    const char *jg, *jsg;
    double level;
    size_t id;
} rec;

/* Working state for one topic. */
typedef struct prep {
    const char *qid;
    size_t nj, njr;
    const char **docno; /* docno of each id, for messages */
    rec *r;
    size_t n;
    size_t *ecb;        /* EC boundaries of the JG at hand (n + 1 slots)  */
    size_t *mark;       /* per id: serial of the last EC it was seen in    */
    size_t serial;
    size_t *pos;        /* per id: index among the JG's docs (PA mode)     */
    uint32_t *C;        /* nj x nj preference counts; NULL when not needed */
    qk_error *err;
} prep;

/* ---- Internal ids ------------------------------------------------------- */

typedef struct sidx {
    const char *s;
    size_t i;
} sidx;

static int cmp_sidx(const void *a, const void *b)
{
    const sidx *x = a, *y = b;
    int c = strcmp(x->s, y->s);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int cmp_str(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

/* uid[i] = rank of line i's docno among the distinct docnos (strcmp order);
 * u[] receives the distinct docnos. Returns their number. */
static size_t unique_docnos(const qk_prefs_line *lines, size_t n, sidx *tmp, size_t *uid,
                            const char **u)
{
    size_t nu = 0;
    for (size_t i = 0; i < n; i++)
        tmp[i] = (sidx){lines[i].docno, i};
    qsort(tmp, n, sizeof *tmp, cmp_sidx);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || strcmp(tmp[i].s, tmp[i - 1].s) != 0)
            u[nu++] = tmp[i].s;
        uid[tmp[i].i] = nu - 1;
    }
    return nu;
}

/* Retrieved judged docs get ids in ranking order, the rest follow in docno
 * order (§9.1 step 3). Fills p->nj, p->njr, p->docno and every r[].id. */
static qk_status assign_ids(prep *p, const qk_prefs_line *lines, const char *const *ranked,
                            size_t nranked)
{
    qk_status st = QK_ENOMEM;
    sidx *tmp = malloc((p->n ? p->n : 1) * sizeof *tmp);
    size_t *uid = malloc((p->n ? p->n : 1) * sizeof *uid);
    const char **u = malloc((p->n ? p->n : 1) * sizeof *u);
    size_t *idmap = NULL;
    if (!tmp || !uid || !u)
        goto out;
    p->nj = unique_docnos(lines, p->n, tmp, uid, u);
    idmap = malloc((p->nj ? p->nj : 1) * sizeof *idmap);
    p->docno = malloc((p->nj ? p->nj : 1) * sizeof *p->docno);
    if (!idmap || !p->docno)
        goto out;
    for (size_t k = 0; k < p->nj; k++)
        idmap[k] = SIZE_MAX;
    p->njr = 0;
    for (size_t k = 0; k < nranked; k++) {
        const char **hit = bsearch(ranked[k], u, p->nj, sizeof *u, cmp_str);
        if (hit && idmap[hit - u] == SIZE_MAX)
            idmap[hit - u] = p->njr++;
    }
    for (size_t k = 0, next = p->njr; k < p->nj; k++)
        if (idmap[k] == SIZE_MAX)
            idmap[k] = next++;
    for (size_t k = 0; k < p->nj; k++)
        p->docno[idmap[k]] = u[k];
    for (size_t i = 0; i < p->n; i++)
        p->r[i] = (rec){lines[i].jg, lines[i].jsg, lines[i].level, idmap[uid[i]]};
    st = QK_OK;
out:
    free(tmp);
    free(uid);
    free(u);
    free(idmap);
    return st;
}

/* §9.1 step 4: jg, jsg (strcmp), level descending, id ascending. */
static int cmp_rec(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    int c = strcmp(x->jg, y->jg);
    if (c)
        return c;
    c = strcmp(x->jsg, y->jsg);
    if (c)
        return c;
    if (x->level != y->level)
        return x->level > y->level ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* ---- Counting ----------------------------------------------------------- */

static void count_pair(prep *p, qk_prefs_jg *g, size_t a, size_t b)
{
    int ra = a < p->njr, rb = b < p->njr;
    if (ra && rb) {
        g->poss_ret++;
        g->ful_ret += a < b;
    } else if (ra || rb) {
        g->poss_imp++;
        g->ful_imp += ra;
    } else {
        g->poss_notoccur++;
    }
    if (p->C)
        p->C[a * p->nj + b]++;
}

/* The Rn >= Nn branch of §9.4 for both measures. Unguarded division on
 * purpose: 0/0 gives the NaN that zeroes the topic value. */
static double rnonrel_plain(const qk_prefs_jg *g, int ret_only)
{
    if (ret_only) {
        long d = g->num_rel_ret - g->num_nonrel_ret;
        return (double)(g->ful_ret + g->num_rel_ret * d) / (double)(g->poss_ret + g->num_rel * d);
    }
    long d = g->num_rel - g->num_nonrel;
    long poss = g->poss_ret + g->poss_imp + g->poss_notoccur;
    return (double)(g->ful_ret + g->ful_imp + g->num_rel_ret * d) / (double)(poss + g->num_rel * d);
}

static int rnonrel_recount(const qk_prefs_jg *g, int ret_only)
{
    return ret_only ? g->num_rel_ret < g->num_nonrel_ret : g->num_rel < g->num_nonrel;
}

/* Whether a counted pair of the §9.4 recount is fulfilled. */
static int rn_ful(const prep *p, size_t a, size_t b, int ret_only)
{
    return a < b && (ret_only || a < p->njr);
}

/* ---- EC mode (one JSG) ------------------------------------------------------ */

/* §9.4 recount, EC mode: pairs among all ECs but the last, plus every member
 * of every EC (the last one included: a reference quirk) against T, the
 * first Rn members of the last EC. */
static double ec_recount(const prep *p, size_t m, const qk_prefs_jg *g, int ret_only)
{
    const rec *r = p->r;
    const size_t *ecb = p->ecb;
    size_t rn = (size_t)(ret_only ? g->num_rel_ret : g->num_rel);
    size_t t_end = ecb[m - 1];
    long ful = 0, all = 0;
    /* Members are in id order, so the retrieved ones come first. */
    while (t_end < ecb[m] && t_end - ecb[m - 1] < rn && (!ret_only || r[t_end].id < p->njr))
        t_end++;
    for (size_t x = 0; x < m; x++)
        for (size_t i = ecb[x]; i < ecb[x + 1]; i++) {
            size_t a = r[i].id;
            if (ret_only && a >= p->njr)
                continue;
            for (size_t y = x + 1; y + 1 < m; y++)
                for (size_t j = ecb[y]; j < ecb[y + 1]; j++)
                    if (!ret_only || r[j].id < p->njr) {
                        ful += rn_ful(p, a, r[j].id, ret_only);
                        all++;
                    }
            for (size_t j = ecb[m - 1]; j < t_end; j++) {
                ful += rn_ful(p, a, r[j].id, ret_only);
                all++;
            }
        }
    return (double)ful / (double)all;
}

/* Splits [s, e) into ECs (runs of equal level) and rejects a doc found in
 * two of them. Returns the number of ECs, or 0 with err set. */
static size_t ec_split(prep *p, size_t s, size_t e)
{
    size_t m = 0, base = p->serial;
    for (size_t i = s; i < e; i++) {
        if (i == s || p->r[i].level != p->r[i - 1].level) {
            p->ecb[m++] = i;
            p->serial++;
        }
        size_t id = p->r[i].id;
        if (p->mark[id] > base && p->mark[id] != p->serial) {
            qk_error_set(p->err, QK_ECALC,
                         "trec_eval.form_prefs_counts: Internal docid %zu occurs with different "
                         "rel_level in same jsg",
                         id);
            return 0;
        }
        p->mark[id] = p->serial;
    }
    p->ecb[m] = e;
    return m;
}

static qk_status ec_jg(prep *p, size_t s, size_t e, qk_prefs_jg *g)
{
    size_t m = ec_split(p, s, e);
    const size_t *ecb = p->ecb;
    if (m == 0)
        return QK_ECALC;
    for (size_t x = 0; x < m; x++) {
        size_t size = ecb[x + 1] - ecb[x], ret = 0;
        for (size_t i = ecb[x]; i < ecb[x + 1]; i++) {
            ret += p->r[i].id < p->njr;
            for (size_t j = ecb[x + 1]; j < e; j++)
                count_pair(p, g, p->r[i].id, p->r[j].id);
        }
        if (p->r[ecb[x]].level > 0) {
            g->num_rel += (long)size;
            g->num_rel_ret += (long)ret;
        } else {
            g->num_nonrel += (long)size;
            g->num_nonrel_ret += (long)ret;
        }
    }
    for (int ret_only = 0; ret_only <= 1; ret_only++) {
        double v = rnonrel_recount(g, ret_only) ? ec_recount(p, m, g, ret_only)
                                                : rnonrel_plain(g, ret_only);
        *(ret_only ? &g->rnonrel_ret : &g->rnonrel) = v;
    }
    return QK_OK;
}

/* ---- PA mode (two or more JSGs) ---------------------------------------------- */

/* The JG's docs in id order, with the closure of its preferences as a
 * k x k bit matrix (row a has bit b when a is preferred to b). */
typedef struct pa {
    size_t k, words;
    size_t *doc;     /* local index -> id, ascending        */
    double *level;   /* last level seen (§9.2)              */
    uint64_t *bits;
    uint64_t *below; /* scratch row                          */
    unsigned char *kept; /* scratch for the §9.4 recount       */
} pa;

static void pa_free(pa *a)
{
    free(a->doc);
    free(a->level);
    free(a->bits);
    free(a->below);
    free(a->kept);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

#define BIT_GET(row, j) (((row)[(j) >> 6] >> ((j)&63)) & 1u)
#define BIT_SET(row, j) ((row)[(j) >> 6] |= (uint64_t)1 << ((j)&63))

static qk_status pa_alloc(prep *p, size_t s, size_t e, pa *a)
{
    size_t k = 0;
    memset(a, 0, sizeof *a);
    a->doc = malloc((e - s) * sizeof *a->doc);
    if (!a->doc)
        return QK_ENOMEM;
    for (size_t i = s; i < e; i++)
        a->doc[i - s] = p->r[i].id;
    qsort(a->doc, e - s, sizeof *a->doc, cmp_size);
    for (size_t i = 0; i < e - s; i++)
        if (i == 0 || a->doc[i] != a->doc[i - 1])
            a->doc[k++] = a->doc[i];
    for (size_t l = 0; l < k; l++)
        p->pos[a->doc[l]] = l;
    a->k = k;
    a->words = (k + 63) / 64;
    if (a->words && k > SIZE_MAX / sizeof(uint64_t) / a->words)
        return QK_ENOMEM;
    a->level = malloc(k * sizeof *a->level);
    a->bits = calloc(k * a->words, sizeof *a->bits);
    a->below = calloc(a->words ? a->words : 1, sizeof *a->below);
    a->kept = malloc(k);
    return a->level && a->bits && a->below && a->kept ? QK_OK : QK_ENOMEM;
}

/* A doc's level is the last one seen; switching between 0 and > 0 is fatal. */
static qk_status pa_levels(prep *p, size_t s, size_t e, pa *a)
{
    unsigned char *seen = calloc(a->k ? a->k : 1, 1);
    if (!seen)
        return QK_ENOMEM;
    for (size_t i = s; i < e; i++) {
        size_t l = p->pos[p->r[i].id];
        double old = a->level[l], lv = p->r[i].level;
        if (seen[l] && ((old > 0 && lv == 0) || (old == 0 && lv > 0))) {
            free(seen);
            return qk_error_set(p->err, QK_ECALC,
                                "trec_eval.form_prefs_counts: doc '%s' has both 0 and non-0 "
                                "rel_level assigned",
                                p->docno[p->r[i].id]);
        }
        a->level[l] = lv;
        seen[l] = 1;
    }
    free(seen);
    return QK_OK;
}

/* Direct preferences of one JSG [s, e): every doc is preferred to every doc
 * of a strictly lower level. Walks the level runs bottom-up. */
static void pa_jsg_edges(const prep *p, size_t s, size_t e, pa *a)
{
    memset(a->below, 0, a->words * sizeof *a->below);
    for (size_t end = e; end > s;) {
        size_t start = end - 1;
        while (start > s && p->r[start - 1].level == p->r[end - 1].level)
            start--;
        for (size_t i = start; i < end; i++) {
            uint64_t *row = a->bits + p->pos[p->r[i].id] * a->words;
            for (size_t w = 0; w < a->words; w++)
                row[w] |= a->below[w];
        }
        for (size_t i = start; i < end; i++)
            BIT_SET(a->below, p->pos[p->r[i].id]);
        end = start;
    }
}

static void pa_closure(pa *a)
{
    for (size_t m = 0; m < a->k; m++) {
        const uint64_t *rm = a->bits + m * a->words;
        for (size_t i = 0; i < a->k; i++) {
            uint64_t *ri = a->bits + i * a->words;
            if (i != m && BIT_GET(ri, m))
                for (size_t w = 0; w < a->words; w++)
                    ri[w] |= rm[w];
        }
    }
}

/* Counts every closure pair once; a pair in both directions is fatal (the
 * reference aborts there). */
static qk_status pa_count(prep *p, pa *a, qk_prefs_jg *g, const char *jg)
{
    for (size_t i = 0; i < a->k; i++) {
        const uint64_t *ri = a->bits + i * a->words;
        for (size_t j = 0; j < a->k; j++) {
            if (j == i || !BIT_GET(ri, j))
                continue;
            if (j > i && BIT_GET(a->bits + j * a->words, i))
                return qk_error_set(p->err, QK_ECALC,
                                    "trec_eval.form_prefs_counts: Pref inconsistency found: "
                                    "topic '%s', judgment group '%s': docs '%s' (internal rank "
                                    "%zu) and '%s' (internal rank %zu) are each preferred to "
                                    "the other",
                                    p->qid, jg, p->docno[a->doc[i]], a->doc[i],
                                    p->docno[a->doc[j]], a->doc[j]);
            count_pair(p, g, a->doc[i], a->doc[j]);
        }
    }
    for (size_t l = 0; l < a->k; l++) {
        int ret = a->doc[l] < p->njr;
        if (a->level[l] > 0) {
            g->num_rel++;
            g->num_rel_ret += ret;
        } else if (a->level[l] == 0) {
            g->num_nonrel++;
            g->num_nonrel_ret += ret;
        }
    }
    return QK_OK;
}

/* §9.4 recount, PA mode: level-0 docs after the first num_rel ones (among
 * retrieved docs only for the _ret measure, still num_rel there, as in the
 * reference) are dropped, then the closure pairs between kept docs are scored. */
static double pa_recount(const prep *p, const pa *a, const qk_prefs_jg *g, int ret_only)
{
    unsigned char *kept = a->kept;
    long zeros = 0, ful = 0, all = 0;
    for (size_t l = 0; l < a->k; l++) {
        int in = !ret_only || a->doc[l] < p->njr;
        kept[l] = in;
        if (in && a->level[l] == 0)
            kept[l] = ++zeros <= g->num_rel;
    }
    for (size_t i = 0; i < a->k; i++)
        for (size_t j = 0; j < a->k; j++)
            if (i != j && kept[i] && kept[j] && BIT_GET(a->bits + i * a->words, j)) {
                ful += rn_ful(p, a->doc[i], a->doc[j], ret_only);
                all++;
            }
    return (double)ful / (double)all;
}

static qk_status pa_jg(prep *p, size_t s, size_t e, qk_prefs_jg *g)
{
    pa a;
    qk_status st = pa_alloc(p, s, e, &a);
    if (st == QK_OK)
        st = pa_levels(p, s, e, &a);
    if (st != QK_OK)
        goto out;
    for (size_t js = s, je; js < e; js = je) {
        for (je = js + 1; je < e && strcmp(p->r[je].jsg, p->r[js].jsg) == 0; je++)
            ;
        pa_jsg_edges(p, js, je, &a);
    }
    pa_closure(&a);
    st = pa_count(p, &a, g, p->r[s].jg);
    if (st != QK_OK)
        goto out;
    for (int ret_only = 0; ret_only <= 1; ret_only++) {
        double v = rnonrel_recount(g, ret_only) ? pa_recount(p, &a, g, ret_only)
                                                : rnonrel_plain(g, ret_only);
        *(ret_only ? &g->rnonrel_ret : &g->rnonrel) = v;
    }
out:
    pa_free(&a);
    if (st == QK_ENOMEM)
        qk_error_set(p->err, st, "out of memory preparing preferences of topic '%s'", p->qid);
    return st;
}

/* ---- Topic ------------------------------------------------------------------ */

static qk_status one_jg(prep *p, size_t s, size_t e, qk_prefs_jg *g)
{
    int multi = 0;
    for (size_t i = s + 1; i < e && !multi; i++)
        multi = strcmp(p->r[i].jsg, p->r[s].jsg) != 0;
    memset(g, 0, sizeof *g);
    g->pa_mode = multi;
    return multi ? pa_jg(p, s, e, g) : ec_jg(p, s, e, g);
}

/* prefs_pair and friends over the summed count matrix (§9.3). Rows before
 * columns, lower id first, as the reference walks them. */
static void pair_sums(const prep *p, qk_prefs_topic *t)
{
    for (size_t x = 0; x < p->nj; x++)
        for (size_t y = x + 1; y < p->nj; y++) {
            uint64_t lo = p->C[x * p->nj + y], hi = p->C[y * p->nj + x];
            if (lo + hi == 0)
                continue;
            t->pair_cnt[QK_PAIR_ALL]++;
            if (x >= p->njr)
                continue;
            double v = (double)lo / (double)(lo + hi);
            t->pair_sum[QK_PAIR_ALL] += v;
            t->pair_sum[QK_PAIR_IMP] += v;
            t->pair_cnt[QK_PAIR_IMP]++;
            if (y < p->njr) {
                t->pair_sum[QK_PAIR_RET] += v;
                t->pair_cnt[QK_PAIR_RET]++;
            }
        }
}

/* With one JG and no repeated line every ordered pair occurs at most once
 * and never in both directions, so the pair sums are the ful/poss counts and
 * the nj x nj matrix can be skipped. */
static void pair_sums_single(qk_prefs_topic *t)
{
    const qk_prefs_jg *g = &t->jgs[0];
    t->pair_sum[QK_PAIR_ALL] = (double)(g->ful_ret + g->ful_imp);
    t->pair_cnt[QK_PAIR_ALL] = g->poss_ret + g->poss_imp + g->poss_notoccur;
    t->pair_sum[QK_PAIR_RET] = (double)g->ful_ret;
    t->pair_cnt[QK_PAIR_RET] = g->poss_ret;
    t->pair_sum[QK_PAIR_IMP] = (double)(g->ful_ret + g->ful_imp);
    t->pair_cnt[QK_PAIR_IMP] = g->poss_ret + g->poss_imp;
}

static size_t count_jgs(const prep *p, int *repeated)
{
    size_t J = 0;
    *repeated = 0;
    for (size_t i = 0; i < p->n; i++) {
        int same_jg = i > 0 && strcmp(p->r[i].jg, p->r[i - 1].jg) == 0;
        J += !same_jg;
        if (same_jg && p->r[i].id == p->r[i - 1].id && strcmp(p->r[i].jsg, p->r[i - 1].jsg) == 0)
            *repeated = 1;
    }
    return J;
}

static qk_status prep_alloc(prep *p, qk_prefs_topic *t, int need_matrix)
{
    size_t nj = p->nj ? p->nj : 1;
    p->ecb = malloc((p->n + 1) * sizeof *p->ecb);
    p->mark = calloc(nj, sizeof *p->mark);
    p->pos = malloc(nj * sizeof *p->pos);
    t->jgs = calloc(t->num_jgs ? t->num_jgs : 1, sizeof *t->jgs);
    if (!p->ecb || !p->mark || !p->pos || !t->jgs)
        return QK_ENOMEM;
    if (need_matrix) {
        if (nj > SIZE_MAX / sizeof(uint32_t) / nj)
            return QK_ENOMEM;
        p->C = calloc(nj * nj, sizeof *p->C);
        if (!p->C)
            return QK_ENOMEM;
    }
    return QK_OK;
}

static qk_status prep_run(prep *p, qk_prefs_topic *t)
{
    int repeated;
    qsort(p->r, p->n, sizeof *p->r, cmp_rec);
    t->num_jgs = count_jgs(p, &repeated);
    qk_status st = prep_alloc(p, t, t->num_jgs > 1 || repeated);
    if (st != QK_OK)
        return qk_error_set(p->err, st, "out of memory preparing preferences of topic '%s'",
                            p->qid);
    t->nj = p->nj;
    t->njr = p->njr;
    for (size_t s = 0, e, k = 0; s < p->n; s = e, k++) {
        for (e = s + 1; e < p->n && strcmp(p->r[e].jg, p->r[s].jg) == 0; e++)
            ;
        st = one_jg(p, s, e, &t->jgs[k]);
        if (st != QK_OK)
            return st;
    }
    if (p->C)
        pair_sums(p, t);
    else if (t->num_jgs == 1)
        pair_sums_single(t);
    return QK_OK;
}

qk_status qk_prefs_topic_new_raw(const char *qid, const char *const *ranked, size_t nranked,
                                 const qk_prefs_line *lines, size_t nlines,
                                 qk_prefs_topic **out, qk_error *err)
{
    prep p = {.qid = qid ? qid : "", .n = nlines, .err = err};
    qk_prefs_topic *t = calloc(1, sizeof *t);
    qk_status st = QK_ENOMEM;
    *out = NULL;
    p.r = malloc((nlines ? nlines : 1) * sizeof *p.r);
    if (!t || !p.r || assign_ids(&p, lines, ranked, nranked) != QK_OK) {
        qk_error_set(err, st, "out of memory preparing preferences of topic '%s'", p.qid);
        goto out;
    }
    st = prep_run(&p, t);
out:
    free(p.r);
    free(p.docno);
    free(p.ecb);
    free(p.mark);
    free(p.pos);
    free(p.C);
    if (st != QK_OK)
        qk_prefs_topic_free(t);
    else
        *out = t;
    return st;
}

qk_status qk_prefs_topic_new(const qk_prefs_input *in, qk_prefs_topic **out, qk_error *err)
{
    size_t n = 0;
    const qk_judgment *j = qk_qrels_judgments(in->q, in->topic, &n);
    qk_prefs_line *lines = malloc((n ? n : 1) * sizeof *lines);
    qk_status st;
    *out = NULL;
    if (!lines)
        return qk_error_set(err, QK_ENOMEM, "out of memory preparing preferences of topic '%s'",
                            in->qid);
    for (size_t i = 0; i < n; i++)
        lines[i] = (qk_prefs_line){qk_qrels_group(in->q, j[i].jg),
                                   qk_qrels_group(in->q, qk_qrels_judgment_jsg(in->q, in->topic, i)),
                                   qk_qrels_docno(in->q, j[i].doc), j[i].rel};
    st = qk_prefs_topic_new_raw(in->qid, in->ranked, in->nranked, lines, n, out, err);
    free(lines);
    return st;
}

void qk_prefs_topic_free(qk_prefs_topic *p)
{
    if (!p)
        return;
    free(p->jgs);
    free(p);
}
