#!/usr/bin/env bash
# The installed library is usable as doc/api.md says: stage an install of the
# build (DESTDIR, the way packagers install), compile doc/examples/api_map.c
# against that copy with pkg-config (shared with rpath, and static) and with the
# installed CMake package, run it on a tiny qrels + run, and check the MAP
# against a value worked out by hand. Also checks that the trec_eval link and
# (when pandoc built them) the man pages were installed. Needs no ../shared.
#
# Why DESTDIR and not `cmake --install --prefix TMP`: qrelkit.pc is written at
# configure time with CMAKE_INSTALL_PREFIX, so after --prefix TMP it still
# points at the configured prefix (/usr/local by default). With DESTDIR the
# files land under TMP/<prefix> and PKG_CONFIG_SYSROOT_DIR=TMP maps the .pc's
# paths there, which is what pkg-config is designed for.
#
# Usage (ctest sets QK_BUILD and QK_SOURCE): install_api.sh [path/to/qrelkit]
set -u
src=${QK_SOURCE:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${QK_BUILD:-}
if [ -z "$build" ] && [ -n "${1:-}" ]; then build=$(dirname "$1"); fi
[ -f "$build/CMakeCache.txt" ] || { echo "no CMake build directory (set QK_BUILD)" >&2; exit 1; }
example=$src/doc/examples/api_map.c
[ -f "$example" ] || { echo "missing $example" >&2; exit 1; }
cc=${CC:-cc}
command -v "$cc" >/dev/null || { echo "skipped: no C compiler '$cc'" >&2; exit 77; }
command -v pkg-config >/dev/null || { echo "skipped: pkg-config not installed" >&2; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
cfg_prefix=$(cache CMAKE_INSTALL_PREFIX); cfg_prefix=${cfg_prefix:-/usr/local}
cfg_libdir=$(cache CMAKE_INSTALL_LIBDIR); cfg_libdir=${cfg_libdir:-lib}
case $cfg_libdir in /*) ;; *) cfg_libdir=$cfg_prefix/$cfg_libdir ;; esac
stage=$tmp/stage
if ! DESTDIR=$stage cmake --install "$build" >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"; echo "FAIL: DESTDIR=... cmake --install $build"; exit 1
fi
prefix=$stage$cfg_prefix
libdir=$stage$cfg_libdir
export PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage
[ -f "$PKG_CONFIG_PATH/qrelkit.pc" ] || bad "qrelkit.pc not installed in $cfg_libdir/pkgconfig"

# The installed library carries the sanitizer runtime in the asan preset; a
# program linked against it must load that runtime too.
san=()
if grep -q '^QK_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
  san=(-fsanitize=address,undefined)
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
fi

# Hand-computed data. Topic 1: qrels d1=1 d2=0 d3=1, ranking d1 d2 d3, so
# AP = (1/1 + 2/3)/2 = 0.833333. Topic 2: qrels a=1 b=1, run a and x tied at
# 0.5; ties go by docno descending, so x is first and a second:
# AP = (1/2)/2 = 0.25. Topic 3 has judgments but no run lines (skipped
# without -c). MAP = (0.833333 + 0.25)/2 = 0.541667 -> "0.5417".
cat >"$tmp/qrels.txt" <<'EOF'
1 0 d1 1
1 0 d2 0
1 0 d3 1
2 0 a 1
2 0 b 1
3 0 z 1
EOF
cat >"$tmp/run.txt" <<'EOF'
1 Q0 d3 3 0.7 tiny
1 Q0 d1 1 0.9 tiny
1 Q0 d2 2 0.8 tiny
2 Q0 a 1 0.5 tiny
2 Q0 x 2 0.5 tiny
EOF
printf 'AP\t1\t0.8333\nAP\t2\t0.2500\nmap\t0.5417\n' >"$tmp/want"

check_run() { # label program
  if ! "$2" "$tmp/qrels.txt" "$tmp/run.txt" >"$tmp/got" 2>"$tmp/err"; then
    bad "$1: api_map exited non-zero"; cat "$tmp/err"; return
  fi
  diff -u "$tmp/want" "$tmp/got" || bad "$1: printed values differ from the hand-computed ones"
  grep -q 'skipped' "$tmp/err" || bad "$1: no note about the skipped topic 3 on stderr"
  echo "ok: $1"
}

# 1. pkg-config, shared library found through an rpath.
read -r -a pcflags <<<"$(pkg-config --cflags --libs qrelkit)" || bad "pkg-config --cflags --libs qrelkit"
if "$cc" -std=c11 -Wall -Wextra -Werror "${san[@]}" "$example" "${pcflags[@]}" \
    -Wl,-rpath,"$libdir" -o "$tmp/api_map_shared" 2>"$tmp/cc.log"; then
  check_run "pkg-config (shared)" "$tmp/api_map_shared"
else
  cat "$tmp/cc.log"; bad "compile against the installed copy with pkg-config --cflags --libs"
fi

# 2. pkg-config --static, the archive forced with -Bstatic (zlib, jansson and
#    libm come from Requires.private / Libs.private).
read -r -a pcstatic <<<"$(pkg-config --cflags --libs --static qrelkit)" || bad "pkg-config --static"
static=()
for f in "${pcstatic[@]}"; do
  if [ "$f" = -lqrelkit ]; then static+=(-Wl,-Bstatic -lqrelkit -Wl,-Bdynamic); else static+=("$f"); fi
done
if "$cc" -std=c11 -Wall -Wextra -Werror "${san[@]}" "$example" "${static[@]}" \
    -o "$tmp/api_map_static" 2>"$tmp/cc.log"; then
  check_run "pkg-config (static)" "$tmp/api_map_static"
  if command -v ldd >/dev/null && ldd "$tmp/api_map_static" | grep -q libqrelkit; then
    bad "static build still links libqrelkit.so"
  fi
else
  cat "$tmp/cc.log"; bad "compile with pkg-config --static and libqrelkit.a"
fi

# 3. The installed CMake package: find_package(qrelkit) and qrelkit::qrelkit_static.
mkdir -p "$tmp/cm"
cat >"$tmp/cm/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.22)
project(api_map_consumer C)
find_package(qrelkit 0.1 CONFIG REQUIRED)
add_executable(api_map "$example")
target_link_libraries(api_map PRIVATE qrelkit::qrelkit_static)
EOF
if [ ${#san[@]} -gt 0 ]; then
  echo 'target_compile_options(api_map PRIVATE -fsanitize=address,undefined)' >>"$tmp/cm/CMakeLists.txt"
  echo 'target_link_options(api_map PRIVATE -fsanitize=address,undefined)' >>"$tmp/cm/CMakeLists.txt"
fi
if env -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_PATH cmake -S "$tmp/cm" -B "$tmp/cm/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
      >"$tmp/cm.log" 2>&1 && cmake --build "$tmp/cm/build" >>"$tmp/cm.log" 2>&1; then
  check_run "CMake find_package" "$tmp/cm/build/api_map"
else
  tail -20 "$tmp/cm.log"; bad "building against the installed CMake package"
fi

# 4. Installed program, trec_eval link and headers.
[ -x "$prefix/bin/qrelkit" ] || bad "bin/qrelkit not installed"
if [ -L "$prefix/bin/trec_eval" ]; then
  out=$("$prefix/bin/trec_eval" -m map "$tmp/qrels.txt" "$tmp/run.txt" 2>/dev/null)
  [ "$out" = "$(printf 'map                   \tall\t0.5417')" ] || bad "installed trec_eval link prints '$out'"
else
  bad "bin/trec_eval link not installed"
fi
for h in qrelkit.h core.h io.h eval.h; do
  [ -f "$prefix/include/qrelkit/$h" ] || bad "include/qrelkit/$h not installed"
done

# 5. Man pages, made by pandoc from doc/qrelkit*.md when pandoc was found.
if grep -q '^PANDOC:FILEPATH=/' "$build/CMakeCache.txt"; then
  for md in "$src"/doc/qrelkit*.md; do
    page=$(basename "$md" .md).1
    [ -s "$prefix/share/man/man1/$page" ] || bad "man page $page not installed"
  done
else
  echo "note: pandoc not found at configure time, man pages not checked"
fi

[ $fail -eq 0 ] && echo "installed library, pkg-config, CMake package, trec_eval link and man pages OK"
exit $fail
