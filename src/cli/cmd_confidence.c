/* `qrelkit confidence`: expected MAP of every run and the confidence that one
 * run beats another when some documents are unjudged (MTC / IP / given
 * probabilities; Carterette 2007). */
#include <getopt.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_tables.h"
#include "cli_util.h"
#include "commands.h"
#include "qrelkit/stats.h"

const char qk_help_confidence[] =
    "usage: qrelkit confidence [options] QRELS RUN [RUN...]\n"
    "       qrelkit confidence --simulate TRUTH [options] RUN RUN [RUN...]\n"
    "\n"
    "Expected MAP (EMAP) of each run and, for every pair of runs, the confidence\n"
    "P(MAP_row - MAP_col < 0) when only the documents in QRELS are judged. Each\n"
    "unjudged document among the runs' top DEPTH gets a probability of relevance;\n"
    "AP is a quadratic form in those Bernoulli variables, so E and Var of AP and of\n"
    "the difference of two APs are exact up to the 1/R ratio (Carterette 2007):\n"
    "P(dMAP < 0) = Phi(-E[dMAP] / sqrt(Var[dMAP])). Formulas: doc/estimators.md.\n"
    "\n"
    "options:\n"
    "  --model M         how unjudged documents get their probability (the rtc\n"
    "                    model is fitted on the judgments; ip is incremental\n"
    "                    pooling's assumption):\n"
    "                    @[conf-model]\n"
    "  --probs FILE      per-document probabilities ('topic docno p' lines, e.g. from\n"
    "                    a relevance model; '#' lines skipped, gzip or '-' read);\n"
    "                    documents not in FILE get --prior\n"
    "  --prior P         probability of an unjudged document (default 0.5)\n"
    "  --rtc-intercept   RTC's last stage with an intercept (not in the paper; helps\n"
    "                    when few documents are relevant)\n"
    "  --depth N         rank depth of each run that is considered (default 100)\n"
    "  -l LEVEL          judged grade >= LEVEL is relevant (default 1)\n"
    "  --rtc-folds N     RTC's last stage as the mean of N fold-wise fits (the\n"
    "                    author's code uses 5; default 1: one fit, as the paper)\n"
    "  --rtc-calibration C  RTC's stage 2:\n"
    "                    @[conf-calibration]\n"
    "  --rtc-s S, --rtc-bt-prior A, --rtc-lambda-prior A  RTC's priors (default 1\n"
    "                    each: stage-2 pseudo-count per cell, stage-1 pseudo-games\n"
    "                    added to |R_t| and |N_t|, stage-3 Beta(A, A)); smaller =\n"
    "                    weaker prior. The paper tuned them on a training collection\n"
    "  --pairs           instead of the matrix, one line per pair: E[dMAP],\n"
    "                    Var[dMAP], P(a<b) and the confidence max(P, 1-P)\n"
    "  --per-topic       with --pairs (or json): also E[dAP], Var[dAP] and\n"
    "                    P(dAP<0) of every pair on every topic\n"
    "  --probs-out FILE  write 'topic docno p' for every document considered (a\n"
    "                    file; not '-': standard output carries the table)\n"
    "  --prec K          also E[P@K] and its variance per run (columns EP@K, varP@K)\n"
    "  --format F        @{format} (default tsv)\n"
    "  --precision N     decimals (default 4)\n"
    "\n"
    "experiment (Carterette 2007; the methods compared on a fully judged collection):\n"
    "  --simulate TRUTH  TRUTH is complete qrels; no QRELS operand. Each trial draws\n"
    "                    --runs-per-trial runs (10), judges documents of the first two\n"
    "                    (MTC weights, TRUTH answers) until P(dMAP<0) or its\n"
    "                    complement reaches --alpha (0.95) or --budget judgments, then\n"
    "                    predicts every pair. Prints, for MTC (p = 0.5), RTC and IP,\n"
    "                    the share of pairs and the accuracy per confidence bin, W\n"
    "                    (bookmaker's winnings; < 0 = over-confident), Kendall's tau_b\n"
    "                    of EMAP against true MAP and the judgments used; then, to\n"
    "                    see why W is off, the root mean square of the error of\n"
    "                    E[dMAP] against the true dMAP next to the predicted sd,\n"
    "                    and the sum of p over unjudged documents against how many\n"
    "                    of them are relevant; last, accuracy and W by pair group\n"
    "                    (how many of the two judged runs a pair holds) and by\n"
    "                    similarity of the two runs (the paper's Tables 3 and 4)\n"
    "  --trials N, --runs-per-trial K, --budget B, --alpha A, --seed S (20071)\n"
    "  --min-judged N    do not stop before N judgments (default 0, as the paper)\n"
    "  --cap C           report at most confidence C (the paper's optional hack; off)\n"
    "  --mtc-weights W   MTC's document weights (spec 002 3.4):\n"
    "                    @[conf-mtc-weights]\n"
    "  --truth-r R       |R| of the true AP:\n"
    "                    @[conf-truth-r]\n"
    "  --truth-depth N   the true AP at depth N instead of --depth (spec 002 A9's\n"
    "                    sensitivity check: 1000)\n"
    "  --similarity S    of a pair, for the similarity table (mean over topics):\n"
    "                    @[conf-similarity]\n"
    "  --ip-prior P      IP's probability for an unjudged document when it ranks\n"
    "                    the runs (default 0, the paper's: unjudged = non-relevant)\n"
    "  --ip-mtc-judgments  IP ranks the runs with MTC's judgments instead of its\n"
    "                    own (the same number in rank order)\n"
    "  --pairs-out FILE  one line per trial, method and pair: runs, how many of\n"
    "                    the two judged runs the pair holds, similarity, E/Var of\n"
    "                    dMAP, confidence, right or not, true dMAP, judgments\n"
    "  --quiet           no progress on stderr (trials done, shown when it is a\n"
    "                    terminal)\n"

    "\n"
    "output (tsv): 'run EMAP var rank' lines, best EMAP first (runs are named by file\n"
    "when two share a run id); an empty line; then the\n"
    "matrix 'P(row<col)' with one column per run: the probability that the row run's\n"
    "MAP is below the column run's.\n"
    "\n"
    "example:\n"
    "  qrelkit confidence --model mtc judged.qrels runA.run runB.run runC.run\n"
    "\n"
    "Exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O.\n";

enum {
    OPT_RTC_S = 1000,
    OPT_RTC_BT,
    OPT_RTC_LAMBDA,
    OPT_PAIRS_OUT,
    OPT_TRUTH_DEPTH,
    OPT_SIMILARITY,
    OPT_IP_PRIOR,
    OPT_IP_MTC,
    OPT_QUIET
};
static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                         {"model", required_argument, NULL, 'M'},
                                         {"probs", required_argument, NULL, 'P'},
                                         {"prior", required_argument, NULL, 'p'},
                                         {"depth", required_argument, NULL, 'd'},
                                         {"probs-out", required_argument, NULL, 'o'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"precision", required_argument, NULL, 'r'},
                                         {"simulate", required_argument, NULL, 'S'},
                                         {"trials", required_argument, NULL, 't'},
                                         {"runs-per-trial", required_argument, NULL, 'k'},
                                         {"budget", required_argument, NULL, 'b'},
                                         {"alpha", required_argument, NULL, 'a'},
                                         {"seed", required_argument, NULL, 's'},
                                         {"min-judged", required_argument, NULL, 'm'},
                                         {"prec", required_argument, NULL, 'K'},
                                         {"rtc-intercept", no_argument, NULL, 'I'},
                                         {"truth-r", required_argument, NULL, 'R'},
                                         {"cap", required_argument, NULL, 'C'},
                                         {"rtc-folds", required_argument, NULL, 'F'},
                                         {"pairs", no_argument, NULL, 'Q'},
                                         {"rtc-calibration", required_argument, NULL, 'L'},
                                         {"per-topic", no_argument, NULL, 'T'},
                                         {"mtc-weights", required_argument, NULL, 'W'},
                                         {"rtc-s", required_argument, NULL, OPT_RTC_S},
                                         {"pairs-out", required_argument, NULL, OPT_PAIRS_OUT},
                                         {"truth-depth", required_argument, NULL, OPT_TRUTH_DEPTH},
                                         {"similarity", required_argument, NULL, OPT_SIMILARITY},
                                         {"ip-prior", required_argument, NULL, OPT_IP_PRIOR},
                                         {"ip-mtc-judgments", no_argument, NULL, OPT_IP_MTC},
                                         {"quiet", no_argument, NULL, OPT_QUIET},
                                         {"rtc-bt-prior", required_argument, NULL, OPT_RTC_BT},
                                         {"rtc-lambda-prior", required_argument, NULL, OPT_RTC_LAMBDA},
                                         {NULL, 0, NULL, 0}};

static size_t *by_emap;
static const qk_conf_result *sort_res;
static int emap_desc(const void *a, const void *b)
{
    double x = sort_res->emap[*(const size_t *)a], y = sort_res->emap[*(const size_t *)b];
    if (x != y)
        return x > y ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* --pairs: one line per pair a < b (input order), then with --per-topic one
 * line per topic and pair. */
static void write_pairs_tsv(const qk_conf_result *r, int prec)
{
    size_t n = r->nruns;
    printf("a\tb\tE_dMAP\tvar_dMAP\tP(a<b)\tconfidence\n");
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            double p = r->p_less[a * n + b];
            printf("%s\t%s\t%.*f\t%.*e\t%.*f\t%.*f\n", r->runids[a], r->runids[b], prec, r->e_dmap[a * n + b],
                   prec, r->v_dmap[a * n + b], prec, p, prec, p >= 0.5 ? p : 1 - p);
        }
    if (!r->e_dap)
        return;
    printf("\ntopic\ta\tb\tE_dAP\tvar_dAP\tP(a<b)\n");
    for (size_t t = 0; t < r->ntopics; t++)
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                size_t i = t * n * n + a * n + b;
                printf("%s\t%s\t%s\t%.*f\t%.*e\t%.*f\n", r->topics[t], r->runids[a], r->runids[b], prec,
                       r->e_dap[i], prec, r->v_dap[i], prec, qk_mtc_confidence(r->e_dap[i], r->v_dap[i]));
            }
}

static void write_tsv(const qk_conf_result *r, int prec, long prec_k, int pairs)
{
    size_t n = r->nruns;
    printf("run\tEMAP\tvar\trank");
    if (prec_k > 0)
        printf("\tEP@%ld\tvarP@%ld", prec_k, prec_k);
    putchar('\n');
    for (size_t k = 0; k < n; k++) {
        size_t i = by_emap[k];
        printf("%s\t%.*f\t%.*e\t%zu", r->runids[i], prec, r->emap[i], prec, r->vmap[i], k + 1);
        if (prec_k > 0)
            printf("\t%.*f\t%.*e", prec, r->eprec[i], prec, r->vprec[i]);
        putchar('\n');
    }
    putchar('\n');
    if (pairs) {
        write_pairs_tsv(r, prec);
        return;
    }
    printf("P(row<col)");
    for (size_t b = 0; b < n; b++)
        printf("\t%s", r->runids[b]);
    putchar('\n');
    for (size_t a = 0; a < n; a++) {
        printf("%s", r->runids[a]);
        for (size_t b = 0; b < n; b++)
            printf("\t%.*f", prec, r->p_less[a * n + b]);
        putchar('\n');
    }
}

static void write_json(const qk_conf_result *r, long prec_k)
{
    json_t *root = json_object(), *runs = json_array(), *pairs = json_array();
    size_t n = r->nruns;
    for (size_t k = 0; k < n; k++) {
        json_t *o = json_object();
        json_object_set_new(o, "run", json_string(r->runids[by_emap[k]]));
        json_object_set_new(o, "emap", json_real(r->emap[by_emap[k]]));
        json_object_set_new(o, "var", json_real(r->vmap[by_emap[k]]));
        if (prec_k > 0) {
            json_object_set_new(o, "e_prec", json_real(r->eprec[by_emap[k]]));
            json_object_set_new(o, "var_prec", json_real(r->vprec[by_emap[k]]));
        }
        json_array_append_new(runs, o);
    }
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            json_t *o = json_object();
            json_object_set_new(o, "a", json_string(r->runids[a]));
            json_object_set_new(o, "b", json_string(r->runids[b]));
            json_object_set_new(o, "e_dmap", json_real(r->e_dmap[a * n + b]));
            json_object_set_new(o, "var_dmap", json_real(r->v_dmap[a * n + b]));
            json_object_set_new(o, "p_a_below_b", json_real(r->p_less[a * n + b]));
            if (r->e_dap) {
                json_t *pt = json_array();
                for (size_t t = 0; t < r->ntopics; t++) {
                    json_t *x = json_object();
                    size_t i = t * n * n + a * n + b;
                    json_object_set_new(x, "topic", json_string(r->topics[t]));
                    json_object_set_new(x, "e_dap", json_real(r->e_dap[i]));
                    json_object_set_new(x, "var_dap", json_real(r->v_dap[i]));
                    json_object_set_new(x, "p_a_below_b",
                                        json_real(qk_mtc_confidence(r->e_dap[i], r->v_dap[i])));
                    json_array_append_new(pt, x);
                }
                json_object_set_new(o, "per_topic", pt);
            }
            json_array_append_new(pairs, o);
        }
    json_object_set_new(root, "topics", json_integer((json_int_t)r->ntopics));
    json_object_set_new(root, "runs", runs);
    json_object_set_new(root, "pairs", pairs);
    json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    putchar('\n');
    json_decref(root);
}

/* Run ids are often shared (a group's tag on several runs): then name every
 * run by its file so the rows and columns can be told apart. */
static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The experiment's progress line; one experiment per process. */
static qk_cli_progress sim_progress;

static void progress(void *ctx, size_t done, size_t total)
{
    (void)ctx;
    qk_cli_progress_step(&sim_progress, done, total);
}

/* The paper's significance tests over trials (spec 002 Sec. 7.8): RTC
 * against MTC on the judgments (Wilcoxon signed-rank for the median, t for
 * the mean) and on tau (t), and RTC against IP on tau. Printed as a table
 * after the per-method table. */
static void paired_row(const char *what, const char *test, const double *a, const double *b, size_t n)
{
    qk_test_result r;
    qk_error err;
    qk_status st = qk_stats_paired_test(strcmp(test, "wilcoxon") == 0 ? QK_TEST_WILCOXON : QK_TEST_T, a, b, n,
                                        NULL, &r, &err);
    printf("%s\t%s\t%zu\t", what, test, n);
    if (st == QK_OK && isfinite(r.statistic) && isfinite(r.p)) /* t with constant differences: NA */
        printf("%.4f\t%.4g\t%.3g\n", r.mean_diff, r.statistic, r.p);
    else
        printf("NA\tNA\tNA\n");
}

static void print_paired_tests(const qk_rtc_sim_result *res)
{
    size_t n = res->trials;
    const qk_rtc_sim_method *mtc = &res->m[QK_SIM_MTC], *rtc = &res->m[QK_SIM_RTC], *ip = &res->m[QK_SIM_IP];
    printf("\ncomparison\ttest\ttrials\tmean_difference\tstatistic\tp\n");
    paired_row("RTC-MTC judged", "wilcoxon", rtc->judged, mtc->judged, n);
    paired_row("RTC-MTC judged", "t", rtc->judged, mtc->judged, n);
    paired_row("RTC-MTC tau", "t", rtc->tau, mtc->tau, n);
    paired_row("RTC-IP tau", "t", rtc->tau, ip->tau, n);
}

/* The paper's Tables 3 and 4: accuracy and W by pair group and similarity. */
static void breakdown_row(const char *method, const char *label, double n, double correct, double w)
{
    printf("%s\t%s\t%.0f\t", method, label, n);
    if (n > 0)
        printf("%.3f\t%.3f\n", correct / n, w / n);
    else
        printf("NA\tNA\n");
}

static void print_breakdowns(const qk_rtc_sim_result *res, const char *const *names)
{
    static const char *const grp[3] = {"no original", "one original", "two originals"};
    static const char *const simb[QK_SIM_BINS] = {"0.0-0.1", "0.1-0.2", "0.2-0.3", "0.3-1.0"};
    printf("\nmethod\tpair_group\tpairs\taccuracy\tW\n");
    for (int m = 0; m < QK_SIM_METHODS; m++)
        for (int g = 2; g >= 0; g--)
            breakdown_row(names[m], grp[g], res->m[m].grp_pairs[g], res->m[m].grp_correct[g],
                          res->m[m].grp_w[g]);
    printf("\nmethod\tsimilarity\tpairs\taccuracy\tW\n");
    for (int m = 0; m < QK_SIM_METHODS; m++)
        for (int b = 0; b < QK_SIM_BINS; b++)
            breakdown_row(names[m], simb[b], res->m[m].sim_pairs[b], res->m[m].sim_correct[b],
                          res->m[m].sim_w[b]);
}

static int simulate(const char *truth, char **runs, int nruns, qk_rtc_sim_opts *so, const char *pairs_out,
                    int quiet)
{
    static const char *const bins[QK_CONF_BINS] = {"0.50-0.60", "0.60-0.70", "0.70-0.80", "0.80-0.90",
                                                   "0.90-0.95", "0.95-0.99", "0.99-1.00"};
    static const char *const names[QK_SIM_METHODS] = {"MTC", "RTC", "IP"};
    qk_rtc_sim_result res;
    qk_error err;
    qk_cli_out po = {0};
    qk_status st;
    int rc;
    qk_error_clear(&err);
    qk_cli_progress_init(&sim_progress, "confidence", "trial", quiet);
    if (sim_progress.on)
        so->progress = progress;
    if (pairs_out) {
        if ((rc = qk_cli_out_open("confidence", &po, pairs_out)) != 0)
            return rc;
        fprintf(po.f, "trial\tmethod\trun_a\trun_b\toriginals\tsimilarity\tE_dMAP\tvar_dMAP\t"
                      "confidence\tcorrect\ttrue_dMAP\tjudged\n");
        so->pairs_out = po.f;
    }
    {
        qk_qrels *q = NULL;
        qk_run **rr = NULL;
        st = qk_qrels_read(truth, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err);
        if (st == QK_OK)
            st = qk_cli_read_runs((const char *const *)runs, (size_t)nruns, QK_CLI_NAME_PATH, &rr, &err);
        if (st == QK_OK)
            st = qk_rtc_simulate(q, (const qk_run *const *)rr, (size_t)nruns, so, &res, &err);
        qk_cli_free_runs(rr, (size_t)nruns);
        qk_qrels_free(q);
    }
    so->pairs_out = NULL;
    if (st != QK_OK)
        qk_cli_out_abort(&po);
    else if (pairs_out && (rc = qk_cli_out_commit("confidence", &po)) != 0) {
        qk_rtc_sim_result_clear(&res);
        return rc;
    }
    if (st != QK_OK) {
        qk_rtc_sim_result_clear(&res);
        return qk_cli_fail("confidence", &err);
    }
    printf(
        "# %zu trials, %zu of %d runs each, depth %ld, alpha %g, budget %ld, min-judged %ld, seed %llu%s%s",
        res.trials, so->runs_per_trial, nruns, so->depth, so->alpha, so->budget, so->min_judged,
        (unsigned long long)so->seed, so->rtc.intercept ? ", RTC with intercept" : "",
        so->truth_pool ? ", truth |R| from the pool" : "");
    if (so->truth_depth > 0 && so->truth_depth != so->depth)
        printf(", true AP at depth %ld", so->truth_depth);
    if (so->similarity_overlap)
        printf(", similarity |A&B|/depth");
    if (so->ip_prior > 0)
        printf(", IP's unjudged p %g", so->ip_prior);
    if (so->ip_mtc_judgments)
        printf(", IP with MTC's judgments");
    printf("\n");
    if (so->rtc.folds > 1 || so->norm_weights || so->rtc.platt)
        printf("# RTC stage 2 %s, stage 3 %d fold fit(s), MTC weights %s\n",
               so->rtc.platt ? "Platt" : "cells", so->rtc.folds > 1 ? so->rtc.folds : 1,
               so->norm_weights ? "divided by R-hat" : "raw");
    if (so->rtc.s != 1 || so->rtc.bt_prior != 1 || so->rtc.lambda_prior != 1)
        printf("# RTC priors: stage-1 pseudo-games %g, stage-2 pseudo-count %g, stage-3 Beta(%g, %g)\n",
               so->rtc.bt_prior, so->rtc.s, so->rtc.lambda_prior, so->rtc.lambda_prior);
    {
        int any = 0;
        for (int k = 0; k < nruns; k++)
            if (res.short_lists[k] > 0) {
                printf("%s %s (%zu)",
                       any ? ","
                           : "# runs with short lists (fewer documents than min(depth, the median run's) on "
                             "that many topics):",
                       runs[k], res.short_lists[k]);
                any = 1;
            }
        if (any)
            printf("\n");
    }
    printf("method\tconfidence\tpairs\tshare\taccuracy\n");
    for (int m = 0; m < QK_SIM_METHODS; m++)
        for (int b = 0; b < QK_CONF_BINS; b++) {
            const qk_rtc_sim_method *x = &res.m[m];
            printf("%s\t%s\t%.0f\t%.3f\t", names[m], bins[b], x->in_bin[b],
                   x->pairs ? x->in_bin[b] / x->pairs : 0);
            if (x->in_bin[b] > 0)
                printf("%.3f\n", x->correct[b] / x->in_bin[b]);
            else
                printf("NA\n");
        }
    printf("\nmethod\tpairs\tW\taccuracy\ttau\tmedian_judged\tmean_judged\ttrue_ties\n");
    for (int m = 0; m < QK_SIM_METHODS; m++) {
        qk_rtc_sim_method *x = &res.m[m];
        double right = 0, sum = 0, med = 0;
        size_t n = res.trials;
        for (int b = 0; b < QK_CONF_BINS; b++)
            right += x->correct[b];
        for (size_t t = 0; t < n; t++)
            sum += x->judged[t];
        double *sorted = malloc((n ? n : 1) * sizeof *sorted);
        if (sorted && n) {
            memcpy(sorted, x->judged, n * sizeof *sorted);
            qsort(sorted, n, sizeof *sorted, dbl_cmp);
            med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }
        free(sorted);
        printf("%s\t%.0f\t%.3f\t%.3f\t%.3f\t%.1f\t%.1f\t%.0f\n", names[m], x->pairs,
               x->pairs ? x->w_sum / x->pairs : 0, x->pairs ? right / x->pairs : 0,
               n ? x->tau_sum / (double)n : 0, med, n ? sum / (double)n : 0, x->true_ties);
    }
    printf("\nmethod\trms_error\trms_sd\trms_true_dMAP\trms_E_dMAP\tsum_p_unjudged\trelevant_unjudged\n");
    for (int m = 0; m < QK_SIM_METHODS; m++) {
        const qk_rtc_sim_method *x = &res.m[m];
        double n = x->pairs ? x->pairs : 1;
        printf("%s\t%.4f\t%.4f\t%.4f\t%.4f\t%.1f\t%.0f\n", names[m], sqrt(x->err2_sum / n),
               sqrt(x->var_sum / n), sqrt(x->true2_sum / n), sqrt(x->est2_sum / n), x->p_unjudged,
               x->rel_unjudged);
    }
    print_paired_tests(&res);
    print_breakdowns(&res, names);
    qk_rtc_sim_result_clear(&res);
    return QK_EXIT_OK;
}


typedef struct conf_args {
    qk_conf_opts o;
    qk_rtc_sim_opts so;
    const char *probs_out, *truth, *pairs_out, *probs_path;
    int prec, model_set, pairs, json, quiet;
} conf_args;

#define CMD "confidence"

/* The options of the experiment (--simulate) and RTC's priors. */
static int parse_sim_option(int ch, const char *arg, conf_args *a)
{
    long n;
    int v, rc;
    switch (ch) {
    case 't': return qk_cli_size(CMD, "--trials", arg, 0, SIZE_MAX, &a->so.trials);
    case 'k': return qk_cli_size(CMD, "--runs-per-trial", arg, 0, SIZE_MAX, &a->so.runs_per_trial);
    case 'm': return qk_cli_long(CMD, "--min-judged", arg, 0, LONG_MAX, &a->so.min_judged);
    case 'b': return qk_cli_long(CMD, "--budget", arg, 0, LONG_MAX, &a->so.budget);
    case 'a': return qk_cli_double(CMD, "--alpha", arg, 0.5, 1, QK_NUM_LO_OPEN, &a->so.alpha);
    case 'C': return qk_cli_double(CMD, "--cap", arg, 0.5, 1, QK_NUM_LO_OPEN, &a->so.cap);
    case 's': return qk_cli_seed(CMD, "--seed", arg, &a->so.seed);
    case 'W': return qk_cli_enum(CMD, qk_conf_mtc_weights_table, "--mtc-weights", arg, &a->so.norm_weights);
    case 'R': return qk_cli_enum(CMD, qk_conf_truth_r_table, "--truth-r", arg, &a->so.truth_pool);
    case OPT_SIMILARITY:
        return qk_cli_enum(CMD, qk_conf_similarity_table, "--similarity", arg, &a->so.similarity_overlap);
    case OPT_IP_MTC: a->so.ip_mtc_judgments = 1; return 0;
    case OPT_IP_PRIOR: return qk_cli_double(CMD, "--ip-prior", arg, 0, 1, 0, &a->so.ip_prior);
    case OPT_TRUTH_DEPTH: return qk_cli_long(CMD, "--truth-depth", arg, 1, LONG_MAX, &a->so.truth_depth);
    case OPT_RTC_S: return qk_cli_double(CMD, "--rtc-s", arg, 0, INFINITY, QK_NUM_LO_OPEN, &a->o.rtc.s);
    case OPT_RTC_BT: return qk_cli_double(CMD, "--rtc-bt-prior", arg, 0, INFINITY, QK_NUM_LO_OPEN, &a->o.rtc.bt_prior);
    case OPT_RTC_LAMBDA:
        return qk_cli_double(CMD, "--rtc-lambda-prior", arg, 0, INFINITY, QK_NUM_LO_OPEN, &a->o.rtc.lambda_prior);
    case 'F':
        rc = qk_cli_long(CMD, "--rtc-folds", arg, 1, 100, &n);
        a->o.rtc.folds = (int)n;
        return rc;
    case 'L':
        rc = qk_cli_enum(CMD, qk_conf_calibration_table, "--rtc-calibration", arg, &v);
        a->o.rtc.platt = v;
        return rc;
    default: return qk_cli_usage(CMD, "bad option");
    }
}

/* Returns -1 to go on, otherwise the exit code (0 after --help). */
static int parse_args(int argc, char **argv, conf_args *a)
{
    int ch, rc = 0, v;
    long n;
    memset(a, 0, sizeof *a);
    qk_rtc_sim_opts_init(&a->so);
    qk_conf_opts_init(&a->o);
    a->prec = 4;
    optind = 0;
    while (rc == 0 && (ch = getopt_long(argc, argv, "hl:", longopts, NULL)) != -1) {
        switch (ch) {
        case 'h': return qk_cli_help(qk_help_confidence);
        case 'M':
            a->model_set = 1;
            if (!(rc = qk_cli_enum(CMD, qk_conf_model_table, "--model", optarg, &v)))
                a->o.model = (qk_prob_model)v;
            break;
        case 'P':
            a->o.model = QK_PROB_FILE;
            a->probs_path = optarg;
            break;
        case 'p': rc = qk_cli_double(CMD, "--prior", optarg, 0, 1, 0, &a->o.prior); break;
        case 'd': rc = qk_cli_long(CMD, "--depth", optarg, 1, LONG_MAX, &a->o.depth); break;
        case 'l': rc = qk_cli_long(CMD, "-l", optarg, LONG_MIN, LONG_MAX, &a->o.rel_level); break;
        case 'o': a->probs_out = optarg; break;
        case 'f': rc = qk_cli_format_tsv_json(CMD, optarg, &a->json); break;
        case 'r':
            rc = qk_cli_long(CMD, "--precision", optarg, 0, 17, &n);
            a->prec = (int)n;
            break;
        case 'S': a->truth = optarg; break;
        case 'Q': a->pairs = 1; break;
        case 'T': a->o.per_topic = 1; break;
        case 'I': a->o.rtc.intercept = 1; break;
        case 'K': rc = qk_cli_long(CMD, "--prec", optarg, 1, LONG_MAX, &a->o.prec_k); break;
        case OPT_PAIRS_OUT: a->pairs_out = optarg; break;
        case OPT_QUIET: a->quiet = 1; break;
        default: rc = parse_sim_option(ch, optarg, a); break;
        }
    }
    return rc ? rc : -1;
}

/* At most one input may be standard input: QRELS (or --simulate TRUTH),
 * --probs and the RUNs. */
static int stdin_once(const char *truth, const char *probs, char **ops, int nops)
{
    qk_cli_stdin seen = {0};
    int rc = qk_cli_stdin_once("confidence", &seen, truth, "--simulate", 0), first = 0;
    if (!truth && !rc && nops > 0)
        rc = qk_cli_stdin_once("confidence", &seen, ops[first++], "QRELS", 0);
    if (!rc)
        rc = qk_cli_stdin_once("confidence", &seen, probs, "--probs", 0);
    for (int i = first; !rc && i < nops; i++)
        rc = qk_cli_stdin_once("confidence", &seen, ops[i], "RUN", i - first + 1);
    return rc;
}

int qk_cmd_confidence(int argc, char **argv)
{
    conf_args a;
    qk_conf_result *r = NULL;
    qk_error err;
    qk_cli_out pf = {0};
    qk_qrels *q = NULL;
    qk_doc_probs *probs = NULL;
    qk_run **runs = NULL;
    size_t nruns = 0;
    int rc = parse_args(argc, argv, &a);
    qk_conf_opts o = a.o;
    qk_rtc_sim_opts so = a.so;
    const char *probs_out = a.probs_out, *truth = a.truth, *pairs_out = a.pairs_out, *probs_path = a.probs_path;
    int prec = a.prec, model_set = a.model_set, pairs = a.pairs;
    if (rc >= 0)
        return rc;
    qk_error_clear(&err);
    if (model_set && probs_path)
        return qk_cli_usage("confidence", "--model and --probs exclude each other");
    if (pairs_out && !truth)
        return qk_cli_usage("confidence", "--pairs-out goes with --simulate");
    if (probs_out && truth)
        return qk_cli_usage("confidence", "--probs-out does not go with --simulate (use --pairs-out)");
    if ((rc = qk_cli_no_stdout("confidence", "--pairs-out", pairs_out,
                               "carries the tables; give a file name")) != 0)
        return rc;
    if ((rc = stdin_once(truth, probs_path, argv + optind, argc - optind)) != 0)
        return rc;
    if (truth) {
        if (argc - optind < 2)
            return qk_cli_usage("confidence", "--simulate needs at least two RUNs");
        so.depth = o.depth;
        so.rtc = o.rtc;
        return simulate(truth, argv + optind, argc - optind, &so, pairs_out, a.quiet);
    }
    if (argc - optind < 2)
        return qk_cli_usage("confidence", "expected QRELS and at least one RUN");
    if ((rc = qk_cli_no_stdout("confidence", "--probs-out", probs_out,
                               "carries the EMAP table; give a file name")) != 0)
        return rc;
    if (probs_out && (rc = qk_cli_out_open("confidence", &pf, probs_out)) != 0)
        return rc;
    nruns = (size_t)(argc - optind - 1);
    o.want_probs = probs_out != NULL;
    if (qk_qrels_read(argv[optind], QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err) != QK_OK ||
        (probs_path && qk_doc_probs_read(probs_path, &probs, &err) != QK_OK) ||
        qk_cli_read_runs_top((const char *const *)(argv + optind + 1), nruns, QK_CLI_NAME_PATH,
                             (size_t)o.depth, &runs, &err) != QK_OK) {
        rc = qk_cli_fail("confidence", &err);
        goto out;
    }
    o.probs = probs;
    if (qk_conf_eval(q, (const qk_run *const *)runs, nruns, &o, &r, &err) != QK_OK ||
        (pf.f && qk_doc_probs_write(r->probs, pf.f, &err) != QK_OK)) {
        rc = qk_cli_fail("confidence", &err);
        goto out;
    }
    if (probs_out && (rc = qk_cli_out_commit("confidence", &pf)) != 0)
        goto out;
    for (size_t k = 0; o.model != QK_PROB_IP && k < r->nruns; k++)
        if (r->short_lists[k] > 0)
            fprintf(stderr,
                    "qrelkit confidence: warning: %s ranks fewer documents than the median run (or than "
                    "--depth %ld) on %zu of %zu topics; its expected AP counts only what it ranks, so "
                    "unless those documents are judged its EMAP is low whatever its precision, and its "
                    "confidences are too high (doc/qrelkit-confidence.md, 'Short lists')\n",
                    r->runids[k], o.depth, r->short_lists[k], r->ntopics);
    by_emap = malloc((r->nruns ? r->nruns : 1) * sizeof *by_emap);
    if (!by_emap) {
        rc = QK_EXIT_IO;
        goto out;
    }
    for (size_t k = 0; k < r->nruns; k++)
        by_emap[k] = k;
    sort_res = r;
    qsort(by_emap, r->nruns, sizeof *by_emap, emap_desc);
    if (a.json)
        write_json(r, o.prec_k);
    else
        write_tsv(r, prec, o.prec_k, pairs);
out:
    qk_cli_out_abort(&pf);
    free(by_emap);
    by_emap = NULL;
    qk_conf_result_free(r);
    qk_cli_free_runs(runs, nruns);
    qk_doc_probs_free(probs);
    qk_qrels_free(q);
    return rc;
}
