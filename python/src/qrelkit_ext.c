/* _qrelkit: the CPython extension under the `qrelkit` package.
 *
 * It uses libqrelkit's public API only (include/qrelkit/) and builds every
 * object in memory (qk_qrels_new/add/finish, qk_run_new/add_topic, ...): no
 * temporary files. Library errors become Python exceptions carrying the
 * library's message (file and line included); every call that does real
 * work runs with the GIL released, and evaluate() scores many runs on
 * several threads at once.
 *
 * Ownership: a Qrels or Run object owns its qk_qrels / qk_run and frees it
 * when collected; everything else is freed before the function returns. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/qrelkit.h"

/* ---- Exceptions ------------------------------------------------------------ */
static PyObject *ErrBase, *ErrUsage, *ErrInput, *ErrCalc, *ErrIO;

/* Raise the exception that matches a library status, with the library's message
 * and its file/line/column as attributes. Returns NULL for `return raise_qk(...)`. */
static PyObject *raise_qk(qk_status st, const qk_error *err)
{
    PyObject *type = ErrBase;
    switch (st) {
    case QK_EUSAGE: type = ErrUsage; break;
    case QK_EINPUT: type = ErrInput; break;
    case QK_ECALC: type = ErrCalc; break;
    case QK_EIO: type = ErrIO; break;
    case QK_ENOMEM: return PyErr_NoMemory();
    default: break;
    }
    const char *msg = err && err->message[0] ? err->message : qk_status_name(st);
    PyObject *exc = PyObject_CallFunction(type, "s", msg);
    if (!exc)
        return NULL;
    PyObject *code = PyLong_FromLong((long)st);
    PyObject *file =
        PyUnicode_DecodeUTF8(err ? err->file : "", err ? (Py_ssize_t)strlen(err->file) : 0, "replace");
    PyObject *line = PyLong_FromLong(err ? err->line : 0);
    PyObject *col = PyLong_FromLong(err ? err->column : 0);
    if (code && file && line && col && PyObject_SetAttrString(exc, "code", code) == 0 &&
        PyObject_SetAttrString(exc, "file", file) == 0 && PyObject_SetAttrString(exc, "line", line) == 0 &&
        PyObject_SetAttrString(exc, "column", col) == 0)
        PyErr_SetObject(type, exc);
    Py_XDECREF(code);
    Py_XDECREF(file);
    Py_XDECREF(line);
    Py_XDECREF(col);
    Py_DECREF(exc);
    return NULL;
}

/* UTF-8 of a str (borrowed from the object, which keeps it). NULL with
 * TypeError naming `what` otherwise. Embedded NUL bytes are refused: the
 * library takes C strings. */
static const char *utf8_of(PyObject *o, const char *what)
{
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be str, not %.100s", what, Py_TYPE(o)->tp_name);
        return NULL;
    }
    Py_ssize_t len = 0;
    const char *s = PyUnicode_AsUTF8AndSize(o, &len);
    if (s && strlen(s) != (size_t)len) {
        PyErr_Format(PyExc_ValueError, "%s contains a NUL character", what);
        return NULL;
    }
    return s;
}

static int long_of(PyObject *o, long *out, const char *what)
{
    /* a float column of whole numbers (pandas makes them from NaN-free ints) */
    if (PyFloat_Check(o)) {
        double d = PyFloat_AS_DOUBLE(o);
        if (d == floor(d) && fabs(d) < 1e15) {
            *out = (long)d;
            return 0;
        }
        PyErr_Format(PyExc_TypeError, "%s must be an integer, not %R", what, o);
        return -1;
    }
    PyObject *i = PyNumber_Index(o);
    if (!i) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = PyLong_AsLong(i);
    Py_DECREF(i);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int double_of(PyObject *o, double *out, const char *what)
{
    *out = PyFloat_AsDouble(o);
    if (*out == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be a number, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    return 0;
}

/* A run score: a finite number, as in run files. */
static int score_of(PyObject *o, double *out, const char *qid, const char *doc)
{
    if (double_of(o, out, "score") < 0)
        return -1;
    if (!isfinite(*out)) {
        PyErr_Format(ErrInput, "query '%s' doc '%s': score %R is not a finite number", qid, doc, o);
        return -1;
    }
    return 0;
}

/* d[key] = v without interning key (PyDict_SetItemString interns every key,
 * which keeps one entry per distinct docno in the interpreter's table). */
static int dict_set_str(PyObject *d, const char *key, PyObject *v)
{
    PyObject *k = PyUnicode_FromString(key);
    if (!k)
        return -1;
    int rc = PyDict_SetItem(d, k, v);
    Py_DECREF(k);
    return rc;
}

static PyObject *dict_get_str(PyObject *d, const char *key)
{
    PyObject *k = PyUnicode_FromString(key);
    if (!k)
        return NULL;
    PyObject *v = PyDict_GetItemWithError(d, k);
    Py_DECREF(k);
    return v;
}

/* ---- Qrels ------------------------------------------------------------------ */
typedef struct {
    PyObject_HEAD qk_qrels *q;
} QrelsObject;

static void Qrels_dealloc(QrelsObject *self)
{
    qk_qrels_free(self->q);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Qrels_topics(QrelsObject *self, PyObject *unused)
{
    (void)unused;
    size_t n = qk_qrels_num_topics(self->q);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t t = 0; list && t < n; t++) {
        PyObject *s = PyUnicode_FromString(qk_qrels_topic(self->q, t));
        if (!s) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)t, s);
    }
    return list;
}

/* {qid: {docno: rel}}; with judgment groups the group is dropped (the last
 * one wins), as pytrec_eval's shape has no place for it. Prefs give floats. */
static PyObject *Qrels_to_dict(QrelsObject *self, PyObject *unused)
{
    (void)unused;
    int prefs = qk_qrels_format(self->q) == QK_REL_PREFS || qk_qrels_format(self->q) == QK_REL_QRELS_PREFS;
    PyObject *out = PyDict_New();
    for (size_t t = 0; out && t < qk_qrels_num_topics(self->q); t++) {
        size_t n = 0;
        const qk_judgment *j = qk_qrels_judgments(self->q, t, &n);
        PyObject *inner = PyDict_New();
        if (!inner || dict_set_str(out, qk_qrels_topic(self->q, t), inner) < 0) {
            Py_XDECREF(inner);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(inner); /* out holds it */
        for (size_t k = 0; k < n; k++) {
            PyObject *v = prefs ? PyFloat_FromDouble(j[k].rel) : PyLong_FromLong((long)j[k].rel);
            if (!v || dict_set_str(inner, qk_qrels_docno(self->q, j[k].doc), v) < 0) {
                Py_XDECREF(v);
                Py_CLEAR(out);
                break;
            }
            Py_DECREF(v);
        }
    }
    return out;
}

static Py_ssize_t Qrels_len(QrelsObject *self)
{
    return (Py_ssize_t)qk_qrels_num_judgments(self->q);
}

static PyObject *Qrels_get_format(QrelsObject *self, void *closure)
{
    (void)closure;
    static const char *const names[] = {"qrels", "qrels_jg", "prefs", "qrels_prefs"};
    unsigned f = (unsigned)qk_qrels_format(self->q);
    return PyUnicode_FromString(f < 4 ? names[f] : "?");
}

static PyMethodDef Qrels_methods[] = {
    {"topics", (PyCFunction)Qrels_topics, METH_NOARGS, "Topic ids in byte order."},
    {"to_dict", (PyCFunction)Qrels_to_dict, METH_NOARGS, "The judgments as {qid: {docno: rel}}."},
    {NULL, NULL, 0, NULL}};
static PyGetSetDef Qrels_getset[] = {{"format", (getter)Qrels_get_format, NULL, "relevance format", NULL},
                                     {NULL, NULL, NULL, NULL, NULL}};
static PySequenceMethods Qrels_seq = {.sq_length = (lenfunc)Qrels_len};

static PyTypeObject QrelsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "qrelkit._qrelkit.Qrels",
    .tp_basicsize = sizeof(QrelsObject),
    .tp_dealloc = (destructor)Qrels_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Relevance judgments (a qk_qrels). Made by qrels_read / qrels_from_dict / qrels_from_columns.",
    .tp_methods = Qrels_methods,
    .tp_getset = Qrels_getset,
    .tp_as_sequence = &Qrels_seq,
};

static PyObject *wrap_qrels(qk_qrels *q)
{
    QrelsObject *o = PyObject_New(QrelsObject, &QrelsType);
    if (!o) {
        qk_qrels_free(q);
        return NULL;
    }
    o->q = q;
    return (PyObject *)o;
}

static int parse_format(const char *name, qk_rel_format *fmt)
{
    if (qk_rel_format_parse(name, fmt) != 0) {
        PyErr_Format(ErrUsage,
                     "unknown relevance format '%s' (choose from: qrels, qrels_jg, prefs, qrels_prefs)",
                     name);
        return -1;
    }
    return 0;
}

static int parse_dedup(const char *name, qk_dedup *d)
{
    if (strcmp(name, "error") == 0)
        *d = QK_DEDUP_ERROR;
    else if (strcmp(name, "first") == 0)
        *d = QK_DEDUP_FIRST;
    else {
        PyErr_Format(ErrUsage, "unknown dedup '%s' (choose from: error, first)", name);
        return -1;
    }
    return 0;
}

static PyObject *py_qrels_read(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"path", "format", "dedup", NULL};
    PyObject *path = NULL;
    const char *fmt_name = "qrels", *dedup_name = "error";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|ss", kwlist, PyUnicode_FSConverter, &path, &fmt_name,
                                     &dedup_name))
        return NULL;
    qk_rel_format fmt;
    qk_dedup dedup;
    if (parse_format(fmt_name, &fmt) < 0 || parse_dedup(dedup_name, &dedup) < 0) {
        Py_DECREF(path);
        return NULL;
    }
    qk_qrels *q = NULL;
    qk_error err;
    qk_error_clear(&err);
    qk_status st;
    Py_BEGIN_ALLOW_THREADS st = qk_qrels_read(PyBytes_AS_STRING(path), fmt, dedup, &q, &err);
    Py_END_ALLOW_THREADS Py_DECREF(path);
    if (st != QK_OK)
        return raise_qk(st, &err);
    return wrap_qrels(q);
}

/* Add one judgment from Python objects; -1 with an exception set. */
static int qrels_add_obj(qk_qrels *q, PyObject *qid, PyObject *jg, PyObject *doc, PyObject *rel)
{
    const char *sq = utf8_of(qid, "query id");
    const char *sd = sq ? utf8_of(doc, "doc id") : NULL;
    const char *sg = NULL;
    long r = 0;
    if (!sd)
        return -1;
    if (jg && jg != Py_None && !(sg = utf8_of(jg, "judgment group")))
        return -1;
    if (long_of(rel, &r, "relevance") < 0)
        return -1;
    qk_error err;
    qk_error_clear(&err);
    qk_status st = qk_qrels_add(q, sq, sg, sd, r, &err);
    if (st != QK_OK) {
        raise_qk(st, &err);
        return -1;
    }
    return 0;
}

static PyObject *finish_qrels(qk_qrels *q, qk_dedup dedup)
{
    qk_error err;
    qk_error_clear(&err);
    qk_status st;
    Py_BEGIN_ALLOW_THREADS st = qk_qrels_finish(q, dedup, &err);
    Py_END_ALLOW_THREADS if (st != QK_OK)
    {
        qk_qrels_free(q);
        return raise_qk(st, &err);
    }
    return wrap_qrels(q);
}

static int new_qrels(const char *fmt_name, const char *dedup_name, qk_qrels **q, qk_dedup *dedup)
{
    qk_rel_format fmt;
    if (parse_format(fmt_name, &fmt) < 0 || parse_dedup(dedup_name, dedup) < 0)
        return -1;
    if (fmt != QK_REL_QRELS && fmt != QK_REL_QRELS_JG) {
        PyErr_SetString(ErrUsage,
                        "qrels built in memory are 'qrels' or 'qrels_jg' (prefs are read from files)");
        return -1;
    }
    qk_error err;
    qk_error_clear(&err);
    qk_status st = qk_qrels_new(fmt, q, &err);
    if (st != QK_OK) {
        raise_qk(st, &err);
        return -1;
    }
    return 0;
}

/* qrels_from_dict({qid: {docno: rel}}) — pytrec_eval's shape. */
static PyObject *py_qrels_from_dict(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"judgments", "dedup", NULL};
    PyObject *d;
    const char *dedup_name = "error";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|s", kwlist, &PyDict_Type, &d, &dedup_name))
        return NULL;
    qk_qrels *q = NULL;
    qk_dedup dedup;
    if (new_qrels("qrels", dedup_name, &q, &dedup) < 0)
        return NULL;
    Py_ssize_t pos = 0;
    PyObject *qid, *inner;
    while (PyDict_Next(d, &pos, &qid, &inner)) {
        if (!PyDict_Check(inner)) {
            PyErr_Format(PyExc_TypeError,
                         "judgments of a query must be a dict {doc_id: relevance}, not %.100s",
                         Py_TYPE(inner)->tp_name);
            goto fail;
        }
        Py_ssize_t p2 = 0;
        PyObject *doc, *rel;
        while (PyDict_Next(inner, &p2, &doc, &rel))
            if (qrels_add_obj(q, qid, NULL, doc, rel) < 0)
                goto fail;
    }
    return finish_qrels(q, dedup);
fail:
    qk_qrels_free(q);
    return NULL;
}

/* Get item i of a sequence made fast by PySequence_Fast. */
#define SEQ_ITEM(seq, i) PySequence_Fast_GET_ITEM((seq), (i))

static int fast_columns(PyObject **cols, PyObject **fast, size_t ncols, Py_ssize_t *n)
{
    for (size_t c = 0; c < ncols; c++) {
        fast[c] = NULL;
        if (!cols[c])
            continue;
        fast[c] = PySequence_Fast(cols[c], "columns must be sequences");
        if (!fast[c])
            return -1;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(fast[c]);
        if (c > 0 && len != *n) {
            PyErr_SetString(PyExc_ValueError, "columns differ in length");
            return -1;
        }
        *n = len;
    }
    return 0;
}

/* qrels_from_columns(query_ids, doc_ids, relevance, groups=None): the
 * DataFrame path (the package passes the columns as lists). */
static PyObject *py_qrels_from_columns(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"query_ids", "doc_ids", "relevance", "groups", "dedup", NULL};
    PyObject *cols[4] = {NULL, NULL, NULL, NULL}, *fast[4] = {NULL, NULL, NULL, NULL};
    const char *dedup_name = "error";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|Os", kwlist, &cols[0], &cols[1], &cols[2], &cols[3],
                                     &dedup_name))
        return NULL;
    if (cols[3] == Py_None)
        cols[3] = NULL;
    qk_qrels *q = NULL;
    qk_dedup dedup;
    PyObject *res = NULL;
    Py_ssize_t n = 0;
    if (fast_columns(cols, fast, 4, &n) < 0 ||
        new_qrels(cols[3] ? "qrels_jg" : "qrels", dedup_name, &q, &dedup) < 0)
        goto out;
    for (Py_ssize_t i = 0; i < n; i++)
        if (qrels_add_obj(q, SEQ_ITEM(fast[0], i), fast[3] ? SEQ_ITEM(fast[3], i) : NULL,
                          SEQ_ITEM(fast[1], i), SEQ_ITEM(fast[2], i)) < 0)
            goto out;
    res = finish_qrels(q, dedup);
    q = NULL;
out:
    qk_qrels_free(q);
    for (size_t c = 0; c < 4; c++)
        Py_XDECREF(fast[c]);
    return res;
}

/* ---- Run -------------------------------------------------------------------- */
typedef struct {
    PyObject_HEAD qk_run *r;
} RunObject;

static void Run_dealloc(RunObject *self)
{
    qk_run_free(self->r);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Run_get_name(RunObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(qk_run_name(self->r));
}

static int Run_set_name(RunObject *self, PyObject *value, void *closure)
{
    (void)closure;
    const char *s = value ? utf8_of(value, "name") : NULL;
    if (!value)
        PyErr_SetString(PyExc_TypeError, "a run's name cannot be deleted");
    if (!s)
        return -1;
    qk_error err;
    qk_error_clear(&err);
    qk_status st = qk_run_set_name(self->r, s, &err);
    if (st != QK_OK) {
        raise_qk(st, &err);
        return -1;
    }
    return 0;
}

static PyObject *Run_topics(RunObject *self, PyObject *unused)
{
    (void)unused;
    size_t n = qk_run_num_topics(self->r);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t t = 0; list && t < n; t++) {
        PyObject *s = PyUnicode_FromString(qk_run_topic_at(self->r, t)->qid);
        if (!s) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)t, s);
    }
    return list;
}

/* {qid: {docno: score}}; a repeated docno keeps its best-ranked score. */
static PyObject *Run_to_dict(RunObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *out = PyDict_New();
    for (size_t t = 0; out && t < qk_run_num_topics(self->r); t++) {
        const qk_run_topic *tp = qk_run_topic_at(self->r, t);
        PyObject *inner = PyDict_New();
        if (!inner || dict_set_str(out, tp->qid, inner) < 0) {
            Py_XDECREF(inner);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(inner);
        for (size_t k = tp->n; k-- > 0;) { /* worst first, so the best rank's score is written last */
            PyObject *v = PyFloat_FromDouble(tp->scores[k]);
            if (!v || dict_set_str(inner, tp->docnos[k], v) < 0) {
                Py_XDECREF(v);
                Py_CLEAR(out);
                break;
            }
            Py_DECREF(v);
        }
    }
    return out;
}

static Py_ssize_t Run_len(RunObject *self)
{
    size_t n = 0;
    for (size_t t = 0; t < qk_run_num_topics(self->r); t++)
        n += qk_run_topic_at(self->r, t)->n;
    return (Py_ssize_t)n;
}

static PyMethodDef Run_methods[] = {
    {"topics", (PyCFunction)Run_topics, METH_NOARGS, "Topic ids in order of first appearance."},
    {"to_dict", (PyCFunction)Run_to_dict, METH_NOARGS, "The run as {qid: {docno: score}}."},
    {NULL, NULL, 0, NULL}};
static PyGetSetDef Run_getset[] = {{"name", (getter)Run_get_name, (setter)Run_set_name, "run id", NULL},
                                   {NULL, NULL, NULL, NULL, NULL}};
static PySequenceMethods Run_seq = {.sq_length = (lenfunc)Run_len};

static PyTypeObject RunType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "qrelkit._qrelkit.Run",
    .tp_basicsize = sizeof(RunObject),
    .tp_dealloc = (destructor)Run_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A ranked run (a qk_run). Made by run_read / run_from_dict / run_from_columns.",
    .tp_methods = Run_methods,
    .tp_getset = Run_getset,
    .tp_as_sequence = &Run_seq,
};

static PyObject *wrap_run(qk_run *r)
{
    RunObject *o = PyObject_New(RunObject, &RunType);
    if (!o) {
        qk_run_free(r);
        return NULL;
    }
    o->r = r;
    return (PyObject *)o;
}

static PyObject *py_run_read(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"path", NULL};
    PyObject *path = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&", kwlist, PyUnicode_FSConverter, &path))
        return NULL;
    qk_run *r = NULL;
    qk_error err;
    qk_error_clear(&err);
    qk_status st;
    Py_BEGIN_ALLOW_THREADS st = qk_run_read(PyBytes_AS_STRING(path), &r, &err);
    Py_END_ALLOW_THREADS Py_DECREF(path);
    if (st != QK_OK)
        return raise_qk(st, &err);
    return wrap_run(r);
}

/* One topic's entries, gathered from Python objects before the C call. */
typedef struct {
    const char **docnos;
    double *scores;
    size_t cap;
} topic_buf;

static int topic_buf_reserve(topic_buf *b, size_t n)
{
    if (n <= b->cap)
        return 0;
    const char **d = realloc(b->docnos, n * sizeof *d);
    if (d)
        b->docnos = d;
    double *s = d ? realloc(b->scores, n * sizeof *s) : NULL;
    if (s)
        b->scores = s;
    if (!d || !s) {
        PyErr_NoMemory();
        return -1;
    }
    b->cap = n;
    return 0;
}

static void topic_buf_free(topic_buf *b)
{
    free(b->docnos);
    free(b->scores);
}

static int run_add(qk_run *r, const char *qid, size_t n, topic_buf *b)
{
    qk_error err;
    qk_error_clear(&err);
    qk_status st;
    Py_BEGIN_ALLOW_THREADS st = qk_run_add_topic(r, qid, n, b->docnos, b->scores, NULL, &err);
    Py_END_ALLOW_THREADS if (st != QK_OK)
    {
        raise_qk(st, &err);
        return -1;
    }
    return 0;
}

static qk_run *new_run(const char *name)
{
    qk_run *r = NULL;
    qk_error err;
    qk_error_clear(&err);
    qk_status st = qk_run_new(name, &r, &err);
    if (st != QK_OK)
        raise_qk(st, &err);
    return r;
}

/* run_from_dict({qid: {docno: score}}, name="run") — pytrec_eval's shape. */
static PyObject *py_run_from_dict(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"scores", "name", NULL};
    PyObject *d;
    const char *name = "run";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|s", kwlist, &PyDict_Type, &d, &name))
        return NULL;
    qk_run *r = new_run(name);
    topic_buf b = {NULL, NULL, 0};
    if (!r)
        return NULL;
    Py_ssize_t pos = 0;
    PyObject *qid, *inner;
    while (PyDict_Next(d, &pos, &qid, &inner)) {
        const char *sq = utf8_of(qid, "query id");
        if (!sq)
            goto fail;
        if (!PyDict_Check(inner)) {
            PyErr_Format(PyExc_TypeError, "scores of a query must be a dict {doc_id: score}, not %.100s",
                         Py_TYPE(inner)->tp_name);
            goto fail;
        }
        size_t n = (size_t)PyDict_Size(inner), k = 0;
        if (topic_buf_reserve(&b, n) < 0)
            goto fail;
        Py_ssize_t p2 = 0;
        PyObject *doc, *score;
        while (PyDict_Next(inner, &p2, &doc, &score)) {
            if (!(b.docnos[k] = utf8_of(doc, "doc id")) || score_of(score, &b.scores[k], sq, b.docnos[k]) < 0)
                goto fail;
            k++;
        }
        if (run_add(r, sq, n, &b) < 0)
            goto fail;
    }
    topic_buf_free(&b);
    return wrap_run(r);
fail:
    topic_buf_free(&b);
    qk_run_free(r);
    return NULL;
}

/* run_from_columns(query_ids, doc_ids, scores, name="run"): rows of one
 * query need not be contiguous. */
static PyObject *py_run_from_columns(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"query_ids", "doc_ids", "scores", "name", NULL};
    PyObject *cols[3], *fast[3] = {NULL, NULL, NULL}, *groups = NULL, *res = NULL;
    const char *name = "run";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|s", kwlist, &cols[0], &cols[1], &cols[2], &name))
        return NULL;
    Py_ssize_t n = 0;
    topic_buf b = {NULL, NULL, 0};
    qk_run *r = NULL;
    if (fast_columns(cols, fast, 3, &n) < 0 || !(r = new_run(name)))
        goto out;
    /* group row numbers by query id, in order of first appearance */
    groups = PyDict_New();
    if (!groups)
        goto out;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *qid = SEQ_ITEM(fast[0], i);
        if (!utf8_of(qid, "query id"))
            goto out;
        PyObject *rows = PyDict_GetItemWithError(groups, qid);
        if (!rows) {
            if (PyErr_Occurred() || !(rows = PyList_New(0)) || PyDict_SetItem(groups, qid, rows) < 0) {
                Py_XDECREF(rows);
                goto out;
            }
            Py_DECREF(rows);
        }
        PyObject *ix = PyLong_FromSsize_t(i);
        if (!ix || PyList_Append(rows, ix) < 0) {
            Py_XDECREF(ix);
            goto out;
        }
        Py_DECREF(ix);
    }
    Py_ssize_t pos = 0;
    PyObject *qid, *rows;
    while (PyDict_Next(groups, &pos, &qid, &rows)) {
        size_t m = (size_t)PyList_GET_SIZE(rows);
        if (topic_buf_reserve(&b, m) < 0)
            goto out;
        for (size_t k = 0; k < m; k++) {
            Py_ssize_t i = PyLong_AsSsize_t(PyList_GET_ITEM(rows, (Py_ssize_t)k));
            if (!(b.docnos[k] = utf8_of(SEQ_ITEM(fast[1], i), "doc id")) ||
                score_of(SEQ_ITEM(fast[2], i), &b.scores[k], PyUnicode_AsUTF8(qid), b.docnos[k]) < 0)
                goto out;
        }
        if (run_add(r, PyUnicode_AsUTF8(qid), m, &b) < 0)
            goto out;
    }
    res = wrap_run(r);
    r = NULL;
out:
    qk_run_free(r);
    topic_buf_free(&b);
    Py_XDECREF(groups);
    for (size_t c = 0; c < 3; c++)
        Py_XDECREF(fast[c]);
    return res;
}

static int runs_of(PyObject *seq, PyObject **fast, const qk_run ***runs, size_t *n)
{
    *fast = PySequence_Fast(seq, "runs must be a sequence of Run");
    if (!*fast)
        return -1;
    *n = (size_t)PySequence_Fast_GET_SIZE(*fast);
    *runs = calloc(*n + 1, sizeof **runs);
    if (!*runs) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < *n; i++) {
        PyObject *ro = SEQ_ITEM(*fast, (Py_ssize_t)i);
        if (!PyObject_TypeCheck(ro, &RunType)) {
            PyErr_Format(PyExc_TypeError, "runs must be Run objects, not %.100s", Py_TYPE(ro)->tp_name);
            return -1;
        }
        (*runs)[i] = ((RunObject *)ro)->r;
    }
    return 0;
}

/* Runs given as Run objects or as file names (bytes, from os.fsencode): *fast
 * holds the items, so the objects and the names stay alive while used. */
static int runs_or_paths(PyObject *seq, PyObject **fast, const qk_run ***runs, const char ***paths, size_t *n)
{
    *fast = PySequence_Fast(seq, "runs must be a sequence of Run or bytes");
    if (!*fast)
        return -1;
    *n = (size_t)PySequence_Fast_GET_SIZE(*fast);
    *runs = calloc(*n + 1, sizeof **runs);
    *paths = calloc(*n + 1, sizeof **paths);
    if (!*runs || !*paths) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < *n; i++) {
        PyObject *ro = SEQ_ITEM(*fast, (Py_ssize_t)i);
        if (PyObject_TypeCheck(ro, &RunType))
            (*runs)[i] = ((RunObject *)ro)->r;
        else if (PyBytes_Check(ro) && strlen(PyBytes_AS_STRING(ro)) == (size_t)PyBytes_GET_SIZE(ro))
            (*paths)[i] = PyBytes_AS_STRING(ro);
        else {
            PyErr_Format(PyExc_TypeError, "runs must be Run objects or file names, not %.100s",
                         Py_TYPE(ro)->tp_name);
            return -1;
        }
    }
    return 0;
}

/* ---- Measures ---------------------------------------------------------------- */
/* A measure list becomes one or more finalized measure sets ("groups"):
 *  - ir_measures' "P(rel=2)@5" is P@5 evaluated with rel_level 2
 *    (qk_measure_split_rel), so each relevance level has its own sets;
 *  - the library follows trec_eval, where the first parameters given for a
 *    measure win ("-m P.5 -m P.10" computes P_5 only), but a Python list
 *    ["P@5", "P@10"] asks for both, so a spec whose values a set would not
 *    compute goes into the next set of its level.
 * keys[i] is the result key of value i: the spec as given when it names one
 * value and is an ir_measures-style alias or carries rel= ("nDCG@10",
 * "P(rel=2)@5"), else the value name ("map", "P_10"), suffixed "(rel=N)" at a
 * level of its own. */
typedef struct {
    int has_level; /* 0: the call's rel_level */
    long level;
    PyObject *specs; /* list of str: the specs without rel= */
    qk_measures *m;
    PyObject *keys;
} mgroup;

typedef struct {
    mgroup *g;
    size_t n;
} mgroups;

static void mgroups_free(mgroups *gs)
{
    for (size_t i = 0; i < gs->n; i++) {
        qk_measures_free(gs->g[i].m);
        Py_XDECREF(gs->g[i].specs);
        Py_XDECREF(gs->g[i].keys);
    }
    free(gs->g);
    gs->g = NULL;
    gs->n = 0;
}

/* A finalized set of specs (a list of str) plus `extra` (may be NULL). */
static qk_status measures_of(PyObject *specs, const char *extra, qk_measures **out, qk_error *err)
{
    qk_status st = qk_measures_new(out);
    for (Py_ssize_t i = 0; st == QK_OK && specs && i < PyList_GET_SIZE(specs); i++)
        st = qk_measures_add(*out, PyUnicode_AsUTF8(PyList_GET_ITEM(specs, i)), err);
    if (st == QK_OK && extra)
        st = qk_measures_add(*out, extra, err);
    if (st == QK_OK)
        st = qk_measures_finalize(*out, err);
    if (st != QK_OK) {
        qk_measures_free(*out);
        *out = NULL;
    }
    return st;
}

/* 1 when every value of `alone` is among the values of `m`. */
static int computes_all(const qk_measures *m, const qk_measures *alone)
{
    for (size_t i = 0; i < qk_measures_num_values(alone); i++) {
        const char *v = qk_measures_value_name(alone, i);
        int found = 0;
        for (size_t k = 0; k < qk_measures_num_values(m) && !found; k++)
            found = strcmp(qk_measures_value_name(m, k), v) == 0;
        if (!found)
            return 0;
    }
    return 1;
}

/* Put one spec (without rel=) into the first group of its level that computes
 * all its values once it is added, or into a new group. */
static int place_spec(mgroups *gs, const char *spec, int has_level, long level)
{
    qk_error err;
    qk_error_clear(&err);
    qk_measures *alone = NULL, *tmp = NULL;
    qk_status st = measures_of(NULL, spec, &alone, &err);
    if (st != QK_OK) {
        raise_qk(st, &err);
        return -1;
    }
    mgroup *g = NULL;
    for (size_t k = 0; k < gs->n && !g; k++) {
        mgroup *c = &gs->g[k];
        qk_measures *before = NULL;
        if (c->has_level != has_level || (has_level && c->level != level))
            continue;
        /* the spec's values are computed and the group's own values are kept
         * (a spec may give parameters a nickname's measure had by default) */
        if (measures_of(c->specs, spec, &tmp, NULL) == QK_OK &&
            measures_of(c->specs, NULL, &before, NULL) == QK_OK && computes_all(tmp, alone) &&
            computes_all(tmp, before))
            g = c;
        qk_measures_free(before);
        qk_measures_free(tmp);
        tmp = NULL;
    }
    qk_measures_free(alone);
    if (!g) {
        mgroup *grown = realloc(gs->g, (gs->n + 1) * sizeof *grown);
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        gs->g = grown;
        g = &gs->g[gs->n];
        memset(g, 0, sizeof *g);
        g->has_level = has_level;
        g->level = level;
        if (!(g->specs = PyList_New(0)))
            return -1;
        gs->n++;
    }
    PyObject *s = PyUnicode_FromString(spec);
    int rc = s ? PyList_Append(g->specs, s) : -1;
    Py_XDECREF(s);
    return rc;
}

static int build_groups(PyObject *specs, mgroups *gs)
{
    qk_error err;
    qk_error_clear(&err);
    qk_status st;
    char buf[512];
    long level = 0;
    int found = 0;
    PyObject *fast = PySequence_Fast(specs, "measures must be a str or a sequence of str");
    gs->g = NULL;
    gs->n = 0;
    if (!fast)
        return -1;
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < ns; i++) {
        const char *s = utf8_of(SEQ_ITEM(fast, i), "a measure");
        if (!s)
            goto fail;
        if ((st = qk_measure_split_rel(s, buf, sizeof buf, &level, &found, &err)) != QK_OK) {
            raise_qk(st, &err);
            goto fail;
        }
        if (place_spec(gs, buf, found, level) < 0)
            goto fail;
    }
    if (gs->n == 0) { /* an empty list: the library's default (official) */
        if (!(gs->g = calloc(1, sizeof *gs->g)) || !(gs->g[0].specs = PyList_New(0)))
            goto fail;
        gs->n = 1;
    }
    for (size_t k = 0; k < gs->n; k++) {
        mgroup *g = &gs->g[k];
        if ((st = measures_of(g->specs, NULL, &g->m, &err)) != QK_OK) {
            raise_qk(st, &err);
            goto fail;
        }
        size_t nv = qk_measures_num_values(g->m);
        if (!(g->keys = PyList_New((Py_ssize_t)nv)))
            goto fail;
        for (size_t i = 0; i < nv; i++) {
            PyObject *key =
                g->has_level ? PyUnicode_FromFormat("%s(rel=%ld)", qk_measures_value_name(g->m, i), g->level)
                             : PyUnicode_FromString(qk_measures_value_name(g->m, i));
            if (!key)
                goto fail;
            PyList_SET_ITEM(g->keys, (Py_ssize_t)i, key);
        }
    }
    /* ir_measures' spellings and rel= specs keep their name, in the group that
     * took them (the first of their level that computes their value) */
    for (Py_ssize_t i = 0; i < ns; i++) {
        PyObject *spec = SEQ_ITEM(fast, i);
        char alias[512];
        size_t ix;
        qk_measure_split_rel(PyUnicode_AsUTF8(spec), buf, sizeof buf, &level, &found, NULL);
        if (!found && !qk_measure_alias(buf, alias, sizeof alias))
            continue;
        for (size_t k = 0; k < gs->n; k++) {
            mgroup *g = &gs->g[k];
            if (g->has_level != found || (found && g->level != level) ||
                qk_measures_value_index(g->m, buf, &ix, NULL) != QK_OK)
                continue;
            Py_INCREF(spec);
            PyList_SetItem(g->keys, (Py_ssize_t)ix, spec);
            break;
        }
    }
    Py_DECREF(fast);
    return 0;
fail:
    Py_DECREF(fast);
    mgroups_free(gs);
    return -1;
}

/* ---- Evaluation ---------------------------------------------------------------- */
/* One job per (run, measure group): run i, group g is job i * ngroups + g. */
typedef struct {
    const qk_qrels *q;
    const qk_run **runs;
    const char **paths; /* a run file to stream where runs[i] is NULL */
    const mgroups *gs;
    const qk_eval_opts *opts;
    qk_eval_result **res;
    qk_status *st;
    qk_error *err;
    size_t njobs;
    size_t next;
    pthread_mutex_t lock;
} eval_job;

static void *eval_worker(void *arg)
{
    eval_job *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        size_t i = j->next++;
        pthread_mutex_unlock(&j->lock);
        if (i >= j->njobs)
            return NULL;
        const mgroup *g = &j->gs->g[i % j->gs->n];
        qk_eval_opts o = *j->opts;
        if (g->has_level)
            o.rel_level = g->level;
        qk_error_clear(&j->err[i]);
        size_t r = i / j->gs->n;
        if (j->runs[r]) {
            j->st[i] = qk_eval_run(j->q, j->runs[r], g->m, &o, &j->res[i], &j->err[i]);
            continue;
        }
        /* a file: read as it is evaluated, as `qrelkit eval` does (parsing on a
         * second thread when this is the only job) */
        qk_run_stream *s = NULL;
        o.threads = j->njobs == 1 ? 0 : 1;
        j->st[i] = qk_run_open(j->paths[r], QK_RUN_STREAM, &s, &j->err[i]);
        if (j->st[i] == QK_OK)
            j->st[i] = qk_eval_stream(j->q, s, g->m, &o, &j->res[i], &j->err[i]);
        qk_run_close(s);
    }
}

/* A value as Python: str for relstring/runid, int for counts, else float. */
static PyObject *value_obj(const qk_eval_result *r, size_t t, size_t i)
{
    const qk_measure_info *mi = qk_result_value_measure(r, i);
    if (t != (size_t)-1) {
        const char *s = qk_result_topic_string(r, t, i);
        if (s)
            return PyUnicode_FromString(s);
        double v = qk_result_topic_value(r, t, i);
        return mi->is_long && !qk_result_zmode(r) ? PyLong_FromDouble(v) : PyFloat_FromDouble(v);
    }
    if (mi->summary == QK_SUMMARY_RUNID)
        return PyUnicode_FromString(qk_result_runid(r));
    double v = qk_result_summary(r, i);
    return (mi->is_long || mi->summary == QK_SUMMARY_NUMQ) && !qk_result_zmode(r) ? PyLong_FromDouble(v)
                                                                                  : PyFloat_FromDouble(v);
}

static int set_value(PyObject *d, PyObject *key, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyDict_SetItem(d, key, v);
    Py_DECREF(v);
    return rc;
}

/* The dict d[name], made when missing (borrowed). */
static PyObject *sub_dict(PyObject *d, const char *name)
{
    PyObject *row = dict_get_str(d, name);
    if (row || PyErr_Occurred())
        return row;
    row = PyDict_New();
    if (!row || dict_set_str(d, name, row) < 0) {
        Py_XDECREF(row);
        return NULL;
    }
    Py_DECREF(row);
    return row;
}

/* Add one result to out: per_query {qid: {key: value}} plus, with `summary`,
 * the summary under "all" (trec_eval's name for it); else {key: value}. */
static int result_into(PyObject *out, const qk_eval_result *r, PyObject *keys, int per_query, int summary)
{
    size_t nv = qk_result_num_values(r);
    if (per_query)
        for (size_t t = 0; t < qk_result_num_topics(r); t++) {
            PyObject *row = sub_dict(out, qk_result_topic(r, t));
            if (!row)
                return -1;
            for (size_t i = 0; i < nv; i++)
                if (qk_result_value_measure(r, i)->per_topic &&
                    set_value(row, PyList_GET_ITEM(keys, (Py_ssize_t)i), value_obj(r, t, i)) < 0)
                    return -1;
        }
    if (per_query && !summary)
        return 0;
    PyObject *row = per_query ? sub_dict(out, "all") : out;
    if (!row)
        return -1;
    for (size_t i = 0; i < nv; i++)
        if (qk_result_value_measure(r, i)->summary != QK_SUMMARY_NONE &&
            set_value(row, PyList_GET_ITEM(keys, (Py_ssize_t)i), value_obj(r, (size_t)-1, i)) < 0)
            return -1;
    return 0;
}

static long online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

/* Run the jobs on nt threads (this one included), without the GIL. */
static void run_jobs(eval_job *job, size_t nt)
{
    Py_BEGIN_ALLOW_THREADS if (nt <= 1) eval_worker(job);
    else
    {
        pthread_t *tid = calloc(nt, sizeof *tid);
        size_t started = 0;
        for (; tid && started < nt - 1; started++)
            if (pthread_create(&tid[started], NULL, eval_worker, job) != 0)
                break;
        eval_worker(job);
        for (size_t k = 0; k < started; k++)
            pthread_join(tid[k], NULL);
        free(tid);
    }
    Py_END_ALLOW_THREADS
}

/* evaluate(qrels, runs, measures, per_query=False, summary=False, threads=0,
 *          rel_level=1, complete=False, judged_only=False, max_ret=-1,
 *          num_docs=0, dedup="error") -> list of (runid, result) */
static PyObject *py_evaluate(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"qrels",    "runs",      "measures", "per_query",   "summary",
                             "threads",  "rel_level", "complete", "judged_only", "max_ret",
                             "num_docs", "dedup",     NULL};
    QrelsObject *qo;
    PyObject *runs_o, *specs, *fast = NULL, *out = NULL;
    int per_query = 0, summary = 0, complete = 0, judged_only = 0;
    long threads = 0, rel_level = 1, max_ret = -1, num_docs = 0;
    const char *dedup_name = "error";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!OO|ppllpplls", kwlist, &QrelsType, &qo, &runs_o, &specs,
                                     &per_query, &summary, &threads, &rel_level, &complete, &judged_only,
                                     &max_ret, &num_docs, &dedup_name))
        return NULL;
    qk_eval_opts opts;
    qk_eval_opts_init(&opts);
    opts.rel_level = rel_level;
    opts.complete = complete;
    opts.judged_only = judged_only;
    opts.num_docs = num_docs;
    opts.threads = 1;
    if (max_ret >= 0)
        opts.max_ret = max_ret;
    if (parse_dedup(dedup_name, &opts.dedup) < 0)
        return NULL;
    mgroups gs;
    if (build_groups(specs, &gs) < 0)
        return NULL;
    const qk_run **runs = NULL;
    const char **paths = NULL;
    qk_eval_result **res = NULL;
    qk_status *st = NULL;
    qk_error *errs = NULL;
    size_t n = 0, nj = 0;
    if (runs_or_paths(runs_o, &fast, &runs, &paths, &n) < 0) /* `fast` keeps the objects alive */
        goto out;
    nj = n * gs.n;
    res = calloc(nj + 1, sizeof *res);
    st = calloc(nj + 1, sizeof *st);
    errs = calloc(nj + 1, sizeof *errs);
    if (!res || !st || !errs) {
        PyErr_NoMemory();
        goto out;
    }
    eval_job job = {qo->q, runs, paths, &gs, &opts, res, st, errs, nj, 0, PTHREAD_MUTEX_INITIALIZER};
    size_t nt = threads > 0 ? (size_t)threads : (size_t)online_cpus();
    run_jobs(&job, nt < nj ? nt : nj);
    for (size_t i = 0; i < nj; i++)
        if (st[i] != QK_OK) {
            raise_qk(st[i], &errs[i]);
            goto out;
        }
    out = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; out && i < n; i++) {
        PyObject *r = PyDict_New();
        for (size_t g = 0; r && g < gs.n; g++)
            if (result_into(r, res[i * gs.n + g], gs.g[g].keys, per_query, summary) < 0)
                Py_CLEAR(r);
        PyObject *tup = r ? Py_BuildValue("(sN)", qk_result_runid(res[i * gs.n]), r) : NULL;
        if (!tup) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, tup);
    }
out:
    for (size_t i = 0; res && i < nj; i++)
        qk_eval_result_free(res[i]);
    free(runs);
    free(paths);
    free(res);
    free(st);
    free(errs);
    Py_XDECREF(fast);
    mgroups_free(&gs);
    return out;
}

/* measure_names(measures) -> the result keys of a measure list, in order */
static PyObject *py_measure_names(PyObject *mod, PyObject *specs)
{
    (void)mod;
    mgroups gs;
    if (build_groups(specs, &gs) < 0)
        return NULL;
    PyObject *out = PyList_New(0);
    for (size_t g = 0; out && g < gs.n; g++) {
        PyObject *ext = PyObject_CallMethod(out, "extend", "O", gs.g[g].keys);
        if (!ext)
            Py_CLEAR(out);
        Py_XDECREF(ext);
    }
    mgroups_free(&gs);
    return out;
}

/* ---- compare: significance over run pairs, agreement of two scorings ---------- */
static PyObject *test_result_dict(const qk_test_result *t)
{
    return Py_BuildValue("{s:d,s:d,s:d,s:d,s:l,s:O}", "statistic", t->statistic, "p", t->p, "delta",
                         t->mean_diff, "effect", t->effect, "n", t->n, "exact",
                         t->exact ? Py_True : Py_False);
}

/* pairwise(runs, topics, matrix(list of lists, run-major), test, correction,
 *          alpha, trials, seed) -> list of dicts, one per pair (a < b) */
static PyObject *py_pairwise(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"runs",  "topics", "values", "test", "correction",
                             "alpha", "trials", "seed",   NULL};
    PyObject *runs_o, *topics_o, *values_o, *out = NULL;
    const char *test_name = "t", *corr_name = "none";
    double alpha = 0.05;
    long trials = 100000;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|ssdlK", kwlist, &runs_o, &topics_o, &values_o, &test_name,
                                     &corr_name, &alpha, &trials, &seed))
        return NULL;
    qk_test test;
    qk_correction corr;
    qk_error err;
    qk_error_clear(&err);
    if (qk_enum_parse(qk_stats_test_table, "test", test_name, (int *)&test, &err) != QK_OK ||
        qk_enum_parse(qk_stats_correction_table, "correction", corr_name, (int *)&corr, &err) != QK_OK)
        return raise_qk(QK_EUSAGE, &err);
    PyObject *cols[3] = {runs_o, topics_o, values_o}, *fast[3] = {NULL, NULL, NULL};
    const char **runs = NULL, **topics = NULL;
    double *v = NULL;
    qk_scores *sc = NULL;
    qk_pair_result *pr = NULL;
    size_t npairs = 0, nsig = 0;
    for (int c = 0; c < 3; c++)
        if (!(fast[c] = PySequence_Fast(cols[c], "runs, topics and values must be sequences")))
            goto out;
    size_t nr = (size_t)PySequence_Fast_GET_SIZE(fast[0]), nt = (size_t)PySequence_Fast_GET_SIZE(fast[1]);
    if ((size_t)PySequence_Fast_GET_SIZE(fast[2]) != nr) {
        PyErr_SetString(PyExc_ValueError, "values must have one row per run");
        goto out;
    }
    runs = calloc(nr + 1, sizeof *runs);
    topics = calloc(nt + 1, sizeof *topics);
    v = calloc(nr * nt + 1, sizeof *v);
    if (!runs || !topics || !v) {
        PyErr_NoMemory();
        goto out;
    }
    for (size_t r = 0; r < nr; r++)
        if (!(runs[r] = utf8_of(SEQ_ITEM(fast[0], (Py_ssize_t)r), "run name")))
            goto out;
    for (size_t t = 0; t < nt; t++)
        if (!(topics[t] = utf8_of(SEQ_ITEM(fast[1], (Py_ssize_t)t), "topic id")))
            goto out;
    for (size_t r = 0; r < nr; r++) {
        PyObject *row =
            PySequence_Fast(SEQ_ITEM(fast[2], (Py_ssize_t)r), "a row of values must be a sequence");
        if (!row)
            goto out;
        int bad = (size_t)PySequence_Fast_GET_SIZE(row) != nt;
        if (bad)
            PyErr_SetString(PyExc_ValueError, "every row of values must have one value per topic");
        for (size_t t = 0; !bad && t < nt; t++)
            bad = double_of(SEQ_ITEM(row, (Py_ssize_t)t), &v[r * nt + t], "a score") < 0;
        Py_DECREF(row);
        if (bad)
            goto out;
    }
    qk_test_opts to;
    qk_stats_test_opts_init(&to);
    to.trials = trials;
    to.seed = seed;
    qk_status st;
    Py_BEGIN_ALLOW_THREADS st = qk_stats_scores_new(nr, nt, runs, topics, v, &sc, &err);
    if (st == QK_OK)
        st = qk_stats_pairwise(sc, test, &to, corr, alpha, &pr, &npairs, &nsig, &err);
    Py_END_ALLOW_THREADS if (st != QK_OK)
    {
        raise_qk(st, &err);
        goto out;
    }
    out = PyList_New((Py_ssize_t)npairs);
    for (size_t k = 0; out && k < npairs; k++) {
        PyObject *d = test_result_dict(&pr[k].test);
        PyObject *more = NULL;
        if (d)
            more = Py_BuildValue("{s:s,s:s,s:d,s:d,s:d,s:O}", "a", runs[pr[k].a], "b", runs[pr[k].b],
                                 "mean_a", sc->mean[pr[k].a], "mean_b", sc->mean[pr[k].b], "p_adj",
                                 pr[k].p_adj, "significant", pr[k].significant ? Py_True : Py_False);
        if (!d || !more || PyDict_Update(d, more) < 0) {
            Py_XDECREF(d);
            Py_XDECREF(more);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(more);
        PyList_SET_ITEM(out, (Py_ssize_t)k, d);
    }
out:
    free(pr);
    qk_stats_scores_free(sc);
    free(v);
    free(runs);
    free(topics);
    for (int c = 0; c < 3; c++)
        Py_XDECREF(fast[c]);
    return out;
}

static int doubles_of(PyObject *seq, double **out, size_t *n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, "scores must be a sequence of numbers");
    if (!fast)
        return -1;
    *n = (size_t)PySequence_Fast_GET_SIZE(fast);
    *out = calloc(*n + 1, sizeof **out);
    int rc = *out ? 0 : -1;
    if (rc)
        PyErr_NoMemory();
    for (size_t i = 0; rc == 0 && i < *n; i++)
        rc = double_of(SEQ_ITEM(fast, (Py_ssize_t)i), &(*out)[i], what);
    Py_DECREF(fast);
    return rc;
}

/* agreement(truth, est): two scorings of the same systems, in the same order. */
static PyObject *py_agreement(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *a, *b, *out = NULL;
    double *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    if (!PyArg_ParseTuple(args, "OO", &a, &b))
        return NULL;
    if (doubles_of(a, &x, &nx, "a score") < 0 || doubles_of(b, &y, &ny, "a score") < 0)
        goto out;
    if (nx != ny) {
        PyErr_SetString(PyExc_ValueError, "the two scorings must score the same systems");
        goto out;
    }
    qk_agreement ag;
    qk_error err;
    qk_error_clear(&err);
    qk_status st;
    Py_BEGIN_ALLOW_THREADS st = qk_stats_agreement(x, y, nx, &ag, &err);
    Py_END_ALLOW_THREADS if (st != QK_OK)
    {
        raise_qk(st, &err);
        goto out;
    }
    out = Py_BuildValue("{s:n,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:L,s:l}", "n", (Py_ssize_t)ag.n, "tau_a",
                        ag.kendall.tau_a, "tau_b", ag.kendall.tau_b, "tau_ap", ag.tau_ap, "spearman",
                        ag.spearman, "pearson", ag.pearson, "rmse", ag.rmse, "mse", ag.mse, "bias", ag.bias,
                        "swapped_pairs", (long long)ag.kendall.discordant, "max_drop", ag.max_drop);
out:
    free(x);
    free(y);
    return out;
}

/* ---- estimate: statAP (prels file), xinfAP (strata), MTC/RTC expectations ----- */
static PyObject *est_table_obj(const qk_est_table *t, int per_query)
{
    PyObject *out = PyDict_New();
    for (size_t i = 0; out && i < t->nvalues; i++) {
        PyObject *v = PyFloat_FromDouble(t->summary[i]);
        if (!v || dict_set_str(out, t->names[i], v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(out);
        } else
            Py_DECREF(v);
    }
    if (!out || !per_query)
        return out;
    PyObject *pq = PyDict_New();
    for (size_t k = 0; pq && k < t->ntopics; k++) {
        PyObject *row = PyDict_New();
        if (!row || dict_set_str(pq, t->topics[k], row) < 0) {
            Py_XDECREF(row);
            Py_CLEAR(pq);
            break;
        }
        Py_DECREF(row);
        for (size_t i = 0; i < t->nvalues; i++) {
            PyObject *v = PyFloat_FromDouble(t->v[k * t->nvalues + i]);
            if (!v || dict_set_str(row, t->names[i], v) < 0) {
                Py_XDECREF(v);
                Py_CLEAR(pq);
                break;
            }
            Py_DECREF(v);
        }
    }
    if (!pq || dict_set_str(pq, "all", out) < 0)
        Py_CLEAR(pq);
    Py_DECREF(out);
    return pq;
}

/* estimate_sampled(method, path, run, per_query=False, max_ret=1000):
 * method "statap" reads a prels file, "xinfap" a strata file; one estimator
 * call over the run. */
static PyObject *py_estimate_sampled(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"method", "path", "run", "per_query", "max_ret", NULL};
    const char *method;
    PyObject *path = NULL;
    RunObject *ro;
    int per_query = 0;
    long max_ret = 1000;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sO&O!|pl", kwlist, &method, PyUnicode_FSConverter, &path,
                                     &RunType, &ro, &per_query, &max_ret))
        return NULL;
    int statap = strcmp(method, "statap") == 0;
    if (!statap && strcmp(method, "xinfap") != 0) {
        Py_DECREF(path);
        PyErr_Format(ErrUsage, "unknown estimator '%s' (choose from: statap, xinfap)", method);
        return NULL;
    }
    qk_error err;
    qk_error_clear(&err);
    qk_status st;
    qk_est_table *t = NULL;
    Py_BEGIN_ALLOW_THREADS if (statap)
    {
        qk_prels *p = NULL;
        st = qk_prels_read(PyBytes_AS_STRING(path), &p, &err);
        if (st == QK_OK)
            st = qk_statap_eval(p, ro->r, &t, &err);
        qk_prels_free(p);
    }
    else
    {
        qk_strata *s = NULL;
        st = qk_strata_read(PyBytes_AS_STRING(path), &s, &err);
        if (st == QK_OK)
            st = qk_xinfap_eval(s, ro->r, max_ret, &t, &err);
        qk_strata_free(s);
    }
    Py_END_ALLOW_THREADS Py_DECREF(path);
    if (st != QK_OK)
        return raise_qk(st, &err);
    PyObject *out = est_table_obj(t, per_query);
    qk_est_table_free(t);
    return out;
}

static PyObject *doubles_list(const double *v, size_t n)
{
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l && i < n; i++) {
        PyObject *x = PyFloat_FromDouble(v[i]);
        if (!x) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, x);
    }
    return l;
}

/* confidence(qrels, runs, model="mtc", depth=100, prior=0.5, rel_level=1,
 *            prec_k=0): E/Var of MAP per run, and E/Var/P(<0) of every
 * pair's MAP difference (qk_conf_eval). */
static PyObject *py_confidence(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"qrels", "runs", "model", "depth", "prior", "rel_level", "prec_k", NULL};
    QrelsObject *qo;
    PyObject *runs_o, *fast = NULL, *out = NULL;
    const char *model = "mtc";
    long depth = 100, rel_level = 1, prec_k = 0;
    double prior = 0.5;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|sldll", kwlist, &QrelsType, &qo, &runs_o, &model, &depth,
                                     &prior, &rel_level, &prec_k))
        return NULL;
    qk_conf_opts o;
    qk_conf_opts_init(&o);
    qk_error err;
    qk_error_clear(&err);
    int mv = 0;
    if (qk_enum_parse(qk_conf_model_table, "model", model, &mv, &err) != QK_OK)
        return raise_qk(QK_EUSAGE, &err);
    o.model = (qk_prob_model)mv;
    o.depth = depth;
    o.prior = prior;
    o.rel_level = rel_level;
    o.prec_k = prec_k;
    const qk_run **runs = NULL;
    size_t n = 0;
    qk_conf_result *r = NULL;
    if (runs_of(runs_o, &fast, &runs, &n) < 0)
        goto out;
    qk_status st;
    Py_BEGIN_ALLOW_THREADS st = qk_conf_eval(qo->q, runs, n, &o, &r, &err);
    Py_END_ALLOW_THREADS if (st != QK_OK)
    {
        raise_qk(st, &err);
        goto out;
    }
    PyObject *names = PyList_New((Py_ssize_t)r->nruns);
    for (size_t i = 0; names && i < r->nruns; i++) {
        PyObject *s = PyUnicode_FromString(r->runids[i]);
        if (!s) {
            Py_CLEAR(names);
            break;
        }
        PyList_SET_ITEM(names, (Py_ssize_t)i, s);
    }
    size_t nn = r->nruns * r->nruns;
    out = Py_BuildValue("{s:N,s:N,s:N,s:N,s:N,s:N}", "runs", names, "emap", doubles_list(r->emap, r->nruns),
                        "vmap", doubles_list(r->vmap, r->nruns), "e_dmap", doubles_list(r->e_dmap, nn),
                        "v_dmap", doubles_list(r->v_dmap, nn), "p_less", doubles_list(r->p_less, nn));
    if (out && prec_k > 0 && r->eprec) {
        PyObject *e = doubles_list(r->eprec, r->nruns), *v = doubles_list(r->vprec, r->nruns);
        if (!e || !v || dict_set_str(out, "eprec", e) < 0 || dict_set_str(out, "vprec", v) < 0)
            Py_CLEAR(out);
        Py_XDECREF(e);
        Py_XDECREF(v);
    }
out:
    qk_conf_result_free(r);
    free(runs);
    Py_XDECREF(fast);
    return out;
}

/* ---- pool: the next documents to judge ------------------------------------------ */
/* pool(runs, method="depth", depth=100, batch=10, budget=100, seed=42,
 *      qrels=None, rel_level=1) -> list of (qid, docno, pi, score) */
static PyObject *py_pool(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"runs", "method", "depth",     "batch", "budget",
                             "seed", "qrels",  "rel_level", NULL};
    PyObject *runs_o, *qrels_o = Py_None, *fast = NULL, *out = NULL;
    const char *method = "depth";
    long depth = 100, batch = 10, budget = 100, rel_level = 1;
    unsigned long long seed = 42;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|slllKOl", kwlist, &runs_o, &method, &depth, &batch, &budget,
                                     &seed, &qrels_o, &rel_level))
        return NULL;
    if (qrels_o != Py_None && !PyObject_TypeCheck(qrels_o, &QrelsType)) {
        PyErr_SetString(PyExc_TypeError, "qrels must be a Qrels or None");
        return NULL;
    }
    qk_pool_opts o;
    qk_pool_opts_init(&o);
    qk_error err;
    qk_error_clear(&err);
    int mv = 0;
    if (qk_enum_parse(qk_pool_method_table, "method", method, &mv, &err) != QK_OK)
        return raise_qk(QK_EUSAGE, &err);
    o.method = (qk_pool_method)mv;
    o.batch = batch;
    o.budget = budget;
    o.seed = seed;
    const qk_run **runs = NULL;
    size_t n = 0, npicks = 0;
    qk_pool_runs *p = NULL;
    qk_pool_judged *j = NULL;
    qk_pool_design *d = NULL;
    qk_pool_pick *picks = NULL;
    if (runs_of(runs_o, &fast, &runs, &n) < 0)
        goto out;
    const qk_qrels *q = qrels_o == Py_None ? NULL : ((QrelsObject *)qrels_o)->q;
    qk_status st;
    Py_BEGIN_ALLOW_THREADS st = qk_pool_runs_from(runs, n, depth, &p, &err);
    if (st == QK_OK)
        st = qk_pool_judged_new(p, &j, &err);
    if (st == QK_OK && q)
        st = qk_pool_judged_from_qrels(j, p, q, rel_level, &err);
    if (st == QK_OK && qk_pool_method_samples(o.method))
        st = qk_pool_design_new(p, &o, &d, &err);
    if (st == QK_OK)
        st = qk_pool_next(p, j, d, &o, &picks, &npicks, &err);
    Py_END_ALLOW_THREADS if (st != QK_OK)
    {
        raise_qk(st, &err);
        goto out;
    }
    out = PyList_New((Py_ssize_t)npicks);
    for (size_t k = 0; out && k < npicks; k++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, picks[k].topic);
        PyObject *row =
            Py_BuildValue("(ssdd)", tp->qid, tp->docnos[picks[k].doc], picks[k].pi, picks[k].score);
        if (!row) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)k, row);
    }
out:
    free(picks);
    qk_pool_design_free(d);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
    free(runs);
    Py_XDECREF(fast);
    return out;
}

/* ---- aggregate: crowd labels to relevance ------------------------------------------ */
/* aggregate(tasks, workers, labels, method="mv", max_iter=100, seed=1,
 *           classes=None) -> dict (tasks, classes, label, posteriors, workers, skill) */
static PyObject *py_aggregate(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = {"tasks", "workers", "labels", "method", "max_iter", "seed", "classes", NULL};
    PyObject *cols[3], *fast[3] = {NULL, NULL, NULL}, *classes_o = Py_None, *cfast = NULL, *out = NULL;
    const char *method = "mv";
    int max_iter = 100;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|siKO", kwlist, &cols[0], &cols[1], &cols[2], &method,
                                     &max_iter, &seed, &classes_o))
        return NULL;
    qk_crowd_opts o;
    qk_crowd_opts_init(&o);
    qk_error err;
    qk_error_clear(&err);
    int mv = 0;
    if (qk_enum_parse(qk_crowd_method_table, "method", method, &mv, &err) != QK_OK)
        return raise_qk(QK_EUSAGE, &err);
    o.method = (qk_crowd_method)mv;
    o.max_iter = max_iter;
    o.seed = seed;
    qk_crowd_labels *L = qk_crowd_labels_new();
    qk_crowd_result *r = NULL;
    const char **cnames = NULL;
    qk_status st = QK_OK;
    Py_ssize_t n = 0;
    if (!L) {
        PyErr_NoMemory();
        goto out;
    }
    if (fast_columns(cols, fast, 3, &n) < 0)
        goto out;
    if (classes_o != Py_None) {
        if (!(cfast = PySequence_Fast(classes_o, "classes must be a sequence of str")))
            goto out;
        Py_ssize_t nc = PySequence_Fast_GET_SIZE(cfast);
        if (!(cnames = calloc((size_t)nc + 1, sizeof *cnames))) {
            PyErr_NoMemory();
            goto out;
        }
        for (Py_ssize_t c = 0; c < nc; c++)
            if (!(cnames[c] = utf8_of(SEQ_ITEM(cfast, c), "a class")))
                goto out;
        if ((st = qk_crowd_labels_set_classes(L, cnames, (size_t)nc, &err)) != QK_OK)
            goto qk_fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *t = utf8_of(SEQ_ITEM(fast[0], i), "task");
        const char *w = t ? utf8_of(SEQ_ITEM(fast[1], i), "worker") : NULL;
        const char *l = w ? utf8_of(SEQ_ITEM(fast[2], i), "label") : NULL;
        if (!l)
            goto out;
        if ((st = qk_crowd_labels_add(L, t, w, l, &err)) != QK_OK)
            goto qk_fail;
    }
    Py_BEGIN_ALLOW_THREADS st = qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, &err);
    if (st == QK_OK)
        st = qk_crowd_aggregate(L, &o, &r, &err);
    Py_END_ALLOW_THREADS if (st != QK_OK) goto qk_fail;
    size_t nt = r->n_tasks, nk = r->n_classes, nw = r->n_workers;
    PyObject *tasks = PyList_New((Py_ssize_t)nt), *cls = PyList_New((Py_ssize_t)nk),
             *labels = PyList_New((Py_ssize_t)nt), *post = PyList_New((Py_ssize_t)nt),
             *workers = PyList_New((Py_ssize_t)nw);
    int bad = !tasks || !cls || !labels || !post || !workers;
    for (size_t t = 0; !bad && t < nt; t++) {
        PyObject *a = PyUnicode_FromString(qk_crowd_task_name(L, t));
        PyObject *b = PyUnicode_FromString(qk_crowd_class_name(L, r->label[t]));
        PyObject *c = doubles_list(r->post + t * nk, nk);
        bad = !a || !b || !c;
        if (bad) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            Py_XDECREF(c);
            break;
        }
        PyList_SET_ITEM(tasks, (Py_ssize_t)t, a);
        PyList_SET_ITEM(labels, (Py_ssize_t)t, b);
        PyList_SET_ITEM(post, (Py_ssize_t)t, c);
    }
    for (size_t k = 0; !bad && k < nk; k++) {
        PyObject *a = PyUnicode_FromString(qk_crowd_class_name(L, k));
        if (!(bad = !a))
            PyList_SET_ITEM(cls, (Py_ssize_t)k, a);
    }
    for (size_t w = 0; !bad && w < nw; w++) {
        PyObject *a = PyUnicode_FromString(qk_crowd_worker_name(L, w));
        if (!(bad = !a))
            PyList_SET_ITEM(workers, (Py_ssize_t)w, a);
    }
    if (bad) {
        Py_XDECREF(tasks);
        Py_XDECREF(cls);
        Py_XDECREF(labels);
        Py_XDECREF(post);
        Py_XDECREF(workers);
        goto out;
    }
    out = Py_BuildValue("{s:N,s:N,s:N,s:N,s:N,s:N,s:i,s:O}", "tasks", tasks, "classes", cls, "label", labels,
                        "posteriors", post, "workers", workers, "skill", doubles_list(r->skill, nw),
                        "iterations", r->iterations, "converged", r->converged ? Py_True : Py_False);
    goto out;
qk_fail:
    raise_qk(st, &err);
out:
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
    free(cnames);
    Py_XDECREF(cfast);
    for (int c = 0; c < 3; c++)
        Py_XDECREF(fast[c]);
    return out;
}

/* ---- Module ------------------------------------------------------------------------- */
static PyMethodDef module_methods[] = {
    {"qrels_read", (PyCFunction)(void (*)(void))py_qrels_read, METH_VARARGS | METH_KEYWORDS,
     "qrels_read(path, format='qrels', dedup='error') -> Qrels"},
    {"qrels_from_dict", (PyCFunction)(void (*)(void))py_qrels_from_dict, METH_VARARGS | METH_KEYWORDS,
     "qrels_from_dict({qid: {docno: rel}}, dedup='error') -> Qrels"},
    {"qrels_from_columns", (PyCFunction)(void (*)(void))py_qrels_from_columns, METH_VARARGS | METH_KEYWORDS,
     "qrels_from_columns(query_ids, doc_ids, relevance, groups=None, dedup='error') -> Qrels"},
    {"run_read", (PyCFunction)(void (*)(void))py_run_read, METH_VARARGS | METH_KEYWORDS,
     "run_read(path) -> Run"},
    {"run_from_dict", (PyCFunction)(void (*)(void))py_run_from_dict, METH_VARARGS | METH_KEYWORDS,
     "run_from_dict({qid: {docno: score}}, name='run') -> Run"},
    {"run_from_columns", (PyCFunction)(void (*)(void))py_run_from_columns, METH_VARARGS | METH_KEYWORDS,
     "run_from_columns(query_ids, doc_ids, scores, name='run') -> Run"},
    {"evaluate", (PyCFunction)(void (*)(void))py_evaluate, METH_VARARGS | METH_KEYWORDS,
     "evaluate(qrels, runs, measures, per_query=False, summary=False, threads=0, ...) -> [(runid, result)]"},
    {"measure_names", (PyCFunction)py_measure_names, METH_O, "measure_names(measures) -> result keys"},
    {"pairwise", (PyCFunction)(void (*)(void))py_pairwise, METH_VARARGS | METH_KEYWORDS,
     "pairwise(runs, topics, values, test='t', correction='none', alpha=0.05, trials=100000, seed=1)"},
    {"agreement", (PyCFunction)py_agreement, METH_VARARGS, "agreement(truth, est) -> dict"},
    {"estimate_sampled", (PyCFunction)(void (*)(void))py_estimate_sampled, METH_VARARGS | METH_KEYWORDS,
     "estimate_sampled(method, path, run, per_query=False, max_ret=1000) -> dict"},
    {"confidence", (PyCFunction)(void (*)(void))py_confidence, METH_VARARGS | METH_KEYWORDS,
     "confidence(qrels, runs, model='mtc', depth=100, prior=0.5, rel_level=1, prec_k=0) -> dict"},
    {"pool", (PyCFunction)(void (*)(void))py_pool, METH_VARARGS | METH_KEYWORDS,
     "pool(runs, method='depth', depth=100, batch=10, budget=100, seed=42, qrels=None, rel_level=1)"},
    {"aggregate", (PyCFunction)(void (*)(void))py_aggregate, METH_VARARGS | METH_KEYWORDS,
     "aggregate(tasks, workers, labels, method='mv', max_iter=100, seed=1, classes=None) -> dict"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "_qrelkit",
                                        "libqrelkit over the CPython C API (use the qrelkit package)",
                                        -1,
                                        module_methods,
                                        NULL,
                                        NULL,
                                        NULL,
                                        NULL};

static int add_exc(PyObject *m, PyObject **slot, const char *name, PyObject *bases)
{
    char full[128];
    snprintf(full, sizeof full, "qrelkit.%s", name);
    *slot = PyErr_NewException(full, bases, NULL);
    Py_XDECREF(bases);
    if (!*slot)
        return -1;
    Py_INCREF(*slot);
    return PyModule_AddObject(m, name, *slot);
}

PyMODINIT_FUNC PyInit__qrelkit(void)
{
    if (PyType_Ready(&QrelsType) < 0 || PyType_Ready(&RunType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    Py_INCREF(&QrelsType);
    Py_INCREF(&RunType);
    if (PyModule_AddObject(m, "Qrels", (PyObject *)&QrelsType) < 0 ||
        PyModule_AddObject(m, "Run", (PyObject *)&RunType) < 0 ||
        PyModule_AddStringConstant(m, "version", QK_VERSION) < 0 || add_exc(m, &ErrBase, "Error", NULL) < 0 ||
        add_exc(m, &ErrUsage, "UsageError", PyTuple_Pack(2, ErrBase, PyExc_ValueError)) < 0 ||
        add_exc(m, &ErrInput, "InputError", PyTuple_Pack(2, ErrBase, PyExc_ValueError)) < 0 ||
        add_exc(m, &ErrCalc, "CalcError", PyTuple_Pack(2, ErrBase, PyExc_ValueError)) < 0 ||
        add_exc(m, &ErrIO, "IOError", PyTuple_Pack(2, ErrBase, PyExc_OSError)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
