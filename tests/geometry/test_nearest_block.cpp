// Nearest-triangle distances for blocks of points (host/geometry/nearest_block.h),
// the search that fills SDF lattices, against brute force in double
// precision:
// - cc_triangle_distance_sq on random, needle, collinear and tiny triangles,
//   near and far;
// - cc_nearest_block on a sphere, a random soup and a flat grid, for blocks
//   of lattice points near and far from the surface: every distance within
//   float rounding of the brute-force minimum, `limit` exactly where no
//   triangle is that near, and the same answers when the caller's radius
//   bounds the search.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "host/geometry/bvh_build.h"
#include "host/geometry/nearest_block.h"
#include "tests/support/mesh_shapes.h"

using namespace cctest;

namespace {

struct D3 {
    double x, y, z;
};
D3 d3(cc_vec3 v) { return {v.x, v.y, v.z}; }
D3 sub(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 cross(D3 a, D3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

double segment_distance(D3 p, D3 a, D3 b)
{
    D3 ab = sub(b, a);
    double len2 = dot(ab, ab), t = len2 > 0.0 ? std::clamp(dot(sub(p, a), ab) / len2, 0.0, 1.0) : 0.0;
    D3 q = {a.x + ab.x * t, a.y + ab.y * t, a.z + ab.z * t};
    return std::sqrt(dot(sub(p, q), sub(p, q)));
}

// Distance from p to triangle abc in double: the plane's foot when it lies
// inside (barycentric signs), else the nearest edge.
double triangle_distance(cc_vec3 pf, cc_vec3 af, cc_vec3 bf, cc_vec3 cf)
{
    D3 p = d3(pf), a = d3(af), b = d3(bf), c = d3(cf);
    D3 n = cross(sub(b, a), sub(c, a));
    double nn = dot(n, n);
    double edges = std::min(segment_distance(p, a, b), std::min(segment_distance(p, b, c), segment_distance(p, c, a)));
    if (nn == 0.0) return edges;
    double h = dot(n, sub(p, a)) / nn;
    D3 f = {p.x - n.x * h, p.y - n.y * h, p.z - n.z * h};
    bool inside = dot(cross(sub(b, a), sub(f, a)), n) >= 0.0 && dot(cross(sub(c, b), sub(f, b)), n) >= 0.0 &&
                  dot(cross(sub(a, c), sub(f, c)), n) >= 0.0;
    return inside ? std::fabs(h) * std::sqrt(nn) : edges;
}

double brute_nearest(const MeshData& m, cc_vec3 p)
{
    double best = INFINITY;
    for (int t = 0; t < m.triangle_count(); ++t) {
        const int* v = &m.triangles[3 * (size_t)t];
        best = std::min(best, triangle_distance(p, m.vertices[v[0]], m.vertices[v[1]], m.vertices[v[2]]));
    }
    return best;
}

struct Bvh {
    cc_bvh_node* nodes = nullptr;
    int node_count = 0;
    int* prims = nullptr;
    explicit Bvh(const MeshData& m)
    {
        EXPECT_EQ(cc_mesh_bvh_build(m.vertices.data(), m.triangles.data(), m.triangle_count(), &nodes, &node_count, &prims),
                  CC_OK);
    }
    Bvh(const Bvh&) = delete;
    Bvh& operator=(const Bvh&) = delete;
    ~Bvh()
    {
        cc_host_free(nodes);
        cc_host_free(prims);
    }
};

MeshData random_soup(int count, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), s(0.02f, 0.2f);
    MeshData m;
    for (int t = 0; t < count; ++t) {
        cc_vec3 c = {u(rng), u(rng), u(rng)};
        float size = s(rng);
        for (int k = 0; k < 3; ++k) {
            m.vertices.push_back({c.x + size * u(rng), c.y + size * u(rng), c.z + size * u(rng)});
            m.triangles.push_back((int)m.vertices.size() - 1);
        }
    }
    return m;
}

} // namespace

TEST(NearestBlock, TriangleDistanceMatchesDoubleReference)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int i = 0; i < 40000; ++i) {
        cc_vec3 a, b, c;
        awkward_triangle(rng, i, true, &a, &b, &c);
        float reach = i % 2 ? 0.1f : 3.0f;
        cc_vec3 p = cc_v3(u(rng) * reach, u(rng) * reach, u(rng) * reach);
        p = cc_v3_add(p, cc_v3_scale(cc_v3_add(cc_v3_add(a, b), c), 1.0f / 3.0f));
        double want = triangle_distance(p, a, b, c);
        double got = std::sqrt((double)cc_triangle_distance_sq(p, a, b, c));
        // The float result of a double computation: an ulp of the scale.
        ASSERT_NEAR(got, want, 2e-7 * (1.0 + want)) << "case " << i;
    }
}

TEST(NearestBlock, BlocksMatchTheBruteForceMinimum)
{
    const MeshData meshes[] = {sphere_mesh(0.5f, 3), random_soup(1500, 3), grid_mesh(24, 0.4f)};
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-0.8f, 0.8f), spacing(0.002f, 0.05f), lim(0.01f, 0.4f);
    cc_nearest_scratch scratch = {};
    int compared = 0, limited = 0;
    for (const MeshData& m : meshes) {
        Bvh bvh(m);
        for (int block = 0; block < 60; ++block) {
            // A 4x4x4 block of lattice points, some blocks partly used.
            float step = spacing(rng), limit = lim(rng);
            cc_vec3 origin = {u(rng), u(rng), u(rng)};
            std::vector<cc_vec3> points;
            for (int n = 0; n < 64; ++n)
                if (block % 3 || n % 5)
                    points.push_back({origin.x + step * (n & 3), origin.y + step * ((n >> 2) & 3), origin.z + step * (n >> 4)});
            std::vector<double> want(points.size());
            double farthest = 0.0;
            for (size_t i = 0; i < points.size(); ++i) {
                want[i] = brute_nearest(m, points[i]);
                farthest = std::max(farthest, want[i]);
            }
            // Unbounded, then with the tightest radius the caller could know.
            for (float radius : {limit, (float)farthest * 1.0001f + 1e-6f}) {
                std::vector<float> got(points.size());
                ASSERT_EQ(cc_nearest_block(bvh.nodes, bvh.prims, m.vertices.data(), m.triangles.data(), points.data(),
                                           (int)points.size(), limit, radius, &scratch, got.data()),
                          CC_OK);
                for (size_t i = 0; i < points.size(); ++i) {
                    double tolerance = 2e-7 * (1.0 + want[i]);
                    if (want[i] > limit + tolerance) {
                        ASSERT_EQ(got[i], limit) << "block " << block << " point " << i;
                        ++limited;
                    } else if (want[i] < limit - tolerance) {
                        ASSERT_NEAR(got[i], want[i], tolerance) << "block " << block << " point " << i;
                        ++compared;
                    }
                }
            }
        }
    }
    cc_nearest_scratch_free(&scratch);
    EXPECT_GT(compared, 5000);
    EXPECT_GT(limited, 1000);
}
