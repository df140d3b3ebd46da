/* Fuzz tune's readers: a search space (qk_tune_space_parse, JSON), then,
 * when it is accepted, a tune log of that space (qk_tune_log_read) from the
 * part after a line "====". The space must agree with its accessors, decode
 * the unit cube into its ranges and, when small, enumerate a grid of
 * distinct configurations; a log read must hold observations of the space,
 * and the writer's lines must read back as the same observations. */
#include <math.h>

#include "fuzz_util.h"
#include "qrelkit/tune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { GRID_STEPS = 3, GRID_MAX = 300 };

/* x is a value parameter p may decode to (a few ulps of slack for
 * lo + (hi - lo) u). */
static int in_range(const qk_tune_param *p, double x)
{
    double slack = 1e-12 * (fabs(p->lo) + fabs(p->hi));
    if (!isfinite(x) || x < p->lo - slack || x > p->hi + slack)
        return 0;
    return p->type == QK_PARAM_REAL || x == floor(x);
}

static void check_param(const qk_tune_space *s, size_t d)
{
    const qk_tune_param *p = qk_tune_space_param(s, d);
    size_t found;
    if (!p || !p->name || !p->name[0] || !qk_tune_space_find(s, p->name, &found) || found != d)
        abort();
    if (p->type == QK_PARAM_CAT) {
        if (p->ncat == 0 || !p->cats || p->lo != 0 || p->hi != (double)p->ncat - 1)
            abort();
        for (size_t k = 0; k < p->ncat; k++) {
            if (!p->cats[k])
                abort();
            for (size_t j = 0; j < k; j++)
                if (strcmp(p->cats[j], p->cats[k]) == 0)
                    abort(); /* values are distinct */
        }
    } else if ((p->type != QK_PARAM_REAL && p->type != QK_PARAM_INT) || !(p->lo < p->hi) ||
               !isfinite(p->lo) || !isfinite(p->hi)) {
        abort();
    }
    if (!in_range(p, p->def))
        abort();
    if (p->parent >= 0) {
        const qk_tune_param *par;
        if ((size_t)p->parent >= d || !p->when)
            abort(); /* parents are declared first */
        par = qk_tune_space_param(s, (size_t)p->parent);
        if (par->type != QK_PARAM_CAT)
            abort();
    } else if (p->parent != -1) {
        abort();
    }
}

/* x (decoded) lies in the space: every value in its range, its GP input
 * in [0, 1], the point the same as itself. */
static void check_point(const qk_tune_space *s, const double *x, double *z)
{
    size_t dim = qk_tune_space_dim(s);
    for (size_t d = 0; d < dim; d++)
        if (!in_range(qk_tune_space_param(s, d), x[d]))
            abort();
    qk_tune_space_gp_input(s, x, z);
    for (size_t d = 0; d < dim; d++) {
        if (!(z[d] >= -1e-9 && z[d] <= 1 + 1e-9))
            abort();
        (void)qk_tune_space_active(s, x, d);
    }
    if (!qk_tune_space_same(s, x, x))
        abort();
}

/* The grid, when it has few points before conditions: every point in the
 * space, no configuration twice. */
static void check_grid(const qk_tune_space *s, double *z)
{
    size_t dim = qk_tune_space_dim(s), full = 1, n = 0;
    double *g;
    qk_error err = {0};
    for (size_t d = 0; d < dim; d++) {
        const qk_tune_param *p = qk_tune_space_param(s, d);
        double c = p->type == QK_PARAM_CAT                                      ? (double)p->ncat
                   : p->type == QK_PARAM_INT && p->hi - p->lo + 1 <= GRID_STEPS ? p->hi - p->lo + 1
                                                                                : GRID_STEPS;
        if ((double)full * c > GRID_MAX)
            return;
        full *= (size_t)c;
    }
    if (qk_tune_grid_size(s, GRID_STEPS, &n, &err) != QK_OK) {
        if (!err.message[0])
            abort();
        return;
    }
    if (n == 0 || n > full || !(g = malloc(n * dim * sizeof *g)))
        abort();
    for (size_t i = 0; i < n; i++) {
        qk_tune_grid_point(s, GRID_STEPS, i, g + i * dim);
        check_point(s, g + i * dim, z);
        for (size_t j = 0; j < i; j++)
            if (qk_tune_space_same(s, g + i * dim, g + j * dim))
                abort();
    }
    free(g);
}

static void check_space(const qk_tune_space *s, const uint8_t *data, size_t size)
{
    size_t dim = qk_tune_space_dim(s);
    double *u, *x, *z;
    if (dim == 0 || !(u = malloc(dim * sizeof *u)) || !(x = malloc(dim * sizeof *x)) ||
        !(z = malloc(dim * sizeof *z)))
        abort();
    for (size_t d = 0; d < dim; d++)
        check_param(s, d);
    qk_tune_space_defaults(s, x);
    for (size_t d = 0; d < dim; d++)
        if (x[d] != qk_tune_space_param(s, d)->def)
            abort();
    check_point(s, x, z);
    /* corners, the centre, and a point from the input's bytes */
    for (int k = 0; k < 4; k++) {
        for (size_t d = 0; d < dim; d++)
            u[d] = k == 0 ? 0 : k == 1 ? 1 : k == 2 ? 0.5 : (double)(size ? data[d % size] : 0) / 255.0;
        qk_tune_space_decode(s, u, x);
        check_point(s, x, z);
    }
    check_grid(s, z);
    free(u);
    free(x);
    free(z);
}

/* The writer can only hold what a log line can: integers as JSON integers. */
static int writable(const qk_tune_space *s, const qk_tune_obs *o)
{
    for (size_t d = 0; d < qk_tune_space_dim(s); d++)
        if (qk_tune_space_param(s, d)->type == QK_PARAM_INT &&
            !(o->x[d] == floor(o->x[d]) && fabs(o->x[d]) < 9007199254740992.0))
            return 0;
    return 1;
}

static void check_obs(const qk_tune_space *s, const qk_tune_obs *o, size_t i)
{
    size_t dim = qk_tune_space_dim(s);
    if (o->index != i || (int)o->phase < QK_PHASE_DEFAULT || o->phase > QK_PHASE_GRID || !o->x)
        abort();
    if (o->ok ? !isfinite(o->y) : !isnan(o->y))
        abort();
    if (!memchr(o->error, 0, sizeof o->error))
        abort();
    for (size_t d = 0; d < dim; d++) {
        const qk_tune_param *p = qk_tune_space_param(s, d);
        if (!isfinite(o->x[d]))
            abort();
        if (p->type == QK_PARAM_CAT &&
            !(o->x[d] >= 0 && o->x[d] < (double)p->ncat && o->x[d] == floor(o->x[d])))
            abort();
    }
}

/* The log written again reads back as the same observations. */
static void rewrite(const qk_tune_space *s, const qk_tune_obs *obs, size_t n)
{
    char *buf = NULL;
    size_t len = 0, n2 = 0, dim = qk_tune_space_dim(s);
    FILE *f = open_memstream(&buf, &len);
    qk_tune_obs *back = NULL;
    qk_error err = {0};
    if (!f)
        abort();
    for (size_t i = 0; i < n; i++)
        if (qk_tune_log_write(f, s, &obs[i], &err) != QK_OK)
            abort();
    if (fclose(f) != 0)
        abort();
    if (!(f = fopen(qk_fuzz_file(2, (const uint8_t *)buf, len), "r")))
        abort();
    if (qk_tune_log_read(f, "rewritten", s, &back, &n2, &err) != QK_OK || n2 != n)
        abort(); /* the writer's lines must read back */
    fclose(f);
    for (size_t i = 0; i < n; i++) {
        const qk_tune_obs *a = &obs[i], *b = &back[i];
        double secs = round(a->seconds * 1e6) / 1e6;
        if (b->index != a->index || b->phase != a->phase || b->ok != a->ok || !qk_fuzz_same_double(a->y, b->y))
            abort();
        if (isfinite(secs) && !qk_fuzz_same_double(secs, b->seconds))
            abort();
        if (!a->ok && strcmp(a->error, b->error) != 0)
            abort();
        for (size_t d = 0; d < dim; d++)
            if (!qk_fuzz_same_double(a->x[d], b->x[d]))
                abort();
    }
    qk_tune_log_free(back, n2);
    free(buf);
}

static void fuzz_log(const qk_tune_space *s, const uint8_t *data, size_t size)
{
    FILE *f = fopen(qk_fuzz_file(1, data, size), "r");
    qk_tune_obs *obs = NULL;
    size_t n = 0;
    int all = 1;
    qk_error err = {0};
    if (!f)
        abort();
    qk_error_clear(&err);
    if (qk_tune_log_read(f, "log", s, &obs, &n, &err) != QK_OK) {
        if (!err.message[0] || obs || n)
            abort();
        fclose(f);
        return;
    }
    fclose(f);
    for (size_t i = 0; i < n; i++) {
        check_obs(s, &obs[i], i);
        all &= writable(s, &obs[i]);
    }
    if (all)
        rewrite(s, obs, n);
    qk_tune_log_free(obs, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n1, n2;
    const uint8_t *p2;
    qk_tune_space *s = NULL;
    qk_error err = {0};
    qk_fuzz_split(data, size, &n1, &p2, &n2);
    qk_error_clear(&err);
    if (qk_tune_space_parse((const char *)data, n1, "space", &s, &err) != QK_OK) {
        if (!err.message[0] || s)
            abort();
        return 0;
    }
    check_space(s, data, n1);
    fuzz_log(s, p2, n2);
    qk_tune_space_free(s);
    return 0;
}
