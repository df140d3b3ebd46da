/* The built-in English stop list: function words (articles, pronouns,
 * auxiliaries, prepositions, conjunctions) that carry no topical meaning.
 * Deliberately short, about the size of the common NLTK-style lists: a long
 * list (SMART's 571 words) removes words such as "system" and "use" that do
 * carry meaning in technical queries. Kept sorted (strcmp order) so look-up
 * is a binary search; test_text_tokenize checks the order. */
#include <stdlib.h>
#include <string.h>

#include "qrelkit/text.h"

static const char *const stop_words[] = {
    "a", "about", "above", "after", "again", "against", "all", "also",
    "although", "am", "among", "an", "and", "any", "are", "as",
    "at", "be", "became", "because", "become", "becomes", "been", "before",
    "being", "below", "between", "both", "but", "by", "can", "could",
    "did", "do", "does", "doing", "down", "during", "each", "either",
    "etc", "ever", "every", "few", "for", "from", "further", "had",
    "has", "have", "having", "he", "hence", "her", "here", "hers",
    "herself", "him", "himself", "his", "how", "however", "i", "if",
    "in", "into", "is", "it", "its", "itself", "just", "may",
    "me", "might", "more", "most", "must", "my", "myself", "neither",
    "no", "nor", "not", "now", "of", "off", "on", "once",
    "only", "onto", "or", "other", "our", "ours", "ourselves", "out",
    "over", "own", "per", "same", "shall", "she", "should", "so",
    "some", "such", "than", "that", "the", "their", "theirs", "them",
    "themselves", "then", "there", "therefore", "these", "they", "this", "those",
    "though", "through", "thus", "to", "too", "toward", "towards", "under",
    "until", "up", "upon", "us", "very", "via", "was", "we",
    "were", "what", "when", "where", "whereas", "wherein", "whether", "which",
    "while", "who", "whom", "whose", "why", "will", "with", "within",
    "without", "would", "yet", "you", "your", "yours", "yourself", "yourselves",
};

size_t qk_stop_count(void) { return sizeof stop_words / sizeof stop_words[0]; }

const char *qk_stop_word(size_t i) { return i < qk_stop_count() ? stop_words[i] : NULL; }

typedef struct {
    const char *w;
    size_t len;
} key;

static int cmp_key(const void *k, const void *e)
{
    const key *a = k;
    const char *s = *(const char *const *)e;
    int c = strncmp(a->w, s, a->len);
    /* Equal prefixes: the stop word is longer than the key unless it ends here. */
    return c != 0 ? c : -(s[a->len] != '\0');
}

int qk_stop_contains(const char *w, size_t len)
{
    key k = {w, len};
    return bsearch(&k, stop_words, qk_stop_count(), sizeof stop_words[0], cmp_key) != NULL;
}
