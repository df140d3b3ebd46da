/* The modes of `qrelkit tar` (cmd_tar.c dispatches): each is
 * int qk_tar_mode_<mode>(int argc, char **argv) with argv[0] = the mode's name,
 * and its help text qk_help_tar_<mode>. Adding a mode: one file
 * tar_cli_<mode>.c, its two declarations here and one row in cmd_tar.c. */
#ifndef QK_CLI_TAR_MODES_H
#define QK_CLI_TAR_MODES_H

int qk_tar_mode_eval(int argc, char **argv);
extern const char qk_help_tar_eval[];
int qk_tar_mode_run(int argc, char **argv);
extern const char qk_help_tar_run[];

#endif
