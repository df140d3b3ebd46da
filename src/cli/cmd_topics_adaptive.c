/* The chapter-6 parts of `qrelkit topics` and `qrelkit simulate`:
 *   topics next              the stateless adaptive step (qk_adapt_next)
 *   topics select --method adaptive|iqp|adaptive-plus|adaptive-star|oracle|greedy-true
 *   simulate topics-adaptive the E6.1 / E6.4 experiments (qk_adapt_simulate)
 * Parsing and printing only; the methods live in src/topics and src/sim. */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "qrelkit/topics_adaptive.h"
#include "shard_cli.h"
#include "topics_adaptive_cli.h"

/* The methods of `topics select` handled here. */
enum { SEL_ADAPTIVE = 0, SEL_IQP, SEL_PLUS, SEL_STAR, SEL_ORACLE, SEL_GREEDY_TRUE, SEL_PREDICTION };
static const qk_enum select_table[] = {
    {"adaptive", SEL_ADAPTIVE, "Adaptive: calibrated relevance model, MTC moments, Eq. 6.6"},
    {"iqp", SEL_IQP, "IQP: Adaptive with hard predictions and no uncertainty"},
    {"adaptive-plus", SEL_PLUS, "Adaptive+: votes over random subsets of the systems"},
    {"adaptive-star", SEL_STAR, "Adaptive*: the mean correlation over --metrics"},
    {"oracle", SEL_ORACLE, "the best subset of --size on the true scores (needs full qrels)"},
    {"greedy-true", SEL_GREEDY_TRUE, "greedy Eq. 4.6 on the true scores from --first"},
    {"prediction", SEL_PREDICTION,
     "the performance-prediction baseline (Hosseini et al. 2012 as Kutlu ran it): Adaptive from a random "
     "first topic (--seed)"},
    {NULL, 0, NULL},
};

int qk_topics_adaptive_method(const char *word)
{
    return qk_enum_find(select_table, word) != NULL;
}

const qk_enum *qk_topics_adaptive_methods(void)
{
    return select_table;
}

const char qk_help_topics_next[] =
    "usage: qrelkit topics next --qrels JUDGED --runs RUN [RUN...] [options]\n"
    "\n"
    "The next topic to judge (Hosseini 2013, ch. 6), statelessly: the topics with\n"
    "a judgment in JUDGED are the judged ones; a relevance classifier (liblinear\n"
    "logistic regression on 7 + l features of each pooled document: how many runs\n"
    "retrieved it, its mean/min/max rank, the mean/min/max score on the judged\n"
    "topics of the runs that retrieved it, every run's normalised score) is\n"
    "trained on their pooled documents and predicts the others'; each run's\n"
    "expected metric and its variance on every unjudged topic (MTC) give X-hat and\n"
    "U, and the topic maximising Eq. 6.6 is printed: topic, objective, pool size.\n"
    "\n"
    "options:\n"
    "  --qrels JUDGED       judgments of the topics judged so far\n"
    "  --runs RUN...        the participating runs (repeat or list after it)\n"
    "  --method M           adaptive (default), iqp, adaptive-plus, adaptive-star\n"
    "  --metric M           ap (default), P.<k>, recall\n"
    "  --metrics LIST       adaptive-star's metrics (ap,P.10,P.100,recall)\n"
    "  --pool-depth K       the pool: every run's top K (100)\n"
    "  --cost C             liblinear's C (1)\n"
    "  --plus-subsets C     adaptive-plus: system subsets (100)\n"
    "  --plus-fraction H    adaptive-plus: subset size as a fraction of the runs (0.2)\n"
    "  --seed S             adaptive-plus's subsets (1)\n"
    "  --no-uncertainty     adaptive without U: Eq. 4.6 on the expectations\n"
    "  --format tsv|json    output format (tsv)\n";

const char qk_help_topics_select_adaptive[] =
    "usage: qrelkit topics select --method M --size K --qrels QRELS --runs RUN... [options]\n"
    "       qrelkit topics select --method M --size K [options] QRELS RUN RUN [RUN...]\n"
    "\n"
    "The chapter-6 methods of `topics select`: QRELS plays the assessor, revealing\n"
    "a topic's judgments once it is selected. Prints rank, topic and the\n"
    "objective when it was added (gamma of Eq. 6.6; adaptive-plus the share of\n"
    "votes; adaptive-star the mean rho-hat; oracle Kendall's tau of the subset).\n"
    "\n"
    "methods:\n"
    "  adaptive, iqp, adaptive-plus, adaptive-star, oracle, greedy-true,\n"
    "  prediction (Adaptive from a first topic drawn with --seed: the\n"
    "  performance-prediction baseline of Kutlu et al.)\n"
    "options: as `topics next`, and\n"
    "  --size K             topics to choose\n"
    "  --first T1[,T2...]   the initial topic(s) (the first candidate topic;\n"
    "                       prediction: one drawn at random)\n"
    "  --oracle-trials N    random subsets when exhaustive search is too big (10000)\n";

const char qk_help_simulate_topics_adaptive[] =
    "usage: qrelkit simulate topics-adaptive --qrels FULL --runs RUN... --methods LIST\n"
    "                                        --sizes K1,K2,... [options]\n"
    "\n"
    "Hosseini 2013's chapter-6 experiments on a fully judged collection: Kendall's\n"
    "tau (and Pearson's r) between the runs' mean metric over the chosen topics\n"
    "and over all topics, per method and subset size. Adaptive, IQP, Adaptive+,\n"
    "Adaptive* and greedy-true run --trials times from distinct first topics;\n"
    "random draws --random-trials subsets (mean, sd, 95 % CI and the 2.5-97.5 %\n"
    "band); the oracle is the best subset. --held-out: each trial holds out whole\n"
    "groups until half the runs are out, selects with the rest and reports the\n"
    "correlations over the held-out runs.\n"
    "\n"
    "options:\n"
    "  --qrels FULL         complete judgments (the assessor and the truth)\n"
    "  --runs RUN...        runs (repeat or list after it)\n"
    "  --methods LIST       random, adaptive, iqp, oracle, adaptive-plus,\n"
    "                       adaptive-star, greedy-true\n"
    "  --sizes LIST         increasing subset sizes\n"
    "  --trials T           adaptive-family trials, distinct first topics (10)\n"
    "  --random-trials N    random subsets per size (1000)\n"
    "  --oracle-trials N    oracle's random subsets when not exhaustive (10000)\n"
    "  --metric M           ap (default), P.<k>, recall\n"
    "  --metrics LIST       adaptive-star's metrics\n"
    "  --pool-depth K       (100)\n"
    "  --held-out           systems held out by group (group: run name up to its\n"
    "                       first '-', or --groups)\n"
    "  --groups FILE        'run group' lines\n"
    "  --seed S             (1)\n"
    "  --no-uncertainty     ablation: adaptive without U (Eq. 4.6 on E[metric])\n"
    "  --true-labels        ablation: adaptive with the true labels instead of the\n"
    "                       classifier's probabilities (a perfect classifier)\n"
    "  --format tsv|json    (tsv)\n"
    "  --shard I/N          (simulate) trials of shard I of N only, as a part file\n"
    "                       for `qrelkit merge` (doc/scale-out.md)\n";

typedef struct targs {
    const char *qrels, *groups, *first;
    const char **runs;
    size_t nruns, size;
    int method, json, held_out;
    qk_adapt_opts o;
    qk_adapt_sim_opts so;
    qk_topics_metric metrics[8];
    int sim_methods[QK_AS_COUNT_];
    size_t sizes[512];
    size_t oracle_trials;
    int shard_on;
    qk_shard_spec shard;
} targs;

static const struct option longopts[] = {{"qrels", required_argument, NULL, 'q'},
                                         {"runs", required_argument, NULL, 'R'},
                                         {"method", required_argument, NULL, 'm'},
                                         {"methods", required_argument, NULL, 'M'},
                                         {"metric", required_argument, NULL, 'e'},
                                         {"metrics", required_argument, NULL, 'E'},
                                         {"pool-depth", required_argument, NULL, 'd'},
                                         {"cost", required_argument, NULL, 'C'},
                                         {"plus-subsets", required_argument, NULL, 'c'},
                                         {"plus-fraction", required_argument, NULL, 'H'},
                                         {"seed", required_argument, NULL, 's'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"size", required_argument, NULL, 'k'},
                                         {"sizes", required_argument, NULL, 'K'},
                                         {"first", required_argument, NULL, 'F'},
                                         {"trials", required_argument, NULL, 't'},
                                         {"random-trials", required_argument, NULL, 'r'},
                                         {"oracle-trials", required_argument, NULL, 'o'},
                                         {"held-out", no_argument, NULL, 'O'},
                                         {"groups", required_argument, NULL, 'G'},
                                         {"no-uncertainty", no_argument, NULL, 'U'},
                                         {"true-labels", no_argument, NULL, 'T'},
                                         {"shard", required_argument, NULL, 'X'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

static int parse_metrics(const char *cmd, const char *s, targs *a)
{
    char buf[512], *save = NULL;
    size_t n = 0;
    qk_error err = {0};
    snprintf(buf, sizeof buf, "%s", s);
    for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (n == sizeof a->metrics / sizeof *a->metrics)
            return qk_cli_usage(cmd, "--metrics: at most 8 metrics");
        if (qk_topics_metric_parse(w, &a->metrics[n++], &err) != QK_OK)
            return qk_cli_usage(cmd, "--metrics: %s", err.message);
    }
    a->o.metrics = a->metrics;
    a->o.nmetrics = n;
    return 0;
}

/* which: 0 next, 1 select, 2 simulate */
static int parse(const char *cmd, int which, int argc, char **argv, targs *a)
{
    int c;
    long l;
    qk_error err = {0};
    memset(a, 0, sizeof *a);
    qk_adapt_opts_init(&a->o);
    qk_adapt_sim_opts_init(&a->so);
    a->so.pool_depth = 100;
    a->oracle_trials = 10000;
    if (!(a->runs = calloc((size_t)argc + 1, sizeof *a->runs)))
        return QK_EXIT_IO;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        int rc = 0, v;
        size_t n;
        switch (c) {
        case 'h': return -1;
        case 'q': a->qrels = optarg; break;
        case 'R': a->runs[a->nruns++] = optarg; break;
        case 'm':
            if (which == 0) {
                if (!(rc = qk_cli_enum(cmd, qk_adapt_method_table, "--method", optarg, &v)))
                    a->o.method = (qk_adapt_method)v;
            } else if (!(rc = qk_cli_enum(cmd, select_table, "--method", optarg, &v))) {
                a->method = v;
            }
            break;
        case 'M':
            if (which != 2)
                return qk_cli_usage(cmd, "unknown option --methods");
            rc = qk_cli_enum_list(cmd, qk_adapt_sim_method_table, "--methods", optarg, a->sim_methods,
                                  QK_AS_COUNT_, &n);
            a->so.methods = a->sim_methods;
            a->so.nmethods = rc ? 0 : n;
            break;
        case 'e':
            if (qk_topics_metric_parse(optarg, &a->o.metric, &err) != QK_OK)
                return qk_cli_usage(cmd, "--metric: %s", err.message);
            break;
        case 'E': rc = parse_metrics(cmd, optarg, a); break;
        case 'd': rc = qk_cli_long(cmd, "--pool-depth", optarg, 1, 1000, &a->so.pool_depth); break;
        case 'C': rc = qk_cli_double(cmd, "--cost", optarg, 0, INFINITY, 0, &a->o.C); break;
        case 'c': rc = qk_cli_size(cmd, "--plus-subsets", optarg, 1, 100000, &a->o.plus_c); break;
        case 'H': rc = qk_cli_double(cmd, "--plus-fraction", optarg, 0, 1, 0, &a->o.plus_h); break;
        case 's':
            rc = qk_cli_seed(cmd, "--seed", optarg, &a->o.seed);
            a->so.seed = a->o.seed;
            break;
        case 'f': rc = qk_cli_format_tsv_json(cmd, optarg, &a->json); break;
        case 'k': rc = qk_cli_size(cmd, "--size", optarg, 1, SIZE_MAX, &a->size); break;
        case 'K': {
            long v2[512];
            rc = qk_cli_long_list(cmd, "--sizes", optarg, 1, 1000000, v2, 512, &n);
            for (size_t i = 0; !rc && i < n; i++) {
                if (i && v2[i] <= v2[i - 1])
                    return qk_cli_usage(cmd, "--sizes: increasing values");
                a->sizes[i] = (size_t)v2[i];
            }
            a->so.sizes = a->sizes;
            a->so.nsizes = rc ? 0 : n;
            break;
        }
        case 'F': a->first = optarg; break;
        case 't': rc = qk_cli_size(cmd, "--trials", optarg, 1, 100000, &a->so.trials); break;
        case 'r': rc = qk_cli_size(cmd, "--random-trials", optarg, 1, 10000000, &a->so.random_trials); break;
        case 'o':
            rc = qk_cli_size(cmd, "--oracle-trials", optarg, 1, 100000000, &a->oracle_trials);
            a->so.oracle_trials = a->oracle_trials;
            break;
        case 'O': a->held_out = 1; break;
        case 'U': a->o.no_uncertainty = 1; break;
        case 'T':
            if (which != 2)
                return qk_cli_usage(cmd, "--true-labels is an ablation of simulate topics-adaptive only");
            a->o.true_labels = 1;
            break;
        case 'G':
            a->groups = optarg;
            a->held_out = 1;
            break;
        case 'X':
            if (which != 2)
                return qk_cli_usage(cmd, "--shard splits simulate topics-adaptive only");
            if (!(rc = qk_cli_shard_parse(cmd, optarg, &a->shard)))
                a->shard_on = 1;
            break;
        default: return QK_EXIT_USAGE;
        }
        if (rc)
            return rc;
    }
    (void)l;
    /* `topics select`'s positional form: QRELS RUN RUN ... */
    if (!a->qrels && which == 1 && optind < argc)
        a->qrels = argv[optind++];
    while (optind < argc)
        a->runs[a->nruns++] = argv[optind++];
    if (!a->qrels)
        return qk_cli_usage(cmd, "missing --qrels");
    if (a->nruns < 2)
        return qk_cli_usage(cmd, "need at least 2 runs (--runs)");
    if (which == 1 && !a->size)
        return qk_cli_usage(cmd, "missing --size");
    if (which == 2 && !a->so.nmethods)
        return qk_cli_usage(cmd, "missing --methods");
    if (which == 2 && !a->so.nsizes)
        return qk_cli_usage(cmd, "missing --sizes");
    if (a->o.method == QK_ADAPT_STAR && a->o.nmetrics == 0 && which == 0)
        a->o.nmetrics = 0; /* Adaptive* on the one --metric */
    a->so.adapt = a->o;
    a->so.metric = a->o.metric;
    return 0;
}

static int read_inputs(const char *cmd, const targs *a, qk_qrels **q, qk_run ***runs)
{
    qk_error err = {0};
    if (qk_qrels_read(a->qrels, QK_REL_QRELS, QK_DEDUP_FIRST, q, &err) != QK_OK)
        return qk_cli_fail(cmd, &err);
    if (qk_cli_read_runs(a->runs, a->nruns, QK_CLI_NAME_BASE, runs, &err) != QK_OK) {
        qk_qrels_free(*q);
        *q = NULL;
        return qk_cli_fail(cmd, &err);
    }
    return 0;
}

static void print_value(double v)
{
    if (isnan(v))
        fputs("NA", stdout);
    else
        printf("%.6f", v);
}

int qk_topics_next_main(int argc, char **argv)
{
    const char *cmd = "topics next";
    targs a;
    qk_qrels *q = NULL;
    qk_run **runs = NULL;
    qk_adapt_data *d = NULL;
    unsigned char *judged = NULL;
    qk_error err = {0};
    size_t next;
    double value;
    int rc = parse(cmd, 0, argc, argv, &a);
    if (rc < 0) {
        free((void *)a.runs);
        return qk_cli_help(qk_help_topics_next);
    }
    if (rc || (rc = read_inputs(cmd, &a, &q, &runs)) != 0)
        goto out;
    if (qk_adapt_data_new((const qk_run *const *)runs, a.nruns, NULL, 0, a.so.pool_depth, &d, &err) !=
            QK_OK ||
        !(judged = calloc(qk_adapt_data_num_topics(d), 1)) ||
        qk_adapt_data_set_labels(d, q, judged, &err) != QK_OK) {
        rc = err.code ? qk_cli_fail(cmd, &err) : QK_EXIT_IO;
        goto out;
    }
    {
        size_t nj = 0, n = qk_adapt_data_num_topics(d);
        for (size_t t = 0; t < n; t++)
            nj += judged[t];
        if (nj == 0 || nj == n) {
            qk_cli_errorf(cmd, "'%s' judges %s of the %zu candidate topics", a.qrels, nj ? "all" : "none", n);
            rc = QK_EXIT_INPUT;
            goto out;
        }
    }
    if (qk_adapt_next(d, judged, &a.o, &next, &value, &err) != QK_OK) {
        rc = qk_cli_fail(cmd, &err);
        goto out;
    }
    if (a.json) {
        json_t *o = json_object();
        json_object_set_new(o, "topic", json_string(qk_adapt_data_topic(d, next)));
        json_object_set_new(o, "objective", isnan(value) ? json_null() : json_real(value));
        json_object_set_new(o, "pool", json_integer((json_int_t)qk_adapt_data_pool_size(d, next)));
        json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        fputc('\n', stdout);
        json_decref(o);
    } else {
        printf("topic\tobjective\tpool\n%s\t", qk_adapt_data_topic(d, next));
        print_value(value);
        printf("\t%zu\n", qk_adapt_data_pool_size(d, next));
    }
    rc = qk_cli_flush_stdout(cmd);
out:
    free(judged);
    qk_adapt_data_free(d);
    qk_cli_free_runs(runs, a.nruns);
    qk_qrels_free(q);
    free((void *)a.runs);
    return rc;
}

/* --first T1,T2: topic indices; default the first candidate. */
static int first_topics(const char *cmd, const targs *a, const qk_adapt_data *d, size_t *init, size_t *ninit)
{
    char buf[4096], *save = NULL;
    *ninit = 0;
    if (!a->first && a->method == SEL_PREDICTION) { /* Kutlu §1.3: the first topic at random */
        qk_rng rng;
        qk_rng_seed(&rng, a->o.seed);
        init[(*ninit)++] = (size_t)qk_rng_below(&rng, qk_adapt_data_num_topics(d));
        return 0;
    }
    if (!a->first) {
        init[(*ninit)++] = 0;
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", a->first);
    for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        size_t t;
        for (t = 0; t < qk_adapt_data_num_topics(d) && strcmp(qk_adapt_data_topic(d, t), w) != 0; t++)
            ;
        if (t == qk_adapt_data_num_topics(d)) {
            qk_cli_errorf(cmd, "--first: topic '%s' is not a candidate (no run retrieves for it)", w);
            return QK_EXIT_INPUT;
        }
        init[(*ninit)++] = t;
    }
    if (*ninit == 0)
        return qk_cli_usage(cmd, "--first: no topic given");
    return 0;
}

int qk_topics_select_adaptive_main(int argc, char **argv)
{
    const char *cmd = "topics select";
    targs a;
    qk_qrels *q = NULL;
    qk_run **runs = NULL;
    qk_adapt_data *d = NULL;
    size_t *order = NULL, *init = NULL, ninit = 0, n = 0, l = 0;
    double *value = NULL, *x = NULL;
    qk_error err = {0};
    qk_status st = QK_OK;
    int rc = parse(cmd, 1, argc, argv, &a);
    if (rc < 0) {
        free((void *)a.runs);
        return qk_cli_help(qk_help_topics_select_adaptive);
    }
    if (rc || (rc = read_inputs(cmd, &a, &q, &runs)) != 0)
        goto out;
    if (qk_adapt_data_new_judged((const qk_run *const *)runs, a.nruns, q, a.so.pool_depth, &d, &err) !=
            QK_OK ||
        qk_adapt_data_set_labels(d, q, NULL, &err) != QK_OK) {
        rc = qk_cli_fail(cmd, &err);
        goto out;
    }
    n = qk_adapt_data_num_topics(d);
    l = qk_adapt_data_num_systems(d);
    if (a.size > n) {
        qk_cli_errorf(cmd, "--size %zu is larger than the %zu candidate topics", a.size, n);
        rc = QK_EXIT_USAGE;
        goto out;
    }
    order = malloc(n * sizeof *order);
    init = malloc(n * sizeof *init);
    value = malloc(n * sizeof *value);
    x = malloc(l * n * sizeof *x);
    if (!order || !init || !value || !x) {
        rc = QK_EXIT_IO;
        goto out;
    }
    if ((rc = first_topics(cmd, &a, d, init, &ninit)) != 0)
        goto out;
    if (a.method == SEL_ORACLE || a.method == SEL_GREEDY_TRUE) {
        int ex = 0;
        st = qk_adapt_true_matrix(d, &a.o.metric, x, &err);
        if (st == QK_OK && a.method == SEL_ORACLE) {
            st = qk_topics_oracle(l, n, x, NULL, 0, a.size, QK_ORACLE_TAU, a.oracle_trials, a.o.seed, order,
                                  &value[0], &ex, &err);
            for (size_t i = 1; i < a.size; i++)
                value[i] = value[0];
        } else if (st == QK_OK) {
            st = qk_topics_greedy_true(l, n, x, init[0], a.size, order, value, &err);
        }
    } else {
        a.o.method = a.method == SEL_IQP    ? QK_ADAPT_IQP
                     : a.method == SEL_PLUS ? QK_ADAPT_PLUS
                     : a.method == SEL_STAR ? QK_ADAPT_STAR
                                            : QK_ADAPT_ADAPTIVE;
        st = qk_adapt_select(d, init, ninit, a.size, &a.o, order, value, &err);
    }
    if (st != QK_OK) {
        rc = qk_cli_fail(cmd, &err);
        goto out;
    }
    if (a.json) {
        json_t *arr = json_array();
        for (size_t i = 0; i < a.size; i++) {
            json_t *e = json_object();
            json_object_set_new(e, "rank", json_integer((json_int_t)i + 1));
            json_object_set_new(e, "topic", json_string(qk_adapt_data_topic(d, order[i])));
            json_object_set_new(e, "objective", isnan(value[i]) ? json_null() : json_real(value[i]));
            json_array_append_new(arr, e);
        }
        json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        fputc('\n', stdout);
        json_decref(arr);
    } else {
        puts("rank\ttopic\tobjective");
        for (size_t i = 0; i < a.size; i++) {
            printf("%zu\t%s\t", i + 1, qk_adapt_data_topic(d, order[i]));
            print_value(value[i]);
            putchar('\n');
        }
    }
    rc = qk_cli_flush_stdout(cmd);
out:
    free(order);
    free(init);
    free(value);
    free(x);
    qk_adapt_data_free(d);
    qk_cli_free_runs(runs, a.nruns);
    qk_qrels_free(q);
    free((void *)a.runs);
    return rc;
}

/* Groups: --groups 'run group' lines (the last line for a run wins), else the
 * run name up to its first '-'. Dense ids in order of first appearance. */
static int make_groups(const char *cmd, const targs *a, qk_run **runs, size_t *group)
{
    char **names = calloc(a->nruns, sizeof *names), **gf_run = NULL, **gf_grp = NULL;
    size_t ng = 0, ngf = 0, cap = 0, cap2 = 0;
    int rc = 0;
    if (!names || !runs) {
        free(names);
        return QK_EXIT_IO;
    }
    if (a->groups) {
        FILE *f = fopen(a->groups, "r");
        char line[4096];
        if (!f) {
            qk_cli_errorf(cmd, "'%s': cannot open", a->groups);
            free(names);
            return QK_EXIT_IO;
        }
        while (fgets(line, sizeof line, f)) {
            char r[2048], g[2048];
            if (line[0] == '#' || sscanf(line, "%2047s %2047s", r, g) != 2)
                continue;
            if (qk_grow((void **)&gf_run, &cap, ngf + 1, sizeof *gf_run) != QK_OK ||
                qk_grow((void **)&gf_grp, &cap2, ngf + 1, sizeof *gf_grp) != QK_OK)
                break;
            gf_run[ngf] = strdup(r);
            gf_grp[ngf++] = strdup(g);
        }
        fclose(f);
    }
    for (size_t r = 0; r < a->nruns && !rc; r++) {
        const char *id = qk_run_name(runs[r]);
        char key[1024] = "";
        size_t k;
        if (a->groups) {
            for (k = ngf; k-- > 0 && !key[0];)
                if (strcmp(gf_run[k], id) == 0)
                    snprintf(key, sizeof key, "%s", gf_grp[k]);
            if (!key[0]) {
                qk_cli_errorf(cmd, "'%s': no group for run '%s'", a->groups, id);
                rc = QK_EXIT_INPUT;
                break;
            }
        } else {
            char *dash;
            snprintf(key, sizeof key, "%s", id);
            if ((dash = strchr(key, '-')))
                *dash = 0;
        }
        for (k = 0; k < ng && strcmp(names[k], key) != 0; k++)
            ;
        if (k == ng)
            names[ng++] = strdup(key);
        group[r] = k;
    }
    for (size_t k = 0; k < ng; k++)
        free(names[k]);
    for (size_t k = 0; k < ngf; k++) {
        free(gf_run[k]);
        free(gf_grp[k]);
    }
    free(gf_run);
    free(gf_grp);
    free(names);
    return rc;
}

/* The simulation's table (TSV or JSON). */
static void print_sim(const targs *a, const qk_adapt_sim_row *rows, size_t nrows)
{
    char mbuf[32];
    if (a->json) {
        json_t *arr = json_array();
        for (size_t i = 0; i < nrows; i++) {
            const qk_adapt_sim_row *r = &rows[i];
            json_t *e = json_object();
            json_object_set_new(e, "method",
                                json_string(qk_enum_by_value(qk_adapt_sim_method_table, r->method)->name));
            json_object_set_new(e, "size", json_integer((json_int_t)r->size));
            json_object_set_new(e, "trials", json_integer((json_int_t)r->trials));
            json_object_set_new(e, "tau", json_real(r->tau_mean));
            json_object_set_new(e, "tau_sd", json_real(r->tau_sd));
            json_object_set_new(e, "tau_ci95", json_real(r->tau_ci95));
            json_object_set_new(e, "tau_lo", json_real(r->tau_lo));
            json_object_set_new(e, "tau_hi", json_real(r->tau_hi));
            json_object_set_new(e, "pearson", json_real(r->rho_mean));
            json_array_append_new(arr, e);
        }
        json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        fputc('\n', stdout);
        json_decref(arr);
    } else {
        printf("# metric %s, pool depth %ld, seed %llu, %s\n",
               qk_topics_metric_name(&a->so.metric, mbuf, sizeof mbuf), a->so.pool_depth,
               (unsigned long long)a->so.seed,
               a->held_out ? "held-out systems (correlations over the held-out runs)"
                           : "all systems participate");
        puts("method\tsize\ttrials\ttau\ttau_sd\ttau_ci95\ttau_lo\ttau_hi\tpearson\texhaustive");
        for (size_t i = 0; i < nrows; i++) {
            const qk_adapt_sim_row *r = &rows[i];
            printf("%s\t%zu\t%zu\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%d\n",
                   qk_enum_by_value(qk_adapt_sim_method_table, r->method)->name, r->size, r->trials,
                   r->tau_mean, r->tau_sd, r->tau_ci95, r->tau_lo, r->tau_hi, r->rho_mean, r->exhaustive);
        }
    }
}

/* --shard: this shard's items (qk_adapt_simulate_items) as a part. */
static int write_part(const char *cmd, targs *a, const qk_qrels *q, qk_run *const *runs, int argc,
                      char **argv)
{
    qk_error err = {0};
    qk_shard_part *part = NULL;
    size_t n = qk_adapt_simulate_num_items(&a->so), first, end;
    const char **ins = calloc(a->nruns + 2, sizeof *ins);
    char **rec = NULL;
    int rc;
    if (!ins)
        return QK_EXIT_IO;
    ins[0] = a->qrels;
    ins[1] = a->groups;
    memcpy(ins + 2, a->runs, a->nruns * sizeof *ins);
    rc = qk_cli_shard_open(cmd, "simulate-topics-adaptive", a->shard, n, a->so.seed, argc, argv, ins,
                           a->nruns + 2, &part, &first, &end);
    free(ins);
    if (rc)
        return rc;
    if (qk_adapt_simulate_items(q, (const qk_run *const *)runs, a->nruns, &a->so, first, end, &rec, &err) !=
        QK_OK)
        rc = qk_cli_fail(cmd, &err);
    return qk_cli_shard_commit(cmd, part, rc, NULL, 0, rec, first, end);
}

int qk_simulate_topics_adaptive_merge(const qk_shard_part *m)
{
    targs a;
    qk_error err = {0};
    int argc, rc;
    char **argv = qk_cli_shard_argv(m, "topics-adaptive", &argc);
    size_t n = qk_shard_part_num_held(m), nrows = 0;
    const char **recs = calloc(n + 1, sizeof *recs);
    qk_adapt_sim_row *rows = NULL;
    if (!argv || !recs) {
        free(argv);
        free(recs);
        return QK_EXIT_IO;
    }
    rc = parse("merge", 2, argc, argv, &a) ? QK_EXIT_INPUT : 0;
    for (size_t k = 0; !rc && k < n; k++)
        recs[k] = qk_shard_part_item(m, k, NULL, NULL);
    if (!rc && qk_adapt_simulate_combine(&a.so, recs, n, &rows, &nrows, &err) != QK_OK)
        rc = qk_cli_fail("merge", &err);
    if (!rc) {
        print_sim(&a, rows, nrows);
        rc = qk_cli_flush_stdout("merge");
    }
    free(rows);
    free(recs);
    free((void *)a.runs);
    free(argv);
    return rc;
}

int qk_simulate_topics_adaptive(int argc, char **argv)
{
    const char *cmd = "simulate topics-adaptive";
    targs a;
    qk_qrels *q = NULL;
    qk_run **runs = NULL;
    qk_adapt_sim_row *rows = NULL;
    size_t nrows = 0, *group = NULL;
    qk_error err = {0};
    int rc = parse(cmd, 2, argc, argv, &a);
    if (rc < 0) {
        free((void *)a.runs);
        return qk_cli_help(qk_help_simulate_topics_adaptive);
    }
    if (rc || (rc = read_inputs(cmd, &a, &q, &runs)) != 0)
        goto out;
    if (a.held_out) {
        if (!(group = calloc(a.nruns, sizeof *group))) {
            rc = QK_EXIT_IO;
            goto out;
        }
        if ((rc = make_groups(cmd, &a, runs, group)) != 0)
            goto out;
        a.so.group = group;
    }
    if (a.shard_on) {
        rc = write_part(cmd, &a, q, runs, argc, argv);
        goto out;
    }
    if (qk_adapt_simulate(q, (const qk_run *const *)runs, a.nruns, &a.so, &rows, &nrows, &err) != QK_OK) {
        rc = qk_cli_fail(cmd, &err);
        goto out;
    }
    print_sim(&a, rows, nrows);
    rc = qk_cli_flush_stdout(cmd);
out:
    free(rows);
    free(group);
    qk_cli_free_runs(runs, a.nruns);
    qk_qrels_free(q);
    free((void *)a.runs);
    return rc;
}
