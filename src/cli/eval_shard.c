/* `qrelkit eval --shard I/N`: a part of the runs, or of one run's qrels
 * topics, and the topics' merge back into one result (doc/scale-out.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "eval_cli.h"
#include "shard_cli.h"

/* The bytes eval prints for the one result e, run `r` of nall runs, into
 * *buf (caller frees): what the unsharded output holds for that run. */
static int shard_item(qk_eval_result *e, char *path, size_t nall, const qk_eval_cli *c, char **buf,
                      size_t *len)
{
    qk_error err;
    FILE *f = open_memstream(buf, len);
    int rc = 0;
    if (!f)
        return QK_EXIT_IO;
    if (c->format && strcmp(c->format, "json") == 0)
        qk_eval_write_json(f, &e, &path, 1, c);
    else if ((c->format && strcmp(c->format, "tsv") == 0) || nall > 1 || c->precision_set)
        qk_eval_write_tsv(f, &e, 1, c, 0);
    else if (qk_result_write_trec(e, f, c->per_topic, c->summary, &err) != QK_OK)
        rc = qk_cli_fail("eval", &err);
    if (fclose(f) != 0 && !rc)
        rc = QK_EXIT_IO;
    return rc;
}

/* --shard: evaluate runs [first, end) of the nall RUN operands and write
 * them as a part. JSON: every run's object is cut out of a one-run document
 * (jansson indents by depth, so the text of a run does not depend on its
 * neighbours) and joined with ",\n" between the document's frame. */
int qk_eval_shard_runs(const qk_eval_cli *c, const qk_qrels *q, const qk_measures *ms, int argc, char **argv,
                       int first)
{
    static const char jpro[] = "{\n  \"runs\": [\n", jepi[] = "\n  ]\n}\n", tsv_header[] = QK_EVAL_TSV_HEADER;
    char **paths = argv + first + 1;
    size_t nall = (size_t)(argc - first - 1), r0, r1;
    int json = c->format && strcmp(c->format, "json") == 0, nres = 0, rc;
    qk_eval_result **res = NULL;
    qk_shard_part *part = NULL;
    const char **ins = calloc(nall + 2, sizeof *ins);
    if (!ins)
        return QK_EXIT_IO;
    ins[0] = argv[first];
    ins[1] = c->zfile;
    memcpy(ins + 2, paths, nall * sizeof *ins);
    qk_shard_range(c->shard, nall, &r0, &r1);
    rc = qk_cli_shard_begin("eval", "eval", "concat", c->shard, nall, argc, argv, ins, nall + 2, &part);
    free(ins);
    if (rc)
        return rc;
    if (json)
        rc = qk_shard_part_set_frame(part, jpro, sizeof jpro - 1, ",\n", 2, jepi, sizeof jepi - 1) != QK_OK;
    else if (c->format && strcmp(c->format, "tsv") == 0)
        rc = qk_shard_part_set_frame(part, tsv_header, sizeof tsv_header - 1, NULL, 0, NULL, 0) != QK_OK;
    if (rc)
        rc = QK_EXIT_IO;
    if (!rc && r1 > r0 && !(res = calloc(r1 - r0, sizeof *res)))
        rc = QK_EXIT_IO;
    if (!rc && r1 > r0 &&
        (rc = qk_eval_many("eval", q, ms, &c->o, paths + r0, (int)(r1 - r0), res, &nres)) < 0)
        rc = 0;
    for (size_t r = r0; !rc && r < r1; r++) {
        char *buf = NULL, *item;
        size_t len = 0, ilen;
        qk_error err;
        if ((rc = shard_item(res[r - r0], paths[r], nall, c, &buf, &len)) == 0) {
            item = buf;
            ilen = len;
            if (json) {
                /* strip the one-run document's frame */
                if (len < sizeof jpro - 1 + sizeof jepi - 1 || memcmp(buf, jpro, sizeof jpro - 1) != 0 ||
                    memcmp(buf + len - (sizeof jepi - 1), jepi, sizeof jepi - 1) != 0) {
                    qk_cli_errorf("eval", "internal error: unexpected JSON frame");
                    rc = QK_EXIT_IO;
                }
                item += sizeof jpro - 1;
                ilen -= sizeof jpro - 1 + sizeof jepi - 1;
            }
            if (!rc && qk_shard_part_add_item(part, r, item, ilen, &err) != QK_OK)
                rc = qk_cli_fail("eval", &err);
        }
        free(buf);
    }
    for (int r = 0; r < nres; r++)
        qk_eval_result_free(res[r]);
    free(res);
    if (rc) {
        qk_shard_part_free(part);
        return rc;
    }
    return qk_cli_shard_finish("eval", part);
}

/* --shard with one RUN: by qrels topic. Item u (qrels topic u) is "E" and
 * the record of its raw values, then one line per string value (relstring),
 * or "M" (missing from the run, reported as such), or "-" (not asked for:
 * -D). The prologue is the run id. The merge rebuilds the result from all
 * topics (qk_eval_result_assemble, which runs the evaluation's own summary)
 * and prints it as the unsharded command does. */
int qk_eval_shard_topics(const qk_eval_cli *c, const qk_qrels *q, const qk_measures *ms, int argc,
                         char **argv, int first)
{
    const char *ins[3] = {argv[first], c->zfile, argv[first + 1]};
    size_t nq = qk_qrels_num_topics(q), nv = qk_measures_num_values(ms), t0, t1;
    qk_eval_opts o = c->o;
    qk_eval_result *res = NULL;
    qk_shard_part *part = NULL;
    qk_run_stream *rs = NULL;
    qk_error err = {0};
    unsigned char *state = calloc(nq + 1, 1);
    size_t *row = calloc(nq + 1, sizeof *row);
    int rc = state && row ? 0 : QK_EXIT_IO;
    qk_shard_range(c->shard, nq, &t0, &t1);
    if (!rc)
        rc = qk_cli_shard_begin("eval", "eval", "eval-topic", c->shard, nq, argc, argv, ins, 3, &part);
    o.topic_range = 1;
    o.topic_first = t0;
    o.topic_end = t1;
    /* every shard reads the whole run: the run id is the last line's */
    if (!rc && (qk_run_open(argv[first + 1], QK_RUN_STREAM, &rs, &err) != QK_OK ||
                qk_eval_stream(q, rs, ms, &o, &res, &err) != QK_OK))
        rc = qk_cli_fail("eval", &err);
    qk_run_close(rs);
    if (!rc && res) {
        const char *id = qk_result_runid(res);
        size_t u;
        if (qk_shard_part_set_frame(part, id, strlen(id), NULL, 0, NULL, 0) != QK_OK)
            rc = QK_EXIT_IO;
        for (size_t k = 0; k < qk_result_num_topics(res); k++)
            if (qk_qrels_find_topic(q, qk_result_topic(res, k), strlen(qk_result_topic(res, k)), &u)) {
                state[u] = QK_TOPIC_EVALUATED;
                row[u] = k;
            }
        for (size_t k = 0; k < qk_result_num_missing(res); k++)
            if (qk_qrels_find_topic(q, qk_result_missing(res, k), strlen(qk_result_missing(res, k)), &u))
                state[u] = QK_TOPIC_MISSING;
    }
    for (size_t u = t0; !rc && u < t1; u++) {
        char *buf = NULL, *rec = NULL;
        size_t len = 0, rlen;
        FILE *f = open_memstream(&buf, &len);
        double *v = calloc(nv + 1, sizeof *v);
        if (!f || !v)
            rc = QK_EXIT_IO;
        else if (state[u] == QK_TOPIC_EVALUATED) {
            for (size_t i = 0; i < nv; i++)
                v[i] = qk_result_topic_value(res, row[u], i);
            if (qk_shard_record_format(v, nv, &rec, &rlen, &err) != QK_OK)
                rc = QK_EXIT_IO;
            else
                fprintf(f, "E %s", rec);
            for (size_t i = 0; !rc && i < nv; i++) {
                const char *s = qk_result_topic_string(res, row[u], i);
                if (s)
                    fprintf(f, "\n%zu %s", i, s);
            }
        } else
            fputs(state[u] == QK_TOPIC_MISSING ? "M" : "-", f);
        if (f && fclose(f) != 0)
            rc = QK_EXIT_IO;
        if (!rc && qk_shard_part_add_item(part, u, buf, len, &err) != QK_OK)
            rc = qk_cli_fail("eval", &err);
        free(rec);
        free(buf);
        free(v);
    }
    qk_eval_result_free(res);
    free(state);
    free(row);
    if (rc) {
        qk_shard_part_free(part);
        return rc;
    }
    return qk_cli_shard_finish("eval", part);
}

/* The result of the run from the merged part's topics. 0 or an exit code. */
int qk_eval_assemble_topics(const qk_shard_part *m, const qk_qrels *q, const qk_measures *ms,
                            const qk_eval_opts *o, qk_eval_result **res)
{
    size_t nq = qk_qrels_num_topics(q), nv = qk_measures_num_values(ms);
    unsigned char *state = calloc(nq + 1, 1);
    double *vals = calloc(nq * nv + 1, sizeof *vals);
    char **strs = calloc(nq * nv + 1, sizeof *strs);
    qk_error err = {0};
    int rc = state && vals && strs ? 0 : QK_EXIT_IO;
    if (!rc && qk_shard_part_num_items(m) != nq)
        rc = QK_EXIT_INPUT;
    for (size_t u = 0; !rc && u < nq; u++) {
        size_t len;
        const char *it = qk_shard_part_item(m, u, NULL, &len), *s;
        if (len == 1 && (it[0] == 'M' || it[0] == '-')) {
            state[u] = it[0] == 'M' ? QK_TOPIC_MISSING : QK_TOPIC_NONE;
            continue;
        }
        if (len < 2 || memcmp(it, "E ", 2) != 0 ||
            qk_shard_record_parse(it + 2, len - 2, vals + u * nv, nv, &s)) {
            rc = QK_EXIT_INPUT;
            break;
        }
        state[u] = QK_TOPIC_EVALUATED;
        while (!rc && *s == '\n') { /* "\nINDEX STRING" per string value */
            char *e;
            size_t i = (size_t)strtoul(s + 1, &e, 10), n;
            const char *nl = strchr(e, '\n');
            if (e == s + 1 || *e != ' ' || i >= nv || strs[u * nv + i]) {
                rc = QK_EXIT_INPUT;
                break;
            }
            n = nl ? (size_t)(nl - e - 1) : strlen(e + 1);
            if (!(strs[u * nv + i] = strndup(e + 1, n)))
                rc = QK_EXIT_IO;
            s = e + 1 + n;
        }
        if (!rc && *s)
            rc = QK_EXIT_INPUT;
    }
    if (rc == QK_EXIT_INPUT)
        qk_cli_errorf("merge", "the parts of eval by topic are malformed");
    else if (!rc && qk_eval_result_assemble(q, ms, o, qk_shard_part_prologue(m, NULL), state, vals, strs, res,
                                            &err) != QK_OK)
        rc = qk_cli_fail("merge", &err);
    for (size_t k = 0; strs && k < nq * nv; k++)
        free(strs[k]);
    free(strs);
    free(vals);
    free(state);
    return rc;
}
