/* The built-in English stop list: function words (articles, pronouns,
 * auxiliaries, prepositions, conjunctions) that carry no topical meaning.
 * Deliberately short, about the size of the common NLTK-style lists: a long
 * list (SMART's 571 words) removes words such as "system" and "use" that do
 * carry meaning in technical queries. Kept sorted (strcmp order) for the
 * documentation and tests; test_text_tokenize checks the order. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "qrelkit/text.h"

static const char *const stop_words[] = {
    "a",          "about",   "above",   "after",     "again",   "against", "all",       "also",
    "although",   "am",      "among",   "an",        "and",     "any",     "are",       "as",
    "at",         "be",      "became",  "because",   "become",  "becomes", "been",      "before",
    "being",      "below",   "between", "both",      "but",     "by",      "can",       "could",
    "did",        "do",      "does",    "doing",     "down",    "during",  "each",      "either",
    "etc",        "ever",    "every",   "few",       "for",     "from",    "further",   "had",
    "has",        "have",    "having",  "he",        "hence",   "her",     "here",      "hers",
    "herself",    "him",     "himself", "his",       "how",     "however", "i",         "if",
    "in",         "into",    "is",      "it",        "its",     "itself",  "just",      "may",
    "me",         "might",   "more",    "most",      "must",    "my",      "myself",    "neither",
    "no",         "nor",     "not",     "now",       "of",      "off",     "on",        "once",
    "only",       "onto",    "or",      "other",     "our",     "ours",    "ourselves", "out",
    "over",       "own",     "per",     "same",      "shall",   "she",     "should",    "so",
    "some",       "such",    "than",    "that",      "the",     "their",   "theirs",    "them",
    "themselves", "then",    "there",   "therefore", "these",   "they",    "this",      "those",
    "though",     "through", "thus",    "to",        "too",     "toward",  "towards",   "under",
    "until",      "up",      "upon",    "us",        "very",    "via",     "was",       "we",
    "were",       "what",    "when",    "where",     "whereas", "wherein", "whether",   "which",
    "while",      "who",     "whom",    "whose",     "why",     "will",    "with",      "within",
    "without",    "would",   "yet",     "you",       "your",    "yours",   "yourself",  "yourselves",
};

size_t qk_stop_count(void)
{
    return sizeof stop_words / sizeof stop_words[0];
}

const char *qk_stop_word(size_t i)
{
    return i < qk_stop_count() ? stop_words[i] : NULL;
}

/* An open-addressing hash set over the list, built once: stopping runs for
 * every token of every document, and a binary search of 160 strings per
 * token showed up in indexing profiles. */
#define SLOTS 512 /* a power of two, over three times the list */
static int16_t slot[SLOTS];
static pthread_once_t built = PTHREAD_ONCE_INIT;

static uint32_t hash(const char *w, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)w[i]) * 16777619u;
    return h;
}

static void build(void)
{
    for (size_t i = 0; i < SLOTS; i++)
        slot[i] = -1;
    for (size_t i = 0; i < qk_stop_count(); i++) {
        uint32_t h = hash(stop_words[i], strlen(stop_words[i])) & (SLOTS - 1);
        while (slot[h] >= 0)
            h = (h + 1) & (SLOTS - 1);
        slot[h] = (int16_t)i;
    }
}

int qk_stop_contains(const char *w, size_t len)
{
    uint32_t h;
    if (len == 0 || len > 12) /* no stop word is longer */
        return 0;
    pthread_once(&built, build);
    for (h = hash(w, len) & (SLOTS - 1); slot[h] >= 0; h = (h + 1) & (SLOTS - 1)) {
        const char *s = stop_words[slot[h]];
        if (strncmp(s, w, len) == 0 && s[len] == '\0')
            return 1;
    }
    return 0;
}
