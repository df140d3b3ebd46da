/* Shards and parts (src/shard/shard.c): I/N parsing, the split into
 * contiguous blocks (checked by enumeration), FNV-1a against its published
 * test vectors, the part file round trip with arbitrary payload bytes, and
 * the merge: order, completeness and the errors for a missing, repeated or
 * foreign part. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/shard.h"

static void test_spec_parse(void **state)
{
    qk_shard_spec s;
    qk_error err;
    (void)state;
    assert_int_equal(qk_shard_spec_parse("0/1", &s, &err), QK_OK);
    assert_int_equal(s.index, 0);
    assert_int_equal(s.count, 1);
    assert_int_equal(qk_shard_spec_parse("6/7", &s, &err), QK_OK);
    assert_int_equal(s.index, 6);
    assert_int_equal(s.count, 7);
    const char *bad[] = {"7/7", "1/0", "0/0", "-1/3", "1/+3", " 1/3", "1/3 ", "1/3x", "13", "/3", "1/", "",
                         "1//3", "0/1000001", "99999999999999999999/3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(qk_shard_spec_parse(bad[i], &s, &err), QK_EUSAGE);
        assert_non_null(strstr(err.message, "--shard"));
    }
}

/* Every (N, n): the blocks tile [0, N) in order, sizes differ by at most one. */
static void test_range_partition(void **state)
{
    (void)state;
    for (size_t N = 0; N <= 40; N++)
        for (size_t n = 1; n <= 12; n++) {
            size_t next = 0, lo = (size_t)-1, hi = 0;
            for (size_t i = 0; i < n; i++) {
                size_t a, b;
                qk_shard_spec s = {i, n};
                qk_shard_range(s, N, &a, &b);
                assert_int_equal(a, next);
                assert_true(b >= a);
                if (b - a < lo)
                    lo = b - a;
                if (b - a > hi)
                    hi = b - a;
                next = b;
            }
            assert_int_equal(next, N);
            assert_true(hi - lo <= 1);
            assert_int_equal(lo, N / n); /* floor(N/n) items at least */
        }
    /* By hand: 16 runs in 3 shards are 0-4, 5-9, 10-15 (floor(16i/3)). */
    {
        size_t a, b;
        qk_shard_spec s1 = {1, 3}, s2 = {2, 3};
        qk_shard_range(s1, 16, &a, &b);
        assert_int_equal(a, 5);
        assert_int_equal(b, 10);
        qk_shard_range(s2, 16, &a, &b);
        assert_int_equal(a, 10);
        assert_int_equal(b, 16);
    }
}

/* The FNV-1a 64 test vectors of the reference (Noll's fnv test suite). */
static void test_checksum(void **state)
{
    (void)state;
    assert_true(qk_shard_checksum(QK_SHARD_CHECKSUM_INIT, "", 0) == 0xcbf29ce484222325ULL);
    assert_true(qk_shard_checksum(QK_SHARD_CHECKSUM_INIT, "a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(qk_shard_checksum(QK_SHARD_CHECKSUM_INIT, "foobar", 6) == 0x85944171f73967e8ULL);
    /* incremental = whole */
    assert_true(qk_shard_checksum(qk_shard_checksum(QK_SHARD_CHECKSUM_INIT, "foo", 3), "bar", 3) ==
                0x85944171f73967e8ULL);
}

/* A part of "demo" for shard i/n of N items, item k's payload "<k>\n\t". */
static qk_shard_part *make(size_t i, size_t n, size_t N, uint64_t seed, uint64_t input)
{
    qk_shard_part *p;
    qk_shard_spec s = {i, n};
    size_t a, b;
    assert_int_equal(qk_shard_part_new("demo cmd", "concat", s, N, &p, NULL), QK_OK);
    assert_int_equal(qk_shard_part_add_arg(p, "--x"), QK_OK);
    assert_int_equal(qk_shard_part_add_arg(p, "two words\nand a line"), QK_OK);
    assert_int_equal(qk_shard_part_add_input(p, "in put.txt", input), QK_OK);
    qk_shard_part_set_seed(p, seed);
    assert_int_equal(qk_shard_part_set_frame(p, "[", 1, ",\n", 2, "]\n", 2), QK_OK);
    qk_shard_range(s, N, &a, &b);
    for (size_t k = a; k < b; k++) {
        char buf[32];
        int len = snprintf(buf, sizeof buf, "%zu\n\t", k);
        assert_int_equal(qk_shard_part_add_item(p, k, buf, (size_t)len, NULL), QK_OK);
    }
    return p;
}

/* Write p to memory and parse it back. */
static qk_shard_part *round_trip(const qk_shard_part *p, const char *name, qk_error *err, qk_status want)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    qk_shard_part *q = NULL;
    assert_non_null(f);
    assert_int_equal(qk_shard_part_write(p, f, NULL), QK_OK);
    fclose(f);
    assert_int_equal(qk_shard_part_parse(buf, len, name, &q, err), want);
    free(buf);
    return q;
}

static char *concat(const qk_shard_part *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(qk_shard_write_concat(m, f, NULL), QK_OK);
    fclose(f);
    return buf;
}

static void test_round_trip(void **state)
{
    qk_shard_part *p = make(1, 3, 7, 42, 0xabcdef0123456789ULL), *q;
    qk_error err;
    size_t idx, len;
    const char *it;
    (void)state;
    q = round_trip(p, "p1", &err, QK_OK);
    assert_non_null(q);
    assert_string_equal(qk_shard_part_command(q), "demo cmd");
    assert_string_equal(qk_shard_part_kind(q), "concat");
    assert_int_equal(qk_shard_part_spec(q).index, 1);
    assert_int_equal(qk_shard_part_spec(q).count, 3);
    assert_int_equal(qk_shard_part_num_items(q), 7);
    assert_int_equal(qk_shard_part_num_args(q), 2);
    assert_string_equal(qk_shard_part_arg(q, 1), "two words\nand a line");
    assert_true(qk_shard_part_has_seed(q));
    assert_true(qk_shard_part_seed(q) == 42);
    /* shard 1 of 3 over 7 items: floor(7/3) = 2 to floor(14/3) = 4 */
    assert_int_equal(qk_shard_part_num_held(q), 2);
    it = qk_shard_part_item(q, 0, &idx, &len);
    assert_int_equal(idx, 2);
    assert_int_equal(len, 3);
    assert_memory_equal(it, "2\n\t", 3);
    qk_shard_part_free(p);
    qk_shard_part_free(q);
}

static void test_parse_rejects(void **state)
{
    qk_shard_part *q = NULL;
    qk_error err;
    const char *text = "qrelkit-part 1\ncommand 4\ndemo\nkind concat\nshard 0/2\nitems 4\n"
                       "item 0 1\na\nitem 1 1\nb\nend\n";
    (void)state;
    assert_int_equal(qk_shard_part_parse(text, strlen(text), "ok", &q, &err), QK_OK);
    qk_shard_part_free(q);
    /* cut off before "end" */
    assert_int_equal(qk_shard_part_parse(text, strlen(text) - 4, "cut", &q, &err), QK_EINPUT);
    assert_string_equal(err.message, "'cut' is cut off (no 'end' line)");
    /* not a part */
    assert_int_equal(qk_shard_part_parse("map all 0.1\n", 12, "x.txt", &q, &err), QK_EINPUT);
    assert_string_equal(err.message, "'x.txt' is not a qrelkit part file (written by --shard I/N)");
    /* an item of another shard */
    {
        const char *t2 = "qrelkit-part 1\ncommand 4\ndemo\nkind concat\nshard 0/2\nitems 4\n"
                         "item 0 1\na\nitem 2 1\nb\nend\n";
        assert_int_equal(qk_shard_part_parse(t2, strlen(t2), "y", &q, &err), QK_EINPUT);
        assert_non_null(strstr(err.message, "item 2 is outside shard 0/2"));
    }
    /* an item missing */
    {
        const char *t3 = "qrelkit-part 1\ncommand 4\ndemo\nkind concat\nshard 0/2\nitems 4\nitem 0 1\na\nend\n";
        assert_int_equal(qk_shard_part_parse(t3, strlen(t3), "z", &q, &err), QK_EINPUT);
        assert_string_equal(err.message, "'z' holds 1 of the 2 items of shard 0/2");
    }
    /* a payload length running past the end */
    {
        const char *t4 = "qrelkit-part 1\ncommand 40\ndemo\nend\n";
        assert_int_equal(qk_shard_part_parse(t4, strlen(t4), "w", &q, &err), QK_EINPUT);
    }
    /* a shard line after the items moves the range away from them */
    {
        const char *t7 = "qrelkit-part 1\ncommand 4\ndemo\nshard 1/2\nitems 4\n"
                         "item 2 1\na\nitem 3 1\nb\nshard 0/2\nend\n";
        assert_int_equal(qk_shard_part_parse(t7, strlen(t7), "t", &q, &err), QK_EINPUT);
        assert_string_equal(err.message, "'t': item 2 is outside shard 0/2 (items 0 to 1)");
    }
    /* a NUL byte in the command or the kind: their strings would be cut
     * short (the merge wrote a part without its command) */
    {
        static const char t5[] = "qrelkit-part 1\ncommand 4\nde\0o\nend\n";
        static const char t6[] = "qrelkit-part 1\ncommand 4\ndemo\nkind con\0cat\nend\n";
        assert_int_equal(qk_shard_part_parse(t5, sizeof t5 - 1, "v", &q, &err), QK_EINPUT);
        assert_non_null(strstr(err.message, "bad command line"));
        assert_int_equal(qk_shard_part_parse(t6, sizeof t6 - 1, "u", &q, &err), QK_EINPUT);
        assert_non_null(strstr(err.message, "bad kind line"));
    }
}

/* Merge parts given in any order: the concatenation of items 0..N-1. */
static void test_merge_order(void **state)
{
    const size_t N = 5, n = 3;
    qk_shard_part *p[3], *m;
    const char *names[] = {"c", "a", "b"};
    char *out;
    (void)state;
    p[0] = make(2, n, N, 7, 1);
    p[1] = make(0, n, N, 7, 1);
    p[2] = make(1, n, N, 7, 1);
    assert_int_equal(qk_shard_merge((const qk_shard_part *const *)p, names, 3, &m, NULL), QK_OK);
    out = concat(m);
    assert_string_equal(out, "[0\n\t,\n1\n\t,\n2\n\t,\n3\n\t,\n4\n\t]\n");
    free(out);
    qk_shard_part_free(m);
    for (int k = 0; k < 3; k++)
        qk_shard_part_free(p[k]);
    /* more shards than items: empty parts, same bytes */
    {
        qk_shard_part *q[7];
        const char *nm[7] = {"0", "1", "2", "3", "4", "5", "6"};
        for (size_t i = 0; i < 7; i++)
            q[i] = make(i, 7, 2, 7, 1);
        assert_int_equal(qk_shard_merge((const qk_shard_part *const *)q, nm, 7, &m, NULL), QK_OK);
        out = concat(m);
        assert_string_equal(out, "[0\n\t,\n1\n\t]\n");
        free(out);
        qk_shard_part_free(m);
        for (int k = 0; k < 7; k++)
            qk_shard_part_free(q[k]);
    }
}

static void expect_merge_error(qk_shard_part **p, size_t np, const char *want)
{
    const char *names[] = {"p0", "p1", "p2"};
    qk_shard_part *m = NULL;
    qk_error err;
    assert_int_equal(qk_shard_merge((const qk_shard_part *const *)p, names, np, &m, &err), QK_EINPUT);
    assert_null(m);
    assert_string_equal(err.message, want);
}

static void test_merge_errors(void **state)
{
    qk_shard_part *p[3];
    (void)state;
    /* missing: 0/3 and 2/3 only */
    p[0] = make(0, 3, 9, 7, 1);
    p[1] = make(2, 3, 9, 7, 1);
    expect_merge_error(p, 2, "shard 1/3 is missing (2 of 3 parts given)");
    /* twice: 0/3, 2/3, 2/3 */
    p[2] = make(2, 3, 9, 7, 1);
    expect_merge_error(p, 3, "'p1' and 'p2' are both shard 2/3");
    qk_shard_part_free(p[2]);
    /* another seed */
    p[2] = make(1, 3, 9, 8, 1);
    expect_merge_error(p, 3, "'p2' is not from the same work as 'p0': the seed differs");
    qk_shard_part_free(p[2]);
    /* another input */
    p[2] = make(1, 3, 9, 7, 2);
    expect_merge_error(p, 3, "'p2' is not from the same work as 'p0': input 'in put.txt' differs");
    qk_shard_part_free(p[2]);
    /* another shard count */
    p[2] = make(1, 4, 9, 7, 1);
    expect_merge_error(p, 3, "'p2' is not from the same work as 'p0': the shard count differs");
    qk_shard_part_free(p[2]);
    /* other arguments */
    p[2] = make(1, 3, 9, 7, 1);
    assert_int_equal(qk_shard_part_add_arg(p[2], "--more"), QK_OK);
    expect_merge_error(p, 3, "'p2' is not from the same work as 'p0': the arguments differ");
    qk_shard_part_free(p[2]);
    qk_shard_part_free(p[0]);
    qk_shard_part_free(p[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_parse),    cmocka_unit_test(test_range_partition),
        cmocka_unit_test(test_checksum),      cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_parse_rejects), cmocka_unit_test(test_merge_order),
        cmocka_unit_test(test_merge_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
