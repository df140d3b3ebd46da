/* Estimates from a with-replacement sample (Li, ch. 2-3): the number of
 * relevant documents by Hansen-Hurwitz (needs only each draw's selection
 * probability, unbiased even when the distribution adapts between draws)
 * and by Horvitz-Thompson (needs the inclusion probabilities), and the HT
 * estimates of a run's AP, P@k and R-prec (Li Eqs. 2.12-2.15). */
#include "est_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { V_DRAWS, V_UNIQUE, V_RHH, V_VHH, V_RHT, V_VHT, V_AP, V_P10, V_P30, V_RP, V_COUNT };
static const char *const names[V_COUNT] = {"draws",    "sampled", "R_HH",   "var_R_HH", "R_HT",
                                           "var_R_HT", "htAP",    "htP_10", "htP_30",   "htRprec"};
static const unsigned char counts[V_COUNT] = {[V_DRAWS] = 1, [V_UNIQUE] = 1};

static int ptr_cmp(const void *a, const void *b)
{
    const qk_draw *x = *(const qk_draw *const *)a, *y = *(const qk_draw *const *)b;
    int c = strcmp(x->docno, y->docno);
    return c ? c : (x < y ? -1 : x > y); /* the last draw of a document wins */
}

static int key_cmp(const void *k, const void *e)
{
    return strcmp((const char *)k, (*(const qk_draw *const *)e)->docno);
}

/* HT estimates for the run; u = unique sampled documents (sorted by docno). */
static void ht_run(const qk_draw **u, size_t nu, double rhat, const est_rtopic *rt, double *row)
{
    double sum = 0, ap = 0, rp_sum = 0;
    long rp_cut = (long)ceil(rhat);
    row[V_P10] = row[V_P30] = 0;
    for (size_t r = 1; r <= rt->n; r++) {
        const qk_draw **hit = bsearch(rt->docnos[r - 1], u, nu, sizeof *u, key_cmp);
        if (hit && (*hit)->rel > 0) {
            sum += 1 / (*hit)->pi;
            /* PC(r(d)) includes d itself at 1/pi_d: Li's Eq. 2.14 as printed */
            ap += sum / (double)r / (*hit)->pi;
        }
        if (r == 10)
            row[V_P10] = sum / 10;
        if (r == 30)
            row[V_P30] = sum / 30;
        if ((long)r <= rp_cut)
            rp_sum = sum;
    }
    if (rt->n < 10)
        row[V_P10] = sum / 10;
    if (rt->n < 30)
        row[V_P30] = sum / 30;
    row[V_AP] = rhat > 0 ? ap / rhat : 0;
    row[V_RP] = rhat > 0 ? rp_sum / rhat : 0;
}

typedef struct pair_ctx {
    const qk_joint *j;
    const char *topic;
    const qk_draw **u;
    qk_error *err;
} pair_ctx;

static qk_status joint_pi(void *ctx, size_t a, size_t b, double *pij)
{
    const pair_ctx *c = ctx;
    if (qk_joint_get(c->j, c->topic, c->u[a]->docno, c->u[b]->docno, pij))
        return QK_OK;
    return qk_error_set(
        c->err, QK_EINPUT,
        "'%s': no joint inclusion probability for topic '%s' pair '%s' '%s' (both are sampled)",
        qk_joint_path(c->j), c->topic, c->u[a]->docno, c->u[b]->docno);
}

/* Every pair of sampled documents must be in the file, relevant or not:
 * a missing one means the file belongs to another sample. */
static qk_status all_pairs(const pair_ctx *c, size_t nu)
{
    double pij;
    qk_status st;
    for (size_t a = 0; a < nu; a++)
        for (size_t b = a + 1; b < nu; b++)
            if ((st = joint_pi((void *)c, a, b, &pij)) != QK_OK)
                return st;
    return QK_OK;
}

static qk_status eval_topic(const qk_draws *d, const qk_joint *j, size_t t, const est_rtopic *rt, double *row,
                            qk_error *err)
{
    size_t n, nu = 0;
    const qk_draw *dr = qk_draws_of(d, t, &n);
    const qk_draw **u = malloc((n ? n : 1) * sizeof *u);
    double *y = malloc((n ? n : 1) * sizeof *y), *p = malloc((n ? n : 1) * sizeof *p);
    int have_pi = 1;
    qk_total_est e;
    qk_status st = QK_OK;
    if (!u || !y || !p) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        u[i] = &dr[i];
        y[i] = dr[i].rel > 0;
        p[i] = dr[i].p;
        have_pi &= !isnan(dr[i].pi);
    }
    row[V_DRAWS] = (double)n;
    if (n > 0 && qk_hh_total(n, y, p, &e) == QK_OK) {
        row[V_RHH] = e.total;
        row[V_VHH] = e.var;
    }
    qsort(u, n, sizeof *u, ptr_cmp);
    for (size_t i = 0; i < n; i++) /* keep the last draw of each document */
        if (i + 1 == n || strcmp(u[i]->docno, u[i + 1]->docno) != 0)
            u[nu++] = u[i];
    row[V_UNIQUE] = (double)nu;
    if (have_pi && nu > 0) {
        for (size_t i = 0; i < nu; i++) {
            y[i] = u[i]->rel > 0;
            p[i] = u[i]->pi;
        }
        pair_ctx c = {j, qk_draws_topic(d, t), u, err};
        if (!j)
            qk_ht_total(nu, y, p, &e);
        else if ((st = all_pairs(&c, nu)) != QK_OK ||
                 (st = qk_ht_total_joint(nu, y, p, joint_pi, &c, &e)) != QK_OK)
            goto out;
        row[V_RHT] = e.total;
        row[V_VHT] = e.var;
        ht_run(u, nu, e.total, rt, row);
    }
out:
    free(u);
    free(y);
    free(p);
    return st;
}

static void summarise(qk_est_table *t)
{
    for (size_t v = 0; v < V_COUNT; v++) {
        double s = 0, k = 0;
        for (size_t i = 0; i < t->ntopics; i++) {
            double x = *est_cell(t, i, v);
            if (!isnan(x)) {
                s += x;
                k++;
            }
        }
        t->summary[v] = counts[v] ? s : k > 0 ? (v == V_VHH || v == V_VHT ? s / k / k : s / k) : NAN;
    }
}

qk_status qk_draws_eval(const qk_draws *d, const qk_run *run_in, qk_est_table **out, qk_error *err)
{
    return qk_draws_eval_joint(d, NULL, run_in, out, err);
}

qk_status qk_draws_eval_joint(const qk_draws *d, const qk_joint *j, const qk_run *run_in, qk_est_table **out,
                              qk_error *err)
{
    est_run run;
    qk_est_table *t = NULL;
    qk_status st;
    *out = NULL;
    if ((st = est_run_view(run_in, &run, err)) != QK_OK)
        return st;
    if ((st = est_table_new(V_COUNT, names, counts, qk_draws_num_topics(d), &t, err)) != QK_OK)
        goto out;
    for (size_t k = 0; k < qk_draws_num_topics(d); k++) {
        const est_rtopic *rt = NULL;
        for (size_t r = 0; r < run.ntopics && !rt; r++)
            if (strcmp(run.t[r].qid, qk_draws_topic(d, k)) == 0)
                rt = &run.t[r];
        if (!rt)
            continue;
        if (!(t->topics[t->ntopics] = strdup(qk_draws_topic(d, k)))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        if ((st = eval_topic(d, j, k, rt, est_cell(t, t->ntopics++, 0), err)) != QK_OK)
            goto out;
    }
    summarise(t);
    st = est_table_hand_over(&t, &run, out, err);
out:
    qk_est_table_free(t);
    est_run_free(&run);
    return st;
}
