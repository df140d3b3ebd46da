#!/usr/bin/env bash
# ctest entry python/pytest: build the binding (python/) against this build tree's
# libqrelkit.so into QK_BUILD/python (the source tree is not written), then run the
# pytest suite of tests/python with it. Skipped (77) when no Python with pytest and
# Python.h is found, and in a sanitizer tree: loading an ASan-instrumented library
# into an uninstrumented python needs LD_PRELOAD of libasan and silencing its leak
# reports on the interpreter's own allocations, which would test the interpreter
# rather than the binding (the default tree's run covers it).
set -euo pipefail
: "${QK_SOURCE:?}" "${QK_BUILD:?}"
if grep -q '^QK_SANITIZE:BOOL=ON' "$QK_BUILD/CMakeCache.txt" 2>/dev/null; then
  echo "python: skipped in a sanitizer build tree (see tests/python/run.sh)"
  exit 77
fi
PY=
for c in ${QK_PYTHON:-} /usr/bin/python3 python3; do
  if "$c" -c 'import pytest, sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null; then
    PY=$c
    break
  fi
done
if [ -z "$PY" ]; then
  echo "python: no python3 with pytest and Python.h (apt-get install python3-pytest python3-dev)"
  exit 77
fi
out="$QK_BUILD/python"
rm -rf "$out/lib"
(cd "$QK_SOURCE/python" &&
  QRELKIT_BUILD_DIR="$QK_BUILD" "$PY" setup.py -q build --build-base "$out/build" \
    --build-lib "$out/lib" >"$out.log" 2>&1) || { cat "$out.log"; exit 1; }
export PYTHONPATH="$out/lib" QK_SOURCE QK_BUILD
exec "$PY" -m pytest -q -p no:cacheprovider "$QK_SOURCE/tests/python"
