/* Shared helpers of the evaluation unit tests (test_measures.c,
 * test_eval_engine.c, test_selection.c): small qrels/run/z-score files in a
 * temporary directory, evaluation through the public API, and value checks
 * that report the expression, the expected and the actual value.
 *
 * Include after <cmocka.h>. Each test program uses fx_setup / fx_teardown
 * as its group setup and teardown. */
#ifndef QK_TEST_EVAL_FIXTURE_H
#define QK_TEST_EVAL_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/qrelkit.h"

#define FX_MAX_FILES 256

static char fx_dir[64];
static char *fx_files[FX_MAX_FILES];
static size_t fx_nfiles;
static unsigned long fx_checks; /* value assertions made, reported by fx_teardown */

static inline int fx_setup(void **state)
{
    (void)state;
    strcpy(fx_dir, "/tmp/qk_eval_test_XXXXXX");
    return mkdtemp(fx_dir) ? 0 : -1;
}

static inline int fx_teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < fx_nfiles; i++) {
        unlink(fx_files[i]);
        free(fx_files[i]);
    }
    fx_nfiles = 0;
    rmdir(fx_dir);
    printf("[ INFO     ] %lu value assertions\n", fx_checks);
    return 0;
}

/* Write content to a fresh file in the temporary directory; returns its path
 * (valid until fx_teardown). */
static const char *fx_file(const char *content)
{
    char path[128];
    FILE *f;
    assert_true(fx_nfiles < FX_MAX_FILES);
    snprintf(path, sizeof path, "%s/f%03zu", fx_dir, fx_nfiles);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(content, f);
    assert_int_equal(fclose(f), 0);
    fx_files[fx_nfiles] = strdup(path);
    assert_non_null(fx_files[fx_nfiles]);
    return fx_files[fx_nfiles++];
}

/* One evaluation: qrels, measure set and result, freed by fx_done. */
typedef struct fx_eval {
    qk_qrels *q;
    qk_measures *m;
    qk_eval_result *r;
    qk_status st;
    qk_error err;
} fx_eval;

/* Build a measure set from space-separated -m arguments ("map P.1,2 official").
 * Returns the status of the first failing add, or of finalize. */
static inline qk_status fx_measures(const char *specs, qk_measures **out, qk_error *err)
{
    char buf[1024], *tok, *save = NULL;
    qk_status st;
    assert_int_equal(qk_measures_new(out), QK_OK);
    snprintf(buf, sizeof buf, "%s", specs ? specs : "");
    for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        if ((st = qk_measures_add(*out, tok, err)) != QK_OK)
            return st;
    return qk_measures_finalize(*out, err);
}

/* Evaluate; returns the status (the caller checks it), e->r set on success. */
static inline qk_status fx_try(fx_eval *e, qk_rel_format fmt, const char *qrels, const char *run,
                               const char *specs, const qk_eval_opts *opts)
{
    qk_eval_opts def;
    memset(e, 0, sizeof *e);
    if (!opts) {
        qk_eval_opts_init(&def);
        opts = &def;
    }
    e->st = qk_qrels_read(fx_file(qrels), fmt, QK_DEDUP_ERROR, &e->q, &e->err);
    if (e->st != QK_OK)
        return e->st;
    e->st = fx_measures(specs, &e->m, &e->err);
    if (e->st != QK_OK)
        return e->st;
    {
        qk_run *rr = NULL;
        e->st = qk_run_read(fx_file(run), &rr, &e->err);
        if (e->st == QK_OK)
            e->st = qk_eval_run(e->q, rr, e->m, opts, &e->r, &e->err);
        qk_run_free(rr);
    }
    return e->st;
}

/* Evaluate and require success. */
static inline void fx_run(fx_eval *e, qk_rel_format fmt, const char *qrels, const char *run,
                          const char *specs, const qk_eval_opts *opts)
{
    if (fx_try(e, fmt, qrels, run, specs, opts) != QK_OK)
        fail_msg("evaluation failed (%d): %s", e->st, e->err.message);
}

static inline void fx_done(fx_eval *e)
{
    qk_eval_result_free(e->r);
    qk_measures_free(e->m);
    qk_qrels_free(e->q);
    memset(e, 0, sizeof *e);
}

static inline size_t fx_index_(const fx_eval *e, const char *name, const char *file, int line)
{
    size_t i = qk_result_find_value(e->r, name);
    if (i == (size_t)-1) {
        print_error("no value named '%s'\n", name);
        _fail(file, line);
    }
    return i;
}

static inline size_t fx_topic_(const fx_eval *e, const char *qid, const char *file, int line)
{
    for (size_t t = 0; t < qk_result_num_topics(e->r); t++)
        if (strcmp(qk_result_topic(e->r, t), qid) == 0)
            return t;
    print_error("topic '%s' was not evaluated\n", qid);
    _fail(file, line);
    return 0;
}

/* Per-topic value and summary value by printed name. */
#define fx_val(e, qid, name)                                                                       \
    qk_result_topic_value((e)->r, fx_topic_((e), (qid), __FILE__, __LINE__),                       \
                          fx_index_((e), (name), __FILE__, __LINE__))
#define fx_all(e, name) qk_result_summary((e)->r, fx_index_((e), (name), __FILE__, __LINE__))
#define fx_str(e, qid, name)                                                                       \
    qk_result_topic_string((e)->r, fx_topic_((e), (qid), __FILE__, __LINE__),                      \
                           fx_index_((e), (name), __FILE__, __LINE__))

static inline void fx_close_(double got, double want, double tol, const char *expr, const char *file,
                             int line)
{
    fx_checks++;
    if (!(fabs(got - want) <= tol)) {
        print_error("%s = %.17g, expected %.17g (tolerance %g)\n", expr, got, want, tol);
        _fail(file, line);
    }
}

/* CLOSE: a value computed by hand from the spec's formula (1e-12).
 * NEAR4: a value the spec gives to four decimals (half a unit of the 4th). */
#define CLOSE(got, want) fx_close_((got), (want), 1e-12, #got, __FILE__, __LINE__)
#define NEAR4(got, want) fx_close_((got), (want), 5e-5, #got, __FILE__, __LINE__)

static inline void fx_streq_(const char *got, const char *want, const char *expr, const char *file, int line)
{
    fx_checks++;
    if (!got || strcmp(got, want) != 0) {
        print_error("%s = '%s', expected '%s'\n", expr, got ? got : "(null)", want);
        _fail(file, line);
    }
}
#define STREQ(got, want) fx_streq_((got), (want), #got, __FILE__, __LINE__)

static inline void fx_status_(qk_status got, qk_status want, const char *expr, const char *file, int line)
{
    fx_checks++;
    if (got != want) {
        print_error("%s = %d (%s), expected %d (%s)\n", expr, got, qk_status_name(got), want,
                    qk_status_name(want));
        _fail(file, line);
    }
}
#define STATUS(got, want) fx_status_((got), (want), #got, __FILE__, __LINE__)

static inline void fx_count_(long got, long want, const char *expr, const char *file, int line)
{
    fx_checks++;
    if (got != want) {
        print_error("%s = %ld, expected %ld\n", expr, got, want);
        _fail(file, line);
    }
}
#define COUNT(got, want) fx_count_((long)(got), (long)(want), #got, __FILE__, __LINE__)

#endif
