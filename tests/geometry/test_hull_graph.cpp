// The vertex graph of convex hulls (host/geometry/hull_graph.h) and the
// searches that walk it (kernels/shapes/support.h, kernels/convex/feature.h):
// the graph is each hull's edge graph (neighbours symmetric, every face
// around a vertex once); the climb finds the support vertex a scan of every
// vertex finds, for random and adversarial directions (axes, bin edges,
// face normals) on spheres, coplanar-faced solids and slivers, scaled per
// axis too (to the hull builder's flatness); large hulls pick the same face
// and extent as the scan; and
// every direction lands in its own seed bin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/test_hull.h"
#include "kernels/convex/feature.h"
#include "kernels/shapes/support.h"

namespace {

std::vector<cc_vec3> fibonacci_sphere(int n, cc_vec3 semi)
{
    std::vector<cc_vec3> p;
    const double golden = M_PI * (3.0 - std::sqrt(5.0));
    for (int i = 0; i < n; ++i) {
        double z = 1.0 - (2.0 * i + 1.0) / n;
        double r = std::sqrt(1.0 - z * z);
        p.push_back(cc_v3((float)(semi.x * r * std::cos(golden * i)), (float)(semi.y * r * std::sin(golden * i)),
                          (float)(semi.z * z)));
    }
    return p;
}

// A cylinder sampled on both rims: two large coplanar caps and a ring of
// quads, where every vertex has a neighbour at the same height for many
// directions.
std::vector<cc_vec3> sampled_cylinder(int n, float r, float h)
{
    std::vector<cc_vec3> p;
    for (int i = 0; i < n; ++i) {
        double a = 2.0 * M_PI * i / n;
        p.push_back(cc_v3((float)(r * std::cos(a)), (float)(r * std::sin(a)), h));
        p.push_back(cc_v3((float)(r * std::cos(a)), (float)(r * std::sin(a)), -h));
    }
    return p;
}

// Points on the surface of a box on a regular grid: the hull keeps only
// its 8 corners, but the cloud has many coplanar points.
std::vector<cc_vec3> gridded_box(int n)
{
    std::vector<cc_vec3> p;
    for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j)
            for (int k = 0; k <= n; ++k)
                if (i == 0 || i == n || j == 0 || j == n || k == 0 || k == n)
                    p.push_back(cc_v3(-1.0f + 2.0f * i / n, -0.5f + 1.0f * j / n, -0.2f + 0.4f * k / n));
    return p;
}

std::vector<cc_vec3> random_cloud(int n, unsigned seed, cc_vec3 semi)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<cc_vec3> p;
    for (int i = 0; i < n; ++i) p.push_back(cc_v3(semi.x * u(rng), semi.y * u(rng), semi.z * u(rng)));
    return p;
}

struct Case {
    std::string name;
    std::vector<cc_vec3> points;
    int max_vertices;
};

std::vector<Case> cases()
{
    return {
        {"sphere-1000", fibonacci_sphere(1000, cc_v3(0.05f, 0.04f, 0.03f)), 1000},
        {"sphere-4000", fibonacci_sphere(4000, cc_v3(1.0f, 1.0f, 1.0f)), 4096},
        {"needle", fibonacci_sphere(300, cc_v3(2.0f, 0.01f, 0.01f)), 300},
        {"disc", fibonacci_sphere(300, cc_v3(1.0f, 1.0f, 1e-3f)), 300},
        {"cylinder-64", sampled_cylinder(64, 0.5f, 1.0f), 128},
        {"gridded-box", gridded_box(8), 64},
        {"cloud-500", random_cloud(500, 7, cc_v3(1.0f, 0.3f, 0.6f)), 500},
        {"cloud-simplified", random_cloud(2000, 9, cc_v3(1.0f, 1.0f, 1.0f)), 48},
    };
}

cc_convex convex_of(const TestHull* h, cc_vec3 size)
{
    cc_convex c;
    c.type = CC_SHAPE_CONVEX_HULL;
    c.size = size;
    c.f.o = cc_v3(0.0f, 0.0f, 0.0f);
    c.f.x = cc_v3(1.0f, 0.0f, 0.0f);
    c.f.y = cc_v3(0.0f, 1.0f, 0.0f);
    c.f.z = cc_v3(0.0f, 0.0f, 1.0f);
    c.hull = h->ref;
    c.extent = cc_convex_extent_of(CC_SHAPE_CONVEX_HULL, size, &c.hull);
    return c;
}

// Directions a climb could get wrong: random ones, the axes and diagonals
// (where the seed bin changes), points on the bin grid lines, and the face
// normals of the hull (where whole faces tie).
std::vector<cc_vec3> directions(const cc_hull_ref& h, unsigned seed)
{
    std::vector<cc_vec3> d;
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(0.0f, 1.0f);
    for (int i = 0; i < 3000; ++i) d.push_back(cc_v3(g(rng), g(rng), g(rng)));
    for (int x = -1; x <= 1; ++x)
        for (int y = -1; y <= 1; ++y)
            for (int z = -1; z <= 1; ++z)
                if (x || y || z) d.push_back(cc_v3((float)x, (float)y, (float)z));
    for (int k = 0; k <= CC_HULL_SEED_GRID; ++k) {
        float t = -1.0f + 2.0f * k / CC_HULL_SEED_GRID;
        for (int axis = 0; axis < 3; ++axis)
            for (float major : {1.0f, -1.0f}) {
                float v[3] = {0.0f, 0.0f, 0.0f};
                v[axis] = major;
                v[(axis + 1) % 3] = t;
                v[(axis + 2) % 3] = 0.37f * t;
                d.push_back(cc_v3(v[0], v[1], v[2]));
            }
    }
    for (int f = 0; f < h.face_count; ++f) d.push_back(h.faces[f].normal);
    return d;
}

// The graph of every case is the hull's edge graph: vertex v's corners are
// its faces, each once, and its neighbours, each once and each naming v
// back; the corners partition the face index pool.
TEST(HullGraph, IsTheEdgeGraphOfTheHull)
{
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        const TestHull* th = build_test_hull(c.points, c.max_vertices, c.name);
        ASSERT_NE(th, nullptr);
        const cc_hull_ref& h = th->ref;
        const int* g = th->graph.data(); // built for every hull; only large ones use it
        const int* first = g + CC_HULL_SEEDS;
        const int corners = CC_HULL_SEEDS + h.vertex_count + 1; // offset of the first corner
        ASSERT_EQ((int)th->graph.size(), cc_hull_graph_ints(h.vertex_count, th->data.index_count));
        ASSERT_EQ(first[0], corners);
        ASSERT_EQ(first[h.vertex_count], corners + th->data.index_count);
        for (int bin = 0; bin < CC_HULL_SEEDS; ++bin) {
            ASSERT_GE(g[bin], 0);
            ASSERT_LT(g[bin], h.vertex_count);
        }
        std::set<std::pair<int, int>> edges;
        for (int v = 0; v < h.vertex_count; ++v) {
            std::set<int> faces, next;
            EXPECT_GE(first[v + 1] - first[v], 3) << "vertex " << v;
            for (int k = first[v]; k < first[v + 1]; ++k) {
                struct {
                    int next, face;
                } corner = {g[k], g[k + th->data.index_count]};
                ASSERT_GE(corner.next, 0);
                ASSERT_LT(corner.next, h.vertex_count);
                ASSERT_GE(corner.face, 0);
                ASSERT_LT(corner.face, h.face_count);
                EXPECT_TRUE(faces.insert(corner.face).second) << "face " << corner.face << " twice at " << v;
                EXPECT_TRUE(next.insert(corner.next).second) << "neighbour " << corner.next << " twice at " << v;
                // The corner is where the face has v followed by next.
                const cc_hull_face& f = h.faces[corner.face];
                bool found = false;
                for (int i = 0; i < f.count; ++i)
                    found |= h.indices[f.first + i] == v && h.indices[f.first + (i + 1) % f.count] == corner.next;
                EXPECT_TRUE(found) << "corner " << k << " of vertex " << v;
                edges.insert({v, corner.next});
            }
        }
        for (const auto& e : edges) EXPECT_TRUE(edges.count({e.second, e.first})) << e.first << "-" << e.second;
    }
}

// The climb ends on a vertex as high as the scan's, for every direction
// and per-axis scale, within what the hull itself is accurate to: the
// builder merges faces coplanar within CC_HULL_FLAT_TOLERANCE of the
// diagonal, so a merged polygon's corners may stand that far off its plane
// (twice: one above, one below), plus float rounding of the heights.
TEST(HullGraph, ClimbFindsTheSupportVertex)
{
    const cc_vec3 scales[] = {{1.0f, 1.0f, 1.0f}, {3.0f, 0.2f, 1.0f}, {0.01f, 0.01f, 5.0f}};
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        const TestHull* th = build_test_hull(c.points, c.max_vertices, c.name);
        ASSERT_NE(th, nullptr);
        for (cc_vec3 s : scales) {
            cc_convex cv = convex_of(th, s);
            cc_hull_ref scan_ref = th->ref;
            scan_ref.graph = nullptr; // tests every vertex
            float size = 0.0f;
            for (int v = 0; v < th->ref.vertex_count; ++v)
                size = std::max(size, cc_v3_length(cc_v3_mul(th->ref.vertices[v], s)));
            float diagonal = cc_v3_length(cc_v3_sub(th->data.upper, th->data.lower));
            float flat = 2.0f * (float)CC_HULL_FLAT_TOLERANCE * diagonal * std::max(s.x, std::max(s.y, s.z));
            float bound = flat + 4.0f * std::numeric_limits<float>::epsilon() * size;
            int exact = 0, count = 0;
            int worse = 0;
            float worst = 0.0f;
            for (cc_vec3 d : directions(th->ref, 5)) {
                cc_vec3 u = cc_v3_normalize(d);
                float scan = cc_v3_dot(cc_v3_mul(th->ref.vertices[cc_hull_support_vertex(&scan_ref, cc_v3_mul(s, u))], s), u);
                float got = cc_v3_dot(cc_support_local(&cv, u), u);
                float gap = scan - got;
                if (gap > bound) ++worse;
                worst = std::max(worst, gap);
                exact += gap <= 4.0f * std::numeric_limits<float>::epsilon() * size;
                ++count;
            }
            EXPECT_EQ(worse, 0) << "scale " << s.x << " " << s.y << " " << s.z << ": worst shortfall " << worst
                                << " of size " << size << ", bound " << bound;
            // Nearly always the scan's height to the rounding.
            EXPECT_GE(exact, count - count / 100) << "scale " << s.x << " " << s.y << " " << s.z;
        }
    }
}

// A large hull's feature toward a face normal is that face (or one as
// close to the direction), found among the faces around the support
// vertex instead of among all faces; its extent is the scan's.
TEST(HullGraph, LargeHullsPickTheScannedFaceAndExtent)
{
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        const TestHull* th = build_test_hull(c.points, c.max_vertices, c.name);
        ASSERT_NE(th, nullptr);
        if (th->ref.vertex_count <= CC_HULL_CLIMB_MIN) continue;
        for (cc_vec3 s : {cc_v3(1.0f, 1.0f, 1.0f), cc_v3(2.0f, 2.0f, 2.0f), cc_v3(1.0f, 0.5f, 2.0f)}) {
            cc_hull_ref scan_ref = th->ref;
            scan_ref.graph = nullptr; // the scans of every vertex and face
            float scanned = cc_convex_extent_of(CC_SHAPE_CONVEX_HULL, s, &scan_ref);
            EXPECT_NEAR(cc_convex_extent_of(CC_SHAPE_CONVEX_HULL, s, &th->ref), scanned, 1e-6f * scanned);
            cc_convex climb = convex_of(th, s);
            cc_convex scan = climb;
            scan.hull = scan_ref;
            int differ = 0;
            for (int f = 0; f < th->ref.face_count; ++f) {
                cc_vec3 inv = cc_v3(1.0f / s.x, 1.0f / s.y, 1.0f / s.z);
                cc_vec3 d = cc_v3_normalize(cc_v3_mul(th->ref.faces[f].normal, inv));
                cc_feature a, b;
                cc_feature_hull(&climb, d, &a);
                cc_feature_hull(&scan, d, &b);
                ASSERT_GE(a.count, 3) << "face " << f;
                if (b.count >= 3 && cc_v3_dot(a.normal, d) < cc_v3_dot(b.normal, d) - 1e-6f) ++differ;
            }
            EXPECT_EQ(differ, 0) << "scale " << s.x << " " << s.y << " " << s.z;
        }
    }
}

// Each bin's centre direction, and any positive multiple of it, lands in
// that bin; a zero or NaN direction in bin 0; every bin index is in range.
TEST(HullGraph, DirectionsLandInTheirSeedBins)
{
    for (int face = 0; face < 6; ++face)
        for (int iu = 0; iu < CC_HULL_SEED_GRID; ++iu)
            for (int iv = 0; iv < CC_HULL_SEED_GRID; ++iv) {
                float d[3];
                int axis = face / 2;
                d[axis] = (face & 1) ? -1.0f : 1.0f;
                d[(axis + 1) % 3] = -1.0f + (2.0f * iu + 1.0f) / CC_HULL_SEED_GRID;
                d[(axis + 2) % 3] = -1.0f + (2.0f * iv + 1.0f) / CC_HULL_SEED_GRID;
                int bin = (face * CC_HULL_SEED_GRID + iu) * CC_HULL_SEED_GRID + iv;
                for (float k : {1.0f, 1e-20f, 1e20f}) EXPECT_EQ(cc_hull_seed_of(cc_v3(k * d[0], k * d[1], k * d[2])), bin);
            }
    EXPECT_EQ(cc_hull_seed_of(cc_v3(0.0f, 0.0f, 0.0f)), 0);
    float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(cc_hull_seed_of(cc_v3(nan, nan, nan)), 0);
    std::mt19937 rng(3);
    std::normal_distribution<float> g(0.0f, 1.0f);
    for (int i = 0; i < 10000; ++i) {
        int bin = cc_hull_seed_of(cc_v3(g(rng), g(rng), g(rng)));
        ASSERT_GE(bin, 0);
        ASSERT_LT(bin, CC_HULL_SEEDS);
    }
}

} // namespace
