#include "sim/sim_files.h"

#include <errno.h>
#include <fcntl.h>
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

qk_status qk_simfile_mkdirs(const char *path, qk_error *err)
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

qk_status qk_simfile_open(qk_simfile *sf, const char *dir, const char *name, size_t bufsize, qk_error *err)
{
    char suffix[48];
    int fd = -1;
    memset(sf, 0, sizeof *sf);
    sf->final = join(dir, name);
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
        fd = open(sf->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd >= 0 || errno != EEXIST)
            break;
    }
    if (fd < 0) {
        qk_status st = qk_error_set(err, QK_EIO, "'%s': cannot create file: %s", sf->final, strerror(errno));
        free(sf->tmp);
        sf->tmp = NULL; /* nothing of ours to remove */
        return st;
    }
    qk_temp_note(sf->tmp, 1);
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

qk_status qk_simfile_write(qk_simfile *sf, const char *p, size_t n, qk_error *err)
{
    if (n > 0 && fwrite(p, 1, n, sf->f) != n)
        return qk_error_set(err, QK_EIO, "'%s': cannot write: %s", sf->final, strerror(errno));
    return QK_OK;
}

qk_status qk_simfile_close(qk_simfile *sf, qk_error *err)
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

qk_status qk_simfile_commit(qk_simfile *sf, qk_error *err)
{
    if (rename(sf->tmp, sf->final) != 0)
        return qk_error_set(err, QK_EIO, "'%s': cannot rename into place: %s", sf->final, strerror(errno));
    qk_temp_note(sf->tmp, 0);
    free(sf->tmp);
    sf->tmp = NULL;
    return QK_OK;
}

void qk_simfile_discard(qk_simfile *sf)
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

qk_status qk_simbuf_reserve(qk_simbuf *b, size_t need)
{
    if (b->len + need <= b->cap)
        return QK_OK;
    return qk_grow((void **)&b->p, &b->cap, b->len + need, 1);
}

void qk_simbuf_str(qk_simbuf *b, const char *s, size_t n)
{
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

void qk_simbuf_uint(qk_simbuf *b, uint64_t v, int width)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n < width && n < (int)sizeof tmp)
        tmp[n++] = '0';
    while (n > 0)
        b->p[b->len++] = tmp[--n];
}

void qk_simbuf_micro(qk_simbuf *b, int64_t micro)
{
    uint64_t m;
    if (micro < 0) {
        b->p[b->len++] = '-';
        m = (uint64_t)(-(micro + 1)) + 1; /* no overflow at INT64_MIN */
    } else {
        m = (uint64_t)micro;
    }
    qk_simbuf_uint(b, m / 1000000, 1);
    b->p[b->len++] = '.';
    qk_simbuf_uint(b, m % 1000000, 6);
}

void qk_simbuf_free(qk_simbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

int qk_sim_digits(uint64_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}
