#!/usr/bin/env bash
# Builds if needed and runs the whole test suite (CPU backend; CUDA test
# instances skip visibly without a GPU). When the CUDA backend was built it
# checks every kernel's registers, stack and spills against their budgets
# (scripts/kernel-resources.py). With CI=true it then builds the CPU backend
# and the tests under AddressSanitizer + UBSan and runs them too, fuzzes the
# loaders for 60 s (scripts/fuzz-loaders.sh, when clang is installed), and
# dry-runs both phases of the GPU check (scripts/gpu-check.sh) without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${CUCONTACT_BUILD_DIR:-build}

scripts/install-deps.sh
scripts/build.sh
ctest --test-dir "$build_dir" --output-on-failure -j"$(nproc)"
if [ -n "$(find "$build_dir" -name '*.cu.o.resources' -print -quit)" ]; then
  echo "== CUDA kernel resources =="
  python3 scripts/kernel-resources.py "$build_dir"
fi

if [ "${CI:-}" = "true" ] || [ "${CUCONTACT_SANITIZE:-}" = "1" ]; then
  echo "== sanitizer build (ASan + UBSan, CPU backend) =="
  # -O1 and line tables only: a third of -O2 -g's compile time for the
  # kernel-heavy tests, with the same findings and file:line in the reports.
  CUCONTACT_BUILD_DIR=build-asan scripts/build.sh -DCUCONTACT_CUDA=OFF -DCUCONTACT_SANITIZE=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCONTACT_BUILD_BENCHMARKS=OFF \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$(nproc)"
fi

if [ "${CI:-}" = "true" ]; then
  if command -v clang >/dev/null && command -v clang++ >/dev/null; then
    echo "== loader fuzzing, 60 s (libFuzzer, ASan + UBSan) =="
    scripts/fuzz-loaders.sh 60
  else
    echo "== loader fuzzing skipped: no clang on this machine (apt-get install clang) =="
  fi
fi

if [ "${CI:-}" = "true" ] && { command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; }; then
  echo "== GPU check, dry run (no GPU: its GPU commands are listed, not run) =="
  # On the build compiled and tested above, configured as it was: nothing is
  # rebuilt and the suite is not run twice; the strict build is the new work.
  out=$(mktemp -d)
  archs=$(sed -n 's/^CUCONTACT_CUDA_ARCHS:STRING=//p' "$build_dir/CMakeCache.txt")
  for phase in 1 2; do
    GPU_CHECK_DRY_RUN=1 OUT="$out" GPU_CHECK_BUILD_DIR="$PWD/$build_dir" GPU_CHECK_ARCHS="$archs" \
      GPU_CHECK_WERROR=ON GPU_CHECK_SKIP_SUITE=1 scripts/gpu-check.sh "$phase" ||
      { cat "$out/gpu-check-$phase.txt"; exit 1; }
    tar -tzf "$out/gpu-check-$phase.tar.gz" >/dev/null
  done
  rm -rf "$out"
fi
