/* The floor under bench/parse.sh's qrels row: a process that maps the qrels
 * file as the reader does (read-only, sequential advice), looks at every
 * byte once (memchr for the newlines) and writes arrays of the sizes the
 * reader fills for it: a 16-byte qk_judgment, a 4-byte docno offset and
 * the third field's bytes and NUL per line, mapped at once as
 * qk_realloc_prefault_from maps them. No parsing: what is left between
 * this process's CPU time and the command's is the reader's own work.
 * Usage: floor_qrels FILE (prints the line count; time it with
 * `perf stat -e task-clock`). */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static char *fresh_block(size_t bytes)
{
    char *p = malloc(bytes ? bytes : 1);
    if (!p)
        exit(2);
#if defined(MADV_POPULATE_WRITE)
    {
        const size_t page = 4096;
        uintptr_t a = ((uintptr_t)p + page - 1) / page * page, b = ((uintptr_t)p + bytes) / page * page;
        if (b > a)
            (void)madvise((void *)a, b - a, MADV_POPULATE_WRITE);
    }
#endif
    return p;
}

int main(int argc, char **argv)
{
    struct stat st;
    const char *m, *s, *end, *nl;
    size_t lines = 0, docs = 0;
    char *recs, *offs, *arena;
    int fd;
    if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        fprintf(stderr, "usage: floor_qrels FILE\n");
        return 1;
    }
    m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED)
        return 2;
    (void)posix_madvise((void *)m, (size_t)st.st_size, POSIX_MADV_SEQUENTIAL);
    end = m + st.st_size;
    for (s = m; s < end && (nl = memchr(s, '\n', (size_t)(end - s))); s = nl + 1) {
        /* the third field's bytes, from the line's length less the other
         * three fields' usual 9 bytes and separators (a floor, not a parse) */
        size_t len = (size_t)(nl - s);
        docs += len > 10 ? len - 10 : 1;
        lines++;
    }
    recs = fresh_block(lines * 16);
    offs = fresh_block(lines * 4);
    arena = fresh_block(docs + lines);
    memset(recs, 1, lines * 16);
    memset(offs, 1, lines * 4);
    memset(arena, 1, docs + lines);
    printf("%zu %d\n", lines, recs[0] + offs[0] + arena[0]);
    return 0;
}
