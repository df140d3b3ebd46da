/* The floor under bench/parse.sh's qrels row: a process that maps the qrels
 * file as the reader does (read-only, sequential advice), looks at every
 * byte once (memchr for the newlines) and writes arrays of the sizes the
 * reader fills for it: a 16-byte qk_judgment, a 4-byte docno offset and
 * the third field's bytes and NUL per line, on fresh 2 MiB-aligned huge
 * pages as qk_realloc_huge places them. No parsing: what is left between
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

static char *huge_block(size_t bytes)
{
    const size_t huge = (size_t)2 << 20;
    size_t n = (bytes + huge - 1) / huge * huge;
    void *p = NULL;
    if (n == 0 || posix_memalign(&p, huge, n) != 0)
        exit(2);
    (void)madvise(p, n, MADV_HUGEPAGE);
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
    recs = huge_block(lines * 16);
    offs = huge_block(lines * 4);
    arena = huge_block(docs + lines);
    memset(recs, 1, lines * 16);
    memset(offs, 1, lines * 4);
    memset(arena, 1, docs + lines);
    printf("%zu %d\n", lines, recs[0] + offs[0] + arena[0]);
    return 0;
}
