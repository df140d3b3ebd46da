/* qrelkit simulate pool: what each way of choosing documents buys, on a
 * fully judged collection whose qrels act as the assessor
 * (qk_pool_simulate in pool.h). */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_tables.h"
#include "cli_util.h"
#include "qrelkit/pool.h"
#include "shard_cli.h"
#include "simulate_modes.h"

const char qk_help_simulate_pool[] =
    "usage: qrelkit simulate pool --qrels FULL --runs RUN [RUN...]\n"
    "                             --methods M1,M2,... --budgets B1,B2,... [options]\n"
    "\n"
    "Before paying for judgments: which way of choosing documents gives the best\n"
    "evaluation for the budget? FULL (complete judgments) plays the assessor. Each\n"
    "method of `qrelkit pool` judges up to each budget (documents per topic), in\n"
    "--trials independent trials, and the runs are scored with that method's\n"
    "estimator: xinfAP (strat), statAP (statap), Horvitz-Thompson (active),\n"
    "expected AP (mtc; rtc with the RTC model's probabilities, refitted at every\n"
    "budget) or judged documents only (depth, topk, rrf, rbp, mtf, mab). Per\n"
    "method and budget it prints, averaged over trials: judgments used per topic,\n"
    "relevant documents found, RMSE and bias of MAP, P@10 and R-prec against the\n"
    "complete judgments, Kendall's tau (with its sd over trials) and tau_AP of the\n"
    "MAP ranking, the share of trials ordering the two best runs right, and for\n"
    "mtc and rtc the confidence in that order, the accuracy of their sign\n"
    "predictions over neighbouring runs of the true ranking, and W (Carterette's\n"
    "winnings, < 0 = over-confident). Sampling estimators should show bias near 0\n"
    "and RMSE falling with the budget.\n"
    "\n"
    "options:\n"
    "  --qrels FULL         complete judgments (grade >= -l is relevant)\n"
    "  --runs RUN...        runs (repeat --runs or list files after it)\n"
    "  --methods LIST       comma-separated, from @{pool-method}\n"
    "  --budgets LIST       increasing judgments per topic (or hours, --hours)\n"
    "  --trials T           trials (20; deterministic methods run once)\n"
    "  --seed S             random seed (42)\n"
    "  --depth K            pool depth and evaluation depth (100)\n"
    "  --truth T            what R counts:\n"
    "                       @[simulate-truth]\n"
    "  --error-rate E       the assessor flips each answer with probability E (0)\n"
    "  --hours              budgets are assessor hours for all topics: per topic\n"
    "                       (H*3600 - topics*TDC)/topics seconds, turned into\n"
    "                       judgments with Kutlu et al.'s Eq. 9 speed (15 s per\n"
    "                       judgment falling to 9 s on deep topics)\n"
    "  --tdc S              topic development cost in seconds (0; 76 in the paper)\n"
    "  --constant-speed     15 s per judgment instead of Eq. 9\n"
    "  --logo               leave-one-group-out: the runs of each group are left out\n"
    "                       of the pool, then scored with the judgments it made\n"
    "                       (group = run name up to its first '-', or --groups)\n"
    "  --groups FILE        'run group' lines (gzip or '-' read, '#' lines skipped)\n"
    "  --pair A,B           mtc judges for runs A and B only\n"
    "  --active-batch N     documents per round of active sampling (3, Li's N_b)\n"
    "  --active-fixed       rounds of exactly --active-batch draws (not: until that\n"
    "                       many new documents), so Eq. 2.5's pi is exact\n"
    "  --active-weights W   run distribution of active sampling:\n"
    "                       @[pool-active-weights]\n"
    "  --active-li          score active sampling with Li's Eq. 2.14 as printed\n"
    "                       (eval -R draws) instead of statAP's form (eval -R prels)\n"
    "  --strata H, --cuts C1,...  as in `qrelkit pool`\n"
    "  --threads N          trials in parallel (results do not change; default 1)\n"
    "  --format F           @{format} (default tsv)\n"
    "  --plot FILE.svg      tau and RMSE of MAP against the budget (needs gnuplot;\n"
    "                       a file, not '-': standard output carries the table)\n"
    "  --quiet              no progress on stderr\n"
    "  --shard I/N          trials of shard I of N only, as a part file for\n"
    "                       `qrelkit merge` (doc/scale-out.md); not with --plot\n"
    "\n"
    "example (doc/examples/pool-clef2017.md):\n"
    "  qrelkit simulate pool --qrels qrels.txt --runs runs/*.run --trials 20 \\\n"
    "      --methods depth,statap,active,mtc,mtf,mab --budgets 10,20,40,60,80,100 \\\n"
    "      --plot curves.svg > curves.tsv\n";

#define CMD "simulate pool"

static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                         {"qrels", required_argument, NULL, 'q'},
                                         {"runs", required_argument, NULL, 'R'},
                                         {"methods", required_argument, NULL, 'm'},
                                         {"budgets", required_argument, NULL, 'b'},
                                         {"trials", required_argument, NULL, 't'},
                                         {"seed", required_argument, NULL, 's'},
                                         {"depth", required_argument, NULL, 'd'},
                                         {"truth", required_argument, NULL, 'T'},
                                         {"error-rate", required_argument, NULL, 'e'},
                                         {"hours", no_argument, NULL, 'H'},
                                         {"tdc", required_argument, NULL, 'C'},
                                         {"constant-speed", no_argument, NULL, 'K'},
                                         {"logo", no_argument, NULL, 'L'},
                                         {"groups", required_argument, NULL, 'G'},
                                         {"pair", required_argument, NULL, 'P'},
                                         {"active-batch", required_argument, NULL, 'A'},
                                         {"strata", required_argument, NULL, 'S'},
                                         {"cuts", required_argument, NULL, 'c'},
                                         {"threads", required_argument, NULL, 'j'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"plot", required_argument, NULL, 'p'},
                                         {"quiet", no_argument, NULL, 'Q'},
                                         {"active-li", no_argument, NULL, 'I'},
                                         {"active-fixed", no_argument, NULL, 'F'},
                                         {"active-weights", required_argument, NULL, 'W'},
                                         {"shard", required_argument, NULL, 'X'},
                                         {NULL, 0, NULL, 0}};

typedef struct sargs {
    qk_pool_sim_opts o;
    const char *qrels, *groups, *pair, *plot;
    const char **runs;
    size_t nruns;
    qk_run **ranked; /* the runs read */
    qk_pool_method methods[QK_POOL_NMETHODS * 4];
    double budget_in[256];
    long budgets[256], depth, cuts[64];
    int hours, constant_speed, json, quiet, shard_on;
    double tdc;
    qk_shard_spec shard;
} sargs;

/* --methods M1,M2,...: words of qk_pool_method_table. */
static int parse_methods(const char *s, sargs *a)
{
    int v[QK_POOL_NMETHODS * 4];
    size_t n;
    int rc = qk_cli_enum_list(CMD, qk_pool_method_table, "--methods", s, v, sizeof v / sizeof v[0], &n);
    for (size_t i = 0; !rc && i < n; i++)
        a->methods[i] = (qk_pool_method)v[i];
    a->o.nmethods = rc ? 0 : n;
    return rc;
}

static int parse(int argc, char **argv, sargs *a)
{
    int c, w;
    long l;
    size_t n;
    memset(a, 0, sizeof *a);
    qk_pool_sim_opts_init(&a->o);
    a->depth = 100;
    if (!(a->runs = calloc((size_t)argc + 1, sizeof *a->runs)))
        return QK_EXIT_IO;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hl:", longopts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'h': return -1;
        case 'q': a->qrels = optarg; break;
        case 'R': a->runs[a->nruns++] = optarg; break;
        case 'm': rc = parse_methods(optarg, a); break;
        case 'b':
            rc = qk_cli_double_list(CMD, "--budgets", optarg, 0, INFINITY, 0, a->budget_in, 256, &a->o.nbudgets);
            break;
        case 't': rc = qk_cli_size(CMD, "--trials", optarg, 1, 4096, &a->o.trials); break;
        case 's': rc = qk_cli_seed(CMD, "--seed", optarg, &a->o.seed); break;
        case 'd': rc = qk_cli_long(CMD, "--depth", optarg, 1, LONG_MAX, &a->depth); break;
        case 'T':
            if (!(rc = qk_cli_enum(CMD, qk_simulate_truth_table, "--truth", optarg, &w)))
                a->o.truth = w;
            break;
        case 'e': rc = qk_cli_double(CMD, "--error-rate", optarg, 0, 1, 0, &a->o.error_rate); break;
        case 'H': a->hours = 1; break;
        case 'C': rc = qk_cli_double(CMD, "--tdc", optarg, 0, INFINITY, 0, &a->tdc); break;
        case 'K': a->constant_speed = 1; break;
        case 'L': a->o.logo = 1; break;
        case 'G':
            a->groups = optarg;
            a->o.logo = 1;
            break;
        case 'P': a->pair = optarg; break;
        case 'A': rc = qk_cli_long(CMD, "--active-batch", optarg, 1, LONG_MAX, &a->o.active_batch); break;
        case 'S': rc = qk_cli_size(CMD, "--strata", optarg, 0, SIZE_MAX, &a->o.base.strata); break;
        case 'c':
            rc = qk_cli_long_list(CMD, "--cuts", optarg, 1, LONG_MAX, a->cuts, 64, &n);
            a->o.base.cuts = a->cuts;
            a->o.base.ncuts = rc ? 0 : n;
            break;
        case 'j':
            rc = qk_cli_long(CMD, "--threads", optarg, 1, 64, &l);
            a->o.threads = (int)l;
            break;
        case 'f': rc = qk_cli_format_tsv_json(CMD, optarg, &a->json); break;
        case 'p': a->plot = optarg; break;
        case 'Q': a->quiet = 1; break;
        case 'I': a->o.active_li = 1; break;
        case 'F': a->o.base.active_fixed = 1; break;
        case 'W':
            rc = qk_cli_enum(CMD, qk_pool_active_weights_table, "--active-weights", optarg,
                             &a->o.base.active_weights);
            break;
        case 'l': rc = qk_cli_long(CMD, "-l", optarg, LONG_MIN, LONG_MAX, &a->o.rel_level); break;
        case 'X':
            rc = qk_cli_shard_parse(CMD, optarg, &a->shard);
            a->shard_on = 1;
            break;
        default: return QK_EXIT_USAGE;
        }
        if (rc)
            return rc;
    }
    while (optind < argc)
        a->runs[a->nruns++] = argv[optind++];
    if (!a->qrels)
        return qk_cli_usage(CMD, "missing --qrels");
    if (!a->nruns)
        return qk_cli_usage(CMD, "missing --runs");
    if (!a->o.nmethods)
        return qk_cli_usage(CMD, "missing --methods");
    if (!a->o.nbudgets)
        return qk_cli_usage(CMD, "missing --budgets");
    if (qk_cli_no_stdout(CMD, "--plot", a->plot, "carries the table; give a file name"))
        return QK_EXIT_USAGE;
    if (a->shard_on && a->plot)
        return qk_cli_usage(CMD, "--plot does not combine with --shard (plot the merged table)");
    for (size_t b = 0; b < a->o.nbudgets; b++)
        if (a->budget_in[b] < 0 || (b && a->budget_in[b] <= a->budget_in[b - 1]))
            return qk_cli_usage(CMD, "--budgets: increasing values >= 0");
    a->o.methods = a->methods;
    {
        qk_cli_stdin seen = {0};
        int rc = qk_cli_stdin_once(CMD, &seen, a->qrels, "--qrels", 0);
        if (!rc)
            rc = qk_cli_stdin_once(CMD, &seen, a->groups, "--groups", 0);
        for (size_t k = 0; !rc && k < a->nruns; k++)
            rc = qk_cli_stdin_once(CMD, &seen, a->runs[k], "RUN", (int)k + 1);
        return rc;
    }
}

/* Group of every run: --groups file, else the name up to its first '-'. */
static int make_groups(sargs *a, const qk_pool_runs *p, size_t *group)
{
    size_t nr = qk_pool_num_runs(p);
    const char **names = calloc(nr ? nr : 1, sizeof *names);
    int rc;
    if (!names)
        return QK_EXIT_IO;
    for (size_t r = 0; r < nr; r++)
        names[r] = qk_pool_runid(p, r);
    rc = qk_cli_run_groups(CMD, a->groups, names, nr, '-', group, NULL);
    free(names);
    return rc;
}

static void progress(void *ctx, size_t done, size_t total)
{
    (void)ctx;
    fprintf(stderr, "\rsimulate pool: trial %zu of %zu", done, total);
    if (done == total)
        fputc('\n', stderr);
}

static const char *const cols[] = {"method",      "budget",   "judged",   "relevant",   "rmse_map",
                                   "bias_map",    "rmse_p10", "bias_p10", "rmse_rprec", "bias_rprec",
                                   "rmse_map_sd", "tau",      "tau_sd",   "tau_ap",     "top_pair",
                                   "conf",        "conf_acc", "W"};

static void row_values(const qk_pool_sim_row *r, double *v)
{
    double x[] = {r->judged,   r->relevant, r->rmse[0],  r->bias[0], r->rmse[1], r->bias[1],
                  r->rmse[2],  r->bias[2],  r->rmse_sd,  r->tau,     r->tau_sd,  r->tau_ap,
                  r->top_pair, r->conf,     r->conf_acc, r->w};
    memcpy(v, x, sizeof x);
}

static void write_tsv(FILE *f, const sargs *a, const qk_pool_sim_row *rows)
{
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
        fprintf(f, "%s%s", c ? "\t" : "", cols[c]);
    fputc('\n', f);
    for (size_t m = 0; m < a->o.nmethods; m++)
        for (size_t b = 0; b < a->o.nbudgets; b++) {
            const qk_pool_sim_row *r = &rows[m * a->o.nbudgets + b];
            double v[16];
            row_values(r, v);
            fprintf(f, "%s\t%g", qk_pool_method_name(r->method), a->budget_in[b]);
            for (int k = 0; k < 16; k++) {
                if (isnan(v[k]))
                    fputs("\tNA", f);
                else
                    fprintf(f, "\t%.4f", v[k]);
            }
            fputc('\n', f);
        }
}

static void write_json(const sargs *a, const qk_pool_sim_row *rows, const char *const *ids, size_t nr,
                       const double *tmap)
{
    json_t *root = json_object(), *arr = json_array(), *truth = json_object();
    char *s;
    for (size_t r = 0; r < nr; r++)
        json_object_set_new(truth, ids[r], json_real(tmap[r]));
    for (size_t m = 0; m < a->o.nmethods; m++)
        for (size_t b = 0; b < a->o.nbudgets; b++) {
            const qk_pool_sim_row *r = &rows[m * a->o.nbudgets + b];
            json_t *e = json_object();
            double v[16];
            row_values(r, v);
            json_object_set_new(e, "method", json_string(qk_pool_method_name(r->method)));
            json_object_set_new(e, "budget", json_real(a->budget_in[b]));
            json_object_set_new(e, "judgments_per_topic", json_integer(a->budgets[b]));
            for (int k = 0; k < 16; k++)
                json_object_set_new(e, cols[k + 2], isnan(v[k]) ? json_null() : json_real(v[k]));
            json_array_append_new(arr, e);
        }
    json_object_set_new(root, "trials", json_integer((json_int_t)a->o.trials));
    json_object_set_new(root, "true_map", truth);
    json_object_set_new(root, "rows", arr);
    s = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(6));
    if (s)
        puts(s);
    free(s);
    json_decref(root);
}

/* gnuplot's script: tau and RMSE of MAP against the budget, from the TSV in data. */
static void plot_script(FILE *g, const sargs *a, const char *data)
{
    fputs("set terminal svg size 1000,420 dynamic background '#ffffff'\n", g);
    fprintf(g,
            "set datafile separator '\\t'\nset datafile missing 'NA'\nset key bottom right\nset grid\n"
            "set multiplot layout 1,2\nset xlabel '%s'\n",
            a->hours ? "budget (assessor hours)" : "budget (judgments per topic)");
    for (int panel = 0; panel < 2; panel++) {
        fprintf(g, "set ylabel '%s'\nset title '%s'\nplot ",
                panel ? "RMSE of MAP" : "Kendall tau (MAP ranking)",
                panel ? "RMSE of estimated MAP" : "system ranking");
        for (size_t m = 0; m < a->o.nmethods; m++)
            fprintf(
                g,
                "%s'%s' every ::1 using 2:(strcol(1) eq '%s' ? column(%d) : NaN) with linespoints title '%s'",
                m ? ", " : "", data, qk_pool_method_name(a->methods[m]), panel ? 5 : 12,
                qk_pool_method_name(a->methods[m]));
        fputc('\n', g);
    }
    fputs("unset multiplot\n", g);
}

/* Run gnuplot on the script with its standard output read back here and
 * copied to out: the SVG reaches the file only through our own checked
 * writes (gnuplot itself ignores a full disk, and falls back to standard
 * output when it cannot open a file). 0, or -1 when gnuplot did not run or
 * failed. */
static int run_gnuplot(const sargs *a, const char *data, FILE *out)
{
    int in[2], from[2], status;
    pid_t pid;
    char buf[65536];
    ssize_t n;
    FILE *g;
    if (pipe(in) != 0)
        return -1;
    if (pipe(from) != 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    if ((pid = fork()) < 0) {
        close(in[0]);
        close(in[1]);
        close(from[0]);
        close(from[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(from[1], STDOUT_FILENO);
        close(in[0]);
        close(in[1]);
        close(from[0]);
        close(from[1]);
        execlp("gnuplot", "gnuplot", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(from[1]);
    /* The script is a few hundred bytes: it fits the pipe before gnuplot answers. */
    if ((g = fdopen(in[1], "w")) != NULL) {
        plot_script(g, a, data);
        fclose(g);
    } else {
        close(in[1]);
    }
    while ((n = read(from[0], buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        fwrite(buf, 1, (size_t)n, out);
    }
    close(from[0]);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Draw the plot into o (opened before the simulation, so a path that cannot
 * be written fails before anything is printed); commit or abort o. */
static int plot(const sargs *a, const qk_pool_sim_row *rows, qk_cli_out *o)
{
    char data[64];
    int fd, rc;
    FILE *f;
    snprintf(data, sizeof data, "/tmp/qk_simpool_%ld-XXXXXX", (long)getpid());
    qk_cli_sweep_stale("/tmp", "qk_simpool_");
    if ((fd = qk_temp_create(data, 1)) < 0 || !(f = fdopen(fd, "w"))) {
        if (fd >= 0) {
            close(fd);
            remove(data);
            qk_cli_temp_forget(data);
        }
        qk_cli_out_abort(o);
        qk_cli_errorf(CMD, "cannot write a temporary file for gnuplot");
        return QK_EXIT_IO;
    }
    write_tsv(f, a, rows);
    rc = fclose(f) != 0 || run_gnuplot(a, data, o->f) != 0;
    remove(data);
    qk_cli_temp_forget(data);
    if (rc) {
        qk_cli_out_abort(o);
        qk_cli_errorf(CMD, "gnuplot failed on '%s'", a->plot);
        return QK_EXIT_IO;
    }
    return qk_cli_out_commit(CMD, o);
}

/* --shard: this shard's trials as a part; its prologue carries the
 * judgments per budget and the run ids (the merge reads no inputs), then
 * the library's common record. */
static int write_part(const sargs *a, const qk_pool_runs *p, const qk_qrels *q, int argc, char **argv)
{
    qk_error err = {0};
    qk_shard_part *part = NULL;
    const char **ins = calloc(a->nruns + 2, sizeof *ins);
    char **rec = NULL, *common = NULL, *pro = NULL, *lb = NULL, *lr = NULL;
    size_t first, end, plen = 0, len, bv[256], nr = qk_pool_num_runs(p);
    const char **ids;
    FILE *f;
    int rc;
    if (!ins)
        return QK_EXIT_IO;
    ins[0] = a->qrels;
    ins[1] = a->groups;
    memcpy(ins + 2, a->runs, a->nruns * sizeof *ins);
    rc = qk_cli_shard_open(CMD, "simulate-pool", a->shard, a->o.trials, a->o.seed, argc, argv, ins,
                           a->nruns + 2, &part, &first, &end);
    free(ins);
    if (rc)
        return rc;
    if (qk_pool_simulate_trials(p, q, &a->o, first, end, &rec, &common, &err) != QK_OK)
        return qk_cli_shard_commit(CMD, part, qk_cli_fail(CMD, &err), NULL, 0, NULL, first, end);
    ids = calloc(nr + 1, sizeof *ids);
    for (size_t b = 0; b < a->o.nbudgets; b++)
        bv[b] = (size_t)a->budgets[b];
    for (size_t r = 0; ids && r < nr; r++)
        ids[r] = qk_pool_runid(p, r);
    if (!ids || qk_shard_counts_format("budgets", bv, a->o.nbudgets, &lb, &len, &err) != QK_OK ||
        qk_shard_names_format("runs", ids, nr, &lr, &len, &err) != QK_OK || !(f = open_memstream(&pro, &plen)))
        rc = QK_EXIT_IO;
    else {
        int bad = fprintf(f, "%s%s%s", lb, lr, common) < 0;
        if (fclose(f) != 0 || bad)
            rc = QK_EXIT_IO;
    }
    rc = qk_cli_shard_commit(CMD, part, rc, pro, plen, rec, first, end);
    free((void *)ids);
    free(lb);
    free(lr);
    free(common);
    free(pro);
    return rc;
}

int qk_simulate_pool_merge(const qk_shard_part *m)
{
    sargs a;
    qk_error err = {0};
    int argc = (int)qk_shard_part_num_args(m) + 1, rc;
    char **argv = calloc((size_t)argc + 1, sizeof *argv);
    const char **recs = NULL, **ids = NULL, *s;
    char *idbuf = NULL;
    size_t len, nr = 0, bv[256];
    qk_pool_sim_row *rows = NULL;
    double *tmap = NULL;
    qk_status st;
    if (!argv)
        return QK_EXIT_IO;
    argv[0] = (char *)"pool";
    for (int i = 1; i < argc; i++)
        argv[i] = (char *)qk_shard_part_arg(m, (size_t)i - 1);
    rc = parse(argc, argv, &a);
    if (rc == -1)
        rc = QK_EXIT_INPUT;
    if (rc)
        goto out;
    a.o.methods = a.methods;
    s = qk_shard_part_prologue(m, NULL);
    if (qk_shard_counts_parse(&s, "budgets", bv, a.o.nbudgets) != 0 ||
        (st = qk_shard_names_parse(&s, "runs", &idbuf, &ids, &nr, &err)) == QK_EINPUT) {
        rc = QK_EXIT_INPUT;
        goto bad;
    }
    if (st != QK_OK) {
        rc = QK_EXIT_IO;
        goto out;
    }
    for (size_t b = 0; b < a.o.nbudgets; b++)
        a.budgets[b] = (long)bv[b];
    a.o.budgets = a.budgets;
    if (!(recs = calloc(qk_shard_part_num_items(m) + 1, sizeof *recs))) {
        rc = QK_EXIT_IO;
        goto out;
    }
    for (size_t k = 0; k < qk_shard_part_num_held(m); k++)
        recs[k] = qk_shard_part_item(m, k, NULL, NULL);
    if (qk_pool_simulate_combine(&a.o, s, recs, &rows, &tmap, &len, &err) != QK_OK) {
        rc = qk_cli_fail("merge", &err);
        goto out;
    }
    if (a.json)
        write_json(&a, rows, ids, nr < len ? nr : len, tmap);
    else
        write_tsv(stdout, &a, rows);
    rc = qk_cli_flush_stdout("merge");
    goto out;
bad:
    qk_cli_errorf("merge", "the parts' header of simulate pool is malformed");
out:
    free(rows);
    free(tmap);
    free(recs);
    free(ids);
    free(idbuf);
    free(a.runs);
    free(argv);
    return rc;
}

int qk_simulate_pool(int argc, char **argv)
{
    sargs a;
    qk_error err = {0};
    qk_pool_runs *p = NULL;
    qk_qrels *q = NULL;
    qk_pool_sim_row *rows = NULL;
    double *tmap = NULL;
    size_t *group = NULL;
    qk_cli_out plot_out = {0};
    int rc = parse(argc, argv, &a);
    if (rc == -1) {
        free(a.runs);
        return qk_cli_help(qk_help_simulate_pool);
    }
    if (rc)
        goto out;
    if (qk_cli_read_runs(a.runs, a.nruns, QK_CLI_NAME_BASE, &a.ranked, &err) != QK_OK ||
        qk_pool_runs_from((const qk_run *const *)a.ranked, a.nruns, a.depth, &p, &err) != QK_OK ||
        qk_qrels_read(a.qrels, QK_REL_QRELS, QK_DEDUP_FIRST, &q, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (a.pair) {
        qk_cli_pair_runs(p, a.pair, &a.o.base.pair_a, &a.o.base.pair_b);
        if (a.o.base.pair_a < 0 || a.o.base.pair_b < 0) {
            rc = qk_cli_usage(CMD, "--pair: '%s' does not name two of the runs", a.pair);
            goto out;
        }
    }
    /* Budgets in hours: the same per-topic share of the hours for every
     * topic (Kutlu et al. §5.5's equal split). */
    for (size_t b = 0; b < a.o.nbudgets; b++) {
        if (a.hours) {
            double nt = (double)qk_pool_num_topics(p), secs = (a.budget_in[b] * 3600 - nt * a.tdc) / nt;
            a.budgets[b] = qk_pool_judgments_for_seconds(secs, a.constant_speed);
        } else
            a.budgets[b] = (long)a.budget_in[b];
        if (b && a.budgets[b] < a.budgets[b - 1])
            a.budgets[b] = a.budgets[b - 1];
    }
    a.o.budgets = a.budgets;
    a.o.runs = (const qk_run *const *)a.ranked;
    if (a.o.logo) {
        if (!(group = calloc(qk_pool_num_runs(p), sizeof *group))) {
            rc = QK_EXIT_IO;
            goto out;
        }
        if ((rc = make_groups(&a, p, group)) != 0)
            goto out;
        a.o.group = group;
    }
    if (!a.quiet && isatty(2)) {
        a.o.progress = progress;
    }
    if (a.plot) {
        if (system("command -v gnuplot >/dev/null 2>&1") != 0) { // NOLINT(cert-env33-c): fixed command
            qk_cli_errorf(CMD, "--plot needs gnuplot, which is not installed (apt-get install gnuplot-nox)");
            rc = QK_EXIT_IO;
            goto out;
        }
        if ((rc = qk_cli_check_output(CMD, "--plot", a.plot, (const char *const *)a.runs, a.nruns)) != 0 ||
            (rc = qk_cli_check_output(CMD, "--plot", a.plot, (const char *const *)&a.qrels, 1)) != 0 ||
            (rc = qk_cli_out_open(CMD, &plot_out, a.plot)) != 0)
            goto out;
    }
    if (a.shard_on) {
        rc = write_part(&a, p, q, argc, argv);
        goto out;
    }
    if (qk_pool_simulate(p, q, &a.o, &rows, &tmap, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (a.json) {
        const char **ids = calloc(qk_pool_num_runs(p) + 1, sizeof *ids);
        if (!ids) {
            rc = QK_EXIT_IO;
            goto out;
        }
        for (size_t r = 0; r < qk_pool_num_runs(p); r++)
            ids[r] = qk_pool_runid(p, r);
        write_json(&a, rows, ids, qk_pool_num_runs(p), tmap);
        free(ids);
    } else
        write_tsv(stdout, &a, rows);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        qk_cli_errorf(CMD, "standard output: cannot write: %s", strerror(errno));
        rc = QK_EXIT_IO;
        goto out;
    }
    if (a.plot)
        rc = plot(&a, rows, &plot_out);
out:
    qk_cli_out_abort(&plot_out);
    free(rows);
    free(tmap);
    free(group);
    qk_qrels_free(q);
    qk_pool_runs_free(p);
    qk_cli_free_runs(a.ranked, a.nruns);
    free(a.runs);
    return rc;
}
