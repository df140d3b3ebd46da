/* Lists of names (docnos of several runs' top documents, judged or not)
 * turned into the distinct names in strcmp order and each listing's place
 * among them, by a hash set of the names: one pass and a sort of the
 * distinct names, where a sort of every listing and a binary search for
 * each took a dozen strcmp calls a listing (confidence's and the pool's
 * topic universes). Internal to the library. */
#ifndef QK_CORE_NAMES_H
#define QK_CORE_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"

/* names[0..*un): the distinct strings of in[0..n) in strcmp order (the
 * pointers of in, the first listing of each); at[i]: the place of in[i]
 * among them. names and at have room for n. QK_ENOMEM, or n of 2^32 or
 * more. */
qk_status qk_names_index(const char *const *in, size_t n, const char **names, uint32_t *at, size_t *un);

/* The first listing of each distinct name of in[0..n), in order, until
 * max of them (a run's ranking cut at max documents, a repeat keeping its
 * first rank and using up none): their places in keep[], how many the
 * result. (size_t)-1 when out of memory. */
size_t qk_names_first(const char *const *in, size_t n, size_t max, size_t *keep);

#endif
