/* The campaign server's embedded files (generated from src/campaign/pages/
 * by cmake/embed_pages.cmake): name, bytes (NUL-terminated), length. The
 * table ends with a NULL name. */
#ifndef QK_CAMPAIGN_PAGES_H
#define QK_CAMPAIGN_PAGES_H
#include <stddef.h>
typedef struct qkc_asset {
    const char *name;
    const unsigned char *data;
    size_t len;
} qkc_asset;
extern const qkc_asset qkc_assets[];
#endif
