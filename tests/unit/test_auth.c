/* Tokens (src/campaign/auth.c): 64 hex digits, different every time,
 * stored only as their SHA-256, refused when forged or expired; names
 * checked; CSRF form tokens differ per person. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "campaign_fixture.h"

static void test_tokens(void **state)
{
    cfix f;
    qk_campaign *c;
    qk_error err = {0};
    char t1[65], t2[65], t3[65], hash[65], sql[200];
    qkc_person p;
    int expired;
    (void)state;
    cfix_init(&f);
    c = cfix_create(&f, 3);
    assert_int_equal(qk_campaign_add_person(c, "alice", QK_CAMPAIGN_ASSESSOR, 0, t1, &err), QK_OK);
    assert_int_equal(qk_campaign_add_person(c, "org", QK_CAMPAIGN_ORGANISER, 0, t2, &err), QK_OK);
    assert_int_equal(strlen(t1), 64);
    assert_int_equal(strspn(t1, "0123456789abcdef"), 64);
    assert_string_not_equal(t1, t2);
    /* stored: the hash, never the token */
    qk_sha256_hex(t1, 64, hash);
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM people WHERE token_hash = '%s'", hash);
    assert_int_equal(cfix_int(c, sql), 1);
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM people WHERE token_hash = '%s'", t1);
    assert_int_equal(cfix_int(c, sql), 0);
    assert_int_equal(qkc_token_lookup(c, t1, &p, &expired, &err), 1);
    assert_string_equal(p.name, "alice");
    assert_int_equal(p.role, QK_CAMPAIGN_ASSESSOR);
    assert_int_equal(qkc_token_lookup(c, t2, &p, &expired, &err), 1);
    assert_int_equal(p.role, QK_CAMPAIGN_ORGANISER);
    /* forged: one digit changed, upper case, short, empty */
    memcpy(t3, t1, 65);
    t3[10] = t3[10] == '0' ? '1' : '0';
    assert_int_equal(qkc_token_lookup(c, t3, &p, &expired, &err), 0);
    assert_int_equal(expired, 0);
    memcpy(t3, t1, 65);
    for (int i = 0; i < 64; i++)
        if (t3[i] >= 'a')
            t3[i] = (char)(t3[i] - 32);
    assert_int_equal(qkc_token_lookup(c, t3, &p, &expired, &err), strcmp(t3, t1) == 0);
    assert_int_equal(qkc_token_lookup(c, "abc", &p, &expired, &err), 0);
    assert_int_equal(qkc_token_lookup(c, "", &p, &expired, &err), 0);
    /* expired: set the expiry into the past */
    assert_int_equal(qk_campaign_add_person(c, "late", QK_CAMPAIGN_ASSESSOR, 3600, t3, &err), QK_OK);
    assert_int_equal(qkc_token_lookup(c, t3, &p, &expired, &err), 1);
    assert_int_equal(sqlite3_exec(c->db, "UPDATE people SET expires = 1 WHERE name = 'late'", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(qkc_token_lookup(c, t3, &p, &expired, &err), 0);
    assert_int_equal(expired, 1);
    /* names: duplicates and anything outside [A-Za-z0-9_.-] */
    assert_int_equal(qk_campaign_add_person(c, "alice", QK_CAMPAIGN_ASSESSOR, 0, t3, &err), QK_EUSAGE);
    assert_int_equal(qk_campaign_add_person(c, "a b", QK_CAMPAIGN_ASSESSOR, 0, t3, &err), QK_EUSAGE);
    assert_int_equal(qk_campaign_add_person(c, "<b>", QK_CAMPAIGN_ASSESSOR, 0, t3, &err), QK_EUSAGE);
    assert_int_equal(qk_campaign_add_person(c, "", QK_CAMPAIGN_ASSESSOR, 0, t3, &err), QK_EUSAGE);
    assert_int_equal(cfix_int(c, "SELECT COUNT(*) FROM people"), 3);
    /* CSRF form tokens differ per person and are not the session token */
    {
        char c1[65], c2[65];
        qkc_csrf(c, t1, c1);
        qkc_csrf(c, t2, c2);
        assert_string_not_equal(c1, c2);
        assert_string_not_equal(c1, t1);
        assert_string_not_equal(c1, hash);
    }
    qk_campaign_close(c);
    cfix_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
