/* 10^0 .. 10^19 as 64-bit integers, for the hand-written number parsers and
 * formatters (a static table in each file that includes it, so its values
 * are known where it is used). Internal to the library. */
#ifndef QK_CORE_POW10_H
#define QK_CORE_POW10_H

#include <stdint.h>

static const uint64_t qk_pow10_u64[20] = {1ULL,
                                          10ULL,
                                          100ULL,
                                          1000ULL,
                                          10000ULL,
                                          100000ULL,
                                          1000000ULL,
                                          10000000ULL,
                                          100000000ULL,
                                          1000000000ULL,
                                          10000000000ULL,
                                          100000000000ULL,
                                          1000000000000ULL,
                                          10000000000000ULL,
                                          100000000000000ULL,
                                          1000000000000000ULL,
                                          10000000000000000ULL,
                                          100000000000000000ULL,
                                          1000000000000000000ULL,
                                          10000000000000000000ULL};

#endif
