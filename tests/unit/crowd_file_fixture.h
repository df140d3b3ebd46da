/* Label files for the crowd reader tests (test_crowd_labels.c,
 * test_crowd_read.c): a text written to a temporary file, and a file read
 * into a label set. Include after cmocka.h. */
#ifndef QK_TEST_CROWD_FILE_FIXTURE_H
#define QK_TEST_CROWD_FILE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/crowd.h"
#include "qrelkit/io.h"

/* file read through qk_lines_open and qk_crowd_labels_read */
static inline qk_status crowd_read_file(const char *file, const qk_crowd_read_opts *o, qk_crowd_labels **L,
                                        qk_crowd_read_stats *rs, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(file, &l, err);
    if (st == QK_OK)
        st = qk_crowd_labels_read(l, o, L, rs, err);
    qk_lines_close(l);
    return st;
}

/* text[0..n) in a new file under /tmp; the path stays valid until the
 * next call */
static inline char *crowd_write_tmp(const char *text, size_t n)
{
    static char path[64];
    strcpy(path, "/tmp/qk_crowd_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

static inline char *crowd_write_text(const char *text)
{
    return crowd_write_tmp(text, strlen(text));
}

/* L and R hold the same tasks, workers and classes (names in id order)
 * and the same labels, grouped alike */
static inline void crowd_assert_same(const qk_crowd_labels *L, const qk_crowd_labels *R)
{
    const size_t *off, *off2;
    const uint32_t *w, *c, *w2, *c2;
    assert_int_equal(qk_crowd_num_labels(L), qk_crowd_num_labels(R));
    assert_int_equal(qk_crowd_num_tasks(L), qk_crowd_num_tasks(R));
    assert_int_equal(qk_crowd_num_workers(L), qk_crowd_num_workers(R));
    assert_int_equal(qk_crowd_num_classes(L), qk_crowd_num_classes(R));
    for (size_t t = 0; t < qk_crowd_num_tasks(L); t++)
        assert_string_equal(qk_crowd_task_name(L, t), qk_crowd_task_name(R, t));
    for (size_t x = 0; x < qk_crowd_num_workers(L); x++)
        assert_string_equal(qk_crowd_worker_name(L, x), qk_crowd_worker_name(R, x));
    for (size_t x = 0; x < qk_crowd_num_classes(L); x++)
        assert_string_equal(qk_crowd_class_name(L, x), qk_crowd_class_name(R, x));
    qk_crowd_csr(L, &off, &w, &c);
    qk_crowd_csr(R, &off2, &w2, &c2);
    assert_memory_equal(off, off2, (qk_crowd_num_tasks(L) + 1) * sizeof *off);
    assert_memory_equal(w, w2, qk_crowd_num_labels(L) * sizeof *w);
    assert_memory_equal(c, c2, qk_crowd_num_labels(L) * sizeof *c);
}

/* L, read from a file (stats rs), against R, the same labels added one by
 * one and finished (stats rs2): the same duplicate counts and the same
 * labels. Frees both. */
static inline void crowd_assert_read_as_added(qk_crowd_labels *L, qk_crowd_labels *R,
                                              const qk_crowd_read_stats *rs, const qk_crowd_read_stats *rs2)
{
    assert_int_equal(rs->dup_pairs, rs2->dup_pairs);
    assert_int_equal(rs->dup_conflicts, rs2->dup_conflicts);
    assert_int_equal(rs->dropped_dups, rs2->dropped_dups);
    crowd_assert_same(L, R);
    qk_crowd_labels_free(L);
    qk_crowd_labels_free(R);
}

/* A label file being written (text) and the labels it holds, in order
 * (test_crowd_read.c, test_crowd_read_fixed.c). */
struct crowd_file {
    char *text;
    size_t n, cap;
    char (*trip)[3][48];
    size_t nt, trip_cap;
};

static inline void crowd_file_put(struct crowd_file *f, const char *text, size_t len)
{
    if (f->n + len + 1 > f->cap) {
        f->cap = 2 * (f->n + len) + 4096;
        f->text = realloc(f->text, f->cap);
    }
    memcpy(f->text + f->n, text, len);
    f->n += len;
}

/* The label (task, worker, cls), the next one in the file. */
static inline void crowd_file_keep(struct crowd_file *f, const char *task, const char *worker,
                                   const char *cls)
{
    if (f->nt == f->trip_cap) {
        f->trip_cap = 2 * f->trip_cap + 64;
        f->trip = realloc(f->trip, f->trip_cap * sizeof *f->trip);
    }
    snprintf(f->trip[f->nt][0], 48, "%s", task);
    snprintf(f->trip[f->nt][1], 48, "%s", worker);
    snprintf(f->trip[f->nt][2], 48, "%s", cls);
    f->nt++;
}

#endif
