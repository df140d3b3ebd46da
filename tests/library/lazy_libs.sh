#!/usr/bin/env bash
# LAPACKE, NLopt, liblinear, libmicrohttpd and libzstd are opened on first use (src/core/lazylib.c):
# the program does not link them, evaluation runs without them, and a command that needs
# a missing one fails with exit status 3 and the install hint. A library is made missing
# by rewriting its soname inside a copy of the program to one of the same length that no
# system has (the soname is a string the build put there; a linked library would be in
# DT_NEEDED instead, and the copy would not start at all).
# (libstdc++ is not checked: a UBSan build links it.)
# Usage (ctest): lazy_libs.sh path/to/qrelkit
set -u
qk=$1
src=${QK_SOURCE:?}
command -v ldd >/dev/null || { echo "skipped: ldd not installed" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
fail() { echo "FAIL: $*"; rc=1; }

linked=$(ldd "$qk" | grep -E 'lib(lapacke|lapack|blas|nlopt|linear|microhttpd|gnutls|gfortran|zstd)\.so' || true)
[ -z "$linked" ] || fail "still linked: $linked"

# libnlopt.so.0 -> libnlopt.so.9 (and so on): same length, so the file stays valid.
hide() { # hide SONAME_REGEX -> writes $tmp/qk with that soname unreachable
    local so
    so=$(grep -aoE "$1" "$qk" | head -n 1)
    [ -n "$so" ] || { fail "no soname matching $1 in $qk"; return 1; }
    ldconfig -p 2>/dev/null | grep -q "${so%?}9 " && { fail "${so%?}9 exists here"; return 1; }
    sed "s/${so//./\\.}/${so%?}9/g" "$qk" >"$tmp/qk" && chmod +x "$tmp/qk"
    hidden=${so%?}9
}

cd "$src/tests/cli/aggregate" || exit 1
printf '1 0 d1 1\n' >"$tmp/q1"
printf '1 Q0 d1 1 1.0 r\n' >"$tmp/r1"
for re in 'libnlopt\.so\.[0-9]+' 'liblapacke\.so\.[0-9]+'; do
    hide "$re" || continue
    out=$("$tmp/qk" eval -m num_q "$tmp/q1" "$tmp/r1" 2>&1) ||
        fail "eval needs $hidden: $out"
    "$tmp/qk" aggregate -m magp labels.tsv --features features.tsv >/dev/null 2>"$tmp/err"
    st=$?
    [ $st -eq 3 ] || fail "aggregate -m magp without $hidden: exit $st, expected 3"
    grep -q "^qrelkit aggregate: cannot load $hidden (.*); install it with scripts/install-deps.sh$" "$tmp/err" ||
        fail "aggregate -m magp without $hidden: $(cat "$tmp/err")"
done
# libzstd: only an index's stored text needs it; --no-text builds and search run without
if hide 'libzstd\.so\.[0-9]+'; then
    printf '<DOC><DOCNO>d1</DOCNO>solar panels</DOC>\n' >"$tmp/c.trec"
    printf '1\tsolar\n' >"$tmp/t.tsv"
    "$tmp/qk" index --quiet --no-text -o "$tmp/n.idx" "$tmp/c.trec" && "$tmp/qk" search -i "$tmp/n.idx" -t "$tmp/t.tsv" >/dev/null ||
        fail "index --no-text or search needs $hidden"
    "$tmp/qk" index --quiet -o "$tmp/x.idx" "$tmp/c.trec" 2>"$tmp/err"
    st=$?
    [ $st -eq 3 ] || fail "index without $hidden: exit $st, expected 3"
    grep -q "^qrelkit index: cannot load $hidden (.*); install it with scripts/install-deps.sh$" "$tmp/err" ||
        fail "index without $hidden: $(cat "$tmp/err")"
    [ ! -e "$tmp/x.idx" ] || fail "index without $hidden left $tmp/x.idx"
fi
[ $rc -eq 0 ] && echo "lazy libraries: not linked, eval runs without them, a missing one is exit 3 with the hint"
exit $rc
