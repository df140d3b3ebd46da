/* Crowd label reader and bad input (src/crowd/crowd_labels.c, crowd_result.c):
 * unknown label values, a worker with one label, tasks with no labels,
 * conflicting duplicate labels, layouts. Expected values are worked by hand
 * from the few lines of each input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/crowd.h"

#include "crowd_file_fixture.h"

static void test_unknown_label(void **state)
{
    static const char *const cls[] = {"0", "1"};
    qk_crowd_read_opts o = {.classes = cls, .n_classes = 2};
    qk_crowd_read_stats rs;
    qk_crowd_labels *L = NULL;
    qk_error err = {0};
    char *p = crowd_write_text("task\tworker\tlabel\nt1\tw1\t1\nt1\tw2\tx\nt2\tw1\t0\n");
    char want[256];
    assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_EINPUT);
    assert_null(L);
    snprintf(want, sizeof want, "'%s' line 3: label 'x' is not one of the declared classes", p);
    assert_string_equal(err.message, want);
    /* Skipping instead: two labels kept, one counted as dropped. */
    o.drop_unknown = 1;
    assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_OK);
    assert_int_equal(rs.dropped_unknown, 1);
    assert_int_equal(qk_crowd_num_labels(L), 2);
    assert_int_equal(qk_crowd_num_classes(L), 2);
    qk_crowd_labels_free(L);
    unlink(p);
}

static void test_bad_fields(void **state)
{
    qk_crowd_labels *L = NULL;
    qk_error err = {0};
    char *p = crowd_write_text("t1 w1 1\nt2 w1\n");
    char want[256];
    assert_int_equal(crowd_read_file(p, NULL, &L, NULL, &err), QK_EINPUT);
    snprintf(want, sizeof want, "'%s' line 2: expected 3 fields (task worker label), found 2", p);
    assert_string_equal(err.message, want);
    unlink(p);
    /* A file with only a header has no labels: aggregating is bad input. */
    p = crowd_write_text("task\tworker\tlabel\n");
    assert_int_equal(crowd_read_file(p, NULL, &L, NULL, &err), QK_OK);
    qk_crowd_opts opts;
    qk_crowd_result *r = NULL;
    qk_crowd_opts_init(&opts);
    assert_int_equal(qk_crowd_aggregate(L, &opts, &r, &err), QK_EINPUT);
    assert_null(r);
    qk_crowd_labels_free(L);
    unlink(p);
}

/* Rows: t1 w1 yes, t1 w1 no (conflict), t1 w2 yes, t1 w2 yes (agreeing
 * repeat), t2 w1 yes. */
static const char dup_text[] = "t1 w1 yes\nt1 w1 no\nt1 w2 yes\nt1 w2 yes\nt2 w1 yes\n";

static void test_duplicates(void **state)
{
    struct {
        qk_crowd_dup policy;
        size_t labels, dropped;
        double p_yes_t1; /* majority vote on t1 under the policy */
    } cases[] = {
        {QK_CROWD_DUP_KEEP, 5, 0, 3.0 / 4},           /* yes, no, yes, yes       */
        {QK_CROWD_DUP_FIRST, 3, 2, 2.0 / 2},          /* yes (w1), yes (w2)       */
        {QK_CROWD_DUP_DROP_CONFLICTS, 2, 3, 1.0 / 1}, /* w1 dropped, w2 once      */
    };
    char *p = crowd_write_text(dup_text);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        qk_crowd_read_opts o = {.duplicates = cases[i].policy};
        qk_crowd_read_stats rs;
        qk_crowd_labels *L = NULL;
        qk_crowd_result *r = NULL;
        qk_crowd_opts opts;
        size_t t1, yes;
        assert_int_equal(crowd_read_file(p, &o, &L, &rs, NULL), QK_OK);
        assert_int_equal(rs.dup_pairs, 2);
        assert_int_equal(rs.dup_conflicts, 1);
        assert_int_equal(rs.dropped_dups, cases[i].dropped);
        assert_int_equal(qk_crowd_num_labels(L), cases[i].labels);
        qk_crowd_opts_init(&opts);
        opts.method = QK_CROWD_MV;
        assert_int_equal(qk_crowd_aggregate(L, &opts, &r, NULL), QK_OK);
        assert_true(qk_crowd_find_task(L, "t1", &t1) && qk_crowd_find_class(L, "yes", &yes));
        assert_true(fabs(r->post[t1 * 2 + yes] - cases[i].p_yes_t1) < 1e-12);
        qk_crowd_result_free(r);
        qk_crowd_labels_free(L);
    }
    /* error: the message names the repeat's line and the first one's. */
    qk_crowd_read_opts o = {.duplicates = QK_CROWD_DUP_ERROR};
    qk_crowd_labels *L = NULL;
    qk_error err = {0};
    char want[256];
    assert_int_equal(crowd_read_file(p, &o, &L, NULL, &err), QK_EINPUT);
    snprintf(want, sizeof want, "'%s' line 2: worker 'w1' labels task 't1' again (first on line 1)", p);
    assert_string_equal(err.message, want);
    unlink(p);
}

/* Toy labels plus a worker with a single label and a task with none. Every
 * method must give finite posteriors summing to 1; the unlabelled task gets
 * the class prior (DS, one-coin) or no preference (MV, GLAD, MACE). */
static void test_sparse_workers_and_tasks(void **state)
{
    static const char *const rows[][3] = {
        {"t1", "w1", "no"},  {"t1", "w2", "yes"}, {"t1", "w3", "yes"}, {"t2", "w1", "yes"},
        {"t2", "w2", "yes"}, {"t2", "w3", "yes"}, {"t3", "w1", "no"},  {"t3", "w2", "no"},
        {"t3", "w3", "yes"}, {"t3", "w9", "no"},
    };
    for (int m = QK_CROWD_MV; m <= QK_CROWD_MACE; m++) {
        qk_crowd_labels *L = qk_crowd_labels_new();
        qk_crowd_result *r = NULL;
        qk_crowd_opts o;
        uint32_t empty;
        size_t w9 = 0;
        for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
            assert_int_equal(qk_crowd_labels_add(L, rows[i][0], rows[i][1], rows[i][2], NULL), QK_OK);
        assert_int_equal(qk_crowd_labels_add_task(L, "t4", &empty, NULL), QK_OK);
        assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
        qk_crowd_opts_init(&o);
        o.method = (qk_crowd_method)m;
        assert_int_equal(qk_crowd_aggregate(L, &o, &r, NULL), QK_OK);
        assert_int_equal(r->n_tasks, 4);
        for (size_t t = 0; t < 4; t++) {
            assert_true(isfinite(r->post[2 * t]) && isfinite(r->post[2 * t + 1]));
            assert_true(fabs(r->post[2 * t] + r->post[2 * t + 1] - 1) < 1e-12);
        }
        assert_int_equal(r->n_labels[empty], 0);
        if (m == QK_CROWD_DS || m == QK_CROWD_ONECOIN)
            assert_true(fabs(r->post[2 * empty] - r->prior[0]) < 1e-9);
        else
            assert_true(fabs(r->post[2 * empty] - 0.5) < 1e-12);
        while (strcmp(qk_crowd_worker_name(L, w9), "w9") != 0)
            w9++;
        assert_int_equal(r->worker_n[w9], 1);
        assert_true(isfinite(r->skill[w9]) && isfinite(r->spam_score[w9]));
        qk_crowd_result_free(r);
        qk_crowd_labels_free(L);
    }
}

static void test_layouts(void **state)
{
    qk_crowd_labels *L = NULL;
    qk_crowd_read_stats rs;
    size_t t;
    /* Four fields: topic docno worker label; the task is "topic docno". */
    char *p =
        crowd_write_text("topic\tdocno\tworker\tlabel\n401\tFT-1\tw1\t2\n401\tFT-1\tw2\t0\n402\tLA-7\tw1\t10\n");
    assert_int_equal(crowd_read_file(p, NULL, &L, &rs, NULL), QK_OK);
    assert_true(qk_crowd_find_task(L, "401 FT-1", &t));
    assert_int_equal(qk_crowd_num_tasks(L), 2);
    /* Integer classes are ordered by value: 0 < 2 < 10. */
    assert_string_equal(qk_crowd_class_name(L, 0), "0");
    assert_string_equal(qk_crowd_class_name(L, 1), "2");
    assert_string_equal(qk_crowd_class_name(L, 2), "10");
    qk_crowd_labels_free(L);
    unlink(p);
    /* TREC 2010 layout: topic worker docno gold label; -2 is "broken link". */
    qk_crowd_read_opts o = {.layout = QK_CROWD_LAYOUT_TREC};
    p = crowd_write_text("20 w1 d1 1 1\n20 w2 d1 1 -2\n20 w2 d2 -1 0\n");
    assert_int_equal(crowd_read_file(p, &o, &L, &rs, NULL), QK_OK);
    assert_int_equal(rs.dropped_invalid, 1);
    assert_int_equal(qk_crowd_num_labels(L), 2);
    assert_true(qk_crowd_find_task(L, "20 d2", &t));
    qk_crowd_labels_free(L);
    unlink(p);
}

/* Gold scoring on a hand-made result: 4 tasks, gold 1 1 0 0, predicted 1 0 0 1
 * with P(1) = .9 .4 .2 .6: accuracy 2/4; precision 1/2, recall 1/2; AUC =
 * pairs (pos, neg) ordered right: (.9>.2)(.9>.6)(.4>.2)(.4<.6) = 3/4. */
static void test_score(void **state)
{
    double post[8] = {.1, .9, .6, .4, .8, .2, .4, .6};
    uint32_t label[4] = {1, 0, 0, 1};
    int32_t gold[4] = {1, 1, 0, 0};
    qk_crowd_result r = {.n_tasks = 4, .n_classes = 2, .post = post, .label = label};
    qk_crowd_score s;
    assert_int_equal(qk_crowd_score_gold(&r, gold, 1, &s, NULL), QK_OK);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.correct, 2);
    assert_true(fabs(s.precision - 0.5) < 1e-12 && fabs(s.recall - 0.5) < 1e-12 && fabs(s.f1 - 0.5) < 1e-12);
    assert_true(fabs(s.auc - 0.75) < 1e-12);
}

/* The by-id fast path: ids from add_task / add_worker and the declared
 * classes; anything out of range, or classes not declared, is a usage error. */
static void test_add_by_id(void **state)
{
    static const char *const cls[2] = {"no", "yes"};
    qk_crowd_labels *L = qk_crowd_labels_new(), *U = qk_crowd_labels_new();
    uint32_t t, w, w2;
    const size_t *off;
    const uint32_t *gw, *gc;
    (void)state;
    assert_int_equal(qk_crowd_labels_add_task(U, "t", &t, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_worker(U, "w", &w, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_by_id(U, t, w, 0, NULL), QK_EUSAGE); /* no classes */
    assert_int_equal(qk_crowd_labels_set_classes(L, cls, 2, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_task(L, "t", &t, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_worker(L, "w", &w, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_worker(L, "v", &w2, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_by_id(L, t, w2, 1, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_by_id(L, t, w, 0, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_by_id(L, t + 1, w, 0, NULL), QK_EUSAGE);
    assert_int_equal(qk_crowd_labels_add_by_id(L, t, w2 + 1, 0, NULL), QK_EUSAGE);
    assert_int_equal(qk_crowd_labels_add_by_id(L, t, w, 2, NULL), QK_EUSAGE);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    assert_int_equal(qk_crowd_num_labels(L), 2);
    assert_int_equal(qk_crowd_num_workers(L), 2);
    qk_crowd_csr(L, &off, &gw, &gc);
    assert_string_equal(qk_crowd_worker_name(L, gw[0]), "v");
    assert_string_equal(qk_crowd_class_name(L, gc[0]), "yes");
    assert_string_equal(qk_crowd_worker_name(L, gw[1]), "w");
    assert_string_equal(qk_crowd_class_name(L, gc[1]), "no");
    qk_crowd_labels_free(L);
    qk_crowd_labels_free(U);
}

/* True-negative rate on 5 tasks, gold 1 1 0 0 0, predicted 1 0 0 0 1: of the
 * three gold negatives two are labelled 0, TNR 2/3 (recall 1/2). A gold
 * without negatives has no TNR (NaN). */
static void test_score_tnr(void **state)
{
    double post[10] = {.1, .9, .6, .4, .8, .2, .7, .3, .4, .6};
    uint32_t label[5] = {1, 0, 0, 0, 1};
    int32_t gold[5] = {1, 1, 0, 0, 0}, allpos[5] = {1, 1, -1, -1, -1};
    qk_crowd_result r = {.n_tasks = 5, .n_classes = 2, .post = post, .label = label};
    qk_crowd_score s;
    (void)state;
    assert_int_equal(qk_crowd_score_gold(&r, gold, 1, &s, NULL), QK_OK);
    assert_true(fabs(s.tnr - 2.0 / 3.0) < 1e-12 && fabs(s.recall - 0.5) < 1e-12);
    assert_int_equal(qk_crowd_score_gold(&r, allpos, 1, &s, NULL), QK_OK);
    assert_true(isnan(s.tnr));
}

/* Gold weights: w1 right on both gold tasks, w2 wrong on both. Mean gold
 * accuracy 0.5, so a(w1) = (2 + 2·0.5)/(2 + 2) = 0.75 and a(w2) = 0.25;
 * weights ±log 3. On t3 (w1 no, w2 yes) the weighted votes give
 * P(no) = e^{log 3} / (e^{log 3} + e^{-log 3}) = 9/10. */
static void test_gold_weights(void **state)
{
    static const char *const rows[][3] = {{"t1", "w1", "yes"}, {"t1", "w2", "no"}, {"t2", "w1", "yes"},
                                          {"t2", "w2", "no"},  {"t3", "w1", "no"}, {"t3", "w2", "yes"}};
    qk_crowd_labels *L = qk_crowd_labels_new();
    qk_crowd_result *r = NULL;
    qk_crowd_opts o;
    double wt[2];
    int32_t gold[3];
    size_t t1, t2, t3, no, yes;
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(qk_crowd_labels_add(L, rows[i][0], rows[i][1], rows[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    assert_true(qk_crowd_find_task(L, "t1", &t1) && qk_crowd_find_task(L, "t2", &t2) &&
                qk_crowd_find_task(L, "t3", &t3));
    assert_true(qk_crowd_find_class(L, "no", &no) && qk_crowd_find_class(L, "yes", &yes));
    gold[t1] = gold[t2] = (int32_t)yes, gold[t3] = -1;
    assert_int_equal(qk_crowd_gold_weights(L, gold, wt, NULL), QK_OK);
    assert_true(fabs(wt[0] - log(3.0)) < 1e-12 && fabs(wt[1] + log(3.0)) < 1e-12);
    qk_crowd_opts_init(&o);
    o.method = QK_CROWD_MV;
    o.worker_weight = wt;
    assert_int_equal(qk_crowd_aggregate(L, &o, &r, NULL), QK_OK);
    assert_true(fabs(r->post[t3 * 2 + no] - 0.9) < 1e-12);
    assert_int_equal(r->label[t3], no);
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
}

/* Files long enough for the reader's fast path (lines of three short
 * fields, cut in batches, added by key) and lines of every shape it leaves
 * to the general path: the labels, ids and grouping are those of the same
 * labels added one by one through qk_crowd_labels_add. */
struct gen {
    char *text;
    size_t n, cap;
    char (*trip)[3][48]; /* the labels in order: task, worker, label */
    size_t nt;
    unsigned seed;
};

static unsigned gen_rand(struct gen *g)
{
    g->seed = g->seed * 1103515245u + 12345u;
    return g->seed >> 8;
}

static void gen_line(struct gen *g, const char *fmt, const char *task, const char *worker, const char *label)
{
    if (g->n + 256 > g->cap) {
        g->cap = 2 * g->cap + 4096;
        g->text = realloc(g->text, g->cap);
    }
    g->n += (size_t)sprintf(g->text + g->n, fmt, task, worker, label);
    if (label) {
        g->trip = realloc(g->trip, (g->nt + 1) * sizeof *g->trip);
        snprintf(g->trip[g->nt][0], 48, "%s", task);
        snprintf(g->trip[g->nt][1], 48, "%s", worker);
        snprintf(g->trip[g->nt][2], 48, "%s", label);
        g->nt++;
    }
}

static void gen_labels(struct gen *g)
{
    static const char *const seps[] = {"%s\t%s\t%s\n", "%s %s %s\n", "%s\t%s\t%s\r\n", "%s %s\t%s\n"};
    static const char *const cls[] = {"0", "1", "2"};
    char task[48], worker[48], topic[8];
    gen_line(g, "task\tworker\tlabel\n", "", "", NULL);
    for (int i = 0; i < 1500; i++) {
        unsigned r = gen_rand(g);
        /* tasks in order with a few labels each, then tasks again in any
         * order, new ones among them */
        int t = i < 800 ? i / 4 : (int)(r % 260);
        snprintf(task, sizeof task, r % 41 == 0 ? "a-task-name-longer-than-16-%d" : "t%05d", t);
        snprintf(worker, sizeof worker, r % 37 == 0 ? "worker-with-a-long-id-%u" : "w%03u", (r >> 4) % 60);
        if (r % 53 == 0)
            gen_line(g, "# a comment\n", "", "", NULL);
        if (r % 59 == 0)
            gen_line(g, "\n", "", "", NULL);
        if (r % 31 == 0) {
            /* a topic-document pair: its task is "topic docno" */
            snprintf(topic, sizeof topic, "%u", r % 5);
            char pair[40];
            snprintf(pair, sizeof pair, "%s d%u", topic, (r >> 3) % 7);
            g->n += (size_t)sprintf(g->text + g->n, "%s\td%u\t%s\t%s\n", topic, (r >> 3) % 7, worker,
                                    cls[(r >> 12) % 3]);
            g->trip = realloc(g->trip, (g->nt + 1) * sizeof *g->trip);
            memcpy(g->trip[g->nt][0], pair, strlen(pair) + 1);
            snprintf(g->trip[g->nt][1], 48, "%s", worker);
            snprintf(g->trip[g->nt][2], 48, "%s", cls[(r >> 12) % 3]);
            g->nt++;
            continue;
        }
        gen_line(g, seps[(r >> 10) % 4], task, worker, cls[(r >> 12) % 3]);
    }
    g->text[g->n] = '\0';
}

static void test_fast_path_matches(void **state)
{
    struct gen g = {.seed = 11};
    qk_crowd_read_opts o = {.duplicates = QK_CROWD_DUP_KEEP};
    qk_crowd_read_stats rs, rs2;
    qk_crowd_labels *L = NULL, *R = qk_crowd_labels_new();
    const size_t *off, *off2;
    const uint32_t *w, *c, *w2, *c2;
    char *p;
    (void)state;
    gen_labels(&g);
    p = crowd_write_text(g.text);
    assert_int_equal(crowd_read_file(p, &o, &L, &rs, NULL), QK_OK);
    for (size_t i = 0; i < g.nt; i++)
        assert_int_equal(qk_crowd_labels_add(R, g.trip[i][0], g.trip[i][1], g.trip[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(R, QK_CROWD_DUP_KEEP, &rs2, NULL), QK_OK);
    assert_int_equal(rs.rows, g.nt);
    assert_int_equal(qk_crowd_num_labels(L), g.nt);
    assert_int_equal(qk_crowd_num_tasks(L), qk_crowd_num_tasks(R));
    assert_int_equal(qk_crowd_num_workers(L), qk_crowd_num_workers(R));
    assert_int_equal(qk_crowd_num_classes(L), 3);
    for (size_t t = 0; t < qk_crowd_num_tasks(L); t++)
        assert_string_equal(qk_crowd_task_name(L, t), qk_crowd_task_name(R, t));
    for (size_t x = 0; x < qk_crowd_num_workers(L); x++)
        assert_string_equal(qk_crowd_worker_name(L, x), qk_crowd_worker_name(R, x));
    for (size_t x = 0; x < 3; x++)
        assert_string_equal(qk_crowd_class_name(L, x), qk_crowd_class_name(R, x));
    qk_crowd_csr(L, &off, &w, &c);
    qk_crowd_csr(R, &off2, &w2, &c2);
    assert_memory_equal(off, off2, (qk_crowd_num_tasks(L) + 1) * sizeof *off);
    assert_memory_equal(w, w2, g.nt * sizeof *w);
    assert_memory_equal(c, c2, g.nt * sizeof *c);
    qk_crowd_labels_free(L);
    qk_crowd_labels_free(R);
    unlink(p);
    free(g.text);
    free(g.trip);
}

/* n lines "tNNNNN wNNN L", task i / 3, worker i % 3 + 3 * (i / 300). */
static void plain_lines(char *buf, size_t *n, int from, int to, const char *label)
{
    for (int i = from; i < to; i++)
        *n += (size_t)sprintf(buf + *n, "t%05d\tw%03d\t%s\n", i / 3, i % 3 + 3 * (i / 300), label ? label : (i % 2 ? "1" : "0"));
}

/* Messages from lines deep in a file (read by the fast path) name the same
 * lines as before: the label rows, the comment and blank lines between
 * them counted. */
static void test_fast_path_messages(void **state)
{
    static const char *const cls[] = {"0", "1"};
    char *buf = malloc(1 << 16), want[256];
    size_t n = 0;
    qk_error err = {0};
    qk_crowd_labels *L = NULL;
    qk_crowd_read_stats rs;
    char *p;
    (void)state;
    /* line 1 is a label; 400 labels; a comment, a blank line; line 404 an
     * unknown class; 200 labels more */
    plain_lines(buf, &n, 0, 400, NULL);
    n += (size_t)sprintf(buf + n, "# note\n\n");
    plain_lines(buf, &n, 400, 401, "x");
    plain_lines(buf, &n, 401, 600, NULL);
    buf[n] = '\0';
    p = crowd_write_text(buf);
    qk_crowd_read_opts o = {.classes = cls, .n_classes = 2, .duplicates = QK_CROWD_DUP_ERROR};
    assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_EINPUT);
    snprintf(want, sizeof want, "'%s' line 403: label 'x' is not one of the declared classes", p);
    assert_string_equal(err.message, want);
    o.drop_unknown = 1;
    assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_OK);
    assert_int_equal(rs.dropped_unknown, 1);
    assert_int_equal(rs.rows, 600);
    assert_int_equal(qk_crowd_num_labels(L), 599);
    qk_crowd_labels_free(L);
    L = NULL;
    unlink(p);
    /* a repeated (task, worker) pair after a comment, a dropped line and
     * a blank line: both line numbers right */
    n = 0;
    plain_lines(buf, &n, 0, 300, NULL);
    n += (size_t)sprintf(buf + n, "# note\n");
    plain_lines(buf, &n, 300, 310, NULL);
    plain_lines(buf, &n, 310, 311, "x");
    n += (size_t)sprintf(buf + n, "\n");
    plain_lines(buf, &n, 311, 400, NULL);
    n += (size_t)sprintf(buf + n, "t00105\tw003\t1\n"); /* label 315 (line 318) was the first */
    plain_lines(buf, &n, 400, 500, NULL);
    buf[n] = '\0';
    p = crowd_write_text(buf);
    assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_EINPUT);
    snprintf(want, sizeof want, "'%s' line 403: worker 'w003' labels task 't00105' again (first on line 318)", p);
    assert_string_equal(err.message, want);
    unlink(p);
    free(buf);
}

/* A finish that fails (a repeated pair under the error policy) leaves the
 * labels as they were, for a finish with another policy: tasks in order
 * (whose raw arrays become the grouped ones) and not. */
static void test_finish_again(void **state)
{
    static const char *const rows[2][5][3] = {
        {{"t1", "w1", "a"}, {"t1", "w2", "b"}, {"t2", "w1", "b"}, {"t2", "w1", "a"}, {"t3", "w2", "a"}},
        {{"t1", "w1", "a"}, {"t2", "w1", "b"}, {"t1", "w2", "b"}, {"t2", "w1", "a"}, {"t3", "w2", "a"}}};
    (void)state;
    for (int v = 0; v < 2; v++) {
        qk_crowd_labels *L = qk_crowd_labels_new();
        qk_crowd_read_stats rs = {0};
        qk_error err = {0};
        const size_t *off;
        const uint32_t *w, *c;
        size_t b;
        for (int i = 0; i < 5; i++)
            assert_int_equal(qk_crowd_labels_add(L, rows[v][i][0], rows[v][i][1], rows[v][i][2], NULL), QK_OK);
        assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_ERROR, &rs, &err), QK_EINPUT);
        /* no lines: the labels are counted in the order they were added */
        assert_string_equal(err.message, v == 0 ? "'-': worker 'w1' labels task 't2' again (labels 3 and 4 in the order added)"
                                                : "'-': worker 'w1' labels task 't2' again (labels 2 and 4 in the order added)");
        /* labels may still be added after the failed call */
        assert_int_equal(qk_crowd_labels_add(L, "t4", "w3", "b", NULL), QK_OK);
        assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_FIRST, &rs, NULL), QK_OK);
        assert_int_equal(qk_crowd_num_labels(L), 5);
        assert_int_equal(qk_crowd_num_tasks(L), 4);
        assert_true(qk_crowd_find_class(L, "b", &b));
        qk_crowd_csr(L, &off, &w, &c);
        /* t2 (id 1) keeps w1's first label, b */
        assert_int_equal(off[2] - off[1], 1);
        assert_int_equal(c[off[1]], b);
        assert_int_equal(off[1], 2);
        assert_int_equal(off[3], 4); /* t4: the last label */
        assert_int_equal(off[4], 5);
        assert_int_equal(c[4], b);
        qk_crowd_labels_free(L);
    }
}

/* The labels of L grouped by task are those of the lines in trip (task,
 * worker, label in input order): task by task, in input order, by name. */
static void check_grouping(const qk_crowd_labels *L, char (*trip)[3][48], size_t n)
{
    const size_t *off;
    const uint32_t *w, *c;
    size_t total = 0;
    qk_crowd_csr(L, &off, &w, &c);
    for (size_t t = 0; t < qk_crowd_num_tasks(L); t++) {
        const char *name = qk_crowd_task_name(L, t);
        size_t j = off[t];
        for (size_t i = 0; i < n; i++) {
            if (strcmp(trip[i][0], name) != 0)
                continue;
            assert_true(j < off[t + 1]);
            assert_string_equal(qk_crowd_worker_name(L, w[j]), trip[i][1]);
            assert_string_equal(qk_crowd_class_name(L, c[j]), trip[i][2]);
            j++;
        }
        assert_int_equal(j, off[t + 1]);
        total += j - off[t];
    }
    assert_int_equal(total, n);
}

/* The reader keeps a file's grouping by task without writing each label's
 * task while the tasks come in order, one after another: lines of the
 * last task (the repeated-key path), a task coming back after others
 * (the grouping written out in the middle of a batch), a task of a long
 * name between lines of a short one (read the general way), a task
 * interned before its first label; each grouped as the lines say. */
static void test_task_grouping_paths(void **state)
{
    struct gen g = {.seed = 5};
    qk_crowd_read_opts o = {.duplicates = QK_CROWD_DUP_KEEP};
    qk_crowd_labels *L = NULL;
    char task[48], worker[48];
    char *p;
    (void)state;
    for (int v = 0; v < 5; v++) {
        g.n = g.nt = 0;
        gen_line(&g, "task\tworker\tlabel\n", "", "", NULL);
        for (int i = 0; i < 3000; i++) {
            unsigned r = gen_rand(&g);
            int t = i / 5;
            /* v 1: from label 1000 on (every worker known, so the lines
             * go the fast way), every 7th label goes back to task 3; v 2:
             * from there on, every 11th label's task has a long name (the
             * general way), its task before and after the same short
             * one; v 3: tasks 0 and 1 take turns first; v 4: new tasks
             * that sort before the others, now and then */
            if (v == 1 && i >= 1000 && i % 7 == 0)
                t = 3;
            if (v == 3 && i < 40)
                t = i % 2;
            snprintf(task, sizeof task, v == 2 && i >= 1000 && i % 11 == 0 ? "a-task-name-longer-than-16-%d" : "t%05d", t);
            if (v == 4 && i >= 1000 && i % 13 == 0)
                snprintf(task, sizeof task, "s%05d", i % 26 ? i : 1000);
            snprintf(worker, sizeof worker, "w%03u", (r >> 4) % 90);
            gen_line(&g, "%s\t%s\t%s\n", task, worker, (r >> 12) % 2 ? "1" : "0");
        }
        g.text[g.n] = '\0';
        p = crowd_write_text(g.text);
        assert_int_equal(crowd_read_file(p, &o, &L, NULL, NULL), QK_OK);
        assert_int_equal(qk_crowd_num_labels(L), g.nt);
        check_grouping(L, g.trip, g.nt);
        /* every task found by name (tasks in byte order, v 0, 1, 3: by
         * binary search; v 2, 4: hashed), and no other name */
        for (size_t i = 0; i < g.nt; i++) {
            size_t t;
            assert_true(qk_crowd_find_task(L, g.trip[i][0], &t));
            assert_string_equal(qk_crowd_task_name(L, t), g.trip[i][0]);
        }
        static const char *const absent[] = {"", "a", "t", "t0000", "t00000x", "t00001 ", "t99999", "zz"};
        for (size_t i = 0; i < sizeof absent / sizeof *absent; i++) {
            size_t t;
            assert_false(qk_crowd_find_task(L, absent[i], &t));
        }
        qk_crowd_labels_free(L);
        L = NULL;
        unlink(p);
    }
    free(g.text);
    free(g.trip);
    /* through the API: a task without labels first, then labels of
     * later tasks, one going back */
    static const char *const rows[][3] = {{"b", "w1", "x"}, {"b", "w2", "y"}, {"c", "w1", "x"},
                                          {"d", "w2", "y"}, {"c", "w2", "x"}, {"e", "w1", "y"}};
    char(*trip)[3][48] = calloc(6, sizeof *trip);
    L = qk_crowd_labels_new();
    assert_int_equal(qk_crowd_labels_add_task(L, "a", NULL, NULL), QK_OK);
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(qk_crowd_labels_add(L, rows[i][0], rows[i][1], rows[i][2], NULL), QK_OK);
        for (int f = 0; f < 3; f++)
            strcpy(trip[i][f], rows[i][f]);
    }
    /* found before finish too: "a" hashed, the rest appended in order */
    {
        size_t t;
        assert_true(qk_crowd_find_task(L, "a", &t) && t == 0);
        assert_true(qk_crowd_find_task(L, "d", &t) && t == 3);
        assert_false(qk_crowd_find_task(L, "bb", &t));
    }
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    check_grouping(L, trip, 6);
    qk_crowd_labels_free(L);
    free(trip);
}

/* A repeated (task, worker) pair inside the task being read, tasks still in
 * order (their grouping not written per label): the policies count and
 * drop as they do elsewhere, and the error names both lines. */
static void test_duplicates_in_order(void **state)
{
    char *buf = malloc(1 << 16), want[256];
    size_t n = 0;
    qk_error err = {0};
    qk_crowd_labels *L = NULL;
    qk_crowd_read_stats rs;
    char *p;
    (void)state;
    /* labels 0..299 (task i / 3, lines 1..300); line 301 repeats worker
     * w001 (label 298, line 299) on task t00099, the last one, with the
     * other label; then 50 labels more */
    plain_lines(buf, &n, 0, 300, NULL);
    n += (size_t)sprintf(buf + n, "t00099\tw001\t1\n");
    plain_lines(buf, &n, 300, 350, NULL);
    buf[n] = '\0';
    p = crowd_write_text(buf);
    qk_crowd_read_opts o = {.duplicates = QK_CROWD_DUP_ERROR};
    assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_EINPUT);
    snprintf(want, sizeof want, "'%s' line 301: worker 'w001' labels task 't00099' again (first on line 299)", p);
    assert_string_equal(err.message, want);
    o.duplicates = QK_CROWD_DUP_DROP_CONFLICTS;
    assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_OK);
    assert_int_equal(rs.dup_pairs, 1);
    assert_int_equal(rs.dup_conflicts, 1);
    assert_int_equal(rs.dropped_dups, 2);
    assert_int_equal(qk_crowd_num_labels(L), 349);
    qk_crowd_labels_free(L);
    unlink(p);
    free(buf);
}

/* Repeats while the grouping by task is kept (the task starts become the
 * offsets at finish): of a task's first label, by the fast path, and of a
 * worker's first label, added the general way (a new worker), by the fast
 * path. Either is reported, and dropped under DUP_FIRST. */
static void test_duplicates_seen_while_reading(void **state)
{
    static const struct {
        const char *extra, *worker;
        int again, was;
    } cases[] = {
        {"t00099\tw000\t0\n", "w000", 301, 298},
        {"t00099\twnew\t1\nt00099\twnew\t0\n", "wnew", 302, 301},
    };
    char *buf = malloc(1 << 16), want[256];
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t n = 0, lines;
        qk_error err = {0};
        qk_crowd_labels *L = NULL;
        qk_crowd_read_stats rs;
        char *p;
        plain_lines(buf, &n, 0, 300, NULL);
        n += (size_t)sprintf(buf + n, "%s", cases[c].extra);
        plain_lines(buf, &n, 300, 350, NULL);
        buf[n] = '\0';
        lines = 350 + c + 1;
        p = crowd_write_text(buf);
        qk_crowd_read_opts o = {.duplicates = QK_CROWD_DUP_ERROR};
        assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_EINPUT);
        snprintf(want, sizeof want, "'%s' line %d: worker '%s' labels task 't00099' again (first on line %d)", p,
                 cases[c].again, cases[c].worker, cases[c].was);
        assert_string_equal(err.message, want);
        o.duplicates = QK_CROWD_DUP_FIRST;
        assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_OK);
        assert_int_equal(rs.dup_pairs, 1);
        assert_int_equal(rs.dropped_dups, 1);
        assert_int_equal(qk_crowd_num_labels(L), lines - 1);
        qk_crowd_labels_free(L);
        /* and none without the repeat: every label kept */
        n = 0;
        plain_lines(buf, &n, 0, 350, NULL);
        buf[n] = '\0';
        unlink(p);
        p = crowd_write_text(buf);
        o.duplicates = QK_CROWD_DUP_ERROR;
        assert_int_equal(crowd_read_file(p, &o, &L, &rs, &err), QK_OK);
        assert_int_equal(rs.dup_pairs, 0);
        assert_int_equal(qk_crowd_num_labels(L), 350);
        qk_crowd_labels_free(L);
        unlink(p);
    }
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_label), cmocka_unit_test(test_bad_fields),
        cmocka_unit_test(test_duplicates),    cmocka_unit_test(test_sparse_workers_and_tasks),
        cmocka_unit_test(test_layouts),       cmocka_unit_test(test_score),
        cmocka_unit_test(test_score_tnr),
        cmocka_unit_test(test_add_by_id),
        cmocka_unit_test(test_gold_weights),
        cmocka_unit_test(test_fast_path_matches),
        cmocka_unit_test(test_fast_path_messages),
        cmocka_unit_test(test_finish_again),
        cmocka_unit_test(test_task_grouping_paths),
        cmocka_unit_test(test_duplicates_in_order),
        cmocka_unit_test(test_duplicates_seen_while_reading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
