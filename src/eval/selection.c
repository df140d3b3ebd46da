/* Measure selection: trec_eval's -m arguments (names, nicknames, parameter
 * strings; spec §4) and ir_measures-style aliases. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

qk_status qk_measures_new(qk_measures **out)
{
    qk_measures *m = calloc(1, sizeof *m);
    *out = NULL;
    if (!m || !(m->marked = calloc(qk_measure_count(), 1))) {
        free(m);
        return QK_ENOMEM;
    }
    *out = m;
    return QK_OK;
}

static void inst_free(qk_measure_inst *mi)
{
    free(mi->param_str);
    free(mi->lparams);
    free(mi->dparams);
    for (size_t i = 0; i < mi->npairs; i++)
        free(mi->pair_names[i]);
    free(mi->pair_names);
    free(mi->pair_values);
}

void qk_measures_free(qk_measures *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nspecs; i++) {
        free(m->spec_names[i]);
        free(m->spec_params[i]);
    }
    free(m->spec_names);
    free(m->spec_params);
    for (size_t i = 0; i < m->ninst; i++)
        inst_free(&m->inst[i]);
    free(m->inst);
    for (size_t i = 0; i < m->nvalues; i++)
        free(m->value_names[i]);
    free(m->value_names);
    free(m->marked);
    free(m);
}

static long table_index(const char *name)
{
    for (size_t i = 0; i < qk_measure_count(); i++)
        if (strcmp(qk_measure_at(i)->name, name) == 0)
            return (long)i;
    return -1;
}

/* ---- ir_measures-style aliases ---- */
typedef struct alias {
    const char *name;   /* alias without @ part                    */
    const char *target; /* trec_eval measure                        */
    int cutoff;         /* 1: "@k" -> ".k" ; 2: "@k" optional      */
} alias;

static const alias aliases[] = {
    {"AP", "map", 0},        {"AP@", "map_cut", 1},     {"P@", "P", 1},
    {"R@", "recall", 1},     {"nDCG", "ndcg", 0},       {"nDCG@", "ndcg_cut", 1},
    {"RR", "recip_rank", 0}, {"Bpref", "bpref", 0},     {"BPref", "bpref", 0},
    {"Judged@", "judged", 1}, {"NumRel", "num_rel", 0}, {"NumRet", "num_ret", 0},
    {"NumRelRet", "num_rel_ret", 0}, {"NumQ", "num_q", 0}, {"SetP", "set_P", 0},
    {"SetR", "set_recall", 0}, {"SetF", "set_F", 0},   {"Success@", "success", 1},
    {"IPrec@", "iprec_at_recall", 1}, {"RBP", "rbp", 0}, {"infAP", "infAP", 0},
    {"Rprec", "Rprec", 0},   {"gm_AP", "gm_map", 0},   {"GMAP", "gm_map", 0},
};

int qk_measure_alias(const char *a, char *buf, size_t bufsize)
{
    const char *at = strchr(a, '@');
    /* RBP(p=0.8) -> rbp.p=0.8 */
    if (strncmp(a, "RBP(", 4) == 0 && a[strlen(a) - 1] == ')') {
        int n = snprintf(buf, bufsize, "rbp.%.*s", (int)(strlen(a) - 5), a + 4);
        return n > 0 && (size_t)n < bufsize;
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        const alias *al = &aliases[i];
        size_t nl = strlen(al->name);
        int n;
        if (al->cutoff) {
            if (!at || (size_t)(at - a) + 1 != nl || strncmp(a, al->name, nl) != 0 || !at[1])
                continue;
            n = snprintf(buf, bufsize, "%s.%s", al->target, at + 1);
        } else {
            if (strcmp(a, al->name) != 0)
                continue;
            n = snprintf(buf, bufsize, "%s", al->target);
        }
        return n > 0 && (size_t)n < bufsize;
    }
    return 0;
}

qk_status qk_measures_add(qk_measures *m, const char *spec, qk_error *err)
{
    char buf[512];
    const char *dot;
    char *name;
    const char *const *nick;
    long idx = -1;
    size_t nlen;
    if (!qk_measure_find(spec) && !qk_nickname_members(spec) && qk_measure_alias(spec, buf, sizeof buf))
        spec = buf;
    dot = strchr(spec, '.');
    nlen = dot ? (size_t)(dot - spec) : strlen(spec);
    if (!(name = strndup(spec, nlen)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (dot && dot[1] == '\0') {
        qk_error_set(err, QK_EUSAGE, "measure '%s' has an empty parameter list after '.'", name);
        free(name);
        return QK_EUSAGE;
    }
    nick = qk_nickname_members(name);
    if (nick) {
        for (; *nick; nick++)
            m->marked[table_index(*nick)] = 1;
        free(name);
        return QK_OK;
    }
    if ((idx = table_index(name)) < 0) {
        qk_error_set(err, QK_EUSAGE, "unknown measure '%s' (see --list-measures)", name);
        free(name);
        return QK_EUSAGE;
    }
    m->marked[idx] = 1;
    if (!dot) {
        free(name);
        return QK_OK;
    }
    if (qk_grow((void **)&m->spec_names, &m->names_cap, m->nspecs + 1, sizeof(char *)) != QK_OK ||
        qk_grow((void **)&m->spec_params, &m->params_cap, m->nspecs + 1, sizeof(char *)) != QK_OK ||
        !(m->spec_params[m->nspecs] = strdup(dot + 1))) {
        free(name);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    m->spec_names[m->nspecs++] = name;
    return QK_OK;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static size_t count_items(const char *s)
{
    size_t n = 1;
    for (; *s; s++)
        n += *s == ',';
    return n;
}

/* Parse a parameter string into mi according to the measure's kind. */
static qk_status parse_params(qk_measure_inst *mi, const char *name, const char *ps, qk_error *err)
{
    qk_param_kind kind = mi->def->info.param_kind;
    size_t n = count_items(ps), k = 0;
    char *copy = strdup(ps), *save, *tok;
    if (!copy)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (kind == QK_PARAM_PAIRS) {
        mi->pair_names = calloc(n, sizeof *mi->pair_names);
        mi->pair_values = calloc(n, sizeof *mi->pair_values);
    } else if (kind == QK_PARAM_LONG_CUTOFFS) {
        mi->lparams = calloc(n, sizeof *mi->lparams);
    } else {
        mi->dparams = calloc(n, sizeof *mi->dparams);
    }
    if ((kind == QK_PARAM_PAIRS && (!mi->pair_names || !mi->pair_values)) ||
        (kind == QK_PARAM_LONG_CUTOFFS && !mi->lparams) ||
        (kind != QK_PARAM_PAIRS && kind != QK_PARAM_LONG_CUTOFFS && !mi->dparams)) {
        free(copy);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    /* Empty items are kept (",5" has two), as trec_eval's splitting does. */
    for (tok = copy; tok; tok = save) {
        char *comma = strchr(tok, ',');
        save = comma ? comma + 1 : NULL;
        if (comma)
            *comma = '\0';
        if (kind == QK_PARAM_PAIRS) {
            char *eq = strchr(tok, '=');
            if (!eq || strchr(eq + 1, '=')) {
                free(copy);
                return qk_error_set(err, QK_EUSAGE,
                                    "measure '%s': malformed pair parameters in '%s' (want name=value,...)",
                                    name, ps);
            }
            *eq = '\0';
            if (!(mi->pair_names[k] = strdup(tok))) {
                free(copy);
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            }
            mi->pair_values[k] = atof(eq + 1); // NOLINT(cert-err34-c): as lenient as trec_eval
            mi->npairs = ++k;
        } else if (kind == QK_PARAM_LONG_CUTOFFS) {
            mi->lparams[k++] = atol(tok); // NOLINT(cert-err34-c): as lenient as trec_eval
        } else {
            mi->dparams[k++] = atof(tok); // NOLINT(cert-err34-c): as lenient as trec_eval
        }
    }
    free(copy);
    if (kind != QK_PARAM_PAIRS)
        mi->nparams = k;
    if (kind == QK_PARAM_LONG_CUTOFFS) {
        qsort(mi->lparams, k, sizeof *mi->lparams, cmp_long);
        if (mi->lparams[0] <= 0)
            return qk_error_set(err, QK_EUSAGE, "measure '%s': cutoffs must be positive integers ('%s')", name, ps);
        for (size_t i = 1; i < k; i++)
            if (mi->lparams[i] == mi->lparams[i - 1])
                return qk_error_set(err, QK_EUSAGE, "measure '%s': duplicate cutoffs in '%s'", name, ps);
    } else if (kind == QK_PARAM_DOUBLE_CUTOFFS) {
        qsort(mi->dparams, k, sizeof *mi->dparams, cmp_double);
        for (size_t i = 1; i < k; i++)
            if (mi->dparams[i] == mi->dparams[i - 1])
                return qk_error_set(err, QK_EUSAGE, "measure '%s': duplicate cutoffs in '%s'", name, ps);
    }
    return QK_OK;
}

static qk_status add_value_name(qk_measures *m, size_t *cap, const char *fmt, const char *a, const char *b,
                                size_t maxlen)
{
    char buf[1024];
    int n = snprintf(buf, sizeof buf, fmt, a, b);
    if (n < 0)
        return QK_EINTERNAL;
    if (maxlen && strlen(buf) > maxlen)
        buf[maxlen] = '\0';
    if (qk_grow((void **)&m->value_names, cap, m->nvalues + 1, sizeof(char *)) != QK_OK ||
        !(m->value_names[m->nvalues] = strdup(buf)))
        return QK_ENOMEM;
    m->nvalues++;
    return QK_OK;
}

/* Value names of spec §4.2: NAME_k for cutoffs, NAME_%3.2f (cut to
 * strlen(NAME)+9 bytes) for double cutoffs, NAME_<verbatim> otherwise. */
static qk_status name_values(qk_measures *m, qk_measure_inst *mi, size_t *cap)
{
    const char *name = mi->def->info.name;
    qk_param_kind kind = mi->def->info.param_kind;
    char num[64];
    qk_status st = QK_OK;
    mi->first_value = m->nvalues;
    if (kind == QK_PARAM_LONG_CUTOFFS || kind == QK_PARAM_DOUBLE_CUTOFFS) {
        for (size_t c = 0; c < mi->nparams && st == QK_OK; c++) {
            if (kind == QK_PARAM_LONG_CUTOFFS)
                snprintf(num, sizeof num, "%ld", mi->lparams[c]);
            else
                snprintf(num, sizeof num, "%3.2f", mi->dparams[c]);
            st = add_value_name(m, cap, "%s_%s", name, num,
                                kind == QK_PARAM_DOUBLE_CUTOFFS ? strlen(name) + 9 : 0);
        }
    } else if (mi->param_str) {
        st = add_value_name(m, cap, "%s_%s", name, mi->param_str, 0);
    } else {
        st = add_value_name(m, cap, "%s%s", name, "", 0);
    }
    mi->nvalues = m->nvalues - mi->first_value;
    return st;
}

static const char *first_params(const qk_measures *m, const char *name)
{
    for (size_t i = 0; i < m->nspecs; i++)
        if (strcmp(m->spec_names[i], name) == 0)
            return m->spec_params[i];
    return NULL;
}

static int is_dcg_family(const char *n)
{
    return strcmp(n, "dcg") == 0 || strcmp(n, "ideal_dcg") == 0 || strcmp(n, "ndcg") == 0;
}

qk_status qk_measures_finalize(qk_measures *m, qk_error *err)
{
    size_t n = qk_measure_count(), any = 0, vcap = 0;
    const char *shared = NULL;
    qk_status st;
    if (m->finalized)
        return QK_OK;
    for (size_t i = 0; i < n; i++)
        any |= m->marked[i];
    if (!any)
        for (const char *const *p = qk_nickname_members("official"); *p; p++)
            m->marked[table_index(*p)] = 1;
    /* dcg, ideal_dcg and ndcg share one parameter record (spec §5.7). */
    for (size_t i = 0; i < n; i++)
        if (m->marked[i] && is_dcg_family(qk_measure_at(i)->name) && first_params(m, qk_measure_at(i)->name))
            shared = first_params(m, qk_measure_at(i)->name);
    if (!(m->inst = calloc(n, sizeof *m->inst)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        qk_measure_inst *mi;
        const char *ps;
        if (!m->marked[i])
            continue;
        mi = &m->inst[m->ninst++];
        mi->def = qk_measure_def_at(i);
        ps = first_params(m, mi->def->info.name);
        if (is_dcg_family(mi->def->info.name) && shared)
            ps = shared;
        if (ps && mi->def->info.param_kind == QK_PARAM_NONE)
            ps = NULL; /* trec_eval ignores parameters of parameterless measures */
        if (ps && !(mi->param_str = strdup(ps)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        if ((ps || mi->def->info.default_params) &&
            (st = parse_params(mi, mi->def->info.name, ps ? ps : mi->def->info.default_params, err)) != QK_OK)
            return st;
        if ((st = name_values(m, mi, &vcap)) != QK_OK)
            return qk_error_set(err, st, "out of memory");
    }
    m->finalized = 1;
    return QK_OK;
}

size_t qk_measures_num_values(const qk_measures *m) { return m->nvalues; }
const char *qk_measures_value_name(const qk_measures *m, size_t i) { return m->value_names[i]; }
