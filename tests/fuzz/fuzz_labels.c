/* Fuzz the crowd labels reader. The first byte sets the read options: layout
 * (bits 0-1), duplicate policy (bits 2-3), a declared class list "0 1 2"
 * (bit 4) with drop_unknown (bit 5), two extra tasks (bit 6), and whether the
 * labels are aggregated (bit 7: every method but MAGP, a few iterations). The
 * rest is the file. An object that reads must be consistent through its
 * accessors and survive the writer. */
#include "fuzz_util.h"
#include "qrelkit/crowd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const qk_crowd_labels *L)
{
    size_t nt = qk_crowd_num_tasks(L), nw = qk_crowd_num_workers(L), nc = qk_crowd_num_classes(L);
    const size_t *off;
    const uint32_t *w, *c;
    qk_crowd_csr(L, &off, &w, &c);
    if (off[0] != 0 || off[nt] != qk_crowd_num_labels(L))
        abort();
    for (size_t t = 0; t < nt; t++) {
        const char *name = qk_crowd_task_name(L, t);
        size_t id;
        if (!name || !qk_crowd_find_task(L, name, &id) || id != t || off[t] > off[t + 1])
            abort();
        for (size_t k = off[t]; k < off[t + 1]; k++)
            if (w[k] >= nw || c[k] >= nc)
                abort();
    }
    for (size_t k = 0; k < nc; k++) {
        size_t id;
        if (!qk_crowd_find_class(L, qk_crowd_class_name(L, k), &id) || id != k)
            abort();
    }
    for (size_t k = 0; k < nw; k++)
        if (!qk_crowd_worker_name(L, k))
            abort();
}

static void aggregate(const qk_crowd_labels *L, FILE *out)
{
    static const qk_crowd_method methods[] = {QK_CROWD_MV, QK_CROWD_DS, QK_CROWD_ONECOIN, QK_CROWD_GLAD,
                                              QK_CROWD_MACE};
    for (size_t m = 0; m < sizeof methods / sizeof *methods; m++) {
        qk_crowd_opts o;
        qk_crowd_result *r = NULL;
        qk_error err;
        qk_crowd_opts_init(&o);
        o.method = methods[m];
        o.max_iter = 5;
        o.restarts = 2;
        if (qk_crowd_aggregate(L, &o, &r, &err) == QK_OK) {
            for (size_t t = 0; t < r->n_tasks; t++)
                if (r->n_classes && r->label[t] >= r->n_classes)
                    abort();
            if (qk_crowd_write_probs(L, r, out, 4, &err) != QK_OK && !err.message[0])
                abort();
            if (qk_crowd_write_qrels(L, r, out, &err) != QK_OK && !err.message[0])
                abort();
        } else if (!err.message[0]) {
            abort();
        }
        qk_crowd_result_free(r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const classes[] = {"0", "1", "2"};
    static const char *const extra[] = {"t1", "1 d1"};
    qk_crowd_read_opts o = {0};
    qk_crowd_read_stats st;
    qk_crowd_labels *L = NULL;
    qk_error err;
    const char *path;
    FILE *out;
    if (size < 1)
        return 0;
    o.layout = (qk_crowd_layout)(data[0] & 3);
    o.duplicates = (qk_crowd_dup)((data[0] >> 2) & 3);
    if (data[0] & 16) {
        o.classes = classes;
        o.n_classes = 3;
        o.drop_unknown = (data[0] >> 5) & 1;
    }
    if (data[0] & 64) {
        o.extra_tasks = extra;
        o.n_extra_tasks = 2;
    }
    path = qk_fuzz_file(0, data + 1, size - 1);
    qk_error_clear(&err);
    {
        qk_lines *lines = NULL;
        qk_status rs = qk_lines_open(path, &lines, &err);
        if (rs == QK_OK)
            rs = qk_crowd_labels_read(lines, &o, &L, &st, &err);
        qk_lines_close(lines);
        if (rs != QK_OK) {
            if (!err.message[0] || L)
                abort(); /* every failure says why and returns nothing */
            return 0;
        }
    }
    check(L);
    if (!(out = fopen("/dev/null", "w")))
        abort();
    if (qk_crowd_write_labels(L, out, &err) != QK_OK && !err.message[0])
        abort();
    if (data[0] & 128)
        aggregate(L, out);
    fclose(out);
    qk_crowd_labels_free(L);
    return 0;
}
