/* The Zstandard level of the index's stored text (text_level in
 * qk_index_build_opts, `qrelkit index --text-level`): every level from the
 * fastest to the smallest gives back every text byte for byte, on one
 * thread and on the worker thread; lower levels make a larger text
 * section and higher ones a smaller one, so the level reaches the
 * compressor; everything but the text sections is the same at every
 * level; a level outside the range is refused before anything is
 * written, and ignored when no text is stored. */
/* cmocka.h needs these first; keep clang-format from sorting them. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/search.h"
#include "search/index_format.h"
#include "tmpfile_util.h"

enum { NDOCS = 600, NWORDS = 300 };

static char *docs[NDOCS];
static size_t lens[NDOCS];

/* Documents of words from a small vocabulary: text that compresses, and
 * compresses better the harder zstd tries. */
static int setup(void **state)
{
    (void)state;
    static char vocab[NWORDS][12];
    qk_rng r;
    qk_rng_seed(&r, 29);
    for (int w = 0; w < NWORDS; w++) {
        size_t n = 3 + qk_rng_below(&r, 8);
        for (size_t i = 0; i < n; i++)
            vocab[w][i] = (char)('a' + qk_rng_below(&r, 26));
        vocab[w][n] = '\0';
    }
    for (int d = 0; d < NDOCS; d++) {
        size_t words = d % 97 == 0 ? 0 : 20 + qk_rng_below(&r, 400), cap = words * 12 + 1, n = 0;
        docs[d] = malloc(cap);
        for (size_t i = 0; i < words; i++)
            n += (size_t)sprintf(docs[d] + n, "%s%s", i ? " " : "", vocab[qk_rng_below(&r, NWORDS)]);
        docs[d][n] = '\0';
        lens[d] = n;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int d = 0; d < NDOCS; d++)
        free(docs[d]);
    return 0;
}

static char *build(int level, int threads)
{
    char *out = qk_test_tmp_path();
    qk_index_build_opts bo;
    qk_index_builder *b;
    qk_error err;
    char docno[16];
    qk_index_build_opts_init(&bo);
    assert_int_equal(bo.text_level, 1); /* the default */
    bo.text_level = level;
    bo.threads = threads;
    if (qk_index_builder_new(out, &bo, &b, &err) != QK_OK)
        fail_msg("%s", err.message);
    for (int d = 0; d < NDOCS; d++) {
        int n = sprintf(docno, "d%04d", d);
        if (qk_index_builder_add(b, docno, (size_t)n, docs[d], lens[d], &err) != QK_OK)
            fail_msg("%s", err.message);
    }
    if (qk_index_builder_finish(b, NULL, &err) != QK_OK)
        fail_msg("%s", err.message);
    qk_index_builder_free(b);
    return out;
}

/* Every text back; the text section's size. */
static uint64_t expect_texts(const char *path)
{
    qk_index *ix;
    qk_index_info in;
    qk_error err;
    char *t;
    size_t n;
    assert_int_equal(qk_index_open(path, &ix, &err), QK_OK);
    qk_index_get_info(ix, &in);
    assert_true(in.has_text);
    for (int d = NDOCS - 1; d >= 0; d -= 3) { /* backwards, then forwards: blocks in both orders */
        assert_int_equal(qk_index_doc_text(ix, (uint32_t)d, &t, &n, &err), QK_OK);
        assert_int_equal(n, lens[d]);
        assert_memory_equal(t, docs[d], n);
        free(t);
    }
    for (int d = 0; d < NDOCS; d++) {
        assert_int_equal(qk_index_doc_text(ix, (uint32_t)d, &t, &n, &err), QK_OK);
        assert_int_equal(n, lens[d]);
        assert_memory_equal(t, docs[d], n);
        free(t);
    }
    qk_index_close(ix);
    return in.text_bytes;
}

static void expect_same_postings(const char *a, const char *b)
{
    size_t na, nb;
    char *x = qk_test_read_file(a, &na), *y = qk_test_read_file(b, &nb);
    qk_idx_header ha, hb;
    memcpy(&ha, x, sizeof ha);
    memcpy(&hb, y, sizeof hb);
    for (int s = 0; s < SEC_V1_COUNT; s++) {
        uint64_t la = *qk_idx_sec_len(&ha, s), lb = *qk_idx_sec_len(&hb, s);
        assert_int_equal(la, lb);
        assert_memory_equal(x + *qk_idx_sec_off(&ha, s), y + *qk_idx_sec_off(&hb, s), la);
    }
    free(x);
    free(y);
}

static void test_levels(void **state)
{
    (void)state;
    static const int levels[] = {QK_INDEX_TEXT_LEVEL_MIN, -5, 1, 9, QK_INDEX_TEXT_LEVEL_MAX};
    enum { NL = sizeof levels / sizeof *levels };
    char *path[NL];
    uint64_t bytes[NL];
    for (int i = 0; i < NL; i++) {
        path[i] = build(levels[i], 1);
        bytes[i] = expect_texts(path[i]);
        if (i)
            expect_same_postings(path[0], path[i]);
    }
    /* the fastest level stores the text nearly as it is; each level up
     * stores it smaller */
    uint64_t raw = 0;
    for (int d = 0; d < NDOCS; d++)
        raw += lens[d];
    assert_true(bytes[0] > raw * 9 / 10);
    for (int i = 1; i < NL; i++)
        assert_true(bytes[i] < bytes[i - 1]);
    /* the worker thread compresses at the level asked for too: the same file */
    char *threaded = build(9, 2);
    size_t n1, n2;
    char *x = qk_test_read_file(path[3], &n1), *y = qk_test_read_file(threaded, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(x, y, n1);
    free(x);
    free(y);
    qk_test_drop(threaded);
    for (int i = 0; i < NL; i++)
        qk_test_drop(path[i]);
}

static void test_out_of_range(void **state)
{
    (void)state;
    static const int bad[] = {QK_INDEX_TEXT_LEVEL_MIN - 1, QK_INDEX_TEXT_LEVEL_MAX + 1, -1000000};
    char *out = qk_test_tmp_path();
    qk_index_build_opts bo;
    qk_index_builder *b;
    qk_error err;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        qk_index_build_opts_init(&bo);
        bo.text_level = bad[i];
        b = (qk_index_builder *)&bo; /* must be cleared */
        assert_int_equal(qk_index_builder_new(out, &bo, &b, &err), QK_EUSAGE);
        assert_null(b);
        char want[64];
        snprintf(want, sizeof want, "the text level %d is outside -100..19", bad[i]);
        assert_string_equal(err.message, want);
        size_t n;
        char *left = qk_test_read_file(out, &n);
        assert_int_equal(n, 0); /* nothing written: the empty file is as it was */
        free(left);
    }
    /* without stored text the level plays no part */
    qk_index_build_opts_init(&bo);
    bo.store_text = 0;
    bo.text_level = QK_INDEX_TEXT_LEVEL_MAX + 1;
    assert_int_equal(qk_index_builder_new(out, &bo, &b, &err), QK_OK);
    assert_int_equal(qk_index_builder_add(b, "x", 1, "some text", 9, &err), QK_OK);
    assert_int_equal(qk_index_builder_finish(b, NULL, &err), QK_OK);
    qk_index_builder_free(b);
    qk_test_drop(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_out_of_range),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
