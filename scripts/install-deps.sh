#!/usr/bin/env bash
# Install the Debian packages qrelkit needs to build and test. Idempotent: asks
# dpkg first and installs only what is missing. Works as root or through sudo.
set -euo pipefail
pkgs=(build-essential cmake pkg-config zlib1g-dev libjansson-dev libcmocka-dev pandoc
      liblapacke-dev libnlopt-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
