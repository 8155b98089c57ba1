#!/usr/bin/env python3
"""Writes the generated parts of benchmarks/scenes/ (standard library only;
the outputs are committed, so run this only to change them):

  bin_64_primitives.xml       a walled bin holding a 4 x 4 x 4 grid of mixed primitives

  assets/tessellated_box.stl  binary STL, a 0.3 x 0.2 x 0.1 m box, each face a 4 x 4 grid
  assets/wedge.stl            ASCII STL, a triangular prism (a door wedge)
  assets/gem.obj              OBJ, a convex hexagonal gem (quads in the band)
  assets/terrain.png          64 x 64 8-bit grey rolling hills
Triangles run counter-clockwise seen from outside."""
import math
import os
import struct
import zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks", "scenes", "assets")


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def normal(a, b, c):
    n = cross(sub(b, a), sub(c, a))
    length = math.sqrt(sum(x * x for x in n)) or 1.0
    return tuple(x / length for x in n)


def box_triangles(hx, hy, hz, cells):
    """Each face of the box as a cells x cells grid of outward-facing triangle pairs."""
    tris = []
    h = (hx, hy, hz)
    for axis in range(3):
        u, v = (axis + 1) % 3, (axis + 2) % 3
        for sign in (-1.0, 1.0):
            def point(i, j):
                p = [0.0, 0.0, 0.0]
                p[axis] = sign * h[axis]
                p[u] = -h[u] + 2.0 * h[u] * i / cells
                p[v] = -h[v] + 2.0 * h[v] * j / cells
                return tuple(p)
            for i in range(cells):
                for j in range(cells):
                    a, b, c, d = point(i, j), point(i + 1, j), point(i + 1, j + 1), point(i, j + 1)
                    # (u, v, axis) is right-handed, so a-b-c faces +axis.
                    if sign > 0:
                        tris += [(a, b, c), (a, c, d)]
                    else:
                        tris += [(a, c, b), (a, d, c)]
    return tris


def write_binary_stl(path, tris):
    with open(path, "wb") as f:
        f.write(b"cuContact example asset: tessellated box".ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for a, b, c in tris:
            f.write(struct.pack("<12fH", *normal(a, b, c), *a, *b, *c, 0))


def write_ascii_stl(path, name, tris):
    with open(path, "w") as f:
        f.write("solid %s\n" % name)
        for a, b, c in tris:
            f.write("  facet normal %g %g %g\n    outer loop\n" % normal(a, b, c))
            for p in (a, b, c):
                f.write("      vertex %g %g %g\n" % p)
            f.write("    endloop\n  endfacet\n")
        f.write("endsolid %s\n" % name)


def wedge_triangles():
    # Prism along y: the triangle (x, z) = (-0.1, 0), (0.1, 0), (-0.1, 0.06).
    w = 0.05
    p = [(-0.1, -w, 0.0), (0.1, -w, 0.0), (-0.1, -w, 0.06), (-0.1, w, 0.0), (0.1, w, 0.0), (-0.1, w, 0.06)]
    quads = [(0, 3, 4, 1), (1, 4, 5, 2), (2, 5, 3, 0)]  # bottom, slope, back
    tris = [(p[0], p[1], p[2]), (p[3], p[5], p[4])]
    for a, b, c, d in quads:
        tris += [(p[a], p[b], p[c]), (p[a], p[c], p[d])]
    return tris


def write_gem_obj(path):
    r, h, apex = 0.08, 0.03, 0.07
    verts = []
    for z in (-h, h):
        for k in range(6):
            t = 2.0 * math.pi * k / 6
            verts.append((r * math.cos(t), r * math.sin(t), z))
    verts += [(0.0, 0.0, apex), (0.0, 0.0, -apex)]  # 13 top, 14 bottom (1-based)
    faces = []
    for k in range(6):
        a, b = k, (k + 1) % 6
        faces.append((a + 1, b + 1, b + 7, a + 7))  # band quad, outward
        faces.append((a + 7, b + 7, 13))            # top
        faces.append((b + 1, a + 1, 14))            # bottom
    with open(path, "w") as f:
        f.write("# cuContact example asset: a convex hexagonal gem\no gem\n")
        for v in verts:
            f.write("v %.6f %.6f %.6f\n" % v)
        for face in faces:
            f.write("f " + " ".join(str(i) for i in face) + "\n")


def write_png_gray(path, width, height, pixel):
    rows = b"".join(b"\x00" + bytes(pixel(x, y) for x in range(width)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(rows, 9)))
        f.write(chunk(b"IEND", b""))


def hills(x, y):
    u, v = x / 63.0, y / 63.0
    z = 0.5 + 0.25 * math.sin(2 * math.pi * u * 1.5) * math.cos(2 * math.pi * v) + 0.2 * math.sin(2 * math.pi * (u + v))
    return max(0, min(255, int(round(255 * z))))


BIN_HEADER = """<!-- A walled bin holding 64 free bodies of mixed primitive types in a
     4 x 4 x 4 grid, each 0.5 mm into its neighbours and the walls, as a
     settled pile would be. Written by scripts/make-scenes.py. -->
<mujoco model="bin_64_primitives">
  <compiler angle="degree"/>
  <default>
    <geom margin="0.002" gap="0.002"/>
    <default class="wall">
      <geom type="box" contype="1" conaffinity="1"/>
    </default>
    <default class="item">
      <geom contype="1" conaffinity="1" friction="0.8"/>
    </default>
  </default>
  <worldbody>
    <geom name="floor" class="wall" pos="0 0 -0.01" size="0.22 0.22 0.01"/>
    <geom name="wall_px" class="wall" pos="0.209 0 0.2" size="0.01 0.22 0.2"/>
    <geom name="wall_nx" class="wall" pos="-0.209 0 0.2" size="0.01 0.22 0.2"/>
    <geom name="wall_py" class="wall" pos="0 0.209 0.2" size="0.22 0.01 0.2"/>
    <geom name="wall_ny" class="wall" pos="0 -0.209 0.2" size="0.22 0.01 0.2"/>
"""


def bin_item(k, x, y, z):
    kinds = [
        'type="sphere" size="0.05"',
        'type="capsule" size="0.03 0.02"',
        'type="box" size="0.05 0.05 0.05"',
        'type="cylinder" size="0.05 0.05"',
        'type="ellipsoid" size="0.05 0.04 0.05"',
        'type="capsule" size="0.03 0.02" euler="90 0 0"',
        'type="box" size="0.0352 0.0352 0.05" axisangle="0 0 1 45"',  # corners reach the neighbours
    ]
    return ('    <body name="item%02d" pos="%.5f %.5f %.5f" childclass="item">\n'
            '      <freejoint/>\n      <geom name="item%02d" %s/>\n    </body>\n' % (k, x, y, z, k, kinds[k % len(kinds)]))


def write_bin(path):
    step = 0.0995  # 0.5 mm overlap between neighbours of size 0.1
    lines = [BIN_HEADER]
    k = 0
    for layer in range(4):
        for i in range(4):
            for j in range(4):
                x, y = (i - 1.5) * step, (j - 1.5) * step
                z = 0.0495 + layer * step
                lines.append(bin_item(k, x, y, z))
                k += 1
    lines.append("  </worldbody>\n</mujoco>\n")
    with open(path, "w") as f:
        f.write("".join(lines))


def main():
    os.makedirs(HERE, exist_ok=True)
    write_binary_stl(os.path.join(HERE, "tessellated_box.stl"), box_triangles(0.15, 0.1, 0.05, 4))
    write_ascii_stl(os.path.join(HERE, "wedge.stl"), "wedge", wedge_triangles())
    write_gem_obj(os.path.join(HERE, "gem.obj"))
    write_png_gray(os.path.join(HERE, "terrain.png"), 64, 64, hills)
    write_bin(os.path.join(HERE, "..", "bin_64_primitives.xml"))


if __name__ == "__main__":
    main()
