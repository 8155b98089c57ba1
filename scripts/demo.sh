#!/usr/bin/env bash
# The main job for a newcomer: install dependencies, build, and run
# cucontact-bench on its four scenes (contact table, per-stage times,
# throughput). Extra arguments go to the benchmark, e.g. --device cuda.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh
"${CUCONTACT_BUILD_DIR:-build}/benchmarks/cucontact-bench" --routes "$@"
