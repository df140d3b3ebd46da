#include "cli_util.h"
const char qk_help_sim[] = "qrelkit sim: under construction\n";
int qk_cmd_sim(int argc, char **argv) { (void)argc; (void)argv; return qk_cli_usage("sim", "not built yet"); }
