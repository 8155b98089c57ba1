#!/usr/bin/env bash
# Builds if needed and runs the whole test suite (CPU backend; CUDA test
# instances skip visibly without a GPU). With CI=true it then builds the CPU
# backend and the tests under AddressSanitizer + UBSan and runs them too.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh
ctest --test-dir "${CUCONTACT_BUILD_DIR:-build}" --output-on-failure -j"$(nproc)"

if [ "${CI:-}" = "true" ] || [ "${CUCONTACT_SANITIZE:-}" = "1" ]; then
  echo "== sanitizer build (ASan + UBSan, CPU backend) =="
  CUCONTACT_BUILD_DIR=build-asan scripts/build.sh -DCUCONTACT_CUDA=OFF -DCUCONTACT_SANITIZE=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCONTACT_BUILD_BENCHMARKS=OFF
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$(nproc)"
fi
