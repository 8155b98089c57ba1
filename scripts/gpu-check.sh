#!/usr/bin/env bash
# The GPU check, in two phases that each fit one call of at most 8 minutes
# on a 16-core machine with one GPU; phase 2 runs on the build phase 1 left.
#
#   scripts/gpu-check.sh 1   build for the local GPU (no warnings-as-errors),
#                            the whole test suite with its CUDA instances, and
#                            every CPU-versus-GPU cross-check (with contraction
#                            noise told apart from bugs), plus one cross-check
#                            of a CUCONTACT_STRICT_FP build that must agree to
#                            the bit;
#   scripts/gpu-check.sh 2   compute-sanitizer (memcheck and initcheck on short
#                            CUDA tests, synccheck on the kernels that use
#                            shared memory), the benchmark on every scene and
#                            graph_replay.
#
# Every command runs on its own, under a timeout, with its exit status
# recorded; a failure never skips the commands after it. The logs come back
# as $OUT/gpu-check-<phase>.tar.gz and a one-screen summary in
# $OUT/gpu-check-<phase>.txt (two files a phase).
#
# A machine without an installed GoogleTest or without the Debian build
# dependencies gets them from folders carried with the tree: .gtest-src
# (cp -r /usr/src/googletest .gtest-src) and .gpu-deps
# (scripts/stage-gpu-deps.sh). Prepare both on the machine that sends the
# tree, and carry them.
#
# GPU_CHECK_DRY_RUN=1 runs everything that needs no GPU (configuration, the
# build, the CPU tests, the logging and packing) and lists the GPU commands
# without running them; CI runs it so that the script keeps working. CI
# points it at the build it has just compiled and tested, so that nothing is
# built or tested twice: GPU_CHECK_BUILD_DIR names that folder,
# GPU_CHECK_ARCHS and GPU_CHECK_WERROR give its configuration (default: the
# local GPU's architecture, 90 without one, and warnings not errors), and
# GPU_CHECK_SKIP_SUITE=1 notes the kernel budgets and the test suite
# instead of checking and running them again.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
phase=${1:-}
case "$phase" in
  1 | 2) ;;
  *)
    echo "usage: scripts/gpu-check.sh 1|2 (see the comment at the top of the script)" >&2
    exit 2
    ;;
esac
dry=${GPU_CHECK_DRY_RUN:-0}
out=${OUT:-$root/gpu-check-out}
build=${GPU_CHECK_BUILD_DIR:-$root/build-gpu}
strict_build=${build}-strict
logs=$(mktemp -d)
summary="$out/gpu-check-$phase.txt"
mkdir -p "$out"
: >"$summary"
failures=0
started=$(date +%s)

note() { echo "$*" | tee -a "$summary"; }

# Libraries staged in .gpu-deps are visible to the programs this script
# runs, and to nothing else (not to cmake or the compilers).
libs=""
[ -d .gpu-deps ] && libs="$root/.gpu-deps/usr/lib/x86_64-linux-gnu:$root/.gpu-deps/lib/x86_64-linux-gnu"

# run NAME SECONDS gpu|host COMMAND...: one command with its own log, exit
# status and time. gpu commands are listed, not run, in a dry run.
run() {
  local name=$1 limit=$2 kind=$3
  shift 3
  local log="$logs/$name.log" t0 rc
  t0=$(date +%s)
  if [ "$dry" = "1" ] && [ "$kind" = "gpu" ]; then
    echo "dry run: $*" >"$log"
    note "$(printf '%-34s %-8s %4ss  %s' "$name" "dry" 0 "$*")"
    return 0
  fi
  LD_LIBRARY_PATH="${libs:+$libs:}${LD_LIBRARY_PATH:-}" timeout --kill-after=10 "$limit" "$@" >"$log" 2>&1
  rc=$?
  local status=ok
  [ $rc -ne 0 ] && status="exit $rc" && failures=$((failures + 1))
  [ $rc -eq 124 ] && status="timeout"
  note "$(printf '%-34s %-8s %4ss  %s' "$name" "$status" $(($(date +%s) - t0)) "$(tail -n 1 "$log" | cut -c1-110)")"
  return $rc
}

# cmake arguments for a build folder of this check.
configure_args() { # DIR
  cfg=(-S . -B "$1" -DCMAKE_BUILD_TYPE=Release -DCUCONTACT_CUDA=ON "-DCUCONTACT_WERROR=${GPU_CHECK_WERROR:-OFF}"
    "-DCUCONTACT_CUDA_ARCHS=$arch")
  command -v ninja >/dev/null && [ ! -f "$1/CMakeCache.txt" ] && cfg+=(-G Ninja)
  [ -d .gtest-src ] && cfg+=("-DCUCONTACT_GTEST_SOURCE_DIR=$root/.gtest-src")
  [ -d .gpu-deps ] && cfg+=("-DCMAKE_PREFIX_PATH=$root/.gpu-deps/usr;$root/.gpu-deps")
  return 0
}

export PATH="/usr/local/cuda/bin:$PATH"
jobs=$(nproc)
# The local GPU's architecture (90 for an H100 or H200); 90 in a dry run.
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
[ -z "$arch" ] && arch=90
arch=${GPU_CHECK_ARCHS:-$arch}
mode=""
[ "$dry" = "1" ] && mode=", dry run"
note "gpu-check phase $phase, $(date -u +%FT%TZ), $jobs cores, sm_$arch$mode"

bench=$build/benchmarks/cucontact-bench
tests=$build/tests

if [ "$phase" = "1" ]; then
  run device 20 gpu nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv
  for tool in cmake nvcc g++; do command -v $tool >/dev/null || note "missing tool: $tool (the build will fail)"; done
  configure_args "$build"
  run configure 120 host cmake "${cfg[@]}"
  run build 420 host cmake --build "$build" -j"$jobs"
  # The kernels' budgets, and the whole suite (the CPU instances run too,
  # which also guards the build).
  if [ "${GPU_CHECK_SKIP_SUITE:-0}" = "1" ]; then
    note "$(printf '%-34s %-8s %4ss  %s' tests skipped 0 "GPU_CHECK_SKIP_SUITE=1: the caller checked and tested this build")"
  else
    run kernel-resources 120 host python3 scripts/kernel-resources.py "$build" --no-instructions
    run tests 300 host ctest --test-dir "$build" -j"$jobs" --timeout 120 --output-on-failure
  fi
  # CPU against GPU on every bench scene and mode.
  run cross-spheres 60 gpu "$bench" --cross-check --device cuda --scene spheres --worlds 4,64 --shapes 64
  run cross-pile 60 gpu "$bench" --cross-check --device cuda --scene pile --worlds 4,32 --shapes 200
  run cross-sap 90 gpu "$bench" --cross-check --device cuda --scene sap --worlds 1 --shapes 2000,10000
  run cross-pile-nxn 60 gpu "$bench" --cross-check --device cuda --scene pile --worlds 8 --broad-phase nxn
  run cross-pile-sap 60 gpu "$bench" --cross-check --device cuda --scene pile --worlds 8 --broad-phase sap
  run cross-pile-deterministic 60 gpu "$bench" --cross-check --device cuda --scene pile --worlds 32 --deterministic
  run cross-spheres-sticky 60 gpu "$bench" --cross-check --device cuda --scene spheres --worlds 64 --matching sticky
  run cross-convex 90 gpu "$bench" --cross-check --device cuda --scene convex --worlds 4,64 --shapes 200
  run cross-convex-deterministic 60 gpu "$bench" --cross-check --device cuda --scene convex --worlds 16 --deterministic
  run cross-mesh 90 gpu "$bench" --cross-check --device cuda --scene mesh --worlds 4
  run cross-mesh-deterministic 90 gpu "$bench" --cross-check --device cuda --scene mesh --worlds 4 --deterministic
  run cross-terrain 60 gpu "$bench" --cross-check --device cuda --scene terrain --worlds 16 --deterministic
  run cross-sphere-mesh 60 gpu "$bench" --cross-check --device cuda --scene sphere-mesh --worlds 16 --gap 0.01 --deterministic
  run cross-sdf 90 gpu "$bench" --cross-check --device cuda --scene sdf --worlds 4 --deterministic
  # Without multiply-add contraction both backends evaluate the same float
  # operations: the contacts must agree to the bit.
  # One architecture is enough here: the last of the list.
  configure_args "$strict_build"
  run configure-strict 120 host cmake "${cfg[@]}" -DCUCONTACT_STRICT_FP=ON -DCUCONTACT_BUILD_TOOLS=OFF \
    "-DCUCONTACT_CUDA_ARCHS=${arch##*;}"
  run build-strict 300 host cmake --build "$strict_build" -j"$jobs" --target cucontact-bench test_step_physics
  for scene in pile convex mesh terrain; do
    run "cross-exact-$scene" 90 gpu "$strict_build/benchmarks/cucontact-bench" --cross-check --exact --device cuda \
      --scene "$scene" --worlds 8 --deterministic
  done
  run step-exact 90 gpu "$strict_build/tests/test_step_physics" --gtest_filter='StepCrossBackend.*'
  run step-cross 90 gpu "$tests/test_step_physics" --gtest_filter='StepCrossBackend.*'
  run cross-self 60 host "$bench" --cross-check --device cpu --scene convex --worlds 4 --deterministic
else
  if [ ! -x "$bench" ]; then
    note "no build from phase 1 in $build (the machine was not kept warm): building first"
    configure_args "$build"
    run configure 120 host cmake "${cfg[@]}"
    run build 420 host cmake --build "$build" -j"$jobs"
  fi
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  cs=("$sanitizer" --error-exitcode 1 --print-limit 20)
  # Short CUDA tests: the device-memory tools slow kernels by 10-100x.
  run memcheck-overflow 120 gpu "${cs[@]}" --tool memcheck "$tests/test_overflow" --gtest_filter='*cuda*'
  run memcheck-convex 120 gpu "${cs[@]}" --tool memcheck "$tests/test_convex_shapes" --gtest_filter='*cuda*'
  run memcheck-mesh 120 gpu "${cs[@]}" --tool memcheck "$tests/test_mesh_contacts" --gtest_filter='*cuda*'
  run memcheck-matching 90 gpu "${cs[@]}" --tool memcheck "$tests/test_capture_matching"
  run memcheck-step 90 gpu "${cs[@]}" --tool memcheck "$tests/test_step_physics" \
    --gtest_filter='*Ballistic*cuda*:*DeterministicStepRepeats*cuda*:*FrameGraphReplay*cuda*'
  run memcheck-schedule 60 gpu "${cs[@]}" --tool memcheck "$tests/test_frame_schedule" --gtest_filter='*cuda*'
  run memcheck-toi 60 gpu "${cs[@]}" --tool memcheck "$tests/test_toi_contacts" --gtest_filter='*cuda*'
  run memcheck-sdf 60 gpu "${cs[@]}" --tool memcheck "$tests/test_sdf_contacts" --gtest_filter='*cuda*'
  run initcheck-pipeline 120 gpu "${cs[@]}" --tool initcheck "$tests/test_pipeline_contacts" --gtest_filter='*cuda*'
  run initcheck-mesh 120 gpu "${cs[@]}" --tool initcheck "$tests/test_mesh_contacts" --gtest_filter='*Reduc*cuda*'
  # Shared memory: the SAP axis kernel and CUB's sorts and selections.
  run synccheck-sap 120 gpu "${cs[@]}" --tool synccheck "$tests/test_broadphase" --gtest_filter='*cuda*'
  run synccheck-order 90 gpu "${cs[@]}" --tool synccheck "$tests/test_deterministic_order" --gtest_filter='*Fifty*cuda*'
  # The benchmark on every scene, and frame graphs replayed from C.
  run bench-spheres 60 gpu "$bench" --device cuda --scene spheres --worlds 256,1024,4096,16384 --shapes 64 --repeat 20
  run bench-pile 60 gpu "$bench" --device cuda --scene pile --worlds 64,1024 --repeat 20
  run bench-sap 60 gpu "$bench" --device cuda --scene sap --shapes 10000,100000 --repeat 20
  run bench-convex 60 gpu "$bench" --device cuda --scene convex --worlds 64,1024 --repeat 20
  run bench-mesh 60 gpu "$bench" --device cuda --scene mesh --worlds 16,256,1024 --repeat 20
  run bench-terrain 60 gpu "$bench" --device cuda --scene terrain --worlds 64,1024 --repeat 20
  run bench-sphere-mesh 60 gpu "$bench" --device cuda --scene sphere-mesh --worlds 256,4096 --repeat 20
  run bench-sdf 90 gpu "$bench" --device cuda --scene sdf,sdf-bvh --worlds 16,256 --repeat 20
  run bench-deterministic 60 gpu "$bench" --device cuda --scene spheres --worlds 4096 --deterministic --repeat 20
  run bench-matching 60 gpu "$bench" --device cuda --scene pile --worlds 256 --matching latest --repeat 20
  run bench-json 90 gpu "$bench" --device cuda --json "$logs/bench.json" --repeat 20
  run graph-replay 90 gpu "$build/benchmarks/graph_replay" --device cuda --worlds 4096 --frames 1000
  run graph-replay-deterministic 90 gpu "$build/benchmarks/graph_replay" --device cuda --worlds 4096 --frames 1000 \
    --deterministic
  run graph-replay-scheduled 90 gpu "$build/benchmarks/graph_replay" --device cuda --worlds 4096 --frames 1000 \
    --schedule --collide-every 2
  run graph-replay-toi 90 gpu "$build/benchmarks/graph_replay" --device cuda --worlds 4096 --frames 1000 --toi
  run bench-bullets 90 gpu "$bench" --device cuda --scene bullets --worlds 64,1024
fi

note "phase $phase: $failures failed, $(($(date +%s) - started)) s"
tar -czf "$out/gpu-check-$phase.tar.gz" -C "$logs" .
rm -rf "$logs"
[ $failures -eq 0 ]
