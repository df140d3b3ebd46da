/* Option tables shared by several commands, and the index of every table a
 * help text may name as @{KEY} or @[KEY] (qk_cli_help). A table for a
 * library's choices lives next to that library code; this index only points
 * at it, so a new choice is one row there and shows up in --help. */
#include <string.h>

#include "cli_util.h"
#include "cli_tables.h"

const qk_enum qk_cli_format_trec_table[] = {
    {"trec", 0, "trec_eval's lines"},
    {"tsv", 1, "tab-separated, header line first"},
    {"json", 2, "one JSON document"},
    {NULL, 0, NULL},
};

/* value: 1 for json, so `int json` can take it directly */
const qk_enum qk_cli_format_table[] = {
    {"tsv", 0, "tab-separated, header line first"},
    {"json", 1, "one JSON document"},
    {NULL, 0, NULL},
};

static const struct {
    const char *key;
    const qk_enum *table;
} index_[] = {
#define QK_CLI_TABLE_ROW(key, table) {key, table},
    QK_CLI_TABLES(QK_CLI_TABLE_ROW)
#undef QK_CLI_TABLE_ROW
};

const qk_enum *qk_cli_table(const char *key)
{
    for (size_t i = 0; i < sizeof index_ / sizeof index_[0]; i++)
        if (strcmp(index_[i].key, key) == 0)
            return index_[i].table;
    return NULL;
}
