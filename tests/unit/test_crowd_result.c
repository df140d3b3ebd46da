/* The worker reports of src/crowd/crowd_result.c on the toy data set: their
 * values under majority vote (exact fractions worked out by hand from the
 * vote shares), their absence under skip_worker_reports, and
 * qk_crowd_worker_reports filling in exactly what the eager path gives.
 *
 * Majority-vote posteriors P(no), P(yes): t1 1/2 1/2, t2 2/5 3/5,
 * t3 3/5 2/5, t4 0 1, t5 4/5 1/5. Worker w3 labelled t2 yes, t3 no, t4 yes,
 * t5 no: skill, the mean posterior of its answers, = (3/5 + 3/5 + 1 + 4/5)
 * / 4 = 3/4; soft counts [true no] = (obs no 3/5 + 4/5, obs yes 2/5 + 0) →
 * row 7/9 2/9, [true yes] = (2/5 + 1/5, 3/5 + 1) → row 3/11 8/11; spam score
 * |7/9 - 3/11| = 50/99. Worker w1 (no, yes, yes, yes, yes on t1..t5): skill
 * 27/50, rows 5/23 18/23 and 5/27 22/27, spam score 20/621 < 0.1: a spammer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "qrelkit/crowd.h"

#include "crowd_toy.h"

static qk_crowd_result *run(const qk_crowd_labels *L, qk_crowd_method m, int skip)
{
    qk_crowd_opts o;
    qk_crowd_result *r = NULL;
    qk_crowd_opts_init(&o);
    o.method = m;
    o.skip_worker_reports = skip;
    assert_int_equal(qk_crowd_aggregate(L, &o, &r, NULL), QK_OK);
    return r;
}

static size_t worker(const qk_crowd_labels *L, const char *name)
{
    for (size_t w = 0; w < qk_crowd_num_workers(L); w++)
        if (!strcmp(qk_crowd_worker_name(L, w), name))
            return w;
    fail_msg("no worker %s", name);
    return 0;
}

static void test_mv_reports(void **state)
{
    (void)state;
    qk_crowd_labels *L = crowd_toy_labels();
    qk_crowd_result *r = run(L, QK_CROWD_MV, 0);
    size_t w3 = worker(L, "w3"), w1 = worker(L, "w1"), nspam = 0;
    const double *e3 = r->confusion + w3 * 4, *e1 = r->confusion + w1 * 4;
    assert_non_null(r->skill);
    assert_int_equal(r->worker_n[w3], 4);
    assert_int_equal(r->worker_n[w1], 5);
    assert_float_equal(r->skill[w3], 3.0 / 4, 1e-12);
    assert_float_equal(e3[0], 7.0 / 9, 1e-12);
    assert_float_equal(e3[1], 2.0 / 9, 1e-12);
    assert_float_equal(e3[2], 3.0 / 11, 1e-12);
    assert_float_equal(e3[3], 8.0 / 11, 1e-12);
    assert_float_equal(r->spam_score[w3], 50.0 / 99, 1e-12);
    assert_float_equal(r->skill[w1], 27.0 / 50, 1e-12);
    assert_float_equal(e1[0], 5.0 / 23, 1e-12);
    assert_float_equal(e1[3], 22.0 / 27, 1e-12);
    assert_float_equal(r->spam_score[w1], 20.0 / 621, 1e-12);
    for (size_t w = 0; w < r->n_workers; w++)
        nspam += r->spammer[w];
    assert_int_equal(nspam, 1);
    assert_int_equal(r->spammer[w1], 1);
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
}

/* Skipped reports are NULL, the rest of the result is unchanged, and filling
 * them later gives the eager values bit for bit; a second fill is a no-op. */
static void check_lazy(qk_crowd_method m)
{
    qk_crowd_labels *L = crowd_toy_labels();
    qk_crowd_result *a = run(L, m, 0), *b = run(L, m, 1);
    qk_crowd_opts o;
    size_t nt = a->n_tasks, nw = a->n_workers, k = a->n_classes;
    qk_error err = {0};
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_null(b->skill);
    assert_null(b->spam_score);
    assert_null(b->spammer);
    assert_null(b->worker_n);
    /* DS and one-coin fit confusion matrices of their own; the others do not. */
    if (m == QK_CROWD_DS || m == QK_CROWD_ONECOIN)
        assert_memory_equal(b->confusion, a->confusion, nw * k * k * sizeof *a->confusion);
    else
        assert_null(b->confusion);
    assert_memory_equal(b->post, a->post, nt * k * sizeof *a->post);
    assert_memory_equal(b->label, a->label, nt * sizeof *a->label);
    assert_int_equal(b->ties, a->ties);
    assert_int_equal(qk_crowd_write_workers(L, b, f, 6, &err), QK_EUSAGE);

    qk_crowd_opts_init(&o);
    o.method = m;
    assert_int_equal(qk_crowd_worker_reports(L, &o, b, NULL), QK_OK);
    assert_non_null(b->skill);
    assert_memory_equal(b->confusion, a->confusion, nw * k * k * sizeof *a->confusion);
    assert_memory_equal(b->skill, a->skill, nw * sizeof *a->skill);
    assert_memory_equal(b->spam_score, a->spam_score, nw * sizeof *a->spam_score);
    assert_memory_equal(b->spammer, a->spammer, nw);
    assert_memory_equal(b->worker_n, a->worker_n, nw * sizeof *a->worker_n);
    const double *skill = b->skill;
    assert_int_equal(qk_crowd_worker_reports(L, &o, b, NULL), QK_OK);
    assert_ptr_equal(b->skill, skill);
    assert_int_equal(qk_crowd_write_workers(L, b, f, 6, NULL), QK_OK);
    fclose(f);
    qk_crowd_result_free(a);
    qk_crowd_result_free(b);
    qk_crowd_labels_free(L);
}

static void test_lazy_mv(void **state)
{
    (void)state;
    check_lazy(QK_CROWD_MV);
}
static void test_lazy_ds(void **state)
{
    (void)state;
    check_lazy(QK_CROWD_DS);
    check_lazy(QK_CROWD_ONECOIN);
}
static void test_lazy_glad_mace(void **state)
{
    (void)state;
    check_lazy(QK_CROWD_GLAD);
    check_lazy(QK_CROWD_MACE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mv_reports),
        cmocka_unit_test(test_lazy_mv),
        cmocka_unit_test(test_lazy_ds),
        cmocka_unit_test(test_lazy_glad_mace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
