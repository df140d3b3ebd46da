/* qrelkit compare: how far an evaluation can be trusted. Six modes, each a
 * thin driver over src/stats: --truth (agreement of two scorings), --pairs
 * (significance over all run pairs), --calibration (confidence bins and W),
 * --swap-rate, --variability and --variance (Hosseini App. F).
 * Every mode builds one JSON document (rows + summary) and prints it either
 * as JSON or as TSV, so the two formats cannot drift apart. */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tables.h"
#include "cli_util.h"
#include "compare.h"
#include "shard_cli.h"
#include "qrelkit/distributions.h"
#include "qrelkit/stats.h"


const char qk_help_compare[] =
    "usage: qrelkit compare --truth A.tsv B.tsv [C.tsv]      agreement of two scorings\n"
    "       qrelkit compare --pairs MATRIX.tsv [--test T] [--correct C]   significance\n"
    "       qrelkit compare --calibration PRED.tsv              confidence bins and W\n"
    "       qrelkit compare --swap-rate MATRIX.tsv [--sizes LIST] error rate vs topics\n"
    "       qrelkit compare --variability MATRIX.tsv            SD of each run vs its bound\n"
    "       qrelkit compare --variance MATRIX.tsv               equal-variability tests\n"
    "\n"
    "How far can you trust an evaluation? compare answers with correlations between\n"
    "rankings, paired significance tests over every pair of runs, calibration of\n"
    "predicted confidences, and the stability of conclusions under other topic sets.\n"
    "\n"
    "Inputs (TAB-separated, one header line; blank and '#' lines are skipped;\n"
    "gzip is read; '-' reads standard input):\n"
    "  MATRIX.tsv  'topic<TAB>RUN1<TAB>RUN2...' then 'QID<TAB>v1<TAB>v2...' per topic\n"
    "              (what 'qrelkit eval --matrix MEASURE' writes). Runs are columns.\n"
    "  scoring     a MATRIX (reduced to each run's mean) or 'run<TAB>score' lines with\n"
    "              an optional 'run<TAB>score' header; told apart by the header.\n"
    "  PRED.tsv    'run_a<TAB>run_b<TAB>p_neg<TAB>true_delta': p_neg = predicted\n"
    "              P(MAP(a) - MAP(b) < 0), true_delta = true MAP(a) - MAP(b).\n"
    "\n"
    "--truth A B: A is the reference ranking, B the one being judged (runs matched by\n"
    "name). tau_a counts concordant minus discordant pairs over all pairs; tau_b\n"
    "corrects for ties; tau_ap (Yilmaz et al. 2008) weighs swaps near the top more;\n"
    "spearman and pearson are rank and linear correlation; rmse, mse and bias (mean\n"
    "of B - A) measure the scores themselves; max_drop is the most places any run\n"
    "falls from A's ranking to B's; swapped_pairs = discordant pairs. When A is a\n"
    "matrix, tau_sig is tau over the pairs a paired t-test on A finds significant\n"
    "(--alpha). With a third scoring C, p_plus = concordant(B) - concordant(C).\n"
    "\n"
    "--pairs MATRIX: one paired test per pair of runs on the per-topic scores:\n"
    "  --test @{stats-test}   (default t)\n"
    "      t: Student's paired t. wilcoxon: signed ranks, exact up to 25 non-zero\n"
    "      differences, else normal with tie and continuity correction. sign: binomial.\n"
    "      perm: two-sided randomisation test on the mean difference (exact up to 20\n"
    "      topics). bootstrap: Sakai's paired bootstrap (shift method, t statistic).\n"
    "  --correct @{stats-correct}  family-wise correction over all pairs (none)\n"
    "  --alpha A (0.05)  --trials N (100000)  --seed S (1)\n"
    "  Rows: means, delta = mean(a - b), effect = delta / sd(a - b), statistic, p,\n"
    "  p_adj, significant. The summary gives the discriminative power: the share of\n"
    "  pairs significant at alpha. --summary prints only the summary.\n"
    "  --shard I/N  shard I of N of the (pair, block of 1000 replicates) items only,\n"
    "      as a part file; 'qrelkit merge' of all N parts prints the unsharded\n"
    "      bytes. Pair k's replicate t draws from seed S + k and block t/1000 only.\n"
    "\n"
    "--calibration PRED: pairs are oriented so the predicted sign has confidence\n"
    "P >= 0.5 and binned at 0.5 0.6 0.7 0.8 0.9 0.95 0.99 1 (Carterette et al. 2007).\n"
    "Accuracy should be at least the bin's confidence. W is the mean of\n"
    "(y - P)/(1 - P), capped at -100: about 0 when calibrated, < 0 over-confident.\n"
    "\n"
    "--swap-rate MATRIX: draws two disjoint random topic sets of size c (--trials,\n"
    "default 50, per size), and counts how often they order a pair of runs\n"
    "differently (Voorhees & Buckley 2002). --sizes 5,10,15 (default: up to ten\n"
    "sizes up to half the topics), --bin-width W --bins K bins by |difference|,\n"
    "--on sd compares SDs of pairs Levene finds different (Hosseini App. F).\n"
    "Trial t of size c draws from seed S + c and t only; --shard I/N splits the\n"
    "(size, trial) items as with --pairs.\n"
    "\n"
    "--variability / --variance MATRIX (Hosseini App. F): per-run mean, SD and the\n"
    "largest SD a [0,1] score with that mean can have (sqrt(m(1-m))); per pair, the\n"
    "t-test p (a tie when >= alpha), the F-test and Levene's test of equal SDs.\n"
    "  --transform @{stats-transform} (none)  --epsilon E (0.001, logit clamp)\n"
    "  --ftest variance|sd-ratio (variance)  --levene mean|median (mean)\n"
    "  --top F  keep the best fraction F of runs by raw mean (e.g. 0.75)\n"
    "\n"
    "Output: --format @{format} (tsv; one header line), --precision N (4 decimals).\n"
    "Exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O.\n"
    "\n"
    "Examples:\n"
    "  qrelkit eval --matrix map -c qrels run1 run2 run3 > map.tsv\n"
    "  qrelkit compare --pairs map.tsv --test perm --correct holm --seed 7\n"
    "  qrelkit compare --truth full-judgments.tsv sampled.tsv\n"
    "Definitions and references: doc/qrelkit-compare.md\n";

/* ---- output ------------------------------------------------------------- */
/* From here on reals are printed in exponent form (1.2345e+308). */
#define HUGE_FIXED 1e15


static json_t *num(const out *w, double x)
{
    double s = pow(10.0, w->o->precision), r;
    if (isnan(x))
        return json_null();
    if (isinf(x)) /* e.g. the open end of the last bin: JSON has no infinity */
        return json_string(x > 0 ? "inf" : "-inf");
    if (fabs(x) >= HUGE_FIXED) /* x * s could overflow, and no decimals to round */
        return json_real(x);
    r = round(x * s) / s;
    return json_real(r == 0 ? 0.0 : r); /* no "-0.0000" */
}

static void put(json_t *obj, const char *key, json_t *v) { json_object_set_new(obj, key, v); }

static void print_value(const out *w, json_t *v)
{
    if (json_is_string(v))
        fputs(json_string_value(v), stdout);
    else if (json_is_integer(v))
        printf("%lld", (long long)json_integer_value(v));
    else if (json_is_real(v) && fabs(json_real_value(v)) >= HUGE_FIXED)
        printf("%.*e", w->o->precision, json_real_value(v)); /* not 300 digits */
    else if (json_is_real(v))
        printf("%.*f", w->o->precision, json_real_value(v));
    else
        fputs("nan", stdout);
}

int cmp_emit(out *w)
{
    const char *key;
    json_t *v;
    if (w->o->json) {
        char *s = json_dumps(w->doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
        if (!s)
            return QK_EXIT_IO;
        puts(s);
        free(s);
    } else if (w->o->summary_only || !w->rows) {
        puts("statistic\tvalue");
        json_object_foreach(w->summary, key, v) {
            printf("%s\t", key);
            print_value(w, v);
            putchar('\n');
        }
    } else {
        size_t i;
        json_t *row, *first = json_array_get(w->rows, 0);
        int sep = 0;
        json_object_foreach(first, key, v) {
            printf("%s%s", sep++ ? "\t" : "", key);
        }
        putchar('\n');
        json_array_foreach(w->rows, i, row) {
            sep = 0;
            json_object_foreach(row, key, v) {
                if (sep++)
                    putchar('\t');
                print_value(w, v);
            }
            putchar('\n');
        }
    }
    return fflush(stdout) == 0 ? QK_EXIT_OK : QK_EXIT_IO;
}

void cmp_out_init(out *w, const opts *o, const char *mode, int with_rows)
{
    w->o = o;
    w->doc = json_object();
    put(w->doc, "mode", json_string(mode));
    w->summary = json_object();
    put(w->doc, "summary", w->summary);
    w->rows = with_rows ? json_array() : NULL;
    if (w->rows)
        put(w->doc, "rows", w->rows);
}

/* ---- modes ---------------------------------------------------------------- */
static void warn_renamed(const char *path, const qk_scores *m)
{
    if (m && m->renamed)
        qk_cli_errorf(CMD, "warning: '%s' repeats run names; %zu column%s renamed NAME#2, "
                           "NAME#3 ... in column order", path, m->renamed, m->renamed == 1 ? "" : "s");
}

/* A score table from a file (the library parses, the CLI opens). */
typedef qk_status (*scores_parser)(qk_lines *l, qk_scores **out, qk_error *err);
static qk_status read_scores(const char *path, scores_parser parse, qk_scores **res, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(path, &l, err);
    if (st == QK_OK)
        st = parse(l, res, err);
    qk_lines_close(l);
    return st;
}

qk_status cmp_read_matrix(const char *path, qk_scores **m, qk_error *err)
{
    qk_status st = read_scores(path, qk_stats_read_matrix, m, err);
    if (st == QK_OK)
        warn_renamed(path, *m);
    return st;
}
/* Values of `est` in the run order of `truth`; every run must be in both. */
static qk_status align(const qk_scores *truth, const qk_scores *est, const char *tf,
                       const char *ef, double *out_v, qk_error *err)
{
    size_t k;
    for (size_t i = 0; i < truth->nruns; i++) {
        if (!qk_stats_scores_find(est, truth->runs[i], &k))
            return qk_error_set(err, QK_EINPUT, "run '%s' is in '%s' but not in '%s'",
                                truth->runs[i], tf, ef);
        out_v[i] = est->mean[k];
    }
    for (size_t i = 0; i < est->nruns; i++)
        if (!qk_stats_scores_find(truth, est->runs[i], &k))
            return qk_error_set(err, QK_EINPUT, "run '%s' is in '%s' but not in '%s'",
                                est->runs[i], ef, tf);
    return QK_OK;
}

static qk_status run_truth(const opts *o, out *w, qk_error *err)
{
    qk_scores *s[3] = {NULL, NULL, NULL};
    double *est = NULL, *alt = NULL;
    unsigned char *mask = NULL;
    qk_agreement ag;
    qk_status st = QK_OK;
    size_t n;
    json_t *S = w->summary;
    for (int i = 0; i < o->nfiles; i++)
        if ((st = read_scores(o->files[i], qk_stats_read_scoring, &s[i], err)) != QK_OK)
            goto out;
        else
            warn_renamed(o->files[i], s[i]);
    n = s[0]->nruns; // NOLINT(clang-analyzer-core.NullDereference): parse requires files
    est = malloc(n * sizeof *est);
    alt = malloc(n * sizeof *alt);
    if (!est || !alt) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = align(s[0], s[1], o->files[0], o->files[1], est, err)) != QK_OK ||
        (o->nfiles == 3 && (st = align(s[0], s[2], o->files[0], o->files[2], alt, err))))
        goto out;
    if ((st = qk_stats_agreement(s[0]->mean, est, n, &ag, err)) != QK_OK)
        goto out;
    put(S, "systems", json_integer((json_int_t)n));
    put(S, "pairs", json_integer(ag.kendall.pairs));
    put(S, "tau_a", num(w, ag.kendall.tau_a));
    put(S, "tau_b", num(w, ag.kendall.tau_b));
    put(S, "tau_ap", num(w, ag.tau_ap));
    put(S, "spearman", num(w, ag.spearman));
    put(S, "pearson", num(w, ag.pearson));
    put(S, "concordant", json_integer(ag.kendall.concordant));
    put(S, "swapped_pairs", json_integer(ag.kendall.discordant));
    put(S, "ties_truth", json_integer(ag.kendall.ties_x));
    put(S, "ties_estimate", json_integer(ag.kendall.ties_y));
    put(S, "rmse", num(w, ag.rmse));
    put(S, "mse", num(w, ag.mse));
    put(S, "bias", num(w, ag.bias));
    put(S, "max_drop", json_integer(ag.max_drop));
    put(S, "max_drop_run", json_string(ag.max_drop > 0 ? s[0]->runs[ag.max_drop_index] : "-"));
    if (s[0]->v) {
        qk_kendall ks, kc;
        if (!(mask = malloc(n * n))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        if ((st = qk_stats_significant_mask(s[0], o->alpha, mask, err)) != QK_OK ||
            (st = qk_stats_kendall_masked(s[0]->mean, est, n, mask, &ks, err)) != QK_OK)
            goto out;
        put(S, "sig_pairs", json_integer(ks.pairs));
        put(S, "tau_sig", num(w, ks.tau_a));
        put(S, "swapped_sig", json_integer(ks.discordant));
        if (o->nfiles == 3) {
            if ((st = qk_stats_kendall_masked(s[0]->mean, alt, n, mask, &kc, err)) != QK_OK)
                goto out;
            put(S, "p_plus_sig", json_integer(ks.concordant - kc.concordant));
        }
    }
    if (o->nfiles == 3) {
        qk_kendall kc;
        if ((st = qk_stats_kendall(s[0]->mean, alt, n, &kc, err)) != QK_OK)
            goto out;
        put(S, "p_plus", json_integer(ag.kendall.concordant - kc.concordant));
    }
out:
    for (int i = 0; i < 3; i++)
        qk_stats_scores_free(s[i]);
    free(est);
    free(alt);
    free(mask);
    return st;
}

/* The rows and summary of --pairs from the tests (shared by the unsharded
 * command and `qrelkit merge`, so the two print the same bytes). */
void cmp_pairs_output(const opts *o, out *w, char *const *runs, const double *mean, size_t nruns,
                         size_t ntopics, const qk_pair_result *res, size_t np, size_t nsig, long trials)
{
    int resampled = o->test == QK_TEST_PERM || o->test == QK_TEST_BOOTSTRAP;
    for (size_t k = 0; k < np; k++) {
        json_t *r = json_object();
        const qk_test_result *t = &res[k].test;
        put(r, "run_a", json_string(runs[res[k].a]));
        put(r, "run_b", json_string(runs[res[k].b]));
        put(r, "mean_a", num(w, mean[res[k].a]));
        put(r, "mean_b", num(w, mean[res[k].b]));
        put(r, "delta", num(w, t->mean_diff));
        put(r, "effect", num(w, t->effect));
        put(r, "statistic", num(w, t->statistic));
        put(r, "n", json_integer(t->n));
        put(r, "p", num(w, t->p));
        put(r, "p_adj", num(w, res[k].p_adj));
        put(r, "significant", json_integer(res[k].significant));
        json_array_append_new(w->rows, r);
    }
    put(w->summary, "runs", json_integer((json_int_t)nruns));
    put(w->summary, "topics", json_integer((json_int_t)ntopics));
    put(w->summary, "test", json_string(qk_stats_test_name(o->test)));
    put(w->summary, "correction",
        json_string(o->correct == QK_CORRECT_HOLM ? "holm"
                    : o->correct == QK_CORRECT_BONFERRONI ? "bonferroni" : "none"));
    put(w->summary, "alpha", num(w, o->alpha));
    if (resampled) {
        put(w->summary, "trials", json_integer(trials));
        put(w->summary, "seed", json_integer((json_int_t)o->seed));
    }
    put(w->summary, "pairs", json_integer((json_int_t)np));
    put(w->summary, "significant", json_integer((json_int_t)nsig));
    put(w->summary, "discriminative_power", num(w, np ? (double)nsig / (double)np : NAN));
}

void cmp_pairs_test_opts(const opts *o, qk_test_opts *to)
{
    qk_stats_test_opts_init(to);
    to->seed = o->seed;
    if (o->trials > 0)
        to->trials = o->trials;
}

static qk_status run_pairs(const opts *o, out *w, qk_error *err)
{
    qk_scores *m = NULL;
    qk_pair_result *res = NULL;
    size_t np = 0, nsig = 0;
    qk_test_opts to;
    qk_status st = cmp_read_matrix(o->files[0], &m, err);
    if (st != QK_OK)
        return st;
    cmp_pairs_test_opts(o, &to);
    if ((st = qk_stats_pairwise(m, o->test, &to, o->correct, o->alpha, &res, &np, &nsig, err)) == QK_OK)
        cmp_pairs_output(o, w, m->runs, m->mean, m->nruns, m->ntopics, res, np, nsig, to.trials);
    free(res);
    qk_stats_scores_free(m);
    return st;
}

static qk_status run_calib(const opts *o, out *w, qk_error *err)
{
    double *p = NULL, *d = NULL;
    size_t n;
    qk_calibration c;
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(o->files[0], &l, err);
    if (st == QK_OK)
        st = qk_stats_read_predictions(l, &p, &d, &n, err);
    qk_lines_close(l);
    if (st != QK_OK)
        return st;
    if ((st = qk_stats_calibration(p, d, n, &c, err)) != QK_OK)
        goto out;
    for (int b = 0; b <= QK_CALIB_BINS; b++) {
        const qk_calib_bin *cb = b < QK_CALIB_BINS ? &c.bins[b] : &c.all;
        json_t *r = json_object();
        char label[32];
        if (b < QK_CALIB_BINS)
            snprintf(label, sizeof label, "%g-%g", cb->lo, cb->hi);
        put(r, "bin", json_string(b < QK_CALIB_BINS ? label : "all"));
        put(r, "lo", num(w, cb->lo));
        put(r, "hi", num(w, cb->hi));
        put(r, "pairs", json_integer(cb->pairs));
        put(r, "share", num(w, cb->share));
        put(r, "correct", json_integer(cb->correct));
        put(r, "accuracy", num(w, cb->accuracy));
        put(r, "true_ties", json_integer(cb->true_ties));
        put(r, "W", num(w, cb->w));
        json_array_append_new(w->rows, r);
    }
    put(w->summary, "pairs", json_integer(c.all.pairs));
    put(w->summary, "accuracy", num(w, c.all.accuracy));
    put(w->summary, "W", num(w, c.all.w));
out:
    free(p);
    free(d);
    return st;
}

/* Default sizes: up to ten evenly spaced sizes up to half the topics. */
qk_status cmp_swap_sizes(const opts *o, size_t ntopics, size_t **sizes, size_t *n,
                            qk_error *err)
{
    size_t half = ntopics / 2, step = half / 10 ? half / 10 : 1, cap = 0;
    size_t first = o->on == QK_SWAP_SD ? 2 : 1;
    *sizes = NULL;
    *n = 0;
    if (o->nsizes) {
        if (!(*sizes = malloc(o->nsizes * sizeof **sizes)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        for (size_t i = 0; i < o->nsizes; i++)
            (*sizes)[i] = (size_t)o->sizes[i];
        *n = o->nsizes;
        return QK_OK;
    }
    for (size_t c = step; c <= half; c += step)
        if (c >= first) {
            if (qk_grow((void **)sizes, &cap, *n + 1, sizeof **sizes))
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            (*sizes)[(*n)++] = c;
        }
    if (*n == 0)
        return qk_error_set(err, QK_EINPUT, "%zu topics are too few for two disjoint topic sets",
                            ntopics);
    return QK_OK;
}

/* The matrix of the App. F modes: transformed on all runs (spec F4), then,
 * with --top, cut to the best fraction of runs by raw mean. keep[] lists the
 * kept run indices in decreasing raw mean. */
qk_status cmp_appf_matrix(const opts *o, qk_scores **m, size_t **keep, size_t *nkeep,
                             size_t *degenerate, qk_error *err)
{
    double *raw = NULL;
    qk_status st = cmp_read_matrix(o->files[0], m, err);
    size_t n;
    *keep = NULL;
    if (st != QK_OK)
        return st;
    n = (*m)->nruns; // NOLINT(clang-analyzer-core.NullDereference): set when read_matrix succeeds
    raw = malloc(n * sizeof *raw);
    *keep = malloc(n * sizeof **keep);
    if (!raw || !*keep) {
        free(raw);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    memcpy(raw, (*m)->mean, n * sizeof *raw);
    st = qk_stats_transform(*m, o->transform, o->epsilon, degenerate, err);
    for (size_t i = 0; i < n; i++)
        (*keep)[i] = i;
    /* insertion sort by raw mean, descending, stable: n is the number of runs */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && raw[(*keep)[j]] > raw[(*keep)[j - 1]]; j--) {
            size_t t = (*keep)[j];
            (*keep)[j] = (*keep)[j - 1];
            (*keep)[j - 1] = t;
        }
    *nkeep = o->top > 0 ? (size_t)floor(o->top * (double)n) : n;
    if (st == QK_OK && *nkeep < 2)
        st = qk_error_set(err, QK_EINPUT, "--top %g keeps %zu of %zu runs; 2 are needed", o->top,
                          *nkeep, n);
    if (o->top <= 0)
        for (size_t i = 0; i < n; i++)
            (*keep)[i] = i; /* without --top keep the file's order */
    free(raw);
    return st;
}

static const char *transform_name(qk_transform t)
{
    return t == QK_TRANSFORM_LOGIT ? "logit" : t == QK_TRANSFORM_Z ? "z" : "none";
}

void cmp_swap_opts(const opts *o, const size_t *sizes, size_t nsizes, qk_swap_opts *so)
{
    memset(so, 0, sizeof *so);
    so->sizes = sizes;
    so->nsizes = nsizes;
    so->trials = o->trials > 0 ? o->trials : 50;
    so->seed = o->seed;
    so->on = o->on;
    so->alpha = o->alpha;
    so->median = o->median;
    so->bin_width = o->bin_width;
    so->nbins = (size_t)o->bins;
}

void cmp_swap_output(const opts *o, out *w, const qk_swap_cell *cells, size_t ncells, size_t nruns,
                     size_t ntopics, long trials)
{
    for (size_t k = 0; k < ncells; k++) {
        json_t *r = json_object();
        put(r, "size", json_integer((json_int_t)cells[k].size));
        if (o->bin_width > 0) {
            put(r, "bin_lo", num(w, cells[k].bin_lo));
            put(r, "bin_hi", num(w, cells[k].bin_hi));
        }
        put(r, "comparisons", json_integer(cells[k].comparisons));
        put(r, "swaps", json_integer(cells[k].swaps));
        put(r, "error_rate", num(w, cells[k].comparisons
                                        ? (double)cells[k].swaps / (double)cells[k].comparisons
                                        : NAN));
        json_array_append_new(w->rows, r);
    }
    put(w->summary, "runs", json_integer((json_int_t)nruns));
    put(w->summary, "topics", json_integer((json_int_t)ntopics));
    put(w->summary, "on", json_string(o->on == QK_SWAP_SD ? "sd" : "mean"));
    put(w->summary, "transform", json_string(transform_name(o->transform)));
    put(w->summary, "trials", json_integer(trials));
    put(w->summary, "seed", json_integer((json_int_t)o->seed));
}

static qk_status run_swap(const opts *o, out *w, qk_error *err)
{
    qk_scores *m = NULL;
    size_t *sizes = NULL, ns = 0, nc = 0, *keep = NULL, nkeep, deg = 0;
    qk_swap_cell *cells = NULL;
    qk_swap_opts so;
    qk_status st = cmp_appf_matrix(o, &m, &keep, &nkeep, &deg, err);
    if (st != QK_OK)
        goto out;
    if ((st = cmp_swap_sizes(o, m->ntopics, &sizes, &ns, err)) != QK_OK)
        goto out;
    cmp_swap_opts(o, sizes, ns, &so);
    if ((st = qk_stats_swap_rate(m, &so, &cells, &nc, err)) != QK_OK)
        goto out;
    cmp_swap_output(o, w, cells, nc, m->nruns, m->ntopics, so.trials);
out:
    free(sizes);
    free(cells);
    free(keep);
    qk_stats_scores_free(m);
    return st;
}

/* --variability (per run) and --variance (per pair: Table F.2's tie breaking). */
static qk_status run_appf(const opts *o, out *w, qk_error *err)
{
    qk_scores *m = NULL;
    size_t *keep = NULL, nkeep = 0, deg = 0, nt, ties = 0, by_f = 0, by_lev = 0, np = 0;
    qk_status st = cmp_appf_matrix(o, &m, &keep, &nkeep, &deg, err);
    if (st != QK_OK)
        goto out;
    nt = m->ntopics;
    for (size_t a = 0; a < nkeep && o->mode == M_VARIABILITY; a++) {
        qk_variability v;
        json_t *r = json_object();
        size_t i = keep[a]; // NOLINT(clang-analyzer-core.uninitialized.Assign): nkeep <= n, --top <= 1
        if ((st = qk_stats_variability(m->v + i * nt, nt, &v, err)) != QK_OK) {
            json_decref(r);
            goto out;
        }
        put(r, "run", json_string(m->runs[i]));
        put(r, "mean", num(w, v.mean));
        put(r, "sd", num(w, v.sd));
        put(r, "sd_pop", num(w, v.sd_pop));
        put(r, "bound", num(w, o->transform == QK_TRANSFORM_NONE ? v.bound : NAN));
        put(r, "sd_over_bound", num(w, o->transform == QK_TRANSFORM_NONE ? v.sd_pop / v.bound : NAN));
        json_array_append_new(w->rows, r);
    }
    for (size_t a = 0; a < nkeep && o->mode == M_VARIANCE; a++)
        for (size_t b = a + 1; b < nkeep; b++) {
            size_t i = keep[a], j = keep[b]; // NOLINT(clang-analyzer-core.uninitialized.Assign): keep[0..nkeep) set above
            const double *x = m->v + i * nt, *y = m->v + j * nt, *g[2] = {x, y};
            size_t sz[2] = {nt, nt};
            qk_test_result t;
            qk_var_test f, l;
            qk_variability vx, vy;
            json_t *r;
            int tie;
            if ((st = qk_stats_ttest(x, y, nt, &t, err)) ||
                (st = qk_stats_ftest(x, nt, y, nt, o->sd_ratio, &f, err)) ||
                (st = qk_stats_levene(g, sz, 2, o->median, &l, err)) ||
                (st = qk_stats_variability(x, nt, &vx, err)) ||
                (st = qk_stats_variability(y, nt, &vy, err)))
                goto out;
            tie = !(t.p < o->alpha);
            np++;
            ties += (size_t)tie;
            by_f += (size_t)(tie && f.p < o->alpha);
            by_lev += (size_t)(tie && l.p < o->alpha);
            r = json_object();
            put(r, "run_a", json_string(m->runs[i]));
            put(r, "run_b", json_string(m->runs[j]));
            put(r, "mean_a", num(w, vx.mean));
            put(r, "mean_b", num(w, vy.mean));
            put(r, "sd_a", num(w, vx.sd));
            put(r, "sd_b", num(w, vy.sd));
            put(r, "t_p", num(w, t.p));
            put(r, "tie", json_integer(tie));
            put(r, "F", num(w, f.statistic));
            put(r, "F_p", num(w, f.p));
            put(r, "levene_W", num(w, l.statistic));
            put(r, "levene_p", num(w, l.p));
            json_array_append_new(w->rows, r);
        }
    put(w->summary, "runs", json_integer((json_int_t)nkeep));
    put(w->summary, "topics", json_integer((json_int_t)nt));
    put(w->summary, "transform", json_string(transform_name(o->transform)));
    if (o->transform == QK_TRANSFORM_Z)
        put(w->summary, "degenerate_topics", json_integer((json_int_t)deg));
    if (o->mode == M_VARIANCE) {
        put(w->summary, "ftest", json_string(o->sd_ratio ? "sd-ratio" : "variance"));
        put(w->summary, "levene", json_string(o->median ? "median" : "mean"));
        put(w->summary, "alpha", num(w, o->alpha));
        put(w->summary, "pairs", json_integer((json_int_t)np));
        put(w->summary, "ties", json_integer((json_int_t)ties));
        put(w->summary, "ties_broken_by_F", json_integer((json_int_t)by_f));
        put(w->summary, "ties_broken_by_levene", json_integer((json_int_t)by_lev));
    }
out:
    free(keep);
    qk_stats_scores_free(m);
    return st;
}

/* ---- argument parsing ------------------------------------------------------ */

/* Every option that takes a value: where it goes and what it accepts. */
typedef struct copt {
    const char *name;
    char kind; /* 'e' word of table, 'i' int, 'l' long, 'd' double, 's' seed, 'L' list of longs */
    size_t off;
    const qk_enum *table;
    double lo, hi;
    int flags;
} copt;

#define O(f) offsetof(opts, f)
static const copt copts[] = {
    {"--format", 'e', O(json), qk_cli_format_table, 0, 0, 0},
    {"--precision", 'i', O(precision), NULL, 0, 15, 0},
    {"--alpha", 'd', O(alpha), NULL, 0, 1, QK_NUM_LO_OPEN | QK_NUM_HI_OPEN},
    {"--trials", 'l', O(trials), NULL, 1, 1e15, 0},
    {"--seed", 's', O(seed), NULL, 0, 0, 0},
    {"--test", 'e', O(test), qk_stats_test_table, 0, 0, 0},
    {"--correct", 'e', O(correct), qk_stats_correction_table, 0, 0, 0},
    {"--transform", 'e', O(transform), qk_stats_transform_table, 0, 0, 0},
    {"--epsilon", 'd', O(epsilon), NULL, 0, 0.5, QK_NUM_LO_OPEN | QK_NUM_HI_OPEN},
    {"--levene", 'e', O(median), qk_compare_levene_table, 0, 0, 0},
    {"--ftest", 'e', O(sd_ratio), qk_compare_ftest_table, 0, 0, 0},
    {"--on", 'e', O(on), qk_compare_on_table, 0, 0, 0},
    {"--top", 'd', O(top), NULL, 0, 1, QK_NUM_LO_OPEN},
    {"--bin-width", 'd', O(bin_width), NULL, 0, INFINITY, QK_NUM_LO_OPEN},
    {"--bins", 'l', O(bins), NULL, 1, 1e6, 0},
    {"--sizes", 'L', O(sizes), NULL, 1, 0, 0},
};
#undef O

static int set_option(const copt *c, const char *v, opts *o)
{
    char *field = (char *)o + c->off;
    long n;
    int rc;
    switch (c->kind) {
    case 'e': return qk_cli_enum(CMD, c->table, c->name, v, (int *)(void *)field);
    case 'd': return qk_cli_double(CMD, c->name, v, c->lo, c->hi, c->flags, (double *)(void *)field);
    case 'l': return qk_cli_long(CMD, c->name, v, (long)c->lo, (long)c->hi, (long *)(void *)field);
    case 's': return qk_cli_seed(CMD, c->name, v, (uint64_t *)(void *)field);
    case 'L': return qk_cli_long_list(CMD, c->name, v, 1, LONG_MAX, o->sizes, 256, &o->nsizes);
    default:
        rc = qk_cli_long(CMD, c->name, v, (long)c->lo, (long)c->hi, &n);
        *(int *)(void *)field = (int)n;
        return rc;
    }
}

/* One "--name VALUE" or "--name=VALUE" at argv[*i]: 0 done, else the exit code. */
static int value_option(int argc, char **argv, int *i, opts *o)
{
    const char *a = argv[*i], *eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    for (size_t k = 0; k < sizeof copts / sizeof *copts; k++) {
        if (strlen(copts[k].name) != len || strncmp(a, copts[k].name, len) != 0)
            continue;
        if (!eq && *i + 1 >= argc)
            return qk_cli_usage(CMD, "option '%s' needs a value", a);
        return set_option(&copts[k], eq ? eq + 1 : argv[++*i], o);
    }
    return qk_cli_usage(CMD, "unknown option '%s'", a);
}

int cmp_parse_args(int argc, char **argv, opts *o, qk_shard_spec *sh, int *shard_on)
{
    static const struct {
        const char *flag;
        enum mode m;
    } modes[] = {{"--truth", M_TRUTH},         {"--pairs", M_PAIRS},
                 {"--calibration", M_CALIB},   {"--swap-rate", M_SWAP},
                 {"--variability", M_VARIABILITY}, {"--variance", M_VARIANCE}};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int matched = 0, rc;
        for (size_t k = 0; k < sizeof modes / sizeof *modes; k++)
            if (strcmp(a, modes[k].flag) == 0) {
                if (o->mode != M_NONE && o->mode != modes[k].m)
                    return qk_cli_usage(CMD, "choose one of --truth, --pairs, --calibration, "
                                             "--swap-rate, --variability, --variance");
                o->mode = modes[k].m;
                matched = 1;
            }
        if (matched)
            continue;
        if (qk_cli_is_help(a))
            return -1;
        if (strcmp(a, "--summary") == 0) {
            o->summary_only = 1;
            continue;
        }
        if (strcmp(a, "--shard") == 0 || strncmp(a, "--shard=", 8) == 0) {
            const char *v = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v)
                return qk_cli_usage(CMD, "option '--shard' needs a value");
            if ((rc = qk_cli_shard_parse(CMD, v, sh)) != 0)
                return rc;
            *shard_on = 1;
            continue;
        }
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (o->nfiles == 3)
                return qk_cli_usage(CMD, "too many files ('%s')", a);
            o->files[o->nfiles++] = a;
            continue;
        }
        if ((rc = value_option(argc, argv, &i, o)) != 0)
            return rc;
    }
    if (o->mode == M_NONE)
        return qk_cli_usage(CMD, "choose a mode: --truth, --pairs, --calibration, --swap-rate, "
                                 "--variability or --variance");
    if (*shard_on && o->mode != M_PAIRS && o->mode != M_SWAP)
        return qk_cli_usage(CMD, "--shard splits --pairs and --swap-rate only; --truth, --calibration, "
                                 "--variability and --variance are deterministic and quick (run them whole)");
    if (o->mode == M_TRUTH ? (o->nfiles < 2) : (o->nfiles != 1))
        return qk_cli_usage(CMD, o->mode == M_TRUTH ? "--truth needs two or three scoring files"
                                                    : "this mode takes exactly one input file");
    {
        static const char *const what[] = {"A", "B", "C"};
        qk_cli_stdin seen = {0};
        int rc = 0;
        for (int i = 0; !rc && i < o->nfiles; i++)
            rc = qk_cli_stdin_once(CMD, &seen, o->files[i], what[i], 0);
        return rc;
    }
}

void cmp_opts_defaults(opts *o)
{
    memset(o, 0, sizeof *o);
    o->precision = 4;
    o->alpha = 0.05;
    o->epsilon = 1e-3;
    o->seed = 1;
    o->bins = 10;
}

int qk_cmd_compare(int argc, char **argv)
{
    opts o;
    out w;
    qk_error err;
    qk_status st = QK_OK;
    qk_shard_spec sh = {0, 1};
    int rc, shard_on = 0;
    static const char *const names[] = {"", "truth", "pairs", "calibration", "swap-rate",
                                        "variability", "variance"};
    cmp_opts_defaults(&o);
    qk_error_clear(&err);
    if ((rc = cmp_parse_args(argc, argv, &o, &sh, &shard_on)) != 0)
        return rc < 0 ? qk_cli_help(qk_help_compare) : rc;
    if (shard_on)
        return qk_compare_shard(&o, sh, argc, argv);
    cmp_out_init(&w, &o, names[o.mode], o.mode != M_TRUTH);
    switch (o.mode) {
    case M_TRUTH: st = run_truth(&o, &w, &err); break;
    case M_PAIRS: st = run_pairs(&o, &w, &err); break;
    case M_CALIB: st = run_calib(&o, &w, &err); break;
    case M_SWAP: st = run_swap(&o, &w, &err); break;
    case M_VARIABILITY:
    case M_VARIANCE: st = run_appf(&o, &w, &err); break;
    case M_NONE: break;
    }
    rc = st == QK_OK ? cmp_emit(&w) : (st == QK_EUSAGE ? qk_cli_usage(CMD, "%s", err.message)
                                                   : qk_cli_fail(CMD, &err));
    json_decref(w.doc);
    return rc;
}
