/* `qrelkit topics`: which topics to judge (Hosseini 2013, ch. 4-5). Parses,
 * reads the input, calls qk_topics_select and prints; the methods live in
 * src/topics. Subcommands are rows of the table at the bottom. */
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "qrelkit/topics.h"
#include "topics_cli.h"
#include "topics_adaptive_cli.h"
#include "topics_l2r_cli.h"

const char qk_help_topics[] =
    "usage: qrelkit topics select [options] --matrix MATRIX.tsv\n"
    "       qrelkit topics select [options] QRELS RUN RUN [RUN...]\n"
    "       qrelkit topics next --qrels JUDGED --runs RUN RUN [RUN...] [options]\n"
    "       qrelkit topics features [--selected T,T...] RUN [RUN...]\n"
    "       qrelkit topics cost --budget-hours H --topics M[,M...] [--tdc S] [--speed W]\n"
    "       qrelkit topics train [options] QRELS RUN RUN [RUN...]\n"
    "       qrelkit topics select --method l2r --model FILE [options] RUN [RUN...]\n"
    "\n"
    "Which topics to judge so that the ranking of systems on them is the one all\n"
    "topics would give (Hosseini 2013, ch. 4-5). The input is a systems x topics\n"
    "score matrix: the TSV `qrelkit eval --matrix AP` writes (a published matrix of\n"
    "the same shape works; no qrels or runs needed), or qrels and runs evaluated in\n"
    "memory with --measure. The covariance of the topic columns over the systems\n"
    "says which topics move together: a good subset holds topics that covary with\n"
    "all topics (they predict the mean) but little with each other (each adds\n"
    "something new), Pearson's objective gamma = sum_{j in S} sum_i sigma_ij /\n"
    "sqrt(sum_{i,j in S} sigma_ij) (eq 4.6).\n"
    "\n"
    "Prints the chosen topics in the order they were added, with the method's\n"
    "objective after each addition (gamma; tau for greedy-kendall) and rho, the\n"
    "Pearson correlation between the systems' means on the chosen topics and on\n"
    "all topics (eq 4.3).\n"
    "\n"
    "options:\n"
    "  --method M        how to choose (default greedy-pearson):\n"
    "                    @[topics-method]\n"
    "                    and the chapter-6 methods, which need QRELS and RUNs:\n"
    "                    adaptive, iqp, adaptive-plus, adaptive-star, oracle,\n"
    "                    greedy-true, prediction (`qrelkit topics select --method\n"
    "                    adaptive --help`; the next topic: `qrelkit topics next\n"
    "                    --help`); and l2r, Kutlu's learned ranking, which reads\n"
    "                    RUNs and a model (`qrelkit topics select --method l2r\n"
    "                    --help`)\n"
    "  --size K          topics to choose (default 10; at most the topic count)\n"
    "  --matrix FILE     the score matrix ('topic<TAB>RUN1...' header; gzip or '-')\n"
    "  --measure NAME    with QRELS and RUNs: the per-topic measure (default map,\n"
    "                    i.e. AP); qrels topics a run lacks score 0 (trec_eval -c)\n"
    "  --variances FILE  a second matrix, same runs and topics, holding the variance\n"
    "                    of each score (e.g. from statAP or MTC on unjudged topics);\n"
    "                    greedy-pearson then uses eq 6.6, which also rewards topics\n"
    "                    whose scores are certain\n"
    "  --estimate E      with QRELS (statap: PRELS) and RUNs: each cell is an\n"
    "                    estimator's expected AP and its variance (000b 1.6), so\n"
    "                    partly judged topics enter with their uncertainty (eq 6.6\n"
    "                    for greedy-pearson):\n"
    "                      mtc     unjudged documents of the runs' top --depth get\n"
    "                              p = --prior (default 0.5)\n"
    "                      rtc     unjudged p from the runs as experts (Carterette)\n"
    "                      ip      unjudged documents are non-relevant (variance 0)\n"
    "                      statap  PRELS: sampled judgments with inclusion\n"
    "                              probabilities (statAP, var_statAP)\n"
    "  --depth N         mtc, rtc, ip: the runs' lists cut at N (default 100)\n"
    "  --prior P         mtc: the probability of an unjudged document (0.5)\n"
    "  --cov C           covariance estimator:\n"
    "                    @[topics-cov]\n"
    "  --qs2-top K       qs2: the K best systems by mean score (default 30)\n"
    "  --seed S          random: the draw (default 1)\n"
    "  --signed          convex: the literal L1 ball, beta may be negative\n"
    "  --budget B --omega W  budget: B judgments of W needed to judge everything;\n"
    "                    the program keeps sum beta <= KAPPA * B / W, 0 <= beta <= 1\n"
    "  --kappa K         budget: scale of that bound (default n, the topic count:\n"
    "                    the reading under which B = W selects every topic); 1 is\n"
    "                    eq 5.1 as printed (at most a few topics)\n"
    "  --budget-size     budget: choose exactly --size topics instead (bisects the\n"
    "                    bound)\n"
    "  --format F        @{format} (default tsv)\n"
    "  --precision N     decimals (default 6)\n"
    "\n"
    "Rules: a matrix cell must be a number (missing cells, NaN and inf are input\n"
    "errors naming the line); a topic id may appear once; at least two systems;\n"
    "--size above the topic count is a usage error. A topic every system scores\n"
    "the same carries no information: greedy appends such topics last.\n"
    "Convex: the L1 relaxation selects at most about (systems - 1) topics; beyond\n"
    "that greedy steps finish the set and the output says 'completed'.\n"
    "\n"
    "examples:\n"
    "  qrelkit eval --matrix AP qrels.txt runs/*.run > ap.tsv\n"
    "  qrelkit topics select --method greedy-pearson --size 20 --matrix ap.tsv\n"
    "  qrelkit topics select --method convex --size 20 --format json qrels.txt runs/*\n"
    "  qrelkit topics select --method budget --budget 10000 --omega 50000 --matrix ap.tsv\n"
    "Details and the method -> file table: doc/qrelkit-topics.md.\n";

enum {
    OPT_METHOD = 256,
    OPT_SIZE,
    OPT_MATRIX,
    OPT_MEASURE,
    OPT_COV,
    OPT_QS2,
    OPT_SEED,
    OPT_SIGNED,
    OPT_BUDGET,
    OPT_OMEGA,
    OPT_KAPPA,
    OPT_BUDGET_SIZE,
    OPT_FORMAT,
    OPT_PRECISION,
    OPT_VARIANCES,
    OPT_ESTIMATE,
    OPT_DEPTH,
    OPT_PRIOR
};

/* `topics select --method` takes the table's methods, the chapter-6 ones
 * (their own parser) and l2r: one message lists all of them. */
static int unknown_method(const char *word)
{
    char list[1024];
    size_t n = 0;
    const qk_enum *tables[2] = {qk_topics_method_table, qk_topics_adaptive_methods()};
    list[0] = '\0';
    for (int t = 0; t < 2; t++)
        for (const qk_enum *e = tables[t]; e->name; e++)
            if (e->help && n + strlen(e->name) + 3 < sizeof list)
                n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", e->name);
    return qk_cli_usage("topics", "unknown --method '%s' (choose from: %s, l2r)", word, list);
}

static const struct option select_opts[] = {{"help", no_argument, NULL, 'h'},
                                            {"method", required_argument, NULL, OPT_METHOD},
                                            {"size", required_argument, NULL, OPT_SIZE},
                                            {"matrix", required_argument, NULL, OPT_MATRIX},
                                            {"measure", required_argument, NULL, OPT_MEASURE},
                                            {"cov", required_argument, NULL, OPT_COV},
                                            {"qs2-top", required_argument, NULL, OPT_QS2},
                                            {"seed", required_argument, NULL, OPT_SEED},
                                            {"signed", no_argument, NULL, OPT_SIGNED},
                                            {"budget", required_argument, NULL, OPT_BUDGET},
                                            {"omega", required_argument, NULL, OPT_OMEGA},
                                            {"kappa", required_argument, NULL, OPT_KAPPA},
                                            {"budget-size", no_argument, NULL, OPT_BUDGET_SIZE},
                                            {"format", required_argument, NULL, OPT_FORMAT},
                                            {"precision", required_argument, NULL, OPT_PRECISION},
                                            {"variances", required_argument, NULL, OPT_VARIANCES},
                                            {"estimate", required_argument, NULL, OPT_ESTIMATE},
                                            {"depth", required_argument, NULL, OPT_DEPTH},
                                            {"prior", required_argument, NULL, OPT_PRIOR},
                                            {NULL, 0, NULL, 0}};

#define CMD "topics"

/* The runs x topics matrix of run files evaluated one at a time, as eval
 * streams them (qk_topics_matrix_from_results): one run in memory, not
 * all of them (19 runs of a million lines took a gigabyte as ranked runs).
 * Rows are named by run id, or all by file name when run ids repeat, as
 * qk_cli_read_runs names them. */
static qk_status matrix_of_files(const qk_qrels *q, const char *const *paths, size_t n, const char *measure,
                                 qk_topic_matrix **out, qk_error *err)
{
    qk_measures *ms = NULL;
    qk_eval_result **res = calloc(n ? n : 1, sizeof *res);
    const char **names = calloc(n ? n : 1, sizeof *names);
    char(*label)[4096] = NULL;
    qk_eval_opts eo;
    size_t vi, done = 0;
    int dup = 0;
    qk_status st;
    *out = NULL;
    qk_eval_opts_init(&eo);
    eo.complete = 1;
    if (!res || !names) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (n < 2) {
        st = qk_error_set(err, QK_EINPUT, "topic selection needs at least two runs (got %zu)", n);
        goto out;
    }
    if ((st = qk_topics_measure(measure, &ms, &vi, err)) != QK_OK)
        goto out;
    for (; done < n; done++) {
        qk_run_stream *s = NULL;
        if ((st = qk_run_open(paths[done], QK_RUN_STREAM, &s, err)) == QK_OK)
            st = qk_eval_stream(q, s, ms, &eo, &res[done], err);
        qk_run_close(s);
        if (st != QK_OK)
            goto out;
        names[done] = qk_result_runid(res[done]);
    }
    for (size_t r = 0; r < n && !dup; r++)
        for (size_t k = r + 1; k < n && !dup; k++)
            dup = strcmp(names[r], names[k]) == 0;
    if (dup) {
        if (!(label = malloc(n * sizeof *label))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t r = 0; r < n; r++) {
            qk_cli_run_label(paths[r], QK_CLI_NAME_BASE, label[r], sizeof label[r]);
            names[r] = label[r];
        }
    }
    st = qk_topics_matrix_from_results(res, names, n, vi, out, err);
out:
    for (size_t r = 0; res && r < done; r++)
        qk_eval_result_free(res[r]);
    free(res);
    free(names);
    free(label);
    qk_measures_free(ms);
    return st;
}

qk_status qk_topics_cli_input(const char *matrix, const char *measure, char **ops, int nops,
                              qk_topic_matrix **out, qk_error *err)
{
    qk_status st;
    *out = NULL;
    if (matrix) {
        qk_lines *l = NULL;
        qk_scores *s = NULL;
        if ((st = qk_lines_open(matrix, &l, err)) != QK_OK)
            return st;
        st = qk_stats_read_matrix(l, &s, err);
        qk_lines_close(l);
        if (st == QK_OK)
            st = qk_topics_matrix_from_scores(s, out, err);
        qk_stats_scores_free(s);
        return st;
    }
    {
        qk_qrels *q = NULL;
        if ((st = qk_qrels_read(ops[0], QK_REL_QRELS, QK_DEDUP_ERROR, &q, err)) == QK_OK)
            st = matrix_of_files(q, (const char *const *)ops + 1, (size_t)nops - 1, measure, out, err);
        qk_qrels_free(q);
        return st;
    }
}

/* --variances: a matrix of the same shape as m (same run and topic order)
 * whose cells become m's variances. */
static qk_status add_variances(qk_topic_matrix **m, const char *path, qk_error *err)
{
    qk_lines *l = NULL;
    qk_scores *s = NULL;
    qk_topic_matrix *w = NULL;
    qk_status st;
    if ((st = qk_lines_open(path, &l, err)) != QK_OK)
        return st;
    st = qk_stats_read_matrix(l, &s, err);
    qk_lines_close(l);
    if (st != QK_OK)
        return st;
    if (s->nruns != (*m)->nsys || s->ntopics != (*m)->ntopics) {
        st = qk_error_set(err, QK_EINPUT, "'%s': %zu runs x %zu topics, the scores have %zu x %zu", path,
                          s->nruns, s->ntopics, (*m)->nsys, (*m)->ntopics);
        goto out;
    }
    for (size_t i = 0; i < s->nruns; i++)
        if (strcmp(s->runs[i], (*m)->systems[i]) != 0) {
            st = qk_error_set(err, QK_EINPUT, "'%s': run %zu is '%s', the scores have '%s'", path, i + 1,
                              s->runs[i], (*m)->systems[i]);
            goto out;
        }
    for (size_t t = 0; t < s->ntopics; t++)
        if (strcmp(s->topics[t], (*m)->topics[t]) != 0) {
            st = qk_error_set(err, QK_EINPUT, "'%s': topic %zu is '%s', the scores have '%s'", path, t + 1,
                              s->topics[t], (*m)->topics[t]);
            goto out;
        }
    if ((st = qk_topics_matrix_new((*m)->nsys, (*m)->ntopics, (const char *const *)(*m)->systems,
                                   (const char *const *)(*m)->topics, (*m)->x, s->v, &w, err)) == QK_OK) {
        qk_topics_matrix_free(*m);
        *m = w;
    }
out:
    qk_stats_scores_free(s);
    return st;
}

static double jnum(double v)
{
    return isfinite(v) ? v : 0.0;
}

static void print_json(const qk_topic_matrix *m, const qk_topics_opts *o, const qk_topics_selection *s,
                       int prec)
{
    json_t *root = json_object(), *arr = json_array();
    const qk_enum *e = qk_enum_by_value(qk_topics_method_table, (int)o->method);
    json_object_set_new(root, "method", json_string(e ? e->name : "?"));
    json_object_set_new(root, "topics_total", json_integer((json_int_t)m->ntopics));
    json_object_set_new(root, "systems", json_integer((json_int_t)m->nsys));
    json_object_set_new(root, "size", json_integer((json_int_t)s->m));
    if (o->method == QK_TOPICS_CONVEX || o->method == QK_TOPICS_BUDGET) {
        json_object_set_new(root, "lambda", json_real(s->lambda));
        json_object_set_new(root, "completed", json_boolean(s->completed));
    }
    if (o->method == QK_TOPICS_BUDGET)
        json_object_set_new(root, "t", json_real(s->t));
    for (size_t k = 0; k < s->m; k++) {
        json_t *r = json_object();
        json_object_set_new(r, "topic", json_string(m->topics[s->order[k]]));
        json_object_set_new(r, "objective", json_real(jnum(s->objective[k])));
        json_object_set_new(r, "rho", json_real(jnum(s->rho[k])));
        if (s->beta)
            json_object_set_new(r, "beta", json_real(s->beta[k]));
        json_array_append_new(arr, r);
    }
    json_object_set_new(root, "chosen", arr);
    json_dumpf(root, stdout,
               JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(prec + 1 > 17 ? 17 : prec + 1));
    putchar('\n');
    json_decref(root);
}

static void print_tsv(const qk_topic_matrix *m, const qk_topics_opts *o, const qk_topics_selection *s,
                      int prec)
{
    printf("rank\ttopic\t%s\trho%s\n",
           o->method == QK_TOPICS_GREEDY_KENDALL || o->method == QK_TOPICS_GREEDY_ORACLE ? "tau" : "gamma",
           s->beta ? "\tbeta" : "");
    for (size_t k = 0; k < s->m; k++) {
        printf("%zu\t%s\t%.*f\t%.*f", k + 1, m->topics[s->order[k]], prec, s->objective[k], prec, s->rho[k]);
        if (s->beta)
            printf("\t%.*f", prec, s->beta[k]);
        putchar('\n');
    }
    if (s->completed)
        printf("# completed: the convex path chose fewer topics; greedy-pearson steps added the rest\n");
}

static int cmd_select(int argc, char **argv)
{
    qk_topics_opts o;
    qk_topic_matrix *m = NULL;
    qk_topics_selection *s = NULL;
    qk_error err;
    const char *matrix = NULL, *measure = NULL, *variances = NULL;
    int json = 0, rc, c, method = (int)QK_TOPICS_GREEDY_PEARSON, cov = 0, nops, est = QK_TOPICS_EST_NONE;
    long prec = 6;
    /* Chapter-6 methods (adaptive, iqp, oracle, ...) have their own parser. */
    for (int i = 1; i < argc; i++) {
        const char *w = strncmp(argv[i], "--method=", 9) == 0 ? argv[i] + 9
                        : strcmp(argv[i], "--method") == 0 && i + 1 < argc ? argv[i + 1]
                                                                          : NULL;
        if (w && qk_topics_adaptive_method(w))
            return qk_topics_select_adaptive_main(argc, argv);
        if (w && strcmp(w, "l2r") == 0) /* Kutlu's Alg. 2 reads runs and a model (cmd_topics_train.c) */
            return qk_topics_select_l2r_main(argc, argv);
    }
    qk_conf_opts co;
    qk_topics_opts_init(&o);
    qk_conf_opts_init(&co);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", select_opts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_topics);
        case OPT_METHOD:
            if (!qk_enum_find(qk_topics_method_table, optarg))
                return unknown_method(optarg);
            if ((rc = qk_cli_enum(CMD, qk_topics_method_table, "--method", optarg, &method)))
                return rc;
            o.method = (qk_topics_method)method;
            break;
        case OPT_SIZE:
            if ((rc = qk_cli_size(CMD, "--size", optarg, 1, SIZE_MAX, &o.size)))
                return rc;
            break;
        case OPT_MATRIX: matrix = optarg; break;
        case OPT_VARIANCES:
            variances = optarg;
            o.use_uncertainty = 1;
            break;
        case OPT_MEASURE: measure = optarg; break;
        case OPT_ESTIMATE:
            if ((rc = qk_cli_enum(CMD, qk_topics_estimate_table, "--estimate", optarg, &est)))
                return rc;
            o.use_uncertainty = 1;
            break;
        case OPT_DEPTH:
            if ((rc = qk_cli_long(CMD, "--depth", optarg, 1, LONG_MAX, &co.depth)))
                return rc;
            break;
        case OPT_PRIOR:
            if ((rc = qk_cli_double(CMD, "--prior", optarg, 0, 1, 0, &co.prior)))
                return rc;
            break;
        case OPT_COV:
            if ((rc = qk_cli_enum(CMD, qk_topics_cov_table, "--cov", optarg, &cov)))
                return rc;
            o.cov = (qk_topics_covkind)cov;
            break;
        case OPT_QS2:
            if ((rc = qk_cli_size(CMD, "--qs2-top", optarg, 2, SIZE_MAX, &o.qs2_top)))
                return rc;
            break;
        case OPT_SEED:
            if ((rc = qk_cli_seed(CMD, "--seed", optarg, &o.seed)))
                return rc;
            break;
        case OPT_SIGNED: o.signed_beta = 1; break;
        case OPT_BUDGET:
            if ((rc = qk_cli_double(CMD, "--budget", optarg, 0, INFINITY, 0, &o.budget)))
                return rc;
            break;
        case OPT_OMEGA:
            if ((rc = qk_cli_double(CMD, "--omega", optarg, 0, INFINITY, QK_NUM_LO_OPEN, &o.omega)))
                return rc;
            break;
        case OPT_KAPPA:
            if ((rc = qk_cli_double(CMD, "--kappa", optarg, 0, INFINITY, QK_NUM_LO_OPEN, &o.kappa)))
                return rc;
            break;
        case OPT_BUDGET_SIZE: o.budget_target = 1; break;
        case OPT_FORMAT:
            if ((rc = qk_cli_format_tsv_json(CMD, optarg, &json)))
                return rc;
            break;
        case OPT_PRECISION:
            if ((rc = qk_cli_long(CMD, "--precision", optarg, 0, 17, &prec)))
                return rc;
            break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    nops = argc - optind;
    if (matrix && nops > 0)
        return qk_cli_usage(CMD, "give either --matrix or QRELS and RUNs, not both");
    if (!matrix && nops < 3)
        return qk_cli_usage(CMD, "select needs --matrix FILE or QRELS and at least two RUNs");
    if (o.method == QK_TOPICS_BUDGET && !o.budget_target && o.omega <= 0)
        return qk_cli_usage(CMD, "--method budget needs --budget B and --omega W (or --budget-size)");
    if (o.method == QK_TOPICS_BUDGET && !o.budget_target && o.budget > o.omega)
        return qk_cli_usage(CMD, "--budget %g is larger than --omega %g", o.budget, o.omega);
    if (est != QK_TOPICS_EST_NONE && (matrix || variances || measure))
        return qk_cli_usage(CMD, "--estimate reads QRELS (or PRELS) and RUNs and gives AP with its "
                                 "variance: not with --matrix, --variances or --measure");
    if ((est != QK_TOPICS_EST_NONE ? qk_topics_cli_input_est(est, &co, argv + optind, nops, &m, &err)
                                   : qk_topics_cli_input(matrix, measure ? measure : "map", argv + optind,
                                                         nops, &m, &err)) != QK_OK ||
        (variances && add_variances(&m, variances, &err) != QK_OK) ||
        qk_topics_select(m, &o, &s, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (json)
        print_json(m, &o, s, (int)prec);
    else
        print_tsv(m, &o, s, (int)prec);
    rc = QK_EXIT_OK;
out:
    qk_topics_selection_free(s);
    qk_topics_matrix_free(m);
    return rc;
}

/* Subcommands: one row each (the adaptive step `next` goes here). */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} subcommands[] = {
    {"select", cmd_select},
    {"next", qk_topics_next_main},         /* chapter 6 (cmd_topics_adaptive.c) */
    {"features", qk_topics_features_main}, /* Kutlu et al.'s L2R features (cmd_topics_l2r.c) */
    {"cost", qk_topics_cost_main},         /* their judging-cost allocation (cmd_topics_l2r.c) */
    {"train", qk_topics_train_main},       /* their L2R model (cmd_topics_train.c) */
};

int qk_cmd_topics(int argc, char **argv)
{
    if (argc < 2 || qk_cli_is_help(argv[1]))
        return qk_cli_help(qk_help_topics);
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(argv[1], subcommands[i].name) == 0)
            return subcommands[i].run(argc - 1, argv + 1);
    return qk_cli_usage(CMD, "unknown subcommand '%s' (choose from: select, next, features, cost, train)", argv[1]);
}
