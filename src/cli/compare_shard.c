/* qrelkit compare --shard I/N and the merge of its parts (doc/scale-out.md).
 *
 * --pairs: the items are (pair k, replicate block b) in pair order, b from
 * 0 to qk_stats_pair_blocks(test, trials) - 1 (one block for t, wilcoxon and
 * sign); an item is the record of that block's test (qk_stats_pair_record).
 * The prologue holds the topic count and each run's mean and name. The merge
 * sums each pair's hits (qk_stats_pair_from_records), corrects over all
 * pairs and prints through cmp_pairs_output.
 *
 * --swap-rate: the items are (size k, trial t), an item being the
 * comparisons and swaps of every bin in that trial; the prologue holds the
 * run and topic counts. The merge sums the counts per size and bin.
 *
 * Both merges print with the unsharded command's own code, so the bytes are
 * the same. */
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "compare.h"
#include "shard_cli.h"

/* The part's prologue: a record of `head` numbers on the first line, then
 * for --pairs one line "MEAN NAME" per run. */
static int put_prologue(qk_shard_part *part, const double *head, size_t nhead, const qk_scores *m)
{
    char *line = NULL, *pro = NULL;
    size_t len, plen = 0;
    FILE *f = open_memstream(&pro, &plen);
    int bad = !f;
    if (!bad && qk_shard_record_format(head, nhead, &line, &len, NULL) == QK_OK) {
        fprintf(f, "%s\n", line);
        free(line);
    } else
        bad = 1;
    for (size_t r = 0; !bad && m && r < m->nruns; r++) {
        if (qk_shard_record_format(&m->mean[r], 1, &line, &len, NULL) != QK_OK) {
            bad = 1;
            break;
        }
        fprintf(f, "%s %s\n", line, m->runs[r]);
        free(line);
    }
    if (f && fclose(f) != 0)
        bad = 1;
    if (!bad && qk_shard_part_set_frame(part, pro, plen, NULL, 0, NULL, 0) != QK_OK)
        bad = 1;
    free(pro);
    return bad ? QK_EXIT_IO : 0;
}

static int shard_pairs(const opts *o, qk_shard_spec sh, int argc, char **argv, qk_shard_part **part)
{
    qk_scores *m = NULL;
    qk_test_opts to;
    qk_error err = {0};
    size_t np, nb, first, end;
    int rc;
    if (cmp_read_matrix(o->files[0], &m, &err) != QK_OK)
        return qk_cli_fail(CMD, &err);
    cmp_pairs_test_opts(o, &to);
    np = m->nruns * (m->nruns ? m->nruns - 1 : 0) / 2;
    nb = qk_stats_pair_blocks(o->test, to.trials);
    if ((rc = qk_cli_shard_begin(CMD, CMD, "compare-pairs", sh, np * nb, argc, argv, o->files, 1, part)) ==
        0) {
        double head = (double)m->ntopics;
        qk_shard_part_set_seed(*part, o->seed);
        rc = put_prologue(*part, &head, 1, m);
    }
    qk_shard_range(sh, np * nb, &first, &end);
    for (size_t k = first; !rc && k < end; k++) {
        qk_pair_result r;
        double v[QK_PAIR_RECORD];
        if (qk_stats_pairwise_block(m, o->test, &to, k / nb, k % nb, &r, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            break;
        }
        qk_stats_pair_record(&r, v);
        if (qk_shard_part_add_record(*part, k, v, QK_PAIR_RECORD, &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
    }
    qk_stats_scores_free(m);
    return rc;
}

static int shard_swap(const opts *o, qk_shard_spec sh, int argc, char **argv, qk_shard_part **part)
{
    qk_scores *m = NULL;
    qk_error err = {0};
    qk_swap_opts so;
    qk_swap_cell *cells = NULL;
    size_t *sizes = NULL, ns = 0, *keep = NULL, nkeep, deg = 0, nb, first, end, n;
    double *v = NULL;
    int rc = 0;
    if (cmp_appf_matrix(o, &m, &keep, &nkeep, &deg, &err) != QK_OK ||
        cmp_swap_top(o, &m, keep, nkeep, &err) != QK_OK || cmp_swap_sizes(o, m->ntopics, &sizes, &ns, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    cmp_swap_opts(o, sizes, ns, &so);
    nb = qk_stats_swap_rate_bins(&so);
    n = ns * (size_t)so.trials;
    if (!(cells = calloc(nb, sizeof *cells)) || !(v = calloc(2 * nb, sizeof *v))) {
        rc = QK_EXIT_IO;
        goto out;
    }
    if ((rc = qk_cli_shard_begin(CMD, CMD, "compare-swap", sh, n, argc, argv, o->files, 1, part)) == 0) {
        double head[2] = {(double)m->nruns, (double)m->ntopics};
        qk_shard_part_set_seed(*part, o->seed);
        rc = put_prologue(*part, head, 2, NULL);
    }
    qk_shard_range(sh, n, &first, &end);
    for (size_t k = first; !rc && k < end; k++) {
        long t = (long)(k % (size_t)so.trials);
        memset(cells, 0, nb * sizeof *cells);
        if (qk_stats_swap_rate_trials(m, &so, k / (size_t)so.trials, t, t + 1, cells, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            break;
        }
        for (size_t b = 0; b < nb; b++) {
            v[2 * b] = (double)cells[b].comparisons;
            v[2 * b + 1] = (double)cells[b].swaps;
        }
        if (qk_shard_part_add_record(*part, k, v, 2 * nb, &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
    }
out:
    free(v);
    free(cells);
    free(sizes);
    free(keep);
    qk_stats_scores_free(m);
    return rc;
}

int qk_compare_shard(const opts *o, qk_shard_spec sh, int argc, char **argv)
{
    qk_shard_part *part = NULL;
    int rc = o->mode == M_SWAP ? shard_swap(o, sh, argc, argv, &part) : shard_pairs(o, sh, argc, argv, &part);
    if (rc) {
        qk_shard_part_free(part);
        return rc;
    }
    return qk_cli_shard_finish(CMD, part);
}

/* ---- merge ---- */

/* The prologue's first line (nhead numbers) and, with runs, its run lines:
 * names point into *pro (caller frees *pro, *runs and *mean). 0 or -1. */
static int read_prologue(const qk_shard_part *m, double *head, size_t nhead, char **pro, char ***runs,
                         double **mean, size_t *nruns)
{
    char *s, *e;
    *pro = strdup(qk_shard_part_prologue(m, NULL));
    if (!*pro || !(e = strchr(*pro, '\n')) ||
        qk_shard_record_parse(*pro, (size_t)(e - *pro), head, nhead, NULL))
        return -1;
    for (s = e + 1; runs && *s; s = e + 1) {
        const char *name;
        char **g;
        double *gm;
        if (!(e = strchr(s, '\n')))
            return -1;
        *e = 0;
        if (!(g = realloc(*runs, (*nruns + 1) * sizeof **runs)))
            return -1;
        *runs = g;
        if (!(gm = realloc(*mean, (*nruns + 1) * sizeof **mean)))
            return -1;
        *mean = gm;
        if (qk_shard_record_parse(s, (size_t)(e - s), &(*mean)[*nruns], 1, &name) || *name != ' ')
            return -1;
        (*runs)[(*nruns)++] = (char *)name + 1;
    }
    return runs || !*s ? 0 : -1;
}

static int merge_pairs(const qk_shard_part *m, const opts *o, out *w, const double *rec)
{
    qk_pair_result *res = NULL;
    qk_test_opts to;
    qk_error err = {0};
    char *pro = NULL, **runs = NULL;
    double *mean = NULL, ntopics = 0;
    size_t nruns = 0, np, nb, nsig = 0;
    int rc = QK_EXIT_INPUT;
    cmp_pairs_test_opts(o, &to);
    nb = qk_stats_pair_blocks(o->test, to.trials);
    if (read_prologue(m, &ntopics, 1, &pro, &runs, &mean, &nruns) != 0)
        goto bad;
    np = nruns * (nruns ? nruns - 1 : 0) / 2;
    if (qk_shard_part_num_items(m) != np * nb || !(res = calloc(np + 1, sizeof *res)))
        goto bad;
    for (size_t k = 0; k < np; k++)
        if (qk_stats_pair_from_records(rec + k * nb * QK_PAIR_RECORD, nb, to.trials, &res[k]) != 0 ||
            res[k].b >= nruns)
            goto bad;
    if (qk_stats_pairwise_adjust(res, np, o->correct, o->alpha, &nsig, &err) != QK_OK) {
        rc = qk_cli_fail("merge", &err);
        goto out;
    }
    cmp_out_init(w, o, "pairs", 1);
    cmp_pairs_output(o, w, runs, mean, nruns, (size_t)ntopics, res, np, nsig, to.trials);
    rc = 0;
    goto out;
bad:
    qk_cli_errorf("merge", "the parts of compare --pairs are malformed");
out:
    free(res);
    free(runs);
    free(mean);
    free(pro);
    return rc;
}

static int merge_swap(const qk_shard_part *m, const opts *o, out *w, const double *rec)
{
    qk_swap_opts so;
    qk_swap_cell *cells = NULL;
    qk_error err = {0};
    char *pro = NULL;
    double head[2];
    size_t *sizes = NULL, ns = 0, nb;
    int rc = QK_EXIT_INPUT;
    if (read_prologue(m, head, 2, &pro, NULL, NULL, NULL) != 0)
        goto bad;
    if (cmp_swap_sizes(o, (size_t)head[1], &sizes, &ns, &err) != QK_OK) {
        rc = qk_cli_fail("merge", &err);
        goto out;
    }
    cmp_swap_opts(o, sizes, ns, &so);
    nb = qk_stats_swap_rate_bins(&so);
    if (qk_shard_part_num_items(m) != ns * (size_t)so.trials || !(cells = calloc(ns * nb, sizeof *cells)))
        goto bad;
    for (size_t k = 0; k < ns; k++) {
        qk_stats_swap_rate_cells(&so, k, cells + k * nb);
        for (size_t b = 0; b < nb; b++) {
            qk_swap_cell *c = &cells[k * nb + b];
            for (long t = 0; t < so.trials; t++) {
                const double *v = rec + ((k * (size_t)so.trials + (size_t)t) * 2 * nb) + 2 * b;
                c->comparisons += (long)v[0];
                c->swaps += (long)v[1];
            }
        }
    }
    cmp_out_init(w, o, "swap-rate", 1);
    cmp_swap_output(o, w, cells, ns * nb, (size_t)head[0], (size_t)head[1], so.trials);
    rc = 0;
    goto out;
bad:
    qk_cli_errorf("merge", "the parts of compare --swap-rate are malformed");
out:
    free(cells);
    free(sizes);
    free(pro);
    return rc;
}

int qk_compare_merge(const qk_shard_part *m)
{
    opts o;
    out w;
    qk_error err = {0};
    qk_shard_spec sh;
    qk_swap_opts so;
    int argc, rc, shard_on = 0, swap = strcmp(qk_shard_part_kind(m), "compare-swap") == 0;
    char **argv = NULL;
    double *rec = NULL;
    memset(&w, 0, sizeof w);
    cmp_opts_defaults(&o);
    if (qk_shard_part_argv(m, CMD, &argc, &argv, &err) != QK_OK)
        return qk_cli_fail("merge", &err);
    if ((rc = cmp_parse_args(argc, argv, &o, &sh, &shard_on)) != 0) {
        free(argv);
        return rc < 0 ? QK_EXIT_INPUT : rc;
    }
    cmp_swap_opts(&o, NULL, 0, &so);
    if (o.mode != (swap ? M_SWAP : M_PAIRS)) {
        qk_cli_errorf("merge", "the parts of compare are malformed (their kind and mode differ)");
        rc = QK_EXIT_INPUT;
    } else if (qk_shard_part_records(m, swap ? 2 * qk_stats_swap_rate_bins(&so) : QK_PAIR_RECORD, &rec,
                                     &err) != QK_OK)
        rc = qk_cli_fail("merge", &err);
    else if ((rc = swap ? merge_swap(m, &o, &w, rec) : merge_pairs(m, &o, &w, rec)) == 0)
        rc = cmp_emit(&w) == QK_EXIT_OK ? qk_cli_flush_stdout("merge") : QK_EXIT_IO;
    json_decref(w.doc);
    free(rec);
    free(argv);
    return rc;
}
