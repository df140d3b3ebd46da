/* `qrelkit budget plan`: the next (topic, document) pairs to judge, topics
 * and documents decided together (src/budget/, Hosseini ch. 7). Stateless
 * like `qrelkit pool`: the judgments so far come back as qrels. */
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_util.h"
#include "commands.h"
#include "qrelkit/budget.h"

const char qk_help_budget[] =
    "usage: qrelkit budget plan --runs RUN [RUN...] --budget B [--judged QRELS] [options]\n"
    "\n"
    "Which (topic, document) pairs should the assessors judge next, with B\n"
    "judgments to spend? Topics and documents are decided together (Hosseini's\n"
    "QDP): topic priorities beta from a convex program over the topics'\n"
    "covariance across runs, the uncertainty of the estimated scores and the\n"
    "relevant documents still unjudged; document priorities from the AP prior;\n"
    "the B pairs of highest beta_q w_d are judged. Judge them, append the\n"
    "judgments to QRELS and run again: each call is one stage. With no judged\n"
    "relevant document yet there is nothing to steer by, and the stage is\n"
    "spent uniformly over the topics (stage 1).\n"
    "\n"
    "methods (formulas: doc/qrelkit-budget.md):\n"
    "  @[budget-method]\n"
    "\n"
    "options:\n"
    "  --runs RUN...       TREC runs; their top --depth documents are the pool\n"
    "  --judged QRELS      judgments so far (grade >= -l is relevant); a topic the\n"
    "                      runs do not have is an error, a judged document\n"
    "                      outside the pool is ignored (counted on stderr)\n"
    "  --budget B          pairs to plan (>= 1); more than the unjudged pool plans\n"
    "                      the whole rest of the pool (said on stderr)\n"
    "  --method M          qdp (default), qdp-star, un, ra, sa\n"
    "  --lambda L          weight of the unseen-relevant term of eq 7.5 (0), or\n"
    "                      tuned-part / tuned-new: tuned by simulation on the\n"
    "                      judgments so far, 10-fold cross-validation over the\n"
    "                      runs, for the ranking of the pool's runs or of new\n"
    "                      ones (M15; the grid and its tau on stderr)\n"
    "  --r-scale S         norm (r / max r, lambda times mean(Sigma e); default)\n"
    "                      or raw (the literal counts)\n"
    "  --star-top K        qdp-star: the K runs of highest estimated MAP (30)\n"
    "  --kappa K           sa / ra: t = K B / Omega in eq 5.2 (1)\n"
    "  --estimator E       X-hat: fixed (AP of the judged documents, the default)\n"
    "                      or srswo (statAP, judged = a random sample of the pool)\n"
    "  --docs D            literal (default): each topic's top documents by AP\n"
    "                      prior; sampled: the same per-topic counts, the\n"
    "                      documents drawn by stratified SRSWO (up to 10 strata\n"
    "                      of equal AP-prior mass), with a 'pi' column, the\n"
    "                      stage's inclusion probability (statAP weights 1/pi)\n"
    "  --seed S            random seed (42): remainders, ra's topics, sampling\n"
    "  --depth K           pool depth (100)\n"
    "  -l LEVEL            relevance threshold of the judgments (1)\n"
    "  --format F          @{format} (default tsv)\n"
    "  --timing            seconds spent reading and planning, on stderr\n"
    "\n"
    "output: 'topic docno priority beta' (header line first), by topic and then\n"
    "priority: priority is beta_q w_d (the baselines: w_d), w_d the AP-prior\n"
    "weight normalised over the topic's unjudged pool, beta the topic's\n"
    "priority (1 for un and ra, and for every method in a uniform stage).\n"
    "\n"
    "example (one stage of the loop):\n"
    "  qrelkit budget plan --runs runs/*.run --judged j.qrels --budget 500 > next.tsv\n"
    "\n"
    "Exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O.\n";

#define CMD "budget"

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},          {"runs", required_argument, NULL, 'R'},
    {"judged", required_argument, NULL, 'j'},  {"budget", required_argument, NULL, 'b'},
    {"method", required_argument, NULL, 'm'},  {"lambda", required_argument, NULL, 'L'},
    {"r-scale", required_argument, NULL, 'r'}, {"star-top", required_argument, NULL, 'k'},
    {"kappa", required_argument, NULL, 'K'},   {"seed", required_argument, NULL, 's'},
    {"depth", required_argument, NULL, 'd'},   {"format", required_argument, NULL, 'f'},
    {"timing", no_argument, NULL, 't'},        {"estimator", required_argument, NULL, 'e'},
    {"docs", required_argument, NULL, 'D'},    {NULL, 0, NULL, 0}};

static const qk_enum docs_table[] = {
    {"literal", 0, "the top documents of each topic by AP prior"},
    {"sampled", 1, "stratified SRSWO inside each topic (pi column)"},
    {NULL, 0, NULL},
};

static const qk_enum estimator_table[] = {
    {"fixed", 0, "AP with the judged documents fixed (pi = 1)"},
    {"srswo", 1, "statAP reading the judged documents as an SRSWO sample"},
    {NULL, 0, NULL},
};

static const qk_enum rscale_table[] = {
    {"norm", 0, "r / max r, lambda scaled by mean(Sigma e) (A20)"},
    {"raw", 1, "the literal counts"},
    {NULL, 0, NULL},
};

typedef struct args {
    qk_budget_opts o;
    const char **runs;
    size_t nruns;
    const char *judged;
    long depth, rel_level;
    int json, timing, budget_given, tune; /* tune: 1 tuned-part, 2 tuned-new */
} args;

static int parse(int argc, char **argv, args *a)
{
    int c, rc = 0, w;
    qk_cli_stdin seen = {0};
    memset(a, 0, sizeof *a);
    qk_budget_opts_init(&a->o);
    a->o.seed = 42;
    a->depth = 100;
    a->rel_level = 1;
    if (!(a->runs = calloc((size_t)argc + 1, sizeof *a->runs)))
        return QK_EXIT_IO;
    if (argc < 2 || strcmp(argv[1], "plan") != 0) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
            return -1;
        if (argc < 2)
            return qk_cli_usage(CMD, "missing the action (plan)");
        return qk_cli_usage(CMD, "unknown action '%s' (choose from: plan)", argv[1]);
    }
    optind = 2;
    while (rc == 0 && (c = getopt_long(argc, argv, "hl:", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return -1;
        case 'R': a->runs[a->nruns++] = optarg; break;
        case 'j': a->judged = optarg; break;
        case 'b':
            rc = qk_cli_size(CMD, "--budget", optarg, 1, SIZE_MAX, &a->o.budget);
            a->budget_given = 1;
            break;
        case 'm':
            if (!(rc = qk_cli_enum(CMD, qk_budget_method_table, "--method", optarg, &w)))
                a->o.method = (qk_budget_method)w;
            break;
        case 'L':
            if (!strcmp(optarg, "tuned-part") || !strcmp(optarg, "tuned-new"))
                a->tune = optarg[6] == 'p' ? 1 : 2;
            else
                rc = qk_cli_double(CMD, "--lambda", optarg, 0, 1e12, 0, &a->o.lambda);
            break;
        case 'r': rc = qk_cli_enum(CMD, rscale_table, "--r-scale", optarg, &a->o.r_raw); break;
        case 'k': rc = qk_cli_size(CMD, "--star-top", optarg, 2, SIZE_MAX, &a->o.star_top); break;
        case 'K': rc = qk_cli_double(CMD, "--kappa", optarg, 0, 1e12, QK_NUM_LO_OPEN, &a->o.kappa); break;
        case 's': rc = qk_cli_seed(CMD, "--seed", optarg, &a->o.seed); break;
        case 'd': rc = qk_cli_long(CMD, "--depth", optarg, 1, LONG_MAX, &a->depth); break;
        case 'l': rc = qk_cli_long(CMD, "-l", optarg, -1000000, LONG_MAX, &a->rel_level); break;
        case 'f': rc = qk_cli_format_tsv_json(CMD, optarg, &a->json); break;
        case 't': a->timing = 1; break;
        case 'e': rc = qk_cli_enum(CMD, estimator_table, "--estimator", optarg, &a->o.srswo); break;
        case 'D': rc = qk_cli_enum(CMD, docs_table, "--docs", optarg, &a->o.sampled); break;
        default: return QK_EXIT_USAGE;
        }
    }
    if (rc)
        return rc;
    while (optind < argc) /* files listed after --runs */
        a->runs[a->nruns++] = argv[optind++];
    if (a->nruns == 0)
        return qk_cli_usage(CMD, "missing --runs");
    if (!a->budget_given)
        return qk_cli_usage(CMD, "missing --budget");
    rc = qk_cli_stdin_once(CMD, &seen, a->judged, "--judged", 0);
    for (size_t k = 0; !rc && k < a->nruns; k++)
        rc = qk_cli_stdin_once(CMD, &seen, a->runs[k], "RUN", (int)k + 1);
    return rc;
}

/* The judgments into j: every judged topic must be one of the runs'; judged
 * documents outside the pool are counted into *outside. */
static int load_judged(const args *a, const qk_pool_runs *p, qk_pool_judged *j, size_t *outside,
                       qk_error *err)
{
    qk_qrels *q = NULL;
    struct stat sb;
    int rc = 0;
    *outside = 0;
    if (!a->judged || (stat(a->judged, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0))
        return 0; /* an empty judgments file is the natural start */
    if (qk_qrels_read(a->judged, QK_REL_QRELS, QK_DEDUP_FIRST, &q, err) != QK_OK)
        return qk_cli_fail(CMD, err);
    for (size_t t = 0; t < qk_qrels_num_topics(q) && rc == 0; t++) {
        size_t pt, n;
        const qk_judgment *jd = qk_qrels_judgments(q, t, &n);
        if (!qk_pool_find_topic(p, qk_qrels_topic(q, t), &pt)) {
            fprintf(stderr, "qrelkit budget: '%s' line %u: topic '%s' is not in the runs\n", a->judged,
                    (unsigned)(n ? qk_qrels_judgment_line(q, t, 0) : 0), qk_qrels_topic(q, t));
            rc = QK_EXIT_INPUT;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t d;
            *outside += !qk_pool_find_doc(qk_pool_topic_at(p, pt), qk_qrels_docno(q, jd[i].doc), &d);
        }
    }
    if (rc == 0 && qk_pool_judged_from_qrels(j, p, q, a->rel_level, err) != QK_OK)
        rc = qk_cli_fail(CMD, err);
    qk_qrels_free(q);
    return rc;
}

static void print_plan(const args *a, const qk_pool_runs *p, const qk_budget_plan *pl)
{
    const char *method = qk_enum_by_value(qk_budget_method_table, (int)a->o.method)->name;
    if (a->json) {
        json_t *root = json_object(), *arr = json_array();
        char *s;
        json_object_set_new(root, "method", json_string(method));
        json_object_set_new(root, "uniform_stage", json_boolean(pl->uniform));
        json_object_set_new(root, "candidates", json_integer((json_int_t)pl->candidates));
        for (size_t i = 0; i < pl->npairs; i++) {
            const qk_pool_topic *tp = qk_pool_topic_at(p, pl->pairs[i].topic);
            json_t *e = json_object();
            json_object_set_new(e, "topic", json_string(tp->qid));
            json_object_set_new(e, "docno", json_string(tp->docnos[pl->pairs[i].doc]));
            json_object_set_new(e, "priority", json_real(pl->pairs[i].priority));
            json_object_set_new(e, "beta", json_real(pl->beta ? pl->beta[pl->pairs[i].topic] : 1.0));
            if (a->o.sampled)
                json_object_set_new(e, "pi", json_real(pl->pairs[i].pi));
            json_array_append_new(arr, e);
        }
        json_object_set_new(root, "pairs", arr);
        s = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
        if (s)
            puts(s);
        free(s);
        json_decref(root);
        return;
    }
    puts(a->o.sampled ? "topic\tdocno\tpriority\tbeta\tpi" : "topic\tdocno\tpriority\tbeta");
    for (size_t i = 0; i < pl->npairs; i++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, pl->pairs[i].topic);
        printf("%s\t%s\t%.10g\t%.10g", tp->qid, tp->docnos[pl->pairs[i].doc], pl->pairs[i].priority,
               pl->beta ? pl->beta[pl->pairs[i].topic] : 1.0);
        if (a->o.sampled)
            printf("\t%.10g", pl->pairs[i].pi);
        putchar('\n');
    }
}

/* --lambda tuned-part / tuned-new: the grid on stderr, the choice into a->o. */
static int tune(args *a, const qk_pool_runs *p, const qk_pool_judged *j, qk_error *err)
{
    qk_budget_tune_opts to;
    qk_budget_tune *tu = NULL;
    qk_budget_tune_opts_init(&to);
    to.next_budget = a->o.budget;
    to.seed = a->o.seed;
    if (qk_budget_tune_lambda(p, j, &a->o, &to, &tu, err) != QK_OK)
        return qk_cli_fail(CMD, err);
    fprintf(stderr,
            "qrelkit budget: lambda tuned over %zu folds (simulated stages %zu + "
            "%zu)\nlambda\ttau_part\ttau_new\n",
            tu->folds, tu->b1, tu->b2);
    for (size_t g = 0; g < tu->ngrid; g++)
        fprintf(stderr, "%g\t%.4f\t%.4f\n", tu->lambda[g], tu->tau_part[g], tu->tau_new[g]);
    a->o.lambda = a->tune == 2 ? tu->best_new : tu->best_part;
    fprintf(stderr, "qrelkit budget: lambda %g (%s)\n", a->o.lambda,
            a->tune == 2 ? "tuned-new" : "tuned-part");
    qk_budget_tune_free(tu);
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int qk_cmd_budget(int argc, char **argv)
{
    double t0 = now(), t1, t2;
    args a;
    qk_error err = {0};
    qk_run **ranked = NULL;
    qk_pool_runs *p = NULL;
    qk_pool_judged *j = NULL;
    qk_budget_plan *pl = NULL;
    size_t outside = 0;
    int rc = parse(argc, argv, &a);
    if (rc == -1) {
        free(a.runs);
        return qk_cli_help(qk_help_budget);
    }
    if (rc)
        goto out;
    /* the pool looks at the runs' top --depth only */
    if (qk_cli_read_runs_top(a.runs, a.nruns, QK_CLI_NAME_BASE, (size_t)a.depth, &ranked, &err) != QK_OK ||
        qk_pool_runs_from((const qk_run *const *)ranked, a.nruns, a.depth, &p, &err) != QK_OK ||
        qk_pool_judged_new(p, &j, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if ((rc = load_judged(&a, p, j, &outside, &err)) != 0)
        goto out;
    if (outside)
        fprintf(stderr, "qrelkit budget: %zu judged documents are outside the depth-%ld pool (ignored)\n",
                outside, a.depth);
    t1 = now();
    if (a.tune && (rc = tune(&a, p, j, &err)) != 0)
        goto out;
    if (qk_budget_plan_next(p, j, &a.o, &pl, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    t2 = now();
    if (pl->npairs < a.o.budget)
        fprintf(stderr,
                "qrelkit budget: budget %zu exceeds the %zu unjudged pool pairs; planning all of them\n",
                a.o.budget, pl->candidates);
    if (pl->uniform)
        fprintf(stderr, "qrelkit budget: no judged relevant document yet: stage spent uniformly\n");
    print_plan(&a, p, pl);
    if (a.timing)
        fprintf(stderr, "seconds_read %.6f\nseconds_plan %.6f\nplanned %zu\n", t1 - t0, t2 - t1, pl->npairs);
out:
    qk_budget_plan_free(pl);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
    qk_cli_free_runs(ranked, a.nruns);
    free(a.runs);
    return rc;
}
