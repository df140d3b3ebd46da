/* The seed of a simulation's trial: a function of the master seed and the
 * trial index only (never of earlier trials or of a shard count), so every
 * trial can run alone and `--shard I/N` splits the trials freely
 * (doc/scale-out.md, "Seeds"). simulate pool, simulate topics (every kind)
 * seed trial t with qk_sim_trial_seed(seed, t). */
#ifndef QRELKIT_SIM_TRIAL_SEED_H
#define QRELKIT_SIM_TRIAL_SEED_H

#include <stdint.h>

/* splitmix64's step: a bijective mix of x. */
static inline uint64_t qk_sim_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static inline uint64_t qk_sim_trial_seed(uint64_t seed, uint64_t trial)
{
    return qk_sim_mix(seed + trial);
}

#endif
