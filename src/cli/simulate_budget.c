/* `qrelkit simulate budget`: the QDP experiment (src/sim/budget_sim.c) with
 * the qrels as the judge; a table of tau and RMSE of MAP per budget and
 * method, and an SVG plot. Parsing and printing only. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_svg.h"
#include "cli_util.h"
#include "qrelkit/budget.h"
#include "qrelkit/qrelkit.h"
#include "shard_cli.h"
#include "simulate_modes.h"

#define CMD "simulate budget"

const char qk_help_simulate_budget[] =
    "usage: qrelkit simulate budget --qrels TRUTH --budgets B1,B2,... [options] RUN RUN [RUN...]\n"
    "\n"
    "Hosseini's chapter-7 experiment with the qrels as the judge. Trial t holds\n"
    "out one group of runs (group t mod the number of groups: leave one group\n"
    "out); the others contribute to the pool. For every total budget B and\n"
    "method, stage 1 spends --stage1 of B uniformly over the topics (the same\n"
    "pairs for every method of a trial), then --stages expansion stages of\n"
    "`qrelkit budget plan --method M` share the rest. MAP of every run is then\n"
    "estimated from the judgments (statAP, doc/qrelkit-budget.md) and compared\n"
    "with MAP under the full qrels: Kendall tau_a and RMSE, over the\n"
    "contributing runs ('part') and the held-out ones ('new').\n"
    "\n"
    "options:\n"
    "  --qrels FILE       the complete judgments (the judge and the truth)\n"
    "  --budgets B,...    total judgments per trial\n"
    "  --methods M,...    of @[budget-method] (default qdp,qdp-star,un,ra,sa)\n"
    "  --trials N         (20)\n"
    "  --stage1 F         share of B in stage 1 (0.5)\n"
    "  --stages K         expansion stages (2)\n"
    "  --lambda L         QDP's lambda (0), or tuned-part / tuned-new: tuned\n"
    "                     before every expansion stage as `budget plan` does\n"
    "  --depth K          pool depth (100)\n"
    "  --seed S           (42)\n"
    "  --groups FILE      'run group' lines; default: a run's group is its name up\n"
    "                     to the first --group-sep character\n"
    "  --group-sep C      default '-'; 'none': every run is its own group\n"
    "  --participating K  instead of leave one group out: K groups drawn at\n"
    "                     random per trial contribute; after stage 1 the other\n"
    "                     groups are ranked by the MAR of their runs over the\n"
    "                     stage-1 judgments, and the --new-sites N least covered\n"
    "                     are the held-out ('new') systems, the rest auxiliary:\n"
    "                     from then on rows of X-hat (scored with the judgments,\n"
    "                     so in Sigma and U) but never pooled, and in neither\n"
    "                     score column; needs --new-sites\n"
    "  --new-sites N      with --participating (K + N <= the number of groups)\n"
    "  --ra-draws K       ra: a trial's values are the mean over K draws of its\n"
    "                     random topics (1; the thesis averages 1000)\n"
    "  --estimator E      fixed (default) or srswo: X-hat and the final MAP (see\n"
    "                     `qrelkit help budget`)\n"
    "  --docs D           literal (default) or sampled: every stage draws its\n"
    "                     documents by stratified SRSWO, inclusion probabilities\n"
    "                     carried across stages; X-hat and the final MAP are then\n"
    "                     statAP with those probabilities (--estimator unused)\n"
    "  -l LEVEL           relevance threshold (1)\n"
    "  --plot FILE.svg    tau and RMSE against budget, contributing and held-out\n"
    "  --shard I/N        trials of shard I of N only, as a part file for\n"
    "                     `qrelkit merge` (doc/scale-out.md); not with --plot\n"
    "\n"
    "output: 'budget method trials tau_part sd rmse_part sd tau_new sd rmse_new sd'\n"
    "(means and sample sds over trials).\n";

enum {
    OPT_QRELS = 256,
    OPT_BUDGETS,
    OPT_METHODS,
    OPT_TRIALS,
    OPT_STAGE1,
    OPT_STAGES,
    OPT_LAMBDA,
    OPT_DEPTH,
    OPT_SEED,
    OPT_GROUPS,
    OPT_SEP,
    OPT_PLOT,
    OPT_EST,
    OPT_DOCS,
    OPT_SHARD,
    OPT_PART,
    OPT_NEW,
    OPT_RADRAWS
};
static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                         {"qrels", required_argument, NULL, OPT_QRELS},
                                         {"budgets", required_argument, NULL, OPT_BUDGETS},
                                         {"methods", required_argument, NULL, OPT_METHODS},
                                         {"trials", required_argument, NULL, OPT_TRIALS},
                                         {"stage1", required_argument, NULL, OPT_STAGE1},
                                         {"stages", required_argument, NULL, OPT_STAGES},
                                         {"lambda", required_argument, NULL, OPT_LAMBDA},
                                         {"depth", required_argument, NULL, OPT_DEPTH},
                                         {"seed", required_argument, NULL, OPT_SEED},
                                         {"groups", required_argument, NULL, OPT_GROUPS},
                                         {"group-sep", required_argument, NULL, OPT_SEP},
                                         {"plot", required_argument, NULL, OPT_PLOT},
                                         {"docs", required_argument, NULL, OPT_DOCS},
                                         {"shard", required_argument, NULL, OPT_SHARD},
                                         {"participating", required_argument, NULL, OPT_PART},
                                         {"new-sites", required_argument, NULL, OPT_NEW},
                                         {"ra-draws", required_argument, NULL, OPT_RADRAWS},
                                         {"estimator", required_argument, NULL, OPT_EST},
                                         {NULL, 0, NULL, 0}};

static const char *mname(qk_budget_method m)
{
    return qk_enum_by_value(qk_budget_method_table, (int)m)->name;
}

static void print_tsv(const qk_budget_sim_row *r, size_t n)
{
    puts("budget\tmethod\ttrials\ttau_part\tsd\trmse_part\tsd\ttau_new\tsd\trmse_new\tsd");
    for (size_t i = 0; i < n; i++)
        printf("%zu\t%s\t%zu\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", r[i].budget,
               mname(r[i].method), r[i].trials, r[i].tau_part, r[i].tau_part_sd, r[i].rmse_part,
               r[i].rmse_part_sd, r[i].tau_new, r[i].tau_new_sd, r[i].rmse_new, r[i].rmse_new_sd);
}

/* Four panels: tau and RMSE against budget, contributing and held-out. */
static void draw(FILE *f, const qk_budget_sim_row *r, const qk_budget_sim_opts *o)
{
    size_t nb = o->nbudgets, nm = o->nmethods < 8 ? o->nmethods : 8;
    double *buf = malloc((nb + 4 * nb * nm) * sizeof *buf);
    qk_svg_series s[8];
    static const char *const title[4] = {"tau, contributing runs", "tau, held-out runs",
                                         "RMSE of MAP, contributing runs", "RMSE of MAP, held-out runs"};
    if (!buf)
        return;
    for (size_t b = 0; b < nb; b++)
        buf[b] = (double)o->budgets[b];
    qk_svg_begin(f, 1100, 880);
    for (int p = 0; p < 4; p++) {
        for (size_t k = 0; k < nm; k++) {
            double *y = buf + nb + ((size_t)p * nm + k) * nb;
            for (size_t b = 0; b < nb; b++) {
                const qk_budget_sim_row *row = &r[b * o->nmethods + k];
                y[b] = p == 0   ? row->tau_part
                       : p == 1 ? row->tau_new
                       : p == 2 ? row->rmse_part
                                : row->rmse_new;
            }
            s[k].name = mname(o->methods[k]);
            s[k].x = buf;
            s[k].y = y;
            s[k].lo = s[k].hi = NULL;
            s[k].n = nb;
        }
        qk_svg_panel(f, (p % 2) * 550.0, (p < 2 ? 0.0 : 440.0), 550, 440, title[p], "judgments",
                     p < 2 ? "Kendall tau (mean over trials)" : "RMSE (mean over trials)", s, nm, NAN, NAN);
    }
    qk_svg_end(f);
    free(buf);
}

typedef struct bargs {
    qk_budget_sim_opts o;
    qk_budget_method methods[8];
    size_t budgets[64];
    const char *qrels, *groups, *plot;
    char sep; /* --group-sep (0: none) */
    int shard_on;
    qk_shard_spec shard;
} bargs;

/* Options into a (runs from optind on); -1 to go on, else an exit code. */
static int parse(int argc, char **argv, bargs *a)
{
    int mv[8], c, rc = 0;
    long bl[64];
    size_t nb = 0, nm;
    memset(a, 0, sizeof *a);
    qk_budget_sim_opts_init(&a->o);
    a->methods[0] = QK_BUDGET_QDP;
    a->methods[1] = QK_BUDGET_QDP_STAR;
    a->methods[2] = QK_BUDGET_UN;
    a->methods[3] = QK_BUDGET_RA;
    a->methods[4] = QK_BUDGET_SA;
    a->o.methods = a->methods;
    a->o.nmethods = 5;
    a->sep = '-';
    optind = 1;
    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, ":hl:", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_simulate_budget);
        case OPT_QRELS: a->qrels = optarg; break;
        case OPT_BUDGETS:
            if ((rc = qk_cli_long_list(CMD, "--budgets", optarg, 1, 1000000000L, bl, 64, &nb)) == 0)
                for (size_t i = 0; i < nb; i++)
                    a->budgets[i] = (size_t)bl[i];
            break;
        case OPT_METHODS:
            if ((rc = qk_cli_enum_list(CMD, qk_budget_method_table, "--methods", optarg, mv, 8, &nm)) == 0) {
                for (size_t i = 0; i < nm; i++)
                    a->methods[i] = (qk_budget_method)mv[i];
                a->o.nmethods = nm;
            }
            break;
        case OPT_TRIALS: rc = qk_cli_size(CMD, "--trials", optarg, 1, SIZE_MAX, &a->o.trials); break;
        case OPT_STAGE1: rc = qk_cli_double(CMD, "--stage1", optarg, 0, 1, 0, &a->o.stage1); break;
        case OPT_STAGES: rc = qk_cli_size(CMD, "--stages", optarg, 1, 1000, &a->o.stages); break;
        case OPT_LAMBDA:
            if (!strcmp(optarg, "tuned-part") || !strcmp(optarg, "tuned-new"))
                a->o.tune = optarg[6] == 'p' ? 1 : 2;
            else
                rc = qk_cli_double(CMD, "--lambda", optarg, 0, 1e12, 0, &a->o.lambda);
            break;
        case OPT_DEPTH: rc = qk_cli_long(CMD, "--depth", optarg, 1, 1000000, &a->o.depth); break;
        case OPT_SEED: rc = qk_cli_seed(CMD, "--seed", optarg, &a->o.seed); break;
        case OPT_GROUPS: a->groups = optarg; break;
        case OPT_SEP:
            if ((rc = qk_cli_group_sep(CMD, optarg, &a->sep)))
                return rc;
            break;
        case OPT_PLOT: a->plot = optarg; break;
        case OPT_EST:
            if (strcmp(optarg, "fixed") != 0 && strcmp(optarg, "srswo") != 0)
                return qk_cli_usage(CMD, "unknown --estimator '%s' (choose from: fixed, srswo)", optarg);
            a->o.srswo = optarg[0] == 's';
            break;
        case OPT_DOCS:
            if (strcmp(optarg, "literal") != 0 && strcmp(optarg, "sampled") != 0)
                return qk_cli_usage(CMD, "unknown --docs '%s' (choose from: literal, sampled)", optarg);
            a->o.sampled = optarg[0] == 's';
            break;
        case OPT_PART:
            rc = qk_cli_size(CMD, "--participating", optarg, 1, SIZE_MAX, &a->o.participating);
            break;
        case OPT_NEW: rc = qk_cli_size(CMD, "--new-sites", optarg, 1, SIZE_MAX, &a->o.newsites); break;
        case OPT_RADRAWS: rc = qk_cli_size(CMD, "--ra-draws", optarg, 1, 1000000, &a->o.ra_draws); break;
        case OPT_SHARD:
            rc = qk_cli_shard_parse(CMD, optarg, &a->shard);
            a->shard_on = 1;
            break;
        case 'l': rc = qk_cli_long(CMD, "-l", optarg, -1000000, 1000000, &a->o.rel_level); break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (rc)
        return rc;
    if (!a->qrels)
        return qk_cli_usage(CMD, "missing --qrels");
    if (nb == 0)
        return qk_cli_usage(CMD, "missing --budgets");
    if (argc - optind < 3)
        return qk_cli_usage(CMD, "needs at least three RUNs (two groups)");
    if ((a->o.participating > 0) != (a->o.newsites > 0))
        return qk_cli_usage(CMD, "--participating and --new-sites go together (the MAR split)");
    if (a->shard_on && a->plot)
        return qk_cli_usage(CMD, "--plot does not combine with --shard (plot the merged table)");
    if ((rc = qk_cli_no_stdout(CMD, "--plot", a->plot, "carries the table; give a file name")))
        return rc;
    a->o.budgets = a->budgets;
    a->o.nbudgets = nb;
    return -1;
}

/* --shard: this shard's trials as a part, one record per trial (the merge
 * reads no inputs: the budgets and methods are in the arguments). */
static int write_part(const bargs *a, const qk_qrels *q, const qk_run *const *runs, size_t nruns, int argc,
                      char **argv)
{
    qk_error err = {0};
    qk_shard_part *part = NULL;
    size_t first, end, R = a->o.nbudgets * a->o.nmethods;
    const char **ins = calloc(nruns + 2, sizeof *ins);
    double *vals = NULL;
    char **rec = NULL;
    int rc;
    if (!ins)
        return QK_EXIT_IO;
    ins[0] = a->qrels;
    ins[1] = a->groups;
    memcpy(ins + 2, argv + optind, nruns * sizeof *ins);
    rc = qk_cli_shard_open(CMD, "simulate-budget", a->shard, a->o.trials, a->o.seed, argc, argv, ins,
                           nruns + 2, &part, &first, &end);
    free(ins);
    if (rc)
        return rc;
    if (!(vals = malloc(((end - first) * R * 4 + 1) * sizeof *vals)) ||
        !(rec = calloc(end - first + 1, sizeof *rec)))
        rc = QK_EXIT_IO;
    else if (qk_budget_sim_values(q, runs, nruns, &a->o, first, end, vals, &err) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
    for (size_t t = first; !rc && t < end; t++)
        if (qk_budget_sim_record_write(vals + (t - first) * R * 4, R, &rec[t - first], &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
    free(vals);
    return qk_cli_shard_commit(CMD, part, rc, NULL, 0, rec, first, end);
}

int qk_simulate_budget_merge(const qk_shard_part *m)
{
    bargs a;
    qk_error err = {0};
    int argc = (int)qk_shard_part_num_args(m) + 1, rc;
    char **argv = calloc((size_t)argc + 1, sizeof *argv);
    size_t R, n = qk_shard_part_num_items(m);
    double *vals = NULL;
    qk_budget_sim_row *rows = NULL;
    if (!argv)
        return QK_EXIT_IO;
    argv[0] = (char *)"budget";
    for (int i = 1; i < argc; i++)
        argv[i] = (char *)qk_shard_part_arg(m, (size_t)i - 1);
    rc = parse(argc, argv, &a);
    if (rc != -1) {
        free(argv);
        return rc ? rc : QK_EXIT_INPUT;
    }
    rc = QK_EXIT_OK;
    R = a.o.nbudgets * a.o.nmethods;
    if (n != a.o.trials || qk_shard_part_num_held(m) != n) {
        qk_cli_errorf("merge", "the parts of simulate budget hold %zu of %zu trials",
                      qk_shard_part_num_held(m), a.o.trials);
        rc = QK_EXIT_INPUT;
    } else if (!(vals = malloc((n * R * 4 + 1) * sizeof *vals)))
        rc = QK_EXIT_IO;
    for (size_t k = 0; !rc && k < n; k++) {
        size_t idx, len;
        const char *it = qk_shard_part_item(m, k, &idx, &len);
        if (qk_budget_sim_record_parse(it, len, R, idx, vals + k * R * 4, &err) != QK_OK)
            rc = qk_cli_fail("merge", &err);
    }
    if (!rc && qk_budget_sim_rows(&a.o, vals, &rows, &err) != QK_OK)
        rc = qk_cli_fail("merge", &err);
    if (!rc) {
        print_tsv(rows, R);
        rc = qk_cli_flush_stdout("merge");
    }
    free(rows);
    free(vals);
    free(argv);
    return rc;
}

int qk_simulate_budget(int argc, char **argv)
{
    bargs a;
    size_t *group = NULL;

    qk_qrels *q = NULL;
    qk_run **runs = NULL;
    qk_budget_sim_row *rows = NULL;
    qk_cli_out po = {0};
    qk_error err = {0};
    int nruns, rc = parse(argc, argv, &a);
    if (rc != -1)
        return rc;
    nruns = argc - optind;
    if (qk_qrels_read(a.qrels, QK_REL_QRELS, QK_DEDUP_FIRST, &q, &err) != QK_OK ||
        qk_cli_read_runs((const char *const *)argv + optind, (size_t)nruns, QK_CLI_NAME_BASE, &runs, &err) !=
            QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (!(group = malloc((size_t)nruns * sizeof *group))) {
        rc = QK_EXIT_IO;
        goto out;
    }
    {
        const char **ids = malloc((size_t)nruns * sizeof *ids);
        if (!ids) {
            rc = QK_EXIT_IO;
            goto out;
        }
        for (int s = 0; s < nruns; s++)
            ids[s] = qk_run_name(runs[s]);
        rc = qk_cli_run_groups(CMD, a.groups, ids, (size_t)nruns, a.sep, group, NULL);
        free(ids);
        if (rc)
            goto out;
    }
    a.o.group = group;
    if (a.shard_on) {
        rc = write_part(&a, q, (const qk_run *const *)runs, (size_t)nruns, argc, argv);
        goto out;
    }
    if (a.plot && (rc = qk_cli_out_open(CMD, &po, a.plot)))
        goto out;
    if (qk_budget_simulate(q, (const qk_run *const *)runs, (size_t)nruns, &a.o, &rows, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    print_tsv(rows, a.o.nbudgets * a.o.nmethods);
    if (a.plot) {
        draw(po.f, rows, &a.o);
        rc = qk_cli_out_commit(CMD, &po);
    }
out:
    if (a.plot && rc)
        qk_cli_out_abort(&po);
    free(rows);
    free(group);
    qk_cli_free_runs(runs, nruns > 0 ? (size_t)nruns : 0);
    qk_qrels_free(q);
    return rc;
}
