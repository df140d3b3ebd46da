/* qrelkit index: corpus -> inverted index file (qk_index_* in search.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_tables.h"
#include "cli_util.h"
#include "qrelkit/search.h"

const char qk_help_index[] =
    "usage: qrelkit index -o INDEX [options] CORPUS...\n"
    "       qrelkit index --info INDEX\n"
    "\n"
    "Build an inverted index from documents, so that 'qrelkit search' can make\n"
    "runs: the first step of building a test collection from raw documents and\n"
    "topics. One pass over the corpus with bounded memory (postings beyond\n"
    "--memory are spilled as sorted runs and merged). The index is one file with\n"
    "a versioned header and a CRC-32; it records how text was analysed, so\n"
    "search analyses queries the same way. It also keeps each document's text\n"
    "(the fields indexed, compressed), which 'qrelkit campaign init --corpus\n"
    "INDEX' shows to assessors; --no-text leaves it out.\n"
    "\n"
    "corpus formats (plain or gzip, detected; '-' = stdin):\n"
    "  trec     <DOC><DOCNO>id</DOCNO> text </DOC>; tags inside are dropped\n"
    "  jsonl    one JSON object per line: {\"id\": \"...\", \"title\": ..., ...}\n"
    "  auto     jsonl when the first non-blank byte is '{', else trec (default)\n"
    "\n"
    "options:\n"
    "  -o, --out INDEX      the index file to write (required); written under a\n"
    "                       temporary name and renamed when complete\n"
    "  --format FMT         @{index-format} (default auto)\n"
    "  --fields LIST        fields that make the text: JSON keys, or TREC tags such\n"
    "                       as TITLE,TEXT (default: JSON every string field but the\n"
    "                       id; TREC everything in <DOC> but <DOCNO>)\n"
    "  --id-field KEY       JSON key of the document id (default: id, docno, _id\n"
    "                       or doc_id, the first present)\n"
    "  --stemmer NAME       @{index-stemmer} (default porter; s: plurals only)\n"
    "  --no-stop            keep stop words (default: drop the built-in English list)\n"
    "  --no-fold            keep accented letters (default: fold to ASCII, e -> e)\n"
    "  --no-lowercase       keep case\n"
    "  --skip-duplicates    index the first document of a repeated docno and skip\n"
    "                       the others (default: a repeated docno is an error)\n"
    "  --no-text            do not store the documents' text (a smaller index that\n"
    "                       search needs no less; campaign init cannot use it)\n"
    "  --memory MB          postings held in memory before spilling (default 256)\n"
    "  --text-level N       the Zstandard level of the stored text, -100..19\n"
    "                       (default 1): lower is faster, higher is smaller. On\n"
    "                       the CLEF abstracts -5 takes 0.9x the CPU for 1.5x the\n"
    "                       text bytes, 9 takes 2.7x for 0.88x; -100 stores the\n"
    "                       text nearly raw. Any level reads back the same\n"
    "                       texts.\n"
    "  --threads N          0 (default): the stored text is compressed on a second\n"
    "                       thread when another CPU is online; 1: one thread (the\n"
    "                       same index, in about 1.4x the wall time on CLEF)\n"
    "  --tmp-dir DIR        where spilled runs go (default: next to INDEX)\n"
    "  --info INDEX         check an index and print its header and counts\n"
    "  --quiet              no summary or progress on stderr\n"
    "  -h, --help           show this text\n"
    "\n"
    "Tokens are maximal runs of letters and digits (ASCII after folding; other\n"
    "scripts are kept as they are); tokens over 64 bytes are dropped.\n"
    "\n"
    "examples:\n"
    "  qrelkit index -o npl.idx vaswani-npl/corpus/doc-text.trec\n"
    "  qrelkit index -o npl-nostem.idx --stemmer none vaswani-npl/corpus/doc-text.trec\n"
    "  qrelkit index -o clef.idx --fields content clef-tar-2017-texts/doctexts/*\n"
    "  qrelkit search -i npl.idx -t vaswani-npl/query-text.trec -o bm25.run\n"
    "\n"
    "exit status: 0 ok, 1 bad option, 2 bad input (malformed corpus, duplicate\n"
    "docno, corrupt index), 3 cannot read or write.\n";

#define CMD "index"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress(void *ctx, uint64_t docs, uint64_t bytes)
{
    if (docs % 10000 == 0)
        fprintf(stderr, "\rqrelkit index: %llu documents, %.1f MB", (unsigned long long)docs,
                (double)bytes / 1e6);
    (void)ctx;
}

static int info(const char *path)
{
    qk_index *ix;
    qk_index_info in;
    qk_error err;
    char desc[96];
    qk_error_clear(&err);
    if (qk_index_open(path, &ix, &err) != QK_OK)
        return qk_cli_fail(CMD, &err);
    qk_index_get_info(ix, &in);
    qk_text_opts_describe(&in.text, desc, sizeof desc);
    printf("format_version\t%u\nanalysis\t%s\ndocuments\t%llu\nterms\t%llu\npostings\t%llu\ntokens\t%llu\n"
           "avg_doclen\t%.4f\ntext\t%s\nbytes\t%llu\ntext_bytes\t%llu\n",
           in.version, desc, (unsigned long long)in.docs, (unsigned long long)in.terms,
           (unsigned long long)in.postings, (unsigned long long)in.tokens, in.avg_doclen,
           in.has_text ? "stored" : "none", (unsigned long long)in.file_bytes,
           (unsigned long long)in.text_bytes);
    qk_index_close(ix);
    return QK_EXIT_OK;
}

enum {
    O_FORMAT = 256,
    O_FIELDS,
    O_ID,
    O_STEM,
    O_NOSTOP,
    O_NOFOLD,
    O_NOLOWER,
    O_MEM,
    O_TMP,
    O_INFO,
    O_QUIET,
    O_SKIPDUP,
    O_NOTEXT,
    O_THREADS,
    O_TEXTLEVEL
};

static const struct option longopts[] = {{"out", required_argument, NULL, 'o'},
                                         {"format", required_argument, NULL, O_FORMAT},
                                         {"fields", required_argument, NULL, O_FIELDS},
                                         {"id-field", required_argument, NULL, O_ID},
                                         {"stemmer", required_argument, NULL, O_STEM},
                                         {"no-stop", no_argument, NULL, O_NOSTOP},
                                         {"no-fold", no_argument, NULL, O_NOFOLD},
                                         {"no-lowercase", no_argument, NULL, O_NOLOWER},
                                         {"memory", required_argument, NULL, O_MEM},
                                         {"tmp-dir", required_argument, NULL, O_TMP},
                                         {"info", required_argument, NULL, O_INFO},
                                         {"quiet", no_argument, NULL, O_QUIET},
                                         {"skip-duplicates", no_argument, NULL, O_SKIPDUP},
                                         {"no-text", no_argument, NULL, O_NOTEXT},
                                         {"threads", required_argument, NULL, O_THREADS},
                                         {"text-level", required_argument, NULL, O_TEXTLEVEL},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

/* Index every corpus file into b; returns an exit code. */
static int add_corpora(qk_index_builder *b, char **paths, int n, const qk_corpus_opts *co, uint64_t *bytes)
{
    qk_error err;
    qk_error_clear(&err);
    for (int i = 0; i < n; i++) {
        qk_corpus *c;
        const char *docno, *text;
        size_t dl, tl;
        int r;
        if (qk_corpus_open(paths[i], co, &c, &err) != QK_OK)
            return err.code == QK_EUSAGE ? qk_cli_usage(CMD, "%s", err.message) : qk_cli_fail(CMD, &err);
        while ((r = qk_corpus_next(c, &docno, &dl, &text, &tl, &err)) == 1)
            if (qk_index_builder_add(b, docno, dl, text, tl, &err) != QK_OK) {
                /* The builder does not know the file; say which one. */
                if (err.code == QK_EINPUT && !err.file[0]) {
                    char msg[sizeof err.message];
                    snprintf(msg, sizeof msg, "'%.200s': %.800s", paths[i], err.message);
                    memcpy(err.message, msg, sizeof msg);
                }
                r = -1;
                break;
            }
        *bytes += qk_corpus_bytes(c);
        qk_corpus_close(c);
        if (r < 0)
            return qk_cli_fail(CMD, &err);
    }
    return QK_EXIT_OK;
}

/* Before building: refuse an output that is one of the corpora or not a
 * regular file (the index is renamed over it), and remove what killed runs
 * left (spilled runs, half-written indexes whose process is gone). The
 * temporaries of this run are removed on signals through the library's
 * temp hook (set in main). */
static int prepare_output(const char *out, const char *const *corpora, size_t n,
                          const qk_index_build_opts *bo)
{
    const char *slash = strrchr(out, '/');
    char dir[4096];
    int rc = qk_cli_check_output(CMD, "-o", out, corpora, n);
    if (rc != 0 || (rc = qk_cli_check_renamable(CMD, "-o", out)) != 0)
        return rc;
    if (bo->tmp_dir)
        snprintf(dir, sizeof dir, "%s", bo->tmp_dir);
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out) + (slash == out), out);
    else
        snprintf(dir, sizeof dir, ".");
    qk_cli_sweep_stale(dir, ".qkrun-");
    qk_cli_sweep_stale_for(out);
    return 0;
}

int qk_cmd_index(int argc, char **argv)
{
    qk_index_build_opts bo;
    qk_corpus_opts co;
    qk_index_builder *b = NULL;
    qk_index_build_stats stats;
    qk_error err;
    const char *out = NULL;
    int quiet = 0, c, rc, w;
    uint64_t bytes = 0;
    double t0 = now();
    qk_index_build_opts_init(&bo);
    qk_corpus_opts_init(&co);
    qk_error_clear(&err);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'h': return qk_cli_help(qk_help_index);
        case O_FORMAT:
            if ((rc = qk_cli_enum(CMD, qk_corpus_format_table, "--format", optarg, &w)) != 0)
                return rc;
            co.format = (qk_corpus_format)w;
            break;
        case O_FIELDS: co.fields = optarg; break;
        case O_ID: co.id_field = optarg; break;
        case O_STEM:
            if ((rc = qk_cli_enum(CMD, qk_stemmer_table, "--stemmer", optarg, &w)) != 0)
                return rc;
            bo.text.stemmer = (qk_stemmer)w;
            break;
        case O_NOSTOP: bo.text.stop = 0; break;
        case O_NOFOLD: bo.text.fold = 0; break;
        case O_NOLOWER: bo.text.lowercase = 0; break;
        case O_MEM:
            if ((rc = qk_cli_size(CMD, "--memory", optarg, 1, 1000000, &bo.memory_mb)) != 0)
                return rc;
            break;
        case O_TMP: bo.tmp_dir = optarg; break;
        case O_INFO: return info(optarg);
        case O_QUIET: quiet = 1; break;
        case O_SKIPDUP: bo.skip_duplicates = 1; break;
        case O_NOTEXT: bo.store_text = 0; break;
        case O_THREADS: {
            long th;
            if ((rc = qk_cli_long(CMD, "--threads", optarg, 0, 1024, &th)) != 0)
                return rc;
            bo.threads = (int)th;
            break;
        }
        case O_TEXTLEVEL: {
            long lv;
            if ((rc = qk_cli_long(CMD, "--text-level", optarg, QK_INDEX_TEXT_LEVEL_MIN,
                                  QK_INDEX_TEXT_LEVEL_MAX, &lv)) != 0)
                return rc;
            bo.text_level = (int)lv;
            break;
        }
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!out)
        return qk_cli_usage(CMD, "missing -o INDEX");
    if (qk_cli_no_stdout(CMD, "-o", out, "cannot take an index (a binary file); give a file name"))
        return QK_EXIT_USAGE;
    if (optind >= argc)
        return qk_cli_usage(CMD, "missing CORPUS (one or more files, '-' for stdin)");
    {
        qk_cli_stdin seen = {0};
        rc = 0;
        for (int i = optind; !rc && i < argc; i++)
            rc = qk_cli_stdin_once(CMD, &seen, argv[i], "CORPUS", i - optind + 1);
        if (rc)
            return rc;
    }
    if (!quiet && isatty(STDERR_FILENO))
        bo.progress = progress;
    if ((rc = prepare_output(out, (const char *const *)argv + optind, (size_t)(argc - optind), &bo)) != 0)
        return rc;
    if (qk_index_builder_new(out, &bo, &b, &err) != QK_OK)
        return qk_cli_fail(CMD, &err);
    rc = add_corpora(b, argv + optind, argc - optind, &co, &bytes);
    if (rc == QK_EXIT_OK && qk_index_builder_finish(b, &stats, &err) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
    qk_index_builder_free(b);
    if (rc == QK_EXIT_OK && !quiet) {
        double s = now() - t0;
        if (bo.progress)
            fputc('\n', stderr);
        fprintf(stderr,
                "qrelkit index: %llu documents, %llu terms, %llu postings, %llu tokens -> '%s' (%.1f MB) "
                "in %.2f s: %.2f MB/s, %.0f documents/s, %llu spilled runs, %llu duplicates skipped\n",
                (unsigned long long)stats.docs, (unsigned long long)stats.terms,
                (unsigned long long)stats.postings, (unsigned long long)stats.tokens, out,
                (double)stats.index_bytes / 1e6, s, (double)bytes / 1e6 / (s > 0 ? s : 1e-9),
                (double)stats.docs / (s > 0 ? s : 1e-9), (unsigned long long)stats.spilled_runs,
                (unsigned long long)stats.duplicates);
    }
    return rc;
}
