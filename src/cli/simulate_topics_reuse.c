/* `qrelkit simulate topics-reuse`: Hosseini's reusability experiment (ch. 5,
 * 000a §7 EXP-5) on a fully judged collection. Parses, reads, calls
 * qk_topics_reuse (src/sim/topics_reuse.c) and prints one row per trial and
 * their mean. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "qrelkit/topics.h"
#include "shard_cli.h"
#include "simulate_modes.h"

#define CMD "simulate topics-reuse"

const char qk_help_simulate_topics_reuse[] =
    "usage: qrelkit simulate topics-reuse --budget B [options] QRELS RUN RUN [RUN...]\n"
    "\n"
    "Hosseini's reusability experiment (2013, ch. 5; Table 5.1) on a fully judged\n"
    "collection. Each trial: --participating random groups (sites) pool their top\n"
    "--k0 (the initial judgments J0, labels from QRELS); the other groups are\n"
    "scored by the MAR of their runs over J0, and the --new-sites least covered\n"
    "become new systems, the rest auxiliary ones (scored with J0, adding nothing\n"
    "to the pool). B more judgments of the new systems' top --new-depth documents\n"
    "go either to the topics the budget-constrained program (eqs 5.1-5.2, on the\n"
    "participating and auxiliary runs' AP under J0) chooses ('subset', B/m per\n"
    "topic) or to every topic ('uniform', B/n per topic). The new systems' MAP\n"
    "with J0, J0 + uniform and J0 + subset (over the chosen topics) is compared\n"
    "with their MAP under QRELS by Kendall's tau_a, on all pairs and on the pairs\n"
    "a paired t-test on the QRELS APs calls different.\n"
    "\n"
    "options:\n"
    "  --budget B          judgments to add (required)\n"
    "  --participating N   groups that build the initial pool (default 1)\n"
    "  --new-sites N       held-out groups that become new systems (default 3)\n"
    "  --k0 N              initial pool depth (default 10)\n"
    "  --new-depth N       the new systems' documents considered (default 100)\n"
    "  --mar-depth N       AR to this rank (default 1000)\n"
    "  --kappa K           budget bound t = K B / Omega (default: the topic count)\n"
    "  --trials N          trials (default 10)\n"
    "  --seed S            the draw of participating groups (default 1)\n"
    "  --alpha A           significance of a pair (default 0.05)\n"
    "  --subset-all-topics score 'subset' over every topic, not the chosen ones\n"
    "  --no-redistribution a topic with fewer candidates than its share keeps the\n"
    "                      rest unspent (default: it goes evenly to the others)\n"
    "  --groups FILE       'run group' lines; default: a run's group is its name\n"
    "                      up to the first --group-sep character\n"
    "  --group-sep C       default '-'; 'none': every run is its own group\n"
    "  --dedup MODE        a docno repeated in a run topic: error (default) or\n"
    "                      first (keep its first line)\n"
    "  --precision N       decimals (default 4)\n"
    "  --shard I/N         trials of shard I of N only (trial t is seeded by --seed\n"
    "                      and t), as a part file for `qrelkit merge`\n"
    "\n"
    "Output (TSV): trial, runs participating / auxiliary / new, omega (the new\n"
    "systems' unjudged candidates), m (topics chosen), judgments spent by subset and\n"
    "uniform, tau of initial / uniform / subset, the same on significant pairs\n"
    "(NA: none), p_plus (pairs subset orders right that uniform does not, net) and\n"
    "p_plus_sig; a last row 'mean' over the trials.\n"
    "Details: doc/qrelkit-topics.md (Reusability).\n";

enum {
    OPT_BUDGET = 256,
    OPT_PART,
    OPT_NEW,
    OPT_K0,
    OPT_NEWDEPTH,
    OPT_MARDEPTH,
    OPT_KAPPA,
    OPT_TRIALS,
    OPT_SEED,
    OPT_ALPHA,
    OPT_ALL,
    OPT_NOREDIST,
    OPT_GROUPS,
    OPT_SEP,
    OPT_PRECISION,
    OPT_DEDUP,
    OPT_SHARD
};

static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                         {"budget", required_argument, NULL, OPT_BUDGET},
                                         {"participating", required_argument, NULL, OPT_PART},
                                         {"new-sites", required_argument, NULL, OPT_NEW},
                                         {"k0", required_argument, NULL, OPT_K0},
                                         {"new-depth", required_argument, NULL, OPT_NEWDEPTH},
                                         {"mar-depth", required_argument, NULL, OPT_MARDEPTH},
                                         {"kappa", required_argument, NULL, OPT_KAPPA},
                                         {"trials", required_argument, NULL, OPT_TRIALS},
                                         {"seed", required_argument, NULL, OPT_SEED},
                                         {"alpha", required_argument, NULL, OPT_ALPHA},
                                         {"subset-all-topics", no_argument, NULL, OPT_ALL},
                                         {"no-redistribution", no_argument, NULL, OPT_NOREDIST},
                                         {"groups", required_argument, NULL, OPT_GROUPS},
                                         {"group-sep", required_argument, NULL, OPT_SEP},
                                         {"precision", required_argument, NULL, OPT_PRECISION},
                                         {"dedup", required_argument, NULL, OPT_DEDUP},
                                         {"shard", required_argument, NULL, OPT_SHARD},
                                         {NULL, 0, NULL, 0}};

static void put(double v, int prec)
{
    if (isnan(v))
        fputs("\tNA", stdout);
    else
        printf("\t%.*f", prec, v);
}

/* Mean of a field over the rows, NaN cells left out. */
static double col_mean(const qk_topics_reuse_row *r, size_t n, size_t off)
{
    double s = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, (const char *)&r[i] + off, sizeof v);
        if (!isnan(v)) {
            s += v;
            k++;
        }
    }
    return k ? s / (double)k : NAN;
}

static void print_rows(const qk_topics_reuse_row *r, size_t n, int prec)
{
    static const size_t offs[] = {
        offsetof(qk_topics_reuse_row, spent_subset),    offsetof(qk_topics_reuse_row, spent_uniform),
        offsetof(qk_topics_reuse_row, tau_initial),     offsetof(qk_topics_reuse_row, tau_uniform),
        offsetof(qk_topics_reuse_row, tau_subset),      offsetof(qk_topics_reuse_row, tau_sig_initial),
        offsetof(qk_topics_reuse_row, tau_sig_uniform), offsetof(qk_topics_reuse_row, tau_sig_subset),
        offsetof(qk_topics_reuse_row, p_plus),          offsetof(qk_topics_reuse_row, p_plus_sig)};
    double sp = 0, sa = 0, sn = 0, so = 0, sm = 0;
    puts("trial\tparticipating\tauxiliary\tnew\tomega\tm\tspent_subset\tspent_uniform\ttau_initial\t"
         "tau_uniform\ttau_subset\ttau_sig_initial\ttau_sig_uniform\ttau_sig_subset\tp_plus\tp_plus_sig");
    for (size_t i = 0; i < n; i++) {
        printf("%zu\t%zu\t%zu\t%zu\t%.0f\t%zu", r[i].trial, r[i].participating, r[i].auxiliary, r[i].nnew,
               r[i].omega, r[i].m);
        for (size_t k = 0; k < sizeof offs / sizeof *offs; k++) {
            double v;
            memcpy(&v, (const char *)&r[i] + offs[k], sizeof v);
            put(v, k < 2 || k >= 8 ? 0 : prec);
        }
        putchar('\n');
        sp += (double)r[i].participating;
        sa += (double)r[i].auxiliary;
        sn += (double)r[i].nnew;
        so += r[i].omega;
        sm += (double)r[i].m;
    }
    if (n == 0)
        return;
    printf("mean\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f", sp / (double)n, sa / (double)n, sn / (double)n,
           so / (double)n, sm / (double)n);
    for (size_t k = 0; k < sizeof offs / sizeof *offs; k++) {
        double v = col_mean(r, n, offs[k]);
        put(v, k < 2 || k >= 8 ? 1 : prec);
    }
    putchar('\n');
}

typedef struct {
    qk_topics_reuse_opts o;
    const char *groups;
    char sep; /* --group-sep (0: none) */
    long prec;
    int have_budget, shard_on;
    qk_shard_spec shard;
} rargs;

/* The options into a (the operands start at optind); -1, or the exit code. */
static int parse(int argc, char **argv, rargs *a)
{
    int c, rc;
    memset(a, 0, sizeof *a);
    qk_topics_reuse_opts_init(&a->o);
    a->sep = '-';
    a->prec = 4;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_simulate_topics_reuse);
        case OPT_BUDGET:
            if ((rc = qk_cli_double(CMD, "--budget", optarg, 0, 1e15, 0, &a->o.budget)))
                return rc;
            a->have_budget = 1;
            break;
        case OPT_PART:
            if ((rc = qk_cli_size(CMD, "--participating", optarg, 1, SIZE_MAX, &a->o.participating)))
                return rc;
            break;
        case OPT_NEW:
            if ((rc = qk_cli_size(CMD, "--new-sites", optarg, 1, SIZE_MAX, &a->o.newsites)))
                return rc;
            break;
        case OPT_K0:
            if ((rc = qk_cli_long(CMD, "--k0", optarg, 1, 1000000, &a->o.k0)))
                return rc;
            break;
        case OPT_NEWDEPTH:
            if ((rc = qk_cli_long(CMD, "--new-depth", optarg, 1, 1000000, &a->o.new_depth)))
                return rc;
            break;
        case OPT_MARDEPTH:
            if ((rc = qk_cli_long(CMD, "--mar-depth", optarg, 1, 1000000, &a->o.mar_depth)))
                return rc;
            break;
        case OPT_KAPPA:
            if ((rc = qk_cli_double(CMD, "--kappa", optarg, 0, INFINITY, QK_NUM_LO_OPEN, &a->o.kappa)))
                return rc;
            break;
        case OPT_TRIALS:
            if ((rc = qk_cli_size(CMD, "--trials", optarg, 1, 100000, &a->o.trials)))
                return rc;
            break;
        case OPT_SEED:
            if ((rc = qk_cli_seed(CMD, "--seed", optarg, &a->o.seed)))
                return rc;
            break;
        case OPT_ALPHA:
            if ((rc = qk_cli_double(CMD, "--alpha", optarg, 0, 1, QK_NUM_LO_OPEN | QK_NUM_HI_OPEN,
                                    &a->o.alpha)))
                return rc;
            break;
        case OPT_DEDUP:
            if (strcmp(optarg, "first") != 0 && strcmp(optarg, "error") != 0)
                return qk_cli_usage(CMD, "--dedup takes error or first, not '%s'", optarg);
            a->o.dedup = optarg[0] == 'f' ? QK_DEDUP_FIRST : QK_DEDUP_ERROR;
            break;
        case OPT_ALL: a->o.subset_all_topics = 1; break;
        case OPT_NOREDIST: a->o.no_redistribution = 1; break;
        case OPT_GROUPS: a->groups = optarg; break;
        case OPT_SEP:
            if ((rc = qk_cli_group_sep(CMD, optarg, &a->sep)))
                return rc;
            break;
        case OPT_PRECISION:
            if ((rc = qk_cli_long(CMD, "--precision", optarg, 0, 17, &a->prec)))
                return rc;
            break;
        case OPT_SHARD:
            if ((rc = qk_cli_shard_parse(CMD, optarg, &a->shard)))
                return rc;
            a->shard_on = 1;
            break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!a->have_budget)
        return qk_cli_usage(CMD, "--budget B is required");
    if (argc - optind < 3)
        return qk_cli_usage(CMD, "needs QRELS and at least two RUNs");
    return -1;
}

/* --shard: this shard's trials, one row each (qk_topics_reuse_row_encode). */
static int write_part(const rargs *a, const qk_qrels *q, qk_run *const *runs, size_t nruns,
                      const size_t *group, int argc, char **argv)
{
    qk_error err = {0};
    qk_shard_part *part = NULL;
    qk_topics_reuse_row *rows = NULL;
    size_t first, end, nrows = 0;
    const char **ins = calloc(nruns + 2, sizeof *ins);
    char **rec = NULL;
    int rc;
    if (!ins)
        return QK_EXIT_IO;
    ins[0] = a->groups;
    memcpy(ins + 1, argv + optind, (nruns + 1) * sizeof *ins);
    rc = qk_cli_shard_open(CMD, "simulate-topics-reuse", a->shard, a->o.trials, a->o.seed, argc, argv, ins,
                           nruns + 2, &part, &first, &end);
    free(ins);
    if (rc)
        return rc;
    if (qk_topics_reuse_range(q, (const qk_run *const *)runs, nruns, group, &a->o, first, end, &rows, &nrows,
                              &err) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
    else if (!(rec = calloc(nrows + 1, sizeof *rec)))
        rc = QK_EXIT_IO;
    for (size_t k = 0; !rc && k < nrows; k++)
        if (qk_topics_reuse_row_encode(&rows[k], &rec[k], &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
    free(rows);
    return qk_cli_shard_commit(CMD, part, rc, NULL, 0, rec, first, first + nrows);
}

int qk_simulate_topics_reuse_merge(const qk_shard_part *m)
{
    rargs a;
    qk_error err = {0};
    int argc, rc;
    char **argv = qk_cli_shard_argv(m, "topics-reuse", &argc);
    size_t n = qk_shard_part_num_held(m);
    qk_topics_reuse_row *rows = NULL;
    if (!argv)
        return QK_EXIT_IO;
    rc = parse(argc, argv, &a);
    rc = rc == -1 ? 0 : rc ? QK_EXIT_INPUT : 0;
    if (!rc && !(rows = calloc(n + 1, sizeof *rows)))
        rc = QK_EXIT_IO;
    for (size_t k = 0; !rc && k < n; k++)
        if (qk_topics_reuse_row_decode(qk_shard_part_item(m, k, NULL, NULL), &rows[k], &err) != QK_OK)
            rc = qk_cli_fail("merge", &err);
    if (!rc) {
        print_rows(rows, n, (int)a.prec);
        rc = qk_cli_flush_stdout("merge");
    }
    free(rows);
    free(argv);
    return rc;
}

int qk_simulate_topics_reuse(int argc, char **argv)
{
    rargs a;
    qk_topics_reuse_row *rows = NULL;
    qk_qrels *q = NULL;
    qk_run **runs = NULL;
    size_t nrows = 0, nruns, *group = NULL;
    const char **ids = NULL;
    int rc;
    qk_error err;
    if ((rc = parse(argc, argv, &a)) != -1)
        return rc;
    nruns = (size_t)(argc - optind - 1);
    if (qk_qrels_read(argv[optind], QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err) != QK_OK ||
        qk_cli_read_runs((const char *const *)argv + optind + 1, nruns, QK_CLI_NAME_BASE, &runs, &err) !=
            QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (!(group = malloc(nruns * sizeof *group)) || !(ids = malloc(nruns * sizeof *ids))) {
        rc = QK_EXIT_IO;
        goto out;
    }
    for (size_t r = 0; r < nruns; r++)
        ids[r] = qk_run_name(runs[r]);
    if ((rc = qk_cli_run_groups(CMD, a.groups, ids, nruns, a.sep, group, NULL)))
        goto out;
    if (a.shard_on) {
        rc = write_part(&a, q, runs, nruns, group, argc, argv);
        goto out;
    }
    if (qk_topics_reuse(q, (const qk_run *const *)runs, nruns, group, &a.o, &rows, &nrows, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    print_rows(rows, nrows, (int)a.prec);
    rc = QK_EXIT_OK;
out:
    free(rows);
    free(group);
    free(ids);
    qk_cli_free_runs(runs, runs ? nruns : 0);
    qk_qrels_free(q);
    return rc;
}
