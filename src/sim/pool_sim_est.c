/* The pool simulation's truth and estimators. Truth: AP at the pool depth,
 * P@10 and R-prec of every run from the complete qrels (grade >= rel_level
 * is relevant), R counting the relevant documents of the pool (what the
 * samplers estimate: Li §1.8.1 takes the depth-100 pool as complete) or of
 * the whole qrels (trec_eval's R). Estimators, per topic and run:
 *   strat          xinfAP from the strata file (sim_xinfap, below); without
 *                  the run files, the statAP form as for statap
 *   statap         statAP (MQ 2007 Eqs. 8-9) as qk_statap_eval computes it
 *                  from a prels file: R^ = sum_rel 1/pi, PC^(k) = (1/k)
 *                  sum_{sampled, rank<=k} rel/pi (a document counting
 *                  itself as 1), AP^ = sum_{sampled rel} PC^(rank)/pi / R^,
 *                  RP^ = PC^(round(R^))
 *   active         the same on its sample and pi (the evaluator sees only
 *                  document, relevance, pi: MQ 2007 §4.2), or with
 *                  active_li Li's HT estimators (Eqs. 2.12-2.15) as
 *                  qk_draws_eval computes them from a draws file, whose AP
 *                  weighs a sampled document's own term 1/pi^2 and so
 *                  overestimates on small samples (spec 003a §1.7)
 *   mtc            E[AP] = sum_k (p_k/k)(1 + sum_{k'<k} p_k') / sum_i p_i
 *                  (Carterette 2007; the O(Z) form of spec 001-004 §3.3),
 *                  unjudged p = the topic's judged-relevant share
 *   others         judged documents only, unjudged = non-relevant, R =
 *                  judged relevant (Li §1.8.2)
 * A topic with R^ = 0 scores 0, so every run is averaged over the same
 * topics as the truth. */
#include "pool_sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_ctx_free(sim_ctx *c)
{
    for (size_t i = 0; c->rel && i < c->nt; i++)
        free(c->rel[i]);
    free(c->rel);
    free(c->topic);
    free(c->R);
    free(c->truth);
    free(c->by_truth);
    free(c->pair_a);
    free(c->pair_b);
    memset(c, 0, sizeof *c);
}

/* AP, P@10, R-prec of one list against 0/1 relevance and R. */
static void measures(const uint32_t *l, size_t z, const signed char *rel, double R, double *ap, double *p10,
                     double *rp)
{
    double sum = 0, hits = 0, top10 = 0, topr = 0;
    for (size_t k = 0; k < z; k++)
        if (rel[l[k]] == 1) { // NOLINT(clang-analyzer-core.NullDereference): rel is set when l is
            hits++;
            sum += hits / (double)(k + 1);
            top10 += k < 10;
            topr += (double)(k + 1) <= R;
        }
    *ap = R > 0 ? sum / R : 0;
    *p10 = top10 / 10;
    *rp = R > 0 ? topr / R : 0;
}

static size_t *cmp_base;
static const double *cmp_key;
static int by_key_desc(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (cmp_key[x] != cmp_key[y])
        return cmp_key[x] > cmp_key[y] ? -1 : 1;
    return x < y ? -1 : 1;
}

qk_status sim_ctx_init(sim_ctx *c, const qk_pool_runs *p, const qk_qrels *q, const qk_pool_sim_opts *o,
                       qk_error *err)
{
    size_t nt = qk_pool_num_topics(p), nr = qk_pool_num_runs(p);
    memset(c, 0, sizeof *c);
    c->p = p;
    c->o = o;
    if (!(c->topic = calloc(nt ? nt : 1, sizeof *c->topic)) ||
        !(c->rel = calloc(nt ? nt : 1, sizeof *c->rel)) || !(c->R = calloc(nt ? nt : 1, sizeof *c->R)) ||
        !(c->truth = calloc(QK_SIM_NMEASURES * nr, sizeof *c->truth)) ||
        !(c->by_truth = malloc(nr * sizeof *c->by_truth)))
        goto nomem;
    for (size_t t = 0; t < nt; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        size_t qt, n;
        const qk_judgment *jd;
        double rq = 0, rp = 0;
        signed char *rel;
        if (!qk_qrels_find_topic(q, tp->qid, strlen(tp->qid), &qt))
            continue;
        if (!(rel = calloc(tp->ndocs ? tp->ndocs : 1, 1)))
            goto nomem;
        jd = qk_qrels_judgments(q, qt, &n);
        for (size_t i = 0; i < n; i++) {
            uint32_t d;
            int r = jd[i].rel >= (double)o->rel_level;
            rq += r;
            if (qk_pool_find_doc(tp, qk_qrels_docno(q, jd[i].doc), &d)) {
                rel[d] = (signed char)r;
                rp += r;
            }
        }
        c->R[c->nt] = o->truth == QK_POOL_TRUTH_QRELS ? rq : rp;
        if (c->R[c->nt] <= 0 || rp <= 0) { /* nothing to find: no AP */
            free(rel);
            continue;
        }
        c->rel[c->nt] = rel;
        c->topic[c->nt++] = t;
    }
    if (c->nt == 0)
        return qk_error_set(err, QK_EINPUT, "no topic of the runs has a relevant document in the qrels");
    for (size_t i = 0; i < c->nt; i++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, c->topic[i]);
        for (size_t r = 0; r < nr; r++) {
            double v[3];
            measures(tp->lists[r], tp->len[r], c->rel[i], c->R[i], &v[0], &v[1], &v[2]);
            for (int m = 0; m < 3; m++)
                c->truth[m * nr + r] += v[m] / (double)c->nt;
        }
    }
    for (size_t r = 0; r < nr; r++)
        c->by_truth[r] = r;
    cmp_key = c->truth;
    (void)cmp_base;
    qsort(c->by_truth, nr, sizeof *c->by_truth, by_key_desc);
    /* Runs with the same true MAP (CLEF's thresholded runs are prefixes of
     * the ranked ones) have no right order to find: pair each run with the
     * next one strictly below it. */
    if (!(c->pair_a = malloc(nr * sizeof *c->pair_a)) || !(c->pair_b = malloc(nr * sizeof *c->pair_b)))
        goto nomem;
    for (size_t k = 0; k < nr; k++) {
        size_t a = c->by_truth[k], below = k + 1;
        while (below < nr && c->truth[c->by_truth[below]] >= c->truth[a] - 1e-12)
            below++;
        if (below == nr)
            break;
        if (k > 0 && c->truth[c->by_truth[k - 1]] <= c->truth[a] + 1e-12)
            continue; /* a tie of the run above: its pair is already there */
        c->pair_a[c->npairs] = a;
        c->pair_b[c->npairs++] = c->by_truth[below];
    }
    return QK_OK;
nomem:
    sim_ctx_free(c);
    return qk_error_set(err, QK_ENOMEM, "out of memory");
}

/* HT/statAP sums of one run over a topic: w[d] = 1/pi for sampled docs
 * (0 otherwise), y = judgments. mq: the conventions of qk_statap_eval
 * (statAP_MQ_eval): a sampled relevant document counts itself as 1 in the
 * precision at its rank, R-prec is the precision at rank round(R^).
 * Otherwise Li's Eq. 2.14 as printed (itself at 1/pi) and R-prec over
 * ranks <= ceil(R^) divided by R^ (qk_draws_eval). */
static void ht_run(const uint32_t *l, size_t z, const double *w, const signed char *x, double rhat, int mq,
                   double *v)
{
    double s = 0, num = 0, top10 = 0, topr = -1;
    long cut = mq ? (long)(rhat + 0.5) : (long)ceil(rhat);
    for (size_t k = 0; k < z; k++) {
        uint32_t d = l[k];
        if (w[d] > 0 && x[d] == 1) {
            num += (mq ? 1 + s : s + w[d]) / (double)(k + 1) * w[d];
            s += w[d];
        }
        if (k == 9)
            top10 = s;
        if ((long)k + 1 == cut)
            topr = s;
    }
    if (z < 10 && !mq) /* statAP_MQ_eval leaves P@10 at 0 on a short list */
        top10 = s;
    v[0] = rhat > 0 ? num / rhat : 0;
    v[1] = top10 / 10;
    if (rhat <= 0)
        v[2] = 0;
    else if (mq)
        v[2] = topr >= 0 ? topr / (double)cut : s / rhat;
    else
        v[2] = (topr >= 0 ? topr : s) / rhat;
}

double sim_statap_ap(const uint32_t *l, size_t z, const double *w, const signed char *x, double rhat)
{
    double v[3];
    ht_run(l, z, w, x, rhat, 1, v);
    return v[0];
}

static void mtc_run(const uint32_t *l, size_t z, const double *pr, double rsum, size_t depth_r, double *v)
{
    double above = 0, num = 0, top10 = 0, topr = 0;
    for (size_t k = 0; k < z; k++) {
        double pk = pr[l[k]];
        num += pk / (double)(k + 1) * (1 + above);
        above += pk;
        if (k < 10)
            top10 += pk;
        if (k < depth_r)
            topr += pk;
    }
    v[0] = rsum > 0 ? num / rsum : 0;
    v[1] = top10 / 10;
    v[2] = rsum > 0 ? topr / rsum : 0;
}

/* Unjudged documents' probability: the judged-relevant share (spec
 * 001-004 §7 B6 fallback a), 0.5 before any judgment. */
static double prior_of(const qk_pool_judged *j, size_t t)
{
    return j->njudged[t] ? (double)j->nrel[t] / (double)j->njudged[t] : 0.5;
}

qk_status sim_estimate(const sim_ctx *c, qk_pool_method m, const qk_pool_judged *j, const qk_pool_design *d,
                       const unsigned char *want, double *est)
{
    const qk_pool_runs *p = c->p;
    size_t nr = qk_pool_num_runs(p);
    memset(est, 0, QK_SIM_NMEASURES * nr * sizeof *est);
    for (size_t i = 0; i < c->nt; i++) {
        size_t t = c->topic[i];
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        const signed char *x = j->x[t];
        double *w = calloc(tp->ndocs ? tp->ndocs : 1, sizeof *w), rhat = 0;
        if (!w)
            return QK_ENOMEM;
        if (qk_pool_method_samples(m)) {
            qk_pool_unit *u;
            size_t n;
            if (qk_pool_design_sample(d, p, t, &u, &n, NULL) != QK_OK) {
                free(w);
                return QK_ENOMEM;
            }
            for (size_t k = 0; k < n; k++)
                if (u[k].pi > 0 && x[u[k].doc] >= 0) {
                    w[u[k].doc] = 1 / u[k].pi;
                    rhat += x[u[k].doc] == 1 ? w[u[k].doc] : 0;
                }
            free(u);
        } else if (m == QK_POOL_MTC) {
            double pr = prior_of(j, t);
            for (size_t k = 0; k < tp->ndocs; k++) {
                w[k] = x[k] >= 0 ? x[k] : pr; /* w holds p here */
                rhat += w[k];
            }
        } else {
            for (size_t k = 0; k < tp->ndocs; k++)
                if (x[k] >= 0) {
                    w[k] = 1;
                    rhat += x[k] == 1;
                }
        }
        for (size_t r = 0; r < nr; r++) {
            double v[3];
            if (want && !want[r])
                continue;
            if (m == QK_POOL_MTC)
                mtc_run(tp->lists[r], tp->len[r], w, rhat, (size_t)floor(rhat + 0.5), v);
            else
                ht_run(tp->lists[r], tp->len[r], w, x, rhat, !(m == QK_POOL_ACTIVE && c->o->active_li), v);
            for (int k = 0; k < 3; k++)
                est[k * nr + r] += v[k] / (double)c->nt;
        }
        free(w);
    }
    return QK_OK;
}

qk_status sim_mtc_pneg(const sim_ctx *c, const qk_pool_judged *j, size_t a, size_t b, double *p_neg)
{
    const qk_pool_runs *p = c->p;
    qk_ksum e = {0, 0}, v = {0, 0};
    for (size_t i = 0; i < c->nt; i++) {
        size_t t = c->topic[i], n = 0;
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        const signed char *x = j->x[t];
        double pr = prior_of(j, t), rsum = 0;
        size_t cap = tp->len[a] + tp->len[b];
        double *pp = malloc((cap ? cap : 1) * sizeof *pp);
        long *ra = calloc(cap ? cap : 1, sizeof *ra), *rb = calloc(cap ? cap : 1, sizeof *rb);
        uint32_t *ids = malloc((cap ? cap : 1) * sizeof *ids);
        qk_mtc_moments mm;
        if (!pp || !ra || !rb || !ids) {
            free(pp);
            free(ra);
            free(rb);
            free(ids);
            return QK_ENOMEM;
        }
        for (size_t k = 0; k < tp->ndocs; k++)
            rsum += x[k] >= 0 ? x[k] : pr;
        /* Only documents ranked by a or b carry coefficients; the rest
         * enter through the denominator sum p, rescaled below. */
        for (size_t k = 0; k < tp->len[a]; k++) {
            ids[n] = tp->lists[a][k];
            ra[n++] = (long)k + 1;
        }
        for (size_t k = 0; k < tp->len[b]; k++) {
            size_t q = 0;
            // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): ids[0..len) are set
            while (q < tp->len[a] && ids[q] != tp->lists[b][k])
                q++;
            if (q == tp->len[a])
                ids[q = n++] = tp->lists[b][k];
            rb[q] = (long)k + 1;
        }
        for (size_t k = 0; k < n; k++)
            pp[k] = x[ids[k]] >= 0 ? x[ids[k]] : pr;
        if (qk_mtc_dap_moments(n, pp, ra, rb, &mm) == QK_OK && rsum > 0) {
            qk_ksum_add(&e, mm.e_num / rsum);
            qk_ksum_add(&v, mm.var_num / (rsum * rsum));
        }
        free(pp);
        free(ra);
        free(rb);
        free(ids);
    }
    *p_neg = qk_mtc_confidence(qk_ksum_value(&e) / (double)c->nt,
                               qk_ksum_value(&v) / ((double)c->nt * (double)c->nt));
    return QK_OK;
}

qk_status sim_rtc(const sim_ctx *c, const qk_pool_judged *j, double *est, double *pneg, qk_error *err)
{
    const qk_pool_runs *p = c->p;
    size_t nr = qk_pool_num_runs(p), nt = qk_pool_num_topics(p);
    double **prob = calloc(nt ? nt : 1, sizeof *prob);
    qk_qrels *q = NULL;
    qk_conf_opts co;
    qk_conf_result *res = NULL;
    qk_status st = QK_OK;
    size_t *plist = NULL;
    if (!prob) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = qk_qrels_new(QK_REL_QRELS, &q, err)) != QK_OK)
        goto out;
    for (size_t t = 0; t < nt; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        if (!(prob[t] = calloc(tp->ndocs ? tp->ndocs : 1, sizeof **prob))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t d = 0; d < tp->ndocs; d++)
            if (j->x[t][d] >= 0 &&
                (st = qk_qrels_add(q, tp->qid, NULL, tp->docnos[d], j->x[t][d], err)) != QK_OK)
                goto out;
    }
    if ((st = qk_qrels_finish(q, QK_DEDUP_ERROR, err)) != QK_OK)
        goto out;
    qk_conf_opts_init(&co);
    co.model = QK_PROB_RTC;
    co.depth = qk_pool_depth(p);
    co.want_probs = 1;
    /* only the pairs whose confidence is asked for (every pair of runs
     * made the moments O(runs^2) a trial) */
    if (!pneg || !c->npairs)
        co.no_pairs = 1;
    else if (!(plist = malloc(2 * c->npairs * sizeof *plist))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    } else {
        for (size_t k = 0; k < c->npairs; k++)
            plist[2 * k] = c->pair_a[k], plist[2 * k + 1] = c->pair_b[k];
        co.pairs = plist, co.npairs = c->npairs;
    }
    if ((st = qk_conf_eval(q, c->o->runs, nr, &co, &res, err)) != QK_OK)
        goto out;
    for (size_t t = 0; t < nt; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        for (size_t d = 0; d < tp->ndocs; d++)
            qk_doc_probs_get(res->probs, tp->qid, tp->docnos[d], &prob[t][d]);
    }
    memset(est, 0, QK_SIM_NMEASURES * nr * sizeof *est);
    for (size_t i = 0; i < c->nt; i++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, c->topic[i]);
        double rsum = 0;
        for (size_t d = 0; d < tp->ndocs; d++)
            rsum += prob[c->topic[i]][d];
        for (size_t r = 0; r < nr; r++) {
            double v[3];
            mtc_run(tp->lists[r], tp->len[r], prob[c->topic[i]], rsum, (size_t)floor(rsum + 0.5), v);
            for (int k = 0; k < 3; k++)
                est[k * nr + r] += v[k] / (double)c->nt;
        }
    }
    for (size_t k = 0; pneg && k < c->npairs; k++)
        pneg[k] = res->p_less[c->pair_a[k] * res->nruns + c->pair_b[k]];
out:
    free(plist);
    qk_conf_result_free(res);
    qk_qrels_free(q);
    for (size_t t = 0; prob && t < nt; t++)
        free(prob[t]);
    free(prob);
    return st;
}

qk_status sim_xinfap(const sim_ctx *c, const qk_pool_judged *j, const qk_pool_design *d,
                     const unsigned char *want, double *est, qk_error *err)
{
    const qk_pool_runs *p = c->p;
    size_t nr = qk_pool_num_runs(p);
    qk_strata *sd = NULL;
    qk_status st = qk_pool_strata(d, p, j, &sd, err);
    for (size_t r = 0; st == QK_OK && r < nr; r++) {
        qk_est_table *t = NULL;
        size_t vap, vp10;
        if (want && !want[r])
            continue;
        est[0 * nr + r] = est[1 * nr + r] = 0;
        est[2 * nr + r] = NAN;
        if ((st = qk_xinfap_eval(sd, c->o->runs[r], qk_pool_depth(p), &t, err)) != QK_OK)
            break;
        vap = qk_est_table_find(t, "infAP");
        vp10 = qk_est_table_find(t, "iP10");
        /* Over the simulation's topics; one the run lacks scores 0. */
        for (size_t i = 0; i < t->ntopics; i++) {
            size_t pt;
            int in = 0;
            if (!qk_pool_find_topic(p, t->topics[i], &pt))
                continue;
            for (size_t k = 0; k < c->nt && !in; k++)
                in = c->topic[k] == pt;
            if (!in)
                continue;
            if (!isnan(t->v[i * t->nvalues + vap]))
                est[0 * nr + r] += t->v[i * t->nvalues + vap] / (double)c->nt;
            if (!isnan(t->v[i * t->nvalues + vp10]))
                est[1 * nr + r] += t->v[i * t->nvalues + vp10] / (double)c->nt;
        }
        qk_est_table_free(t);
    }
    qk_strata_free(sd);
    return st;
}
