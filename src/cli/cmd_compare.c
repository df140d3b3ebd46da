/* qrelkit compare: how far an evaluation can be trusted. Six modes, each a
 * thin driver over src/stats: --truth (agreement of two scorings), --pairs
 * (significance over all run pairs), --calibration (confidence bins and W),
 * --swap-rate, --variability and --variance (Hosseini App. F).
 * Every mode builds one JSON document (rows + summary) and prints it either
 * as JSON or as TSV, so the two formats cannot drift apart; --pairs in TSV
 * prints each row's object as it is made and drops it (a row a pair of
 * runs: held whole, 640 runs took 358 MB), through the same printer. */
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
#include "qrelkit/distributions.h"
#include "qrelkit/stats.h"
#include "shard_cli.h"

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
    "(size, trial) items as with --pairs. --top F: only the pairs among the best\n"
    "fraction F of runs by raw mean (as below).\n"
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

/* A score table from a file (the library parses, the CLI opens). */
/* Values of `est` in the run order of `truth`; every run must be in both. */
/* ---- modes ---------------------------------------------------------------- */

static qk_status align(const qk_scores *truth, const qk_scores *est, const char *tf, const char *ef,
                       double *out_v, qk_error *err)
{
    size_t k;
    for (size_t i = 0; i < truth->nruns; i++) {
        if (!qk_stats_scores_find(est, truth->runs[i], &k))
            return qk_error_set(err, QK_EINPUT, "run '%s' is in '%s' but not in '%s'", truth->runs[i], tf,
                                ef);
        out_v[i] = est->mean[k];
    }
    for (size_t i = 0; i < est->nruns; i++)
        if (!qk_stats_scores_find(truth, est->runs[i], &k))
            return qk_error_set(err, QK_EINPUT, "run '%s' is in '%s' but not in '%s'", est->runs[i], ef, tf);
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
        if ((st = cmp_read_scores(o->files[i], qk_stats_read_scoring, &s[i], err)) != QK_OK)
            goto out;
        else
            cmp_warn_renamed(o->files[i], s[i]);
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
    cmp_put(S, "systems", json_integer((json_int_t)n));
    cmp_put(S, "pairs", json_integer(ag.kendall.pairs));
    cmp_put(S, "tau_a", cmp_num(w, ag.kendall.tau_a));
    cmp_put(S, "tau_b", cmp_num(w, ag.kendall.tau_b));
    cmp_put(S, "tau_ap", cmp_num(w, ag.tau_ap));
    cmp_put(S, "spearman", cmp_num(w, ag.spearman));
    cmp_put(S, "pearson", cmp_num(w, ag.pearson));
    cmp_put(S, "concordant", json_integer(ag.kendall.concordant));
    cmp_put(S, "swapped_pairs", json_integer(ag.kendall.discordant));
    cmp_put(S, "ties_truth", json_integer(ag.kendall.ties_x));
    cmp_put(S, "ties_estimate", json_integer(ag.kendall.ties_y));
    cmp_put(S, "rmse", cmp_num(w, ag.rmse));
    cmp_put(S, "mse", cmp_num(w, ag.mse));
    cmp_put(S, "bias", cmp_num(w, ag.bias));
    cmp_put(S, "max_drop", json_integer(ag.max_drop));
    cmp_put(S, "max_drop_run", json_string(ag.max_drop > 0 ? s[0]->runs[ag.max_drop_index] : "-"));
    if (s[0]->v) {
        qk_kendall ks, kc;
        if (!(mask = malloc(n * n))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        if ((st = qk_stats_significant_mask(s[0], o->alpha, mask, err)) != QK_OK ||
            (st = qk_stats_kendall_masked(s[0]->mean, est, n, mask, &ks, err)) != QK_OK)
            goto out;
        cmp_put(S, "sig_pairs", json_integer(ks.pairs));
        cmp_put(S, "tau_sig", cmp_num(w, ks.tau_a));
        cmp_put(S, "swapped_sig", json_integer(ks.discordant));
        if (o->nfiles == 3) {
            if ((st = qk_stats_kendall_masked(s[0]->mean, alt, n, mask, &kc, err)) != QK_OK)
                goto out;
            cmp_put(S, "p_plus_sig", json_integer(ks.concordant - kc.concordant));
        }
    }
    if (o->nfiles == 3) {
        qk_kendall kc;
        if ((st = qk_stats_kendall(s[0]->mean, alt, n, &kc, err)) != QK_OK)
            goto out;
        cmp_put(S, "p_plus", json_integer(ag.kendall.concordant - kc.concordant));
    }
out:
    for (int i = 0; i < 3; i++)
        qk_stats_scores_free(s[i]);
    free(est);
    free(alt);
    free(mask);
    return st;
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
        cmp_put(r, "bin", json_string(b < QK_CALIB_BINS ? label : "all"));
        cmp_put(r, "lo", cmp_num(w, cb->lo));
        cmp_put(r, "hi", cmp_num(w, cb->hi));
        cmp_put(r, "pairs", json_integer(cb->pairs));
        cmp_put(r, "share", cmp_num(w, cb->share));
        cmp_put(r, "correct", json_integer(cb->correct));
        cmp_put(r, "accuracy", cmp_num(w, cb->accuracy));
        cmp_put(r, "true_ties", json_integer(cb->true_ties));
        cmp_put(r, "W", cmp_num(w, cb->w));
        json_array_append_new(w->rows, r);
    }
    cmp_put(w->summary, "pairs", json_integer(c.all.pairs));
    cmp_put(w->summary, "accuracy", cmp_num(w, c.all.accuracy));
    cmp_put(w->summary, "W", cmp_num(w, c.all.w));
out:
    free(p);
    free(d);
    return st;
}

static qk_status run_swap(const opts *o, out *w, qk_error *err)
{
    qk_scores *m = NULL;
    size_t *sizes = NULL, ns = 0, nc = 0, *keep = NULL, nkeep, deg = 0;
    qk_swap_cell *cells = NULL;
    qk_swap_opts so;
    qk_status st = cmp_appf_matrix(o, &m, &keep, &nkeep, &deg, err);
    if (st != QK_OK || (st = cmp_swap_top(o, &m, keep, nkeep, err)) != QK_OK)
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
        cmp_put(r, "run", json_string(m->runs[i]));
        cmp_put(r, "mean", cmp_num(w, v.mean));
        cmp_put(r, "sd", cmp_num(w, v.sd));
        cmp_put(r, "sd_pop", cmp_num(w, v.sd_pop));
        cmp_put(r, "bound", cmp_num(w, o->transform == QK_TRANSFORM_NONE ? v.bound : NAN));
        cmp_put(r, "sd_over_bound", cmp_num(w, o->transform == QK_TRANSFORM_NONE ? v.sd_pop / v.bound : NAN));
        json_array_append_new(w->rows, r);
    }
    for (size_t a = 0; a < nkeep && o->mode == M_VARIANCE; a++)
        for (size_t b = a + 1; b < nkeep; b++) {
            size_t i = keep[a],
                   j = keep[b]; // NOLINT(clang-analyzer-core.uninitialized.Assign): keep[0..nkeep) set above
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
                (st = qk_stats_variability(x, nt, &vx, err)) || (st = qk_stats_variability(y, nt, &vy, err)))
                goto out;
            tie = !(t.p < o->alpha);
            np++;
            ties += (size_t)tie;
            by_f += (size_t)(tie && f.p < o->alpha);
            by_lev += (size_t)(tie && l.p < o->alpha);
            r = json_object();
            cmp_put(r, "run_a", json_string(m->runs[i]));
            cmp_put(r, "run_b", json_string(m->runs[j]));
            cmp_put(r, "mean_a", cmp_num(w, vx.mean));
            cmp_put(r, "mean_b", cmp_num(w, vy.mean));
            cmp_put(r, "sd_a", cmp_num(w, vx.sd));
            cmp_put(r, "sd_b", cmp_num(w, vy.sd));
            cmp_put(r, "t_p", cmp_num(w, t.p));
            cmp_put(r, "tie", json_integer(tie));
            cmp_put(r, "F", cmp_num(w, f.statistic));
            cmp_put(r, "F_p", cmp_num(w, f.p));
            cmp_put(r, "levene_W", cmp_num(w, l.statistic));
            cmp_put(r, "levene_p", cmp_num(w, l.p));
            json_array_append_new(w->rows, r);
        }
    cmp_put(w->summary, "runs", json_integer((json_int_t)nkeep));
    cmp_put(w->summary, "topics", json_integer((json_int_t)nt));
    cmp_put(w->summary, "transform", json_string(cmp_transform_name(o->transform)));
    if (o->transform == QK_TRANSFORM_Z)
        cmp_put(w->summary, "degenerate_topics", json_integer((json_int_t)deg));
    if (o->mode == M_VARIANCE) {
        cmp_put(w->summary, "ftest", json_string(o->sd_ratio ? "sd-ratio" : "variance"));
        cmp_put(w->summary, "levene", json_string(o->median ? "median" : "mean"));
        cmp_put(w->summary, "alpha", cmp_num(w, o->alpha));
        cmp_put(w->summary, "pairs", json_integer((json_int_t)np));
        cmp_put(w->summary, "ties", json_integer((json_int_t)ties));
        cmp_put(w->summary, "ties_broken_by_F", json_integer((json_int_t)by_f));
        cmp_put(w->summary, "ties_broken_by_levene", json_integer((json_int_t)by_lev));
    }
out:
    free(keep);
    qk_stats_scores_free(m);
    return st;
}

int qk_cmd_compare(int argc, char **argv)
{
    opts o;
    out w;
    qk_error err;
    qk_status st = QK_OK;
    qk_shard_spec sh = {0, 1};
    int rc, shard_on = 0;
    static const char *const names[] = {"",          "truth",       "pairs",   "calibration",
                                        "swap-rate", "variability", "variance"};
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
    rc = st == QK_OK ? cmp_emit(&w)
                     : (st == QK_EUSAGE ? qk_cli_usage(CMD, "%s", err.message) : qk_cli_fail(CMD, &err));
    json_decref(w.doc);
    return rc;
}
