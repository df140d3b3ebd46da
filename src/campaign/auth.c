/* Tokens: random tokens, people and the token check. Only hashes of tokens
 * are stored (SHA-256, sha256.c); a token is compared by looking up its
 * hash. */
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign_internal.h"

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
              *s == '.' || *s == '-'))
            return 0;
    return 1;
}

qk_status qk_campaign_add_person(qk_campaign *c, const char *name, int role, long ttl_s, char token[65],
                                 qk_error *err)
{
    unsigned char raw[32];
    char hash[65];
    static const char digits[] = "0123456789abcdef";
    sqlite3_stmt *st = NULL;
    qk_status s;
    int64_t now = qkc_now_ms();
    if (!valid_name(name))
        return qk_error_set(err, QK_EUSAGE, "name '%s' is not 1-64 letters, digits, '_', '.' or '-'", name);
    if (role != QK_CAMPAIGN_ASSESSOR && role != QK_CAMPAIGN_ORGANISER)
        return qk_error_set(err, QK_EUSAGE, "unknown role %d", role);
    if ((s = qkc_random(raw, sizeof raw, err)) != QK_OK)
        return s;
    for (size_t i = 0; i < 32; i++) {
        token[2 * i] = digits[raw[i] >> 4];
        token[2 * i + 1] = digits[raw[i] & 15];
    }
    token[64] = 0;
    qk_sha256_hex(token, 64, hash);
    if ((s = qkc_prepare(c,
                         "INSERT INTO people(name, role, token_hash, created, expires) VALUES(?, ?, ?, ?, ?)",
                         &st, err)) != QK_OK)
        return s;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, role);
    sqlite3_bind_text(st, 3, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, now);
    if (ttl_s > 0)
        sqlite3_bind_int64(st, 5, now + (int64_t)ttl_s * 1000);
    else
        sqlite3_bind_null(st, 5);
    if (sqlite3_step(st) != SQLITE_DONE)
        s = sqlite3_errcode(c->db) == SQLITE_CONSTRAINT
                ? qk_error_set(err, QK_EUSAGE, "'%s': '%s' is already in the campaign", c->path, name)
                : qkc_sqlerr(c, err, "cannot write");
    sqlite3_finalize(st);
    if (s != QK_OK)
        memset(token, 0, 65);
    return s;
}

int qkc_token_lookup(qk_campaign *c, const char *token, qkc_person *p, int *expired, qk_error *err)
{
    char hash[65];
    sqlite3_stmt *st = NULL;
    int found = 0;
    size_t n = token ? strlen(token) : 0;
    *expired = 0;
    if (n != 64 || strspn(token, "0123456789abcdef") != 64)
        return 0;
    qk_sha256_hex(token, 64, hash);
    if (qkc_prepare(c, "SELECT id, role, name, expires FROM people WHERE token_hash = ?", &st, err) != QK_OK)
        return QK_EIO;
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        p->id = sqlite3_column_int64(st, 0);
        p->role = sqlite3_column_int(st, 1);
        snprintf(p->name, sizeof p->name, "%s", (const char *)sqlite3_column_text(st, 2));
        if (sqlite3_column_type(st, 3) != SQLITE_NULL && sqlite3_column_int64(st, 3) <= qkc_now_ms())
            *expired = 1;
        else
            found = 1;
    }
    sqlite3_finalize(st);
    return found;
}

void qkc_csrf(qk_campaign *c, const char *token, char out[65])
{
    char buf[200], *secret = qkc_meta_get(c, "csrf_secret");
    int n = snprintf(buf, sizeof buf, "csrf:%s:%s", secret ? secret : "", token ? token : "");
    free(secret);
    qk_sha256_hex(buf, (size_t)(n < 0 ? 0 : n), out);
}
