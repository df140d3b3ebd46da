/* Fuzz the sampled-judgment readers (prels, strata, draws, joint) and the
 * estimators over them: the first part of an input is the judgments, read as
 * each of the three formats, the part after "====" the run. */
#include "fuzz_util.h"
#include "qrelkit/estimate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(const qk_error *err)
{
    if (!err->message[0])
        abort(); /* every failure must say why */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n1, n2;
    const uint8_t *p2;
    const char *jpath, *rpath;
    qk_error err;
    qk_prels *p = NULL;
    qk_strata *s = NULL;
    qk_draws *d = NULL;
    qk_joint *j = NULL;
    qk_est_table *t = NULL;
    qk_run *run = NULL;
    qk_fuzz_split(data, size, &n1, &p2, &n2);
    jpath = qk_fuzz_file(0, data, n1);
    rpath = qk_fuzz_file(1, p2, n2);
    if (qk_run_read(rpath, &run, &err) != QK_OK) {
        check_error(&err);
        /* an empty run still exercises the readers and estimators */
        if (qk_run_new("empty", &run, &err) != QK_OK)
            return 0;
    }
    if (qk_prels_read(jpath, &p, &err) == QK_OK) {
        if (qk_statap_eval(p, run, &t, &err) == QK_OK) {
            FILE *f = fopen("/dev/null", "w");
            if (f) {
                (void)qk_statap_write_mq(t, f, &err);
                fclose(f);
            }
        } else
            check_error(&err);
        qk_est_table_free(t);
        t = NULL;
        qk_prels_free(p);
    } else
        check_error(&err);
    if (qk_strata_read(jpath, &s, &err) == QK_OK) {
        if (qk_xinfap_eval(s, run, 0, &t, &err) == QK_OK) {
            FILE *f = fopen("/dev/null", "w");
            if (f) {
                (void)qk_xinfap_write_sample_eval(t, f, 1, &err);
                fclose(f);
            }
        } else
            check_error(&err);
        qk_est_table_free(t);
        t = NULL;
        qk_strata_free(s);
    } else
        check_error(&err);
    if (qk_joint_read(jpath, &j, &err) == QK_OK) {
        double pij;
        (void)qk_joint_get(j, "1", "a", "b", &pij);
    } else
        check_error(&err);
    if (qk_draws_read(jpath, &d, &err) == QK_OK) {
        if (qk_draws_eval(d, run, &t, &err) != QK_OK)
            check_error(&err);
        qk_est_table_free(t);
        t = NULL;
        /* a joint file that read is used with the draws, whatever they hold */
        if (j && qk_draws_eval_joint(d, j, run, &t, &err) != QK_OK)
            check_error(&err);
        qk_est_table_free(t);
        qk_draws_free(d);
    } else
        check_error(&err);
    qk_joint_free(j);
    qk_run_free(run);
    return 0;
}
