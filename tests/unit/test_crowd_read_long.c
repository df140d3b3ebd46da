/* Crowd label file reader, lines whose task is longer than a key
 * (src/crowd/crowd_read_long.c): random files of URL-like, "topic_docno"
 * and other long task names, some alike in their first bytes or of the
 * same length, grouped by task and coming back, with short tasks, new and
 * long workers, classes of one byte and of words, tabs, blanks and CR LF,
 * and lines of other shapes among them. Each file is read and compared
 * with the same labels added one by one through qk_crowd_labels_add (the
 * general interning, no file): the same tasks, workers, classes, labels
 * in order, counts and duplicate handling; with declared classes and
 * dropped labels, and the line of a repeated pair under the error
 * policy. Files listed by worker as well (tasks coming back on nearly
 * every line), and files of more workers than the loop's worker cache
 * holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/crowd.h"

#include "crowd_file_fixture.h"

enum { NAME = 400 };

/* A file and the labels it holds, in order, with each label's line. */
struct file {
    char *text;
    size_t n, cap;
    char (*trip)[3][NAME];
    long *line;
    size_t nt, trip_cap;
    long lines;
};

static unsigned rnd(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 8;
}

static void put(struct file *f, const char *s)
{
    size_t len = strlen(s);
    if (f->n + len + 1 > f->cap) {
        f->cap = 2 * (f->n + len) + 4096;
        f->text = realloc(f->text, f->cap);
    }
    memcpy(f->text + f->n, s, len);
    f->n += len;
    for (const char *p = s; (p = strchr(p, '\n')) != NULL; p++)
        f->lines++;
}

/* The label (task, worker, cls) of the line just written. */
static void keep(struct file *f, const char *task, const char *worker, const char *cls)
{
    if (f->nt == f->trip_cap) {
        f->trip_cap = 2 * f->trip_cap + 64;
        f->trip = realloc(f->trip, f->trip_cap * sizeof *f->trip);
        f->line = realloc(f->line, f->trip_cap * sizeof *f->line);
    }
    snprintf(f->trip[f->nt][0], NAME, "%s", task);
    snprintf(f->trip[f->nt][1], NAME, "%s", worker);
    snprintf(f->trip[f->nt][2], NAME, "%s", cls);
    f->line[f->nt] = f->lines + (f->n && f->text[f->n - 1] != '\n'); /* the last line: no newline */
    f->nt++;
}

/* Task t's name: most longer than 16 bytes, some alike in their first 16
 * or 32 bytes or of one length, some of 16 bytes or fewer. */
static void task_name(char *s, unsigned t)
{
    switch (t % 7) {
    case 0:
        snprintf(s, NAME, "http://www.mturk-tracker.com/hit/%08x%08x%08x%08x/", t * 2654435761u, t, ~t,
                 t * 7u);
        break;
    case 1: snprintf(s, NAME, "%05u_clueweb09-en%04u-%02u-%05u", 20000 + t % 50, t % 9999, t % 97, t); break;
    case 2: /* alike up to their last bytes, of many lengths */
        snprintf(s, NAME, "http://%0*u", (int)(10 + t % 290), t);
        break;
    case 3:
        snprintf(s, NAME, "t%u", t); /* a short task */
        break;
    case 4: /* 17 bytes, some alike in their first 16 */ snprintf(s, NAME, "task-name-%07u", t); break;
    case 5: /* alike in their first 32 bytes, the same length */
        snprintf(s, NAME, "http://same-prefix.example.org/x%06u", t);
        break;
    default: snprintf(s, NAME, "http://%u.cc", t);
    }
}

/* Worker wk's name: of 1-16 bytes, one word or two (the 16-byte ones
 * alike in their first 8 bytes), some of UTF-8 bytes. */
static void worker_name(char *s, unsigned wk)
{
    switch (wk % 5) {
    case 0: snprintf(s, NAME, "w%u", wk); break;
    case 1:
        snprintf(s, NAME, "worker-00%07u", wk); /* 16 bytes */
        break;
    case 2:
        snprintf(s, NAME, "A1%012uXZ", wk * 7919u); /* two words */
        break;
    case 3:
        snprintf(s, NAME, "\xc3\xa9%u", wk); /* UTF-8 bytes */
        break;
    default: snprintf(s, NAME, "%u", 100000 + wk);
    }
}

/* A random file of nlab labels of ntask tasks, nwork known workers and
 * the classes cls[0..ncls); unknown: a class line now and then outside
 * them (for declared classes); distinct: no worker labels a task twice
 * (while no task has more than nwork labels), and every line of the
 * common shape (one blank or tab between fields). */
static void make_file(struct file *f, unsigned seed, size_t nlab, unsigned ntask, unsigned nwork,
                      const char *const *cls, size_t ncls, int unknown, int distinct)
{
    unsigned *count = calloc(ntask, sizeof *count);
    static const char *const seps[] = {"\t", "\t", "\t", "\t", " ", "\t \t"};
    char task[NAME], worker[NAME], line[3 * NAME];
    unsigned t = 0, next = 1, left = 0;
    put(f, "task\tworker\tlabel\n");
    for (size_t i = 0; i < nlab; i++) {
        unsigned r = rnd(&seed) % 1000, wk = rnd(&seed) % nwork;
        const char *c = cls[rnd(&seed) % ncls], *s1 = seps[rnd(&seed) % (distinct ? 5 : 6)],
                   *s2 = seps[rnd(&seed) % (distinct ? 5 : 6)];
        const char *end = rnd(&seed) % 10 ? "\n" : "\r\n";
        /* labels of a task together, a task coming back now and then */
        if (left == 0) {
            t = rnd(&seed) % 10 == 0 ? rnd(&seed) % next : next < ntask ? next++ : rnd(&seed) % ntask;
            left = 1 + rnd(&seed) % 9;
        }
        left--;
        if (distinct) /* and no line of another shape, which starts a new run of lines */
            wk = count[t]++ % nwork, r %= 985;
        task_name(task, t);
        worker_name(worker, wk);
        if (unknown && r % 53 == 0)
            c = "unknown-class";
        if (r < 985) {
            snprintf(line, sizeof line, "%s%s%s%s%s%s", task, s1, worker, s2, c, end);
            put(f, line);
            keep(f, task, worker, c);
            continue;
        }
        /* a line of another shape */
        switch (r - 985) {
        case 0: put(f, "# a comment\n"); break;
        case 1: put(f, "\n"); break;
        case 2: /* a new, long worker */
            snprintf(line, sizeof line, "%s\tworker-of-more-than-16-%u\t%s\n", task, wk, c);
            snprintf(worker, sizeof worker, "worker-of-more-than-16-%u", wk);
            put(f, line);
            keep(f, task, worker, c);
            break;
        case 3: /* a long class */
            if (unknown)
                break;
            snprintf(line, sizeof line, "%s\t%s\tclass-of-more-than-16\n", task, worker);
            put(f, line);
            keep(f, task, worker, "class-of-more-than-16");
            break;
        case 4: /* four fields: topic docno worker label */
            snprintf(line, sizeof line, "%s\tdoc%u\t%s\t%s\n", task, wk, worker, c);
            put(f, line);
            snprintf(line, sizeof line, "%s doc%u", task, wk);
            keep(f, line, worker, c);
            break;
        case 5: /* blanks around the fields, CR CR LF, a vertical tab */
            snprintf(line, sizeof line, " %s\t%s \t%s\r\r\n", task, worker, c);
            put(f, line);
            keep(f, task, worker, c);
            break;
        case 6:
            snprintf(line, sizeof line, "%s\v\t%s\t%s\n", task, worker, c);
            put(f, line);
            keep(f, task, worker, c);
            break;
        case 7: /* a new worker of the known shape */
            snprintf(worker, sizeof worker, "n%u", (unsigned)i);
            snprintf(line, sizeof line, "%s\t%s\t%s\n", task, worker, c);
            put(f, line);
            keep(f, task, worker, c);
            break;
        default: /* a task of 300-390 bytes */
            memset(task, 'x', 300 + r % 80);
            snprintf(task + 300 + r % 80, NAME - 380, "%u", t);
            snprintf(line, sizeof line, "%s\t%s\t%s\n", task, worker, c);
            put(f, line);
            keep(f, task, worker, c);
        }
    }
    free(count);
    /* the last line without its newline */
    task_name(task, 0);
    snprintf(line, sizeof line, "%s\t%s\t%s", task, distinct ? "wlast" : "w0", cls[0]);
    put(f, line);
    keep(f, task, distinct ? "wlast" : "w0", cls[0]);
}

/* Read f's text under o and compare with its labels added one by one. */
static void check_file(const struct file *f, const qk_crowd_read_opts *o)
{
    qk_crowd_read_stats rs, rs2 = {0};
    qk_crowd_labels *L = NULL, *R = qk_crowd_labels_new();
    qk_error err = {0};
    size_t dropped = 0;
    char *p = crowd_write_tmp(f->text, f->n);
    assert_int_equal(crowd_read_file(p, o, &L, &rs, &err), QK_OK);
    unlink(p);
    if (o->classes)
        assert_int_equal(qk_crowd_labels_set_classes(R, o->classes, o->n_classes, NULL), QK_OK);
    for (size_t i = 0; i < f->nt; i++) {
        size_t k;
        for (k = 0; o->classes && k < o->n_classes && strcmp(o->classes[k], f->trip[i][2]) != 0; k++)
            ;
        if (o->classes && k == o->n_classes) {
            dropped++;
            continue;
        }
        assert_int_equal(qk_crowd_labels_add(R, f->trip[i][0], f->trip[i][1], f->trip[i][2], NULL), QK_OK);
    }
    assert_int_equal(qk_crowd_labels_finish(R, o->duplicates, &rs2, NULL), QK_OK);
    assert_int_equal(rs.rows, f->nt);
    assert_int_equal(rs.dropped_unknown, dropped);
    crowd_assert_read_as_added(L, R, &rs, &rs2);
}

static void free_file(struct file *f)
{
    free(f->text);
    free(f->trip);
    free(f->line);
}

/* Random files under each duplicate policy but the error one. */
static void test_long_random(void **state)
{
    static const char *const digits[] = {"0", "1"}, *const words[] = {"No", "Yes", "relevant-16bytes"};
    (void)state;
    for (unsigned round = 0; round < 6; round++) {
        struct file f = {0};
        int w = round % 2;
        make_file(&f, 17 + round, 12000 + 2000 * round, 300 + 400 * round, 40 + 30 * round,
                  w ? words : digits, w ? 3 : 2, 0, 0);
        for (int d = QK_CROWD_DUP_KEEP; d <= QK_CROWD_DUP_DROP_CONFLICTS; d++) {
            qk_crowd_read_opts o = {.duplicates = (qk_crowd_dup)d};
            check_file(&f, &o);
        }
        free_file(&f);
    }
}

/* A random file listed by worker, as trec2011: each worker labels a run
 * of 1-80 tasks drawn from all of them (so tasks come back, and a worker
 * may label a task twice), in stretches of task names that make lines
 * under 64 bytes, of 64 bytes or more, and of both; CR LF, blanks and a
 * line of another shape now and then. */
static void make_by_worker(struct file *f, unsigned seed, size_t nlab, unsigned ntask, unsigned nwork)
{
    static const char *const cls[] = {"0", "1", "2"};
    char task[NAME], worker[NAME], line[3 * NAME];
    size_t i = 0;
    put(f, "task\tworker\tlabel\n");
    while (i < nlab) {
        unsigned wk = rnd(&seed) % nwork, run = 1 + rnd(&seed) % 80, stretch = (unsigned)(i / 2500) % 3;
        worker_name(worker, wk);
        for (unsigned k = 0; k < run && i < nlab; k++, i++) {
            unsigned t = rnd(&seed) % ntask, r = rnd(&seed) % 200;
            const char *c = cls[rnd(&seed) % 3], *end = r % 13 ? "\n" : "\r\n", *sep = r % 17 ? "\t" : " ";
            if (stretch == 0) /* 31 bytes: lines of 40-50 */
                task_name(task, t * 7 + 1);
            else if (stretch == 1) /* 66 bytes and more */
                task_name(task, t * 7);
            else
                task_name(task, t);
            if (r == 0) {
                put(f, "# a comment\n");
                continue;
            }
            if (r == 1) { /* a new worker, through the general way */
                snprintf(line, sizeof line, "%s\tnew%u\t%s\n", task, (unsigned)i, c);
                put(f, line);
                snprintf(line, sizeof line, "new%u", (unsigned)i);
                keep(f, task, line, c);
                continue;
            }
            snprintf(line, sizeof line, "%s%s%s%s%s%s", task, sep, worker, sep, c, end);
            put(f, line);
            keep(f, task, worker, c);
        }
    }
}

/* Files listed by worker: tasks come back (the long-task table, the
 * worker of the line before tried first), lines under 64 bytes and
 * longer in stretches (the loop's copies change between calls). */
static void test_long_by_worker(void **state)
{
    (void)state;
    for (unsigned round = 0; round < 4; round++) {
        struct file f = {0};
        make_by_worker(&f, 7 + round, 15000 + 5000 * round, 400 + 900 * round, 30 + 60 * round);
        for (int d = QK_CROWD_DUP_KEEP; d <= QK_CROWD_DUP_DROP_CONFLICTS; d++) {
            qk_crowd_read_opts o = {.duplicates = (qk_crowd_dup)d};
            check_file(&f, &o);
        }
        free_file(&f);
    }
}

/* More workers than the loop's worker cache has entries (so that they
 * share entries and replace each other): files listed by worker, which
 * ask the cache whenever the worker changes, and by task, where the
 * worker changes on nearly every line. */
static void test_long_many_workers(void **state)
{
    static const char *const digits[] = {"0", "1"};
    (void)state;
    for (unsigned round = 0; round < 2; round++) {
        struct file f = {0}, g = {0};
        make_file(&f, 41 + round, 40000, 1500, 2500 + 2000 * round, digits, 2, 0, 0);
        make_by_worker(&g, 43 + round, 30000, 3000, 3000 + 2000 * round);
        for (int d = QK_CROWD_DUP_KEEP; d <= QK_CROWD_DUP_DROP_CONFLICTS; d += 2) {
            qk_crowd_read_opts o = {.duplicates = (qk_crowd_dup)d};
            check_file(&f, &o);
            check_file(&g, &o);
        }
        free_file(&f);
        free_file(&g);
    }
}

/* Declared classes, a label outside them now and then: dropped and
 * counted, and the lines after it still of their own line. */
static void test_long_declared(void **state)
{
    static const char *const cls[] = {"No", "Yes"};
    struct file f = {0};
    qk_crowd_read_opts o = {.classes = cls, .n_classes = 2, .drop_unknown = 1};
    (void)state;
    make_file(&f, 99, 30000, 2000, 70, cls, 2, 1, 0);
    check_file(&f, &o);
    free_file(&f);
}

/* The error policy: a file where no worker labels a task twice, but for
 * the last line, which repeats the pair of a label in its middle: the
 * message names both lines, after lines that went both ways (dropped
 * labels, of a class not declared, and new workers among them). */
static void test_long_error_line(void **state)
{
    static const char *const cls[] = {"0", "1"};
    struct file f = {0};
    qk_crowd_read_opts o = {
        .classes = cls, .n_classes = 2, .drop_unknown = 1, .duplicates = QK_CROWD_DUP_ERROR};
    qk_crowd_labels *L = NULL;
    qk_error err = {0};
    char line[3 * NAME], want[64];
    size_t j;
    (void)state;
    make_file(&f, 5, 6000, 1500, 60, cls, 2, 1, 1);
    for (j = f.nt / 2; strcmp(f.trip[j][2], "unknown-class") == 0; j++)
        ;
    snprintf(line, sizeof line, "\n%s\t%s\t1\n", f.trip[j][0], f.trip[j][1]);
    put(&f, line);
    char *p = crowd_write_tmp(f.text, f.n);
    assert_int_equal(crowd_read_file(p, &o, &L, NULL, &err), QK_EINPUT);
    unlink(p);
    assert_int_equal(err.line, f.lines);
    snprintf(want, sizeof want, "(first on line %ld)", f.line[j]);
    assert_non_null(strstr(err.message, want));
    free_file(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_random),       cmocka_unit_test(test_long_by_worker),
        cmocka_unit_test(test_long_many_workers), cmocka_unit_test(test_long_declared),
        cmocka_unit_test(test_long_error_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
