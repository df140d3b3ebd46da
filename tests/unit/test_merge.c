/* Ranking of one topic (src/eval/merge.c, qk_rank_topic): the keyed radix
 * sort must give exactly the order of trec_eval's rule (score descending,
 * ties by docno descending; the preference formats: ties ascending), which
 * the reference below sorts with its own comparison, for topics of every
 * size around the radix threshold, many ties, -0/+0, negative, subnormal
 * and huge scores. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/engine.h"
#include "qrelkit/qrelkit.h"

typedef struct ref {
    double score;
    const char *docno;
} ref;

static int ref_asc_ties;

static int ref_cmp(const void *pa, const void *pb)
{
    const ref *a = pa, *b = pb;
    int c;
    if (a->score > b->score)
        return -1;
    if (a->score < b->score)
        return 1;
    c = strcmp(a->docno, b->docno);
    return ref_asc_ties ? c : -c;
}

static double rand_score(qk_rng *r)
{
    static const double few[] = {1.0, 2.0, 0.0, -0.0, -1.5, 4.9e-324, 1e-310, 3.25, -2e300, 1e300, 0.5};
    switch (qk_rng_below(r, 4)) {
    case 0:
    case 1:
        return few[qk_rng_below(r, sizeof few / sizeof few[0])]; /* many ties */
    case 2:
        return (double)qk_rng_below(r, 1000) / 100.0 - 3.0;
    default: {
        uint64_t bits = qk_rng_next(r);
        double v;
        memcpy(&v, &bits, sizeof v);
        return v == v && v - v == 0 ? v : 1.0; /* finite */
    }
    }
}

static void test_rank_matches_rule(void **state)
{
    qk_rng r;
    char (*names)[32] = malloc(2000 * sizeof *names);
    const char **docnos = malloc(2000 * sizeof *docnos);
    double *scores = malloc(2000 * sizeof *scores);
    long *lines = malloc(2000 * sizeof *lines);
    ref *want = malloc(2000 * sizeof *want);
    qk_scratch sc;
    qk_eval_opts o;
    qk_error err;
    (void)state;
    assert_non_null(names);
    assert_non_null(docnos);
    assert_non_null(scores);
    assert_non_null(lines);
    assert_non_null(want);
    memset(&sc, 0, sizeof sc);
    qk_eval_opts_init(&o);
    qk_rng_seed(&r, 14);
    for (int topic = 0; topic < 3000; topic++) {
        size_t n = topic < 200 ? (size_t)topic : 1 + qk_rng_below(&r, topic % 10 == 0 ? 2000 : 300);
        int prefs = (int)qk_rng_below(&r, 2);
        int sorted_scores = qk_rng_below(&r, 4) == 0; /* mostly ranked, docno ties shuffled */
        for (size_t i = 0; i < n; i++) {
            /* Unique docnos (the index is part of the name), in random order. */
            snprintf(names[i], sizeof names[i], "%c%06llu-%zu", (char)('a' + qk_rng_below(&r, 3)),
                     (unsigned long long)qk_rng_below(&r, 1000000), i);
            docnos[i] = names[i];
            scores[i] = rand_score(&r);
            lines[i] = (long)i + 1;
        }
        if (sorted_scores)
            for (size_t i = 1; i < n; i++) /* insertion by score only: ties keep random docno order */
                for (size_t j = i; j > 0 && scores[j - 1] < scores[j]; j--) {
                    double t = scores[j];
                    const char *d = docnos[j];
                    scores[j] = scores[j - 1];
                    docnos[j] = docnos[j - 1];
                    scores[j - 1] = t;
                    docnos[j - 1] = d;
                }
        for (size_t i = 0; i < n; i++)
            want[i] = (ref){scores[i], docnos[i]};
        ref_asc_ties = prefs;
        qsort(want, n, sizeof *want, ref_cmp);
        {
            qk_run_topic rt = {"q", n, docnos, scores, lines};
            assert_int_equal(qk_rank_topic(&sc, &rt, &o, prefs, "run", &err), QK_OK);
        }
        assert_int_equal(sc.nranked, n);
        for (size_t i = 0; i < n; i++)
            if (strcmp(sc.ranked[i].docno, want[i].docno) != 0 || !(sc.ranked[i].score == want[i].score))
                fail_msg("topic %d (n %zu, prefs %d) rank %zu: got %s %.17g, rule gives %s %.17g", topic, n, prefs,
                         i, sc.ranked[i].docno, sc.ranked[i].score, want[i].docno, want[i].score);
    }
    free(sc.ranked);
    free(sc.doc_ids);
    free(sc.set);
    free(names);
    free(docnos);
    free(scores);
    free(lines);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_matches_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
