/* Fuzz the parsers of sharded work (qrelkit/shard.h, budget.h). Byte 0 sets
 * how many numbers a record holds (bits 0-2: 1..8) and how many rows a
 * budget record has (bits 3-4: 0..3). Every parser reads the rest:
 *   its first line as an --shard spec (qk_shard_spec_parse), then the
 *   ranges of that spec; the whole text as a record of numbers
 *   (qk_shard_record_parse) and a budget-simulation record
 *   (qk_budget_sim_record_parse); as a "budgets" counts line and a "runs"
 *   names line (qk_shard_counts_parse, qk_shard_names_parse); and, split
 *   at lines "====", as up to three part files (qk_shard_part_parse),
 *   merged when all of them read (qk_shard_merge).
 * What a parser accepts must survive its writer unchanged, and a part must
 * hold exactly the items of its shard. */
#include <math.h>

#include "fuzz_util.h"
#include "qrelkit/budget.h"
#include "qrelkit/shard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_NUMBERS = 8, MAX_PARTS = 3 };

/* Shard s of nitems: a block inside [0, nitems) that starts where shard
 * s.index - 1 ends and ends where s.index + 1 starts, floor or ceiling of
 * nitems / count long. */
static void check_range(qk_shard_spec s, size_t nitems)
{
    size_t first, end, f2, e2, q = nitems / s.count;
    qk_shard_range(s, nitems, &first, &end);
    if (first > end || end > nitems || (end - first != q && end - first != q + 1))
        abort();
    if ((s.index == 0 && first != 0) || (s.index + 1 == s.count && end != nitems))
        abort(); /* the shards tile [0, nitems) */
    if (s.index + 1 < s.count) {
        qk_shard_spec next = {s.index + 1, s.count};
        qk_shard_range(next, nitems, &f2, &e2);
        if (f2 != end)
            abort();
    }
    if (s.index > 0) {
        qk_shard_spec prev = {s.index - 1, s.count};
        qk_shard_range(prev, nitems, &f2, &e2);
        if (e2 != first)
            abort();
    }
}

static void fuzz_spec(const char *text, const uint8_t *data, size_t size)
{
    size_t n = strcspn(text, "\n");
    char *line = strndup(text, n), buf[64];
    qk_shard_spec s, again;
    qk_error err = {0};
    if (!line)
        abort();
    qk_error_clear(&err);
    if (qk_shard_spec_parse(line, &s, &err) != QK_OK) {
        if (!err.message[0])
            abort();
        free(line);
        return;
    }
    if (strspn(line, "0123456789/") != n || s.index >= s.count || s.count > 1000000)
        abort(); /* strictly I/N, 0 <= I < N <= 1000000 */
    snprintf(buf, sizeof buf, "%zu/%zu", s.index, s.count);
    if (qk_shard_spec_parse(buf, &again, &err) != QK_OK || again.index != s.index || again.count != s.count)
        abort();
    {
        size_t nitems[] = {0,          1, 7, s.count - 1, s.count, s.count + 1, 1000003, (size_t)-1 / 2,
                           (size_t)-1, 0};
        for (size_t k = 0; k < size && k < sizeof nitems[0]; k++)
            nitems[9] = nitems[9] << 8 | data[k];
        for (size_t k = 0; k < sizeof nitems / sizeof *nitems; k++)
            check_range(s, nitems[k]);
    }
    free(line);
}

/* A record of k numbers: written again it reads as the same doubles and
 * the same text. */
static void fuzz_record(const char *text, size_t len, size_t k)
{
    double v[MAX_NUMBERS], w[MAX_NUMBERS];
    const char *rest = NULL;
    char *out = NULL, *out2 = NULL;
    size_t olen, olen2;
    qk_error err = {0};
    int whole = qk_shard_record_parse(text, len, v, k, NULL);
    if (qk_shard_record_parse(text, len, w, k, &rest) != 0) {
        if (whole == 0)
            abort(); /* a whole record is also a record with a rest */
        return;
    }
    if (rest < text || rest > text + len || (whole == 0) != (rest == text + len))
        abort();
    if (whole != 0)
        return;
    if (qk_shard_record_format(v, k, &out, &olen, &err) != QK_OK || strlen(out) != olen)
        abort();
    if (qk_shard_record_parse(out, olen, w, k, NULL) != 0)
        abort(); /* the writer's record must read */
    for (size_t i = 0; i < k; i++)
        if (!qk_fuzz_same_double(v[i], w[i]))
            abort();
    if (qk_shard_record_format(w, k, &out2, &olen2, &err) != QK_OK || olen2 != olen || strcmp(out, out2) != 0)
        abort();
    free(out);
    free(out2);
}

static void fuzz_budget_record(const char *text, size_t len, size_t nrows)
{
    double v[16], w[16];
    char *out = NULL, *out2 = NULL;
    qk_error err = {0};
    qk_error_clear(&err);
    if (qk_budget_sim_record_parse(text, len, nrows, 5, v, &err) != QK_OK) {
        if (!err.message[0])
            abort();
        return;
    }
    if (qk_budget_sim_record_write(v, nrows, &out, &err) != QK_OK)
        abort();
    if (qk_budget_sim_record_parse(out, strlen(out), nrows, 5, w, &err) != QK_OK)
        abort(); /* the writer's record must read */
    for (size_t i = 0; i < nrows * 4; i++)
        if (!qk_fuzz_same_double(v[i], w[i]))
            abort();
    if (qk_budget_sim_record_write(w, nrows, &out2, &err) != QK_OK || strcmp(out, out2) != 0)
        abort();
    free(out);
    free(out2);
}

/* A "budgets" line of k counts: each count is the decimal number the line
 * says (leading zeros aside), and the writer's line reads the same. */
static void fuzz_counts(const char *text, size_t k)
{
    size_t v[MAX_NUMBERS], w[MAX_NUMBERS], len;
    const char *s = text, *p = text + strlen("budgets");
    char *out = NULL, num[32];
    if (qk_shard_counts_parse(&s, "budgets", v, k) != 0) {
        if (s != text)
            abort(); /* a failure does not move the cursor */
        return;
    }
    for (size_t i = 0; i < k; i++) {
        size_t dl;
        if (*p++ != ' ')
            abort();
        while (*p == '0' && p[1] >= '0' && p[1] <= '9')
            p++;
        dl = strspn(p, "0123456789");
        snprintf(num, sizeof num, "%zu", v[i]);
        if (dl != strlen(num) || memcmp(p, num, dl) != 0)
            abort(); /* the count is not what the line says */
        p += dl;
    }
    if (*p != '\n' || s != p + 1)
        abort();
    if (qk_shard_counts_format("budgets", v, k, &out, &len, NULL) != QK_OK)
        abort();
    s = out;
    if (qk_shard_counts_parse(&s, "budgets", w, k) != 0 || s != out + len || memcmp(v, w, k * sizeof *v) != 0)
        abort();
    free(out);
}

/* A "runs" line: the writer gives back the very line. */
static void fuzz_names(const char *text)
{
    const char *s = text, **names = NULL;
    char *buf = NULL, *out = NULL;
    size_t n = 0, len;
    qk_error err = {0};
    qk_error_clear(&err);
    if (qk_shard_names_parse(&s, "runs", &buf, &names, &n, &err) != QK_OK) {
        if (!err.message[0] || s != text)
            abort();
        free(buf);
        free(names);
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (!names[i] || strpbrk(names[i], "\t\n"))
            abort();
    if (qk_shard_names_format("runs", names, n, &out, &len, &err) != QK_OK)
        abort();
    if (len != (size_t)(s - text) || memcmp(out, text, len) != 0)
        abort();
    free(out);
    free(buf);
    free(names);
}

/* The part agrees with itself: a shard of its count, exactly the items of
 * that shard in order, argument and input lists as long as it says. */
static void check_part(const qk_shard_part *p)
{
    qk_shard_spec s = qk_shard_part_spec(p);
    size_t first, end, n = qk_shard_part_num_held(p), len, idx;
    int argc = 0;
    char **argv = NULL;
    double *rec = NULL;
    qk_error err = {0};
    if (!qk_shard_part_command(p)[0] || !qk_shard_part_kind(p) || s.count < 1 || s.index >= s.count ||
        s.count > 1000000)
        abort();
    qk_shard_range(s, qk_shard_part_num_items(p), &first, &end);
    if (n != end - first)
        abort();
    for (size_t k = 0; k < n; k++) {
        const char *it = qk_shard_part_item(p, k, &idx, &len);
        if (!it || idx != first + k || it[len] != 0)
            abort(); /* item k of the part is item first + k of the work */
    }
    if (qk_shard_part_item(p, n, &idx, &len) || qk_shard_part_arg(p, qk_shard_part_num_args(p)) ||
        qk_shard_part_input(p, qk_shard_part_num_inputs(p), NULL) || !qk_shard_part_prologue(p, &len))
        abort();
    for (size_t i = 0; i < qk_shard_part_num_args(p); i++)
        if (!qk_shard_part_arg(p, i))
            abort();
    for (size_t i = 0; i < qk_shard_part_num_inputs(p); i++)
        if (!qk_shard_part_input(p, i, NULL))
            abort();
    if (qk_shard_part_argv(p, "qrelkit", &argc, &argv, &err) != QK_OK ||
        (size_t)argc != qk_shard_part_num_args(p) + 1 || argv[argc])
        abort();
    free(argv);
    if (qk_shard_part_records(p, 2, &rec, &err) != QK_OK && !err.message[0])
        abort();
    free(rec);
}

/* The part's file (caller frees). */
static char *part_text(const qk_shard_part *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    qk_error err = {0};
    if (!f || qk_shard_part_write(p, f, &err) != QK_OK || fclose(f) != 0)
        abort();
    return buf;
}

/* The part written and parsed again is the same part: same file. */
static void rewrite_part(const qk_shard_part *p)
{
    size_t len, len2;
    char *text = part_text(p, &len), *again;
    qk_shard_part *back = NULL;
    qk_error err = {0};
    if (qk_shard_part_parse(text, len, "rewritten", &back, &err) != QK_OK)
        abort(); /* the writer's part must read */
    check_part(back);
    again = part_text(back, &len2);
    if (len != len2 || memcmp(text, again, len) != 0 ||
        strcmp(qk_shard_part_command(p), qk_shard_part_command(back)) ||
        strcmp(qk_shard_part_kind(p), qk_shard_part_kind(back)) ||
        qk_shard_part_seed(p) != qk_shard_part_seed(back) ||
        qk_shard_part_has_seed(p) != qk_shard_part_has_seed(back))
        abort();
    free(text);
    free(again);
    qk_shard_part_free(back);
}

static void merge_parts(const qk_shard_part *const *parts, size_t n)
{
    static const char *const names[MAX_PARTS] = {"part0", "part1", "part2"};
    qk_shard_part *m = NULL;
    qk_error err = {0};
    size_t held = 0;
    FILE *f;
    qk_error_clear(&err);
    if (qk_shard_merge(parts, names, n, &m, &err) != QK_OK) {
        if (!err.message[0] || m)
            abort();
        return;
    }
    check_part(m);
    if (qk_shard_part_spec(m).count != 1 || qk_shard_part_num_held(m) != qk_shard_part_num_items(m))
        abort();
    for (size_t k = 0; k < n; k++)
        held += qk_shard_part_num_held(parts[k]);
    if (held != qk_shard_part_num_held(m))
        abort(); /* every item once */
    rewrite_part(m);
    if (!(f = fopen("/dev/null", "w")))
        abort();
    if (qk_shard_write_concat(m, f, &err) != QK_OK && !err.message[0])
        abort();
    fclose(f);
    qk_shard_part_free(m);
}

static void fuzz_parts(const uint8_t *data, size_t size)
{
    qk_shard_part *parts[MAX_PARTS] = {NULL};
    size_t n = 0, ok = 0;
    while (n < MAX_PARTS) {
        size_t n1, n2;
        const uint8_t *p2;
        qk_error err = {0};
        qk_fuzz_split(data, size, &n1, &p2, &n2);
        if (n == MAX_PARTS - 1)
            n1 = size; /* the last part takes the rest */
        qk_error_clear(&err);
        if (qk_shard_part_parse((const char *)data, n1, "part", &parts[n], &err) == QK_OK) {
            check_part(parts[n]);
            rewrite_part(parts[n]);
            ok++;
        } else if (!err.message[0] || parts[n]) {
            abort();
        }
        n++;
        if (n1 == size)
            break;
        data = p2;
        size = n2;
    }
    if (ok == n)
        merge_parts((const qk_shard_part *const *)parts, n);
    for (size_t k = 0; k < n; k++)
        qk_shard_part_free(parts[k]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text;
    size_t len;
    if (size < 1)
        return 0;
    if (!(text = malloc(size)))
        abort();
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    len = strlen(text); /* the string parsers stop at a NUL */
    fuzz_spec(text, data + 1, size - 1);
    fuzz_record(text, len, (size_t)(data[0] & 7) + 1);
    fuzz_budget_record(text, len, (size_t)(data[0] >> 3 & 3));
    fuzz_counts(text, (size_t)(data[0] & 7) + 1);
    fuzz_names(text);
    fuzz_parts(data + 1, size - 1);
    free(text);
    return 0;
}
