/* simulate tar --shard: the part's prologue (the rules and targets) and a
 * topic's review rows as an exact text record (tar_stop.h,
 * doc/scale-out.md). The prologue: "tar-sim N", then one line "STOP TARGET"
 * per rule and target. A record: one line per rule and target:
 *   n_docs R n_shown rel_shown n_judged rounds recall cost re loss_er
 *   reliable stopped has_r_hat r_hat r_var r_lo r_hi r_re
 * counts in decimal, reals as hexadecimal floats, so the merged summary is
 * computed from the very values the unsharded run has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/tar_stop.h"
#include "sim_record.h"

qk_status qk_tar_sim_rows_encode(const qk_tar_sim_row *rows, size_t nconfigs, char **out, qk_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *out = NULL;
    if (!f)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t c = 0; c < nconfigs; c++) {
        const qk_tar_sim_row *r = &rows[c];
        fprintf(f, "%zu %zu %zu %zu %zu %zu %a %a %a %a %d %d %d %a %a %a %a %a\n", r->n_docs, r->R,
                r->n_shown, r->rel_shown, r->n_judged, r->rounds, r->recall, r->cost, r->re, r->loss_er,
                r->reliable, r->stopped, r->has_r_hat, r->r_hat, r->r_var, r->r_lo, r->r_hi, r->r_re);
    }
    if (fclose(f) != 0) {
        free(buf);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    *out = buf;
    return QK_OK;
}

static int flag_field(const char **s, int *v)
{
    if (((*s)[0] != '0' && (*s)[0] != '1') || (*s)[1] != ' ')
        return -1;
    *v = (*s)[0] == '1';
    *s += 2;
    return 0;
}

qk_status qk_tar_sim_rows_decode(const char *rec, size_t topic, size_t nconfigs, qk_tar_sim_row *rows,
                                 qk_error *err)
{
    const char *s = rec;
    for (size_t c = 0; c < nconfigs; c++) {
        qk_tar_sim_row *r = &rows[c];
        memset(r, 0, sizeof *r);
        r->topic = topic;
        r->config = c;
        if (qk_simrec_count(&s, &r->n_docs, ' ') || qk_simrec_count(&s, &r->R, ' ') ||
            qk_simrec_count(&s, &r->n_shown, ' ') || qk_simrec_count(&s, &r->rel_shown, ' ') ||
            qk_simrec_count(&s, &r->n_judged, ' ') || qk_simrec_count(&s, &r->rounds, ' ') ||
            qk_simrec_real(&s, &r->recall, ' ') || qk_simrec_real(&s, &r->cost, ' ') ||
            qk_simrec_real(&s, &r->re, ' ') || qk_simrec_real(&s, &r->loss_er, ' ') ||
            flag_field(&s, &r->reliable) || flag_field(&s, &r->stopped) || flag_field(&s, &r->has_r_hat) ||
            qk_simrec_real(&s, &r->r_hat, ' ') || qk_simrec_real(&s, &r->r_var, ' ') ||
            qk_simrec_real(&s, &r->r_lo, ' ') || qk_simrec_real(&s, &r->r_hi, ' ') ||
            qk_simrec_real(&s, &r->r_re, '\n'))
            return qk_error_set(err, QK_EINPUT, "the record of topic %zu is malformed at rule and target %zu",
                                topic + 1, c + 1);
    }
    if (*s)
        return qk_error_set(err, QK_EINPUT, "the record of topic %zu has more than %zu rows", topic + 1,
                            nconfigs);
    return QK_OK;
}

qk_status qk_tar_sim_configs_encode(const qk_tar_opts *cfg, size_t n, char **out, size_t *len, qk_error *err)
{
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    *out = NULL;
    *len = 0;
    if (!f)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    fprintf(f, "tar-sim %zu\n", n);
    for (size_t c = 0; c < n; c++)
        fprintf(f, "%d %a\n", (int)cfg[c].stop, cfg[c].target);
    if (fclose(f) != 0) {
        free(buf);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    *out = buf;
    *len = blen;
    return QK_OK;
}

qk_status qk_tar_sim_configs_decode(const char *pro, qk_tar_opts *cfg, size_t max, size_t *n, qk_error *err)
{
    const char *s = pro;
    char *e;
    size_t k = 0;
    *n = 0;
    if (strncmp(s, "tar-sim ", 8) != 0 || s[8] < '0' || s[8] > '9' || (k = strtoul(s + 8, &e, 10), *e != '\n') ||
        k == 0 || k > max)
        return qk_error_set(err, QK_EINPUT, "the prologue of simulate tar is malformed");
    for (size_t c = 0; c < k; c++) {
        long stop;
        double target;
        s = e + 1;
        stop = strtol(s, &e, 10);
        if (e == s || *e != ' ' || qk_enum_by_value(qk_tar_stop_table, (int)stop) == NULL)
            return qk_error_set(err, QK_EINPUT, "the prologue of simulate tar is malformed at line %zu", c + 2);
        s = e + 1;
        target = strtod(s, &e);
        if (e == s || *e != '\n')
            return qk_error_set(err, QK_EINPUT, "the prologue of simulate tar is malformed at line %zu", c + 2);
        qk_tar_opts_init(&cfg[c]);
        cfg[c].stop = (qk_tar_stop)stop;
        cfg[c].target = target;
    }
    *n = k;
    return QK_OK;
}
