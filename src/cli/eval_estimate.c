/* `qrelkit eval -R prels|strata`: one table per run from the estimators,
 * printed like `qrelkit eval` (trec, tsv, json) or, with --compat, exactly as
 * the reference script (statAP_MQ_eval_v4.pl -q, sample_eval.pl -q). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "eval_estimate.h"
#include "qrelkit/estimate.h"

/* var_ columns only with --var; sample counts only with -q --var (they are
 * bookkeeping, not estimates). */
static int shown(const qk_est_cli *c, const qk_est_table *t, size_t i)
{
    const char *n = t->names[i];
    if (strncmp(n, "var_", 4) == 0 && strcmp(n, "var_R_HH") != 0 && strcmp(n, "var_R_HT") != 0)
        return c->with_var;
    if (strcmp(n, "judged_mtc") == 0 || strcmp(n, "judged_statap") == 0)
        return 0;
    return 1;
}

static void put_value(FILE *f, const qk_est_table *t, size_t i, double v, int prec)
{
    if (isnan(v))
        fputs("NA", f);
    else if (t->is_count[i])
        fprintf(f, "%ld", (long)v);
    else
        fprintf(f, "%.*f", prec, v);
}

static void write_trec(FILE *f, const qk_est_cli *c, const qk_est_table *t, int with_run)
{
    for (size_t k = 0; c->per_topic && k < t->ntopics; k++)
        for (size_t i = 0; i < t->nvalues; i++) {
            if (!shown(c, t, i) || strncmp(t->names[i], "iprec_at", 8) == 0)
                continue;
            if (with_run)
                fprintf(f, "%s\t", t->runid);
            fprintf(f, "%-22s\t%s\t", t->names[i], t->topics[k]);
            put_value(f, t, i, t->v[k * t->nvalues + i], c->precision);
            fputc('\n', f);
        }
    for (size_t i = 0; c->summary && i < t->nvalues; i++) {
        if (!shown(c, t, i))
            continue;
        if (with_run)
            fprintf(f, "%s\t", t->runid);
        fprintf(f, "%-22s\tall\t", t->names[i]);
        put_value(f, t, i, t->summary[i], c->precision);
        fputc('\n', f);
    }
}

static void write_tsv(FILE *f, const qk_est_cli *c, const qk_est_table *t)
{
    for (size_t k = 0; c->per_topic && k < t->ntopics; k++)
        for (size_t i = 0; i < t->nvalues; i++) {
            if (!shown(c, t, i) || strncmp(t->names[i], "iprec_at", 8) == 0)
                continue;
            fprintf(f, "%s\t%s\t%s\t", t->runid, t->names[i], t->topics[k]);
            put_value(f, t, i, t->v[k * t->nvalues + i], c->precision);
            fputc('\n', f);
        }
    for (size_t i = 0; c->summary && i < t->nvalues; i++) {
        if (!shown(c, t, i))
            continue;
        fprintf(f, "%s\t%s\tall\t", t->runid, t->names[i]);
        put_value(f, t, i, t->summary[i], c->precision);
        fputc('\n', f);
    }
}

static json_t *jnum(const qk_est_table *t, size_t i, double v)
{
    if (isnan(v))
        return json_null();
    return t->is_count[i] ? json_integer((json_int_t)v) : json_real(v);
}

static json_t *to_json(const qk_est_cli *c, const qk_est_table *t, const char *path)
{
    json_t *sum = json_object(), *topics = json_object();
    for (size_t i = 0; i < t->nvalues; i++)
        if (shown(c, t, i))
            json_object_set_new(sum, t->names[i], jnum(t, i, t->summary[i]));
    for (size_t k = 0; c->per_topic && k < t->ntopics; k++) {
        json_t *jt = json_object();
        for (size_t i = 0; i < t->nvalues; i++)
            if (shown(c, t, i) && strncmp(t->names[i], "iprec_at", 8) != 0)
                json_object_set_new(jt, t->names[i], jnum(t, i, t->v[k * t->nvalues + i]));
        json_object_set_new(topics, t->topics[k], jt);
    }
    return qk_eval_json_run(t->runid, path, sum, c->summary, topics, c->per_topic);
}

int qk_eval_estimate(const qk_est_cli *c, const char *rel_path, char **runs, int nruns)
{
    qk_prels *p = NULL;
    qk_strata *s = NULL;
    qk_draws *d = NULL;
    qk_joint *jt = NULL;
    qk_error err;
    int rc = QK_EXIT_OK;
    int json = c->format && strcmp(c->format, "json") == 0;
    int tsv = c->format && strcmp(c->format, "tsv") == 0;
    json_t *root = json ? json_object() : NULL, *jruns = json ? json_array() : NULL;
    qk_error_clear(&err);
    if ((c->kind == 1   ? qk_prels_read(rel_path, &p, &err)
         : c->kind == 2 ? qk_strata_read(rel_path, &s, &err)
                        : qk_draws_read(rel_path, &d, &err)) != QK_OK)
        return qk_cli_fail("eval", &err);
    if (c->joint && qk_joint_read(c->joint, &jt, &err) != QK_OK) {
        qk_draws_free(d);
        return qk_cli_fail("eval", &err);
    }
    if (c->compat && c->kind == 3) {
        qk_draws_free(d);
        qk_joint_free(jt);
        qk_cli_errorf("eval", "--compat applies to -R prels and -R strata only");
        return QK_EXIT_USAGE;
    }
    if (tsv)
        printf("run\tmeasure\ttopic\tvalue\n");
    for (int r = 0; r < nruns && rc == QK_EXIT_OK; r++) {
        qk_est_table *t = NULL;
        qk_run *run = NULL;
        qk_status st = qk_run_read(runs[r], &run, &err);
        if (st == QK_OK)
            st = c->kind == 1   ? qk_statap_eval(p, run, &t, &err)
                 : c->kind == 2 ? qk_xinfap_eval(s, run, c->max_ret, &t, &err)
                                : qk_draws_eval_joint(d, jt, run, &t, &err);
        qk_run_free(run);
        if (st != QK_OK) {
            rc = qk_cli_fail("eval", &err);
            break;
        }
        if (c->compat)
            st = c->kind == 1 ? qk_statap_write_mq(t, stdout, &err)
                              : qk_xinfap_write_sample_eval(t, stdout, c->per_topic, &err);
        else if (json)
            json_array_append_new(jruns, to_json(c, t, runs[r]));
        else if (tsv)
            write_tsv(stdout, c, t);
        else
            write_trec(stdout, c, t, nruns > 1);
        if (st != QK_OK)
            rc = qk_cli_fail("eval", &err);
        qk_est_table_free(t);
    }
    if (json) {
        json_object_set_new(root, "runs", jruns);
        if (rc == QK_EXIT_OK) {
            json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
            fputc('\n', stdout);
        }
        json_decref(root);
    }
    qk_prels_free(p);
    qk_strata_free(s);
    qk_draws_free(d);
    qk_joint_free(jt);
    return rc;
}
