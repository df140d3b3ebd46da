/* Pipes read again (src/io/lines.c): a named pipe or a piped standard input
 * opened rewindable is copied to an unlinked file in $TMPDIR as it is read,
 * and a rewind reads every line again, from the copy, as often as asked,
 * whether it came before the end of the pipe or after; gzip through a pipe
 * is copied inflated; an empty pipe rewinds to nothing; without a place
 * for the copy, or room in it, a rewind fails, naming the directory, while
 * reading once still works; a pipe opened to be read once does not
 * rewind. */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for mkdtemp
#define _DEFAULT_SOURCE
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "io/io_lines.h"
#include "qrelkit/io.h"

/* 40,000 lines of about 30 bytes: over a megabyte, several of the reader's
 * 256 KiB chunks and many times a pipe's buffer. */
#define NLINES 40000

static void line_text(char *buf, size_t cap, long i)
{
    snprintf(buf, cap, "q%ld 0 doc-%08ld %ld", i % 97, i * 7919 % 1000003, i % 3);
}

/* The lines as one buffer (n bytes, malloc'd). */
static char *all_lines(size_t *n)
{
    size_t cap = (size_t)NLINES * 40, len = 0;
    char *b = malloc(cap);
    assert_non_null(b);
    for (long i = 0; i < NLINES; i++) {
        line_text(b + len, cap - len, i);
        len += strlen(b + len);
        b[len++] = '\n';
    }
    *n = len;
    return b;
}

/* In a child: write data[0..n) to fd (gzip'd when gz) and exit, 0 when
 * every byte went. */
static void write_all(int fd, const char *data, size_t n, int gz)
{
    if (gz) {
        gzFile g = gzdopen(fd, "wb");
        _exit(g && gzwrite(g, data, (unsigned)n) == (int)n && gzclose(g) == Z_OK ? 0 : 1);
    }
    for (size_t off = 0; off < n;) {
        ssize_t w = write(fd, data + off, n - off);
        if (w <= 0)
            _exit(1);
        off += (size_t)w;
    }
    _exit(close(fd) == 0 ? 0 : 1);
}

/* A child that writes data[0..n) to fd and exits. */
static pid_t writer(int fd, const char *data, size_t n)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        write_all(fd, data, n, 0);
    close(fd);
    return pid;
}

/* The writer's end; all: it must have written every byte (else its reader
 * may have stopped early). */
static void reap(pid_t pid, int all)
{
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (all) {
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
}

/* Read `count` lines (all: NLINES) and check each against line_text. */
static void expect_lines(qk_lines *l, long count)
{
    char want[64];
    const char *s;
    size_t n;
    qk_error err;
    for (long i = 0; i < count; i++) {
        line_text(want, sizeof want, i);
        assert_int_equal(qk_lines_next(l, &s, &n, &err), 1);
        assert_int_equal(n, strlen(want));
        assert_memory_equal(s, want, n);
        assert_int_equal(qk_lines_lineno(l), i + 1);
    }
    if (count == NLINES)
        assert_int_equal(qk_lines_next(l, &s, &n, &err), 0);
}

/* The entries of dir (its own . and .. aside). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int k = 0;
    assert_non_null(d);
    while ((e = readdir(d)))
        k += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return k;
}

typedef struct fixture {
    char dir[64];  /* the TMPDIR of the test: the copies' place */
    char fifo[96]; /* a named pipe in it */
    char *old_tmpdir;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    const char *t = getenv("TMPDIR");
    if (!f)
        return -1;
    snprintf(f->dir, sizeof f->dir, "%s/qk_pipe_XXXXXX", t && *t && strlen(t) < 40 ? t : "/tmp");
    if (!mkdtemp(f->dir))
        return -1;
    snprintf(f->fifo, sizeof f->fifo, "%s/fifo", f->dir);
    if (mkfifo(f->fifo, 0600) != 0)
        return -1;
    f->old_tmpdir = t ? strdup(t) : NULL;
    setenv("TMPDIR", f->dir, 1);
    signal(SIGPIPE, SIG_IGN);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    unlink(f->fifo);
    rmdir(f->dir);
    if (f->old_tmpdir)
        setenv("TMPDIR", f->old_tmpdir, 1);
    else
        unsetenv("TMPDIR");
    free(f->old_tmpdir);
    free(f);
    return 0;
}

/* Open the fifo for reading while a child writes data to it. */
static qk_lines *open_fifo(const fixture *f, const char *data, size_t n, int gz, int rewindable, pid_t *pid)
{
    qk_lines *l = NULL;
    qk_error err;
    int fd;
    pid_t p = fork();
    assert_true(p >= 0);
    if (p == 0) { /* opening a fifo for writing waits for its reader */
        fd = open(f->fifo, O_WRONLY);
        if (fd < 0)
            _exit(1);
        write_all(fd, data, n, gz);
    }
    assert_int_equal(
        rewindable ? qk_lines_open_rewindable(f->fifo, &l, &err) : qk_lines_open(f->fifo, &l, &err), QK_OK);
    *pid = p;
    return l;
}

static void test_named_pipe_rewinds_mid_way_and_at_the_end(void **state)
{
    fixture *f = *state;
    size_t n;
    char *data = all_lines(&n);
    qk_error err;
    for (int gz = 0; gz < 2; gz++) {
        pid_t pid;
        qk_lines *l = open_fifo(f, data, n, gz, 1, &pid);
        assert_int_equal(qk_lines_pipe(l), 1);
        assert_int_equal(entries(f->dir), 1); /* the copy is unlinked at once */
        expect_lines(l, 1234);
        /* mid-way: the rest of the pipe is read into the copy, and every
         * line comes again from the first */
        assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
        expect_lines(l, NLINES);
        assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
        expect_lines(l, NLINES);
        qk_lines_close(l);
        reap(pid, 1);
        /* at the end */
        l = open_fifo(f, data, n, gz, 1, &pid);
        expect_lines(l, NLINES);
        assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
        expect_lines(l, NLINES);
        qk_lines_close(l);
        reap(pid, 1);
    }
    assert_int_equal(entries(f->dir), 1); /* only the fifo: no copy left behind */
    free(data);
}

static void test_piped_standard_input_rewinds(void **state)
{
    fixture *f = *state;
    size_t n;
    char *data = all_lines(&n);
    int fds[2], saved = dup(0);
    qk_lines *l = NULL;
    qk_error err;
    pid_t pid;
    assert_true(saved >= 0);
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(dup2(fds[0], 0), 0);
    close(fds[0]);
    pid = writer(fds[1], data, n);
    assert_int_equal(qk_lines_open_rewindable("-", &l, &err), QK_OK);
    assert_int_equal(qk_lines_pipe(l), 1); /* read as it comes, not whole first */
    expect_lines(l, 10);
    assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
    expect_lines(l, NLINES);
    qk_lines_close(l);
    reap(pid, 1);
    assert_int_equal(dup2(saved, 0), 0);
    close(saved);
    assert_int_equal(entries(f->dir), 1);
    free(data);
}

static void test_empty_pipe_rewinds_to_nothing(void **state)
{
    fixture *f = *state;
    const char *s;
    size_t n;
    qk_error err;
    pid_t pid;
    qk_lines *l = open_fifo(f, "", 0, 0, 1, &pid);
    assert_int_equal(qk_lines_next(l, &s, &n, &err), 0);
    assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
    assert_int_equal(qk_lines_next(l, &s, &n, &err), 0);
    assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
    assert_int_equal(qk_lines_next(l, &s, &n, &err), 0);
    qk_lines_close(l);
    reap(pid, 1);
}

static void test_no_place_for_the_copy(void **state)
{
    fixture *f = *state;
    size_t n;
    char *data = all_lines(&n), want[256];
    qk_error err;
    pid_t pid;
    qk_lines *l;
    setenv("TMPDIR", "/nonexistent-qk-dir", 1);
    /* read once, the pipe reads as ever */
    l = open_fifo(f, data, n, 0, 1, &pid);
    expect_lines(l, NLINES);
    /* read again: the message says why and what to do */
    assert_int_equal(qk_lines_rewind(l, &err), QK_EIO);
    snprintf(want, sizeof want, "could not be kept in /nonexistent-qk-dir: No such file or directory");
    assert_non_null(strstr(err.message, want));
    assert_non_null(strstr(err.message, "give it as a file, or set TMPDIR to a directory with room for it"));
    qk_lines_close(l);
    reap(pid, 1);
    setenv("TMPDIR", f->dir, 1);
    /* a copy that runs out of room on the way (as on a full disk: files
     * limited to 100 KB here), likewise */
    {
        struct rlimit old, small;
        assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
        small = old;
        small.rlim_cur = 100000;
        signal(SIGXFSZ, SIG_IGN);
        l = open_fifo(f, data, n, 0, 1, &pid);
        assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
        expect_lines(l, NLINES);
        assert_int_equal(qk_lines_rewind(l, &err), QK_EIO);
        assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
        snprintf(want, sizeof want, "could not be kept in %s: %s", f->dir, strerror(EFBIG));
        assert_non_null(strstr(err.message, want));
        qk_lines_close(l);
        reap(pid, 1);
        assert_int_equal(entries(f->dir), 1);
    }
    /* opened to be read once: no copy, and no rewind */
    l = open_fifo(f, data, n, 0, 0, &pid);
    assert_int_equal(entries(f->dir), 1);
    expect_lines(l, 5);
    assert_int_equal(qk_lines_rewind(l, &err), QK_EIO);
    assert_non_null(strstr(err.message, "a pipe cannot be read twice"));
    qk_lines_close(l);
    reap(pid, 0);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_named_pipe_rewinds_mid_way_and_at_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_piped_standard_input_rewinds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_pipe_rewinds_to_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_place_for_the_copy, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
