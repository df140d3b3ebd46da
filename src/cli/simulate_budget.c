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
    "  --estimator E      fixed (default) or srswo: X-hat and the final MAP (see\n"
    "                     `qrelkit help budget`)\n"
    "  --docs D           literal (default) or sampled: every stage draws its\n"
    "                     documents by stratified SRSWO, inclusion probabilities\n"
    "                     carried across stages; X-hat and the final MAP are then\n"
    "                     statAP with those probabilities (--estimator unused)\n"
    "  -l LEVEL           relevance threshold (1)\n"
    "  --plot FILE.svg    tau and RMSE against budget, contributing and held-out\n"
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
    OPT_DOCS
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

int qk_simulate_budget(int argc, char **argv)
{
    qk_budget_sim_opts o;
    qk_budget_method methods[8] = {QK_BUDGET_QDP, QK_BUDGET_QDP_STAR, QK_BUDGET_UN, QK_BUDGET_RA,
                                   QK_BUDGET_SA};
    int mv[8], c, rc = 0;
    long bl[64];
    size_t budgets[64], nb = 0, nm, *group = NULL;
    const char *qrels = NULL, *groups = NULL, *plot = NULL, *sep = "-";
    char sepc = '\0';
    qk_qrels *q = NULL;
    qk_run **runs = NULL;
    qk_budget_sim_row *rows = NULL;
    qk_cli_out po = {0};
    qk_error err = {0};
    int nruns;
    qk_budget_sim_opts_init(&o);
    o.methods = methods;
    o.nmethods = 5;
    optind = 1;
    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, ":hl:", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_simulate_budget);
        case OPT_QRELS: qrels = optarg; break;
        case OPT_BUDGETS:
            if ((rc = qk_cli_long_list(CMD, "--budgets", optarg, 1, 1000000000L, bl, 64, &nb)) == 0)
                for (size_t i = 0; i < nb; i++)
                    budgets[i] = (size_t)bl[i];
            break;
        case OPT_METHODS:
            if ((rc = qk_cli_enum_list(CMD, qk_budget_method_table, "--methods", optarg, mv, 8, &nm)) == 0) {
                for (size_t i = 0; i < nm; i++)
                    methods[i] = (qk_budget_method)mv[i];
                o.nmethods = nm;
            }
            break;
        case OPT_TRIALS: rc = qk_cli_size(CMD, "--trials", optarg, 1, SIZE_MAX, &o.trials); break;
        case OPT_STAGE1: rc = qk_cli_double(CMD, "--stage1", optarg, 0, 1, 0, &o.stage1); break;
        case OPT_STAGES: rc = qk_cli_size(CMD, "--stages", optarg, 1, 1000, &o.stages); break;
        case OPT_LAMBDA:
            if (!strcmp(optarg, "tuned-part") || !strcmp(optarg, "tuned-new"))
                o.tune = optarg[6] == 'p' ? 1 : 2;
            else
                rc = qk_cli_double(CMD, "--lambda", optarg, 0, 1e12, 0, &o.lambda);
            break;
        case OPT_DEPTH: rc = qk_cli_long(CMD, "--depth", optarg, 1, 1000000, &o.depth); break;
        case OPT_SEED: rc = qk_cli_seed(CMD, "--seed", optarg, &o.seed); break;
        case OPT_GROUPS: groups = optarg; break;
        case OPT_SEP:
            if (strcmp(optarg, "none") != 0 && strlen(optarg) != 1)
                return qk_cli_usage(CMD, "--group-sep takes one character or 'none', not '%s'", optarg);
            sep = optarg;
            break;
        case OPT_PLOT: plot = optarg; break;
        case OPT_EST:
            if (strcmp(optarg, "fixed") != 0 && strcmp(optarg, "srswo") != 0)
                return qk_cli_usage(CMD, "unknown --estimator '%s' (choose from: fixed, srswo)", optarg);
            o.srswo = optarg[0] == 's';
            break;
        case OPT_DOCS:
            if (strcmp(optarg, "literal") != 0 && strcmp(optarg, "sampled") != 0)
                return qk_cli_usage(CMD, "unknown --docs '%s' (choose from: literal, sampled)", optarg);
            o.sampled = optarg[0] == 's';
            break;
        case 'l': rc = qk_cli_long(CMD, "-l", optarg, -1000000, 1000000, &o.rel_level); break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (rc)
        return rc;
    nruns = argc - optind;
    if (!qrels)
        return qk_cli_usage(CMD, "missing --qrels");
    if (nb == 0)
        return qk_cli_usage(CMD, "missing --budgets");
    if (nruns < 3)
        return qk_cli_usage(CMD, "needs at least three RUNs (two groups)");
    if ((rc = qk_cli_no_stdout(CMD, "--plot", plot, "carries the table; give a file name")))
        return rc;
    o.budgets = budgets;
    o.nbudgets = nb;
    if (strcmp(sep, "none") != 0)
        sepc = sep[0];
    if (qk_qrels_read(qrels, QK_REL_QRELS, QK_DEDUP_FIRST, &q, &err) != QK_OK ||
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
        rc = qk_cli_run_groups(CMD, groups, ids, (size_t)nruns, sepc, group, NULL);
        free(ids);
        if (rc)
            goto out;
    }
    o.group = group;
    if (plot && (rc = qk_cli_out_open(CMD, &po, plot)))
        goto out;
    if (qk_budget_simulate(q, (const qk_run *const *)runs, (size_t)nruns, &o, &rows, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    print_tsv(rows, o.nbudgets * o.nmethods);
    if (plot) {
        draw(po.f, rows, &o);
        rc = qk_cli_out_commit(CMD, &po);
    }
out:
    if (plot && rc)
        qk_cli_out_abort(&po);
    free(rows);
    free(group);
    qk_cli_free_runs(runs, nruns > 0 ? (size_t)nruns : 0);
    qk_qrels_free(q);
    return rc;
}
