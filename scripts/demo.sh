#!/usr/bin/env bash
# The main job for a newcomer: install dependencies, build, run
# cucontact-bench on every scene (contact table, per-stage times,
# throughput), then graph_replay (collide + step captured as one frame and
# replayed). Extra arguments go to the benchmark, e.g. --device cuda.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh
build_dir="${CUCONTACT_BUILD_DIR:-build}"
"$build_dir/benchmarks/cucontact-bench" --routes "$@"
device=cpu
[[ " $* " == *" --device cuda "* ]] && device=cuda
"$build_dir/benchmarks/graph_replay" --device "$device" --worlds 256 --frames 100
