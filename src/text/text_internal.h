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

/* qk_text_tokens with a callback that may also be handed the token's
 * first 16 bytes as two words, zero past its end (w[0] holds bytes 0-7 in
 * memory order), when the tokeniser has them in a register: a token cut
 * from one 16-byte block. w is NULL otherwise (the token was put together
 * from several pieces), and the caller reads the token's bytes instead.
 * Loading the words from the token's buffer would wait for the stores
 * that made it and its NUL to reach the cache. */
typedef int (*qk_text_word_fn)(void *ctx, const char *tok, size_t len, const uint64_t *w);
int qk_text_tokens_words(const qk_text_opts *o, const char *text, size_t len, qk_text_word_fn fn, void *ctx);

/* The tokeniser one byte at a time: what qk_text_tokens must equal (it
 * takes runs of ASCII letters and digits 16 bytes at a time). For tests. */
int qk_text_tokens_ref(const qk_text_opts *o, const char *text, size_t len, qk_text_term_fn fn, void *ctx);

#endif
