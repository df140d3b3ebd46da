/* Li's six lexical task features (src/crowd/crowd_lexical.c), by hand.
 * Corpus (no stop list, no stemming): d1 "apple apple banana" (3 tokens),
 * d2 "cherry" (1): N = 2, avgdl = 2, 4 tokens. Topic 1 "apple cherry".
 * Task "1 d1": tf(apple) = 2, tf(cherry) = 0, every df = 1, idf = log 2.
 *   TF 2; IDF 2 log 2; TF-IDF 2 log 2;
 *   cosine: q = (log 2, log 2) on (apple, cherry), d1 = (2 log 2, log 2) on
 *     (apple, banana): 2 log²2 / sqrt(2 log²2 · 5 log²2) = 2 / sqrt(10);
 *   BM25: log(1 + 1.5/1.5) · 2 · 2.2 / (2 + 1.2 (0.25 + 0.75 · 3/2))
 *     = log 2 · 4.4 / 3.65;
 *   LM: log(0.5 · 2/3 + 0.5 · 2/4) + log(0 + 0.5 · 1/4) = log(7/96).
 * Task "1 d9" is not in the index: it gets the column means (d1's values). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "qrelkit/crowd.h"
#include "search_fixture.h"

static void test_lexical(void **state)
{
    static const char corpus[] = "<DOC>\n<DOCNO>d1</DOCNO>\napple apple banana\n</DOC>\n"
                                 "<DOC>\n<DOCNO>d2</DOCNO>\ncherry\n</DOC>\n";
    qk_text_opts text = sx_plain();
    char *ipath = sx_build(corpus, &text, 16, NULL, NULL), *tpath = qk_test_write_text("1\tapple cherry\n");
    qk_index *ix = NULL;
    qk_topics *tp = NULL;
    qk_crowd_labels *L = qk_crowd_labels_new();
    double *x = NULL, want[6];
    size_t dim = 0, unmatched = 0, t1, t9;
    (void)state;
    assert_int_equal(qk_index_open(ipath, &ix, NULL), QK_OK);
    assert_int_equal(qk_topics_read(tpath, NULL, &tp, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add(L, "1 d1", "w", "1", NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add(L, "1 d9", "w", "0", NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    assert_int_equal(qk_crowd_lexical_features(ix, tp, L, &x, &dim, &unmatched, NULL), QK_OK);
    assert_int_equal(dim, 6);
    assert_int_equal(unmatched, 1);
    assert_true(qk_crowd_find_task(L, "1 d1", &t1) && qk_crowd_find_task(L, "1 d9", &t9));
    want[0] = 2, want[1] = 2 * log(2.0), want[2] = 2 * log(2.0), want[3] = 2 / sqrt(10.0);
    want[4] = log(2.0) * 4.4 / 3.65, want[5] = log(7.0 / 96.0);
    for (int k = 0; k < 6; k++) {
        assert_true(fabs(x[t1 * 6 + k] - want[k]) < 1e-12);
        assert_true(fabs(x[t9 * 6 + k] - want[k]) < 1e-12);
    }
    free(x);
    qk_crowd_labels_free(L);
    qk_topics_free(tp);
    qk_index_close(ix);
    qk_test_drop(ipath);
    qk_test_drop(tpath);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_lexical)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
