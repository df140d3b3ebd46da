/* qk_qrels_topic_docnos (src/io/qrels_view.h): every topic's judgments get
 * the docno qk_qrels_docno gives and its strlen, whether the lengths come
 * from the docno offsets (a file read in order, nothing moved) or from the
 * strings (a file organised by sorting, qrels_jg with a docno in several
 * groups), for whole and windowed reads, offsets of 4 and of 8 bytes, gzip
 * too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/qrels_internal.h"
#include "io/qrels_view.h"
#include "qrelkit/io.h"
#include "tmpfile_util.h"

/* Every topic of q (t0 <= t < t1 windowed) against qk_qrels_docno and strlen. */
static void check_topics(const qk_qrels *q, size_t t0, size_t t1)
{
    for (size_t t = t0; t < t1; t++) {
        size_t n;
        const qk_judgment *j = qk_qrels_judgments(q, t, &n);
        const char **docs = malloc((n ? n : 1) * sizeof *docs);
        uint32_t *lens = malloc((n ? n : 1) * sizeof *lens);
        assert_non_null(docs);
        assert_non_null(lens);
        qk_qrels_topic_docnos(q, t, docs, lens);
        for (size_t i = 0; i < n; i++) {
            const char *want = qk_qrels_docno(q, j[i].doc);
            assert_ptr_equal(docs[i], want);
            assert_int_equal(lens[i], strlen(want));
        }
        free(docs);
        free(lens);
    }
}

/* Read path as fmt whole and windowed (one topic a window), check both;
 * returns the whole read's packed flag. */
static int check_file(const char *path, qk_rel_format fmt)
{
    qk_qrels *q = NULL, *w = NULL;
    qk_error err;
    int packed;
    assert_int_equal(qk_qrels_read(path, fmt, QK_DEDUP_FIRST, &q, &err), QK_OK);
    check_topics(q, 0, qk_qrels_num_topics(q));
    packed = q->packed;
    qk_qrels_free(q);
    /* docno offsets of 8 bytes from the 41st arena byte on */
    assert_int_equal(qk_qrels_read_offs(path, fmt, QK_DEDUP_FIRST, QK_QRELS_BEST, 40, &q, &err), QK_OK);
    check_topics(q, 0, qk_qrels_num_topics(q));
    assert_int_equal(q->packed, packed);
    assert_true(q->doc_off64 != NULL || q->arena_len <= 40);
    assert_int_equal(qk_qrels_read_windowed(path, fmt, QK_DEDUP_FIRST, 1, &w, &err), QK_OK);
    for (size_t t = 0; t < qk_qrels_num_topics(w); t++) {
        assert_int_equal(qk_qrels_window(w, t, &err), QK_OK);
        check_topics(w, t, t + 1);
    }
    qk_qrels_free(w);
    qk_qrels_free(q);
    return packed;
}

/* Topics and docnos in strcmp order, docnos of 1 to 40 bytes (UTF-8 ones
 * too), the last docno of the file shortest: lengths from the offsets. */
static void test_in_order(void **state)
{
    char *buf = malloc(1 << 20), *p;
    size_t n = 0;
    (void)state;
    assert_non_null(buf);
    for (unsigned t = 0; t < 40; t++)
        for (unsigned d = 0; d < 50; d++) {
            unsigned len = 1 + (t * 7 + d * 3) % 40;
            n += (size_t)sprintf(buf + n, "T%03u 0 D%04u%.*s %u\n", t, d, (int)len,
                                 "\xc3\xa9xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", d % 3);
        }
    n += (size_t)sprintf(buf + n, "T999 0 a 1\n");
    p = qk_test_write_tmp(buf, n);
    assert_true(check_file(p, QK_REL_QRELS)); /* the offsets' path */
    {
        char *z = malloc(strlen(p) + 4);
        gzFile f;
        assert_non_null(z);
        sprintf(z, "%s.gz", p);
        assert_non_null(f = gzopen(z, "wb1"));
        assert_int_equal(gzwrite(f, buf, (unsigned)n), (int)n);
        assert_int_equal(gzclose(f), Z_OK);
        assert_true(check_file(z, QK_REL_QRELS));
        remove(z);
        free(z);
    }
    remove(p);
    free(p);
    free(buf);
}

/* Topics or docnos out of order, and repeated docnos: organised by
 * sorting, lengths from the strings. */
static void test_sorted(void **state)
{
    static const char *const files[] = {
        "T2 0 b 1\nT1 0 ccc 1\nT1 0 a 0\nT2 0 aaaa 2\n",
        "T1 0 zz 1\nT1 0 a 1\nT1 0 mmmmmm 0\n",
        "T1 0 a 1\nT1 0 a 2\nT1 0 bb 1\n",
    };
    (void)state;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *p = qk_test_write_text(files[i]);
        assert_false(check_file(p, QK_REL_QRELS));
        remove(p);
        free(p);
    }
}

/* qrels_jg: a docno judged in several groups shares one docno id. */
static void test_groups(void **state)
{
    char *p = qk_test_write_text("T1 g1 d1 1\nT1 g2 d1 0\nT1 g1 dd2 1\nT2 g1 d333 1\nT2 g2 d4 1\n");
    (void)state;
    check_file(p, QK_REL_QRELS_JG);
    remove(p);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order),
        cmocka_unit_test(test_sorted),
        cmocka_unit_test(test_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
