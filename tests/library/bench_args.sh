#!/usr/bin/env bash
# bench/run.sh takes --write-results anywhere among its arguments and refuses
# unknown options (it used to honour --write-results only as the first
# argument and ignore everything after the binary silently).
set -u
qk=$1
script=${QK_SOURCE:?}/bench/run.sh
fail=0
expect() { # expect RC OUTPUT-PATTERN ARGS...
    local rc=$1 pat=$2 out got
    shift 2
    out=$(TREC_EVAL=/nonexistent bash "$script" "$@" 2>&1)
    got=$?
    if [ "$got" != "$rc" ] || ! grep -q -- "$pat" <<<"$out"; then
        echo "FAIL: run.sh $*: exit $got (want $rc), output: $out (want /$pat/)"
        fail=1
    fi
}
expect 0 "write_results=1" --dry-run --write-results "$qk"
expect 0 "write_results=1" "$qk" --write-results --dry-run
expect 0 "write_results=1" --dry-run "$qk" --write-results
expect 0 "write_results=0" --dry-run "$qk"
expect 1 "unknown option '--write-resultz'" "$qk" --write-resultz
expect 1 "unknown option '-x'" -x "$qk"
expect 1 "more than one qrelkit binary" "$qk" "$qk"
expect 3 "no qrelkit binary at '/nonexistent/qrelkit'" /nonexistent/qrelkit
exit $fail
