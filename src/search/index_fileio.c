/* Positioned reads and writes of the index files (the index being written,
 * the text's spill), shared by index_write.c and index_text.c. */
#include <errno.h>
#include <unistd.h>

#include "search/build_internal.h"

int qk_build_pwrite(int fd, const void *p, size_t n, uint64_t off)
{
    const uint8_t *s = p;
    while (n) {
        ssize_t k = pwrite(fd, s, n, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        s += k, n -= (size_t)k, off += (uint64_t)k;
    }
    return 0;
}

ssize_t qk_build_pread(int fd, void *p, size_t n, uint64_t off)
{
    uint8_t *s = p;
    size_t done = 0;
    while (done < n) {
        ssize_t k = pread(fd, s + done, n - done, (off_t)(off + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        done += (size_t)k;
    }
    return (ssize_t)done;
}
