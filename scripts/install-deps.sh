#!/usr/bin/env bash
# Install the Debian packages qrelkit needs to build and test. Idempotent: asks
# dpkg first and installs only what is missing. Works as root or through sudo.
# With --lint (`make lint`) it also installs the linters, which nothing else needs;
# with --browser (`make test`, `make screenshot`) also chromium, optional like gnuplot;
# with --bench (`make bench`) also scikit-learn and XGBoost, the independent tree
# learners bench/l2r-independent.sh compares `topics train` against.
set -euo pipefail
pkgs=(build-essential cmake pkg-config zlib1g-dev libzstd-dev libjansson-dev libcmocka-dev pandoc
      libsqlite3-dev libmicrohttpd-dev sqlite3 curl
      liblapacke-dev libnlopt-dev liblinear-dev liblinear-tools python3
      python3-dev python3-setuptools python3-pytest)
[ "${1:-}" = --lint ] && pkgs+=(clang-tidy cppcheck)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Optional: gnuplot draws `qrelkit simulate pool --plot`; nothing else needs it,
# so a failure to install it is only reported.
# chromium renders the demo report in its test (tests/library/demo_report_browser.sh,
# skipped without it) and in `make screenshot`; it is large, so only with --browser.
optional=()
dpkg -s gnuplot-nox >/dev/null 2>&1 || optional+=(gnuplot-nox)
# node and npm install playwright-core (tests/browser/package.json), which
# drives chromium through the campaign pages (tests/browser/run.sh).
# node and npm count when their commands are there: a nodejs package of another
# origin may carry npm itself and conflict with Debian's npm package.
if [ "${1:-}" = --browser ]; then
  dpkg -s chromium >/dev/null 2>&1 || optional+=(chromium)
  command -v node >/dev/null 2>&1 || dpkg -s nodejs >/dev/null 2>&1 || optional+=(nodejs)
  command -v npm >/dev/null 2>&1 || dpkg -s npm >/dev/null 2>&1 || optional+=(npm)
fi
# Scale-out (doc/scale-out.md): a one-node Slurm for scripts/slurm-local.sh
# and the job-array test, GNU parallel for the other recipe. Their tests
# (tests/library/slurm_e2e.sh, parallel_shards.sh) skip only where these
# cannot be installed.
for p in slurm-wlm munge parallel; do
  dpkg -s "$p" >/dev/null 2>&1 || optional+=("$p")
done
# Optional: pandas (and numpy) for the Python binding's DataFrame inputs and
# outputs; its tests of them are skipped without it.
for p in python3-pandas python3-numpy; do
  dpkg -s "$p" >/dev/null 2>&1 || optional+=("$p")
done
if [ "${1:-}" = --bench ]; then
  for p in python3-sklearn python3-xgboost; do
    dpkg -s "$p" >/dev/null 2>&1 || optional+=("$p")
  done
fi
[ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]} ${optional[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
[ ${#missing[@]} -eq 0 ] || "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
# Optional packages all at once, and, when that fails (one of them cannot be
# had or conflicts), one at a time, so one does not keep the others out.
if [ ${#optional[@]} -gt 0 ] &&
  ! "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${optional[@]}"; then
  for p in "${optional[@]}"; do
    "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 ||
      echo "install-deps: optional $p not installed (gnuplot: only simulate pool --plot; chromium, nodejs, npm: only the browser tests and make screenshot; pandas/numpy: only the Python binding's DataFrames; slurm-wlm/munge/parallel: only the scale-out tests and scripts; python3-sklearn/xgboost: only bench/l2r-independent.sh)" >&2
  done
fi
exit 0
