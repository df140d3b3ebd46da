/* `qrelkit pool`: the next batch of documents to judge (src/pool/). The
 * loop is stateless: judgments come back as qrels, samplers keep their
 * design in a text file, and the same inputs and seed give the same batch. */
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "qrelkit/pool.h"

const char qk_help_pool[] =
    "usage: qrelkit pool --method M --runs RUN [RUN...] --budget N [options]\n"
    "       qrelkit pool --zobel P1,P2,... --judged QRELS --runs RUN [RUN...]\n"
    "\n"
    "Which documents should the assessors judge next? The pool of a topic is the\n"
    "union of the runs' top --depth documents. A method picks up to --batch new\n"
    "documents per topic, none once N pool documents of the topic are judged.\n"
    "Judge them, append the judgments to the qrels, and run the same command with\n"
    "--judged QRELS again: the loop continues where it stopped (samplers keep\n"
    "their state in the --design file). Same inputs and seed: same batch.\n"
    "\n"
    "methods (formulas and papers: doc/qrelkit-pool.md):\n"
    "  @[pool-method]\n"
    "  strat writes its sample with --write-strata (for `eval -R strata`, xinfAP);\n"
    "  statap has a fixed size and is exact (--strata H: H strata of equal prior\n"
    "  mass instead) and writes --write-prels for statAP; active draws one round\n"
    "  per call, --write-draws lists every draw for the HT/HH estimators and\n"
    "  --write-joint the joint inclusion probabilities of the drawn pairs; mtc\n"
    "  with --pair A,B weighs just those two runs (batch 1 is exact MTC); rtc's\n"
    "  --target uses RTC's probabilities (qrelkit confidence --model rtc).\n"
    "\n"
    "options:\n"
    "  --runs RUN...        TREC runs (repeat --runs or list files after it)\n"
    "  --judged QRELS       judgments so far (grade >= -l is relevant)\n"
    "  --design FILE        sampling state (strat, statap, active: required); read\n"
    "                       when it exists, rewritten after each call\n"
    "  --budget N           judged pool documents per topic to stop at (100)\n"
    "  --batch B            new documents per topic per call (10)\n"
    "  --seed S             random seed (42)\n"
    "  --depth K            pool depth (100)\n"
    "  --rrf-k K, --rbp-p P fusion constants (60, 0.8)\n"
    "  --strata H           statap: 0 = pi-ps (default), H > 0 = H strata\n"
    "  --cuts C1,C2,...     strat stratum bottoms by best rank (10,30,100)\n"
    "  --pair A,B           mtc: weights for runs A and B only (run ids)\n"
    "  --target P           mtc: print nothing once P(MAP_A<MAP_B) or its complement\n"
    "                       reaches P for the pair (all pairs without --pair)\n"
    "  --decay G            mab: weight of older evidence (0.9; 1 = stationary MM)\n"
    "  --active-weights W   active: the run weights, one of\n"
    "                       @[pool-active-weights]\n"
    "  -l LEVEL             relevance threshold of the judgments (1)\n"
    "  --write-prels F, --write-strata F, --write-draws F, --write-joint F\n"
    "                       the sample so far, judged documents only, for eval -R\n"
    "                       (files; '-' is refused, stdout carries the batch;\n"
    "                       --write-joint: active only, for eval -R draws --joint)\n"
    "  --format F           @{format} (default tsv)\n"
    "  --timing             seconds spent reading and choosing, on stderr\n"
    "\n"
    "Zobel's power law (Hosseini eq. 3.1) instead of a batch:\n"
    "  --zobel P1,P2,...    increasing pool depths: the relevant documents of\n"
    "                       --judged that depth-P pooling of the runs finds, per\n"
    "                       topic and in all, and the fit n = C p^s - 1 (least\n"
    "                       squares of log(n+1) on log p: C, s, R^2, residual sd)\n"
    "  --extrapolate D,...  also the law's n at these depths (Zobel: 500)\n"
    "  output: 'topic R rel@P1 ... C s r2 sd [fit@D ...]', a row per topic and\n"
    "  'all' (R: relevant documents in the qrels, pooled or not)\n"
    "\n"
    "output: 'topic docno pi draws score' (header line first): pi is the\n"
    "inclusion probability of the sample so far (1 for deterministic methods),\n"
    "draws the times active sampling drew the document, score the method's\n"
    "priority (MTC weight, fused score, best rank, stratum, round).\n"
    "\n"
    "example (one round of the loop):\n"
    "  qrelkit pool --method statap --design d.txt --budget 50 --batch 10 \\\n"
    "      --judged j.qrels --runs runs/*.run > next.tsv\n"
    "  ... judge next.tsv, append to j.qrels, repeat ...\n"
    "  qrelkit pool --method statap --design d.txt --judged j.qrels \\\n"
    "      --runs runs/*.run --budget 0 --write-prels s.prels > /dev/null\n"
    "  qrelkit eval -R prels s.prels runs/a.run\n"
    "\n"
    "Exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O.\n";

#define CMD "pool"

static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                         {"method", required_argument, NULL, 'm'},
                                         {"runs", required_argument, NULL, 'R'},
                                         {"judged", required_argument, NULL, 'j'},
                                         {"design", required_argument, NULL, 'D'},
                                         {"budget", required_argument, NULL, 'b'},
                                         {"batch", required_argument, NULL, 'B'},
                                         {"seed", required_argument, NULL, 's'},
                                         {"depth", required_argument, NULL, 'd'},
                                         {"rrf-k", required_argument, NULL, 'k'},
                                         {"rbp-p", required_argument, NULL, 'p'},
                                         {"strata", required_argument, NULL, 'H'},
                                         {"cuts", required_argument, NULL, 'c'},
                                         {"pair", required_argument, NULL, 'P'},
                                         {"target", required_argument, NULL, 'T'},
                                         {"decay", required_argument, NULL, 'g'},
                                         {"active-weights", required_argument, NULL, 'W'},
                                         {"write-prels", required_argument, NULL, '1'},
                                         {"write-strata", required_argument, NULL, '2'},
                                         {"write-draws", required_argument, NULL, '3'},
                                         {"write-joint", required_argument, NULL, '4'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"timing", no_argument, NULL, 't'},
                                         {"zobel", required_argument, NULL, 'Z'},
                                         {"extrapolate", required_argument, NULL, 'X'},
                                         {NULL, 0, NULL, 0}};

typedef struct args {
    qk_pool_opts o;
    const char **runs;
    size_t nruns;
    qk_run **ranked; /* the runs read */
    const char *judged, *design, *files[4], *pair;
    long depth, rel_level;
    double target;
    int json, timing, depth_given;
    long cuts[64];
    long zobel[64], extra[64]; /* --zobel, --extrapolate */
    size_t nzobel, nextra;
} args;

/* A strictly increasing list of positive integers (--zobel depths, --cuts
 * ranks) into v[0..max): *n items, or a usage error naming what they are. */
static int parse_increasing(const char *opt, const char *what, const char *s, long *v, size_t max, size_t *n)
{
    int rc = qk_cli_long_list(CMD, opt, s, 1, LONG_MAX, v, max, n);
    if (rc)
        return rc;
    for (size_t i = 1; i < *n; i++)
        if (v[i] <= v[i - 1])
            return qk_cli_usage(CMD, "%s: '%s' is not an increasing list of %s", opt, s, what);
    return 0;
}

/* --zobel counts and fits; it neither picks nor samples, so the options of
 * the judging loop are refused rather than ignored. */
static int check_zobel(const args *a)
{
    if (a->nextra && !a->nzobel)
        return qk_cli_usage(CMD, "--extrapolate needs --zobel");
    if (!a->nzobel)
        return 0;
    if (a->o.method != QK_POOL_NMETHODS || a->design || a->files[0] || a->files[1] || a->files[2] ||
        a->files[3] || a->target > 0 || a->pair || a->depth_given)
        return qk_cli_usage(CMD, "--zobel takes no --method, --depth, --design, --write-*, --pair or --target "
                                 "(the pool depths are its list)");
    if (!a->judged)
        return qk_cli_usage(CMD, "--zobel needs --judged QRELS (the relevant documents)");
    return 0;
}


static int parse(int argc, char **argv, args *a)
{
    int c, rc = 0, w;
    memset(a, 0, sizeof *a);
    qk_pool_opts_init(&a->o);
    a->depth = 100;
    a->rel_level = 1;
    a->o.method = QK_POOL_NMETHODS;
    if (!(a->runs = calloc((size_t)argc + 1, sizeof *a->runs)))
        return QK_EXIT_IO;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "hl:", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': return -1;
        case 'm':
            if (!(rc = qk_cli_enum(CMD, qk_pool_method_table, "--method", optarg, &w)))
                a->o.method = (qk_pool_method)w;
            break;
        case 'R': a->runs[a->nruns++] = optarg; break;
        case 'j': a->judged = optarg; break;
        case 'D': a->design = optarg; break;
        case 'b': rc = qk_cli_long(CMD, "--budget", optarg, 0, LONG_MAX, &a->o.budget); break;
        case 'B': rc = qk_cli_long(CMD, "--batch", optarg, 1, LONG_MAX, &a->o.batch); break;
        case 's': rc = qk_cli_seed(CMD, "--seed", optarg, &a->o.seed); break;
        case 'd':
            rc = qk_cli_long(CMD, "--depth", optarg, 1, LONG_MAX, &a->depth);
            a->depth_given = 1;
            break;
        case 'Z':
            rc = parse_increasing("--zobel", "depths", optarg, a->zobel, sizeof a->zobel / sizeof *a->zobel,
                                  &a->nzobel);
            break;
        case 'X':
            rc = qk_cli_long_list(CMD, "--extrapolate", optarg, 1, LONG_MAX, a->extra,
                                  sizeof a->extra / sizeof a->extra[0], &a->nextra);
            break;
        case 'k': rc = qk_cli_double(CMD, "--rrf-k", optarg, 0, 1e9, 0, &a->o.rrf_k); break;
        case 'p': rc = qk_cli_double(CMD, "--rbp-p", optarg, 0, 1, QK_NUM_HI_OPEN, &a->o.rbp_p); break;
        case 'H': rc = qk_cli_size(CMD, "--strata", optarg, 0, SIZE_MAX, &a->o.strata); break;
        case 'g': rc = qk_cli_double(CMD, "--decay", optarg, 0, 1, 0, &a->o.mab_decay); break;
        case 'W': rc = qk_cli_enum(CMD, qk_pool_active_weights_table, "--active-weights", optarg, &a->o.active_weights); break;
        case 'T': rc = qk_cli_double(CMD, "--target", optarg, 0.5, 1, 0, &a->target); break;
        case 'P': a->pair = optarg; break;
        case 'l': rc = qk_cli_long(CMD, "-l", optarg, -1000000, LONG_MAX, &a->rel_level); break;
        case 't': a->timing = 1; break;
        case '1': a->files[0] = optarg; break;
        case '2': a->files[1] = optarg; break;
        case '3': a->files[2] = optarg; break;
        case '4': a->files[3] = optarg; break;
        case 'f': rc = qk_cli_format_tsv_json(CMD, optarg, &a->json); break;
        case 'c':
            if ((rc = parse_increasing("--cuts", "ranks", optarg, a->cuts, sizeof a->cuts / sizeof *a->cuts,
                                       &a->o.ncuts)) == 0)
                a->o.cuts = a->cuts;
            break;
        default: return QK_EXIT_USAGE;
        }
    }
    if (rc)
        return rc;
    while (optind < argc) /* files listed after --runs */
        a->runs[a->nruns++] = argv[optind++];
    if ((rc = check_zobel(a)) != 0)
        return rc;
    if (a->nzobel) {
        qk_cli_stdin seen = {0};
        if (a->nruns == 0)
            return qk_cli_usage(CMD, "missing --runs");
        rc = qk_cli_stdin_once(CMD, &seen, a->judged, "--judged", 0);
        for (size_t k = 0; !rc && k < a->nruns; k++)
            rc = qk_cli_stdin_once(CMD, &seen, a->runs[k], "RUN", (int)k + 1);
        return rc;
    }
    if (a->o.method == QK_POOL_NMETHODS)
    {
        char choices[512];
        qk_enum_choices(qk_pool_method_table, choices, sizeof choices);
        return qk_cli_usage(CMD, "missing --method (choose from: %s)", choices);
    }
    if (a->nruns == 0)
        return qk_cli_usage(CMD, "missing --runs");
    if (qk_pool_method_samples(a->o.method) && !a->design)
        return qk_cli_usage(CMD, "method '%s' keeps its sample in a --design FILE",
                            qk_pool_method_name(a->o.method));
    if ((a->files[0] || a->files[1] || a->files[2] || a->files[3]) && !a->design)
        return qk_cli_usage(
            CMD, "--write-prels/--write-strata/--write-draws/--write-joint need a sampler's --design");
    if ((rc = qk_cli_no_stdout(CMD, "--design", a->design, "cannot hold the design (it is read and rewritten)")) != 0)
        return rc;
    for (int k = 0; k < 4; k++) {
        static const char *const opt[4] = {"--write-prels", "--write-strata", "--write-draws", "--write-joint"};
        if ((rc = qk_cli_no_stdout(CMD, opt[k], a->files[k], "carries the batch; give a file name")) != 0)
            return rc;
    }
    if (a->target > 0 && ((a->o.method != QK_POOL_MTC && a->o.method != QK_POOL_RTC) || !a->judged))
        return qk_cli_usage(CMD, "--target needs --method mtc or rtc, and --judged");
    {
        qk_cli_stdin seen = {0};
        rc = qk_cli_stdin_once(CMD, &seen, a->judged, "--judged", 0);
        for (size_t k = 0; !rc && k < a->nruns; k++)
            rc = qk_cli_stdin_once(CMD, &seen, a->runs[k], "RUN", (int)k + 1);
    }
    return rc;
}

/* --pair A,B: run ids to indices. */
static int resolve_pair(args *a, const qk_pool_runs *p)
{
    const char *comma;
    if (!a->pair)
        return 0;
    comma = strchr(a->pair, ',');
    if (!comma)
        return qk_cli_usage(CMD, "--pair: '%s' is not A,B", a->pair);
    a->o.pair_a = a->o.pair_b = -1;
    qk_cli_pair_runs(p, a->pair, &a->o.pair_a, &a->o.pair_b);
    if (a->o.pair_a < 0 || a->o.pair_b < 0 || a->o.pair_a == a->o.pair_b)
        return qk_cli_usage(CMD, "--pair: '%s' does not name two of the runs", a->pair);
    return 0;
}

/* MTC's stopping rule: the confidence (qrelkit confidence, MTC model) of
 * the pair, or of every pair, has reached the target. */
static int target_reached(const args *a, const qk_qrels *q, int *reached, qk_error *err)
{
    qk_conf_opts co;
    qk_conf_result *r = NULL;
    qk_qrels *none = NULL;
    qk_status st;
    size_t pair[2];
    qk_conf_opts_init(&co);
    co.model = a->o.method == QK_POOL_RTC ? QK_PROB_RTC : QK_PROB_MTC;
    co.depth = a->depth;
    co.rel_level = a->rel_level;
    if (a->o.pair_a >= 0) { /* --pair: that pair's moments alone */
        pair[0] = (size_t)a->o.pair_a, pair[1] = (size_t)a->o.pair_b;
        co.pairs = pair, co.npairs = 1;
    }
    /* nothing judged yet: an empty set of judgments */
    if (!q && ((st = qk_qrels_new(QK_REL_QRELS, &none, err)) != QK_OK ||
               (st = qk_qrels_finish(none, QK_DEDUP_ERROR, err)) != QK_OK)) {
        qk_qrels_free(none);
        return st;
    }
    st = qk_conf_eval(q ? q : none, (const qk_run *const *)a->ranked, a->nruns, &co, &r, err);
    qk_qrels_free(none);
    if (st != QK_OK)
        return st;
    *reached = 1;
    for (size_t i = 0; i < r->nruns; i++)
        for (size_t k = i + 1; k < r->nruns; k++) {
            double pl = r->p_less[i * r->nruns + k], conf = pl > 0.5 ? pl : 1 - pl;
            if (a->o.pair_a >= 0 && !((long)i == a->o.pair_a && (long)k == a->o.pair_b) &&
                !((long)k == a->o.pair_a && (long)i == a->o.pair_b))
                continue;
            if (conf < a->target)
                *reached = 0;
        }
    qk_conf_result_free(r);
    return QK_OK;
}

typedef qk_status (*writer_fn)(const qk_pool_design *, const qk_pool_runs *, const qk_pool_judged *, FILE *,
                               qk_error *);

static int write_file(const char *path, writer_fn fn, const qk_pool_design *d, const qk_pool_runs *p,
                      const qk_pool_judged *j)
{
    qk_error err = {0};
    qk_cli_out o;
    int rc;
    if ((rc = qk_cli_out_open(CMD, &o, path)) != 0)
        return rc;
    if (fn(d, p, j, o.f, &err) != QK_OK) {
        qk_cli_out_abort(&o);
        return qk_cli_fail(CMD, &err);
    }
    return qk_cli_out_commit(CMD, &o);
}

/* --write-* may not name an input: a run, the judgments, the design. */
static int check_output(const args *a, int k)
{
    static const char *const opt[4] = {"--write-prels", "--write-strata", "--write-draws", "--write-joint"};
    const char *other[2] = {a->judged, a->design};
    int rc = qk_cli_check_output(CMD, opt[k], a->files[k], a->runs, a->nruns);
    return rc ? rc : qk_cli_check_output(CMD, opt[k], a->files[k], other, 2);
}

static void print_batch(const args *a, const qk_pool_runs *p, const qk_pool_pick *pk, size_t n)
{
    if (a->json) {
        json_t *root = json_object(), *arr = json_array();
        char *s;
        json_object_set_new(root, "method", json_string(qk_pool_method_name(a->o.method)));
        for (size_t i = 0; i < n; i++) {
            const qk_pool_topic *tp = qk_pool_topic_at(p, pk[i].topic);
            json_t *e = json_object();
            json_object_set_new(e, "topic", json_string(tp->qid));
            json_object_set_new(e, "docno", json_string(tp->docnos[pk[i].doc]));
            json_object_set_new(e, "pi", json_real(pk[i].pi));
            json_object_set_new(e, "draws", json_integer(pk[i].draws));
            json_object_set_new(e, "score", json_real(pk[i].score));
            json_array_append_new(arr, e);
        }
        json_object_set_new(root, "batch", arr);
        s = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
        if (s)
            puts(s);
        free(s);
        json_decref(root);
        return;
    }
    puts("topic\tdocno\tpi\tdraws\tscore");
    for (size_t i = 0; i < n; i++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, pk[i].topic);
        printf("%s\t%s\t%.10g\t%ld\t%.10g\n", tp->qid, tp->docnos[pk[i].doc], pk[i].pi, pk[i].draws,
               pk[i].score);
    }
}

/* A fit value for JSON: NaN (no fit) is null. */
static json_t *json_num(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

static json_t *zobel_json_row(const args *a, const qk_pool_zobel *z, const char *topic, size_t R,
                              const size_t *rel, const size_t *pooled, const qk_pool_zobel_fit *f)
{
    json_t *e = json_object(), *jr = json_array(), *jp = json_array(), *jf = json_array();
    json_object_set_new(e, "topic", json_string(topic));
    json_object_set_new(e, "R", json_integer((json_int_t)R));
    for (size_t k = 0; k < z->ndepths; k++) {
        json_array_append_new(jr, json_integer((json_int_t)rel[k]));
        json_array_append_new(jp, json_integer((json_int_t)pooled[k]));
    }
    json_object_set_new(e, "relevant", jr);
    json_object_set_new(e, "pooled", jp);
    json_object_set_new(e, "C", json_num(f->c));
    json_object_set_new(e, "s", json_num(f->s));
    json_object_set_new(e, "r2", json_num(f->r2));
    json_object_set_new(e, "sd", json_num(f->sd));
    for (size_t k = 0; k < a->nextra; k++)
        json_array_append_new(jf, json_num(qk_pool_zobel_predict(f, (double)a->extra[k])));
    json_object_set_new(e, "fit", jf);
    return e;
}

static void zobel_tsv_row(const args *a, const qk_pool_zobel *z, const char *topic, size_t R, const size_t *rel,
                          const qk_pool_zobel_fit *f)
{
    printf("%s\t%zu", topic, R);
    for (size_t k = 0; k < z->ndepths; k++)
        printf("\t%zu", rel[k]);
    printf("\t%.6g\t%.6g\t%.6g\t%.6g", f->c, f->s, f->r2, f->sd);
    for (size_t k = 0; k < a->nextra; k++)
        printf("\t%.6g", qk_pool_zobel_predict(f, (double)a->extra[k]));
    putchar('\n');
}

static void print_zobel(const args *a, const qk_pool_runs *p, const qk_pool_zobel *z)
{
    size_t R = 0, nd = z->ndepths;
    for (size_t t = 0; t < z->ntopics; t++)
        R += z->qrels_rel[t];
    if (a->json) {
        json_t *root = json_object(), *jd = json_array(), *jx = json_array(), *topics = json_array();
        char *s;
        for (size_t k = 0; k < nd; k++)
            json_array_append_new(jd, json_integer(z->depths[k]));
        for (size_t k = 0; k < a->nextra; k++)
            json_array_append_new(jx, json_integer(a->extra[k]));
        json_object_set_new(root, "depths", jd);
        json_object_set_new(root, "extrapolate", jx);
        for (size_t t = 0; t < z->ntopics; t++)
            json_array_append_new(topics, zobel_json_row(a, z, qk_pool_topic_at(p, t)->qid, z->qrels_rel[t],
                                                         z->nrel + t * nd, z->pooled + t * nd, &z->topic_fit[t]));
        json_object_set_new(root, "topics", topics);
        json_object_set_new(root, "all", zobel_json_row(a, z, "all", R, z->total_rel, z->total_pooled, &z->fit));
        s = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
        if (s)
            puts(s);
        free(s);
        json_decref(root);
        return;
    }
    fputs("topic\tR", stdout);
    for (size_t k = 0; k < nd; k++)
        printf("\trel@%ld", z->depths[k]);
    fputs("\tC\ts\tr2\tsd", stdout);
    for (size_t k = 0; k < a->nextra; k++)
        printf("\tfit@%ld", a->extra[k]);
    putchar('\n');
    for (size_t t = 0; t < z->ntopics; t++)
        zobel_tsv_row(a, z, qk_pool_topic_at(p, t)->qid, z->qrels_rel[t], z->nrel + t * nd, &z->topic_fit[t]);
    zobel_tsv_row(a, z, "all", R, z->total_rel, &z->fit);
}

/* --zobel: one pool at the deepest depth gives every shallower one. */
static int run_zobel(args *a)
{
    qk_error err = {0};
    qk_pool_runs *p = NULL;
    qk_qrels *q = NULL;
    qk_pool_zobel *z = NULL;
    struct stat sb;
    int rc = 0;
    if (qk_cli_read_runs_top(a->runs, a->nruns, QK_CLI_NAME_BASE, (size_t)a->zobel[a->nzobel - 1], &a->ranked,
                             &err) != QK_OK ||
        qk_pool_runs_from((const qk_run *const *)a->ranked, a->nruns, a->zobel[a->nzobel - 1], &p, &err) !=
            QK_OK ||
        (!(stat(a->judged, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0) &&
         qk_qrels_read(a->judged, QK_REL_QRELS, QK_DEDUP_FIRST, &q, &err) != QK_OK) ||
        qk_pool_zobel_count(p, q, a->rel_level, a->zobel, a->nzobel, &z, &err) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
    else
        print_zobel(a, p, z);
    qk_pool_zobel_free(z);
    qk_qrels_free(q);
    qk_pool_runs_free(p);
    return rc;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int qk_cmd_pool(int argc, char **argv)
{
    double t0 = now(), t1 = 0, t2 = 0;
    args a;
    qk_error err = {0};
    qk_pool_runs *p = NULL;
    qk_pool_judged *j = NULL;
    qk_pool_design *d = NULL;
    qk_qrels *q = NULL;
    qk_pool_pick *pk = NULL;
    size_t n = 0;
    int rc = parse(argc, argv, &a), reached = 0;
    struct stat sb;
    static const writer_fn writers[4] = {qk_pool_write_prels, qk_pool_write_strata, qk_pool_write_draws,
                                         qk_pool_write_joint};
    if (rc == -1) {
        free(a.runs);
        return qk_cli_help(qk_help_pool);
    }
    if (rc)
        goto out;
    if (a.nzobel) {
        rc = run_zobel(&a);
        goto out;
    }
    /* the runs' top --depth documents are all any method looks at */
    if (qk_cli_read_runs_top(a.runs, a.nruns, QK_CLI_NAME_BASE, (size_t)a.depth, &a.ranked, &err) != QK_OK ||
        qk_pool_runs_from((const qk_run *const *)a.ranked, a.nruns, a.depth, &p, &err) != QK_OK ||
        qk_pool_judged_new(p, &j, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if ((rc = resolve_pair(&a, p)) != 0)
        goto out;
    /* An empty judgments file is the natural start of the loop. */
    if (a.judged && !(stat(a.judged, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0) &&
        (qk_qrels_read(a.judged, QK_REL_QRELS, QK_DEDUP_FIRST, &q, &err) != QK_OK ||
         qk_pool_judged_from_qrels(j, p, q, a.rel_level, &err) != QK_OK)) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (a.design) {
        qk_status st;
        if (access(a.design, F_OK) == 0) {
            qk_lines *dl = NULL;
            st = qk_lines_open(a.design, &dl, &err);
            if (st == QK_OK)
                st = qk_pool_design_read(dl, p, &a.o, &d, &err);
            qk_lines_close(dl);
        } else {
            st = qk_pool_design_new(p, &a.o, &d, &err);
        }
        if (st != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
    }
    if (a.target > 0) {
        if (target_reached(&a, q, &reached, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        if (reached)
            fprintf(stderr, "qrelkit pool: confidence target %g reached; nothing more to judge\n", a.target);
    }
    t1 = now();
    if (!reached && qk_pool_next(p, j, d, &a.o, &pk, &n, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    t2 = now();
    if (d) {
        qk_cli_out dout = {0};
        if ((rc = qk_cli_out_open(CMD, &dout, a.design)) != 0)
            goto out;
        if (qk_pool_design_write(d, p, dout.f, &err) != QK_OK) {
            qk_cli_out_abort(&dout);
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        if ((rc = qk_cli_out_commit(CMD, &dout)) != 0)
            goto out;
    }
    for (int k = 0; k < 4 && rc == 0; k++)
        if (a.files[k] && (rc = check_output(&a, k)) == 0)
            rc = write_file(a.files[k], writers[k], d, p, j);
    if (rc == 0)
        print_batch(&a, p, pk, n);
    if (rc == 0 && a.timing)
        fprintf(stderr, "seconds_read %.6f\nseconds_select %.6f\nselected %zu\n", t1 - t0, t2 - t1, n);
out:
    free(pk);
    qk_qrels_free(q);
    qk_pool_design_free(d);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
    qk_cli_free_runs(a.ranked, a.nruns);
    free(a.runs);
    return rc;
}
