/* Strict numbers for options and measure parameters: the whole token is the
 * number, or it is an error naming the option and the token (never the
 * silent prefix atol/atof would take: "5x" -> 5, "abc" -> 0, "1e3" -> 1). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/core.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }

int qk_num_is_integer(const char *s, size_t len)
{
    size_t i = len > 0 && (s[0] == '-' || s[0] == '+');
    if (i == len)
        return 0;
    for (; i < len; i++)
        if (!is_digit(s[i]))
            return 0;
    return 1;
}

/* [sign] digits [. digits] [e|E [sign] digits], at least one digit before
 * the exponent: "5", "-.5", "5.", "1e3", "2.5E-2". */
int qk_num_is_decimal(const char *s, size_t len)
{
    size_t i = len > 0 && (s[0] == '-' || s[0] == '+'), digits = 0;
    for (; i < len && is_digit(s[i]); i++)
        digits++;
    if (i < len && s[i] == '.')
        for (i++; i < len && is_digit(s[i]); i++)
            digits++;
    if (!digits)
        return 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t exp = 0;
        i++;
        if (i < len && (s[i] == '-' || s[i] == '+'))
            i++;
        for (; i < len && is_digit(s[i]); i++)
            exp++;
        if (!exp)
            return 0;
    }
    return i == len;
}

static const char *pre(const char *opt) { return opt && *opt ? opt : ""; }
static const char *sep(const char *opt) { return opt && *opt ? ": " : ""; }

static qk_status bad_long(const char *opt, const char *tok, long lo, long hi, qk_error *err)
{
    if (lo == LONG_MIN && hi == LONG_MAX)
        return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not an integer", pre(opt), sep(opt), tok);
    if (hi == LONG_MAX)
        return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not an integer >= %ld", pre(opt), sep(opt), tok, lo);
    if (lo == LONG_MIN)
        return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not an integer <= %ld", pre(opt), sep(opt), tok, hi);
    return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not an integer from %ld to %ld", pre(opt), sep(opt), tok, lo,
                        hi);
}

qk_status qk_num_long(const char *opt, const char *tok, long lo, long hi, long *out, qk_error *err)
{
    char *end;
    long v;
    if (!qk_num_is_integer(tok, strlen(tok)))
        return bad_long(opt, tok, lo, hi, err);
    errno = 0;
    v = strtol(tok, &end, 10);
    if (errno == ERANGE || *end || v < lo || v > hi)
        return bad_long(opt, tok, lo, hi, err);
    *out = v;
    return QK_OK;
}

static qk_status bad_size(const char *opt, const char *tok, size_t lo, size_t hi, qk_error *err)
{
    if (hi == SIZE_MAX)
        return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not a whole number >= %zu", pre(opt), sep(opt), tok,
                            lo);
    return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not a whole number from %zu to %zu", pre(opt), sep(opt), tok,
                        lo, hi);
}

/* Plain digits into *v; 0 on success, -1 on syntax or overflow. */
static int plain_u64(const char *tok, uint64_t *v)
{
    size_t n = strlen(tok);
    uint64_t x = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(tok[i]) || x > (UINT64_MAX - (uint64_t)(tok[i] - '0')) / 10)
            return -1;
        x = x * 10 + (uint64_t)(tok[i] - '0');
    }
    *v = x;
    return 0;
}

qk_status qk_num_size(const char *opt, const char *tok, size_t lo, size_t hi, size_t *out, qk_error *err)
{
    uint64_t v;
    if (plain_u64(tok, &v) != 0 || v > SIZE_MAX || (size_t)v < lo || (size_t)v > hi)
        return bad_size(opt, tok, lo, hi, err);
    *out = (size_t)v;
    return QK_OK;
}

qk_status qk_num_u64(const char *opt, const char *tok, uint64_t *out, qk_error *err)
{
    if (plain_u64(tok, out) != 0)
        return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not a whole number from 0 to %llu", pre(opt), sep(opt),
                            tok, (unsigned long long)UINT64_MAX);
    return QK_OK;
}

static qk_status bad_double(const char *opt, const char *tok, double lo, double hi, int flags, qk_error *err)
{
    const char *l = flags & QK_NUM_LO_OPEN ? "(" : "[", *h = flags & QK_NUM_HI_OPEN ? ")" : "]";
    if (isinf(lo) && isinf(hi))
        return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not a number", pre(opt), sep(opt), tok);
    if (isinf(hi))
        return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not a number %s %g", pre(opt), sep(opt), tok,
                            flags & QK_NUM_LO_OPEN ? ">" : ">=", lo);
    if (isinf(lo))
        return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not a number %s %g", pre(opt), sep(opt), tok,
                            flags & QK_NUM_HI_OPEN ? "<" : "<=", hi);
    return qk_error_set(err, QK_EUSAGE, "%s%s'%s' is not a number in %s%g, %g%s", pre(opt), sep(opt), tok, l, lo,
                        hi, h);
}

static int nonfinite_word(const char *s, double *v)
{
    const char *t = s + (*s == '-' || *s == '+');
    double sign = *s == '-' ? -1.0 : 1.0;
    if (strcmp(t, "inf") == 0 || strcmp(t, "infinity") == 0) {
        *v = sign * INFINITY;
        return 1;
    }
    if (strcmp(t, "nan") == 0 && t == s) {
        *v = NAN;
        return 1;
    }
    return 0;
}

qk_status qk_num_double(const char *opt, const char *tok, double lo, double hi, int flags, double *out,
                        qk_error *err)
{
    double v;
    if (!qk_num_is_decimal(tok, strlen(tok))) {
        if (!(flags & QK_NUM_NONFINITE) || !nonfinite_word(tok, &v))
            return bad_double(opt, tok, lo, hi, flags, err);
    } else {
        v = strtod(tok, NULL);
        if (isinf(v) && !(flags & QK_NUM_NONFINITE)) /* 1e999 */
            return bad_double(opt, tok, lo, hi, flags, err);
    }
    if (!isnan(v) && (v < lo || v > hi || (v == lo && (flags & QK_NUM_LO_OPEN)) ||
                      (v == hi && (flags & QK_NUM_HI_OPEN))))
        return bad_double(opt, tok, lo, hi, flags, err);
    *out = v;
    return QK_OK;
}
