#ifndef QK_CLI_EVAL_ESTIMATE_H
#define QK_CLI_EVAL_ESTIMATE_H
/* `qrelkit eval -R prels|strata`: the sampling estimators (src/estimate),
 * printed in eval's trec/tsv/json layouts or the reference tool's (--compat). */
typedef struct qk_est_cli {
    int kind; /* 1 prels, 2 strata, 3 draws */
    int per_topic, summary, with_var, compat, precision;
    const char *format; /* NULL = trec */
    const char *joint;  /* -R draws: joint inclusion file (var1), or NULL */
    long max_ret;
} qk_est_cli;
int qk_eval_estimate(const qk_est_cli *c, const char *rel_path, char **runs, int nruns);
/* One run of eval's JSON layout, for both eval and the estimators (defined
 * in eval_json.c): "run", "file", then "summary" only with summary and
 * "topics" only with per_topic. Takes sum and topics over (attached or
 * freed); the caller owns the result. */
struct json_t *qk_eval_json_run(const char *runid, const char *file, struct json_t *sum, int summary,
                                struct json_t *topics, int per_topic);
#endif
