/* qrelkit aggregate: crowd labels -> relevance judgments (qk_crowd_* in crowd.h). */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_tables.h"
#include "cli_util.h"
#include "qrelkit/crowd.h"
#include "qrelkit/search.h"
#include "qrelkit/sim.h"

const char qk_help_aggregate[] =
    "usage: qrelkit aggregate [--method M] [options] LABELS\n"
    "\n"
    "Combine several noisy crowd labels per document into one judgment per\n"
    "document: a hard label (qrels) and a probability per class (for estimators\n"
    "that take soft judgments). Also estimates how reliable each worker is and\n"
    "flags workers whose answers do not depend on the document (spammers).\n"
    "A summary (TSV key<TAB>value, or JSON) goes to standard output; with --gold\n"
    "it includes accuracy, precision/recall/F1 of the positive class, the\n"
    "true-negative rate (tnr) and the AUC of its probability.\n"
    "\n"
    "methods (--method, default ds):\n"
    "  mv       majority vote; ties go to the first class (--ties); with\n"
    "           --gold-weights each vote counts the log-odds of the worker's\n"
    "           accuracy on the gold tasks\n"
    "  ds       Dawid & Skene (1979): EM over a full confusion matrix per worker\n"
    "           (any number of classes, graded labels), started from majority vote\n"
    "  onecoin  Dawid-Skene with one accuracy per worker, errors spread evenly\n"
    "  glad     Whitehill et al. (2009): P(correct) = sigmoid(ability x easiness)\n"
    "  mace     Hovy et al. (2013): each worker spams with some probability,\n"
    "           following a strategy of its own; variational Bayes, restarts\n"
    "  magp     Li (2020): a Gaussian-process classifier over task features whose\n"
    "           labels pass through task and worker noise; variational EM; also\n"
    "           predicts tasks nobody labelled (binary labels)\n"
    "  gpmv     Li's baseline: a GP classifier (magp's kernels and options) on\n"
    "           each task's majority vote, ties relevant; no noise (binary)\n"
    "  lk       Li's baseline: magp's task and worker noise without the GP, one\n"
    "           free latent per task, N(0,1) prior; relevant iff it is >= 0\n"
    "\n"
    "input (LABELS, gzip or '-' allowed; a first line ending in 'label' is a header):\n"
    "  task worker label            one label per line (TSV or blanks)\n"
    "  topic docno worker label     a topic-document pair is the task\n"
    "  --layout trec: topic worker docno label\n"
    "\n"
    "options:\n"
    "  -m, --method NAME       @{crowd-method} (default ds)\n"
    "  --out-qrels FILE        write qrels: topic 0 docno label ('-' = stdout, for\n"
    "                          one output at most; then no summary)\n"
    "  --out-probs FILE        write TSV: task label n_labels p_<class>...\n"
    "  --workers FILE          write TSV: worker n_labels accuracy ability\n"
    "                          spam_score spammer e_<true>_<observed>...\n"
    "  --gold FILE             task label (header optional): score the result\n"
    "  --positive CLASS        the relevant class for precision/recall/AUC\n"
    "                          (default: the last class, e.g. 1 or yes)\n"
    "  --gold-weights          mv: weight workers by their accuracy on --gold\n"
    "  --known FILE            task label: labels known in advance; their tasks\n"
    "                          are fixed to them during EM (semi-supervised)\n"
    "  --classes A,B,...       the allowed labels, in order; any other label is an\n"
    "                          error (or skipped with --drop-unknown)\n"
    "  --drop-unknown          skip labels outside --classes, and say how many\n"
    "  --duplicates POLICY     a worker labelling a task twice:\n"
    "                          @[agg-duplicates]\n"
    "  --layout NAME           @{agg-layout} (default auto)\n"
    "  --max-iter N            EM iterations at most (default 100; 0 = start only)\n"
    "  --tol X                 stop when the relative log-likelihood change is\n"
    "                          below X (default 1e-7; negative: never stop early)\n"
    "  --stop RULE             ds/onecoin: when EM stops (default loglik):\n"
    "                          @[agg-stop]\n"
    "  --compat crowdkit       reproduce crowd-kit 1.4.1: --stop crowdkit, and\n"
    "                          mace from its starting point (numpy seed --seed,\n"
    "                          default 0) with its strategy indexing\n"
    "  --smoothing A           add A to every confusion count (default 0: counts\n"
    "                          are floored at 1e-10, as crowd-kit does)\n"
    "  --ties RULE             hard label on a tie: @{agg-ties} (first)\n"
    "  --restarts N            mace: random restarts, best likelihood kept (10)\n"
    "  --seed N                random seed (default 42)\n"
    "  --spam-threshold X      flag workers with spam score below X (default 0.1)\n"
    "  --format F              summary format: @{format} (default tsv)\n"
    "  --precision N           significant digits in written files (default 6)\n"
    "  --run FILE              a TREC run (repeat for several): with --gold, each\n"
    "                          run's MAP under the aggregated qrels and under the\n"
    "                          gold qrels, and Kendall's tau-b of the two rankings\n"
    "  --timing                add wall-clock times to the summary\n"
    "\n"
    "magp (and gpmv) options:\n"
    "  --features FILE         task v1 v2 ... (or a 'topic docno ...' header): any\n"
    "                          numeric task features, e.g. lexical scores or\n"
    "                          external embeddings; z-scored; every row as many\n"
    "                          columns as the header; tasks listed here without\n"
    "                          labels are predicted too\n"
    "  --rank-features         use the --run files' ranks of each task as features\n"
    "  --lexical INDEX --topics FILE\n"
    "                          add the six lexical features (TF, IDF, TF-IDF,\n"
    "                          cosine, BM25, LM) of each topic-document task,\n"
    "                          from an index made by 'qrelkit index'\n"
    "  --out-features FILE     write the task features before z-scoring (TSV)\n"
    "  --kernel K              feature kernel: @{agg-kernel} (default rbf, GPflow's\n"
    "                          exp(-d²/2l²))\n"
    "  --lengthscale L         RBF length scale (default 1)\n"
    "  --kernel-variance V     feature kernel variance (default 1)\n"
    "  --topic-variance V      covariance shared by tasks of one topic (default 1)\n"
    "  --white-variance V      per-task variance of its own, with --features (1)\n"
    "  --no-topic-blocks       one covariance over all tasks instead of per topic\n"
    "  --learn-kernel          fit the kernel values above too (L-BFGS, Exp(1)\n"
    "                          priors); slower, they are fixed by default\n"
    "  --gp-mean FILE          task score: prior mean of the latent relevance\n"
    "                          (probit scale; divide logits by 1.702)\n"
    "  -h, --help              show this text\n"
    "\n"
    "examples:\n"
    "  qrelkit aggregate --method ds labels.tsv --out-qrels crowd.qrels\n"
    "  qrelkit aggregate -m glad labels.tsv --gold gold.tsv --workers workers.tsv\n"
    "  qrelkit aggregate -m mv --gold-weights --gold gold.tsv labels.tsv\n"
    "\n"
    "See doc/qrelkit-aggregate.md for the models, their formulas and sources.\n"
    "exit status: 0 ok, 1 bad option, 2 bad input, 3 I/O error.\n";

#define CMD "aggregate"

typedef struct {
    qk_crowd_opts o;
    qk_crowd_read_opts ro;
    const char *labels, *gold, *known, *out_qrels, *out_probs, *out_workers, *positive;
    int gold_weights, json, precision, timing;
    const char *features, *gp_mean_file;
    char **runs;
    size_t nruns;
    int rank_features, seed_set;
    const char *lexical, *topics, *out_features;
    char **classes;
    size_t nclasses;
} args;

/* No output may be one of the inputs (same device and inode). */
static int check_outputs(const args *a)
{
    const char *outs[4] = {a->out_qrels, a->out_probs, a->out_workers, a->out_features};
    static const char *const opt[4] = {"--out-qrels", "--out-probs", "--workers", "--out-features"};
    const char *ins[8] = {a->labels, a->gold, a->known, a->features, a->gp_mean_file, a->lexical, a->topics};
    int rc = 0;
    for (int k = 0; k < 4 && rc == 0; k++) {
        rc = qk_cli_check_output(CMD, opt[k], outs[k], ins, 7);
        if (rc == 0)
            rc = qk_cli_check_output(CMD, opt[k], outs[k], (const char *const *)a->runs, a->nruns);
    }
    return rc;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int split_classes(const char *s, args *a)
{
    char *copy = strdup(s), *save = NULL, *tok;
    size_t cap = 0;
    if (!copy)
        return -1;
    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (qk_grow((void **)&a->classes, &cap, a->nclasses + 1, sizeof *a->classes) != QK_OK ||
            !(a->classes[a->nclasses] = strdup(tok))) {
            free(copy);
            return -1;
        }
        a->nclasses++;
    }
    free(copy);
    return 0;
}

/* Read TASK LABEL lines into gold[] (-1 elsewhere). Tasks absent from the
 * labels are counted in *uncovered; labels outside the classes are errors. */
static qk_status read_gold(const char *path, const qk_crowd_labels *L, int32_t *gold, size_t *uncovered,
                           qk_error *err)
{
    qk_lines *ln = NULL;
    const char *line;
    size_t len, n = 0;
    int r;
    qk_status st = qk_lines_open(path, &ln, err);
    if (st != QK_OK)
        return st;
    for (size_t t = 0; t < qk_crowd_num_tasks(L); t++)
        gold[t] = -1;
    *uncovered = 0;
    while ((r = qk_lines_next(ln, &line, &len, err)) > 0) {
        const char *f[3];
        size_t fl[3], nf = qk_split_fields(line, len, f, fl, 3), t, c;
        char task[4096], lab[256];
        if (nf == 0 || f[0][0] == '#')
            continue;
        if (n++ == 0 && nf >= 2 && fl[nf - 1] == 5 && strncmp(f[nf - 1], "label", 5) == 0)
            continue; /* header */
        if (nf != 2 && nf != 3) {
            st = qk_error_at(err, QK_EINPUT, path, qk_lines_lineno(ln), 0,
                             "expected 'task label' or 'topic docno label', found %zu fields", nf);
            break;
        }
        if (nf == 3)
            snprintf(task, sizeof task, "%.*s %.*s", (int)fl[0], f[0], (int)fl[1], f[1]);
        else
            snprintf(task, sizeof task, "%.*s", (int)fl[0], f[0]);
        snprintf(lab, sizeof lab, "%.*s", (int)fl[nf - 1], f[nf - 1]);
        if (!qk_crowd_find_class(L, lab, &c)) {
            st = qk_error_at(
                err, QK_EINPUT, path, qk_lines_lineno(ln), 0,
                "label '%s' is not one of the crowd's classes (map it first, e.g. to gold_binary)", lab);
            break;
        }
        if (!qk_crowd_find_task(L, task, &t)) {
            (*uncovered)++;
            continue;
        }
        gold[t] = (int32_t)c;
    }
    if (r < 0)
        st = (qk_status)r;
    qk_lines_close(ln);
    return st;
}

/* The raw feature matrix, for checking what MAGP was given. */
static qk_status write_features(const char *path, const qk_crowd_labels *L, const double *x, size_t dim,
                                int prec, qk_error *err)
{
    char tmp[4096];
    int to_stdout = !strcmp(path, "-");
    FILE *f;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!(f = to_stdout ? stdout : fopen(tmp, "w")))
        return qk_error_set(err, QK_EIO, "'%s': cannot create", tmp);
    fputs("task", f);
    for (size_t d = 0; d < dim; d++)
        fprintf(f, "\tf%zu", d + 1);
    fputc('\n', f);
    for (size_t t = 0; t < qk_crowd_num_tasks(L); t++) {
        fputs(qk_crowd_task_name(L, t), f);
        for (size_t d = 0; d < dim; d++) {
            char b[QK_FMT_BUFSIZE];
            size_t n = qk_fmt_g(b, x[t * dim + d], prec); /* printf's %.*g bytes */
            fputc('\t', f);
            fwrite(b, 1, n, f);
        }
        fputc('\n', f);
    }
    if (to_stdout)
        return fflush(f) ? qk_error_set(err, QK_EIO, "cannot write standard output") : QK_OK;
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return qk_error_set(err, QK_EIO, "'%s': write failed", path);
    }
    return QK_OK;
}

static const qk_enum qk_agg_compat_table[] = {
    {"crowdkit", QK_CROWD_COMPAT_CROWDKIT, "reproduce crowd-kit 1.4.1 (stopping rule, MACE's start and indexing)"},
    {NULL, 0, NULL}};

enum {
    O_QRELS = 256, O_PROBS, O_WORKERS, O_GOLD, O_POS, O_GW, O_KNOWN, O_CLASSES, O_DROP, O_DUP, O_LAYOUT,
    O_MAXIT, O_TOL, O_STOP, O_SMOOTH, O_TIES, O_RESTARTS, O_SEED, O_SPAM, O_FORMAT, O_PREC, O_TIMING,
    O_FEAT, O_RUN, O_KERNEL, O_LS, O_KV, O_TV, O_NOBLOCK, O_GPMEAN, O_WV, O_RANKF, O_LEARNK, O_LEX,
    O_TOPICS, O_OUTF, O_COMPAT
};

#define F(f) offsetof(args, f)
static const qk_cli_opt value_opts[] = {
    {'m', "--method", 'e', F(o.method), qk_crowd_method_table, 0, 0, 0},
    {O_COMPAT, "--compat", 'e', F(o.compat), qk_agg_compat_table, 0, 0, 0},
    {O_DUP, "--duplicates", 'e', F(ro.duplicates), qk_agg_duplicates_table, 0, 0, 0},
    {O_LAYOUT, "--layout", 'e', F(ro.layout), qk_agg_layout_table, 0, 0, 0},
    {O_STOP, "--stop", 'e', F(o.stop), qk_agg_stop_table, 0, 0, 0},
    {O_TIES, "--ties", 'e', F(o.tie), qk_agg_ties_table, 0, 0, 0},
    {O_KERNEL, "--kernel", 'e', F(o.kernel), qk_agg_kernel_table, 0, 0, 0},
    {O_FORMAT, "--format", 'e', F(json), qk_cli_format_table, 0, 0, 0},
    {O_MAXIT, "--max-iter", 'i', F(o.max_iter), NULL, 0, 1000000, 0},
    {O_RESTARTS, "--restarts", 'i', F(o.restarts), NULL, 1, 10000, 0},
    {O_PREC, "--precision", 'i', F(precision), NULL, 1, 17, 0},
    {O_SEED, "--seed", 's', F(o.seed), NULL, 0, 0, 0},
    {O_TOL, "--tol", 'd', F(o.tol), NULL, -INFINITY, INFINITY, 0},
    {O_SPAM, "--spam-threshold", 'd', F(o.spam_threshold), NULL, -INFINITY, INFINITY, 0},
    {O_SMOOTH, "--smoothing", 'd', F(o.smoothing), NULL, 0, INFINITY, 0},
    {O_LS, "--lengthscale", 'd', F(o.lengthscale), NULL, 0, INFINITY, QK_NUM_LO_OPEN},
    {O_KV, "--kernel-variance", 'd', F(o.kernel_variance), NULL, 0, INFINITY, 0},
    {O_TV, "--topic-variance", 'd', F(o.topic_variance), NULL, 0, INFINITY, 0},
    {O_WV, "--white-variance", 'd', F(o.white_variance), NULL, 0, INFINITY, 0},
    {0, NULL, 0, 0, NULL, 0, 0, 0},
};
#undef F

static int parse_args(int argc, char **argv, args *a)
{
    static const struct option lo[] = {{"method", 1, 0, 'm'},
                                       {"out-qrels", 1, 0, O_QRELS},
                                       {"out-probs", 1, 0, O_PROBS},
                                       {"workers", 1, 0, O_WORKERS},
                                       {"gold", 1, 0, O_GOLD},
                                       {"positive", 1, 0, O_POS},
                                       {"gold-weights", 0, 0, O_GW},
                                       {"known", 1, 0, O_KNOWN},
                                       {"classes", 1, 0, O_CLASSES},
                                       {"drop-unknown", 0, 0, O_DROP},
                                       {"duplicates", 1, 0, O_DUP},
                                       {"layout", 1, 0, O_LAYOUT},
                                       {"max-iter", 1, 0, O_MAXIT},
                                       {"tol", 1, 0, O_TOL},
                                       {"stop", 1, 0, O_STOP},
                                       {"compat", 1, 0, O_COMPAT},
                                       {"smoothing", 1, 0, O_SMOOTH},
                                       {"ties", 1, 0, O_TIES},
                                       {"restarts", 1, 0, O_RESTARTS},
                                       {"seed", 1, 0, O_SEED},
                                       {"spam-threshold", 1, 0, O_SPAM},
                                       {"format", 1, 0, O_FORMAT},
                                       {"precision", 1, 0, O_PREC},
                                       {"timing", 0, 0, O_TIMING},
                                       {"features", 1, 0, O_FEAT},
                                       {"run", 1, 0, O_RUN},
                                       {"runs", 1, 0, O_RUN},
                                       {"kernel", 1, 0, O_KERNEL},
                                       {"lengthscale", 1, 0, O_LS},
                                       {"kernel-variance", 1, 0, O_KV},
                                       {"topic-variance", 1, 0, O_TV},
                                       {"no-topic-blocks", 0, 0, O_NOBLOCK},
                                       {"gp-mean", 1, 0, O_GPMEAN},
                                       {"white-variance", 1, 0, O_WV},
                                       {"rank-features", 0, 0, O_RANKF},
                                       {"learn-kernel", 0, 0, O_LEARNK},
                                       {"lexical", 1, 0, O_LEX},
                                       {"topics", 1, 0, O_TOPICS},
                                       {"out-features", 1, 0, O_OUTF},
                                       {"help", 0, 0, 'h'},
                                       {0, 0, 0, 0}};
    size_t runcap = 0;
    int ch, rc;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "hm:", lo, NULL)) != -1) {
        const char *s = optarg;
        if ((rc = qk_cli_set(CMD, value_opts, ch, s, a)) >= 0) {
            if (rc)
                return rc;
            a->seed_set |= ch == O_SEED;
            continue;
        }
        switch (ch) {
        case 'h': return -2;
        case O_QRELS: a->out_qrels = s; break;
        case O_PROBS: a->out_probs = s; break;
        case O_WORKERS: a->out_workers = s; break;
        case O_GOLD: a->gold = s; break;
        case O_POS: a->positive = s; break;
        case O_GW: a->gold_weights = 1; break;
        case O_KNOWN: a->known = s; break;
        case O_CLASSES:
            if (split_classes(s, a) != 0 || a->nclasses < 2)
                return qk_cli_usage(CMD, "--classes: '%s' is not a list of at least two labels", s);
            break;
        case O_DROP: a->ro.drop_unknown = 1; break;
        case O_TIMING: a->timing = 1; break;
        case O_FEAT: a->features = s; break;
        case O_GPMEAN: a->gp_mean_file = s; break;
        case O_NOBLOCK: a->o.block_by_topic = 0; break;
        case O_RANKF: a->rank_features = 1; break;
        case O_LEARNK: a->o.learn_kernel = 1; break;
        case O_LEX: a->lexical = s; break;
        case O_TOPICS: a->topics = s; break;
        case O_OUTF: a->out_features = s; break;
        case O_RUN:
            if (qk_grow((void **)&a->runs, &runcap, a->nruns + 1, sizeof *a->runs) != QK_OK)
                return qk_cli_usage(CMD, "out of memory");
            a->runs[a->nruns++] = (char *)s;
            break;
        default: return qk_cli_usage(CMD, "unknown option; see the list below 'options:'");
        }
    }
    if (optind != argc - 1)
        return qk_cli_usage(
            CMD, optind >= argc ? "missing LABELS file" : "expected one LABELS file, got %d operands",
            argc - optind);
    if (qk_cli_is_stdout(a->out_qrels) + qk_cli_is_stdout(a->out_probs) + qk_cli_is_stdout(a->out_workers) +
            qk_cli_is_stdout(a->out_features) >
        1)
        return qk_cli_usage(CMD, "only one of --out-qrels, --out-probs, --workers and --out-features can be "
                                 "'-' (standard output)");
    if (a->gold_weights && (!a->gold || a->o.method != QK_CROWD_MV))
        return qk_cli_usage(CMD, "--gold-weights needs --gold and --method mv");
    if ((a->features || a->rank_features || a->gp_mean_file || a->lexical) && a->o.method != QK_CROWD_MAGP &&
        a->o.method != QK_CROWD_GPMV)
        return qk_cli_usage(
            CMD, "--features, --rank-features, --lexical and --gp-mean need --method magp or gpmv");
    if (!a->lexical != !a->topics)
        return qk_cli_usage(CMD, "--lexical INDEX and --topics FILE go together");
    if (a->rank_features && !a->nruns)
        return qk_cli_usage(CMD, "--rank-features needs at least one --run");
    a->labels = argv[optind];
    a->ro.classes = (const char *const *)a->classes;
    a->ro.n_classes = a->nclasses;
    {
        qk_cli_stdin seen = {0};
        int src = qk_cli_stdin_once(CMD, &seen, a->labels, "LABELS", 0);
        const char *const opt[] = {a->gold, a->known, a->features, a->gp_mean_file, a->topics};
        const char *const name[] = {"--gold", "--known", "--features", "--gp-mean", "--topics"};
        for (size_t k = 0; !src && k < sizeof opt / sizeof *opt; k++)
            src = qk_cli_stdin_once(CMD, &seen, opt[k], name[k], 0);
        for (size_t k = 0; !src && k < a->nruns; k++)
            src = qk_cli_stdin_once(CMD, &seen, a->runs[k], "--run", (int)k + 1);
        return src;
    }
}

typedef struct {
    json_t *doc;
    int json;
} summary;

static void put_num(summary *s, const char *key, double v)
{
    if (s->json)
        json_object_set_new(s->doc, key, isfinite(v) ? json_real(v) : json_null());
    else
        printf("%s\t%.6g\n", key, v);
}

static void put_int(summary *s, const char *key, size_t v)
{
    if (s->json)
        json_object_set_new(s->doc, key, json_integer((json_int_t)v));
    else
        printf("%s\t%zu\n", key, v);
}

static void put_str(summary *s, const char *key, const char *v)
{
    if (s->json)
        json_object_set_new(s->doc, key, json_string(v));
    else
        printf("%s\t%s\n", key, v);
}

/* The library parses; the CLI opens the files. */
static qk_status read_labels(const char *path, const qk_crowd_read_opts *o, qk_crowd_labels **L,
                             qk_crowd_read_stats *rs, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(path, &l, err);
    if (st == QK_OK)
        st = qk_crowd_labels_read(l, o, L, rs, err);
    qk_lines_close(l);
    return st;
}

static qk_status read_features(const char *path, qk_crowd_features *f, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(path, &l, err);
    if (st == QK_OK)
        st = qk_crowd_features_read(l, f, err);
    qk_lines_close(l);
    return st;
}

/* The library's writers, to the files the CLI opens. */
typedef struct agg_out {
    const qk_crowd_labels *L;
    const qk_crowd_result *r;
    int precision;
} agg_out;

static qk_status write_qrels(void *ctx, FILE *f, qk_error *err)
{
    const agg_out *w = ctx;
    return qk_crowd_write_qrels(w->L, w->r, f, err);
}

static qk_status write_probs(void *ctx, FILE *f, qk_error *err)
{
    const agg_out *w = ctx;
    return qk_crowd_write_probs(w->L, w->r, f, w->precision, err);
}

static qk_status write_workers(void *ctx, FILE *f, qk_error *err)
{
    const agg_out *w = ctx;
    return qk_crowd_write_workers(w->L, w->r, f, w->precision, err);
}

int qk_cmd_aggregate(int argc, char **argv)
{
    args a;
    qk_error err = {0};
    qk_crowd_labels *L = NULL;
    qk_crowd_result *r = NULL;
    qk_crowd_read_stats rs;
    int32_t *gold = NULL, *known = NULL;
    qk_run **ranked = NULL;
    double *weight = NULL, *fx = NULL, *gpmean = NULL, t0, t1, t2;
    qk_crowd_features feat = {0};
    size_t fdim = 0;
    size_t uncovered = 0, known_unc = 0, spammers = 0;
    int rc = QK_EXIT_OK, pr;
    summary s = {0};
    memset(&a, 0, sizeof a);
    qk_crowd_opts_init(&a.o);
    a.precision = 6;
    pr = parse_args(argc, argv, &a);
    if (pr == -2) {
        rc = qk_cli_help(qk_help_aggregate);
        goto out;
    }
    if (pr != 0) {
        rc = pr;
        goto out;
    }
    if ((rc = check_outputs(&a)) != 0)
        goto out;
    if (a.o.compat == QK_CROWD_COMPAT_CROWDKIT) {
        a.o.stop = QK_CROWD_STOP_CROWDKIT;
        if (!a.seed_set)
            a.o.seed = 0; /* crowd-kit's random_state */
    }
    t0 = now();
    if (a.features) {
        if (read_features(a.features, &feat, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        a.ro.extra_tasks = (const char *const *)feat.names;
        a.ro.n_extra_tasks = feat.n;
    }
    if (read_labels(a.labels, &a.ro, &L, &rs, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (rs.dropped_unknown)
        qk_cli_errorf(CMD, "warning: skipped %zu labels outside --classes", rs.dropped_unknown);
    if (rs.dup_conflicts)
        qk_cli_errorf(
            CMD, "warning: %zu (task, worker) pairs have conflicting repeated labels (%s)", rs.dup_conflicts,
            a.ro.duplicates == QK_CROWD_DUP_KEEP ? "all kept; see --duplicates" : "resolved by --duplicates");
    if (qk_crowd_num_labels(L) == 0) {
        qk_cli_errorf(CMD, "'%s': no labels", a.labels);
        rc = QK_EXIT_INPUT;
        goto out;
    }
    size_t nt = qk_crowd_num_tasks(L), nw = qk_crowd_num_workers(L), k = qk_crowd_num_classes(L), pos = k - 1;
    if (a.positive && !qk_crowd_find_class(L, a.positive, &pos)) {
        qk_cli_errorf(CMD, "--positive: '%s' is not one of the labels", a.positive);
        rc = QK_EXIT_USAGE;
        goto out;
    }
    gold = malloc((nt + 1) * sizeof *gold);
    known = malloc((nt + 1) * sizeof *known);
    weight = malloc((nw + 1) * sizeof *weight);
    if (!gold || !known || !weight) {
        qk_cli_errorf(CMD, "out of memory");
        rc = QK_EXIT_IO;
        goto out;
    }
    if ((a.gold && read_gold(a.gold, L, gold, &uncovered, &err) != QK_OK) ||
        (a.known && read_gold(a.known, L, known, &known_unc, &err) != QK_OK)) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (a.known)
        a.o.gold = known;
    if (a.nruns && qk_cli_read_runs((const char *const *)a.runs, a.nruns, QK_CLI_NAME_BASE, &ranked, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (a.features || a.rank_features || a.gp_mean_file || a.lexical) {
        size_t missing = 0;
        if (a.features && qk_crowd_features_for_tasks(&feat, L, &fx, &missing, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        fdim = a.features ? feat.dim : 0;
        if (a.rank_features &&
            qk_crowd_rank_features((const qk_run *const *)ranked, a.nruns, L, &fx, &fdim, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        if (a.lexical) {
            size_t unmatched = 0;
            qk_index *ix = NULL;
            qk_topics *tp = NULL;
            qk_status lst = qk_index_open(a.lexical, &ix, &err);
            if (lst == QK_OK)
                lst = qk_topics_read(a.topics, NULL, &tp, &err);
            if (lst == QK_OK)
                lst = qk_crowd_lexical_features(ix, tp, L, &fx, &fdim, &unmatched, &err);
            qk_topics_free(tp);
            qk_index_close(ix);
            if (lst != QK_OK) {
                rc = qk_cli_fail(CMD, &err);
                goto out;
            }
            if (unmatched)
                qk_cli_errorf(CMD,
                              "warning: %zu tasks have no topic or document in the index (given the mean)",
                              unmatched);
        }
        if (missing)
            qk_cli_errorf(CMD, "warning: %zu labelled tasks have no row in '%s' (given the mean)", missing,
                          a.features);
        if (a.out_features && write_features(a.out_features, L, fx, fdim, a.precision, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        qk_crowd_zscore(fx, nt, fdim, 0);
        a.o.features = fdim ? fx : NULL;
        a.o.n_features = fdim;
        if (a.gp_mean_file) {
            qk_crowd_features mf;
            size_t miss2;
            if (read_features(a.gp_mean_file, &mf, &err) != QK_OK) {
                rc = qk_cli_fail(CMD, &err);
                goto out;
            }
            /* Raw scores: no z-scoring, so reuse the rows directly. */
            gpmean = calloc(nt + 1, sizeof *gpmean);
            for (size_t i = 0; gpmean && i < mf.n; i++) {
                size_t t;
                if (qk_crowd_find_task(L, mf.names[i], &t))
                    gpmean[t] = mf.x[i * mf.dim];
            }
            (void)miss2;
            qk_crowd_features_free(&mf);
            a.o.gp_mean = gpmean;
        }
    }
    if (a.gold_weights) {
        if (qk_crowd_gold_weights(L, gold, weight, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        a.o.worker_weight = weight;
    }
    /* Keep stdout for the summary only when no file went there. */
    int quiet_stdout =
        (a.out_qrels && !strcmp(a.out_qrels, "-")) || (a.out_probs && !strcmp(a.out_probs, "-")) ||
        (a.out_workers && !strcmp(a.out_workers, "-")) || (a.out_features && !strcmp(a.out_features, "-"));
    /* The worker reports feed --workers and the summary's spammer count. */
    a.o.skip_worker_reports = !a.out_workers && quiet_stdout;
    t1 = now();
    if (qk_crowd_aggregate(L, &a.o, &r, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    t2 = now();
    {
        agg_out w = {L, r, a.precision};
        if ((a.out_qrels && (rc = qk_cli_write_file(CMD, a.out_qrels, write_qrels, &w)) != 0) ||
            (a.out_probs && (rc = qk_cli_write_file(CMD, a.out_probs, write_probs, &w)) != 0) ||
            (a.out_workers && (rc = qk_cli_write_file(CMD, a.out_workers, write_workers, &w)) != 0))
            goto out;
    }
    if (quiet_stdout)
        goto out;
    for (size_t w = 0; w < nw; w++)
        spammers += r->spammer[w];
    s.json = a.json;
    if (s.json)
        s.doc = json_object();
    put_str(&s, "method", qk_crowd_method_name(a.o.method));
    put_int(&s, "tasks", nt);
    put_int(&s, "workers", nw);
    put_int(&s, "labels", qk_crowd_num_labels(L));
    put_int(&s, "classes", k);
    put_int(&s, "duplicate_pairs", rs.dup_pairs);
    put_int(&s, "conflicting_pairs", rs.dup_conflicts);
    put_int(&s, "iterations", (size_t)r->iterations);
    put_int(&s, "converged", (size_t)r->converged);
    if (a.o.method != QK_CROWD_MV)
        put_num(&s, "loglik", r->loglik);
    put_int(&s, "ties", r->ties);
    put_int(&s, "spammers", spammers);
    for (size_t c = 0; c < k; c++) {
        char key[300];
        snprintf(key, sizeof key, "prior_%s", qk_crowd_class_name(L, c));
        put_num(&s, key, r->prior[c]);
    }
    if (a.gold) {
        qk_crowd_score sc;
        if (qk_crowd_score_gold(r, gold, pos, &sc, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        put_str(&s, "positive", qk_crowd_class_name(L, pos));
        put_int(&s, "gold_tasks", sc.n);
        put_int(&s, "gold_uncovered", uncovered);
        put_int(&s, "correct", sc.correct);
        put_num(&s, "accuracy", sc.accuracy);
        put_num(&s, "precision", sc.precision);
        put_num(&s, "recall", sc.recall);
        put_num(&s, "tnr", sc.tnr);
        put_num(&s, "f1", sc.f1);
        put_num(&s, "auc", sc.auc);
        if (a.nruns) {
            double tau, *mc = calloc(a.nruns, sizeof *mc), *mg = calloc(a.nruns, sizeof *mg);
            if (!mc || !mg ||
                qk_sim_crowd_tau(L, r, gold, (const qk_run *const *)ranked, a.nruns, &tau, mc, mg, &err) !=
                    QK_OK) {
                free(mc);
                free(mg);
                rc = mc && mg ? qk_cli_fail(CMD, &err) : (qk_cli_errorf(CMD, "out of memory"), QK_EXIT_IO);
                goto out;
            }
            for (size_t i = 0; i < a.nruns; i++) {
                char key[64];
                snprintf(key, sizeof key, "map_crowd_run%zu", i + 1);
                put_num(&s, key, mc[i]);
                snprintf(key, sizeof key, "map_gold_run%zu", i + 1);
                put_num(&s, key, mg[i]);
            }
            put_num(&s, "kendall_tau_runs", tau);
            free(mc);
            free(mg);
        }
    }
    if (a.timing) {
        put_num(&s, "seconds_read", t1 - t0);
        put_num(&s, "seconds_aggregate", t2 - t1);
        put_num(&s, "seconds_per_iteration", r->iterations ? (t2 - t1) / r->iterations : t2 - t1);
    }
    if (s.json) {
        json_dumpf(s.doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        fputc('\n', stdout);
    }
out:
    json_decref(s.doc);
    for (size_t i = 0; i < a.nclasses; i++)
        free(a.classes[i]);
    free(a.classes);
    free(gold);
    free(known);
    free(weight);
    free(fx);
    free(gpmean);
    qk_cli_free_runs(ranked, a.nruns);
    free(a.runs);
    qk_crowd_features_free(&feat);
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
    return rc;
}
