#!/usr/bin/env bash
# Copies the headers and libraries of cuContact's Debian build dependencies
# into .gpu-deps/ (symbolic links resolved), for a GPU machine that cannot
# install packages: scripts/gpu-check.sh puts .gpu-deps/usr on CMake's prefix
# path and the loader's path when the folder exists. Run here, then carry
# .gpu-deps (and .gtest-src) to the GPU machine. Files under /lib land in
# .gpu-deps/lib, those under /usr in .gpu-deps/usr.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(libqhull-dev libqhull-r8.0 libexpat1-dev libexpat1 libpng-dev libpng16-16 libtinyobjloader-dev
          libtinyobjloader2rc10 zlib1g zlib1g-dev)
rm -rf .gpu-deps
mkdir -p .gpu-deps
for p in "${packages[@]}"; do
  dpkg-query -W "$p" >/dev/null 2>&1 || continue
  dpkg -L "$p" | grep -E '^/(usr/)?(include|lib)/' | while read -r f; do
    [ -e "$f" ] && [ ! -d "$f" ] || continue
    mkdir -p ".gpu-deps$(dirname "$f")"
    cp -L "$f" ".gpu-deps$f"
  done
done
du -sh .gpu-deps
