/* The dispatch point of topic selection: the --method table, the options and
 * qk_topics_select, which builds the covariance the options ask for and calls
 * the method's file. Adding a method: an enum value (topics.h), a row below,
 * a case in qk_topics_select and its own file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"
#include "topics_internal.h"

const qk_enum qk_topics_method_table[] = {
    {"random", QK_TOPICS_RANDOM, "a uniform random subset (the baseline; 000a §6.1)"},
    {"greedy-pearson", QK_TOPICS_GREEDY_PEARSON,
     "add the topic that most raises Pearson's objective (eq 4.6)"},
    {"greedy", QK_TOPICS_GREEDY_PEARSON, NULL},
    {"greedy-kendall", QK_TOPICS_GREEDY_KENDALL,
     "add the topic that most raises Kendall's tau with the all-topics ranking"},
    {"convex", QK_TOPICS_CONVEX, "the L1-relaxed program (eq 4.11) along its regularisation path"},
    {"budget", QK_TOPICS_BUDGET, "the budget-constrained program (eqs 5.1-5.2); size follows B/Omega"},
    {"greedy-oracle", QK_TOPICS_GREEDY_ORACLE,
     "Kutlu's Alg. 1: add the topic of largest tau_b with the all-topics ranking"},
    {NULL, 0, NULL},
};

const qk_enum qk_topics_cov_table[] = {
    {"qs1", QK_TOPICS_COV_QS1, "unbiased: every system counts the same (eq 4.13)"},
    {"qs2", QK_TOPICS_COV_QS2, "weighted: only the top --qs2-top systems by mean score count"},
    {NULL, 0, NULL},
};

void qk_topics_opts_init(qk_topics_opts *o)
{
    memset(o, 0, sizeof *o);
    o->method = QK_TOPICS_GREEDY_PEARSON;
    o->size = 10;
    o->seed = 1;
    o->cov = QK_TOPICS_COV_QS1;
    o->qs2_top = 30;
    o->kappa = 0;
}

static qk_status make_cov(const qk_topic_matrix *m, const qk_topics_opts *o, qk_topics_cov **cov,
                          qk_error *err)
{
    double *w = NULL;
    qk_status st;
    if (o->cov == QK_TOPICS_COV_QS2) {
        if (!(w = malloc(m->nsys * sizeof *w)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        if ((st = qk_topics_weights_top(m, o->qs2_top, w, err)) != QK_OK) {
            free(w);
            return st;
        }
    }
    st = qk_topics_cov_new(m, w, cov, err);
    free(w);
    return st;
}

qk_status qk_topics_select(const qk_topic_matrix *m, const qk_topics_opts *o, qk_topics_selection **out,
                           qk_error *err)
{
    qk_topics_cov *cov = NULL;
    qk_topics_selection *sel = NULL;
    double *u = NULL;
    double t;
    qk_status st;
    *out = NULL;
    if (o->method != QK_TOPICS_BUDGET || o->budget_target) {
        if (o->size == 0)
            return qk_error_set(err, QK_EUSAGE, "--size must be at least 1");
        if (o->size > m->ntopics)
            return qk_error_set(err, QK_EUSAGE, "--size %zu is larger than the %zu topics of the matrix",
                                o->size, m->ntopics);
    }
    if ((st = make_cov(m, o, &cov, err)) != QK_OK)
        return st;
    if (o->use_uncertainty && m->var) {
        if (!(u = malloc(m->ntopics * sizeof *u))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        qk_topics_uncertainty(m, u);
    }
    switch (o->method) {
    case QK_TOPICS_RANDOM:
        if ((st = qk_topics_sel_new_(o->size, 0, &sel, err)) != QK_OK ||
            (st = qk_topics_random(m->ntopics, o->size, o->seed, sel->order, err)) != QK_OK)
            goto out;
        sel->m = o->size;
        st = qk_topics_prefix_objective_(cov, u, sel->order, sel->m, sel->objective, sel->rho, err);
        break;
    case QK_TOPICS_GREEDY_PEARSON: st = qk_topics_greedy_pearson(cov, u, o->size, &sel, err); break;
    case QK_TOPICS_GREEDY_KENDALL: st = qk_topics_greedy_kendall(m, cov, o->size, &sel, err); break;
    case QK_TOPICS_GREEDY_ORACLE: st = qk_topics_greedy_oracle(m, cov, o->size, &sel, err); break;
    case QK_TOPICS_CONVEX: st = qk_topics_convex(cov, o->size, o->signed_beta, &sel, err); break;
    case QK_TOPICS_BUDGET:
        if (!o->budget_target && (!(o->omega > 0) || !(o->budget >= 0) || o->budget > o->omega)) {
            st = qk_error_set(err, QK_EUSAGE, "the budget method needs 0 <= B <= Omega and Omega > 0");
            goto out;
        }
        t = o->budget_target ? 0 : (o->kappa > 0 ? o->kappa : (double)m->ntopics) * o->budget / o->omega;
        st = qk_topics_budget(cov, t, o->budget_target ? o->size : 0, &sel, err);
        break;
    default: st = qk_error_set(err, QK_EUSAGE, "unknown topic selection method %d", (int)o->method);
    }
out:
    if (st == QK_OK)
        *out = sel;
    else
        qk_topics_selection_free(sel);
    qk_topics_cov_free(cov);
    free(u);
    return st;
}
