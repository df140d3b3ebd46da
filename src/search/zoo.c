/* The zoo: a seeded population of retrieval systems for pooling and
 * topic-selection experiments. A real pool is built from systems that differ
 * in model, parameters, stemming and feedback, and that range from strong to
 * weak; the ranges below are chosen to give that spread (weak ends: extreme
 * BM25 parameters, heavy smoothing, badly tuned feedback, and queries that
 * lose terms, as a participant with a poor query formulation would). */
#include <math.h>
#include <stdio.h>

#include "qrelkit/search.h"

static double uniform(qk_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * qk_rng_uniform(r);
}

/* Round to a few significant digits so tags stay short and readable. */
static double tidy(double x, double step)
{
    return round(x / step) * step;
}

qk_status qk_search_zoo(size_t n, uint64_t seed, size_t nindexes, const qk_text_opts *texts,
                        qk_zoo_system *out, qk_error *err)
{
    static const int fb_docs[] = {3, 5, 10, 20, 50};
    static const int fb_terms[] = {5, 10, 20, 50, 100};
    if (n == 0 || n > 10000)
        return qk_error_set(err, QK_EUSAGE, "--zoo: %zu is not in [1, 10000]", n);
    if (nindexes == 0)
        return qk_error_set(err, QK_EUSAGE, "--zoo needs at least one index");
    for (size_t i = 0; i < n; i++) {
        qk_zoo_system *z = &out[i];
        qk_search_opts *o = &z->opts;
        qk_rng r;
        char desc[128];
        /* One generator per system: system i is the same whatever n is. */
        qk_rng_seed(&r, seed * 0x100000001B3ull + i);
        qk_search_opts_init(o);
        z->index = (size_t)qk_rng_below(&r, nindexes);
        double u = qk_rng_uniform(&r);
        o->model = u < 0.45 ? QK_MODEL_BM25 : u < 0.8 ? QK_MODEL_QL_DIR : QK_MODEL_QL_JM;
        o->k1 = tidy(uniform(&r, 0.2, 3.0), 0.1);
        o->b = tidy(uniform(&r, 0.0, 1.0), 0.05);
        o->mu = tidy(exp(uniform(&r, log(50), log(10000))), 10);
        o->lambda = tidy(uniform(&r, 0.05, 0.95), 0.05);
        o->rm3 = qk_rng_uniform(&r) < 0.35;
        o->fb_docs = fb_docs[qk_rng_below(&r, 5)];
        o->fb_terms = fb_terms[qk_rng_below(&r, 5)];
        o->fb_orig = tidy(uniform(&r, 0.1, 0.9), 0.1);
        z->query_keep = qk_rng_uniform(&r) < 0.6 ? 1.0 : tidy(uniform(&r, 0.3, 0.9), 0.1);
        qk_search_opts_tag(o, &texts[z->index], desc, sizeof desc);
        if (z->query_keep < 1)
            snprintf(z->tag, sizeof z->tag, "z%02zu-%s-q%g", i + 1, desc, z->query_keep);
        else
            snprintf(z->tag, sizeof z->tag, "z%02zu-%s", i + 1, desc);
    }
    return QK_OK;
}
