#!/usr/bin/env python3
"""Collision time per call, cuContact against MuJoCo 4, on the scene classes
the broad and narrow phases are tuned for.

    scripts/bench-mujoco.py [--cucontact PATH] [--scale S] [--repeat R] [--scene NAME[,NAME]]

The scenes are written as MJCF into a temporary folder (seeded, so every
run collides the same poses):
  pile        4,096 random primitives (spheres, capsules, boxes, cylinders,
              ellipsoids) overlapping in a cube above a ground plane
  pairs       200 pairs of primitives 1 m apart, each pair 1 mm into itself
  kitchen     442 static boxes (cabinets and shelves) and 376 small objects
              resting on them
  hulls       100 pairs of 1,000-vertex convex meshes, 2 mm into each other
  robot       benchmarks/scenes/capsule_humanoid.xml, 64 worlds on cuContact
              against one on MuJoCo (times per world)
MuJoCo times mj_collision after mj_forward; cuContact times `cucontact bench`
(one core, its poses jittered by up to 1 mm between passes) and reports its
broad and narrow phases apart. The ratio is MuJoCo's time over cuContact's:
above 1, cuContact is faster. --scale multiplies the shape counts (0.1 for a
quick look). Exit status 77 means MuJoCo could not be installed.
"""
import argparse
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from mujoco_common import ensure_mujoco, find_cucontact

HERE = os.path.dirname(os.path.abspath(__file__))
PRIMITIVES = ['type="sphere" size="0.05"', 'type="capsule" size="0.03 0.03"', 'type="box" size="0.045 0.04 0.035"',
              'type="cylinder" size="0.04 0.04"', 'type="ellipsoid" size="0.05 0.04 0.035"']


def header(name, memory):
    return ['<mujoco model="%s">' % name, '  <size memory="%s"/>' % memory, '  <worldbody>']


def random_quat(rng):
    q = [rng.gauss(0, 1) for _ in range(4)]
    n = math.sqrt(sum(c * c for c in q))
    return [c / n for c in q]


def write_pile(path, scale):
    n = max(8, int(4096 * scale))
    rng = random.Random(1)
    side = n ** (1 / 3) * 0.12  # about one overlapping neighbour per shape
    out = header("pile_%d" % n, "1G") + ['    <geom name="floor" type="plane" size="0 0 1"/>']
    for k in range(n):
        x, y, z = [rng.uniform(-side / 2, side / 2) for _ in range(3)]
        q = random_quat(rng)
        out.append('    <body pos="%.5f %.5f %.5f" quat="%.5f %.5f %.5f %.5f"><freejoint/><geom %s/></body>'
                   % (x, y, z + side / 2 + 0.05, *q, PRIMITIVES[k % len(PRIMITIVES)]))
    return out


def write_pairs(path, scale):
    n = max(2, int(200 * scale))
    out = header("pairs_%d" % n, "256M")
    # Each kind reaches 0.1 from its centre along x (the capsule lies along x).
    kinds = ['type="sphere" size="0.1"', 'type="capsule" size="0.05 0.05" euler="0 90 0"',
             'type="box" size="0.1 0.1 0.1"']
    for k in range(n):
        x, y = (k % 20) * 1.0, (k // 20) * 1.0
        for kind, dx in ((kinds[k % 3], -0.1), (kinds[(k // 3) % 3], 0.099)):
            out.append('    <body pos="%.4f %.4f 1"><freejoint/><geom %s/></body>' % (x + dx, y, kind))
    return out


def write_kitchen(path, scale):
    rng = random.Random(3)
    out = header("kitchen", "512M") + ['    <geom type="plane" size="0 0 1"/>']
    nx, ny = max(1, int(round(13 * math.sqrt(scale)))), max(1, int(round(17 * math.sqrt(scale))))
    for i in range(nx):
        for j in range(ny):
            x, y = i * 0.62, j * 0.62
            out.append('    <geom type="box" pos="%.3f %.3f 0.45" size="0.3 0.3 0.45"/>' % (x, y))
            out.append('    <geom type="box" pos="%.3f %.3f 1.2" size="0.3 0.3 0.02"/>' % (x, y))
    kinds = [('type="sphere" size="0.04"', 0.04), ('type="box" size="0.04 0.03 0.05"', 0.05),
             ('type="capsule" size="0.02 0.05"', 0.07), ('type="cylinder" size="0.04 0.06"', 0.06)]
    for k in range(max(1, int(376 * scale))):
        i, j = rng.randrange(nx), rng.randrange(ny)
        x, y = i * 0.62 + rng.uniform(-0.2, 0.2), j * 0.62 + rng.uniform(-0.2, 0.2)
        kind, half = kinds[k % len(kinds)]
        top = rng.choice([0.9, 1.22])  # the cabinet top or the shelf
        out.append('    <body pos="%.3f %.3f %.4f"><freejoint/><geom %s/></body>' % (x, y, top + half - 0.001, kind))
    return out


def write_hulls(path, scale):
    n = max(2, int(100 * scale))
    points = []
    count = 1000
    for i in range(count):  # a squashed Fibonacci sphere: every point a vertex of the hull
        z = 1 - 2 * (i + 0.5) / count
        r = math.sqrt(1 - z * z)
        a = i * math.pi * (3 - math.sqrt(5))
        points.append((0.05 * r * math.cos(a), 0.04 * r * math.sin(a), 0.03 * z))
    verts = " ".join("%.6f %.6f %.6f" % p for p in points)
    out = ['<mujoco model="hulls_%d">' % n, '  <size memory="256M"/>',
           '  <asset><mesh name="blob" vertex="%s"/></asset>' % verts, '  <worldbody>']
    for k in range(n):
        x, y = (k % 10) * 0.3, (k // 10) * 0.3
        out.append('    <body pos="%g %g 0.1"><freejoint/><geom type="mesh" mesh="blob"/></body>' % (x, y))
        out.append('    <body pos="%g %g 0.158" euler="0.3 0.2 0.1"><freejoint/><geom type="mesh" mesh="blob"/></body>'
                   % (x + 0.01, y))
    return out


WRITERS = {"pile": write_pile, "pairs": write_pairs, "kitchen": write_kitchen, "hulls": write_hulls}


def mujoco_time(path, repeat):
    import mujoco
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    mujoco.mj_collision(m, d)
    calls = max(repeat, 1)
    start = time.perf_counter()
    for _ in range(calls):
        mujoco.mj_collision(m, d)
    return (time.perf_counter() - start) / calls * 1e3, d.ncon, m.ngeom


def cucontact_time(tool, path, repeat, worlds):
    # One thread, as MuJoCo's mj_collision runs (the bench otherwise takes
    # every processor).
    env = dict(os.environ, CUCONTACT_CPU_THREADS="1")
    r = subprocess.run([tool, "bench", path, "--repeat", str(repeat), "--worlds", str(worlds), "--quiet"],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit(f"bench-mujoco: cucontact bench {path} failed: {r.stderr.strip()}")
    lines = r.stdout.splitlines()
    head, row = lines[0].split(), lines[1].split()
    get = lambda col: row[head.index(col)]
    per = 1.0 / worlds
    return (float(get("total_ms")) * per, float(get("broad_ms")) * per, float(get("narrow_ms")) * per,
            int(get("contacts")) // worlds, get("broad"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cucontact", help="the cucontact tool (default: build/tools/cucontact/cucontact, then PATH)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every scene's shape count (1)")
    ap.add_argument("--repeat", type=int, default=20, help="collision calls timed per engine and scene (20)")
    ap.add_argument("--scene", default="pile,pairs,kitchen,hulls,robot", help="scenes to run, comma separated (all)")
    ap.add_argument("--keep", help="write the scenes into this folder and keep them")
    args = ap.parse_args()
    if not args.scale > 0 or args.repeat < 1:
        raise SystemExit("bench-mujoco: --scale must be above 0 and --repeat at least 1")
    names = [s for s in args.scene.split(",") if s]
    unknown = [s for s in names if s not in WRITERS and s != "robot"]
    if unknown:
        raise SystemExit(f"bench-mujoco: unknown scene {unknown[0]!r}; choose from pile, pairs, kitchen, hulls, robot")
    ensure_mujoco(__file__, "bench-mujoco")
    tool = find_cucontact(args.cucontact, "bench-mujoco")
    folder = args.keep or tempfile.mkdtemp(prefix="bench-mujoco-")
    os.makedirs(folder, exist_ok=True)
    print("%-8s %7s %7s %11s %11s %10s %10s %8s %12s %12s" % ("scene", "geoms", "worlds", "mujoco_ms", "cucontact_ms",
                                                              "broad_ms", "narrow_ms", "ratio", "mj_contacts",
                                                              "cc_contacts"))
    try:
        for name in names:
            if name == "robot":
                path, worlds = os.path.join(HERE, "..", "benchmarks", "scenes", "capsule_humanoid.xml"), 64
            else:
                path, worlds = os.path.join(folder, name + ".xml"), 1
                lines = WRITERS[name](path, args.scale) + ["  </worldbody>", "</mujoco>"]
                with open(path, "w") as f:
                    f.write("\n".join(lines) + "\n")
            mj_ms, mj_con, ngeom = mujoco_time(path, args.repeat)
            cc_ms, broad, narrow, cc_con, bp = cucontact_time(tool, path, args.repeat, worlds)
            ratio = mj_ms / cc_ms if cc_ms > 0 else float("inf")
            print("%-8s %7d %7d %11.4f %11.4f %10.4f %10.4f %8.2f %12d %12d   (%s)"
                  % (name, ngeom, worlds, mj_ms, cc_ms, broad, narrow, ratio, mj_con, cc_con, bp))
            sys.stdout.flush()
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
