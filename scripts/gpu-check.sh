#!/usr/bin/env bash
# The GPU check, for a machine with an NVIDIA GPU. In one run it:
#   1. builds with CUDA for the local GPU (warnings as errors),
#   2. runs the whole test suite, CUDA instances included,
#   3. cross-checks CPU against GPU on the bench scenes (same candidate
#      pairs and contacts, values within 1e-5 relative),
#   4. runs one test binary under compute-sanitizer memcheck (and racecheck),
#   5. runs the benchmark, including spheres at 4,096 worlds x 64 spheres
#      and the convex scene with its per-route costs, and graph_replay (a
#      frame graph of collide + 4 steps replayed 1,000 times, 4,096 worlds).
# Before the call, on the machine that prepares it:
#   cp -r /usr/src/googletest .gtest-src && scripts/stage-gpu-deps.sh
# and carry .gtest-src and .gpu-deps.
# Logs go to $OUT when set (else gpu-check-out/). Meant to finish in 8 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/gpu-check-out}
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
status=0
step() { echo "== $* ==" | tee -a "$out/summary.log"; }
record() { local rc=$1; shift; echo "   -> $* exit $rc" | tee -a "$out/summary.log"; [ "$rc" -eq 0 ] || status=1; }

step "device"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 | tee "$out/device.log"

step "build"
# GPU machines may lack an installed GoogleTest: a copy of its sources in
# .gtest-src (cp -r /usr/src/googletest .gtest-src, carried along) is used then.
gtest_args=()
[ -d .gtest-src ] && gtest_args=(-DCUCONTACT_GTEST_SOURCE_DIR="$PWD/.gtest-src")
# Machines that cannot install the Debian build dependencies get copies of
# them in .gpu-deps (scripts/stage-gpu-deps.sh, carried along).
if [ -d .gpu-deps ]; then
  gtest_args+=(-DCMAKE_PREFIX_PATH="$PWD/.gpu-deps/usr;$PWD/.gpu-deps")
  export LD_LIBRARY_PATH="$PWD/.gpu-deps/usr/lib/x86_64-linux-gnu:$PWD/.gpu-deps/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
fi
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCUCONTACT_CUDA=ON -DCUCONTACT_WERROR=ON \
  -DCMAKE_CUDA_ARCHITECTURES=native "${gtest_args[@]}" >"$out/build.log" 2>&1 &&
  cmake --build build-gpu -j"$(nproc)" >>"$out/build.log" 2>&1
rc=$?; record $rc build
if [ $rc -ne 0 ]; then tail -50 "$out/build.log"; exit 1; fi

step "tests (CPU and CUDA instances)"
timeout 240 ctest --test-dir build-gpu --output-on-failure -j4 >"$out/tests.log" 2>&1
record $? tests; tail -15 "$out/tests.log"
grep -h -c "SKIPPED" "$out/tests.log" | sed 's/^/   skipped lines: /'

step "cross-check CPU vs GPU"
bench=build-gpu/benchmarks/cucontact-bench
{
  $bench --cross-check --device cuda --scene spheres --worlds 4,64 --shapes 64 &&
  $bench --cross-check --device cuda --scene pile --worlds 4,32 --shapes 200 &&
  $bench --cross-check --device cuda --scene sap --worlds 1 --shapes 2000,10000 &&
  $bench --cross-check --device cuda --scene pile --worlds 8 --broad-phase nxn &&
  $bench --cross-check --device cuda --scene pile --worlds 8 --broad-phase sap &&
  $bench --cross-check --device cuda --scene pile --worlds 32 --deterministic &&
  $bench --cross-check --device cuda --scene spheres --worlds 64 --matching sticky &&
  $bench --cross-check --device cuda --scene convex --worlds 4,64 --shapes 200 &&
  $bench --cross-check --device cuda --scene convex --worlds 16 --deterministic &&
  $bench --cross-check --device cuda --scene mesh --worlds 4 &&
  $bench --cross-check --device cuda --scene mesh --worlds 4 --deterministic &&
  $bench --cross-check --device cuda --scene terrain --worlds 16 --deterministic &&
  $bench --cross-check --device cuda --scene sphere-mesh --worlds 16 --gap 0.01 --deterministic
} >"$out/cross-check.log" 2>&1
record $? cross-check; cat "$out/cross-check.log"

step "compute-sanitizer"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 build-gpu/tests/test_overflow >"$out/memcheck.log" 2>&1
record $? memcheck; tail -5 "$out/memcheck.log"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 build-gpu/tests/test_convex_shapes >"$out/memcheck-convex.log" 2>&1
record $? memcheck-convex; tail -5 "$out/memcheck-convex.log"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 build-gpu/tests/test_step_physics \
  --gtest_filter='*cuda*:*Cuda*' >"$out/memcheck-step.log" 2>&1
record $? memcheck-step; tail -5 "$out/memcheck-step.log"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 build-gpu/tests/test_mesh_contacts \
  --gtest_filter='*cuda*' >"$out/memcheck-mesh.log" 2>&1
record $? memcheck-mesh; tail -5 "$out/memcheck-mesh.log"
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 1 build-gpu/tests/test_capture_matching >"$out/racecheck.log" 2>&1
record $? racecheck; tail -5 "$out/racecheck.log"

step "benchmark"
{
  $bench --device cuda --scene spheres --worlds 4096 --shapes 64 --repeat 50 --routes &&
  $bench --device cuda --scene spheres --worlds 256,1024,4096,16384 --shapes 64 --repeat 20 &&
  $bench --device cuda --scene pile --worlds 64,1024 --repeat 20 --routes &&
  $bench --device cuda --scene sap --shapes 10000,100000 --repeat 20 &&
  $bench --device cuda --scene convex --worlds 64,1024 --repeat 20 --routes &&
  $bench --device cuda --scene spheres --worlds 4096 --deterministic --repeat 20 &&
  $bench --device cuda --scene pile --worlds 256 --matching latest --repeat 20 &&
  $bench --device cuda --scene mesh --worlds 16,256,1024 --repeat 20 &&
  $bench --device cuda --scene terrain --worlds 64,1024 --repeat 20 &&
  $bench --device cuda --scene sphere-mesh --worlds 256,4096 --repeat 20 &&
  $bench --device cuda --json "$out/bench.json" --repeat 20 &&
  build-gpu/benchmarks/graph_replay --device cuda --worlds 4096 --frames 1000 &&
  build-gpu/benchmarks/graph_replay --device cuda --worlds 4096 --frames 1000 --deterministic &&
  build-gpu/benchmarks/graph_replay --device cpu --worlds 256 --frames 50
} >"$out/bench.log" 2>&1
record $? bench; cat "$out/bench.log"

step "done: status $status"
exit $status
