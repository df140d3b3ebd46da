/* qrelkit compare: what the modes (cmd_compare.c) and the shards and their
 * merge (compare_shard.c) share: the options, the output document and its
 * printing, the matrix reader, and --pairs' and --swap-rate's rows. */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tables.h"
#include "cli_util.h"
#include "compare.h"
#include "qrelkit/distributions.h"
#include "qrelkit/stats.h"
#include "shard_cli.h"

/* ---- output ------------------------------------------------------------- */
/* From here on reals are printed in exponent form (1.2345e+308). */
#define HUGE_FIXED 1e15

json_t *cmp_num(const out *w, double x)
{
    double s = pow(10.0, w->o->precision), r;
    if (isnan(x))
        return json_null();
    if (isinf(x)) /* e.g. the open end of the last bin: JSON has no infinity */
        return json_string(x > 0 ? "inf" : "-inf");
    if (fabs(x) >= HUGE_FIXED) /* x * s could overflow, and no decimals to round */
        return json_real(x);
    r = round(x * s) / s;
    return json_real(r == 0 ? 0.0 : r); /* no "-0.0000" */
}

void cmp_put(json_t *obj, const char *key, json_t *v)
{
    json_object_set_new(obj, key, v);
}

static void print_value(const out *w, json_t *v)
{
    if (json_is_string(v))
        fputs(json_string_value(v), stdout);
    else if (json_is_integer(v))
        printf("%lld", (long long)json_integer_value(v));
    else if (json_is_real(v) && fabs(json_real_value(v)) >= HUGE_FIXED)
        printf("%.*e", w->o->precision, json_real_value(v)); /* not 300 digits */
    else if (json_is_real(v))
        printf("%.*f", w->o->precision, json_real_value(v));
    else
        fputs("nan", stdout);
}

/* One TSV row (after the header of its keys when header). */
static void print_row(const out *w, json_t *row, int header)
{
    const char *key;
    json_t *v;
    int sep = 0;
    if (header) {
        json_object_foreach(row, key, v)
        {
            printf("%s%s", sep++ ? "\t" : "", key);
        }
        putchar('\n');
        sep = 0;
    }
    json_object_foreach(row, key, v)
    {
        if (sep++)
            putchar('\t');
        print_value(w, v);
    }
    putchar('\n');
}

int cmp_emit(out *w)
{
    const char *key;
    json_t *v;
    if (w->streamed) {
        /* the rows are out */
    } else if (w->o->json) {
        char *s = json_dumps(w->doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
        if (!s)
            return QK_EXIT_IO;
        puts(s);
        free(s);
    } else if (w->o->summary_only || !w->rows) {
        puts("statistic\tvalue");
        json_object_foreach(w->summary, key, v)
        {
            printf("%s\t", key);
            print_value(w, v);
            putchar('\n');
        }
    } else if (json_array_size(w->rows) == 0) {
        putchar('\n'); /* no rows: an empty header */
    } else {
        for (size_t i = 0; i < json_array_size(w->rows); i++)
            print_row(w, json_array_get(w->rows, i), i == 0);
    }
    return fflush(stdout) == 0 ? QK_EXIT_OK : QK_EXIT_IO;
}

void cmp_out_init(out *w, const opts *o, const char *mode, int with_rows)
{
    w->o = o;
    w->streamed = 0;
    w->doc = json_object();
    cmp_put(w->doc, "mode", json_string(mode));
    w->summary = json_object();
    cmp_put(w->doc, "summary", w->summary);
    w->rows = with_rows ? json_array() : NULL;
    if (w->rows)
        cmp_put(w->doc, "rows", w->rows);
}

void cmp_warn_renamed(const char *path, const qk_scores *m)
{
    if (m && m->renamed)
        qk_cli_errorf(CMD,
                      "warning: '%s' repeats run names; %zu column%s renamed NAME#2, "
                      "NAME#3 ... in column order",
                      path, m->renamed, m->renamed == 1 ? "" : "s");
}

qk_status cmp_read_scores(const char *path, scores_parser parse, qk_scores **res, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(path, &l, err);
    if (st == QK_OK)
        st = parse(l, res, err);
    qk_lines_close(l);
    return st;
}

qk_status cmp_read_matrix(const char *path, qk_scores **m, qk_error *err)
{
    qk_status st = cmp_read_scores(path, qk_stats_read_matrix, m, err);
    if (st == QK_OK)
        cmp_warn_renamed(path, *m);
    return st;
}

/* The rows and summary of --pairs from the tests (shared by the unsharded
 * command and `qrelkit merge`, so the two print the same bytes). */
void cmp_pairs_output(const opts *o, out *w, char *const *runs, const double *mean, size_t nruns,
                      size_t ntopics, const qk_pair_result *res, size_t np, size_t nsig, long trials)
{
    int resampled = o->test == QK_TEST_PERM || o->test == QK_TEST_BOOTSTRAP;
    /* TSV: each row printed as it is made (with --summary, not made at
     * all), not held as a JSON object a pair (about 1.75 KB each: 640 runs
     * took 358 MB); JSON keeps the document whole */
    int stream = !o->json;
    for (size_t k = 0; k < np; k++) {
        json_t *r = json_object();
        const qk_test_result *t = &res[k].test;
        cmp_put(r, "run_a", json_string(runs[res[k].a]));
        cmp_put(r, "run_b", json_string(runs[res[k].b]));
        cmp_put(r, "mean_a", cmp_num(w, mean[res[k].a]));
        cmp_put(r, "mean_b", cmp_num(w, mean[res[k].b]));
        cmp_put(r, "delta", cmp_num(w, t->mean_diff));
        cmp_put(r, "effect", cmp_num(w, t->effect));
        cmp_put(r, "statistic", cmp_num(w, t->statistic));
        cmp_put(r, "n", json_integer(t->n));
        cmp_put(r, "p", cmp_num(w, t->p));
        cmp_put(r, "p_adj", cmp_num(w, res[k].p_adj));
        cmp_put(r, "significant", json_integer(res[k].significant));
        if (!stream) {
            json_array_append_new(w->rows, r);
            continue;
        }
        if (!o->summary_only) {
            print_row(w, r, k == 0);
            w->streamed = 1;
        }
        json_decref(r);
    }
    cmp_put(w->summary, "runs", json_integer((json_int_t)nruns));
    cmp_put(w->summary, "topics", json_integer((json_int_t)ntopics));
    cmp_put(w->summary, "test", json_string(qk_stats_test_name(o->test)));
    cmp_put(w->summary, "correction",
            json_string(o->correct == QK_CORRECT_HOLM         ? "holm"
                        : o->correct == QK_CORRECT_BONFERRONI ? "bonferroni"
                                                              : "none"));
    cmp_put(w->summary, "alpha", cmp_num(w, o->alpha));
    if (resampled) {
        cmp_put(w->summary, "trials", json_integer(trials));
        cmp_put(w->summary, "seed", json_integer((json_int_t)o->seed));
    }
    cmp_put(w->summary, "pairs", json_integer((json_int_t)np));
    cmp_put(w->summary, "significant", json_integer((json_int_t)nsig));
    cmp_put(w->summary, "discriminative_power", cmp_num(w, np ? (double)nsig / (double)np : NAN));
}

void cmp_pairs_test_opts(const opts *o, qk_test_opts *to)
{
    qk_stats_test_opts_init(to);
    to->seed = o->seed;
    if (o->trials > 0)
        to->trials = o->trials;
}

/* Default sizes: up to ten evenly spaced sizes up to half the topics. */
qk_status cmp_swap_sizes(const opts *o, size_t ntopics, size_t **sizes, size_t *n, qk_error *err)
{
    size_t half = ntopics / 2, step = half / 10 ? half / 10 : 1, cap = 0;
    size_t first = o->on == QK_SWAP_SD ? 2 : 1;
    *sizes = NULL;
    *n = 0;
    if (o->nsizes) {
        if (!(*sizes = malloc(o->nsizes * sizeof **sizes)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        for (size_t i = 0; i < o->nsizes; i++)
            (*sizes)[i] = (size_t)o->sizes[i];
        *n = o->nsizes;
        return QK_OK;
    }
    for (size_t c = step; c <= half; c += step)
        if (c >= first) {
            if (qk_grow((void **)sizes, &cap, *n + 1, sizeof **sizes))
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            (*sizes)[(*n)++] = c;
        }
    if (*n == 0)
        return qk_error_set(err, QK_EINPUT, "%zu topics are too few for two disjoint topic sets", ntopics);
    return QK_OK;
}

/* The matrix of the App. F modes: transformed on all runs (spec F4), then,
 * with --top, cut to the best fraction of runs by raw mean. keep[] lists the
 * kept run indices in decreasing raw mean. */
qk_status cmp_appf_matrix(const opts *o, qk_scores **m, size_t **keep, size_t *nkeep, size_t *degenerate,
                          qk_error *err)
{
    double *raw = NULL;
    qk_status st = cmp_read_matrix(o->files[0], m, err);
    size_t n;
    *keep = NULL;
    if (st != QK_OK)
        return st;
    n = (*m)->nruns; // NOLINT(clang-analyzer-core.NullDereference): set when read_matrix succeeds
    raw = malloc(n * sizeof *raw);
    *keep = malloc(n * sizeof **keep);
    if (!raw || !*keep) {
        free(raw);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    memcpy(raw, (*m)->mean, n * sizeof *raw);
    st = qk_stats_transform(*m, o->transform, o->epsilon, degenerate, err);
    for (size_t i = 0; i < n; i++)
        (*keep)[i] = i;
    /* insertion sort by raw mean, descending, stable: n is the number of runs */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && raw[(*keep)[j]] > raw[(*keep)[j - 1]]; j--) {
            size_t t = (*keep)[j];
            (*keep)[j] = (*keep)[j - 1];
            (*keep)[j - 1] = t;
        }
    *nkeep = o->top > 0 ? (size_t)floor(o->top * (double)n) : n;
    if (st == QK_OK && *nkeep < 2)
        st = qk_error_set(err, QK_EINPUT, "--top %g keeps %zu of %zu runs; 2 are needed", o->top, *nkeep, n);
    if (o->top <= 0)
        for (size_t i = 0; i < n; i++)
            (*keep)[i] = i; /* without --top keep the file's order */
    free(raw);
    return st;
}

static int cmp_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

qk_status cmp_swap_top(const opts *o, qk_scores **m, size_t *keep, size_t nkeep, qk_error *err)
{
    qk_scores *cut = NULL;
    qk_status st;
    if (o->top <= 0)
        return QK_OK;
    qsort(keep, nkeep, sizeof *keep, cmp_index);
    if ((st = qk_stats_scores_select(*m, keep, nkeep, &cut, err)) == QK_OK) {
        qk_stats_scores_free(*m);
        *m = cut;
    }
    return st;
}

const char *cmp_transform_name(qk_transform t)
{
    return t == QK_TRANSFORM_LOGIT ? "logit" : t == QK_TRANSFORM_Z ? "z" : "none";
}

void cmp_swap_opts(const opts *o, const size_t *sizes, size_t nsizes, qk_swap_opts *so)
{
    memset(so, 0, sizeof *so);
    so->sizes = sizes;
    so->nsizes = nsizes;
    so->trials = o->trials > 0 ? o->trials : 50;
    so->seed = o->seed;
    so->on = o->on;
    so->alpha = o->alpha;
    so->median = o->median;
    so->bin_width = o->bin_width;
    so->nbins = (size_t)o->bins;
}

void cmp_swap_output(const opts *o, out *w, const qk_swap_cell *cells, size_t ncells, size_t nruns,
                     size_t ntopics, long trials)
{
    for (size_t k = 0; k < ncells; k++) {
        json_t *r = json_object();
        cmp_put(r, "size", json_integer((json_int_t)cells[k].size));
        if (o->bin_width > 0) {
            cmp_put(r, "bin_lo", cmp_num(w, cells[k].bin_lo));
            cmp_put(r, "bin_hi", cmp_num(w, cells[k].bin_hi));
        }
        cmp_put(r, "comparisons", json_integer(cells[k].comparisons));
        cmp_put(r, "swaps", json_integer(cells[k].swaps));
        cmp_put(
            r, "error_rate",
            cmp_num(w, cells[k].comparisons ? (double)cells[k].swaps / (double)cells[k].comparisons : NAN));
        json_array_append_new(w->rows, r);
    }
    cmp_put(w->summary, "runs", json_integer((json_int_t)nruns));
    cmp_put(w->summary, "topics", json_integer((json_int_t)ntopics));
    cmp_put(w->summary, "on", json_string(o->on == QK_SWAP_SD ? "sd" : "mean"));
    cmp_put(w->summary, "transform", json_string(cmp_transform_name(o->transform)));
    cmp_put(w->summary, "trials", json_integer(trials));
    cmp_put(w->summary, "seed", json_integer((json_int_t)o->seed));
}

/* ---- argument parsing ------------------------------------------------------ */

/* Every option that takes a value: where it goes and what it accepts. */
typedef struct copt {
    const char *name;
    char kind; /* 'e' word of table, 'i' int, 'l' long, 'd' double, 's' seed, 'L' list of longs */
    size_t off;
    const qk_enum *table;
    double lo, hi;
    int flags;
} copt;

#define O(f) offsetof(opts, f)
static const copt copts[] = {
    {"--format", 'e', O(json), qk_cli_format_table, 0, 0, 0},
    {"--precision", 'i', O(precision), NULL, 0, 15, 0},
    {"--alpha", 'd', O(alpha), NULL, 0, 1, QK_NUM_LO_OPEN | QK_NUM_HI_OPEN},
    {"--trials", 'l', O(trials), NULL, 1, 1e15, 0},
    {"--seed", 's', O(seed), NULL, 0, 0, 0},
    {"--test", 'e', O(test), qk_stats_test_table, 0, 0, 0},
    {"--correct", 'e', O(correct), qk_stats_correction_table, 0, 0, 0},
    {"--transform", 'e', O(transform), qk_stats_transform_table, 0, 0, 0},
    {"--epsilon", 'd', O(epsilon), NULL, 0, 0.5, QK_NUM_LO_OPEN | QK_NUM_HI_OPEN},
    {"--levene", 'e', O(median), qk_compare_levene_table, 0, 0, 0},
    {"--ftest", 'e', O(sd_ratio), qk_compare_ftest_table, 0, 0, 0},
    {"--on", 'e', O(on), qk_compare_on_table, 0, 0, 0},
    {"--top", 'd', O(top), NULL, 0, 1, QK_NUM_LO_OPEN},
    {"--bin-width", 'd', O(bin_width), NULL, 0, INFINITY, QK_NUM_LO_OPEN},
    {"--bins", 'l', O(bins), NULL, 1, 1e6, 0},
    {"--sizes", 'L', O(sizes), NULL, 1, 0, 0},
};
#undef O

static int set_option(const copt *c, const char *v, opts *o)
{
    char *field = (char *)o + c->off;
    long n;
    int rc;
    switch (c->kind) {
    case 'e': return qk_cli_enum(CMD, c->table, c->name, v, (int *)(void *)field);
    case 'd': return qk_cli_double(CMD, c->name, v, c->lo, c->hi, c->flags, (double *)(void *)field);
    case 'l': return qk_cli_long(CMD, c->name, v, (long)c->lo, (long)c->hi, (long *)(void *)field);
    case 's': return qk_cli_seed(CMD, c->name, v, (uint64_t *)(void *)field);
    case 'L': return qk_cli_long_list(CMD, c->name, v, 1, LONG_MAX, o->sizes, 256, &o->nsizes);
    default:
        rc = qk_cli_long(CMD, c->name, v, (long)c->lo, (long)c->hi, &n);
        *(int *)(void *)field = (int)n;
        return rc;
    }
}

/* One "--name VALUE" or "--name=VALUE" at argv[*i]: 0 done, else the exit code. */
static int value_option(int argc, char **argv, int *i, opts *o)
{
    const char *a = argv[*i], *eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    for (size_t k = 0; k < sizeof copts / sizeof *copts; k++) {
        if (strlen(copts[k].name) != len || strncmp(a, copts[k].name, len) != 0)
            continue;
        if (!eq && *i + 1 >= argc)
            return qk_cli_usage(CMD, "option '%s' needs a value", a);
        return set_option(&copts[k], eq ? eq + 1 : argv[++*i], o);
    }
    return qk_cli_usage(CMD, "unknown option '%s'", a);
}

int cmp_parse_args(int argc, char **argv, opts *o, qk_shard_spec *sh, int *shard_on)
{
    static const struct {
        const char *flag;
        enum mode m;
    } modes[] = {{"--truth", M_TRUTH},
                 {"--pairs", M_PAIRS},
                 {"--calibration", M_CALIB},
                 {"--swap-rate", M_SWAP},
                 {"--variability", M_VARIABILITY},
                 {"--variance", M_VARIANCE}};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int matched = 0, rc;
        for (size_t k = 0; k < sizeof modes / sizeof *modes; k++)
            if (strcmp(a, modes[k].flag) == 0) {
                if (o->mode != M_NONE && o->mode != modes[k].m)
                    return qk_cli_usage(CMD, "choose one of --truth, --pairs, --calibration, "
                                             "--swap-rate, --variability, --variance");
                o->mode = modes[k].m;
                matched = 1;
            }
        if (matched)
            continue;
        if (qk_cli_is_help(a))
            return -1;
        if (strcmp(a, "--summary") == 0) {
            o->summary_only = 1;
            continue;
        }
        if (strcmp(a, "--shard") == 0 || strncmp(a, "--shard=", 8) == 0) {
            const char *v = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v)
                return qk_cli_usage(CMD, "option '--shard' needs a value");
            if ((rc = qk_cli_shard_parse(CMD, v, sh)) != 0)
                return rc;
            *shard_on = 1;
            continue;
        }
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (o->nfiles == 3)
                return qk_cli_usage(CMD, "too many files ('%s')", a);
            o->files[o->nfiles++] = a;
            continue;
        }
        if ((rc = value_option(argc, argv, &i, o)) != 0)
            return rc;
    }
    if (o->mode == M_NONE)
        return qk_cli_usage(CMD, "choose a mode: --truth, --pairs, --calibration, --swap-rate, "
                                 "--variability or --variance");
    if (*shard_on && o->mode != M_PAIRS && o->mode != M_SWAP)
        return qk_cli_usage(CMD, "--shard splits --pairs and --swap-rate only; --truth, --calibration, "
                                 "--variability and --variance are deterministic and quick (run them whole)");
    if (o->mode == M_TRUTH ? (o->nfiles < 2) : (o->nfiles != 1))
        return qk_cli_usage(CMD, o->mode == M_TRUTH ? "--truth needs two or three scoring files"
                                                    : "this mode takes exactly one input file");
    {
        static const char *const what[] = {"A", "B", "C"};
        qk_cli_stdin seen = {0};
        int rc = 0;
        for (int i = 0; !rc && i < o->nfiles; i++)
            // NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): files[0..nfiles) were set above
            rc = qk_cli_stdin_once(CMD, &seen, o->files[i], what[i], 0);
        return rc;
    }
}

void cmp_opts_defaults(opts *o)
{
    memset(o, 0, sizeof *o);
    o->precision = 4;
    o->alpha = 0.05;
    o->epsilon = 1e-3;
    o->seed = 1;
    o->bins = 10;
}
