/* `qrelkit topics features` and `qrelkit topics cost`: the 63 learning-to-rank features of every
 * candidate topic (Kutlu et al. 2017; spec 001-004 §1.6) as an SVM-light /
 * LETOR file, and the judging-cost allocation (§1.10). Parses and prints
 * only; the features are in src/topics/l2r_features.c, the cost models in
 * src/topics/cost.c. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "qrelkit/topics_l2r.h"
#include "topics_l2r_cli.h"

#define CMD "topics"

const char qk_help_topics_features[] =
    "usage: qrelkit topics features [options] RUN [RUN...]\n"
    "\n"
    "The 63 features Kutlu et al. (2017) rank a candidate topic by, computed\n"
    "from the runs alone (no judgments), for every topic not yet selected, as an\n"
    "SVM-light / LETOR file any ranker reads: one line per candidate,\n"
    "'0 qid:1 1:V ... 63:V # TOPIC'. Features 1-7 are the candidate's own: the\n"
    "mean and spread of the statAP sampling weights of its pool, the mean and\n"
    "spread of Kendall's tau between every pair of runs' lists, the pool size\n"
    "over runs x depth, the spread of the pairs' union sizes, the spread of the\n"
    "runs' predicted performance. Then, for the selected topics P, the\n"
    "candidates P-bar, P + {t}, P-bar - {t} in turn, the mean and standard\n"
    "deviation of each of the seven (8-21, 22-35, 36-49, 50-63).\n"
    "\n"
    "The topics are those of the runs, in order of first appearance.\n"
    "\n"
    "options:\n"
    "  --selected T,T..  the topics already selected (P; default none)\n"
    "  --depth N         list depth (default 100, the paper's)\n"
    "  --qid N           the qid written on every line (default 1)\n"
    "  --precision N     significant digits (default 8)\n"
    "\n"
    "Rules: a topic in --selected that no run has is an input error; when every\n"
    "topic is selected there is no candidate (usage error).\n"
    "\n"
    "example:\n"
    "  qrelkit topics features --selected 401,407 runs/*.run > cand.letor\n"
    "Details and the method -> file table: doc/qrelkit-topics.md.\n";

enum { OPT_SELECTED = 256, OPT_DEPTH, OPT_QID, OPT_PRECISION };
static const struct option opts[] = {{"help", no_argument, NULL, 'h'},
                                     {"selected", required_argument, NULL, OPT_SELECTED},
                                     {"depth", required_argument, NULL, OPT_DEPTH},
                                     {"qid", required_argument, NULL, OPT_QID},
                                     {"precision", required_argument, NULL, OPT_PRECISION},
                                     {NULL, 0, NULL, 0}};

/* The topics of the runs in order of first appearance, interned in pool. */
static qk_status run_topics(qk_run **runs, size_t nruns, qk_strpool *pool, qk_error *err)
{
    for (size_t s = 0; s < nruns; s++)
        for (size_t t = 0; t < qk_run_num_topics(runs[s]); t++) {
            const char *q = qk_run_topic_at(runs[s], t)->qid;
            uint32_t id;
            if (qk_strpool_intern(pool, q, strlen(q), &id) != QK_OK)
                return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
    return QK_OK;
}

/* Mark the comma-separated topics of list in sel. */
static qk_status mark_selected(const char *list, const qk_strpool *pool, unsigned char *sel, qk_error *err)
{
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        uint32_t id;
        if (len == 0)
            return qk_error_set(err, QK_EUSAGE, "--selected: empty topic id in '%s'", list);
        if (!qk_strpool_find(pool, p, len, &id))
            return qk_error_set(err, QK_EINPUT, "--selected: topic '%.*s' is in none of the runs", (int)len,
                                p);
        sel[id] = 1;
        p += len;
        if (*p == ',')
            p++;
    }
    return QK_OK;
}

int qk_topics_features_main(int argc, char **argv)
{
    const char *selected = "";
    size_t depth = QK_L2R_DEPTH, qid = 1, nruns, n;
    long prec = 8;
    int c, rc;
    qk_run **runs = NULL;
    qk_strpool *pool = NULL;
    const char **ids = NULL;
    unsigned char *sel = NULL;
    double *core = NULL, *feat = NULL;
    qk_error err;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_topics_features);
        case OPT_SELECTED: selected = optarg; break;
        case OPT_DEPTH:
            if ((rc = qk_cli_size(CMD, "--depth", optarg, 1, 1000000, &depth)))
                return rc;
            break;
        case OPT_QID:
            if ((rc = qk_cli_size(CMD, "--qid", optarg, 0, SIZE_MAX, &qid)))
                return rc;
            break;
        case OPT_PRECISION:
            if ((rc = qk_cli_long(CMD, "--precision", optarg, 1, 17, &prec)))
                return rc;
            break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    nruns = (size_t)(argc - optind);
    if (nruns < 1)
        return qk_cli_usage(CMD, "features needs at least one RUN");
    if (!(runs = calloc(nruns, sizeof *runs)) || !(pool = qk_strpool_new())) {
        rc = qk_cli_fail(CMD, (qk_error_set(&err, QK_ENOMEM, "out of memory"), &err));
        goto out;
    }
    for (size_t s = 0; s < nruns; s++)
        if (qk_run_read(argv[optind + (int)s], &runs[s], &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
    if (run_topics(runs, nruns, pool, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    n = qk_strpool_count(pool);
    ids = malloc((n + 1) * sizeof *ids);
    sel = calloc(n + 1, 1);
    core = malloc((n + 1) * QK_L2R_NCORE * sizeof *core);
    feat = calloc((n + 1) * QK_L2R_NFEAT, sizeof *feat);
    if (!ids || !sel || !core || !feat) {
        rc = qk_cli_fail(CMD, (qk_error_set(&err, QK_ENOMEM, "out of memory"), &err));
        goto out;
    }
    for (size_t q = 0; q < n; q++)
        ids[q] = qk_strpool_str(pool, (uint32_t)q);
    if (mark_selected(selected, pool, sel, &err) != QK_OK ||
        qk_l2r_core_features((const qk_run *const *)runs, nruns, ids, n, depth, core, &err) != QK_OK ||
        qk_l2r_features(core, n, sel, feat, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    printf("# qrelkit topics features: %d features (spec 001-004 §1.6.3 order), %zu runs, depth %zu\n",
           QK_L2R_NFEAT, nruns, depth);
    printf("# selected:%s%s\n", *selected ? " " : " (none)", selected);
    for (size_t q = 0; q < n; q++) {
        if (sel[q])
            continue;
        printf("0 qid:%zu", qid);
        for (int k = 0; k < QK_L2R_NFEAT; k++)
            printf(" %d:%.*g", k + 1, (int)prec, feat[q * QK_L2R_NFEAT + k] + 0.0);
        printf(" # %s\n", ids[q]);
    }
    rc = QK_EXIT_OK;
out:
    for (size_t s = 0; runs && s < nruns; s++)
        qk_run_free(runs[s]);
    free(runs);
    qk_strpool_free(pool);
    free(ids);
    free(sel);
    free(core);
    free(feat);
    return rc;
}

const char qk_help_topics_cost[] =
    "usage: qrelkit topics cost --budget-hours H --topics M[,M...] [options]\n"
    "\n"
    "How deep each topic can be judged when a budget in hours is split equally\n"
    "over M topics after their development cost (Kutlu et al. 2017; spec 001-004\n"
    "§1.10): judging time = budget - M x TDC, per topic = judging time / M, and\n"
    "judgments per topic = the most x with x f(x) <= per topic, f the seconds a\n"
    "judgment takes on average when x are judged. Prints one row per M: topics,\n"
    "judging_s, per_topic_s, judgments (NA when not one fits) and accuracy, the\n"
    "judging accuracy the TDC buys (0.92 at 76 s, +0.02 per doubling, 1 from\n"
    "1,216 s; NA without --tdc). A first comment line gives the most topics the budget can develop.\n"
    "\n"
    "options:\n"
    "  --budget-hours H  the whole budget in hours (> 0)\n"
    "  --topics LIST     numbers of topics, comma-separated\n"
    "  --tdc S           topic development cost, seconds a topic (default 0)\n"
    "  --speed W         judging speed:\n"
    "                    @[cost-speed]\n"
    "  --seconds S       constant: seconds a judgment (default 15)\n"
    "  --pool-size N     cap the judgments per topic at the pool size (default none)\n"
    "\n"
    "example (Kutlu's: 100 h over 100 topics, 400 judgments a topic vs 240):\n"
    "  qrelkit topics cost --budget-hours 100 --topics 100 --speed eq9\n"
    "  qrelkit topics cost --budget-hours 100 --topics 100 --speed constant\n"
    "Details: doc/qrelkit-topics-l2r.md.\n";

enum { OPT_HOURS = 300, OPT_TOPICS, OPT_TDC, OPT_SPEED, OPT_SECONDS, OPT_POOL };
static const struct option cost_opts[] = {{"help", no_argument, NULL, 'h'},
                                          {"budget-hours", required_argument, NULL, OPT_HOURS},
                                          {"topics", required_argument, NULL, OPT_TOPICS},
                                          {"tdc", required_argument, NULL, OPT_TDC},
                                          {"speed", required_argument, NULL, OPT_SPEED},
                                          {"seconds", required_argument, NULL, OPT_SECONDS},
                                          {"pool-size", required_argument, NULL, OPT_POOL},
                                          {NULL, 0, NULL, 0}};

int qk_topics_cost_main(int argc, char **argv)
{
    enum { MAXM = 1024 };
    qk_cost_model m;
    double hours = 0;
    long sizes[MAXM];
    size_t nsizes = 0, pool = 0, most;
    int c, rc, speed;
    qk_error err;
    qk_cost_model_init(&m);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", cost_opts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_topics_cost);
        case OPT_HOURS:
            if ((rc = qk_cli_double(CMD, "--budget-hours", optarg, 0, INFINITY, QK_NUM_LO_OPEN, &hours)))
                return rc;
            break;
        case OPT_TOPICS:
            if ((rc = qk_cli_long_list(CMD, "--topics", optarg, 1, 100000000, sizes, MAXM, &nsizes)))
                return rc;
            break;
        case OPT_TDC:
            if ((rc = qk_cli_double(CMD, "--tdc", optarg, 0, INFINITY, 0, &m.tdc)))
                return rc;
            break;
        case OPT_SPEED:
            if ((rc = qk_cli_enum(CMD, qk_cost_speed_table, "--speed", optarg, &speed)))
                return rc;
            m.speed = (qk_cost_speed)speed;
            break;
        case OPT_SECONDS:
            if ((rc = qk_cli_double(CMD, "--seconds", optarg, 0, INFINITY, QK_NUM_LO_OPEN, &m.seconds)))
                return rc;
            break;
        case OPT_POOL:
            if ((rc = qk_cli_size(CMD, "--pool-size", optarg, 1, SIZE_MAX, &pool)))
                return rc;
            break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return qk_cli_usage(CMD, "cost takes no operands ('%s')", argv[optind]);
    if (!(hours > 0) || nsizes == 0)
        return qk_cli_usage(CMD, "cost needs --budget-hours H and --topics M[,M...]");
    most = qk_cost_max_topics(&m, hours * 3600);
    printf("# budget %.17g s, tdc %.17g s, speed %s", hours * 3600, m.tdc,
           qk_enum_by_value(qk_cost_speed_table, (int)m.speed)->name);
    if (m.speed == QK_COST_CONSTANT)
        printf(" (%.17g s)", m.seconds);
    if (most == SIZE_MAX)
        printf(", most topics: unbounded\n");
    else
        printf(", most topics: %zu\n", most);
    printf("topics\tjudging_s\tper_topic_s\tjudgments\taccuracy\n");
    for (size_t i = 0; i < nsizes; i++) {
        qk_cost_alloc a;
        if (qk_cost_allocate(&m, hours * 3600, (size_t)sizes[i], pool, &a, &err) != QK_OK)
            return qk_cli_fail(CMD, &err);
        printf("%ld\t%.2f\t%.2f\t", sizes[i], a.judging, a.judging > 0 ? a.per_topic : 0.0);
        if (a.affordable)
            printf("%zu", a.judgments);
        else
            printf("NA");
        if (m.tdc > 0)
            printf("\t%.4f\n", qk_cost_accuracy(m.tdc));
        else
            printf("\tNA\n"); /* no development time: the error model does not apply */
    }
    return QK_EXIT_OK;
}
