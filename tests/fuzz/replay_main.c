/* Corpus replay for builds without libFuzzer (gcc): every regular file of
 * each directory argument (or each file argument) is passed once to the
 * harness's LLVMFuzzerTestOneInput. A crash or sanitizer report fails the
 * test; an empty or missing corpus is an error so it cannot pass silently. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, got;
    if (!f) {
        perror(path);
        return -1;
    }
    do {
        if (cap - n < 65536) {
            uint8_t *b = realloc(buf, cap = cap * 2 + 65536);
            if (!b)
                abort();
            buf = b;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    long count = 0;
    for (int a = 1; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            perror(argv[a]);
            return 1;
        }
        if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[a]);
            struct dirent *e;
            if (!d) {
                perror(argv[a]);
                return 1;
            }
            while ((e = readdir(d)) != NULL) {
                char path[4096];
                struct stat fs;
                snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
                if (e->d_name[0] == '.' || stat(path, &fs) != 0 || !S_ISREG(fs.st_mode))
                    continue;
                if (run_file(path) != 0)
                    return 1;
                count++;
            }
            closedir(d);
        } else if (run_file(argv[a]) == 0) {
            count++;
        } else {
            return 1;
        }
    }
    if (count == 0) {
        fprintf(stderr, "no corpus files in the arguments\n");
        return 1;
    }
    printf("%ld inputs replayed\n", count);
    return 0;
}
