/* The toy-ysda labels (shared/data/crowd/toy-ysda/labels.tsv, crowd-kit's
 * toy_answers_df fixture), for the crowd unit tests. */
#ifndef QK_TEST_CROWD_TOY_H
#define QK_TEST_CROWD_TOY_H
/* toy_answers_df: task, worker, label (24 rows, in the fixture's order). */
static const char *const toy[][3] = {
    {"t1", "w1", "no"},  {"t2", "w1", "yes"}, {"t3", "w1", "yes"}, {"t4", "w1", "yes"}, {"t5", "w1", "yes"},
    {"t1", "w2", "yes"}, {"t2", "w2", "yes"}, {"t3", "w2", "no"},  {"t4", "w2", "yes"}, {"t5", "w2", "no"},
    {"t2", "w3", "yes"}, {"t3", "w3", "no"},  {"t4", "w3", "yes"}, {"t5", "w3", "no"},  {"t1", "w4", "yes"},
    {"t2", "w4", "no"},  {"t3", "w4", "yes"}, {"t4", "w4", "yes"}, {"t5", "w4", "no"},  {"t1", "w5", "no"},
    {"t2", "w5", "no"},  {"t3", "w5", "no"},  {"t4", "w5", "yes"}, {"t5", "w5", "no"},
};

/* The toy labels read into a finished label set (repeats kept). Include
 * after cmocka.h and qrelkit/crowd.h. */
static inline qk_crowd_labels *crowd_toy_labels(void)
{
    qk_crowd_labels *L = qk_crowd_labels_new();
    assert_non_null(L);
    for (size_t i = 0; i < sizeof toy / sizeof *toy; i++)
        assert_int_equal(qk_crowd_labels_add(L, toy[i][0], toy[i][1], toy[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    return L;
}

#endif
