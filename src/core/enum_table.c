/* Enum tables: one {name, value, help} table per option that takes a word,
 * so parsing, --help and the error for an unknown word share one list. */
#include <stdio.h>
#include <string.h>

#include "qrelkit/core.h"

const qk_enum *qk_enum_find(const qk_enum *table, const char *name)
{
    for (; table && table->name; table++)
        if (strcmp(table->name, name) == 0)
            return table;
    return NULL;
}

const qk_enum *qk_enum_by_value(const qk_enum *table, int value)
{
    for (; table && table->name; table++)
        if (table->value == value && table->help)
            return table;
    return NULL;
}

/* Append s to buf[*len..size), keeping it NUL-terminated; *len counts the
 * bytes wanted even when they do not fit. */
static void put(char *buf, size_t size, size_t *len, const char *s, size_t n)
{
    if (*len < size) {
        size_t room = size - *len - 1, k = n < room ? n : room;
        memcpy(buf + *len, s, k);
        buf[*len + k] = '\0';
    }
    *len += n;
}

size_t qk_enum_choices(const qk_enum *table, char *buf, size_t size)
{
    size_t len = 0;
    int first = 1;
    if (size)
        buf[0] = '\0';
    for (; table && table->name; table++) {
        if (!table->help)
            continue;
        if (!first)
            put(buf, size, &len, ", ", 2);
        put(buf, size, &len, table->name, strlen(table->name));
        first = 0;
    }
    return len;
}

size_t qk_enum_help(const qk_enum *table, const char *indent, int min_width, char *buf, size_t size)
{
    size_t len = 0, width = min_width > 0 ? (size_t)min_width : 0;
    if (size)
        buf[0] = '\0';
    for (const qk_enum *e = table; e && e->name; e++)
        if (e->help && strlen(e->name) > width)
            width = strlen(e->name);
    for (const qk_enum *e = table; e && e->name; e++) {
        size_t n = strlen(e->name);
        if (!e->help)
            continue;
        put(buf, size, &len, indent, strlen(indent));
        put(buf, size, &len, e->name, n);
        if (e->help[0]) {
            for (; n < width + 2; n++)
                put(buf, size, &len, " ", 1);
            put(buf, size, &len, e->help, strlen(e->help));
        }
        put(buf, size, &len, "\n", 1);
    }
    return len;
}

qk_status qk_enum_parse(const qk_enum *table, const char *opt, const char *word, int *value, qk_error *err)
{
    const qk_enum *e = qk_enum_find(table, word);
    char choices[512];
    if (e) {
        *value = e->value;
        return QK_OK;
    }
    if (qk_enum_choices(table, choices, sizeof choices) >= sizeof choices)
        snprintf(choices + sizeof choices - 5, 5, "...");
    return qk_error_set(err, QK_EUSAGE, "unknown %s '%s' (choose from: %s)", opt && *opt ? opt : "word", word,
                        choices);
}
