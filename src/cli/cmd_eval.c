/* `qrelkit eval`: trec_eval's measures and flags, several runs per call,
 * TSV/JSON output, ir_measures-style names and the topic x run matrix. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tables.h"
#include "cli_util.h"
#include "commands.h"
#include "eval_cli.h"
#include "eval_estimate.h"
#include "shard_cli.h"

const char qk_help_eval[] =
    "usage: qrelkit eval [options] QRELS RUN [RUN...]\n"
    "\n"
    "Evaluate one or more runs (TREC format: qid iter docno rank score runid) against\n"
    "relevance judgments (qrels: qid iter docno rel). The qrels are read once. Every\n"
    "measure of trec_eval 10.0 is here, computed exactly as trec_eval does; with one\n"
    "run and the default format the output is byte-identical to trec_eval's.\n"
    "Files may be gzip-compressed; '-' reads standard input.\n"
    "\n"
    "measures:\n"
    "  -m MEASURE        add a measure (repeatable). trec_eval names with parameters\n"
    "                    (map, P.5,10, ndcg_cut.10, ndcg.1=3,2=9, utility.2,-1,0,0),\n"
    "                    value names (P_10, ndcg_cut_10, iprec_at_recall_0.10),\n"
    "                    nicknames (official = default, all_trec, set, all_prefs, prefs,\n"
    "                    qrels_jg) or ir_measures names (AP, P@10, nDCG@10, R@100, RR,\n"
    "                    Rprec, Bpref, infAP, Judged@10, NumRel, RBP(p=0.8) ...);\n"
    "                    ir_measures' rel=N (P(rel=2)@5) is the measure at -l N,\n"
    "                    one level per call\n"
    "  --list-measures   list every measure with its definition, then exit\n"
    "\n"
    "trec_eval flags:\n"
    "  -q                per-topic lines as well as the summary\n"
    "  -n                no summary lines\n"
    "  -c                complete: evaluate every topic of the qrels. A topic with no\n"
    "                    run lines is scored as an empty ranking (0 for most measures)\n"
    "                    and counts in every average. Without -c such topics are\n"
    "                    skipped (named on stderr) and averages cover the topics that\n"
    "                    have both judgments and run lines. Use -c to compare runs on\n"
    "                    the same topic set.\n"
    "  -l LEVEL          minimum relevance value that counts as relevant (default 1)\n"
    "  -M N              keep only the first N ranked documents per topic\n"
    "  -N N              documents in the collection (utility only; default 0)\n"
    "  -J                judged only: drop retrieved documents without a judgment\n"
    "  -R FORMAT         relevance format (default qrels; the last three are sampled\n"
    "                    judgments for the estimators of doc/estimators.md):\n"
    "                    @[eval-R]\n"
    "  -T FORMAT         @{eval-T} (the only results format)\n"
    "  -Z FILE           z-scores: (value - mean)/sd with 'qid measure mean sd' lines\n"
    "  -D N.QID          evaluate topic QID only\n"
    "\n"
    "qrelkit options:\n"
    "  --format F        @{format-trec} (default trec; the TSV header is\n"
    "                    run measure topic value)\n"
    "  --precision N     decimals of fractional values (default 4)\n"
    "  --matrix MEASURE  write the topic x run matrix of one measure value as TSV\n"
    "                    (header: topic RUN1 RUN2 ...; runs named by file when run\n"
    "                    ids repeat); implies -c so every cell is set. Any -m\n"
    "                    spelling names the value: P.10, P_10, P@10 (a measure\n"
    "                    without parameters: its first value)\n"
    "  --var             with -R prels: also the variance of the estimates (var_statAP)\n"
    "  --joint FILE      with -R draws: var_R_HT by Li's Eq. 2.8 with the joint\n"
    "                    inclusion probabilities of FILE (topic docno_a docno_b\n"
    "                    pi_ab, from pool --write-joint); without it var_R_HT is\n"
    "                    the Poisson form, which ignores how inclusions correlate\n"
    "  --shard I/N       evaluate shard I of N of the runs (of one run: of the qrels\n"
    "                    topics) only, as a part file for\n"
    "                    `qrelkit merge` (doc/scale-out.md); not with --matrix or -R\n"
    "                    prels|strata|draws\n"
    "  --compat          with -R prels|strata: print exactly as statAP_MQ_eval_v4.pl -q\n"
    "                    or sample_eval.pl (-q adds the per-topic blocks)\n"
    "  --dedup MODE      a docno repeated within a run topic or a qrels topic:\n"
    "                    @[eval-dedup]\n"
    "  --threads N       1: one thread; N >= 2: a run file is cut where the topic\n"
    "                    changes into up to N parts of 256 KB or more, each scored\n"
    "                    on a thread of its own (a gzip run is inflated on a second\n"
    "                    thread instead, a pipe parsed on one); 0 (default): one\n"
    "                    part of 4 MB or more per core other tasks leave free.\n"
    "                    Several runs are evaluated in parallel, N at a time (0:\n"
    "                    one per core). Results are identical either way.\n"
    "\n"
    "Ranking: documents are sorted by score descending, ties by docno descending\n"
    "(byte order); the rank column is ignored. Several runs: trec format lines get\n"
    "the run id as a first column.\n"
    "\n"
    "examples:\n"
    "  qrelkit eval qrels.txt run.txt\n"
    "  qrelkit eval -q -m all_trec qrels.txt run.txt\n"
    "  qrelkit eval -m AP -m nDCG@10 -m P@10 --format tsv qrels.txt runs/*.run\n"
    "  qrelkit eval --matrix AP qrels.txt runs/*.run > map.tsv\n"
    "\n"
    "Exit codes: 0 ok, 1 usage (unknown measure, bad option), 2 bad input, 3 I/O.\n";

enum { OPT_FORMAT = 1000, OPT_PRECISION, OPT_MATRIX, OPT_LIST, OPT_DEDUP, OPT_VAR, OPT_COMPAT, OPT_THREADS };
enum { OPT_JOINT = OPT_THREADS + 1, OPT_SHARD };

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'v'},
    {"query_eval_wanted", no_argument, NULL, 'q'},
    {"measure", required_argument, NULL, 'm'},
    {"complete_rel_info_wanted", no_argument, NULL, 'c'},
    {"level_for_rel", required_argument, NULL, 'l'},
    {"nosummary", no_argument, NULL, 'n'},
    {"Debug_level", required_argument, NULL, 'D'},
    {"Judged_docs_only", no_argument, NULL, 'J'},
    {"Number_docs_in_coll", required_argument, NULL, 'N'},
    {"Max_retrieved_per_topic", required_argument, NULL, 'M'},
    {"Rel_info_format", required_argument, NULL, 'R'},
    {"Results_format", required_argument, NULL, 'T'},
    {"Zscore", required_argument, NULL, 'Z'},
    {"Output_old_results_format", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"precision", required_argument, NULL, OPT_PRECISION},
    {"matrix", required_argument, NULL, OPT_MATRIX},
    {"list-measures", no_argument, NULL, OPT_LIST},
    {"dedup", required_argument, NULL, OPT_DEDUP},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"var", no_argument, NULL, OPT_VAR},
    {"compat", no_argument, NULL, OPT_COMPAT},
    {"joint", required_argument, NULL, OPT_JOINT},
    {"shard", required_argument, NULL, OPT_SHARD},
    {NULL, 0, NULL, 0}};

static int list_measures(void)
{
    printf("%-24s %-10s %s\n", "measure", "params", "definition");
    for (size_t i = 0; i < qk_measure_count(); i++) {
        const qk_measure_info *in = qk_measure_at(i);
        static const char *const kinds[] = {"-", "cutoffs", "points", "numbers", "pairs"};
        printf("%-24s %-10s %s%s%s%s\n", in->name, kinds[in->param_kind], in->help,
               in->default_params ? " Default parameters: " : "", in->default_params ? in->default_params : "",
               in->default_params ? "." : "");
    }
    printf("\nnicknames: official (default), all_trec, set, all_prefs, prefs, qrels_jg\n"
           "aliases:   AP AP@k P@k R@k nDCG nDCG@k RR Rprec Bpref BPref infAP Judged@k NumRel NumRet\n"
           "           NumRelRet NumQ SetP SetR SetF Success@k IPrec@r RBP RBP(p=x) GMAP gm_AP\n");
    return QK_EXIT_OK;
}

/* -D N[.QID]: the debug level N (an integer, otherwise unused) and the one
 * topic to evaluate. */
static int debug_topic(const char *cmd, const char *arg, qk_eval_cli *c)
{
    char level[64];
    const char *dot = strchr(arg, '.');
    long n;
    snprintf(level, sizeof level, "%.*s", (int)(dot ? (size_t)(dot - arg) : strlen(arg)), arg);
    if (qk_cli_long(cmd, "-D", level, LONG_MIN, LONG_MAX, &n) != 0)
        return QK_EXIT_USAGE;
    if (dot) {
        snprintf(c->only_topic, sizeof c->only_topic, "%s", dot + 1);
        c->o.only_topic = c->only_topic;
    }
    return 0;
}

/* Split ir_measures' rel=N off a spec ("P(rel=2)@5" -> "P@5", written to
 * buf) and note the level: the spec means its measure at trec_eval's -l N. */
static int split_rel(const char *cmd, qk_eval_cli *c, const char *spec, char *buf, size_t bufsize)
{
    qk_error err;
    long level = 0;
    int found = 0;
    if (qk_measure_split_rel(spec, buf, bufsize, &level, &found, &err) != QK_OK)
        return qk_cli_fail(cmd, &err);
    if (!found) {
        if (!c->plain_spec)
            c->plain_spec = spec;
    } else if (!c->rel_given) {
        c->rel_given = 1;
        c->rel = level;
        c->rel_spec = spec;
    } else if (c->rel != level) {
        return qk_cli_usage(
            cmd, "measures '%s' and '%s' ask for different relevance levels; evaluate each in its own call",
            c->rel_spec, spec);
    }
    return 0;
}

static int add_measure(const char *cmd, qk_eval_cli *c, qk_measures *ms, const char *spec)
{
    char buf[512];
    qk_error err;
    int rc = split_rel(cmd, c, spec, buf, sizeof buf);
    if (rc)
        return rc;
    if (qk_measures_add(ms, buf, &err) != QK_OK)
        return qk_cli_fail(cmd, &err);
    return 0;
}

/* One call evaluates at one relevance level: rel= measures set it, and
 * plain measures or -l must agree with it. */
static int settle_level(const char *cmd, qk_eval_cli *c)
{
    int rc;
    if (c->matrix) {
        if ((rc = split_rel(cmd, c, c->matrix, c->matrix_buf, sizeof c->matrix_buf)) != 0)
            return rc;
        c->matrix = c->matrix_buf;
    }
    if (!c->rel_given)
        return 0;
    if (c->plain_spec && c->o.rel_level != c->rel)
        return qk_cli_usage(
            cmd,
            "measure '%s' asks for relevance level %ld but '%s' is at level %ld (-l); evaluate "
            "each level in its own call",
            c->rel_spec, c->rel, c->plain_spec, c->o.rel_level);
    if (c->level_given && c->o.rel_level != c->rel)
        return qk_cli_usage(cmd, "measure '%s' asks for relevance level %ld but -l gives %ld", c->rel_spec,
                            c->rel, c->o.rel_level);
    c->o.rel_level = c->rel;
    return 0;
}

/* Parse options. Returns -1 to continue, otherwise an exit code. */
static int parse(int argc, char **argv, qk_eval_cli *c, qk_measures *ms, int *first_operand)
{
    const char *cmd = c->trec_mode ? "trec_eval" : "eval";
    int ch, help = 0, rc = 0, v;
    long n = 0;
    optind = 0;
    while (rc == 0 && (ch = getopt_long(argc, argv, "hvqm:cl:nD:JN:M:R:T:Z:o", longopts, NULL)) != -1) {
        switch (ch) {
        case 'h': help = 1; break;
        case 'v':
            if (c->trec_mode) {
                fprintf(stderr, "trec_eval version 10.0-rc3\n");
                return QK_EXIT_OK;
            }
            printf("qrelkit %s\n", QK_VERSION);
            return QK_EXIT_OK;
        case 'q': c->per_topic = 1; break;
        case 'm': rc = add_measure(cmd, c, ms, optarg); break;
        case 'c': c->o.complete = 1; break;
        case 'l':
            rc = qk_cli_long(cmd, "-l", optarg, LONG_MIN, LONG_MAX, &c->o.rel_level);
            c->level_given = 1;
            break;
        case 'n': c->summary = 0; break;
        case 'D': rc = debug_topic(cmd, optarg, c); break;
        case 'J': c->o.judged_only = 1; break;
        case 'N': rc = qk_cli_long(cmd, "-N", optarg, 0, LONG_MAX, &c->o.num_docs); break;
        case 'M': rc = qk_cli_long(cmd, "-M", optarg, 0, LONG_MAX, &c->o.max_ret); break;
        case 'R':
            if (!(rc = qk_cli_enum(cmd, qk_eval_relfmt_table, "-R", optarg, &v))) {
                c->est.kind = v >= EST_BASE ? v - EST_BASE : 0;
                c->relfmt = v >= EST_BASE ? c->relfmt : (qk_rel_format)v;
            }
            break;
        case 'T': rc = qk_cli_enum(cmd, qk_eval_results_table, "-T", optarg, &v); break;
        case 'Z': c->zfile = optarg; break;
        case 'o': break;
        case OPT_FORMAT:
            if (!(rc = qk_cli_enum(cmd, qk_cli_format_trec_table, "--format", optarg, &v)))
                c->format = optarg;
            break;
        case OPT_PRECISION:
            rc = qk_cli_long(cmd, "--precision", optarg, 0, 17, &n);
            c->precision = (int)n;
            c->precision_set = 1;
            break;
        case OPT_MATRIX: c->matrix = optarg; break;
        case OPT_LIST: c->list = 1; break;
        case OPT_VAR: c->est.with_var = 1; break;
        case OPT_COMPAT: c->est.compat = 1; break;
        case OPT_JOINT: c->est.joint = optarg; break;
        case OPT_SHARD:
            rc = qk_cli_shard_parse(cmd, optarg, &c->shard);
            c->shard_on = 1;
            break;
        case OPT_THREADS:
            rc = qk_cli_long(cmd, "--threads", optarg, 0, 64, &n);
            c->o.threads = (int)n;
            break;
        case OPT_DEDUP:
            if (!(rc = qk_cli_enum(cmd, qk_eval_dedup_table, "--dedup", optarg, &v)))
                c->o.dedup = (qk_dedup)v;
            break;
        default:
            return qk_cli_usage(cmd, "bad option");
        }
    }
    if (rc)
        return rc;
    if (help)
        return qk_cli_help(c->help_text);
    if (c->list)
        return list_measures();
    if (c->trec_mode && argc - optind != 2)
        return qk_cli_usage(cmd, "expected exactly two files: QRELS RUN");
    if (!c->trec_mode && argc - optind < 2)
        return qk_cli_usage(cmd, "expected QRELS and at least one RUN");
    if (c->est.joint && c->est.kind != 3)
        return qk_cli_usage(cmd, "--joint goes with -R draws");
    if ((rc = settle_level(cmd, c)) != 0)
        return rc;
    if (c->trec_mode && (c->format || c->matrix || c->precision_set))
        return qk_cli_usage(cmd, "--format, --matrix and --precision belong to 'qrelkit eval'");
    if (c->trec_mode && c->shard_on)
        return qk_cli_usage(cmd, "--shard belongs to 'qrelkit eval'");
    if (c->shard_on && (c->matrix || c->est.kind))
        return qk_cli_usage(cmd, "--shard does not combine with %s",
                            c->matrix ? "--matrix" : "-R prels|strata|draws");
    {
        qk_cli_stdin seen = {0};
        int src = qk_cli_stdin_once(cmd, &seen, c->zfile, "-Z", 0);
        if (!src)
            src = qk_cli_stdin_once(cmd, &seen, c->est.joint, "--joint", 0);
        for (int i = optind; !src && i < argc; i++)
            src = qk_cli_stdin_once(cmd, &seen, argv[i], i == optind ? "QRELS" : "RUN",
                                   i == optind ? 0 : i - optind);
        if (src)
            return src;
    }
    *first_operand = optind;
    return -1;
}

/* ---- output ---- */

/* Column names: the run ids, or the file names (without directory and
 * extension) when two runs share an id, as participants' runs often do. */
static int runids_collide(qk_eval_result *const *res, size_t nres)
{
    for (size_t a = 0; a < nres; a++)
        for (size_t b = a + 1; b < nres; b++)
            if (strcmp(qk_result_runid(res[a]), qk_result_runid(res[b])) == 0)
                return 1;
    return 0;
}

static void put_file_name(FILE *f, const char *path)
{
    const char *base = strrchr(path, '/'), *dot;
    base = base ? base + 1 : path;
    dot = strrchr(base, '.');
    fprintf(f, "\t%.*s", (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base)), base);
}

static int write_matrix(FILE *f, qk_eval_result *const *res, char *const *paths, size_t nres, size_t vi,
                        const qk_eval_cli *c)
{
    const qk_eval_result *e0 = res[0];
    int prec = c->precision_set ? c->precision : 6;
    int by_file = runids_collide(res, nres);
    if (by_file)
        fprintf(stderr, "qrelkit eval: note: runs share run ids; matrix columns are named by file\n");
    fprintf(f, "topic");
    for (size_t r = 0; r < nres; r++) {
        if (by_file)
            put_file_name(f, paths[r]);
        else
            fprintf(f, "\t%s", qk_result_runid(res[r]));
    }
    fputc('\n', f);
    for (size_t t = 0; t < qk_result_num_topics(e0); t++) {
        fprintf(f, "%s", qk_result_topic(e0, t));
        for (size_t r = 0; r < nres; r++)
            fprintf(f, "\t%.*f", prec, qk_result_topic_value(res[r], t, vi));
        fputc('\n', f);
    }
    return QK_EXIT_OK;
}

static const qk_shard_part *topic_merge; /* set by qk_eval_topic_merge */

int qk_eval_main(int argc, char **argv, int trec_mode, const char *help)
{
    qk_eval_cli c;
    qk_measures *ms = NULL;
    qk_qrels *q = NULL;
    qk_zscores *z = NULL;
    qk_eval_result **res = NULL;
    qk_error err;
    const char *cmd = trec_mode ? "trec_eval" : "eval";
    int first = 0, rc, nres = 0, trec_out;
    size_t matrix_value = 0, stream_topics;
    static char outbuf[1 << 16];
    memset(&c, 0, sizeof c);
    c.trec_mode = trec_mode;
    c.help_text = help;
    c.summary = 1;
    c.precision = 4;
    qk_eval_opts_init(&c.o);
    if (qk_measures_new(&ms) != QK_OK)
        return QK_EXIT_IO;
    if ((rc = parse(argc, argv, &c, ms, &first)) >= 0)
        goto out;
    if (c.est.kind) {
        c.est.per_topic = c.per_topic;
        c.est.summary = c.summary;
        c.est.format = c.format;
        c.est.precision = c.precision;
        c.est.max_ret = c.o.max_ret >= 2147483647L ? 0 : c.o.max_ret; /* xinfAP: 1000 */
        rc = qk_eval_estimate(&c.est, argv[first], argv + first + 1, argc - first - 1);
        goto out;
    }
    if (c.matrix) {
        if (qk_measures_add(ms, c.matrix, &err) != QK_OK) {
            rc = qk_cli_fail(cmd, &err);
            goto out;
        }
        c.o.complete = 1;
    }
    if (qk_measures_finalize(ms, &err) != QK_OK) {
        rc = qk_cli_fail(cmd, &err);
        goto out;
    }
    if (c.matrix && qk_measures_value_index(ms, c.matrix, &matrix_value, &err) != QK_OK) {
        rc = qk_cli_fail(cmd, &err);
        goto out;
    }
    /* One run in trec format with a per-topic table of 8 MB or more (qrels
     * topics x values >= 2^20): its trec lines are streamed (the check of the
     * run's topic order re-reads the run's first column, ~1 % of the time;
     * more for gzip), and the qrels are read a window of topics at a time. */
    trec_out = !c.matrix && (!c.format || strcmp(c.format, "trec") == 0) && !c.precision_set;
    /* Without -q any format writes the summary alone: the same stream
     * serves it, without a per-topic line (several runs: each summed as
     * it goes, qk_eval_streams). */
    c.o.summary_only = !c.matrix && !c.per_topic;
    stream_topics = qk_measures_num_values(ms);
    stream_topics = (QK_EVAL_STREAM_VALUES + stream_topics - 1) / (stream_topics ? stream_topics : 1);
    if ((!c.shard_on && argc - first == 2 && (trec_out || c.o.summary_only)
             ? qk_qrels_read_windowed(argv[first], c.relfmt, c.o.dedup, stream_topics, &q, &err)
             : qk_qrels_read(argv[first], c.relfmt, c.o.dedup, &q, &err)) != QK_OK ||
        (c.zfile && qk_zscores_read(c.zfile, &z, &err) != QK_OK)) {
        rc = qk_cli_fail(cmd, &err);
        goto out;
    }
    c.o.zscores = z;
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (c.shard_on) {
        rc = argc - first == 2 ? qk_eval_shard_topics(&c, q, ms, argc, argv, first)
                               : qk_eval_shard_runs(&c, q, ms, argc, argv, first);
        goto out;
    }
    res = calloc((size_t)(argc - first), sizeof *res);
    if (!res) {
        rc = QK_EXIT_IO;
        goto out;
    }
    if (argc - first == 2) {
        qk_run_stream *rs = NULL;
        int stream = (trec_out || c.o.summary_only) &&
                     qk_qrels_num_topics(q) * qk_measures_num_values(ms) >= QK_EVAL_STREAM_VALUES;
        qk_status st;
        if (topic_merge) {
            if ((rc = qk_eval_assemble_topics(topic_merge, q, ms, &c.o, &res[0])) != 0)
                goto out;
            stream = 0;
            st = QK_OK;
        } else if ((st = qk_run_open(argv[first + 1], QK_RUN_STREAM, &rs, &err)) == QK_OK)
            st = stream ? qk_eval_stream_trec(q, rs, ms, &c.o, trec_out && c.per_topic ? stdout : NULL,
                                              &res[0], &err)
                        : qk_eval_stream(q, rs, ms, &c.o, &res[0], &err);
        qk_run_close(rs);
        if (st != QK_OK) {
            rc = qk_cli_fail(cmd, &err);
            goto out;
        }
        qk_eval_warn_missing(cmd, res[0], argv[first + 1]);
        nres = 1;
        /* trec format streams run by run, so memory holds one result at a time. */
        if (trec_out &&
            qk_result_write_trec(res[0], stdout, c.per_topic && !stream, c.summary, &err) != QK_OK) {
            rc = qk_cli_fail(cmd, &err);
            goto out;
        }
    } else if ((rc = qk_eval_many(cmd, q, ms, &c.o, argv + first + 1, argc - first - 1, res, &nres)) >= 0) {
        goto out;
    }
    if (c.matrix)
        rc = write_matrix(stdout, res, argv + first + 1, (size_t)nres, matrix_value, &c);
    else if (c.format && strcmp(c.format, "json") == 0)
        rc = qk_eval_write_json(stdout, res, argv + first + 1, (size_t)nres, &c);
    else if (c.format && strcmp(c.format, "tsv") == 0) {
        qk_eval_write_tsv(stdout, res, (size_t)nres, &c, 1);
        rc = QK_EXIT_OK;
    } else if (nres > 1 || c.precision_set) {
        /* Several runs (or a custom precision): trec lines with the run id first. */
        for (int r = 0; r < nres; r++)
            qk_eval_write_tsv(stdout, &res[r], 1, &c, 0);
        rc = QK_EXIT_OK;
    } else {
        rc = QK_EXIT_OK;
    }
out:
    fflush(stdout);
    if (ferror(stdout) && rc == 0) {
        fprintf(stderr, "qrelkit %s: cannot write to standard output\n", cmd);
        rc = QK_EXIT_IO;
    }
    for (int r = 0; r < nres; r++)
        qk_eval_result_free(res[r]);
    free(res);
    qk_zscores_free(z);
    qk_qrels_free(q);
    qk_measures_free(ms);
    return rc;
}

int qk_cmd_eval(int argc, char **argv) { return qk_eval_main(argc, argv, 0, qk_help_eval); }

int qk_eval_topic_merge(const qk_shard_part *m)
{
    qk_error err = {0};
    char **argv = NULL;
    int argc, rc;
    if (qk_shard_part_argv(m, "eval", &argc, &argv, &err) != QK_OK)
        return qk_cli_fail("merge", &err);
    /* the merge reads the qrels (and -Z file) again: they must be the ones
     * the shards read */
    if ((rc = qk_cli_shard_check_inputs("merge", m)) == 0) {
        topic_merge = m;
        optind = 0;
        rc = qk_eval_main(argc, argv, 0, qk_help_eval);
        topic_merge = NULL;
    }
    free(argv);
    return rc;
}
