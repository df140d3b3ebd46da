/* Enum tables (src/core/enum_table.c): lookup, the choices list and help
 * lines, and the error for an unknown word. Expected strings written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "qrelkit/core.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_choices),
        cmocka_unit_test(test_help_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
