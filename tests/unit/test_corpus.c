/* Corpus reader (src/io/corpus.c): the fast path for JSON lines gives the
 * same documents, the same errors and the same messages as reading every
 * line with jansson — on hand-made lines that probe each rule of the fast
 * scanner, on the fuzz seeds of the corpus reader and on the CLEF TAR
 * abstracts (when ../shared/data is there). */
/* cmocka.h needs these first; keep clang-format from sorting them. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/io.h"
#include "tmpfile_util.h"

extern int qk_corpus_json_fast; /* corpus.c's test hook */

typedef struct {
    char *s;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        char *s2 = realloc(b->s, b->cap);
        if (!s2)
            abort();
        b->s = s2;
    }
    // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): b->s is allocated above when n > 0
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

/* Every document of path as "docno\1text\2", then the end: "=r code message". */
static char *read_corpus(const char *path, const qk_corpus_opts *o, int fast, size_t *docs)
{
    sbuf b = {0};
    qk_corpus *c;
    qk_error err;
    const char *d, *t;
    size_t dl, tl;
    char end[1200];
    int r;
    qk_corpus_json_fast = fast;
    qk_error_clear(&err);
    *docs = 0;
    if (qk_corpus_open(path, o, &c, &err) != QK_OK) {
        snprintf(end, sizeof end, "=open %d %s", err.code, err.message);
        sb_add(&b, end, strlen(end));
        qk_corpus_json_fast = 1;
        return b.s;
    }
    while ((r = qk_corpus_next(c, &d, &dl, &t, &tl, &err)) == 1) {
        sb_add(&b, d, dl);
        sb_add(&b, "\1", 1);
        sb_add(&b, t, tl);
        sb_add(&b, "\2", 1);
        (*docs)++;
    }
    snprintf(end, sizeof end, "=%d %d %s", r, r < 0 ? err.code : 0, r < 0 ? err.message : "");
    sb_add(&b, end, strlen(end));
    qk_corpus_close(c);
    qk_corpus_json_fast = 1;
    return b.s;
}

static void same_both_ways(const char *path, const qk_corpus_opts *o, const char *what)
{
    size_t n1, n2;
    char *a = read_corpus(path, o, 1, &n1), *b = read_corpus(path, o, 0, &n2);
    if (strcmp(a, b) != 0)
        fail_msg("%s (fields %s, id %s): fast path gave\n%.400s\njansson gave\n%.400s", what,
                 o->fields ? o->fields : "-", o->id_field ? o->id_field : "-", a, b);
    free(a);
    free(b);
}

/* Each line alone, under several options. */
static void test_lines_both_ways(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "{\"id\": \"d1\", \"title\": \"A title\", \"text\": \"Body text.\"}",
        "{\"text\": \"body first\", \"id\": \"d1\", \"title\": \"title last\"}", /* key order kept */
        "  {\"id\":\"d1\",\"title\":\"no blanks\"}  \r",
        "{\"id\": \"d1\", \"title\": \"esc\\\"aped \\u00e9 \\n\"}",
        "{\"id\": \"d\\u0031\", \"title\": \"escaped id\"}",
        "{\"id\": \"d1\", \"title\": \"caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80 \xce\xb2\"}",
        "{\"id\": \"d1\", \"title\": \"bad \xc3\x28 utf8\"}",
        "{\"id\": \"d1\", \"title\": \"overlong \xc0\xaf\"}",
        "{\"id\": \"d1\", \"title\": \"surrogate \xed\xa0\x80\"}",
        "{\"id\": \"d1\", \"title\": \"del \x7f char\"}",
        "{\"id\": \"d1\", \"title\": \"tab\tinside\"}",
        "{\"id\": \"d1\", \"text\": [\"a\", [\"b\", {\"c\": \"x\"}, 3], \"d\", null, true], \"body\": \"e\"}",
        "{\"id\": \"d1\", \"text\": [], \"title\": {\"k\": [1, 2]}, \"body\": \"\"}",
        "{\"id\": \"d1\", \"n\": -0.5, \"m\": 12345678901234, \"t\": true, \"f\": false, \"z\": null, \"title\": \"x\"}",
        "{\"id\": \"d1\", \"n\": 1e400, \"title\": \"x\"}",
        "{\"id\": \"d1\", \"n\": 123456789012345678901234567890, \"title\": \"x\"}",
        "{\"id\": \"d1\", \"n\": 01, \"title\": \"x\"}",
        "{\"id\": \"d1\", \"n\": 1., \"title\": \"x\"}",
        "{\"id\": \"d1\", \"n\": -, \"title\": \"x\"}",
        "{\"id\": 42, \"title\": \"integer id\"}",
        "{\"id\": -7, \"title\": \"negative id\"}",
        "{\"id\": 4.5, \"title\": \"real id\"}",
        "{\"id\": \"\", \"title\": \"empty id\"}",
        "{\"id\": \"a b\", \"title\": \"blank in id\"}",
        "{\"title\": \"no id\"}",
        "{\"docno\": \"x9\", \"_id\": \"y\", \"title\": \"docno before _id\"}",
        "{\"doc_id\": \"z\", \"title\": \"doc_id\"}",
        "{\"id\": \"d1\", \"id\": \"d2\", \"title\": \"repeated key\"}",
        "{\"id\": \"d1\", \"title\": \"a\", \"title\": \"b\"}",
        "{\"id\": \"d1\", \"title\": \"x\"} trailing",
        "{\"id\": \"d1\", \"title\": \"x\",}",
        "{\"id\": \"d1\" \"title\": \"x\"}",
        "{\"id\": \"d1\", \"title\": \"unterminated}",
        "{\"id\": \"d1\", \"title\": tru}",
        "{}",
        "[\"not\", \"an object\"]",
        "\"a string\"",
        "{\"\": \"empty key\", \"id\": \"d1\"}",
        "{\"id\": \"d1\", \"title\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"deep\"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
        "\xef\xbb\xbf{\"id\": \"bom\"}",
        "{\"id\": \"d1\", \"title\": \"all \\\" \\\\ \\/ \\b \\f \\n \\r \\t escapes\"}",
        "{\"id\": \"d1\", \"title\": \"\\u0041\\u00e9\\u00E9\\u20ac\\uFFFF\\u0001 \\ud83d\\ude00 end\"}",
        "{\"id\": \"d1\", \"title\": \"\\\"\", \"text\": [\"\\n\", \"\\u00e9x\"], \"body\": \"b\\u00e9\"}",
        "{\"id\": \"d1\", \"title\": \"\\u0000 nul\"}",
        "{\"id\": \"d1\", \"title\": \"lone \\ud83d high\"}",
        "{\"id\": \"d1\", \"title\": \"lone \\ude00 low\"}",
        "{\"id\": \"d1\", \"title\": \"high then \\ud83d\\u0041\"}",
        "{\"id\": \"d1\", \"title\": \"bad \\x escape\"}",
        "{\"id\": \"d1\", \"title\": \"short \\u12\"}",
        "{\"id\": \"d1\", \"title\": \"bad hex \\u12g4\"}",
        "{\"id\": \"d1\", \"title\": \"end \\\"}",
        "{\"id\": \"d1\", \"ti\\u0074le\": \"escaped key\"}",
        "{\"id\": \"d1\", \"k\": {\"n\\u00e9\": \"\\t\"}, \"title\": \"nested escapes\"}",
    };
    static const char *const fields[] = {NULL, "title,text,body", "text"};
    static const char *const ids[] = {NULL, "docno", "title"};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        char *p = qk_test_write_tmp(lines[i], strlen(lines[i]));
        for (size_t f = 0; f < 3; f++)
            for (size_t k = 0; k < 3; k++) {
                qk_corpus_opts o;
                qk_corpus_opts_init(&o);
                o.format = QK_CORPUS_JSONL;
                o.fields = fields[f];
                o.id_field = ids[k];
                same_both_ways(p, &o, lines[i]);
            }
        unlink(p);
        free(p);
    }
}

/* A hand-checked document: the fast path's output is the text itself. */
static void test_fast_document(void **state)
{
    (void)state;
    const char *line = "{\"title\": \"T\xc3\xa9\", \"id\": \"x1\", \"text\": [\"a\", [\"b\"], 3, \"c\"]}\n"
                       "{\"id\": \"x2\"}\n";
    char *p = qk_test_write_tmp(line, strlen(line));
    qk_corpus_opts o;
    size_t n;
    qk_corpus_opts_init(&o);
    char *got = read_corpus(p, &o, 1, &n);
    assert_int_equal(n, 2);
    assert_string_equal(got, "x1\1T\xc3\xa9 a b c\2x2\1\2=0 0 ");
    free(got);
    unlink(p);
    free(p);
}

extern _Atomic unsigned long qk_corpus_json_slow; /* corpus.c: lines read with jansson */

/* Strings with escapes are decoded on the fast path, as jansson decodes
 * them; jansson reads only the lines with escapes it rejects. */
static void test_fast_escapes(void **state)
{
    (void)state;
    const char *line = "{\"id\": \"x1\", \"content\": \"a\\\"b\\\\c\\/d\\ne\\u00e9\\u20AC\\ud83d\\ude00f\"}\n"
                       "{\"id\": \"x2\", \"content\": [\"\\t\", \"g\"], \"title\": \"\\u0041\"}\n"
                       "{\"id\": \"x3\", \"content\": \"nul \\u0000\"}\n";
    char *p = qk_test_write_tmp(line, strlen(line));
    qk_corpus_opts o;
    size_t n;
    qk_corpus_opts_init(&o);
    o.fields = "content";
    unsigned long before = qk_corpus_json_slow;
    char *got = read_corpus(p, &o, 1, &n);
    assert_int_equal(n, 2);
    assert_int_equal(qk_corpus_json_slow - before, 1); /* the third line only */
    assert_memory_equal(strchr(got, '='), "=-", 2); /* jansson's error for \\u0000 */
    *strchr(got, '=') = '\0';
    assert_string_equal(got, "x1\1a\"b\\c/d\ne\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" "f\2x2\1\t g\2");
    free(got);
    unlink(p);
    free(p);
}

/* The corpus reader's fuzz seeds, with the harness's options (first byte). */
static void test_fuzz_seeds_both_ways(void **state)
{
    (void)state;
    static const char *const fields[] = {NULL, "TITLE,TEXT", "title,text,body", "HEAD"};
    const char *src = getenv("QK_SOURCE");
    char dir[4096], path[4400];
    DIR *d;
    struct dirent *e;
    int seen = 0;
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/fuzz_corpus", src ? src : ".");
    if (!(d = opendir(dir))) {
        skip();
        return;
    }
    while ((e = readdir(d)) != NULL) {
        FILE *f;
        static unsigned char buf[1 << 20];
        size_t n;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        assert_non_null(f = fopen(path, "rb"));
        n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        if (n < 1)
            continue;
        char *p = qk_test_write_tmp(buf + 1, n - 1);
        for (int fmt = 0; fmt < 3; fmt++) {
            qk_corpus_opts o;
            qk_corpus_opts_init(&o);
            o.format = (qk_corpus_format)fmt;
            o.fields = fields[(buf[0] >> 2) & 3];
            o.id_field = buf[0] & 16 ? "docno" : NULL;
            same_both_ways(p, &o, e->d_name);
        }
        unlink(p);
        free(p);
        seen++;
    }
    closedir(d);
    assert_true(seen > 0);
}

/* The CLEF 2017 TAR abstracts (JSON lines, 42 MB), default fields and content. */
static void test_clef_both_ways(void **state)
{
    (void)state;
    const char *shared = getenv("QK_SHARED");
    char dir[4096], path[4400];
    DIR *d;
    struct dirent *e;
    size_t files = 0;
    if (!shared)
        skip();
    snprintf(dir, sizeof dir, "%s/data/clef-tar-2017-texts/doctexts", shared);
    if (!(d = opendir(dir))) {
        skip();
        return;
    }
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        for (int f = 0; f < 2; f++) {
            qk_corpus_opts o;
            qk_corpus_opts_init(&o);
            o.fields = f ? "content" : NULL;
            same_both_ways(path, &o, e->d_name);
        }
        files++;
    }
    closedir(d);
    assert_true(files > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_both_ways),
        cmocka_unit_test(test_fast_document),
        cmocka_unit_test(test_fast_escapes),
        cmocka_unit_test(test_fuzz_seeds_both_ways),
        cmocka_unit_test(test_clef_both_ways),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
