/* Tokeniser internals shared with the index builder and the tests. Not
 * installed. */
#ifndef QK_TEXT_INTERNAL_H
#define QK_TEXT_INTERNAL_H

#include "qrelkit/text.h"

/* qk_text_tokens hands each token in a buffer that can be read for
 * QK_TEXT_TOKEN_SLACK bytes past the token's NUL (their values are
 * unspecified), so a caller may load the token as whole 8-byte words and
 * mask off what lies beyond its length. */
#define QK_TEXT_TOKEN_SLACK 16

/* The tokeniser one byte at a time: what qk_text_tokens must equal (it
 * takes runs of ASCII letters and digits 16 bytes at a time). For tests. */
int qk_text_tokens_ref(const qk_text_opts *o, const char *text, size_t len, qk_text_term_fn fn, void *ctx);

#endif
