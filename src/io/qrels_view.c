/* qk_qrels_topic_docnos (qrels_view.h): the docnos of a topic's
 * judgments and their lengths, for the evaluation's lookup. */
#include "io/qrels_view.h"
#include "io/qrels_internal.h"

#include <string.h>

void qk_qrels_topic_docnos(const qk_qrels *q, size_t t, const char **docs, uint32_t *lens)
{
    size_t n;
    const qk_judgment *j = qk_qrels_judgments(q, t, &n);
    const qk_qrels *d = q->win ? q->win->part : q;
    if (!d)
        return;
    if (d->packed && !d->doc_off64) { /* the usual case, without the width's branches */
        const uint32_t *off = d->doc_off;
        for (size_t i = 0; i < n; i++) {
            uint32_t id = j[i].doc;
            size_t at = off[id], next = id + 1 < d->ndocs ? off[id + 1] : d->arena_len;
            docs[i] = d->arena + at;
            lens[i] = (uint32_t)(next - at - 1);
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        size_t at = qk_qrels_doc_at(d, j[i].doc);
        docs[i] = d->arena + at;
        if (d->packed)
            lens[i] = (uint32_t)((j[i].doc + 1 < d->ndocs ? qk_qrels_doc_at(d, j[i].doc + 1) : d->arena_len) -
                                 at - 1);
        else
            lens[i] = (uint32_t)strlen(docs[i]);
    }
}
