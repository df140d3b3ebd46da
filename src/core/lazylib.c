/* dlopen on first use of the heavy optional libraries; see lazylib.h for why. */
#include "core/lazylib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* QK_SONAME_* come from the build (CMakeLists.txt reads them from the very libraries the
 * headers belong to), so the library opened is the one the program was built against. */

typedef struct lazy_sym {
    const char *name;
    size_t offset; /* of the pointer inside the library's table */
} lazy_sym;

typedef struct lazy_lib {
    const char *key;    /* the name qk_lazylib_test_soname takes */
    const char *soname; /* what dlopen opens */
    const lazy_sym *syms;
    size_t nsyms;
    void *table;
    pthread_once_t once;
    int ok;
    char reason[400]; /* dlerror() at the failure, copied: it is per-thread and transient */
} lazy_lib;

// clang-format off
#define SYM(type, fn) { #fn, offsetof(type, fn) }
// clang-format on

static const lazy_sym mhd_syms[] = {
    SYM(qk_mhd_api, MHD_start_daemon),
    SYM(qk_mhd_api, MHD_stop_daemon),
    SYM(qk_mhd_api, MHD_get_daemon_info),
    SYM(qk_mhd_api, MHD_get_connection_info),
    SYM(qk_mhd_api, MHD_lookup_connection_value),
    SYM(qk_mhd_api, MHD_create_response_from_buffer),
    SYM(qk_mhd_api, MHD_add_response_header),
    SYM(qk_mhd_api, MHD_queue_response),
    SYM(qk_mhd_api, MHD_destroy_response),
};
static const lazy_sym lapacke_syms[] = {
    SYM(qk_lapacke_api, LAPACKE_dposv),  SYM(qk_lapacke_api, LAPACKE_dpotrf),
    SYM(qk_lapacke_api, LAPACKE_dpotri), SYM(qk_lapacke_api, LAPACKE_dpotrs),
    SYM(qk_lapacke_api, LAPACKE_dstev),  SYM(qk_lapacke_api, LAPACKE_dtrtri),
    SYM(qk_lapacke_api, LAPACKE_dtrtrs),
};
static const lazy_sym nlopt_syms[] = {
    SYM(qk_nlopt_api, nlopt_create),
    SYM(qk_nlopt_api, nlopt_destroy),
    SYM(qk_nlopt_api, nlopt_optimize),
    SYM(qk_nlopt_api, nlopt_set_lower_bounds),
    SYM(qk_nlopt_api, nlopt_set_upper_bounds),
    SYM(qk_nlopt_api, nlopt_set_max_objective),
    SYM(qk_nlopt_api, nlopt_set_maxeval),
    SYM(qk_nlopt_api, nlopt_set_ftol_rel),
    SYM(qk_nlopt_api, nlopt_get_numevals),
    SYM(qk_nlopt_api, nlopt_set_lower_bounds1),
    SYM(qk_nlopt_api, nlopt_set_upper_bounds1),
    SYM(qk_nlopt_api, nlopt_set_xtol_abs1),
};
static const lazy_sym liblinear_syms[] = {
    SYM(qk_liblinear_api, train),
    SYM(qk_liblinear_api, check_parameter),
    SYM(qk_liblinear_api, predict_values),
    SYM(qk_liblinear_api, predict_probability),
    SYM(qk_liblinear_api, get_labels),
    SYM(qk_liblinear_api, free_and_destroy_model),
    SYM(qk_liblinear_api, set_print_string_function),
};
static const lazy_sym zstd_syms[] = {
    SYM(qk_zstd_api, ZSTD_createCCtx),
    SYM(qk_zstd_api, ZSTD_freeCCtx),
    SYM(qk_zstd_api, ZSTD_CCtx_setParameter),
    SYM(qk_zstd_api, ZSTD_compressStream2),
    SYM(qk_zstd_api, ZSTD_createDCtx),
    SYM(qk_zstd_api, ZSTD_freeDCtx),
    SYM(qk_zstd_api, ZSTD_decompressDCtx),
    SYM(qk_zstd_api, ZSTD_getFrameContentSize),
    SYM(qk_zstd_api, ZSTD_isError),
    SYM(qk_zstd_api, ZSTD_getErrorName),
};

static qk_mhd_api mhd_table;
static qk_lapacke_api lapacke_table;
static qk_nlopt_api nlopt_table;
static qk_liblinear_api liblinear_table;
static qk_zstd_api zstd_table;

// clang-format off
#define LIB(key, soname, syms, table) \
    { key, soname, syms, sizeof(syms) / sizeof((syms)[0]), &(table), PTHREAD_ONCE_INIT, 0, "" }
// clang-format on

static lazy_lib libs[] = {
    LIB("microhttpd", QK_SONAME_MICROHTTPD, mhd_syms, mhd_table),
    LIB("lapacke", QK_SONAME_LAPACKE, lapacke_syms, lapacke_table),
    LIB("nlopt", QK_SONAME_NLOPT, nlopt_syms, nlopt_table),
    LIB("linear", QK_SONAME_LINEAR, liblinear_syms, liblinear_table),
    LIB("zstd", QK_SONAME_ZSTD, zstd_syms, zstd_table),
};
enum { L_MHD, L_LAPACKE, L_NLOPT, L_LINEAR, L_ZSTD };

static void copy_reason(lazy_lib *l)
{
    const char *e = dlerror();
    snprintf(l->reason, sizeof l->reason, "%s", e ? e : "unknown error");
}

static void open_lib(lazy_lib *l)
{
    /* Never closed: the tables are used until exit, and NLopt or liblinear keep state. */
    void *h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        copy_reason(l);
        return;
    }
    for (size_t i = 0; i < l->nsyms; i++) {
        void *p;
        dlerror();
        p = dlsym(h, l->syms[i].name);
        if (!p) {
            copy_reason(l);
            return;
        }
        /* POSIX guarantees a function pointer converts through void *. */
        memcpy((char *)l->table + l->syms[i].offset, &p, sizeof p);
    }
    l->ok = 1;
}

static void once_mhd(void)
{
    open_lib(&libs[L_MHD]);
}
static void once_lapacke(void)
{
    open_lib(&libs[L_LAPACKE]);
}
static void once_nlopt(void)
{
    open_lib(&libs[L_NLOPT]);
}
/* liblinear prints its training progress through one process-wide hook;
 * the library never wants it, so the hook is set here, once, before any
 * thread can train (it used to be reset on every fit, a data race). */
static void linear_quiet(const char *s)
{
    (void)s;
}
static void once_linear(void)
{
    open_lib(&libs[L_LINEAR]);
    if (libs[L_LINEAR].ok)
        liblinear_table.set_print_string_function(linear_quiet);
}
static void once_zstd(void)
{
    open_lib(&libs[L_ZSTD]);
}

static const void *get(int which, void (*init)(void), qk_error *err)
{
    lazy_lib *l = &libs[which];
    if (pthread_once(&l->once, init) != 0 || !l->ok) {
        qk_error_set(err, QK_EIO, "cannot load %s (%s); install it with scripts/install-deps.sh", l->soname,
                     l->reason[0] ? l->reason : "pthread_once failed");
        return NULL;
    }
    return l->table;
}

const qk_mhd_api *qk_mhd(qk_error *err)
{
    return get(L_MHD, once_mhd, err);
}
const qk_lapacke_api *qk_lapacke(qk_error *err)
{
    return get(L_LAPACKE, once_lapacke, err);
}
const qk_nlopt_api *qk_nlopt(qk_error *err)
{
    return get(L_NLOPT, once_nlopt, err);
}
const qk_liblinear_api *qk_liblinear(qk_error *err)
{
    return get(L_LINEAR, once_linear, err);
}
const qk_zstd_api *qk_zstd(qk_error *err)
{
    return get(L_ZSTD, once_zstd, err);
}

int qk_lazylib_test_soname(const char *lib, const char *soname)
{
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
        if (strcmp(libs[i].key, lib) == 0) {
            if (libs[i].ok || libs[i].reason[0])
                return -1;
            libs[i].soname = soname;
            return 0;
        }
    return -1;
}
