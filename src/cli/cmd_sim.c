/* qrelkit sim: synthetic collections (qk_sim_* in sim.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_tables.h"
#include "cli_util.h"

const char qk_help_sim[] =
    "usage: qrelkit sim collection --out DIR [options]\n"
    "\n"
    "Generate a seeded synthetic test collection: topics, graded qrels, and runs\n"
    "whose true quality is known. Use it to check that a measure, a pooling\n"
    "strategy or a significance test recovers the known order of the runs, or to\n"
    "make benchmark inputs of any size. The same options and seed give\n"
    "byte-identical files on every machine.\n"
    "\n"
    "options:\n"
    "  --out DIR            output directory, created when missing (required)\n"
    "  --topics N           number of topics (default 50)\n"
    "  --docs-per-topic N   candidate documents per topic, i.e. the pool (default 1000)\n"
    "  --depth N            documents each run retrieves per topic (default 100)\n"
    "  --runs N             number of runs; 0 writes qrels and topics only (default 12)\n"
    "  --levels N           highest relevance grade, also written 0..N (default 2)\n"
    "  --rel-rate P         probability that a candidate is relevant (default 0.1)\n"
    "  --qrels-fraction F   fraction of candidates judged in the qrels; the rest\n"
    "                       are unjudged, as in a real pool (default 1)\n"
    "  --run-quality MODE   how run qualities are set:\n"
    "                       @[sim-quality]\n"
    "                       or a list Q1,Q2,... with one quality in (0, 1) per run\n"
    "  --seed N             random seed (default 42)\n"
    "  --quiet              no progress report on stderr\n"
    "  -h, --help           show this text\n"
    "\n"
    "model:\n"
    "  Each topic has a difficulty d in [0, 0.8]. Each candidate is relevant with\n"
    "  probability P; a relevant one climbs each further grade with probability\n"
    "  1/2, up to N (every topic gets at least one relevant candidate). A run of\n"
    "  quality q scores every candidate\n"
    "      score = 4 * q * (1 - d) * grade / N + noise,   noise ~ Normal(0, 1)\n"
    "  and retrieves the best `depth` of them. Higher q: better runs; higher d:\n"
    "  harder topics, where all runs do worse.\n"
    "\n"
    "files written to DIR (each under a temporary name, renamed when complete):\n"
    "  qrels.txt          qid 0 docno grade          e.g. T001 0 D001-0042 2\n"
    "  runs/runNN.run     qid Q0 docno rank score runNN, best first, no ties\n"
    "  topics.tsv         qid, difficulty, relevant candidates, judged candidates\n"
    "  manifest.json      the options, the seed and each run's true quality\n"
    "Data are written while they are generated, so memory stays proportional to\n"
    "one topic however large the collection.\n"
    "\n"
    "examples:\n"
    "  qrelkit sim collection --out demo --topics 25 --runs 12 --seed 7\n"
    "  qrelkit eval -m AP -m nDCG@10 demo/qrels.txt demo/runs/*.run\n"
    "  qrelkit sim collection --out big --topics 5000 --docs-per-topic 1500 \\\n"
    "      --depth 1000 --qrels-fraction 0.2 --runs 1\n"
    "\n"
    "exit status: 0 ok, 1 bad option, 3 cannot write or out of memory.\n";

#define CMD "sim"

/* Value of --name VALUE or --name=VALUE at argv[*i]; NULL when argv[*i] is
 * another option. Sets *missing when the value is absent. */
static const char *option_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

static int parse_count(const char *opt, const char *s, long *out)
{
    return qk_cli_long(CMD, opt, s, LONG_MIN, LONG_MAX, out);
}

static int parse_real(const char *opt, const char *s, double *out)
{
    return qk_cli_double(CMD, opt, s, -INFINITY, INFINITY, 0, out);
}

static int parse_levels(const char *s, int *out)
{
    long v;
    /* "0..2" says the same as "2", in the notation of the grade range. */
    const char *n = strncmp(s, "0..", 3) == 0 ? s + 3 : s;
    if (!qk_num_is_integer(n, strlen(n)) || qk_num_long(NULL, n, 1, 9, &v, NULL) != QK_OK)
        return qk_cli_usage(CMD, "--levels: '%s' is not a grade between 1 and 9 (or 0..N)", s);
    *out = (int)v;
    return 0;
}


/* spread, random, or a comma-separated list (stored in *list, caller frees). */
static int parse_quality(const char *s, qk_sim_collection_opts *o, double **list, long *count)
{
    const qk_enum *e = qk_enum_find(qk_sim_quality_table, s);
    size_t n = 1, got;
    int rc;
    if (e) {
        o->quality_mode = (qk_sim_quality_mode)e->value;
        return 0;
    }
    if (!strpbrk(s, "0123456789"))
        return qk_cli_usage(CMD, "unknown --run-quality '%s' (choose from: spread, random; or a list Q1,Q2,...)",
                            s);
    for (const char *p = s; *p; p++)
        n += *p == ',';
    if (!(*list = malloc(n * sizeof **list))) {
        qk_cli_errorf(CMD, "out of memory");
        return QK_EXIT_IO;
    }
    if ((rc = qk_cli_double_list(CMD, "--run-quality", s, -INFINITY, INFINITY, 0, *list, n, &got)) != 0)
        return rc;
    *count = (long)got;
    o->quality_mode = QK_SIM_QUALITY_LIST;
    o->qualities = *list;
    return 0;
}

typedef struct {
    int last_pct;
} progress_state;

static void show_progress(void *ctx, long done, long total)
{
    progress_state *ps = ctx;
    int pct = (int)(100.0 * (double)done / (double)total);
    if (pct == ps->last_pct)
        return;
    ps->last_pct = pct;
    fprintf(stderr, "\rqrelkit sim: %ld/%ld topics (%d%%)", done, total, pct);
    if (done == total)
        fputc('\n', stderr);
}

/* Parses the options of `sim collection` into o and *out. Returns -1 to go
 * on, or an exit code. */
static int parse_collection(int argc, char **argv, qk_sim_collection_opts *o, const char **out, int *quiet,
                            double **list, long *nlist)
{
    struct {
        const char *name;
        long *target;
    } counts[] = {{"--topics", &o->topics},
                  {"--docs-per-topic", &o->docs_per_topic},
                  {"--depth", &o->depth},
                  {"--runs", &o->runs}};
    for (int i = 1; i < argc; i++) {
        const char *v;
        int missing = 0, rc = 0, matched = 0;
        if (qk_cli_is_help(argv[i]))
            return qk_cli_help(qk_help_sim);
        if (strcmp(argv[i], "--quiet") == 0) {
            *quiet = 1;
            continue;
        }
        for (size_t k = 0; k < sizeof counts / sizeof counts[0] && !matched && !missing; k++)
            if ((v = option_value(argc, argv, &i, counts[k].name, &missing))) {
                matched = 1;
                rc = parse_count(counts[k].name, v, counts[k].target);
            }
        if (!matched && !missing) {
            if ((v = option_value(argc, argv, &i, "--out", &missing)))
                *out = v, matched = 1;
            else if ((v = option_value(argc, argv, &i, "--levels", &missing)))
                rc = parse_levels(v, &o->levels), matched = 1;
            else if ((v = option_value(argc, argv, &i, "--rel-rate", &missing)))
                rc = parse_real("--rel-rate", v, &o->rel_rate), matched = 1;
            else if ((v = option_value(argc, argv, &i, "--qrels-fraction", &missing)))
                rc = parse_real("--qrels-fraction", v, &o->qrels_fraction), matched = 1;
            else if ((v = option_value(argc, argv, &i, "--seed", &missing)))
                rc = qk_cli_seed(CMD, "--seed", v, &o->seed), matched = 1;
            else if ((v = option_value(argc, argv, &i, "--run-quality", &missing)))
                rc = parse_quality(v, o, list, nlist), matched = 1;
        }
        if (missing)
            return qk_cli_usage(CMD, "option '%s' needs a value", argv[i]);
        if (!matched)
            return argv[i][0] == '-' ? qk_cli_usage(CMD, "unknown option '%s'", argv[i])
                                     : qk_cli_usage(CMD, "unexpected argument '%s'", argv[i]);
        if (rc != 0)
            return rc;
    }
    return -1;
}

/* Temporaries (NAME.tmpPID-N) a killed `sim collection` left in the
 * directory (its three files) and in runs/ (*.run). */
static void sweep_stale(const char *out)
{
    static const char *const files[] = {"qrels.txt.tmp", "topics.tsv.tmp", "manifest.json.tmp"};
    char runs[4096];
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        qk_cli_sweep_stale(out, files[i]);
    if ((size_t)snprintf(runs, sizeof runs, "%s/runs", out) < sizeof runs)
        qk_cli_sweep_stale_marked(runs, ".run.tmp");
}

static int cmd_collection(int argc, char **argv)
{
    qk_sim_collection_opts o;
    qk_error err;
    progress_state ps = {-1};
    const char *out = NULL;
    double *list = NULL;
    long nlist = -1;
    int quiet = 0, rc;
    qk_sim_collection_opts_init(&o);
    qk_error_clear(&err);
    rc = parse_collection(argc, argv, &o, &out, &quiet, &list, &nlist);
    if (rc >= 0)
        goto out;
    if (!out) {
        rc = qk_cli_usage(CMD, "missing --out DIR");
        goto out;
    }
    if ((rc = qk_cli_no_stdout(CMD, "--out", out, "cannot take a directory; give a directory name")) != 0)
        goto out;
    if (o.quality_mode == QK_SIM_QUALITY_LIST && nlist != o.runs) {
        rc = qk_cli_usage(CMD, "--run-quality lists %ld qualities but --runs is %ld", nlist, o.runs);
        goto out;
    }
    if (!quiet && isatty(STDERR_FILENO)) {
        o.progress = show_progress;
        o.progress_ctx = &ps;
    }
    sweep_stale(out);
    {
        qk_outdir *d = NULL;
        qk_status st = qk_sim_collection_check(&o, &err);
        if (st == QK_OK)
            st = qk_outdir_open(out, &d, &err);
        if (st == QK_OK)
            st = qk_sim_collection_write(d, &o, &err);
        qk_outdir_close(d);
        if (st != QK_OK)
            rc = err.code == QK_EUSAGE ? qk_cli_usage(CMD, "%s", err.message) : qk_cli_fail(CMD, &err);
        else
            rc = QK_EXIT_OK;
    }
out:
    free(list);
    return rc;
}

int qk_cmd_sim(int argc, char **argv)
{
    if (argc < 2)
        return qk_cli_usage(CMD, "missing what to simulate (try 'qrelkit sim collection --out DIR')");
    if (qk_cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0)
        return qk_cli_help(qk_help_sim);
    if (strcmp(argv[1], "collection") == 0)
        return cmd_collection(argc - 1, argv + 1);
    return qk_cli_usage(CMD, "unknown simulation '%s' (known: collection)", argv[1]);
}
