/* Crowd label file reader (src/crowd/crowd_read.c): the loop that adds
 * the common lines straight from the window (three fields of 1-16 bytes,
 * one separator, known worker and class) and every line it leaves to the
 * splitter's batch and the general path. Each file is checked against the
 * same labels added one by one through qk_crowd_labels_add (the general
 * interning, no file): the same tasks, workers, classes, grouping, labels
 * and counts. The files are written so that long runs of lines take the
 * window loop, and each run ends in a line of another shape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "qrelkit/crowd.h"

#include "crowd_file_fixture.h"

/* One label line: task, sep, worker, sep, label, end; the label kept. */
static void label(struct crowd_file *f, const char *task, const char *sep, const char *worker,
                  const char *cls, const char *end)
{
    char line[256];
    int len = snprintf(line, sizeof line, "%s%s%s%s%s%s", task, sep, worker, sep, cls, end);
    crowd_file_put(f, line, (size_t)len);
    crowd_file_keep(f, task, worker, cls);
}

/* Read f's text and compare with its labels added one by one. */
static void check_file(struct crowd_file *f, qk_crowd_dup dup)
{
    qk_crowd_read_opts o = {.duplicates = dup};
    qk_crowd_read_stats rs, rs2 = {0};
    qk_crowd_labels *L = NULL, *R = qk_crowd_labels_new();
    qk_error err = {0};
    char *p = crowd_write_tmp(f->text, f->n);
    assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_OK);
    for (size_t i = 0; i < f->nt; i++)
        assert_int_equal(qk_crowd_labels_add(R, f->trip[i][0], f->trip[i][1], f->trip[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(R, dup, &rs2, NULL), QK_OK);
    assert_int_equal(rs.rows, f->nt);
    crowd_assert_read_as_added(L, R, &rs, &rs2);
    unlink(p);
}

/* Runs of 400 lines in one shape each (after 300 lines that teach the
 * reader 60 workers), each run broken in its middle by one line of
 * another kind. */
static void test_window_runs(void **state)
{
    /* separator, line end, worker and class formats of each run */
    static const struct {
        const char *sep, *end, *worker, *cls[2];
    } runs[] = {
        {"\t", "\n", "w%03u", {"0", "1"}},
        {" ", "\n", "w%03u", {"0", "1"}},
        {"\t", "\r\n", "w%03u", {"0", "1"}},
        {" ", "\r\n", "w%03u", {"1", "0"}},
        {"\t", "\n", "worker-%05u", {"yes", "no"}},                     /* 12-byte workers, words */
        {"\t", "\n", "worker-000000%03u", {"relevant-16bytes", "0"}},   /* 16 bytes each */
        {"\t", "\n", "worker-0000000%03u", {"1", "relevant-17-bytes"}}, /* 17: the general way */
        {"\t", "\n", "w\xc3\xa9%03u", {"\xc3\xa9t\xc3\xa9", "1"}},      /* UTF-8 bytes */
    };
    /* what breaks each run: every kind of line the window loop leaves,
     * with the label it holds (task from %u, worker, class; none: NULL) */
    static const struct {
        const char *line, *task, *worker, *cls;
    } breaks[] = {
        {"# a comment\n", NULL, NULL, NULL},
        {"\n", NULL, NULL, NULL},
        {"t%05u\t\tw001\t1\n", "t%05u", "w001", "1"},            /* two separators */
        {"t%05u\tw001\t1\textra\n", "t%05u w001", "1", "extra"}, /* four fields: topic docno worker label */
        {"t%05u\tw001 \t1\n", "t%05u", "w001", "1"},             /* a blank before the separator */
        {"t%05u\tw001\t1\r\r\n", "t%05u", "w001", "1"},          /* CR CR LF */
        {"t%05u\tw001\v\t1\n", "t%05u", "w001", "1"},            /* a vertical tab */
        {"t%05u\tw999\t1\n", "t%05u", "w999", "1"},              /* a new worker */
        {"t%05u\tw001\t7\n", "t%05u", "w001", "7"},              /* a new class */
        {"task-name-17bytes\tw001\t1\n", "task-name-17bytes", "w001", "1"},
        {"t%05u\t\xc3\xa9\t1\n", "t%05u", "\xc3\xa9", "1"}, /* a new worker of UTF-8 bytes */
        {"#c%05u\tw001\t1\n", NULL, NULL, NULL},            /* a comment of the run's shape */
        {"task-name-17byteA\tw001\t1\ntask-name-17byteB\tw002\t1\n", "task-name-17byteA", "w001", "1"},
        {"t00003\tw001\t0\n", "t00003", "w001", "0"}, /* a task back: ungrouped from here */
    };
    struct crowd_file f = {0};
    char task[48], worker[48], line[128];
    unsigned t = 0, seed = 7;
    (void)state;
    /* every worker and class of the runs first, so that each run takes
     * the window loop up to its break */
    crowd_file_put(&f, "task\tworker\tlabel\n", 18);
    for (size_t s = 0; s < sizeof runs / sizeof *runs; s++)
        for (unsigned i = 0; i < 60; i++, t += i % 5 == 0) {
            snprintf(task, sizeof task, "t%05u", t);
            snprintf(worker, sizeof worker, runs[s].worker, i);
            label(&f, task, "\t", worker, runs[s].cls[i % 2], "\n");
        }
    for (size_t r = 0; r < sizeof breaks / sizeof *breaks; r++) {
        size_t s = r % (sizeof runs / sizeof *runs);
        for (unsigned i = 0; i < 400; i++, t += i % 7 == 0) {
            seed = seed * 1103515245u + 12345u;
            snprintf(task, sizeof task, "t%05u", t);
            snprintf(worker, sizeof worker, runs[s].worker, (seed >> 8) % 60);
            label(&f, task, runs[s].sep, worker, runs[s].cls[(seed >> 20) & 1], runs[s].end);
            if (i != 200)
                continue;
            crowd_file_put(&f, line, (size_t)snprintf(line, sizeof line, breaks[r].line, t));
            if (breaks[r].task) {
                snprintf(task, sizeof task, breaks[r].task, t);
                crowd_file_keep(&f, task, breaks[r].worker, breaks[r].cls);
            }
            if (strstr(breaks[r].line, "17byteB")) /* two tasks alike in their first 16 bytes */
                crowd_file_keep(&f, "task-name-17byteB", "w002", "1");
        }
    }
    /* the last line without its newline */
    label(&f, "t99999", "\t", "w002", "1", "");
    check_file(&f, QK_CROWD_DUP_KEEP);
    check_file(&f, QK_CROWD_DUP_FIRST);
    free(f.text);
    free(f.trip);
}

/* The same file through gzip: the window is the decompressed buffer, read
 * in pieces, so that runs end at the window's end as well. */
static void test_window_gzip(void **state)
{
    struct crowd_file f = {0};
    char task[48], worker[48], p[64];
    qk_crowd_read_opts o = {.duplicates = QK_CROWD_DUP_KEEP};
    qk_crowd_labels *L = NULL, *R = NULL;
    qk_error err = {0};
    const size_t *off, *off2;
    const uint32_t *w, *c, *w2, *c2;
    (void)state;
    for (unsigned i = 0; i < 60000; i++) {
        snprintf(task, sizeof task, "t%06u", i / 6);
        snprintf(worker, sizeof worker, "w%04u", (i * 7919u) % 997u);
        label(&f, task, "\t", worker, i % 3 ? "1" : "0", "\n");
    }
    strcpy(p, "/tmp/qk_crowd_read_XXXXXX");
    int fd = mkstemp(p);
    assert_true(fd >= 0);
    close(fd);
    char *gz = malloc(strlen(p) + 4);
    sprintf(gz, "%s.gz", p);
    gzFile z = gzopen(gz, "wb");
    assert_non_null(z);
    assert_int_equal(gzwrite(z, f.text, (unsigned)f.n), (int)f.n);
    gzclose(z);
    assert_int_equal(write(fd = open(p, O_WRONLY), f.text, f.n), (ssize_t)f.n);
    close(fd);
    assert_int_equal(crowd_read_file(gz, &o, &L, NULL, &err), QK_OK);
    assert_int_equal(crowd_read_file(p, &o, &R, NULL, &err), QK_OK);
    assert_int_equal(qk_crowd_num_labels(L), 60000);
    assert_int_equal(qk_crowd_num_tasks(L), 10000);
    assert_int_equal(qk_crowd_num_workers(L), qk_crowd_num_workers(R));
    for (size_t x = 0; x < qk_crowd_num_workers(L); x++)
        assert_string_equal(qk_crowd_worker_name(L, x), qk_crowd_worker_name(R, x));
    qk_crowd_csr(L, &off, &w, &c);
    qk_crowd_csr(R, &off2, &w2, &c2);
    assert_memory_equal(off, off2, 10001 * sizeof *off);
    assert_memory_equal(w, w2, 60000 * sizeof *w);
    assert_memory_equal(c, c2, 60000 * sizeof *c);
    qk_crowd_labels_free(L);
    qk_crowd_labels_free(R);
    check_file(&f, QK_CROWD_DUP_ERROR);
    unlink(gz);
    unlink(p);
    free(gz);
    free(f.text);
    free(f.trip);
}

/* Line numbers in messages after runs of the window loop: lines ended by
 * CR and newline, or by CR, CR and newline, a comment of the run's
 * shape; and a line of two fields
 * whose next line has one (together, three fields over two lines). */
static void test_window_line_numbers(void **state)
{
    static const char *const cls[] = {"0", "1"};
    static const char *const ends[] = {"\n", "\r\n"};
    struct crowd_file f = {0};
    char task[48], worker[48], want[256];
    qk_crowd_read_opts o = {.classes = cls, .n_classes = 2};
    qk_crowd_labels *L = NULL;
    qk_error err = {0};
    (void)state;
    for (int e = 0; e < 2; e++)
        for (int bad = 0; bad < 2; bad++) {
            char *p;
            f.n = f.nt = 0;
            for (unsigned i = 0; i < 900; i++) {
                snprintf(task, sizeof task, "t%05u", i / 4);
                snprintf(worker, sizeof worker, "w%03u", i % 50);
                label(&f, task, "\t", worker, i % 2 ? "1" : "0", ends[e]);
                if (i == 300)
                    crowd_file_put(&f, "t00075\tw001\t1\r\r\n", 16);
                if (i == 500)
                    crowd_file_put(&f, "#t00999\tw001\t1\n", 15);
            }
            /* line 903: an unknown class, or two fields and then one */
            const char *last = bad ? "t00999\tw001\n1\n" : "t00999\tw001\t2\n";
            crowd_file_put(&f, last, strlen(last));
            for (unsigned i = 0; i < 20; i++) /* the window loop's tail */
                crowd_file_put(&f, "t01000\tw002\t1\n", 15);
            p = crowd_write_tmp(f.text, f.n);
            assert_int_equal(crowd_read_file(p, &o, &L, NULL, &err), QK_EINPUT);
            if (bad)
                snprintf(want, sizeof want, "'%s' line 903: expected 3 fields (task worker label), found 2",
                         p);
            else
                snprintf(want, sizeof want, "'%s' line 903: label '2' is not one of the declared classes", p);
            assert_string_equal(err.message, want);
            unlink(p);
        }
    free(f.text);
    free(f.trip);
}

/* Workers of one word that differ in few bits, which the window loop finds
 * through the keymap's direct table (core/keymap.h): ids of 4 digits met
 * a few at a time (the table rebuilt as their bits grow), new ids of the
 * same shape amid runs of known ones, ids of another first letter, long
 * workers (found in the slots) in the same runs. Then, with late: a new
 * worker whose gathered bits are a known one's ("u0007": 'u' and 'w'
 * differ in a bit outside those gathered), one whose first five bytes are
 * a known one's ("w00007"; too many new bits: the table dropped, the
 * slots from there on) and one of many new bits; else a task back (the
 * grouping ends, so the window loop with it). */
static void test_window_direct(void **state)
{
    (void)state;
    for (int late = 0; late < 2; late++) {
        struct crowd_file f = {0};
        char task[48], worker[48];
        unsigned t = 0, seed = 11;
        crowd_file_put(&f, "task\tworker\tlabel\n", 18);
        for (unsigned i = 0; i < 12000; i++, t += i % 6 == 0) {
            /* 300 ids met in turn, then one more every 100 lines up to
             * line 6000, then only known ones */
            unsigned w = i < 3000 ? i % 300 : i < 6000 && i % 100 == 0 ? 300 + (i - 3000) / 100 : 0;
            seed = seed * 1103515245u + 12345u;
            if (i >= 3000 && !w)
                w = (seed >> 8) % (i < 6000 ? 300 + (i - 3000) / 100 : 330);
            snprintf(task, sizeof task, "t%06u", t);
            if (i % 53 == 0)
                snprintf(worker, sizeof worker, "worker-%06u", (seed >> 8) % 20);
            else if (i % 211 == 0)
                snprintf(worker, sizeof worker, "v%04u", (seed >> 8) % 30);
            else
                snprintf(worker, sizeof worker, "w%04u", w * 7);
            label(&f, task, "\t", worker, (seed >> 20) & 1 ? "1" : "0", "\n");
            if (late && i == 7000)
                label(&f, task, "\t", "u0007", "1", "\n");
            if (late && i == 8000)
                label(&f, task, "\t", "w00007", "1", "\n");
            if (late && i == 9000)
                label(&f, task, "\t", "zzzzzzzz", "1", "\n");
            if (!late && i == 9000)
                label(&f, "t000004", "\t", "w0007", "1", "\n");
        }
        check_file(&f, QK_CROWD_DUP_KEEP);
        check_file(&f, QK_CROWD_DUP_FIRST);
        free(f.text);
        free(f.trip);
    }
}

/* More than 2^16 workers of one word in the direct table: its entries
 * become 4 bytes once an id passes 0xFFFF, and every worker is found in
 * the runs after that. The ids are 4 bytes of 3 + 5 + 5 + 5 bits. */
static void test_window_direct_many(void **state)
{
    struct crowd_file f = {0};
    char task[48], worker[8] = {0};
    unsigned seed = 5;
    (void)state;
    for (unsigned i = 0; i < 140000; i++) {
        unsigned w = i < 70000 ? i : (seed = seed * 1103515245u + 12345u) >> 8 & 0x3FFFF;
        if (w >= 70000)
            w -= 70000 * (w / 70000);
        worker[0] = (char)(0x40 + (w & 7));
        worker[1] = (char)(0x40 + (w >> 3 & 31));
        worker[2] = (char)(0x40 + (w >> 8 & 31));
        worker[3] = (char)(0x40 + (w >> 13 & 31));
        snprintf(task, sizeof task, "t%06u", i / 7);
        label(&f, task, "\t", worker, w % 3 ? "1" : "0", "\n");
    }
    check_file(&f, QK_CROWD_DUP_KEEP);
    free(f.text);
    free(f.trip);
}

/* Task i's name: 37-327 bytes, longer than a key (16 bytes), some longer
 * than the last task's copy (256); the first 100 of one length, all
 * alike in their first 32 bytes */
static void long_task_name(char *s, size_t cap, unsigned i)
{
    unsigned pad = i < 100 ? 20 : i * 37 % 290;
    int n = snprintf(s, cap, "http://example.org/clueweb09-en-%05u", i);
    memset(s + n, 'a' + (char)(i % 26), pad);
    s[n + pad] = '\0';
}

/* Long task names, first grouped (each task's labels together), then
 * coming back out of order, among new ones: every task's labels, in file
 * order, are the lines that name it (checked from the text, not through
 * the labels' own interning). */
static void test_long_tasks(void **state)
{
    enum { LABELS = 6000, TASKS = 300 };
    static char text[LABELS * 340];
    static unsigned task_of[LABELS], worker_of[LABELS];
    char name[400];
    size_t n = 0;
    qk_crowd_labels *L = NULL;
    qk_error err = {0};
    const size_t *off;
    const uint32_t *w, *c;
    (void)state;
    n += (size_t)snprintf(text + n, sizeof text - n, "task\tworker\tlabel\n");
    for (unsigned i = 0; i < LABELS; i++) {
        /* 1,000 labels of tasks 0-199, 5 a task; then tasks 0-299 in a
         * stride of 7, 5 labels at a time */
        unsigned t = i < 1000 ? i / 5 : (i / 5 * 7) % TASKS;
        task_of[i] = t;
        worker_of[i] = i < 1000 ? i % 5 : 5 + i / 5 % 40 * 5 + i % 5;
        long_task_name(name, sizeof name, t);
        n += (size_t)snprintf(text + n, sizeof text - n, "%s\tw%03u\t%u\n", name, worker_of[i], i % 3 == 0);
    }
    char *p = crowd_write_tmp(text, n);
    assert_int_equal(crowd_read_file(p, NULL, &L, NULL, &err), QK_OK);
    unlink(p);
    assert_int_equal(qk_crowd_num_labels(L), LABELS);
    assert_int_equal(qk_crowd_num_tasks(L), TASKS);
    qk_crowd_csr(L, &off, &w, &c);
    for (unsigned t = 0; t < TASKS; t++) {
        size_t id, k;
        char wn[8];
        long_task_name(name, sizeof name, t);
        assert_true(qk_crowd_find_task(L, name, &id));
        assert_string_equal(qk_crowd_task_name(L, id), name);
        k = off[id];
        for (unsigned i = 0; i < LABELS; i++)
            if (task_of[i] == t) {
                assert_true(k < off[id + 1]);
                snprintf(wn, sizeof wn, "w%03u", worker_of[i]);
                assert_string_equal(qk_crowd_worker_name(L, w[k]), wn);
                assert_string_equal(qk_crowd_class_name(L, c[k]), i % 3 == 0 ? "1" : "0");
                k++;
            }
        assert_int_equal(k, off[id + 1]);
    }
    qk_crowd_labels_free(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_runs),         cmocka_unit_test(test_window_gzip),
        cmocka_unit_test(test_window_line_numbers), cmocka_unit_test(test_window_direct),
        cmocka_unit_test(test_window_direct_many),  cmocka_unit_test(test_long_tasks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
