/* Writers for aggregated labels: qrels, posteriors TSV, worker report TSV,
 * to a stream the caller opened (the CLI writes files under a temporary
 * name and renames them when complete). */
#include "crowd/crowd_internal.h"
#include "qrelkit/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    FILE *f;
} out_file;

/* The caller opens the stream (and makes the file atomic); a writer only
 * writes and reports a stream error. */
static qk_status open_out(out_file *o, FILE *f, qk_error *err)
{
    o->f = f;
    return f ? QK_OK : qk_error_set(err, QK_EUSAGE, "no output stream");
}

static qk_status close_out(out_file *o, qk_status st, qk_error *err)
{
    if (st == QK_OK && ferror(o->f))
        return qk_error_set(err, QK_EIO, "cannot write: write error");
    return st;
}

/* sep, then v as printf("%.*g", prec, v) writes it (qk_fmt_g: the same
 * bytes, without printf's float formatting, most of a large posterior
 * table's writing time) */
static void put_g(FILE *f, char sep, double v, int prec)
{
    char b[QK_FMT_BUFSIZE + 1];
    size_t n;
    b[0] = sep;
    n = qk_fmt_g(b + 1, v, prec);
    fwrite(b, 1, n + 1, f);
}

/* "topic docno" (two-column tasks) or "topic_docno" when the part before the
 * first '_' is all digits (the TREC crowdsourcing ids); else the task is both
 * the topic and the document. */
static void split_task(const char *task, const char **doc, int *tlen)
{
    const char *sp = strchr(task, ' ');
    if (sp) {
        *tlen = (int)(sp - task);
        *doc = sp + 1;
        return;
    }
    const char *us = strchr(task, '_');
    if (us && us > task) {
        const char *p = task;
        while (p < us && *p >= '0' && *p <= '9')
            p++;
        if (p == us) {
            *tlen = (int)(us - task);
            *doc = us + 1;
            return;
        }
    }
    *tlen = (int)strlen(task);
    *doc = task;
}

/* Relevance grades are written as they are when every class name is an
 * integer; other class names become their position in the class order. */
static int numeric_classes(const qk_crowd_labels *L)
{
    for (size_t c = 0; c < qk_crowd_num_classes(L); c++) {
        const char *n = qk_crowd_class_name(L, c);
        long v;
        if (qk_parse_long(n, strlen(n), &v) != 0)
            return 0;
    }
    return 1;
}

qk_status qk_crowd_class_qrels(const qk_crowd_labels *L, const int32_t *cls, qk_qrels **out, qk_error *err)
{
    qk_qrels *b = NULL;
    int numeric = numeric_classes(L);
    char *qid = NULL;
    size_t cap = 0;
    qk_status st = qk_qrels_new(QK_REL_QRELS, &b, err);
    *out = NULL;
    for (size_t t = 0; t < qk_crowd_num_tasks(L) && st == QK_OK; t++) {
        const char *doc, *name = qk_crowd_task_name(L, t);
        long rel;
        int tl;
        if (cls[t] < 0)
            continue;
        split_task(name, &doc, &tl);
        if (qk_grow((void **)&qid, &cap, (size_t)tl + 1, 1) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            break;
        }
        memcpy(qid, name, (size_t)tl);
        qid[tl] = '\0';
        rel = cls[t];
        if (numeric) {
            const char *cn = qk_crowd_class_name(L, (size_t)cls[t]);
            qk_parse_long(cn, strlen(cn), &rel);
        }
        st = qk_qrels_add(b, qid, NULL, doc, rel, err);
    }
    /* The file writer's qrels are read back keeping the first judgment. */
    if (st == QK_OK)
        st = qk_qrels_finish(b, QK_DEDUP_FIRST, err);
    if (st == QK_OK && qk_qrels_num_judgments(b) == 0)
        st = qk_error_set(err, QK_EINPUT, "no task has a class: the qrels would be empty");
    free(qid);
    if (st != QK_OK) {
        qk_qrels_free(b);
        return st;
    }
    *out = b;
    return QK_OK;
}

qk_status qk_crowd_write_class_qrels(const qk_crowd_labels *L, const int32_t *cls, FILE *f,
                                     qk_error *err)
{
    out_file o;
    qk_status st = open_out(&o, f, err);
    int numeric = numeric_classes(L);
    if (st != QK_OK)
        return st;
    for (size_t t = 0; t < qk_crowd_num_tasks(L); t++) {
        const char *doc;
        int tl;
        if (cls[t] < 0) // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult): one class per task of L
            continue;
        split_task(qk_crowd_task_name(L, t), &doc, &tl);
        if (numeric)
            fprintf(o.f, "%.*s 0 %s %s\n", tl, qk_crowd_task_name(L, t), doc,
                    qk_crowd_class_name(L, (size_t)cls[t]));
        else
            fprintf(o.f, "%.*s 0 %s %d\n", tl, qk_crowd_task_name(L, t), doc, cls[t]);
    }
    return close_out(&o, QK_OK, err);
}

qk_status qk_crowd_write_qrels(const qk_crowd_labels *L, const qk_crowd_result *r, FILE *f,
                               qk_error *err)
{
    int32_t *cls = malloc((r->n_tasks + 1) * sizeof *cls);
    qk_status st;
    if (!cls)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < r->n_tasks; t++)
        cls[t] = (int32_t)r->label[t];
    st = qk_crowd_write_class_qrels(L, cls, f, err);
    free(cls);
    return st;
}

qk_status qk_crowd_write_probs(const qk_crowd_labels *L, const qk_crowd_result *r, FILE *f,
                               int precision, qk_error *err)
{
    out_file o;
    size_t k = r->n_classes;
    qk_status st = open_out(&o, f, err);
    if (st != QK_OK)
        return st;
    fputs("task\tlabel\tn_labels", o.f);
    for (size_t c = 0; c < k; c++)
        fprintf(o.f, "\tp_%s", qk_crowd_class_name(L, c));
    fputc('\n', o.f);
    for (size_t t = 0; t < r->n_tasks; t++) {
        fprintf(o.f, "%s\t%s\t%u", qk_crowd_task_name(L, t), qk_crowd_class_name(L, r->label[t]),
                r->n_labels[t]);
        for (size_t c = 0; c < k; c++)
            put_g(o.f, '\t', r->post[t * k + c], precision);
        fputc('\n', o.f);
    }
    return close_out(&o, QK_OK, err);
}

qk_status qk_crowd_write_workers(const qk_crowd_labels *L, const qk_crowd_result *r, FILE *f,
                                 int precision, qk_error *err)
{
    out_file o;
    size_t k = r->n_classes;
    qk_status st;
    if (!r->skill || !r->confusion)
        return qk_error_set(err, QK_EUSAGE, "no worker reports: aggregated with skip_worker_reports");
    st = open_out(&o, f, err);
    if (st != QK_OK)
        return st;
    fputs("worker\tn_labels\taccuracy\tability\tspam_score\tspammer", o.f);
    for (size_t c = 0; c < k; c++)
        for (size_t y = 0; y < k; y++)
            fprintf(o.f, "\te_%s_%s", qk_crowd_class_name(L, c), qk_crowd_class_name(L, y));
    fputc('\n', o.f);
    for (size_t w = 0; w < r->n_workers; w++) {
        fprintf(o.f, "%s\t%u", qk_crowd_worker_name(L, w), r->worker_n[w]);
        put_g(o.f, '\t', r->skill[w], precision);
        if (r->ability)
            put_g(o.f, '\t', r->ability[w], precision);
        else
            fputs("\tNA", o.f);
        put_g(o.f, '\t', r->spam_score[w], precision);
        fprintf(o.f, "\t%d", r->spammer[w]);
        for (size_t i = 0; i < k * k; i++)
            put_g(o.f, '\t', r->confusion[w * k * k + i], precision);
        fputc('\n', o.f);
    }
    return close_out(&o, QK_OK, err);
}

qk_status qk_crowd_write_labels(const qk_crowd_labels *L, FILE *f, qk_error *err)
{
    out_file o;
    qk_status st = open_out(&o, f, err);
    if (st != QK_OK)
        return st;
    fputs("task\tworker\tlabel\n", o.f);
    for (size_t t = 0; t < qk_crowd_num_tasks(L); t++)
        for (size_t i = L->off[t]; i < L->off[t + 1]; i++)
            fprintf(o.f, "%s\t%s\t%s\n", qk_crowd_task_name(L, t), qk_crowd_worker_name(L, L->gw[i]),
                    qk_crowd_class_name(L, L->gc[i]));
    return close_out(&o, QK_OK, err);
}

qk_status qk_crowd_write_classes(const qk_crowd_labels *L, const int32_t *cls, FILE *f,
                                 qk_error *err)
{
    out_file o;
    qk_status st = open_out(&o, f, err);
    if (st != QK_OK)
        return st;
    fputs("task\tlabel\n", o.f);
    for (size_t t = 0; t < qk_crowd_num_tasks(L); t++)
        if (cls[t] >= 0)
            fprintf(o.f, "%s\t%s\n", qk_crowd_task_name(L, t), qk_crowd_class_name(L, (size_t)cls[t]));
    return close_out(&o, QK_OK, err);
}
