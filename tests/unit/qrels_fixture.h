/* Shared helpers of the qrels reader's unit tests (test_qrels_fast.c,
 * test_qrels_layout.c): check_file, which reads a file with every
 * classifier, as qrels and as qrels_jg, with both duplicate policies,
 * windowed and with 8-byte docno offsets, and compares each with the
 * per-line reader (the random generator is test_gen.h's).
 *
 * Include after <cmocka.h>. */
#ifndef QK_TEST_QRELS_FIXTURE_H
#define QK_TEST_QRELS_FIXTURE_H

#include <stdint.h>
#include <string.h>

#include "io/qrels_internal.h"
#include "io/run_internal.h"
#include "qrelkit/io.h"
#include "test_gen.h"

static void same_topic_judgments(const qk_qrels *a, size_t ta, const qk_qrels *b, size_t tb)
{
    size_t na, nb;
    const qk_judgment *ja = qk_qrels_judgments(a, ta, &na), *jb = qk_qrels_judgments(b, tb, &nb);
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) {
        assert_string_equal(qk_qrels_docno(a, ja[i].doc), qk_qrels_docno(b, jb[i].doc));
        assert_true(ja[i].rel == jb[i].rel);
        assert_int_equal(qk_qrels_judgment_line(a, ta, i), qk_qrels_judgment_line(b, tb, i));
        assert_int_equal(ja[i].jg, jb[i].jg);
        assert_int_equal(ja[i].doc, jb[i].doc);
    }
}

static void same_qrels(const qk_qrels *a, const qk_qrels *b)
{
    size_t nt = qk_qrels_num_topics(a);
    assert_int_equal(nt, qk_qrels_num_topics(b));
    assert_int_equal(qk_qrels_num_judgments(a), qk_qrels_num_judgments(b));
    assert_int_equal(qk_qrels_count_positive(a), qk_qrels_count_positive(b));
    assert_int_equal(a->in_order, b->in_order);
    for (size_t t = 0; t < nt; t++) {
        assert_string_equal(qk_qrels_topic(a, t), qk_qrels_topic(b, t));
        same_topic_judgments(a, t, b, t);
    }
}

/* Every classifier against the per-line reader, both duplicate policies,
 * the file read as qrels and as qrels_jg (the second field a judgment
 * group); the windowed reader against it too. Returns 1 when the file was
 * read as qrels. */
static int check_file(const char *path)
{
    int isas = qk_run_fast_best_isa() == QK_FAST_AVX2 ? 2 : 1, ok = 0;
    for (int d = 0; d < 4; d++) {
        qk_rel_format fmt = d < 2 ? QK_REL_QRELS : QK_REL_QRELS_JG;
        qk_dedup dedup = d % 2 ? QK_DEDUP_FIRST : QK_DEDUP_ERROR;
        qk_qrels *ref = NULL, *w = NULL;
        qk_error ref_err, err;
        qk_status ref_st = qk_qrels_read_isa(path, fmt, dedup, QK_QRELS_PER_LINE, &ref, &ref_err), st;
        for (int isa = 0; isa < isas; isa++) {
            qk_qrels *q = NULL;
            st = qk_qrels_read_isa(path, fmt, dedup, isa, &q, &err);
            assert_int_equal(st, ref_st);
            if (st != QK_OK)
                same_error(&err, &ref_err);
            else
                same_qrels(q, ref);
            qk_qrels_free(q);
        }
        /* docno offsets of 8 bytes from some point of the file on (as
         * past 4 GB of docnos), in the batch and the per-line reader */
        for (int isa = -1; isa < isas; isa++) {
            qk_qrels *q = NULL;
            size_t off_max = 40 + (size_t)d * 1000;
            st = qk_qrels_read_offs(path, fmt, dedup, isa, off_max, &q, &err);
            assert_int_equal(st, ref_st);
            if (st != QK_OK) {
                same_error(&err, &ref_err);
            } else {
                same_qrels(q, ref);
                /* wide from the first docno stored past off_max on (docnos
                 * are under 100 bytes) */
                if (q->arena_len <= off_max)
                    assert_null(q->doc_off64);
                else if (q->arena_len > off_max + 100)
                    assert_non_null(q->doc_off64);
            }
            qk_qrels_free(q);
        }
        st = qk_qrels_read_windowed(path, fmt, dedup, 1, &w, &err);
        assert_int_equal(st, ref_st);
        if (st != QK_OK) {
            same_error(&err, &ref_err);
        } else {
            assert_int_equal(qk_qrels_num_topics(w), qk_qrels_num_topics(ref));
            assert_int_equal(qk_qrels_num_judgments(w), qk_qrels_num_judgments(ref));
            for (size_t t = 0; t < qk_qrels_num_topics(ref); t++) {
                size_t n;
                const qk_judgment *j;
                assert_int_equal(qk_qrels_window(w, t, &err), QK_OK);
                if (!w->win->all) { /* a window ends at the first topic end past its size */
                    const qk_qrels *part = w->win->part;
                    size_t last;
                    qk_qrels_judgments(part, qk_qrels_num_topics(part) - 1, &last);
                    assert_true(qk_qrels_num_judgments(part) - last < QK_WINDOW_RECS);
                }
                assert_string_equal(qk_qrels_topic(w, t), qk_qrels_topic(ref, t));
                j = qk_qrels_judgments(ref, t, &n);
                {
                    size_t nw;
                    const qk_judgment *jw = qk_qrels_judgments(w, t, &nw);
                    assert_int_equal(nw, n);
                    for (size_t i = 0; i < n; i++) {
                        assert_string_equal(qk_qrels_docno(w, jw[i].doc), qk_qrels_docno(ref, j[i].doc));
                        assert_true(jw[i].rel == j[i].rel);
                        assert_int_equal(qk_qrels_judgment_line(w, t, i), qk_qrels_judgment_line(ref, t, i));
                    }
                }
            }
        }
        ok += ref_st == QK_OK && fmt == QK_REL_QRELS;
        qk_qrels_free(w);
        qk_qrels_free(ref);
    }
    return ok > 0;
}

#endif
