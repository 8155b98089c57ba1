// Triangle-mesh BVH (host/geometry/bvh_build.c, kernels/mesh/bvh.h), checked against
// brute force on a tessellated sphere, a random triangle soup, a flat grid
// and degenerate input (identical triangles, triangles on a line,
// geometrically spaced triangles that make unguarded SAH chain deep):
// - tree shape: node boxes equal the union of their children / triangles,
//   leaves hold 1..4 triangles (2..4 beyond a one-triangle mesh), every
//   triangle sits in exactly one leaf slot, depth <= CC_BVH_MAX_DEPTH, at
//   most max(1, n - 1) nodes;
// - the box iterator returns exactly the triangles whose leaf boxes overlap
//   the query, each once, a superset of those whose own box overlaps;
// - the closest triangle equals the brute-force minimum of
//   cc_closest_point_on_triangle, and -1 comes back beyond max_distance;
// - cc_closest_point_on_triangle against a double-precision reference,
//   degenerate triangles included;
// - rejected input, bytes per triangle, and a 1M-triangle build (timed,
//   printed, not asserted).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "host/geometry/bvh_build.h"
#include "kernels/mesh/bvh.h"
#include "tests/support/mesh_shapes.h"

namespace {

struct Mesh {
    std::vector<cc_vec3> v;
    std::vector<int> t; // 3 per triangle, indices into v
    int count() const { return (int)(t.size() / 3); }
    const cc_mesh_triangle* tris() const { return reinterpret_cast<const cc_mesh_triangle*>(t.data()); }
    void add(cc_vec3 a, cc_vec3 b, cc_vec3 c)
    {
        int base = (int)v.size();
        v.push_back(a);
        v.push_back(b);
        v.push_back(c);
        t.insert(t.end(), {base, base + 1, base + 2});
    }
};

static_assert(sizeof(cc_bvh_node) == 32, "cc_bvh_node is 32 bytes");
static_assert(sizeof(cc_mesh_triangle) == 3 * sizeof(int), "triangles cast from int[3]");

// Owns a built BVH.
struct Bvh {
    cc_bvh_node* nodes = nullptr;
    int node_count = 0;
    int* prims = nullptr;
    Bvh() = default;
    Bvh(const Bvh&) = delete;
    Bvh& operator=(const Bvh&) = delete;
    ~Bvh()
    {
        cc_host_free(nodes);
        cc_host_free(prims);
    }
};

void build(const Mesh& m, Bvh* b)
{
    cc_status s = cc_mesh_bvh_build(m.v.data(), m.t.data(), m.count(), &b->nodes, &b->node_count, &b->prims);
    ASSERT_EQ(s, CC_OK) << cc_last_error_message();
    ASSERT_NE(b->nodes, nullptr);
    ASSERT_NE(b->prims, nullptr);
}

// ---- meshes -------------------------------------------------------------

// Latitude-longitude sphere of radius r: the pole rows make zero-area
// triangles, which the tree must accept like any other.
Mesh uv_sphere(int stacks, int slices, float r)
{
    Mesh m;
    for (int i = 0; i <= stacks; ++i) {
        double th = M_PI * i / stacks;
        for (int j = 0; j < slices; ++j) {
            double ph = 2.0 * M_PI * j / slices;
            m.v.push_back(cc_v3((float)(r * std::sin(th) * std::cos(ph)), (float)(r * std::sin(th) * std::sin(ph)),
                                (float)(r * std::cos(th))));
        }
    }
    for (int i = 0; i < stacks; ++i)
        for (int j = 0; j < slices; ++j) {
            int a = i * slices + j, b = i * slices + (j + 1) % slices;
            int c = a + slices, d = b + slices;
            m.t.insert(m.t.end(), {a, c, d, a, d, b});
        }
    return m;
}

Mesh random_soup(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> pos(-1.0f, 1.0f), off(-0.1f, 0.1f), big(-0.8f, 0.8f);
    Mesh m;
    for (int i = 0; i < n; ++i) {
        cc_vec3 c = cc_v3(pos(rng), pos(rng), pos(rng));
        bool large = i % 50 == 0; // a few long slivers crossing many others
        auto corner = [&]() {
            return large ? cc_v3(c.x + big(rng), c.y + big(rng), c.z + big(rng))
                         : cc_v3(c.x + off(rng), c.y + off(rng), c.z + off(rng));
        };
        cc_vec3 a = corner(), b = corner(), d = corner();
        m.add(a, b, d);
    }
    return m;
}

// n x n quads over [-1, 1]^2 in the plane z = 0.
Mesh flat_grid(int n)
{
    Mesh m;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) m.v.push_back(cc_v3(-1.0f + 2.0f * i / n, -1.0f + 2.0f * j / n, 0.0f));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
            m.t.insert(m.t.end(), {a, b, d, a, d, c});
        }
    return m;
}

Mesh identical_triangles(int n)
{
    Mesh m;
    m.v = {cc_v3(0.1f, 0.2f, 0.3f), cc_v3(0.5f, 0.2f, 0.3f), cc_v3(0.1f, 0.7f, 0.4f)};
    for (int i = 0; i < n; ++i) m.t.insert(m.t.end(), {0, 1, 2});
    return m;
}

// Zero-area triangles, all on the x axis (three collinear corners each).
Mesh line_triangles(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> pos(-5.0f, 5.0f), len(0.0f, 0.3f);
    Mesh m;
    for (int i = 0; i < n; ++i) {
        float x = pos(rng);
        m.add(cc_v3(x, 0, 0), cc_v3(x + len(rng), 0, 0), cc_v3(x + len(rng), 0, 0));
    }
    return m;
}

// Triangles at x = 4^i, i = -60 .. 60, each a tenth of its distance from
// the origin. Binning puts all but the top few in the first bin at every
// level, so unguarded SAH peels two triangles per level and chains far
// past CC_BVH_MAX_DEPTH; the builder must switch to median splits in time.
Mesh geometric_triangles()
{
    Mesh m;
    for (int i = -60; i <= 60; ++i) {
        float a = std::ldexp(1.0f, 2 * i), s = 0.1f * a;
        m.add(cc_v3(a, 0, 0), cc_v3(a + s, s, 0), cc_v3(a, s, s));
    }
    return m;
}

// ---- structure ----------------------------------------------------------

cc_vec3 tri_lower(const Mesh& m, int t)
{
    const int* i = &m.t[3 * t];
    return cc_v3_min(cc_v3_min(m.v[i[0]], m.v[i[1]]), m.v[i[2]]);
}
cc_vec3 tri_upper(const Mesh& m, int t)
{
    const int* i = &m.t[3 * t];
    return cc_v3_max(cc_v3_max(m.v[i[0]], m.v[i[1]]), m.v[i[2]]);
}
bool same(cc_vec3 a, cc_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

struct Shape {
    int max_depth = 0;
    int leaves = 0;
    std::vector<int> leaf_of; // triangle -> its leaf node
};

// Walks the whole tree and checks every structural guarantee.
Shape check_structure(const Mesh& m, const Bvh& b)
{
    Shape s;
    const int n = m.count();
    s.leaf_of.assign(n, -1);
    EXPECT_GE(b.node_count, 1);
    EXPECT_LE(b.node_count, std::max(1, n - 1));
    std::vector<int> visits(b.node_count, 0), slot_uses(n, 0);
    std::vector<std::pair<int, int>> stack = {{0, 0}}; // node, depth
    while (!stack.empty()) {
        auto [i, depth] = stack.back();
        stack.pop_back();
        if (i < 0 || i >= b.node_count) {
            ADD_FAILURE() << "node index " << i << " out of range";
            continue;
        }
        if (++visits[i] > 1) {
            ADD_FAILURE() << "node " << i << " reached twice";
            continue;
        }
        s.max_depth = std::max(s.max_depth, depth);
        const cc_bvh_node& nd = b.nodes[i];
        cc_vec3 lo, hi;
        if (nd.count == 0) {
            if (nd.first < 1 || nd.first + 1 >= b.node_count) {
                ADD_FAILURE() << "node " << i << " has children " << nd.first << " out of range";
                continue;
            }
            const cc_bvh_node &l = b.nodes[nd.first], &r = b.nodes[nd.first + 1];
            lo = cc_v3_min(l.lower, r.lower);
            hi = cc_v3_max(l.upper, r.upper);
            stack.push_back({nd.first, depth + 1});
            stack.push_back({nd.first + 1, depth + 1});
        } else {
            ++s.leaves;
            EXPECT_GE(nd.count, n == 1 ? 1 : 2) << "leaf " << i;
            EXPECT_LE(nd.count, CC_BVH_LEAF_MAX) << "leaf " << i;
            if (nd.count < 1 || nd.count > CC_BVH_LEAF_MAX || nd.first < 0 || nd.first + nd.count > n) {
                ADD_FAILURE() << "leaf " << i << " slots " << nd.first << "+" << nd.count << " out of range";
                continue;
            }
            lo = cc_v3(INFINITY, INFINITY, INFINITY);
            hi = cc_v3(-INFINITY, -INFINITY, -INFINITY);
            for (int k = nd.first; k < nd.first + nd.count; ++k) {
                ++slot_uses[k];
                int t = b.prims[k];
                if (t < 0 || t >= n) {
                    ADD_FAILURE() << "prims[" << k << "] = " << t << " out of range";
                    continue;
                }
                if (s.leaf_of[t] >= 0) ADD_FAILURE() << "triangle " << t << " in two leaf slots";
                s.leaf_of[t] = i;
                lo = cc_v3_min(lo, tri_lower(m, t));
                hi = cc_v3_max(hi, tri_upper(m, t));
            }
        }
        EXPECT_TRUE(same(nd.lower, lo) && same(nd.upper, hi)) << "node " << i << " box is not the union of its contents";
    }
    for (int i = 0; i < b.node_count; ++i) EXPECT_EQ(visits[i], 1) << "node " << i;
    for (int k = 0; k < n; ++k) EXPECT_EQ(slot_uses[k], 1) << "slot " << k;
    for (int t = 0; t < n; ++t) EXPECT_GE(s.leaf_of[t], 0) << "triangle " << t << " in no leaf";
    EXPECT_LE(s.max_depth, CC_BVH_MAX_DEPTH);
    return s;
}

// ---- box queries ---------------------------------------------------------

bool overlap(cc_vec3 alo, cc_vec3 ahi, cc_vec3 blo, cc_vec3 bhi)
{
    return alo.x <= bhi.x && blo.x <= ahi.x && alo.y <= bhi.y && blo.y <= ahi.y && alo.z <= bhi.z && blo.z <= ahi.z;
}

// Iterates one query; checks it against the leaf boxes and the triangle
// boxes. Returns how many triangles came back.
int check_query(const Mesh& m, const Bvh& b, const Shape& s, cc_vec3 lo, cc_vec3 hi)
{
    const int n = m.count();
    std::vector<int> seen(n, 0);
    cc_bvh_query q;
    cc_bvh_query_begin(&q, lo, hi);
    int got = 0;
    for (int t; (t = cc_bvh_query_next(&q, b.nodes, b.prims)) >= 0;) {
        if (t >= n || ++got > n) {
            ADD_FAILURE() << "iterator returned " << t << " (or more than n triangles)";
            return got;
        }
        ++seen[t];
    }
    EXPECT_EQ(cc_bvh_query_next(&q, b.nodes, b.prims), -1) << "a finished query stays finished";
    int errors = 0;
    for (int t = 0; t < n && errors < 5; ++t) {
        const cc_bvh_node& leaf = b.nodes[s.leaf_of[t]];
        bool leaf_hit = overlap(leaf.lower, leaf.upper, lo, hi);
        bool own_hit = overlap(tri_lower(m, t), tri_upper(m, t), lo, hi);
        if (seen[t] != (leaf_hit ? 1 : 0) || (own_hit && !leaf_hit)) {
            ++errors;
            ADD_FAILURE() << "triangle " << t << " returned " << seen[t] << " times; leaf box overlaps: " << leaf_hit
                          << ", own box overlaps: " << own_hit;
        }
    }
    return got;
}

void check_queries(const Mesh& m, const Bvh& b, const Shape& s, unsigned seed, int count)
{
    cc_vec3 rlo = b.nodes[0].lower, rhi = b.nodes[0].upper;
    cc_vec3 ext = cc_v3_sub(rhi, rlo);
    float size = std::max({ext.x, ext.y, ext.z, 1e-3f});
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    long total = 0;
    for (int i = 0; i < count; ++i) {
        // Centres over the root box and a margin around it; sizes from a
        // point to larger than the mesh (log-uniform).
        cc_vec3 c = cc_v3(rlo.x + (1.4f * u(rng) - 0.2f) * std::max(ext.x, size * 0.01f),
                          rlo.y + (1.4f * u(rng) - 0.2f) * std::max(ext.y, size * 0.01f),
                          rlo.z + (1.4f * u(rng) - 0.2f) * std::max(ext.z, size * 0.01f));
        float h = size * std::pow(10.0f, -4.0f + 4.5f * u(rng));
        cc_vec3 half = cc_v3(h * (0.2f + u(rng)), h * (0.2f + u(rng)), h * (0.2f + u(rng)));
        if (i % 7 == 0) half.z = 0.0f; // flat query boxes
        total += check_query(m, b, s, cc_v3_sub(c, half), cc_v3_add(c, half));
    }
    // Boxes exactly touching the root's faces, the whole root, an empty box.
    EXPECT_EQ(check_query(m, b, s, rlo, rhi), m.count());
    check_query(m, b, s, cc_v3(rhi.x, rlo.y, rlo.z), cc_v3(rhi.x + 1.0f, rhi.y, rhi.z));
    check_query(m, b, s, cc_v3(rlo.x - 1.0f, rlo.y, rlo.z), cc_v3(rlo.x, rhi.y, rhi.z));
    EXPECT_EQ(check_query(m, b, s, cc_v3(1, 1, 1), cc_v3(-1, -1, -1)), 0);
    cc_vec3 beyond = cc_v3(size, size, size);
    EXPECT_EQ(check_query(m, b, s, cc_v3_add(rhi, beyond), cc_v3_add(rhi, cc_v3_scale(beyond, 2.0f))), 0);
    EXPECT_GT(total, 0) << "the random queries should hit something";
}

// ---- closest triangle ----------------------------------------------------

struct Nearest {
    int triangle = -1;
    float distance = 0.0f;
};

// Brute force with the kernel's own point routine: the BVH must find this
// exact minimum (lowest index among equal distances).
Nearest brute_nearest(const Mesh& m, cc_vec3 p)
{
    Nearest best;
    float best_d2 = INFINITY;
    for (int t = 0; t < m.count(); ++t) {
        const int* i = &m.t[3 * t];
        cc_vec3 x = cc_closest_point_on_triangle(p, m.v[i[0]], m.v[i[1]], m.v[i[2]]);
        float d2 = cc_v3_length_sq(cc_v3_sub(p, x));
        if (d2 < best_d2) {
            best_d2 = d2;
            best.triangle = t;
        }
    }
    best.distance = std::sqrt(best_d2);
    return best;
}

float tri_distance(const Mesh& m, int t, cc_vec3 p)
{
    const int* i = &m.t[3 * t];
    return cc_v3_length(cc_v3_sub(p, cc_closest_point_on_triangle(p, m.v[i[0]], m.v[i[1]], m.v[i[2]])));
}

void check_closest_at(const Mesh& m, const Bvh& b, cc_vec3 p)
{
    Nearest want = brute_nearest(m, p);
    cc_vec3 x = cc_v3(NAN, NAN, NAN);
    float d = -1.0f;
    int got = cc_bvh_closest_triangle(b.nodes, b.prims, m.v.data(), m.tris(), p, INFINITY, &x, &d);
    ASSERT_GE(got, 0) << "p = " << p.x << " " << p.y << " " << p.z;
    float tol = 1e-6f * want.distance;
    EXPECT_NEAR(d, want.distance, tol) << "p = " << p.x << " " << p.y << " " << p.z;
    if (got != want.triangle) { // only a tie may pick another triangle
        EXPECT_NEAR(tri_distance(m, got, p), want.distance, tol) << "triangle " << got << " vs " << want.triangle;
    }
    EXPECT_NEAR(cc_v3_length(cc_v3_sub(p, x)), d, 1e-6f * d + 1e-30f);

    // The bound: found at a little more than the distance, not below it.
    if (want.distance > 0.0f) {
        EXPECT_EQ(cc_bvh_closest_triangle(b.nodes, b.prims, m.v.data(), m.tris(), p, 0.999f * want.distance,
                                          nullptr, nullptr),
                  -1);
        float d2 = -1.0f;
        int again = cc_bvh_closest_triangle(b.nodes, b.prims, m.v.data(), m.tris(), p, 1.001f * want.distance,
                                            nullptr, &d2);
        EXPECT_GE(again, 0);
        EXPECT_NEAR(d2, want.distance, tol);
    }
}

void check_closest(const Mesh& m, const Bvh& b, unsigned seed, int count)
{
    cc_vec3 rlo = b.nodes[0].lower, rhi = b.nodes[0].upper;
    cc_vec3 centre = cc_v3_scale(cc_v3_add(rlo, rhi), 0.5f);
    cc_vec3 ext = cc_v3_sub(rhi, rlo);
    float size = std::max({ext.x, ext.y, ext.z, 1e-3f});
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f), s(-1.0f, 1.0f);
    for (int i = 0; i < count; ++i) {
        cc_vec3 p;
        switch (i % 4) {
        case 0: // inside the root box
            p = cc_v3(rlo.x + u(rng) * ext.x, rlo.y + u(rng) * ext.y, rlo.z + u(rng) * ext.z);
            break;
        case 1: { // near the surface: a vertex of a random triangle nudged
            int t = (int)(u(rng) * (float)m.count()) % m.count();
            cc_vec3 v = m.v[m.t[3 * t + (i / 4) % 3]];
            p = cc_v3_add(v, cc_v3(s(rng) * 0.01f * size, s(rng) * 0.01f * size, s(rng) * 0.01f * size));
            break;
        }
        case 2: // outside, within a few sizes
            p = cc_v3_add(centre, cc_v3(s(rng) * 2.0f * size, s(rng) * 2.0f * size, s(rng) * 2.0f * size));
            break;
        default: // far away
            p = cc_v3_add(centre, cc_v3_scale(cc_v3_normalize(cc_v3(s(rng), s(rng), s(rng))), 100.0f * size));
            break;
        }
        check_closest_at(m, b, p);
        if (testing::Test::HasFatalFailure()) return;
    }
    // Exactly on a vertex: distance 0.
    check_closest_at(m, b, m.v[m.t[0]]);
}

void check_all(const Mesh& m, unsigned seed, int queries, int points, const char* name)
{
    Bvh b;
    build(m, &b);
    if (testing::Test::HasFatalFailure()) return;
    Shape s = check_structure(m, b);
    std::printf("[ %s ] %d triangles, %d nodes, %d leaves, depth %d\n", name, m.count(), b.node_count, s.leaves,
                s.max_depth);
    if (testing::Test::HasFailure()) return;
    check_queries(m, b, s, seed, queries);
    check_closest(m, b, seed + 1, points);
}

// ---- double-precision reference for one triangle --------------------------

struct D3 {
    double x, y, z;
};
D3 d3(cc_vec3 v) { return {v.x, v.y, v.z}; }
D3 operator-(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 operator+(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 operator*(D3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double dist(D3 a, D3 b) { return std::sqrt(dot(a - b, a - b)); }

D3 seg_closest(D3 p, D3 a, D3 b)
{
    D3 d = b - a;
    double dd = dot(d, d);
    double t = dd > 0 ? std::clamp(dot(p - a, d) / dd, 0.0, 1.0) : 0.0;
    return a + d * t;
}

// Ericson's Voronoi-region method in double (a different algorithm from
// the kernel's), falling back to the edges for a degenerate triangle.
D3 ref_closest(D3 p, D3 a, D3 b, D3 c)
{
    D3 ab = b - a, ac = c - a, ap = p - a;
    double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return a;
    D3 bp = p - b;
    double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return b;
    D3 cp = p - c;
    double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return c;
    double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    double denom = va + vb + vc;
    if (!(denom > 1e-12 * dot(ab, ab) * dot(ac, ac))) {
        D3 best = seg_closest(p, a, b);
        for (D3 x : {seg_closest(p, b, c), seg_closest(p, c, a)})
            if (dist(p, x) < dist(p, best)) best = x;
        return best;
    }
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    return a + ab * (vb / denom) + ac * (vc / denom);
}

} // namespace

TEST(MeshBvh, ClosestPointOnTriangleExactCases)
{
    cc_vec3 a = cc_v3(0, 0, 0), b = cc_v3(1, 0, 0), c = cc_v3(0, 1, 0);
    auto eq = [](cc_vec3 x, float ex, float ey, float ez) {
        EXPECT_NEAR(x.x, ex, 1e-7f);
        EXPECT_NEAR(x.y, ey, 1e-7f);
        EXPECT_NEAR(x.z, ez, 1e-7f);
    };
    eq(cc_closest_point_on_triangle(cc_v3(0.25f, 0.25f, 1), a, b, c), 0.25f, 0.25f, 0); // face
    eq(cc_closest_point_on_triangle(cc_v3(0.25f, 0.25f, -3), a, b, c), 0.25f, 0.25f, 0); // face, below
    eq(cc_closest_point_on_triangle(cc_v3(2, 2, 0), a, b, c), 0.5f, 0.5f, 0);           // hypotenuse
    eq(cc_closest_point_on_triangle(cc_v3(-1, -1, 5), a, b, c), 0, 0, 0);               // vertex a
    eq(cc_closest_point_on_triangle(cc_v3(3, -1, 0), a, b, c), 1, 0, 0);                // vertex b
    eq(cc_closest_point_on_triangle(cc_v3(0.5f, -2, 1), a, b, c), 0.5f, 0, 0);          // edge ab
    eq(cc_closest_point_on_triangle(cc_v3(-2, 0.5f, 1), a, b, c), 0, 0.5f, 0);          // edge ca
    // Degenerate: all corners equal, and collinear with the middle corner in
    // each position (the hull is the longest edge).
    eq(cc_closest_point_on_triangle(cc_v3(1, 2, 3), a, a, a), 0, 0, 0);
    eq(cc_closest_point_on_triangle(cc_v3(1.5f, 1, 0), a, cc_v3(1, 0, 0), cc_v3(2, 0, 0)), 1.5f, 0, 0);
    eq(cc_closest_point_on_triangle(cc_v3(1.5f, 1, 0), cc_v3(1, 0, 0), a, cc_v3(2, 0, 0)), 1.5f, 0, 0);
    eq(cc_closest_point_on_triangle(cc_v3(1.5f, 1, 0), a, cc_v3(2, 0, 0), cc_v3(1, 0, 0)), 1.5f, 0, 0);
    eq(cc_closest_point_on_triangle(cc_v3(3, 1, 0), a, cc_v3(2, 0, 0), cc_v3(1, 0, 0)), 2, 0, 0);
    // Two equal corners: a segment.
    eq(cc_closest_point_on_triangle(cc_v3(0.5f, 1, 1), a, b, b), 0.5f, 0, 0);
}

TEST(MeshBvh, ClosestPointOnTriangleMatchesDoubleReference)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int checked = 0;
    for (int i = 0; i < 20000; ++i) {
        cc_vec3 a, b, c;
        cctest::awkward_triangle(rng, i, false, &a, &b, &c);
        // Points near the triangle and far from it.
        float reach = i % 2 ? 0.1f : 3.0f;
        cc_vec3 p = cc_v3(u(rng) * reach, u(rng) * reach, u(rng) * reach);
        p = cc_v3_add(p, cc_v3_scale(cc_v3_add(cc_v3_add(a, b), c), 1.0f / 3.0f));
        cc_vec3 x = cc_closest_point_on_triangle(p, a, b, c);
        D3 r = ref_closest(d3(p), d3(a), d3(b), d3(c));
        double want = dist(d3(p), r);
        double got = dist(d3(p), d3(x));
        // Float rounding of unit-sized coordinates: some ulps of the scale.
        ASSERT_NEAR(got, want, 2e-6 * (1.0 + want)) << "case " << i;
        // And the point lies on the triangle. On a needle the float normal
        // is tilted by about eps / sin(angle), which moves the projected
        // point sideways by that times the height of p (the distance only
        // changes to second order): allow ten times the needle's width.
        D3 back = ref_closest(d3(x), d3(a), d3(b), d3(c));
        ASSERT_LT(dist(back, d3(x)), i % 5 == 1 ? 1e-4 : 2e-6 * (1.0 + want)) << "case " << i;
        ++checked;
    }
    EXPECT_EQ(checked, 20000);
}

TEST(MeshBvh, Sphere) { check_all(uv_sphere(40, 60, 1.0f), 11, 300, 300, "sphere"); }

TEST(MeshBvh, RandomSoup) { check_all(random_soup(3000, 5), 21, 300, 300, "soup"); }

TEST(MeshBvh, FlatGrid) { check_all(flat_grid(60), 31, 300, 300, "grid"); }

TEST(MeshBvh, IdenticalTriangles) { check_all(identical_triangles(10000), 41, 100, 60, "identical"); }

TEST(MeshBvh, TrianglesOnALine) { check_all(line_triangles(10000, 3), 51, 200, 200, "line"); }

TEST(MeshBvh, GeometricSpacingHitsTheDepthGuard)
{
    Mesh m = geometric_triangles();
    Bvh b;
    build(m, &b);
    ASSERT_FALSE(HasFatalFailure());
    Shape s = check_structure(m, b);
    std::printf("[ geometric ] %d triangles, %d nodes, depth %d\n", m.count(), b.node_count, s.max_depth);
    // A balanced tree of 121 triangles is 5 levels deep: reaching the limit
    // shows SAH chained and the guard stopped it there.
    EXPECT_GT(s.max_depth, 30);
    check_queries(m, b, s, 61, 200);
    // Squared distances overflow float near the big triangles: check points
    // near the triangles between 1e-15 and 1e15 only.
    for (int t = 0; t < m.count(); ++t) {
        float x = m.v[m.t[3 * t]].x;
        if (x < 1e-15f || x > 1e15f) continue;
        check_closest_at(m, b, cc_v3(x * 1.02f, x * 0.03f, x * -0.05f));
        check_closest_at(m, b, cc_v3(x * 0.5f, x * 0.5f, x * 0.5f));
    }
}

TEST(MeshBvh, SingleTriangleIsOneLeaf)
{
    Mesh m;
    m.add(cc_v3(0, 0, 0), cc_v3(1, 0, 0), cc_v3(0, 1, 0));
    Bvh b;
    build(m, &b);
    ASSERT_EQ(b.node_count, 1);
    EXPECT_EQ(b.nodes[0].count, 1);
    EXPECT_EQ(b.nodes[0].first, 0);
    EXPECT_EQ(b.prims[0], 0);
    Shape s = check_structure(m, b);
    EXPECT_EQ(s.max_depth, 0);
    EXPECT_EQ(check_query(m, b, s, cc_v3(0.5f, 0.5f, -1), cc_v3(2, 2, 1)), 1);
    EXPECT_EQ(check_query(m, b, s, cc_v3(1.5f, 0, 0), cc_v3(2, 2, 1)), 0);
    EXPECT_EQ(check_query(m, b, s, cc_v3(1, 1, 1), cc_v3(0, 0, 0)), 0); // empty box
    cc_vec3 x;
    float d = -1;
    EXPECT_EQ(cc_bvh_closest_triangle(b.nodes, b.prims, m.v.data(), m.tris(), cc_v3(0.2f, 0.2f, 2), 5.0f, &x, &d), 0);
    EXPECT_FLOAT_EQ(d, 2.0f);
    EXPECT_EQ(cc_bvh_closest_triangle(b.nodes, b.prims, m.v.data(), m.tris(), cc_v3(0.2f, 0.2f, 2), 1.5f, &x, &d), -1);
    EXPECT_EQ(cc_bvh_closest_triangle(b.nodes, b.prims, m.v.data(), m.tris(), cc_v3(0.2f, 0.2f, 0), 0.0f, &x, &d), 0);
    EXPECT_EQ(d, 0.0f);
    EXPECT_EQ(cc_bvh_closest_triangle(b.nodes, b.prims, m.v.data(), m.tris(), cc_v3(0.2f, 0.2f, 0), -1.0f, &x, &d), -1);
}

TEST(MeshBvh, PoolConventionWithOffsetTriangles)
{
    // Two meshes in shared pools: the second mesh's triangles hold absolute
    // vertex indices; the kernel gets the whole vertex pool and the mesh's
    // own triangle range, and answers in indices relative to that range.
    Mesh first = random_soup(50, 1), second = uv_sphere(8, 12, 0.5f);
    std::vector<cc_vec3> pool = first.v;
    pool.insert(pool.end(), second.v.begin(), second.v.end());
    std::vector<int> pool_tris = first.t;
    for (int i : second.t) pool_tris.push_back(i + (int)first.v.size());
    const int tri_first = first.count();
    Bvh b;
    ASSERT_EQ(cc_mesh_bvh_build(pool.data(), pool_tris.data() + 3 * tri_first, second.count(), &b.nodes, &b.node_count,
                                &b.prims),
              CC_OK);
    const cc_mesh_triangle* tris = reinterpret_cast<const cc_mesh_triangle*>(pool_tris.data()) + tri_first;
    cc_vec3 p = cc_v3(0, 0, 3);
    Nearest want = brute_nearest(second, p);
    float d = -1;
    int got = cc_bvh_closest_triangle(b.nodes, b.prims, pool.data(), tris, p, INFINITY, nullptr, &d);
    ASSERT_GE(got, 0);
    EXPECT_LT(got, second.count());
    EXPECT_NEAR(d, want.distance, 1e-6f * want.distance);
    EXPECT_NEAR(d, 2.5f, 1e-3f); // the pole of a radius-0.5 sphere
}

TEST(MeshBvh, RejectsBadInput)
{
    Mesh m = random_soup(10, 2);
    cc_bvh_node* nodes = reinterpret_cast<cc_bvh_node*>(0x10);
    int count = -7;
    int* prims = reinterpret_cast<int*>(0x20);
    auto untouched = [&]() {
        EXPECT_EQ(nodes, reinterpret_cast<cc_bvh_node*>(0x10));
        EXPECT_EQ(count, -7);
        EXPECT_EQ(prims, reinterpret_cast<int*>(0x20));
    };
    EXPECT_EQ(cc_mesh_bvh_build(m.v.data(), m.t.data(), 0, &nodes, &count, &prims), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("at least one triangle"), std::string::npos);
    untouched();
    EXPECT_EQ(cc_mesh_bvh_build(m.v.data(), m.t.data(), -3, &nodes, &count, &prims), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_mesh_bvh_build(nullptr, m.t.data(), 10, &nodes, &count, &prims), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_mesh_bvh_build(m.v.data(), nullptr, 10, &nodes, &count, &prims), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_mesh_bvh_build(m.v.data(), m.t.data(), 10, nullptr, &count, &prims), CC_ERR_INVALID_ARGUMENT);
    untouched();
    m.t[7] = -1;
    EXPECT_EQ(cc_mesh_bvh_build(m.v.data(), m.t.data(), 10, &nodes, &count, &prims), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("triangle 2"), std::string::npos) << cc_last_error_message();
    untouched();
    m.t[7] = 7;
    m.v[7].y = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(cc_mesh_bvh_build(m.v.data(), m.t.data(), 10, &nodes, &count, &prims), CC_ERR_NOT_FINITE);
    untouched();
}

TEST(MeshBvh, BytesPerTriangle)
{
    Mesh m = uv_sphere(100, 100, 1.0f); // 20,000 triangles
    ASSERT_EQ(m.count(), 20000);
    Bvh b;
    build(m, &b);
    double bytes = (double)b.node_count * sizeof(cc_bvh_node) + (double)m.count() * sizeof(int);
    double per = bytes / m.count();
    std::printf("[ bytes ] %d triangles: %d nodes, %.1f bytes per triangle (nodes + prims)\n", m.count(),
                b.node_count, per);
    RecordProperty("bytes_per_triangle", std::to_string(per));
    EXPECT_LT(per, 64.0);
}

TEST(MeshBvh, MillionTriangles)
{
    Mesh m = uv_sphere(500, 1000, 1.0f); // 1,000,000 triangles
    ASSERT_EQ(m.count(), 1000000);
    Bvh b;
    auto t0 = std::chrono::steady_clock::now();
    build(m, &b);
    auto t1 = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    ASSERT_FALSE(HasFatalFailure());
    Shape s = check_structure(m, b);
    std::printf("[ 1M ] built %d triangles in %.0f ms: %d nodes, depth %d, %.1f bytes per triangle\n", m.count(), ms,
                b.node_count, s.max_depth,
                ((double)b.node_count * sizeof(cc_bvh_node) + (double)m.count() * sizeof(int)) / m.count());
    RecordProperty("build_ms_1M", std::to_string(ms));
    // A few queries against brute force on the big mesh.
    for (cc_vec3 p : {cc_v3(0, 0, 0), cc_v3(0.3f, -0.2f, 0.99f), cc_v3(5, 1, -2)}) {
        Nearest want = brute_nearest(m, p);
        float d = -1;
        int got = cc_bvh_closest_triangle(b.nodes, b.prims, m.v.data(), m.tris(), p, INFINITY, nullptr, &d);
        ASSERT_GE(got, 0);
        EXPECT_NEAR(d, want.distance, 1e-6f * want.distance);
    }
    check_query(m, b, s, cc_v3(0.1f, 0.1f, 0.9f), cc_v3(0.2f, 0.3f, 1.0f));
}

// A ball added to a box query prunes nodes but never a triangle that comes
// within the ball: on a bumpy grid, scaled per axis, every triangle whose
// scaled closest point lies within the radius is returned (each once), and
// the ball returns fewer triangles than the box alone.
TEST(MeshBvhBall, BallQueryKeepsEveryTriangleWithinTheRadius)
{
    const int n = 60;
    std::vector<cc_vec3> v;
    std::vector<int> t;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
            float x = -1.0f + 2.0f * i / n, y = -1.0f + 2.0f * j / n;
            v.push_back(cc_v3(x, y, 0.1f * std::sin(4.0f * x) * std::cos(3.0f * y)));
        }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
            t.insert(t.end(), {a, b, d, a, d, c});
        }
    cc_bvh_node* nodes = nullptr;
    int node_count = 0;
    int* prims = nullptr;
    ASSERT_EQ(cc_mesh_bvh_build(v.data(), t.data(), (int)t.size() / 3, &nodes, &node_count, &prims), CC_OK);
    const cc_vec3 scale = cc_v3(1.5f, 0.5f, 2.0f);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    size_t with_ball = 0, box_only = 0;
    for (int q = 0; q < 200; ++q) {
        cc_vec3 c = cc_v3(1.5f * u(rng), 0.5f * u(rng), 0.3f * u(rng)); // scaled frame
        float r = 0.02f + 0.1f * (u(rng) + 1.0f);
        cc_vec3 lo = cc_v3((c.x - r) / scale.x, (c.y - r) / scale.y, (c.z - r) / scale.z);
        cc_vec3 hi = cc_v3((c.x + r) / scale.x, (c.y + r) / scale.y, (c.z + r) / scale.z);
        std::vector<int> got, plain;
        cc_bvh_query it;
        cc_bvh_query_begin(&it, lo, hi);
        cc_bvh_query_set_ball(&it, c, scale, r);
        for (int k = cc_bvh_query_next(&it, nodes, prims); k >= 0; k = cc_bvh_query_next(&it, nodes, prims)) got.push_back(k);
        cc_bvh_query_begin(&it, lo, hi);
        for (int k = cc_bvh_query_next(&it, nodes, prims); k >= 0; k = cc_bvh_query_next(&it, nodes, prims)) plain.push_back(k);
        with_ball += got.size();
        box_only += plain.size();
        std::sort(got.begin(), got.end());
        EXPECT_TRUE(std::adjacent_find(got.begin(), got.end()) == got.end()) << "a triangle came twice";
        for (size_t k = 0; k < t.size() / 3; ++k) {
            cc_vec3 a = cc_v3_mul(v[(size_t)t[3 * k]], scale), b = cc_v3_mul(v[(size_t)t[3 * k + 1]], scale),
                    cc = cc_v3_mul(v[(size_t)t[3 * k + 2]], scale);
            cc_vec3 p = cc_closest_point_on_triangle(c, a, b, cc);
            if (cc_v3_length(cc_v3_sub(p, c)) <= 0.999f * r) {
                EXPECT_TRUE(std::binary_search(got.begin(), got.end(), (int)k)) << "query " << q << " lost triangle " << k;
            }
        }
    }
    EXPECT_LT(with_ball, box_only);
    cc_host_free(nodes);
    cc_host_free(prims);
}
