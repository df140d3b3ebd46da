/* A synthetic screening topic whose right answers are known: N documents,
 * the first R relevant ones (placed at every k-th index) share a "topic"
 * feature with the topic row, the others a "noise" feature; each document
 * also has a feature of its own. Logistic regression therefore ranks every
 * relevant document above every non-relevant one from the first round,
 * and the AutoTAR review takes the R relevant documents first. */
#ifndef QK_TAR_FIXTURE_H
#define QK_TAR_FIXTURE_H

#include <stdlib.h>

#include "qrelkit/tar_stop.h"

typedef struct {
    qk_sparse X;
    unsigned char *rel;
    size_t N, R;
} tar_fixture;

/* Relevant: documents i with i % step == 0 and i / step < R. */
static void tar_fixture_make(tar_fixture *f, size_t N, size_t R, size_t step)
{
    f->N = N;
    f->R = R;
    f->rel = calloc(N, 1);
    f->X.nrows = N + 1;
    f->X.ncols = N + 2;
    f->X.rowptr = malloc((N + 2) * sizeof *f->X.rowptr);
    f->X.col = malloc((2 * N + 1) * sizeof *f->X.col);
    f->X.val = malloc((2 * N + 1) * sizeof *f->X.val);
    size_t w = 0;
    for (size_t i = 0; i < N; i++) {
        int r = i % step == 0 && i / step < R;
        f->rel[i] = (unsigned char)r;
        f->X.rowptr[i] = w;
        f->X.col[w] = r ? 0 : 1;
        f->X.val[w++] = 0.8;
        f->X.col[w] = (uint32_t)(2 + i);
        f->X.val[w++] = 0.6;
    }
    f->X.rowptr[N] = w;
    f->X.col[w] = 0;
    f->X.val[w++] = 1;
    f->X.rowptr[N + 1] = w;
}

static void tar_fixture_free(tar_fixture *f)
{
    qk_sparse_clear(&f->X);
    free(f->rel);
}

static int tar_fixture_judge(void *ctx, size_t doc, int *rel)
{
    const tar_fixture *f = ctx;
    *rel = f->rel[doc];
    return 0;
}

static size_t tar_fixture_found(const tar_fixture *f, const qk_tar_result *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_shown; i++)
        n += f->rel[r->shown[i]];
    return n;
}

#endif
