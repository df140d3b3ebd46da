/* Enum tables (src/core/enum_table.c): lookup, the choices list and help
 * lines, and the error for an unknown word. Expected strings written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "qrelkit/qrelkit.h"

static const qk_enum colours[] = {
    {"red", 1, "the colour of blood"},
    {"green", 2, "grass"},
    {"verde", 2, NULL}, /* accepted spelling, not listed */
    {"blue", 3, ""},
    {NULL, 0, NULL},
};

static void test_find(void **state)
{
    (void)state;
    assert_int_equal(qk_enum_find(colours, "green")->value, 2);
    assert_int_equal(qk_enum_find(colours, "verde")->value, 2);
    assert_null(qk_enum_find(colours, "Green")); /* case-sensitive */
    assert_null(qk_enum_find(colours, "gree"));  /* no prefixes */
    assert_null(qk_enum_find(colours, ""));
    assert_string_equal(qk_enum_by_value(colours, 2)->name, "green");
    assert_null(qk_enum_by_value(colours, 9));
}

static void test_parse(void **state)
{
    qk_error err = {0};
    int v = -1;
    (void)state;
    assert_int_equal(qk_enum_parse(colours, "--colour", "blue", &v, &err), QK_OK);
    assert_int_equal(v, 3);
    assert_int_equal(qk_enum_parse(colours, "--colour", "pink", &v, &err), QK_EUSAGE);
    assert_int_equal(v, 3); /* untouched */
    assert_string_equal(err.message, "unknown --colour 'pink' (choose from: red, green, blue)");
}

static void test_choices(void **state)
{
    char buf[64];
    (void)state;
    assert_int_equal(qk_enum_choices(colours, buf, sizeof buf), strlen("red, green, blue"));
    assert_string_equal(buf, "red, green, blue");
    /* Truncated like snprintf: the full length comes back. */
    assert_int_equal(qk_enum_choices(colours, buf, 6), 16);
    assert_string_equal(buf, "red, ");
}

static void test_help_lines(void **state)
{
    char buf[256];
    const char *want = "  red    the colour of blood\n"
                       "  green  grass\n"
                       "  blue\n";
    (void)state;
    assert_int_equal(qk_enum_help(colours, "  ", 0, buf, sizeof buf), strlen(want));
    assert_string_equal(buf, want);
    qk_enum_help(colours, "", 6, buf, sizeof buf);
    assert_string_equal(buf, "red     the colour of blood\ngreen   grass\nblue\n");
}

/* The library's option tables: listed names are unique, every value has a
 * listed name, and the modules' name functions give that name back. */
static void check_table(const qk_enum *t, const char *what)
{
    for (const qk_enum *a = t; a->name; a++) {
        for (const qk_enum *b = a + 1; b->name; b++)
            if (strcmp(a->name, b->name) == 0)
                fail_msg("%s: '%s' twice", what, a->name);
        if (!qk_enum_by_value(t, a->value))
            fail_msg("%s: value of '%s' has no listed name", what, a->name);
    }
}

static void test_library_tables(void **state)
{
    (void)state;
    check_table(qk_pool_method_table, "pool methods");
    check_table(qk_pool_active_weights_table, "active weights");
    check_table(qk_crowd_method_table, "crowd methods");
    check_table(qk_crowd_sim_model_table, "crowd sim models");
    check_table(qk_stats_test_table, "tests");
    check_table(qk_stats_correction_table, "corrections");
    check_table(qk_stats_transform_table, "transforms");
    check_table(qk_model_table, "search models");
    check_table(qk_corpus_format_table, "corpus formats");
    check_table(qk_stemmer_table, "stemmers");
    check_table(qk_conf_model_table, "confidence models");
    /* Every pool method of the enum is in the table, and names round-trip. */
    for (int m = 0; m < QK_POOL_NMETHODS; m++) {
        qk_pool_method back;
        const char *name = qk_pool_method_name((qk_pool_method)m);
        assert_string_not_equal(name, "?");
        assert_int_equal(qk_pool_method_parse(name, &back), 0);
        assert_int_equal(back, m);
    }
    for (const qk_enum *e = qk_crowd_method_table; e->name; e++) {
        qk_crowd_method back;
        assert_int_equal(qk_crowd_method_parse(e->name, &back), 0);
        assert_int_equal(back, e->value);
        if (e->help)
            assert_string_equal(qk_crowd_method_name(back), e->name);
    }
    /* Spellings kept from before the tables. */
    {
        qk_test t;
        qk_model md;
        qk_transform tr;
        assert_int_equal(qk_stats_test_parse("randomization", &t), 0);
        assert_int_equal(t, QK_TEST_PERM);
        assert_string_equal(qk_stats_test_name(QK_TEST_PERM), "perm");
        assert_int_equal(qk_model_parse("dirichlet", &md), 0);
        assert_int_equal(md, QK_MODEL_QL_DIR);
        assert_int_equal(qk_stats_transform_parse("zscore", &tr), 0);
        assert_int_equal(tr, QK_TRANSFORM_Z);
        assert_string_equal(qk_stemmer_name(QK_STEM_S), "s");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_choices),
        cmocka_unit_test(test_help_lines),
        cmocka_unit_test(test_library_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
