# shellcheck shell=bash
# Helpers of `make demo` (sourced by scripts/demo.sh and by the test that
# re-runs the report's commands). Every command whose output feeds the report
# goes through `record`: it is written, exactly as run, to STEP.cmds beside
# the data, so the report shows what made each figure and
# tests/library/demo_report.sh can run those files again and compare.

# say TEXT...: one narrated line (the demo's whole output is these lines).
say() { printf '%s\n' "$*"; }

# record STEP 'SHELL COMMAND': append the command to data/STEP.cmds, then run
# it with bash from the report directory (the current directory). The
# command names the program as plain `qrelkit` (PATH points at the build).
record() {
    local step=$1 cmd=$2
    printf '%s\n' "$cmd" >>"data/$step.cmds"
    if ! bash -o pipefail -c "$cmd" 2>>data/stderr.log; then
        echo "demo: this command failed (stderr in $PWD/data/stderr.log):" >&2
        echo "  $cmd" >&2
        tail -n 5 data/stderr.log >&2
        exit 3
    fi
}

# The assessor of the demo: the complete qrels answer for the documents a
# batch file (topic<TAB>docno... with a header, as `qrelkit pool` writes) asks
# about. With your own data, people judge the batch instead.
judge_cmd() { # judge_cmd BATCH QRELS OUT
    printf "awk 'NR == FNR { if (FNR > 1) ask[\$1 \" \" \$2]; next } (\$1 \" \" \$3) in ask' %s %s > %s" "$1" "$2" "$3"
}
