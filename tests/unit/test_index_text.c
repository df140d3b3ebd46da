/* The index's document text (format version 3, src/search/index_text.c):
 * every document's text comes back byte for byte (empty, non-ASCII UTF-8,
 * longer than every buffer of the writer and the reader), by id and by
 * docno, from in-memory and spilled builds alike, whether it shares a
 * compressed block with others or fills blocks alone; the other sections
 * are the same with and without text (and the same as a version 1 file
 * written by an earlier qrelkit), so search results do not change; version
 * 1 files still open and say they have no text, version 2 files (zlib, one
 * entry per document) give the same texts; a corrupt block or block table
 * is an error, never a crash; compressing the text on a worker thread
 * writes the same file. */
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
#include <unistd.h>
#include <zlib.h>

#include "qrelkit/search.h"
#include "search/build_internal.h"
#include "search/index_format.h"
#include "tmpfile_util.h"

enum { NDOCS = 7, LONG_DOC = 3 };

/* The documents, given to the builder directly: what comes back must be
 * exactly these bytes. */
static char *docs[NDOCS];
static size_t lens[NDOCS];
static const char *docnos[NDOCS] = {"z1", "a2", "empty", "long", "utf8", "m6", "nul"};

static int setup(void **state)
{
    (void)state;
    qk_rng r;
    docs[0] = strdup("apple banana apple");
    docs[1] = strdup("<b>banana</b> &amp; cherry\nsecond line\twith a tab");
    docs[2] = strdup("");
    /* 3 MB of random words: its deflated entry is over 1 MB (the writer's
     * copy chunk) and the raw text over 64 KB (its compression chunk) */
    lens[LONG_DOC] = 3u << 20;
    docs[LONG_DOC] = malloc(lens[LONG_DOC] + 1);
    qk_rng_seed(&r, 11);
    for (size_t i = 0; i < lens[LONG_DOC]; i++)
        docs[LONG_DOC][i] = "abcdefghijklmnopqrstuvwxyz "[i % 7 == 6 ? 26 : qk_rng_below(&r, 26)];
    docs[LONG_DOC][lens[LONG_DOC]] = '\0';
    docs[4] =
        strdup("Caf\xc3\xa9 na\xc3\xafve \xce\xb2-blockers \xe2\x80\x94 \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e "
               "\xf0\x9f\x98\x80 end");
    docs[5] = strdup("cherry cherry date");
    docs[6] = malloc(5);
    memcpy(docs[6], "a\0b\0c", 5); /* NUL bytes inside are kept too */
    for (int i = 0; i < NDOCS; i++)
        if (i != LONG_DOC && i != 6)
            lens[i] = strlen(docs[i]);
    lens[6] = 5;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < NDOCS; i++)
        free(docs[i]);
    return 0;
}

/* without_long: leave the 3 MB document out (ids after it shift by one) */
static char *build(size_t memory_mb, int store_text, int without_long, qk_index_build_stats *st)
{
    char *out = qk_test_tmp_path();
    qk_index_build_opts bo;
    qk_index_builder *b;
    qk_error err;
    qk_index_build_opts_init(&bo);
    assert_int_equal(bo.store_text, 1); /* the default */
    bo.memory_mb = memory_mb;
    bo.store_text = store_text;
    assert_int_equal(qk_index_builder_new(out, &bo, &b, &err), QK_OK);
    for (int i = 0; i < NDOCS; i++)
        if ((i != LONG_DOC || !without_long) &&
            qk_index_builder_add(b, docnos[i], strlen(docnos[i]), docs[i], lens[i], &err) != QK_OK)
            fail_msg("%s", err.message);
    if (qk_index_builder_finish(b, st, &err) != QK_OK)
        fail_msg("%s", err.message);
    qk_index_builder_free(b);
    return out;
}

static void expect_texts(const char *path)
{
    qk_index *ix;
    qk_index_info in;
    qk_error err;
    char *t;
    size_t n;
    uint32_t doc;
    assert_int_equal(qk_index_open(path, &ix, &err), QK_OK);
    qk_index_get_info(ix, &in);
    assert_int_equal(in.version, 3);
    assert_true(in.has_text);
    assert_true(qk_index_has_text(ix));
    for (int i = 0; i < NDOCS; i++) {
        assert_int_equal(qk_index_doc_text(ix, (uint32_t)i, &t, &n, &err), QK_OK);
        assert_int_equal(n, lens[i]);
        assert_memory_equal(t, docs[i], n);
        assert_int_equal(t[n], '\0');
        free(t);
        assert_true(qk_index_find_doc(ix, docnos[i], &doc));
        assert_int_equal(doc, i);
        assert_int_equal(qk_index_docno_text(ix, docnos[i], &t, &n, &err), 1);
        assert_int_equal(n, lens[i]);
        assert_memory_equal(t, docs[i], n);
        free(t);
    }
    assert_false(qk_index_find_doc(ix, "zz", &doc));
    assert_false(qk_index_find_doc(ix, "", &doc));
    assert_false(qk_index_find_doc(ix, "a", &doc));
    assert_int_equal(qk_index_docno_text(ix, "nope", &t, &n, &err), 0);
    assert_null(t);
    /* the 3 MB text compresses to over 1 MB, the blocks of the others are small */
    assert_true(in.text_bytes > (1u << 20) && in.text_bytes < lens[LONG_DOC]);
    qk_index_close(ix);
}

static void test_round_trip(void **state)
{
    (void)state;
    qk_index_build_stats a, b;
    char *p1 = build(256, 1, 0, &a), *p2 = build(1, 1, 0, &b);
    size_t n1, n2;
    char *x = qk_test_read_file(p1, &n1), *y = qk_test_read_file(p2, &n2);
    expect_texts(p1);
    expect_texts(p2);
    /* a spilling build writes the same file */
    assert_true(b.spilled_runs >= 1);
    assert_int_equal(n1, n2);
    assert_memory_equal(x, y, n1);
    free(x);
    free(y);
    qk_test_drop(p1);
    qk_test_drop(p2);
}

/* Sections DOCLEN .. TERMS of a file (the header's offsets). */
static void section(const char *file, int sec, const char **p, uint64_t *len)
{
    qk_idx_header h;
    memcpy(&h, file, sizeof h);
    *p = file + *qk_idx_sec_off(&h, sec);
    *len = *qk_idx_sec_len(&h, sec);
}

static void expect_same_sections(const char *a, const char *b)
{
    for (int s = 0; s < SEC_V1_COUNT; s++) {
        const char *pa, *pb;
        uint64_t la, lb;
        section(a, s, &pa, &la);
        section(b, s, &pb, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(pa, pb, la);
    }
}

static char *run_search(const char *path, const char *topics_path, int model)
{
    qk_index *ix;
    qk_topics *tp;
    qk_search_opts o;
    qk_error err;
    char *out;
    size_t n;
    FILE *f = open_memstream(&out, &n);
    assert_int_equal(qk_index_open(path, &ix, &err), QK_OK);
    assert_int_equal(qk_topics_read(topics_path, NULL, &tp, &err), QK_OK);
    qk_search_opts_init(&o);
    o.model = (qk_model)model;
    o.rm3 = model == QK_MODEL_BM25;
    assert_int_equal(qk_search_run(ix, tp, &o, "t", 1, f, &err), QK_OK);
    fclose(f);
    qk_topics_free(tp);
    qk_index_close(ix);
    return out;
}

static void test_without_text(void **state)
{
    (void)state;
    char *p1 = build(256, 1, 0, NULL), *p0 = build(256, 0, 0, NULL);
    char *tp = qk_test_write_text("1\tapple cherry\n2\tbanana date\n3\tna\xc3\xafve blockers\n");
    size_t n1, n0;
    char *x = qk_test_read_file(p1, &n1), *y = qk_test_read_file(p0, &n0);
    qk_index *ix;
    qk_index_info in;
    qk_error err;
    char *t;
    size_t n;
    uint32_t doc;
    expect_same_sections(x, y);
    /* DOCSORT is the same too; the text sections are all the difference */
    const char *s1, *s0;
    uint64_t l1, l0;
    section(x, SEC_DOCSORT, &s1, &l1);
    section(y, SEC_DOCSORT, &s0, &l0);
    assert_int_equal(l1, NDOCS * 4);
    assert_memory_equal(s1, s0, l1);
    /* docnos in byte order: a2 empty long m6 nul utf8 z1 */
    static const uint32_t sorted[NDOCS] = {1, 2, 3, 5, 6, 4, 0};
    assert_memory_equal(s1, sorted, sizeof sorted);
    for (int m = 0; m < 3; m++) {
        char *r1 = run_search(p1, tp, m), *r0 = run_search(p0, tp, m);
        assert_true(strlen(r1) > 0);
        assert_string_equal(r1, r0);
        free(r1);
        free(r0);
    }
    assert_int_equal(qk_index_open(p0, &ix, &err), QK_OK);
    qk_index_get_info(ix, &in);
    assert_int_equal(in.version, 2); /* without text, the layout of version 2 */
    assert_false(in.has_text);
    assert_int_equal(in.text_bytes, 0);
    assert_true(qk_index_find_doc(ix, "utf8", &doc));
    assert_int_equal(doc, 4);
    assert_int_equal(qk_index_doc_text(ix, 4, &t, &n, &err), QK_EINPUT);
    assert_null(t);
    assert_non_null(strstr(err.message, "stores no document text"));
    assert_non_null(strstr(err.message, p0));
    assert_int_equal(qk_index_docno_text(ix, "utf8", &t, &n, &err), QK_EINPUT);
    qk_index_close(ix);
    free(x);
    free(y);
    qk_test_drop(p1);
    qk_test_drop(p0);
    qk_test_drop(tp);
}

/* Index the corpus file at corpus into out with the default settings. */
static void index_corpus(const char *out, const char *corpus)
{
    qk_index_build_opts bo;
    qk_index_builder *b;
    qk_corpus_opts co;
    qk_corpus *c;
    qk_error err;
    const char *dn, *tx;
    size_t dl, tl;
    int r;
    qk_index_build_opts_init(&bo);
    qk_corpus_opts_init(&co);
    assert_int_equal(qk_index_builder_new(out, &bo, &b, &err), QK_OK);
    assert_int_equal(qk_corpus_open(corpus, &co, &c, &err), QK_OK);
    while ((r = qk_corpus_next(c, &dn, &dl, &tx, &tl, &err)) == 1)
        assert_int_equal(qk_index_builder_add(b, dn, dl, tx, tl, &err), QK_OK);
    assert_int_equal(r, 0);
    qk_corpus_close(c);
    assert_int_equal(qk_index_builder_finish(b, NULL, &err), QK_OK);
    qk_index_builder_free(b);
}

/* tests/cli/index/v1.idx: tests/cli/campaign/corpus.jsonl indexed by the
 * qrelkit before format version 2 (commit 516646d). */
static char *fixture(const char *rel)
{
    const char *src = getenv("QK_SOURCE");
    char *p = malloc(4096);
    assert_non_null(src);
    snprintf(p, 4096, "%s/%s", src, rel);
    return p;
}

static void test_version_1(void **state)
{
    (void)state;
    char *v1 = fixture("tests/cli/index/v1.idx"), *corpus = fixture("tests/cli/campaign/corpus.jsonl");
    char *topics = qk_test_write_text("1\tsolar panels\n2\twind farms birds\n");
    char *v2 = qk_test_tmp_path();
    qk_index *ix;
    qk_index_info in;
    qk_error err;
    size_t n1, n2;
    uint32_t doc;
    char *t;
    /* the same corpus, default settings, through this qrelkit */
    index_corpus(v2, corpus);

    assert_int_equal(qk_index_open(v1, &ix, &err), QK_OK);
    qk_index_get_info(ix, &in);
    assert_int_equal(in.version, 1);
    assert_false(in.has_text);
    assert_false(qk_index_has_text(ix));
    assert_true(qk_index_find_doc(ix, "q", &doc)); /* a scan in version 1 */
    assert_string_equal(qk_index_docno(ix, doc), "q");
    assert_false(qk_index_find_doc(ix, "zz", &doc));
    assert_int_equal(qk_index_doc_text(ix, 0, &t, &n1, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "no document text"));
    assert_non_null(strstr(err.message, "rebuild it with 'qrelkit index'"));
    qk_index_close(ix);

    /* every section the old writer wrote is byte for byte the new one's */
    char *x = qk_test_read_file(v1, &n1), *y = qk_test_read_file(v2, &n2);
    expect_same_sections(x, y);
    for (int m = 0; m < 3; m++) {
        char *r1 = run_search(v1, topics, m), *r2 = run_search(v2, topics, m);
        assert_true(strlen(r1) > 0);
        assert_string_equal(r1, r2);
        free(r1);
        free(r2);
    }
    free(x);
    free(y);
    free(v1);
    free(corpus);
    qk_test_drop(v2);
    qk_test_drop(topics);
}

/* tests/cli/index/v2.idx: tests/cli/campaign/corpus.jsonl indexed with
 * the default settings by the qrelkit of index format version 2 (commit
 * ced7016: one raw deflate stream per document). Its texts are the
 * corpus's, as the corpus reader gives them, and the same as version 3's. */
static void test_version_2(void **state)
{
    (void)state;
    char *v2 = fixture("tests/cli/index/v2.idx"), *corpus = fixture("tests/cli/campaign/corpus.jsonl");
    char *topics = qk_test_write_text("1\tsolar panels\n2\twind farms birds\n");
    char *v3 = qk_test_tmp_path();
    qk_corpus_opts co;
    qk_corpus *c;
    qk_index *i2, *i3;
    qk_index_info in;
    qk_error err;
    const char *dn, *tx;
    size_t dl, tl, n2, n3, ndocs = 0;
    char *t2, *t3;
    int r;
    index_corpus(v3, corpus);

    assert_int_equal(qk_index_open(v2, &i2, &err), QK_OK);
    assert_int_equal(qk_index_open(v3, &i3, &err), QK_OK);
    qk_index_get_info(i2, &in);
    assert_int_equal(in.version, 2);
    assert_true(in.has_text);
    qk_index_get_info(i3, &in);
    assert_int_equal(in.version, 3);
    qk_corpus_opts_init(&co);
    assert_int_equal(qk_corpus_open(corpus, &co, &c, &err), QK_OK);
    while ((r = qk_corpus_next(c, &dn, &dl, &tx, &tl, &err)) == 1) {
        char *key = strndup(dn, dl);
        assert_int_equal(qk_index_docno_text(i2, key, &t2, &n2, &err), 1);
        assert_int_equal(qk_index_docno_text(i3, key, &t3, &n3, &err), 1);
        assert_int_equal(n2, tl);
        assert_memory_equal(t2, tx, tl);
        assert_int_equal(n3, tl);
        assert_memory_equal(t3, tx, tl);
        free(t2);
        free(t3);
        free(key);
        ndocs++;
    }
    assert_int_equal(r, 0);
    assert_int_equal(ndocs, 9);
    qk_corpus_close(c);
    qk_index_close(i2);
    qk_index_close(i3);

    /* the sections before the text are the same bytes, so is every ranking */
    size_t l2, l3;
    char *x = qk_test_read_file(v2, &l2), *y = qk_test_read_file(v3, &l3);
    expect_same_sections(x, y);
    for (int m = 0; m < 3; m++) {
        char *r2 = run_search(v2, topics, m), *r3 = run_search(v3, topics, m);
        assert_true(strlen(r2) > 0);
        assert_string_equal(r2, r3);
        free(r2);
        free(r3);
    }
    free(x);
    free(y);
    free(v2);
    free(corpus);
    qk_test_drop(v3);
    qk_test_drop(topics);
}

/* Index texts mt[0..n) (lengths ml, docnos d0, d1 ...) into path under a
 * memory budget of memory_mb, with the builder's threads option; text_block
 * 0 keeps the builder's own text store, another value puts one with blocks
 * of that many bytes in its place (the layout of earlier versions). */
static void build_texts(const char *path, size_t memory_mb, int threads, size_t text_block, char *const *mt,
                        const size_t *ml, int n)
{
    qk_index_build_opts bo;
    qk_index_builder *b;
    qk_error err;
    char dn[16];
    qk_index_build_opts_init(&bo);
    bo.memory_mb = memory_mb;
    bo.threads = threads;
    assert_int_equal(qk_index_builder_new(path, &bo, &b, &err), QK_OK);
    if (text_block) {
        qk_build_text_free(b->text);
        assert_int_equal(qk_build_text_new(b->run_dir, text_block, 0, 1, &b->text, &err), QK_OK);
    }
    for (int i = 0; i < n; i++) {
        snprintf(dn, sizeof dn, "d%d", i);
        assert_int_equal(qk_index_builder_add(b, dn, strlen(dn), mt[i], ml[i], &err), QK_OK);
    }
    assert_int_equal(qk_index_builder_finish(b, NULL, &err), QK_OK);
    qk_index_builder_free(b);
}

/* The block table's blocks (pairs: first document, frame start), n of them. */
static const char *block_table(const char *file, uint64_t *n)
{
    qk_idx_header h;
    memcpy(&h, file, sizeof h);
    *n = *qk_idx_sec_len(&h, SEC_TEXT_BLK) / 16 - 1;
    return file + *qk_idx_sec_off(&h, SEC_TEXT_BLK);
}

/* Many documents around the block size: blocks close at the first
 * document end at or past QK_IDX_TEXT_BLOCK bytes, a document that would
 * take the pending block past twice that closes it first and, when a
 * block's worth alone, is a block by itself; empty documents anywhere.
 * Every text comes back, and a spilling build and builds that compress the
 * text on a worker thread (whose queue the long documents wait out) write
 * the same file as one thread. */
enum { MANY = 400 };
static void test_blocks(void **state)
{
    (void)state;
    static char *mt[MANY];
    static size_t ml[MANY];
    char *paths[3];
    qk_rng r;
    qk_rng_seed(&r, 5);
    for (int i = 0; i < MANY; i++) {
        size_t len = i % 13 == 0   ? 0
                     : i % 97 == 1 ? QK_IDX_TEXT_BLOCK                  /* exactly a block */
                     : i % 89 == 2 ? 2 * QK_IDX_TEXT_BLOCK + 1          /* over the pending bound */
                     : i % 50 == 3 ? QK_IDX_TEXT_BLOCK + 100            /* a block and a bit */
                                   : 1 + (size_t)qk_rng_below(&r, 3000); /* abstract-sized */
        ml[i] = len;
        mt[i] = malloc(len + 1);
        for (size_t k = 0; k < len; k++)
            mt[i][k] = "abcdefghij klmnop"[qk_rng_below(&r, 17)];
        mt[i][len] = '\0';
    }
    for (int pass = 0; pass < 3; pass++) {
        paths[pass] = qk_test_tmp_path();
        build_texts(paths[pass], pass == 1 ? 1 : 256, pass ? 2 : 1, 0, mt, ml, MANY);
    }
    size_t n0, n1, n2;
    char *x = qk_test_read_file(paths[0], &n0), *y = qk_test_read_file(paths[1], &n1),
         *z = qk_test_read_file(paths[2], &n2);
    assert_int_equal(n0, n1);
    assert_memory_equal(x, y, n0);
    assert_int_equal(n0, n2);
    assert_memory_equal(x, z, n0);
    /* the block table against the lengths: each block's text adds up to at
     * least a block's worth (but the last), at most twice (but a document
     * alone) */
    uint64_t nblk;
    const char *bt = block_table(x, &nblk);
    assert_true(nblk > 20);
    for (uint64_t k = 0; k < nblk; k++) {
        uint64_t f0, f1, sum = 0;
        memcpy(&f0, bt + 16 * k, 8);
        memcpy(&f1, bt + 16 * (k + 1), 8);
        assert_true(f0 < f1);
        for (uint64_t d = f0; d < f1; d++)
            sum += ml[d];
        if (k + 1 < nblk)
            assert_true(sum >= QK_IDX_TEXT_BLOCK || ml[f1] + sum > 2 * QK_IDX_TEXT_BLOCK);
        assert_true(sum <= 2 * QK_IDX_TEXT_BLOCK || (f1 - f0 == 1));
    }
    qk_index *ix;
    qk_error err;
    char *t;
    size_t tl;
    assert_int_equal(qk_index_open(paths[2], &ix, &err), QK_OK);
    /* backwards, forwards (the reader keeps the last block), and hopping
     * between blocks */
    for (int pass = 0; pass < 3; pass++)
        for (int k = 0; k < MANY; k++) {
            int i = pass == 0 ? MANY - 1 - k : pass == 1 ? k : (k * 173) % MANY;
            assert_int_equal(qk_index_doc_text(ix, (uint32_t)i, &t, &tl, &err), QK_OK);
            assert_int_equal(tl, ml[i]);
            assert_memory_equal(t, mt[i], tl);
            assert_int_equal(t[tl], '\0');
            free(t);
        }
    qk_index_close(ix);
    for (int i = 0; i < MANY; i++)
        free(mt[i]);
    free(x);
    free(y);
    free(z);
    for (int pass = 0; pass < 3; pass++)
        qk_test_drop(paths[pass]);
}

/* A builder freed before finish, its text worker busy with queued
 * blocks: the worker ends, nothing leaks (the sanitizer build) and no
 * spill is left in the temporary directory. */
static void test_text_worker_freed(void **state)
{
    (void)state;
    qk_index_build_opts bo;
    qk_index_builder *b;
    qk_error err;
    char dn[16], *text = malloc(QK_IDX_TEXT_BLOCK / 3 + 1), *path = qk_test_tmp_path(),
                 dir[] = "/tmp/qk-worker-XXXXXX";
    assert_non_null(text);
    assert_non_null(mkdtemp(dir));
    for (size_t k = 0; k < QK_IDX_TEXT_BLOCK / 3; k++)
        text[k] = "qrst uvwxyz"[k % 11];
    qk_index_build_opts_init(&bo);
    bo.threads = 2;
    bo.tmp_dir = dir;
    assert_int_equal(qk_index_builder_new(path, &bo, &b, &err), QK_OK);
    for (int i = 0; i < 200; i++) {
        snprintf(dn, sizeof dn, "d%d", i);
        assert_int_equal(qk_index_builder_add(b, dn, strlen(dn), text, QK_IDX_TEXT_BLOCK / 3, &err), QK_OK);
    }
    qk_index_builder_free(b);
    assert_int_equal(rmdir(dir), 0); /* the text's spill is gone */
    free(text);
    qk_test_drop(path);
}

/* Blocks of 64 KiB, and files written with the 16 KiB blocks of earlier
 * versions (the same builder, its text store swapped for one with the old
 * block) read the same texts: the reader takes block sizes from the block
 * table. The sections before the text are the same either way. */
static void test_block_sizes(void **state)
{
    (void)state;
    enum { N = 300 };
    static char *mt[N];
    static size_t ml[N];
    char *paths[2];
    qk_rng r;
    qk_rng_seed(&r, 9);
    for (int i = 0; i < N; i++) {
        ml[i] = 200 + (size_t)qk_rng_below(&r, 2600);
        mt[i] = malloc(ml[i] + 1);
        for (size_t k = 0; k < ml[i]; k++)
            mt[i][k] = "abcdefghij klmnop"[qk_rng_below(&r, 17)];
        mt[i][ml[i]] = '\0';
    }
    for (int pass = 0; pass < 2; pass++) {
        paths[pass] = qk_test_tmp_path();
        build_texts(paths[pass], 256, 0, pass ? 16u << 10 : 0, mt, ml, N);
    }
    size_t n0, n1;
    char *x = qk_test_read_file(paths[0], &n0), *y = qk_test_read_file(paths[1], &n1);
    qk_idx_header h;
    memcpy(&h, x, sizeof h);
    uint64_t text_at = *qk_idx_sec_off(&h, SEC_TEXT_OFF);
    assert_true(text_at > sizeof h && text_at < n0 && text_at < n1);
    assert_memory_equal(x + sizeof h, y + sizeof h, text_at - sizeof h);
    /* each block but the last holds at least its size of text */
    for (int pass = 0; pass < 2; pass++) {
        uint64_t nblk, want = pass ? 16u << 10 : 64u << 10;
        const char *bt = block_table(pass ? y : x, &nblk);
        assert_true(nblk >= 2);
        for (uint64_t k = 0; k + 1 < nblk; k++) {
            uint64_t f0, f1, sum = 0;
            memcpy(&f0, bt + 16 * k, 8);
            memcpy(&f1, bt + 16 * (k + 1), 8);
            for (uint64_t d = f0; d < f1; d++)
                sum += ml[d];
            assert_true(sum >= want && sum - ml[f1 - 1] < want);
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        qk_index *ix;
        qk_error err;
        char *t;
        size_t tl;
        assert_int_equal(qk_index_open(paths[pass], &ix, &err), QK_OK);
        for (int k = 0; k < 2 * N; k++) {
            int i = k < N ? (k * 131) % N : k - N;
            assert_int_equal(qk_index_doc_text(ix, (uint32_t)i, &t, &tl, &err), QK_OK);
            assert_int_equal(tl, ml[i]);
            assert_memory_equal(t, mt[i], tl);
            free(t);
        }
        qk_index_close(ix);
        qk_test_drop(paths[pass]);
    }
    for (int i = 0; i < N; i++)
        free(mt[i]);
    free(x);
    free(y);
}

/* Write buf with the file size and both checksums made right again, so the
 * reader gets past them to the structure checks. */
static void write_repaired(const char *path, char *buf, size_t n)
{
    qk_idx_header h;
    memcpy(&h, buf, sizeof h);
    h.file_size = n;
    h.body_crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)buf + sizeof h, (uInt)(n - sizeof h));
    h.header_crc = 0;
    h.header_crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)&h, sizeof h);
    memcpy(buf, &h, sizeof h);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
}

static void test_corrupt_entry(void **state)
{
    (void)state;
    char *p = build(256, 1, 0, NULL), *q = qk_test_tmp_path();
    size_t n;
    char *good = qk_test_read_file(p, &n), *bad = malloc(n);
    qk_idx_header h;
    qk_index *ix;
    qk_error err;
    char *t;
    size_t tl;
    memcpy(&h, good, sizeof h);
    uint64_t toff = *qk_idx_sec_off(&h, SEC_TEXT_OFF), text = *qk_idx_sec_off(&h, SEC_TEXT);
    uint64_t boff = *qk_idx_sec_off(&h, SEC_TEXT_BLK), blen = *qk_idx_sec_len(&h, SEC_TEXT_BLK);
    uint64_t blk[8], e0, e1;
    /* documents 0-2 in block 0, the 3 MB document 3 alone in block 1,
     * documents 4-6 in block 2 */
    assert_int_equal(blen, 4 * 16);
    memcpy(blk, good + boff, sizeof blk);
    assert_int_equal(blk[0], 0);
    assert_int_equal(blk[2], 3);
    assert_int_equal(blk[4], 4);
    assert_int_equal(blk[6], NDOCS);
    assert_int_equal(blk[7], *qk_idx_sec_len(&h, SEC_TEXT));
    e0 = blk[1];
    e1 = blk[3];
    /* every byte of block 0's frame changed in turn: open succeeds (the
     * frame is only read on request), a read is some text or an error */
    for (uint64_t i = e0; i < e1; i++) {
        /* three values a byte (the file is 2 MB: each is a rewrite and a checksum) */
        for (int v = 0; v < 3; v++) {
            memcpy(bad, good, n);
            bad[text + i] = v == 2 ? (char)~good[text + i] : (char)(v * 0x80);
            write_repaired(q, bad, n);
            assert_int_equal(qk_index_open(q, &ix, &err), QK_OK);
            for (uint32_t d = 0; d < 3; d++) {
                qk_status st = qk_index_doc_text(ix, d, &t, &tl, &err);
                if (st == QK_OK) {
                    assert_int_equal(tl, lens[d]);
                    free(t);
                } else {
                    assert_int_equal(st, QK_EINPUT);
                    assert_non_null(strstr(err.message, "corrupt"));
                    assert_null(t);
                }
            }
            /* a document of another block is untouched */
            assert_int_equal(qk_index_doc_text(ix, 4, &t, &tl, &err), QK_OK);
            assert_memory_equal(t, docs[4], lens[4]);
            free(t);
            qk_index_close(ix);
        }
    }
    /* a frame that is not one */
    memcpy(bad, good, n);
    bad[text + e0] = (char)0xff;
    write_repaired(q, bad, n);
    assert_int_equal(qk_index_open(q, &ix, &err), QK_OK);
    assert_int_equal(qk_index_doc_text(ix, 0, &t, &tl, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "'z1' is corrupt"));
    qk_index_close(ix);
    /* a block claiming more text than its frame holds: the frame's own size
     * disagrees, an error */
    uint64_t big;
    memcpy(bad, good, n);
    memcpy(&big, good + toff + 3 * 8, 8);
    big += 5;
    for (int d = 3; d <= NDOCS; d++) {
        uint64_t o;
        memcpy(&o, good + toff + (uint64_t)d * 8, 8);
        o += 5;
        memcpy(bad + toff + (uint64_t)d * 8, &o, 8);
    }
    write_repaired(q, bad, n);
    assert_int_equal(qk_index_open(q, &ix, &err), QK_OK);
    assert_int_equal(qk_index_doc_text(ix, 2, &t, &tl, &err), QK_EINPUT);
    assert_int_equal(qk_index_doc_text(ix, 4, &t, &tl, &err), QK_OK);
    free(t);
    qk_index_close(ix);
    /* offsets out of order; the block table out of order, not starting at
     * document 0, not ending at the end of TEXT */
    memcpy(bad, good, n);
    memcpy(&e0, good + toff + 8, 8);
    memcpy(&e1, good + toff + 16, 8);
    memcpy(bad + toff + 8, &e1, 8);
    memcpy(bad + toff + 16, &e0, 8);
    write_repaired(q, bad, n);
    assert_int_equal(qk_index_open(q, &ix, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "out of order"));
    static const struct {
        int at;
        uint64_t v;
    } blk_bad[] = {{2, 5}, {2, 0}, {0, 1}, {3, 0}, {7, 1}, {6, NDOCS + 1}};
    for (size_t k = 0; k < sizeof blk_bad / sizeof blk_bad[0]; k++) {
        memcpy(bad, good, n);
        memcpy(bad + boff + 8 * (uint64_t)blk_bad[k].at, &blk_bad[k].v, 8);
        write_repaired(q, bad, n);
        assert_int_equal(qk_index_open(q, &ix, &err), QK_EINPUT);
        assert_non_null(strstr(err.message, "text block table"));
    }
    /* DOCSORT not DOCORDER's inverse, unknown flags */
    memcpy(bad, good, n);
    bad[*qk_idx_sec_off(&h, SEC_DOCSORT)] ^= 1;
    write_repaired(q, bad, n);
    assert_int_equal(qk_index_open(q, &ix, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "docno table"));
    memcpy(bad, good, n);
    ((qk_idx_header *)(void *)bad)->flags = 2;
    write_repaired(q, bad, n);
    assert_int_equal(qk_index_open(q, &ix, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "flags"));
    /* a version 1 header over version 2 sections, a version 2 header over
     * version 3's */
    memcpy(bad, good, n);
    ((qk_idx_header *)(void *)bad)->version = 1;
    write_repaired(q, bad, n);
    assert_int_equal(qk_index_open(q, &ix, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "version 1 index with"));
    memcpy(bad, good, n);
    ((qk_idx_header *)(void *)bad)->version = 2;
    write_repaired(q, bad, n);
    assert_int_equal(qk_index_open(q, &ix, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "version 2 index with version 3 sections"));
    free(good);
    free(bad);
    qk_test_drop(p);
    qk_test_drop(q);
}

static void test_is_index(void **state)
{
    (void)state;
    char *p = build(256, 0, 1, NULL), *c = qk_test_write_text("{\"id\": \"a\", \"text\": \"x\"}\n");
    char *s = qk_test_write_text("QKIND");
    assert_true(qk_index_file_is_index(p));
    assert_false(qk_index_file_is_index(c));
    assert_false(qk_index_file_is_index(s));
    assert_false(qk_index_file_is_index("/nonexistent/x.idx"));
    qk_test_drop(p);
    qk_test_drop(c);
    qk_test_drop(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),    cmocka_unit_test(test_without_text),
        cmocka_unit_test(test_version_1),     cmocka_unit_test(test_version_2),
        cmocka_unit_test(test_blocks),        cmocka_unit_test(test_block_sizes),
        cmocka_unit_test(test_corrupt_entry), cmocka_unit_test(test_is_index),
        cmocka_unit_test(test_text_worker_freed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
