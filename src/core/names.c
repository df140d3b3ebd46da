/* Distinct names of a list (core/names.h). */
#include "core/names.h"

#include <stdlib.h>
#include <string.h>

typedef struct named_id {
    const char *s;
    uint32_t id;
} named_id;

static int named_cmp(const void *a, const void *b)
{
    return strcmp(((const named_id *)a)->s, ((const named_id *)b)->s);
}

/* A table of at least 2 n slots (a load of at most 1/2), zeroed. */
static uint32_t *new_slots(size_t n, size_t *mask)
{
    size_t nslots = 16;
    while (nslots < 2 * n)
        nslots *= 2;
    *mask = nslots - 1;
    return calloc(nslots, sizeof(uint32_t));
}

qk_status qk_names_index(const char *const *in, size_t n, const char **names, uint32_t *at, size_t *un)
{
    size_t mask, u = 0;
    uint32_t *slot, *pos;
    named_id *by;
    *un = 0;
    if (n >= UINT32_MAX || !(slot = new_slots(n, &mask)))
        return QK_ENOMEM;
    /* ids in order of first listing */
    for (size_t i = 0; i < n; i++) {
        size_t h = (size_t)qk_hash_bytes(in[i], strlen(in[i])) & mask;
        while (slot[h] && strcmp(names[slot[h] - 1], in[i]) != 0)
            h = (h + 1) & mask;
        if (!slot[h]) {
            names[u] = in[i];
            slot[h] = (uint32_t)++u;
        }
        at[i] = slot[h] - 1;
    }
    free(slot);
    by = malloc((u ? u : 1) * sizeof *by);
    pos = malloc((u ? u : 1) * sizeof *pos);
    if (!by || !pos) {
        free(by);
        free(pos);
        return QK_ENOMEM;
    }
    for (size_t i = 0; i < u; i++)
        by[i] = (named_id){names[i], (uint32_t)i};
    qsort(by, u, sizeof *by, named_cmp); /* distinct strings: one order */
    for (size_t i = 0; i < u; i++) {
        names[i] = by[i].s;
        pos[by[i].id] = (uint32_t)i;
    }
    for (size_t i = 0; i < n; i++)
        at[i] = pos[at[i]];
    free(by);
    free(pos);
    *un = u;
    return QK_OK;
}

size_t qk_names_first(const char *const *in, size_t n, size_t max, size_t *keep)
{
    size_t mask, k = 0;
    uint32_t *slot;
    if (n >= UINT32_MAX || !(slot = new_slots(max < n ? max : n, &mask)))
        return (size_t)-1;
    for (size_t i = 0; i < n && k < max; i++) {
        size_t h = (size_t)qk_hash_bytes(in[i], strlen(in[i])) & mask;
        while (slot[h] && strcmp(in[slot[h] - 1], in[i]) != 0)
            h = (h + 1) & mask;
        if (slot[h])
            continue; /* a repeat */
        slot[h] = (uint32_t)i + 1;
        keep[k++] = i;
    }
    free(slot);
    return k;
}
