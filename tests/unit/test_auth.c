/* Tokens (src/campaign/auth.c): SHA-256 against coreutils' sha256sum and
 * FIPS 180-2's examples, across the padding boundaries (55, 56, 63, 64, 65,
 * 119, 120 bytes); tokens are 64 hex digits, different every time, stored
 * only as their hash, and expire. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "campaign_fixture.h"

static void test_sha256(void **state)
{
    static const struct {
        size_t n;
        const char *hex;
    } as[] = {
        {0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
        {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
        {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
        {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
        {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
        {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
        {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
        {1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
    };
    char hex[65], *a = malloc(1000000);
    (void)state;
    assert_non_null(a);
    memset(a, 'a', 1000000);
    for (size_t i = 0; i < sizeof as / sizeof *as; i++) {
        qk_sha256_hex(a, as[i].n, hex);
        assert_string_equal(hex, as[i].hex);
    }
    free(a);
    qk_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    qk_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

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
        cmocka_unit_test(test_sha256),
        cmocka_unit_test(test_tokens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
