/* Shared by the pool strategies: the run store, the design, and the
 * per-strategy entry points that qk_pool_next dispatches to. */
#ifndef QK_POOL_INTERNAL_H
#define QK_POOL_INTERNAL_H

#include "qrelkit/pool.h"

typedef struct pool_topic {
    qk_pool_topic pub;
    char *qid;
    char **docnos;
    uint32_t **lists;
    size_t *len;
} pool_topic;

typedef struct pool_entry { /* one (run, topic) list while building */
    char *qid;
    size_t run;
    char **docnos;
    size_t n;
} pool_entry;

struct qk_pool_runs {
    size_t nruns;
    char **runids;
    long depth;
    int finished;
    pool_entry *ent;
    size_t nent, capent;
    size_t ntopics;
    pool_topic *topics;
};

/* Sampler state of one topic. */
typedef struct design_topic {
    size_t m;          /* statap/strat: units of the emission order taken    */
    size_t norder;     /* statap/strat: documents that can be sampled        */
    uint32_t *order;   /* statap/strat: emission order of the documents      */
    uint32_t *stratum; /* statap/strat: stratum of every document            */
    uint32_t *alloc;   /* statap/strat: stratum of the k-th unit             */
    size_t nstrata;
    size_t *nh;               /* stratum sizes                                      */
    double *w;                /* statap pps: AP-prior weight of every document (else NULL) */
    double *cm;               /* statap pps: c of the sample of size m, m = 0..norder    */
    size_t *ncap;             /* statap pps: documents at pi = 1 in a sample of size m   */
    uint32_t *wpos;           /* statap pps: a document's place in descending weight    */
    size_t nrounds;           /* active                                             */
    double *rw;               /* active: nrounds x nruns run probabilities          */
    long *rdraws;             /* active: draws per round                            */
    long *dcnt;               /* active: times each document was drawn (ndocs)       */
    size_t ndraws, caprounds; /* active: draws over all rounds                      */
    /* active: every round's draw counts per document, rounds in order: the
     * entries [rc_from[t], rc_from[t + 1]) (nrc for the last) are round t's,
     * one per document it drew, in document order (as read for a file of
     * single draws); at most ndocs a round, however many the draws */
    uint32_t *rc_doc;
    long *rc_n;
    size_t *rc_from;
    size_t nrc, caprc;
    double *logq; /* active: sum_t N_t log1p(-p_t(i)) over the rounds
                     [0, logq_rounds), which no longer change        */
    size_t logq_rounds;
} design_topic;

struct qk_pool_design {
    qk_pool_method method;
    uint64_t seed;
    size_t strata;
    long *cuts;
    size_t ncuts;
    unsigned char *exclude; /* copy of the options' mask, or NULL */
    size_t ntopics, nruns;
    design_topic *t;
};

/* An emitted document (before the topic index is attached). */
typedef struct pool_out {
    uint32_t doc;
    double pi, score;
    long draws;
} pool_out;

/* Ordered pools: a full order of the topic's documents and their scores. */
/* What every ordered pool falls back to when it cannot get its scratch
 * memory, rather than fail: document id order, score 0. */
static inline void pool_order_fallback(size_t n, uint32_t *order, double *score)
{
    for (size_t d = 0; d < n; d++)
        order[d] = (uint32_t)d, score[d] = 0;
}
void pool_order_depth(const qk_pool_topic *tp, size_t nruns, uint32_t *order, double *score);
void pool_order_topk(const qk_pool_topic *tp, size_t nruns, uint32_t *order, double *score);
void pool_order_fusion(const qk_pool_topic *tp, size_t nruns, int rbp, double param, uint32_t *order,
                       double *score);
/* Best (smallest) rank of every document over the runs. */
void pool_min_rank(const qk_pool_topic *tp, size_t nruns, long *minr);

/* Samplers. */
qk_status pool_strata_setup(const qk_pool_topic *tp, size_t nruns, const qk_pool_design *d, size_t t,
                            design_topic *dt);
double pool_strata_pi(const design_topic *dt, uint32_t doc);
/* statap's default (strata 0): pi-ps by Tille's elimination (pool_pps.c). */
qk_status pool_pps_setup(const qk_pool_topic *tp, size_t nruns, const qk_pool_design *d, size_t t,
                         design_topic *dt);
double pool_pps_pi(const design_topic *dt, uint32_t doc);
qk_status pool_strata_next(const qk_pool_topic *tp, const signed char *x, design_topic *dt, long cap,
                           pool_out *out, size_t *nout);
qk_status pool_active_next(const qk_pool_topic *tp, size_t nruns, const signed char *x, design_topic *dt,
                           const qk_pool_opts *o, size_t t, long cap, pool_out *out, size_t *nout);
/* pi[d] of every document of the topic after the rounds so far (active). */
qk_status pool_active_pi(const qk_pool_topic *tp, size_t nruns, const design_topic *dt, double *pi);
/* p_t(docs[k]) of every round t at P[k * dt->nrounds + t] (caller's
 * m x nrounds array). */
qk_status pool_active_doc_rounds(const qk_pool_topic *tp, size_t nruns, const design_topic *dt,
                                 const uint32_t *docs, size_t m, double *P);

qk_status pool_design_push_round(design_topic *dt, size_t nruns, const double *rw);
/* n draws of doc (of ndocs) in the last round (a new round's counts, or
 * read from a design file): counted in the round, the document and the
 * design. merge: add to doc's entry of the round if it has one (a file's
 * records; a new round pushes each document once). */
qk_status pool_design_push_count(design_topic *dt, size_t ndocs, uint32_t doc, long n, int merge);
/* Calls fn(ctx, round, doc, n, p) for every (round, document) with n > 0
 * draws of the design, rounds in order. p is the round's p_t of every
 * document. */
typedef void (*pool_draw_fn)(void *ctx, size_t round, uint32_t doc, long n, const double *p);
qk_status pool_active_each_draw(const qk_pool_topic *tp, size_t nruns, const design_topic *dt, pool_draw_fn fn,
                                void *ctx);

/* Adaptive deterministic methods. */
qk_status pool_mtc_next(const qk_pool_topic *tp, size_t nruns, const signed char *x, const qk_pool_opts *o,
                        long cap, pool_out *out, size_t *nout);
qk_status pool_mtf_next(const qk_pool_topic *tp, size_t nruns, const signed char *x, const qk_pool_opts *o,
                        size_t t, long cap, pool_out *out, size_t *nout);
qk_status pool_mab_next(const qk_pool_topic *tp, size_t nruns, const signed char *x, const qk_pool_opts *o,
                        size_t t, long cap, pool_out *out, size_t *nout);

/* Topic t as the contributing runs see it: excluded runs' lists have
 * length 0. lenbuf holds nruns entries. */
void pool_view(const qk_pool_runs *p, size_t t, const unsigned char *exclude, qk_pool_topic *v,
               size_t *lenbuf);
#define POOL_NO_STRATUM UINT32_MAX

/* A generator for topic t of a seeded method, independent of other topics. */
void pool_topic_rng(qk_rng *r, uint64_t seed, size_t t, uint64_t salt);

#endif
