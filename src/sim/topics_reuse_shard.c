/* simulate topics-reuse --shard: a trial's row as an exact text record
 * (topics.h, doc/scale-out.md): trial participating auxiliary new omega m
 * spent_subset spent_uniform tau_initial tau_uniform tau_subset
 * tau_sig_initial tau_sig_uniform tau_sig_subset p_plus p_plus_sig, counts
 * in decimal, reals as hexadecimal floats, one line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"
#include "sim_record.h"

qk_status qk_topics_reuse_row_encode(const qk_topics_reuse_row *r, char **out, qk_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *out = NULL;
    if (!f)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    fprintf(f, "%zu %zu %zu %zu %a %zu %a %a %a %a %a %a %a %a %a %a\n", r->trial, r->participating,
            r->auxiliary, r->nnew, r->omega, r->m, r->spent_subset, r->spent_uniform, r->tau_initial,
            r->tau_uniform, r->tau_subset, r->tau_sig_initial, r->tau_sig_uniform, r->tau_sig_subset,
            r->p_plus, r->p_plus_sig);
    if (fclose(f) != 0) {
        free(buf);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    *out = buf;
    return QK_OK;
}

qk_status qk_topics_reuse_row_decode(const char *rec, qk_topics_reuse_row *r, qk_error *err)
{
    const char *s = rec;
    double *reals[] = {&r->spent_subset, &r->spent_uniform,   &r->tau_initial,     &r->tau_uniform,
                       &r->tau_subset,   &r->tau_sig_initial, &r->tau_sig_uniform, &r->tau_sig_subset,
                       &r->p_plus,       &r->p_plus_sig};
    int bad;
    memset(r, 0, sizeof *r);
    bad = qk_simrec_count(&s, &r->trial, ' ') || qk_simrec_count(&s, &r->participating, ' ') ||
          qk_simrec_count(&s, &r->auxiliary, ' ') || qk_simrec_count(&s, &r->nnew, ' ') ||
          qk_simrec_real(&s, &r->omega, ' ') || qk_simrec_count(&s, &r->m, ' ');
    for (size_t k = 0; !bad && k < sizeof reals / sizeof *reals; k++)
        bad = qk_simrec_real(&s, reals[k], k + 1 < sizeof reals / sizeof *reals ? ' ' : '\n');
    if (bad || *s)
        return qk_error_set(err, QK_EINPUT, "a row of simulate topics-reuse is malformed");
    return QK_OK;
}
