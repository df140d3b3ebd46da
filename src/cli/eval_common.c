/* What `qrelkit eval` prints and how it evaluates several runs: shared by
 * the whole command (cmd_eval.c) and its shards (eval_shard.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "buf_out.h"
#include "cli_util.h"
#include "eval_cli.h"
#include "json_out.h"

static void print_num(qk_bout *o, const qk_measure_info *in, double v, int prec, int zmode)
{
    char b[QK_FMT_BUFSIZE];
    int n;
    if (in->is_long && !zmode) { /* printf's %ld */
        long x = (long)v;
        unsigned long u = x < 0 ? 0UL - (unsigned long)x : (unsigned long)x;
        char *e = b + 24, *p = e;
        do
            *--p = (char)('0' + u % 10);
        while ((u /= 10) != 0);
        if (x < 0)
            *--p = '-';
        qk_bout_put(o, p, (size_t)(e - p));
        return;
    } else if (prec == 4 && isfinite(v)) /* the default: printf's bytes, several times faster */
        n = (int)qk_fmt_fixed4(b, v);
    else
        n = snprintf(b, sizeof b, "%.*f", prec, v);
    if (n > 0 && (size_t)n < sizeof b)
        qk_bout_put(o, b, (size_t)n);
    else if (n > 0) { /* a large precision of a large value: printf's own */
        qk_bout_flush(o);
        fprintf(o->f, "%.*f", prec, v);
    }
}

/* run, name and topic of a TSV line and their tabs */
static void put_keys(qk_bout *o, const char *run, const char *name, const char *topic)
{
    qk_bout_str(o, run);
    qk_bout_c(o, '\t');
    qk_bout_str(o, name);
    qk_bout_c(o, '\t');
    qk_bout_str(o, topic);
    qk_bout_c(o, '\t');
}

void qk_eval_write_tsv(FILE *f, qk_eval_result *const *res, size_t nres, const qk_eval_cli *c, int header)
{
    qk_bout o;
    qk_bout_init(&o, f);
    if (header)
        qk_bout_str(&o, QK_EVAL_TSV_HEADER);
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
                    put_keys(&o, run, qk_result_value_name(e, i), qk_result_topic(e, t));
                    if (s)
                        qk_bout_str(&o, s);
                    else
                        print_num(&o, in, qk_result_topic_value(e, t, i), c->precision, z);
                    qk_bout_c(&o, '\n');
                }
        if (c->summary)
            for (size_t i = 0; i < qk_result_num_values(e); i++) {
                const qk_measure_info *in = qk_result_value_measure(e, i);
                if (in->summary == QK_SUMMARY_NONE || in->summary == QK_SUMMARY_RUNID)
                    continue;
                put_keys(&o, run, qk_result_value_name(e, i), "all");
                print_num(&o, in, qk_result_summary(e, i), c->precision, z);
                qk_bout_c(&o, '\n');
            }
    }
    qk_bout_flush(&o);
}

/* --precision in JSON: round to that many decimals (jansson counts significant digits). */
static int json_decimals = -1;

/* A value as JSON: an integer, null for NaN, else a real (rounded to
 * --precision decimals first when given). */
static void put_num(qk_jout *w, const qk_jout_key *key, const qk_measure_info *in, double v, int zmode)
{
    if (in->is_long && !zmode) {
        qk_jout_int_k(w, key, (long long)v);
        return;
    }
    if (v != v) {
        qk_jout_null_k(w, key);
        return;
    }
    if (json_decimals >= 0) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*f", json_decimals, v);
        v = strtod(buf, NULL);
    }
    qk_jout_real_k(w, key, v);
}

static void free_keys(qk_jout_key *k, size_t n)
{
    for (size_t i = 0; k && i < n; i++)
        qk_jout_key_free(&k[i]);
    free(k);
}

/* The value names of e as rendered keys (written once per topic each);
 * NULL when out of memory. */
static qk_jout_key *value_keys(const qk_eval_result *e)
{
    size_t n = qk_result_num_values(e);
    qk_jout_key *k = calloc(n ? n : 1, sizeof *k);
    for (size_t i = 0; k && i < n; i++)
        if (!qk_jout_key_init(&k[i], qk_result_value_name(e, i))) {
            free_keys(k, i);
            k = NULL;
        }
    return k;
}

/* Written as it goes (json_out.h), the bytes jansson gave for the same
 * tree: with -q over 80,000 topics, the tree took 1.1 GB. */
int qk_eval_write_json(FILE *f, qk_eval_result *const *res, char *const *paths, size_t nres,
                       const qk_eval_cli *c)
{
    qk_jout w;
    json_decimals = c->precision_set ? c->precision : -1;
    qk_jout_init(&w, f, json_decimals >= 0 ? 15 : 17);
    qk_jout_open(&w, NULL, '{');
    qk_jout_open(&w, "runs", '[');
    for (size_t r = 0; r < nres; r++) {
        const qk_eval_result *e = res[r];
        int z = qk_result_zmode(e);
        qk_jout_key *keys = value_keys(e);
        if (!keys) {
            qk_jout_flush(&w);
            fprintf(stderr, "qrelkit eval: out of memory\n");
            return qk_status_exit_code(QK_ENOMEM);
        }
        qk_jout_open(&w, NULL, '{');
        qk_jout_string(&w, "run", qk_result_runid(e));
        qk_jout_string(&w, "file", paths[r]);
        if (c->summary) {
            qk_jout_open(&w, "summary", '{');
            for (size_t i = 0; i < qk_result_num_values(e); i++) {
                const qk_measure_info *in = qk_result_value_measure(e, i);
                if (in->summary != QK_SUMMARY_NONE && in->summary != QK_SUMMARY_RUNID)
                    put_num(&w, &keys[i], in, qk_result_summary(e, i), z);
            }
            qk_jout_close(&w, '{');
        }
        if (c->per_topic) {
            qk_jout_open(&w, "topics", '{');
            for (size_t t = 0; t < qk_result_num_topics(e); t++) {
                qk_jout_open(&w, qk_result_topic(e, t), '{');
                for (size_t i = 0; i < qk_result_num_values(e); i++) {
                    const qk_measure_info *in = qk_result_value_measure(e, i);
                    const char *s = qk_result_topic_string(e, t, i);
                    if (!in->per_topic)
                        continue;
                    if (s)
                        qk_jout_string_k(&w, &keys[i], s);
                    else
                        put_num(&w, &keys[i], in, qk_result_topic_value(e, t, i), z);
                }
                qk_jout_close(&w, '{');
            }
            qk_jout_close(&w, '{');
        }
        qk_jout_open(&w, "skipped_topics", '[');
        for (size_t k = 0; k < qk_result_num_missing(e); k++)
            qk_jout_string(&w, NULL, qk_result_missing(e, k));
        qk_jout_close(&w, '[');
        qk_jout_close(&w, '{');
        free_keys(keys, qk_result_num_values(e));
    }
    qk_jout_close(&w, '[');
    qk_jout_close(&w, '{');
    fputc('\n', f);
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
