#!/usr/bin/env bash
# Fuzzes the MJCF loader and the STL/OBJ/MSH readers with libFuzzer for a fixed
# time: builds them with clang, AddressSanitizer and UBSan into build-fuzz/
# (or $CUCONTACT_FUZZ_BUILD_DIR), seeds a corpus from the example scenes and
# small meshes, and runs each target for SECONDS (default 60, split between
# the two). Findings (crash-*, leak-*, timeout-*) land in build-fuzz/findings
# and make the script fail; the corpus grows in build-fuzz/corpus between runs.
#   scripts/fuzz-loaders.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${CUCONTACT_FUZZ_BUILD_DIR:-build-fuzz}
command -v clang >/dev/null && command -v clang++ >/dev/null ||
  { echo "fuzz-loaders.sh: clang and clang++ are needed (apt-get install clang)" >&2; exit 1; }
if [ ! -f "$build/CMakeCache.txt" ]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  CC=clang CXX=clang++ cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCONTACT_CUDA=OFF \
    -DCUCONTACT_SANITIZE=ON -DCUCONTACT_FUZZ=ON -DCUCONTACT_BUILD_TESTS=OFF -DCUCONTACT_BUILD_BENCHMARKS=OFF \
    -DCUCONTACT_BUILD_TOOLS=OFF >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target fuzz_mjcf fuzz_meshes

# Seeds: the example scenes, a few broken ones, and meshes of each format.
assets="$PWD/$build/assets"
mkdir -p "$build/corpus/mjcf" "$build/corpus/meshes" "$build/findings" "$assets"
cp benchmarks/scenes/*.xml "$build/corpus/mjcf/"
printf '<mujoco><worldbody><body><freejoint/><geom type="box" size="1 1 1"/></body></worldbody></mujoco>' >"$build/corpus/mjcf/box.xml"
printf '<mujoco><asset><mesh file="cube.obj"/><hfield name="h" nrow="3" ncol="3" elevation="0 1 0 1 2 1 0 1 0" size="1 1 1 0"/></asset><worldbody><geom type="hfield" hfield="h"/><body><freejoint/><geom type="mesh" mesh="cube"/></body></worldbody></mujoco>' >"$build/corpus/mjcf/assets.xml"
printf '<mujoco><include file="box.xml"/><default><default class="a"><geom size="0.1"/></default></default><contact><exclude body1="a" body2="b"/></contact></mujoco>' >"$build/corpus/mjcf/include.xml"
printf '<mujoco><default><geom margin="0.01"/></default><default><pair gap="0.1"/></default><worldbody><geom name="f" type="plane"/><body><freejoint/><geom name="b" size="0.1" contype="0"/></body></worldbody><contact><pair geom1="f" geom2="b" friction="1 1 0.1 0.01 0.01"/></contact></mujoco>' >"$build/corpus/mjcf/pair.xml"
cube='v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\nf 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n'
printf "$cube" >"$assets/cube.obj"
printf '<mujoco><worldbody><body><freejoint/><geom type="box" size="1 1 1"/></body></worldbody></mujoco>' >"$assets/box.xml"
printf "\\001$cube" >"$build/corpus/meshes/cube_obj"
printf '\000solid t\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid t\n' >"$build/corpus/meshes/tri_stl"
python3 - "$build/corpus/meshes/tri_binary_stl" <<'PY'
import struct, sys
tris = [((0, 0, 0), (1, 0, 0), (0, 1, 0)), ((0, 0, 0), (0, 1, 0), (0, 0, 1))]
data = b"\x00" + b"binary".ljust(80, b" ") + struct.pack("<I", len(tris))
for t in tris:
    data += struct.pack("<12f", 0, 0, 1, *[c for v in t for c in v]) + b"\x00\x00"
open(sys.argv[1], "wb").write(data)
PY
python3 - "$build/corpus/meshes/tet_msh" <<'PY'
import struct, sys
v = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]
f = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]
data = b"\x02" + struct.pack("<4i", 4, 0, 0, 4) + struct.pack("<12f", *v) + struct.pack("<12i", *f)
open(sys.argv[1], "wb").write(data)
PY

half=$(( seconds / 2 > 1 ? seconds / 2 : 1 ))
status=0
for target in mjcf meshes; do
  echo "== fuzz_$target for $half s =="
  ASAN_OPTIONS=detect_leaks=1 CC_FUZZ_ASSET_DIR="$assets" "$build/tools/fuzz-loaders/fuzz_$target" "$build/corpus/$target" \
    -max_total_time="$half" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$build/findings/$target-" \
    -print_final_stats=1 2>"$build/fuzz_$target.log" || status=1
  { grep -E "stat::number_of_executed_units|SUMMARY|ERROR" "$build/fuzz_$target.log" || true; } | tail -3
done
if [ "$status" != 0 ] || ls "$build/findings/"* >/dev/null 2>&1; then
  echo "fuzz-loaders.sh: findings in $build/findings (logs: $build/fuzz_*.log)" >&2
  exit 1
fi
echo "fuzz-loaders.sh: no findings"
