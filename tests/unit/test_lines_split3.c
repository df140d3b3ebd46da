/* Batched three-field splitter (src/io/lines_split3.c): every line it takes
 * is split into the fields qk_lines_next_fields gives, it stops before the
 * first line of any other shape (comments, blank lines, CR inside a line,
 * \v or \f, doubled or outer separators, two or four fields, 64 bytes or
 * more, a NUL byte), at max lines, and QK_LINE3_TAIL bytes before the
 * window's end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_lines.h"

/* k plain lines "tNNN wNN L\n" into buf at *n. */
static void plain(char *buf, size_t *n, int k)
{
    for (int i = 0; i < k; i++)
        *n += (size_t)sprintf(buf + *n, "t%03d\tw%02d %d\n", i, i % 17, i % 3);
}

/* 10 plain lines, then bad (taken as 1 line of its own by the general
 * reader), then 40 plain lines: the splitter takes the first 10 only. */
static void check_stops_at(const char *bad, size_t badlen)
{
    char buf[4096];
    size_t n = 0, bytes;
    qk_line3 out[64];
    qk_line3_keys keys[64];
    plain(buf, &n, 10);
    size_t before = n;
    memcpy(buf + n, bad, badlen);
    n += badlen;
    plain(buf, &n, 40);
    assert_int_equal(qk_lines_split3(buf, buf + n, out, 64, &bytes), 10);
    assert_int_equal(bytes, before);
    assert_int_equal(qk_lines_split3_keys(buf, buf + n, out, keys, 64, &bytes), 10);
    assert_int_equal(bytes, before);
}

static void test_stops(void **state)
{
    char longline[80];
    (void)state;
    check_stops_at("# a comment\n", 12);
    check_stops_at("\n", 1);
    check_stops_at("a b\rc\n", 6);
    check_stops_at("a\vb c\n", 6);
    check_stops_at("a b\fc\n", 6);
    check_stops_at("a  b c\n", 7);
    check_stops_at("a\t b c\n", 7);
    check_stops_at(" a b c\n", 7);
    check_stops_at("a b c \n", 7);
    check_stops_at("a b c\t\r\n", 8);
    check_stops_at("a b\n", 4);
    check_stops_at("a b c d\n", 8);
    check_stops_at("a b\0c\n", 6);
    check_stops_at("a b c\r\r\n", 8);
    check_stops_at("a b\x01 c\n", 7);
    /* 63 bytes before the newline still fit, 64 do not */
    memset(longline, 'x', sizeof longline);
    longline[1] = ' ', longline[3] = ' ';
    longline[64] = '\n';
    check_stops_at(longline, 65);
}

static void test_fields_match(void **state)
{
    static const char *const shapes[] = {"%s %s %s\n", "%s\t%s\t%s\n", "%s %s\t%s\r\n", "%s\t%s %s\n"};
    char *buf = malloc(1 << 16);
    size_t n = 0, got = 0, long_fields = 0;
    qk_lines *l = NULL;
    qk_error err = {0};
    unsigned seed = 7;
    (void)state;
    /* random plain lines of many lengths, high bytes in fields, one line
     * of each other shape now and then */
    while (n < (1 << 16) - 200) {
        char f[3][40];
        seed = seed * 1103515245u + 12345u;
        for (int j = 0; j < 3; j++) {
            int len = 1 + (int)((seed >> (8 + 4 * j)) % (j == 2 ? 3 : 19));
            for (int c = 0; c < len; c++)
                f[j][c] =
                    (char)(c == 1 && j == 0 && seed % 7 == 0 ? 0xC3 : 'a' + (c + j + (int)(seed >> 20)) % 26);
            f[j][len] = '\0';
        }
        if (seed % 23 == 0)
            n += (size_t)sprintf(buf + n, "#%s\n", f[0]);
        else if (seed % 29 == 0)
            n += (size_t)sprintf(buf + n, "%s %s\n", f[0], f[1]);
        else
            n += (size_t)sprintf(buf + n, shapes[(seed >> 12) % 4], f[0], f[1], f[2]);
    }
    assert_int_equal(qk_lines_open_memory("mem", buf, n, &l, &err), QK_OK);
    for (;;) {
        const char *p, *end, *line, *fs[6];
        size_t bytes, bytes2, k, len, fl[6], nf;
        qk_line3 out[37], out2[37];
        qk_line3_keys keys[37];
        long ln;
        qk_lines_window(l, &p, &end);
        k = qk_lines_split3(p, end, out, 37, &bytes);
        /* the same lines with their keys (the AVX2 copy where the CPU has
         * it, against the plain one above) */
        assert_int_equal(qk_lines_split3_keys(p, end, out2, keys, 37, &bytes2), k);
        assert_int_equal(bytes2, bytes);
        assert_memory_equal(out2, out, k * sizeof *out);
        for (size_t i = 0; i < k; i++) {
            const char *q = p + out[i].at;
            size_t f0 = out[i].s1, f1 = out[i].s2 - out[i].s1 - 1, f2 = out[i].n - out[i].s2 - 1;
            if (f0 > 16 || f1 > 16 || f2 > 16) {
                assert_true(keys[i].k[0] == 0);
                long_fields++;
            } else {
                uint64_t a, b;
                qk_keymap_key(q, f0, &a, &b);
                assert_true(keys[i].k[0] == a && keys[i].k[1] == b && a != 0);
                qk_keymap_key(q + out[i].s1 + 1, f1, &a, &b);
                assert_true(keys[i].k[2] == a && keys[i].k[3] == b);
                qk_keymap_key(q + out[i].s2 + 1, f2, &a, &b);
                assert_true(keys[i].k[4] == a && keys[i].k[5] == b);
            }
        }
        for (size_t i = 0; i < k; i++) {
            const char *q = p + out[i].at;
            ln = qk_lines_lineno(l);
            assert_int_equal(qk_lines_next_fields(l, &line, &len, fs, fl, 6, &nf, &err), 1);
            assert_int_equal(qk_lines_lineno(l), ln + 1);
            assert_int_equal(nf, 3);
            assert_ptr_equal(fs[0], q);
            assert_int_equal(fl[0], out[i].s1);
            assert_ptr_equal(fs[1], q + out[i].s1 + 1);
            assert_int_equal(fl[1], out[i].s2 - out[i].s1 - 1);
            assert_ptr_equal(fs[2], q + out[i].s2 + 1);
            assert_int_equal(fl[2], out[i].n - out[i].s2 - 1);
            assert_true(out[i].adv == out[i].n + 1 || (out[i].adv == out[i].n + 2 && q[out[i].n] == '\r'));
            if (i + 1 < k)
                assert_int_equal(out[i + 1].at, out[i].at + out[i].adv);
            else
                assert_int_equal(bytes, out[i].at + out[i].adv);
        }
        got += k;
        /* the general reader takes one line, then the splitter goes on */
        if (qk_lines_next_fields(l, &line, &len, fs, fl, 6, &nf, &err) <= 0)
            break;
    }
    assert_true(got > 1000);
    assert_true(long_fields > 10);
    qk_lines_close(l);
    free(buf);
}

static void test_tail_and_max(void **state)
{
    char buf[4096];
    size_t n = 0, bytes;
    qk_line3 out[400];
    (void)state;
    plain(buf, &n, 200); /* 15 or 16 bytes a line */
    /* max lines */
    assert_int_equal(qk_lines_split3(buf, buf + n, out, 7, &bytes), 7);
    assert_int_equal(bytes, out[6].at + out[6].adv);
    assert_int_equal(qk_lines_split3(buf, buf + n, out, 0, &bytes), 0);
    assert_int_equal(bytes, 0);
    /* every line that starts QK_LINE3_TAIL bytes or more before the end */
    size_t k = qk_lines_split3(buf, buf + n, out, 400, &bytes);
    assert_true(n - out[k - 1].at >= QK_LINE3_TAIL);
    assert_true(n - bytes < QK_LINE3_TAIL);
    assert_true(k > 180 && k < 200);
    assert_int_equal(qk_lines_split3(buf, buf + QK_LINE3_TAIL - 1, out, 400, &bytes), 0);
    assert_int_equal(qk_lines_split3(NULL, NULL, out, 400, &bytes), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stops),
        cmocka_unit_test(test_fields_match),
        cmocka_unit_test(test_tail_and_max),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
