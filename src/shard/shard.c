/* Parts of a sharded command and their merge (qrelkit/shard.h).
 *
 * The part file is text with length-prefixed byte fields, so payloads may
 * hold any bytes (newlines, tabs) without escaping:
 *
 *   qrelkit-part 1
 *   command LEN\nBYTES\n     kind WORD\n     shard I/N\n     items N\n
 *   seed U64\n (optional)    arg LEN\nBYTES\n (repeated)
 *   input HEX16 LEN\nNAME\n (repeated)
 *   prologue LEN\nBYTES\n    separator LEN\nBYTES\n    epilogue LEN\nBYTES\n
 *   item INDEX LEN\nBYTES\n (repeated, increasing)
 *   end\n
 *
 * The trailing "end" line tells a complete part from a cut-off one. */
#include "qrelkit/shard.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct bytes {
    char *s; /* NUL-terminated copy */
    size_t n;
} bytes;

typedef struct input {
    bytes name;
    uint64_t sum;
} input;

typedef struct item {
    size_t index;
    bytes data;
} item;

struct qk_shard_part {
    bytes command, kind;
    qk_shard_spec spec;
    size_t nitems;
    int has_seed;
    uint64_t seed;
    bytes *args;
    size_t nargs, cargs;
    input *inputs;
    size_t ninputs, cinputs;
    bytes frame[3]; /* prologue, separator, epilogue */
    item *items;
    size_t nheld, cheld;
};

static const char *const frame_key[3] = {"prologue", "separator", "epilogue"};

enum { MAX_SHARDS = 1000000 };

static int bytes_set(bytes *b, const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (!c)
        return -1;
    if (n)
        memcpy(c, s, n);
    c[n] = 0;
    free(b->s);
    b->s = c;
    b->n = n;
    return 0;
}

static int bytes_eq(const bytes *a, const bytes *b)
{
    return a->n == b->n && (a->n == 0 || memcmp(a->s, b->s, a->n) == 0);
}

/* Strict decimal size_t: digits only, no overflow. */
static int parse_size(const char *s, size_t n, size_t *out)
{
    size_t v = 0;
    if (n == 0 || n > 19)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (size_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

qk_status qk_shard_spec_parse(const char *text, qk_shard_spec *s, qk_error *err)
{
    const char *slash = text ? strchr(text, '/') : NULL;
    size_t i, n;
    if (!slash || parse_size(text, (size_t)(slash - text), &i) != 0 ||
        parse_size(slash + 1, strlen(slash + 1), &n) != 0)
        return qk_error_set(err, QK_EUSAGE, "--shard '%s' is not I/N (e.g. 0/4)", text ? text : "");
    if (n < 1 || n > MAX_SHARDS || i >= n)
        return qk_error_set(err, QK_EUSAGE, "--shard '%s': need 0 <= I < N <= %d", text, MAX_SHARDS);
    s->index = i;
    s->count = n;
    return QK_OK;
}

void qk_shard_range(qk_shard_spec s, size_t nitems, size_t *first, size_t *end)
{
    /* 128-bit-free floor(i * N / n): N and n are far below 2^32 in practice,
     * but split the product so it cannot overflow either way. */
    size_t q = nitems / s.count, r = nitems % s.count;
    *first = s.index * q + s.index * r / s.count;
    *end = (s.index + 1) * q + (s.index + 1) * r / s.count;
}

uint64_t qk_shard_checksum(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

qk_status qk_shard_part_new(const char *command, const char *kind, qk_shard_spec s, size_t nitems,
                            qk_shard_part **out, qk_error *err)
{
    qk_shard_part *p = calloc(1, sizeof *p);
    *out = NULL;
    if (s.count < 1 || s.index >= s.count) {
        free(p);
        return qk_error_set(err, QK_EUSAGE, "shard %zu/%zu is not a shard", s.index, s.count);
    }
    if (!p || bytes_set(&p->command, command, strlen(command)) != 0 ||
        bytes_set(&p->kind, kind, strlen(kind)) != 0) {
        qk_shard_part_free(p);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (int k = 0; k < 3; k++)
        if (bytes_set(&p->frame[k], "", 0) != 0) {
            qk_shard_part_free(p);
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
    p->spec = s;
    p->nitems = nitems;
    *out = p;
    return QK_OK;
}

void qk_shard_part_free(qk_shard_part *p)
{
    if (!p)
        return;
    free(p->command.s);
    free(p->kind.s);
    for (size_t i = 0; i < p->nargs; i++)
        free(p->args[i].s);
    free(p->args);
    for (size_t i = 0; i < p->ninputs; i++)
        free(p->inputs[i].name.s);
    free(p->inputs);
    for (int k = 0; k < 3; k++)
        free(p->frame[k].s);
    for (size_t i = 0; i < p->nheld; i++)
        free(p->items[i].data.s);
    free(p->items);
    free(p);
}

/* Room for one more element of an array of `size`-byte elements. */
static int grow(void **a, size_t n, size_t *cap, size_t size)
{
    void *g;
    size_t c;
    if (n < *cap)
        return 0;
    c = *cap ? *cap * 2 : 8;
    if (!(g = realloc(*a, c * size)))
        return -1;
    *a = g;
    *cap = c;
    return 0;
}

static qk_status add_arg(qk_shard_part *p, const char *arg, size_t len)
{
    if (grow((void **)&p->args, p->nargs, &p->cargs, sizeof *p->args) != 0)
        return QK_ENOMEM;
    memset(&p->args[p->nargs], 0, sizeof *p->args);
    if (bytes_set(&p->args[p->nargs], arg, len) != 0)
        return QK_ENOMEM;
    p->nargs++;
    return QK_OK;
}

qk_status qk_shard_part_add_arg(qk_shard_part *p, const char *arg)
{
    return add_arg(p, arg, strlen(arg));
}

static qk_status add_input(qk_shard_part *p, const char *name, size_t len, uint64_t sum)
{
    if (grow((void **)&p->inputs, p->ninputs, &p->cinputs, sizeof *p->inputs) != 0)
        return QK_ENOMEM;
    memset(&p->inputs[p->ninputs], 0, sizeof *p->inputs);
    if (bytes_set(&p->inputs[p->ninputs].name, name, len) != 0)
        return QK_ENOMEM;
    p->inputs[p->ninputs++].sum = sum;
    return QK_OK;
}

qk_status qk_shard_part_add_input(qk_shard_part *p, const char *name, uint64_t checksum)
{
    return add_input(p, name, strlen(name), checksum);
}

void qk_shard_part_set_seed(qk_shard_part *p, uint64_t seed)
{
    p->has_seed = 1;
    p->seed = seed;
}

qk_status qk_shard_part_set_frame(qk_shard_part *p, const char *prologue, size_t plen, const char *sep,
                                  size_t slen, const char *epilogue, size_t elen)
{
    const char *s[3] = {prologue, sep, epilogue};
    size_t n[3] = {plen, slen, elen};
    for (int k = 0; k < 3; k++)
        if (bytes_set(&p->frame[k], s[k] ? s[k] : "", s[k] ? n[k] : 0) != 0)
            return QK_ENOMEM;
    return QK_OK;
}

static qk_status add_item(qk_shard_part *p, size_t index, const char *data, size_t len, const char *name,
                          qk_error *err)
{
    size_t first, end;
    qk_shard_range(p->spec, p->nitems, &first, &end);
    if (index < first || index >= end)
        return qk_error_set(err, QK_EINPUT, "%s%s%sitem %zu is outside shard %zu/%zu (items %zu to %zu)",
                            name ? "'" : "", name ? name : "", name ? "': " : "", index, p->spec.index,
                            p->spec.count, first, end);
    if (p->nheld && index <= p->items[p->nheld - 1].index)
        return qk_error_set(err, QK_EINPUT, "%s%s%sitem %zu is out of order or repeated", name ? "'" : "",
                            name ? name : "", name ? "': " : "", index);
    if (grow((void **)&p->items, p->nheld, &p->cheld, sizeof *p->items) != 0)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    memset(&p->items[p->nheld], 0, sizeof *p->items);
    if (bytes_set(&p->items[p->nheld].data, data, len) != 0)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    p->items[p->nheld++].index = index;
    return QK_OK;
}

qk_status qk_shard_part_add_item(qk_shard_part *p, size_t index, const char *data, size_t len, qk_error *err)
{
    return add_item(p, index, data, len, NULL, err);
}

static int put_field(FILE *f, const char *key, const bytes *b)
{
    return fprintf(f, "%s %zu\n", key, b->n) < 0 || fwrite(b->s, 1, b->n, f) != b->n || fputc('\n', f) == EOF;
}

qk_status qk_shard_part_write(const qk_shard_part *p, FILE *f, qk_error *err)
{
    int bad = fprintf(f, "qrelkit-part 1\n") < 0 || put_field(f, "command", &p->command) ||
              fprintf(f, "kind %s\nshard %zu/%zu\nitems %zu\n", p->kind.s, p->spec.index, p->spec.count,
                      p->nitems) < 0;
    if (!bad && p->has_seed)
        bad = fprintf(f, "seed %" PRIu64 "\n", p->seed) < 0;
    for (size_t i = 0; !bad && i < p->nargs; i++)
        bad = put_field(f, "arg", &p->args[i]);
    for (size_t i = 0; !bad && i < p->ninputs; i++)
        bad = fprintf(f, "input %016" PRIx64 " %zu\n", p->inputs[i].sum, p->inputs[i].name.n) < 0 ||
              fwrite(p->inputs[i].name.s, 1, p->inputs[i].name.n, f) != p->inputs[i].name.n ||
              fputc('\n', f) == EOF;
    for (int k = 0; !bad && k < 3; k++)
        bad = put_field(f, frame_key[k], &p->frame[k]);
    for (size_t i = 0; !bad && i < p->nheld; i++) {
        char key[64];
        snprintf(key, sizeof key, "item %zu", p->items[i].index);
        bad = put_field(f, key, &p->items[i].data);
    }
    if (bad || fprintf(f, "end\n") < 0 || ferror(f))
        return qk_error_set(err, QK_EIO, "cannot write the part: %s", strerror(errno));
    return QK_OK;
}

/* ---- parsing ---- */

typedef struct cursor {
    const char *s, *end, *name;
    long line;
    qk_error *err;
} cursor;

static qk_status bad(cursor *c, const char *what)
{
    return qk_error_at(c->err, QK_EINPUT, c->name, c->line, 0, "%s", what);
}

/* The next line (without its newline) into [*ls, *ls + *ln). */
static int next_line(cursor *c, const char **ls, size_t *ln)
{
    const char *nl;
    if (c->s >= c->end)
        return -1;
    nl = memchr(c->s, '\n', (size_t)(c->end - c->s));
    if (!nl)
        return -1;
    *ls = c->s;
    *ln = (size_t)(nl - c->s);
    c->s = nl + 1;
    c->line++;
    return 0;
}

/* n payload bytes and their closing newline. */
static int take_bytes(cursor *c, size_t n, const char **b)
{
    if ((size_t)(c->end - c->s) < n + 1 || c->s[n] != '\n')
        return -1;
    *b = c->s;
    for (size_t i = 0; i < n; i++)
        c->line += c->s[i] == '\n';
    c->s += n + 1;
    c->line++;
    return 0;
}

/* Split "key rest" at the last space: the length field. */
static int last_word(const char *ls, size_t ln, size_t *lenpos)
{
    for (size_t i = ln; i > 0; i--)
        if (ls[i - 1] == ' ') {
            *lenpos = i;
            return 0;
        }
    return -1;
}

static int starts(const char *ls, size_t ln, const char *key)
{
    size_t k = strlen(key);
    return ln > k && memcmp(ls, key, k) == 0 && ls[k] == ' ';
}

static qk_status parse_line(cursor *c, qk_shard_part *p, const char *ls, size_t ln, int *done)
{
    size_t lp, len, v;
    const char *b;
    if (ln == 3 && memcmp(ls, "end", 3) == 0) {
        *done = 1;
        return QK_OK;
    }
    /* command and kind are strings to the accessors, the merge and the
     * writer: a NUL byte would cut them short there */
    if (starts(ls, ln, "kind"))
        return memchr(ls + 5, 0, ln - 5)             ? bad(c, "bad kind line")
               : bytes_set(&p->kind, ls + 5, ln - 5) ? QK_ENOMEM
                                                     : QK_OK;
    if (starts(ls, ln, "shard")) {
        char buf[48];
        qk_shard_spec s;
        if (ln - 6 >= sizeof buf)
            return bad(c, "bad shard line");
        memcpy(buf, ls + 6, ln - 6);
        buf[ln - 6] = 0;
        if (qk_shard_spec_parse(buf, &s, NULL) != QK_OK)
            return bad(c, "bad shard line");
        p->spec = s;
        return QK_OK;
    }
    if (starts(ls, ln, "items"))
        return parse_size(ls + 6, ln - 6, &p->nitems) ? bad(c, "bad items line") : QK_OK;
    if (starts(ls, ln, "seed")) {
        char buf[32], *e;
        if (ln - 5 >= sizeof buf || ln == 5)
            return bad(c, "bad seed line");
        memcpy(buf, ls + 5, ln - 5);
        buf[ln - 5] = 0;
        errno = 0;
        p->seed = strtoull(buf, &e, 10);
        if (*e || errno || buf[0] < '0' || buf[0] > '9')
            return bad(c, "bad seed line");
        p->has_seed = 1;
        return QK_OK;
    }
    /* the length-prefixed fields */
    if (last_word(ls, ln, &lp) != 0 || parse_size(ls + lp, ln - lp, &len) != 0 || take_bytes(c, len, &b) != 0)
        return bad(c, "unknown or cut-off line");
    if (starts(ls, ln, "command") && lp == 8)
        return memchr(b, 0, len)                ? bad(c, "bad command line")
               : bytes_set(&p->command, b, len) ? QK_ENOMEM
                                                : QK_OK;
    if (starts(ls, ln, "arg") && lp == 4)
        return add_arg(p, b, len);
    for (int k = 0; k < 3; k++)
        if (starts(ls, ln, frame_key[k]) && lp == strlen(frame_key[k]) + 1)
            return bytes_set(&p->frame[k], b, len) ? QK_ENOMEM : QK_OK;
    if (starts(ls, ln, "input") && lp == 6 + 16 + 1) {
        uint64_t sum = 0;
        for (size_t i = 6; i < 22; i++) {
            int d = ls[i] >= '0' && ls[i] <= '9'   ? ls[i] - '0'
                    : ls[i] >= 'a' && ls[i] <= 'f' ? ls[i] - 'a' + 10
                                                   : -1;
            if (d < 0)
                return bad(c, "bad input checksum");
            sum = sum << 4 | (uint64_t)d;
        }
        return add_input(p, b, len, sum);
    }
    if (starts(ls, ln, "item") && lp > 5 && parse_size(ls + 5, lp - 6, &v) == 0)
        return add_item(p, v, b, len, c->name, c->err);
    return bad(c, "unknown line");
}

qk_status qk_shard_part_parse(const char *data, size_t len, const char *name, qk_shard_part **out,
                              qk_error *err)
{
    cursor c = {data, data + len, name, 0, err};
    qk_shard_part *p = NULL;
    qk_shard_spec s0 = {0, 1};
    const char *ls;
    size_t ln;
    int done = 0;
    qk_status st;
    *out = NULL;
    if (next_line(&c, &ls, &ln) != 0 || ln != 14 || memcmp(ls, "qrelkit-part 1", 14) != 0)
        return qk_error_set(err, QK_EINPUT, "'%s' is not a qrelkit part file (written by --shard I/N)", name);
    if ((st = qk_shard_part_new("", "concat", s0, 0, &p, err)) != QK_OK)
        return st;
    while (!done) {
        if (next_line(&c, &ls, &ln) != 0) {
            st = qk_error_set(err, QK_EINPUT, "'%s' is cut off (no 'end' line)", name);
            break;
        }
        /* items are checked against the shard and count, which come first */
        if ((st = parse_line(&c, p, ls, ln, &done)) != QK_OK) {
            if (st == QK_ENOMEM)
                qk_error_set(err, st, "out of memory");
            break;
        }
    }
    if (st == QK_OK && c.s != c.end)
        st = qk_error_at(err, QK_EINPUT, name, c.line + 1, 0, "text after the 'end' line");
    if (st == QK_OK && p->command.n == 0)
        st = qk_error_set(err, QK_EINPUT, "'%s' names no command", name);
    if (st == QK_OK) {
        size_t first, end;
        qk_shard_range(p->spec, p->nitems, &first, &end);
        if (p->nheld != end - first)
            st = qk_error_set(err, QK_EINPUT, "'%s' holds %zu of the %zu items of shard %zu/%zu", name,
                              p->nheld, end - first, p->spec.index, p->spec.count);
        /* items were checked against the shard and count seen so far: a
         * later shard or items line may move the range away from them
         * (they increase, so the first one settles it) */
        else if (p->nheld && p->items[0].index != first)
            st = qk_error_set(err, QK_EINPUT, "'%s': item %zu is outside shard %zu/%zu (items %zu to %zu)",
                              name, p->items[0].index, p->spec.index, p->spec.count, first, end - 1);
    }
    if (st != QK_OK) {
        qk_shard_part_free(p);
        return st;
    }
    *out = p;
    return QK_OK;
}

/* ---- accessors ---- */

const char *qk_shard_part_command(const qk_shard_part *p)
{
    return p->command.s;
}
const char *qk_shard_part_kind(const qk_shard_part *p)
{
    return p->kind.s;
}
qk_shard_spec qk_shard_part_spec(const qk_shard_part *p)
{
    return p->spec;
}
size_t qk_shard_part_num_args(const qk_shard_part *p)
{
    return p->nargs;
}
const char *qk_shard_part_arg(const qk_shard_part *p, size_t i)
{
    return i < p->nargs ? p->args[i].s : NULL;
}
int qk_shard_part_has_seed(const qk_shard_part *p)
{
    return p->has_seed;
}
uint64_t qk_shard_part_seed(const qk_shard_part *p)
{
    return p->seed;
}
size_t qk_shard_part_num_items(const qk_shard_part *p)
{
    return p->nitems;
}
size_t qk_shard_part_num_held(const qk_shard_part *p)
{
    return p->nheld;
}

const char *qk_shard_part_item(const qk_shard_part *p, size_t k, size_t *index, size_t *len)
{
    if (k >= p->nheld)
        return NULL;
    if (index)
        *index = p->items[k].index;
    if (len)
        *len = p->items[k].data.n;
    return p->items[k].data.s;
}

const char *qk_shard_part_prologue(const qk_shard_part *p, size_t *len)
{
    if (len)
        *len = p->frame[0].n;
    return p->frame[0].s;
}

size_t qk_shard_part_num_inputs(const qk_shard_part *p)
{
    return p->ninputs;
}

const char *qk_shard_part_input(const qk_shard_part *p, size_t i, uint64_t *checksum)
{
    if (i >= p->ninputs)
        return NULL;
    if (checksum)
        *checksum = p->inputs[i].sum;
    return p->inputs[i].name.s;
}

/* ---- merge ---- */

/* Why b is not part of the same work as a, or NULL. */
static const char *differs(const qk_shard_part *a, const qk_shard_part *b)
{
    if (!bytes_eq(&a->command, &b->command))
        return "the command differs";
    if (a->spec.count != b->spec.count)
        return "the shard count differs";
    if (a->has_seed != b->has_seed || a->seed != b->seed)
        return "the seed differs";
    if (a->ninputs != b->ninputs)
        return "the inputs differ";
    for (size_t i = 0; i < a->ninputs; i++)
        if (a->inputs[i].sum != b->inputs[i].sum)
            return "the inputs differ";
    if (a->nargs != b->nargs)
        return "the arguments differ";
    for (size_t i = 0; i < a->nargs; i++)
        if (!bytes_eq(&a->args[i], &b->args[i]))
            return "the arguments differ";
    /* the kind follows from the arguments (eval: by run or by topic) */
    if (!bytes_eq(&a->kind, &b->kind))
        return "the merge kind differs";
    if (a->nitems != b->nitems)
        return "the number of items differs";
    for (int k = 0; k < 3; k++)
        if (!bytes_eq(&a->frame[k], &b->frame[k]))
            return "the output frame differs";
    return NULL;
}

/* The first input whose checksum differs (for the message), or NULL. */
static const char *input_named(const qk_shard_part *a, const qk_shard_part *b)
{
    for (size_t i = 0; i < a->ninputs && i < b->ninputs; i++)
        if (a->inputs[i].sum != b->inputs[i].sum)
            return b->inputs[i].name.s;
    return NULL;
}

qk_status qk_shard_merge(const qk_shard_part *const *parts, const char *const *names, size_t nparts,
                         qk_shard_part **merged, qk_error *err)
{
    const qk_shard_part *a;
    const qk_shard_part **by = NULL;
    qk_shard_part *m = NULL;
    qk_shard_spec one = {0, 1};
    size_t n;
    qk_status st = QK_OK;
    *merged = NULL;
    if (nparts == 0)
        return qk_error_set(err, QK_EUSAGE, "no parts to merge");
    a = parts[0];
    n = a->spec.count;
    for (size_t k = 1; k < nparts; k++) {
        const char *why = differs(a, parts[k]), *in;
        if (!why)
            continue;
        in = input_named(a, parts[k]);
        if (in && strcmp(why, "the inputs differ") == 0)
            return qk_error_set(err, QK_EINPUT, "'%s' is not from the same work as '%s': input '%s' differs",
                                names[k], names[0], in);
        return qk_error_set(err, QK_EINPUT, "'%s' is not from the same work as '%s': %s", names[k], names[0],
                            why);
    }
    if (!(by = calloc(n, sizeof *by)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t k = 0; k < nparts; k++) {
        size_t i = parts[k]->spec.index;
        if (by[i]) {
            size_t j = 0;
            while (parts[j] != by[i])
                j++;
            st = qk_error_set(err, QK_EINPUT, "'%s' and '%s' are both shard %zu/%zu", names[j], names[k], i,
                              n);
            goto out;
        }
        by[i] = parts[k];
    }
    for (size_t i = 0; i < n; i++)
        if (!by[i]) {
            st = qk_error_set(err, QK_EINPUT, "shard %zu/%zu is missing (%zu of %zu parts given)", i, n,
                              nparts, n);
            goto out;
        }
    if ((st = qk_shard_part_new(a->command.s, a->kind.s, one, a->nitems, &m, err)) != QK_OK)
        goto out;
    if (a->has_seed)
        qk_shard_part_set_seed(m, a->seed);
    for (size_t i = 0; st == QK_OK && i < a->nargs; i++)
        st = add_arg(m, a->args[i].s, a->args[i].n);
    for (size_t i = 0; st == QK_OK && i < a->ninputs; i++)
        st = add_input(m, a->inputs[i].name.s, a->inputs[i].name.n, a->inputs[i].sum);
    if (st == QK_OK)
        st = qk_shard_part_set_frame(m, a->frame[0].s, a->frame[0].n, a->frame[1].s, a->frame[1].n,
                                     a->frame[2].s, a->frame[2].n);
    if (st != QK_OK) {
        st = qk_error_set(err, st, "out of memory");
        goto out;
    }
    for (size_t i = 0; st == QK_OK && i < n; i++)
        for (size_t k = 0; st == QK_OK && k < by[i]->nheld; k++)
            st =
                add_item(m, by[i]->items[k].index, by[i]->items[k].data.s, by[i]->items[k].data.n, NULL, err);
out:
    free(by);
    if (st != QK_OK) {
        qk_shard_part_free(m);
        return st;
    }
    *merged = m;
    return QK_OK;
}

qk_status qk_shard_write_concat(const qk_shard_part *m, FILE *f, qk_error *err)
{
    int bad_write;
    if (strcmp(m->kind.s, "concat") != 0)
        return qk_error_set(err, QK_EUSAGE, "parts of kind '%s' are merged by their command", m->kind.s);
    bad_write = fwrite(m->frame[0].s, 1, m->frame[0].n, f) != m->frame[0].n;
    for (size_t i = 0; !bad_write && i < m->nheld; i++)
        bad_write = (i && fwrite(m->frame[1].s, 1, m->frame[1].n, f) != m->frame[1].n) ||
                    fwrite(m->items[i].data.s, 1, m->items[i].data.n, f) != m->items[i].data.n;
    if (bad_write || fwrite(m->frame[2].s, 1, m->frame[2].n, f) != m->frame[2].n || ferror(f))
        return qk_error_set(err, QK_EIO, "cannot write the merged output: %s", strerror(errno));
    return QK_OK;
}
