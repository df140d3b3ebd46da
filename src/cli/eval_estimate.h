#ifndef QK_CLI_EVAL_ESTIMATE_H
#define QK_CLI_EVAL_ESTIMATE_H
/* `qrelkit eval -R prels|strata`: the sampling estimators (src/estimate),
 * printed in eval's trec/tsv/json layouts or the reference tool's (--compat). */
typedef struct qk_est_cli {
    int kind; /* 1 prels, 2 strata, 3 draws */
    int per_topic, summary, with_var, compat, precision;
    const char *format; /* NULL = trec */
    long max_ret;
} qk_est_cli;
int qk_eval_estimate(const qk_est_cli *c, const char *rel_path, char **runs, int nruns);
#endif
