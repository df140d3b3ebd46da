/* `qrelkit simulate topics`: the topic-selection experiment (Hosseini ch. 4;
 * qk_topics_sim does the work). Parses, reads, prints the table and draws
 * the SVG. */
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_svg.h"
#include "cli_util.h"
#include "shard_cli.h"
#include "simulate_modes.h"
#include "topics_cli.h"

#define CMD "simulate topics"

const char qk_help_simulate_topics[] =
    "usage: qrelkit simulate topics [options] --matrix MATRIX.tsv\n"
    "       qrelkit simulate topics [options] QRELS RUN RUN [RUN...]\n"
    "\n"
    "How well does a subset of topics chosen by each method rank the systems, as\n"
    "the subset grows? Each trial holds some systems out (they play the systems\n"
    "built after the collection) and lets the methods of `qrelkit topics select`\n"
    "choose from the rows of the others. For sizes 1..--max-size the systems'\n"
    "mean over the chosen topics is compared with their mean over all topics:\n"
    "Kendall's tau_a, Pearson's rho and the RMSE of MAP, for the participating\n"
    "and for the held-out systems (Hosseini 2013, EXP-4.2/4.3). Random draws\n"
    "--draws subsets per trial; its band is the 2.5-97.5 %% range of every draw's\n"
    "tau. The other methods' band is the 95 %% interval of the mean over trials.\n"
    "\n"
    "options:\n"
    "  --methods LIST    comma-separated (default random,greedy-pearson,\n"
    "                    greedy-kendall,convex):\n"
    "                    @[topics-method]\n"
    "  --max-size K      largest subset (default 50)\n"
    "  --trials N        trials (default 10; with --holdout group, 0 = one per group)\n"
    "  --draws N         random subsets per trial (default 100)\n"
    "  --holdout H       which systems each trial holds out (default group):\n"
    "                    @[topics-holdout]\n"
    "  --holdout-frac F  fraction of groups held out by --holdout fraction (0.4)\n"
    "  --groups FILE     'run group' lines (gzip or '-' read); default: a run's\n"
    "                    group is its name up to the first --group-sep character\n"
    "  --group-sep C     default '-'; 'none': every run is its own group\n"
    "  --cov C           @{topics-cov} (default qs1)\n"
    "  --qs2-top K       qs2: the K best systems (default 30)\n"
    "  --measure NAME    with QRELS and RUNs: the per-topic measure (default map)\n"
    "  --reduced-pool D  with QRELS and RUNs: each trial scores every run (for the\n"
    "                    selection and the subset means) with only the judgments\n"
    "                    the participating runs rank in their top D (100 = their\n"
    "                    pool); the reference stays all judgments (Hosseini 4.6.1)\n"
    "  --seed S          default 1\n"
    "  --spread          instead: the random-subset spread (Hosseini §4.1, Guiver et\n"
    "                    al.): per size, --draws random subsets of all systems' rows,\n"
    "                    and the best, median and worst Pearson and tau (columns\n"
    "                    size, rho_best, rho_median, rho_worst, tau_best, ...)\n"
    "  --plot FILE.svg   tau against subset size, participating and held-out\n"
    "                    panels (SVG written directly; no gnuplot needed)\n"
    "  --format F        @{format} (default tsv)\n"
    "  --precision N     decimals (default 4)\n"
    "  --budget-hours H  instead: few deep or many shallow at a fixed budget\n"
    "                    (Kutlu et al.; `qrelkit simulate topics --budget-hours 1\n"
    "                    --help`)\n"
    "  --shard I/N       trials of shard I of N only (trial t is seeded by --seed\n"
    "                    and t), as a part file for `qrelkit merge`; not with\n"
    "                    --plot or --spread (doc/scale-out.md)\n"
    "\n"
    "example:\n"
    "  qrelkit eval --matrix AP qrels.txt runs/* > ap.tsv\n"
    "  qrelkit simulate topics --matrix ap.tsv --max-size 30 --plot tau.svg > tau.tsv\n"
    "Details: doc/qrelkit-topics.md.\n";

enum {
    OPT_METHODS = 256,
    OPT_MAX,
    OPT_TRIALS,
    OPT_DRAWS,
    OPT_HOLDOUT,
    OPT_FRAC,
    OPT_GROUPS,
    OPT_SEP,
    OPT_COV,
    OPT_QS2,
    OPT_MEASURE,
    OPT_MATRIX,
    OPT_SEED,
    OPT_PLOT,
    OPT_FORMAT,
    OPT_PRECISION,
    OPT_SPREAD,
    OPT_REDUCED,
    OPT_SHARD
};

static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                         {"methods", required_argument, NULL, OPT_METHODS},
                                         {"max-size", required_argument, NULL, OPT_MAX},
                                         {"trials", required_argument, NULL, OPT_TRIALS},
                                         {"draws", required_argument, NULL, OPT_DRAWS},
                                         {"holdout", required_argument, NULL, OPT_HOLDOUT},
                                         {"holdout-frac", required_argument, NULL, OPT_FRAC},
                                         {"groups", required_argument, NULL, OPT_GROUPS},
                                         {"group-sep", required_argument, NULL, OPT_SEP},
                                         {"cov", required_argument, NULL, OPT_COV},
                                         {"qs2-top", required_argument, NULL, OPT_QS2},
                                         {"measure", required_argument, NULL, OPT_MEASURE},
                                         {"matrix", required_argument, NULL, OPT_MATRIX},
                                         {"seed", required_argument, NULL, OPT_SEED},
                                         {"plot", required_argument, NULL, OPT_PLOT},
                                         {"format", required_argument, NULL, OPT_FORMAT},
                                         {"precision", required_argument, NULL, OPT_PRECISION},
                                         {"spread", no_argument, NULL, OPT_SPREAD},
                                         {"reduced-pool", required_argument, NULL, OPT_REDUCED},
                                         {"shard", required_argument, NULL, OPT_SHARD},
                                         {NULL, 0, NULL, 0}};

static const char *method_name(qk_topics_method m)
{
    const qk_enum *e = qk_enum_by_value(qk_topics_method_table, (int)m);
    return e ? e->name : "?";
}

/* A value, or NA where no trial had two systems to compare. */
static void put(double v, int prec)
{
    if (isfinite(v))
        printf("\t%.*f", prec, v);
    else
        fputs("\tNA", stdout);
}

static void print_tsv(const qk_topics_sim_row *r, size_t n, int prec)
{
    printf("method\tsize\tsystems\ttau\ttau_lo\ttau_hi\trho\trmse\tn\n");
    for (size_t i = 0; i < n; i++) {
        printf("%s\t%zu\t%s", method_name(r[i].method), r[i].size,
               r[i].heldout ? "heldout" : "participating");
        put(r[i].tau, prec);
        put(r[i].tau_lo, prec);
        put(r[i].tau_hi, prec);
        put(r[i].rho, prec);
        put(r[i].rmse, prec);
        printf("\t%zu\n", r[i].n);
    }
}

static json_t *jreal(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static void print_json(const qk_topics_sim_row *r, size_t n, const qk_topics_sim_opts *o, int prec)
{
    json_t *root = json_object(), *arr = json_array();
    json_object_set_new(root, "trials", json_integer((json_int_t)o->trials));
    json_object_set_new(root, "draws", json_integer((json_int_t)o->random_draws));
    json_object_set_new(root, "seed", json_integer((json_int_t)o->seed));
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "method", json_string(method_name(r[i].method)));
        json_object_set_new(e, "size", json_integer((json_int_t)r[i].size));
        json_object_set_new(e, "systems", json_string(r[i].heldout ? "heldout" : "participating"));
        json_object_set_new(e, "tau", jreal(r[i].tau));
        json_object_set_new(e, "tau_lo", jreal(r[i].tau_lo));
        json_object_set_new(e, "tau_hi", jreal(r[i].tau_hi));
        json_object_set_new(e, "rho", jreal(r[i].rho));
        json_object_set_new(e, "rmse", jreal(r[i].rmse));
        json_object_set_new(e, "n", json_integer((json_int_t)r[i].n));
        json_array_append_new(arr, e);
    }
    json_object_set_new(root, "rows", arr);
    json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(prec + 1));
    putchar('\n');
    json_decref(root);
}

static void print_spread(const qk_topics_spread_row *r, size_t n, int json, int prec)
{
    static const char *const cols[6] = {"rho_best", "rho_median", "rho_worst",
                                        "tau_best", "tau_median", "tau_worst"};
    json_t *root = json ? json_array() : NULL;
    if (!json)
        printf("size\t%s\t%s\t%s\t%s\t%s\t%s\n", cols[0], cols[1], cols[2], cols[3], cols[4], cols[5]);
    for (size_t i = 0; i < n; i++) {
        double v[6] = {r[i].rho_best, r[i].rho_median, r[i].rho_worst,
                       r[i].tau_best, r[i].tau_median, r[i].tau_worst};
        json_t *e = json ? json_object() : NULL;
        if (json)
            json_object_set_new(e, "size", json_integer((json_int_t)r[i].size));
        else
            printf("%zu", r[i].size);
        for (int k = 0; k < 6; k++) {
            if (json)
                json_object_set_new(e, cols[k], jreal(v[k]));
            else
                put(v[k], prec);
        }
        if (json)
            json_array_append_new(root, e);
        else
            putchar('\n');
    }
    if (json) {
        json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(prec + 1));
        putchar('\n');
        json_decref(root);
    }
}

/* Two panels (participating, held-out) of tau against size. */
static void draw(FILE *f, const qk_topics_sim_row *r, size_t n, const qk_topics_sim_opts *o)
{
    size_t per = n / (o->nmethods ? o->nmethods : 1) / 2;
    double *buf = malloc(4 * (per ? per : 1) * o->nmethods * 2 * sizeof *buf);
    qk_svg_series s[16];
    size_t ns = o->nmethods < 16 ? o->nmethods : 16;
    if (!buf)
        return;
    qk_svg_begin(f, 1100, 440);
    for (int h = 0; h < 2; h++) {
        for (size_t k = 0; k < ns; k++) {
            double *b = buf + (k * 2 + (size_t)h) * 4 * per;
            for (size_t i = 0; i < per; i++) {
                const qk_topics_sim_row *row = &r[k * per * 2 + i * 2 + (size_t)h];
                b[i] = (double)row->size;
                b[per + i] = row->tau;
                b[2 * per + i] = row->tau_lo;
                b[3 * per + i] = row->tau_hi;
            }
            s[k].name = method_name(o->methods[k]);
            s[k].x = b;
            s[k].y = b + per;
            s[k].lo = o->methods[k] == QK_TOPICS_RANDOM ? b + 2 * per : NULL;
            s[k].hi = o->methods[k] == QK_TOPICS_RANDOM ? b + 3 * per : NULL;
            s[k].n = per;
        }
        qk_svg_panel(f, h * 550.0, 0, 550, 440, h ? "held-out systems" : "participating systems",
                     "topics chosen", "Kendall tau (mean over trials)", s, ns, NAN, 1.0);
    }
    qk_svg_end(f);
    free(buf);
}

typedef struct {
    qk_topics_sim_opts o;
    qk_topics_method methods[16];
    int json, spread, shard_on;
    const char *matrix, *measure, *groups, *plot;
    char sep; /* --group-sep (0: none) */
    long reduced, prec;
    qk_shard_spec shard;
} targs;

/* The options into a (the operands start at optind); 0, or the exit code. */
static int parse(int argc, char **argv, targs *a)
{
    int mv[16], c, rc, holdout = QK_TOPICS_HOLD_GROUP, cov = 0;
    size_t nm;
    memset(a, 0, sizeof *a);
    a->methods[0] = QK_TOPICS_RANDOM;
    a->methods[1] = QK_TOPICS_GREEDY_PEARSON;
    a->methods[2] = QK_TOPICS_GREEDY_KENDALL;
    a->methods[3] = QK_TOPICS_CONVEX;
    a->measure = "map";
    a->sep = '-';
    a->prec = 4;
    qk_topics_sim_opts_init(&a->o);
    a->o.methods = a->methods;
    a->o.nmethods = 4;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_simulate_topics);
        case OPT_METHODS:
            if ((rc = qk_cli_enum_list(CMD, qk_topics_method_table, "--methods", optarg, mv, 16, &nm)))
                return rc;
            for (size_t i = 0; i < nm; i++)
                a->methods[i] = (qk_topics_method)mv[i];
            a->o.nmethods = nm;
            break;
        case OPT_MAX:
            if ((rc = qk_cli_size(CMD, "--max-size", optarg, 1, SIZE_MAX, &a->o.max_size)))
                return rc;
            break;
        case OPT_TRIALS:
            if ((rc = qk_cli_size(CMD, "--trials", optarg, 0, SIZE_MAX, &a->o.trials)))
                return rc;
            break;
        case OPT_DRAWS:
            if ((rc = qk_cli_size(CMD, "--draws", optarg, 1, SIZE_MAX, &a->o.random_draws)))
                return rc;
            break;
        case OPT_HOLDOUT:
            if ((rc = qk_cli_enum(CMD, qk_topics_holdout_table, "--holdout", optarg, &holdout)))
                return rc;
            a->o.holdout = (qk_topics_holdout)holdout;
            break;
        case OPT_FRAC:
            if ((rc = qk_cli_double(CMD, "--holdout-frac", optarg, 0, 1, QK_NUM_LO_OPEN | QK_NUM_HI_OPEN,
                                    &a->o.holdout_frac)))
                return rc;
            break;
        case OPT_GROUPS: a->groups = optarg; break;
        case OPT_SEP:
            if ((rc = qk_cli_group_sep(CMD, optarg, &a->sep)))
                return rc;
            break;
        case OPT_COV:
            if ((rc = qk_cli_enum(CMD, qk_topics_cov_table, "--cov", optarg, &cov)))
                return rc;
            a->o.cov = (qk_topics_covkind)cov;
            break;
        case OPT_QS2:
            if ((rc = qk_cli_size(CMD, "--qs2-top", optarg, 2, SIZE_MAX, &a->o.qs2_top)))
                return rc;
            break;
        case OPT_MEASURE: a->measure = optarg; break;
        case OPT_MATRIX: a->matrix = optarg; break;
        case OPT_SEED:
            if ((rc = qk_cli_seed(CMD, "--seed", optarg, &a->o.seed)))
                return rc;
            break;
        case OPT_PLOT: a->plot = optarg; break;
        case OPT_SPREAD: a->spread = 1; break;
        case OPT_REDUCED:
            if ((rc = qk_cli_long(CMD, "--reduced-pool", optarg, 1, LONG_MAX, &a->reduced)))
                return rc;
            break;
        case OPT_FORMAT:
            if ((rc = qk_cli_format_tsv_json(CMD, optarg, &a->json)))
                return rc;
            break;
        case OPT_PRECISION:
            if ((rc = qk_cli_long(CMD, "--precision", optarg, 0, 16, &a->prec)))
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
    if (a->matrix && argc - optind > 0)
        return qk_cli_usage(CMD, "give either --matrix or QRELS and RUNs, not both");
    if (!a->matrix && argc - optind < 3)
        return qk_cli_usage(CMD, "needs --matrix FILE or QRELS and at least two RUNs");
    if ((rc = qk_cli_no_stdout(CMD, "--plot", a->plot, "carries the table; give a file name")))
        return rc;
    if (a->spread && a->plot)
        return qk_cli_usage(CMD, "--plot draws the selection experiment, not --spread");
    if (a->reduced && (a->matrix || a->spread))
        return qk_cli_usage(CMD, "--reduced-pool needs QRELS and RUNs (not --matrix or --spread)");
    if (a->shard_on && (a->plot || a->spread))
        return qk_cli_usage(CMD, "%s does not combine with --shard (%s)", a->plot ? "--plot" : "--spread",
                            a->plot ? "plot the merged table with a plain run" : "it has no trials");
    return -1;
}

/* --shard: this shard's trials as a part; the prologue holds the topic
 * count (the merge reads no input). */
static int write_part(const targs *a, const qk_topic_matrix *m, int argc, char **argv)
{
    qk_error err = {0};
    qk_shard_part *part = NULL;
    int nops = argc - optind;
    size_t nin = a->matrix ? 2 : (size_t)nops + 1, first, end, n = qk_topics_sim_num_trials(m, &a->o), plen = 0;
    const char **ins = calloc(nin, sizeof *ins);
    char **rec = NULL, *pro = NULL;
    int rc;
    if (!ins)
        return QK_EXIT_IO;
    ins[0] = a->groups;
    if (a->matrix)
        ins[1] = a->matrix;
    else
        memcpy(ins + 1, argv + optind, (size_t)nops * sizeof *ins);
    rc = qk_cli_shard_open(CMD, "simulate-topics", a->shard, n, a->o.seed, argc, argv, ins, nin, &part,
                           &first, &end);
    free(ins);
    if (rc)
        return rc;
    if (qk_topics_sim_trials(m, &a->o, first, end, &rec, &err) != QK_OK ||
        qk_shard_counts_format("topics-sim", &m->ntopics, 1, &pro, &plen, &err) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
    rc = qk_cli_shard_commit(CMD, part, rc, pro, plen, rec, first, end);
    free(pro);
    return rc;
}

int qk_simulate_topics_merge(const qk_shard_part *m)
{
    targs a;
    qk_error err = {0};
    int argc, rc;
    char **argv = qk_cli_shard_argv(m, "topics", &argc);
    const char **recs = NULL, *pro;
    size_t ntopics, nrows = 0, n = qk_shard_part_num_items(m);
    qk_topics_sim_row *rows = NULL;
    if (!argv)
        return QK_EXIT_IO;
    rc = parse(argc, argv, &a);
    if (rc == -1)
        rc = 0;
    else if (rc)
        rc = QK_EXIT_INPUT;
    pro = qk_shard_part_prologue(m, NULL);
    if (!rc && qk_shard_counts_parse(&pro, "topics-sim", &ntopics, 1) != 0) {
        qk_cli_errorf("merge", "the parts' header of simulate topics is malformed");
        rc = QK_EXIT_INPUT;
    }
    if (!rc && !(recs = calloc(n + 1, sizeof *recs)))
        rc = QK_EXIT_IO;
    for (size_t k = 0; !rc && k < qk_shard_part_num_held(m); k++)
        recs[k] = qk_shard_part_item(m, k, NULL, NULL);
    if (!rc && qk_topics_sim_combine(&a.o, ntopics, recs, n, &rows, &nrows, &err) != QK_OK)
        rc = qk_cli_fail("merge", &err);
    if (!rc) {
        if (a.json)
            print_json(rows, nrows, &a.o, (int)a.prec);
        else
            print_tsv(rows, nrows, (int)a.prec);
        rc = qk_cli_flush_stdout("merge");
    }
    free(rows);
    free(recs);
    free(argv);
    return rc;
}

int qk_simulate_topics(int argc, char **argv)
{
    targs a;
    int rc, nops;
    qk_topic_matrix *m = NULL;
    qk_topics_sim_row *rows = NULL;
    qk_qrels *rq = NULL;
    qk_run **runs = NULL;
    qk_topics_reduced red;
    size_t nrows = 0, *group = NULL;

    qk_cli_out po = {0};
    qk_error err;
    for (int i = 1; i < argc; i++) /* Kutlu's fixed-budget experiment has its own parser */
        if (strncmp(argv[i], "--budget-hours", 14) == 0)
            return qk_simulate_topics_budget(argc, argv);
    if ((rc = parse(argc, argv, &a)) != -1)
        return rc;
    nops = argc - optind;
    if (a.reduced) {
        if (qk_qrels_read(argv[optind], QK_REL_QRELS, QK_DEDUP_ERROR, &rq, &err) != QK_OK ||
            qk_cli_read_runs((const char *const *)argv + optind + 1, (size_t)nops - 1, QK_CLI_NAME_BASE,
                             &runs, &err) != QK_OK ||
            qk_topics_matrix_from_eval(rq, (const qk_run *const *)runs, (size_t)nops - 1, a.measure, &m,
                                       &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        red = (qk_topics_reduced){rq, (const qk_run *const *)runs, m, a.measure, a.reduced};
        a.o.trial_matrix = qk_topics_reduced_trial;
        a.o.trial_ctx = &red;
    } else if (qk_topics_cli_input(a.matrix, a.measure, argv + optind, nops, &m, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (a.spread) {
        qk_topics_spread_row *sr = NULL;
        size_t ns = 0;
        if (qk_topics_spread(m, a.o.max_size, a.o.random_draws, a.o.seed, &sr, &ns, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        print_spread(sr, ns, a.json, (int)a.prec);
        free(sr);
        rc = QK_EXIT_OK;
        goto out;
    }
    if (!(group = malloc(m->nsys * sizeof *group))) {
        rc = QK_EXIT_IO;
        goto out;
    }
    if ((rc = qk_cli_run_groups(CMD, a.groups, (const char *const *)m->systems, m->nsys, a.sep, group, NULL)))
        goto out;
    a.o.group = group;
    if (a.shard_on) {
        rc = write_part(&a, m, argc, argv);
        goto out;
    }
    if (a.plot && (rc = qk_cli_out_open(CMD, &po, a.plot)))
        goto out;
    if (qk_topics_sim(m, &a.o, &rows, &nrows, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (a.json)
        print_json(rows, nrows, &a.o, (int)a.prec);
    else
        print_tsv(rows, nrows, (int)a.prec);
    if (a.plot) {
        draw(po.f, rows, nrows, &a.o);
        rc = qk_cli_out_commit(CMD, &po);
    }
out:
    if (a.plot && rc)
        qk_cli_out_abort(&po);
    free(rows);
    free(group);
    qk_topics_matrix_free(m);
    qk_cli_free_runs(runs, runs ? (size_t)nops - 1 : 0);
    qk_qrels_free(rq);
    return rc;
}
