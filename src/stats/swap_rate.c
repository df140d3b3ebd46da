/* Swap (error) rate against topic-set size (Voorhees & Buckley 2002; the
 * variability version of Hosseini 2013 App. F, Fig. F.6): how often two
 * disjoint random topic sets of size c order a pair of runs differently.
 *
 * Each trial draws one split (X, Y) and scores every run pair on it, so a
 * trial costs O(runs * c + pairs) instead of drawing a split per pair; every
 * pair still sees `trials` independent splits. Trial t of size c starts from
 * the identity permutation with seed qk_stats_replicate_seed(seed + c, t), so
 * any range of trials can be run on its own (compare --swap-rate --shard). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/stats.h"
#include "stats_internal.h"

typedef struct {
    const qk_scores *m;
    const qk_swap_opts *o;
    size_t c;
    size_t *perm;        /* topic indices, first 2c shuffled */
    double *vx, *vy;     /* per run statistic on X and Y */
    double *gx;          /* scratch: one run's values on X (nruns * c for Levene) */
    qk_swap_cell *cells; /* this size's bins */
    size_t nbins;
} swap_ctx;

static void run_stat(swap_ctx *s, const size_t *set, size_t r, double *vals, double *out)
{
    const double *row = s->m->v + r * s->m->ntopics;
    double mu;
    for (size_t k = 0; k < s->c; k++)
        // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.ArraySubscript): perm is a permutation
        vals[k] = row[set[k]];
    mu = qk_stats_mean_(vals, s->c);
    *out = s->o->on == QK_SWAP_MEAN ? mu : sqrt(qk_stats_ss_(vals, s->c, mu) / (double)(s->c - 1));
}

static void count(swap_ctx *s, double dx, double dy)
{
    size_t bin = 0;
    double w = s->o->bin_width;
    if (w > 0) {
        double b = floor(fabs(dx) / w);
        bin = b >= (double)(s->nbins - 1) ? s->nbins - 1 : (size_t)b;
    }
    s->cells[bin].comparisons++;
    /* a difference of exactly 0 on either side orders nothing: not a swap */
    if ((dx > 0 && dy < 0) || (dx < 0 && dy > 0))
        s->cells[bin].swaps++;
}

static qk_status one_trial(swap_ctx *s, qk_rng *rng, qk_error *err)
{
    size_t nr = s->m->nruns, nt = s->m->ntopics, c = s->c;
    const size_t *X = s->perm, *Y = s->perm + c;
    /* partial Fisher-Yates: the first 2c entries become a uniform random
     * ordered sample without replacement */
    for (size_t k = 0; k < 2 * c; k++) {
        size_t j = k + (size_t)qk_rng_below(rng, nt - k), t = s->perm[k];
        s->perm[k] = s->perm[j];
        s->perm[j] = t;
    }
    for (size_t r = 0; r < nr; r++) {
        run_stat(s, X, r, s->gx + r * c, &s->vx[r]);
        run_stat(s, Y, r, s->gx + nr * c, &s->vy[r]); /* last slot is scratch */
    }
    // NOLINTNEXTLINE(clang-analyzer-unix.Malloc): X points into s->perm, freed by the caller
    for (size_t i = 0; i < nr; i++)
        for (size_t j = i + 1; j < nr; j++) {
            if (s->o->on == QK_SWAP_SD) {
                const double *g[2] = {s->gx + i * c, s->gx + j * c};
                size_t sz[2] = {c, c};
                qk_var_test lv;
                qk_status st = qk_stats_levene(g, sz, 2, s->o->median, &lv, err);
                if (st != QK_OK)
                    return st;
                if (!(lv.p < s->o->alpha))
                    continue;
            }
            count(s, s->vx[i] - s->vx[j], s->vy[i] - s->vy[j]);
        }
    return QK_OK;
}

size_t qk_stats_swap_rate_bins(const qk_swap_opts *o)
{
    return o->bin_width > 0 ? (o->nbins ? o->nbins : 1) : 1;
}

/* Size and bounds of bin b of size o->sizes[k]. */
static void bin_bounds(const qk_swap_opts *o, size_t k, size_t b, qk_swap_cell *cell)
{
    cell->size = o->sizes[k];
    cell->bin_lo = o->bin_width > 0 ? (double)b * o->bin_width : 0.0;
    cell->bin_hi = b + 1 < qk_stats_swap_rate_bins(o) ? (double)(b + 1) * o->bin_width : INFINITY;
}

void qk_stats_swap_rate_cells(const qk_swap_opts *o, size_t k, qk_swap_cell *cells)
{
    for (size_t b = 0; b < qk_stats_swap_rate_bins(o); b++) {
        memset(&cells[b], 0, sizeof cells[b]);
        bin_bounds(o, k, b, &cells[b]);
    }
}

/* The checks of the input and options; *maxc = the largest size. */
static qk_status swap_check(const qk_scores *m, const qk_swap_opts *o, size_t *maxc, qk_error *err)
{
    *maxc = 0;
    if (!m->v || m->ntopics == 0 || m->nruns < 2)
        return qk_error_set(err, QK_EINPUT, "the swap rate needs per-topic scores of at least 2 runs");
    if (o->trials < 1 || o->nsizes == 0)
        return qk_error_set(err, QK_EUSAGE, "the swap rate needs at least one trial and one size");
    for (size_t k = 0; k < o->nsizes; k++) {
        size_t c = o->sizes[k];
        if (c < (o->on == QK_SWAP_SD ? 2u : 1u) || 2 * c > m->ntopics)
            return qk_error_set(err, QK_EUSAGE,
                                "topic-set size %zu is impossible: two disjoint sets of it need "
                                "%zu topics, the matrix has %zu%s",
                                c, 2 * c, m->ntopics, c < 2 ? " (and SDs need 2 per set)" : "");
        if (c > *maxc)
            *maxc = c;
    }
    return QK_OK;
}

static void ctx_free(swap_ctx *s)
{
    free(s->perm);
    free(s->vx);
    free(s->vy);
    free(s->gx);
}

static qk_status ctx_init(swap_ctx *s, const qk_scores *m, const qk_swap_opts *o, size_t maxc, qk_error *err)
{
    size_t nr = m->nruns;
    memset(s, 0, sizeof *s);
    s->m = m;
    s->o = o;
    s->nbins = qk_stats_swap_rate_bins(o);
    s->perm = malloc(m->ntopics * sizeof *s->perm);
    s->vx = malloc(nr * sizeof *s->vx);
    s->vy = malloc(nr * sizeof *s->vy);
    s->gx = malloc((nr + 1) * maxc * sizeof *s->gx);
    if (!s->perm || !s->vx || !s->vy || !s->gx) {
        ctx_free(s);
        return qk_error_set(err, QK_ENOMEM, "out of memory for the swap rate");
    }
    return QK_OK;
}

/* Trials [first, end) of size o->sizes[k] into cells[0..nbins). */
static qk_status size_trials(swap_ctx *s, size_t k, long first, long end, qk_swap_cell *cells, qk_error *err)
{
    const qk_swap_opts *o = s->o;
    qk_rng rng;
    s->c = o->sizes[k];
    s->cells = cells;
    for (long t = first; t < end; t++) {
        qk_status st;
        /* every trial starts from the identity with a seed of its own, so
         * it depends neither on other trials nor on other sizes */
        for (size_t i = 0; i < s->m->ntopics; i++)
            s->perm[i] = i;
        qk_rng_seed(&rng, qk_stats_replicate_seed(o->seed + s->c, (uint64_t)t));
        if ((st = one_trial(s, &rng, err)) != QK_OK)
            return st;
    }
    return QK_OK;
}

qk_status qk_stats_swap_rate_trials(const qk_scores *m, const qk_swap_opts *o, size_t k, long first, long end,
                                    qk_swap_cell *cells, qk_error *err)
{
    swap_ctx s;
    size_t maxc;
    qk_status st = swap_check(m, o, &maxc, err);
    if (st != QK_OK)
        return st;
    if (k >= o->nsizes || first < 0 || first > end || end > o->trials)
        return qk_error_set(err, QK_EUSAGE,
                            "trials %ld to %ld of size %zu are not within %ld trials of %zu sizes", first,
                            end, k, o->trials, o->nsizes);
    if ((st = ctx_init(&s, m, o, maxc, err)) != QK_OK)
        return st;
    for (size_t b = 0; b < s.nbins; b++)
        bin_bounds(o, k, b, &cells[b]); /* the counts go on */
    st = size_trials(&s, k, first, end, cells, err);
    ctx_free(&s);
    return st;
}

qk_status qk_stats_swap_rate(const qk_scores *m, const qk_swap_opts *o, qk_swap_cell **cells, size_t *ncells,
                             qk_error *err)
{
    size_t nb = qk_stats_swap_rate_bins(o), maxc;
    swap_ctx s;
    qk_status st;
    *cells = NULL;
    *ncells = 0;
    if ((st = swap_check(m, o, &maxc, err)) != QK_OK)
        return st;
    if (!(*cells = calloc(o->nsizes * nb, sizeof **cells)))
        return qk_error_set(err, QK_ENOMEM, "out of memory for the swap rate");
    if ((st = ctx_init(&s, m, o, maxc, err)) != QK_OK) {
        free(*cells);
        *cells = NULL;
        return st;
    }
    for (size_t k = 0; st == QK_OK && k < o->nsizes; k++) {
        qk_stats_swap_rate_cells(o, k, *cells + k * nb);
        st = size_trials(&s, k, 0, o->trials, *cells + k * nb, err);
    }
    ctx_free(&s);
    if (st != QK_OK) {
        free(*cells);
        *cells = NULL;
        return st;
    }
    *ncells = o->nsizes * nb;
    return QK_OK;
}
