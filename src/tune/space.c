/* The search space: named real, integer and categorical parameters, each
 * optionally conditional on a categorical parent (Li 2020, sec. 5.4.2 and
 * fig. 5.3). The BO box is the unit cube; see tune.h for the encoding. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/tune.h"

struct qk_tune_space {
    size_t dim;
    qk_tune_param *p;
};

void qk_tune_space_free(qk_tune_space *s)
{
    if (!s)
        return;
    for (size_t d = 0; d < s->dim; d++) {
        free(s->p[d].name);
        for (size_t k = 0; k < s->p[d].ncat; k++)
            free(s->p[d].cats[k]);
        free(s->p[d].cats);
        free(s->p[d].when);
    }
    free(s->p);
    free(s);
}

size_t qk_tune_space_dim(const qk_tune_space *s)
{
    return s->dim;
}

const qk_tune_param *qk_tune_space_param(const qk_tune_space *s, size_t d)
{
    return &s->p[d];
}

int qk_tune_space_find(const qk_tune_space *s, const char *name, size_t *d)
{
    for (size_t i = 0; i < s->dim; i++)
        if (strcmp(s->p[i].name, name) == 0) {
            *d = i;
            return 1;
        }
    return 0;
}

static int cat_index(const qk_tune_param *p, const char *v)
{
    for (size_t k = 0; k < p->ncat; k++)
        if (p->cats[k] && strcmp(p->cats[k], v) == 0)
            return (int)k;
    return -1;
}

static qk_status parse_number(json_t *o, const char *key, const char *name, const char *pname, double *v,
                              int required, qk_error *err)
{
    json_t *j = json_object_get(o, key);
    if (!j) {
        if (required)
            return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s' has no \"%s\"", name, pname, key);
        return QK_OK;
    }
    if (!json_is_number(j) || !isfinite(json_number_value(j)))
        return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': \"%s\" is not a number", name, pname, key);
    *v = json_number_value(j);
    return QK_OK;
}

static qk_status parse_param(qk_tune_space *s, size_t d, json_t *o, const char *name, qk_error *err)
{
    qk_tune_param *p = &s->p[d];
    json_t *jn = json_object_get(o, "name"), *jt = json_object_get(o, "type");
    qk_status st;
    p->parent = -1;
    if (!json_is_object(o) || !json_is_string(jn) || json_string_length(jn) == 0)
        return qk_error_set(err, QK_EINPUT, "'%s': parameter %zu has no \"name\"", name, d + 1);
    if (!(p->name = strdup(json_string_value(jn))))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < d; i++)
        if (strcmp(s->p[i].name, p->name) == 0)
            return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s' is declared twice", name, p->name);
    const char *type = json_is_string(jt) ? json_string_value(jt) : "";
    if (strcmp(type, "real") == 0 || strcmp(type, "integer") == 0) {
        p->type = type[0] == 'r' ? QK_PARAM_REAL : QK_PARAM_INT;
        if ((st = parse_number(o, "min", name, p->name, &p->lo, 1, err)) != QK_OK ||
            (st = parse_number(o, "max", name, p->name, &p->hi, 1, err)) != QK_OK)
            return st;
        if (p->type == QK_PARAM_INT && (p->lo != floor(p->lo) || p->hi != floor(p->hi)))
            return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': integer bounds must be whole numbers",
                                name, p->name);
        if (!(p->lo < p->hi))
            return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': min %g is not below max %g", name,
                                p->name, p->lo, p->hi);
        /* decoding computes lo + (hi - lo) u, and the log holds integers as
         * JSON integers: both need a range that doubles hold exactly enough */
        if (!isfinite(p->hi - p->lo))
            return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': the range %g to %g is too wide", name,
                                p->name, p->lo, p->hi);
        if (p->type == QK_PARAM_INT && (fabs(p->lo) > 9007199254740992.0 || fabs(p->hi) > 9007199254740992.0))
            return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': integer bounds must lie within +-2^53",
                                name, p->name);
        p->def = p->type == QK_PARAM_REAL ? 0.5 * (p->lo + p->hi) : floor(0.5 * (p->lo + p->hi));
        if ((st = parse_number(o, "default", name, p->name, &p->def, 0, err)) != QK_OK)
            return st;
        if (!(p->def >= p->lo && p->def <= p->hi) || (p->type == QK_PARAM_INT && p->def != floor(p->def)))
            return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': default %g is not in its range", name,
                                p->name, p->def);
    } else if (strcmp(type, "categorical") == 0) {
        json_t *jv = json_object_get(o, "values"), *v;
        size_t k;
        p->type = QK_PARAM_CAT;
        if (!json_is_array(jv) || json_array_size(jv) == 0)
            return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s' has no \"values\"", name, p->name);
        if (!(p->cats = calloc(json_array_size(jv), sizeof *p->cats)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        json_array_foreach(jv, k, v)
        {
            if (!json_is_string(v))
                return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': value %zu is not a string", name,
                                    p->name, k + 1);
            if (cat_index(p, json_string_value(v)) >= 0)
                return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': value '%s' is given twice", name,
                                    p->name, json_string_value(v));
            if (!(p->cats[k] = strdup(json_string_value(v))))
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            p->ncat = k + 1;
        }
        json_t *jd = json_object_get(o, "default");
        p->def = 0;
        if (jd) {
            int c = json_is_string(jd) ? cat_index(p, json_string_value(jd)) : -1;
            if (c < 0)
                return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': default is not one of its values",
                                    name, p->name);
            p->def = c;
        }
        p->lo = 0;
        p->hi = (double)p->ncat - 1;
    } else {
        return qk_error_set(err, QK_EINPUT,
                            "'%s': parameter '%s': type '%s' is not real, integer or categorical", name,
                            p->name, type);
    }
    json_t *jw = json_object_get(o, "when");
    if (jw) {
        const char *key;
        json_t *vals, *v;
        size_t pi, k;
        if (!json_is_object(jw) || json_object_size(jw) != 1)
            return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': \"when\" must name one parent", name,
                                p->name);
        json_object_foreach(jw, key, vals)
        {
            if (!qk_tune_space_find(s, key, &pi) || pi >= d)
                return qk_error_set(err, QK_EINPUT,
                                    "'%s': parameter '%s' depends on '%s', not declared before it", name,
                                    p->name, key);
            const qk_tune_param *par = &s->p[pi];
            if (par->type != QK_PARAM_CAT)
                return qk_error_set(err, QK_EINPUT,
                                    "'%s': parameter '%s' depends on '%s', which is not categorical", name,
                                    p->name, key);
            if (!json_is_array(vals) || json_array_size(vals) == 0)
                return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': \"when\" lists no values of '%s'",
                                    name, p->name, key);
            p->parent = (long)pi;
            if (!(p->when = calloc(par->ncat, 1)))
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            json_array_foreach(vals, k, v)
            {
                int c = json_is_string(v) ? cat_index(par, json_string_value(v)) : -1;
                if (c < 0)
                    return qk_error_set(err, QK_EINPUT, "'%s': parameter '%s': '%s' has no value %s", name,
                                        p->name, key,
                                        json_is_string(v) ? json_string_value(v) : "(not a string)");
                p->when[c] = 1;
            }
        }
    }
    return QK_OK;
}

qk_status qk_tune_space_parse(const char *text, size_t len, const char *name, qk_tune_space **out,
                              qk_error *err)
{
    json_error_t je;
    json_t *root = json_loadb(text, len, 0, &je), *params;
    qk_tune_space *s = NULL;
    qk_status st = QK_OK;
    *out = NULL;
    if (!root)
        return qk_error_at(err, QK_EINPUT, name, je.line, je.column, "%s", je.text);
    params = json_object_get(root, "params");
    if (!json_is_array(params)) {
        st = qk_error_set(err, QK_EINPUT, "'%s': no \"params\" list", name);
        goto out;
    }
    if (json_array_size(params) == 0) {
        st = qk_error_set(err, QK_EINPUT, "'%s': the search space is empty", name);
        goto out;
    }
    if (!(s = calloc(1, sizeof *s)) || !(s->p = calloc(json_array_size(params), sizeof *s->p))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t d = 0; d < json_array_size(params); d++) {
        s->dim = d + 1;
        if ((st = parse_param(s, d, json_array_get(params, d), name, err)) != QK_OK)
            goto out;
    }
out:
    json_decref(root);
    if (st != QK_OK)
        qk_tune_space_free(s);
    else
        *out = s;
    return st;
}

void qk_tune_space_decode(const qk_tune_space *s, const double *u, double *x)
{
    for (size_t d = 0; d < s->dim; d++) {
        const qk_tune_param *p = &s->p[d];
        double v = u[d] < 0 ? 0 : u[d] > 1 ? 1 : u[d];
        if (p->type == QK_PARAM_REAL) {
            x[d] = p->lo + (p->hi - p->lo) * v;
        } else {
            double span = p->type == QK_PARAM_INT ? p->hi - p->lo + 1 : (double)p->ncat;
            double k = floor(span * v);
            x[d] = p->lo + (k > span - 1 ? span - 1 : k);
        }
    }
}

void qk_tune_space_gp_input(const qk_tune_space *s, const double *x, double *z)
{
    for (size_t d = 0; d < s->dim; d++) {
        const qk_tune_param *p = &s->p[d];
        z[d] = p->hi > p->lo ? (x[d] - p->lo) / (p->hi - p->lo) : 0;
    }
}

int qk_tune_space_active(const qk_tune_space *s, const double *x, size_t d)
{
    while (s->p[d].parent >= 0) {
        size_t par = (size_t)s->p[d].parent;
        long c = (long)x[par];
        if (c < 0 || (size_t)c >= s->p[par].ncat || !s->p[d].when[c])
            return 0;
        d = par;
    }
    return 1;
}

int qk_tune_space_same(const qk_tune_space *s, const double *x, const double *y)
{
    for (size_t d = 0; d < s->dim; d++) {
        int ax = qk_tune_space_active(s, x, d), ay = qk_tune_space_active(s, y, d);
        if (ax != ay || (ax && x[d] != y[d]))
            return 0;
    }
    return 1;
}

void qk_tune_space_defaults(const qk_tune_space *s, double *x)
{
    for (size_t d = 0; d < s->dim; d++)
        x[d] = s->p[d].def;
}
