/* Tests of qk_sim_collection_write: the files are read back and checked
 * against the model's definition, without using the generator's internals. */
/* cmocka.h needs these first. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "qrelkit/qrelkit.h"

/* ---- helpers -------------------------------------------------------------- */

static char *make_tmpdir(void)
{
    char tmpl[] = "/tmp/qk_sim_test_XXXXXX";
    char *d = mkdtemp(tmpl);
    assert_non_null(d);
    return strdup(d);
}

static void remove_tree(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[512];
    FILE *f;
    char *buf;
    long n;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

/* As `qrelkit sim collection` does: options checked, the directory opened
 * (made when missing), then the collection written into it. */
static qk_status write_to(const char *dir, const qk_sim_collection_opts *o, qk_error *err)
{
    qk_outdir *d = NULL;
    qk_status st = qk_sim_collection_check(o, err);
    if (st == QK_OK)
        st = qk_outdir_open(dir, &d, err);
    if (st == QK_OK)
        st = qk_sim_collection_write(d, o, err);
    qk_outdir_close(d);
    return st;
}

static void small_opts(qk_sim_collection_opts *o)
{
    qk_sim_collection_opts_init(o);
    o->topics = 7;
    o->docs_per_topic = 60;
    o->depth = 20;
    o->runs = 3;
    o->seed = 11;
}

static char *generate(const qk_sim_collection_opts *o)
{
    qk_error err;
    char *dir = make_tmpdir();
    qk_error_clear(&err);
    assert_int_equal(write_to(dir, o, &err), QK_OK);
    return dir;
}

static int same_file(const char *a, const char *b, const char *name)
{
    size_t la, lb;
    char *x = slurp(a, name, &la), *y = slurp(b, name, &lb);
    int same;
    assert_non_null(x);
    assert_non_null(y);
    same = la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

/* Judgments of a collection: grade[topic][doc] with -1 for unjudged. Topic
 * and document numbers are read from the ids (T007 -> 6, D007-0012 -> 11). */
typedef struct {
    int topics, docs;
    int *grade;
} judgments;

static judgments read_qrels(const char *dir, int topics, int docs)
{
    judgments j = {topics, docs, malloc(sizeof(int) * (size_t)topics * (size_t)docs)};
    char *text = slurp(dir, "qrels.txt", NULL), *save = NULL;
    assert_non_null(text);
    for (int i = 0; i < topics * docs; i++)
        j.grade[i] = -1;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int t, t2, d, g;
        assert_int_equal(sscanf(line, "T%d 0 D%d-%d %d", &t, &t2, &d, &g), 4);
        assert_int_equal(t, t2);
        assert_in_range(t, 1, topics);
        assert_in_range(d, 1, docs);
        assert_int_equal(j.grade[(t - 1) * docs + d - 1], -1); /* no duplicates */
        j.grade[(t - 1) * docs + d - 1] = g;
    }
    free(text);
    return j;
}

/* Mean precision at k of a run file. Also checks the run's shape: depth
 * lines per topic, ranks 1.., scores strictly decreasing, docnos of the topic. */
static double run_precision(const char *dir, const char *name, const judgments *j, int depth, int k)
{
    char file[64], *text, *save = NULL;
    int *count = calloc((size_t)j->topics, sizeof(int));
    double prev = 0, sum = 0;
    int last_t = 0;
    snprintf(file, sizeof file, "runs/%s.run", name);
    text = slurp(dir, file, NULL);
    assert_non_null(text);
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int t, t2, d, rank;
        double score;
        char runid[32];
        assert_int_equal(sscanf(line, "T%d Q0 D%d-%d %d %lf %31s", &t, &t2, &d, &rank, &score, runid), 6);
        assert_int_equal(t, t2);
        assert_string_equal(runid, name);
        assert_true(t >= last_t); /* topics in order, each once */
        if (t != last_t)
            assert_int_equal(count[t - 1], 0);
        assert_int_equal(rank, ++count[t - 1]);
        if (rank > 1)
            assert_true(score < prev);
        prev = score;
        last_t = t;
        if (rank <= k && j->grade[(t - 1) * j->docs + d - 1] > 0)
            sum += 1.0;
    }
    for (int t = 0; t < j->topics; t++)
        assert_int_equal(count[t], depth);
    free(count);
    free(text);
    return sum / (double)(j->topics * k);
}

/* ---- tests ---------------------------------------------------------------- */

static void test_same_seed_same_bytes(void **state)
{
    qk_sim_collection_opts o;
    const char *files[] = {"qrels.txt",      "topics.tsv",     "manifest.json",
                           "runs/run01.run", "runs/run02.run", "runs/run03.run"};
    char *a, *b, *c;
    (void)state;
    small_opts(&o);
    a = generate(&o);
    b = generate(&o);
    o.seed = 12;
    c = generate(&o);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        assert_true(same_file(a, b, files[i]));
    assert_false(same_file(a, c, "qrels.txt"));
    assert_false(same_file(a, c, "runs/run01.run"));
    remove_tree(a);
    remove_tree(b);
    remove_tree(c);
    free(a);
    free(b);
    free(c);
}

static void test_counts_and_shape(void **state)
{
    qk_sim_collection_opts o;
    judgments j;
    char *dir, *tsv, *save = NULL;
    int rows = 0;
    (void)state;
    small_opts(&o);
    o.levels = 3;
    o.rel_rate = 0.3;
    dir = generate(&o);
    j = read_qrels(dir, 7, 60);
    /* qrels-fraction 1: every candidate judged, every grade within 0..3. */
    for (int i = 0; i < 7 * 60; i++)
        assert_in_range(j.grade[i], 0, 3);
    for (int r = 1; r <= 3; r++) {
        char name[8];
        snprintf(name, sizeof name, "run%02d", r);
        run_precision(dir, name, &j, 20, 10);
    }
    /* topics.tsv: header, then one row per topic whose relevant count is the
     * number of positive grades in the qrels. */
    tsv = slurp(dir, "topics.tsv", NULL);
    for (char *line = strtok_r(tsv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int t, rel, judged, want = 0;
        double d;
        if (rows++ == 0) {
            assert_string_equal(line, "qid\tdifficulty\trelevant\tjudged");
            continue;
        }
        assert_int_equal(sscanf(line, "T%d\t%lf\t%d\t%d", &t, &d, &rel, &judged), 4);
        assert_int_equal(t, rows - 1);
        assert_true(d >= 0 && d <= 0.8);
        for (int i = 0; i < 60; i++)
            want += j.grade[(t - 1) * 60 + i] > 0;
        assert_int_equal(rel, want);
        assert_true(rel >= 1);
        assert_int_equal(judged, 60);
    }
    assert_int_equal(rows, 8);
    free(tsv);
    free(j.grade);
    remove_tree(dir);
    free(dir);
}

static void test_qrels_fraction(void **state)
{
    qk_sim_collection_opts o;
    judgments j;
    char *dir;
    (void)state;
    small_opts(&o);
    o.qrels_fraction = 0.25; /* 15 of 60 judged per topic */
    o.runs = 0;
    dir = generate(&o);
    j = read_qrels(dir, 7, 60);
    for (int t = 0; t < 7; t++) {
        int n = 0;
        for (int i = 0; i < 60; i++)
            n += j.grade[t * 60 + i] >= 0;
        assert_int_equal(n, 15);
    }
    free(j.grade);
    remove_tree(dir);
    free(dir);
}

/* The point of the generator: better runs (by their stated quality) must
 * retrieve more relevant documents. Checked on precision at 10 recomputed
 * here from the qrels, with the qualities read from manifest.json. */
static void test_quality_order(void **state)
{
    qk_sim_collection_opts o;
    judgments j;
    json_t *m, *runs;
    json_error_t jerr;
    char *dir, path[512];
    double q[12], p[12];
    int concordant = 0, discordant = 0, best = 0, worst = 0;
    (void)state;
    qk_sim_collection_opts_init(&o);
    o.topics = 25;
    o.docs_per_topic = 200;
    o.depth = 50;
    o.runs = 12;
    o.seed = 5;
    dir = generate(&o);
    j = read_qrels(dir, 25, 200);
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    m = json_load_file(path, 0, &jerr);
    assert_non_null(m);
    runs = json_object_get(m, "run_files");
    assert_int_equal(json_array_size(runs), 12);
    for (int r = 0; r < 12; r++) {
        json_t *run = json_array_get(runs, (size_t)r);
        q[r] = json_real_value(json_object_get(run, "quality"));
        p[r] = run_precision(dir, json_string_value(json_object_get(run, "name")), &j, 50, 10);
        if (q[r] > q[best])
            best = r;
        if (q[r] < q[worst])
            worst = r;
    }
    /* spread: qualities 0.1 .. 0.9 evenly, in some order. */
    assert_true(q[best] > 0.8999 && q[best] < 0.9001);
    assert_true(q[worst] > 0.0999 && q[worst] < 0.1001);
    assert_true(p[best] > p[worst] + 0.2);
    for (int a = 0; a < 12; a++)
        for (int b = a + 1; b < 12; b++) {
            double s = (q[a] - q[b]) * (p[a] - p[b]);
            concordant += s > 0;
            discordant += s < 0;
        }
    /* Kendall's tau between quality and precision, well above chance. */
    assert_true((double)(concordant - discordant) / 66.0 > 0.6);
    json_decref(m);
    free(j.grade);
    remove_tree(dir);
    free(dir);
}

static void test_quality_list_and_random(void **state)
{
    qk_sim_collection_opts o;
    qk_error err;
    double list[3] = {0.2, 0.55555, 0.9}, q[3];
    (void)state;
    small_opts(&o);
    o.quality_mode = QK_SIM_QUALITY_LIST;
    o.qualities = list;
    assert_int_equal(qk_sim_run_qualities(&o, q, &err), QK_OK);
    assert_true(q[0] == 0.2 && q[1] == 0.5556 && q[2] == 0.9); /* rounded to 4 decimals */
    list[1] = 1.0;
    assert_int_equal(qk_sim_run_qualities(&o, q, &err), QK_EUSAGE);
    assert_non_null(strstr(err.message, "--run-quality"));
    o.quality_mode = QK_SIM_QUALITY_RANDOM;
    assert_int_equal(qk_sim_run_qualities(&o, q, &err), QK_OK);
    for (int r = 0; r < 3; r++)
        assert_true(q[r] >= 0.1 && q[r] <= 0.9);
}

static void test_bad_options(void **state)
{
    qk_sim_collection_opts o;
    qk_error err;
    (void)state;
    small_opts(&o);
    o.depth = 61;
    assert_int_equal(qk_sim_collection_check(&o, &err), QK_EUSAGE);
    assert_string_equal(err.message, "--depth 61 exceeds --docs-per-topic 60");
    small_opts(&o);
    o.topics = 0;
    assert_int_equal(qk_sim_collection_check(&o, &err), QK_EUSAGE);
    assert_string_equal(err.message, "--topics must be between 1 and 10000000 (got 0)");
    small_opts(&o);
    o.rel_rate = 0;
    assert_int_equal(qk_sim_collection_check(&o, &err), QK_EUSAGE);
    small_opts(&o);
    o.qrels_fraction = 1.5;
    assert_int_equal(write_to("/nonexistent-never", &o, &err), QK_EUSAGE);
}

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;
    assert_non_null(d);
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* A failure part-way (here: runs/ is a plain file, so it cannot become a
 * directory) must leave no file behind. */
static void test_failure_leaves_nothing(void **state)
{
    qk_sim_collection_opts o;
    qk_error err;
    char *dir = make_tmpdir(), path[512];
    FILE *f;
    (void)state;
    small_opts(&o);
    snprintf(path, sizeof path, "%s/runs", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    qk_error_clear(&err);
    assert_int_equal(write_to(dir, &o, &err), QK_EIO);
    assert_non_null(strstr(err.message, "/runs': cannot create directory"));
    assert_int_equal(count_entries(dir), 1);
    /* And a directory under a plain file cannot be made at all. */
    snprintf(path, sizeof path, "%s/runs/sub", dir);
    assert_int_equal(write_to(path, &o, &err), QK_EIO);
    assert_non_null(strstr(err.message, "cannot create directory: Not a directory"));
    remove_tree(dir);
    free(dir);
}

static int exists(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* Regenerating with fewer runs removes the runs of the earlier generation
 * (named by its manifest), and nothing else. */
static void test_regenerate_fewer_runs(void **state)
{
    qk_sim_collection_opts o;
    qk_error err;
    char *dir, path[512];
    FILE *f;
    (void)state;
    small_opts(&o);
    o.runs = 3;
    dir = generate(&o);
    snprintf(path, sizeof path, "%s/runs/mine.run", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    o.runs = 1;
    assert_int_equal(write_to(dir, &o, &err), QK_OK);
    assert_true(exists(dir, "runs/run01.run"));
    assert_false(exists(dir, "runs/run02.run"));
    assert_false(exists(dir, "runs/run03.run"));
    assert_true(exists(dir, "runs/mine.run"));
    assert_int_equal(count_entries(dir), 4); /* qrels, topics, manifest, runs/ */
    remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_bytes),    cmocka_unit_test(test_counts_and_shape),
        cmocka_unit_test(test_qrels_fraction),          cmocka_unit_test(test_quality_order),
        cmocka_unit_test(test_quality_list_and_random), cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_failure_leaves_nothing),  cmocka_unit_test(test_regenerate_fewer_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
