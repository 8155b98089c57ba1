// Meshes for the mesh tests and the surface fuzzing: a closed box (plain
// or tessellated), an icosphere, a flat grid. Plain data, no test
// framework, so that tools build them too.
#pragma once

#include <cmath>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "cucontact/cucontact.h"

namespace cctest {

struct MeshData {
    std::vector<cc_vec3> vertices;
    std::vector<int> triangles; // 3 per triangle, counter-clockwise seen from outside
    int triangle_count() const { return (int)triangles.size() / 3; }
};

// The closed box [-h, h] (12 triangles, outward winding).
inline MeshData box_mesh(cc_vec3 h)
{
    MeshData m;
    for (int i = 0; i < 8; ++i)
        m.vertices.push_back({(i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z});
    // Each face as a quad (a, b, c, d) counter-clockwise from outside.
    const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& q : quads) m.triangles.insert(m.triangles.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
    return m;
}

// The closed box [-h, h] with each face split into n x n quads (12 n^2
// triangles, outward winding, vertices shared along the edges).
inline MeshData tessellated_box_mesh(cc_vec3 h, int n)
{
    MeshData m;
    std::map<std::vector<int>, int> index; // lattice coordinates 0..n per axis
    auto vertex = [&](int i, int j, int k) {
        std::vector<int> key = {i, j, k};
        auto it = index.find(key);
        if (it != index.end()) return it->second;
        m.vertices.push_back({-h.x + 2.0f * h.x * i / n, -h.y + 2.0f * h.y * j / n, -h.z + 2.0f * h.z * k / n});
        return index[key] = (int)m.vertices.size() - 1;
    };
    // Face (axis, side): lattice (u, v) over the other two axes, ordered so
    // that u x v points outward.
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            int ua = (axis + 1) % 3, va = (axis + 2) % 3;
            if (!side) std::swap(ua, va);
            for (int a = 0; a < n; ++a)
                for (int c = 0; c < n; ++c) {
                    int q[4][3];
                    const int du[4] = {0, 1, 1, 0}, dv[4] = {0, 0, 1, 1};
                    for (int k = 0; k < 4; ++k) {
                        q[k][axis] = side ? n : 0;
                        q[k][ua] = a + du[k];
                        q[k][va] = c + dv[k];
                    }
                    int v0 = vertex(q[0][0], q[0][1], q[0][2]), v1 = vertex(q[1][0], q[1][1], q[1][2]);
                    int v2 = vertex(q[2][0], q[2][1], q[2][2]), v3 = vertex(q[3][0], q[3][1], q[3][2]);
                    m.triangles.insert(m.triangles.end(), {v0, v1, v2, v0, v2, v3});
                }
        }
    return m;
}

// A sphere of radius r from a subdivided octahedron (8 * 4^level triangles),
// vertices pushed onto the sphere.
inline MeshData sphere_mesh(float r, int level)
{
    MeshData m;
    m.vertices = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    m.triangles = {0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5};
    for (int l = 0; l < level; ++l) {
        std::map<std::pair<int, int>, int> mid;
        auto midpoint = [&](int a, int b) {
            auto key = std::make_pair(std::min(a, b), std::max(a, b));
            auto it = mid.find(key);
            if (it != mid.end()) return it->second;
            cc_vec3 p = m.vertices[(size_t)a], q = m.vertices[(size_t)b];
            m.vertices.push_back({0.5f * (p.x + q.x), 0.5f * (p.y + q.y), 0.5f * (p.z + q.z)});
            return mid[key] = (int)m.vertices.size() - 1;
        };
        std::vector<int> next;
        for (size_t t = 0; t < m.triangles.size(); t += 3) {
            int a = m.triangles[t], b = m.triangles[t + 1], c = m.triangles[t + 2];
            int ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
            next.insert(next.end(), {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca});
        }
        m.triangles = next;
    }
    for (auto& v : m.vertices) {
        float len = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        v = {r * v.x / len, r * v.y / len, r * v.z / len};
    }
    return m;
}

// A flat n x n grid over [-h, h]^2 at z = 0, facing +z (2 n^2 triangles).
inline MeshData grid_mesh(int n, float h)
{
    MeshData m;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) m.vertices.push_back({-h + 2.0f * h * i / n, -h + 2.0f * h * j / n, 0.0f});
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
            m.triangles.insert(m.triangles.end(), {a, b, d, a, d, c});
        }
    return m;
}

// Triangle i of a sequence that cycles through awkward cases for distance
// routines: plain random corners in [-1, 1]^3, a needle (a corner 1e-5 off
// the opposite side), exactly collinear corners, a tiny triangle (1e-4
// across), and, when `segments`, two equal corners (else plain again).
inline void awkward_triangle(std::mt19937& rng, int i, bool segments, cc_vec3* a, cc_vec3* b, cc_vec3* c)
{
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    auto draw = [&]() {
        float x = u(rng), y = u(rng), z = u(rng);
        return cc_vec3{x, y, z};
    };
    *a = draw();
    *b = draw();
    *c = draw();
    switch (i % 5) {
    case 1: { // needle: c almost on ab
        float t = 0.3f + 0.4f * u(rng);
        cc_vec3 o = draw();
        *c = {a->x + (b->x - a->x) * t + 1e-5f * o.x, a->y + (b->y - a->y) * t + 1e-5f * o.y,
              a->z + (b->z - a->z) * t + 1e-5f * o.z};
        break;
    }
    case 2: { // exactly collinear corners (representable: integer multiples)
        float k = (float)(1 + i % 3) * (i % 2 ? -1.0f : 1.0f);
        *a = {0.25f, 0.5f, -0.5f};
        *b = {a->x + 0.5f, a->y + 0.25f, a->z + 0.125f};
        *c = {a->x + 0.5f * k, a->y + 0.25f * k, a->z + 0.125f * k};
        break;
    }
    case 3: { // tiny triangle
        cc_vec3 db = draw(), dc = draw();
        *b = {a->x + 1e-4f * db.x, a->y + 1e-4f * db.y, a->z + 1e-4f * db.z};
        *c = {a->x + 1e-4f * dc.x, a->y + 1e-4f * dc.y, a->z + 1e-4f * dc.z};
        break;
    }
    case 4:
        if (segments) *c = *b;
        break;
    default:
        break;
    }
}

}  // namespace cctest
