#!/usr/bin/env bash
# Configures and builds into build/ (or $CUCONTACT_BUILD_DIR). The CUDA
# backend is built when nvcc is found; one architecture by default
# ($CUCONTACT_CUDA_ARCH, 90) to keep the build lean. In CI warnings are errors.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${CUCONTACT_BUILD_DIR:-build}
args=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=${CUCONTACT_CUDA_ARCH:-90}")
[ -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null && export PATH="/usr/local/cuda/bin:$PATH"
[ "${CI:-}" = "true" ] && args+=(-DCUCONTACT_WERROR=ON)
args+=("$@")

cmake -S . -B "$build_dir" "${args[@]}" >/dev/null
cmake --build "$build_dir" -j"$(nproc)" -- --no-print-directory
