/* qrelkit tar eval QRELS RUN: CLEF TAR measures (qk_tar_eval_* in tar.h). */
#include <getopt.h>
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

enum { O_STRICT = 256 };
static const struct option longopts[] = {{"strict", no_argument, NULL, O_STRICT},
                                         {"out", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

static qk_status write_eval(void *ctx, FILE *f, qk_error *err)
{
    return qk_tar_eval_write(ctx, f, err);
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
    int c, strict = 0, rc = QK_EXIT_OK;
    qk_cli_stdin seen = {0};
    qk_error err = {0};
    qk_qrels *qrels = NULL;
    qk_tar_run *run = NULL;
    qk_tar_eval *e = NULL;
    qk_status st;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case O_STRICT: strict = 1; break;
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
    if ((st = qk_qrels_read(qrels_path, QK_REL_QRELS, QK_DEDUP_ERROR, &qrels, &err)) != QK_OK ||
        (st = qk_tar_run_read(run_path, &run, &err)) != QK_OK ||
        (st = qk_tar_eval_run(run, qrels, &e, &err)) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto done;
    }
    if (strict && (rc = strict_check(e, run, qrels_path)) != 0)
        goto done;
    if (out && !qk_cli_is_stdout(out))
        rc = qk_cli_write_file(CMD, out, write_eval, e);
    else if ((st = qk_tar_eval_write(e, stdout, &err)) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
done:
    qk_tar_eval_free(e);
    qk_tar_run_free(run);
    qk_qrels_free(qrels);
    return rc;
}
