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

qk_status qk_stats_adjust(const double *p, size_t m, qk_correction c, double *adj, qk_error *err)
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
        return qk_error_set(err, QK_EINPUT,
                            "per-topic scores are needed (a matrix, not a "
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

qk_status qk_stats_pairwise(const qk_scores *m, qk_test t, const qk_test_opts *o, qk_correction c,
                            double alpha, qk_pair_result **out, size_t *npairs, size_t *nsig, qk_error *err)
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

size_t qk_stats_pair_blocks(qk_test t, long trials)
{
    if ((t != QK_TEST_PERM && t != QK_TEST_BOOTSTRAP) || trials < 1)
        return 1;
    return (size_t)((trials - 1) / QK_REPLICATE_BLOCK) + 1;
}

qk_status qk_stats_pairwise_block(const qk_scores *m, qk_test t, const qk_test_opts *o, size_t k,
                                  size_t block, qk_pair_result *res, qk_error *err)
{
    qk_test_opts ok;
    size_t nb;
    if (o)
        ok = *o;
    else
        qk_stats_test_opts_init(&ok);
    nb = qk_stats_pair_blocks(t, ok.trials);
    if (block >= nb)
        return qk_error_set(err, QK_EUSAGE, "replicate block %zu of %zu does not exist", block, nb);
    if (nb > 1 || t == QK_TEST_PERM || t == QK_TEST_BOOTSTRAP) {
        long end = (long)(block + 1) * QK_REPLICATE_BLOCK;
        ok.first_trial = (long)block * QK_REPLICATE_BLOCK;
        ok.end_trial = end < ok.trials ? end : ok.trials;
    }
    return qk_stats_pairwise_tests(m, t, &ok, k, k + 1, res, err);
}

void qk_stats_pair_record(const qk_pair_result *r, double v[QK_PAIR_RECORD])
{
    v[0] = (double)r->a;
    v[1] = (double)r->b;
    v[2] = r->test.statistic;
    v[3] = r->test.p;
    v[4] = r->test.mean_diff;
    v[5] = r->test.effect;
    v[6] = (double)r->test.n;
    v[7] = r->test.exact;
    v[8] = (double)r->test.hits;
}

static int is_count(double x, double lo)
{
    return x >= lo && x == floor(x) && x < 9007199254740992.0;
}

int qk_stats_pair_from_records(const double *v, size_t nblocks, long trials, qk_pair_result *r)
{
    long hits = 0;
    memset(r, 0, sizeof *r);
    if (nblocks < 1 || !is_count(v[0], 0) || !is_count(v[1], 0) || !(v[0] < v[1]) || !is_count(v[6], 0) ||
        !is_count(v[7], 0) || v[7] > 1 || !is_count(v[8], -1))
        return -1;
    r->a = (size_t)v[0];
    r->b = (size_t)v[1];
    r->test.statistic = v[2];
    r->test.p = v[3];
    r->test.mean_diff = v[4];
    r->test.effect = v[5];
    r->test.n = (long)v[6];
    r->test.exact = (int)v[7];
    r->test.hits = (long)v[8];
    for (size_t b = 1; b < nblocks; b++) {
        const double *w = v + b * QK_PAIR_RECORD;
        if (w[0] != v[0] || w[1] != v[1] || !is_count(w[8], -1) || (w[8] < 0) != (v[8] < 0))
            return -1;
    }
    if (r->test.hits >= 0) {
        for (size_t b = 0; b < nblocks; b++)
            hits += (long)v[b * QK_PAIR_RECORD + 8];
        if (trials < 1 || hits > trials)
            return -1;
        r->test.hits = hits;
        r->test.p = (double)hits / (double)trials;
    }
    r->p_adj = r->test.p;
    return 0;
}

qk_status qk_stats_significant_mask(const qk_scores *m, double alpha, unsigned char *mask, qk_error *err)
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
