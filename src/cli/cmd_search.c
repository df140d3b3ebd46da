/* qrelkit search: index + topics -> TREC runs (one, or a zoo of systems). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_tables.h"
#include "cli_util.h"
#include "qrelkit/search.h"

const char qk_help_search[] =
    "usage: qrelkit search -i INDEX -t TOPICS [options] [-o RUN]\n"
    "       qrelkit search -i INDEX [-i INDEX2 ...] -t TOPICS --zoo N [--seed S] -o DIR\n"
    "\n"
    "Rank the documents of an index (made by 'qrelkit index') for every topic and\n"
    "write a TREC run: 'qid Q0 docno rank score tag', best first. Queries are\n"
    "analysed exactly as the index analysed its documents. With --zoo, write N\n"
    "runs from systems that differ in model, parameters, stemming (one index per\n"
    "analysis, pass several) and feedback: a population to pool from.\n"
    "\n"
    "topics (plain or gzip), told apart by the first non-blank byte: TREC <top>\n"
    "files (<num>, <title>, <desc>, <narr>), JSON lines ({\"id\": ..., \"title\": ...}),\n"
    "or 'qid<TAB>text' lines.\n"
    "\n"
    "options:\n"
    "  -i, --index FILE     the index (repeat for --zoo)\n"
    "  -t, --topics FILE    the topics\n"
    "  --topic-fields LIST  TREC topic parts or JSON keys that make the query\n"
    "                       (default title; e.g. title,desc)\n"
    "  -m, --model NAME     the ranking model:\n"
    "                       @[search-model]\n"
    "  --k1 X, --b X        BM25 parameters (default 0.9 and 0.4)\n"
    "  --mu X               Dirichlet prior (default 1000)\n"
    "  --lambda X           Jelinek-Mercer weight of the collection model (0.7)\n"
    "  --rm3                RM3 pseudo-relevance feedback on the chosen model\n"
    "  --fb-docs N          feedback documents (default 10)\n"
    "  --fb-terms N         expansion terms (default 10)\n"
    "  --fb-orig W          weight of the original query, in [0, 1] (default 0.5)\n"
    "  --depth N            documents per topic (default 1000)\n"
    "  --tag NAME           run tag (default: the settings, e.g. bm25-k0.9-b0.4-porter)\n"
    "  --threads N          topics ranked in parallel (default 1); the output is\n"
    "                       identical for any N\n"
    "  -o, --out PATH       the run file (default and '-': stdout), or with --zoo the\n"
    "                       directory for TAG.run files and zoo.tsv; written under\n"
    "                       temporary names and renamed when complete\n"
    "  --zoo N              write N runs of seeded random systems\n"
    "  --seed S             seed of the zoo (default 42)\n"
    "  --quiet              no progress on stderr (--zoo counts the runs written\n"
    "                       there when it is a terminal)\n"
    "  -h, --help           show this text\n"
    "\n"
    "Ties: scores are rounded to 6 decimals (as written); equal scores are\n"
    "ordered by docno descending, trec_eval's order, so written ranks are the\n"
    "ranks evaluated. See 'man qrelkit-search' for the formulas.\n"
    "\n"
    "examples:\n"
    "  qrelkit search -i npl.idx -t query-text.trec -o bm25.run\n"
    "  qrelkit search -i npl.idx -t query-text.trec -m qld --mu 500 --rm3 -o qld-rm3.run\n"
    "  qrelkit eval -m map -m P.10 qrels bm25.run qld-rm3.run\n"
    "  qrelkit search -i npl.idx -i npl-nostem.idx -t query-text.trec --zoo 30 -o zoo/\n"
    "\n"
    "exit status: 0 ok, 1 bad option, 2 bad input (topics, corrupt index),\n"
    "3 cannot read or write.\n";

#define CMD "search"
#define MAX_INDEXES 16

typedef struct {
    const char *index[MAX_INDEXES];
    int nindex;
    const char *topics, *fields, *tag, *out;
    qk_search_opts o;
    int threads, quiet;
    long zoo;
    uint64_t seed;
} args;

enum {
    O_FIELDS = 256,
    O_K1,
    O_B,
    O_MU,
    O_LAMBDA,
    O_RM3,
    O_FBD,
    O_FBT,
    O_FBO,
    O_DEPTH,
    O_TAG,
    O_THREADS,
    O_ZOO,
    O_SEED,
    O_QUIET
};

static const struct option longopts[] = {{"index", required_argument, NULL, 'i'},
                                         {"topics", required_argument, NULL, 't'},
                                         {"model", required_argument, NULL, 'm'},
                                         {"out", required_argument, NULL, 'o'},
                                         {"topic-fields", required_argument, NULL, O_FIELDS},
                                         {"k1", required_argument, NULL, O_K1},
                                         {"b", required_argument, NULL, O_B},
                                         {"mu", required_argument, NULL, O_MU},
                                         {"lambda", required_argument, NULL, O_LAMBDA},
                                         {"rm3", no_argument, NULL, O_RM3},
                                         {"fb-docs", required_argument, NULL, O_FBD},
                                         {"fb-terms", required_argument, NULL, O_FBT},
                                         {"fb-orig", required_argument, NULL, O_FBO},
                                         {"depth", required_argument, NULL, O_DEPTH},
                                         {"tag", required_argument, NULL, O_TAG},
                                         {"threads", required_argument, NULL, O_THREADS},
                                         {"zoo", required_argument, NULL, O_ZOO},
                                         {"seed", required_argument, NULL, O_SEED},
                                         {"quiet", no_argument, NULL, O_QUIET},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

#define F(f) offsetof(args, f)
static const qk_cli_opt value_opts[] = {
    {'m', "--model", 'e', F(o.model), qk_model_table, 0, 0, 0},
    {O_K1, "--k1", 'd', F(o.k1), NULL, -INFINITY, INFINITY, 0},
    {O_B, "--b", 'd', F(o.b), NULL, -INFINITY, INFINITY, 0},
    {O_MU, "--mu", 'd', F(o.mu), NULL, -INFINITY, INFINITY, 0},
    {O_LAMBDA, "--lambda", 'd', F(o.lambda), NULL, -INFINITY, INFINITY, 0},
    {O_FBO, "--fb-orig", 'd', F(o.fb_orig), NULL, -INFINITY, INFINITY, 0},
    {O_FBD, "--fb-docs", 'i', F(o.fb_docs), NULL, 1, 10000, 0},
    {O_FBT, "--fb-terms", 'i', F(o.fb_terms), NULL, 1, 10000, 0},
    {O_DEPTH, "--depth", 'z', F(o.depth), NULL, 1, 100000000, 0},
    {O_THREADS, "--threads", 'i', F(threads), NULL, 1, 1024, 0},
    {O_ZOO, "--zoo", 'l', F(zoo), NULL, 1, 10000, 0},
    {O_SEED, "--seed", 's', F(seed), NULL, 0, 0, 0},
    {0, NULL, 0, 0, NULL, 0, 0, 0},
};
#undef F

/* Returns -1 to go on, or an exit code. */
static int parse(int argc, char **argv, args *a)
{
    int c, rc = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":i:t:m:o:h", longopts, NULL)) != -1) {
        if ((rc = qk_cli_set(CMD, value_opts, c, optarg, a)) > 0)
            return rc;
        if (rc == 0)
            continue;
        rc = 0;
        switch (c) {
        case 'i':
            if (a->nindex == MAX_INDEXES)
                return qk_cli_usage(CMD, "more than %d indexes", MAX_INDEXES);
            a->index[a->nindex++] = optarg;
            break;
        case 't': a->topics = optarg; break;
        case 'o': a->out = optarg; break;
        case 'h': return qk_cli_help(qk_help_search);
        case O_FIELDS: a->fields = optarg; break;
        case O_RM3: a->o.rm3 = 1; break;
        case O_TAG: a->tag = optarg; break;
        case O_QUIET: a->quiet = 1; break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
        if (rc)
            return rc;
    }
    if (optind < argc)
        return qk_cli_usage(CMD, "unexpected argument '%s'", argv[optind]);
    if (a->nindex == 0)
        return qk_cli_usage(CMD, "missing -i INDEX");
    if (!a->topics)
        return qk_cli_usage(CMD, "missing -t TOPICS");
    if (a->zoo && !a->out)
        return qk_cli_usage(CMD, "--zoo needs -o DIR");
    if (a->zoo && qk_cli_no_stdout(CMD, "-o", a->out, "cannot take --zoo's directory; give a directory name"))
        return QK_EXIT_USAGE;
    if (qk_cli_is_stdout(a->out))
        a->out = NULL; /* the run to standard output, as without -o */
    if (!a->zoo && a->nindex > 1)
        return qk_cli_usage(CMD, "several indexes are only for --zoo");
    return -1;
}

/* Write with fn into a temporary file next to path, then rename. */
typedef qk_status (*write_fn)(void *ctx, FILE *f, qk_error *err);
static qk_status write_atomic(const char *path, write_fn fn, void *ctx, qk_error *err)
{
    char *tmp = malloc(strlen(path) + 48);
    FILE *f = NULL;
    int fd;
    qk_status st;
    if (!tmp)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    qk_cli_sweep_stale_for(path);
    sprintf(tmp, "%s.tmp-%ld-XXXXXX", path, (long)getpid());
    fd = qk_temp_create(tmp, 1);
    if (fd < 0 || !(f = fdopen(fd, "w"))) {
        st = qk_error_set(err, QK_EIO, "cannot create '%s': %s", tmp, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
            qk_cli_temp_forget(tmp);
        }
        free(tmp);
        return st;
    }
    fchmod(fd, 0644);
    st = fn(ctx, f, err);
    if (fclose(f) != 0 && st == QK_OK)
        st = qk_error_set(err, QK_EIO, "cannot write '%s': %s", tmp, strerror(errno));
    if (st == QK_OK && rename(tmp, path) != 0)
        st = qk_error_set(err, QK_EIO, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
    if (st != QK_OK)
        unlink(tmp);
    qk_cli_temp_forget(tmp);
    free(tmp);
    return st;
}

/* The run file may not be an input (an index, the topics) nor a device
 * (it is renamed over); --zoo writes into a directory. */
static int check_outputs(const args *a)
{
    const char *ins[MAX_INDEXES + 1];
    int n = 0, rc;
    if (a->zoo || !a->out)
        return 0;
    for (int i = 0; i < a->nindex; i++)
        ins[n++] = a->index[i];
    ins[n++] = a->topics;
    if ((rc = qk_cli_check_output(CMD, "-o", a->out, ins, (size_t)n)) != 0)
        return rc;
    return qk_cli_check_renamable(CMD, "-o", a->out);
}

typedef struct {
    const qk_index *ix;
    const qk_topics *topics;
    const qk_search_opts *o;
    const qk_zoo_system *sys;
    const char *tag;
    int threads;
    uint64_t seed;
} run_ctx;

static qk_status write_run(void *ctx, FILE *f, qk_error *err)
{
    run_ctx *r = ctx;
    if (r->sys)
        return qk_search_run_system(r->ix, r->topics, r->sys, r->seed, r->threads, f, err);
    return qk_search_run(r->ix, r->topics, r->o, r->tag, r->threads, f, err);
}

typedef struct {
    const qk_zoo_system *sys;
    long n;
    char **index;
} zoo_ctx;

static qk_status write_manifest(void *ctx, FILE *f, qk_error *err)
{
    zoo_ctx *z = ctx;
    fprintf(f, "tag\tindex\tmodel\tk1\tb\tmu\tlambda\trm3\tfb_docs\tfb_terms\tfb_orig\tquery_keep\n");
    for (long i = 0; i < z->n; i++) {
        const qk_zoo_system *s = &z->sys[i];
        const qk_search_opts *o = &s->opts;
        fprintf(f, "%s\t%s\t%s\t%g\t%g\t%g\t%g\t%d\t%d\t%d\t%g\t%g\n", s->tag, z->index[s->index],
                qk_model_name(o->model), o->k1, o->b, o->mu, o->lambda, o->rm3, o->fb_docs, o->fb_terms,
                o->fb_orig, s->query_keep);
    }
    return ferror(f) ? qk_error_set(err, QK_EIO, "cannot write zoo.tsv") : QK_OK;
}

static int run_zoo(args *a, qk_index **ix, const qk_topics *topics)
{
    qk_text_opts texts[MAX_INDEXES];
    qk_zoo_system *sys = calloc((size_t)a->zoo, sizeof *sys);
    qk_error err;
    qk_cli_progress pr;
    int rc = QK_EXIT_OK;
    qk_error_clear(&err);
    qk_cli_progress_init(&pr, CMD, "zoo runs", a->quiet);
    if (!sys) {
        qk_cli_errorf(CMD, "out of memory");
        return QK_EXIT_IO;
    }
    for (int i = 0; i < a->nindex; i++) {
        qk_index_info in;
        qk_index_get_info(ix[i], &in);
        texts[i] = in.text;
    }
    if (mkdir(a->out, 0777) != 0 && errno != EEXIST) {
        qk_cli_errorf(CMD, "cannot create '%s': %s", a->out, strerror(errno));
        free(sys);
        return QK_EXIT_IO;
    }
    if (qk_search_zoo((size_t)a->zoo, a->seed, (size_t)a->nindex, texts, sys, &err) != QK_OK) {
        free(sys);
        return qk_cli_fail(CMD, &err);
    }
    for (long i = 0; i < a->zoo && rc == QK_EXIT_OK; i++) {
        char path[4096];
        run_ctx r = {ix[sys[i].index], topics, NULL, &sys[i], NULL, a->threads, a->seed};
        snprintf(path, sizeof path, "%s/%s.run", a->out, sys[i].tag);
        if (write_atomic(path, write_run, &r, &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
        else
            qk_cli_progress_step(&pr, (size_t)i + 1, (size_t)a->zoo);
    }
    if (rc == QK_EXIT_OK) {
        char path[4096];
        zoo_ctx z = {sys, a->zoo, (char **)a->index};
        snprintf(path, sizeof path, "%s/zoo.tsv", a->out);
        if (write_atomic(path, write_manifest, &z, &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
    }
    free(sys);
    return rc;
}

int qk_cmd_search(int argc, char **argv)
{
    args a;
    qk_index *ix[MAX_INDEXES] = {NULL};
    qk_topics *topics = NULL;
    qk_error err;
    int rc;
    memset(&a, 0, sizeof a);
    qk_search_opts_init(&a.o);
    a.threads = 1;
    a.seed = 42;
    qk_error_clear(&err);
    if ((rc = parse(argc, argv, &a)) >= 0)
        return rc;
    if ((rc = check_outputs(&a)) != 0)
        return rc;
    if (qk_search_opts_check(&a.o, &err) != QK_OK)
        return qk_cli_usage(CMD, "%s", err.message);
    for (int i = 0; i < a.nindex; i++)
        if (qk_index_open(a.index[i], &ix[i], &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
    if (qk_topics_read(a.topics, a.fields, &topics, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (a.zoo) {
        rc = run_zoo(&a, ix, topics);
    } else {
        char tag[160];
        qk_index_info in;
        qk_index_get_info(ix[0], &in);
        qk_search_opts_tag(&a.o, &in.text, tag, sizeof tag);
        run_ctx r = {ix[0], topics, &a.o, NULL, a.tag ? a.tag : tag, a.threads, 0};
        qk_status st = a.out ? write_atomic(a.out, write_run, &r, &err) : write_run(&r, stdout, &err);
        if (st == QK_OK && !a.out && fflush(stdout) != 0)
            st = qk_error_set(&err, QK_EIO, "cannot write to standard output");
        rc = st == QK_OK       ? QK_EXIT_OK
             : st == QK_EUSAGE ? qk_cli_usage(CMD, "%s", err.message)
                               : qk_cli_fail(CMD, &err);
    }
out:
    for (int i = 0; i < a.nindex; i++)
        qk_index_close(ix[i]);
    qk_topics_free(topics);
    return rc;
}
