/* All pairs of runs: one paired test per pair, family-wise correction
 * (Bonferroni, Holm) and the count behind discriminative power (Sakai 2006:
 * the share of run pairs a test finds significant at a given alpha). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/stats.h"

const qk_enum qk_stats_correction_table[] = {
    {"none", QK_CORRECT_NONE, "no correction"},
    {"bonferroni", QK_CORRECT_BONFERRONI, "Bonferroni: p times the number of pairs"},
    {"holm", QK_CORRECT_HOLM, "Holm's step-down method"},
    {NULL, 0, NULL},
};

int qk_stats_correction_parse(const char *name, qk_correction *out)
{
    const qk_enum *e = qk_enum_find(qk_stats_correction_table, name);
    if (!e)
        return -1;
    *out = (qk_correction)e->value;
    return 0;
}

typedef struct {
    double p;
    size_t i;
} pidx;

static int cmp_pidx(const void *pa, const void *pb)
{
    const pidx *a = pa, *b = pb;
    if (a->p != b->p)
        return a->p < b->p ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

qk_status qk_stats_adjust(const double *p, size_t m, qk_correction c, double *adj,
                          qk_error *err)
{
    pidx *s;
    double run = 0;
    if (c == QK_CORRECT_NONE || m == 0) {
        memmove(adj, p, m * sizeof *adj);
        return QK_OK;
    }
    if (c == QK_CORRECT_BONFERRONI) {
        for (size_t i = 0; i < m; i++)
            adj[i] = fmin(1.0, p[i] * (double)m);
        return QK_OK;
    }
    /* Holm's step-down: the k-th smallest p (k from 0) is multiplied by m - k,
     * and adjusted values are made monotone so that rejecting a hypothesis
     * implies rejecting every hypothesis with a smaller p. */
    s = malloc(m * sizeof *s);
    if (!s)
        return qk_error_set(err, QK_ENOMEM, "out of memory for %zu p-values", m);
    for (size_t i = 0; i < m; i++) {
        s[i].p = p[i];
        s[i].i = i;
    }
    qsort(s, m, sizeof *s, cmp_pidx);
    for (size_t k = 0; k < m; k++) {
        run = fmax(run, fmin(1.0, s[k].p * (double)(m - k)));
        adj[s[k].i] = run;
    }
    free(s);
    return QK_OK;
}

static qk_status need_topics(const qk_scores *m, qk_error *err)
{
    if (!m->v || m->ntopics == 0)
        return qk_error_set(err, QK_EINPUT, "per-topic scores are needed (a matrix, not a "
                                            "run<TAB>score list)");
    if (m->nruns < 2)
        return qk_error_set(err, QK_EINPUT, "at least 2 runs are needed, got %zu", m->nruns);
    return QK_OK;
}

qk_status qk_stats_pairwise_tests(const qk_scores *m, qk_test t, const qk_test_opts *o, size_t first,
                                  size_t end, qk_pair_result *res, qk_error *err)
{
    size_t k = 0, nt = m->ntopics;
    qk_test_opts def;
    qk_status st;
    if ((st = need_topics(m, err)) != QK_OK)
        return st;
    if (!o) {
        qk_stats_test_opts_init(&def);
        o = &def;
    }
    for (size_t i = 0; i < m->nruns && k < end; i++)
        for (size_t j = i + 1; j < m->nruns && k < end; j++, k++) {
            qk_test_opts ok = *o;
            qk_pair_result *r;
            if (k < first)
                continue;
            r = &res[k - first];
            ok.seed = o->seed + k;
            r->a = i;
            r->b = j;
            st = qk_stats_paired_test(t, m->v + i * nt, m->v + j * nt, nt, &ok, &r->test, err);
            if (st != QK_OK) {
                if (err) {
                    char msg[sizeof err->message];
                    memcpy(msg, err->message, sizeof msg);
                    qk_error_set(err, st, "runs '%s' and '%s': %s", m->runs[i], m->runs[j], msg);
                }
                return st;
            }
            r->p_adj = r->test.p;
            r->significant = 0;
        }
    return QK_OK;
}

qk_status qk_stats_pairwise_adjust(qk_pair_result *res, size_t np, qk_correction c, double alpha,
                                   size_t *nsig, qk_error *err)
{
    double *p = calloc(np ? np : 1, sizeof *p), *adj = calloc(np ? np : 1, sizeof *adj);
    qk_status st = QK_OK;
    *nsig = 0;
    if (!p || !adj) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for %zu run pairs", np);
        goto out;
    }
    for (size_t k = 0; k < np; k++)
        p[k] = res[k].test.p;
    if ((st = qk_stats_adjust(p, np, c, adj, err)) != QK_OK)
        goto out;
    for (size_t k = 0; k < np; k++) {
        res[k].p_adj = adj[k];
        res[k].significant = adj[k] < alpha;
        *nsig += (size_t)res[k].significant;
    }
out:
    free(p);
    free(adj);
    return st;
}

qk_status qk_stats_pairwise(const qk_scores *m, qk_test t, const qk_test_opts *o,
                            qk_correction c, double alpha, qk_pair_result **out,
                            size_t *npairs, size_t *nsig, qk_error *err)
{
    size_t np;
    qk_pair_result *res = NULL;
    qk_status st;
    *out = NULL;
    *npairs = *nsig = 0;
    if ((st = need_topics(m, err)) != QK_OK)
        return st;
    np = m->nruns * (m->nruns - 1) / 2;
    if (!(res = calloc(np, sizeof *res)))
        return qk_error_set(err, QK_ENOMEM, "out of memory for %zu run pairs", np);
    if ((st = qk_stats_pairwise_tests(m, t, o, 0, np, res, err)) != QK_OK ||
        (st = qk_stats_pairwise_adjust(res, np, c, alpha, nsig, err)) != QK_OK) {
        free(res);
        return st;
    }
    *out = res;
    *npairs = np;
    return QK_OK;
}

qk_status qk_stats_significant_mask(const qk_scores *m, double alpha, unsigned char *mask,
                                    qk_error *err)
{
    size_t n = m->nruns, nt = m->ntopics;
    qk_status st;
    if ((st = need_topics(m, err)) != QK_OK)
        return st;
    memset(mask, 0, n * n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            qk_test_result r;
            if ((st = qk_stats_ttest(m->v + i * nt, m->v + j * nt, nt, &r, err)) != QK_OK)
                return st;
            mask[i * n + j] = r.p < alpha;
        }
    return QK_OK;
}
