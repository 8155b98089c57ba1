#!/usr/bin/env bash
# Configures and builds into build/ (or $CUCONTACT_BUILD_DIR). The CUDA
# backend is built when nvcc is found, for the architectures of
# CUCONTACT_CUDA_ARCHS in CMakeLists.txt (80;90), or those of
# $CUCONTACT_CUDA_ARCH (a list such as "90" or "80;90"). Ninja is used when
# present (and make when it is not). In CI warnings are errors.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${CUCONTACT_BUILD_DIR:-build}
args=(-DCMAKE_BUILD_TYPE=Release)
[ -n "${CUCONTACT_CUDA_ARCH:-}" ] && args+=("-DCUCONTACT_CUDA_ARCHS=${CUCONTACT_CUDA_ARCH}")
[ -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null && export PATH="/usr/local/cuda/bin:$PATH"
[ "${CI:-}" = "true" ] && args+=(-DCUCONTACT_WERROR=ON)
# A build folder keeps the generator it was configured with.
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  if command -v ninja >/dev/null; then
    args+=(-G Ninja)
  elif ! command -v make >/dev/null; then
    echo "build.sh: neither ninja nor make is installed; install one (apt-get install ninja-build or make)" >&2
    exit 1
  fi
fi
args+=("$@")

cmake -S . -B "$build_dir" "${args[@]}" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
