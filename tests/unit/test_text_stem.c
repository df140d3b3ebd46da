/* Stemmers (src/text/porter.c) against published vocabulary: the examples
 * of Porter's 1980 paper, carried through all five steps as Porter's own
 * vocabulary/output lists give them, and Harman's S-stemmer rules. */
/* cmocka.h needs these first; keep clang-format from sorting them. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <string.h>

#include "qrelkit/text.h"

typedef struct {
    const char *in, *out;
} pair;

static void check(qk_stemmer st, const pair *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char buf[64];
        size_t len = strlen(p[i].in);
        memcpy(buf, p[i].in, len + 1);
        len = qk_stem(st, buf, len);
        buf[len] = '\0';
        if (strcmp(buf, p[i].out) != 0)
            fail_msg("%s stem of '%s': got '%s', expected '%s'", qk_stemmer_name(st), p[i].in, buf, p[i].out);
    }
}

static void test_porter_paper_examples(void **state)
{
    (void)state;
    static const pair p[] = {
        /* step 1a */
        {"caresses", "caress"},
        {"ponies", "poni"},
        {"ties", "ti"},
        {"caress", "caress"},
        {"cats", "cat"},
        /* step 1b */
        {"feed", "feed"},
        {"agreed", "agre"},
        {"plastered", "plaster"},
        {"bled", "bled"},
        {"motoring", "motor"},
        {"sing", "sing"},
        {"conflated", "conflat"},
        {"troubled", "troubl"},
        {"sized", "size"},
        {"hopping", "hop"},
        {"tanned", "tan"},
        {"falling", "fall"},
        {"hissing", "hiss"},
        {"fizzed", "fizz"},
        {"failing", "fail"},
        {"filing", "file"},
        /* step 1c */
        {"happy", "happi"},
        {"sky", "sky"},
        /* step 2 */
        {"relational", "relat"},
        {"conditional", "condit"},
        {"rational", "ration"},
        {"valenci", "valenc"},
        {"digitizer", "digit"},
        {"conformabli", "conform"},
        {"radicalli", "radic"},
        {"differentli", "differ"},
        {"vileli", "vile"},
        {"analogousli", "analog"},
        {"vietnamization", "vietnam"},
        {"predication", "predic"},
        {"operator", "oper"},
        {"feudalism", "feudal"},
        {"decisiveness", "decis"},
        {"hopefulness", "hope"},
        {"callousness", "callous"},
        {"formaliti", "formal"},
        {"sensitiviti", "sensit"},
        {"sensibiliti", "sensibl"},
        /* step 3 */
        {"triplicate", "triplic"},
        {"formative", "form"},
        {"formalize", "formal"},
        {"electriciti", "electr"},
        {"electrical", "electr"},
        {"hopeful", "hope"},
        {"goodness", "good"},
        /* step 4 */
        {"revival", "reviv"},
        {"allowance", "allow"},
        {"inference", "infer"},
        {"airliner", "airlin"},
        {"gyroscopic", "gyroscop"},
        {"adjustable", "adjust"},
        {"defensible", "defens"},
        {"irritant", "irrit"},
        {"replacement", "replac"},
        {"adjustment", "adjust"},
        {"dependent", "depend"},
        {"adoption", "adopt"},
        {"homologous", "homolog"},
        {"communism", "commun"},
        {"activate", "activ"},
        {"angularity", "angular"},
        {"effective", "effect"},
        {"bowdlerize", "bowdler"},
        /* step 5 */
        {"probate", "probat"},
        {"rate", "rate"},
        {"cease", "ceas"},
        {"controlling", "control"},
        {"roll", "roll"},
        /* whole-word examples from the paper's introduction */
        {"connect", "connect"},
        {"connected", "connect"},
        {"connecting", "connect"},
        {"connection", "connect"},
        {"connections", "connect"},
        {"generalizations", "gener"},
        {"oscillators", "oscil"},
    };
    check(QK_STEM_PORTER, p, sizeof p / sizeof p[0]);
}

static void test_porter_leaves_alone(void **state)
{
    (void)state;
    /* Two letters or fewer, digits, upper case: not English words to strip. */
    static const pair p[] = {{"is", "is"},     {"as", "as"},       {"a", "a"},
                             {"b52s", "b52s"}, {"1990s", "1990s"}, {"Ponies", "Ponies"}};
    check(QK_STEM_PORTER, p, sizeof p / sizeof p[0]);
}

static void test_s_stemmer(void **state)
{
    (void)state;
    /* Harman (1991): ies -> y (not after e or a), es -> e (not after a, e, o),
     * s -> (not after u or s); the first applicable rule only. */
    static const pair p[] = {{"ponies", "pony"}, {"cats", "cat"}, {"glasses", "glasse"}, {"corpus", "corpus"},
                             {"glass", "glass"}, {"does", "doe"}, {"aies", "aie"},       {"eies", "eie"},
                             {"toes", "toe"},    {"cat", "cat"}};
    check(QK_STEM_S, p, sizeof p / sizeof p[0]);
}

static void test_none(void **state)
{
    (void)state;
    static const pair p[] = {{"connections", "connections"}};
    check(QK_STEM_NONE, p, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_porter_paper_examples),
        cmocka_unit_test(test_porter_leaves_alone),
        cmocka_unit_test(test_s_stemmer),
        cmocka_unit_test(test_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
