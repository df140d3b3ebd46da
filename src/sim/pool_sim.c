/* qk_pool_simulate: every method to every budget, trials times, with an
 * oracle judge; what each choice of documents buys in RMSE, bias and rank
 * correlation (Li thesis §1.10: rms and tau per sample set, averaged over
 * sample sets). Trials run in parallel threads, each writing only its own
 * slots, and are summarised in trial order, so the results do not depend
 * on the number of threads. */
#include "core/thread.h"
#include "pool_sim_internal.h"
#include "trial_seed.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void qk_pool_sim_opts_init(qk_pool_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->trials = 20;
    o->seed = 42;
    o->rel_level = 1;
    o->active_batch = 3;
    o->threads = 1;
    qk_pool_opts_init(&o->base);
}

/* One (method, budget, trial) outcome. */
typedef struct cell {
    double judged, relevant, rmse[3], bias[3], tau, tau_ap, top_ok, conf;
    double *pneg, *delta; /* mtc: adjacent pairs of the true ranking */
} cell;

typedef struct job {
    const sim_ctx *c;
    cell *cells;                               /* [m][b][trial] */
    size_t next_trial, end_trial, done, total; /* trials [next_trial, end_trial) */
    pthread_mutex_t mu;
    qk_status st;
    qk_error err;
} job;

static int deterministic(qk_pool_method m)
{
    return m == QK_POOL_DEPTH || m == QK_POOL_TOPK || m == QK_POOL_RRF || m == QK_POOL_RBP ||
           m == QK_POOL_MTC || m == QK_POOL_RTC;
}

/* The oracle's answer: the truth, flipped with the error rate by a coin
 * fixed per (trial, topic, document), so repeated questions agree. */
static int oracle(const sim_ctx *c, size_t ci, uint32_t d, size_t trial)
{
    int y = c->rel[ci][d] == 1;
    if (c->o->error_rate > 0) {
        uint64_t h = qk_sim_mix(c->o->seed ^ qk_sim_mix(trial * 0x100000001b3ULL + c->topic[ci]) ^
                                ((uint64_t)d << 20));
        if ((double)(h >> 11) * 0x1.0p-53 < c->o->error_rate)
            y = !y;
    }
    return y;
}

static cell *cell_at(const job *jb, size_t m, size_t b, size_t trial)
{
    const qk_pool_sim_opts *o = jb->c->o;
    return &jb->cells[(m * o->nbudgets + b) * o->trials + trial];
}

/* Run method mi of trial `trial` for one group (want = its runs, exclude =
 * the same mask) or for all runs; est_all[b] collects the estimates. */
static qk_status run_pass(const sim_ctx *c, size_t mi, size_t trial, const unsigned char *mask,
                          double **est_all, double *judged, double *relevant, job *jb)
{
    const qk_pool_sim_opts *o = c->o;
    const qk_pool_runs *p = c->p;
    size_t nr = qk_pool_num_runs(p), nt = qk_pool_num_topics(p);
    qk_pool_opts po = o->base;
    qk_pool_judged *J = NULL;
    qk_pool_design *D = NULL;
    qk_status st;
    size_t *ci_of = malloc((nt ? nt : 1) * sizeof *ci_of);
    double *est = malloc(QK_SIM_NMEASURES * nr * sizeof *est);
    if (!ci_of || !est) {
        free(ci_of);
        free(est);
        return QK_ENOMEM;
    }
    for (size_t t = 0; t < nt; t++)
        ci_of[t] = (size_t)-1;
    for (size_t i = 0; i < c->nt; i++)
        ci_of[c->topic[i]] = i;
    po.method = o->methods[mi];
    po.seed = qk_sim_trial_seed(o->seed, trial);
    po.exclude = mask;
    po.batch = po.method == QK_POOL_ACTIVE ? o->active_batch
               : (po.method == QK_POOL_MTC || po.method == QK_POOL_RTC || po.method == QK_POOL_MTF ||
                  po.method == QK_POOL_MAB)
                   ? 1
                   : 1000000;
    if ((st = qk_pool_judged_new(p, &J, NULL)) != QK_OK ||
        (qk_pool_method_samples(po.method) && (st = qk_pool_design_new(p, &po, &D, NULL)) != QK_OK))
        goto out;
    for (size_t b = 0; b < o->nbudgets; b++) {
        po.budget = o->budgets[b];
        for (;;) {
            qk_pool_pick *pk = NULL;
            size_t n = 0;
            if ((st = qk_pool_next(p, J, D, &po, &pk, &n, NULL)) != QK_OK)
                goto out;
            for (size_t k = 0; k < n; k++) {
                size_t ci = ci_of[pk[k].topic];
                qk_pool_judged_set(J, pk[k].topic, pk[k].doc,
                                   ci == (size_t)-1 ? 0 : oracle(c, ci, pk[k].doc, trial));
            }
            free(pk);
            if (n == 0)
                break;
        }
        if (po.method == QK_POOL_RTC) {
            cell *ce = cell_at(jb, mi, b, trial);
            if ((st = sim_rtc(c, J, est, mask ? NULL : ce->pneg, NULL)) != QK_OK)
                goto out;
            if (!mask)
                for (size_t k = 0; k < c->npairs; k++)
                    ce->delta[k] = c->truth[c->pair_a[k]] - c->truth[c->pair_b[k]];
            if (!mask && c->npairs)
                ce->conf = 1 - ce->pneg[0];
        } else if (po.method == QK_POOL_STRAT && o->runs) {
            if ((st = sim_xinfap(c, J, D, mask, est, NULL)) != QK_OK)
                goto out;
        } else if ((st = sim_estimate(c, po.method, J, D, mask, est)) != QK_OK)
            goto out;
        for (size_t r = 0; r < nr; r++)
            if (!mask || mask[r])
                for (int k = 0; k < QK_SIM_NMEASURES; k++)
                    est_all[b][k * nr + r] = est[k * nr + r];
        for (size_t i = 0; i < c->nt; i++) {
            const signed char *x = J->x[c->topic[i]];
            judged[b] += (double)J->njudged[c->topic[i]] / (double)c->nt;
            for (size_t d = 0; d < qk_pool_topic_at(p, c->topic[i])->ndocs; d++)
                relevant[b] += x[d] >= 0 && c->rel[i][d] == 1;
        }
        if (po.method == QK_POOL_MTC && !mask) {
            cell *ce = cell_at(jb, mi, b, trial);
            for (size_t k = 0; k < c->npairs; k++) {
                size_t a = c->pair_a[k], bb = c->pair_b[k];
                if ((st = sim_mtc_pneg(c, J, a, bb, &ce->pneg[k])) != QK_OK)
                    goto out;
                ce->delta[k] = c->truth[a] - c->truth[bb];
            }
            /* the truth ranks a above b: confidence in that order */
            ce->conf = 1 - ce->pneg[0];
        }
    }
out:
    qk_pool_design_free(D);
    qk_pool_judged_free(J);
    free(ci_of);
    free(est);
    return st;
}

static qk_status run_trial(job *jb, size_t trial)
{
    const sim_ctx *c = jb->c;
    const qk_pool_sim_opts *o = c->o;
    size_t nr = qk_pool_num_runs(c->p), ng = 0;
    qk_status st = QK_OK;
    double **est = calloc(o->nbudgets, sizeof *est), *judged = calloc(o->nbudgets, sizeof *judged),
           *relevant = calloc(o->nbudgets, sizeof *relevant);
    unsigned char *mask = calloc(nr, 1);
    if (!est || !judged || !relevant || !mask)
        st = QK_ENOMEM;
    for (size_t b = 0; st == QK_OK && b < o->nbudgets; b++)
        if (!(est[b] = calloc(QK_SIM_NMEASURES * nr, sizeof **est)))
            st = QK_ENOMEM;
    if (o->logo)
        for (size_t r = 0; r < nr; r++)
            if (o->group[r] + 1 > ng)
                ng = o->group[r] + 1;
    for (size_t mi = 0; st == QK_OK && mi < o->nmethods; mi++) {
        if (trial > 0 && deterministic(o->methods[mi]) && o->error_rate == 0)
            continue; /* the same every trial: copied from trial 0 */
        memset(judged, 0, o->nbudgets * sizeof *judged);
        memset(relevant, 0, o->nbudgets * sizeof *relevant);
        if (!o->logo)
            st = run_pass(c, mi, trial, NULL, est, judged, relevant, jb);
        for (size_t g = 0; st == QK_OK && g < ng; g++) {
            size_t in = 0;
            for (size_t r = 0; r < nr; r++)
                in += mask[r] = o->group[r] == g;
            if (in)
                st = run_pass(c, mi, trial, mask, est, judged, relevant, jb);
        }
        for (size_t b = 0; st == QK_OK && b < o->nbudgets; b++) {
            cell *ce = cell_at(jb, mi, b, trial);
            const double *h = c->truth;
            qk_kendall kd;
            ce->judged = o->logo ? judged[b] / (double)ng : judged[b];
            ce->relevant = o->logo ? relevant[b] / (double)ng : relevant[b];
            for (int k = 0; k < QK_SIM_NMEASURES; k++) {
                double se = 0, bs = 0;
                for (size_t r = 0; r < nr; r++) {
                    double dlt = est[b][k * nr + r] - h[k * nr + r];
                    se += dlt * dlt;
                    bs += dlt;
                }
                ce->rmse[k] = sqrt(se / (double)nr);
                ce->bias[k] = bs / (double)nr;
            }
            ce->tau = ce->tau_ap = NAN;
            if (nr >= 2 && qk_stats_kendall(h, est[b], nr, &kd, NULL) == QK_OK)
                ce->tau = kd.tau_b;
            if (nr >= 2 && qk_stats_tau_ap(h, est[b], nr, &ce->tau_ap, NULL) != QK_OK)
                ce->tau_ap = NAN;
            ce->top_ok = c->npairs > 0 && est[b][c->pair_a[0]] > est[b][c->pair_b[0]];
        }
    }
    for (size_t b = 0; est && b < o->nbudgets; b++)
        free(est[b]);
    free(est);
    free(judged);
    free(relevant);
    free(mask);
    return st;
}

static void *worker(void *arg)
{
    job *jb = arg;
    for (;;) {
        size_t trial;
        pthread_mutex_lock(&jb->mu);
        trial = jb->next_trial++;
        pthread_mutex_unlock(&jb->mu);
        if (trial >= jb->end_trial || jb->st != QK_OK)
            return NULL;
        {
            qk_status st = run_trial(jb, trial);
            pthread_mutex_lock(&jb->mu);
            if (st != QK_OK && jb->st == QK_OK)
                jb->st = st;
            jb->done++;
            if (jb->c->o->progress)
                jb->c->o->progress(jb->c->o->progress_ctx, jb->done, jb->total);
            pthread_mutex_unlock(&jb->mu);
        }
    }
}

static double mean_of(const double *v, size_t n, double *sd)
{
    double s = 0, s2 = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) {
            s += v[i];
            k++;
        }
    if (!k) {
        if (sd)
            *sd = NAN;
        return NAN;
    }
    s /= (double)k;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            s2 += (v[i] - s) * (v[i] - s);
    if (sd)
        *sd = k > 1 ? sqrt(s2 / (double)(k - 1)) : 0;
    return s;
}

static void summarise(const job *jb, size_t m, size_t b, qk_pool_sim_row *row)
{
    const qk_pool_sim_opts *o = jb->c->o;
    size_t T = o->trials;
    cell *c0 = cell_at(jb, m, b, 0);
    double tmp[4096];
    memset(row, 0, sizeof *row);
    row->method = o->methods[m];
    row->budget = o->budgets[b];
#define FIELD(f, dst, sdp)                                                                                   \
    do {                                                                                                     \
        for (size_t t = 0; t < T && t < 4096; t++)                                                           \
            tmp[t] = cell_at(jb, m, b, t)->f;                                                                \
        (dst) = mean_of(tmp, T < 4096 ? T : 4096, sdp);                                                      \
    } while (0)
    FIELD(judged, row->judged, NULL);
    FIELD(relevant, row->relevant, NULL);
    for (int k = 0; k < QK_SIM_NMEASURES; k++) {
        FIELD(rmse[k], row->rmse[k], k == 0 ? &row->rmse_sd : NULL);
        FIELD(bias[k], row->bias[k], NULL);
    }
    FIELD(tau, row->tau, &row->tau_sd);
    FIELD(tau_ap, row->tau_ap, NULL);
    FIELD(top_ok, row->top_pair, NULL);
#undef FIELD
    row->conf = row->conf_acc = row->w = NAN;
    if ((o->methods[m] == QK_POOL_MTC || o->methods[m] == QK_POOL_RTC) && !o->logo && jb->c->npairs > 0 &&
        c0->pneg) {
        size_t np = jb->c->npairs * T, k = 0;
        double *pn = malloc(np * sizeof *pn), *dl = malloc(np * sizeof *dl), cs = 0;
        qk_calibration cal;
        if (pn && dl) {
            for (size_t t = 0; t < T; t++) {
                cell *ce = cell_at(jb, m, b, t);
                cs += ce->conf;
                for (size_t q = 0; q < jb->c->npairs; q++, k++) {
                    pn[k] = ce->pneg[q];
                    dl[k] = ce->delta[q];
                }
            }
            row->conf = cs / (double)T;
            if (qk_stats_calibration(pn, dl, np, &cal, NULL) == QK_OK) {
                row->conf_acc = cal.all.accuracy;
                row->w = cal.all.w;
            }
        }
        free(pn);
        free(dl);
    }
}

/* The cells of every (method, budget, trial), pneg/delta for mtc and rtc. */
static qk_status cells_alloc(job *jb, const qk_pool_sim_opts *o, size_t nr, qk_error *err)
{
    size_t ncells = o->nmethods * o->nbudgets * o->trials;
    if (!(jb->cells = calloc(ncells, sizeof *jb->cells)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < ncells; i++)
        if ((o->methods[i / (o->nbudgets * o->trials)] == QK_POOL_MTC ||
             o->methods[i / (o->nbudgets * o->trials)] == QK_POOL_RTC) &&
            (!(jb->cells[i].pneg = calloc(nr ? nr : 1, sizeof(double))) ||
             !(jb->cells[i].delta = calloc(nr ? nr : 1, sizeof(double)))))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    return QK_OK;
}

static void cells_free(job *jb, const qk_pool_sim_opts *o)
{
    size_t ncells = o->nmethods * o->nbudgets * o->trials;
    for (size_t i = 0; jb->cells && i < ncells; i++) {
        free(jb->cells[i].pneg);
        free(jb->cells[i].delta);
    }
    free(jb->cells);
    jb->cells = NULL;
}

static qk_status check_opts(const qk_pool_sim_opts *o, qk_error *err)
{
    if (!o->nmethods || !o->nbudgets || !o->trials || (o->logo && !o->group))
        return qk_error_set(err, QK_EUSAGE,
                            "the simulation needs methods, budgets, trials (and groups for logo)");
    for (size_t m = 0; m < o->nmethods; m++)
        if (o->methods[m] == QK_POOL_RTC && (!o->runs || o->logo))
            return qk_error_set(err, QK_EUSAGE,
                                "rtc needs the ranked runs and does not combine with leave-one-group-out");
    for (size_t b = 1; b < o->nbudgets; b++)
        if (o->budgets[b] < o->budgets[b - 1])
            return qk_error_set(err, QK_EUSAGE, "budgets must be in increasing order");
    return QK_OK;
}

/* Trials [first, end) into jb's cells, in parallel threads. */
static qk_status run_trials(job *jb, size_t first, size_t end, qk_error *err)
{
    const qk_pool_sim_opts *o = jb->c->o;
    int nth = o->threads < 1 ? 1 : o->threads;
    pthread_t th[64];
    jb->next_trial = first;
    jb->end_trial = end;
    jb->total = end - first;
    if (nth > 64)
        nth = 64;
    for (int k = 0; k < nth; k++)
        if (qk_thread_create(&th[k], worker, jb) != 0) {
            nth = k;
            break;
        }
    if (nth == 0)
        worker(jb);
    for (int k = 0; k < nth; k++)
        pthread_join(th[k], NULL);
    if (jb->st != QK_OK)
        return qk_error_set(err, jb->st, "the simulation failed (%s)", qk_status_name(jb->st));
    return QK_OK;
}

/* Deterministic methods ran once: trial 0 stands for every trial; then the
 * rows, in trial order. */
static void finish(job *jb, size_t nr, qk_pool_sim_row *rows)
{
    const qk_pool_sim_opts *o = jb->c->o;
    for (size_t m = 0; m < o->nmethods; m++)
        if (deterministic(o->methods[m]) && o->error_rate == 0)
            for (size_t b = 0; b < o->nbudgets; b++)
                for (size_t t = 1; t < o->trials; t++) {
                    cell *dst = cell_at(jb, m, b, t), *src = cell_at(jb, m, b, 0);
                    double *pn = dst->pneg, *dl = dst->delta;
                    *dst = *src;
                    dst->pneg = pn;
                    dst->delta = dl;
                    if (pn && src->pneg) {
                        memcpy(pn, src->pneg, nr * sizeof *pn);
                        memcpy(dl, src->delta, nr * sizeof *dl);
                    }
                }
    for (size_t m = 0; m < o->nmethods; m++)
        for (size_t b = 0; b < o->nbudgets; b++)
            summarise(jb, m, b, &rows[m * o->nbudgets + b]);
}

qk_status qk_pool_simulate(const qk_pool_runs *p, const qk_qrels *truth, const qk_pool_sim_opts *o,
                           qk_pool_sim_row **rows, double **truth_map, qk_error *err)
{
    sim_ctx c;
    job jb;
    size_t nr = qk_pool_num_runs(p);
    qk_status st;
    *rows = NULL;
    if (truth_map)
        *truth_map = NULL;
    if ((st = check_opts(o, err)) != QK_OK)
        return st;
    if ((st = sim_ctx_init(&c, p, truth, o, err)) != QK_OK)
        return st;
    memset(&jb, 0, sizeof jb);
    jb.c = &c;
    pthread_mutex_init(&jb.mu, NULL);
    if ((st = cells_alloc(&jb, o, nr, err)) != QK_OK)
        goto out;
    if (!(*rows = calloc(o->nmethods * o->nbudgets, sizeof **rows))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = run_trials(&jb, 0, o->trials, err)) != QK_OK)
        goto out;
    finish(&jb, nr, *rows);
    if (truth_map && (*truth_map = malloc(nr * sizeof **truth_map)))
        memcpy(*truth_map, c.truth, nr * sizeof **truth_map);
out:
    cells_free(&jb, o);
    pthread_mutex_destroy(&jb.mu);
    sim_ctx_free(&c);
    if (st != QK_OK) {
        free(*rows);
        *rows = NULL;
    }
    return st;
}

/* ---- shards: trials as text records (exact: hexadecimal floats) ---- */

/* Whether trial t holds method m's cells (deterministic methods: trial 0). */
static int held(const qk_pool_sim_opts *o, size_t m, size_t t)
{
    return t == 0 || !deterministic(o->methods[m]) || o->error_rate != 0;
}

static char *encode_trial(const job *jb, size_t t)
{
    const qk_pool_sim_opts *o = jb->c->o;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    for (size_t m = 0; m < o->nmethods; m++)
        for (size_t b = 0; held(o, m, t) && b < o->nbudgets; b++) {
            const cell *ce = cell_at(jb, m, b, t);
            double v[] = {ce->judged,  ce->relevant, ce->rmse[0], ce->rmse[1], ce->rmse[2], ce->bias[0],
                          ce->bias[1], ce->bias[2],  ce->tau,     ce->tau_ap,  ce->top_ok,  ce->conf};
            for (size_t k = 0; k < sizeof v / sizeof *v; k++)
                fprintf(f, "%s%a", k ? " " : "", v[k]);
            for (size_t k = 0; ce->pneg && k < jb->c->npairs; k++)
                fprintf(f, " %a %a", ce->pneg[k], ce->delta[k]);
            fputc('\n', f);
        }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* One number of a record (after one space unless it is the line's first);
 * advances *s. */
static int take(const char **s, int first, double *v)
{
    char *e;
    if (!first && *(*s)++ != ' ')
        return -1;
    if (**s == ' ' || **s == '\n' || !**s)
        return -1;
    *v = strtod(*s, &e);
    if (e == *s)
        return -1;
    *s = e;
    return 0;
}

static int decode_trial(job *jb, size_t t, const char *s)
{
    const qk_pool_sim_opts *o = jb->c->o;
    for (size_t m = 0; m < o->nmethods; m++)
        for (size_t b = 0; held(o, m, t) && b < o->nbudgets; b++) {
            cell *ce = cell_at(jb, m, b, t);
            double *v[] = {&ce->judged,  &ce->relevant, &ce->rmse[0], &ce->rmse[1],
                           &ce->rmse[2], &ce->bias[0],  &ce->bias[1], &ce->bias[2],
                           &ce->tau,     &ce->tau_ap,   &ce->top_ok,  &ce->conf};
            for (size_t k = 0; k < sizeof v / sizeof *v; k++)
                if (take(&s, k == 0, v[k]) != 0)
                    return -1;
            for (size_t k = 0; ce->pneg && k < jb->c->npairs; k++)
                if (take(&s, 0, &ce->pneg[k]) != 0 || take(&s, 0, &ce->delta[k]) != 0)
                    return -1;
            if (*s++ != '\n')
                return -1;
        }
    return *s ? -1 : 0;
}

qk_status qk_pool_simulate_trials(const qk_pool_runs *p, const qk_qrels *truth, const qk_pool_sim_opts *o,
                                  size_t first, size_t end, char ***records, char **common, qk_error *err)
{
    sim_ctx c;
    job jb;
    size_t nr = qk_pool_num_runs(p);
    char **rec = NULL, *com = NULL;
    size_t clen = 0;
    FILE *f;
    qk_status st;
    *records = NULL;
    *common = NULL;
    if ((st = check_opts(o, err)) != QK_OK)
        return st;
    if (first > end || end > o->trials)
        return qk_error_set(err, QK_EUSAGE, "trials %zu to %zu are not within the %zu trials", first, end,
                            o->trials);
    if ((st = sim_ctx_init(&c, p, truth, o, err)) != QK_OK)
        return st;
    memset(&jb, 0, sizeof jb);
    jb.c = &c;
    pthread_mutex_init(&jb.mu, NULL);
    if ((st = cells_alloc(&jb, o, nr, err)) != QK_OK || (st = run_trials(&jb, first, end, err)) != QK_OK)
        goto out;
    if (!(rec = calloc(end - first + 1, sizeof *rec)) || !(f = open_memstream(&com, &clen))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    fprintf(f, "pool-sim %zu %zu\n", nr, c.npairs);
    for (size_t r = 0; r < nr; r++)
        fprintf(f, "%s%a", r ? " " : "", c.truth[r]);
    fputc('\n', f);
    if (fclose(f) != 0) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = first; t < end; t++)
        if (!(rec[t - first] = encode_trial(&jb, t))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
out:
    cells_free(&jb, o);
    pthread_mutex_destroy(&jb.mu);
    sim_ctx_free(&c);
    if (st != QK_OK) {
        for (size_t t = 0; rec && t < end - first; t++)
            free(rec[t]);
        free(rec);
        free(com);
        return st;
    }
    *records = rec;
    *common = com;
    return QK_OK;
}

/* A decimal count ended by `end`: its value and the characters used (with
 * the end). 0, or -1 when malformed. */
static int read_count(const char *s, char end, size_t *v, size_t *used)
{
    size_t i = 0, x = 0;
    for (; s[i] >= '0' && s[i] <= '9' && i < 19; i++)
        x = x * 10 + (size_t)(s[i] - '0');
    if (i == 0 || s[i] != end)
        return -1;
    *v = x;
    *used = i + 1;
    return 0;
}

qk_status qk_pool_simulate_combine(const qk_pool_sim_opts *o, const char *common, const char *const *records,
                                   qk_pool_sim_row **rows, double **truth_map, size_t *nruns, qk_error *err)
{
    sim_ctx c;
    job jb;
    size_t nr = 0, np = 0;
    const char *s;
    double *tm = NULL;
    qk_status st;
    size_t used = 0, used2 = 0;
    *rows = NULL;
    *truth_map = NULL;
    *nruns = 0;
    if (!o->nmethods || !o->nbudgets || !o->trials)
        return qk_error_set(err, QK_EUSAGE, "the simulation needs methods, budgets and trials");
    if (strncmp(common, "pool-sim ", 9) != 0 || read_count(common + 9, ' ', &nr, &used) != 0 ||
        read_count(common + 9 + used, '\n', &np, &used2) != 0 || np > nr)
        return qk_error_set(err, QK_EINPUT, "the parts' common record is not a pool simulation's");
    used += 9 + used2;
    memset(&c, 0, sizeof c);
    c.o = o;
    c.npairs = np;
    memset(&jb, 0, sizeof jb);
    jb.c = &c;
    pthread_mutex_init(&jb.mu, NULL);
    if (!(tm = malloc((nr ? nr : 1) * sizeof *tm)) ||
        !(*rows = calloc(o->nmethods * o->nbudgets, sizeof **rows))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    s = common + used;
    for (size_t r = 0; r < nr; r++)
        if (take(&s, r == 0, &tm[r]) != 0) {
            st = qk_error_set(err, QK_EINPUT, "the parts' true MAP values are malformed");
            goto out;
        }
    if ((st = cells_alloc(&jb, o, nr, err)) != QK_OK)
        goto out;
    for (size_t t = 0; t < o->trials; t++)
        if (decode_trial(&jb, t, records[t]) != 0) {
            st = qk_error_set(err, QK_EINPUT, "the record of trial %zu is malformed", t);
            goto out;
        }
    finish(&jb, nr, *rows);
    st = QK_OK;
out:
    cells_free(&jb, o);
    pthread_mutex_destroy(&jb.mu);
    if (st != QK_OK) {
        free(*rows);
        *rows = NULL;
        free(tm);
        return st;
    }
    *truth_map = tm;
    *nruns = nr;
    return QK_OK;
}
