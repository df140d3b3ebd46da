/* JSON written as it goes, in the bytes jansson's json_dumpf gives the
 * same document with JSON_INDENT(2) and JSON_REAL_PRECISION(prec) (object
 * members in the order written): for outputs too large to build as a tree
 * first (eval --format json -q over hundreds of thousands of topics held
 * a gigabyte of jansson nodes). As with jansson, a member whose key or
 * string value is not valid UTF-8, or whose real is not finite, is left
 * out. Bytes are gathered in a buffer (buf_out.h) and go to the file a
 * buffer at a time. tests/unit/test_json_out.c compares the bytes with
 * jansson's. */
#ifndef QK_CLI_JSON_OUT_H
#define QK_CLI_JSON_OUT_H

#include <stdio.h>

#include "buf_out.h"

enum { QK_JOUT_DEPTH = 16 };

typedef struct qk_jout {
    qk_bout out; /* the file and the bytes not yet written to it */
    int prec;  /* significant digits of reals (jansson's 0 means 17) */
    int depth; /* containers open */
    /* used[d]: container d has a member; skip[d]: container d was left out
     * (its key was not valid), and so is everything written into it */
    unsigned char used[QK_JOUT_DEPTH], skip[QK_JOUT_DEPTH];
} qk_jout;

void qk_jout_init(qk_jout *w, FILE *f, int prec);
/* The bytes buffered so far to the file: done when the document's outer
 * container closes; needed before writing to the file any other way
 * while the document is open. */
void qk_jout_flush(qk_jout *w);
/* Open an object ('{') or array ('['), as a member named key of the
 * enclosing object, or (key NULL) an element of the enclosing array or the
 * document itself. Deeper than QK_JOUT_DEPTH is not supported. */
void qk_jout_open(qk_jout *w, const char *key, char kind);
void qk_jout_close(qk_jout *w, char kind);
void qk_jout_string(qk_jout *w, const char *key, const char *s);
void qk_jout_real(qk_jout *w, const char *key, double v);
void qk_jout_int(qk_jout *w, const char *key, long long v);
void qk_jout_null(qk_jout *w, const char *key);
/* A member name written many times (the measure names of every topic),
 * rendered once: its JSON string and ": ", or (ok 0) a name that is not
 * UTF-8, whose members are left out as with the calls above. 0 when out
 * of memory; qk_jout_key_free releases it. */
typedef struct qk_jout_key {
    char *text;
    size_t len;
    int ok;
} qk_jout_key;
int qk_jout_key_init(qk_jout_key *k, const char *name);
void qk_jout_key_free(qk_jout_key *k);
/* The calls above with a rendered key: the same bytes. */
void qk_jout_string_k(qk_jout *w, const qk_jout_key *k, const char *s);
void qk_jout_real_k(qk_jout *w, const qk_jout_key *k, double v);
void qk_jout_int_k(qk_jout *w, const qk_jout_key *k, long long v);
void qk_jout_null_k(qk_jout *w, const qk_jout_key *k);
/* 1 when s is UTF-8 that jansson takes as a string (no overlong forms,
 * surrogates or code points past U+10FFFF). */
int qk_jout_utf8(const char *s);

#endif
