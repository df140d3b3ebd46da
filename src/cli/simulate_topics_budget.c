/* `qrelkit simulate topics --budget-hours H`: few deep or many shallow at a
 * fixed budget (Kutlu et al. 2017 §5.5; qk_cost_sim does the work). Parses,
 * reads and prints only. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "qrelkit/topics_l2r.h"
#include "simulate_modes.h"

#define CMD "simulate topics"

const char qk_help_simulate_topics_budget[] =
    "usage: qrelkit simulate topics --budget-hours H[,H...] [options] QRELS RUN RUN [RUN...]\n"
    "\n"
    "Few deep or many shallow? (Kutlu et al. 2017.) A topic judged to pool depth\n"
    "k costs its development time (--tdc) plus x f(x) seconds for the x documents\n"
    "its runs rank in their top k, f the judging speed. Each method takes topics\n"
    "in its order while the cost fits the budget; the runs' MAP@100 on those\n"
    "topics with only their pools judged (optionally with judging errors) is\n"
    "compared by Kendall's tau_b with MAP@100 on all topics with all judgments.\n"
    "QRELS are the full judgments; its topics with a relevant document are the\n"
    "candidates. Prints budget_h, method, depth, topics and judgments (means\n"
    "per trial), tau, sd and n (trials where a topic fitted; NA when none).\n"
    "\n"
    "options:\n"
    "  --budget-hours LIST  budgets in hours (> 0)\n"
    "  --depths LIST        pool depths (default 10,20,50,100)\n"
    "  --cost-model W       judging speed:\n"
    "                       @[cost-speed]\n"
    "  --seconds S          constant: seconds a judgment (15)\n"
    "  --tdc S              topic development seconds (default 0)\n"
    "  --judging-error      flip each judgment with probability 1 - acc(TDC)\n"
    "                       (0.92 at 76 s, +0.02 per doubling, 1 from 1,216 s)\n"
    "  --order NAME=FILE    a method: the topics in the order of FILE (`qrelkit\n"
    "                       topics select` output, topic in column 2; repeatable);\n"
    "                       random (a new order each trial) is always run\n"
    "  --trials N           default 100 (--statap: 20)\n"
    "  --seed S             default 1\n"
    "\n"
    "statAP form (Kutlu's own; spec 001-004 §1.9-1.11):\n"
    "  --statap             for each number of topics M (--topics), split the\n"
    "                       budget equally after M x TDC, sample x* documents of\n"
    "                       each of the method's first M topics from its depth-100\n"
    "                       pool (statAP's AP-prior design) and rank the runs by\n"
    "                       mean statAP; a trial is a new sample (and a new random\n"
    "                       order). Prints budget_h, method, topics, judgments (x*\n"
    "                       of the allocation), judged (mean per topic), tau, sd, n\n"
    "  --topics LIST        numbers of topics (required with --statap)\n"
    "  --logo               leave-one-group-out (with --statap): each group's runs\n"
    "                       are scored from a sample of the pool of the others\n"
    "  --groups FILE        'run group' lines (implies --logo)\n"
    "  --group-sep C        default group: the run name up to the first C ('-')\n"
    "\n"
    "example:\n"
    "  qrelkit topics select --method greedy-oracle --size 93 qrels runs/* > go.tsv\n"
    "  qrelkit simulate topics --budget-hours 2,5,10 --tdc 76 --order greedy-oracle=go.tsv qrels runs/*\n"
    "  qrelkit simulate topics --budget-hours 20 --statap --topics 5,10,20 --tdc 76 --logo qrels runs/*\n"
    "Details: doc/qrelkit-topics-l2r.md.\n";

enum {
    OPT_HOURS = 256,
    OPT_DEPTHS,
    OPT_SPEED,
    OPT_SECONDS,
    OPT_TDC,
    OPT_ERROR,
    OPT_ORDER,
    OPT_TRIALS,
    OPT_SEED,
    OPT_STATAP,
    OPT_TOPICS,
    OPT_LOGO,
    OPT_GROUPS,
    OPT_GROUP_SEP
};
static const struct option opts[] = {{"help", no_argument, NULL, 'h'},
                                     {"budget-hours", required_argument, NULL, OPT_HOURS},
                                     {"depths", required_argument, NULL, OPT_DEPTHS},
                                     {"cost-model", required_argument, NULL, OPT_SPEED},
                                     {"seconds", required_argument, NULL, OPT_SECONDS},
                                     {"tdc", required_argument, NULL, OPT_TDC},
                                     {"judging-error", no_argument, NULL, OPT_ERROR},
                                     {"order", required_argument, NULL, OPT_ORDER},
                                     {"trials", required_argument, NULL, OPT_TRIALS},
                                     {"seed", required_argument, NULL, OPT_SEED},
                                     {"statap", no_argument, NULL, OPT_STATAP},
                                     {"topics", required_argument, NULL, OPT_TOPICS},
                                     {"logo", no_argument, NULL, OPT_LOGO},
                                     {"groups", required_argument, NULL, OPT_GROUPS},
                                     {"group-sep", required_argument, NULL, OPT_GROUP_SEP},
                                     {NULL, 0, NULL, 0}};

enum { MAXM = 16 };

/* The topics of an order file (column 2 of each line after the header) as
 * indices of the candidates (the qrels' topics with a relevant document). */
static qk_status read_order(const char *path, const qk_qrels *q, const size_t *cand_of, size_t **order,
                            size_t *len, qk_error *err)
{
    qk_lines *l = NULL;
    const char *s;
    size_t n, cap = 64;
    int rc, header = 1;
    qk_status st = qk_lines_open(path, &l, err);
    *len = 0;
    if (st != QK_OK)
        return st;
    if (!(*order = malloc(cap * sizeof **order))) {
        qk_lines_close(l);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    while ((rc = qk_lines_next(l, &s, &n, err)) == 1) {
        const char *tab = memchr(s, '\t', n), *end;
        size_t qt;
        if (n == 0 || s[0] == '#')
            continue;
        if (header) {
            header = 0;
            continue;
        }
        if (!tab) {
            st = qk_error_set(err, QK_EINPUT, "'%s' line %ld: no topic column", path, qk_lines_lineno(l));
            break;
        }
        tab++;
        end = memchr(tab, '\t', (size_t)(s + n - tab));
        if (!end)
            end = s + n;
        if (!qk_qrels_find_topic(q, tab, (size_t)(end - tab), &qt) || cand_of[qt] == SIZE_MAX) {
            st = qk_error_set(err, QK_EINPUT,
                              "'%s' line %ld: topic '%.*s' has no relevant document in the qrels", path,
                              qk_lines_lineno(l), (int)(end - tab), tab);
            break;
        }
        if (*len == cap) {
            size_t *no = realloc(*order, 2 * cap * sizeof *no);
            if (!no) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                break;
            }
            *order = no;
            cap *= 2;
        }
        (*order)[(*len)++] = cand_of[qt];
    }
    if (rc < 0)
        st = (qk_status)rc;
    qk_lines_close(l);
    return st;
}

/* The statAP form: per budget, qk_cost_sim_statap's rows. */
static int run_statap(const qk_qrels *q, qk_run **runs, size_t nruns, const size_t *const *orders,
                      const size_t *lens, const char *const *names, size_t nm, const double *hours, size_t nh,
                      qk_cost_statap_opts *so)
{
    qk_error err;
    printf("budget_h\tmethod\ttopics\tjudgments\tjudged\ttau\tsd\tn\n");
    for (size_t h = 0; h < nh; h++) {
        qk_cost_statap_row *rows = NULL;
        size_t nrows = 0;
        so->budget = hours[h] * 3600;
        if (qk_cost_sim_statap(q, (const qk_run *const *)runs, nruns, orders, lens, nm, so, &rows, &nrows,
                               &err) != QK_OK)
            return qk_cli_fail(CMD, &err);
        for (size_t i = 0; i < nrows; i++) {
            printf("%g\t%s\t%zu\t", hours[h], names[rows[i].method], rows[i].topics);
            if (rows[i].judgments)
                printf("%zu\t", rows[i].judgments);
            else
                printf("NA\t");
            if (rows[i].n)
                printf("%.1f\t%.4f\t%.4f\t%zu\n", rows[i].judged, rows[i].tau, rows[i].tau_sd, rows[i].n);
            else
                printf("NA\tNA\tNA\t0\n");
        }
        free(rows);
    }
    return 0;
}

int qk_simulate_topics_budget(int argc, char **argv)
{
    qk_cost_sim_opts o;
    qk_cost_statap_opts so;
    double hours[64];
    long sizes[64];
    size_t ns = 0, *sz = NULL, *group = NULL;
    int statap = 0, logo = 0, depths_set = 0, trials_set = 0;
    size_t ng = 0;
    const char *groups = NULL;
    char sepc = '-';
    long depths[64] = {10, 20, 50, 100};
    size_t nh = 0, nd = 4, nm = 1, nruns = 0, *cand_of = NULL, nc = 0;
    const char *names[MAXM] = {"random"}, *files[MAXM] = {NULL};
    size_t *orders[MAXM] = {NULL}, lens[MAXM] = {0};
    int c, rc = 0, speed;
    qk_qrels *q = NULL;
    qk_run **runs = NULL;
    qk_error err;
    qk_cost_sim_opts_init(&o);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_simulate_topics_budget);
        case OPT_HOURS:
            rc = qk_cli_double_list(CMD, "--budget-hours", optarg, 0, INFINITY, QK_NUM_LO_OPEN, hours, 64,
                                    &nh);
            break;
        case OPT_DEPTHS:
            depths_set = 1;
            rc = qk_cli_long_list(CMD, "--depths", optarg, 1, 100000, depths, 64, &nd);
            break;
        case OPT_STATAP: statap = 1; break;
        case OPT_TOPICS: rc = qk_cli_long_list(CMD, "--topics", optarg, 1, 100000000, sizes, 64, &ns); break;
        case OPT_LOGO: logo = 1; break;
        case OPT_GROUPS:
            groups = optarg;
            logo = 1;
            break;
        case OPT_GROUP_SEP:
            if (strlen(optarg) != 1)
                return qk_cli_usage(CMD, "--group-sep takes one character, not '%s'", optarg);
            sepc = optarg[0];
            break;
        case OPT_SPEED:
            if (!(rc = qk_cli_enum(CMD, qk_cost_speed_table, "--cost-model", optarg, &speed)))
                o.cost.speed = (qk_cost_speed)speed;
            break;
        case OPT_SECONDS:
            rc = qk_cli_double(CMD, "--seconds", optarg, 0, INFINITY, QK_NUM_LO_OPEN, &o.cost.seconds);
            break;
        case OPT_TDC: rc = qk_cli_double(CMD, "--tdc", optarg, 0, INFINITY, 0, &o.cost.tdc); break;
        case OPT_ERROR: o.judging_error = 1; break;
        case OPT_ORDER: {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg || !eq[1])
                return qk_cli_usage(CMD, "--order takes NAME=FILE, not '%s'", optarg);
            if (nm == MAXM)
                return qk_cli_usage(CMD, "at most %d --order methods", MAXM - 1);
            *eq = '\0';
            names[nm] = optarg;
            files[nm++] = eq + 1;
            break;
        }
        case OPT_TRIALS:
            trials_set = 1;
            rc = qk_cli_size(CMD, "--trials", optarg, 1, 100000000, &o.trials);
            break;
        case OPT_SEED: rc = qk_cli_seed(CMD, "--seed", optarg, &o.seed); break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s' (with --budget-hours)", argv[optind - 1]);
        }
        if (rc)
            return rc;
    }
    if (nh == 0)
        return qk_cli_usage(CMD, "--budget-hours needs at least one budget");
    if (argc - optind < 3)
        return qk_cli_usage(CMD, "--budget-hours needs QRELS and at least two RUNs");
    if (statap && depths_set)
        return qk_cli_usage(CMD, "--statap takes --topics, not --depths (its pool depth is 100)");
    if (statap && ns == 0)
        return qk_cli_usage(CMD, "--statap needs --topics M[,M...]");
    if (!statap && (ns || logo))
        return qk_cli_usage(CMD, "%s needs --statap", ns ? "--topics" : "--logo");
    nruns = (size_t)(argc - optind - 1);
    o.depths = depths;
    o.ndepths = nd;
    if (qk_qrels_read(argv[optind], QK_REL_QRELS, QK_DEDUP_FIRST, &q, &err) != QK_OK ||
        qk_cli_read_runs((const char *const *)argv + optind + 1, nruns, QK_CLI_NAME_BASE, &runs, &err) !=
            QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (!(cand_of = malloc((qk_qrels_num_topics(q) + 1) * sizeof *cand_of))) {
        rc = QK_EXIT_IO;
        goto out;
    }
    for (size_t t = 0; t < qk_qrels_num_topics(q); t++) {
        size_t nj, rel = 0;
        const qk_judgment *j = qk_qrels_judgments(q, t, &nj);
        for (size_t k = 0; k < nj; k++)
            rel += j[k].rel > 0;
        cand_of[t] = rel ? nc++ : SIZE_MAX;
    }
    for (size_t m = 1; m < nm; m++)
        if (read_order(files[m], q, cand_of, &orders[m], &lens[m], &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
    if (statap) {
        qk_cost_statap_opts_init(&so);
        so.cost = o.cost;
        so.judging_error = o.judging_error;
        so.seed = o.seed;
        if (trials_set)
            so.trials = o.trials;
        if (!(sz = malloc(ns * sizeof *sz))) {
            rc = QK_EXIT_IO;
            goto out;
        }
        for (size_t k = 0; k < ns; k++)
            sz[k] = (size_t)sizes[k];
        so.sizes = sz;
        so.nsizes = ns;
        if (logo) {
            const char **ids = malloc(nruns * sizeof *ids);
            if (!ids || !(group = malloc(nruns * sizeof *group))) {
                free(ids);
                rc = QK_EXIT_IO;
                goto out;
            }
            for (size_t r = 0; r < nruns; r++)
                ids[r] = qk_run_name(runs[r]);
            rc = qk_cli_run_groups(CMD, groups, ids, nruns, sepc, group, &ng);
            free(ids);
            if (rc)
                goto out;
            if (ng < 2) {
                rc = qk_cli_usage(CMD, "--logo needs runs of at least two groups (found %zu)", ng);
                goto out;
            }
            so.group = group;
        }
        printf("# budget experiment, statAP form: %zu topics, %zu runs, speed %s", nc, nruns,
               qk_enum_by_value(qk_cost_speed_table, (int)so.cost.speed)->name);
        printf(", tdc %g s, judging error %s", so.cost.tdc, so.judging_error ? "on" : "off");
        if (so.judging_error)
            printf(" (accuracy %.4f)", qk_cost_accuracy(so.cost.tdc));
        printf(", pool depth %zu, ", so.depth);
        if (logo)
            printf("leave one group out (%zu groups)", ng);
        else
            printf("every run pooled");
        printf(", %zu trials, seed %llu\n", so.trials, (unsigned long long)so.seed);
        if ((rc = run_statap(q, runs, nruns, (const size_t *const *)orders, lens, names, nm, hours, nh,
                             &so)) == 0)
            rc = qk_cli_flush_stdout(CMD);
        goto out;
    }
    printf("# budget experiment: %zu topics, %zu runs, speed %s", nc, nruns,
           qk_enum_by_value(qk_cost_speed_table, (int)o.cost.speed)->name);
    printf(", tdc %g s, judging error %s", o.cost.tdc, o.judging_error ? "on" : "off");
    if (o.judging_error)
        printf(" (accuracy %.4f)", qk_cost_accuracy(o.cost.tdc));
    printf(", %zu trials, seed %llu\n", o.trials, (unsigned long long)o.seed);
    printf("budget_h\tmethod\tdepth\ttopics\tjudgments\ttau\tsd\tn\n");
    for (size_t h = 0; h < nh; h++) {
        qk_cost_sim_row *rows = NULL;
        size_t nrows = 0;
        o.budget = hours[h] * 3600;
        if (qk_cost_sim(q, (const qk_run *const *)runs, nruns, (const size_t *const *)orders, lens, nm, &o,
                        &rows, &nrows, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        for (size_t i = 0; i < nrows; i++) {
            printf("%g\t%s\t%ld\t%.2f\t%.1f\t", hours[h], names[rows[i].method], rows[i].depth,
                   rows[i].topics, rows[i].judgments);
            if (rows[i].n)
                printf("%.4f\t%.4f\t%zu\n", rows[i].tau, rows[i].tau_sd, rows[i].n);
            else
                printf("NA\tNA\t0\n");
        }
        free(rows);
    }
    rc = qk_cli_flush_stdout(CMD);
out:
    free(sz);
    free(group);
    for (size_t m = 0; m < nm; m++)
        free(orders[m]);
    free(cand_of);
    qk_cli_free_runs(runs, runs ? nruns : 0);
    qk_qrels_free(q);
    return rc;
}
