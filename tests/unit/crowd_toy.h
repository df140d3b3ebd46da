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

#endif
