/* Output directories (see io.h): files written under a temporary name in
 * the directory and renamed when complete; the directory is made as mkdir -p
 * would. */
#include <stdio.h>

#include "qrelkit/io.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *s = malloc(a + b + 2);
    if (!s)
        return NULL;
    memcpy(s, dir, a);
    s[a] = '/';
    memcpy(s + a + 1, name, b + 1);
    return s;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static qk_status mkdirs(const char *path, qk_error *err)
{
    size_t n = strlen(path);
    char *s;
    qk_status st = QK_OK;
    if (n == 0)
        return qk_error_set(err, QK_EUSAGE, "output directory name is empty");
    if (is_dir(path))
        return QK_OK;
    s = malloc(n + 1);
    if (!s)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    memcpy(s, path, n + 1);
    /* Create each prefix in turn; an existing prefix is fine (EEXIST), any
     * other failure is reported for the whole path, as mkdir -p does. */
    for (size_t i = 1; i <= n; i++) {
        if (s[i] != '/' && s[i] != '\0')
            continue;
        char c = s[i];
        s[i] = '\0';
        if (mkdir(s, 0777) != 0 && errno != EEXIST) {
            st = qk_error_set(err, QK_EIO, "'%s': cannot create directory: %s", path, strerror(errno));
            break;
        }
        s[i] = c;
    }
    if (st == QK_OK && !is_dir(path))
        st = qk_error_set(err, QK_EIO, "'%s': cannot create directory: Not a directory", path);
    free(s);
    return st;
}

struct qk_outdir {
    char *path;
};

qk_status qk_outdir_open(const char *path, qk_outdir **out, qk_error *err)
{
    qk_outdir *d;
    qk_status st;
    *out = NULL;
    if (!path)
        return qk_error_set(err, QK_EUSAGE, "no output directory given");
    if ((st = mkdirs(path, err)) != QK_OK)
        return st;
    if (!(d = calloc(1, sizeof *d)) || !(d->path = malloc(strlen(path) + 1))) {
        free(d);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    strcpy(d->path, path);
    *out = d;
    return QK_OK;
}

void qk_outdir_close(qk_outdir *d)
{
    if (!d)
        return;
    free(d->path);
    free(d);
}

const char *qk_outdir_path(const qk_outdir *d) { return d->path; }

qk_status qk_outdir_mkdir(const qk_outdir *d, const char *name, qk_error *err)
{
    char *p = join(d->path, name);
    qk_status st;
    if (!p)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    st = mkdirs(p, err);
    free(p);
    return st;
}

char *qk_outdir_slurp(const qk_outdir *d, const char *name, size_t max)
{
    char *path = join(d->path, name), *text = NULL;
    FILE *f;
    if (!path)
        return NULL;
    f = fopen(path, "rb");
    free(path);
    if (!f)
        return NULL;
    if ((text = malloc(max + 1))) {
        size_t n = fread(text, 1, max, f);
        text[n] = '\0';
        if (!feof(f)) { /* larger than max: not what the caller expects */
            free(text);
            text = NULL;
        }
    }
    fclose(f);
    return text;
}

void qk_outdir_remove(const qk_outdir *d, const char *name)
{
    char *path = join(d->path, name);
    if (path)
        unlink(path);
    free(path);
}

int qk_temp_create(char *path, int is_template)
{
    sigset_t all, old;
    int fd, e;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    fd = is_template ? mkstemp(path) : open(path, O_RDWR | O_CREAT | O_EXCL, 0666);
    e = errno;
    if (fd >= 0)
        qk_temp_note(path, 1);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return fd;
}

qk_status qk_outfile_open(qk_outfile *sf, const qk_outdir *d, const char *name, size_t bufsize, qk_error *err)
{
    char suffix[48];
    int fd = -1;
    memset(sf, 0, sizeof *sf);
    sf->final = join(d->path, name);
    if (!sf->final)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    /* The pid keeps two concurrent writers apart (and lets the CLI remove the
     * temporaries of a killed process); the counter skips a stale temporary
     * whose pid was reused. O_EXCL never reuses a file. */
    for (int attempt = 0; attempt < 100; attempt++) {
        free(sf->tmp);
        snprintf(suffix, sizeof suffix, ".tmp%ld-%d", (long)getpid(), attempt);
        sf->tmp = malloc(strlen(sf->final) + strlen(suffix) + 1);
        if (!sf->tmp)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        strcpy(sf->tmp, sf->final);
        strcat(sf->tmp, suffix);
        fd = qk_temp_create(sf->tmp, 0);
        if (fd >= 0 || errno != EEXIST)
            break;
    }
    if (fd < 0) {
        qk_status st = qk_error_set(err, QK_EIO, "'%s': cannot create file: %s", sf->final, strerror(errno));
        free(sf->tmp);
        sf->tmp = NULL; /* nothing of ours to remove */
        return st;
    }
    sf->f = fdopen(fd, "w");
    if (!sf->f) {
        close(fd);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (bufsize > 0) {
        sf->vbuf = malloc(bufsize);
        if (sf->vbuf)
            setvbuf(sf->f, sf->vbuf, _IOFBF, bufsize);
    }
    return QK_OK;
}

qk_status qk_outfile_write(qk_outfile *sf, const char *p, size_t n, qk_error *err)
{
    if (n > 0 && fwrite(p, 1, n, sf->f) != n)
        return qk_error_set(err, QK_EIO, "'%s': cannot write: %s", sf->final, strerror(errno));
    return QK_OK;
}

qk_status qk_outfile_close(qk_outfile *sf, qk_error *err)
{
    int bad;
    if (!sf->f)
        return QK_OK;
    bad = ferror(sf->f);
    if (fclose(sf->f) != 0)
        bad = 1;
    sf->f = NULL;
    free(sf->vbuf);
    sf->vbuf = NULL;
    if (bad)
        return qk_error_set(err, QK_EIO, "'%s': cannot write: %s", sf->final,
                            errno ? strerror(errno) : "write error");
    return QK_OK;
}

qk_status qk_outfile_commit(qk_outfile *sf, qk_error *err)
{
    if (rename(sf->tmp, sf->final) != 0)
        return qk_error_set(err, QK_EIO, "'%s': cannot rename into place: %s", sf->final, strerror(errno));
    qk_temp_note(sf->tmp, 0);
    free(sf->tmp);
    sf->tmp = NULL;
    return QK_OK;
}

void qk_outfile_discard(qk_outfile *sf)
{
    if (sf->f)
        fclose(sf->f);
    if (sf->tmp) {
        unlink(sf->tmp);
        qk_temp_note(sf->tmp, 0);
    }
    free(sf->vbuf);
    free(sf->tmp);
    free(sf->final);
    memset(sf, 0, sizeof *sf);
}
