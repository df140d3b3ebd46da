/* The CLI's registry of temporary files: every registered file is removed
 * when SIGTERM arrives, however many there are (it used to hold 64 and
 * drop the rest silently), and forgotten files are left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_util.h"

#define NFILES 300

static void file_path(char *buf, size_t cap, const char *dir, int i)
{
    snprintf(buf, cap, "%s/t%03d.tmp", dir, i);
}

static void test_signal_removes_every_registered_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/qk-cli-temp-XXXXXX";
    assert_non_null(mkdtemp(dir));
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        qk_cli_signals_install();
        char p[256];
        for (int i = 0; i < NFILES; i++) {
            file_path(p, sizeof p, dir, i);
            FILE *f = fopen(p, "w");
            if (!f || fclose(f) != 0 || qk_cli_temp_add(p) != 0)
                _exit(10);
        }
        /* every 7th file was renamed into place: no longer temporary */
        for (int i = 0; i < NFILES; i += 7) {
            file_path(p, sizeof p, dir, i);
            qk_cli_temp_forget(p);
        }
        raise(SIGTERM);
        _exit(11); /* not reached: the handler re-raises with SIG_DFL */
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    int left = 0;
    char p[256];
    for (int i = 0; i < NFILES; i++) {
        file_path(p, sizeof p, dir, i);
        int exists = access(p, F_OK) == 0;
        if (i % 7 == 0) {
            assert_true(exists);
            left++;
            unlink(p);
        } else if (exists) {
            fprintf(stderr, "left behind: %s\n", p);
            unlink(p);
            fail();
        }
    }
    assert_int_equal(left, (NFILES + 6) / 7);
    assert_int_equal(rmdir(dir), 0);
}

static void test_add_forget_reuses_slots(void **state)
{
    (void)state;
    char p[64];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 150; i++) {
            snprintf(p, sizeof p, "/nonexistent/qk-%d", i);
            assert_int_equal(qk_cli_temp_add(p), 0);
        }
        for (int i = 0; i < 150; i++) {
            snprintf(p, sizeof p, "/nonexistent/qk-%d", i);
            qk_cli_temp_forget(p);
        }
    }
    char *longp = malloc(5000);
    assert_non_null(longp);
    memset(longp, 'a', 4999);
    longp[4999] = '\0';
    assert_int_equal(qk_cli_temp_add(longp), -1);
    free(longp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signal_removes_every_registered_file),
        cmocka_unit_test(test_add_forget_reuses_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
