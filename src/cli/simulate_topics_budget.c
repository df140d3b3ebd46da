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
#include "shard_cli.h"
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
    "  --shard I/N          trials of shard I of N only (trial t is seeded by --seed\n"
    "                       and t), as a part file for `qrelkit merge` (with\n"
    "                       --statap too: a trial's samples and order likewise)\n"
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
    "  --group-sep C        default group: the run name up to the first C ('-');\n"
    "                       'none': every run is its own group\n"
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
    OPT_SHARD,
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
                                     {"shard", required_argument, NULL, OPT_SHARD},
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

typedef struct {
    qk_cost_sim_opts o;
    double hours[64];
    long depths[64];
    size_t nh, nd, nm;
    const char *names[MAXM], *files[MAXM]; /* a name is namelen[m] bytes (NAME=FILE kept whole) */
    int namelen[MAXM], shard_on;
    qk_shard_spec shard;
    /* the statAP form */
    long sizes[64];
    size_t ns;
    int statap, logo, depths_set, trials_set;
    const char *groups;
    char sepc;
} bargs;

/* The options into a (operands from optind; argv unchanged, as a part
 * records it); -1, or the exit code. */
static int parse(int argc, char **argv, bargs *a)
{
    int c, rc = 0, speed;
    static const long depths[4] = {10, 20, 50, 100};
    memset(a, 0, sizeof *a);
    qk_cost_sim_opts_init(&a->o);
    memcpy(a->depths, depths, sizeof depths);
    a->nd = 4;
    a->nm = 1;
    a->names[0] = "random";
    a->namelen[0] = 6;
    a->sepc = '-';
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_simulate_topics_budget);
        case OPT_HOURS:
            rc = qk_cli_double_list(CMD, "--budget-hours", optarg, 0, INFINITY, QK_NUM_LO_OPEN, a->hours, 64,
                                    &a->nh);
            break;
        case OPT_DEPTHS:
            a->depths_set = 1;
            rc = qk_cli_long_list(CMD, "--depths", optarg, 1, 100000, a->depths, 64, &a->nd);
            break;
        case OPT_STATAP: a->statap = 1; break;
        case OPT_TOPICS:
            rc = qk_cli_long_list(CMD, "--topics", optarg, 1, 100000000, a->sizes, 64, &a->ns);
            break;
        case OPT_LOGO: a->logo = 1; break;
        case OPT_GROUPS:
            a->groups = optarg;
            a->logo = 1;
            break;
        case OPT_GROUP_SEP:
            if ((rc = qk_cli_group_sep(CMD, optarg, &a->sepc)))
                return rc;
            break;
        case OPT_SPEED:
            if (!(rc = qk_cli_enum(CMD, qk_cost_speed_table, "--cost-model", optarg, &speed)))
                a->o.cost.speed = (qk_cost_speed)speed;
            break;
        case OPT_SECONDS:
            rc = qk_cli_double(CMD, "--seconds", optarg, 0, INFINITY, QK_NUM_LO_OPEN, &a->o.cost.seconds);
            break;
        case OPT_TDC: rc = qk_cli_double(CMD, "--tdc", optarg, 0, INFINITY, 0, &a->o.cost.tdc); break;
        case OPT_ERROR: a->o.judging_error = 1; break;
        case OPT_ORDER: {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg || !eq[1])
                return qk_cli_usage(CMD, "--order takes NAME=FILE, not '%s'", optarg);
            if (a->nm == MAXM)
                return qk_cli_usage(CMD, "at most %d --order methods", MAXM - 1);
            a->names[a->nm] = optarg;
            a->namelen[a->nm] = (int)(eq - optarg);
            a->files[a->nm++] = eq + 1;
            break;
        }
        case OPT_TRIALS:
            a->trials_set = 1;
            rc = qk_cli_size(CMD, "--trials", optarg, 1, 100000000, &a->o.trials);
            break;
        case OPT_SEED: rc = qk_cli_seed(CMD, "--seed", optarg, &a->o.seed); break;
        case OPT_SHARD:
            if (!(rc = qk_cli_shard_parse(CMD, optarg, &a->shard)))
                a->shard_on = 1;
            break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s' (with --budget-hours)", argv[optind - 1]);
        }
        if (rc)
            return rc;
    }
    if (a->nh == 0)
        return qk_cli_usage(CMD, "--budget-hours needs at least one budget");
    if (argc - optind < 3)
        return qk_cli_usage(CMD, "--budget-hours needs QRELS and at least two RUNs");
    if (a->statap && a->depths_set)
        return qk_cli_usage(CMD, "--statap takes --topics, not --depths (its pool depth is 100)");
    if (a->statap && a->ns == 0)
        return qk_cli_usage(CMD, "--statap needs --topics M[,M...]");
    if (!a->statap && (a->ns || a->logo))
        return qk_cli_usage(CMD, "%s needs --statap", a->ns ? "--topics" : "--logo");
    a->o.depths = a->depths;
    a->o.ndepths = a->nd;
    return -1;
}

static void print_header(const bargs *a, size_t ntopics, size_t nruns)
{
    printf("# budget experiment: %zu topics, %zu runs, speed %s", ntopics, nruns,
           qk_enum_by_value(qk_cost_speed_table, (int)a->o.cost.speed)->name);
    printf(", tdc %g s, judging error %s", a->o.cost.tdc, a->o.judging_error ? "on" : "off");
    if (a->o.judging_error)
        printf(" (accuracy %.4f)", qk_cost_accuracy(a->o.cost.tdc));
    printf(", %zu trials, seed %llu\n", a->o.trials, (unsigned long long)a->o.seed);
    printf("budget_h\tmethod\tdepth\ttopics\tjudgments\ttau\tsd\tn\n");
}

static void print_rows(const bargs *a, double hours, const qk_cost_sim_row *rows, size_t nrows)
{
    for (size_t i = 0; i < nrows; i++) {
        printf("%g\t%.*s\t%ld\t%.2f\t%.1f\t", hours, a->namelen[rows[i].method], a->names[rows[i].method],
               rows[i].depth, rows[i].topics, rows[i].judgments);
        if (rows[i].n)
            printf("%.4f\t%.4f\t%zu\n", rows[i].tau, rows[i].tau_sd, rows[i].n);
        else
            printf("NA\tNA\t0\n");
    }
}

/* What the trials of either form need. */
typedef struct {
    const qk_qrels *q;
    qk_run *const *runs;
    size_t nruns;
    const size_t *const *orders;
    const size_t *lens;
    qk_cost_statap_opts *so; /* NULL: the plain form (a->o) */
} simctx;

/* The records of trials [first, end) at one budget (hours). */
static qk_status form_trials(bargs *a, const simctx *c, double hours, size_t first, size_t end, char ***rec,
                             qk_error *err)
{
    if (c->so) {
        c->so->budget = hours * 3600;
        return qk_cost_sim_statap_trials(c->q, (const qk_run *const *)c->runs, c->nruns, c->orders, c->lens,
                                         a->nm, c->so, first, end, rec, err);
    }
    a->o.budget = hours * 3600;
    return qk_cost_sim_trials(c->q, (const qk_run *const *)c->runs, c->nruns, c->orders, c->lens, a->nm,
                              &a->o, first, end, rec, err);
}

/* --shard: this shard's trials of `ntrials`; a trial's item is its record
 * for every budget in turn; the prologue holds the counts the header prints
 * (cnt[0..ncnt) after the word kind of the form). */
static int write_part(bargs *a, const simctx *c, const char *kind, const char *tag, const size_t *cnt,
                      size_t ncnt, size_t ntrials, int argc, char **argv)
{
    qk_error err = {0};
    qk_shard_part *part = NULL;
    size_t first, end, nin = a->nm + c->nruns + 2, plen = 0;
    const char **ins = calloc(nin, sizeof *ins);
    char **items = NULL, *pro = NULL;
    int rc;
    if (!ins)
        return QK_EXIT_IO;
    memcpy(ins, a->files, a->nm * sizeof *ins);
    memcpy(ins + a->nm, argv + optind, (c->nruns + 1) * sizeof *ins);
    ins[nin - 1] = a->groups;
    rc =
        qk_cli_shard_open(CMD, kind, a->shard, ntrials, a->o.seed, argc, argv, ins, nin, &part, &first, &end);
    free(ins);
    if (rc)
        return rc;
    if (!(items = calloc(end - first + 1, sizeof *items)))
        rc = QK_EXIT_IO;
    else if (qk_shard_counts_format(tag, cnt, ncnt, &pro, &plen, &err) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
    for (size_t h = 0; !rc && h < a->nh; h++) {
        char **rec = NULL;
        if (form_trials(a, c, a->hours[h], first, end, &rec, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            break;
        }
        for (size_t t = 0; t < end - first; t++) {
            size_t l0 = items[t] ? strlen(items[t]) : 0, l1 = strlen(rec[t]);
            char *g = rc ? NULL : realloc(items[t], l0 + l1 + 1);
            if (g) {
                memcpy(g + l0, rec[t], l1 + 1);
                items[t] = g;
            } else
                rc = QK_EXIT_IO;
            free(rec[t]);
        }
        free(rec);
    }
    rc = qk_cli_shard_commit(CMD, part, rc, pro, plen, items, first, end);
    free(pro);
    return rc;
}

static int statap_setup(const bargs *a, qk_cost_statap_opts *so, size_t **sz);
static void statap_header(const bargs *a, const qk_cost_statap_opts *so, size_t nc, size_t nruns, size_t ng);
static void statap_rows(const bargs *a, double hours, const qk_cost_statap_row *rows, size_t nrows);

/* The rows of one budget from the trials' records (cur advanced). */
static qk_status form_combine(bargs *a, qk_cost_statap_opts *so, double hours, const char **cur, size_t n,
                              qk_error *err)
{
    qk_status st;
    if (so) {
        qk_cost_statap_row *rows = NULL;
        size_t nrows = 0;
        so->budget = hours * 3600;
        if ((st = qk_cost_sim_statap_combine(so, a->nm, cur, n, &rows, &nrows, err)) == QK_OK)
            statap_rows(a, hours, rows, nrows);
        free(rows);
    } else {
        qk_cost_sim_row *rows = NULL;
        size_t nrows = 0;
        a->o.budget = hours * 3600;
        if ((st = qk_cost_sim_combine(&a->o, a->nm, cur, n, &rows, &nrows, err)) == QK_OK)
            print_rows(a, hours, rows, nrows);
        free(rows);
    }
    return st;
}

/* Either form's merge: the header from the prologue's counts, then every
 * budget's rows. */
static int merge_form(const qk_shard_part *m, int statap)
{
    bargs a;
    qk_error err = {0};
    qk_cost_statap_opts so;
    int argc, rc = 0;
    char **argv = qk_cli_shard_argv(m, "topics", &argc);
    size_t n = qk_shard_part_num_held(m), cnt[3] = {0, 0, 0}, *sz = NULL;
    const char **cur = calloc(n + 1, sizeof *cur), *pro = qk_shard_part_prologue(m, NULL);
    if (!argv || !cur)
        rc = QK_EXIT_IO;
    if (!rc) {
        rc = parse(argc, argv, &a);
        rc = rc == -1 ? 0 : QK_EXIT_INPUT;
    }
    if (!rc && (a.statap != statap || qk_shard_counts_parse(&pro, statap ? "cost-statap" : "cost-sim", cnt,
                                                            statap ? 3 : 2) != 0 || *pro)) {
        qk_cli_errorf("merge", "the parts' header of simulate topics --budget-hours%s is malformed",
                      statap ? " --statap" : "");
        rc = QK_EXIT_INPUT;
    }
    if (!rc && statap)
        rc = statap_setup(&a, &so, &sz);
    for (size_t k = 0; !rc && k < n; k++)
        cur[k] = qk_shard_part_item(m, k, NULL, NULL);
    if (!rc && statap)
        statap_header(&a, &so, cnt[0], cnt[1], cnt[2]);
    else if (!rc)
        print_header(&a, cnt[0], cnt[1]);
    for (size_t h = 0; !rc && h < a.nh; h++)
        if (form_combine(&a, statap ? &so : NULL, a.hours[h], cur, n, &err) != QK_OK)
            rc = qk_cli_fail("merge", &err);
    if (!rc)
        rc = qk_cli_flush_stdout("merge");
    free(sz);
    free(argv);
    free(cur);
    return rc;
}

int qk_simulate_topics_budget_merge(const qk_shard_part *m)
{
    return merge_form(m, 0);
}

int qk_simulate_topics_statap_merge(const qk_shard_part *m)
{
    return merge_form(m, 1);
}

/* One budget's rows of the statAP form. */
static void statap_rows(const bargs *a, double hours, const qk_cost_statap_row *rows, size_t nrows)
{
    for (size_t i = 0; i < nrows; i++) {
        printf("%g\t%.*s\t%zu\t", hours, a->namelen[rows[i].method], a->names[rows[i].method],
               rows[i].topics);
        if (rows[i].judgments)
            printf("%zu\t", rows[i].judgments);
        else
            printf("NA\t");
        if (rows[i].n)
            printf("%.1f\t%.4f\t%.4f\t%zu\n", rows[i].judged, rows[i].tau, rows[i].tau_sd, rows[i].n);
        else
            printf("NA\tNA\tNA\t0\n");
    }
}

/* The statAP form: per budget, qk_cost_sim_statap's rows. */
static int run_statap(const bargs *a, const qk_qrels *q, qk_run **runs, size_t nruns,
                      const size_t *const *orders, const size_t *lens, qk_cost_statap_opts *so)
{
    qk_error err;
    for (size_t h = 0; h < a->nh; h++) {
        qk_cost_statap_row *rows = NULL;
        size_t nrows = 0;
        so->budget = a->hours[h] * 3600;
        if (qk_cost_sim_statap(q, (const qk_run *const *)runs, nruns, orders, lens, a->nm, so, &rows, &nrows,
                               &err) != QK_OK)
            return qk_cli_fail(CMD, &err);
        statap_rows(a, a->hours[h], rows, nrows);
        free(rows);
    }
    return 0;
}

/* The statAP options of a (groups aside); *sz holds the sizes (the
 * caller's to free). 0 or an exit code. */
static int statap_setup(const bargs *a, qk_cost_statap_opts *so, size_t **sz)
{
    qk_cost_statap_opts_init(so);
    so->cost = a->o.cost;
    so->judging_error = a->o.judging_error;
    so->seed = a->o.seed;
    if (a->trials_set)
        so->trials = a->o.trials;
    if (!(*sz = malloc(a->ns * sizeof **sz)))
        return QK_EXIT_IO;
    for (size_t k = 0; k < a->ns; k++)
        (*sz)[k] = (size_t)a->sizes[k];
    so->sizes = *sz;
    so->nsizes = a->ns;
    return 0;
}

/* The statAP form's header: nc candidate topics, ng groups (--logo). */
static void statap_header(const bargs *a, const qk_cost_statap_opts *so, size_t nc, size_t nruns, size_t ng)
{
    printf("# budget experiment, statAP form: %zu topics, %zu runs, speed %s", nc, nruns,
           qk_enum_by_value(qk_cost_speed_table, (int)so->cost.speed)->name);
    printf(", tdc %g s, judging error %s", so->cost.tdc, so->judging_error ? "on" : "off");
    if (so->judging_error)
        printf(" (accuracy %.4f)", qk_cost_accuracy(so->cost.tdc));
    printf(", pool depth %zu, ", so->depth);
    if (a->logo)
        printf("leave one group out (%zu groups)", ng);
    else
        printf("every run pooled");
    printf(", %zu trials, seed %llu\n", so->trials, (unsigned long long)so->seed);
    printf("budget_h\tmethod\ttopics\tjudgments\tjudged\ttau\tsd\tn\n");
}

/* --statap: the options, the groups of --logo, then the rows or (--shard)
 * a part. */
static int statap_form(bargs *a, const qk_qrels *q, qk_run **runs, size_t nruns, const size_t *const *orders,
                       const size_t *lens, size_t nc, int argc, char **argv)
{
    qk_cost_statap_opts so;
    size_t *sz = NULL, *group = NULL, ng = 0;
    int rc = statap_setup(a, &so, &sz);
    if (rc)
        goto out;
    if (a->logo) {
        const char **ids = malloc(nruns * sizeof *ids);
        if (!ids || !(group = malloc(nruns * sizeof *group))) {
            free(ids);
            rc = QK_EXIT_IO;
            goto out;
        }
        for (size_t r = 0; r < nruns; r++)
            ids[r] = qk_run_name(runs[r]);
        rc = qk_cli_run_groups(CMD, a->groups, ids, nruns, a->sepc, group, &ng);
        free(ids);
        if (rc)
            goto out;
        if (ng < 2) {
            rc = qk_cli_usage(CMD, "--logo needs runs of at least two groups (found %zu)", ng);
            goto out;
        }
        so.group = group;
    }
    if (a->shard_on) {
        simctx c = {q, runs, nruns, orders, lens, &so};
        size_t cnt[3] = {nc, nruns, ng};
        rc = write_part(a, &c, "simulate-topics-statap", "cost-statap", cnt, 3, so.trials, argc, argv);
        goto out;
    }
    statap_header(a, &so, nc, nruns, ng);
    if ((rc = run_statap(a, q, runs, nruns, orders, lens, &so)) == 0)
        rc = qk_cli_flush_stdout(CMD);
out:
    free(sz);
    free(group);
    return rc;
}

int qk_simulate_topics_budget(int argc, char **argv)
{
    bargs a;
    size_t nruns = 0, *cand_of = NULL, nc = 0;
    size_t *orders[MAXM] = {NULL}, lens[MAXM] = {0};
    int rc;
    qk_qrels *q = NULL;
    qk_run **runs = NULL;
    qk_error err;
    if ((rc = parse(argc, argv, &a)) != -1)
        return rc;
    nruns = (size_t)(argc - optind - 1);
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
    for (size_t m = 1; m < a.nm; m++)
        if (read_order(a.files[m], q, cand_of, &orders[m], &lens[m], &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
    if (a.statap) {
        rc = statap_form(&a, q, runs, nruns, (const size_t *const *)orders, lens, nc, argc, argv);
        goto out;
    }
    if (a.shard_on) {
        simctx c = {q, runs, nruns, (const size_t *const *)orders, lens, NULL};
        size_t cnt[2] = {nc, nruns};
        rc = write_part(&a, &c, "simulate-topics-budget", "cost-sim", cnt, 2, a.o.trials, argc, argv);
        goto out;
    }
    print_header(&a, nc, nruns);
    for (size_t h = 0; h < a.nh; h++) {
        qk_cost_sim_row *rows = NULL;
        size_t nrows = 0;
        a.o.budget = a.hours[h] * 3600;
        if (qk_cost_sim(q, (const qk_run *const *)runs, nruns, (const size_t *const *)orders, lens, a.nm,
                        &a.o, &rows, &nrows, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        print_rows(&a, a.hours[h], rows, nrows);
        free(rows);
    }
    rc = qk_cli_flush_stdout(CMD);
out:
    for (size_t m = 0; m < MAXM; m++)
        free(orders[m]);
    free(cand_of);
    qk_cli_free_runs(runs, runs ? nruns : 0);
    qk_qrels_free(q);
    return rc;
}
