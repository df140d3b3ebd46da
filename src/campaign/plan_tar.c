/* `campaign plan --method tar`: per topic, the AutoTAR / CAL ranking loop
 * (src/tar, qk_tar_review with no stopping rule) over the topic's pooled
 * documents, replayed from the labels stored so far; its next batch (the
 * documents it waits for) is what the campaign assigns. Features are tf-idf
 * rows of the documents' stored text built in memory, the topic statement
 * being the loop's seed row, exactly as `qrelkit tar run --judgments` builds
 * them from a corpus file of the same documents in docno order. */
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign_internal.h"
#include "qrelkit/tar_stop.h"

static int judge_labels(void *ctx, size_t doc, int *rel)
{
    const signed char *judged = ctx;
    if (judged[doc] < 0)
        return QK_TAR_UNJUDGED;
    *rel = judged[doc] > 0;
    return 0;
}

/* 1 when some document of the campaign has text. */
static qk_status any_text(qk_campaign *c, int *yes, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    qk_status r = qkc_prepare(c, "SELECT 1 FROM documents WHERE text IS NOT NULL LIMIT 1", &st, err);
    if (r == QK_OK)
        *yes = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return r;
}

/* Texts of the topic's pooled documents (a document without text is the
 * empty text: a row without features), then the topic statement. texts[i]
 * are the caller's to free. */
static qk_status load_texts(qk_campaign *c, sqlite3_stmt *doc, sqlite3_stmt *top, const qk_pool_topic *tp,
                            char **texts, size_t *lens, qk_error *err)
{
    for (size_t i = 0; i <= tp->ndocs; i++) {
        sqlite3_stmt *st = i < tp->ndocs ? doc : top;
        const char *key = i < tp->ndocs ? tp->docnos[i] : tp->qid;
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return qkc_sqlerr(c, err, "cannot read the texts");
        const char *t = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
        size_t n = t ? (size_t)sqlite3_column_bytes(st, 0) : 0;
        if (!(texts[i] = malloc(n + 1)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        if (n)
            memcpy(texts[i], t, n);
        texts[i][n] = '\0';
        lens[i] = n;
    }
    return QK_OK;
}

/* judged[0..ndocs) of the topic from the labels so far: -1 none, else
 * whether the majority label reaches the campaign's relevance level. */
static void topic_labels(const qkc_state *s, const qk_pool_topic *tp, signed char *judged)
{
    size_t t, n;
    memset(judged, -1, tp->ndocs);
    if (!s->qrels || !qk_qrels_find_topic(s->qrels, tp->qid, strlen(tp->qid), &t))
        return;
    const qk_judgment *j = qk_qrels_judgments(s->qrels, t, &n);
    for (size_t k = 0; k < n; k++) {
        uint32_t d;
        if (qk_pool_find_doc(tp, qk_qrels_docno(s->qrels, j[k].doc), &d))
            judged[d] = (signed char)(j[k].rel >= (double)s->rel_level ? 1 : 0);
    }
}

/* The loop's next batch for pooled topic t, its first `batch` documents
 * appended to pk. */
static qk_status topic_picks(qk_campaign *c, const qkc_state *s, size_t t, sqlite3_stmt *doc,
                             sqlite3_stmt *top, long batch, qk_pool_pick *pk, size_t *npk, qk_error *err)
{
    const qk_pool_topic *tp = qk_pool_topic_at(s->pool, t);
    size_t n = tp->ndocs;
    char **texts = calloc(n + 1, sizeof *texts);
    size_t *lens = malloc((n + 1) * sizeof *lens);
    signed char *judged = malloc(n ? n : 1);
    qk_tfidf_opts fo;
    qk_tar_opts o;
    qk_sparse X = {0};
    qk_tar_result r = {0};
    qk_status st;
    if (!texts || !lens || !judged) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = load_texts(c, doc, top, tp, texts, lens, err)) != QK_OK)
        goto out;
    topic_labels(s, tp, judged);
    qk_tfidf_opts_init(&fo);
    if ((st = qk_tfidf_build(n + 1, (const char *const *)texts, lens, &fo, &X, err)) != QK_OK)
        goto out;
    qk_tar_opts_init(&o);
    o.stop = QK_TAR_STOP_NONE;
    o.seed = s->opts.seed;
    if ((st = qk_tar_review(&X, n, n, &o, judge_labels, judged, &r, err)) != QK_OK) {
        char msg[sizeof err->message];
        memcpy(msg, err->message, sizeof msg);
        st = qk_error_set(err, st, "'%s': topic '%s': %s", c->path, tp->qid, msg);
        goto out;
    }
    for (size_t i = 0; i < r.n_pending && i < (size_t)batch; i++)
        pk[(*npk)++] =
            (qk_pool_pick){(uint32_t)t, (uint32_t)r.pending[i], 1.0, 0, (double)(r.n_judged + i + 1)};
out:
    qk_tar_result_clear(&r);
    qk_sparse_clear(&X);
    for (size_t i = 0; texts && i <= n; i++)
        free(texts[i]);
    free(texts);
    free(lens);
    free(judged);
    return st;
}

qk_status qkc_tar_picks(qk_campaign *c, const qkc_state *s, long batch, qk_pool_pick **pk, size_t *npk,
                        qk_error *err)
{
    sqlite3_stmt *doc = NULL, *top = NULL;
    size_t nt = qk_pool_num_topics(s->pool), cap = 1;
    int has_text = 0;
    qk_status r;
    *pk = NULL;
    *npk = 0;
    if ((r = any_text(c, &has_text, err)) != QK_OK)
        return r;
    if (!has_text)
        return qk_error_set(
            err, QK_EUSAGE,
            "'%s': --method tar needs the documents' text, and the campaign has none (create it "
            "with `qrelkit campaign init ... --corpus FILE|INDEX`)",
            c->path);
    for (size_t t = 0; t < nt; t++) {
        size_t n = qk_pool_topic_at(s->pool, t)->ndocs;
        cap += n < (size_t)batch ? n : (size_t)batch;
    }
    if (!(*pk = calloc(cap, sizeof **pk)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((r = qkc_prepare(c, "SELECT text FROM documents WHERE docno = ?", &doc, err)) == QK_OK &&
        (r = qkc_prepare(c, "SELECT text FROM topics WHERE qid = ?", &top, err)) == QK_OK)
        for (size_t t = 0; t < nt && r == QK_OK; t++)
            r = topic_picks(c, s, t, doc, top, batch, *pk, npk, err);
    sqlite3_finalize(doc);
    sqlite3_finalize(top);
    if (r != QK_OK) {
        free(*pk);
        *pk = NULL;
        *npk = 0;
    }
    return r;
}
