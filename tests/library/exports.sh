#!/usr/bin/env bash
# The shared library exports exactly the functions declared (with QK_API) in
# include/qrelkit/*.h: nothing internal leaks (the library is built with
# -fvisibility=hidden), nothing declared is missing.
# Sanitizer builds add their own symbols (__odr_asan.*, __asan_*): names
# starting with "__" are not ours and are left out.
# Usage (ctest sets QK_BUILD and QK_SOURCE): exports.sh
set -u
src=${QK_SOURCE:?}
lib=${QK_BUILD:?}/libqrelkit.so
[ -f "$lib" ] || { echo "missing $lib" >&2; exit 1; }
command -v nm >/dev/null || { echo "skipped: nm not installed" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TWDRB]$/ {print $3}' | grep -v '^__' | sort -u > "$tmp/exported"
# Declared: the identifier before the first '(' (functions) or '[' (tables)
# of every line that starts with QK_API.
cat "$src"/include/qrelkit/*.h | grep '^QK_API ' | sed -E 's/[([].*//; s/.*[ *]//' | sort -u > "$tmp/declared"
# A function without QK_API would be hidden: find declarations that lack it.
unmarked=""
command -v python3 >/dev/null && { unmarked=$(python3 "$src/scripts/mark-api.py" --check 2>&1) || true; }
rc=0
if ! diff -u "$tmp/declared" "$tmp/exported" > "$tmp/diff"; then
  echo "FAIL: exported symbols differ from the public headers ('-' declared only, '+' exported only):"
  grep '^[-+][^-+]' "$tmp/diff"
  rc=1
fi
if [ -n "$unmarked" ]; then echo "FAIL: $unmarked"; rc=1; fi
n=$(wc -l < "$tmp/exported")
[ "$n" -ge 100 ] || { echo "FAIL: only $n exported symbols; the list looks wrong"; rc=1; }
[ $rc -eq 0 ] && echo "ok: $n exported symbols, all declared in include/qrelkit"
exit $rc
