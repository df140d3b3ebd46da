/* Simulated crowds (see sim.h for both worker models and their sources). */
#include "qrelkit/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void qk_crowd_sim_opts_init(qk_crowd_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->tasks = 1000;
    o->workers = 100;
    o->classes = 2;
    o->labels_per_task = 5;
    o->p_relevant = 0.5;
    o->acc_mean = 0.7;
    o->concentration = 10;
    o->acc_lo = -1;
    o->acc_hi = -1;
    o->noise_lo = 0;
    o->noise_hi = 2;
    o->seed = 42;
}

void qk_crowd_sim_free(qk_crowd_sim *s)
{
    if (!s)
        return;
    qk_crowd_labels_free(s->labels);
    free(s->truth);
    free(s->x);
    free(s->worker_acc);
    free(s->spammer);
    free(s);
}

/* Gamma(a, 1) by Marsaglia & Tsang (2000); a < 1 through the a+1 boost. */
static double gamma_draw(qk_rng *r, double a)
{
    if (a < 1) {
        double u = qk_rng_uniform(r);
        return gamma_draw(r, a + 1) * pow(u > 0 ? u : 1e-300, 1 / a);
    }
    double d = a - 1.0 / 3, c = 1 / sqrt(9 * d);
    for (;;) {
        double x = qk_rng_normal(r), v = 1 + c * x, u;
        if (v <= 0)
            continue;
        v = v * v * v;
        u = qk_rng_uniform(r);
        if (log(u > 0 ? u : 1e-300) < 0.5 * x * x + d - d * v + d * log(v))
            return d * v;
    }
}

static double beta_draw(qk_rng *r, double a, double b)
{
    double x = gamma_draw(r, a), y = gamma_draw(r, b);
    return x / (x + y);
}

static qk_status intern_names(qk_crowd_sim *s, const qk_crowd_sim_opts *o, qk_error *err)
{
    char name[32], *cls = malloc(o->classes * 24 + 1);
    const char *names[64];
    qk_status st = QK_OK;
    if (!cls)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t c = 0; c < o->classes; c++) {
        snprintf(cls + 24 * c, 24, "%zu", c);
        names[c] = cls + 24 * c;
    }
    st = qk_crowd_labels_set_classes(s->labels, names, o->classes, err);
    free(cls);
    for (size_t t = 0; t < o->tasks && st == QK_OK; t++) {
        snprintf(name, sizeof name, "t%06zu", t + 1);
        st = qk_crowd_labels_add_task(s->labels, name, NULL, err);
    }
    for (size_t w = 0; w < o->workers && st == QK_OK; w++) {
        snprintf(name, sizeof name, "w%05zu", w + 1);
        st = qk_crowd_labels_add_worker(s->labels, name, NULL, err);
    }
    return st;
}

/* Index into the power-law table cdf[0..n) by inversion. */
static size_t pick_powerlaw(qk_rng *r, const double *cdf, size_t n)
{
    return qk_rng_pick_cum(r, cdf, n);
}

static qk_status check_opts(const qk_crowd_sim_opts *o, qk_error *err)
{
    if (o->tasks < 1 || o->workers < 1 || o->classes < 2 || o->classes > 64)
        return qk_error_set(err, QK_EUSAGE, "need at least one task and worker and 2 to 64 classes");
    if (!(o->labels_per_task >= 1) || o->labels_per_task > (double)o->workers)
        return qk_error_set(err, QK_EUSAGE,
                            "labels per task must be between 1 and the number of workers (%zu)", o->workers);
    if (o->model == QK_CROWD_SIM_GAUSSIAN && o->classes != 2)
        return qk_error_set(err, QK_EUSAGE, "the gaussian worker model is binary");
    if (o->acc_lo >= 0 && !(o->acc_lo <= o->acc_hi && o->acc_hi <= 1))
        return qk_error_set(err, QK_EUSAGE, "accuracy range [%g, %g] is not inside [0, 1]", o->acc_lo,
                            o->acc_hi);
    if (o->acc_lo < 0 && !(o->acc_mean > 0 && o->acc_mean < 1 && o->concentration > 0))
        return qk_error_set(err, QK_EUSAGE, "mean accuracy must be in (0, 1) and the concentration positive");
    if (!(o->spam_fraction >= 0 && o->spam_fraction <= 1))
        return qk_error_set(err, QK_EUSAGE, "spammer fraction must be in [0, 1]");
    return QK_OK;
}

qk_status qk_crowd_simulate(const qk_crowd_sim_opts *o, qk_crowd_sim **out, qk_error *err)
{
    qk_crowd_sim *s = NULL;
    double *cdf = NULL;
    uint32_t *chosen = NULL;
    qk_rng rng;
    qk_status st;
    size_t nt = o->tasks, nw = o->workers, k = o->classes, base = (size_t)floor(o->labels_per_task);
    double frac = o->labels_per_task - (double)base;
    static const double mu[2][2] = {{0, 1}, {1, 0}}; /* class -1 (0), class +1 (1) */
    *out = NULL;
    if ((st = check_opts(o, err)) != QK_OK)
        return st;
    qk_rng_seed(&rng, o->seed);
    s = calloc(1, sizeof *s);
    if (!s || !(s->labels = qk_crowd_labels_new()) || !(s->truth = malloc(nt * sizeof *s->truth)) ||
        !(s->worker_acc = malloc(nw * sizeof *s->worker_acc)) || !(s->spammer = calloc(nw, 1)) ||
        !(cdf = malloc(nw * sizeof *cdf)) || !(chosen = malloc((base + 2) * sizeof *chosen)) ||
        (o->model == QK_CROWD_SIM_GAUSSIAN && !(s->x = malloc(2 * nt * sizeof *s->x)))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = intern_names(s, o, err)) != QK_OK)
        goto out;
    for (size_t w = 0; w < nw; w++) {
        if (o->model == QK_CROWD_SIM_GAUSSIAN) {
            s->worker_acc[w] = o->noise_lo + (o->noise_hi - o->noise_lo) * qk_rng_uniform(&rng);
            cdf[w] = (w ? cdf[w - 1] : 0) + pow((double)(w + 1), -1.5);
        } else {
            s->worker_acc[w] = o->acc_lo >= 0 ? o->acc_lo + (o->acc_hi - o->acc_lo) * qk_rng_uniform(&rng)
                                              : beta_draw(&rng, o->concentration * o->acc_mean,
                                                          o->concentration * (1 - o->acc_mean));
            s->spammer[w] = qk_rng_uniform(&rng) < o->spam_fraction;
        }
    }
    for (size_t t = 0; t < nt; t++) {
        size_t n = base + (qk_rng_uniform(&rng) < frac), got = 0;
        int32_t y = k == 2 ? qk_rng_uniform(&rng) < o->p_relevant : (int32_t)qk_rng_below(&rng, k);
        double task_noise = 0;
        s->truth[t] = y;
        if (s->x) {
            double *x = s->x + 2 * t;
            x[0] = mu[y][0] + qk_rng_normal(&rng);
            x[1] = mu[y][1] + qk_rng_normal(&rng);
            task_noise = (x[0] - mu[y][0]) * (x[0] - mu[y][0]) + (x[1] - mu[y][1]) * (x[1] - mu[y][1]);
        }
        /* Distinct workers: redraw on a repeat (n is small next to nw). */
        while (got < n) {
            size_t w = s->x ? pick_powerlaw(&rng, cdf, nw) : (size_t)qk_rng_below(&rng, nw), dup = 0;
            for (size_t i = 0; i < got; i++)
                dup |= chosen[i] == w;
            if (dup)
                continue;
            chosen[got++] = (uint32_t)w;
            uint32_t lab;
            if (s->x) {
                double v = (y ? 1.0 : -1.0) + sqrt(task_noise + s->worker_acc[w]) * qk_rng_normal(&rng);
                lab = v > 0;
            } else if (s->spammer[w]) {
                lab = (uint32_t)qk_rng_below(&rng, k);
            } else if (qk_rng_uniform(&rng) < s->worker_acc[w]) {
                lab = (uint32_t)y;
            } else {
                lab = (uint32_t)qk_rng_below(&rng, k - 1);
                lab += lab >= (uint32_t)y;
            }
            if ((st = qk_crowd_labels_add_by_id(s->labels, (uint32_t)t, (uint32_t)w, lab, err)) != QK_OK)
                goto out;
        }
    }
    st = qk_crowd_labels_finish(s->labels, QK_CROWD_DUP_KEEP, NULL, err);
out:
    free(cdf);
    free(chosen);
    if (st != QK_OK) {
        qk_crowd_sim_free(s);
        return st;
    }
    *out = s;
    return QK_OK;
}

const qk_enum qk_crowd_sim_model_table[] = {
    {"accuracy", QK_CROWD_SIM_ACCURACY, "Beta (or uniform) worker accuracies (default)"},
    {"gaussian", QK_CROWD_SIM_GAUSSIAN, "2-D task features, task and worker noise (binary)"},
    {NULL, 0, NULL},
};
