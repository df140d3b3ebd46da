/* Synthetic test collections: topics with graded candidates, runs of known
 * quality, written as TREC files while they are generated.
 *
 * Model (doc/qrelkit-sim.md has the long form):
 *   topic difficulty   d ~ U{0, 0.0001, ..., 0.8}
 *   candidate grade    relevant with probability rel_rate; a relevant
 *                      document climbs each further grade with probability
 *                      1/2 up to `levels`; at least one relevant per topic
 *   judged candidates  round(qrels_fraction * docs) chosen uniformly
 *   run score          SIGNAL * q * (1 - d) * grade / levels + N(0, 1)
 * A run keeps its `depth` best-scoring candidates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/sim.h"
#include "sim/sim_files.h"

/* Score gap between the top grade and a non-relevant document, in noise
 * standard deviations, for a perfect run on the easiest topic. 4 makes the
 * best runs clearly good (MAP around 0.6 to 0.8) and quality 0.1 close to
 * random, so the default spread of qualities gives clearly different runs. */
#define SIGNAL 4.0
#define QUALITY_LO 0.1
#define QUALITY_HI 0.9
#define DIFFICULTY_MAX 8000 /* in units of 1e-4 */
#define MAX_TOPICS 10000000L
#define MAX_DOCS 10000000L
#define MAX_RUNS 500 /* every run file is open at once; stay under ulimit -n */
#define MAX_LEVELS 9
#define MODEL_VERSION 1

/* Independent generator streams, so that one stream's draws never shift
 * another's: qualities, each topic, each (topic, run). */
enum { STREAM_QUALITY = 1, STREAM_TOPIC = 2, STREAM_RUN = 3 };

void qk_sim_collection_opts_init(qk_sim_collection_opts *o)
{
    memset(o, 0, sizeof *o);
    o->topics = 50;
    o->docs_per_topic = 1000;
    o->depth = 100;
    o->runs = 12;
    o->levels = 2;
    o->rel_rate = 0.1;
    o->qrels_fraction = 1.0;
    o->seed = 42;
    o->quality_mode = QK_SIM_QUALITY_SPREAD;
}

static qk_status range_long(const char *opt, long v, long lo, long hi, qk_error *err)
{
    if (v < lo || v > hi)
        return qk_error_set(err, QK_EUSAGE, "%s must be between %ld and %ld (got %ld)", opt, lo, hi, v);
    return QK_OK;
}

qk_status qk_sim_collection_check(const qk_sim_collection_opts *o, qk_error *err)
{
    qk_status st;
    if ((st = range_long("--topics", o->topics, 1, MAX_TOPICS, err)) ||
        (st = range_long("--docs-per-topic", o->docs_per_topic, 1, MAX_DOCS, err)) ||
        (st = range_long("--depth", o->depth, 1, MAX_DOCS, err)) ||
        (st = range_long("--runs", o->runs, 0, MAX_RUNS, err)) ||
        (st = range_long("--levels", o->levels, 1, MAX_LEVELS, err)))
        return st;
    if (o->depth > o->docs_per_topic)
        return qk_error_set(err, QK_EUSAGE, "--depth %ld exceeds --docs-per-topic %ld", o->depth,
                            o->docs_per_topic);
    /* Written so that NaN fails too. */
    if (!(o->rel_rate > 0 && o->rel_rate <= 1))
        return qk_error_set(err, QK_EUSAGE, "--rel-rate must be in (0, 1] (got %g)", o->rel_rate);
    if (!(o->qrels_fraction >= 0 && o->qrels_fraction <= 1))
        return qk_error_set(err, QK_EUSAGE, "--qrels-fraction must be in [0, 1] (got %g)", o->qrels_fraction);
    switch (o->quality_mode) {
    case QK_SIM_QUALITY_SPREAD:
    case QK_SIM_QUALITY_RANDOM: break;
    case QK_SIM_QUALITY_LIST:
        if (!o->qualities && o->runs > 0)
            return qk_error_set(err, QK_EUSAGE, "--run-quality: no list of qualities given");
        for (long r = 0; r < o->runs; r++)
            if (!(o->qualities[r] > 0 && o->qualities[r] < 1))
                return qk_error_set(err, QK_EUSAGE, "--run-quality: quality %g of run %ld is not in (0, 1)",
                                    o->qualities[r], r + 1);
        break;
    default: return qk_error_set(err, QK_EUSAGE, "unknown run quality mode %d", (int)o->quality_mode);
    }
    return QK_OK;
}

/* splitmix64's finaliser: a bijective mix, so distinct stream keys never
 * share a seed by construction at any one step. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void stream_seed(qk_rng *r, uint64_t seed, uint64_t kind, uint64_t a, uint64_t b)
{
    uint64_t h = mix64(seed + 0x9e3779b97f4a7c15ULL);
    h = mix64(h ^ kind);
    h = mix64(h ^ a);
    h = mix64(h ^ (b + 0x632be59bd9b4e019ULL));
    qk_rng_seed(r, h);
}

/* Four decimals, so the manifest states exactly the value that was used. */
static double round4(double x)
{
    return floor(x * 10000.0 + 0.5) / 10000.0;
}

qk_status qk_sim_run_qualities(const qk_sim_collection_opts *o, double *q, qk_error *err)
{
    qk_rng rng;
    qk_status st = qk_sim_collection_check(o, err);
    if (st)
        return st;
    stream_seed(&rng, o->seed, STREAM_QUALITY, 0, 0);
    for (long r = 0; r < o->runs; r++) {
        switch (o->quality_mode) {
        case QK_SIM_QUALITY_SPREAD:
            q[r] = o->runs == 1 ? 0.5
                                : QUALITY_LO + (QUALITY_HI - QUALITY_LO) * (double)r / (double)(o->runs - 1);
            break;
        case QK_SIM_QUALITY_RANDOM:
            q[r] = QUALITY_LO + (QUALITY_HI - QUALITY_LO) * qk_rng_uniform(&rng);
            break;
        default: q[r] = o->qualities[r]; break;
        }
        q[r] = round4(q[r]);
    }
    /* Shuffled so that run names say nothing about quality: a reader of the
     * evaluation cannot guess the answer from the file names. */
    if (o->quality_mode == QK_SIM_QUALITY_SPREAD)
        for (long r = o->runs - 1; r > 0; r--) {
            long j = (long)qk_rng_below(&rng, (uint64_t)r + 1);
            double tmp = q[r];
            q[r] = q[j];
            q[j] = tmp;
        }
    return QK_OK;
}

typedef struct {
    double s;
    uint32_t doc;
} scored;

typedef struct {
    const qk_sim_collection_opts *o;
    double *quality;
    qk_outfile qrels, topics, manifest;
    qk_outfile *runs;
    char (*names)[16];
    unsigned char *grade;
    scored *sc;
    int64_t *micro;
    qk_simbuf buf;
    char *old_manifest; /* of an earlier generation in the same directory, or NULL */
    int tw, dw;         /* digits of topic and document numbers */
    size_t line;        /* upper bound on one output line */
    char qid[24];
    size_t qidlen;
} gen;

static int by_score_desc(const void *pa, const void *pb)
{
    const scored *a = pa, *b = pb;
    if (a->s != b->s)
        return a->s > b->s ? -1 : 1;
    return a->doc < b->doc ? -1 : a->doc > b->doc; /* deterministic ties */
}

static void put_docno(gen *g, long t, uint32_t doc)
{
    qk_simbuf_str(&g->buf, "D", 1);
    qk_simbuf_uint(&g->buf, (uint64_t)t + 1, g->tw);
    qk_simbuf_str(&g->buf, "-", 1);
    qk_simbuf_uint(&g->buf, (uint64_t)doc + 1, g->dw);
}

/* Grades of one topic's candidates; returns the number of relevant ones. */
static long draw_grades(gen *g, qk_rng *rng)
{
    const qk_sim_collection_opts *o = g->o;
    long nrel = 0;
    for (long i = 0; i < o->docs_per_topic; i++) {
        int grade = 0;
        if (qk_rng_uniform(rng) < o->rel_rate) {
            grade = 1;
            while (grade < o->levels && qk_rng_uniform(rng) < 0.5)
                grade++;
            nrel++;
        }
        g->grade[i] = (unsigned char)grade;
    }
    /* A topic without a relevant document has undefined AP and is dropped by
     * most tools; keep every topic usable. */
    if (nrel == 0) {
        g->grade[qk_rng_below(rng, (uint64_t)o->docs_per_topic)] = 1;
        nrel = 1;
    }
    return nrel;
}

static long judged_count(const qk_sim_collection_opts *o)
{
    return (long)floor(o->qrels_fraction * (double)o->docs_per_topic + 0.5);
}

/* Judged candidates by selection sampling (Knuth's algorithm S): exactly m
 * of them, uniformly, visited in document order so they stream out sorted. */
static qk_status write_qrels(gen *g, long t, qk_rng *rng, qk_error *err)
{
    const qk_sim_collection_opts *o = g->o;
    long n = o->docs_per_topic, m = judged_count(o), picked = 0;
    qk_status st;
    g->buf.len = 0;
    if ((st = qk_simbuf_reserve(&g->buf, (size_t)m * g->line)))
        return qk_error_set(err, st, "out of memory");
    for (long i = 0; i < n && picked < m; i++) {
        if (qk_rng_uniform(rng) * (double)(n - i) >= (double)(m - picked))
            continue;
        picked++;
        qk_simbuf_str(&g->buf, g->qid, g->qidlen);
        qk_simbuf_str(&g->buf, " 0 ", 3);
        put_docno(g, t, (uint32_t)i);
        qk_simbuf_str(&g->buf, " ", 1);
        qk_simbuf_uint(&g->buf, g->grade[i], 1);
        qk_simbuf_str(&g->buf, "\n", 1);
    }
    return qk_outfile_write(&g->qrels, g->buf.p, g->buf.len, err);
}

static qk_status write_topic_row(gen *g, long difficulty, long nrel, qk_error *err)
{
    char row[96];
    int n =
        snprintf(row, sizeof row, "%s\t0.%04ld\t%ld\t%ld\n", g->qid, difficulty, nrel, judged_count(g->o));
    return qk_outfile_write(&g->topics, row, (size_t)n, err);
}

static qk_status write_run_topic(gen *g, long t, long r, double d, qk_error *err)
{
    const qk_sim_collection_opts *o = g->o;
    const char *name = g->names[r];
    size_t namelen = strlen(name);
    double gain = SIGNAL * g->quality[r] * (1.0 - d) / (double)o->levels;
    qk_rng rng;
    qk_status st;
    stream_seed(&rng, o->seed, STREAM_RUN, (uint64_t)t, (uint64_t)r);
    for (long i = 0; i < o->docs_per_topic; i++) {
        g->sc[i].s = gain * g->grade[i] + qk_rng_normal(&rng);
        g->sc[i].doc = (uint32_t)i;
    }
    qsort(g->sc, (size_t)o->docs_per_topic, sizeof *g->sc, by_score_desc);
    /* Printed scores are whole micro-units forced strictly downwards, so any
     * reader that re-sorts by score (trec_eval does, breaking ties by docno)
     * recovers exactly the ranks written here. */
    for (long k = 0; k < o->depth; k++) {
        g->micro[k] = llround(g->sc[k].s * 1e6);
        if (k > 0 && g->micro[k] >= g->micro[k - 1])
            g->micro[k] = g->micro[k - 1] - 1;
    }
    g->buf.len = 0;
    if ((st = qk_simbuf_reserve(&g->buf, (size_t)o->depth * (g->line + namelen))))
        return qk_error_set(err, st, "out of memory");
    for (long k = 0; k < o->depth; k++) {
        qk_simbuf_str(&g->buf, g->qid, g->qidlen);
        qk_simbuf_str(&g->buf, " Q0 ", 4);
        put_docno(g, t, g->sc[k].doc);
        qk_simbuf_str(&g->buf, " ", 1);
        qk_simbuf_uint(&g->buf, (uint64_t)k + 1, 1);
        qk_simbuf_str(&g->buf, " ", 1);
        qk_simbuf_micro(&g->buf, g->micro[k]);
        qk_simbuf_str(&g->buf, " ", 1);
        qk_simbuf_str(&g->buf, name, namelen);
        qk_simbuf_str(&g->buf, "\n", 1);
    }
    return qk_outfile_write(&g->runs[r], g->buf.p, g->buf.len, err);
}

static qk_status write_topic(gen *g, long t, qk_error *err)
{
    qk_rng rng;
    long difficulty, nrel;
    qk_status st;
    g->qidlen = 0;
    g->buf.len = 0;
    if ((st = qk_simbuf_reserve(&g->buf, sizeof g->qid)))
        return qk_error_set(err, st, "out of memory");
    qk_simbuf_str(&g->buf, "T", 1);
    qk_simbuf_uint(&g->buf, (uint64_t)t + 1, g->tw);
    memcpy(g->qid, g->buf.p, g->buf.len);
    g->qid[g->buf.len] = '\0';
    g->qidlen = g->buf.len;

    stream_seed(&rng, g->o->seed, STREAM_TOPIC, (uint64_t)t, 0);
    difficulty = (long)qk_rng_below(&rng, DIFFICULTY_MAX + 1);
    nrel = draw_grades(g, &rng);
    if ((st = write_qrels(g, t, &rng, err)) || (st = write_topic_row(g, difficulty, nrel, err)))
        return st;
    for (long r = 0; r < g->o->runs; r++)
        if ((st = write_run_topic(g, t, r, (double)difficulty / 10000.0, err)))
            return st;
    return QK_OK;
}

static qk_status write_manifest(gen *g, qk_error *err)
{
    const qk_sim_collection_opts *o = g->o;
    static const char *modes[] = {"spread", "random", "list"};
    char text[1024];
    qk_status st;
    int n =
        snprintf(text, sizeof text,
                 "{\n  \"generator\": \"qrelkit sim collection\",\n  \"model\": %d,\n"
                 "  \"seed\": %llu,\n  \"topics\": %ld,\n  \"docs_per_topic\": %ld,\n  \"depth\": %ld,\n"
                 "  \"runs\": %ld,\n  \"levels\": %d,\n  \"rel_rate\": %.10g,\n"
                 "  \"qrels_fraction\": %.10g,\n  \"judged_per_topic\": %ld,\n"
                 "  \"run_quality\": \"%s\",\n"
                 "  \"score\": \"%g * quality * (1 - difficulty) * grade / levels + N(0,1)\",\n"
                 "  \"files\": {\"qrels\": \"qrels.txt\", \"topics\": \"topics.tsv\"},\n"
                 "  \"run_files\": [",
                 MODEL_VERSION, (unsigned long long)o->seed, o->topics, o->docs_per_topic, o->depth, o->runs,
                 o->levels, o->rel_rate, o->qrels_fraction, judged_count(o), modes[o->quality_mode], SIGNAL);
    if ((st = qk_outfile_write(&g->manifest, text, (size_t)n, err)))
        return st;
    for (long r = 0; r < o->runs; r++) {
        n = snprintf(text, sizeof text,
                     "%s\n    {\"name\": \"%s\", \"file\": \"runs/%s.run\", \"quality\": %.4f}", r ? "," : "",
                     g->names[r], g->names[r], g->quality[r]);
        if ((st = qk_outfile_write(&g->manifest, text, (size_t)n, err)))
            return st;
    }
    n = snprintf(text, sizeof text, "%s]\n}\n", o->runs ? "\n  " : "");
    return qk_outfile_write(&g->manifest, text, (size_t)n, err);
}

static qk_status open_all(gen *g, const qk_outdir *dir, qk_error *err)
{
    const qk_sim_collection_opts *o = g->o;
    char fname[64];
    /* Big buffers cut system calls on big files; with many runs they would
     * cost more memory than they save time. */
    size_t bufsize = o->runs <= 32 ? (size_t)1 << 18 : 0;
    qk_status st;
    static const char hdr[] = "qid\tdifficulty\trelevant\tjudged\n";
    if ((st = qk_outfile_open(&g->qrels, dir, "qrels.txt", (size_t)1 << 18, err)) ||
        (st = qk_outfile_open(&g->topics, dir, "topics.tsv", 0, err)) ||
        (st = qk_outfile_open(&g->manifest, dir, "manifest.json", 0, err)) ||
        (st = qk_outfile_write(&g->topics, hdr, sizeof hdr - 1, err)))
        return st;
    if (o->runs == 0)
        return QK_OK;
    st = qk_outdir_mkdir(dir, "runs", err);
    for (long r = 0; st == QK_OK && r < o->runs; r++) {
        snprintf(fname, sizeof fname, "runs/%s.run", g->names[r]);
        st = qk_outfile_open(&g->runs[r], dir, fname, bufsize, err);
    }
    return st;
}

static qk_status close_and_commit(gen *g, qk_error *err)
{
    qk_status st;
    /* Everything is flushed before anything is renamed, so a full disk
     * leaves the previous files (if any) untouched. */
    if ((st = qk_outfile_close(&g->qrels, err)) || (st = qk_outfile_close(&g->topics, err)) ||
        (st = qk_outfile_close(&g->manifest, err)))
        return st;
    for (long r = 0; r < g->o->runs; r++)
        if ((st = qk_outfile_close(&g->runs[r], err)))
            return st;
    for (long r = 0; r < g->o->runs; r++)
        if ((st = qk_outfile_commit(&g->runs[r], err)))
            return st;
    if ((st = qk_outfile_commit(&g->qrels, err)) || (st = qk_outfile_commit(&g->topics, err)))
        return st;
    /* The manifest last: its presence says the set is complete. */
    return qk_outfile_commit(&g->manifest, err);
}

static qk_status alloc_gen(gen *g, qk_error *err)
{
    const qk_sim_collection_opts *o = g->o;
    size_t nr = o->runs > 0 ? (size_t)o->runs : 1, nd = (size_t)o->docs_per_topic;
    int rw = qk_sim_digits((uint64_t)o->runs);
    g->quality = calloc(nr, sizeof *g->quality);
    g->runs = calloc(nr, sizeof *g->runs);
    g->names = calloc(nr, sizeof *g->names);
    g->grade = malloc(nd);
    g->sc = malloc(nd * sizeof *g->sc);
    g->micro = malloc((size_t)o->depth * sizeof *g->micro);
    if (!g->quality || !g->runs || !g->names || !g->grade || !g->sc || !g->micro)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (long r = 0; r < o->runs; r++) {
        /* runs <= MAX_RUNS, so the name fits; the buffer is the name slot. */
        qk_simbuf nb = {g->names[r], 0, sizeof g->names[r]};
        qk_simbuf_str(&nb, "run", 3);
        qk_simbuf_uint(&nb, (uint64_t)r + 1, rw < 2 ? 2 : rw);
        nb.p[nb.len] = '\0';
    }
    g->tw = qk_sim_digits((uint64_t)o->topics);
    g->tw = g->tw < 3 ? 3 : g->tw;
    g->dw = qk_sim_digits((uint64_t)o->docs_per_topic);
    g->dw = g->dw < 4 ? 4 : g->dw;
    /* qid + docno + rank + score + separators; the run name is added apart. */
    g->line = (size_t)(2 * g->tw + g->dw) + 96;
    return qk_sim_run_qualities(o, g->quality, err);
}

static void free_gen(gen *g)
{
    qk_outfile_discard(&g->qrels);
    qk_outfile_discard(&g->topics);
    qk_outfile_discard(&g->manifest);
    if (g->runs)
        for (long r = 0; r < g->o->runs; r++)
            qk_outfile_discard(&g->runs[r]);
    free(g->runs);
    free(g->quality);
    free(g->names);
    free(g->grade);
    free(g->sc);
    free(g->micro);
    free(g->old_manifest);
    qk_simbuf_free(&g->buf);
}

/* An earlier generation may have had more runs. Those its manifest names and
 * this one did not rewrite are removed, so that runs/ holds exactly the
 * current set (the demo and users glob the .run files there). Only files named by our own
 * earlier manifest are touched. */
static void remove_stale_runs(gen *g, const qk_outdir *dir)
{
    static const char key[] = "\"file\": \"runs/";
    char *p = g->old_manifest;
    while (p && (p = strstr(p, key))) {
        char *name = p + sizeof key - 1, *end = strchr(name, '"');
        int current = 0;
        if (!end)
            break;
        *end = '\0';
        p = end + 1;
        for (long r = 0; r < g->o->runs && !current; r++)
            current = strncmp(name, g->names[r], strlen(g->names[r])) == 0 &&
                      strcmp(name + strlen(g->names[r]), ".run") == 0;
        if (current || strchr(name, '/') || name[0] == '.' || name[0] == '\0')
            continue;
        char *rel = malloc(strlen(name) + sizeof "runs/");
        if (rel) {
            strcpy(rel, "runs/");
            strcat(rel, name);
            qk_outdir_remove(dir, rel);
            free(rel);
        }
    }
}

qk_status qk_sim_collection_write(const qk_outdir *dir, const qk_sim_collection_opts *o, qk_error *err)
{
    gen g;
    qk_status st;
    memset(&g, 0, sizeof g);
    g.o = o;
    if (!dir)
        return qk_error_set(err, QK_EUSAGE, "no output directory given");
    if ((st = qk_sim_collection_check(o, err)))
        return st;
    /* The manifest of an earlier generation, when there is one; it is small
     * (one line per run), so anything large is not ours and is ignored. */
    g.old_manifest = qk_outdir_slurp(dir, "manifest.json", ((size_t)1 << 20) - 1);
    if ((st = alloc_gen(&g, err)) || (st = open_all(&g, dir, err)) || (st = write_manifest(&g, err)))
        goto out;
    for (long t = 0; t < o->topics; t++) {
        if ((st = write_topic(&g, t, err)))
            goto out;
        if (o->progress)
            o->progress(o->progress_ctx, t + 1, o->topics);
    }
    if ((st = close_and_commit(&g, err)) == QK_OK)
        remove_stale_runs(&g, dir);
out:
    free_gen(&g);
    return st;
}
