/* Evaluation engine internals shared by engine.c and merge.c. */
#ifndef QK_EVAL_ENGINE_H
#define QK_EVAL_ENGINE_H

#include "measure.h"

typedef struct qk_ranked {
    double score;
    const char *docno;
    long line;
    uint32_t hash; /* of the docno, for the per-topic tables */
    uint32_t len;  /* strlen(docno) */
} qk_ranked;

typedef struct qk_merge_buf {
    long *v, *rc, *grades;
    long *lv;           /* qk_merge_topic: the level of judgment index + 1 (lv[0] = -1) */
    long *rel, *judged; /* qk_merge's lists of ranks */
    qk_level_count *levels;
    size_t v_cap, rc_cap, grades_cap, levels_cap, lv_cap, rel_cap, judged_cap;
} qk_merge_buf;

/* Per-run scratch space, reused from topic to topic. */
typedef struct qk_scratch {
    qk_ranked *ranked;
    size_t nranked, ranked_cap;
    uint32_t *doc_ids; /* per ranked doc: its index in the topic's judgments + 1, 0 = not judged */
    size_t doc_ids_cap;
    uint64_t *set; /* the duplicate check's table */
    size_t set_cap;
    uint32_t *slots; /* qk_lookup_docs' table, then its judgments' hashes and docno lengths */
    size_t slots_cap;
    const char **jdocs; /* qk_lookup_docs: its judgments' docnos */
    size_t jdocs_cap;
    uint64_t *bits; /* qk_lookup_docs' bit filters: judged hashes, ranked hashes */
    size_t bits_cap;
    /* qk_rank_topic left the duplicate check to qk_lookup_docs, which finds
     * repeats in the probes it makes anyway; run_path names the run then */
    int dup_pending;
    const char *run_path;
    const char **docnos; /* ranked docnos, for prefs */
    size_t docnos_cap;
    qk_merge_buf *bufs; /* one per judgment group */
    qk_merge *merges;
    size_t nbufs;
    qk_topic_cache cache; /* the measures' shared values, buffers kept from topic to topic */
} qk_scratch;

/* Frees the buffers of a scratch space (not sc itself). */
void qk_scratch_free(qk_scratch *sc);
/* Room for the merges of n judgment groups (scratch.c). */
qk_status qk_scratch_bufs(qk_scratch *sc, size_t n);
/* A very deep topic's arrays released (core/shed.h): the ranking and the
 * lookup's tables once the judgments are looked up; the rest once the
 * topic is scored. Nothing for other topics. */
void qk_scratch_shed_lookup(qk_scratch *sc);
void qk_scratch_shed_topic(qk_scratch *sc);

/* Rank (score desc, docno desc — or asc for prefs), dedup, truncate to -M.
 * lens: strlen of each of rt's docnos when the caller knows them (the run
 * reader does, qk_run_doc_lengths), else NULL. With defer_dup, a repeated
 * docno (dedup QK_DEDUP_ERROR) is reported by qk_lookup_docs or
 * qk_rank_check_dups instead, whichever runs first. */
qk_status qk_rank_topic(qk_scratch *sc, const qk_run_topic *rt, const uint32_t *lens, const qk_eval_opts *o,
                        int prefs_order, int defer_dup, const char *run_path, qk_error *err);
/* The deferred duplicate check on its own (qid names the topic). */
qk_status qk_rank_check_dups(qk_scratch *sc, const char *qid, qk_error *err);
qk_status qk_lookup_docs(qk_scratch *sc, const qk_qrels *q, size_t topic, qk_error *err);
qk_status qk_merge_topic(qk_scratch *sc, const qk_qrels *q, size_t topic, uint32_t jg, const qk_eval_opts *o,
                         qk_merge *m, qk_merge_buf *b, qk_error *err);

#endif
