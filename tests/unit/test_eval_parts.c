/* One run scored in topic parts side by side (io/run_view.h qk_run_split,
 * eval/engine.c read_parts): the line source's cut between two blocks of
 * lines, the run reader's parts, and an evaluation in 2-7 parts that gives
 * every value, string, summary, missing topic and run id of one thread, bit
 * for bit, and one thread's errors with their line numbers; a topic whose
 * lines fall in two parts is scored as one thread scores it. */
/* sched_getaffinity */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro
#define _GNU_SOURCE
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <zlib.h>

#include "eval_fixture.h"

#include "core/shed.h"
#include "eval/pipeline.h"
#include "io/io_lines.h"
#include "io/run_view.h"
#include "io/sysload.h"

/* The first field of the line at p: [a, b) offsets (b == a: blank). */
static void field_of(const char *p, size_t *a, size_t *b)
{
    size_t i = 0;
    while (p[i] == ' ' || p[i] == '\t' || p[i] == '\r')
        i++;
    *a = i;
    while (p[i] && p[i] != '\n' && p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
        i++;
    *b = i;
}

/* The cut qk_lines_block_start should give for near, found the slow way:
 * the first line starting at or past near whose first field differs from
 * the content line before it (lines before near count as before it). */
static size_t cut_by_hand(const char *text, size_t len, size_t from, size_t near)
{
    size_t at = from, pa = 0, pb = 0, prev = 0;
    int have = 0;
    while (at < len) {
        size_t a, b, next = at;
        while (next < len && text[next] != '\n')
            next++;
        next += next < len;
        field_of(text + at, &a, &b);
        if (b > a && text[at + a] != '#') {
            if (have && at >= near &&
                (b - a != pb - pa || memcmp(text + at + a, text + prev + pa, b - a) != 0))
                return at;
            have = 1;
            prev = at;
            pa = a;
            pb = b;
        }
        at = next;
    }
    return 0;
}

/* Lines of qids in blocks, with comments, blank lines, CRLF endings,
 * leading blanks, one qid that is a prefix of the next, and no newline at
 * the end. */
static char *odd_text(size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    for (int t = 0; t < 40; t++)
        for (int i = 0; i < 25; i++) {
            int k = t * 25 + i;
            if (k % 17 == 0)
                fputs("# a comment\n", f);
            if (k % 23 == 0)
                fputs("\n  \n", f);
            fprintf(f, "%sq%d%s Q0 d%d %d %d r%s", k % 5 == 0 ? "  " : "", t / 2, t % 2 ? "0" : "", k, i + 1,
                    100 - i, k % 3 == 0 ? "\r\n" : "\n");
        }
    fputs("q99 Q0 last 1 1 r", f);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* Every line of l, each "lineno:text\n", appended to out. */
static void drain_lines(qk_lines *l, FILE *out)
{
    const char *line;
    size_t len;
    qk_error err = {0};
    int r;
    while ((r = qk_lines_next(l, &line, &len, &err)) == 1)
        fprintf(out, "%ld:%.*s\n", qk_lines_lineno(l), (int)len, line);
    assert_int_equal(r, 0);
}

/* The cut is the one worked out by hand from every place in the file, and
 * the part before it and the part after it give the file's lines, once,
 * the second numbered from 1. */
static void test_lines_cut(void **state)
{
    size_t len;
    char *text = odd_text(&len);
    const char *path = fx_file(text);
    qk_error err = {0};
    size_t cuts = 0;
    (void)state;
    for (size_t near = 1; near < len; near += 97) {
        qk_lines *l = NULL, *tail = NULL;
        const char *line;
        size_t n, want, got, lim;
        STATUS(qk_lines_open(path, &l, &err), QK_OK);
        assert_int_equal(qk_lines_next(l, &line, &n, &err), 1); /* the reader is past line 1 */
        want = near > n + 1 ? cut_by_hand(text, len, 0, near) : 0;
        got = qk_lines_block_start(l, near);
        if (got != want)
            fail_msg("near %zu: cut at %zu, by hand %zu", near, got, want);
        COUNT(qk_lines_offset(l, &lim), n + 1);
        COUNT(lim, len);
        if (got) {
            char *a = NULL, *b = NULL;
            size_t al = 0, bl = 0;
            FILE *fa = open_memstream(&a, &al), *fb = open_memstream(&b, &bl);
            long before;
            cuts++;
            STATUS(qk_lines_split(l, got, &tail, &err), QK_OK);
            drain_lines(l, fa);
            before = qk_lines_lineno(l);
            drain_lines(tail, fb);
            assert_int_equal(fclose(fa), 0);
            assert_int_equal(fclose(fb), 0);
            /* the tail starts at the cut, numbered from 1 */
            assert_true(bl > 2 && b[0] == '1' && b[1] == ':');
            assert_memory_equal(b + 2, text + got, strcspn(text + got, "\r\n"));
            {
                /* the first part's lines end right before the cut */
                long nl = 0;
                for (size_t i = 0; i < got; i++)
                    nl += text[i] == '\n';
                COUNT(before, nl);
            }
            free(a);
            free(b);
            qk_lines_close(tail);
            /* a rewind reads the whole file again */
            STATUS(qk_lines_rewind(l, &err), QK_OK);
            COUNT(qk_lines_offset(l, &lim), 0);
            COUNT(lim, len);
        }
        qk_lines_close(l);
    }
    assert_true(cuts > 50);
    free(text);
}

/* A topic of the run file: lines "qid Q0 docno rank score tag". */
typedef struct run_file {
    const char *qrels, *run;
} run_file;

/* Topic t's lines: per to 2 per - 1, no multiple of 7. */
static size_t topic_len(size_t t, size_t per)
{
    size_t n = per + (t * 37) % per;
    return n % 7 ? n : n + 1;
}

/* nt topics of per to 2 per - 1 lines each, the docnos in no order (qrels:
 * every third docno graded 0-2, in judgment groups 0 and 1, and a judged
 * docno nobody ranked; topics 5 and 11 have only that). Tied
 * scores; the last line's run tag differs from the others'. With split 1,
 * topic nt/2 + 3's first lines also open the file (its lines in two
 * parts), with split 2 the last topic's come before the one before it
 * (in the last part twice); with repeats, some docnos come twice in a topic; bad_line > 0
 * puts a bad score on that line. */
static run_file make_run(size_t nt, size_t per, int split, int repeats, size_t bad_line)
{
    char *rb = NULL, *qb = NULL;
    size_t rl = 0, ql = 0, line = 0;
    FILE *rf = open_memstream(&rb, &rl), *qf = open_memstream(&qb, &ql);
    run_file out;
    assert_non_null(rf);
    assert_non_null(qf);
    for (size_t t = 0; t < nt; t++) {
        size_t n = topic_len(t, per);
        for (size_t i = 0; i < n; i += 3)
            if (t != 5 && t != 11)
                fprintf(qf, "T%04zu %zu D%zu %zu\n", t, i % 2, i * 5 + t % 5, i / 3 % 3);
        fprintf(qf, "T%04zu 0 Xnone %zu\n", t, t % 2);
    }
    fprintf(qf, "Tonly 0 D1 1\n"); /* a qrels topic no run line has */
    for (size_t t = 0; t < nt; t++) {
        size_t n = topic_len(t, per);
        if ((split == 1 && t == 0) || (split == 2 && t + 2 == nt)) /* the first lines of a later topic */
            for (size_t i = 0, u = split == 1 ? nt / 2 + 3 : nt - 1; i < 4; i++)
                fprintf(rf, "T%04zu Q0 S%zu %zu %zu.5 tag\n", u, i, i + 1, 1000 - i), line++;
        for (size_t i = 0; i < n; i++) {
            size_t k = (i * 7 + t) % n; /* a permutation: n is no multiple of 7 */
            if (repeats && i % 41 == 40)
                k = ((i - 1) * 7 + t) % n; /* the line before's docno */
            line++;
            fprintf(rf, "T%04zu Q0 D%zu %zu %s%zu tag%s\n", t, k * 5 + t % 5, i + 1,
                    line == bad_line ? "x" : "", (n - i) / 4, t + 1 == nt && i + 1 == n ? "last" : "");
        }
    }
    assert_int_equal(fclose(rf), 0);
    assert_int_equal(fclose(qf), 0);
    out.qrels = fx_file(qb);
    out.run = fx_file(rb);
    free(rb);
    free(qb);
    return out;
}

/* The parts' topics in order are the whole stream's, entry for entry;
 * the run id is the last line's; a gzip file is not cut; a restart reads
 * the whole file. */
static void test_run_parts(void **state)
{
    run_file f = make_run(300, 40, 0, 0, 0);
    qk_run_stream *whole = NULL, *s = NULL, *parts[QK_RUN_MAX_PARTS];
    qk_run_topic a, b;
    qk_error err = {0};
    size_t made = 0, ntopics = 0;
    int seen, r;
    (void)state;
    STATUS(qk_run_open(f.run, QK_RUN_STREAM, &whole, &err), QK_OK);
    STATUS(qk_run_open(f.run, QK_RUN_STREAM, &s, &err), QK_OK);
    assert_int_equal(qk_run_next(s, &b, &seen, &err), 1);
    assert_int_equal(qk_run_next(whole, &a, &seen, &err), 1);
    STREQ(b.qid, a.qid);
    STATUS(qk_run_split(s, 5, parts, &made, &err), QK_OK);
    COUNT(made, 4);
    for (size_t k = 0; k <= made; k++) {
        qk_run_stream *p = k == 0 ? s : parts[k - 1];
        while ((r = qk_run_next(p, &b, &seen, &err)) == 1) {
            assert_int_equal(seen, 0);
            assert_int_equal(qk_run_next(whole, &a, &seen, &err), 1);
            STREQ(b.qid, a.qid);
            COUNT(b.n, a.n);
            for (size_t i = 0; i < a.n; i++) {
                STREQ(b.docnos[i], a.docnos[i]);
                assert_true(b.scores[i] == a.scores[i]);
                if (k > 0) /* a part numbers its lines from its own start */
                    assert_true(b.lines[i] < a.lines[i]);
                else
                    COUNT(b.lines[i], a.lines[i]);
            }
            ntopics++;
        }
        assert_int_equal(r, 0);
    }
    assert_int_equal(qk_run_next(whole, &a, &seen, &err), 0);
    COUNT(ntopics, 299);
    STREQ(qk_run_id(s), "tag"); /* the first part's last line */
    STATUS(qk_run_parts_end(s, parts, made, &err), QK_OK);
    STREQ(qk_run_id(s), "taglast");
    STREQ(qk_run_id(whole), "taglast");
    /* undone by a restart: the whole file again */
    STATUS(qk_run_restart(s, QK_RUN_STREAM, &err), QK_OK);
    ntopics = 0;
    while ((r = qk_run_next(s, &b, &seen, &err)) == 1)
        ntopics++;
    assert_int_equal(r, 0);
    COUNT(ntopics, 300);
    qk_run_close(s);
    qk_run_close(whole);
    {
        /* gzip (as standard input from a pipe): nothing mapped, no parts */
        char gz[256];
        gzFile z;
        snprintf(gz, sizeof gz, "%s.gz", f.run);
        assert_non_null(z = gzopen(gz, "wb"));
        assert_true(gzputs(z, "A Q0 d1 1 2 r\nA Q0 d2 2 1 r\nB Q0 d1 1 1 r\n") > 0);
        assert_int_equal(gzclose(z), Z_OK);
        STATUS(qk_run_open(gz, QK_RUN_STREAM, &s, &err), QK_OK);
        assert_int_equal(qk_run_next(s, &b, &seen, &err), 1);
        STATUS(qk_run_split(s, 4, parts, &made, &err), QK_OK);
        COUNT(made, 0);
        qk_run_close(s);
        unlink(gz);
    }
}

/* The same bits: -0.0 is not 0.0, a NaN equals itself. */
static int same_bits(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
}

/* Evaluate f's run with o (threads set by the caller); the status. */
static qk_status eval_file(const run_file *f, qk_rel_format fmt, const char *specs, const qk_eval_opts *o,
                           qk_eval_result **r, qk_qrels **q, qk_measures **m, qk_error *err)
{
    qk_run_stream *s = NULL;
    qk_status st;
    *r = NULL;
    STATUS(qk_qrels_read(f->qrels, fmt, QK_DEDUP_ERROR, q, err), QK_OK);
    STATUS(fx_measures(specs, m, err), QK_OK);
    STATUS(qk_run_open(f->run, QK_RUN_STREAM, &s, err), QK_OK);
    st = qk_eval_stream(*q, s, *m, o, r, err);
    qk_run_close(s);
    return st;
}

/* Evaluations in 2, 3, 4 and 7 parts against one thread: everything
 * the result holds, bit for bit, or the same error. */
static void same_as_one_thread(const run_file *f, qk_rel_format fmt, const char *specs,
                               const qk_eval_opts *base)
{
    static const int threads[] = {2, 3, 4, 7};
    qk_eval_opts o1 = *base;
    qk_eval_result *r1;
    qk_qrels *q1 = NULL;
    qk_measures *m1 = NULL;
    qk_error e1 = {0};
    qk_status s1;
    o1.threads = 1;
    s1 = eval_file(f, fmt, specs, &o1, &r1, &q1, &m1, &e1);
    for (size_t k = 0; k < sizeof threads / sizeof threads[0]; k++) {
        qk_eval_opts on = *base;
        qk_eval_result *rn;
        qk_qrels *qn = NULL;
        qk_measures *mn = NULL;
        qk_error en = {0};
        qk_status sn;
        on.threads = threads[k];
        sn = eval_file(f, fmt, specs, &on, &rn, &qn, &mn, &en);
        STATUS(sn, s1);
        if (s1 != QK_OK) {
            STREQ(en.message, e1.message);
        } else {
            STREQ(qk_result_runid(rn), qk_result_runid(r1));
            COUNT(qk_result_num_topics(rn), qk_result_num_topics(r1));
            COUNT(qk_result_num_missing(rn), qk_result_num_missing(r1));
            for (size_t t = 0; t < qk_result_num_missing(r1); t++)
                STREQ(qk_result_missing(rn, t), qk_result_missing(r1, t));
            for (size_t v = 0; v < qk_result_num_values(r1); v++) {
                for (size_t t = 0; t < qk_result_num_topics(r1); t++) {
                    const char *a = qk_result_topic_string(r1, t, v), *b = qk_result_topic_string(rn, t, v);
                    STREQ(qk_result_topic(rn, t), qk_result_topic(r1, t));
                    if (a || b) {
                        if (!a || !b || strcmp(a, b) != 0)
                            fail_msg("threads %d, topic %s, %s: '%s', one thread '%s'", threads[k],
                                     qk_result_topic(r1, t), qk_result_value_name(r1, v), b ? b : "(null)",
                                     a ? a : "(null)");
                    } else if (!same_bits(qk_result_topic_value(rn, t, v), qk_result_topic_value(r1, t, v))) {
                        fail_msg("threads %d, topic %s, %s: %.17g, one thread %.17g", threads[k],
                                 qk_result_topic(r1, t), qk_result_value_name(r1, v),
                                 qk_result_topic_value(rn, t, v), qk_result_topic_value(r1, t, v));
                    }
                    fx_checks++;
                }
                assert_true(same_bits(qk_result_summary(rn, v), qk_result_summary(r1, v)));
            }
        }
        qk_eval_result_free(rn);
        qk_measures_free(mn);
        qk_qrels_free(qn);
    }
    qk_eval_result_free(r1);
    qk_measures_free(m1);
    qk_qrels_free(q1);
}

static void test_same_values(void **state)
{
    run_file f = make_run(400, 60, 0, 0, 0);
    qk_eval_opts o;
    (void)state;
    qk_eval_opts_init(&o);
    same_as_one_thread(&f, QK_REL_QRELS, "all_trec", &o);
    o.complete = 1; /* -c: stand-ins for the topics no part had */
    o.max_ret = 25;
    same_as_one_thread(&f, QK_REL_QRELS, "all_trec", &o);
    qk_eval_opts_init(&o);
    o.only_topic = "T0377";
    same_as_one_thread(&f, QK_REL_QRELS, "map relstring runid", &o);
    qk_eval_opts_init(&o);
    o.topic_range = 1; /* a shard's range of qrels topics */
    o.topic_first = 100;
    o.topic_end = 250;
    same_as_one_thread(&f, QK_REL_QRELS, "map ndcg P.10", &o);
}

/* A topic's lines in two parts, docnos repeated, a bad score in a late
 * part: what one thread gives, messages and line numbers too. */
static void test_fallbacks(void **state)
{
    run_file split = make_run(400, 60, 1, 0, 0), rep = make_run(400, 60, 0, 1, 0);
    run_file split2 = make_run(400, 60, 2, 0, 0);
    run_file bad = make_run(400, 60, 0, 0, 21000);
    qk_eval_opts o;
    (void)state;
    qk_eval_opts_init(&o);
    same_as_one_thread(&split, QK_REL_QRELS, "all_trec", &o);
    same_as_one_thread(&split2, QK_REL_QRELS, "all_trec", &o);
    same_as_one_thread(&rep, QK_REL_QRELS, "map", &o); /* the repeat's error */
    o.dedup = QK_DEDUP_FIRST;
    same_as_one_thread(&rep, QK_REL_QRELS, "all_trec", &o);
    qk_eval_opts_init(&o);
    same_as_one_thread(&bad, QK_REL_QRELS, "map", &o);
    {
        qk_eval_result *r = NULL;
        qk_qrels *q = NULL;
        qk_measures *m = NULL;
        qk_error err = {0};
        o.threads = 4;
        STATUS(eval_file(&bad, QK_REL_QRELS, "map", &o, &r, &q, &m, &err), QK_EINPUT);
        assert_non_null(strstr(err.message, "line 21000: score 'x"));
        qk_measures_free(m);
        qk_qrels_free(q);
    }
}

/* A random run (seed): blocks of 1-1,200 lines of topics mostly in order
 * (ids past T0399 never judged; with a seed divisible by 4 an id now and
 * then coming back in a later block), now and then
 * a comment, a blank line, a CRLF ending, leading blanks or a repeated
 * docno; about 1.5 MB. */
static run_file random_run(unsigned seed, const char *qrels)
{
    char *rb = NULL;
    size_t rl = 0;
    FILE *rf = open_memstream(&rb, &rl);
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
    size_t bytes = 0;
    run_file out;
#define NEXT() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
    assert_non_null(rf);
    size_t topic = seed;
    while (bytes < ((size_t)3 << 19)) {
        size_t n = 1 + NEXT() % 1200, at = (size_t)NEXT() % 5;
        /* mostly the next topics; with seeds 4k, now and then any topic */
        topic = seed % 4 == 0 && NEXT() % 16 == 0 ? (size_t)(NEXT() % 480) : (topic + 1 + NEXT() % 3) % 480;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = NEXT();
            int len;
            if (r % 997 == 0)
                bytes += (size_t)fprintf(rf, "# a comment\n");
            if (r % 1499 == 0)
                bytes += (size_t)fprintf(rf, "\n");
            len = fprintf(rf, "%sT%04zu Q0 D%zu %zu %.3f tag%s", r % 13 == 0 ? "  " : "", topic,
                          r % 4001 == 0 ? 0 : i * 5 + at, i + 1, (double)(r % 1000) / 7.0,
                          r % 11 == 0 ? "\r\n" : "\n");
            bytes += (size_t)len;
        }
    }
#undef NEXT
    assert_int_equal(fclose(rf), 0);
    out.qrels = qrels;
    out.run = fx_file(rb);
    free(rb);
    return out;
}

/* Random runs: 2-7 parts give one thread's result or error, whatever the
 * blocks and the cuts. */
static void test_random_runs(void **state)
{
    run_file q = make_run(400, 60, 0, 0, 0); /* its qrels: topics T0000-T0399 */
    qk_eval_opts o;
    (void)state;
    for (unsigned seed = 1; seed <= 12; seed++) {
        run_file f = random_run(seed, q.qrels);
        qk_eval_opts_init(&o);
        o.dedup = seed % 3 ? QK_DEDUP_FIRST : QK_DEDUP_ERROR;
        o.complete = (int)(seed % 2);
        same_as_one_thread(&f, QK_REL_QRELS,
                           seed % 4 ? "map P.10 ndcg_cut.20 relstring runid num_ret" : "all_trec", &o);
    }
}

/* Out of qrels order (the trec output's drain mode) and qrels_jg. */
static void test_drain_and_groups(void **state)
{
    run_file f = make_run(400, 60, 1, 0, 0);
    qk_eval_opts o;
    qk_qrels *q = NULL;
    qk_measures *m = NULL;
    qk_error err = {0};
    char *out[2] = {NULL, NULL};
    (void)state;
    STATUS(qk_qrels_read(f.qrels, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_OK);
    STATUS(fx_measures("all_trec", &m, &err), QK_OK);
    for (int k = 0; k < 2; k++) {
        qk_run_stream *s = NULL;
        qk_eval_result *r = NULL;
        size_t len = 0;
        FILE *mf = open_memstream(&out[k], &len);
        qk_eval_opts_init(&o);
        o.threads = k ? 3 : 1;
        STATUS(qk_run_open(f.run, QK_RUN_STREAM, &s, &err), QK_OK);
        STATUS(qk_eval_stream_trec(q, s, m, &o, mf, &r, &err), QK_OK);
        STATUS(qk_result_write_trec(r, mf, 0, 1, &err), QK_OK);
        assert_int_equal(fclose(mf), 0);
        qk_eval_result_free(r);
        qk_run_close(s);
    }
    STREQ(out[1], out[0]);
    free(out[0]);
    free(out[1]);
    qk_measures_free(m);
    qk_qrels_free(q);
    qk_eval_opts_init(&o);
    same_as_one_thread(&f, QK_REL_QRELS_JG, "all_trec", &o);
}

/* A gzip run cannot be cut: inflated on a thread beside the scoring, the
 * same result as one thread, a bad score's line too. */
static void test_gzip_run(void **state)
{
    run_file f[2] = {make_run(400, 60, 2, 0, 0), make_run(400, 60, 0, 0, 30000)};
    qk_eval_opts o;
    (void)state;
    for (int k = 0; k < 2; k++) {
        char gz[256];
        FILE *in = fopen(f[k].run, "r");
        gzFile z;
        char buf[4096];
        size_t n;
        snprintf(gz, sizeof gz, "%s.gz", f[k].run);
        assert_non_null(in);
        assert_non_null(z = gzopen(gz, "wb1"));
        while ((n = fread(buf, 1, sizeof buf, in)) > 0)
            assert_int_equal(gzwrite(z, buf, (unsigned)n), (int)n);
        assert_int_equal(fclose(in), 0);
        assert_int_equal(gzclose(z), Z_OK);
        f[k].run = gz;
        qk_eval_opts_init(&o);
        same_as_one_thread(&f[k], QK_REL_QRELS, k ? "map" : "all_trec", &o);
        unlink(gz);
    }
}

/* How many parts: one per core the other tasks leave free, or as asked,
 * and never parts smaller than measured to pay; how busy the CPUs are. */
static void test_parts_choice(void **state)
{
    const double idle = 0.3, half = 1.5, busy = 2.2;
    const size_t MB = (size_t)1 << 20;
    (void)state;
    COUNT(qk_eval_parts_pay(2, &idle, 0, 195 * MB, 1000), 2);
    COUNT(qk_eval_parts_pay(2, NULL, 0, 195 * MB, 1000), 2);
    COUNT(qk_eval_parts_pay(2, &half, 0, 195 * MB, 1000), 1);
    COUNT(qk_eval_parts_pay(8, &half, 0, 195 * MB, 1000), 7);
    COUNT(qk_eval_parts_pay(8, &busy, 0, 195 * MB, 1000), 6);
    COUNT(qk_eval_parts_pay(1, &idle, 0, 195 * MB, 1000), 1);
    COUNT(qk_eval_parts_pay(2, &idle, 1, 195 * MB, 1000), 1); /* --threads 1 */
    COUNT(qk_eval_parts_pay(2, &idle, 0, 0, 1000), 1);        /* size unknown: a pipe */
    /* measured: no faster in two parts up to 3.9 MB, faster from 7.8 MB */
    COUNT(qk_eval_parts_pay(2, &idle, 0, 8 * MB - 1, 1000), 1);
    COUNT(qk_eval_parts_pay(2, &idle, 0, 8 * MB, 1000), 2);
    COUNT(qk_eval_parts_pay(8, &idle, 0, 17 * MB, 1000), 4);
    /* asked for: parts of 256 KB at least, whatever the load */
    COUNT(qk_eval_parts_pay(2, &busy, 4, 195 * MB, 1000), 4);
    COUNT(qk_eval_parts_pay(2, &idle, 2, (size_t)512 * 1024 - 1, 1000), 1);
    COUNT(qk_eval_parts_pay(2, &idle, 2, (size_t)512 * 1024, 1000), 2);
    COUNT(qk_eval_parts_pay(2, &idle, 2, 0, 1000), 1);
    /* a very deep first topic: one part unless parts are asked for */
    COUNT(qk_eval_parts_pay(2, &idle, 0, 195 * MB, 0), 2); /* not read */
    COUNT(qk_eval_parts_pay(2, &idle, 0, 195 * MB, QK_SHED_ENTRIES / 2 - 1), 2);
    COUNT(qk_eval_parts_pay(2, &idle, 0, 195 * MB, QK_SHED_ENTRIES / 2), 1);
    COUNT(qk_eval_parts_pay(2, &idle, 2, 195 * MB, QK_SHED_ENTRIES), 2);
    {
        double busy_now = -1;
        cpu_set_t all, one;
        assert_int_equal(qk_cpus_busy(&busy_now), 1); /* Linux: /proc/loadavg */
        assert_true(busy_now >= 0);
        /* the CPUs this process may use, not the machine's */
        assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
        assert_true(qk_cpus_online() >= 1 && qk_cpus_online() == CPU_COUNT(&all));
        CPU_ZERO(&one);
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &all)) {
                CPU_SET(c, &one);
                break;
            }
        assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
        assert_int_equal(qk_cpus_online(), 1);
        assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
    }
    /* a control group's CPU quota, in whole CPUs rounded up */
    COUNT(qk_cpu_quota_parse("max 100000\n", NULL), 0);
    COUNT(qk_cpu_quota_parse("150000 100000\n", NULL), 2);
    COUNT(qk_cpu_quota_parse("100000 100000\n", NULL), 1);
    COUNT(qk_cpu_quota_parse("50000 100000\n", NULL), 1);
    COUNT(qk_cpu_quota_parse("800000 100000", NULL), 8);
    COUNT(qk_cpu_quota_parse("-1\n", "100000\n"), 0); /* cgroup v1: no quota */
    COUNT(qk_cpu_quota_parse("250000\n", "100000\n"), 3);
    COUNT(qk_cpu_quota_parse("", NULL), 0);
    COUNT(qk_cpu_quota_parse("100000 0", NULL), 0);
    assert_true(qk_cpu_quota() >= 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_cut),   cmocka_unit_test(test_run_parts),
        cmocka_unit_test(test_same_values), cmocka_unit_test(test_fallbacks),
        cmocka_unit_test(test_random_runs), cmocka_unit_test(test_drain_and_groups),
        cmocka_unit_test(test_gzip_run),    cmocka_unit_test(test_parts_choice),
    };
    return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
