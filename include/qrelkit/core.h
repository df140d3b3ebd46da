/* qrelkit core: status codes, error detail, string pool, RNG, small helpers.
 *
 * Ownership: every qk_*_new has a matching qk_*_free that accepts NULL.
 * The library never prints, exits or aborts on bad input: functions return a
 * qk_status and, when the caller passes a qk_error, fill in what went wrong. */
#ifndef QRELKIT_CORE_H
#define QRELKIT_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define QK_VERSION "0.1.0"

typedef enum {
    QK_OK = 0,
    QK_EUSAGE = -1,    /* bad option, bad parameter, unknown name   -> exit 1 */
    QK_EINPUT = -2,    /* malformed or inconsistent input           -> exit 2 */
    QK_EIO = -3,       /* cannot open/read/write a file             -> exit 3 */
    QK_ENOMEM = -4,    /* allocation failed                         -> exit 3 */
    QK_EINTERNAL = -5, /* a bug: an invariant failed                -> exit 3 */
    QK_ECALC = -6      /* a measure cannot be computed on this input -> exit 2 */
} qk_status;

/* Error detail. message is complete and ready to print (no trailing full stop,
 * subject in quotes, location first: "'run.txt' line 17: score 'abc' is not a
 * number"). file/line/column are also kept apart for programs that want them
 * (line and column are 1-based, 0 when not applicable). */
typedef struct qk_error {
    qk_status code;
    long line;
    long column;
    char file[256];
    char message[1024];
} qk_error;

/* Set err (may be NULL) and return code. printf-style message. */
qk_status qk_error_set(qk_error *err, qk_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Same, with a file position; the message is prefixed "'FILE' line L: ". */
qk_status qk_error_at(qk_error *err, qk_status code, const char *file, long line, long column,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#if defined(__clang_analyzer__) && !defined(QK_ERROR_IMPL)
/* Only for the static analyzer (make lint): shows it that both return their code,
 * which it cannot see across files, so it stops following "error but QK_OK" paths. */
static inline qk_status qk_error_code_(qk_status ignored, qk_status code)
{
    return (void)ignored, code;
}
#define qk_error_set(err, code, ...) qk_error_code_(qk_error_set((err), (code), __VA_ARGS__), (code))
#define qk_error_at(err, code, ...) qk_error_code_(qk_error_at((err), (code), __VA_ARGS__), (code))
#endif
void qk_error_clear(qk_error *err);
/* Short English name of a status ("bad input", ...). Static string. */
const char *qk_status_name(qk_status st);
/* Process exit code for a status per DESIGN.md: 0 ok, 1 usage, 2 input, 3 io/internal. */
int qk_status_exit_code(qk_status st);

/* ---- String pool: interns byte strings, ids are dense from 0. ---------- */
typedef struct qk_strpool qk_strpool;
qk_strpool *qk_strpool_new(void);
void qk_strpool_free(qk_strpool *p);
/* Intern s[0..len) and return its id in *id (new or existing). */
qk_status qk_strpool_intern(qk_strpool *p, const char *s, size_t len, uint32_t *id);
/* Look up without inserting. Returns 1 and sets *id when present, else 0. */
int qk_strpool_find(const qk_strpool *p, const char *s, size_t len, uint32_t *id);
/* NUL-terminated string of an id. Valid until the pool is freed. */
const char *qk_strpool_str(const qk_strpool *p, uint32_t id);
size_t qk_strpool_len(const qk_strpool *p, uint32_t id);
size_t qk_strpool_count(const qk_strpool *p);

/* ---- Random numbers: xoshiro256** seeded through splitmix64. ----------
 * One generator for the whole project, so seeded results are identical on
 * every machine. */
typedef struct qk_rng {
    uint64_t s[4];
} qk_rng;
void qk_rng_seed(qk_rng *r, uint64_t seed);
uint64_t qk_rng_next(qk_rng *r);
/* Uniform double in [0, 1) with 53 random bits. */
double qk_rng_uniform(qk_rng *r);
/* Uniform integer in [0, n) without modulo bias; n > 0. */
uint64_t qk_rng_below(qk_rng *r, uint64_t n);
/* Index drawn with probability proportional to the increments of the
 * cumulative weights cum[0..n) (non-decreasing, cum[n-1] > 0, n > 0): the
 * first i with cum[i] > u * cum[n-1], u = qk_rng_uniform. */
size_t qk_rng_pick_cum(qk_rng *r, const double *cum, size_t n);
/* Standard normal (Marsaglia polar method, no cached spare: deterministic per call count). */
double qk_rng_normal(qk_rng *r);

/* ---- Growable arrays ---------------------------------------------------- */
/* Make room for at least need elements of size elsize in *ptr (capacity *cap).
 * Grows geometrically. Returns QK_OK or QK_ENOMEM (then *ptr is unchanged). */
qk_status qk_grow(void **ptr, size_t *cap, size_t need, size_t elsize);

/* ---- Numbers ------------------------------------------------------------ */
/* Kahan–Babuska (Neumaier) compensated sum. */
typedef struct qk_ksum {
    double sum, comp;
} qk_ksum;
static inline void qk_ksum_add(qk_ksum *k, double x)
{
    double t = k->sum + x;
    if ((k->sum >= 0 ? k->sum : -k->sum) >= (x >= 0 ? x : -x))
        k->comp += (k->sum - t) + x;
    else
        k->comp += (x - t) + k->sum;
    k->sum = t;
}
static inline double qk_ksum_value(const qk_ksum *k) { return k->sum + k->comp; }

/* Write v as printf("%6.4f") would (same bytes), NUL-terminated; returns
 * the length. buf needs QK_FMT_BUFSIZE bytes (DBL_MAX has 309 digits).
 * Several times faster than printf. */
#define QK_FMT_BUFSIZE 330
size_t qk_fmt_fixed4(char *buf, double v);

/* The project's string hash (FNV-1a with a final mix): every hash table
 * over strings uses it, so low bits are usable as a table index. */
uint64_t qk_hash_bytes(const char *s, size_t len);

/* ---- Sorting and ranking -------------------------------------------------- */
/* Comparison with a caller's context (qsort has none). */
typedef int (*qk_cmp_r)(const void *a, const void *b, void *ctx);
/* Stable O(n log n) sort of n elements of size bytes; QK_ENOMEM (array
 * unchanged in content, possibly permuted) when its scratch cannot be had. */
qk_status qk_sort_r(void *base, size_t n, size_t size, qk_cmp_r cmp, void *ctx);
/* The ranking rule of every ranked run (trec_eval's): score descending, ties
 * by docno descending in byte order. <0 when (a) ranks before (b). */
int qk_rank_cmp(double score_a, const char *docno_a, double score_b, const char *docno_b);

/* Parse a whole token as a finite double / integer. Return 0 on success. */
int qk_parse_double(const char *s, size_t len, double *out);
int qk_parse_long(const char *s, size_t len, long *out);

#ifdef __cplusplus
}
#endif
#endif
