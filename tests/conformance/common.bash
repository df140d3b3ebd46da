# Shared helpers for conformance scripts (sourced, not a test itself).
# need_shared: skip (exit 77) when ../shared/data is absent, fail under QK_REQUIRE_SHARED=1.
need_shared() {
  if [ ! -d "${QK_SHARED:-}/data" ]; then
    if [ "${QK_REQUIRE_SHARED:-0}" = 1 ]; then
      echo "shared data not found at '${QK_SHARED:-}' and QK_REQUIRE_SHARED=1" >&2; exit 1
    fi
    echo "skipped: shared data not found at '${QK_SHARED:-}'" >&2; exit 77
  fi
}
