/* Shared by fuzz_eval and fuzz_prefs: judgments and run from one input
 * (split by qk_fuzz_split), evaluated with one measure set; output goes to
 * /dev/null. Errors are fine, crashes and sanitizer reports are not. */
#ifndef QK_FUZZ_EVAL_UTIL_H
#define QK_FUZZ_EVAL_UTIL_H

#include "fuzz_util.h"
#include "qrelkit/eval.h"

static inline void qk_fuzz_eval(const uint8_t *data, size_t size, qk_rel_format fmt, const char *measures,
                                const qk_eval_opts *opts)
{
    size_t n1, n2;
    const uint8_t *p2;
    qk_qrels *q = NULL;
    qk_measures *m = NULL;
    qk_eval_result *r = NULL;
    qk_error err;
    const char *qpath, *rpath;
    qk_fuzz_split(data, size, &n1, &p2, &n2);
    qpath = qk_fuzz_file(0, data, n1);
    rpath = qk_fuzz_file(1, p2, n2);
    if (qk_measures_new(&m) != QK_OK || qk_measures_add(m, measures, &err) != QK_OK ||
        qk_measures_finalize(m, &err) != QK_OK)
        abort();
    if (qk_qrels_read(qpath, fmt, opts->dedup, &q, &err) == QK_OK) {
        qk_run_stream *s = NULL;
        qk_run *run = NULL;
        qk_eval_result *r2 = NULL;
        qk_status st = qk_run_open(rpath, QK_RUN_STREAM, &s, &err);
        if (st == QK_OK)
            st = qk_eval_stream(q, s, m, opts, &r, &err);
        qk_run_close(s);
        if (st == QK_OK) {
            FILE *f = fopen("/dev/null", "w");
            if (f) {
                qk_result_write_trec(r, f, 1, 1, &err);
                fclose(f);
            }
        } else if (!err.message[0]) {
            abort();
        }
        /* The same run in memory must give the same answer. */
        if (qk_run_read(rpath, &run, &err) == QK_OK &&
            (qk_eval_run(q, run, m, opts, &r2, &err) == QK_OK) != (st == QK_OK))
            abort();
        for (size_t i = 0; r && r2 && i < qk_result_num_values(r); i++) {
            double a = qk_result_summary(r, i), b = qk_result_summary(r2, i);
            if (a != b && !(a != a && b != b))
                abort();
        }
        qk_eval_result_free(r2);
        qk_run_free(run);
    } else if (!err.message[0]) {
        abort();
    }
    qk_eval_result_free(r);
    qk_qrels_free(q);
    qk_measures_free(m);
}

#endif
