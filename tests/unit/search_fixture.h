/* Shared by the search unit tests: build an index from a TREC text through
 * the public API, with chosen analysis settings and memory budget. */
#ifndef QK_TEST_SEARCH_FIXTURE_H
#define QK_TEST_SEARCH_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/search.h"
#include "tmpfile_util.h"

/* Index corpus (TREC or JSON lines text) with options bo into a new
 * temporary file and return its path (free with qk_test_drop). Fails the
 * test on any error. */
static inline char *sx_build_opts(const char *corpus, const qk_index_build_opts *bo, const char *fields,
                                  qk_index_build_stats *stats)
{
    char *in = qk_test_write_text(corpus), *out = qk_test_tmp_path();
    qk_corpus_opts co;
    qk_index_builder *b;
    qk_corpus *c;
    qk_error err;
    const char *docno, *t;
    size_t dl, tl;
    int r;
    qk_corpus_opts_init(&co);
    co.fields = fields;
    if (qk_index_builder_new(out, bo, &b, &err) != QK_OK || qk_corpus_open(in, &co, &c, &err) != QK_OK)
        fail_msg("%s", err.message);
    while ((r = qk_corpus_next(c, &docno, &dl, &t, &tl, &err)) == 1)
        if (qk_index_builder_add(b, docno, dl, t, tl, &err) != QK_OK)
            fail_msg("%s", err.message);
    if (r < 0 || qk_index_builder_finish(b, stats, &err) != QK_OK)
        fail_msg("%s", err.message);
    qk_corpus_close(c);
    qk_index_builder_free(b);
    qk_test_drop(in);
    return out;
}

/* The same with default options but text analysis and memory budget. */
static inline char *sx_build(const char *corpus, const qk_text_opts *text, size_t memory_mb,
                             const char *fields, qk_index_build_stats *stats)
{
    qk_index_build_opts bo;
    qk_index_build_opts_init(&bo);
    if (text)
        bo.text = *text;
    bo.memory_mb = memory_mb;
    return sx_build_opts(corpus, &bo, fields, stats);
}

static inline qk_text_opts sx_plain(void)
{
    qk_text_opts o;
    qk_text_opts_init(&o);
    o.stop = 0;
    o.stemmer = QK_STEM_NONE;
    return o;
}

#endif
