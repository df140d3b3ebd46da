/* Crowd label file reader, lines of one layout (src/crowd/crowd_read_fixed.c):
 * qk_crowd_add_fixed takes every line of the first line's layout whose
 * worker and class are known, and stops at the first other line (a
 * worker of the same length outside the direct table's shared bits, a
 * class of one byte not known, another length of task or worker, another
 * separator or line end, a comment); and random files whose layout
 * changes in stretches (tasks of 1-16 bytes, workers of 1-9, LF or CR LF,
 * tabs or blanks, lines of other shapes among them), read and compared
 * with the same labels added one by one through qk_crowd_labels_add. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crowd/crowd_read_add.h"
#include "qrelkit/core.h"
#include "qrelkit/crowd.h"

#include "crowd_file_fixture.h"

enum { WORKERS = 50, TASKS = 400, PER_TASK = 5 };

static unsigned rnd(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 8;
}

static int fast_cpu(void)
{
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
#else
    return 0;
#endif
}

/* Worker w's name of wl bytes: "w" and digits, or one byte */
static void worker_of(char *s, unsigned wl, unsigned w)
{
    if (wl == 1)
        snprintf(s, 32, "%c", 'A' + (char)w);
    else
        snprintf(s, 32, "w%0*u", (int)wl - 1, w);
}

/* L knows workers 0..WORKERS-1 of wl bytes and the classes "0", "1" and
 * "2", as the reader's loops learn them (ids in that order). */
static void know(qk_crowd_labels *L, unsigned wl)
{
    /* keys are read 16 bytes at a time */
    char name[32] = {0}, zero[32] = "0", cls[32] = {0};
    uint32_t id;
    for (unsigned w = 0; w < WORKERS; w++) {
        uint64_t k[6] = {0};
        worker_of(name, wl, w);
        assert_int_equal(qk_strpool_intern(L->workers, name, wl, &id), QK_OK);
        assert_int_equal(id, w);
        qk_keymap_key(name, wl, &k[2], &k[3]);
        qk_keymap_key(zero, 1, &k[4], &k[5]);
        qk_crowd_learn_keys(L, k, 0, id, 0);
    }
    for (unsigned c = 0; c < 3; c++) {
        uint64_t k[6] = {0};
        cls[0] = (char)('0' + c);
        assert_int_equal(qk_strpool_intern(L->classes, cls, 1, &id), QK_OK);
        qk_keymap_key(cls, 1, &k[4], &k[5]);
        worker_of(name, wl, 0);
        qk_keymap_key(name, wl, &k[2], &k[3]);
        qk_crowd_learn_keys(L, k, 0, 0, id);
    }
}

/* The same workers and classes in R, in the same order (labels of a task
 * that sorts first, taken out again by the caller's count) */
static void know_r(qk_crowd_labels *R, unsigned wl)
{
    char name[32], cls[2] = "0";
    for (unsigned w = 0; w < WORKERS; w++) {
        worker_of(name, wl, w);
        cls[0] = (char)('0' + (w < 3 ? w : 0));
        assert_int_equal(qk_crowd_labels_add(R, "!", name, cls, NULL), QK_OK);
    }
}

/* nl lines of tasks of tl bytes in order, PER_TASK labels each, workers
 * of wl bytes, separator sep, CR LF when crlf; then the line stop and
 * "# end", and room. *at: where the stop line starts. */
static size_t text_of(char *buf, unsigned tl, unsigned wl, char sep, int crlf, const char *stop, size_t *nl,
                      size_t *at)
{
    size_t n = 0;
    char w[32];
    *nl = 0;
    for (unsigned t = 0; t < TASKS; t++)
        for (unsigned k = 0; k < PER_TASK; k++) {
            worker_of(w, wl, (t * 7 + k * 11) % WORKERS);
            n += (size_t)sprintf(buf + n, "t%0*u%c%s%c%u%s", (int)tl - 1, t, sep, w, sep, (t + k) % 3,
                                 crlf ? "\r\n" : "\n");
            (*nl)++;
        }
    *at = n;
    n += (size_t)sprintf(buf + n, "%s# end\n", stop);
    memset(buf + n, 'x', 256);
    return n;
}

/* qk_crowd_add_fixed takes every line of the layout up to the stop line,
 * and adds what qk_crowd_labels_add adds. */
static void test_add_fixed_stops(void **state)
{
    static const struct {
        unsigned tl, wl;
        char sep;
        int crlf;
    } lay[] = {{7, 6, '\t', 0}, {16, 8, ' ', 1}, {4, 1, '\t', 1}, {9, 3, '\t', 0}};
    /* the stop lines for a worker of wl bytes: %s is a known worker's name
     * with its first byte changed (outside the bits the names differ in),
     * a class not known next to known ones, and far from them, another
     * task length, separator and line end, a comment */
    enum { STOPS = 7 };
    char *buf = malloc(1 << 17);
    (void)state;
    assert_non_null(buf);
    if (!fast_cpu()) {
        free(buf);
        skip();
    }
    for (size_t li = 0; li < sizeof lay / sizeof *lay; li++)
        for (int s = 0; s < STOPS; s++) {
            unsigned tl = lay[li].tl, wl = lay[li].wl;
            char sep = lay[li].sep, stop[128], w0[32], task[32];
            const char *eol = lay[li].crlf ? "\r\n" : "\n";
            size_t nl, at, end, bytes = 0;
            qk_crowd_labels *L = qk_crowd_labels_new(), *R = qk_crowd_labels_new();
            assert_non_null(L);
            assert_non_null(R);
            worker_of(w0, wl, 1);
            snprintf(task, sizeof task, "u%0*u", (int)tl - 1, 0u); /* after every t... */
            switch (s) {
            case 0:
                w0[0] = 'v';
                snprintf(stop, sizeof stop, "%s%c%s%c1%s", task, sep, w0, sep, eol);
                break;
            case 1: snprintf(stop, sizeof stop, "%s%c%s%c3%s", task, sep, w0, sep, eol); break;
            case 2: snprintf(stop, sizeof stop, "%s%c%s%c7%s", task, sep, w0, sep, eol); break;
            case 3: snprintf(stop, sizeof stop, "%sx%c%s%c1%s", task, sep, w0, sep, eol); break;
            case 4:
                snprintf(stop, sizeof stop, "%s%c%s%c1%s", task, sep == ' ' ? '\t' : ' ', w0, sep, eol);
                break;
            case 5:
                snprintf(stop, sizeof stop, "%s%c%s%c1%s", task, sep, w0, sep, lay[li].crlf ? "\n" : "\r\n");
                break;
            default: snprintf(stop, sizeof stop, "#%s%c%s%c1%s", task + 1, sep, w0, sep, eol);
            }
            end = text_of(buf, tl, wl, sep, lay[li].crlf, stop, &nl, &at);
            know(L, wl);
            know_r(R, wl);
            L->cap = nl + 16;
            L->w = malloc(L->cap * sizeof *L->w);
            L->cls = malloc(L->cap * sizeof *L->cls);
            assert_int_equal(qk_crowd_add_fixed(L, buf, buf + end + 256, &bytes), nl);
            assert_int_equal(bytes, at);
            assert_int_equal(L->n, nl);
            for (char *p = buf; p < buf + at;) {
                char *f1 = strchr(p, sep), *f2 = strchr(f1 + 1, sep), *e = strchr(f2, '\n');
                *f1 = *f2 = '\0';
                e[e[-1] == '\r' ? -1 : 0] = '\0';
                assert_int_equal(qk_crowd_labels_add(R, p, f1 + 1, f2 + 1, NULL), QK_OK);
                p = e + 1;
            }
            /* R's first task ("!") holds the labels that made its workers */
            assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
            assert_int_equal(qk_crowd_labels_finish(R, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
            assert_int_equal(qk_crowd_num_labels(L) + WORKERS, qk_crowd_num_labels(R));
            for (size_t t = 0; t < TASKS; t++) {
                const size_t *off, *off2;
                const uint32_t *w, *c, *w2, *c2;
                qk_crowd_csr(L, &off, &w, &c);
                qk_crowd_csr(R, &off2, &w2, &c2);
                assert_string_equal(qk_crowd_task_name(L, t), qk_crowd_task_name(R, t + 1));
                assert_int_equal(off[t + 1] - off[t], off2[t + 2] - off2[t + 1]);
                assert_memory_equal(w + off[t], w2 + off2[t + 1], PER_TASK * sizeof *w);
                assert_memory_equal(c + off[t], c2 + off2[t + 1], PER_TASK * sizeof *c);
            }
            qk_crowd_labels_free(L);
            qk_crowd_labels_free(R);
        }
    free(buf);
}

/* A line of text added to f's. */
static void put(struct crowd_file *f, const char *s)
{
    crowd_file_put(f, s, strlen(s));
}

/* nlab labels in stretches of one layout (task and worker lengths,
 * separator, line end, drawn anew each stretch), tasks in order with a
 * task coming back now and then, workers out of nwork (of two shapes of
 * one length: "w..." and "x..."), classes 0, 1, 2 and 5; now and then a
 * line of another shape, a new worker or a repeated pair. */
static void make_file(struct crowd_file *f, unsigned seed, size_t nlab, unsigned nwork)
{
    static const char *const cls[] = {"0", "1", "2", "5", "0", "1"};
    char task[48], worker[48], line[160];
    /* the workers' length of the file (1-8: the direct table's, for a few
     * digits' worth of differing bits), and of stretches of two-word
     * names (9-12) */
    unsigned t = 0, left = 0, tl = 7, base = 1 + seed % 8, wl = base, stretch = 0;
    const char *sep = "\t", *eol = "\n";
    put(f, "task\tworker\tlabel\n");
    for (size_t i = 0; i < nlab; i++) {
        unsigned r = rnd(&seed) % 1000, wk = rnd(&seed) % nwork;
        const char *c = cls[rnd(&seed) % (i < nlab / 2 ? 2 : 6)];
        if (stretch == 0) {
            stretch = 200 + rnd(&seed) % 3000;
            tl = 6 + rnd(&seed) % 11;
            wl = rnd(&seed) % 5 ? base : 9 + rnd(&seed) % 4;
            sep = rnd(&seed) % 4 ? "\t" : " ";
            eol = rnd(&seed) % 4 ? "\n" : "\r\n";
        }
        stretch--;
        if (left == 0) {
            /* a task back (the grouping ends) only in the last tenth */
            t = i > nlab / 10 * 9 && rnd(&seed) % 40 == 0 ? t - 3 : t + 1 + rnd(&seed) % 3;
            left = 1 + rnd(&seed) % 12;
        }
        left--;
        /* tasks in byte order whatever their length (else every new
         * task would be looked up, and left to the general way) */
        snprintf(task, sizeof task, "t%05u%.*s", t, (int)tl - 6, "abcdefghijk");
        wk %= wl <= 2 ? 10 : wl == 3 ? 100 : 1000;
        if (wl == 1)
            snprintf(worker, sizeof worker, "%c", "abcdefghij"[wk]);
        else /* "v..." and "w...": one bit apart */
            snprintf(worker, sizeof worker, "%c%0*u", wk % 7 ? 'w' : 'v', (int)wl - 1, wk);
        if (r < 997) {
            snprintf(line, sizeof line, "%s%s%s%s%s%s", task, sep, worker, sep, c, eol);
            put(f, line);
            crowd_file_keep(f, task, worker, c);
            if (r < 2) { /* the pair again */
                put(f, line);
                crowd_file_keep(f, task, worker, c);
            }
            continue;
        }
        switch (rnd(&seed) % 5) {
        case 0: put(f, "# a comment\n"); break;
        case 1: put(f, "\n"); break;
        case 2: /* a new worker */
            snprintf(worker, sizeof worker, "n%u", (unsigned)i);
            snprintf(line, sizeof line, "%s\t%s\t%s\n", task, worker, c);
            put(f, line);
            crowd_file_keep(f, task, worker, c);
            break;
        case 3: /* a class of words */
            snprintf(line, sizeof line, "%s%s%s%syes%s", task, sep, worker, sep, eol);
            put(f, line);
            crowd_file_keep(f, task, worker, "yes");
            break;
        default: /* a task of 21 bytes of its own, then the next task */
            snprintf(task, sizeof task, "t%05u~long-task-name", t);
            left = 0;
            snprintf(line, sizeof line, "%s\t%s\t%s\n", task, worker, c);
            put(f, line);
            crowd_file_keep(f, task, worker, c);
        }
    }
    put(f, "tlast\tw0\t0"); /* the last line without its newline */
    crowd_file_keep(f, "tlast", "w0", "0");
}

/* Random files under every duplicate policy but the error one, against
 * the labels added one by one. */
static void test_fixed_random(void **state)
{
    (void)state;
    for (unsigned round = 0; round < 6; round++) {
        struct crowd_file f = {0};
        make_file(&f, 31 + round, 20000 + 6000 * round, 30 + 200 * round);
        char *p = crowd_write_tmp(f.text, f.n);
        for (int d = QK_CROWD_DUP_KEEP; d <= QK_CROWD_DUP_DROP_CONFLICTS; d++) {
            qk_crowd_read_opts o = {.duplicates = (qk_crowd_dup)d};
            qk_crowd_read_stats rs, rs2 = {0};
            qk_crowd_labels *L = NULL, *R = qk_crowd_labels_new();
            qk_error err = {0};
            assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_OK);
            for (size_t i = 0; i < f.nt; i++)
                assert_int_equal(qk_crowd_labels_add(R, f.trip[i][0], f.trip[i][1], f.trip[i][2], NULL),
                                 QK_OK);
            assert_int_equal(qk_crowd_labels_finish(R, o.duplicates, &rs2, NULL), QK_OK);
            assert_int_equal(rs.rows, f.nt);
            crowd_assert_read_as_added(L, R, &rs, &rs2);
        }
        unlink(p);
        free(f.text);
        free(f.trip);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_fixed_stops),
        cmocka_unit_test(test_fixed_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
