/* Probabilities of relevance per (topic, docno): "topic docno p" files
 * (confidence --probs, --probs-out) and their in-memory form (see io.h). */
#include <stdlib.h>
#include <string.h>

#include "qrelkit/io.h"

struct qk_doc_probs {
    qk_strpool *keys; /* "topic\tdocno", ids in insertion order */
    double *p;
    size_t cap;
};

qk_status qk_doc_probs_new(qk_doc_probs **out, qk_error *err)
{
    qk_doc_probs *d = calloc(1, sizeof *d);
    *out = NULL;
    if (!d || !(d->keys = qk_strpool_new())) {
        free(d);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    *out = d;
    return QK_OK;
}

void qk_doc_probs_free(qk_doc_probs *d)
{
    if (!d)
        return;
    qk_strpool_free(d->keys);
    free(d->p);
    free(d);
}

static qk_status set_key(qk_doc_probs *d, const char *topic, size_t tl, const char *docno, size_t dl, double p)
{
    char buf[512], *key = tl + dl + 1 <= sizeof buf ? buf : malloc(tl + dl + 1);
    uint32_t id;
    qk_status st = QK_OK;
    if (!key)
        return QK_ENOMEM;
    memcpy(key, topic, tl);
    key[tl] = '\t';
    memcpy(key + tl + 1, docno, dl);
    if (qk_strpool_intern(d->keys, key, tl + dl + 1, &id) != QK_OK ||
        qk_grow((void **)&d->p, &d->cap, (size_t)id + 1, sizeof *d->p) != QK_OK)
        st = QK_ENOMEM;
    else
        d->p[id] = p;
    if (key != buf)
        free(key);
    return st;
}

qk_status qk_doc_probs_set(qk_doc_probs *d, const char *topic, const char *docno, double p, qk_error *err)
{
    if (!(p >= 0 && p <= 1))
        return qk_error_set(err, QK_EUSAGE, "probability %g of '%s' in topic '%s' is not in [0, 1]", p, docno,
                            topic);
    if (strchr(topic, '\t') || strchr(docno, '\t'))
        return qk_error_set(err, QK_EUSAGE, "topic and docno may not contain a tab");
    if (set_key(d, topic, strlen(topic), docno, strlen(docno), p) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return QK_OK;
}

int qk_doc_probs_get(const qk_doc_probs *d, const char *topic, const char *docno, double *p)
{
    char buf[512], *key;
    size_t tl = strlen(topic), dl = strlen(docno);
    uint32_t id;
    int found;
    // cppcheck-suppress legacyUninitvar ; buf is only written through key
    if (!(key = tl + dl + 1 <= sizeof buf ? buf : malloc(tl + dl + 1)))
        return 0;
    memcpy(key, topic, tl);
    key[tl] = '\t';
    memcpy(key + tl + 1, docno, dl);
    found = qk_strpool_find(d->keys, key, tl + dl + 1, &id);
    if (key != buf)
        free(key);
    if (found)
        *p = d->p[id];
    return found;
}

size_t qk_doc_probs_count(const qk_doc_probs *d) { return qk_strpool_count(d->keys); }

qk_status qk_doc_probs_read(const char *path, qk_doc_probs **out, qk_error *err)
{
    qk_lines *l = NULL;
    qk_doc_probs *d = NULL;
    const char *line;
    size_t len;
    int r;
    qk_status st;
    *out = NULL;
    if ((st = qk_doc_probs_new(&d, err)) != QK_OK)
        return st;
    if ((st = qk_lines_open(path, &l, err)) != QK_OK) {
        qk_doc_probs_free(d);
        return st;
    }
    while ((r = qk_lines_next(l, &line, &len, err)) == 1) {
        const char *f[4];
        size_t fl[4], nf;
        double p;
        if (qk_line_skippable(line, len))
            continue;
        if ((nf = qk_split_fields(line, len, f, fl, 4)) != 3) {
            r = qk_error_at(err, QK_EINPUT, path, qk_lines_lineno(l), 0,
                            "expected 3 fields (topic docno probability), found %zu", nf);
            break;
        }
        if (qk_parse_score(f[2], fl[2], &p) != 0 || p < 0 || p > 1) {
            r = qk_error_at(err, QK_EINPUT, path, qk_lines_lineno(l), (long)(f[2] - line) + 1,
                            "probability '%.*s' is not a number in [0, 1]", (int)(fl[2] > 64 ? 64 : fl[2]),
                            f[2]);
            break;
        }
        if (set_key(d, f[0], fl[0], f[1], fl[1], p) != QK_OK) {
            r = qk_error_set(err, QK_ENOMEM, "out of memory");
            break;
        }
    }
    qk_lines_close(l);
    if (r < 0) {
        qk_doc_probs_free(d);
        return (qk_status)r;
    }
    *out = d;
    return QK_OK;
}

qk_status qk_doc_probs_write(const qk_doc_probs *d, FILE *f, qk_error *err)
{
    size_t n = qk_strpool_count(d->keys);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\t%.17g\n", qk_strpool_str(d->keys, (uint32_t)i), d->p[i]);
    if (ferror(f))
        return qk_error_set(err, QK_EIO, "cannot write the probabilities: write error");
    return QK_OK;
}
