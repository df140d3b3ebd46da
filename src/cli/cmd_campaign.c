/* `qrelkit campaign`: a judging campaign in one SQLite database (src/campaign/).
 * This file parses options and prints; the library does the work. */
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "qrelkit/budget.h"
#include "qrelkit/campaign.h"

const char qk_help_campaign[] =
    "usage: qrelkit campaign init DB --runs RUN... --topics FILE [--corpus FILE|INDEX] [options]\n"
    "       qrelkit campaign person DB NAME [--organiser] [--expires SECONDS]\n"
    "       qrelkit campaign plan DB --method M --batch N [--overlap K] [--seed S]\n"
    "       qrelkit campaign export DB --out DIR\n"
    "       qrelkit campaign status DB [--format tsv|json]\n"
    "       qrelkit campaign serve DB [--port P] [--address A] [--threads N]\n"
    "\n"
    "A judging campaign in one SQLite database: topics, documents, runs, the\n"
    "sampling design, assessors, assignments, every label (who, when, how\n"
    "long) and the budget. Methods and schema: doc/qrelkit-campaign.md.\n"
    "\n"
    "init: create DB (a new file) from the runs and the topics (TREC, JSON lines\n"
    "or 'qid<TAB>text'); --corpus adds the text of the runs' documents.\n"
    "  --topic-fields F     topic parts shown to assessors (title)\n"
    "  --corpus FILE|INDEX  TREC or JSON-lines documents (plain or gzip), or an\n"
    "                       index made by 'qrelkit index' (told by its magic\n"
    "                       number): the text it stored, the fields it indexed\n"
    "  --depth K            pool depth (100)\n"
    "  --budget N           judged documents per topic at most (100)\n"
    "  --grades G1,G2,...   the grades assessors give (0,1)\n"
    "  -l LEVEL             grade >= LEVEL is relevant (1)\n"
    "person: add an assessor (or with --organiser the dashboard's owner) and\n"
    "print their token, once: it is stored only as a SHA-256 hash. Their link\n"
    "is http://HOST:PORT/login?t=TOKEN.\n"
    "plan: the pool method's next --batch documents per topic (judged so far:\n"
    "the labels so far), assigned to --overlap assessors each (1), least\n"
    "loaded first. Documents assigned and not yet labelled are not assigned\n"
    "again. The first plan fixes --method and --seed (42).\n"
    "  --method M           @{pool-method}\n"
    "                       or a budget method (qrelkit budget plan): qdp,\n"
    "                       qdp-star, un, ra, sa; then --batch N is N (topic,\n"
    "                       document) pairs in all, topics chosen by the method\n"
    "                       or tar: the AutoTAR / CAL loop (qrelkit tar run --stop\n"
    "                       none) per topic over the pooled documents' text (init\n"
    "                       --corpus), seeded by the topic statement; --batch N:\n"
    "                       the first N documents per topic of the loop's next\n"
    "                       batch (sizes 1, 2, 3, ... growing by a tenth); a topic\n"
    "                       with every pooled document labelled gets none\n"
    "  --strata H           statap: H strata instead of pi-ps (0)\n"
    "export: write DIR/qrels (majority of the labels, ties to the earliest),\n"
    "DIR/labels ('topic docno assessor grade', for qrelkit aggregate) and, as\n"
    "the method has them, DIR/prels, DIR/strata, DIR/draws (for eval -R).\n"
    "status: budget, judgments per topic and per assessor (median seconds per\n"
    "label), MAP on the qrels so far (qrelkit eval -m map) and the method's\n"
    "estimate with a 95% interval (statAP on the prels for statap and active,\n"
    "MTC's expected MAP otherwise), agreement of overlapping assessors.\n"
    "serve: the assessors' page and the organiser's dashboard on\n"
    "http://ADDRESS:PORT/ until SIGINT or SIGTERM.\n"
    "  --address A          listen address (127.0.0.1: loopback only)\n"
    "  --port P             port (8080; 0: any free port, printed on stdout)\n"
    "  --threads N          worker threads (4)\n"
    "\n"
    "Exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O.\n";

#define CMD "campaign"

static int fail(qk_error *err)
{
    return qk_cli_fail(CMD, err);
}

/* ---- init ---- */
static int cmd_init(int argc, char **argv)
{
    static const struct option lo[] = {
        {"runs", required_argument, NULL, 'R'},         {"topics", required_argument, NULL, 'T'},
        {"topic-fields", required_argument, NULL, 'F'}, {"corpus", required_argument, NULL, 'C'},
        {"depth", required_argument, NULL, 'd'},        {"budget", required_argument, NULL, 'b'},
        {"grades", required_argument, NULL, 'g'},       {NULL, 0, NULL, 0}};
    qk_campaign_init_opts o;
    const char **runs = calloc((size_t)argc + 1, sizeof *runs), *topics = NULL, *fields = NULL,
               *corpus = NULL;
    size_t nruns = 0, ngrades = 0;
    long grades[64];
    qk_run **rr = NULL;
    qk_topics *tp = NULL;
    qk_corpus *cp = NULL;
    qk_index *ix = NULL;
    qk_campaign *c = NULL;
    qk_error err = {0};
    int ch, rc = 0;
    if (!runs)
        return QK_EXIT_IO;
    qk_campaign_init_opts_init(&o);
    optind = 1;
    while (rc == 0 && (ch = getopt_long(argc, argv, "l:", lo, NULL)) != -1) {
        switch (ch) {
        case 'R': runs[nruns++] = optarg; break;
        case 'T': topics = optarg; break;
        case 'F': fields = optarg; break;
        case 'C': corpus = optarg; break;
        case 'd': rc = qk_cli_long(CMD, "--depth", optarg, 1, LONG_MAX, &o.depth); break;
        case 'b': rc = qk_cli_long(CMD, "--budget", optarg, 0, LONG_MAX / 1000000, &o.budget); break;
        case 'l': rc = qk_cli_long(CMD, "-l", optarg, -1000000, 1000000, &o.rel_level); break;
        case 'g':
            rc = qk_cli_long_list(CMD, "--grades", optarg, -1000000, 1000000, grades, 64, &ngrades);
            o.grades = grades;
            o.ngrades = ngrades;
            break;
        default: rc = QK_EXIT_USAGE;
        }
    }
    /* DB first, run files after --runs */
    if (rc == 0 && optind >= argc)
        rc = qk_cli_usage(CMD, "init: missing DB");
    const char *db = rc ? NULL : argv[optind++];
    while (rc == 0 && optind < argc)
        runs[nruns++] = argv[optind++];
    if (rc == 0 && nruns == 0)
        rc = qk_cli_usage(CMD, "init: missing --runs");
    if (rc == 0 && !topics)
        rc = qk_cli_usage(CMD, "init: missing --topics (assessors read the topic statement)");
    if (rc)
        goto out;
    if (qk_cli_read_runs(runs, nruns, QK_CLI_NAME_BASE, &rr, &err) != QK_OK ||
        qk_topics_read(topics, fields, &tp, &err) != QK_OK) {
        rc = fail(&err);
        goto out;
    }
    if (corpus && strcmp(corpus, "-") != 0 && qk_index_file_is_index(corpus)) {
        if (qk_index_open(corpus, &ix, &err) != QK_OK) {
            rc = fail(&err);
            goto out;
        }
        o.index = ix;
    } else if (corpus) {
        qk_corpus_opts co;
        qk_corpus_opts_init(&co);
        if (qk_corpus_open(corpus, &co, &cp, &err) != QK_OK) {
            rc = fail(&err);
            goto out;
        }
    }
    if (qk_campaign_create(db, (const qk_run *const *)rr, nruns, tp, cp, &o, &c, &err) != QK_OK)
        rc = fail(&err);
out:
    qk_campaign_close(c);
    qk_corpus_close(cp);
    qk_index_close(ix);
    qk_topics_free(tp);
    if (rr)
        qk_cli_free_runs(rr, nruns);
    free(runs);
    return rc;
}

/* DB (and more positionals) after the options. */
static int open_db(int argc, char **argv, qk_campaign **c)
{
    qk_error err = {0};
    if (optind >= argc)
        return qk_cli_usage(CMD, "%s: missing DB", argv[0]);
    if (qk_campaign_open(argv[optind++], c, &err) != QK_OK)
        return fail(&err);
    return 0;
}

static int cmd_person(int argc, char **argv)
{
    static const struct option lo[] = {
        {"organiser", no_argument, NULL, 'o'}, {"expires", required_argument, NULL, 'e'}, {NULL, 0, NULL, 0}};
    int ch, rc = 0, role = QK_CAMPAIGN_ASSESSOR;
    long ttl = 0;
    char token[65];
    qk_campaign *c = NULL;
    qk_error err = {0};
    optind = 1;
    while (rc == 0 && (ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (ch == 'o')
            role = QK_CAMPAIGN_ORGANISER;
        else if (ch == 'e')
            rc = qk_cli_long(CMD, "--expires", optarg, 1, LONG_MAX / 1000, &ttl);
        else
            rc = QK_EXIT_USAGE;
    }
    if (rc || (rc = open_db(argc, argv, &c)) != 0)
        return rc;
    if (optind + 1 != argc)
        rc = qk_cli_usage(CMD, "person: give one NAME after DB");
    else if (qk_campaign_add_person(c, argv[optind], role, ttl, token, &err) != QK_OK)
        rc = fail(&err);
    else
        printf("%s\n", token);
    qk_campaign_close(c);
    return rc;
}

static int cmd_plan(int argc, char **argv)
{
    static const struct option lo[] = {
        {"method", required_argument, NULL, 'm'},  {"batch", required_argument, NULL, 'B'},
        {"overlap", required_argument, NULL, 'k'}, {"seed", required_argument, NULL, 's'},
        {"strata", required_argument, NULL, 'H'},  {NULL, 0, NULL, 0}};
    qk_campaign_plan_opts o;
    qk_campaign *c = NULL;
    qk_error err = {0};
    size_t assigned = 0;
    int ch, rc = 0, w, have_method = 0;
    qk_campaign_plan_opts_init(&o);
    optind = 1;
    while (rc == 0 && (ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (ch) {
        case 'm':
            if (strcmp(optarg, "tar") == 0) {
                o.tar = 1;
                have_method = 1;
            } else if (qk_enum_find(qk_budget_method_table, optarg)) {
                o.budget = qk_enum_find(qk_budget_method_table, optarg)->value;
                have_method = 1;
            } else if (!(rc = qk_cli_enum(CMD, qk_pool_method_table, "--method", optarg, &w))) {
                o.pool.method = (qk_pool_method)w;
                have_method = 1;
            }
            break;
        case 'B': rc = qk_cli_long(CMD, "--batch", optarg, 1, 1000000, &o.pool.batch); break;
        case 'k': rc = qk_cli_size(CMD, "--overlap", optarg, 1, 1000, &o.overlap); break;
        case 's': rc = qk_cli_seed(CMD, "--seed", optarg, &o.pool.seed); break;
        case 'H': rc = qk_cli_size(CMD, "--strata", optarg, 0, 1000000, &o.pool.strata); break;
        default: rc = QK_EXIT_USAGE;
        }
    }
    if (rc == 0 && !have_method) {
        char choices[512];
        qk_enum_choices(qk_pool_method_table, choices, sizeof choices);
        rc = qk_cli_usage(CMD, "plan: missing --method (choose from: %s)", choices);
    }
    if (rc || (rc = open_db(argc, argv, &c)) != 0)
        return rc;
    if (optind != argc)
        rc = qk_cli_usage(CMD, "plan: unexpected '%s'", argv[optind]);
    else if (qk_campaign_plan(c, &o, &assigned, &err) != QK_OK)
        rc = fail(&err);
    else
        printf("assigned\t%zu\n", assigned);
    qk_campaign_close(c);
    return rc;
}

static int cmd_export(int argc, char **argv)
{
    static const struct option lo[] = {{"out", required_argument, NULL, 'o'}, {NULL, 0, NULL, 0}};
    static const char *const names[QK_CAMPAIGN_NFILES] = {"qrels", "labels", "prels", "strata", "draws"};
    const char *dir = NULL;
    qk_campaign *c = NULL;
    qk_error err = {0};
    int ch, rc = 0;
    optind = 1;
    while (rc == 0 && (ch = getopt_long(argc, argv, "o:", lo, NULL)) != -1)
        if (ch == 'o')
            dir = optarg;
        else
            rc = QK_EXIT_USAGE;
    if (rc == 0 && !dir)
        rc = qk_cli_usage(CMD, "export: missing --out DIR");
    if (rc || (rc = open_db(argc, argv, &c)) != 0)
        return rc;
    {
        qk_outdir *od = NULL;
        if (qk_outdir_open(dir, &od, &err) != QK_OK)
            rc = fail(&err);
        qk_outdir_close(od);
    }
    for (int k = 0; rc == 0 && k < QK_CAMPAIGN_NFILES; k++) {
        char path[4096];
        qk_cli_out o;
        if (!qk_campaign_has_file(c, k))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        if ((rc = qk_cli_out_open(CMD, &o, path)) != 0)
            break;
        if (qk_campaign_write(c, k, o.f, &err) != QK_OK) {
            qk_cli_out_abort(&o);
            rc = fail(&err);
            break;
        }
        if ((rc = qk_cli_out_commit(CMD, &o)) == 0)
            printf("%s\n", path);
    }
    qk_campaign_close(c);
    return rc;
}

/* NaN as "-" (TSV) so a column never reads "nan". */
static void num(double v, int prec)
{
    if (isnan(v))
        fputs("-", stdout);
    else
        printf("%.*f", prec, v);
}

static void status_tsv(const qk_campaign_report *r)
{
    printf("method\t%s\n", r->method[0] ? r->method : "-");
    printf("budget\ttotal %ld\tspent %ld\tleft %ld\n", r->budget_total, r->budget_spent, r->budget_left);
    puts("\ntopic\tassigned\tlabelled\trelevant");
    for (size_t i = 0; i < r->ntopics; i++)
        printf("%s\t%ld\t%ld\t%ld\n", r->topics[i].qid, r->topics[i].assigned, r->topics[i].labelled,
               r->topics[i].relevant);
    puts("\nassessor\tassigned\tlabelled\tmedian_s");
    for (size_t i = 0; i < r->npeople; i++) {
        printf("%s\t%ld\t%ld\t", r->people[i].name, r->people[i].assigned, r->people[i].labelled);
        num(r->people[i].median_s, 1);
        putchar('\n');
    }
    printf("\nrun\tmap\t%s\tlo95\thi95\n", r->estimator);
    for (size_t i = 0; i < r->nruns; i++) {
        printf("%s\t", r->runs[i].runid);
        num(r->runs[i].map, 4);
        putchar('\t');
        num(r->runs[i].est, 4);
        putchar('\t');
        num(r->runs[i].lo, 4);
        putchar('\t');
        num(r->runs[i].hi, 4);
        putchar('\n');
    }
    printf("\noverlap\tdocuments %ld\tagreement ", r->overlap_docs);
    num(r->agreement, 4);
    putchar('\n');
}

static json_t *jnum(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

static void status_json(const qk_campaign_report *r)
{
    json_t *root = json_object(), *t = json_array(), *p = json_array(), *ru = json_array();
    char *s;
    json_object_set_new(root, "method", json_string(r->method));
    json_object_set_new(root, "budget",
                        json_pack("{s:I,s:I,s:I}", "total", (json_int_t)r->budget_total, "spent",
                                  (json_int_t)r->budget_spent, "left", (json_int_t)r->budget_left));
    for (size_t i = 0; i < r->ntopics; i++)
        json_array_append_new(t, json_pack("{s:s,s:I,s:I,s:I}", "topic", r->topics[i].qid, "assigned",
                                           (json_int_t)r->topics[i].assigned, "labelled",
                                           (json_int_t)r->topics[i].labelled, "relevant",
                                           (json_int_t)r->topics[i].relevant));
    for (size_t i = 0; i < r->npeople; i++)
        json_array_append_new(p, json_pack("{s:s,s:I,s:I,s:o}", "assessor", r->people[i].name, "assigned",
                                           (json_int_t)r->people[i].assigned, "labelled",
                                           (json_int_t)r->people[i].labelled, "median_s",
                                           jnum(r->people[i].median_s)));
    for (size_t i = 0; i < r->nruns; i++)
        json_array_append_new(ru, json_pack("{s:s,s:o,s:o,s:o,s:o}", "run", r->runs[i].runid, "map",
                                            jnum(r->runs[i].map), "estimate", jnum(r->runs[i].est), "lo95",
                                            jnum(r->runs[i].lo), "hi95", jnum(r->runs[i].hi)));
    json_object_set_new(root, "estimator", json_string(r->estimator));
    json_object_set_new(root, "topics", t);
    json_object_set_new(root, "assessors", p);
    json_object_set_new(root, "runs", ru);
    json_object_set_new(root, "overlap_documents", json_integer((json_int_t)r->overlap_docs));
    json_object_set_new(root, "agreement", jnum(r->agreement));
    s = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
    if (s)
        puts(s);
    free(s);
    json_decref(root);
}

static int cmd_status(int argc, char **argv)
{
    static const struct option lo[] = {{"format", required_argument, NULL, 'f'}, {NULL, 0, NULL, 0}};
    qk_campaign *c = NULL;
    qk_campaign_report *r = NULL;
    qk_error err = {0};
    int ch, rc = 0, json = 0;
    optind = 1;
    while (rc == 0 && (ch = getopt_long(argc, argv, "", lo, NULL)) != -1)
        rc = ch == 'f' ? qk_cli_format_tsv_json(CMD, optarg, &json) : QK_EXIT_USAGE;
    if (rc || (rc = open_db(argc, argv, &c)) != 0)
        return rc;
    if (qk_campaign_status(c, &r, &err) != QK_OK)
        rc = fail(&err);
    else if (json)
        status_json(r);
    else
        status_tsv(r);
    qk_campaign_report_free(r);
    qk_campaign_close(c);
    return rc;
}

/* ---- serve ---- */
static volatile sig_atomic_t stop_serving;

static void on_signal(int sig)
{
    (void)sig;
    stop_serving = 1;
}

static void on_ready(void *ctx, unsigned port)
{
    (void)ctx;
    printf("listening\t%u\n", port);
    fflush(stdout);
}

static void on_log(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "qrelkit campaign: %s\n", line);
}

static int cmd_serve(int argc, char **argv)
{
    static const struct option lo[] = {{"port", required_argument, NULL, 'p'},
                                       {"address", required_argument, NULL, 'a'},
                                       {"threads", required_argument, NULL, 't'},
                                       {NULL, 0, NULL, 0}};
    qk_campaign_serve_opts o;
    qk_error err = {0};
    long port = 8080, threads = 4;
    int ch, rc = 0;
    struct sigaction sa;
    qk_campaign_serve_opts_init(&o);
    optind = 1;
    while (rc == 0 && (ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (ch) {
        case 'p': rc = qk_cli_long(CMD, "--port", optarg, 0, 65535, &port); break;
        case 'a': o.address = optarg; break;
        case 't': rc = qk_cli_long(CMD, "--threads", optarg, 1, 256, &threads); break;
        default: rc = QK_EXIT_USAGE;
        }
    }
    if (rc)
        return rc;
    if (optind + 1 != argc)
        return qk_cli_usage(CMD, "serve: give one DB");
    o.port = (unsigned)port;
    o.threads = (unsigned)threads;
    o.on_ready = on_ready;
    o.log = on_log;
    o.stop = &stop_serving;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (qk_campaign_serve(argv[optind], &o, &err) != QK_OK)
        return fail(&err);
    return 0;
}

int qk_cmd_campaign(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } subs[] = {{"init", cmd_init},     {"person", cmd_person}, {"plan", cmd_plan},
                {"export", cmd_export}, {"status", cmd_status}, {"serve", cmd_serve}};
    if (argc < 2 || qk_cli_is_help(argv[1]))
        return argc < 2 ? qk_cli_usage(CMD, "missing a mode: init, person, plan, export, status or serve")
                        : qk_cli_help(qk_help_campaign);
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++)
        if (strcmp(argv[1], subs[i].name) == 0) {
            for (int k = 2; k < argc; k++)
                if (qk_cli_is_help(argv[k]))
                    return qk_cli_help(qk_help_campaign);
            return subs[i].fn(argc - 1, argv + 1);
        }
    return qk_cli_usage(CMD, "unknown mode '%s' (choose from: init, person, plan, export, status, serve)",
                        argv[1]);
}
