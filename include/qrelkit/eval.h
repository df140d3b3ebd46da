/* qrelkit evaluation: the measure registry (every trec_eval 10.0 measure plus
 * ir_measures-style aliases), measure selection with parameters, and
 * evaluation of runs against relevance information.
 *
 * Typical use:
 *   qk_measures *m; qk_measures_new(&m);
 *   qk_measures_add(m, "map", &err); qk_measures_add(m, "P.10", &err);
 *   qk_measures_finalize(m, &err);
 *   qk_run *run; qk_run_read("run.txt", &run, &err);
 *   qk_eval_result *r; qk_eval_run(qrels, run, m, &opts, &r, &err);
 *   qk_result_summary(r, qk_result_find_value(r, "map"));
 *   qk_eval_result_free(r); qk_measures_free(m);
 *
 * Ownership: results and measure sets belong to the caller; strings returned
 * by accessors belong to the object they came from. */
#ifndef QRELKIT_EVAL_H
#define QRELKIT_EVAL_H

#include <stdio.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Registry ------------------------------------------------------------ */
typedef enum {
    QK_PARAM_NONE = 0,
    QK_PARAM_LONG_CUTOFFS,   /* P.5,10      -> P_5 P_10 (sorted)            */
    QK_PARAM_DOUBLE_CUTOFFS, /* iprec_at_recall..1,.2 -> _0.10 _0.20 (sorted) */
    QK_PARAM_DOUBLE_LIST,    /* utility.1,-1,0,0 -> utility_1,-1,0,0 (verbatim) */
    QK_PARAM_PAIRS           /* ndcg.1=3,2=9 -> ndcg_1=3,2=9 (verbatim)       */
} qk_param_kind;

typedef enum {
    QK_SUMMARY_MEAN = 0, /* arithmetic mean over topics                    */
    QK_SUMMARY_SUM,      /* plain sum, printed as an integer                */
    QK_SUMMARY_GEO,      /* exp(mean(log(max(x, 1e-5))))                    */
    QK_SUMMARY_NUMQ,     /* number of topics                                */
    QK_SUMMARY_RUNID,    /* the run id string                               */
    QK_SUMMARY_NONE      /* per-topic only (relstring)                      */
} qk_summary_kind;

typedef struct qk_measure_info {
    const char *name;
    const char *help;           /* one paragraph: definition and formula  */
    qk_param_kind param_kind;
    const char *default_params; /* NULL when none                          */
    qk_summary_kind summary;
    int is_long;                /* printed as an integer                   */
    int per_topic;              /* has per-topic lines                     */
    qk_rel_format needs;        /* QK_REL_QRELS, _QRELS_JG or _PREFS (prefs or qrels_prefs); runid and num_q work with any */
    int any_format;
} qk_measure_info;

QK_API size_t qk_measure_count(void);
QK_API const qk_measure_info *qk_measure_at(size_t i);      /* table (output) order */
QK_API const qk_measure_info *qk_measure_find(const char *name);

/* Nicknames (official, all_trec, set, all_prefs, prefs, qrels_jg). NULL-terminated list of member names. */
QK_API const char *const *qk_nickname_members(const char *nickname);
/* ir_measures-style alias ("AP", "P@10", "nDCG@10", "R@100", "RR", "Judged@10", ...)
 * translated to a trec_eval measure spec, written to buf. 1 when translated, 0 when not an alias. */
QK_API int qk_measure_alias(const char *alias, char *buf, size_t bufsize);
/* ir_measures' relevance parameter: "P(rel=2)@5" -> "P@5" in buf with
 * *rel_level = 2 and *found = 1 ("RBP(p=0.8,rel=2)" -> "RBP(p=0.8)"); a spec
 * without rel= is copied to buf with *found = 0. The measure means the spec
 * evaluated with that relevance level (qk_eval_opts.rel_level, trec_eval's
 * -l), so a program evaluates each level's measures separately. QK_EUSAGE when
 * rel is not an integer, is given twice, or the spec does not fit in buf. */
QK_API qk_status qk_measure_split_rel(const char *spec, char *buf, size_t bufsize, long *rel_level, int *found,
                                      qk_error *err);

/* ---- Selection ----------------------------------------------------------- */
typedef struct qk_measures qk_measures;
QK_API qk_status qk_measures_new(qk_measures **out);
QK_API void qk_measures_free(qk_measures *m);
/* Add a trec_eval -m argument ("map", "P.5,10", "official", "ndcg.1=3"), an
 * alias ("nDCG@10", "RBP(p=0.8)") or a value name ("P_10", "ndcg_cut_10",
 * "iprec_at_recall_0.10"). Unknown names and bad parameters are QK_EUSAGE,
 * checked here: every parameter must be a whole number of its kind (cutoffs
 * positive integers, or trec_eval's truncated "23.4"; gains and points finite
 * numbers; rbp's p in (0, 1)); the message names the spec and the bad item. */
QK_API qk_status qk_measures_add(qk_measures *m, const char *spec, qk_error *err);
/* Resolve parameters (defaults when none) and value names. With nothing
 * added, "official" is used. Bad parameters are QK_EUSAGE. */
QK_API qk_status qk_measures_finalize(qk_measures *m, qk_error *err);
/* Number of requested measures, and all value names in output order. */
QK_API size_t qk_measures_num_values(const qk_measures *m);
QK_API const char *qk_measures_value_name(const qk_measures *m, size_t i);
/* The index of the value one spec names (any spelling qk_measures_add takes)
 * among a finalized set's values: "P.10", "P_10" and "P@10" name P_10; a
 * spec without parameters names its measure's first value. QK_EUSAGE when
 * the set does not compute it (e.g. "P.10" after an earlier "P.5") or the
 * spec is a nickname or names several values. */
QK_API qk_status qk_measures_value_index(const qk_measures *m, const char *spec, size_t *index, qk_error *err);

/* ---- Evaluation ------------------------------------------------------------ */
typedef struct qk_eval_opts {
    long rel_level;       /* -l: relevance threshold (default 1)                 */
    long max_ret;         /* -M: documents kept per topic (default LONG_MAX)     */
    long num_docs;        /* -N: documents in the collection (default 0)         */
    int judged_only;      /* -J: drop unjudged retrieved documents                */
    int complete;         /* -c: evaluate every qrels topic, missing ones as empty */
    qk_dedup dedup;       /* duplicate docnos within a run topic                  */
    const char *only_topic; /* -D n.qid: evaluate this topic only (NULL = all)    */
    int topic_range;      /* 1: qrels topics [topic_first, topic_end) only (eval
                             --shard by topic; none may be evaluated); not with
                             qk_eval_stream_trec */
    size_t topic_first, topic_end;
    const qk_zscores *zscores; /* -Z: convert every value to a z-score (NULL = off) */
    int threads;               /* qk_eval_stream: 1: one thread; 2+: a run file
                                  cut into up to that many topic parts scored
                                  side by side (a gzip run inflated on a second
                                  thread, a pipe parsed on one); 0 (default):
                                  a part of 4 MB or more per core other tasks
                                  leave free (cost model). Results are
                                  identical either way. */
    int summary_only;          /* qk_eval_streams: 1: the caller reads each
                                  result's summary, run id and missing topics
                                  only, not its per-topic values: a run whose
                                  per-topic table would hold
                                  QK_EVAL_STREAM_VALUES values or more is
                                  summed topic by topic instead (as
                                  qk_eval_stream_trec with f NULL), the same
                                  summary in the memory of one topic.
                                  0 (default): every value kept. */
} qk_eval_opts;
QK_API void qk_eval_opts_init(qk_eval_opts *o);
/* A per-topic table of this many values (qrels topics x values) or more
 * is summed topic by topic where the caller allows it (summary_only;
 * qrelkit eval and trec_eval stream their output from there): 8 MB. */
#define QK_EVAL_STREAM_VALUES ((size_t)1 << 20)

typedef struct qk_eval_result qk_eval_result;
/* Evaluate one ranked run against the relevance information. Topics in the
 * run but not in the qrels are ignored. Topics in the qrels but not in the
 * run are skipped (listed by qk_result_missing) unless opts->complete. */
QK_API qk_status qk_eval_run(const qk_qrels *q, const qk_run *run, const qk_measures *m,
                      const qk_eval_opts *opts, qk_eval_result **out, qk_error *err);
/* The same, reading the run from a stream opened with qk_run_open (either
 * mode) as it goes: memory stays proportional to one topic when the file
 * keeps each topic's lines together, and parsing overlaps scoring when
 * opts->threads allows. Results are identical to qk_eval_run's. The stream
 * is read to its end; the caller closes it. */
QK_API qk_status qk_eval_stream(const qk_qrels *q, qk_run_stream *s, const qk_measures *m,
                         const qk_eval_opts *opts, qk_eval_result **out, qk_error *err);
/* qk_eval_stream, writing trec_eval's per-topic lines to f as it goes:
 * exactly the bytes of qk_result_write_trec(*out, f, 1, 0) on
 * qk_eval_stream's result. When the run's topics (those with judgments)
 * come in qrels order, each topic block once -- checked by a light pass
 * over the run first (qk_run_scan_topics) -- each topic's lines are written
 * as soon as it is scored and no per-topic table is kept: memory is that of
 * one topic, and *out holds the summary, the missing topics and the run id
 * only (qk_result_num_topics is 0). Otherwise the run is evaluated as by
 * qk_eval_stream and the lines are written at the end (*out then holds
 * every topic). On a failure in the middle, the lines of the topics before
 * it may have been written. Write the summary with
 * qk_result_write_trec(*out, f, 0, 1). f may be NULL: no per-topic lines,
 * and (for a run in qrels order) no per-topic table either, for a summary
 * in the memory of one topic. */
QK_API qk_status qk_eval_stream_trec(const qk_qrels *q, qk_run_stream *s, const qk_measures *m,
                                     const qk_eval_opts *opts, FILE *f, qk_eval_result **out, qk_error *err);
/* Several runs at once: out[i] = qk_eval_stream(q, s[i], ...), evaluated in
 * parallel over runs by up to `threads` threads (0: one per core; 1: one
 * after another), each run on one thread (a single run keeps
 * opts->threads). Results do not depend on threads. On failure returns the
 * status and error of the first failing run in the order given, sets
 * *failed to its index, and leaves out[i] set for i < *failed only (the
 * caller frees those); on success *failed = n and the caller frees every
 * out[i]. The caller opens and closes the streams. */
QK_API qk_status qk_eval_streams(const qk_qrels *q, qk_run_stream *const *s, size_t n, const qk_measures *m,
                                 const qk_eval_opts *opts, int threads, qk_eval_result **out, size_t *failed,
                                 qk_error *err);
QK_API void qk_eval_result_free(qk_eval_result *r);
/* A result from per-topic values evaluated elsewhere (eval --shard by topic):
 * state[t] of every qrels topic t (QK_TOPIC_*), its raw values
 * vals[t * nvalues + i] (as qk_result_topic_value gives them) and strings
 * strs[t * nvalues + i] (NULL for numeric values; strs may be NULL), then the
 * summary exactly as an evaluation computes it (opts: -c, -Z). */
enum { QK_TOPIC_NONE = 0, QK_TOPIC_EVALUATED = 1, QK_TOPIC_MISSING = 2 };
QK_API qk_status qk_eval_result_assemble(const qk_qrels *q, const qk_measures *m, const qk_eval_opts *opts,
                                         const char *runid, const unsigned char *state, const double *vals,
                                         char *const *strs, qk_eval_result **out, qk_error *err);

QK_API const char *qk_result_runid(const qk_eval_result *r);
QK_API size_t qk_result_num_values(const qk_eval_result *r);
QK_API const char *qk_result_value_name(const qk_eval_result *r, size_t i);
QK_API const qk_measure_info *qk_result_value_measure(const qk_eval_result *r, size_t i);
/* Index of a value by its printed name ("map", "P_10"); (size_t)-1 when absent. */
QK_API size_t qk_result_find_value(const qk_eval_result *r, const char *name);
/* Evaluated topics, in qrels (strcmp) order. */
QK_API size_t qk_result_num_topics(const qk_eval_result *r);
QK_API const char *qk_result_topic(const qk_eval_result *r, size_t t);
QK_API double qk_result_topic_value(const qk_eval_result *r, size_t t, size_t i);
/* For string values (relstring); NULL for numeric ones. */
QK_API const char *qk_result_topic_string(const qk_eval_result *r, size_t t, size_t i);
QK_API double qk_result_summary(const qk_eval_result *r, size_t i);
/* 1 when values are z-scores (-Z). */
QK_API int qk_result_zmode(const qk_eval_result *r);
/* qrels topics without any run line (skipped unless -c). */
QK_API size_t qk_result_num_missing(const qk_eval_result *r);
QK_API const char *qk_result_missing(const qk_eval_result *r, size_t k);

/* Write in trec_eval's format: per-topic lines (when per_topic) then the
 * summary (when summary). Byte-identical to trec_eval 10.0. */
QK_API qk_status qk_result_write_trec(const qk_eval_result *r, FILE *f, int per_topic, int summary,
                               qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
