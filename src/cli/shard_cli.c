/* --shard I/N: the part file a shard writes (qrelkit/shard.h). */
#include "shard_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"

int qk_cli_shard_parse(const char *cmd, const char *arg, qk_shard_spec *s)
{
    qk_error err = {0};
    if (qk_shard_spec_parse(arg, s, &err) != QK_OK)
        return qk_cli_usage(cmd, "%s", err.message);
    return 0;
}

/* The checksum of a file's bytes (compressed files as they are). */
static int checksum_file(const char *cmd, const char *path, uint64_t *sum)
{
    char buf[1 << 16];
    size_t n;
    FILE *f = fopen(path, "rb");
    uint64_t h = QK_SHARD_CHECKSUM_INIT;
    if (!f) {
        qk_cli_errorf(cmd, "'%s': cannot open: %s", path, strerror(errno));
        return QK_EXIT_IO;
    }
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = qk_shard_checksum(h, buf, n);
    if (ferror(f)) {
        qk_cli_errorf(cmd, "'%s': cannot read: %s", path, strerror(errno));
        fclose(f);
        return QK_EXIT_IO;
    }
    fclose(f);
    *sum = h;
    return 0;
}

int qk_cli_shard_begin(const char *cmd, const char *command, const char *kind, qk_shard_spec s, size_t nitems,
                       int argc, char **argv, const char *const *inputs, size_t ninputs, qk_shard_part **out)
{
    qk_error err = {0};
    qk_shard_part *p = NULL;
    int rc = 0;
    *out = NULL;
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i] && strcmp(inputs[i], "-") == 0)
            return qk_cli_usage(cmd, "--shard needs named input files, not '-'");
    if (qk_shard_part_new(command, kind, s, nitems, &p, &err) != QK_OK)
        return qk_cli_fail(cmd, &err);
    for (int i = 1; !rc && i < argc; i++) {
        if (strcmp(argv[i], "--shard") == 0) {
            i++;
            continue;
        }
        if (strncmp(argv[i], "--shard=", 8) == 0)
            continue;
        if (qk_shard_part_add_arg(p, argv[i]) != QK_OK)
            rc = QK_EXIT_IO;
    }
    for (size_t i = 0; !rc && i < ninputs; i++) {
        uint64_t sum;
        if (!inputs[i])
            continue;
        if (!(rc = checksum_file(cmd, inputs[i], &sum)) &&
            qk_shard_part_add_input(p, inputs[i], sum) != QK_OK)
            rc = QK_EXIT_IO;
    }
    if (rc) {
        qk_shard_part_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

int qk_cli_shard_open(const char *cmd, const char *kind, qk_shard_spec s, size_t n, uint64_t seed, int argc,
                      char **argv, const char *const *inputs, size_t ninputs, qk_shard_part **out,
                      size_t *first, size_t *end)
{
    int rc = qk_cli_shard_begin(cmd, cmd, kind, s, n, argc, argv, inputs, ninputs, out);
    qk_shard_range(s, n, first, end);
    if (rc == 0)
        qk_shard_part_set_seed(*out, seed);
    return rc;
}

int qk_cli_shard_commit(const char *cmd, qk_shard_part *p, int rc, const char *pro, size_t plen, char **rec,
                        size_t first, size_t end)
{
    qk_error err = {0};
    if (!rc && pro && qk_shard_part_set_frame(p, pro, plen, NULL, 0, NULL, 0) != QK_OK)
        rc = QK_EXIT_IO;
    for (size_t t = first; !rc && rec && t < end; t++)
        if (qk_shard_part_add_item(p, t, rec[t - first], strlen(rec[t - first]), &err) != QK_OK)
            rc = qk_cli_fail(cmd, &err);
    for (size_t t = first; rec && t < end; t++)
        free(rec[t - first]);
    free(rec);
    if (rc) {
        qk_shard_part_free(p);
        return rc;
    }
    return qk_cli_shard_finish(cmd, p);
}

int qk_cli_shard_check_inputs(const char *cmd, const qk_shard_part *p)
{
    for (size_t i = 0; i < qk_shard_part_num_inputs(p); i++) {
        uint64_t want, sum;
        const char *name = qk_shard_part_input(p, i, &want);
        int rc = checksum_file(cmd, name, &sum);
        if (rc)
            return rc;
        if (sum != want) {
            qk_cli_errorf(cmd, "input '%s' changed since the parts were written", name);
            return QK_EXIT_INPUT;
        }
    }
    return 0;
}

int qk_cli_shard_finish(const char *cmd, qk_shard_part *p)
{
    qk_error err = {0};
    qk_status st = qk_shard_part_write(p, stdout, &err);
    qk_shard_part_free(p);
    if (st != QK_OK)
        return qk_cli_fail(cmd, &err);
    return qk_cli_flush_stdout(cmd);
}

char **qk_cli_shard_argv(const qk_shard_part *m, const char *argv0, int *argc)
{
    char **argv = NULL;
    return qk_shard_part_argv(m, argv0, argc, &argv, NULL) == QK_OK ? argv : NULL;
}
