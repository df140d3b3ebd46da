/* Average reuse AR (000a §6.8; 000b §9 #12). */
#include "test_topics_common.h"

static void test_ar(void **state)
{
    unsigned char top[5] = {1, 1, 0, 0, 0}, mixed[4] = {0, 1, 0, 1}, none[3] = {0, 0, 0};
    (void)state;
    /* the judged(q) = 2 judged documents on top: AR = 1 */
    NEAR(qk_topics_ar(top, 5, 2, 0), 1.0, 1e-15);
    /* judged at ranks 2 and 4: (1/2 + 2/4) / 2 = 0.5 */
    NEAR(qk_topics_ar(mixed, 4, 2, 0), 0.5, 1e-15);
    /* literal sum over all ranks: (0 + 1/2 + 1/3 + 2/4) / 2 = 2/3 */
    NEAR(qk_topics_ar(mixed, 4, 2, 1), 2.0 / 3, 1e-15);
    NEAR(qk_topics_ar(none, 3, 5, 0), 0, 0);
    NEAR(qk_topics_ar(none, 3, 0, 0), 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
