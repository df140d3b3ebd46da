/* qk_pool_next: one batch per topic from any strategy, and the sample
 * files made from a design. */
#include "pool_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/estimate.h"

/* One topic's batch into out (room for tp->ndocs). */
static qk_status topic_next(const qk_pool_runs *p, size_t t, const signed char *x, long cap,
                            qk_pool_design *d, const qk_pool_opts *o, pool_out *out, size_t *nout)
{
    qk_pool_topic view;
    const qk_pool_topic *tp = &view;
    size_t n, k = 0;
    uint32_t *order;
    double *score;
    long *minr;
    size_t lenbuf[p->nruns];
    pool_view(p, t, o->exclude, &view, lenbuf);
    n = tp->ndocs;
    *nout = 0;
    switch (o->method) {
    case QK_POOL_STRAT:
    case QK_POOL_STATAP: return pool_strata_next(tp, x, &d->t[t], cap, out, nout);
    case QK_POOL_ACTIVE: return pool_active_next(tp, p->nruns, x, &d->t[t], o, t, cap, out, nout);
    case QK_POOL_MTC:
    case QK_POOL_RTC: return pool_mtc_next(tp, p->nruns, x, o, cap, out, nout);
    case QK_POOL_MTF: return pool_mtf_next(tp, p->nruns, x, o, t, cap, out, nout);
    case QK_POOL_MAB: return pool_mab_next(tp, p->nruns, x, o, t, cap, out, nout);
    default: break;
    }
    order = malloc((n ? n : 1) * sizeof *order);
    score = malloc((n ? n : 1) * sizeof *score);
    minr = malloc((n ? n : 1) * sizeof *minr);
    if (!order || !score || !minr) {
        free(order);
        free(score);
        free(minr);
        return QK_ENOMEM;
    }
    pool_min_rank(tp, p->nruns, minr); /* 0: only excluded runs have it */
    if (o->method == QK_POOL_DEPTH)
        pool_order_depth(tp, p->nruns, order, score);
    else if (o->method == QK_POOL_TOPK)
        pool_order_topk(tp, p->nruns, order, score);
    else
        pool_order_fusion(tp, p->nruns, o->method == QK_POOL_RBP,
                          o->method == QK_POOL_RBP ? o->rbp_p : o->rrf_k, order, score);
    for (size_t i = 0; i < n && (long)k < cap; i++)
        if (x[order[i]] < 0 && minr[order[i]] > 0)
            out[k++] = (pool_out){order[i], 1.0, score[i], 0};
    *nout = k;
    free(order);
    free(score);
    free(minr);
    return QK_OK;
}

qk_status qk_pool_next(const qk_pool_runs *p, const qk_pool_judged *j, qk_pool_design *d,
                       const qk_pool_opts *o, qk_pool_pick **picks, size_t *npicks, qk_error *err)
{
    size_t maxn = 0, cap = 0;
    pool_out *out;
    qk_status st = QK_OK;
    *picks = NULL;
    *npicks = 0;
    if (qk_pool_method_samples(o->method) && (!d || d->method != o->method))
        return qk_error_set(err, QK_EUSAGE, "method '%s' needs its sampling design",
                            qk_pool_method_name(o->method));
    if (o->batch <= 0 || o->budget < 0)
        return qk_error_set(err, QK_EUSAGE, "batch must be above 0 and budget at least 0");
    for (size_t t = 0; t < p->ntopics; t++)
        if (p->topics[t].pub.ndocs > maxn)
            maxn = p->topics[t].pub.ndocs;
    if (!(out = malloc((maxn ? maxn : 1) * sizeof *out)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < p->ntopics; t++) {
        long left = o->budget - (long)j->njudged[t], c = left < o->batch ? left : o->batch;
        size_t k;
        if (c <= 0)
            continue;
        if ((st = topic_next(p, t, j->x[t], c, d, o, out, &k)) != QK_OK) {
            qk_error_set(err, st, "out of memory");
            break;
        }
        if (qk_grow((void **)picks, &cap, *npicks + k, sizeof **picks) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            break;
        }
        for (size_t i = 0; i < k; i++)
            (*picks)[(*npicks)++] =
                (qk_pool_pick){(uint32_t)t, out[i].doc, out[i].pi, out[i].draws, out[i].score};
    }
    free(out);
    if (st != QK_OK) {
        free(*picks);
        *picks = NULL;
        *npicks = 0;
    }
    return st;
}

qk_status qk_pool_design_sample(const qk_pool_design *d, const qk_pool_runs *p, size_t t,
                                qk_pool_unit **units, size_t *n, qk_error *err)
{
    const design_topic *dt = &d->t[t];
    qk_pool_topic view;
    const qk_pool_topic *tp = &view;
    size_t lenbuf[p->nruns];
    size_t nd, k = 0;
    pool_view(p, t, d->exclude, &view, lenbuf);
    nd = tp->ndocs;
    *units = NULL;
    *n = 0;
    if (!(*units = malloc((nd ? nd : 1) * sizeof **units)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (d->method == QK_POOL_ACTIVE) {
        double *pi = malloc((nd ? nd : 1) * sizeof *pi);
        if (!pi || pool_active_pi(tp, p->nruns, dt, pi) != QK_OK) {
            free(pi);
            free(*units);
            *units = NULL;
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
        for (size_t i = 0; dt->dcnt && i < nd; i++)
            if (dt->dcnt[i])
                (*units)[k++] = (qk_pool_unit){(uint32_t)i, pi[i], dt->dcnt[i]};
        free(pi);
    } else if (dt->w) {
        for (size_t i = 0; i < dt->m; i++)
            (*units)[k++] = (qk_pool_unit){dt->order[i], pool_pps_pi(dt, dt->order[i]), 1};
    } else if (dt->order) {
        /* pi by stratum: count the allocation once */
        size_t *mh = calloc(dt->nstrata ? dt->nstrata : 1, sizeof *mh);
        if (!mh) {
            free(*units);
            *units = NULL;
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < dt->m; i++)
            mh[dt->alloc[i]]++;
        for (size_t i = 0; i < dt->m; i++) {
            uint32_t doc = dt->order[i];
            size_t h = dt->stratum[doc];
            (*units)[k++] = (qk_pool_unit){doc, (double)mh[h] / (double)dt->nh[h], 1};
        }
        free(mh);
    }
    *n = k;
    return QK_OK;
}

static int io_fail(FILE *f, qk_error *err)
{
    return ferror(f) ? qk_error_set(err, QK_EIO, "cannot write the sample file") : QK_OK;
}

qk_status qk_pool_write_prels(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j,
                              FILE *f, qk_error *err)
{
    for (size_t t = 0; t < p->ntopics; t++) {
        qk_pool_unit *u;
        size_t n;
        qk_status st = qk_pool_design_sample(d, p, t, &u, &n, err);
        if (st != QK_OK)
            return st;
        for (size_t i = 0; i < n; i++)
            if (j->x[t][u[i].doc] >= 0)
                fprintf(f, "%s %s %d 1 %.17g\n", p->topics[t].qid, p->topics[t].docnos[u[i].doc],
                        j->x[t][u[i].doc], u[i].pi);
        free(u);
    }
    return io_fail(f, err);
}

/* Every pooled document of a stratified design, with its stratum (1-based)
 * and judgment (-1 when not sampled, or sampled and unjudged). */
typedef qk_status (*strata_fn)(void *ctx, const char *qid, const char *docno, unsigned stratum, int rel);

static qk_status each_stratum_doc(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j,
                                  strata_fn fn, void *ctx, qk_error *err)
{
    qk_status st = QK_OK;
    if ((d->method != QK_POOL_STRAT && d->method != QK_POOL_STATAP) ||
        (d->method == QK_POOL_STATAP && !d->strata))
        return qk_error_set(err, QK_EUSAGE, "a strata file needs method strat, or statap with --strata");
    for (size_t t = 0; t < p->ntopics && st == QK_OK; t++) {
        const design_topic *dt = &d->t[t];
        unsigned char *in = calloc(p->topics[t].pub.ndocs ? p->topics[t].pub.ndocs : 1, 1);
        if (!in)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        for (size_t i = 0; i < dt->m; i++)
            in[dt->order[i]] = 1;
        for (size_t doc = 0; doc < p->topics[t].pub.ndocs && st == QK_OK; doc++)
            if (dt->stratum[doc] != POOL_NO_STRATUM)
                st = fn(ctx, p->topics[t].qid, p->topics[t].docnos[doc], dt->stratum[doc] + 1,
                        in[doc] && j->x[t][doc] >= 0 ? j->x[t][doc] : -1);
        free(in);
    }
    return st;
}

static qk_status print_stratum_doc(void *ctx, const char *qid, const char *docno, unsigned stratum, int rel)
{
    fprintf(ctx, "%s 0 %s %u %d\n", qid, docno, stratum, rel);
    return QK_OK;
}

qk_status qk_pool_write_strata(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j,
                               FILE *f, qk_error *err)
{
    qk_status st = each_stratum_doc(d, p, j, print_stratum_doc, f, err);
    return st != QK_OK ? st : io_fail(f, err);
}

typedef struct strata_build {
    qk_strata *s;
    qk_error *err;
} strata_build;

static qk_status add_stratum_doc(void *ctx, const char *qid, const char *docno, unsigned stratum, int rel)
{
    strata_build *b = ctx;
    char name[16];
    snprintf(name, sizeof name, "%u", stratum);
    return qk_strata_add(b->s, qid, docno, name, rel, b->err);
}

qk_status qk_pool_strata(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j, qk_strata **out,
                         qk_error *err)
{
    strata_build b = {NULL, err};
    qk_status st;
    *out = NULL;
    if ((st = qk_strata_new(&b.s, err)) != QK_OK)
        return st;
    if ((st = each_stratum_doc(d, p, j, add_stratum_doc, &b, err)) != QK_OK ||
        (st = qk_strata_finish(b.s, err)) != QK_OK) {
        qk_strata_free(b.s);
        return st;
    }
    *out = b.s;
    return QK_OK;
}

/* One line of the draws file per draw of a judged document (a round's
 * draws of a document together, documents in pool order). */
typedef struct draws_writer {
    FILE *f;
    const qk_pool_topic *tp;
    const signed char *x;
    const double *pi;
} draws_writer;

static void write_one_draw(void *ctx, size_t round, uint32_t doc, long n, const double *p)
{
    const draws_writer *w = ctx;
    (void)round;
    /* p[doc] is each draw's selection probability in its round */
    for (long i = 0; w->x[doc] >= 0 && i < n; i++)
        fprintf(w->f, "%s %s %d %.17g %.17g\n", w->tp->qid, w->tp->docnos[doc], w->x[doc], p[doc],
                w->pi[doc]);
}

qk_status qk_pool_write_draws(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j,
                              FILE *f, qk_error *err)
{
    if (d->method != QK_POOL_ACTIVE)
        return qk_error_set(err, QK_EUSAGE, "a draws file needs method active");
    for (size_t t = 0; t < p->ntopics; t++) {
        const design_topic *dt = &d->t[t];
        qk_pool_topic view;
        size_t lenbuf[p->nruns];
        size_t nd;
        double *pi;
        draws_writer w;
        qk_status st;
        pool_view(p, t, d->exclude, &view, lenbuf);
        nd = view.ndocs;
        pi = malloc((nd ? nd : 1) * sizeof *pi);
        if (!pi || pool_active_pi(&view, p->nruns, dt, pi) != QK_OK) {
            free(pi);
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
        w = (draws_writer){f, &view, j->x[t], pi};
        st = pool_active_each_draw(&view, p->nruns, dt, write_one_draw, &w);
        free(pi);
        if (st != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    return io_fail(f, err);
}

typedef struct named {
    const char *docno;
    uint32_t doc;
} named;

static int named_cmp(const void *a, const void *b)
{
    return strcmp(((const named *)a)->docno, ((const named *)b)->docno);
}

/* The judged documents of topic t that active sampling drew, by docno. */
static named *judged_drawn(const qk_pool_topic *tp, const design_topic *dt, const signed char *x, size_t *m)
{
    named *u = malloc((tp->ndocs ? tp->ndocs : 1) * sizeof *u);
    *m = 0;
    if (!u)
        return NULL;
    for (size_t doc = 0; dt->dcnt && doc < tp->ndocs; doc++)
        if (dt->dcnt[doc] && x[doc] >= 0)
            u[(*m)++] = (named){tp->docnos[doc], (uint32_t)doc};
    qsort(u, *m, sizeof *u, named_cmp);
    return u;
}

/* Joint inclusion probabilities over the same per-round document
 * probabilities as pi (Eq. 2.6), each judged drawn pair once. */
static qk_status write_joint_topic(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j,
                                   size_t t, FILE *f)
{
    const design_topic *dt = &d->t[t];
    qk_pool_topic view;
    size_t lenbuf[p->nruns];
    size_t m = 0, T = dt->nrounds;
    named *u;
    uint32_t *docs = NULL;
    double *P = NULL;
    qk_status st = QK_ENOMEM;
    pool_view(p, t, d->exclude, &view, lenbuf);
    if (!(u = judged_drawn(&view, dt, j->x[t], &m)) || !(docs = malloc((m ? m : 1) * sizeof *docs)) ||
        !(P = malloc((m * T > 0 ? m * T : 1) * sizeof *P)))
        goto out;
    for (size_t k = 0; k < m; k++)
        docs[k] = u[k].doc;
    if (pool_active_doc_rounds(&view, p->nruns, dt, docs, m, P) != QK_OK)
        goto out;
    for (size_t a = 0; a < m; a++)
        for (size_t b = a + 1; b < m; b++)
            fprintf(f, "%s %s %s %.17g\n", view.qid, u[a].docno, u[b].docno,
                    qk_wr_pi_joint(T, dt->rdraws, P + a * T, P + b * T));
    st = QK_OK;
out:
    free(u);
    free(docs);
    free(P);
    return st;
}

qk_status qk_pool_write_joint(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j,
                              FILE *f, qk_error *err)
{
    if (d->method != QK_POOL_ACTIVE)
        return qk_error_set(err, QK_EUSAGE, "a joint inclusion file needs method active");
    for (size_t t = 0; t < p->ntopics; t++)
        if (write_joint_topic(d, p, j, t, f) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    return io_fail(f, err);
}
