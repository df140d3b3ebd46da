#!/usr/bin/env bash
# The quiet build of `make demo`: dependencies, configure, and the qrelkit
# program only (not the tests), with the progress on one line and the full
# output in build/demo-build.log, printed only when something fails.
# Usage: bash scripts/demo/build.sh [JOBS]
set -uo pipefail
jobs=${1:-2}
log=build/demo-build.log
mkdir -p build
: >"$log"
fail() {
    printf '\n' >&2
    echo "demo: $1 failed; the full log ($log):" >&2
    cat "$log" >&2
    exit 3
}
tty=0
[ -t 1 ] && tty=1
show() { [ $tty = 1 ] && printf '\r%-60s' "$1"; }
show "building qrelkit: dependencies"
bash scripts/install-deps.sh >>"$log" 2>&1 || fail "scripts/install-deps.sh"
show "building qrelkit: configure"
cmake --preset default >>"$log" 2>&1 || fail "cmake --preset default"
start=$SECONDS
# cmake prints "[ 42%] Building C object ..." lines: keep the last percentage.
cmake --build --preset default -j "$jobs" --target qrelkit 2>&1 | tee -a "$log" |
    while IFS= read -r line; do
        case $line in
        \[*%\]*) show "building qrelkit: ${line:1:4}" ;;
        esac
    done
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "cmake --build"
show ""
[ $tty = 1 ] && printf '\r'
echo "built build/default/qrelkit in $((SECONDS - start)) s (log: $log)"
