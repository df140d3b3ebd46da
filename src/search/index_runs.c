/* Spilled runs: reading them term by term (for the final merge, index_write.c)
 * and merging groups of them into longer runs when there are more than the
 * final merge should open at once. A run lists its terms in strcmp order,
 * each as varints (term length, df, cf, postings bytes), the term, then the
 * postings: (doc gap, tf) pairs, the first gap from 0. Runs are in document
 * order, so a term's postings in a merged run are those of each run in turn,
 * only the first document of each after the first re-encoded as a gap. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search/build_internal.h"

static int read_varint(FILE *f, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        int c = getc(f);
        if (c == EOF)
            return -1;
        x |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* How many terms ahead a segment source asks for a term's tables. */
enum { SRC_AHEAD = 16 };

int qk_build_src_next(qk_index_builder *b, qk_build_src *s)
{
    if (!s->f) {
        if (s->i == s->n) {
            s->done = 1;
            return 0;
        }
        /* Terms in strcmp order land anywhere in the segment's tables:
         * ask for the list entry SRC_AHEAD terms ahead, and for the
         * postings and string of the term half as far ahead (their
         * addresses are in that entry and the pool's offsets), so the
         * misses of the terms to come overlap with this one's copy. */
        if (s->i + SRC_AHEAD < s->n)
            __builtin_prefetch(&b->pl[s->ids[s->i + SRC_AHEAD]]);
        if (s->i + SRC_AHEAD / 2 < s->n) {
            uint32_t ahead = s->ids[s->i + SRC_AHEAD / 2];
            __builtin_prefetch(b->pl[ahead].buf);
            __builtin_prefetch(qk_strpool_str(b->terms, ahead));
        }
        uint32_t id = s->ids[s->i++];
        const qk_plist *pl = &b->pl[id];
        s->term = (char *)qk_strpool_str(b->terms, id);
        s->df = pl->df;
        s->cf = pl->cf;
        s->pp = pl->buf;
        s->plen = pl->len;
        return 0;
    }
    uint64_t len, df, cf, plen;
    int c = getc(s->f);
    if (c == EOF) {
        s->done = 1;
        return ferror(s->f) ? -1 : 0;
    }
    ungetc(c, s->f);
    if (read_varint(s->f, &len) || read_varint(s->f, &df) || read_varint(s->f, &cf) ||
        read_varint(s->f, &plen) || qk_grow((void **)&s->term, &s->term_cap, len + 1, 1) != QK_OK ||
        qk_grow((void **)&s->post, &s->post_cap, plen + 1, 1) != QK_OK ||
        fread(s->term, 1, len, s->f) != len || fread(s->post, 1, plen, s->f) != plen)
        return -1;
    s->term[len] = '\0';
    s->df = (uint32_t)df;
    s->cf = cf;
    s->pp = s->post;
    s->plen = plen;
    return 0;
}

int qk_build_put_varint(FILE *f, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = qk_varint_put(tmp, v);
    return fwrite(tmp, 1, n, f) == n ? 0 : -1;
}

qk_status qk_build_run_create(qk_index_builder *b, char **path, FILE **f, qk_error *err)
{
    int fd;
    *f = NULL;
    if (!(*path = malloc(strlen(b->run_dir) + 48)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    sprintf(*path, "%s/.qkrun-%ld-XXXXXX", b->run_dir, (long)getpid());
    if ((fd = qk_temp_create(*path, 1)) < 0 || !(*f = fdopen(fd, "wb"))) {
        qk_status st = qk_error_set(err, QK_EIO, "cannot create a temporary run in '%s': %s", b->run_dir,
                                    strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(*path);
            qk_temp_note(*path, 0);
        }
        free(*path);
        *path = NULL;
        return st;
    }
    return QK_OK;
}

/* The postings bytes of s with its first gap made relative to *last (when
 * not *first), appended to out; *last becomes its last document. */
static int append_postings(const qk_build_src *s, uint8_t **out, size_t *len, size_t *cap, uint64_t *last,
                           int *first)
{
    const uint8_t *p = s->pp, *end = s->pp + s->plen, *rest;
    uint64_t gap, tf, doc;
    uint8_t tmp[20];
    size_t n;
    if (!qk_varint_get(&p, end, &gap) || !qk_varint_get(&p, end, &tf))
        return -1;
    rest = p;
    doc = gap;
    if (!*first && doc <= *last)
        return -1;
    n = qk_varint_put(tmp, *first ? doc : doc - *last);
    n += qk_varint_put(tmp + n, tf);
    if (qk_grow((void **)out, cap, *len + n + (size_t)(end - rest), 1) != QK_OK)
        return -1;
    memcpy(*out + *len, tmp, n);
    memcpy(*out + *len + n, rest, (size_t)(end - rest));
    *len += n + (size_t)(end - rest);
    while (p < end) { /* the last document */
        if (!qk_varint_get(&p, end, &gap) || !qk_varint_get(&p, end, &tf))
            return -1;
        doc += gap;
    }
    *last = doc;
    *first = 0;
    return 0;
}

/* Merge runs paths[0..k) (in document order) into a new run; *out its path. */
static qk_status merge_group(qk_index_builder *b, char **paths, size_t k, char **out, qk_error *err)
{
    qk_build_src *src = calloc(k, sizeof *src);
    uint8_t *post = NULL;
    char *term = NULL;
    size_t post_cap = 0, term_cap = 0;
    FILE *f = NULL;
    qk_status st = QK_OK;
    *out = NULL;
    if (!src) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < k; i++)
        if (!(src[i].f = fopen(paths[i], "rb")) || qk_build_src_next(b, &src[i]) != 0) {
            st = qk_error_set(err, QK_EIO, "cannot read a temporary run in '%s': %s", b->run_dir,
                              errno ? strerror(errno) : "truncated");
            goto out;
        }
    if ((st = qk_build_run_create(b, out, &f, err)) != QK_OK)
        goto out;
    for (;;) {
        const char *min = NULL;
        uint64_t df = 0, cf = 0, last = 0;
        size_t len = 0, tlen;
        int first = 1;
        for (size_t i = 0; i < k; i++)
            if (!src[i].done && (!min || strcmp(src[i].term, min) < 0))
                min = src[i].term;
        if (!min)
            break;
        /* a copy: the runs holding the term are advanced below */
        tlen = strlen(min);
        if (qk_grow((void **)&term, &term_cap, tlen + 1, 1) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        memcpy(term, min, tlen + 1);
        for (size_t i = 0; i < k; i++)
            // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): a live source has a term
            if (!src[i].done && strcmp(src[i].term, term) == 0) {
                if (append_postings(&src[i], &post, &len, &post_cap, &last, &first) != 0) {
                    st = qk_error_set(err, QK_EINTERNAL, "index merge: inconsistent postings for term '%s'",
                                      term);
                    goto out;
                }
                df += src[i].df;
                cf += src[i].cf;
            }
        if (qk_build_put_varint(f, tlen) || qk_build_put_varint(f, df) || qk_build_put_varint(f, cf) ||
            qk_build_put_varint(f, len) || fwrite(term, 1, tlen, f) != tlen ||
            fwrite(post, 1, len, f) != len) {
            st = qk_error_set(err, QK_EIO, "cannot write a temporary run in '%s': %s", b->run_dir,
                              strerror(errno));
            goto out;
        }
        for (size_t i = 0; i < k; i++)
            if (!src[i].done && strcmp(src[i].term, term) == 0 && qk_build_src_next(b, &src[i]) != 0) {
                st = qk_error_set(err, QK_EIO, "cannot read a temporary run in '%s'", b->run_dir);
                goto out;
            }
    }
    if (fclose(f) != 0) {
        f = NULL;
        st = qk_error_set(err, QK_EIO, "cannot write a temporary run in '%s': %s", b->run_dir,
                          strerror(errno));
        goto out;
    }
    f = NULL;
out:
    if (f)
        fclose(f);
    if (st != QK_OK && *out) {
        unlink(*out);
        qk_temp_note(*out, 0);
        free(*out);
        *out = NULL;
    }
    for (size_t i = 0; src && i < k; i++) {
        if (src[i].f)
            fclose(src[i].f);
        free(src[i].term);
        free(src[i].post);
    }
    free(src);
    free(post);
    free(term);
    return st;
}

qk_status qk_build_compact_runs(qk_index_builder *b, qk_error *err)
{
    size_t fan = b->o.max_open_runs;
    while (b->nruns > fan) {
        size_t n = 0; /* run_paths[0..n): this pass's runs; [g..nruns): still to merge */
        for (size_t g = 0; g < b->nruns; g += fan) {
            size_t k = b->nruns - g < fan ? b->nruns - g : fan;
            char *merged = NULL;
            qk_status st = k == 1 ? QK_OK : merge_group(b, b->run_paths + g, k, &merged, err);
            if (st != QK_OK) {
                /* close the gap, so the builder removes every run left */
                memmove(b->run_paths + n, b->run_paths + g, (b->nruns - g) * sizeof *b->run_paths);
                memmove(b->run_level + n, b->run_level + g, b->nruns - g);
                b->nruns = n + (b->nruns - g);
                return st;
            }
            if (k == 1) {
                merged = b->run_paths[g];
            } else {
                for (size_t i = g; i < g + k; i++) {
                    unlink(b->run_paths[i]);
                    qk_temp_note(b->run_paths[i], 0);
                    free(b->run_paths[i]);
                }
            }
            b->run_level[n] = b->run_level[g];
            b->run_paths[n++] = merged;
        }
        b->nruns = n;
    }
    return QK_OK;
}

qk_status qk_build_runs_settle(qk_index_builder *b, qk_error *err)
{
    size_t fan = b->o.max_open_runs < QK_BUILD_LIVE_FAN ? b->o.max_open_runs : QK_BUILD_LIVE_FAN;
    for (;;) {
        size_t k = 0, g;
        unsigned char level;
        char *merged = NULL;
        qk_status st;
        if (b->nruns < fan)
            return QK_OK;
        level = b->run_level[b->nruns - 1];
        while (k < b->nruns && b->run_level[b->nruns - 1 - k] == level)
            k++;
        if (k < fan)
            return QK_OK;
        g = b->nruns - k;
        if ((st = merge_group(b, b->run_paths + g, k, &merged, err)) != QK_OK)
            return st; /* the runs stay listed; the builder removes them */
        for (size_t i = g; i < b->nruns; i++) {
            unlink(b->run_paths[i]);
            qk_temp_note(b->run_paths[i], 0);
            free(b->run_paths[i]);
        }
        b->run_paths[g] = merged;
        b->run_level[g] = (unsigned char)(level < UCHAR_MAX ? level + 1 : level);
        b->nruns = g + 1;
    }
}
