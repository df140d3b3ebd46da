/* What `qrelkit eval` prints and how it evaluates several runs: shared by
 * the whole command (cmd_eval.c) and its shards (eval_shard.c). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_util.h"
#include "eval_cli.h"

static void print_num(FILE *f, const qk_measure_info *in, double v, int prec, int zmode)
{
    if (in->is_long && !zmode)
        fprintf(f, "%ld", (long)v);
    else
        fprintf(f, "%.*f", prec, v);
}

void qk_eval_write_tsv(FILE *f, qk_eval_result *const *res, size_t nres, const qk_eval_cli *c, int header)
{
    if (header)
        fputs(QK_EVAL_TSV_HEADER, f);
    for (size_t r = 0; r < nres; r++) {
        const qk_eval_result *e = res[r];
        int z = qk_result_zmode(e);
        const char *run = qk_result_runid(e);
        if (c->per_topic)
            for (size_t t = 0; t < qk_result_num_topics(e); t++)
                for (size_t i = 0; i < qk_result_num_values(e); i++) {
                    const qk_measure_info *in = qk_result_value_measure(e, i);
                    const char *s = qk_result_topic_string(e, t, i);
                    if (!in->per_topic)
                        continue;
                    fprintf(f, "%s\t%s\t%s\t", run, qk_result_value_name(e, i), qk_result_topic(e, t));
                    if (s)
                        fprintf(f, "%s", s);
                    else
                        print_num(f, in, qk_result_topic_value(e, t, i), c->precision, z);
                    fputc('\n', f);
                }
        if (c->summary)
            for (size_t i = 0; i < qk_result_num_values(e); i++) {
                const qk_measure_info *in = qk_result_value_measure(e, i);
                if (in->summary == QK_SUMMARY_NONE || in->summary == QK_SUMMARY_RUNID)
                    continue;
                fprintf(f, "%s\t%s\tall\t", run, qk_result_value_name(e, i));
                print_num(f, in, qk_result_summary(e, i), c->precision, z);
                fputc('\n', f);
            }
    }
}

/* --precision in JSON: round to that many decimals (jansson counts significant digits). */
static int json_decimals = -1;

static json_t *num_json(const qk_measure_info *in, double v, int zmode)
{
    if (in->is_long && !zmode)
        return json_integer((json_int_t)v);
    if (v != v)
        return json_null();
    if (json_decimals >= 0) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*f", json_decimals, v);
        v = strtod(buf, NULL);
    }
    return json_real(v);
}

int qk_eval_write_json(FILE *f, qk_eval_result *const *res, char *const *paths, size_t nres,
                       const qk_eval_cli *c)
{
    json_t *root = json_object(), *runs = json_array();
    json_decimals = c->precision_set ? c->precision : -1;
    json_object_set_new(root, "runs", runs);
    for (size_t r = 0; r < nres; r++) {
        const qk_eval_result *e = res[r];
        int z = qk_result_zmode(e);
        json_t *jr, *sum = json_object(), *topics = json_object(), *missing = json_array();
        for (size_t i = 0; i < qk_result_num_values(e); i++) {
            const qk_measure_info *in = qk_result_value_measure(e, i);
            if (in->summary != QK_SUMMARY_NONE && in->summary != QK_SUMMARY_RUNID)
                json_object_set_new(sum, qk_result_value_name(e, i),
                                    num_json(in, qk_result_summary(e, i), z));
        }
        if (c->per_topic)
            for (size_t t = 0; t < qk_result_num_topics(e); t++) {
                json_t *jt = json_object();
                for (size_t i = 0; i < qk_result_num_values(e); i++) {
                    const qk_measure_info *in = qk_result_value_measure(e, i);
                    const char *s = qk_result_topic_string(e, t, i);
                    if (!in->per_topic)
                        continue;
                    json_object_set_new(jt, qk_result_value_name(e, i),
                                        s ? json_string(s) : num_json(in, qk_result_topic_value(e, t, i), z));
                }
                json_object_set_new(topics, qk_result_topic(e, t), jt);
            }
        for (size_t k = 0; k < qk_result_num_missing(e); k++)
            json_array_append_new(missing, json_string(qk_result_missing(e, k)));
        jr = qk_eval_json_run(qk_result_runid(e), paths[r], sum, c->summary, topics, c->per_topic);
        json_object_set_new(jr, "skipped_topics", missing);
        json_array_append_new(runs, jr);
    }
    json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(json_decimals >= 0 ? 15 : 17));
    fputc('\n', f);
    json_decref(root);
    return QK_EXIT_OK;
}

void qk_eval_warn_missing(const char *cmd, const qk_eval_result *e, const char *path)
{
    size_t n = qk_result_num_missing(e);
    if (n == 0)
        return;
    fprintf(stderr,
            "qrelkit %s: warning: '%s' has no lines for %zu qrels topic%s (skipped; -c scores them): ", cmd,
            path, n, n == 1 ? "" : "s");
    for (size_t k = 0; k < n && k < 10; k++)
        fprintf(stderr, "%s%s", k ? ", " : "", qk_result_missing(e, k));
    fprintf(stderr, "%s\n", n > 10 ? ", ..." : "");
}

/* Several runs, in parallel over runs (qk_eval_streams), a batch of open
 * files at a time; warnings and the first error come out in run order, as
 * if evaluated one after another. -1 when all went well, else the exit code. */
int qk_eval_many(const char *cmd, const qk_qrels *q, const qk_measures *ms, const qk_eval_opts *o,
                 char *const *paths, int n, qk_eval_result **res, int *nres)
{
    enum { BATCH = 64 };
    qk_run_stream *rs[BATCH];
    qk_error err;
    for (int a = 0; a < n; a += BATCH) {
        int k = 0, want = n - a < BATCH ? n - a : BATCH;
        qk_status ost = QK_OK, st;
        size_t failed;
        while (k < want && (ost = qk_run_open(paths[a + k], QK_RUN_STREAM, &rs[k], &err)) == QK_OK)
            k++;
        if (ost != QK_OK) {
            qk_error oerr = err;
            st = qk_eval_streams(q, rs, (size_t)k, ms, o, o->threads, res + a, &failed, &err);
            for (int i = 0; i < k; i++)
                qk_run_close(rs[i]);
            for (size_t i = 0; i < failed; i++)
                qk_eval_warn_missing(cmd, res[a + (int)i], paths[a + (int)i]);
            *nres = a + (int)failed;
            return qk_cli_fail(cmd, st != QK_OK ? &err : &oerr);
        }
        st = qk_eval_streams(q, rs, (size_t)k, ms, o, o->threads, res + a, &failed, &err);
        for (int i = 0; i < k; i++)
            qk_run_close(rs[i]);
        for (size_t i = 0; i < failed; i++)
            qk_eval_warn_missing(cmd, res[a + (int)i], paths[a + (int)i]);
        *nres = a + (int)failed;
        if (st != QK_OK)
            return qk_cli_fail(cmd, &err);
    }
    return -1;
}
