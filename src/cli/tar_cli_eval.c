/* qrelkit tar eval QRELS RUN: CLEF TAR measures (qk_tar_eval_* in tar.h). */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "tar_modes.h"

#define CMD "tar eval"

const char qk_help_tar_eval[] =
    "usage: qrelkit tar eval [options] QRELS RUN\n"
    "\n"
    "Score a technology-assisted review run as CLEF eHealth TAR does: the output\n"
    "is byte for byte that of CLEF's official tar_eval.py (2017 edition), so\n"
    "numbers can be compared with published results. RUN lists, per topic, the\n"
    "documents in the order they were shown to the reviewer:\n"
    "\n"
    "  TOPIC INTERACTION DOCNO RANK SCORE RUNID\n"
    "\n"
    "INTERACTION is AF (shown, feedback asked), NF (shown, no feedback) or NS (not\n"
    "shown); a TREC run's Q0 reads as NF. The file order is the ranking (RANK and\n"
    "SCORE are checked, not used). QRELS is a TREC qrels file: codes 1 and 2 are\n"
    "relevant, 0 not; 3 and 4 (relevant but outside the Boolean query's set) and\n"
    "-1 leave the document out of the topic altogether.\n"
    "\n"
    "Output (tab-separated, per topic then ALL): topic_id, num_docs, num_rels,\n"
    "num_shown, num_feedback, rels_found, last_rel, wss_100, wss_95, NCG@10 ...\n"
    "NCG@100, total_cost, total_cost_uniform, total_cost_weighted, norm_area, ap,\n"
    "r, loss_e, loss_r, loss_er, rounded to 3 decimals. ALL sums the counts and\n"
    "averages the rest over the topics scored. As tar_eval does, a repeated\n"
    "document is reported ('TOPIC Duplicate DOCNO') and skipped, a topic without\n"
    "relevant documents in QRELS ('Skipping topic: TOPIC') is left out, and a\n"
    "document QRELS does not name counts as shown and not relevant. See\n"
    "doc/qrelkit-tar.md for each measure's definition.\n"
    "\n"
    "options:\n"
    "  --format FMT tar_eval: the official script's lines, as above (default);\n"
    "               tsv: a header line, then one line per scored topic and ALL,\n"
    "               measures as columns; json: one document with the run, each\n"
    "               topic (skipped ones and duplicates included) and ALL\n"
    "  --precision N  significant digits of tsv and json values (default 6; the\n"
    "               tar_eval format always rounds to 3 decimals as the script)\n"
    "  --strict     a repeated document or a topic missing from QRELS (or without\n"
    "               relevant documents) is an error instead (exit 2)\n"
    "  -o, --out FILE  write to FILE (temporary name, renamed when complete;\n"
    "               default standard output)\n"
    "  -h, --help   show this text\n"
    "\n"
    "example:\n"
    "  qrelkit tar eval clef-tar-2017/qrel_abs_test.txt clef-tar-2017/runs/Waterloo-B-rank-normal.run\n"
    "\n"
    "exit status: 0 ok, 1 bad option, 2 bad input (malformed run or qrels, an\n"
    "unknown interaction code, a topic listed twice; with --strict duplicates and\n"
    "unjudged topics), 3 cannot read or write.\n";

enum { O_STRICT = 256, O_FORMAT, O_PRECISION };
enum { FMT_TAR_EVAL = 0, FMT_TSV, FMT_JSON };
static const qk_enum format_table[] = {
    {"tar_eval", FMT_TAR_EVAL, "the official script's output, byte for byte"},
    {"tsv", FMT_TSV, "header line, one line per scored topic and ALL"},
    {"json", FMT_JSON, "one JSON document"},
    {NULL, 0, NULL},
};
static const struct option longopts[] = {{"strict", no_argument, NULL, O_STRICT},
                                         {"format", required_argument, NULL, O_FORMAT},
                                         {"precision", required_argument, NULL, O_PRECISION},
                                         {"out", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

typedef struct out_ctx {
    const qk_tar_eval *e;
    const qk_tar_run *run;
    int format, precision;
} out_ctx;

static int tsv_row(FILE *f, const qk_tar_row *r, int precision)
{
    if (fputs(r->qid, f) < 0)
        return -1;
    for (int m = 0; m < QK_TAR_NUM_MEASURES; m++)
        if ((r->is_int[m] ? fprintf(f, "\t%.0f", r->v[m]) : fprintf(f, "\t%.*g", precision, r->v[m])) < 0)
            return -1;
    return fputc('\n', f) < 0 ? -1 : 0;
}

static qk_status write_tsv(const out_ctx *c, FILE *f, qk_error *err)
{
    size_t n;
    const qk_tar_row *rows = qk_tar_eval_rows(c->e, &n);
    int bad = fputs("topic", f) < 0;
    for (int m = 0; m < QK_TAR_NUM_MEASURES && !bad; m++)
        bad = fprintf(f, "\t%s", qk_tar_measure_name(m)) < 0;
    bad = bad || fputc('\n', f) < 0;
    for (size_t t = 0; t < n && !bad; t++)
        bad = !rows[t].skipped && tsv_row(f, &rows[t], c->precision) != 0;
    if (bad || tsv_row(f, qk_tar_eval_all(c->e), c->precision) != 0)
        return qk_error_set(err, QK_EIO, "cannot write the evaluation: write error");
    return QK_OK;
}

static json_t *json_row(const qk_tar_row *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "topic", json_string(r->qid));
    if (r->skipped) {
        json_object_set_new(o, "skipped", json_true());
        return o;
    }
    if (r->num_duplicates) {
        json_t *d = json_array();
        for (size_t i = 0; i < r->num_duplicates; i++)
            json_array_append_new(d, json_string(r->duplicates[i]));
        json_object_set_new(o, "duplicates", d);
    }
    for (int m = 0; m < QK_TAR_NUM_MEASURES; m++)
        json_object_set_new(o, qk_tar_measure_name(m),
                            r->is_int[m] ? json_integer((json_int_t)r->v[m]) : json_real(r->v[m]));
    return o;
}

static qk_status write_json(const out_ctx *c, FILE *f, qk_error *err)
{
    size_t n;
    const qk_tar_row *rows = qk_tar_eval_rows(c->e, &n);
    json_t *doc = json_object(), *topics = json_array();
    int bad;
    json_object_set_new(doc, "run", json_string(qk_tar_run_name(c->run)));
    json_object_set_new(doc, "file", json_string(qk_tar_run_source(c->run)));
    for (size_t t = 0; t < n; t++)
        json_array_append_new(topics, json_row(&rows[t]));
    json_object_set_new(doc, "topics", topics);
    json_object_set_new(doc, "all", json_row(qk_tar_eval_all(c->e)));
    bad = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(c->precision)) != 0 || fputc('\n', f) < 0;
    json_decref(doc);
    return bad ? qk_error_set(err, QK_EIO, "cannot write the evaluation: write error") : QK_OK;
}

static qk_status write_eval(void *ctx, FILE *f, qk_error *err)
{
    const out_ctx *c = ctx;
    if (c->format == FMT_TSV)
        return write_tsv(c, f, err);
    if (c->format == FMT_JSON)
        return write_json(c, f, err);
    return qk_tar_eval_write(c->e, f, err);
}

/* --strict: the first repeated document or unscored topic, as an error. */
static int strict_check(const qk_tar_eval *e, const qk_tar_run *run, const char *qrels_path)
{
    size_t n;
    const qk_tar_row *rows = qk_tar_eval_rows(e, &n);
    for (size_t t = 0; t < n; t++) {
        if (rows[t].skipped) {
            qk_cli_errorf(CMD, "'%s': topic '%s' has no relevant document in '%s' (--strict)",
                          qk_tar_run_source(run), rows[t].qid, qrels_path);
            return QK_EXIT_INPUT;
        }
        if (rows[t].num_duplicates) {
            qk_cli_errorf(CMD, "'%s': topic '%s' lists document '%s' more than once (--strict)",
                          qk_tar_run_source(run), rows[t].qid, rows[t].duplicates[0]);
            return QK_EXIT_INPUT;
        }
    }
    return 0;
}

int qk_tar_mode_eval(int argc, char **argv)
{
    const char *out = NULL, *qrels_path, *run_path;
    int c, strict = 0, rc = QK_EXIT_OK, format = FMT_TAR_EVAL;
    long precision = 6;
    out_ctx oc;
    qk_cli_stdin seen = {0};
    qk_error err = {0};
    qk_qrels *qrels = NULL;
    qk_tar_run *run = NULL;
    qk_tar_eval *e = NULL;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case O_STRICT: strict = 1; break;
        case O_FORMAT:
            if ((rc = qk_cli_enum(CMD, format_table, "--format", optarg, &format)) != 0)
                return rc;
            break;
        case O_PRECISION:
            if ((rc = qk_cli_long(CMD, "--precision", optarg, 1, 17, &precision)) != 0)
                return rc;
            break;
        case 'o': out = optarg; break;
        case 'h': return qk_cli_help(qk_help_tar_eval);
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return qk_cli_usage(CMD, argc - optind < 2 ? "missing %s" : "unexpected argument '%s'",
                            argc - optind == 0   ? "QRELS and RUN"
                            : argc - optind == 1 ? "RUN"
                                                 : argv[optind + 2]);
    qrels_path = argv[optind];
    run_path = argv[optind + 1];
    if ((rc = qk_cli_stdin_once(CMD, &seen, qrels_path, "QRELS", 0)) != 0 ||
        (rc = qk_cli_stdin_once(CMD, &seen, run_path, "RUN", 0)) != 0)
        return rc;
    if (out && !qk_cli_is_stdout(out)) {
        const char *ins[2] = {qrels_path, run_path};
        if ((rc = qk_cli_check_output(CMD, "-o", out, ins, 2)) != 0)
            return rc;
    }
    if (qk_qrels_read(qrels_path, QK_REL_QRELS, QK_DEDUP_ERROR, &qrels, &err) != QK_OK ||
        qk_tar_run_read(run_path, &run, &err) != QK_OK || qk_tar_eval_run(run, qrels, &e, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto done;
    }
    if (strict && (rc = strict_check(e, run, qrels_path)) != 0)
        goto done;
    oc.e = e;
    oc.run = run;
    oc.format = format;
    oc.precision = (int)precision;
    if (out && !qk_cli_is_stdout(out))
        rc = qk_cli_write_file(CMD, out, write_eval, &oc);
    else if (write_eval(&oc, stdout, &err) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
done:
    qk_tar_eval_free(e);
    qk_tar_run_free(run);
    qk_qrels_free(qrels);
    return rc;
}
