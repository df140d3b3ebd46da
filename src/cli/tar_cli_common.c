/* Shared by `tar run` and `simulate tar` (tar_cli_common.h). */
#include "tar_cli_common.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define OFF(f) offsetof(tar_cli_settings, review.f)
const qk_cli_opt tar_review_opts[] = {
    {TAR_O_STOP, "--stop", 'e', OFF(stop), qk_tar_stop_table, 0, 0, 0},
    {TAR_O_TARGET, "--target", 'd', OFF(target), NULL, 0, 1, QK_NUM_LO_OPEN},
    {TAR_O_SEED, "--seed", 's', OFF(seed), NULL, 0, 0, 0},
    {TAR_O_SAMPLER, "--sampler", 'e', OFF(sampler), qk_tar_sampler_table, 0, 0, 0},
    {TAR_O_ESTIMATOR, "--estimator", 'e', OFF(estimator), qk_tar_estimator_table, 0, 0, 0},
    {TAR_O_STRATEGY, "--strategy", 'e', OFF(strategy), qk_tar_strategy_table, 0, 0, 0},
    {TAR_O_KTEMP, "--k-temp", 'z', OFF(k_temp), NULL, 0, 1e9, 0},
    {TAR_O_C, "--lr-c", 'd', OFF(lr.C), NULL, 0, 1e12, QK_NUM_LO_OPEN},
    {TAR_O_KNEE_BOUND, "--knee-bound", 'd', OFF(knee_bound), NULL, 0, 1e12, 0},
    {TAR_O_KNEE_BETA, "--knee-beta", 'z', OFF(knee_beta), NULL, 0, 1e12, 0},
    {TAR_O_TARGET_NREL, "--target-nrel", 'z', OFF(target_nrel), NULL, 1, 1e12, 0},
    {TAR_O_SCAL_NU, "--scal-nu", 'd', OFF(scal_nu), NULL, 0, 1, QK_NUM_LO_OPEN},
    {TAR_O_SCAL_B, "--scal-b", 'z', OFF(scal_b), NULL, 1, 1e12, 0},
    {TAR_O_SCAL_ETA, "--scal-eta", 'd', OFF(scal_eta), NULL, 0, 1e6, QK_NUM_LO_OPEN},
    {TAR_O_POWERLAW_BETA, "--powerlaw-beta", 'd', OFF(powerlaw_beta), NULL, -100, 0, QK_NUM_HI_OPEN},
    {TAR_O_MIXTURE_EPS, "--mixture-eps", 'd', OFF(mixture_eps), NULL, 0, 1, QK_NUM_LO_OPEN | QK_NUM_HI_OPEN},
    {TAR_O_SD_SAMPLE, "--sd-sample", 'd', OFF(sd_p_sample), NULL, 0, 1, QK_NUM_LO_OPEN},
    {TAR_O_MIN_DF, "--min-df", 'z', offsetof(tar_cli_settings, min_df), NULL, 1, 1e12, 0},
    {0, NULL, 0, 0, NULL, 0, 0, 0},
};

void tar_cli_settings_init(tar_cli_settings *s)
{
    qk_tar_opts_init(&s->review);
    s->min_df = 2;
    s->fields = NULL;
}

int tar_cli_option(const char *cmd, tar_cli_settings *s, int id, const char *arg)
{
    if (id == TAR_O_FIELDS) {
        s->fields = arg;
        return 0;
    }
    return qk_cli_set(cmd, tar_review_opts, id, arg, s);
}

void tar_cli_corpus_free(tar_corpus *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->docno[i]);
        free(c->text[i]);
    }
    free(c->docno);
    free(c->text);
    free(c->len);
    qk_strpool_free(c->ids);
    memset(c, 0, sizeof *c);
}

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

int tar_cli_read_corpus(const char *cmd, const char *path, const char *fields, tar_corpus *c)
{
    qk_corpus_opts o;
    qk_corpus *in = NULL;
    qk_error err = {0};
    const char *id, *text;
    size_t idlen, tlen;
    int got, rc = 0;
    size_t cap_t = 0, cap_l = 0;
    memset(c, 0, sizeof *c);
    qk_corpus_opts_init(&o);
    o.fields = fields;
    if (!(c->ids = qk_strpool_new())) {
        qk_cli_errorf(cmd, "out of memory");
        return QK_EXIT_IO;
    }
    if (qk_corpus_open(path, &o, &in, &err) != QK_OK)
        return qk_cli_fail(cmd, &err);
    while ((got = qk_corpus_next(in, &id, &idlen, &text, &tlen, &err)) > 0) {
        uint32_t k;
        if (qk_strpool_find(c->ids, id, idlen, &k))
            continue; /* a repeated docno keeps its first text */
        if (qk_strpool_intern(c->ids, id, idlen, &k) != QK_OK ||
            qk_grow((void **)&c->docno, &c->cap, c->n + 1, sizeof *c->docno) != QK_OK ||
            qk_grow((void **)&c->text, &cap_t, c->n + 1, sizeof *c->text) != QK_OK ||
            qk_grow((void **)&c->len, &cap_l, c->n + 1, sizeof *c->len) != QK_OK ||
            !(c->docno[c->n] = dup_n(id, idlen))) {
            qk_cli_errorf(cmd, "out of memory");
            rc = QK_EXIT_IO;
            break;
        }
        if (k != c->n || !(c->text[c->n] = dup_n(text, tlen))) { /* ids are 0, 1, ... in order */
            free(c->docno[c->n]);
            qk_cli_errorf(cmd, "out of memory");
            rc = QK_EXIT_IO;
            break;
        }
        c->len[c->n++] = tlen;
    }
    if (!rc && got < 0)
        rc = qk_cli_fail(cmd, &err);
    qk_corpus_close(in);
    if (!rc && c->n == 0) {
        qk_cli_errorf(cmd, "'%s': the corpus has no documents", path);
        rc = QK_EXIT_INPUT;
    }
    if (rc)
        tar_cli_corpus_free(c);
    return rc;
}

int tar_cli_features(const char *cmd, const tar_corpus *c, const char *const *topics, size_t ntopics,
                     size_t min_df, qk_sparse *X)
{
    qk_tfidf_opts o;
    qk_error err = {0};
    size_t n = c->n + ntopics;
    const char **texts = malloc(n * sizeof *texts);
    size_t *lens = malloc(n * sizeof *lens);
    int rc = 0;
    if (!texts || !lens) {
        free(texts);
        free(lens);
        qk_cli_errorf(cmd, "out of memory");
        return QK_EXIT_IO;
    }
    for (size_t i = 0; i < c->n; i++) {
        texts[i] = c->text[i];
        lens[i] = c->len[i];
    }
    for (size_t t = 0; t < ntopics; t++) {
        texts[c->n + t] = topics[t];
        lens[c->n + t] = strlen(topics[t]);
    }
    qk_tfidf_opts_init(&o);
    o.min_df = min_df;
    if (qk_tfidf_build(n, texts, lens, &o, X, &err) != QK_OK)
        rc = qk_cli_fail(cmd, &err);
    free(texts);
    free(lens);
    return rc;
}

int tar_cli_truth(const char *cmd, const qk_qrels *q, const char *qrels_path, const char *corpus_path,
                  const char *qid, const tar_corpus *c, unsigned char *rel, size_t *nrel, size_t *missing)
{
    size_t t, n;
    memset(rel, 0, c->n);
    *missing = 0;
    *nrel = 0;
    if (!qk_qrels_find_topic(q, qid, strlen(qid), &t)) {
        qk_cli_errorf(cmd, "'%s': topic '%s' has no judgments", qrels_path, qid);
        return QK_EXIT_INPUT;
    }
    const qk_judgment *j = qk_qrels_judgments(q, t, &n);
    for (size_t k = 0; k < n; k++) {
        const char *d = qk_qrels_docno(q, j[k].doc);
        uint32_t id;
        if (!qk_strpool_find(c->ids, d, strlen(d), &id)) {
            if (j[k].rel > 0) {
                qk_cli_errorf(cmd, "'%s' line %u: relevant document '%s' of topic '%s' is not in the corpus '%s'",
                              qrels_path, (unsigned)qk_qrels_judgment_line(q, t, k), d, qid, corpus_path);
                return QK_EXIT_INPUT;
            }
            (*missing)++;
            continue;
        }
        if (j[k].rel > 0 && !rel[id]) {
            rel[id] = 1;
            (*nrel)++;
        }
    }
    return 0;
}
