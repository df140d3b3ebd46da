/* Fields of the simulations' shard records (sim_record.h). */
#include "sim_record.h"

#include <stdlib.h>

int qk_simrec_count(const char **s, size_t *v, char end)
{
    char *e;
    unsigned long long x;
    if (**s < '0' || **s > '9')
        return -1;
    x = strtoull(*s, &e, 10);
    if (*e != end)
        return -1;
    *v = (size_t)x;
    *s = e + 1;
    return 0;
}

int qk_simrec_real(const char **s, double *v, char end)
{
    char *e;
    if (**s == ' ' || **s == '\n' || !**s)
        return -1;
    *v = strtod(*s, &e);
    if (e == *s || *e != end)
        return -1;
    *s = e + 1;
    return 0;
}

int qk_simrec_line3(const char **s, size_t *k, double *a, double *b)
{
    return qk_simrec_count(s, k, ' ') != 0 || qk_simrec_real(s, a, ' ') != 0 ||
                   qk_simrec_real(s, b, '\n') != 0
               ? -1
               : 0;
}

qk_status qk_simrec_begin(size_t first, size_t end, size_t ntrials, char ***rec, qk_error *err)
{
    *rec = NULL;
    if (first > end || end > ntrials)
        return qk_error_set(err, QK_EUSAGE, "trials %zu to %zu are not within the %zu trials", first, end,
                            ntrials);
    if (!(*rec = calloc(end - first + 1, sizeof **rec)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return QK_OK;
}

qk_status qk_simrec_hand_over(qk_status st, char **rec, size_t n, char ***out)
{
    if (st != QK_OK) {
        for (size_t t = 0; rec && t < n; t++)
            free(rec[t]);
        free(rec);
        return st;
    }
    *out = rec;
    return QK_OK;
}
