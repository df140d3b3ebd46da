/* The qrels reader's loop for lines laid out alike (src/io/qrels_fixed.h)
 * against the per-line reader, on files of runs of one layout (see
 * test_fixed_runs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrels_fixture.h"
#include "tmpfile_util.h"

/* Runs of lines of one layout (topic id, group, docno and grade widths and
 * separators fixed for a run, as most qrels have) of random lengths, the
 * layout changing between runs (often the docno width by one byte, so
 * that widths change inside a 64-byte block) or from line to line (docno
 * widths alternating); within a run: topics and groups changing to others
 * of the same width, docnos increasing, equal or decreasing, grades of one
 * digit and now and then two digits, a minus sign or a letter, CRLF runs,
 * comments, blank lines, trailing blanks, control and NUL bytes in a
 * docno. Read as qrels and as qrels_jg by every classifier: the same as
 * the per-line reader. */
static size_t make_runs(gen *g, char *out, size_t lines, int bad)
{
    static const char *const groups[] = {"0", "1", "Q0", "Q1", "it9", "it8"};
    static const char *const odds[] = {"# comment 0 d 1", "", "  ", "\t"};
    unsigned topic = 1 + (unsigned)below(g, 50), doc = 1, tw = 1, dw = 1, gi = 0, alt = 0, crlf = 0;
    size_t n = 0, left = 0;
    const char *s1 = " ", *s2 = " ", *s3 = " ";
    for (size_t i = 0; i < lines; i++) {
        char q[32], d[64], grade[8];
        if (left == 0) {
            if (below(g, 2) && i > 0) {
                dw = dw > 1 && below(g, 2) ? dw - 1 : dw + 1; /* one byte wider or narrower */
                if (dw > 34)
                    dw = 20;
            } else {
                tw = 1 + (unsigned)below(g, 18);
                dw = 1 + (unsigned)below(g, 34);
                gi = (unsigned)below(g, 6) & ~1u;
                s1 = below(g, 6) ? " " : "\t";
                s2 = below(g, 6) ? " " : "\t";
                s3 = below(g, 6) ? " " : "\t";
                crlf = below(g, 8) == 0;
            }
            alt = below(g, 6) == 0;
            left = below(g, 4) ? 1 + below(g, 300) : 1 + below(g, 6);
        }
        left--;
        if (below(g, 60) == 0)
            topic++; /* a topic of the same width */
        if (below(g, 150) == 0)
            topic -= 2; /* an earlier one again */
        if (below(g, 100) == 0)
            gi ^= 1; /* another group of the same width */
        doc += below(g, 120) ? 1 + (unsigned)below(g, 3) : 0;
        if (below(g, 200) == 0)
            doc -= 2 + (unsigned)below(g, 3);
        sprintf(q, "T%020u", topic);
        memmove(q, q + 21 - tw, tw + 1); /* the last tw digits */
        if (tw == 1)
            q[0] = (char)('A' + topic % 26);
        {
            unsigned w = dw + (alt && i % 2), dn = doc;
            sprintf(d, "D%040u", dn);
            memmove(d + 1, d + 41 - (w - 1), w); /* 'D' and the last w - 1 digits */
            if (w == 1)
                d[0] = (char)('a' + doc % 26);
        }
        {
            uint64_t k = below(g, 200);
            if (k == 0)
                strcpy(grade, "10");
            else if (k == 1)
                strcpy(grade, "-1");
            else if (k == 2 && bad)
                strcpy(grade, "x");
            else
                sprintf(grade, "%u", (unsigned)below(g, k < 20 ? 10 : 4));
        }
        if (below(g, 300) == 0) { /* a line of another kind */
            uint64_t k = below(g, bad ? 7 : 5);
            if (k < 4) {
                n += (size_t)sprintf(out + n, "%s\n", odds[k]);
                continue;
            }
            if (k == 4) { /* trailing blank */
                n += (size_t)sprintf(out + n, "%s%s%s%s%s%s%s \n", q, s1, groups[gi], s2, d, s3, grade);
                continue;
            }
            d[dw / 2] = k == 5 ? '\x01' : '\0'; /* a control byte or NUL in the docno */
            n += (size_t)sprintf(out + n, "%s%s%s%s", q, s1, groups[gi], s2);
            memcpy(out + n, d, strlen(d + dw / 2 + 1) + dw / 2 + 1);
            n += strlen(d + dw / 2 + 1) + dw / 2 + 1;
            n += (size_t)sprintf(out + n, "%s%s\n", s3, grade);
            continue;
        }
        n += (size_t)sprintf(out + n, "%s%s%s%s%s%s%s%s", q, s1, groups[gi], s2, d, s3, grade, crlf ? "\r\n" : "\n");
    }
    return n;
}

/* rounds random files from make (of up to maxlines lines, each under
 * line_max bytes; every fourth with bad lines), each read by every reader
 * and compared (check_file); most must read without an error. */
static void check_made(size_t (*make)(gen *, char *, size_t, int), uint64_t seed, int rounds, size_t maxlines,
                       size_t line_max)
{
    char *buf = malloc(maxlines * line_max + 4096);
    gen g = {seed};
    int read_ok = 0;
    assert_non_null(buf);
    for (int round = 0; round < rounds; round++) {
        size_t n = make(&g, buf, 1 + below(&g, maxlines), round % 4 == 3);
        char *p = qk_test_write_tmp(buf, n);
        read_ok += check_file(p);
        remove(p);
        free(p);
    }
    assert_true(read_ok > 40);
    free(buf);
}

static void test_fixed_runs(void **state)
{
    (void)state;
    check_made(make_runs, 31337, 120, 2500, 96);
}

/* A run of blanks as the per-line reader splits on them: spaces and tabs
 * mostly, now and then '\r', '\v' or '\f'; one byte when one is 0. */
static size_t blanks(gen *g, char *out, int one)
{
    static const char set[] = " \t \t \t\r\v\f";
    size_t k = one ? 1 : 1 + below(g, below(g, 4) ? 4 : 12);
    for (size_t i = 0; i < k; i++)
        out[i] = one ? (below(g, 4) ? ' ' : '\t') : set[below(g, below(g, 8) ? 6 : 9)];
    return k;
}

/* Lines whose fields are separated by runs of blanks (as CLEF TAR's
 * qrel_abs_test.txt: "CD007431   0  7072537   0"), blanks before the first
 * field and after the last, CRLF, runs of such lines and of lines of the
 * common shape mixed, docnos of mixed widths in and out of order, long
 * docnos; and when bad, lines of 3 or 5 fields, a bad grade, a comment, a
 * NUL or control byte, a blank line among them. */
static size_t make_blank_runs(gen *g, char *out, size_t lines, int bad)
{
    unsigned topic = 1 + (unsigned)below(g, 50), doc = 1000000 + (unsigned)below(g, 9000000);
    int odd = 1;
    size_t n = 0;
    for (size_t i = 0; i < lines; i++) {
        char q[32], d[80], grade[8];
        const char *gr = below(g, 3) ? "0" : below(g, 2) ? "Q0" : "1";
        size_t dl;
        if (below(g, 40) == 0)
            odd = !odd; /* a run of the other kind */
        if (below(g, 80) == 0)
            topic++;
        if (below(g, 300) == 0)
            topic -= 2;
        doc = below(g, 10) ? doc + 1 + (unsigned)below(g, 5000) : doc - (unsigned)below(g, 90000);
        if (below(g, 4) == 0)
            doc = below(g, 2) ? doc % 10000000u : doc % 100000000u + 10000000u; /* 7 or 8 digits */
        sprintf(q, "CD%06u", topic);
        dl = (size_t)sprintf(d, "%u", doc);
        if (below(g, 100) == 0) { /* a long docno */
            size_t w = 20 + below(g, 60);
            memset(d + dl, 'x', w - dl);
            dl = w;
            d[dl] = '\0';
        }
        {
            uint64_t k = below(g, 100);
            if (k == 0)
                strcpy(grade, "12");
            else if (k == 1)
                strcpy(grade, "-1");
            else if (k == 2 && bad)
                strcpy(grade, "1x");
            else
                sprintf(grade, "%u", (unsigned)below(g, 3));
        }
        if (odd && below(g, 4) == 0)
            n += blanks(g, out + n, 0); /* leading blanks */
        if (bad && below(g, 200) == 0) {
            uint64_t k = below(g, 6);
            static const char *const odds[] = {"# c 0 d 1", "", " \t ", "a b c", "a b c d e"};
            if (k < 5) {
                n += (size_t)sprintf(out + n, "%s\n", odds[k]);
                continue;
            }
            d[dl / 2] = below(g, 2) ? '\x01' : '\0';
        }
        n += (size_t)sprintf(out + n, "%s", q);
        n += blanks(g, out + n, !odd);
        n += (size_t)sprintf(out + n, "%s", gr);
        n += blanks(g, out + n, !odd);
        memcpy(out + n, d, dl);
        n += dl;
        n += blanks(g, out + n, !odd);
        n += (size_t)sprintf(out + n, "%s", grade);
        if (odd && below(g, 4) == 0)
            n += blanks(g, out + n, 0); /* trailing blanks */
        n += (size_t)sprintf(out + n, "%s", below(g, 10) ? "\n" : "\r\n");
    }
    return n;
}

static void test_blank_runs(void **state)
{
    (void)state;
    check_made(make_blank_runs, 4242, 100, 3000, 160);
}

/* Runs of lines of one prefix (topic id, group, their separators) whose
 * docnos change width from line to line (as CLEF TAR's
 * train.clef2017.qrels mixes 7- and 8-digit PubMed ids: the loop for one
 * prefix and varied docnos, varied_body): docnos of 1-34 bytes, around 31
 * and 32 now and then, in and out of order, equal to the last; a space or
 * tab before the grade; and now and then a grade of two digits or a
 * minus, CRLF, a trailing blank, another topic or group, and when bad a
 * control byte in a docno, an empty field or no separator before the
 * docno (the group and docno one field: three fields). */
static size_t make_varied_runs(gen *g, char *out, size_t lines, int bad)
{
    static const char *const groups[] = {"0", "Q0", "1", "it12"};
    unsigned topic = 1 + (unsigned)below(g, 50), gi = 0, tw = 2 + (unsigned)below(g, 10);
    unsigned long doc = 1000 + below(g, 90000000);
    size_t n = 0;
    int ordered = below(g, 3) == 0; /* docnos in order but now and then: in_order kept or dropped */
    unsigned long ord = 100000;
    for (size_t i = 0; i < lines; i++) {
        char q[40], d[80];
        size_t dl;
        const char *end = below(g, 50) ? "\n" : below(g, 2) ? "\r\n" : " \n";
        if (below(g, 100) == 0)
            topic++;
        if (!ordered && below(g, 200) == 0)
            tw = 1 + (unsigned)below(g, 16); /* a prefix up to 16 bytes long and past it */
        if (below(g, 150) == 0)
            gi = (unsigned)below(g, 4);
        doc = below(g, 8) ? doc + below(g, 3000) : doc - below(g, 5000);
        sprintf(q, "T%030u", topic);
        memmove(q, q + 31 - tw, tw + 1);
        /* 7 and 8 digits mixed; or (ordered) 6 digits counting up, now and then
         * down, and 0-12 letters: widths that change, in strcmp order */
        if (ordered) {
            ord = below(g, 1000) ? ord + 1 : ord - 2;
            dl = (size_t)sprintf(d, "%06lu%.*s", ord, (int)below(g, 13), "abcdefghijkl");
        } else {
            dl = (size_t)sprintf(d, "%lu", below(g, 3) ? doc % 10000000ul : doc);
        }
        if (!ordered && below(g, 20) == 0) { /* another width: 1 to 34 bytes, 31 and 32 often */
            size_t w = below(g, 2) ? 30 + below(g, 4) : 1 + below(g, 34);
            if (w > dl)
                memset(d + dl, 'y', w - dl);
            dl = w;
            d[dl] = '\0';
        }
        if (bad && below(g, 150) == 0)
            d[below(g, dl)] = below(g, 2) ? '\x01' : '\x7f';
        n += (size_t)sprintf(out + n, "%s %s%s%s%s", q, groups[gi], bad && below(g, 40) == 0 ? "x" : "\t", d,
                             bad && below(g, 200) == 0 ? "\x01" : below(g, 3) ? "\t" : " ");
        if (bad && below(g, 300) == 0)
            out[n++] = ' '; /* an empty field */
        n += (size_t)sprintf(out + n, "%s%s", below(g, 60) ? (below(g, 5) ? "0" : "1") : below(g, 2) ? "10" : "-2",
                             end);
    }
    return n;
}

static void test_varied_runs(void **state)
{
    (void)state;
    check_made(make_varied_runs, 777, 100, 3000, 96);
}

/* Lines in columns as CLEF TAR's qrel_abs_test.txt writes them
 * ("CD007431     0  7072537      0  "): the docno left-aligned in its
 * column, spaces up to the grade's (the loop for lines in columns,
 * padded_lines), runs of one layout and others; now and then a docno that
 * fills its column, a tab or other blank in the padding, a grade of two
 * digits or a minus, a longer line, CRLF, another topic; when bad a docno
 * that runs into the grade, a control byte or a 5th field. */
static size_t make_column_runs(gen *g, char *out, size_t lines, int bad)
{
    unsigned topic = 1 + (unsigned)below(g, 50), pad1 = 5, pad2 = 2, colw = 14, tail = 2;
    unsigned long doc = 1000000 + below(g, 9000000);
    size_t n = 0;
    int ordered = below(g, 3) == 0; /* topics and docnos in order: the reader's in_order kept */
    for (size_t i = 0; i < lines; i++) {
        char d[80], line[200];
        size_t dl, k = 0;
        if (below(g, 100) == 0)
            topic++;
        if (below(g, 300) == 0) { /* another layout */
            pad1 = 1 + (unsigned)below(g, 6);
            pad2 = 1 + (unsigned)below(g, 3);
            colw = 2 + (unsigned)below(g, 36);
            tail = (unsigned)below(g, 4);
        }
        doc = ordered ? doc + 1 + below(g, 500) : below(g, 6) ? doc + below(g, 50000) : doc - below(g, 50000);
        dl = (size_t)sprintf(d, "%lu", ordered ? doc : below(g, 3) ? doc % 10000000ul : doc % 100000000ul);
        if (!ordered && below(g, 40) == 0) { /* 1 byte up to the column's width */
            dl = 1 + below(g, colw);
            memset(d, 'z', dl);
            d[dl] = '\0';
        }
        if (dl >= colw && !bad) /* a docno that would run into the grade */
            dl = colw - 1;
        k += (size_t)sprintf(line + k, "CD%06u%*s0%*s", topic, (int)pad1, "", (int)pad2, "");
        memcpy(line + k, d, dl);
        memset(line + k + dl, ' ', colw > dl ? colw - dl : 0);
        if (colw > dl + 1 && below(g, 80) == 0)
            line[k + dl + below(g, colw - dl)] = "\t\v\f\r"[below(g, 4)];
        if (bad && below(g, 200) == 0)
            line[k + below(g, colw > dl ? colw : dl)] = '\x02';
        k += colw > dl ? colw : dl;
        k += (size_t)sprintf(line + k, "%s%*s%s%s", below(g, 80) ? (below(g, 10) ? "0" : "1") : below(g, 2) ? "11" : "-1",
                             (int)tail, "", bad && below(g, 300) == 0 ? " x" : "", below(g, 40) ? "\n" : "\r\n");
        memcpy(out + n, line, k);
        n += k;
    }
    return n;
}

static void test_column_runs(void **state)
{
    (void)state;
    check_made(make_column_runs, 2024, 100, 3000, 96);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_runs),
        cmocka_unit_test(test_blank_runs),
        cmocka_unit_test(test_varied_runs),
        cmocka_unit_test(test_column_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
