/* Stemmers: Porter (1980) and Harman's S stemmer (1991).
 *
 * Porter is written from the paper's description (M.F. Porter, "An algorithm
 * for suffix stripping", Program 14(3), 1980), with the two departures that
 * Porter's own reference implementation made and that every published
 * vocabulary/output list follows: step 2 maps -bli to -ble (not -abli to
 * -able) and adds -logi -> -log. Within a step the first (longest) suffix that
 * matches is the only one tried: if its condition fails the step does nothing,
 * as in the reference implementation ("rational" keeps its -ational in
 * step 2 rather than falling through to -tional). */
#include <string.h>

#include "qrelkit/text.h"

typedef struct {
    char *b;
    size_t k; /* length of the word */
    size_t j; /* length of the stem before the last matched suffix */
} word;

/* Is b[i] a consonant? y is a consonant at the start or after a vowel. */
static int cons(const word *w, size_t i)
{
    switch (w->b[i]) {
    case 'a':
    case 'e':
    case 'i':
    case 'o':
    case 'u': return 0;
    case 'y': return i == 0 ? 1 : !cons(w, i - 1);
    default: return 1;
    }
}

/* m of b[0..n): the number of VC sequences in [C](VC)^m[V]. */
static int measure(const word *w, size_t n)
{
    size_t i = 0;
    int m = 0;
    while (i < n && cons(w, i))
        i++;
    for (;;) {
        while (i < n && !cons(w, i))
            i++;
        if (i >= n)
            return m;
        while (i < n && cons(w, i))
            i++;
        m++;
    }
}

static int vowel_in(const word *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!cons(w, i))
            return 1;
    return 0;
}

/* b[0..n) ends with a double consonant. */
static int double_cons(const word *w, size_t n)
{
    return n >= 2 && w->b[n - 1] == w->b[n - 2] && cons(w, n - 1);
}

/* b[0..n) ends consonant-vowel-consonant, the last not w, x or y (*o). */
static int cvc(const word *w, size_t n)
{
    if (n < 3 || !cons(w, n - 1) || cons(w, n - 2) || !cons(w, n - 3))
        return 0;
    char c = w->b[n - 1];
    return c != 'w' && c != 'x' && c != 'y';
}

/* Word ends with s[0..n): set j to the stem length and return 1. */
static int ends_n(word *w, const char *s, size_t n)
{
    /* Most suffixes fail on the last letter; test it before the rest. */
    if (n > w->k || w->b[w->k - 1] != s[n - 1] || memcmp(w->b + w->k - n, s, n) != 0)
        return 0;
    w->j = w->k - n;
    return 1;
}

/* Suffix literals carry their length, so matching never calls strlen. */
#define ends(w, lit) ends_n(w, lit, sizeof(lit) - 1)

static void set_to(word *w, const char *s, size_t n)
{
    memcpy(w->b + w->j, s, n);
    w->k = w->j + n;
}

/* Suffix rules of steps 2 to 4: first match only; replace when m(stem) > min. */
typedef struct {
    const char *suffix, *repl;
    size_t ns, nr;
} rule;
#define R(a, b)                                                                                              \
    {                                                                                                        \
        a, b, sizeof(a) - 1, sizeof(b) - 1                                                                   \
    }

static void apply_rules(word *w, const rule *r, size_t n, int min_m)
{
    for (size_t i = 0; i < n; i++) {
        if (!ends_n(w, r[i].suffix, r[i].ns))
            continue;
        if (measure(w, w->j) > min_m)
            set_to(w, r[i].repl, r[i].nr);
        return;
    }
}

static void step1ab(word *w)
{
    if (w->b[w->k - 1] == 's') {
        if (ends(w, "sses") || ends(w, "ies"))
            w->k -= 2;
        else if (w->k >= 2 && w->b[w->k - 2] != 's')
            w->k--;
    }
    if (ends(w, "eed")) {
        if (measure(w, w->j) > 0)
            w->k--;
        return;
    }
    if (!((ends(w, "ed") || ends(w, "ing")) && vowel_in(w, w->j)))
        return;
    w->k = w->j;
    // NOLINTNEXTLINE(bugprone-branch-clone): Porter's step 1b, in the order of its tests
    if (ends(w, "at") || ends(w, "bl") || ends(w, "iz")) {
        w->b[w->k++] = 'e';
    } else if (double_cons(w, w->k)) {
        char c = w->b[w->k - 1];
        if (c != 'l' && c != 's' && c != 'z')
            w->k--;
    } else if (measure(w, w->k) == 1 && cvc(w, w->k)) {
        w->b[w->k++] = 'e';
    }
}

static void step1c(word *w)
{
    if (ends(w, "y") && vowel_in(w, w->j))
        w->b[w->k - 1] = 'i';
}

static const rule step2_rules[] = {
    R("ational", "ate"), R("tional", "tion"), R("enci", "ence"), R("anci", "ance"), R("izer", "ize"),
    R("bli", "ble"),     R("alli", "al"),     R("entli", "ent"), R("eli", "e"),     R("ousli", "ous"),
    R("ization", "ize"), R("ation", "ate"),   R("ator", "ate"),  R("alism", "al"),  R("iveness", "ive"),
    R("fulness", "ful"), R("ousness", "ous"), R("aliti", "al"),  R("iviti", "ive"), R("biliti", "ble"),
    R("logi", "log"),
};

static const rule step3_rules[] = {
    R("icate", "ic"), R("ative", ""), R("alize", "al"), R("iciti", "ic"),
    R("ical", "ic"),  R("ful", ""),   R("ness", ""),
};

/* -ion needs s or t before it, so it is handled apart. */
static const rule step4_rules[] = {
    R("al", ""),   R("ance", ""), R("ence", ""),  R("er", ""),   R("ic", ""),  R("able", ""),
    R("ible", ""), R("ant", ""),  R("ement", ""), R("ment", ""), R("ent", ""), R("ou", ""),
    R("ism", ""),  R("ate", ""),  R("iti", ""),   R("ous", ""),  R("ive", ""), R("ize", ""),
};

static void step4(word *w)
{
    if (ends(w, "ion")) {
        if (w->j > 0 && (w->b[w->j - 1] == 's' || w->b[w->j - 1] == 't') && measure(w, w->j) > 1)
            w->k = w->j;
        return;
    }
    apply_rules(w, step4_rules, sizeof step4_rules / sizeof step4_rules[0], 1);
}

static void step5(word *w)
{
    if (w->b[w->k - 1] == 'e') {
        int m = measure(w, w->k - 1);
        if (m > 1 || (m == 1 && !cvc(w, w->k - 1)))
            w->k--;
    }
    if (w->b[w->k - 1] == 'l' && double_cons(w, w->k) && measure(w, w->k) > 1)
        w->k--;
}

static int all_lower_alpha(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] < 'a' || s[i] > 'z')
            return 0;
    return 1;
}

size_t qk_stem_porter(char *s, size_t len)
{
    word w = {s, len, 0};
    /* Words of one or two letters are left alone, as in the paper. */
    if (len <= 2 || !all_lower_alpha(s, len))
        return len;
    step1ab(&w);
    step1c(&w);
    apply_rules(&w, step2_rules, sizeof step2_rules / sizeof step2_rules[0], 0);
    apply_rules(&w, step3_rules, sizeof step3_rules / sizeof step3_rules[0], 0);
    step4(&w);
    step5(&w);
    return w.k;
}

/* Harman, "How effective is suffixing?", JASIS 42(1), 1991: only the first
 * matching of three plural rules. */
size_t qk_stem_s(char *s, size_t len)
{
    if (len < 3 || !all_lower_alpha(s, len))
        return len;
    /* A rule whose exception applies is not applicable, so the next one is
     * tried ("does" -> "doe"), as in Harman's description. */
    if (len > 3 && memcmp(s + len - 3, "ies", 3) == 0 && s[len - 4] != 'e' && s[len - 4] != 'a') {
        s[len - 3] = 'y';
        return len - 2;
    }
    if (memcmp(s + len - 2, "es", 2) == 0 && s[len - 3] != 'a' && s[len - 3] != 'e' && s[len - 3] != 'o')
        return len - 1;
    if (s[len - 1] == 's' && s[len - 2] != 'u' && s[len - 2] != 's')
        return len - 1;
    return len;
}

size_t qk_stem(qk_stemmer st, char *w, size_t len)
{
    switch (st) {
    case QK_STEM_PORTER: return qk_stem_porter(w, len);
    case QK_STEM_S: return qk_stem_s(w, len);
    default: return len;
    }
}
