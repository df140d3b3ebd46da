#include "cli_util.h"
const char qk_help_eval[] = "qrelkit eval: under construction\n";
int qk_cmd_eval(int argc, char **argv) { (void)argc; (void)argv; return qk_cli_usage("eval", "not built yet"); }
