/* qrelkit tune: Bayesian optimisation of retrieval parameters, with grid and
 * random search baselines (argument parsing and printing only; the method
 * is in src/tune and src/learn/gp.c). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_svg.h"
#include "cli_tables.h"
#include "cli_util.h"
#include "qrelkit/tune.h"
#include "shard_cli.h"

const char qk_help_tune[] =
    "usage: qrelkit tune -s SPACE.json -q QRELS -i INDEX -t TOPICS [options]\n"
    "       qrelkit tune -s SPACE.json -q QRELS --cmd 'PROG --k1 {k1} --out {run}' [options]\n"
    "\n"
    "Find the parameters of a retrieval system that maximise a measure with few\n"
    "evaluations: Bayesian optimisation with a Gaussian-process surrogate (Li 2020,\n"
    "ch. 5), or the grid and random search baselines. The objective is the built-in\n"
    "engine on an index (parameters model, k1, b, mu, lambda, rm3, fb_docs,\n"
    "fb_terms, fb_orig) or any command: {NAME} in the template becomes a parameter's\n"
    "value and {run} the run file the command must write; the run is scored on\n"
    "QRELS (topics missing from it count 0). A failed evaluation is logged and\n"
    "skipped. stdout: one TSV line per evaluation, then the best one (i = best).\n"
    "\n"
    "options:\n"
    "  -s, --space FILE     the search space (JSON; see 'man qrelkit-tune')\n"
    "  -q, --qrels FILE     the relevance judgments\n"
    "  -m, --measure NAME   the measure to maximise (default map)\n"
    "  -i, --index FILE     the index, for the built-in engine\n"
    "  -t, --topics FILE    the topics, for the built-in engine\n"
    "  --topic-fields LIST  topic parts that make the query (default title)\n"
    "  --depth N            documents per topic (default 1000)\n"
    "  --cmd TEMPLATE       the command to tune instead of the engine (run by sh -c)\n"
    "  --run-dir DIR        where the command's run files go (default .)\n"
    "  --method NAME        @{tune-method}\n"
    "  --budget N           evaluations in all (default 30; grid: the whole grid)\n"
    "  --init N             initial design points (default 2 x parameters)\n"
    "  --design NAME        @{tune-design}\n"
    "  --acq NAME           @{tune-acq}\n"
    "  --kernel NAME        @{tune-kernel}\n"
    "  --xi X               margin of EI and PI over the best value (default 0)\n"
    "  --beta X             UCB's weight of the standard deviation (default: the\n"
    "                       GP-UCB schedule)\n"
    "  --candidates N       random points the acquisition is scored on (1000)\n"
    "  --restarts N         hyper-parameter fits per step (default 3)\n"
    "  --grid-steps N       grid values per real parameter (default 20)\n"
    "  --seed S             seed (default 42); evaluation i depends on (S, i) and\n"
    "                       the evaluations before it only\n"
    "  --final NAME         the configuration reported last: incumbent (the best\n"
    "                       evaluated, default) or latent (the highest GP posterior\n"
    "                       mean, evaluated once more; row 'latent', best = the mean)\n"
    "  --log FILE           append every evaluation as a JSON line\n"
    "  --resume             continue the tune in --log: its evaluations are\n"
    "                       replayed, not repeated (same options and seed)\n"
    "  --replay             print the tune in --log without evaluating anything\n"
    "  --plot FILE          the convergence plot (best so far) as SVG\n"
    "  --shard I/N          grid and random only: evaluations of shard I of N,\n"
    "                       as a part file for 'qrelkit merge' (not with --log,\n"
    "                       --resume, --replay, --plot; doc/scale-out.md)\n"
    "  --quiet              no progress on stderr\n"
    "  -h, --help           show this text\n"
    "\n"
    "examples:\n"
    "  qrelkit tune -s bm25.json -q qrels -i npl.idx -t query-text.trec --budget 40 \\\n"
    "      --log tune.jsonl --plot tune.svg\n"
    "  qrelkit tune -s bm25.json -q qrels --method grid -i npl.idx -t query-text.trec\n"
    "  qrelkit tune -s bm25.json -q qrels --cmd './mysearch --k1 {k1} --b {b} > {run}'\n"
    "\n"
    "exit status: 0 ok, 1 bad option, 2 bad input (space, qrels, log; every\n"
    "evaluation failed), 3 cannot read or write.\n";

#define CMD "tune"

typedef struct {
    const char *space, *qrels, *measure, *index, *topics, *fields, *cmd, *run_dir, *log, *plot;
    qk_tune_opts o;
    size_t depth;
    int resume, replay, quiet, shard_on, final;
    qk_shard_spec shard;
} args;

/* The final configuration reported (spec 003b B5). */
static const qk_enum final_table[] = {
    {"incumbent", 0, "the best evaluated configuration (default)"},
    {"latent", 1, "the configuration of highest GP posterior mean, then evaluated"},
    {NULL, 0, NULL},
};

enum {
    O_FIELDS = 256,
    O_DEPTH,
    O_CMD,
    O_RUNDIR,
    O_METHOD,
    O_BUDGET,
    O_INIT,
    O_DESIGN,
    O_ACQ,
    O_KERNEL,
    O_XI,
    O_BETA,
    O_CAND,
    O_RESTARTS,
    O_STEPS,
    O_SEED,
    O_LOG,
    O_RESUME,
    O_REPLAY,
    O_PLOT,
    O_QUIET,
    O_SHARD,
    O_FINAL
};

static const struct option longopts[] = {{"space", required_argument, NULL, 's'},
                                         {"qrels", required_argument, NULL, 'q'},
                                         {"measure", required_argument, NULL, 'm'},
                                         {"index", required_argument, NULL, 'i'},
                                         {"topics", required_argument, NULL, 't'},
                                         {"topic-fields", required_argument, NULL, O_FIELDS},
                                         {"depth", required_argument, NULL, O_DEPTH},
                                         {"cmd", required_argument, NULL, O_CMD},
                                         {"run-dir", required_argument, NULL, O_RUNDIR},
                                         {"method", required_argument, NULL, O_METHOD},
                                         {"budget", required_argument, NULL, O_BUDGET},
                                         {"init", required_argument, NULL, O_INIT},
                                         {"design", required_argument, NULL, O_DESIGN},
                                         {"acq", required_argument, NULL, O_ACQ},
                                         {"kernel", required_argument, NULL, O_KERNEL},
                                         {"xi", required_argument, NULL, O_XI},
                                         {"beta", required_argument, NULL, O_BETA},
                                         {"candidates", required_argument, NULL, O_CAND},
                                         {"restarts", required_argument, NULL, O_RESTARTS},
                                         {"grid-steps", required_argument, NULL, O_STEPS},
                                         {"seed", required_argument, NULL, O_SEED},
                                         {"log", required_argument, NULL, O_LOG},
                                         {"resume", no_argument, NULL, O_RESUME},
                                         {"replay", no_argument, NULL, O_REPLAY},
                                         {"plot", required_argument, NULL, O_PLOT},
                                         {"quiet", no_argument, NULL, O_QUIET},
                                         {"shard", required_argument, NULL, O_SHARD},
                                         {"final", required_argument, NULL, O_FINAL},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

#define F(f) offsetof(args, f)
static const qk_cli_opt value_opts[] = {
    {O_METHOD, "--method", 'e', F(o.method), qk_tune_method_table, 0, 0, 0},
    {O_DESIGN, "--design", 'e', F(o.design), qk_design_table, 0, 0, 0},
    {O_ACQ, "--acq", 'e', F(o.acq), qk_acq_table, 0, 0, 0},
    {O_KERNEL, "--kernel", 'e', F(o.kernel), qk_kernel_table, 0, 0, 0},
    {O_BUDGET, "--budget", 'z', F(o.budget), NULL, 1, 1000000, 0},
    {O_INIT, "--init", 'z', F(o.init), NULL, 1, 1000000, 0},
    {O_CAND, "--candidates", 'z', F(o.candidates), NULL, 1, 10000000, 0},
    {O_STEPS, "--grid-steps", 'z', F(o.grid_steps), NULL, 2, 100000, 0},
    {O_RESTARTS, "--restarts", 'i', F(o.restarts), NULL, 1, 1000, 0},
    {O_XI, "--xi", 'd', F(o.xi), NULL, 0, INFINITY, 0},
    {O_BETA, "--beta", 'd', F(o.beta), NULL, 0, INFINITY, 0},
    {O_DEPTH, "--depth", 'z', F(depth), NULL, 1, 100000000, 0},
    {O_SEED, "--seed", 's', F(o.seed), NULL, 0, 0, 0},
    {O_FINAL, "--final", 'e', F(final), final_table, 0, 0, 0},
    {0, NULL, 0, 0, NULL, 0, 0, 0},
};
#undef F

static int parse(int argc, char **argv, args *a)
{
    int c, rc;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":s:q:m:i:t:h", longopts, NULL)) != -1) {
        if ((rc = qk_cli_set(CMD, value_opts, c, optarg, a)) > 0)
            return rc;
        if (rc == 0)
            continue;
        switch (c) {
        case 's': a->space = optarg; break;
        case 'q': a->qrels = optarg; break;
        case 'm': a->measure = optarg; break;
        case 'i': a->index = optarg; break;
        case 't': a->topics = optarg; break;
        case 'h': return qk_cli_help(qk_help_tune);
        case O_FIELDS: a->fields = optarg; break;
        case O_CMD: a->cmd = optarg; break;
        case O_RUNDIR: a->run_dir = optarg; break;
        case O_LOG: a->log = optarg; break;
        case O_RESUME: a->resume = 1; break;
        case O_REPLAY: a->replay = 1; break;
        case O_PLOT: a->plot = optarg; break;
        case O_QUIET: a->quiet = 1; break;
        case O_SHARD:
            if ((rc = qk_cli_shard_parse(CMD, optarg, &a->shard)) != 0)
                return rc;
            a->shard_on = 1;
            break;
        case ':': return qk_cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return qk_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return qk_cli_usage(CMD, "unexpected argument '%s'", argv[optind]);
    if (!a->space)
        return qk_cli_usage(CMD, "missing -s SPACE");
    if ((a->resume || a->replay) && !a->log)
        return qk_cli_usage(CMD, "--%s needs --log FILE", a->resume ? "resume" : "replay");
    if (a->shard_on) {
        /* A tune's log is one sequence that --resume continues: parts of it
         * in n files would be n logs no resume could use, so a sharded tune
         * keeps none (the merged table holds every evaluation). */
        if (a->log)
            return qk_cli_usage(CMD, "--log does not combine with --shard (the merged table holds every "
                                     "evaluation; log an unsharded tune)");
        if (a->plot)
            return qk_cli_usage(CMD, "--plot does not combine with --shard (plot an unsharded tune)");
        if (a->final)
            return qk_cli_usage(CMD, "--final latent does not combine with --shard (the latent choice fits the "
                                     "GP to every evaluation: tune unsharded)");
        if (a->o.method == QK_TUNE_BO)
            return qk_cli_usage(CMD, "--shard needs --method grid or random: BO is sequential (each step "
                                     "depends on the ones before it)");
    }
    if (a->replay)
        return -1;
    if (!a->qrels)
        return qk_cli_usage(CMD, "missing -q QRELS");
    if (a->cmd && (a->index || a->topics))
        return qk_cli_usage(CMD, "--cmd and -i/-t are two different objectives; give one");
    if (!a->cmd && (!a->index || !a->topics))
        return qk_cli_usage(CMD, "missing -i INDEX and -t TOPICS (or --cmd TEMPLATE)");
    return -1;
}

static qk_status read_text(const char *path, char **text, size_t *len, qk_error *err)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 0, n = 0;
    char *buf = NULL;
    if (!f)
        return qk_error_set(err, QK_EIO, "cannot open '%s': %s", path, strerror(errno));
    for (;;) {
        if (qk_grow((void **)&buf, &cap, n + 4096, 1) != QK_OK) {
            fclose(f);
            free(buf);
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return qk_error_set(err, QK_EIO, "cannot read '%s'", path);
    }
    *text = buf;
    *len = n;
    return QK_OK;
}

extern char **environ;

/* qk_tune_exec_fn: run line by /bin/sh -c (its stdout to our stderr, so it
 * cannot mix with the results), then read and remove the run it wrote. */
static qk_status exec_command(void *ctx, const char *line, const char *run, qk_run **out, qk_error *err)
{
    char *argv[] = {"sh", "-c", (char *)line, NULL};
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int status = 0, rc;
    qk_status st = QK_OK;
    *out = NULL;
    unlink(run);
    qk_cli_temp_add(run);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, 2, 1);
    rc = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        st = qk_error_set(err, QK_EIO, "cannot start /bin/sh: %s", strerror(rc));
        goto out;
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            st = qk_error_set(err, QK_EIO, "waiting for the command: %s", strerror(errno));
            goto out;
        }
    if (WIFSIGNALED(status))
        st = qk_error_set(err, QK_EINPUT, "command killed by signal %d: %s", WTERMSIG(status), line);
    else if (WEXITSTATUS(status) != 0)
        st = qk_error_set(err, QK_EINPUT, "command exited with status %d: %s", WEXITSTATUS(status), line);
    else if (access(run, F_OK) != 0)
        st = qk_error_set(err, QK_EINPUT, "command wrote no run to '%s': %s", run, line);
    else
        st = qk_run_read(run, out, err);
out:
    unlink(run);
    qk_cli_temp_forget(run);
    return st;
}

/* A log whose last line was cut short by an interruption (the reader drops
 * it) is truncated after its last complete line before --resume appends. */
static int drop_partial_line(const char *path)
{
    FILE *f = fopen(path, "rb");
    long size, keep = 0;
    int c;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0) {
        if (f)
            fclose(f);
        qk_cli_errorf(CMD, "cannot read '%s': %s", path, strerror(errno));
        return QK_EXIT_IO;
    }
    for (long at = size; at > 0 && keep == 0; at--) {
        if (fseek(f, at - 1, SEEK_SET) != 0 || (c = fgetc(f)) == EOF)
            break;
        if (c == '\n')
            keep = at;
    }
    fclose(f);
    if (keep < size && truncate(path, keep) != 0) {
        qk_cli_errorf(CMD, "cannot truncate '%s': %s", path, strerror(errno));
        return QK_EXIT_IO;
    }
    return 0;
}

typedef struct {
    const qk_tune_space *s;
    FILE *log;
    qk_cli_progress pr;
    size_t total;
    double best;
} observe_ctx;

static qk_status observe(void *ctx, const qk_tune_obs *ob, qk_error *err)
{
    observe_ctx *c = ctx;
    qk_status st = QK_OK;
    if (c->log)
        st = qk_tune_log_write(c->log, c->s, ob, err);
    qk_cli_progress_step(&c->pr, ob->index + 1, c->total);
    return st;
}

static void print_value(FILE *f, const qk_tune_param *p, double v)
{
    if (p->type == QK_PARAM_CAT)
        fprintf(f, "\t%s", p->cats[(size_t)v]);
    else if (p->type == QK_PARAM_INT)
        fprintf(f, "\t%ld", (long)v);
    else
        fprintf(f, "\t%.6g", v);
}

/* The parameter cells of a row (each after a tab). */
static void print_cells(FILE *f, const qk_tune_space *s, const double *x)
{
    for (size_t d = 0; d < qk_tune_space_dim(s); d++) {
        if (qk_tune_space_active(s, x, d))
            print_value(f, qk_tune_space_param(s, d), x[d]);
        else
            fprintf(f, "\t-");
    }
}

static void print_row(const qk_tune_space *s, const char *i, const char *phase, const qk_tune_obs *ob,
                      double best)
{
    printf("%s\t%s\t", i, phase);
    if (ob->ok)
        printf("%.4f", ob->y);
    else
        printf("NA");
    printf("\t%.4f", best);
    print_cells(stdout, s, ob->x);
    printf("\n");
}

static void print_header(FILE *f, const qk_tune_space *s)
{
    fprintf(f, "i\tphase\ty\tbest");
    for (size_t d = 0; d < qk_tune_space_dim(s); d++)
        fprintf(f, "\t%s", qk_tune_space_param(s, d)->name);
    fprintf(f, "\n");
}

/* The latent choice over the ok evaluations, evaluated (unless replaying:
 * y NA) and printed as row 'latent' with the posterior mean as 'best'. */
static int print_latent(const qk_tune_space *s, const qk_tune_opts *o, const qk_tune_result *r,
                        qk_tune_objective_fn objective, void *ctx)
{
    size_t dim = qk_tune_space_dim(s), n = 0;
    double *X = calloc((r->n + 1) * dim, sizeof *X), *y = malloc(r->n * sizeof *y), mu = NAN;
    qk_tune_obs ob;
    qk_error err;
    int rc = QK_EXIT_OK;
    memset(&ob, 0, sizeof ob);
    if (!X || !y) {
        free(X);
        free(y);
        qk_cli_errorf(CMD, "out of memory");
        return QK_EXIT_IO;
    }
    for (size_t i = 0; i < r->n; i++)
        if (r->obs[i].ok) {
            memcpy(X + n * dim, r->obs[i].x, dim * sizeof *X);
            y[n++] = r->obs[i].y;
        }
    ob.x = X + n * dim;
    if (qk_tune_latent(s, o, n, X, y, NULL, ob.x, &mu, NULL, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
    } else {
        qk_error_clear(&err);
        ob.ok = objective && objective(ctx, s, ob.x, &ob.y, &err) == QK_OK && isfinite(ob.y);
        if (objective && !ob.ok)
            qk_cli_errorf(CMD, "evaluating the latent choice: %s",
                          err.message[0] ? err.message : "not a finite value");
        print_row(s, "latent", "latent", &ob, mu);
    }
    free(X);
    free(y);
    return rc;
}

static void print_result(const qk_tune_space *s, const qk_tune_result *r)
{
    double best = -INFINITY;
    char idx[32];
    print_header(stdout, s);
    for (size_t i = 0; i < r->n; i++) {
        if (r->obs[i].ok && r->obs[i].y > best)
            best = r->obs[i].y;
        snprintf(idx, sizeof idx, "%zu", i + 1);
        print_row(s, idx, qk_tune_phase_name(r->obs[i].phase), &r->obs[i], best);
    }
    print_row(s, "best", qk_tune_phase_name(r->obs[r->best].phase), &r->obs[r->best], r->obs[r->best].y);
}

static int write_plot(const char *path, const qk_tune_result *r, const char *measure, const char *method)
{
    qk_cli_out o;
    int rc;
    double *x = malloc((r->n + 1) * 2 * sizeof *x), best = NAN;
    if (!x) {
        qk_cli_errorf(CMD, "out of memory");
        return QK_EXIT_IO;
    }
    double *y = x + r->n + 1;
    for (size_t i = 0; i < r->n; i++) {
        if (r->obs[i].ok && !(r->obs[i].y <= best))
            best = r->obs[i].y;
        x[i] = (double)(i + 1);
        y[i] = best;
    }
    if ((rc = qk_cli_out_open(CMD, &o, path)) != 0) {
        free(x);
        return rc;
    }
    char title[128];
    snprintf(title, sizeof title, "qrelkit tune (%s): best %s so far", method, measure);
    qk_svg_series s = {method, x, y, NULL, NULL, r->n};
    qk_svg_begin(o.f, 640, 400);
    qk_svg_panel(o.f, 0, 0, 640, 400, title, "evaluations", measure, &s, 1, NAN, NAN);
    qk_svg_end(o.f);
    free(x);
    return qk_cli_out_commit(CMD, &o);
}

/* --shard: the evaluations of this shard as a part. Its prologue is the
 * table's header; item i is "Y\tPHASE\tCELLS\nERROR" with Y the value as a
 * hexadecimal float (exact) or NA, so that the merge recomputes the running
 * best and the incumbent exactly as the unsharded tune does. */
static int run_shard(const args *a, int argc, char **argv, const qk_tune_space *s, qk_tune_objective_fn fn,
                     void *ctx, observe_ctx *oc)
{
    const char *ins[] = {a->space, a->qrels, a->index, a->topics};
    qk_shard_part *part = NULL;
    qk_tune_result res;
    qk_error err;
    size_t first, end;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    int rc;
    qk_error_clear(&err);
    memset(&res, 0, sizeof res);
    qk_shard_range(a->shard, oc->total, &first, &end);
    if ((rc = qk_cli_shard_begin(CMD, CMD, "tune", a->shard, oc->total, argc, argv, ins, 4, &part)) != 0)
        return rc;
    qk_shard_part_set_seed(part, a->o.seed);
    if (!(f = open_memstream(&buf, &len))) {
        rc = QK_EXIT_IO;
        goto out;
    }
    print_header(f, s);
    if (fclose(f) != 0 || qk_shard_part_set_frame(part, buf, len, NULL, 0, NULL, 0) != QK_OK) {
        rc = QK_EXIT_IO;
        goto out;
    }
    if (qk_tune_run_range(s, &a->o, fn, ctx, first, end, observe, oc, &res, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    for (size_t k = 0; !rc && k < res.n; k++) {
        const qk_tune_obs *ob = &res.obs[k];
        free(buf);
        buf = NULL;
        if (!(f = open_memstream(&buf, &len))) {
            rc = QK_EXIT_IO;
            break;
        }
        if (ob->ok)
            fprintf(f, "%a", ob->y);
        else
            fprintf(f, "NA");
        fprintf(f, "\t%s", qk_tune_phase_name(ob->phase));
        print_cells(f, s, ob->x);
        fprintf(f, "\n%s", ob->ok ? "" : ob->error);
        if (fclose(f) != 0)
            rc = QK_EXIT_IO;
        else if (qk_shard_part_add_item(part, ob->index, buf, len, &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
    }
out:
    free(buf);
    qk_tune_result_free(&res);
    if (rc) {
        if (rc == QK_EXIT_IO)
            qk_cli_errorf(CMD, "out of memory");
        qk_shard_part_free(part);
        return rc;
    }
    return qk_cli_shard_finish(CMD, part);
}

int qk_tune_merge(const qk_shard_part *m)
{
    size_t n = qk_shard_part_num_held(m), best = n, plen;
    const char *pro = qk_shard_part_prologue(m, &plen), *first_error = NULL;
    double *y = calloc(n ? n : 1, sizeof *y), run = -INFINITY;
    if (!y) {
        qk_cli_errorf(CMD, "out of memory");
        return QK_EXIT_IO;
    }
    /* y of every item, the incumbent: the first ok one with the largest y */
    for (size_t k = 0; k < n; k++) {
        const char *d = qk_shard_part_item(m, k, NULL, NULL), *nl = strchr(d, '\n');
        char *e;
        if (strncmp(d, "NA\t", 3) == 0 && nl) {
            y[k] = NAN;
            if (!first_error)
                first_error = nl ? nl + 1 : "";
            continue;
        }
        y[k] = strtod(d, &e);
        if (e == d || *e != '\t' || !nl || !isfinite(y[k])) {
            free(y);
            qk_cli_errorf("merge", "evaluation %zu of the tune is not a valid record", k);
            return QK_EXIT_INPUT;
        }
        if (best == n || y[k] > y[best])
            best = k;
    }
    if (best == n) {
        free(y);
        qk_cli_errorf(CMD, "every one of the %zu evaluations failed; the first: %s", n,
                      first_error ? first_error : "");
        return QK_EXIT_INPUT;
    }
    fwrite(pro, 1, plen, stdout);
    for (size_t k = 0; k <= n; k++) {
        size_t j = k < n ? k : best;
        const char *d = qk_shard_part_item(m, j, NULL, NULL), *tab = strchr(d, '\t'), *nl = strchr(d, '\n');
        char ys[32];
        if (!isnan(y[j]) && !(y[j] <= run))
            run = y[j];
        if (isnan(y[j]))
            snprintf(ys, sizeof ys, "NA");
        else
            snprintf(ys, sizeof ys, "%.4f", y[j]);
        const char *ph = tab + 1, *cells = strchr(ph, '\t');
        if (!cells || cells > nl)
            cells = nl;
        if (k < n)
            printf("%zu", k + 1);
        else
            printf("best");
        printf("\t%.*s\t%s\t%.4f%.*s\n", (int)(cells - ph), ph, ys, k < n ? run : y[best], (int)(nl - cells),
               cells);
    }
    free(y);
    return qk_cli_flush_stdout("merge");
}

int qk_cmd_tune(int argc, char **argv)
{
    args a;
    qk_error err;
    qk_tune_space *s = NULL;
    qk_qrels *qrels = NULL;
    qk_index *ix = NULL;
    qk_topics *topics = NULL;
    qk_tune_engine *engine = NULL;
    qk_tune_command *command = NULL;
    qk_tune_obs *prior = NULL;
    size_t nprior = 0;
    qk_tune_result res;
    observe_ctx oc;
    char *text = NULL;
    size_t len = 0;
    int rc;
    memset(&a, 0, sizeof a);
    memset(&res, 0, sizeof res);
    memset(&oc, 0, sizeof oc);
    qk_tune_opts_init(&a.o);
    a.measure = "map";
    qk_error_clear(&err);
    if ((rc = parse(argc, argv, &a)) >= 0)
        return rc;
    if (read_text(a.space, &text, &len, &err) != QK_OK ||
        qk_tune_space_parse(text, len, a.space, &s, &err) != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    if (a.log && access(a.log, F_OK) == 0) {
        FILE *f = fopen(a.log, "r");
        if (!f) {
            qk_cli_errorf(CMD, "cannot open '%s': %s", a.log, strerror(errno));
            rc = QK_EXIT_IO;
            goto out;
        }
        qk_status st = qk_tune_log_read(f, a.log, s, &prior, &nprior, &err);
        fclose(f);
        if (st != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        if (a.resume && (rc = drop_partial_line(a.log)) != 0)
            goto out;
        if (nprior && !a.resume && !a.replay) {
            rc = qk_cli_usage(CMD, "--log '%s' holds %zu evaluations: --resume to continue it, or remove it",
                              a.log, nprior);
            goto out;
        }
    } else if (a.replay) {
        qk_cli_errorf(CMD, "cannot open '%s': %s", a.log, strerror(errno));
        rc = QK_EXIT_IO;
        goto out;
    }
    if (a.replay) {
        if (nprior == 0) {
            qk_cli_errorf(CMD, "'%s' holds no evaluations", a.log);
            rc = QK_EXIT_INPUT;
            goto out;
        }
        a.o.budget = nprior;
    } else {
        if (qk_qrels_read(a.qrels, QK_REL_QRELS, QK_DEDUP_FIRST, &qrels, &err) != QK_OK) {
            rc = qk_cli_fail(CMD, &err);
            goto out;
        }
        qk_status st;
        struct stat sb;
        /* every evaluation would fail to write its run there: say so
         * before the first, not after the whole budget */
        if (a.cmd && a.run_dir) {
            int e = stat(a.run_dir, &sb) != 0 ? errno : 0;
            if (e || !S_ISDIR(sb.st_mode)) {
                qk_cli_errorf(CMD, "--run-dir '%s' is not a directory%s%s", a.run_dir, e ? ": " : "",
                              e ? strerror(e) : "");
                rc = QK_EXIT_IO;
                goto out;
            }
        }
        if (a.cmd) {
            st = qk_tune_command_new(a.cmd, a.run_dir, qrels, a.measure, s, exec_command, NULL, &command,
                                     &err);
        } else {
            qk_search_opts base;
            qk_search_opts_init(&base);
            if (a.depth)
                base.depth = a.depth;
            if ((st = qk_index_open(a.index, &ix, &err)) == QK_OK &&
                (st = qk_topics_read(a.topics, a.fields, &topics, &err)) == QK_OK)
                st = qk_tune_engine_new(ix, topics, qrels, a.measure, &base, s, &engine, &err);
        }
        if (st != QK_OK) {
            rc = st == QK_EUSAGE ? qk_cli_usage(CMD, "%s", err.message) : qk_cli_fail(CMD, &err);
            goto out;
        }
        if (a.log && !(oc.log = fopen(a.log, "a"))) {
            qk_cli_errorf(CMD, "cannot open '%s': %s", a.log, strerror(errno));
            rc = QK_EXIT_IO;
            goto out;
        }
    }
    oc.s = s;
    oc.total = a.o.budget;
    if (a.o.method == QK_TUNE_GRID)
        qk_tune_grid_size(s, a.o.grid_steps, &oc.total, NULL);
    qk_cli_progress_init(&oc.pr, CMD, "evaluations", a.quiet);
    if (a.shard_on) {
        rc = run_shard(&a, argc, argv, s, command ? qk_tune_command_eval : qk_tune_engine_eval,
                       command ? (void *)command : (void *)engine, &oc);
        goto out;
    }
    qk_status st =
        qk_tune_run(s, &a.o,
                    a.replay  ? NULL
                    : command ? qk_tune_command_eval
                              : qk_tune_engine_eval,
                    command ? (void *)command : (void *)engine, prior, nprior, observe, &oc, &res, &err);
    if (st != QK_OK) {
        rc = qk_cli_fail(CMD, &err);
        goto out;
    }
    print_result(s, &res);
    if (a.final == 1 && (rc = print_latent(s, &a.o, &res,
                                           a.replay  ? NULL
                                           : command ? qk_tune_command_eval
                                                     : qk_tune_engine_eval,
                                           command ? (void *)command : (void *)engine)) != QK_EXIT_OK)
        goto out;
    rc = QK_EXIT_OK;
    if (a.plot)
        rc = write_plot(a.plot, &res, a.measure,
                        qk_enum_by_value(qk_tune_method_table, (int)a.o.method)->name);
out:
    if (oc.log && fclose(oc.log) != 0 && rc == QK_EXIT_OK) {
        qk_cli_errorf(CMD, "cannot write '%s'", a.log);
        rc = QK_EXIT_IO;
    }
    qk_tune_result_free(&res);
    qk_tune_log_free(prior, nprior);
    qk_tune_engine_free(engine);
    qk_tune_command_free(command);
    qk_topics_free(topics);
    qk_index_close(ix);
    qk_qrels_free(qrels);
    qk_tune_space_free(s);
    free(text);
    return rc;
}
