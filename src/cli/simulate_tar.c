/* qrelkit simulate tar: the review loop with each stopping rule over many
 * topics, the qrels as the assessor (qk_tar_simulate in tar_stop.h), and
 * the thesis's table: mean and sd over topics of recall, cost,
 * reliability, loss_er and RE, per rule and target recall. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shard_cli.h"
#include "simulate_modes.h"
#include "tar_cli_common.h"

#define CMD "simulate tar"
#define MAX_CONFIGS 64

const char qk_help_simulate_tar[] =
    "usage: qrelkit simulate tar --corpus PATH --topics PATH --qrels PATH [options]\n"
    "\n"
    "Review every topic with the AutoTAR loop and each stopping rule of --stop at\n"
    "each target recall of --target, the qrels acting as the reviewer, and print\n"
    "per rule and target the mean and standard deviation over topics of recall,\n"
    "cost (share of the collection screened), reliability (share of topics that\n"
    "reached the target), loss_er (CLEF TAR) and RE (|recall - target| / target),\n"
    "with the relative error of the rule's estimate of R where it has one - the\n"
    "columns of Li's Tables 3.11-3.13.\n"
    "\n"
    "--corpus is one file shared by all topics (every query a screening topic) or\n"
    "a directory with one file per topic, named by the topic id (CLEF TAR's\n"
    "doctexts/ID). --topics and --qrels are files, or directories whose files\n"
    "are all read. Topics without relevant documents are left out.\n"
    "\n"
    "options:\n"
    "  --corpus PATH          documents (JSON lines or TREC, see `tar run`)\n"
    "  --topics PATH          topic text (seeds the review); JSON, TREC or tsv\n"
    "  --qrels PATH           the truth\n"
    "  --stop LIST            rules to compare (default autostop,knee,target)\n"
    "  --target LIST          target recalls (default 0.8,0.9,1)\n"
    "  --threads N            reviews at once (default: one per core)\n"
    "  --rows FILE            one TSV line per topic, rule and target\n"
    "  --runs DIR             write each rule and target's stopped reviews as a CLEF TAR\n"
    "                         run, DIR/RULE-TARGET.run (`tar eval` scores it)\n"
    "  --quiet                no progress bar on a terminal\n"
    "  --shard I/N            review the topics of shard I of N only, as a part\n"
    "                         file for `qrelkit merge` (the table's bytes); not\n"
    "                         with --rows or --runs (doc/scale-out.md)\n"
    "  -h, --help             show this text\n" TAR_REVIEW_HELP "\n"
    "example (20 CLEF TAR 2017 topics):\n"
    "  d=../shared/data/clef-tar-2017-texts\n"
    "  qrelkit simulate tar --corpus $d/doctexts --fields content --topics $d/topics \\\n"
    "      --qrels $d/qrels --stop autostop,knee,target --target 0.8,0.9,1 --threads 2\n"
    "\n"
    "exit status: 0 ok, 1 bad option, 2 bad input, 3 I/O error.\n";

enum { O_CORPUS = 256, O_TOPICS, O_QRELS, O_STOPS, O_TARGETS, O_THREADS, O_ROWS, O_QUIET, O_RUNS, O_SHARD };
static const struct option longopts[] = {{"corpus", required_argument, NULL, O_CORPUS},
                                         {"topics", required_argument, NULL, O_TOPICS},
                                         {"qrels", required_argument, NULL, O_QRELS},
                                         {"stops", required_argument, NULL, O_STOPS},
                                         {"targets", required_argument, NULL, O_TARGETS},
                                         {"threads", required_argument, NULL, O_THREADS},
                                         {"rows", required_argument, NULL, O_ROWS},
                                         {"runs", required_argument, NULL, O_RUNS},
                                         {"quiet", no_argument, NULL, O_QUIET},
                                         {"shard", required_argument, NULL, O_SHARD},
                                         {"help", no_argument, NULL, 'h'},
                                         TAR_REVIEW_LONGOPTS,
                                         {NULL, 0, NULL, 0}};

/* The files of a directory in name order, or the path itself. */
static int list_paths(const char *path, char ***out, size_t *n)
{
    struct stat sb;
    *out = NULL;
    *n = 0;
    if (stat(path, &sb) != 0) {
        qk_cli_errorf(CMD, "'%s': cannot read: %s", path, strerror(errno));
        return QK_EXIT_IO;
    }
    if (!S_ISDIR(sb.st_mode)) {
        *out = malloc(sizeof **out);
        if (!*out || !((*out)[0] = strdup(path)))
            return QK_EXIT_IO;
        *n = 1;
        return 0;
    }
    struct dirent **ents;
    int k = scandir(path, &ents, NULL, alphasort);
    if (k < 0) {
        qk_cli_errorf(CMD, "'%s': cannot read: %s", path, strerror(errno));
        return QK_EXIT_IO;
    }
    *out = malloc((size_t)(k ? k : 1) * sizeof **out);
    for (int i = 0; i < k; i++) {
        if (*out && ents[i]->d_name[0] != '.') {
            size_t len = strlen(path) + strlen(ents[i]->d_name) + 2;
            char *p = malloc(len);
            if (p) {
                snprintf(p, len, "%s/%s", path, ents[i]->d_name);
                (*out)[(*n)++] = p;
            }
        }
        free(ents[i]);
    }
    free(ents);
    return *out ? 0 : QK_EXIT_IO;
}

static void free_paths(char **p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(p[i]);
    free(p);
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static void progress(void *ctx, size_t done, size_t total)
{
    (void)ctx;
    fprintf(stderr, "\rsimulate tar: review %zu of %zu", done, total);
    if (done == total)
        fputc('\n', stderr);
}

typedef struct {
    char *id, *text;
    size_t corpus; /* index into the corpora */
} topic_in;

static void print_summary(const qk_tar_sim_row *rows, size_t ntopics, const qk_tar_opts *cfg, size_t ncfg)
{
    printf("rule\ttarget\ttopics\trecall\trecall_sd\tcost\tcost_sd\treliability\treliability_sd\tloss_er\t"
           "loss_er_sd\tRE\tRE_sd\tR_hat_RE\tR_hat_RE_sd\n");
    qk_tar_stop_eval *ev = malloc((ntopics ? ntopics : 1) * sizeof *ev);
    if (!ev)
        return;
    for (size_t c = 0; c < ncfg; c++) {
        for (size_t t = 0; t < ntopics; t++) {
            const qk_tar_sim_row *r = &rows[t * ncfg + c];
            ev[t] = (qk_tar_stop_eval){r->recall, r->cost, r->re, r->loss_er, r->r_re, r->reliable};
        }
        qk_tar_stop_summary s;
        qk_error err;
        if (qk_tar_stop_summarise(ev, ntopics, &s, &err) != QK_OK)
            continue;
        printf("%s\t%g\t%zu\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t",
               qk_enum_by_value(qk_tar_stop_table, cfg[c].stop)->name, cfg[c].target, s.n, s.recall_mean,
               s.recall_sd, s.cost_mean, s.cost_sd, s.reliability, s.reliability_sd, s.loss_er_mean,
               s.loss_er_sd, s.re_mean, s.re_sd);
        if (s.n_rhat)
            printf("%.3f\t%.3f\n", s.rhat_re_mean, s.rhat_re_sd);
        else
            printf("-\t-\n");
    }
    free(ev);
}

typedef struct {
    const qk_tar_sim_row *rows;
    const topic_in *topics;
    const qk_tar_opts *cfg;
    size_t ntopics, ncfg;
} rows_out;

static qk_status write_rows(void *ctx, FILE *f, qk_error *err)
{
    const rows_out *o = ctx;
    fprintf(f,
            "topic\trule\ttarget\tdocs\tR\tshown\trel_shown\tjudged\trounds\tstopped\trecall\tcost\treached\t"
            "loss_er\tRE\tR_hat\tR_var\tR_lo\tR_hi\n");
    for (size_t t = 0; t < o->ntopics; t++)
        for (size_t c = 0; c < o->ncfg; c++) {
            const qk_tar_sim_row *r = &o->rows[t * o->ncfg + c];
            fprintf(f, "%s\t%s\t%g\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%d\t%.4f\t%.4f\t%d\t%.4f\t%.4f\t",
                    o->topics[t].id, qk_enum_by_value(qk_tar_stop_table, o->cfg[c].stop)->name,
                    o->cfg[c].target, r->n_docs, r->R, r->n_shown, r->rel_shown, r->n_judged, r->rounds,
                    r->stopped, r->recall, r->cost, r->reliable, r->loss_er, r->re);
            if (r->has_r_hat)
                fprintf(f, "%.4f\t%.4f\t%.4f\t%.4f\n", r->r_hat, r->r_var, r->r_lo, r->r_hi);
            else
                fprintf(f, "-\t-\t-\t-\n");
        }
    return ferror(f) ? qk_error_set(err, QK_EIO, "cannot write") : QK_OK;
}

/* One rule and target's reviews of every topic as a CLEF TAR run. */
typedef struct {
    const qk_tar_sim_run *runs;
    const qk_tar_sim_topic *st;
    const tar_corpus *const *corpus; /* each used topic's corpus */
    size_t ntopics, ncfg, cfg;
    const char *run_id;
} run_out;

static qk_status write_run(void *ctx, FILE *f, qk_error *err)
{
    const run_out *o = ctx;
    qk_tar_run *run = NULL;
    qk_status st = qk_tar_run_new(o->run_id, &run, err);
    for (size_t t = 0; st == QK_OK && t < o->ntopics; t++) {
        const qk_tar_sim_run *r = &o->runs[t * o->ncfg + o->cfg];
        for (size_t i = 0; st == QK_OK && i < r->n_shown; i++)
            st = qk_tar_run_append(run, o->st[t].id, o->corpus[t]->docno[r->shown[i]], QK_TAR_AF,
                                   (double)(r->n_shown - i), err);
    }
    if (st == QK_OK)
        st = qk_tar_run_write(run, f, err);
    qk_tar_run_free(run);
    return st;
}

static int write_runs(const char *dir, const qk_tar_sim_run *runs, const qk_tar_sim_topic *st,
                      const tar_corpus *const *corpus, size_t ntopics, const qk_tar_opts *cfg, size_t ncfg)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        qk_cli_errorf(CMD, "'%s': cannot create: %s", dir, strerror(errno));
        return QK_EXIT_IO;
    }
    for (size_t c = 0; c < ncfg; c++) {
        char path[4096], id[128];
        const char *rule = qk_enum_by_value(qk_tar_stop_table, cfg[c].stop)->name;
        snprintf(id, sizeof id, "qrelkit-%s-%g", rule, cfg[c].target);
        snprintf(path, sizeof path, "%s/%s-%g.run", dir, rule, cfg[c].target);
        run_out ro = {runs, st, corpus, ntopics, ncfg, c, id};
        int rc = qk_cli_write_file(CMD, path, write_run, &ro);
        if (rc)
            return rc;
    }
    return 0;
}

/* --shard: the reviews of this shard's topics as a part; the prologue holds
 * each rule and target (the merge reads no input), the items are the
 * topics' rows (qk_tar_sim_rows_encode). The inputs checksummed are every
 * file read: topics, qrels and corpus (one file per topic for a directory). */
static int write_part(qk_shard_spec shard, int argc, char **argv, char **tpaths, size_t ntp, char **qpaths,
                      size_t nqp, const char *corpus_path, const topic_in *topics, size_t ntopics,
                      const qk_tar_sim_topic *st, size_t nused, const qk_tar_opts *cfg, size_t ncfg,
                      int threads, int quiet)
{
    qk_error err = {0};
    qk_shard_part *part = NULL;
    int per_topic = is_dir(corpus_path), rc;
    size_t nin = ntp + nqp + (per_topic ? ntopics : 1), first, end, plen = 0;
    const char **ins = calloc(nin, sizeof *ins);
    char **cpaths = calloc(ntopics + 1, sizeof *cpaths), *pro = NULL, **rec = NULL;
    qk_tar_sim_row *rows = NULL;
    if (!ins || !cpaths) {
        free(ins);
        free(cpaths);
        return QK_EXIT_IO;
    }
    memcpy(ins, tpaths, ntp * sizeof *ins);
    memcpy(ins + ntp, qpaths, nqp * sizeof *ins);
    for (size_t t = 0; per_topic && t < ntopics; t++) {
        size_t len = strlen(corpus_path) + strlen(topics[t].id) + 2;
        if ((cpaths[t] = malloc(len)) != NULL)
            snprintf(cpaths[t], len, "%s/%s", corpus_path, topics[t].id);
        ins[ntp + nqp + t] = cpaths[t];
    }
    if (!per_topic)
        ins[ntp + nqp] = corpus_path;
    rc = qk_cli_shard_open(CMD, "simulate-tar", shard, nused, cfg[0].seed, argc, argv, ins, nin, &part,
                           &first, &end);
    free(ins);
    for (size_t t = 0; t < ntopics; t++)
        free(cpaths[t]);
    free(cpaths);
    if (rc)
        return rc;
    if (!(rows = calloc((end - first) * ncfg + 1, sizeof *rows)) ||
        !(rec = calloc(end - first + 1, sizeof *rec)) ||
        qk_tar_sim_configs_encode(cfg, ncfg, &pro, &plen, &err) != QK_OK)
        rc = QK_EXIT_IO;
    if (!rc && qk_tar_simulate_range(st, nused, first, end, cfg, ncfg, threads,
                                     !quiet && isatty(2) ? progress : NULL, NULL, rows, NULL, &err) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
    for (size_t t = first; !rc && t < end; t++)
        if (qk_tar_sim_rows_encode(rows + (t - first) * ncfg, ncfg, &rec[t - first], &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
    free(rows);
    rc = qk_cli_shard_commit(CMD, part, rc, pro, plen, rec, first, end);
    free(pro);
    return rc;
}

int qk_simulate_tar_merge(const qk_shard_part *m)
{
    qk_error err = {0};
    qk_tar_opts cfg[MAX_CONFIGS];
    size_t ncfg = 0, n = qk_shard_part_num_items(m);
    const char *s = qk_shard_part_prologue(m, NULL);
    qk_tar_sim_row *rows = NULL;
    int rc = 0;
    if (qk_tar_sim_configs_decode(s, cfg, MAX_CONFIGS, &ncfg, &err) != QK_OK) {
        qk_cli_errorf("merge", "the parts' header of simulate tar is malformed");
        return QK_EXIT_INPUT;
    }
    if (!(rows = calloc(n * ncfg + 1, sizeof *rows)))
        return QK_EXIT_IO;
    for (size_t k = 0; !rc && k < qk_shard_part_num_held(m); k++) {
        size_t t;
        const char *rec = qk_shard_part_item(m, k, &t, NULL);
        if (qk_tar_sim_rows_decode(rec, t, ncfg, rows + t * ncfg, &err) != QK_OK)
            rc = qk_cli_fail("merge", &err);
    }
    if (!rc) {
        print_summary(rows, n, cfg, ncfg);
        rc = qk_cli_flush_stdout("merge");
    }
    free(rows);
    return rc;
}

int qk_simulate_tar(int argc, char **argv)
{
    const char *corpus_path = NULL, *topics_path = NULL, *qrels_path = NULL, *rows_path = NULL;
    const char *runs_path = NULL;
    qk_tar_sim_run *runs = NULL;
    const tar_corpus **tcorpus = NULL;
    const char *stops = "autostop,knee,target", *targets = "0.8,0.9,1";
    tar_cli_settings s;
    int c, rc = 0, quiet = 0, shard_on = 0;
    qk_shard_spec shard = {0, 1};
    long threads = 0;
    char **tpaths = NULL, **qpaths = NULL;
    size_t ntp = 0, nqp = 0, ntopics = 0, ncorpora = 0, nq = 0, nused = 0;
    topic_in *topics = NULL;
    tar_corpus *corpora = NULL;
    qk_sparse *X = NULL;
    unsigned char **truth = NULL;
    double **zs = NULL;
    int want_sd = 0;
    qk_qrels **qrels = NULL;
    qk_tar_sim_topic *st = NULL;
    qk_tar_sim_row *rows = NULL;
    qk_tar_opts cfg[MAX_CONFIGS];
    size_t ncfg = 0;
    qk_error err = {0};
    tar_cli_settings_init(&s);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case O_CORPUS: corpus_path = optarg; break;
        case O_TOPICS: topics_path = optarg; break;
        case O_QRELS: qrels_path = optarg; break;
        case O_STOPS: stops = optarg; break;
        case O_TARGETS: targets = optarg; break;
        case O_ROWS: rows_path = optarg; break;
        case O_RUNS: runs_path = optarg; break;
        case O_QUIET: quiet = 1; break;
        case O_SHARD:
            if ((rc = qk_cli_shard_parse(CMD, optarg, &shard)) != 0)
                return rc;
            shard_on = 1;
            break;
        case O_THREADS:
            if ((rc = qk_cli_long(CMD, "--threads", optarg, 0, 64, &threads)) != 0)
                return rc;
            break;
        case TAR_O_STOP: stops = optarg; break;
        case TAR_O_TARGET: targets = optarg; break;
        case 'h': return qk_cli_help(qk_help_simulate_tar);
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        case '?': return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        default:
            if ((rc = tar_cli_option(CMD, &s, c, optarg)) != 0)
                return rc < 0 ? qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]) : rc;
        }
    }
    if (optind < argc)
        return qk_cli_usage(CMD, "unexpected argument '%s'", argv[optind]);
    if (!corpus_path || !topics_path || !qrels_path)
        return qk_cli_usage(CMD, "missing %s",
                            !corpus_path   ? "--corpus"
                            : !topics_path ? "--topics"
                                           : "--qrels");
    if (shard_on && (rows_path || runs_path))
        return qk_cli_usage(CMD, "%s does not combine with --shard (run without it for the per-topic files)",
                            rows_path ? "--rows" : "--runs");
    int stop_v[16];
    double target_v[16];
    size_t nstop, ntarget;
    if ((rc = qk_cli_enum_list(CMD, qk_tar_stop_table, "--stop", stops, stop_v, 16, &nstop)) != 0 ||
        (rc = qk_cli_double_list(CMD, "--target", targets, 0, 1, QK_NUM_LO_OPEN, target_v, 16, &ntarget)) !=
            0)
        return rc;
    if (nstop * ntarget > MAX_CONFIGS)
        return qk_cli_usage(CMD, "at most %d rule and target pairs", MAX_CONFIGS);
    for (size_t a = 0; a < nstop; a++)
        for (size_t b = 0; b < ntarget; b++) {
            cfg[ncfg] = s.review;
            cfg[ncfg].stop = (qk_tar_stop)stop_v[a];
            cfg[ncfg].target = target_v[b];
            if (qk_tar_opts_check(&cfg[ncfg], &err) != QK_OK)
                return qk_cli_fail(CMD, &err);
            want_sd |= cfg[ncfg].stop == QK_TAR_STOP_SD_TRAINING || cfg[ncfg].stop == QK_TAR_STOP_SD_SAMPLING;
            ncfg++;
        }
    /* topics */
    if ((rc = list_paths(topics_path, &tpaths, &ntp)) != 0 ||
        (rc = list_paths(qrels_path, &qpaths, &nqp)) != 0)
        goto out;
    for (size_t i = 0; i < ntp; i++) {
        qk_topics *tp = NULL;
        if (qk_topics_read(tpaths[i], NULL, &tp, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        size_t k = qk_topics_count(tp);
        topic_in *nt = realloc(topics, (ntopics + k + 1) * sizeof *topics);
        if (!nt) {
            qk_topics_free(tp);
            rc = QK_EXIT_IO;
            goto out;
        }
        topics = nt;
        for (size_t j = 0; j < k; j++) {
            topics[ntopics].id = strdup(qk_topics_qid(tp, j));
            topics[ntopics].text = strdup(qk_topics_text(tp, j));
            topics[ntopics].corpus = 0;
            if (strspn(topics[ntopics].text, " \t\r\n") == strlen(topics[ntopics].text)) {
                qk_cli_errorf(CMD, "'%s': topic '%s' is empty", tpaths[i], topics[ntopics].id);
                ntopics++;
                qk_topics_free(tp);
                rc = QK_EXIT_INPUT;
                goto out;
            }
            ntopics++;
        }
        qk_topics_free(tp);
    }
    if (!(qrels = calloc(nqp, sizeof *qrels))) {
        rc = QK_EXIT_IO;
        goto out;
    }
    for (nq = 0; nq < nqp; nq++)
        if (qk_qrels_read(qpaths[nq], QK_REL_QRELS, QK_DEDUP_ERROR, &qrels[nq], &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
    /* corpora and features: one per topic (a directory) or one shared */
    int per_topic = is_dir(corpus_path);
    ncorpora = per_topic ? ntopics : 1;
    corpora = calloc(ncorpora, sizeof *corpora);
    X = calloc(ncorpora, sizeof *X);
    truth = calloc(ntopics, sizeof *truth);
    zs = calloc(ntopics, sizeof *zs);
    st = calloc(ntopics, sizeof *st);
    tcorpus = calloc(ntopics ? ntopics : 1, sizeof *tcorpus);
    if (!corpora || !X || !truth || !zs || !st || !tcorpus) {
        rc = QK_EXIT_IO;
        goto out;
    }
    for (size_t k = 0; k < ncorpora; k++) {
        char path[4096];
        const char **texts = malloc(ntopics * sizeof *texts);
        if (!texts) {
            rc = QK_EXIT_IO;
            goto out;
        }
        for (size_t t = 0; t < ntopics; t++)
            texts[t] = topics[t].text;
        if (per_topic)
            snprintf(path, sizeof path, "%s/%s", corpus_path, topics[k].id);
        rc = tar_cli_read_corpus(CMD, per_topic ? path : corpus_path, s.fields, &corpora[k]);
        if (!rc)
            rc = per_topic ? tar_cli_features(CMD, &corpora[k], &texts[k], 1, s.min_df, &X[k])
                           : tar_cli_features(CMD, &corpora[k], texts, ntopics, s.min_df, &X[k]);
        free(texts);
        if (rc)
            goto out;
    }
    nused = 0;
    for (size_t t = 0; t < ntopics; t++) {
        size_t k = per_topic ? t : 0, qi, nrel = 0, missing = 0, tt;
        for (qi = 0; qi < nq && !qk_qrels_find_topic(qrels[qi], topics[t].id, strlen(topics[t].id), &tt);
             qi++)
            ;
        if (qi == nq) {
            qk_cli_errorf(CMD, "'%s': topic '%s' has no judgments", qrels_path, topics[t].id);
            rc = QK_EXIT_INPUT;
            goto out;
        }
        if (!(truth[t] = malloc(corpora[k].n))) {
            rc = QK_EXIT_IO;
            goto out;
        }
        if ((rc = tar_cli_truth(CMD, qrels[qi], qpaths[qi], corpus_path, topics[t].id, &corpora[k], truth[t],
                                &nrel, &missing)) != 0)
            goto out;
        if (nrel == 0)
            continue;
        if (want_sd) { /* the score-distribution rules' BM25 z-scores */
            const tar_corpus *cp = &corpora[k];
            if (!(zs[t] = malloc((cp->n ? cp->n : 1) * sizeof *zs[t]))) {
                rc = QK_EXIT_IO;
                goto out;
            }
            if (qk_tar_bm25_zscores(cp->n, (const char *const *)cp->text, cp->len, topics[t].text,
                                    strlen(topics[t].text), zs[t], &err) != QK_OK) {
                rc = qk_cli_fail(CMD, &err);
                goto out;
            }
        }
        st[nused].sd_z = zs[t];
        tcorpus[nused] = &corpora[k];
        st[nused].id = topics[t].id;
        st[nused].X = &X[k];
        st[nused].n_docs = corpora[k].n;
        st[nused].topic_row = corpora[k].n + (per_topic ? 0 : t);
        st[nused].rel = truth[t];
        topics[nused].corpus = t; /* reuse: the used topic's original index */
        nused++;
    }
    if (shard_on) {
        rc = write_part(shard, argc, argv, tpaths, ntp, qpaths, nqp, corpus_path, topics, ntopics, st, nused,
                        cfg, ncfg, (int)threads, quiet);
        goto out;
    }
    if (!(rows = calloc(nused * ncfg + 1, sizeof *rows)) ||
        (runs_path && !(runs = calloc(nused * ncfg + 1, sizeof *runs)))) {
        rc = QK_EXIT_IO;
        goto out;
    }
    if (qk_tar_simulate(st, nused, cfg, ncfg, (int)threads, !quiet && isatty(2) ? progress : NULL, NULL, rows,
                        runs, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    print_summary(rows, nused, cfg, ncfg);
    if (rows_path) {
        topic_in *used = malloc((nused ? nused : 1) * sizeof *used);
        if (!used) {
            rc = QK_EXIT_IO;
            goto out;
        }
        for (size_t t = 0; t < nused; t++)
            used[t].id = (char *)st[t].id;
        rows_out ro = {rows, used, cfg, nused, ncfg};
        rc = qk_cli_write_file(CMD, rows_path, write_rows, &ro);
        free(used);
    }
    if (!rc && runs_path)
        rc = write_runs(runs_path, runs, st, tcorpus, nused, cfg, ncfg);
    if (!rc && (fflush(stdout) != 0 || ferror(stdout))) {
        qk_cli_errorf(CMD, "standard output: cannot write: %s", strerror(errno));
        rc = QK_EXIT_IO;
    }
out:
    for (size_t t = 0; t < ntopics; t++) {
        free(topics[t].id);
        free(topics[t].text);
        if (truth)
            free(truth[t]);
        if (zs)
            free(zs[t]);
    }
    free(zs);
    free(topics);
    free(truth);
    for (size_t k = 0; k < ncorpora; k++) {
        if (corpora)
            tar_cli_corpus_free(&corpora[k]);
        if (X)
            qk_sparse_clear(&X[k]);
    }
    free(corpora);
    free(X);
    for (size_t i = 0; i < nq; i++)
        qk_qrels_free(qrels[i]);
    free(qrels);
    if (runs)
        for (size_t k = 0; k < nused * ncfg; k++)
            free(runs[k].shown);
    free(runs);
    free(tcorpus);
    free(st);
    free(rows);
    free_paths(tpaths, ntp);
    free_paths(qpaths, nqp);
    return rc;
}
