/* Index files (src/search/index_build.c, index_write.c, index_read.c),
 * corpus and topic readers, and whole runs: round trip of every table,
 * spilled builds identical to in-memory ones, clear errors (never a crash)
 * for corrupt or truncated files, docno tie-breaking, thread independence. */
/* cmocka.h needs these first; keep clang-format from sorting them. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>

#include "search_fixture.h"

static const char corpus[] = "<DOC><DOCNO>d1</DOCNO>apple banana apple</DOC>\n"
                             "<DOC>\n<DOCNO> d2 </DOCNO>\n<TEXT>banana cherry</TEXT>\n</DOC>\n"
                             "<DOC><DOCNO>d3</DOCNO>cherry cherry cherry date</DOC>\n";

static void test_round_trip(void **state)
{
    (void)state;
    qk_text_opts t = sx_plain();
    qk_index_build_stats st;
    qk_index *ix;
    qk_index_info in;
    qk_error err;
    char *p = sx_build(corpus, &t, 16, NULL, &st);
    uint32_t tid, doc, tf;
    qk_postings it;
    assert_int_equal(qk_index_open(p, &ix, &err), QK_OK);
    qk_index_get_info(ix, &in);
    assert_int_equal(in.docs, 3);
    assert_int_equal(in.terms, 4);
    assert_int_equal(in.postings, 6); /* d1: 2 distinct, d2: 2, d3: 2 */
    assert_int_equal(in.tokens, 9);
    assert_int_equal(st.spilled_runs, 0);
    assert_true(fabs(in.avg_doclen - 3.0) < 1e-12);
    assert_int_equal(in.text.stemmer, QK_STEM_NONE);
    assert_string_equal(qk_index_docno(ix, 1), "d2");
    assert_int_equal(qk_index_doclen(ix, 2), 4);
    /* Terms sorted: apple banana cherry date. */
    assert_string_equal(qk_index_term(ix, 0, NULL), "apple");
    assert_string_equal(qk_index_term(ix, 3, NULL), "date");
    assert_true(qk_index_find_term(ix, "cherry", 6, &tid));
    assert_int_equal(tid, 2);
    assert_false(qk_index_find_term(ix, "cherr", 5, &tid));
    assert_false(qk_index_find_term(ix, "zz", 2, &tid));
    assert_int_equal(qk_index_df(ix, 2), 2);
    assert_int_equal(qk_index_cf(ix, 2), 4);
    qk_index_postings(ix, 2, &it);
    assert_int_equal(qk_postings_next(&it, &doc, &tf), 1);
    assert_int_equal(doc, 1);
    assert_int_equal(tf, 1);
    assert_int_equal(qk_postings_next(&it, &doc, &tf), 1);
    assert_int_equal(doc, 2);
    assert_int_equal(tf, 3);
    assert_int_equal(qk_postings_next(&it, &doc, &tf), 0);
    size_t np;
    const uint32_t *fw = qk_index_doc_terms(ix, 2, &np);
    assert_int_equal(np, 2);
    assert_int_equal(fw[0], 2); /* cherry x3 */
    assert_int_equal(fw[1], 3);
    assert_int_equal(fw[2], 3); /* date x1 */
    assert_int_equal(fw[3], 1);
    qk_index_close(ix);
    qk_test_drop(p);
}

static void write_all(const char *path, const char *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
}

/* A corpus big enough to outgrow a 1 MB budget: 4000 documents over a
 * 30,000-word vocabulary. */
static char *big_corpus(void)
{
    size_t cap = 4000 * 200, n = 0;
    char *c = malloc(cap);
    qk_rng r;
    qk_rng_seed(&r, 5);
    for (int d = 0; d < 4000; d++) {
        n += (size_t)sprintf(c + n, "<DOC><DOCNO>doc%04d</DOCNO>", d);
        for (int w = 0; w < 12; w++)
            n += (size_t)sprintf(c + n, " w%llu", (unsigned long long)qk_rng_below(&r, 30000));
        n += (size_t)sprintf(c + n, "</DOC>\n");
    }
    return c;
}

/* 2,000 documents of 110 terms each: about 220,000 postings, so the forward
 * lists (8 bytes a posting, 1.7 MB) outgrow a 1 MB budget and are written
 * in three blocks, the later ones from the postings read back. Few long
 * documents rather than many short ones: once the documents' own table
 * outgrows a 1 MB budget, the builder spills after nearly every document
 * (20,000 documents of 12 terms made 6,112 runs and took ~20 CPU s even
 * without sanitizers); here it spills a few dozen times. */
static char *bigger_corpus(void)
{
    size_t cap = 2000 * 1000 + 64, n = 0;
    char *c = malloc(cap);
    qk_rng r;
    qk_rng_seed(&r, 9);
    for (int d = 0; d < 2000; d++) {
        n += (size_t)sprintf(c + n, "<DOC><DOCNO>d%05d</DOCNO>", d);
        for (int w = 0; w < 110; w++)
            n += (size_t)sprintf(c + n, " w%llu", (unsigned long long)qk_rng_below(&r, 50000));
        n += (size_t)sprintf(c + n, "</DOC>\n");
    }
    return c;
}

static void test_fwd_blocks_identical(void **state)
{
    (void)state;
    char *c = bigger_corpus();
    qk_index_build_stats a, b;
    char *p1 = sx_build(c, NULL, 256, NULL, &a), *p2 = sx_build(c, NULL, 1, NULL, &b);
    size_t n1, n2;
    char *x = qk_test_read_file(p1, &n1), *y = qk_test_read_file(p2, &n2);
    assert_true(a.postings * 8 > 1048576 + 524288); /* more than two blocks at --memory 1 */
    assert_true(b.spilled_runs >= 2);
    assert_int_equal(n1, n2);
    assert_memory_equal(x, y, n1);
    free(x);
    free(y);
    free(c);
    qk_test_drop(p1);
    qk_test_drop(p2);
}

static void test_spill_identical(void **state)
{
    (void)state;
    char *c = big_corpus();
    qk_index_build_stats a, b;
    char *p1 = sx_build(c, NULL, 256, NULL, &a), *p2 = sx_build(c, NULL, 1, NULL, &b);
    size_t n1, n2;
    char *x = qk_test_read_file(p1, &n1), *y = qk_test_read_file(p2, &n2);
    assert_int_equal(a.spilled_runs, 0);
    assert_true(b.spilled_runs >= 1);
    assert_int_equal(n1, n2);
    assert_memory_equal(x, y, n1);
    free(x);
    free(y);
    free(c);
    qk_test_drop(p1);
    qk_test_drop(p2);
}

static void expect_open_error(const char *path, const char *phrase)
{
    qk_index *ix = NULL;
    qk_error err;
    qk_error_clear(&err);
    assert_int_equal(qk_index_open(path, &ix, &err), QK_EINPUT);
    assert_null(ix);
    if (!strstr(err.message, phrase))
        fail_msg("message '%s' lacks '%s'", err.message, phrase);
}

static void test_corrupt(void **state)
{
    (void)state;
    qk_text_opts t = sx_plain();
    char *p = sx_build(corpus, &t, 16, NULL, NULL), *q = qk_test_tmp_path();
    size_t n;
    char *good = qk_test_read_file(p, &n), *bad = malloc(n);
    qk_index *ix;
    qk_error err;
    write_all(q, good, 0);
    expect_open_error(q, "empty file");
    write_all(q, good, 100);
    expect_open_error(q, "too short");
    write_all(q, good, n - 1);
    expect_open_error(q, "truncated");
    memcpy(bad, good, n);
    bad[n - 3] ^= 0x20;
    write_all(q, bad, n);
    expect_open_error(q, "checksum mismatch");
    memcpy(bad, good, n);
    bad[0] = 'X';
    write_all(q, bad, n);
    expect_open_error(q, "not a qrelkit index");
    memcpy(bad, good, n);
    bad[8] = 4; /* a version after this qrelkit's */
    write_all(q, bad, n);
    expect_open_error(q, "version 4");
    /* Every single flipped bit anywhere in the file is caught, with a message. */
    for (size_t i = 0; i < 8 * n; i++) {
        memcpy(bad, good, n);
        bad[i / 8] ^= (char)(1 << (i % 8));
        write_all(q, bad, n);
        qk_error_clear(&err);
        ix = NULL;
        if (qk_index_open(q, &ix, &err) == QK_OK || !err.message[0])
            fail_msg("flipped bit %zu of byte %zu not detected", i % 8, i / 8);
    }
    assert_int_equal(qk_index_open("/nonexistent/x.idx", &ix, &err), QK_EIO);
    free(good);
    free(bad);
    qk_test_drop(p);
    qk_test_drop(q);
}

static void test_jsonl_and_fields(void **state)
{
    (void)state;
    qk_text_opts t = sx_plain();
    const char *js =
        "{\"id\": \"p1\", \"title\": \"Heart attack\", \"content\": \"Heart attack risk\", \"n\": 3}\n"
        "\n{\"id\": 77, \"title\": \"Stroke\", \"content\": [\"stroke\", \"care\"]}\n";
    char *p = sx_build(js, &t, 16, "content", NULL);
    qk_index *ix;
    qk_index_info in;
    qk_error err;
    assert_int_equal(qk_index_open(p, &ix, &err), QK_OK);
    qk_index_get_info(ix, &in);
    assert_int_equal(in.docs, 2);
    assert_int_equal(in.tokens, 5); /* only content: 3 + 2 */
    assert_string_equal(qk_index_docno(ix, 1), "77");
    qk_index_close(ix);
    qk_test_drop(p);
    /* TREC with --fields: only the named tags. */
    p = sx_build("<DOC><DOCNO>x</DOCNO><HEAD>alpha</HEAD><TEXT>beta gamma</TEXT></DOC>", &t, 16, "TEXT",
                 NULL);
    assert_int_equal(qk_index_open(p, &ix, &err), QK_OK);
    qk_index_get_info(ix, &in);
    assert_int_equal(in.tokens, 2);
    qk_index_close(ix);
    qk_test_drop(p);
}

static void test_corpus_errors(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"<DOC><DOCNO>a</DOCNO>x</DOC>\n<DOC>\n<DOCNO>b</DOCNO>\ntext", "line 2: <DOC> without </DOC>"},
        {"<DOC>\nno number\n</DOC>\n", "line 1: document without <DOCNO>"},
        {"{\"id\": \"a\"}\n{\"title\": \"x\"}\n", "line 2: no document id"},
        {"{\"id\": \"a\"}\n{oops\n", "line 2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *in = qk_test_write_text(cases[i][0]);
        qk_corpus_opts co;
        qk_corpus *c;
        qk_error err;
        const char *d, *t;
        size_t dl, tl;
        int r;
        qk_corpus_opts_init(&co);
        assert_int_equal(qk_corpus_open(in, &co, &c, &err), QK_OK);
        while ((r = qk_corpus_next(c, &d, &dl, &t, &tl, &err)) == 1)
            ;
        assert_int_equal(r, QK_EINPUT);
        if (!strstr(err.message, cases[i][1]))
            fail_msg("case %zu: message '%s' lacks '%s'", i, err.message, cases[i][1]);
        qk_corpus_close(c);
        qk_test_drop(in);
    }
}

static void test_topics(void **state)
{
    (void)state;
    char *p = qk_test_write_text("<top>\n<num> Number: 401\n<title> foreign minorities,\nGermany\n"
                                 "<desc> Description:\nWhat language issues?\n</top>\n"
                                 "<top><num>7</num><title>\nSHORT ONE\n</title></top>\n");
    qk_topics *t;
    qk_error err;
    assert_int_equal(qk_topics_read(p, NULL, &t, &err), QK_OK);
    assert_int_equal(qk_topics_count(t), 2);
    assert_string_equal(qk_topics_qid(t, 0), "401");
    assert_string_equal(qk_topics_text(t, 0), "foreign minorities, Germany");
    assert_string_equal(qk_topics_qid(t, 1), "7");
    assert_string_equal(qk_topics_text(t, 1), "SHORT ONE");
    qk_topics_free(t);
    assert_int_equal(qk_topics_read(p, "title,desc", &t, &err), QK_OK);
    assert_string_equal(qk_topics_text(t, 0), "foreign minorities, Germany What language issues?");
    qk_topics_free(t);
    qk_test_drop(p);
    p = qk_test_write_text(
        "{\"id\": \"CD1\", \"title\": \"Capsule endoscopy\", \"query\": \"(capsule*)\"}\n\n"
        "{\"qid\": 7, \"text\": [\"a\", \"b\"]}\n");
    assert_int_equal(qk_topics_read(p, NULL, &t, &err), QK_OK);
    assert_int_equal(qk_topics_count(t), 2);
    assert_string_equal(qk_topics_qid(t, 0), "CD1");
    assert_string_equal(qk_topics_text(t, 0), "Capsule endoscopy");
    assert_string_equal(qk_topics_qid(t, 1), "7");
    assert_string_equal(qk_topics_text(t, 1), "a b");
    qk_topics_free(t);
    assert_int_equal(qk_topics_read(p, "title,query", &t, &err), QK_OK);
    assert_string_equal(qk_topics_text(t, 0), "Capsule endoscopy (capsule*)");
    qk_topics_free(t);
    qk_test_drop(p);
    p = qk_test_write_text("# comment\nq1\tred apples\n\nq2\tgreen\nq1\tagain\n");
    assert_int_equal(qk_topics_read(p, NULL, &t, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "line 5: topic 'q1' appears twice"));
    qk_test_drop(p);
}

/* Equal documents tie; the later docno ranks first (trec_eval's order). */
static void test_ties_and_threads(void **state)
{
    (void)state;
    qk_text_opts t = sx_plain();
    char *p = sx_build("<DOC><DOCNO>a1</DOCNO>kiwi lime</DOC><DOC><DOCNO>a3</DOCNO>kiwi lime</DOC>\n"
                       "<DOC><DOCNO>a2</DOCNO>kiwi lime</DOC><DOC><DOCNO>b</DOCNO>lime</DOC>\n",
                       &t, 16, NULL, NULL);
    char *tp = qk_test_write_text("1\tkiwi\n2\tlime kiwi\n3\tlime\n4\tnothing\n");
    qk_index *ix;
    qk_topics *topics;
    qk_search_opts o;
    qk_error err;
    char *out1, *out3;
    size_t n1, n3;
    assert_int_equal(qk_index_open(p, &ix, &err), QK_OK);
    assert_int_equal(qk_topics_read(tp, NULL, &topics, &err), QK_OK);
    qk_search_opts_init(&o);
    FILE *f = open_memstream(&out1, &n1);
    assert_int_equal(qk_search_run(ix, topics, &o, "t", 1, f, &err), QK_OK);
    fclose(f);
    assert_true(strncmp(out1, "1 Q0 a3 1 ", 10) == 0);
    assert_non_null(strstr(out1, "\n1 Q0 a2 2 "));
    assert_non_null(strstr(out1, "\n1 Q0 a1 3 "));
    f = open_memstream(&out3, &n3);
    o.model = QK_MODEL_QL_DIR;
    assert_int_equal(qk_search_run(ix, topics, &o, "t", 3, f, &err), QK_OK);
    fclose(f);
    free(out3);
    /* Same settings, 1 and 3 threads: byte-identical. */
    char *a, *b;
    size_t na, nb;
    FILE *fa = open_memstream(&a, &na), *fb = open_memstream(&b, &nb);
    assert_int_equal(qk_search_run(ix, topics, &o, "t", 1, fa, &err), QK_OK);
    assert_int_equal(qk_search_run(ix, topics, &o, "t", 3, fb, &err), QK_OK);
    fclose(fa);
    fclose(fb);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    free(a);
    free(b);
    free(out1);
    qk_topics_free(topics);
    qk_index_close(ix);
    qk_test_drop(p);
    qk_test_drop(tp);
}

/* A zoo system that drops query terms drops the same ones for a topic
 * whatever other topics the file holds (topic-selection runs use subsets). */
static void test_keep_per_topic(void **state)
{
    (void)state;
    qk_text_opts t = sx_plain();
    char *p = sx_build("<DOC><DOCNO>a</DOCNO>w1 w2 w3 w4 w5 w6</DOC><DOC><DOCNO>b</DOCNO>w1 w3 w5</DOC>"
                       "<DOC><DOCNO>c</DOCNO>w2 w4 w6 w6</DOC>\n",
                       &t, 16, NULL, NULL);
    char *t1 = qk_test_write_text("x\tw1 w2\nq\tw1 w2 w3 w4 w5 w6\n"),
         *t2 = qk_test_write_text("q\tw1 w2 w3 w4 w5 w6\n");
    qk_zoo_system sys;
    qk_index *ix;
    qk_topics *a, *b;
    qk_error err;
    char *oa, *ob;
    size_t na, nb;
    memset(&sys, 0, sizeof sys);
    qk_search_opts_init(&sys.opts);
    sys.query_keep = 0.5;
    strcpy(sys.tag, "k");
    assert_int_equal(qk_index_open(p, &ix, &err), QK_OK);
    assert_int_equal(qk_topics_read(t1, NULL, &a, &err), QK_OK);
    assert_int_equal(qk_topics_read(t2, NULL, &b, &err), QK_OK);
    FILE *fa = open_memstream(&oa, &na), *fb = open_memstream(&ob, &nb);
    assert_int_equal(qk_search_run_system(ix, a, &sys, 11, 1, fa, &err), QK_OK);
    assert_int_equal(qk_search_run_system(ix, b, &sys, 11, 1, fb, &err), QK_OK);
    fclose(fa);
    fclose(fb);
    assert_non_null(strstr(oa, ob)); /* q's lines are the same in both runs */
    assert_true(nb > 0);
    free(oa);
    free(ob);
    qk_topics_free(a);
    qk_topics_free(b);
    qk_index_close(ix);
    qk_test_drop(p);
    qk_test_drop(t1);
    qk_test_drop(t2);
}

/* Documents whose words are all stop words: an index without terms. */
static void test_no_terms(void **state)
{
    (void)state;
    char *p = sx_build("<DOC><DOCNO>a</DOCNO>the of and</DOC>\n<DOC><DOCNO>b</DOCNO></DOC>\n", NULL, 16, NULL,
                       NULL);
    qk_index *ix;
    qk_searcher *s;
    qk_search_opts o;
    qk_index_info in;
    const qk_hit *h;
    size_t n = 1;
    qk_error err;
    assert_int_equal(qk_index_open(p, &ix, &err), QK_OK);
    qk_index_get_info(ix, &in);
    assert_int_equal(in.docs, 2);
    assert_int_equal(in.terms, 0);
    assert_int_equal(qk_searcher_new(ix, &s, &err), QK_OK);
    qk_search_opts_init(&o);
    o.rm3 = 1;
    assert_int_equal(qk_searcher_query(s, &o, "the apple", &h, &n, &err), QK_OK);
    assert_int_equal(n, 0);
    qk_searcher_free(s);
    qk_index_close(ix);
    qk_test_drop(p);
}

static void test_zoo(void **state)
{
    (void)state;
    qk_text_opts texts[2];
    qk_zoo_system a[30], b[40];
    qk_error err;
    qk_text_opts_init(&texts[0]);
    texts[1] = sx_plain();
    assert_int_equal(qk_search_zoo(30, 9, 2, texts, a, &err), QK_OK);
    assert_int_equal(qk_search_zoo(40, 9, 2, texts, b, &err), QK_OK);
    int models[3] = {0, 0, 0}, rm3 = 0, idx1 = 0;
    for (int i = 0; i < 30; i++) {
        /* System i does not depend on how many systems were asked for. */
        assert_string_equal(a[i].tag, b[i].tag);
        assert_int_equal(qk_search_opts_check(&a[i].opts, &err), QK_OK);
        models[a[i].opts.model]++;
        rm3 += a[i].opts.rm3;
        idx1 += a[i].index == 1;
        for (int j = 0; j < i; j++)
            assert_string_not_equal(a[i].tag, a[j].tag);
    }
    assert_true(models[0] > 0 && models[1] > 0 && models[2] > 0);
    assert_true(rm3 > 0 && rm3 < 30);
    assert_true(idx1 > 0 && idx1 < 30);
    assert_int_equal(qk_search_zoo(0, 9, 2, texts, a, &err), QK_EUSAGE);
}

/* The builder's token cache keeps a token's first 16 bytes in its slot and
 * the rest elsewhere: words that differ only at byte 8, 16 or past 16, of
 * 7-9, 15-17, 24 and 33-64 bytes, must stay distinct terms. A random
 * corpus over such a vocabulary, counted here word by word, is compared
 * with each term's df and cf in the index, built in memory and with
 * spills (the cache starts afresh in each segment). */
static void test_token_cache_lengths(void **state)
{
    (void)state;
    enum { NW = 96, NDOC = 3000, PER = 40 };
    static const size_t lens[] = {7, 8, 9, 15, 16, 17, 24, 33, 40, 64};
    char words[NW][72];
    uint64_t cf[NW] = {0}, df[NW] = {0}, seed = 0x9E3779B97F4A7C15u;
    for (int w = 0; w < NW; w++) {
        size_t n = lens[w % 10];
        memset(words[w], 'k', n);
        words[w][n] = '\0';
        /* the groups of ten share a prefix and differ at one position */
        int g = w / 10;
        size_t at = g % 3 == 0 ? 0 : g % 3 == 1 ? (n > 8 ? 8 : n - 1) : n - 1;
        words[w][at] = (char)('a' + g);
        if (n > 16 && g % 2)
            words[w][16] = 'z';
    }
    for (int w = 0; w < NW; w++)
        for (int v = 0; v < w; v++)
            assert_string_not_equal(words[w], words[v]);
    size_t cap = (size_t)NDOC * PER * 80, len = 0;
    char *c = malloc(cap);
    assert_non_null(c);
    for (int d = 0; d < NDOC; d++) {
        int seen[NW] = {0};
        len += (size_t)sprintf(c + len, "<DOC><DOCNO>d%d</DOCNO>", d);
        for (int k = 0; k < PER; k++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            /* skewed: low word numbers far more often */
            int w = (int)((seed % NW) * ((seed >> 32) % NW) / NW);
            len += (size_t)sprintf(c + len, "%s%s", words[w], k % 2 ? " " : ", ");
            cf[w]++;
            if (!seen[w]++)
                df[w]++;
        }
        len += (size_t)sprintf(c + len, "</DOC>\n");
    }
    qk_text_opts t = sx_plain();
    for (size_t mem = 1; mem <= 256; mem += 255) {
        qk_index_build_stats st;
        qk_index *ix;
        qk_error err;
        char *p = sx_build(c, &t, mem, NULL, &st);
        size_t nseen = 0;
        assert_int_equal(qk_index_open(p, &ix, &err), QK_OK);
        for (int w = 0; w < NW; w++) {
            uint32_t tid;
            if (!cf[w])
                continue;
            nseen++;
            if (!qk_index_find_term(ix, words[w], strlen(words[w]), &tid))
                fail_msg("term '%s' missing", words[w]);
            assert_int_equal(qk_index_df(ix, tid), df[w]);
            assert_int_equal(qk_index_cf(ix, tid), cf[w]);
        }
        assert_int_equal(st.terms, nseen);
        if (mem == 1)
            assert_true(st.spilled_runs >= 1);
        qk_index_close(ix);
        qk_test_drop(p);
    }
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_spill_identical),
        cmocka_unit_test(test_fwd_blocks_identical),
        cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_jsonl_and_fields),
        cmocka_unit_test(test_corpus_errors),
        cmocka_unit_test(test_topics),
        cmocka_unit_test(test_ties_and_threads),
        cmocka_unit_test(test_zoo),
        cmocka_unit_test(test_no_terms),
        cmocka_unit_test(test_keep_per_topic),
        cmocka_unit_test(test_token_cache_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
