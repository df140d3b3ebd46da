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

/* Marks the public API: libqrelkit.so is built with -fvisibility=hidden, so
 * only what carries QK_API is exported (tests/library/exports.sh checks that
 * the exported symbols are exactly the declarations of include/qrelkit/). */
#if defined(__GNUC__) || defined(__clang__)
#define QK_API __attribute__((visibility("default")))
#else
#define QK_API
#endif

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
QK_API qk_status qk_error_set(qk_error *err, qk_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Same, with a file position; the message is prefixed "'FILE' line L: ". */
QK_API qk_status qk_error_at(qk_error *err, qk_status code, const char *file, long line, long column,
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
QK_API void qk_error_clear(qk_error *err);
/* Short English name of a status ("bad input", ...). Static string. */
QK_API const char *qk_status_name(qk_status st);
/* Process exit code for a status per DESIGN.md: 0 ok, 1 usage, 2 input, 3 io/internal. */
QK_API int qk_status_exit_code(qk_status st);

/* ---- String pool: interns byte strings, ids are dense from 0. ---------- */
typedef struct qk_strpool qk_strpool;
QK_API qk_strpool *qk_strpool_new(void);
QK_API void qk_strpool_free(qk_strpool *p);
/* Intern s[0..len) and return its id in *id (new or existing). */
QK_API qk_status qk_strpool_intern(qk_strpool *p, const char *s, size_t len, uint32_t *id);
/* Look up without inserting. Returns 1 and sets *id when present, else 0. */
QK_API int qk_strpool_find(const qk_strpool *p, const char *s, size_t len, uint32_t *id);
/* NUL-terminated string of an id. Valid until the pool is freed. */
QK_API const char *qk_strpool_str(const qk_strpool *p, uint32_t id);
QK_API size_t qk_strpool_len(const qk_strpool *p, uint32_t id);
QK_API size_t qk_strpool_count(const qk_strpool *p);

/* ---- Random numbers: xoshiro256** seeded through splitmix64. ----------
 * One generator for the whole project, so seeded results are identical on
 * every machine. */
typedef struct qk_rng {
    uint64_t s[4];
} qk_rng;
QK_API void qk_rng_seed(qk_rng *r, uint64_t seed);
QK_API uint64_t qk_rng_next(qk_rng *r);
/* Uniform double in [0, 1) with 53 random bits. */
QK_API double qk_rng_uniform(qk_rng *r);
/* u[0..n) = the next n qk_rng_uniform values, in one call (for hot loops
 * that draw millions: no call per number). */
QK_API void qk_rng_uniforms(qk_rng *r, double *u, size_t n);
/* Uniform integer in [0, n) without modulo bias; n > 0. */
QK_API uint64_t qk_rng_below(qk_rng *r, uint64_t n);
/* Index drawn with probability proportional to the increments of the
 * cumulative weights cum[0..n) (non-decreasing, cum[n-1] > 0, n > 0): the
 * first i with cum[i] > u * cum[n-1], u = qk_rng_uniform. */
QK_API size_t qk_rng_pick_cum(qk_rng *r, const double *cum, size_t n);
/* Standard normal (Marsaglia polar method, no cached spare: deterministic per call count). */
QK_API double qk_rng_normal(qk_rng *r);
/* X ~ Binomial(n, p), exact in law (inversion, O(1 + sqrt(n p (1-p))) uniforms'
 * worth of work, one uniform in all but ~1e-13 of calls); 0 when n <= 0 or
 * p <= 0, n when p >= 1. */
QK_API long qk_rng_binomial(qk_rng *r, long n, double p);
/* Failures before the first success of independent Bernoulli(s) trials
 * (geometric, by inversion, one uniform), at most cap; cap when s <= 0
 * (no success ever), 0 when s >= 1 (no uniform drawn either way). */
QK_API long qk_rng_geometric(qk_rng *r, double s, long cap);
/* counts[0..k) ~ Multinomial(n, w / sum w) by conditional binomials:
 * counts[i] ~ Bin(n left, w[i] / tail[i]), where tail[i] = w[i] + ... +
 * w[k-1] are the caller's suffix sums (summed once, so that no ratio drifts
 * above 1); a zero weight gets 0 and draws nothing. */
QK_API void qk_rng_multinomial(qk_rng *r, long n, const double *w, const double *tail, size_t k, long *counts);

/* ---- Growable arrays ---------------------------------------------------- */
/* Make room for at least need elements of size elsize in *ptr (capacity *cap).
 * Grows geometrically. Returns QK_OK or QK_ENOMEM (then *ptr is unchanged). */
QK_API qk_status qk_grow(void **ptr, size_t *cap, size_t need, size_t elsize);

/* ---- Temporary files ---------------------------------------------------- */
/* Some outputs (an index and its spilled runs, simulation files) are written
 * under a temporary name that carries the process id, and renamed when
 * complete. A program that wants them removed when it is interrupted sets a
 * hook: it is told each temporary path when the file is created (created = 1)
 * and when it is removed or renamed into place (0). The library installs no
 * signal handler. Process-wide; set it before work starts (the hook may be
 * called from several threads at once). fn NULL = no hook (the default). */
typedef void (*qk_temp_hook_fn)(void *ctx, const char *path, int created);
QK_API void qk_temp_hook_set(qk_temp_hook_fn fn, void *ctx);
/* For the library's writers: pass one event to the hook, if any. */
QK_API void qk_temp_note(const char *path, int created);

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
QK_API size_t qk_fmt_fixed4(char *buf, double v);

/* Write v as printf("%.*g", prec, v) would (same bytes), NUL-terminated;
 * returns the length; buf needs QK_FMT_BUFSIZE bytes. Exact without printf
 * for 1-17 digits of magnitudes from about 10^(prec-23) to 2^53 (every
 * measure value, probability and count); other values go through printf. */
QK_API size_t qk_fmt_g(char *buf, double v, int prec);

/* The project's string hash (FNV-1a with a final mix): every hash table
 * over strings uses it, so low bits are usable as a table index. */
QK_API uint64_t qk_hash_bytes(const char *s, size_t len);

/* ---- Sorting and ranking -------------------------------------------------- */
/* Comparison with a caller's context (qsort has none). */
typedef int (*qk_cmp_r)(const void *a, const void *b, void *ctx);
/* Stable O(n log n) sort of n elements of size bytes; QK_ENOMEM (array
 * unchanged in content, possibly permuted) when its scratch cannot be had. */
QK_API qk_status qk_sort_r(void *base, size_t n, size_t size, qk_cmp_r cmp, void *ctx);
/* The ranking rule of every ranked run (trec_eval's): score descending, ties
 * by docno descending in byte order. <0 when (a) ranks before (b). */
QK_API int qk_rank_cmp(double score_a, const char *docno_a, double score_b, const char *docno_b);

/* Parse a whole token as a finite double / integer. Return 0 on success. */
QK_API int qk_parse_double(const char *s, size_t len, double *out);
QK_API int qk_parse_long(const char *s, size_t len, long *out);

/* ---- Enum tables: the words an option takes (DESIGN §3) ---------------
 * One table per option, {name, value, help}, ended by a row whose name is
 * NULL. Several rows may share a value (spellings of one choice); a row with
 * help NULL is such an extra spelling: accepted, never listed. Tables are
 * static data owned by whoever defines them. */
typedef struct qk_enum {
    const char *name;
    int value;
    const char *help; /* one line for --help; NULL: an accepted, unlisted spelling */
} qk_enum;

/* The row named name (exact, case-sensitive), or NULL. */
QK_API const qk_enum *qk_enum_find(const qk_enum *table, const char *name);
/* The first row with value (its listed name), or NULL. */
QK_API const qk_enum *qk_enum_by_value(const qk_enum *table, int value);
/* word -> *value. Unknown words are QK_EUSAGE with
 * "unknown OPT 'WORD' (choose from: a, b, c)" (opt e.g. "--method"). */
QK_API qk_status qk_enum_parse(const qk_enum *table, const char *opt, const char *word, int *value, qk_error *err);
/* The listed names, "a, b, c", into buf (always NUL-terminated when size > 0).
 * Returns the length the whole list needs, as snprintf does. */
QK_API size_t qk_enum_choices(const qk_enum *table, char *buf, size_t size);
/* One line per listed row, "INDENT NAME  HELP\n", names padded to the longest
 * (at least min_width), into buf like qk_enum_choices. */
QK_API size_t qk_enum_help(const qk_enum *table, const char *indent, int min_width, char *buf, size_t size);

/* ---- Strict numbers (DESIGN §3) ----------------------------------------
 * The whole token must be the number: no blanks, no trailing text ("10k",
 * "5x"), no empty token. Integers are decimal with an optional sign;
 * doubles are decimal (digits, '.', exponent; no hex, no inf/nan unless
 * QK_NUM_NONFINITE). Errors are QK_EUSAGE naming the option and the token:
 * "OPT: 'TOK' is not an integer", "OPT: 'TOK' is not a number in [0, 1]".
 * opt may be NULL or "" (the message then starts at the token). */
#define QK_NUM_LO_OPEN 1   /* lo itself is out of range */
#define QK_NUM_HI_OPEN 2   /* hi itself is out of range */
#define QK_NUM_NONFINITE 4 /* accept inf, -inf and nan (range checks then skip nan) */
QK_API qk_status qk_num_long(const char *opt, const char *tok, long lo, long hi, long *out, qk_error *err);
/* A count or index: plain digits (no sign), lo <= value <= hi. */
QK_API qk_status qk_num_size(const char *opt, const char *tok, size_t lo, size_t hi, size_t *out, qk_error *err);
/* A seed: plain digits, any 64-bit value. */
QK_API qk_status qk_num_u64(const char *opt, const char *tok, uint64_t *out, qk_error *err);
QK_API qk_status qk_num_double(const char *opt, const char *tok, double lo, double hi, int flags, double *out,
                        qk_error *err);
/* The syntax checks alone, on tok[0..len): 1 when the token is a decimal
 * integer / a finite decimal number, else 0 (no range, no conversion). */
QK_API int qk_num_is_integer(const char *tok, size_t len);
QK_API int qk_num_is_decimal(const char *tok, size_t len);

#ifdef __cplusplus
}
#endif
#endif
