/* CLEF TAR evaluation: the measures of the official tar_eval.py (CLEF-TAR/tar,
 * scripts/tar_eval.py with measures/eval_measures.py, as used for the 2017
 * participant results), reproduced byte for byte. The arithmetic follows the
 * script's order of operations (plain left-to-right sums, Python's integer
 * and float types, rounding to 3 decimals at print time) on purpose: any
 * other summation order or rounding changes the third decimal somewhere.
 * See doc/qrelkit-tar.md for the definitions and the script's quirks kept
 * here (documents outside the qrels count as shown, num_docs is raised to
 * num_shown for wss and loss_e, NCG@10 is 0 when num_docs is a multiple of
 * 10, ALL's NCG is the ratio of means). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/tar.h"

static const char *const measure_names[QK_TAR_NUM_MEASURES] = {"num_docs",
                                                               "num_rels",
                                                               "num_shown",
                                                               "num_feedback",
                                                               "rels_found",
                                                               "last_rel",
                                                               "wss_100",
                                                               "wss_95",
                                                               "NCG@10",
                                                               "NCG@20",
                                                               "NCG@30",
                                                               "NCG@40",
                                                               "NCG@50",
                                                               "NCG@60",
                                                               "NCG@70",
                                                               "NCG@80",
                                                               "NCG@90",
                                                               "NCG@100",
                                                               "total_cost",
                                                               "total_cost_uniform",
                                                               "total_cost_weighted",
                                                               "norm_area",
                                                               "ap",
                                                               "r",
                                                               "loss_e",
                                                               "loss_r",
                                                               "loss_er"};

const char *qk_tar_measure_name(int m)
{
    return m >= 0 && m < QK_TAR_NUM_MEASURES ? measure_names[m] : NULL;
}

struct qk_tar_eval {
    qk_tar_row *rows;
    size_t n;
    qk_tar_row all;
    const char **dups; /* all rows' duplicate docnos (pointers into the run) */
    size_t ndups;
};

/* Python's round(x, 3): the correctly rounded decimal (ties to even on the
 * exact binary value, as glibc's printf does), read back. */
static double py_round3(double x)
{
    char buf[QK_FMT_BUFSIZE];
    snprintf(buf, sizeof buf, "%.3f", x);
    return strtod(buf, NULL);
}

size_t qk_tar_fmt_value(char *buf, double v, int is_int)
{
    int len;
    if (is_int)
        return (size_t)snprintf(buf, QK_FMT_BUFSIZE, "%.0f", v);
    if (isnan(v))
        return (size_t)snprintf(buf, QK_FMT_BUFSIZE, "nan");
    if (isinf(v))
        return (size_t)snprintf(buf, QK_FMT_BUFSIZE, v > 0 ? "inf" : "-inf");
    /* repr(round(v, 3)): the 3-decimal string without trailing zeros, at
     * least one digit after the point. */
    len = snprintf(buf, QK_FMT_BUFSIZE, "%.3f", v);
    while (len > 0 && buf[len - 1] == '0' && buf[len - 2] != '.')
        buf[--len] = '\0';
    return (size_t)len;
}

/* The running state of one topic: the fields of the script's measure
 * classes that reach the output. */
typedef struct topic_state {
    long N, R, rels_95;
    long shown, feedback, rels_found, last_rel, last_rel_95;
    double ap_sum;
    long gain_rank, t10; /* every counted entry (NS too); checkpoint step */
    long total_cg;
    double cgat[11];
    double area;
    long cg;
    double total_cost;
    int cost_is_int;
} topic_state;

static void topic_start(topic_state *s, long N, long R)
{
    memset(s, 0, sizeof *s);
    s->N = N;
    s->R = R;
    s->rels_95 = (long)rint((double)R * 0.95); /* Python's round(): half to even */
    s->t10 = N >= 10 ? N / 10 : 1;             /* the script divides by N / 10 unguarded: see topic_update */
    s->cost_is_int = 1;
}

static void topic_update(topic_state *s, long v, int action)
{
    int rel = v > 0 && v < 3;
    if (action != QK_TAR_NS) {
        s->shown++;
        if (rel) {
            if (s->rels_found < s->rels_95)
                s->last_rel_95 = s->shown;
            s->rels_found++;
            s->last_rel = s->shown;
            s->ap_sum += (double)s->rels_found / (double)s->shown;
        }
        s->area += (double)s->cg + (rel ? 0.5 : 0.0);
        s->cg += rel;
        s->total_cg += rel;
        s->total_cost += 1.0;
    } else {
        s->total_cost += 0.0;
    }
    s->cost_is_int = 0;
    if (action == QK_TAR_AF) {
        s->feedback++;
        s->total_cost += 2.0;
    }
    s->gain_rank++;
    /* Checkpoints every N / 10 entries, at slot int(k / N * 10). The script
     * stops with a division by zero on a topic of fewer than 10 documents;
     * there every entry is a checkpoint (t10 = 1). */
    if (s->gain_rank % s->t10 == 0) {
        int pos = (int)(((double)s->gain_rank / (double)s->N) * 10.0);
        for (int p = pos; p < 11; p++)
            s->cgat[p] = (double)s->total_cg;
    }
}

static void set(qk_tar_row *row, int m, double v, int is_int)
{
    row->v[m] = v;
    row->is_int[m] = (unsigned char)is_int;
}

static void topic_finish(topic_state *s, qk_tar_row *row)
{
    long Nc = s->shown > s->N ? s->shown : s->N; /* the script's fix when more is shown than judged */
    long Mr = s->R - s->rels_found, Nu = s->N - s->shown; /* missed relevant; not shown (< 0: more shown) */
    double Pu, Pw = 0.0, area = s->area, max_area;
    int pw_is_int = 1;
    set(row, QK_TAR_NUM_DOCS, (double)s->N, 1);
    set(row, QK_TAR_NUM_RELS, (double)s->R, 1);
    set(row, QK_TAR_NUM_SHOWN, (double)s->shown, 1);
    set(row, QK_TAR_NUM_FEEDBACK, (double)s->feedback, 1);
    set(row, QK_TAR_RELS_FOUND, (double)s->rels_found, 1);
    set(row, QK_TAR_LAST_REL, (double)s->last_rel, 1);
    if (s->rels_found < s->R)
        set(row, QK_TAR_WSS_100, 0, 1);
    else
        set(row, QK_TAR_WSS_100, (double)(Nc - s->last_rel) / (double)Nc, 0);
    if (s->rels_found < s->rels_95)
        set(row, QK_TAR_WSS_95, 0, 1);
    else
        set(row, QK_TAR_WSS_95, (double)(Nc - s->last_rel_95) / (double)Nc - 0.05, 0);
    s->cgat[10] = (double)s->total_cg;
    for (int i = 0; i < 10; i++)
        set(row, QK_TAR_NCG_10 + i, s->R > 0 ? s->cgat[i] / (double)s->R : 0.0, 0);
    /* cost: 1 per shown document, 2 more per feedback; penalties for the
     * documents not shown when relevant ones were missed */
    Pu = s->R > 0 ? ((double)Nu * 2.0 * (double)Mr) / (double)s->R : 0.0;
    for (long i = 1; i < Mr; i++) {
        Pw = Pw + ((double)Nu * 2.0) / pow(2.0, (double)i);
        pw_is_int = 0;
    }
    set(row, QK_TAR_TOTAL_COST, s->total_cost, s->cost_is_int);
    set(row, QK_TAR_TOTAL_COST_UNIFORM, s->total_cost + Pu, s->cost_is_int && s->R == 0);
    set(row, QK_TAR_TOTAL_COST_WEIGHTED, s->total_cost + Pw, s->cost_is_int && pw_is_int);
    /* area under the cumulative-relevant curve; documents never shown keep
     * the final count; more shown than judged raises the maximum */
    if (Nu > 0)
        area = area + (double)(Nu * s->cg);
    max_area = (double)(s->R * s->N) - (double)(s->R * s->R) / 2.0;
    if (Nu < 0)
        max_area = (double)(s->R * (s->N - Nu)) - (double)(s->R * s->R) / 2.0;
    set(row, QK_TAR_NORM_AREA, max_area > 0.0 ? py_round3(area / max_area) : 0.0, 0);
    set(row, QK_TAR_AP, s->R > 0 ? s->ap_sum / (double)s->R : 0.0, 0);
    {
        double r = s->R > 0 ? (double)s->rels_found / (double)s->R : 0.0;
        double loss_r = pow(1 - r, 2.0);
        double loss_e = pow(100.0 / (double)Nc, 2.0) * pow((double)s->shown / ((double)s->R + 100.0), 2.0);
        set(row, QK_TAR_R, r, 0);
        set(row, QK_TAR_LOSS_E, loss_e, 0);
        set(row, QK_TAR_LOSS_R, loss_r, 0);
        set(row, QK_TAR_LOSS_ER, loss_r + loss_e, 0);
    }
}

/* ALL: counts summed, the rest averaged over the evaluated topics, NCG as
 * the mean cumulative gain over the mean num_rels (the script aggregates
 * the gain lists and max_cg separately). */
static void aggregate(qk_tar_eval *e, const double (*cgat)[10])
{
    qk_tar_row *all = &e->all;
    double sum[QK_TAR_NUM_MEASURES] = {0}, cg[10] = {0}, max_cg = 0.0, n = 0;
    all->qid = "ALL";
    for (size_t k = 0; k < e->n; k++) {
        const qk_tar_row *r = &e->rows[k];
        if (r->skipped)
            continue;
        n += 1;
        for (int m = 0; m < QK_TAR_NUM_MEASURES; m++)
            sum[m] = sum[m] + r->v[m];
        for (int i = 0; i < 10; i++)
            cg[i] = cg[i] + cgat[k][i];
        max_cg = max_cg + r->v[QK_TAR_NUM_RELS];
    }
    for (int m = 0; m < QK_TAR_NUM_MEASURES; m++) {
        int counted = m <= QK_TAR_RELS_FOUND;
        if (counted)
            set(all, m, sum[m], 1);
        else if (n > 0)
            set(all, m, sum[m] / n, 0);
        else /* nothing to average: the script prints its initial values */
            set(all, m, 0.0, m == QK_TAR_LAST_REL || m == QK_TAR_TOTAL_COST);
    }
    for (int i = 0; i < 10; i++) {
        double mc = n > 0 ? max_cg / n : 0.0, c = n > 0 ? cg[i] / n : 0.0;
        set(all, QK_TAR_NCG_10 + i, mc > 0.0 ? c / mc : 0.0, 0);
    }
    all->skipped = 0;
}

static qk_status topic_size(const qk_qrels *q, const char *qid, long *N, long *R, size_t *tq, int *found)
{
    size_t n;
    const qk_judgment *j;
    *N = *R = 0;
    *found = qk_qrels_find_topic(q, qid, strlen(qid), tq);
    if (!*found)
        return QK_OK;
    j = qk_qrels_judgments(q, *tq, &n);
    for (size_t i = 0; i < n; i++) {
        long v = (long)j[i].rel;
        if (v == 1 || v == 2)
            (*R)++;
        if (!(v == -1 || v > 2))
            (*N)++;
    }
    return QK_OK;
}

/* Open-addressing set of the docnos seen in a topic (pointers into the run). */
typedef struct seen_set {
    const char **slot;
    size_t cap;
} seen_set;

static qk_status seen_reset(seen_set *s, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 1)
        cap *= 2;
    if (cap > s->cap) {
        free(s->slot);
        s->slot = malloc(cap * sizeof *s->slot);
        if (!s->slot) {
            s->cap = 0;
            return QK_ENOMEM;
        }
        s->cap = cap;
    }
    memset(s->slot, 0, s->cap * sizeof *s->slot);
    return QK_OK;
}

/* 1 when doc was already in the set; else adds it and returns 0. */
static int seen_add(seen_set *s, const char *doc)
{
    size_t i = (size_t)qk_hash_bytes(doc, strlen(doc)) & (s->cap - 1);
    while (s->slot[i]) {
        if (strcmp(s->slot[i], doc) == 0)
            return 1;
        i = (i + 1) & (s->cap - 1);
    }
    s->slot[i] = doc;
    return 0;
}

qk_status qk_tar_eval_run(const qk_tar_run *run, const qk_qrels *qrels, qk_tar_eval **out, qk_error *err)
{
    qk_tar_eval *e = calloc(1, sizeof *e);
    size_t nt = qk_tar_run_num_topics(run), total = 0, cap_dups;
    double(*cgat)[10] = NULL;
    seen_set seen = {NULL, 0};
    qk_status st = QK_OK;
    *out = NULL;
    if (!e)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < nt; t++) {
        qk_tar_topic tp;
        qk_tar_run_topic(run, t, &tp);
        total += tp.n;
    }
    cap_dups = total;
    e->rows = calloc(nt ? nt : 1, sizeof *e->rows);
    cgat = calloc(nt ? nt : 1, sizeof *cgat);
    e->dups = malloc((cap_dups ? cap_dups : 1) * sizeof *e->dups);
    if (!e->rows || !cgat || !e->dups) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    e->n = nt;
    for (size_t t = 0; t < nt; t++) {
        qk_tar_topic tp;
        qk_tar_row *row = &e->rows[t];
        topic_state s;
        long N, R;
        size_t tq = 0, dup0 = e->ndups;
        int known;
        qk_tar_run_topic(run, t, &tp);
        row->qid = tp.qid;
        topic_size(qrels, tp.qid, &N, &R, &tq, &known);
        if (R == 0) { /* not in the qrels, or nothing relevant: tar_eval skips it */
            row->skipped = 1;
            continue;
        }
        if (seen_reset(&seen, tp.n) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        topic_start(&s, N, R);
        for (size_t i = 0; i < tp.n; i++) {
            uint32_t doc;
            long v = 0;
            if (seen_add(&seen, tp.docnos[i])) {
                e->dups[e->ndups++] = tp.docnos[i];
                continue;
            }
            if (qk_qrels_find_doc(qrels, tq, tp.docnos[i], strlen(tp.docnos[i]), &doc)) {
                const qk_judgment *j = qk_qrels_get(qrels, tq, 0, doc);
                v = j ? (long)j->rel : 0;
            }
            if (v >= 3) /* relevant but outside the Boolean query's set: not counted at all */
                continue;
            topic_update(&s, v, tp.actions[i]);
        }
        topic_finish(&s, row);
        for (int i = 0; i < 10; i++)
            cgat[t][i] = s.cgat[i];
        row->num_duplicates = e->ndups - dup0;
        row->duplicates = row->num_duplicates ? e->dups + dup0 : NULL;
    }
    aggregate(e, (const double(*)[10])cgat);
out:
    free(cgat);
    free(seen.slot);
    if (st != QK_OK) {
        qk_tar_eval_free(e);
        return st;
    }
    *out = e;
    return QK_OK;
}

void qk_tar_eval_free(qk_tar_eval *e)
{
    if (!e)
        return;
    free(e->rows);
    free(e->dups);
    free(e);
}

const qk_tar_row *qk_tar_eval_rows(const qk_tar_eval *e, size_t *n)
{
    *n = e->n;
    return e->rows;
}

const qk_tar_row *qk_tar_eval_all(const qk_tar_eval *e)
{
    return &e->all;
}

static int write_row(FILE *f, const qk_tar_row *r)
{
    char buf[QK_FMT_BUFSIZE];
    if (fprintf(f, "%s\ttopic_id\t%s\n", r->qid, r->qid) < 0)
        return -1;
    for (int m = 0; m < QK_TAR_NUM_MEASURES; m++) {
        double v = r->v[m];
        /* print-time rounding (NCG is rounded before the print, the same) */
        if (!r->is_int[m])
            v = py_round3(v);
        qk_tar_fmt_value(buf, v, r->is_int[m]);
        if (fprintf(f, "%s\t%s\t%s\n", r->qid, measure_names[m], buf) < 0)
            return -1;
    }
    return 0;
}

qk_status qk_tar_eval_write(const qk_tar_eval *e, FILE *f, qk_error *err)
{
    for (size_t t = 0; t < e->n; t++) {
        const qk_tar_row *r = &e->rows[t];
        if (r->skipped) {
            if (fprintf(f, "Skipping topic: %s\n", r->qid) < 0)
                goto fail;
            continue;
        }
        for (size_t i = 0; i < r->num_duplicates; i++)
            if (fprintf(f, "%s Duplicate %s\n", r->qid, r->duplicates[i]) < 0)
                goto fail;
        if (write_row(f, r) != 0)
            goto fail;
    }
    if (write_row(f, &e->all) != 0)
        goto fail;
    return QK_OK;
fail:
    return qk_error_set(err, QK_EIO, "cannot write the evaluation: write error");
}
