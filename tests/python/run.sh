#!/usr/bin/env bash
# ctest entry python/pytest: build the binding (python/) against this build tree's
# libqrelkit.so into QK_BUILD/python (the source tree is not written), then run the
# pytest suite of tests/python with it. Skipped (77) when no Python with pytest and
# Python.h is found.
#
# In a sanitizer tree (QK_SANITIZE=ON) the binding is built with the library's
# -fsanitize flags and python runs with the ASan runtime preloaded: an
# uninstrumented interpreter that loads an instrumented extension needs the
# runtime first in its library list. PYTHONMALLOC=malloc sends the
# interpreter's objects through malloc, so ASan also sees the binding overrun a
# Python object. Leak detection is off (detect_leaks=0): CPython keeps
# allocations alive until exit by design, and every allocation's stack runs
# through the interpreter, so no suppression separates its leaks from ours;
# tests/python/test_leaks.py checks leaks by reference counts and traced memory
# instead (its resident-set bound is skipped: ASan's quarantine holds freed
# memory).
set -euo pipefail
: "${QK_SOURCE:?}" "${QK_BUILD:?}"
sanitize=0
if grep -q '^QK_SANITIZE:BOOL=ON' "$QK_BUILD/CMakeCache.txt" 2>/dev/null; then
  sanitize=1
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
rm -rf "$out/lib" "$out/build"
san_flags=
if [ $sanitize = 1 ]; then
  san_flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
  cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$QK_BUILD/CMakeCache.txt")
  asan_rt=$("${cc:-cc}" -print-file-name=libasan.so)
  if [ ! -f "$asan_rt" ]; then
    echo "python: no libasan.so for ${cc:-cc} (got '$asan_rt')"
    exit 1
  fi
fi
(cd "$QK_SOURCE/python" &&
  CFLAGS="$san_flags" LDFLAGS="$san_flags" QRELKIT_BUILD_DIR="$QK_BUILD" "$PY" setup.py -q build \
    --build-base "$out/build" --build-lib "$out/lib" >"$out.log" 2>&1) || { cat "$out.log"; exit 1; }
export PYTHONPATH="$out/lib" QK_SOURCE QK_BUILD
if [ $sanitize = 1 ]; then
  export QK_SANITIZE=1 LD_PRELOAD="$asan_rt" PYTHONMALLOC=malloc
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
fi
exec "$PY" -m pytest -q -p no:cacheprovider "$QK_SOURCE/tests/python"
