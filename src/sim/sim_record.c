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
