/* qrelkit simulate crowd: write a simulated crowd, or compare the
 * aggregation methods on many of them (qk_crowd_simulate in crowd.h). */
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_tables.h"
#include "cli_util.h"
#include "qrelkit/crowd.h"
#include "qrelkit/sim.h"
#include "shard_cli.h"
#include "simulate_modes.h"

const char qk_help_simulate_crowd[] =
    "usage: qrelkit simulate crowd --out DIR [options]\n"
    "       qrelkit simulate crowd --curve L1,L2,... [--reps N] [--methods LIST] [options]\n"
    "\n"
    "Simulate crowd workers labelling tasks whose true label is known. With --out,\n"
    "write the data set (DIR/labels.tsv, gold.tsv, workers.tsv, and features.tsv\n"
    "for the gaussian model) for `qrelkit aggregate`. With --curve, run every\n"
    "method on --reps fresh crowds per labels-per-task value and print a TSV of\n"
    "mean accuracy against the truth with a 95% interval: how many labels per\n"
    "document a budget needs, and which method makes the most of them.\n"
    "\n"
    "worker models (--model):\n"
    "  accuracy   (default; Hosseini ch. 8) worker j is right with probability a_j ~\n"
    "             Beta(c*m, c*(1-m)) (--accuracy m, --concentration c, default\n"
    "             0.7 and 10) or uniform in --accuracy-range LO,HI; wrong answers\n"
    "             are uniform over the other classes; --spammers F of the workers\n"
    "             answer at random; workers are picked uniformly\n"
    "  gaussian   (Li ch. 4, Algorithm 10; binary) 2-D task features, task noise =\n"
    "             distance to its class mean, worker noise ~ U(--noise LO,HI),\n"
    "             workers picked with P(j) ~ j^-1.5, label = [N(y, noise) > 0]\n"
    "\n"
    "options:\n"
    "  --out DIR              write the data set to DIR (created when missing)\n"
    "  --tasks N              tasks (default 1000)\n"
    "  --workers N            workers (default 100)\n"
    "  --labels-per-task L    labels per task; fractions allowed (default 5)\n"
    "  --classes K            classes 0..K-1 (default 2)\n"
    "  --p-relevant P         binary: share of tasks whose truth is 1 (default 0.5)\n"
    "  --accuracy M           mean worker accuracy (Beta model, default 0.7)\n"
    "  --concentration C      Beta concentration a+b (default 10)\n"
    "  --accuracy-range LO,HI uniform worker accuracies instead of Beta\n"
    "  --spammers F           share of workers answering at random (default 0)\n"
    "  --model NAME           @{crowd-sim-model} (default accuracy)\n"
    "  --noise LO,HI          gaussian worker-noise interval (default 0,2)\n"
    "  --curve L1,L2,...      labels-per-task values to compare methods on\n"
    "  --reps N               crowds per value (default 10)\n"
    "  --methods LIST         methods to compare, from @{crowd-method}\n"
    "                         (default mv,ds,onecoin,glad,mace; magp uses the\n"
    "                         gaussian model's features)\n"
    "  --seed N               random seed (default 42)\n"
    "  --shard I/N            --curve: the crowds of shard I of N only (crowd r of\n"
    "                         value c is seeded S + 1000003c + r), as a part file\n"
    "                         for 'qrelkit merge'\n"
    "  --quiet                no progress on stderr (--curve counts the crowds\n"
    "                         done there when it is a terminal)\n"
    "  -h, --help             show this text\n"
    "\n"
    "examples:\n"
    "  qrelkit simulate crowd --out crowd --tasks 2000 --labels-per-task 3 --spammers 0.2\n"
    "  qrelkit aggregate -m ds crowd/labels.tsv --gold crowd/gold.tsv\n"
    "  qrelkit simulate crowd --curve 1,2,3,5,7,10 --accuracy 0.6 --reps 20\n";

#define CMD "simulate crowd"

/* LO,HI: two strict numbers. */
static int parse_pair(const char *opt, const char *s, double *lo, double *hi)
{
    double v[2];
    size_t n;
    int rc = qk_cli_double_list(CMD, opt, s, -INFINITY, INFINITY, 0, v, 2, &n);
    if (!rc && n != 2)
        return qk_cli_usage(CMD, "%s: '%s' is not LO,HI", opt, s);
    *lo = v[0];
    *hi = v[1];
    return rc;
}

/* Side files (workers, features): to NAME.tmp, renamed when complete. */
static FILE *open_tmp(const char *dir, const char *name, char *tmp, char *final, size_t n)
{
    snprintf(final, n, "%s/%s", dir, name);
    snprintf(tmp, n, "%s/%s.tmp", dir, name);
    return fopen(tmp, "w");
}

static int close_tmp(FILE *f, const char *tmp, const char *final)
{
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, final) != 0) {
        remove(tmp);
        qk_cli_errorf(CMD, "'%s': cannot write", final);
        return QK_EXIT_IO;
    }
    return QK_EXIT_OK;
}

static qk_status write_labels(void *ctx, FILE *f, qk_error *err)
{
    const qk_crowd_sim *s = ctx;
    return qk_crowd_write_labels(s->labels, f, err);
}

static qk_status write_gold(void *ctx, FILE *f, qk_error *err)
{
    const qk_crowd_sim *s = ctx;
    return qk_crowd_write_classes(s->labels, s->truth, f, err);
}

static int write_set(const char *dir, const qk_crowd_sim *s, const qk_crowd_sim_opts *o)
{
    char tmp[4096], path[4096];
    FILE *f;
    int rc;
    const qk_crowd_labels *L = s->labels;
    struct stat sb;
    if (mkdir(dir, 0777) != 0 && !(stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))) {
        qk_cli_errorf(CMD, "'%s': cannot create directory", dir);
        return QK_EXIT_IO;
    }
    snprintf(path, sizeof path, "%s/labels.tsv", dir);
    if ((rc = qk_cli_write_file(CMD, path, write_labels, (void *)s)) != 0)
        return rc;
    snprintf(path, sizeof path, "%s/gold.tsv", dir);
    if ((rc = qk_cli_write_file(CMD, path, write_gold, (void *)s)) != 0)
        return rc;
    if (!(f = open_tmp(dir, "workers.tsv", tmp, path, sizeof path))) {
        qk_cli_errorf(CMD, "'%s': cannot create", tmp);
        return QK_EXIT_IO;
    }
    fprintf(f, "worker\t%s\tspammer\n", o->model == QK_CROWD_SIM_GAUSSIAN ? "noise" : "accuracy");
    for (size_t w = 0; w < qk_crowd_num_workers(L); w++)
        fprintf(f, "%s\t%.6f\t%d\n", qk_crowd_worker_name(L, w), s->worker_acc[w], s->spammer[w]);
    if (close_tmp(f, tmp, path) != QK_EXIT_OK)
        return QK_EXIT_IO;
    if (!s->x)
        return QK_EXIT_OK;
    if (!(f = open_tmp(dir, "features.tsv", tmp, path, sizeof path))) {
        qk_cli_errorf(CMD, "'%s': cannot create", tmp);
        return QK_EXIT_IO;
    }
    fputs("task\tx1\tx2\n", f);
    for (size_t t = 0; t < qk_crowd_num_tasks(L); t++)
        fprintf(f, "%s\t%.6f\t%.6f\n", qk_crowd_task_name(L, t), s->x[2 * t], s->x[2 * t + 1]);
    return close_tmp(f, tmp, path);
}

/* Crowd (c, r) of the curve: the accuracy of every method on it, acc[m].
 * Its seed depends on the master seed, c and r only (so --shard can split
 * the crowds). 0 or an exit code. */
static int curve_crowd(const qk_crowd_sim_opts *o, const double *curve, size_t c, long r,
                       const qk_crowd_method *methods, size_t nmethods, double *acc)
{
    qk_error err = {0};
    qk_crowd_sim *s = NULL;
    qk_crowd_sim_opts so = *o;
    so.labels_per_task = curve[c];
    /* One crowd per (value, repetition), shared by all methods. */
    so.seed = o->seed + 1000003ULL * (uint64_t)c + (uint64_t)r;
    if (qk_crowd_simulate(&so, &s, &err) != QK_OK)
        return qk_cli_fail(CMD, &err);
    for (size_t m = 0; m < nmethods; m++) {
        qk_crowd_opts ao;
        qk_crowd_result *res = NULL;
        qk_crowd_score sc;
        qk_crowd_opts_init(&ao);
        ao.method = methods[m];
        ao.tie = QK_CROWD_TIE_RANDOM;
        ao.seed = so.seed;
        /* MAGP sees the task features of the gaussian model (raw,
         * as in the thesis' synthetic runs); no topics here. */
        ao.features = s->x;
        ao.n_features = s->x ? 2 : 0;
        ao.block_by_topic = 0;
        ao.skip_worker_reports = 1; /* only the task labels are scored */
        if (qk_crowd_aggregate(s->labels, &ao, &res, &err) != QK_OK ||
            qk_crowd_score_gold(res, s->truth, res->n_classes - 1, &sc, &err) != QK_OK) {
            qk_crowd_result_free(res);
            qk_crowd_sim_free(s);
            return qk_cli_fail(CMD, &err);
        }
        acc[m] = sc.accuracy;
        qk_crowd_result_free(res);
    }
    qk_crowd_sim_free(s);
    return QK_EXIT_OK;
}

/* The rows of value c from its reps crowds' accuracies acc[r * nmethods + m]. */
static void curve_rows(double value, const double *acc, long reps, const qk_crowd_method *methods,
                       size_t nmethods)
{
    for (size_t m = 0; m < nmethods; m++) {
        double sum = 0, sum2 = 0, mean, var, ci;
        for (long r = 0; r < reps; r++) {
            double x = acc[(size_t)r * nmethods + m];
            sum += x;
            sum2 += x * x;
        }
        mean = sum / (double)reps;
        var = reps > 1 ? (sum2 - reps * mean * mean) / (double)(reps - 1) : 0;
        ci = reps > 1 ? 1.96 * sqrt(var > 0 ? var : 0) / sqrt((double)reps) : NAN;
        printf("%g\t%s\t%.4f\t%.4f\t%ld\n", value, qk_crowd_method_name(methods[m]), mean, ci, reps);
    }
}

static const char curve_header[] = "labels_per_task\tmethod\taccuracy\tci95\treps\n";

/* Accuracy of each method per labels-per-task value, over reps crowds. */
static int run_curve(qk_crowd_sim_opts *o, const double *curve, size_t ncurve, long reps,
                     const qk_crowd_method *methods, size_t nmethods, int quiet)
{
    qk_cli_progress pr;
    double *acc = malloc((size_t)reps * nmethods * sizeof *acc);
    int rc = 0;
    if (!acc)
        return QK_EXIT_IO;
    qk_cli_progress_init(&pr, CMD, "crowds", quiet);
    fputs(curve_header, stdout);
    for (size_t c = 0; !rc && c < ncurve; c++) {
        for (long r = 0; !rc && r < reps; r++) {
            rc = curve_crowd(o, curve, c, r, methods, nmethods, acc + (size_t)r * nmethods);
            qk_cli_progress_step(&pr, c * (size_t)reps + (size_t)r + 1, ncurve * (size_t)reps);
        }
        if (!rc)
            curve_rows(curve[c], acc, reps, methods, nmethods);
    }
    free(acc);
    return rc;
}

/* --shard I/N of --curve: the crowds are the items, crowd c * reps + r being
 * repetition r of value c; an item is the record of each method's accuracy
 * (exact: qk_shard_part_add_record), and the merge sums them in the
 * unsharded order. */
static int write_curve_part(const qk_crowd_sim_opts *o, const double *curve, size_t ncurve, long reps,
                            const qk_crowd_method *methods, size_t nmethods, qk_shard_spec sh, int argc,
                            char **argv)
{
    qk_shard_part *part = NULL;
    qk_error err = {0};
    size_t n = ncurve * (size_t)reps, first, end;
    double acc[8] = {0};
    int rc =
        qk_cli_shard_open(CMD, "simulate-crowd", sh, n, o->seed, argc, argv, NULL, 0, &part, &first, &end);
    if (rc)
        return rc;
    for (size_t k = first; !rc && k < end; k++) {
        if ((rc = curve_crowd(o, curve, k / (size_t)reps, (long)(k % (size_t)reps), methods, nmethods, acc)))
            break;
        if (qk_shard_part_add_record(part, k, acc, nmethods, &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
    }
    return qk_cli_shard_commit(CMD, part, rc, NULL, 0, NULL, first, end);
}

static int parse_methods(const char *s, qk_crowd_method *m, size_t *n)
{
    int v[8];
    int rc = qk_cli_enum_list(CMD, qk_crowd_method_table, "--methods", s, v, 8, n);
    for (size_t i = 0; !rc && i < *n; i++)
        m[i] = (qk_crowd_method)v[i];
    return rc;
}

enum {
    O_OUT = 256, O_TASKS, O_WORKERS, O_LPT, O_CLASSES, O_PREL, O_ACC, O_CONC, O_RANGE, O_SPAM, O_MODEL,
    O_NOISE, O_CURVE, O_REPS, O_METHODS, O_SEED, O_QUIET, O_SHARD
};

typedef struct crowd_args {
    qk_crowd_sim_opts o;
    qk_crowd_method methods[8];
    size_t nmethods, ncurve;
    double curve[256];
    const char *out;
    long reps;
    int quiet, shard_on;
    qk_shard_spec shard;
} crowd_args;

#define F(f) offsetof(crowd_args, f)
static const qk_cli_opt value_opts[] = {
    {O_TASKS, "--tasks", 'z', F(o.tasks), NULL, 1, 1e8, 0},
    {O_WORKERS, "--workers", 'z', F(o.workers), NULL, 1, 1e8, 0},
    {O_CLASSES, "--classes", 'z', F(o.classes), NULL, 1, 1e8, 0},
    {O_REPS, "--reps", 'l', F(reps), NULL, 1, 1e8, 0},
    {O_LPT, "--labels-per-task", 'd', F(o.labels_per_task), NULL, -INFINITY, INFINITY, 0},
    {O_PREL, "--p-relevant", 'd', F(o.p_relevant), NULL, -INFINITY, INFINITY, 0},
    {O_CONC, "--concentration", 'd', F(o.concentration), NULL, -INFINITY, INFINITY, 0},
    {O_SPAM, "--spammers", 'd', F(o.spam_fraction), NULL, -INFINITY, INFINITY, 0},
    {O_MODEL, "--model", 'e', F(o.model), qk_crowd_sim_model_table, 0, 0, 0},
    {O_SEED, "--seed", 's', F(o.seed), NULL, 0, 0, 0},
    {0, NULL, 0, 0, NULL, 0, 0, 0},
};
#undef F

/* Returns -1 to go on, otherwise the exit code (0 after --help). */
static int parse_args(int argc, char **argv, crowd_args *a)
{
    static const struct option lo[] = {{"out", 1, 0, O_OUT},
                                       {"tasks", 1, 0, O_TASKS},
                                       {"workers", 1, 0, O_WORKERS},
                                       {"labels-per-task", 1, 0, O_LPT},
                                       {"classes", 1, 0, O_CLASSES},
                                       {"p-relevant", 1, 0, O_PREL},
                                       {"accuracy", 1, 0, O_ACC},
                                       {"concentration", 1, 0, O_CONC},
                                       {"accuracy-range", 1, 0, O_RANGE},
                                       {"spammers", 1, 0, O_SPAM},
                                       {"model", 1, 0, O_MODEL},
                                       {"noise", 1, 0, O_NOISE},
                                       {"curve", 1, 0, O_CURVE},
                                       {"reps", 1, 0, O_REPS},
                                       {"methods", 1, 0, O_METHODS},
                                       {"seed", 1, 0, O_SEED},
                                       {"quiet", 0, 0, O_QUIET},
                                       {"shard", 1, 0, O_SHARD},
                                       {"help", 0, 0, 'h'},
                                       {0, 0, 0, 0}};
    int ch, rc = 0;
    optind = 1;
    while (rc == 0 && (ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        const char *s = optarg;
        if ((rc = qk_cli_set(CMD, value_opts, ch, s, a)) >= 0)
            continue;
        rc = 0;
        switch (ch) {
        case 'h': return qk_cli_help(qk_help_simulate_crowd);
        case O_OUT: a->out = s; break;
        case O_QUIET: a->quiet = 1; break;
        case O_SHARD:
            rc = qk_cli_shard_parse(CMD, s, &a->shard);
            a->shard_on = 1;
            break;
        case O_ACC:
            rc = qk_cli_double(CMD, "--accuracy", s, -INFINITY, INFINITY, 0, &a->o.acc_mean);
            a->o.acc_lo = a->o.acc_hi = -1;
            break;
        case O_RANGE: rc = parse_pair("--accuracy-range", s, &a->o.acc_lo, &a->o.acc_hi); break;
        case O_NOISE: rc = parse_pair("--noise", s, &a->o.noise_lo, &a->o.noise_hi); break;
        case O_CURVE:
            rc = qk_cli_double_list(CMD, "--curve", s, -INFINITY, INFINITY, 0, a->curve, 256, &a->ncurve);
            break;
        case O_METHODS: rc = parse_methods(s, a->methods, &a->nmethods); break;
        default: rc = qk_cli_usage(CMD, "unknown option; see 'qrelkit simulate crowd --help'");
        }
    }
    if (rc)
        return rc;
    if (optind != argc || (!a->out && !a->ncurve))
        return qk_cli_usage(CMD,
                            optind != argc ? "unexpected operand '%s'" : "need --out DIR or --curve LIST%s",
                            optind != argc ? argv[optind] : "");
    if (a->shard_on && !a->ncurve)
        return qk_cli_usage(CMD, "--shard splits --curve only (by crowd)");
    if (!a->ncurve &&
        (rc = qk_cli_no_stdout(CMD, "--out", a->out, "cannot take a directory; give a directory name")) != 0)
        return rc;
    return -1;
}

static void crowd_defaults(crowd_args *a)
{
    memset(a, 0, sizeof *a);
    qk_crowd_sim_opts_init(&a->o);
    a->reps = 10;
    a->nmethods = 5;
    a->methods[0] = QK_CROWD_MV;
    a->methods[1] = QK_CROWD_DS;
    a->methods[2] = QK_CROWD_ONECOIN;
    a->methods[3] = QK_CROWD_GLAD;
    a->methods[4] = QK_CROWD_MACE;
}

int qk_simulate_crowd_merge(const qk_shard_part *m)
{
    static crowd_args a;
    qk_error err = {0};
    int argc, rc;
    char **argv = NULL;
    double *acc = NULL;
    if (qk_shard_part_argv(m, "crowd", &argc, &argv, &err) != QK_OK)
        return qk_cli_fail("merge", &err);
    crowd_defaults(&a);
    rc = parse_args(argc, argv, &a);
    free(argv);
    if (rc >= 0)
        return rc ? rc : QK_EXIT_INPUT;
    if (!a.ncurve || qk_shard_part_num_items(m) != a.ncurve * (size_t)a.reps) {
        qk_cli_errorf("merge", "the parts of simulate crowd are malformed");
        return QK_EXIT_INPUT;
    }
    if (qk_shard_part_records(m, a.nmethods, &acc, &err) != QK_OK)
        return qk_cli_fail("merge", &err);
    fputs(curve_header, stdout);
    for (size_t c = 0; c < a.ncurve; c++)
        curve_rows(a.curve[c], acc + c * (size_t)a.reps * a.nmethods, a.reps, a.methods, a.nmethods);
    free(acc);
    return qk_cli_flush_stdout("merge");
}

int qk_simulate_crowd(int argc, char **argv)
{
    static crowd_args a; /* the curve list is large for the stack */
    int rc;
    crowd_defaults(&a);
    if ((rc = parse_args(argc, argv, &a)) >= 0)
        return rc;
    if (a.shard_on)
        return write_curve_part(&a.o, a.curve, a.ncurve, a.reps, a.methods, a.nmethods, a.shard, argc, argv);
    if (a.ncurve)
        return run_curve(&a.o, a.curve, a.ncurve, a.reps, a.methods, a.nmethods, a.quiet);
    {
        qk_crowd_sim *s = NULL;
        qk_error err = {0};
        if (qk_crowd_simulate(&a.o, &s, &err) != QK_OK)
            return qk_cli_fail(CMD, &err);
        rc = write_set(a.out, s, &a.o);
        qk_crowd_sim_free(s);
    }
    return rc;
}
