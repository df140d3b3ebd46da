/* The sampling design: what the samplers remember between calls, and the
 * files made from it. The design file is plain text, one record a line
 * (doc/qrelkit-pool.md, "design file"):
 *   # qrelkit pool design 2
 *   method statap | strat | active
 *   seed S
 *   strata H            (statap: 0 = pi-ps, H = H strata)   cuts 10,30,100 (strat)
 *   run RUNID           (one per run, in --runs order; checked on reading)
 *   topic QID M         (statap, strat: units of the sample so far)
 *   round QID N P1..PK  (active: a round of N draws with run probabilities P)
 *   drawn QID DOCNO C   (active: the round above drew DOCNO C times; one per
 *                        document it drew, in pool order)
 *   draw QID DOCNO      (active, read only: one draw of the round above, the
 *                        draw-by-draw records of designs written before the
 *                        counts, "# qrelkit pool design 1")
 * Everything else (strata, permutations) is recomputed from the seed. */
#include "pool_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void dt_free(design_topic *dt)
{
    free(dt->order);
    free(dt->stratum);
    free(dt->alloc);
    free(dt->nh);
    free(dt->rw);
    free(dt->rdraws);
    free(dt->dcnt);
    free(dt->rc_doc);
    free(dt->rc_n);
    free(dt->rc_from);
    free(dt->logq);
    free(dt->w);
    free(dt->cm);
    free(dt->ncap);
    free(dt->wpos);
}

void qk_pool_design_free(qk_pool_design *d)
{
    if (!d)
        return;
    for (size_t t = 0; d->t && t < d->ntopics; t++)
        dt_free(&d->t[t]);
    free(d->t);
    free(d->cuts);
    free(d->exclude);
    free(d);
}

qk_status qk_pool_design_new(const qk_pool_runs *p, const qk_pool_opts *o, qk_pool_design **out,
                             qk_error *err)
{
    qk_pool_design *d = calloc(1, sizeof *d);
    *out = NULL;
    if (!d)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    d->method = o->method;
    d->seed = o->seed;
    d->strata = o->strata; /* statap: 0 = pi-ps (pool_pps.c), H = H strata */
    d->ntopics = p->ntopics;
    d->nruns = p->nruns;
    d->ncuts = o->ncuts;
    if (!(d->t = calloc(p->ntopics ? p->ntopics : 1, sizeof *d->t)) ||
        !(d->cuts = malloc((o->ncuts ? o->ncuts : 1) * sizeof *d->cuts)))
        goto nomem;
    if (o->ncuts)
        memcpy(d->cuts, o->cuts, o->ncuts * sizeof *d->cuts);
    if (o->exclude) {
        if (!(d->exclude = malloc(p->nruns)))
            goto nomem;
        memcpy(d->exclude, o->exclude, p->nruns);
    }
    if (d->method == QK_POOL_STATAP || d->method == QK_POOL_STRAT)
        for (size_t t = 0; t < p->ntopics; t++) {
            qk_pool_topic view;
            size_t lenbuf[p->nruns];
            pool_view(p, t, d->exclude, &view, lenbuf);
            if ((d->method == QK_POOL_STATAP && d->strata == 0
                     ? pool_pps_setup(&view, p->nruns, d, t, &d->t[t])
                     : pool_strata_setup(&view, p->nruns, d, t, &d->t[t])) != QK_OK)
                goto nomem;
        }
    *out = d;
    return QK_OK;
nomem:
    qk_pool_design_free(d);
    return qk_error_set(err, QK_ENOMEM, "out of memory");
}

#define BAD(...) qk_error_at(err, QK_EINPUT, path, lineno, 0, __VA_ARGS__)

static qk_status read_line(qk_pool_design *d, const qk_pool_runs *p, const qk_pool_opts *o, const char *path,
                           long lineno, char *line, size_t *nrun, qk_error *err)
{
    const char *f[4096];
    size_t fl[4096], nf;
    size_t t;
    char key[32], a[4096];
    nf = qk_split_fields(line, strlen(line), f, fl, 4096);
    if (nf == 0 || f[0][0] == '#')
        return QK_OK;
    if (nf > 4096 || fl[0] >= sizeof key || (nf > 1 && fl[1] >= sizeof a))
        return BAD("line too long for a design record");
    memcpy(key, f[0], fl[0]);
    key[fl[0]] = 0;
    if (nf > 1) {
        memcpy(a, f[1], fl[1]);
        a[fl[1]] = 0;
    }
    if (strcmp(key, "method") == 0 && nf == 2) {
        qk_pool_method m;
        if (qk_pool_method_parse(a, &m) != 0 || m != o->method)
            return BAD("design is for method '%s', not '%s'", a, qk_pool_method_name(o->method));
    } else if (strcmp(key, "seed") == 0 && nf == 2) {
        if (strtoull(a, NULL, 10) != o->seed)
            return BAD("design was made with seed %s, not %llu", a, (unsigned long long)o->seed);
    } else if (strcmp(key, "strata") == 0 && nf == 2) {
        /* the strata decide every pi: a design only continues with its own */
        if (strtoul(a, NULL, 10) != o->strata)
            return BAD("design was made with --strata %s, not %zu", a, o->strata);
    } else if (strcmp(key, "cuts") == 0 && nf == 2) {
        char want[1024];
        size_t len = 0;
        want[0] = 0;
        for (size_t c = 0; c < o->ncuts && len < sizeof want - 24; c++)
            len += (size_t)snprintf(want + len, sizeof want - len, "%s%ld", c ? "," : "", o->cuts[c]);
        if (strcmp(a, want) != 0)
            return BAD("design was made with --cuts %s, not %s", a, want);
    } else if (strcmp(key, "run") == 0 && nf == 2) {
        if (*nrun >= p->nruns || strcmp(a, p->runids[*nrun]) != 0)
            return BAD("run '%s' does not match the runs given (same runs, same order)", a);
        (*nrun)++;
    } else if (strcmp(key, "topic") == 0 && nf == 3) {
        long m;
        if (!qk_pool_find_topic(p, a, &t))
            return BAD("topic '%s' is not in the runs", a);
        if (qk_parse_long(f[2], fl[2], &m) != 0 || m < 0 || (size_t)m > p->topics[t].pub.ndocs)
            return BAD("bad sample size for topic '%s'", a);
        d->t[t].m = (size_t)m;
    } else if (strcmp(key, "round") == 0 && nf == 3 + p->nruns) {
        double rw[4096];
        if (!qk_pool_find_topic(p, a, &t))
            return BAD("topic '%s' is not in the runs", a);
        for (size_t r = 0; r < p->nruns; r++)
            if (qk_parse_double(f[3 + r], fl[3 + r], &rw[r]) != 0 || rw[r] < 0)
                return BAD("bad run probability");
        if (pool_design_push_round(&d->t[t], p->nruns, rw) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    } else if ((strcmp(key, "draw") == 0 && nf == 3) || (strcmp(key, "drawn") == 0 && nf == 4)) {
        char doc[4096];
        uint32_t id;
        long c = 1;
        if (!qk_pool_find_topic(p, a, &t) || d->t[t].nrounds == 0)
            return BAD("draw before a round of topic '%s'", a);
        if (fl[2] >= sizeof doc)
            return BAD("docno too long");
        memcpy(doc, f[2], fl[2]);
        doc[fl[2]] = 0;
        if (!qk_pool_find_doc(&p->topics[t].pub, doc, &id))
            return BAD("document '%s' is not in the pool of topic '%s'", doc, a);
        if (nf == 4 && (qk_parse_long(f[3], fl[3], &c) != 0 || c < 1))
            return BAD("bad draw count for document '%s' of topic '%s'", doc, a);
        if (pool_design_push_count(&d->t[t], p->topics[t].pub.ndocs, id, c, nf == 3) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    } else
        return BAD("unknown design record '%s'", key);
    return QK_OK;
}

qk_status qk_pool_design_read(qk_lines *l, const qk_pool_runs *p, const qk_pool_opts *o, qk_pool_design **out,
                              qk_error *err)
{
    const char *path = qk_lines_path(l);
    const char *line;
    size_t len, nrun = 0;
    int r;
    qk_status st;
    char *buf = NULL;
    size_t cap = 0;
    if ((st = qk_pool_design_new(p, o, out, err)) != QK_OK)
        return st;
    while ((r = qk_lines_next(l, &line, &len, err)) > 0) {
        if (qk_grow((void **)&buf, &cap, len + 1, 1) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        memcpy(buf, line, len);
        buf[len] = 0;
        if ((st = read_line(*out, p, o, path, qk_lines_lineno(l), buf, &nrun, err)) != QK_OK)
            goto out;
    }
    if (r < 0) {
        st = (qk_status)r;
        goto out;
    }
    if (nrun != p->nruns)
        st = qk_error_set(err, QK_EINPUT, "'%s': made for %zu runs, %zu given", path, nrun, p->nruns);
out:
    free(buf);
    if (st != QK_OK) {
        qk_pool_design_free(*out);
        *out = NULL;
    }
    return st;
}

/* The design file's active records of one topic: each round, then its counts. */
typedef struct round_writer {
    FILE *f;
    const qk_pool_design *d;
    const design_topic *dt;
    const char *qid;
    char **docnos;
    size_t next; /* rounds whose record is written */
} round_writer;

static void write_rounds_to(round_writer *w, size_t upto)
{
    for (; w->next <= upto && w->next < w->dt->nrounds; w->next++) {
        fprintf(w->f, "round %s %ld", w->qid, w->dt->rdraws[w->next]);
        for (size_t r = 0; r < w->d->nruns; r++)
            fprintf(w->f, " %.17g", w->dt->rw[w->next * w->d->nruns + r]);
        fputc('\n', w->f);
    }
}

static void write_draw(void *ctx, size_t round, uint32_t doc, long n, const double *p)
{
    (void)p;
    round_writer *w = ctx;
    write_rounds_to(w, round);
    fprintf(w->f, "drawn %s %s %ld\n", w->qid, w->docnos[doc], n);
}

qk_status qk_pool_design_write(const qk_pool_design *d, const qk_pool_runs *p, FILE *f, qk_error *err)
{
    fprintf(f, "# qrelkit pool design 2\nmethod %s\nseed %llu\n", qk_pool_method_name(d->method),
            (unsigned long long)d->seed);
    if (d->method == QK_POOL_STATAP)
        fprintf(f, "strata %zu\n", d->strata);
    if (d->method == QK_POOL_STRAT) {
        fputs("cuts ", f);
        for (size_t c = 0; c < d->ncuts; c++)
            fprintf(f, "%s%ld", c ? "," : "", d->cuts[c]);
        fputc('\n', f);
    }
    for (size_t r = 0; r < p->nruns; r++)
        fprintf(f, "run %s\n", p->runids[r]);
    for (size_t t = 0; t < d->ntopics; t++) {
        const design_topic *dt = &d->t[t];
        round_writer w = {f, d, dt, p->topics[t].qid, p->topics[t].docnos, 0};
        qk_pool_topic view;
        size_t lenbuf[p->nruns ? p->nruns : 1];
        if (d->method != QK_POOL_ACTIVE) {
            if (dt->m)
                fprintf(f, "topic %s %zu\n", w.qid, dt->m);
            continue;
        }
        if (!dt->nrounds)
            continue;
        pool_view(p, t, d->exclude, &view, lenbuf);
        if (pool_active_each_draw(&view, p->nruns, dt, write_draw, &w) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        write_rounds_to(&w, dt->nrounds - 1);
    }
    if (ferror(f))
        return qk_error_set(err, QK_EIO, "cannot write the design: write error");
    return QK_OK;
}
