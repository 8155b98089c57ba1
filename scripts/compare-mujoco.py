#!/usr/bin/env python3
"""Compare cuContact's contacts on an MJCF scene with MuJoCo's.

    scripts/compare-mujoco.py SCENE.xml [--settle N] [--mesh-mode hull|mesh] [--check]

The scene is compiled by MuJoCo (from PyPI; when it cannot be imported the
script makes a virtual environment, installs it there and runs itself again),
optionally stepped N times, and written out as a flattened snapshot that both
engines read: one body per MuJoCo weld body at its world pose (a free body
unless it is welded to the world), each geom at its pose with MuJoCo's
compiled sizes, margins, gaps and collision bits, meshes as MuJoCo's compiled
vertices and faces inline, heightfields as MuJoCo's compiled elevations, and
<exclude> for the body pairs MuJoCo filters (parent and child, and the
scene's own excludes), and the scene's <pair> elements with their margins
and gaps. MuJoCo collides the snapshot (checked against the
scene itself) and cuContact collides it through the cucontact tool; the
script prints, per geom pair, whether each engine has it, the difference of
the deepest distances, the angle between their normals, and both engines'
collision time per call.

Distances are surface distances (MuJoCo's contact.dist; cuContact's
contact-space distance plus both margins). A pair counts for an engine when
one of its contacts lies within the pair's detection distance (margins plus
gaps, or an explicit pair's own), strictly. Explicit pairs are marked; a
pair in one engine only whose distance lies within 1e-6 m of the detection
distance is "touching" (a shape placed exactly on another: float and double
rounding put it on either side) and not a disagreement.

--check exits with status 1 when a pair is in one engine only or differs by
more than --tolerance metres or --angle degrees. Exit status 77 means MuJoCo
could not be installed (the caller treats it as skipped).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import xml.sax.saxutils as saxutils

from mujoco_common import ensure_mujoco, find_cucontact

# A pair found by one engine only within this of its detection distance is
# "touching": whether float (cuContact) and double (MuJoCo) put it inside
# or outside is rounding [m].
ROUNDING = 1e-6


def fmt(values):
    return " ".join(repr(float(v)) for v in values)


def mat_to_quat(mat):
    import mujoco
    import numpy as np
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, np.asarray(mat, dtype=float).reshape(9))
    return q


def relative_pose(body_pos, body_quat, pos, quat):
    """Pose (pos, quat) of a world frame in the frame of a body at (body_pos, body_quat)."""
    import mujoco
    import numpy as np
    inv = np.zeros(4)
    mujoco.mju_negQuat(inv, body_quat)
    p = np.zeros(3)
    mujoco.mju_rotVecQuat(p, np.asarray(pos) - np.asarray(body_pos), inv)
    q = np.zeros(4)
    mujoco.mju_mulQuat(q, inv, np.asarray(quat))
    return p, q


GEOM_TYPES = {0: "plane", 1: "hfield", 2: "sphere", 3: "capsule", 4: "ellipsoid", 5: "cylinder", 6: "box", 7: "mesh"}


def geom_label(m, g):
    import mujoco
    name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g)
    return name if name else f"geom {g}"


def write_snapshot(m, d, path):
    """The flattened scene both engines read; geom g is named g<g>."""
    import numpy as np
    out = ['<mujoco model="snapshot">', '<compiler angle="radian"/>', "<asset>"]
    used_meshes, used_hfields = set(), set()
    for g in range(m.ngeom):
        if m.geom_type[g] == 7:
            used_meshes.add(int(m.geom_dataid[g]))
        elif m.geom_type[g] == 1:
            used_hfields.add(int(m.geom_dataid[g]))
    for k in sorted(used_meshes):
        v0, nv = m.mesh_vertadr[k], m.mesh_vertnum[k]
        f0, nf = m.mesh_faceadr[k], m.mesh_facenum[k]
        verts = m.mesh_vert[v0:v0 + nv].reshape(-1)
        faces = m.mesh_face[f0:f0 + nf].reshape(-1)
        out.append(f'<mesh name="m{k}" vertex="{fmt(verts)}" face="{" ".join(str(int(i)) for i in faces)}"/>')
    for k in sorted(used_hfields):
        rows, cols = int(m.hfield_nrow[k]), int(m.hfield_ncol[k])
        data = m.hfield_data[m.hfield_adr[k]:m.hfield_adr[k] + rows * cols].reshape(rows, cols)
        # Inline elevation starts at the far (+y) edge: MuJoCo's last data row.
        elev = data[::-1].reshape(-1)
        out.append(f'<hfield name="h{k}" nrow="{rows}" ncol="{cols}" size="{fmt(m.hfield_size[k])}" elevation="{fmt(elev)}"/>')
    out.append("</asset>")
    out.append("<worldbody>")
    by_weld = {}
    for g in range(m.ngeom):
        by_weld.setdefault(int(m.body_weldid[m.geom_bodyid[g]]), []).append(g)

    def geom_xml(g, body_pos, body_quat):
        t = GEOM_TYPES.get(int(m.geom_type[g]))
        if t is None:
            raise SystemExit(f"compare-mujoco: {geom_label(m, g)} has a geom type cuContact does not read (type {m.geom_type[g]})")
        pos, quat = relative_pose(body_pos, body_quat, d.geom_xpos[g], mat_to_quat(d.geom_xmat[g]))
        attrs = [f'name="g{g}"', f'type="{t}"', f'pos="{fmt(pos)}"', f'quat="{fmt(quat)}"',
                 f'contype="{int(m.geom_contype[g])}"', f'conaffinity="{int(m.geom_conaffinity[g])}"',
                 f'margin="{float(m.geom_margin[g])!r}"', f'gap="{float(m.geom_gap[g])!r}"']
        if t == "mesh":
            attrs.append(f'mesh="m{int(m.geom_dataid[g])}"')
        elif t == "hfield":
            attrs.append(f'hfield="h{int(m.geom_dataid[g])}"')
        else:
            attrs.append(f'size="{fmt(m.geom_size[g])}"')
        return "<geom " + " ".join(attrs) + "/>"

    for w in sorted(by_weld):
        if w == 0:
            for g in by_weld[w]:
                out.append(geom_xml(g, np.zeros(3), np.array([1.0, 0, 0, 0])))
            continue
        bp, bq = d.xpos[w], d.xquat[w]
        for g in by_weld[w]:
            if m.geom_type[g] == 1:
                raise SystemExit(f"compare-mujoco: heightfield {geom_label(m, g)} moves with a body; cuContact keeps heightfields static")
        out.append(f'<body name="b{w}" pos="{fmt(bp)}" quat="{fmt(bq)}"><freejoint/>')
        out.extend(geom_xml(g, bp, bq) for g in by_weld[w])
        out.append("</body>")
    out.append("</worldbody>")
    # MuJoCo filters weld bodies and their weld parents (filterparent), and
    # the scene's excludes; both become excludes between snapshot bodies.
    excludes = set()
    filter_parent = not (m.opt.disableflags & 2 ** 5)  # mjDSBL_FILTERPARENT
    welds = sorted(w for w in by_weld if w != 0)
    if filter_parent:
        for a in welds:
            pa = int(m.body_weldid[m.body_parentid[a]])
            for b in welds:
                pb = int(m.body_weldid[m.body_parentid[b]])
                if a < b and (a == pb or b == pa):
                    excludes.add((a, b))
    for sig in m.exclude_signature:
        b1, b2 = int(sig) >> 16, int(sig) & 0xFFFF
        w1, w2 = int(m.body_weldid[b1]), int(m.body_weldid[b2])
        if w1 != w2 and w1 in by_weld and w2 in by_weld:
            excludes.add((min(w1, w2), max(w1, w2)))
    if excludes or m.npair:
        out.append("<contact>")
        name = lambda w: "world" if w == 0 else f"b{w}"
        out.extend(f'<exclude body1="{name(a)}" body2="{name(b)}"/>' for a, b in sorted(excludes))
        out.extend(f'<pair geom1="g{int(a)}" geom2="g{int(b)}" margin="{float(mg)!r}" gap="{float(gp)!r}"/>'
                   for a, b, mg, gp in zip(m.pair_geom1, m.pair_geom2, m.pair_margin, m.pair_gap))
        out.append("</contact>")
    out.append("</mujoco>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def snapshot_ids(m):
    """The scene's geom index of each snapshot geom (named g<index>)."""
    import mujoco
    return [int(mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g)[1:]) for g in range(m.ngeom)]


def explicit_limits(m):
    """{(g1, g2): detection distance} of the model's <pair> elements (their own margin plus gap)."""
    return {(min(int(a), int(b)), max(int(a), int(b))): float(mg + gp)
            for a, b, mg, gp in zip(m.pair_geom1, m.pair_geom2, m.pair_margin, m.pair_gap)}


def mujoco_pairs(m, d, ids=None):
    """{(g1, g2): (count, deepest dist, normal from g1 to g2)} of contacts within the detection distance,
    geoms numbered by `ids` (default: the model's own)."""
    import numpy as np
    pairs = {}
    explicit = explicit_limits(m)
    for c in d.contact[:d.ncon]:
        g1, g2 = int(c.geom[0]), int(c.geom[1])
        limit = explicit.get((min(g1, g2), max(g1, g2)),
                             m.geom_margin[g1] + m.geom_margin[g2] + m.geom_gap[g1] + m.geom_gap[g2])
        if not c.dist < limit:
            continue
        if ids is not None:
            g1, g2 = ids[g1], ids[g2]
        n = np.array(c.frame[:3])
        if g1 > g2:
            g1, g2, n = g2, g1, -n
        prev = pairs.get((g1, g2))
        if prev is None or c.dist < prev[1]:
            pairs[(g1, g2)] = ((prev[0] if prev else 0) + 1, float(c.dist), n)
        else:
            pairs[(g1, g2)] = (prev[0] + 1, prev[1], prev[2])
    return pairs


def time_mujoco(m, d, repeat):
    import mujoco
    mujoco.mj_collision(m, d)
    start = time.perf_counter()
    for _ in range(repeat):
        mujoco.mj_collision(m, d)
    return (time.perf_counter() - start) / repeat * 1e3


def cucontact_pairs(tool, snapshot, mesh_mode, m):
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "contacts.json")
        r = subprocess.run([tool, "collide", snapshot, "--json", out, "--mesh-mode", mesh_mode, "--quiet"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"compare-mujoco: cucontact collide failed: {r.stderr.strip()}")
        with open(out) as f:
            contacts = json.load(f)["contacts"]
    pairs = {}
    pair_margin = {(min(int(a), int(b)), max(int(a), int(b))): float(mg) for a, b, mg in zip(m.pair_geom1, m.pair_geom2, m.pair_margin)}
    for c in contacts:
        g1, g2 = int(c["name0"][1:]), int(c["name1"][1:])
        n = np.array(c["normal"], dtype=float)
        # Contact-space distance plus the margins it excludes: the pair's own
        # for an explicit pair, else both geoms'.
        margin = pair_margin.get((min(g1, g2), max(g1, g2)), float(m.geom_margin[g1]) + float(m.geom_margin[g2]))
        dist = float(c["distance"]) + margin
        if g1 > g2:
            g1, g2, n = g2, g1, -n
        prev = pairs.get((g1, g2))
        if prev is None or dist < prev[1]:
            pairs[(g1, g2)] = ((prev[0] if prev else 0) + 1, dist, n)
        else:
            pairs[(g1, g2)] = (prev[0] + 1, prev[1], prev[2])
    return pairs


def time_cucontact(tool, snapshot, mesh_mode, repeat):
    r = subprocess.run([tool, "bench", snapshot, "--repeat", str(repeat), "--mesh-mode", mesh_mode, "--quiet"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return float("nan")
    lines = r.stdout.splitlines()
    head = lines[0].split()
    row = lines[1].split()
    return float(row[head.index("total_ms")])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scene")
    ap.add_argument("--settle", type=int, default=0, help="MuJoCo steps before the snapshot (0)")
    ap.add_argument("--mesh-mode", choices=["hull", "mesh"], default="hull", help="how cuContact collides mesh geoms (hull)")
    ap.add_argument("--cucontact", help="the cucontact tool (default: build/tools/cucontact/cucontact, then PATH)")
    ap.add_argument("--snapshot", help="where to keep the snapshot (default: a temporary file)")
    ap.add_argument("--repeat", type=int, default=200, help="collision calls timed per engine (200)")
    ap.add_argument("--tolerance", type=float, default=1e-4, help="--check's distance tolerance [m] (1e-4)")
    ap.add_argument("--angle", type=float, default=1.0, help="--check's normal tolerance [degrees] (1)")
    ap.add_argument("--check", action="store_true", help="exit 1 when the engines disagree beyond the tolerances")
    args = ap.parse_args()
    ensure_mujoco(__file__, "compare-mujoco")
    import mujoco
    import numpy as np

    tool = find_cucontact(args.cucontact, "compare-mujoco")
    try:
        m = mujoco.MjModel.from_xml_path(args.scene)
    except Exception as e:  # MuJoCo's loader raises ValueError with the file and line
        raise SystemExit(f"compare-mujoco: MuJoCo cannot load {args.scene}: {e}")
    d = mujoco.MjData(m)
    for _ in range(args.settle):
        mujoco.mj_step(m, d)
    mujoco.mj_forward(m, d)
    original = mujoco_pairs(m, d)

    keep = args.snapshot
    snapshot = keep or tempfile.mkstemp(suffix=".xml", prefix="cucontact-snapshot-")[1]
    try:
        write_snapshot(m, d, snapshot)
        ms = mujoco.MjModel.from_xml_path(snapshot)
        ds = mujoco.MjData(ms)
        mujoco.mj_forward(ms, ds)
        ref = mujoco_pairs(ms, ds, snapshot_ids(ms))
        explicit = set(explicit_limits(m))
        got = cucontact_pairs(tool, snapshot, args.mesh_mode, m)
        t_mj = time_mujoco(ms, ds, args.repeat)
        t_cc = time_cucontact(tool, snapshot, args.mesh_mode, args.repeat)
    finally:
        if not keep and os.path.exists(snapshot):
            os.remove(snapshot)

    snapshot_ok = set(original) == set(ref) and all(abs(original[k][1] - ref[k][1]) < 1e-6 for k in ref)

    limits = explicit_limits(m)
    rows, worst_d, worst_a, only, touching = [], 0.0, 0.0, 0, 0
    for key in sorted(set(ref) | set(got)):
        a, b = ref.get(key), got.get(key)
        names = f"{geom_label(m, key[0])} / {geom_label(m, key[1])}"
        limit = limits.get(key, float(m.geom_margin[key[0]] + m.geom_margin[key[1]] + m.geom_gap[key[0]] + m.geom_gap[key[1]]))
        if a and b:
            status = "both"
        elif (a or b)[1] > limit - ROUNDING:
            # At the detection distance within float rounding (feet placed
            # exactly on the floor): which side of it a pair falls is noise.
            status = "touching"
        else:
            status = "only MuJoCo" if a else "only cuContact"
        if key in explicit:
            status += " (pair)"
        diff = angle = float("nan")
        if a and b:
            diff = b[1] - a[1]
            cosine = float(np.clip(np.dot(a[2], b[2]) / (np.linalg.norm(a[2]) * np.linalg.norm(b[2])), -1.0, 1.0))
            angle = math.degrees(math.acos(cosine))
        if a and b:
            worst_d, worst_a = max(worst_d, abs(diff)), max(worst_a, angle)
        elif status == "touching":
            touching += 1
        else:
            only += 1
        rows.append((names, status, a, b, diff, angle))

    print(f"scene: {args.scene}  (settled {args.settle} steps; cuContact meshes as {args.mesh_mode})")
    print(f"snapshot: {'MuJoCo finds the same pairs and distances on it' if snapshot_ok else 'WARNING: MuJoCo finds other contacts on the snapshot than on the scene'}")
    print(f"{'pair':44} {'status':16} {'mj n':>4} {'mj deepest':>12} {'cc n':>4} {'cc deepest':>12} {'diff [m]':>10} {'angle':>7}")
    for names, status, a, b, diff, angle in rows:
        print(f"{names[:44]:44} {status[:16]:16} {a[0] if a else 0:4d} {a[1] if a else float('nan'):12.6f} "
              f"{b[0] if b else 0:4d} {b[1] if b else float('nan'):12.6f} {diff:10.2e} {angle:7.3f}")
    both = sum(1 for r in rows if r[1].startswith("both"))
    print(f"pairs: {both} in both, {only} in one engine only, {touching} touching within rounding in one, "
          f"{len(explicit & (set(ref) | set(got)))} explicit; "
          f"worst distance difference {worst_d:.2e} m, worst normal angle {worst_a:.3f} deg")
    print(f"collision time per call: MuJoCo {t_mj:.4f} ms, cuContact {t_cc:.4f} ms"
          + (f" (MuJoCo / cuContact {t_mj / t_cc:.2f})" if t_cc > 0 else ""))
    if args.check and (only or worst_d > args.tolerance or worst_a > args.angle or not snapshot_ok):
        print(f"compare-mujoco: the engines disagree beyond {args.tolerance} m / {args.angle} deg", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
