/* QS-RANDOM (000a §6.1): a uniform m-subset by a partial Fisher-Yates
 * shuffle, in the order drawn. */
#include <stdlib.h>

#include "qrelkit/topics.h"

qk_status qk_topics_random(size_t ntopics, size_t size, uint64_t seed, size_t *order, qk_error *err)
{
    size_t *perm;
    qk_rng rng;
    if (size > ntopics)
        return qk_error_set(err, QK_EUSAGE, "cannot draw %zu of %zu topics", size, ntopics);
    if (!(perm = malloc((ntopics ? ntopics : 1) * sizeof *perm)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    qk_rng_seed(&rng, seed);
    for (size_t i = 0; i < ntopics; i++)
        perm[i] = i;
    for (size_t i = 0; i < size; i++) {
        size_t j = i + (size_t)qk_rng_below(&rng, ntopics - i), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        order[i] = perm[i];
    }
    free(perm);
    return QK_OK;
}
