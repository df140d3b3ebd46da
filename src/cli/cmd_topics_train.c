/* `qrelkit topics train` and `qrelkit topics select --method l2r`: Kutlu et
 * al.'s learning-to-rank topic selection (spec 001-004 §1.5, §1.7, §1.8).
 * train builds Alg. 3's records from a judged collection (and/or reads
 * LETOR files), fits MART and writes the model; select --method l2r runs
 * Alg. 2 with that model on the runs alone. Parses and prints only: the
 * records, the selection and the learner are in src/topics/l2r_train.c,
 * src/topics/letor.c and src/learn/gbrt.c. */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "qrelkit/gbrt.h"
#include "qrelkit/topics.h"
#include "qrelkit/topics_l2r.h"
#include "topics_l2r_cli.h"

#define CMD "topics"

const char qk_help_topics_train[] =
    "usage: qrelkit topics train [options] QRELS RUN RUN [RUN...]\n"
    "       qrelkit topics train [options] --matrix AP.tsv RUN [RUN...]\n"
    "       qrelkit topics train [options] --data FILE [--data FILE...]\n"
    "\n"
    "Train the model `topics select --method l2r` ranks candidate topics with\n"
    "(Kutlu et al. 2017). From a judged collection (QRELS and its RUNs), Alg. 3\n"
    "draws W random selected sets P of every size 0..n-2 (each set once), gives\n"
    "each candidate t the Kendall tau_b between the runs' ranking over P + {t}\n"
    "and over all topics, and labels it with its bin among K_L equal bins\n"
    "between the set's worst and best tau (a set whose candidates all tie is\n"
    "dropped); the features are the 63 of `topics features`. The records of\n"
    "several collections are merged with --data. MART (least-squares gradient-\n"
    "boosted trees) is fitted to the labels; the model is written as text.\n"
    "\n"
    "options:\n"
    "  --model FILE      write the model here (default standard output)\n"
    "  --write-data FILE write the generated records as a LETOR file\n"
    "  --data FILE       train on this LETOR file too (repeatable; 63 features)\n"
    "  --no-train        only generate the records (needs --write-data)\n"
    "  --reps W          random sets drawn per size (default 50)\n"
    "  --labels K        label bins K_L (default 50)\n"
    "  --max-size N      largest selected set drawn (default n-2)\n"
    "  --seed S          the draws (default 1)\n"
    "  --measure NAME    per-topic measure on the full judgments (default\n"
    "                    map_cut.100, MAP@100's AP)\n"
    "  --matrix FILE     the per-topic scores instead of QRELS: a run x topic table\n"
    "                    (`qrelkit eval -c --matrix AP@100`, with --dedup first for\n"
    "                    runs that repeat a document); its topics are the\n"
    "                    candidates, its runs must be the RUNs in the same order\n"
    "  --depth N         the lists' depth for the features (default 100)\n"
    "  --collection NAME written in each record's comment (default QRELS' name)\n"
    "  --objective O     mart (default): least squares on the labels; lambdamart:\n"
    "                    the ranking objective (NDCG lambdas within each qid)\n"
    "  --trees N         MART trees (default 50)\n"
    "  --leaves N        leaves per tree (default 10; Kutlu tuned 2..50)\n"
    "  --shrinkage R     learning rate (default 0.1)\n"
    "  --min-leaf N      rows a leaf keeps (default 1)\n"
    "  --thresholds N    split candidates per feature (default 256)\n"
    "  --drop LIST       feature subsets to leave out (ablation), of:\n"
    "                    @[l2r-subset]\n"
    "\n"
    "Candidates are the topics of QRELS with a relevant document (of the\n"
    "matrix with --matrix); a run without one of them scores 0 there and has\n"
    "an empty list.\n"
    "\n"
    "example:\n"
    "  qrelkit topics train --write-data a.letor --no-train qa.txt runsA/*\n"
    "  qrelkit topics train --model l2r.model --data a.letor qb.txt runsB/*\n"
    "Details: doc/qrelkit-topics-l2r.md.\n";

enum {
    OPT_MODEL = 256,
    OPT_WRITE,
    OPT_DATA,
    OPT_NOTRAIN,
    OPT_REPS,
    OPT_LABELS,
    OPT_MAXSIZE,
    OPT_SEED,
    OPT_MEASURE,
    OPT_DEPTH,
    OPT_COLL,
    OPT_TREES,
    OPT_LEAVES,
    OPT_SHRINK,
    OPT_MINLEAF,
    OPT_THR,
    OPT_DROP,
    OPT_SIZE,
    OPT_FORMAT,
    OPT_PREC,
    OPT_QRELS,
    OPT_METHOD,
    OPT_MATRIX,
    OPT_OBJECTIVE
};

static const struct option train_opts[] = {{"help", no_argument, NULL, 'h'},
                                           {"model", required_argument, NULL, OPT_MODEL},
                                           {"write-data", required_argument, NULL, OPT_WRITE},
                                           {"data", required_argument, NULL, OPT_DATA},
                                           {"no-train", no_argument, NULL, OPT_NOTRAIN},
                                           {"reps", required_argument, NULL, OPT_REPS},
                                           {"labels", required_argument, NULL, OPT_LABELS},
                                           {"max-size", required_argument, NULL, OPT_MAXSIZE},
                                           {"seed", required_argument, NULL, OPT_SEED},
                                           {"measure", required_argument, NULL, OPT_MEASURE},
                                           {"depth", required_argument, NULL, OPT_DEPTH},
                                           {"collection", required_argument, NULL, OPT_COLL},
                                           {"trees", required_argument, NULL, OPT_TREES},
                                           {"leaves", required_argument, NULL, OPT_LEAVES},
                                           {"shrinkage", required_argument, NULL, OPT_SHRINK},
                                           {"min-leaf", required_argument, NULL, OPT_MINLEAF},
                                           {"thresholds", required_argument, NULL, OPT_THR},
                                           {"drop", required_argument, NULL, OPT_DROP},
                                           {"matrix", required_argument, NULL, OPT_MATRIX},
                                           {"objective", required_argument, NULL, OPT_OBJECTIVE},
                                           {NULL, 0, NULL, 0}};

/* The training rows gathered from generated records and LETOR files. */
typedef struct {
    double *x, *y;
    size_t *qid; /* each source's query groups kept apart: qid + the base */
    size_t n, cap, qid_base;
} rows;

static qk_status rows_add(rows *r, const double *x, const double *y, const size_t *qid, size_t n,
                          qk_error *err)
{
    size_t top = 0;
    if (r->n + n > r->cap) {
        size_t c = r->cap ? r->cap : 1024;
        double *nx, *ny;
        size_t *nq;
        while (c < r->n + n)
            c *= 2;
        nx = realloc(r->x, c * QK_L2R_NFEAT * sizeof *nx);
        if (nx)
            r->x = nx;
        ny = realloc(r->y, c * sizeof *ny);
        if (ny)
            r->y = ny;
        nq = realloc(r->qid, c * sizeof *nq);
        if (nq)
            r->qid = nq;
        if (!nx || !ny || !nq)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        r->cap = c;
    }
    memcpy(r->x + r->n * QK_L2R_NFEAT, x, n * QK_L2R_NFEAT * sizeof *x);
    memcpy(r->y + r->n, y, n * sizeof *y);
    for (size_t i = 0; i < n; i++) {
        r->qid[r->n + i] = r->qid_base + qid[i];
        top = qid[i] > top ? qid[i] : top;
    }
    r->qid_base += top + 1;
    r->n += n;
    return QK_OK;
}

typedef struct {
    const qk_l2r_records *rec;
    const qk_topic_matrix *m;
    const qk_l2r_train_opts *o;
    const char *coll, *measure;
    size_t nruns, depth;
} data_ctx;

static qk_status write_data(void *vctx, FILE *f, qk_error *err)
{
    const data_ctx *c = vctx;
    (void)err;
    fprintf(f,
            "# qrelkit topics train: %d features (spec 001-004 §1.6.3 order), collection %s, %zu runs, "
            "%zu topics, depth %zu, measure %s\n",
            QK_L2R_NFEAT, c->coll, c->nruns, c->m->ntopics, c->depth, c->measure);
    fprintf(
        f, "# K_L %zu, W %zu, seed %llu: %zu scenarios, %zu records (%zu flat dropped, %zu repeated draws)\n",
        c->o->bins, c->o->reps, (unsigned long long)c->o->seed, c->rec->ngroups, c->rec->n, c->rec->dropped,
        c->rec->duplicates);
    for (size_t i = 0; i < c->rec->n; i++) {
        fprintf(f, "%.17g qid:%zu", c->rec->label[i], c->rec->group[i]);
        for (int k = 0; k < QK_L2R_NFEAT; k++)
            fprintf(f, " %d:%.17g", k + 1, c->rec->x[i * QK_L2R_NFEAT + k] + 0.0);
        fprintf(f, " # %s %s\n", c->m->topics[c->rec->topic[i]], c->coll);
    }
    return QK_OK;
}

static qk_status write_model(void *ctx, FILE *f, qk_error *err)
{
    char *text = NULL;
    qk_status st = qk_gbrt_format(ctx, &text, err);
    if (st == QK_OK)
        fputs(text, f);
    free(text);
    return st;
}

/* The core features of the matrix' topics from the runs. */
static qk_status core_of(qk_run **runs, size_t nruns, const qk_topic_matrix *m, size_t depth, double **core,
                         qk_error *err)
{
    if (!(*core = malloc(m->ntopics * QK_L2R_NCORE * sizeof **core)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return qk_l2r_core_features((const qk_run *const *)runs, nruns, (const char *const *)m->topics,
                                m->ntopics, depth, *core, err);
}

/* --matrix FILE: a run x topic table (qk_stats_read_matrix's format). */
static qk_status read_matrix(const char *path, qk_topic_matrix **m, qk_error *err)
{
    qk_lines *l = NULL;
    qk_scores *s = NULL;
    qk_status st;
    if ((st = qk_lines_open(path, &l, err)) != QK_OK)
        return st;
    st = qk_stats_read_matrix(l, &s, err);
    qk_lines_close(l);
    if (st == QK_OK)
        st = qk_topics_matrix_from_scores(s, m, err);
    qk_stats_scores_free(s);
    return st;
}

/* --matrix: its rows are the runs given, in that order (by run name). */
static qk_status check_matrix_runs(const char *path, const qk_topic_matrix *m, qk_run **runs, size_t nruns,
                                   qk_error *err)
{
    if (m->nsys != nruns)
        return qk_error_set(err, QK_EINPUT, "'%s' has %zu runs, %zu RUNs were given", path, m->nsys, nruns);
    for (size_t s = 0; s < nruns; s++)
        if (strcmp(m->systems[s], qk_run_name(runs[s])) != 0)
            return qk_error_set(err, QK_EINPUT, "'%s': run %zu is '%s', the RUN given is '%s'", path, s + 1,
                                m->systems[s], qk_run_name(runs[s]));
    return QK_OK;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int qk_topics_train_main(int argc, char **argv)
{
    qk_l2r_train_opts to;
    qk_gbrt_opts go;
    const char *model = "-", *write = NULL, *measure = "map_cut.100", *coll = NULL, *matrix = NULL;
    const char *data[64];
    size_t ndata = 0, depth = QK_L2R_DEPTH, nruns = 0;
    int notrain = 0, c, rc = QK_EXIT_OK, drops[16], lambdamart = 0;
    size_t ndrops = 0;
    unsigned char mask[QK_L2R_NFEAT] = {0};
    qk_run **runs = NULL;
    qk_qrels *q = NULL;
    qk_topic_matrix *m = NULL;
    qk_l2r_records *rec = NULL;
    qk_gbrt *g = NULL;
    double *core = NULL;
    rows r = {0};
    qk_error err;
    qk_l2r_train_opts_init(&to);
    qk_gbrt_opts_init(&go);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", train_opts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_topics_train);
        case OPT_MODEL: model = optarg; break;
        case OPT_WRITE: write = optarg; break;
        case OPT_DATA:
            if (ndata == sizeof data / sizeof *data)
                return qk_cli_usage(CMD, "at most 64 --data files");
            data[ndata++] = optarg;
            break;
        case OPT_NOTRAIN: notrain = 1; break;
        case OPT_REPS: rc = qk_cli_size(CMD, "--reps", optarg, 1, 100000000, &to.reps); break;
        case OPT_LABELS: rc = qk_cli_size(CMD, "--labels", optarg, 1, 1000000, &to.bins); break;
        case OPT_MAXSIZE: rc = qk_cli_size(CMD, "--max-size", optarg, 0, SIZE_MAX, &to.max_size); break;
        case OPT_SEED: rc = qk_cli_seed(CMD, "--seed", optarg, &to.seed); break;
        case OPT_MEASURE: measure = optarg; break;
        case OPT_DEPTH: rc = qk_cli_size(CMD, "--depth", optarg, 1, 1000000, &depth); break;
        case OPT_COLL: coll = optarg; break;
        case OPT_MATRIX: matrix = optarg; break;
        case OPT_OBJECTIVE:
            if (strcmp(optarg, "mart") == 0 || strcmp(optarg, "lambdamart") == 0)
                lambdamart = optarg[0] == 'l';
            else
                return qk_cli_usage(CMD, "--objective: 'mart' or 'lambdamart', not '%s'", optarg);
            break;
        case OPT_TREES: rc = qk_cli_size(CMD, "--trees", optarg, 1, 100000, &go.trees); break;
        case OPT_LEAVES: rc = qk_cli_size(CMD, "--leaves", optarg, 2, 100000, &go.leaves); break;
        case OPT_SHRINK:
            rc = qk_cli_double(CMD, "--shrinkage", optarg, 0, 1, QK_NUM_LO_OPEN, &go.shrinkage);
            break;
        case OPT_MINLEAF: rc = qk_cli_size(CMD, "--min-leaf", optarg, 1, SIZE_MAX, &go.min_leaf); break;
        case OPT_THR: rc = qk_cli_size(CMD, "--thresholds", optarg, 1, 1000000, &go.thresholds); break;
        case OPT_DROP:
            rc = qk_cli_enum_list(CMD, qk_l2r_subset_table, "--drop", optarg, drops, 16, &ndrops);
            for (size_t i = 0; !rc && i < ndrops; i++)
                qk_l2r_subset_mask(drops[i], mask);
            break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
        if (rc)
            return rc;
    }
    if (!matrix && optind < argc && argc - optind < 3)
        return qk_cli_usage(CMD, "train needs QRELS and at least two RUNs");
    if (matrix && argc - optind < 2)
        return qk_cli_usage(CMD, "train --matrix needs the matrix' RUNs (at least two)");
    if (optind == argc && ndata == 0)
        return qk_cli_usage(CMD, "train needs QRELS and RUNs, or --data FILE");
    if (notrain && !write)
        return qk_cli_usage(CMD, "--no-train needs --write-data FILE");
    if (write && optind == argc)
        return qk_cli_usage(CMD, "--write-data writes the records generated from QRELS and RUNs");
    if (optind < argc) {
        int first = optind + (matrix ? 0 : 1);
        nruns = (size_t)(argc - first);
        if ((matrix ? read_matrix(matrix, &m, &err)
                    : qk_qrels_read(argv[optind], QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err)) != QK_OK ||
            qk_cli_read_runs((const char *const *)argv + first, nruns, QK_CLI_NAME_BASE, &runs, &err) !=
                QK_OK ||
            (!matrix &&
             qk_topics_matrix_from_eval(q, (const qk_run *const *)runs, nruns, measure, &m, &err) != QK_OK) ||
            (matrix && check_matrix_runs(matrix, m, runs, nruns, &err) != QK_OK) ||
            core_of(runs, nruns, m, depth, &core, &err) != QK_OK ||
            qk_l2r_train_data(m->x, m->nsys, m->ntopics, core, &to, &rec, &err) != QK_OK ||
            rows_add(&r, rec->x, rec->label, rec->group, rec->n, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        if (write) {
            data_ctx dc = {rec,
                           m,
                           &to,
                           coll ? coll : base_name(matrix ? matrix : argv[optind]),
                           matrix ? "from the matrix" : measure,
                           nruns,
                           depth};
            if ((rc = qk_cli_write_file(CMD, write, write_data, &dc)) != 0)
                goto out;
        }
    }
    if (notrain)
        goto out;
    for (size_t i = 0; i < ndata; i++) {
        qk_letor *t = NULL;
        if (qk_letor_read(data[i], QK_L2R_NFEAT, &t, &err) != QK_OK ||
            rows_add(&r, t->x, t->label, t->qid, t->n, &err) != QK_OK) {
            qk_letor_free(t);
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        qk_letor_free(t);
    }
    if (r.n == 0) {
        qk_cli_errorf(CMD, "no training records (every scenario's candidates tied)");
        rc = QK_EXIT_INPUT;
        goto out;
    }
    for (size_t i = 0; i < r.n; i++)
        for (int k = 0; k < QK_L2R_NFEAT; k++)
            if (mask[k])
                r.x[i * QK_L2R_NFEAT + k] = 0; /* a constant never splits: the subset is left out */
    if ((lambdamart ? qk_gbrt_train_lambdamart(r.x, r.y, r.qid, r.n, QK_L2R_NFEAT, &go, &g, &err)
                    : qk_gbrt_train(r.x, r.y, r.n, QK_L2R_NFEAT, &go, &g, &err)) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    rc = qk_cli_write_file(CMD, model, write_model, g);
out:
    qk_gbrt_free(g);
    free(r.x);
    free(r.y);
    free(r.qid);
    free(core);
    qk_l2r_records_free(rec);
    qk_topics_matrix_free(m);
    qk_cli_free_runs(runs, runs ? nruns : 0);
    qk_qrels_free(q);
    return rc;
}

const char qk_help_topics_select_l2r[] =
    "usage: qrelkit topics select --method l2r --model FILE --size K [options] RUN [RUN...]\n"
    "\n"
    "Kutlu et al.'s Alg. 2: choose K topics one at a time, each the candidate\n"
    "the model (from `topics train`) scores highest given the topics chosen so\n"
    "far, from the 63 features of the runs' rankings: no judgment is read.\n"
    "Prints rank, topic and the model's score. Ties go to the earlier topic.\n"
    "\n"
    "options:\n"
    "  --model FILE      the model (`topics train`)\n"
    "  --size K          topics to choose (default 10)\n"
    "  --depth N         the lists' depth (default 100; as in training)\n"
    "  --qrels FILE      candidates: the topics of FILE with a relevant document\n"
    "                    (their order; nothing else is read from it), default the\n"
    "                    runs' topics in order of first appearance\n"
    "  --format tsv|json (default tsv)\n"
    "  --precision N     decimals (default 6)\n"
    "Details: doc/qrelkit-topics-l2r.md.\n";

static const struct option l2r_opts[] = {{"help", no_argument, NULL, 'h'},
                                         {"method", required_argument, NULL, OPT_METHOD},
                                         {"model", required_argument, NULL, OPT_MODEL},
                                         {"size", required_argument, NULL, OPT_SIZE},
                                         {"depth", required_argument, NULL, OPT_DEPTH},
                                         {"qrels", required_argument, NULL, OPT_QRELS},
                                         {"format", required_argument, NULL, OPT_FORMAT},
                                         {"precision", required_argument, NULL, OPT_PREC},
                                         {NULL, 0, NULL, 0}};

/* The candidate topics: the qrels' topics with a relevant document, or the
 * runs' topics in order of first appearance. */
static qk_status candidates(const char *qrels, qk_run **runs, size_t nruns, qk_strpool *pool, qk_error *err)
{
    if (qrels) {
        qk_qrels *q = NULL;
        qk_status st = qk_qrels_read(qrels, QK_REL_QRELS, QK_DEDUP_FIRST, &q, err);
        if (st != QK_OK)
            return st;
        for (size_t t = 0; t < qk_qrels_num_topics(q) && st == QK_OK; t++) {
            const char *id = qk_qrels_topic(q, t);
            uint32_t x;
            size_t nj, nrel = 0;
            const qk_judgment *j = qk_qrels_judgments(q, t, &nj);
            for (size_t k = 0; k < nj; k++)
                nrel += j[k].rel > 0;
            if (nrel > 0 && qk_strpool_intern(pool, id, strlen(id), &x) != QK_OK)
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
        }
        qk_qrels_free(q);
        if (st == QK_OK && qk_strpool_count(pool) == 0)
            st = qk_error_set(err, QK_EINPUT, "'%s' has no topic with a relevant document", qrels);
        return st;
    }
    for (size_t s = 0; s < nruns; s++)
        for (size_t t = 0; t < qk_run_num_topics(runs[s]); t++) {
            const char *id = qk_run_topic_at(runs[s], t)->qid;
            uint32_t x;
            if (qk_strpool_intern(pool, id, strlen(id), &x) != QK_OK)
                return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
    return QK_OK;
}

static qk_status read_model(const char *path, qk_gbrt **g, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(path, &l, err);
    if (st != QK_OK)
        return st;
    if ((st = qk_gbrt_read(l, g, err)) == QK_EINPUT) {
        char msg[sizeof err->message];
        snprintf(msg, sizeof msg, "%s", err->message);
        st = qk_error_set(err, st, "'%s': %s", path, msg);
    }
    qk_lines_close(l);
    return st;
}

int qk_topics_select_l2r_main(int argc, char **argv)
{
    const char *model = NULL, *qrels = NULL;
    size_t size = 10, depth = QK_L2R_DEPTH, nruns, n;
    long prec = 6;
    int c, rc = 0, json = 0;
    qk_run **runs = NULL;
    qk_strpool *pool = NULL;
    qk_gbrt *g = NULL;
    const char **ids = NULL;
    double *core = NULL, *score = NULL;
    size_t *order = NULL;
    qk_error err;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", l2r_opts, NULL)) != -1) {
        switch (c) {
        case 'h': return qk_cli_help(qk_help_topics_select_l2r);
        case OPT_METHOD: break; /* l2r: how we got here */
        case OPT_MODEL: model = optarg; break;
        case OPT_SIZE: rc = qk_cli_size(CMD, "--size", optarg, 1, SIZE_MAX, &size); break;
        case OPT_DEPTH: rc = qk_cli_size(CMD, "--depth", optarg, 1, 1000000, &depth); break;
        case OPT_QRELS: qrels = optarg; break;
        case OPT_FORMAT: rc = qk_cli_format_tsv_json(CMD, optarg, &json); break;
        case OPT_PREC: rc = qk_cli_long(CMD, "--precision", optarg, 0, 17, &prec); break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s' (with --method l2r)", argv[optind - 1]);
        }
        if (rc)
            return rc;
    }
    if (!model)
        return qk_cli_usage(CMD, "--method l2r needs --model FILE (from `qrelkit topics train`)");
    nruns = (size_t)(argc - optind);
    if (nruns < 1)
        return qk_cli_usage(CMD, "--method l2r needs at least one RUN");
    if (read_model(model, &g, &err) != QK_OK ||
        qk_cli_read_runs((const char *const *)argv + optind, nruns, QK_CLI_NAME_BASE, &runs, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (!(pool = qk_strpool_new())) {
        rc = QK_EXIT_IO;
        goto out;
    }
    if (candidates(qrels, runs, nruns, pool, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    n = qk_strpool_count(pool);
    if (size > n) {
        rc = qk_cli_usage(CMD, "--size %zu is larger than the %zu candidate topics", size, n);
        goto out;
    }
    ids = malloc(n * sizeof *ids);
    core = malloc(n * QK_L2R_NCORE * sizeof *core);
    score = malloc(size * sizeof *score);
    order = malloc(size * sizeof *order);
    if (!ids || !core || !score || !order) {
        rc = QK_EXIT_IO;
        goto out;
    }
    for (size_t t = 0; t < n; t++)
        ids[t] = qk_strpool_str(pool, (uint32_t)t);
    if (qk_l2r_core_features((const qk_run *const *)runs, nruns, ids, n, depth, core, &err) != QK_OK ||
        qk_l2r_select(core, n, g, size, order, score, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (json) {
        json_t *root = json_object(), *arr = json_array();
        json_object_set_new(root, "method", json_string("l2r"));
        json_object_set_new(root, "topics_total", json_integer((json_int_t)n));
        json_object_set_new(root, "runs", json_integer((json_int_t)nruns));
        for (size_t k = 0; k < size; k++) {
            json_t *e = json_object();
            json_object_set_new(e, "topic", json_string(ids[order[k]]));
            json_object_set_new(e, "score", json_real(score[k]));
            json_array_append_new(arr, e);
        }
        json_object_set_new(root, "chosen", arr);
        json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION((int)prec + 1));
        putchar('\n');
        json_decref(root);
    } else {
        printf("rank\ttopic\tscore\n");
        for (size_t k = 0; k < size; k++)
            printf("%zu\t%s\t%.*f\n", k + 1, ids[order[k]], (int)prec, score[k]);
    }
    rc = qk_cli_flush_stdout(CMD);
out:
    free(ids);
    free(core);
    free(score);
    free(order);
    qk_gbrt_free(g);
    qk_strpool_free(pool);
    qk_cli_free_runs(runs, runs ? nruns : 0);
    return rc;
}
