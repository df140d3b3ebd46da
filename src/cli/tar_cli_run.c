/* qrelkit tar run: review one topic with the AutoTAR loop and a stopping
 * rule (qk_tar_review in tar_stop.h); the assessor is the qrels, or a
 * person who judges batch after batch through a judgments file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tar_cli_common.h"
#include "tar_modes.h"

#define CMD "tar run"

const char qk_help_tar_run[] =
    "usage: qrelkit tar run --corpus FILE --topic FILE (--qrels FILE | --judgments FILE) [options]\n"
    "\n"
    "Review one topic as a technology-assisted review does: rank the documents\n"
    "with logistic regression over tf-idf features, seeded by the topic text and\n"
    "retrained after every batch (AutoTAR / CAL, batches 1, 2, 3, ... growing by\n"
    "a tenth), and stop by a rule that aims at a target recall. Writes the run in\n"
    "the CLEF TAR format (`qrelkit tar eval` scores it): every document the\n"
    "reviewer screened, marked AF, in the order they were screened (Target,\n"
    "Budget and SCAL: by the last model's score).\n"
    "\n"
    "The assessor is --qrels (a simulation: the qrels' labels, documents they do\n"
    "not name are non-relevant) or a person (--judgments): each call replays the\n"
    "review from the judgments file (qrels lines TOPIC 0 DOCNO REL; a missing\n"
    "or empty file means none yet) and, at the first batch with documents nobody has\n"
    "judged, writes them to --batch as lines TOPIC 0 DOCNO and stops (exit 0);\n"
    "append their judgments to the file and run again with the same options.\n"
    "No other state is kept. When the rule stops, the run is written.\n"
    "\n"
    "stopping rules (--stop):\n"
    "  @[tar-stop]\n"
    "\n"
    "options:\n"
    "  --corpus FILE          the topic's candidate documents: JSON lines\n"
    "                         ({\"id\": ..., \"content\": ...}) or TREC <DOC> files, gzip ok\n"
    "  --topic FILE           topics (JSON, TREC or qid<TAB>text); the review seeds\n"
    "                         from the title\n"
    "  --topic-id ID          which topic of --topic (default: the only one)\n"
    "  --qrels FILE           simulated assessor\n"
    "  --judgments FILE       interactive review: the judgments so far\n"
    "  --batch FILE           where the next batch to judge goes (default stdout)\n"
    "  -o, --out FILE         the run (default standard output)\n"
    "  --run-id NAME          the run's last column (default qrelkit-RULE)\n"
    "  --report FILE          a TSV line: topic, rule, target, documents, shown,\n"
    "                         judged, relevant found, rounds, stopped, R estimate,\n"
    "                         its variance and 95% interval (AutoStop, SCAL,\n"
    "                         SD-sampling)\n"
    "  --sd-mu M, --sd-sigma S  SD-training's normal distribution of relevant\n"
    "                         documents' BM25 z-scores on training topics (required\n"
    "                         with --stop sd-training)\n" TAR_REVIEW_HELP
    "  -h, --help             show this text\n"
    "\n"
    "example (CLEF TAR 2017 topic CD008760, AutoStop aiming at 90% recall):\n"
    "  d=../shared/data/clef-tar-2017-texts\n"
    "  qrelkit tar run --corpus $d/doctexts/CD008760 --fields content --topic $d/topics/CD008760 \\\n"
    "      --qrels $d/qrels/CD008760 --stop autostop --target 0.9 -o run.txt\n"
    "  qrelkit tar eval $d/qrels/CD008760 run.txt\n"
    "\n"
    "exit status: 0 ok (also when a batch awaits judgments), 1 bad option, 2 bad\n"
    "input (an empty topic, a relevant document missing from the corpus, ...),\n"
    "3 cannot read or write.\n";

enum {
    O_CORPUS = 256,
    O_TOPIC,
    O_TOPIC_ID,
    O_QRELS,
    O_JUDGMENTS,
    O_BATCH,
    O_RUN_ID,
    O_REPORT,
    O_SD_MU,
    O_SD_SIGMA
};
static const struct option longopts[] = {{"corpus", required_argument, NULL, O_CORPUS},
                                         {"topic", required_argument, NULL, O_TOPIC},
                                         {"topic-id", required_argument, NULL, O_TOPIC_ID},
                                         {"qrels", required_argument, NULL, O_QRELS},
                                         {"judgments", required_argument, NULL, O_JUDGMENTS},
                                         {"batch", required_argument, NULL, O_BATCH},
                                         {"run-id", required_argument, NULL, O_RUN_ID},
                                         {"report", required_argument, NULL, O_REPORT},
                                         {"sd-mu", required_argument, NULL, O_SD_MU},
                                         {"sd-sigma", required_argument, NULL, O_SD_SIGMA},
                                         {"out", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         TAR_REVIEW_LONGOPTS,
                                         {NULL, 0, NULL, 0}};

typedef struct {
    const unsigned char *rel;   /* simulation */
    const signed char *judged;  /* interactive: -1 unknown */
} assessor;

static int judge(void *ctx, size_t doc, int *rel)
{
    const assessor *a = ctx;
    if (a->rel) {
        *rel = a->rel[doc];
        return 0;
    }
    if (a->judged[doc] < 0)
        return QK_TAR_UNJUDGED;
    *rel = a->judged[doc] > 0;
    return 0;
}

/* The judgments file of an interactive review: labels of the topic's
 * documents; a missing file is no judgments yet. */
static int read_judgments(const char *path, const char *qid, const tar_corpus *c, signed char *judged)
{
    qk_qrels *q = NULL;
    qk_error err = {0};
    size_t t, n;
    struct stat sb;
    memset(judged, -1, c->n);
    if (stat(path, &sb) != 0 || (S_ISREG(sb.st_mode) && sb.st_size == 0))
        return 0; /* missing or empty: nothing judged yet */
    if (qk_qrels_read(path, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err) != QK_OK)
        return qk_cli_fail(CMD, &err);
    if (qk_qrels_find_topic(q, qid, strlen(qid), &t)) {
        const qk_judgment *j = qk_qrels_judgments(q, t, &n);
        for (size_t k = 0; k < n; k++) {
            const char *d = qk_qrels_docno(q, j[k].doc);
            uint32_t id;
            if (!qk_strpool_find(c->ids, d, strlen(d), &id)) {
                qk_cli_errorf(CMD, "'%s' line %u: document '%s' is not in the corpus", path, (unsigned)qk_qrels_judgment_line(q, t, k), d);
                qk_qrels_free(q);
                return QK_EXIT_INPUT;
            }
            judged[id] = j[k].rel > 0 ? 1 : 0;
        }
    }
    qk_qrels_free(q);
    return 0;
}

typedef struct {
    const qk_tar_result *r;
    const tar_corpus *c;
    const char *qid, *run_id;
    double target;
} run_out;

static qk_status write_run(void *ctx, FILE *f, qk_error *err)
{
    const run_out *o = ctx;
    qk_tar_run *run = NULL;
    qk_status st = qk_tar_run_new(o->run_id, &run, err);
    for (size_t i = 0; st == QK_OK && i < o->r->n_shown; i++)
        st = qk_tar_run_append(run, o->qid, o->c->docno[o->r->shown[i]], QK_TAR_AF, o->r->score[i], err);
    if (st == QK_OK)
        st = qk_tar_run_write(run, f, err);
    qk_tar_run_free(run);
    return st;
}

static qk_status write_batch(void *ctx, FILE *f, qk_error *err)
{
    const run_out *o = ctx;
    for (size_t i = 0; i < o->r->n_pending; i++)
        fprintf(f, "%s 0 %s\n", o->qid, o->c->docno[o->r->pending[i]]);
    return ferror(f) ? qk_error_set(err, QK_EIO, "cannot write the batch") : QK_OK;
}

static qk_status write_report(void *ctx, FILE *f, qk_error *err)
{
    const run_out *o = ctx;
    const qk_tar_result *r = o->r;
    fprintf(f, "topic\trule\ttarget\tdocs\tshown\tjudged\trel_found\trounds\tstopped\tR_hat\tR_var\tR_lo\tR_hi\n");
    fprintf(f, "%s\t%s\t%g\t%zu\t%zu\t%zu\t%zu\t%zu\t%d\t", o->qid, o->run_id, o->target, r->n_docs, r->n_shown,
            r->n_judged, r->rel_found, r->rounds, r->stopped);
    if (r->has_r_hat)
        fprintf(f, "%.4f\t%.4f\t%.4f\t%.4f\n", r->r_hat, r->r_var, r->r_lo, r->r_hi);
    else
        fprintf(f, "-\t-\t-\t-\n");
    return ferror(f) ? qk_error_set(err, QK_EIO, "cannot write the report") : QK_OK;
}

int qk_tar_mode_run(int argc, char **argv)
{
    const char *corpus_path = NULL, *topic_path = NULL, *topic_id = NULL, *qrels_path = NULL;
    const char *judg_path = NULL, *batch_path = NULL, *out_path = NULL, *run_id = NULL, *report_path = NULL;
    tar_cli_settings s;
    tar_corpus corpus = {0};
    qk_topics *topics = NULL;
    qk_qrels *qrels = NULL;
    qk_sparse X = {0};
    qk_tar_result r = {0};
    qk_error err = {0};
    unsigned char *rel = NULL;
    signed char *judged = NULL;
    double *z = NULL;
    qk_tar_sd_model sd_train = {0, 0};
    int has_mu = 0, has_sigma = 0;
    char run_id_buf[64];
    int c, rc = 0;
    tar_cli_settings_init(&s);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case O_CORPUS: corpus_path = optarg; break;
        case O_TOPIC: topic_path = optarg; break;
        case O_TOPIC_ID: topic_id = optarg; break;
        case O_QRELS: qrels_path = optarg; break;
        case O_JUDGMENTS: judg_path = optarg; break;
        case O_BATCH: batch_path = optarg; break;
        case O_RUN_ID: run_id = optarg; break;
        case O_REPORT: report_path = optarg; break;
        case O_SD_MU:
            if ((rc = qk_cli_double(CMD, "--sd-mu", optarg, -1e6, 1e6, 0, &sd_train.mu)) != 0)
                return rc;
            has_mu = 1;
            break;
        case O_SD_SIGMA:
            if ((rc = qk_cli_double(CMD, "--sd-sigma", optarg, 0, 1e6, QK_NUM_LO_OPEN, &sd_train.sigma)) != 0)
                return rc;
            has_sigma = 1;
            break;
        case 'o': out_path = optarg; break;
        case 'h': return qk_cli_help(qk_help_tar_run);
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        case '?': return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        default:
            if ((rc = tar_cli_option(CMD, &s, c, optarg)) != 0)
                return rc < 0 ? qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]) : rc;
        }
    }
    if (optind < argc)
        return qk_cli_usage(CMD, "unexpected argument '%s'", argv[optind]);
    if (!corpus_path || !topic_path)
        return qk_cli_usage(CMD, "missing %s", !corpus_path ? "--corpus" : "--topic");
    if (!qrels_path == !judg_path)
        return qk_cli_usage(CMD, qrels_path ? "--qrels and --judgments exclude each other"
                                            : "missing --qrels (simulated assessor) or --judgments (interactive)");
    if (qk_tar_opts_check(&s.review, &err) != QK_OK)
        return qk_cli_fail(CMD, &err);
    int sd = s.review.stop == QK_TAR_STOP_SD_TRAINING || s.review.stop == QK_TAR_STOP_SD_SAMPLING;
    if (s.review.stop == QK_TAR_STOP_SD_TRAINING && !(has_mu && has_sigma))
        return qk_cli_usage(CMD,
                            "--stop sd-training needs --sd-mu and --sd-sigma (the training topics' fit)");
    if (!run_id) {
        snprintf(run_id_buf, sizeof run_id_buf, "qrelkit-%s", qk_enum_by_value(qk_tar_stop_table, s.review.stop)->name);
        run_id = run_id_buf;
    }
    if (qk_topics_read(topic_path, NULL, &topics, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto done;
    }
    size_t ti = 0, nt = qk_topics_count(topics);
    if (topic_id) {
        for (ti = 0; ti < nt && strcmp(qk_topics_qid(topics, ti), topic_id) != 0; ti++)
            ;
        if (ti == nt) {
            qk_cli_errorf(CMD, "'%s': no topic '%s'", topic_path, topic_id);
            rc = QK_EXIT_INPUT;
            goto done;
        }
    } else if (nt != 1) {
        rc = nt ? qk_cli_usage(CMD, "'%s' holds %zu topics: choose one with --topic-id", topic_path, nt)
                : (qk_cli_errorf(CMD, "'%s': no topics", topic_path), QK_EXIT_INPUT);
        goto done;
    }
    const char *qid = qk_topics_qid(topics, ti), *text = qk_topics_text(topics, ti);
    if (strspn(text, " \t\r\n") == strlen(text)) {
        qk_cli_errorf(CMD, "'%s': topic '%s' is empty", topic_path, qid);
        rc = QK_EXIT_INPUT;
        goto done;
    }
    if ((rc = tar_cli_read_corpus(CMD, corpus_path, s.fields, &corpus)) != 0)
        goto done;
    if (sd) { /* BM25 z-scores instead of tf-idf features */
        if (!(z = malloc(corpus.n * sizeof *z))) {
            qk_cli_errorf(CMD, "out of memory");
            rc = QK_EXIT_IO;
            goto done;
        }
        if (qk_tar_bm25_zscores(corpus.n, (const char *const *)corpus.text, corpus.len, text, strlen(text), z,
                                &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto done;
        }
    } else if ((rc = tar_cli_features(CMD, &corpus, &text, 1, s.min_df, &X)) != 0) {
        goto done;
    }
    assessor a = {NULL, NULL};
    if (qrels_path) {
        size_t missing, nrel;
        if (qk_qrels_read(qrels_path, QK_REL_QRELS, QK_DEDUP_ERROR, &qrels, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto done;
        }
        if (!(rel = malloc(corpus.n))) {
            qk_cli_errorf(CMD, "out of memory");
            rc = QK_EXIT_IO;
            goto done;
        }
        if ((rc = tar_cli_truth(CMD, qrels, qrels_path, corpus_path, qid, &corpus, rel, &nrel, &missing)) != 0)
            goto done;
        if (missing)
            fprintf(stderr, "qrelkit %s: warning: %zu non-relevant documents of '%s' are not in the corpus\n", CMD,
                    missing, qrels_path);
        a.rel = rel;
    } else {
        if (!(judged = malloc(corpus.n))) {
            qk_cli_errorf(CMD, "out of memory");
            rc = QK_EXIT_IO;
            goto done;
        }
        if ((rc = read_judgments(judg_path, qid, &corpus, judged)) != 0)
            goto done;
        a.judged = judged;
    }
    qk_status rst = sd ? qk_tar_score_dist(z, corpus.n, &s.review, &sd_train, judge, &a, &r, &err)
                       : qk_tar_review(&X, corpus.n, corpus.n, &s.review, judge, &a, &r, &err);
    if (rst != QK_OK) {
        qk_cli_errorf(CMD, "topic '%s': %s", qid, err.message);
        rc = qk_status_exit_code(err.code);
        goto done;
    }
    run_out ro = {&r, &corpus, qid, run_id, s.review.target};
    if (r.n_pending) {
        fprintf(stderr, "qrelkit %s: %zu documents to judge; add their judgments to '%s' and run again\n", CMD,
                r.n_pending, judg_path);
        if (batch_path && !qk_cli_is_stdout(batch_path))
            rc = qk_cli_write_file(CMD, batch_path, write_batch, &ro);
        else if (write_batch(&ro, stdout, &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
        goto done;
    }
    if (out_path && !qk_cli_is_stdout(out_path))
        rc = qk_cli_write_file(CMD, out_path, write_run, &ro);
    else if (write_run(&ro, stdout, &err) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
    if (!rc && report_path)
        rc = qk_cli_write_file(CMD, report_path, write_report, &ro);
done:
    qk_tar_result_clear(&r);
    qk_sparse_clear(&X);
    tar_cli_corpus_free(&corpus);
    qk_topics_free(topics);
    qk_qrels_free(qrels);
    free(rel);
    free(judged);
    free(z);
    return rc;
}
