#include "cli_util.h"
const char qk_help_trec_eval[] = "qrelkit trec_eval: under construction\n";
int qk_cmd_trec_eval(int argc, char **argv) { (void)argc; (void)argv; return qk_cli_usage("trec_eval", "not built yet"); }
