/* The classifier's features of adaptive selection (qk_adapt_features,
 * src/topics/relevance_model.c) against their definition worked out from
 * the runs here, and qk_adapt_probabilities, which makes and predicts the
 * unselected topics' rows a topic at a time, against the classifier on
 * every row at once (qk_adapt_fit_predict on the z-scored rows): the same
 * probabilities, bit for bit. Runs of random documents drawn from a small
 * vocabulary, so that the runs share some; documents repeated at worse
 * ranks; one run without one topic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topics/adaptive_internal.h"

enum { NRUNS = 5, NTOPICS = 6, DEPTH = 40, VOCAB = 60, POOL = 4 };

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

typedef struct fixture {
    qk_run *runs[NRUNS];
    qk_qrels *q;
    qk_adapt_data *d;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    qk_error err = {0};
    uint64_t seed = 11;
    char qid[8], names[DEPTH][16];
    const char *docs[DEPTH];
    double sc[DEPTH];
    assert_non_null(f);
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &f->q, &err), QK_OK);
    for (size_t s = 0; s < NRUNS; s++) {
        char name[8];
        snprintf(name, sizeof name, "r%zu", s);
        assert_int_equal(qk_run_new(name, &f->runs[s], &err), QK_OK);
        for (size_t t = 0; t < NTOPICS; t++) {
            double score = 50 + (double)(next(&seed) % 50);
            if (s == 3 && t == 4)
                continue; /* a run without a topic */
            snprintf(qid, sizeof qid, "T%zu", t);
            for (size_t i = 0; i < DEPTH; i++) {
                size_t doc = (size_t)next(&seed) % VOCAB; /* 40 draws of 60: repeats */
                snprintf(names[i], sizeof names[i], "t%zud%zu", t, doc);
                docs[i] = names[i];
                score -= 0.25 + (double)(next(&seed) % 100) / 37.0;
                sc[i] = score;
            }
            assert_int_equal(qk_run_add_topic(f->runs[s], qid, DEPTH, docs, sc, NULL, &err), QK_OK);
        }
    }
    for (size_t t = 0; t < NTOPICS; t++)
        for (size_t v = 0; v < VOCAB; v += 2) {
            char dn[16];
            snprintf(qid, sizeof qid, "T%zu", t);
            snprintf(dn, sizeof dn, "t%zud%zu", t, v);
            assert_int_equal(qk_qrels_add(f->q, qid, NULL, dn, (v / 2 + t) % 3 == 0, &err), QK_OK);
        }
    assert_int_equal(qk_qrels_finish(f->q, QK_DEDUP_ERROR, &err), QK_OK);
    assert_int_equal(qk_adapt_data_new((const qk_run *const *)f->runs, NRUNS, NULL, 0, POOL, &f->d, &err),
                     QK_OK);
    assert_int_equal(qk_adapt_data_set_labels(f->d, f->q, NULL, &err), QK_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    qk_adapt_data_free(f->d);
    qk_qrels_free(f->q);
    for (size_t s = 0; s < NRUNS; s++)
        qk_run_free(f->runs[s]);
    free(f);
    return 0;
}

/* Run s's rank of doc in topic qid (its place among the run's distinct
 * documents, first copies in rank order) and the min-max normalised score
 * of that copy; 0 when the run does not rank it. */
static long rank_in(const qk_run *r, const char *qid, const char *doc, double *score)
{
    size_t t, seen = 0;
    const qk_run_topic *rt;
    double lo = INFINITY, hi = -INFINITY;
    *score = 0;
    if (!qk_run_find_topic(r, qid, &t))
        return 0;
    rt = qk_run_topic_at(r, t);
    for (size_t e = 0; e < rt->n; e++) {
        lo = fmin(lo, rt->scores[e]);
        hi = fmax(hi, rt->scores[e]);
    }
    for (size_t e = 0; e < rt->n; e++) {
        int first = 1;
        for (size_t k = 0; k < e && first; k++)
            first = strcmp(rt->docnos[k], rt->docnos[e]) != 0;
        if (!first)
            continue;
        seen++;
        if (strcmp(rt->docnos[e], doc) == 0) {
            *score = hi > lo ? (rt->scores[e] - lo) / (hi - lo) : 1;
            return (long)seen;
        }
    }
    return 0;
}

static void test_features_by_definition(void **state)
{
    fixture *f = *state;
    const qk_adapt_data *d = f->d;
    size_t nf = 7 + NRUNS, checked = 0;
    double past[NRUNS];
    for (size_t s = 0; s < NRUNS; s++)
        past[s] = 0.1 + 0.13 * (double)s;
    for (size_t t = 0; t < d->n; t++) {
        const qk_adapt_topic *tp = &d->t[t];
        double *rows = malloc((tp->npool * nf + 1) * sizeof *rows);
        assert_non_null(rows);
        qk_adapt_features(d, t, past, rows);
        for (size_t i = 0; i < tp->npool; i++) {
            const char *doc = qk_strpool_str(tp->docs, (uint32_t)i);
            double cnt = 0, rs = 0, rmin = INFINITY, rmax = -INFINITY, ps = 0, pmin = INFINITY,
                   pmax = -INFINITY;
            const double *got = rows + i * nf;
            for (size_t s = 0; s < NRUNS; s++) {
                double score;
                long r = rank_in(f->runs[s], d->topic[t], doc, &score);
                assert_true(got[7 + s] == score);
                if (r == 0)
                    continue;
                cnt++;
                rs += (double)r;
                rmin = fmin(rmin, (double)r);
                rmax = fmax(rmax, (double)r);
                ps += past[s];
                pmin = fmin(pmin, past[s]);
                pmax = fmax(pmax, past[s]);
            }
            assert_true(cnt > 0); /* a pooled document: some run ranks it */
            assert_true(got[0] == cnt);
            assert_true(got[1] == rs / cnt);
            assert_true(got[2] == rmin);
            assert_true(got[3] == rmax);
            assert_true(got[4] == ps / cnt);
            assert_true(got[5] == pmin);
            assert_true(got[6] == pmax);
            checked++;
        }
        free(rows);
    }
    assert_true(checked > (size_t)NTOPICS * POOL); /* the runs' pools differ */
}

/* Every row at once: the selected topics' rows z-scored (training mean
 * and sd, sd 0 -> 1), the others with the same mean and sd, one call. */
static void all_at_once(const qk_adapt_data *d, const unsigned char *sel, const double *past, double *prob,
                        size_t *npr_out)
{
    size_t nf = 7 + d->l, ntr = 0, npr = 0, a = 0, b = 0;
    double *ftr, *fpr;
    signed char *y;
    for (size_t t = 0; t < d->n; t++)
        *(sel[t] ? &ntr : &npr) += d->t[t].npool;
    ftr = malloc((ntr * nf + 1) * sizeof *ftr);
    fpr = malloc((npr * nf + 1) * sizeof *fpr);
    y = malloc(ntr);
    assert_true(ftr && fpr && y);
    for (size_t t = 0; t < d->n; t++) {
        if (sel[t]) {
            qk_adapt_features(d, t, past, ftr + a * nf);
            for (size_t i = 0; i < d->t[t].npool; i++)
                y[a++] = (signed char)(d->t[t].label[i] == 1);
        } else {
            qk_adapt_features(d, t, past, fpr + b * nf);
            b += d->t[t].npool;
        }
    }
    for (size_t k = 0; k < nf; k++) {
        double m = 0, v = 0, sd;
        for (size_t i = 0; i < ntr; i++)
            m += ftr[i * nf + k];
        m /= (double)ntr;
        for (size_t i = 0; i < ntr; i++)
            v += (ftr[i * nf + k] - m) * (ftr[i * nf + k] - m);
        sd = ntr > 1 ? sqrt(v / (double)(ntr - 1)) : 0;
        if (!(sd > 0))
            sd = 1;
        for (size_t i = 0; i < ntr; i++)
            ftr[i * nf + k] = (ftr[i * nf + k] - m) / sd;
        for (size_t i = 0; i < npr; i++)
            fpr[i * nf + k] = (fpr[i * nf + k] - m) / sd;
    }
    assert_int_equal(qk_adapt_fit_predict(ntr, nf, ftr, y, npr, fpr, 0.5, prob, NULL), QK_OK);
    *npr_out = npr;
    free(ftr);
    free(fpr);
    free(y);
}

static void test_probabilities_topic_at_a_time(void **state)
{
    fixture *f = *state;
    const qk_adapt_data *d = f->d;
    unsigned char sel[NTOPICS] = {1, 0, 1, 0, 0, 1};
    double past[NRUNS] = {0}, col[NRUNS], prob[NTOPICS * VOCAB], **p = NULL;
    qk_topics_metric m;
    qk_error err = {0};
    size_t nsel = 0, npr, b = 0;
    assert_int_equal(qk_topics_metric_parse("ap", &m, &err), QK_OK);
    for (size_t t = 0; t < d->n; t++)
        if (sel[t]) {
            nsel++;
            qk_adapt_true_topic(d, t, &m, col);
            for (size_t s = 0; s < NRUNS; s++)
                past[s] += col[s];
        }
    for (size_t s = 0; s < NRUNS; s++)
        past[s] /= (double)nsel;
    all_at_once(d, sel, past, prob, &npr);
    assert_int_equal(qk_adapt_probabilities(d, sel, &m, 0.5, 0, &p, &err), QK_OK);
    for (size_t t = 0; t < d->n; t++) {
        if (sel[t])
            continue;
        for (size_t i = 0; i < d->t[t].npool; i++, b++)
            assert_true(p[t][i] == prob[b]);
    }
    assert_int_equal(b, npr);
    /* both classes in training: predictions, not the base rate */
    assert_true(prob[0] != prob[1] || prob[1] != prob[2]);
    qk_adapt_probs_free(d, p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_by_definition),
        cmocka_unit_test(test_probabilities_topic_at_a_time),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
