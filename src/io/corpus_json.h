/* The fast JSON-lines scanner of the corpus reader (corpus_json.c): checks
 * a line the way jansson would accept it and finds an object's members in
 * place, so most lines are read without building a json_t. Internal to io. */
#ifndef QK_IO_CORPUS_JSON_H
#define QK_IO_CORPUS_JSON_H
#include <stddef.h>

#define QK_FJ_MAX_MEMBERS 64
#define QK_FJ_MAX_DEPTH 32

typedef struct {
    const char *key, *val; /* val: a string's bytes, else the value's text */
    size_t klen, vlen;
    char type; /* 's' string, 'a' array, 'o' other */
    char esc;  /* a string with escapes: val is its text in the line, undecoded */
} qk_fj_member;

/* Past blanks (space, tab, newline, CR) from p. */
const char *qk_fj_ws(const char *p, const char *end);
/* The escape at p (on '\\'): its bytes in out (UTF-8, at most 4), their
 * count in *olen; returns the escape's length in the line, 0 for one that
 * jansson rejects or that is left to it (\u0000, a lone surrogate). */
size_t qk_fj_escape(const unsigned char *p, const unsigned char *end, char out[4], size_t *olen);
/* A string at p (on '"'): its bytes in the line, *esc when it has escapes;
 * the position after the closing quote, NULL if it is not a valid string. */
const char *qk_fj_string(const char *p, const char *end, const char **s, size_t *n, char *esc);
/* Any value at p (no white space before it): the position after it, NULL
 * if it is not one the fast path takes; depth counts enclosing containers. */
const char *qk_fj_value(const char *p, const char *end, int depth);
/* The members of the object on line[0..len), in order, into m (room for
 * QK_FJ_MAX_MEMBERS); their count, or -1 to leave the line to jansson. */
int qk_fj_object(const char *line, size_t len, qk_fj_member *m);
/* The member named key, NULL if none. */
const qk_fj_member *qk_fj_get(const qk_fj_member *m, int n, const char *key);

#endif
