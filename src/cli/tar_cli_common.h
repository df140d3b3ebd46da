/* What `tar run` and `simulate tar` share: the review options, reading a
 * corpus into memory, tf-idf features and the simulated assessor's truth. */
#ifndef QK_CLI_TAR_COMMON_H
#define QK_CLI_TAR_COMMON_H

#include <getopt.h>

#include "cli_util.h"
#include "qrelkit/qrelkit.h"

/* getopt ids of the review options (tar_review_opts), from 300 up. */
enum {
    TAR_O_STOP = 300,
    TAR_O_TARGET,
    TAR_O_SEED,
    TAR_O_SAMPLER,
    TAR_O_ESTIMATOR,
    TAR_O_STRATEGY,
    TAR_O_KTEMP,
    TAR_O_C,
    TAR_O_KNEE_BOUND,
    TAR_O_KNEE_BETA,
    TAR_O_TARGET_NREL,
    TAR_O_SCAL_NU,
    TAR_O_SCAL_B,
    TAR_O_SCAL_ETA,
    TAR_O_POWERLAW_BETA,
    TAR_O_MIXTURE_EPS,
    TAR_O_MIN_DF,
    TAR_O_FIELDS,
    TAR_O_SD_SAMPLE,
    TAR_O_LAST
};
extern const qk_cli_opt tar_review_opts[];
/* The getopt rows of those options, to copy into a command's table. */
#define TAR_REVIEW_LONGOPTS                                                                                    \
    {"stop", required_argument, NULL, TAR_O_STOP}, {"target", required_argument, NULL, TAR_O_TARGET},         \
        {"seed", required_argument, NULL, TAR_O_SEED}, {"sampler", required_argument, NULL, TAR_O_SAMPLER},   \
        {"estimator", required_argument, NULL, TAR_O_ESTIMATOR},                                              \
        {"strategy", required_argument, NULL, TAR_O_STRATEGY}, {"k-temp", required_argument, NULL, TAR_O_KTEMP}, \
        {"lr-c", required_argument, NULL, TAR_O_C}, {"knee-bound", required_argument, NULL, TAR_O_KNEE_BOUND}, \
        {"knee-beta", required_argument, NULL, TAR_O_KNEE_BETA},                                              \
        {"target-nrel", required_argument, NULL, TAR_O_TARGET_NREL},                                          \
        {"scal-nu", required_argument, NULL, TAR_O_SCAL_NU}, {"scal-b", required_argument, NULL, TAR_O_SCAL_B}, \
        {"scal-eta", required_argument, NULL, TAR_O_SCAL_ETA},                                                \
        {"powerlaw-beta", required_argument, NULL, TAR_O_POWERLAW_BETA},                                      \
        {"mixture-eps", required_argument, NULL, TAR_O_MIXTURE_EPS},                                          \
        {"min-df", required_argument, NULL, TAR_O_MIN_DF}, {"fields", required_argument, NULL, TAR_O_FIELDS},  \
        {"sd-sample", required_argument, NULL, TAR_O_SD_SAMPLE}

/* The help lines of those options (shared by both commands' help). */
#define TAR_REVIEW_HELP                                                                                        \
    "  --stop RULE            @{tar-stop} (default autostop)\n"                                               \
    "  --target R             target recall in (0, 1] (default 1)\n"                                          \
    "  --seed N               random seed (default 0)\n"                                                      \
    "  --sampler NAME         AutoStop's distribution over ranks: @{tar-sampler}\n"                           \
    "  --estimator NAME       AutoStop's estimate of R: @{tar-estimator}\n"                                   \
    "  --strategy NAME        AutoStop's stopping test: @{tar-strategy}\n"                                    \
    "  --k-temp K             temporary non-relevant documents per round (100)\n"                             \
    "  --lr-c C               logistic regression's cost C (1)\n"                                             \
    "  --knee-bound B         Knee's slope-ratio bound (default 156 - min(found, 150))\n"                     \
    "  --knee-beta N          documents reviewed before a knee may stop (1000)\n"                             \
    "  --target-nrel N        relevant documents in Target's / Budget's target set (10)\n"                    \
    "  --scal-nu F            SCAL's uniform sample, a fraction of the collection (1)\n"                      \
    "  --scal-b N             SCAL's sub-sample per bucket (30)\n"                                            \
    "  --scal-eta E           SCAL's calibration factor (1.05)\n"                                             \
    "  --powerlaw-beta B      exponent of --sampler powerlaw (-0.8)\n"                                        \
    "  --mixture-eps E        mass outside the top ranks for --sampler mixture (0.5)\n"                       \
    "  --sd-sample F          SD-sampling's sample, a fraction of the collection (0.2)\n"              \
    "  --min-df N             drop terms in fewer than N documents (2)\n"                                     \
    "  --fields LIST          corpus fields that make the text (JSON keys or TREC tags;\n"                    \
    "                         default every string field but the id / all of <DOC>)\n"

typedef struct tar_cli_settings {
    qk_tar_opts review;
    size_t min_df;
    const char *fields;
} tar_cli_settings;
void tar_cli_settings_init(tar_cli_settings *s);
/* 0, an exit code, or -1 when id is not a review option. */
int tar_cli_option(const char *cmd, tar_cli_settings *s, int id, const char *arg);

typedef struct tar_corpus {
    size_t n, cap;
    char **docno;
    char **text;
    size_t *len;
    qk_strpool *ids; /* docno -> index */
} tar_corpus;
/* Read every document (a repeated docno keeps its first text). */
int tar_cli_read_corpus(const char *cmd, const char *path, const char *fields, tar_corpus *c);
void tar_cli_corpus_free(tar_corpus *c);
/* X: the corpus's rows, then one row per topic text. */
int tar_cli_features(const char *cmd, const tar_corpus *c, const char *const *topics, size_t ntopics,
                     size_t min_df, qk_sparse *X);
/* rel[0..c->n) of topic qid from the qrels: a relevant document that the
 * corpus lacks is an error; *missing counts the non-relevant ones. */
int tar_cli_truth(const char *cmd, const qk_qrels *q, const char *qrels_path, const char *corpus_path,
                  const char *qid, const tar_corpus *c, unsigned char *rel, size_t *nrel, size_t *missing);

#endif
