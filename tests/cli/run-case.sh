#!/usr/bin/env bash
# Run one golden CLI case: NN.args holds the arguments (one shell line, run from
# the case's folder, $QK = the binary); compare stdout with NN.stdout, and when
# present stderr with NN.stderr and the exit code with NN.exit (default 0).
set -u
bin=$1; args=$2
dir=$(dirname "$args"); base=${args%.args}
cd "$dir" || exit 1
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
QK="$bin" bash -c "QK=\"$bin\"; set -- ; $(cat "$args")" >"$out" 2>"$err"
code=$?
want_code=0; [ -f "$base.exit" ] && want_code=$(cat "$base.exit")
fail=0
if [ "$code" != "$want_code" ]; then echo "exit code $code, expected $want_code"; cat "$err"; fail=1; fi
if [ -f "$base.stdout" ] && ! diff -u "$base.stdout" "$out"; then echo "stdout differs"; fail=1; fi
if [ -f "$base.stderr" ] && ! diff -u "$base.stderr" "$err"; then echo "stderr differs"; fail=1; fi
exit $fail
