/* What the first touch of fresh memory costs, three ways: N blocks of
 * 2 MiB advised for transparent huge pages (one fault and one clear a
 * block), the same on 4 KiB pages faulted one by one, and on 4 KiB pages
 * mapped by one MADV_POPULATE_WRITE call a block (core/prefault.h). Each
 * way gets a fresh mapping, touched block by block; the milliseconds of
 * every block are printed, then the total.
 * Usage: fresh_pages N [PAUSE_S]: with PAUSE_S, sleep that long before
 * each way (so memory freed before is no longer recent: on a VM whose
 * balloon reports free memory to the host, that is when a huge page
 * costs host faults). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define BLOCK ((size_t)2 << 20)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void one_way(const char *name, int way, size_t n, unsigned pause)
{
    /* one block more, so that n whole aligned blocks fit */
    char *m = mmap(NULL, (n + 1) * BLOCK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *p;
    double total = 0;
    if (m == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    p = (char *)(((size_t)m + BLOCK - 1) / BLOCK * BLOCK);
#if defined(MADV_HUGEPAGE)
    (void)madvise(p, n * BLOCK, way == 0 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#endif
    if (pause)
        sleep(pause);
    printf("%-14s", name);
    for (size_t i = 0; i < n; i++) {
        double t0 = now_ms(), dt;
        char *b = p + i * BLOCK;
#if defined(MADV_POPULATE_WRITE)
        if (way == 2)
            (void)madvise(b, BLOCK, MADV_POPULATE_WRITE);
#endif
        for (size_t j = 0; j < BLOCK; j += 4096)
            b[j] = 1;
        dt = now_ms() - t0;
        total += dt;
        printf(" %.2f", dt);
    }
    printf(" | %.1f ms for %zu MiB\n", total, 2 * n);
    munmap(m, (n + 1) * BLOCK);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 24;
    unsigned pause = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 0;
    if (n == 0) {
        fprintf(stderr, "usage: fresh_pages N [PAUSE_S]\n");
        return 2;
    }
    one_way("huge pages", 0, n, pause);
    one_way("4 KiB faults", 1, n, pause);
    one_way("4 KiB mapped", 2, n, pause);
    return 0;
}
