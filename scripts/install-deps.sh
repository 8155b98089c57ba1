#!/usr/bin/env bash
# Installs the system packages cuContact builds with (Debian/Ubuntu, apt).
# Idempotent: quiet and quick when everything is already present.
# The CUDA toolkit is optional (the CPU backend is a full library); when
# nvcc is on PATH or in /usr/local/cuda the CUDA backend is built too.
# clang builds the loaders' fuzz targets (scripts/fuzz-loaders.sh).
# OpenVDB (with boost's headers) builds mesh SDFs; without it the rest works.
set -euo pipefail

packages=(cmake make gcc g++ pkg-config libgtest-dev googletest libqhull-dev libexpat1-dev libpng-dev
          libtinyobjloader-dev clang libopenvdb-dev libboost-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
