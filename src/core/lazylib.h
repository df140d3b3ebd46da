/* The heavy optional libraries (libmicrohttpd, LAPACKE, NLopt, liblinear), opened with
 * dlopen the first time a command needs one, so that evaluation commands never map them
 * (with their TLS, Fortran and C++ runtimes, 20-odd shared objects and ~8 ms of loader
 * work per process); and libzstd, which only the index's stored text needs.
 *
 * Each library has a table of function pointers typed from its own header. qk_<lib>(err)
 * opens the library once per process (thread-safe), fills the table and returns it; on
 * failure it returns NULL with QK_EIO and "cannot load <soname> (<reason>); install it
 * with scripts/install-deps.sh" in err. A later call returns the same table (or the same
 * failure) without retrying. The tables live for the whole process and are never freed.
 *
 * Code below a public entry point that has already obtained the table may call
 * qk_<lib>(NULL) and treat NULL like the library's own failure code. */
#ifndef QK_CORE_LAZYLIB_H
#define QK_CORE_LAZYLIB_H

#include "qrelkit/core.h"

#include <lapacke.h>
#include <linear.h>
#include <microhttpd.h>
#include <nlopt.h>
#include <zstd.h>

#define QK_LAZY_FN(name) __typeof__(&(name)) name

typedef struct qk_mhd_api {
    QK_LAZY_FN(MHD_start_daemon);
    QK_LAZY_FN(MHD_stop_daemon);
    QK_LAZY_FN(MHD_get_daemon_info);
    QK_LAZY_FN(MHD_get_connection_info);
    QK_LAZY_FN(MHD_lookup_connection_value);
    QK_LAZY_FN(MHD_create_response_from_buffer);
    QK_LAZY_FN(MHD_add_response_header);
    QK_LAZY_FN(MHD_queue_response);
    QK_LAZY_FN(MHD_destroy_response);
} qk_mhd_api;

typedef struct qk_lapacke_api {
    QK_LAZY_FN(LAPACKE_dposv);
    QK_LAZY_FN(LAPACKE_dpotrf);
    QK_LAZY_FN(LAPACKE_dpotri);
    QK_LAZY_FN(LAPACKE_dpotrs);
    QK_LAZY_FN(LAPACKE_dstev);
    QK_LAZY_FN(LAPACKE_dtrtri);
    QK_LAZY_FN(LAPACKE_dtrtrs);
} qk_lapacke_api;

typedef struct qk_nlopt_api {
    QK_LAZY_FN(nlopt_create);
    QK_LAZY_FN(nlopt_destroy);
    QK_LAZY_FN(nlopt_optimize);
    QK_LAZY_FN(nlopt_set_lower_bounds);
    QK_LAZY_FN(nlopt_set_upper_bounds);
    QK_LAZY_FN(nlopt_set_max_objective);
    QK_LAZY_FN(nlopt_set_maxeval);
    QK_LAZY_FN(nlopt_set_ftol_rel);
    QK_LAZY_FN(nlopt_get_numevals);
    QK_LAZY_FN(nlopt_set_lower_bounds1);
    QK_LAZY_FN(nlopt_set_upper_bounds1);
    QK_LAZY_FN(nlopt_set_xtol_abs1);
} qk_nlopt_api;

typedef struct qk_liblinear_api {
    QK_LAZY_FN(train);
    QK_LAZY_FN(check_parameter);
    QK_LAZY_FN(predict_values);
    QK_LAZY_FN(predict_probability);
    QK_LAZY_FN(get_labels);
    QK_LAZY_FN(free_and_destroy_model);
    QK_LAZY_FN(set_print_string_function);
} qk_liblinear_api;

typedef struct qk_zstd_api {
    QK_LAZY_FN(ZSTD_createCCtx);
    QK_LAZY_FN(ZSTD_freeCCtx);
    QK_LAZY_FN(ZSTD_CCtx_setParameter);
    QK_LAZY_FN(ZSTD_compressStream2);
    QK_LAZY_FN(ZSTD_createDCtx);
    QK_LAZY_FN(ZSTD_freeDCtx);
    QK_LAZY_FN(ZSTD_decompressDCtx);
    QK_LAZY_FN(ZSTD_getFrameContentSize);
    QK_LAZY_FN(ZSTD_isError);
    QK_LAZY_FN(ZSTD_getErrorName);
} qk_zstd_api;

#undef QK_LAZY_FN

/* A call through the table of a library that the public entry point above has already
 * opened with qk_<lib>(err): QK_NLOPT(nlopt_create)(NLOPT_LD_LBFGS, n). */
#define QK_MHD(fn) (qk_mhd(NULL)->fn)
#define QK_LAPACKE(fn) (qk_lapacke(NULL)->fn)
#define QK_NLOPT(fn) (qk_nlopt(NULL)->fn)
#define QK_LIBLINEAR(fn) (qk_liblinear(NULL)->fn)
#define QK_ZSTD(fn) (qk_zstd(NULL)->fn)

const qk_mhd_api *qk_mhd(qk_error *err);
const qk_lapacke_api *qk_lapacke(qk_error *err);
const qk_nlopt_api *qk_nlopt(qk_error *err);
/* liblinear comes with its progress printing switched off. */
const qk_liblinear_api *qk_liblinear(qk_error *err);
const qk_zstd_api *qk_zstd(qk_error *err);

/* Tests only: open `soname` instead of the configured library `lib` ("microhttpd",
 * "lapacke", "nlopt", "linear" or "zstd"). Takes effect only before that library's first use;
 * returns 0, or -1 for an unknown name or a library already opened. */
int qk_lazylib_test_soname(const char *lib, const char *soname);

#endif
