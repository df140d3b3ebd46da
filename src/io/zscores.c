/* Z-score files for trec_eval's -Z: "qid measure mean stddev" per line. */
#include "qrelkit/io.h"

#include <stdlib.h>
#include <string.h>

struct qk_zscores {
    qk_strpool *keys;  /* "qid\tname" -> dense id = index in vals */
    qk_strpool *qids;
    double *mean, *sd;
    size_t cap_m, cap_s;
};

qk_status qk_zscores_read(const char *path, qk_zscores **out, qk_error *err)
{
    qk_zscores *z = calloc(1, sizeof *z);
    qk_lines *l = NULL;
    const char *line;
    size_t len;
    int r;
    qk_status st = QK_OK;
    char *key = NULL;
    size_t keycap = 0;
    *out = NULL;
    if (!z || !(z->keys = qk_strpool_new()) || !(z->qids = qk_strpool_new())) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = qk_lines_open(path, &l, err)) != QK_OK)
        goto out;
    while ((r = qk_lines_next(l, &line, &len, err)) == 1) {
        const char *f[5];
        size_t fl[5];
        uint32_t id;
        double mean, sd;
        size_t nf;
        if (qk_line_skippable(line, len))
            continue;
        nf = qk_split_fields(line, len, f, fl, 5);
        if (nf != 4) {
            st = qk_error_at(err, QK_EINPUT, path, qk_lines_lineno(l), 0,
                             "expected 4 fields (qid measure mean stddev), found %zu", nf);
            goto out;
        }
        if (qk_parse_score(f[2], fl[2], &mean) != 0 || qk_parse_score(f[3], fl[3], &sd) != 0) {
            int bad = qk_parse_score(f[2], fl[2], &mean) != 0 ? 2 : 3;
            st = qk_error_at(err, QK_EINPUT, path, qk_lines_lineno(l), (long)(f[bad] - line) + 1,
                             "%s '%.*s' is not a number", bad == 2 ? "mean" : "stddev",
                             (int)(fl[bad] > 64 ? 64 : fl[bad]), f[bad]);
            goto out;
        }
        if (qk_grow((void **)&key, &keycap, fl[0] + fl[1] + 2, 1) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        memcpy(key, f[0], fl[0]);
        key[fl[0]] = '\t';
        memcpy(key + fl[0] + 1, f[1], fl[1]);
        if (qk_strpool_intern(z->keys, key, fl[0] + fl[1] + 1, &id) != QK_OK ||
            qk_strpool_intern(z->qids, f[0], fl[0], &(uint32_t){0}) != QK_OK ||
            qk_grow((void **)&z->mean, &z->cap_m, id + 1, sizeof *z->mean) != QK_OK ||
            qk_grow((void **)&z->sd, &z->cap_s, id + 1, sizeof *z->sd) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        z->mean[id] = mean;
        z->sd[id] = sd;
    }
    if (r < 0)
        st = (qk_status)r;
    else if (qk_strpool_count(z->keys) == 0)
        st = qk_error_at(err, QK_EINPUT, path, 0, 0, "no z-score lines (the file is empty)");
out:
    free(key);
    qk_lines_close(l);
    if (st != QK_OK) {
        qk_zscores_free(z);
        return st;
    }
    *out = z;
    return QK_OK;
}

void qk_zscores_free(qk_zscores *z)
{
    if (!z)
        return;
    qk_strpool_free(z->keys);
    qk_strpool_free(z->qids);
    free(z->mean);
    free(z->sd);
    free(z);
}

int qk_zscores_get(const qk_zscores *z, const char *qid, const char *name, double *mean, double *sd,
                   int *qid_known)
{
    char buf[512];
    uint32_t id;
    size_t ql = strlen(qid), nl = strlen(name);
    *qid_known = qk_strpool_find(z->qids, qid, ql, &id);
    if (!*qid_known || ql + nl + 2 > sizeof buf)
        return 0;
    memcpy(buf, qid, ql);
    buf[ql] = '\t';
    memcpy(buf + ql + 1, name, nl);
    if (!qk_strpool_find(z->keys, buf, ql + nl + 1, &id))
        return 0;
    *mean = z->mean[id];
    *sd = z->sd[id];
    return 1;
}
