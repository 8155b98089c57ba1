// Per-triangle narrow-phase routines for meshes and heightfields
// (kernels/mesh/triangle.h): sphere, ellipsoid and convex shapes
// against one triangle, the duplicate rule for contacts on shared edges and
// vertices, and a mesh vertex against a plane.
//
// Tolerances:
//   - sphere: distance, normal and point within 1e-5 (relative to the
//     scene's size, about 1) of a double-precision closest point;
//   - convex shapes resting on a large triangle: the same contact count,
//     distances within 1e-5 and the same normal as the same shape on the
//     triangle's plane (analytic plane routines / cc_collide_plane_convex);
//   - random poses, closest feature on the triangle's face: distance within
//     1e-4 of the shape's size of the dense reference (convex_reference.h);
//   - duplicates: exactly one kept contact per shared edge or vertex.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "host/geometry/hull_build.h"
#include "kernels/mesh/triangle.h"

#include "tests/support/convex_reference.h"
#include "tests/support/test_hull.h"
#include "tests/support/narrowphase_util.h"

namespace
{

using nptest::kNaN;
using nptest::make_geom;
using nptest::quat_axis_angle;
using nptest::quat_z_to;
using nptest::random_quat;
using nptest::uniform;

const float kPi = 3.14159265358979f;

struct Tri {
    cc_vec3 p[3];
};

cc_vec3 front_of(const Tri& t)
{
    return cc_v3_normalize(cc_v3_cross(cc_v3_sub(t.p[1], t.p[0]), cc_v3_sub(t.p[2], t.p[0])));
}

Tri moved_tri(cc_transform x, const Tri& t)
{
    return Tri{{cc_tf_point(x, t.p[0]), cc_tf_point(x, t.p[1]), cc_tf_point(x, t.p[2])}};
}

cc_geom sphere_at(cc_vec3 c, float r = 0.5f) { return make_geom(c, cc_q_identity(), cc_v3(r, 0, 0)); }

int sphere_tri(cc_vec3 c, const Tri& t, float threshold, cc_manifold* m)
{
    cc_geom s = sphere_at(c);
    m->count = -1;
    return cc_collide_sphere_triangle(&s, t.p[0], t.p[1], t.p[2], threshold, m);
}

int convex_tri(const cc_geom& g, int type, const Tri& t, float threshold, cc_manifold* m)
{
    m->count = -1;
    return cc_collide_convex_triangle(&g, type, t.p[0], t.p[1], t.p[2], threshold, m);
}

// ---------------------------------------------------------------- references

using nptest::dvec;
using nptest::dot;
using nptest::norm;

dvec dcross(dvec a, dvec b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

// Closest point of a (non-degenerate) triangle to x, in double: the plane
// projection when inside, else the nearest point of the three edges.
dvec closest_on_triangle(dvec x, dvec a, dvec b, dvec c)
{
    dvec n = dcross(b - a, c - a);
    double nn = dot(n, n);
    if (nn > 0) {
        dvec q = x - n * (dot(x - a, n) / nn);
        if (dot(dcross(b - a, q - a), n) >= 0 && dot(dcross(c - b, q - b), n) >= 0 &&
            dot(dcross(a - c, q - c), n) >= 0)
            return q;
    }
    dvec best = a;
    double bd = 1e300;
    dvec v[3] = {a, b, c};
    for (int k = 0; k < 3; ++k) {
        dvec p = v[k], d = v[(k + 1) % 3] - p;
        double dd = dot(d, d);
        double t = dd > 0 ? std::min(1.0, std::max(0.0, dot(x - p, d) / dd)) : 0.0;
        dvec y = p + d * t;
        if (norm(x - y) < bd) bd = norm(x - y), best = y;
    }
    return best;
}

// ------------------------------------------------------------- small meshes

// An indexed triangle list plus the neighbourhood flags a caller derives
// from it (cc_triangle_keep_feature): open edges and vertices, flat or
// concave edges.
struct Mesh {
    std::vector<cc_vec3> v;
    std::vector<std::array<int, 3>> t;
    std::vector<unsigned> flags;
    std::vector<std::array<cc_vec3, 3>> across; // neighbour front normal per edge (zero: open)

    Tri tri(int i) const { return Tri{{v[t[i][0]], v[t[i][1]], v[t[i][2]]}}; }

    void compute_flags()
    {
        std::map<std::pair<int, int>, int> edge_owner;
        for (size_t i = 0; i < t.size(); ++i)
            for (int k = 0; k < 3; ++k) edge_owner[{t[i][k], t[i][(k + 1) % 3]}] = (int)i;
        std::vector<bool> boundary(v.size(), false);
        flags.assign(t.size(), 0u);
        across.assign(t.size(), {{cc_v3(0, 0, 0), cc_v3(0, 0, 0), cc_v3(0, 0, 0)}});
        for (size_t i = 0; i < t.size(); ++i) {
            for (int k = 0; k < 3; ++k) {
                int a = t[i][k], b = t[i][(k + 1) % 3];
                auto it = edge_owner.find({b, a});
                if (it == edge_owner.end()) {
                    flags[i] |= CC_TRI_EDGE_OPEN(k);
                    boundary[a] = boundary[b] = true;
                    continue;
                }
                // The neighbour's third vertex on or above this triangle's
                // plane: the surface continues flat or folds concavely.
                const std::array<int, 3>& o = t[it->second];
                across[i][k] = front_of(tri(it->second));
                int w = o[0] != a && o[0] != b ? o[0] : (o[1] != a && o[1] != b ? o[1] : o[2]);
                Tri me = tri((int)i);
                cc_vec3 n = front_of(me);
                double h = cc_v3_dot(n, cc_v3_sub(v[w], v[a]));
                double len = cc_v3_length(cc_v3_sub(v[w], v[a]));
                if (h >= -1e-4 * len) flags[i] |= CC_TRI_EDGE_FLAT(k);
            }
        }
        for (size_t i = 0; i < t.size(); ++i)
            for (int k = 0; k < 3; ++k)
                if (boundary[t[i][k]]) flags[i] |= CC_TRI_VERTEX_OPEN(k);
    }

    void move(cc_transform x)
    {
        for (cc_vec3& p : v) p = cc_tf_point(x, p); // each shared vertex once
        for (auto& a : across)
            for (cc_vec3& n : a) n = cc_tf_vector(x, n);
    }
};

struct Kept {
    cc_manifold m;
    int feature;
    int triangle;
};

// How the caller describes the neighbourhood to the keep rule.
enum Neighbours { kBare = 0, kFlags = 1, kAcross = 2 };

int keep(const Mesh& mesh, int i, int feature, cc_vec3 ref, const cc_manifold& m, int mode)
{
    Tri t = mesh.tri(i);
    if (mode == kAcross)
        return cc_triangle_keep_feature_across(feature, t.p[0], t.p[1], t.p[2], ref, m.normal,
                                               mesh.flags[i] & (CC_TRI_VERTEX_OPEN(0) | CC_TRI_VERTEX_OPEN(1) |
                                                                CC_TRI_VERTEX_OPEN(2)),
                                               mesh.across[i].data());
    return cc_triangle_keep_feature(feature, t.p[0], t.p[1], t.p[2], ref, mode == kFlags ? mesh.flags[i] : 0u);
}

// Runs the sphere on every triangle; returns the kept contacts.
std::vector<Kept> sphere_on_mesh(const Mesh& mesh, cc_vec3 c, float threshold, int mode,
                                 std::vector<Kept>* raw = nullptr)
{
    std::vector<Kept> kept;
    for (size_t i = 0; i < mesh.t.size(); ++i) {
        Tri t = mesh.tri((int)i);
        cc_manifold m;
        int f = sphere_tri(c, t, threshold, &m);
        if (f < 0) continue;
        EXPECT_EQ(m.count, 1);
        if (raw) raw->push_back({m, f, (int)i});
        if (keep(mesh, (int)i, f, c, m, mode)) kept.push_back({m, f, (int)i});
    }
    return kept;
}

std::string describe(const std::vector<Kept>& raw, const Mesh& mesh)
{
    std::string out;
    char buf[160];
    for (const Kept& k : raw) {
        snprintf(buf, sizeof buf, "\n  triangle %d feature %d flags 0x%x distance %.9g normal %.6f %.6f %.6f",
                 k.triangle, k.feature, mesh.flags[k.triangle], k.m.distance[0], k.m.normal.x, k.m.normal.y,
                 k.m.normal.z);
        out += buf;
    }
    return out;
}

// Square [0,1]^2 split along its diagonal (0,0)-(1,1).
Mesh square_mesh()
{
    Mesh m;
    m.v = {cc_v3(0, 0, 0), cc_v3(1, 0, 0), cc_v3(1, 1, 0), cc_v3(0, 1, 0)};
    m.t = {{{0, 1, 2}}, {{0, 2, 3}}};
    m.compute_flags();
    return m;
}

// Fan of six triangles around vertex 0 at the origin, ring of radius 1 at
// slightly irregular angles, ring heights `ring_z`.
Mesh fan_mesh(std::mt19937& rng, float ring_z)
{
    Mesh m;
    m.v.push_back(cc_v3(0, 0, 0));
    for (int i = 0; i < 6; ++i) {
        float a = (float)i * kPi / 3.0f + uniform(rng, -0.15f, 0.15f);
        m.v.push_back(cc_v3(std::cos(a), std::sin(a), ring_z * uniform(rng, 0.8f, 1.2f)));
    }
    for (int i = 0; i < 6; ++i) m.t.push_back({{0, 1 + i, 1 + (i + 1) % 6}});
    m.compute_flags();
    return m;
}

// Heightfield of (n+1) x (n+1) samples over [0, n]^2, two triangles per
// cell split along the (0,0)-(1,1) diagonal, as the mesh data describes.
Mesh heightfield_mesh(int n, float (*height)(float, float))
{
    Mesh m;
    for (int r = 0; r <= n; ++r)
        for (int c = 0; c <= n; ++c) m.v.push_back(cc_v3((float)c, (float)r, height((float)c, (float)r)));
    auto id = [n](int r, int c) { return r * (n + 1) + c; };
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            m.t.push_back({{id(r, c), id(r, c + 1), id(r + 1, c + 1)}});
            m.t.push_back({{id(r, c), id(r + 1, c + 1), id(r + 1, c)}});
        }
    m.compute_flags();
    return m;
}

float flat_height(float x, float y) { return 0.13f * x - 0.07f * y + 0.25f; }
float rolling_height(float x, float y) { return 0.3f * std::sin(1.3f * x) * std::cos(0.9f * y) + 0.05f * x; }

// ---------------------------------------------------------------- sphere

TEST(SphereTriangle, FaceEdgeVertexExact)
{
    const Tri base{{cc_v3(0, 0, 0), cc_v3(2, 0, 0), cc_v3(0, 2, 0)}};
    struct Case {
        cc_vec3 c;
        int feature;
    };
    const Case cases[] = {
        {cc_v3(0.5f, 0.5f, 0.7f), CC_TRI_FACE},
        {cc_v3(1.0f, -0.3f, 0.4f), CC_TRI_EDGE0 | CC_TRI_OUTSIDE},
        {cc_v3(1.5f, 1.5f, 0.2f), (CC_TRI_EDGE0 + 1) | CC_TRI_OUTSIDE},
        {cc_v3(-0.25f, 0.8f, 0.3f), (CC_TRI_EDGE0 + 2) | CC_TRI_OUTSIDE},
        {cc_v3(-0.3f, -0.4f, 1.2f), CC_TRI_VERTEX0 | CC_TRI_OUTSIDE},
        {cc_v3(2.5f, -0.1f, 0.3f), (CC_TRI_VERTEX0 + 1) | CC_TRI_OUTSIDE},
        {cc_v3(-0.2f, 2.4f, 0.1f), (CC_TRI_VERTEX0 + 2) | CC_TRI_OUTSIDE},
        // In the plane (on the face, beside an edge): only unmoved, since a
        // moved centre lies on either side of the plane by rounding.
        {cc_v3(0.5f, 0.5f, 0.0f), CC_TRI_FACE},
        {cc_v3(1.0f, -0.5f, 0.0f), CC_TRI_EDGE0 | CC_TRI_OUTSIDE},
    };
    std::mt19937 rng(1);
    for (int trial = 0; trial < 50; ++trial) {
        cc_transform x = trial == 0 ? cc_tf_identity() : nptest::random_motion(rng);
        Tri t = moved_tri(x, base);
        for (const Case& k : cases) {
            if (trial > 0 && k.c.z == 0.0f) continue;
            cc_vec3 c = cc_tf_point(x, k.c);
            dvec q = closest_on_triangle(nptest::dv(c), nptest::dv(t.p[0]), nptest::dv(t.p[1]), nptest::dv(t.p[2]));
            double dist = norm(q - nptest::dv(c));
            cc_manifold m;
            int f = sphere_tri(c, t, 10.0f, &m);
            SCOPED_TRACE(testing::Message() << "trial " << trial << " centre " << k.c.x << " " << k.c.y << " " << k.c.z);
            ASSERT_EQ(m.count, 1);
            EXPECT_EQ(f, k.feature);
            EXPECT_NEAR(m.distance[0], dist, 1e-5);
            cc_vec3 expect_n = dist > 1e-6 ? cc_v3((float)((q.x - c.x) / dist), (float)((q.y - c.y) / dist),
                                                   (float)((q.z - c.z) / dist))
                                           : cc_v3_neg(front_of(t));
            EXPECT_VEC_NEAR(m.normal, expect_n, 1e-5f);
            cc_vec3 mid = cc_v3((float)(0.5 * (q.x + c.x)), (float)(0.5 * (q.y + c.y)), (float)(0.5 * (q.z + c.z)));
            EXPECT_VEC_NEAR(m.point[0], mid, 1e-5f);
            // The core points: A's is the centre, B's the closest point.
            EXPECT_VEC_NEAR(nptest::core_a(m, 0), c, 1e-5f);
        }
    }
}

TEST(SphereTriangle, RandomTrianglesMatchDoubleReference)
{
    std::mt19937 rng(2);
    int checked = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        Tri t{{nptest::random_vec(rng, -1, 1), nptest::random_vec(rng, -1, 1), nptest::random_vec(rng, -1, 1)}};
        cc_vec3 n = front_of(t);
        if (cc_v3_length(cc_v3_cross(cc_v3_sub(t.p[1], t.p[0]), cc_v3_sub(t.p[2], t.p[0]))) < 1e-2f) continue;
        cc_vec3 c = nptest::random_vec(rng, -1.5f, 1.5f);
        float h = cc_v3_dot(n, cc_v3_sub(c, t.p[0]));
        cc_manifold m;
        int f = sphere_tri(c, t, 10.0f, &m);
        if (h < 0) {
            EXPECT_EQ(m.count, 0) << "behind the plane: culled";
            EXPECT_EQ(f, CC_TRI_NONE);
            continue;
        }
        ASSERT_EQ(m.count, 1);
        dvec q = closest_on_triangle(nptest::dv(c), nptest::dv(t.p[0]), nptest::dv(t.p[1]), nptest::dv(t.p[2]));
        double dist = norm(q - nptest::dv(c));
        EXPECT_NEAR(m.distance[0], dist, 1e-5);
        EXPECT_LE(nptest::dist3(nptest::core_b(m, 0), cc_v3((float)q.x, (float)q.y, (float)q.z)), 2e-5f);
        EXPECT_NEAR(cc_v3_length(m.normal), 1.0f, 1e-5f);
        EXPECT_LE(cc_v3_dot(m.normal, n), 1e-6f) << "the normal faces the front";
        ++checked;
    }
    EXPECT_GT(checked, 5000);
}

TEST(SphereTriangle, BehindAndBeyondThresholdGiveNothing)
{
    const Tri t{{cc_v3(0, 0, 0), cc_v3(2, 0, 0), cc_v3(0, 2, 0)}};
    cc_manifold m;
    EXPECT_EQ(sphere_tri(cc_v3(0.5f, 0.5f, -0.01f), t, 10.0f, &m), CC_TRI_NONE);
    EXPECT_EQ(m.count, 0);
    // Behind and beside: the closest point would be an edge, still culled.
    EXPECT_EQ(sphere_tri(cc_v3(-0.2f, 0.5f, -0.05f), t, 10.0f, &m), CC_TRI_NONE);
    EXPECT_EQ(m.count, 0);
    // Threshold: exact at the distance.
    EXPECT_GE(sphere_tri(cc_v3(0.5f, 0.5f, 0.7f), t, 0.7f, &m), 0);
    EXPECT_EQ(m.count, 1);
    EXPECT_EQ(sphere_tri(cc_v3(0.5f, 0.5f, 0.7f), t, std::nextafter(0.7f, 0.0f), &m), CC_TRI_NONE);
    EXPECT_EQ(m.count, 0);
    // Edge contact farther than the threshold although the plane is close.
    EXPECT_EQ(sphere_tri(cc_v3(-0.5f, 0.5f, 0.1f), t, 0.4f, &m), CC_TRI_NONE);
    EXPECT_EQ(m.count, 0);
    EXPECT_GE(sphere_tri(cc_v3(-0.5f, 0.5f, 0.1f), t, 0.6f, &m), 0);
    EXPECT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], std::sqrt(0.26f), 1e-6f);
}

// ------------------------------------------------------------ duplicates

// The kept contact is the mesh's closest point to c (double reference from
// the float inputs). Far from the origin the rounded vertices fold the
// "coplanar" triangles by up to about 1e-4 rad, and the kept contact may be
// the owner's face or edge contact rather than the closest of them: its
// normal then differs by up to that fold.
void expect_closest(const Kept& k, const Mesh& mesh, cc_vec3 c)
{
    float far = std::max(std::fabs(c.x), std::max(std::fabs(c.y), std::fabs(c.z))) > 100.0f ? 1.0f : 0.0f;
    double best = 1e300;
    dvec bq{0, 0, 0};
    for (size_t i = 0; i < mesh.t.size(); ++i) {
        Tri t = mesh.tri((int)i);
        dvec q = closest_on_triangle(nptest::dv(c), nptest::dv(t.p[0]), nptest::dv(t.p[1]), nptest::dv(t.p[2]));
        if (norm(q - nptest::dv(c)) < best) best = norm(q - nptest::dv(c)), bq = q;
    }
    EXPECT_NEAR(k.m.distance[0], best, 1e-5);
    dvec d = (bq - nptest::dv(c)) * (1.0 / best);
    EXPECT_VEC_NEAR(k.m.normal, cc_v3((float)d.x, (float)d.y, (float)d.z), 1e-4f + far * 1e-3f);
}

TEST(TriangleDuplicates, SphereOnSharedEdgeOfCoplanarPairKeepsOne)
{
    std::mt19937 rng(3);
    for (int trial = 0; trial < 500; ++trial) {
        Mesh mesh = square_mesh();
        cc_transform x = trial == 0 ? cc_tf_identity() : nptest::random_motion(rng);
        if (trial % 5 == 1) x.p = cc_v3_add(x.p, cc_v3(500, -300, 800)); // far from the origin
        mesh.move(x);
        float s = uniform(rng, 0.05f, 0.95f), h = uniform(rng, 0.05f, 1.0f);
        cc_vec3 c = cc_tf_point(x, cc_v3(s, s, h));
        for (int use_flags = kBare; use_flags <= kAcross; ++use_flags) {
            std::vector<Kept> raw;
            std::vector<Kept> kept = sphere_on_mesh(mesh, c, h + 0.5f, use_flags, &raw);
            ASSERT_EQ(raw.size(), 2u) << "both triangles touch the sphere";
            ASSERT_EQ(kept.size(), 1u) << "trial " << trial << " flags " << use_flags << " features "
                                       << raw[0].feature << " " << raw[1].feature;
            expect_closest(kept[0], mesh, c);
        }
    }
}

TEST(TriangleDuplicates, SphereNearSharedEdgeOfFlatPairKeepsOneWithFlags)
{
    // Beside the diagonal, one triangle has the face contact and the other
    // a tilted contact on the diagonal; a flat edge drops the tilted one.
    std::mt19937 rng(4);
    for (int trial = 0; trial < 500; ++trial) {
        Mesh mesh = square_mesh();
        cc_transform x = nptest::random_motion(rng);
        mesh.move(x);
        float s = uniform(rng, 0.2f, 0.8f), h = uniform(rng, 0.05f, 1.0f);
        float off = uniform(rng, -0.15f, 0.15f);
        cc_vec3 c = cc_tf_point(x, cc_v3(s + off, s - off, h));
        for (int mode : {kFlags, kAcross}) {
            std::vector<Kept> kept = sphere_on_mesh(mesh, c, h + 1.0f, mode);
            ASSERT_EQ(kept.size(), 1u) << "trial " << trial << " offset " << off << " mode " << mode;
            EXPECT_NEAR(kept[0].m.distance[0], h, 1e-5f);
            EXPECT_VEC_NEAR(kept[0].m.normal, cc_tf_vector(x, cc_v3(0, 0, -1)), 1e-4f);
        }
    }
}

TEST(TriangleDuplicates, SphereOnSharedVertexOfFanKeepsOne)
{
    std::mt19937 rng(5);
    for (int trial = 0; trial < 500; ++trial) {
        Mesh mesh = fan_mesh(rng, 0.0f);
        cc_transform x = trial == 0 ? cc_tf_identity() : nptest::random_motion(rng);
        if (trial % 5 == 1) x.p = cc_v3_add(x.p, cc_v3(-700, 200, 400)); // far from the origin
        mesh.move(x);
        float h = uniform(rng, 0.05f, 1.0f);
        // Exactly above the vertex, or within rounding of it.
        cc_vec3 jitter = trial % 2 ? nptest::random_vec(rng, -1e-6f, 1e-6f) : cc_v3(0, 0, 0);
        cc_vec3 c = cc_tf_point(x, cc_v3_add(cc_v3(0, 0, h), jitter));
        for (int use_flags = kBare; use_flags <= kAcross; ++use_flags) {
            std::vector<Kept> raw;
            std::vector<Kept> kept = sphere_on_mesh(mesh, c, h + 0.5f, use_flags, &raw);
            ASSERT_EQ(raw.size(), 6u);
            ASSERT_EQ(kept.size(), 1u) << "trial " << trial << " flags " << use_flags;
            expect_closest(kept[0], mesh, c);
        }
    }
}

TEST(TriangleDuplicates, SphereAnywhereOverFlatFanKeepsOneWithFlags)
{
    std::mt19937 rng(6);
    for (int trial = 0; trial < 2000; ++trial) {
        Mesh mesh = fan_mesh(rng, 0.0f);
        cc_transform x = nptest::random_motion(rng);
        mesh.move(x);
        float h = uniform(rng, 0.05f, 1.0f), r = uniform(rng, 0.0f, 0.7f), a = uniform(rng, 0.0f, 2 * kPi);
        if (trial % 4 == 0) r *= 1e-4f; // next to the shared vertex
        cc_vec3 c = cc_tf_point(x, cc_v3(r * std::cos(a), r * std::sin(a), h));
        for (int mode : {kFlags, kAcross}) {
            std::vector<Kept> raw;
            std::vector<Kept> kept = sphere_on_mesh(mesh, c, h + 1.0f, mode, &raw);
            ASSERT_EQ(kept.size(), 1u) << "trial " << trial << " r " << r << " mode " << mode << describe(raw, mesh);
            EXPECT_NEAR(kept[0].m.distance[0], h, 2e-5f);
        }
    }
}

TEST(TriangleDuplicates, SphereOnPeakVertexKeepsOne)
{
    // A convex vertex (the ring below it): every triangle's closest point
    // is the vertex, a genuine vertex contact.
    std::mt19937 rng(7);
    for (int trial = 0; trial < 500; ++trial) {
        Mesh mesh = fan_mesh(rng, -0.4f);
        cc_transform x = nptest::random_motion(rng);
        mesh.move(x);
        float h = uniform(rng, 0.05f, 1.0f);
        cc_vec3 dir = cc_v3_normalize(cc_v3(uniform(rng, -0.2f, 0.2f), uniform(rng, -0.2f, 0.2f), 1.0f));
        cc_vec3 c = cc_tf_point(x, cc_v3_scale(dir, h));
        std::vector<Kept> raw;
        std::vector<Kept> kept = sphere_on_mesh(mesh, c, h + 0.01f, false, &raw);
        ASSERT_EQ(raw.size(), 6u);
        for (const Kept& k : raw) EXPECT_EQ(k.feature & CC_TRI_KIND_MASK, CC_TRI_VERTEX0);
        ASSERT_EQ(kept.size(), 1u) << "trial " << trial;
        EXPECT_NEAR(kept[0].m.distance[0], h, 2e-5f);
        EXPECT_VEC_NEAR(kept[0].m.normal, cc_tf_vector(x, cc_v3_neg(dir)), 1e-4f);
    }
}

TEST(TriangleDuplicates, SphereOnConvexRidgeKeepsOne)
{
    // A roof: ridge along y at x = 0, slopes down to x = -1 and x = 1.
    // Long along y, so that the sphere stays far from the open ends.
    Mesh roof;
    roof.v = {cc_v3(0, -4, 0), cc_v3(0, 4, 0), cc_v3(1, -4, -0.5f), cc_v3(1, 4, -0.5f), cc_v3(-1, -4, -0.5f),
              cc_v3(-1, 4, -0.5f)};
    roof.t = {{{0, 2, 3}}, {{0, 3, 1}}, {{0, 1, 5}}, {{0, 5, 4}}};
    roof.compute_flags();
    std::mt19937 rng(8);
    for (int trial = 0; trial < 500; ++trial) {
        Mesh mesh = roof;
        cc_transform x = nptest::random_motion(rng);
        mesh.move(x);
        // Inside the wedge above the ridge: tilt below the slope angle.
        float y = uniform(rng, -1.0f, 1.0f), h = uniform(rng, 0.05f, 1.0f), tilt = uniform(rng, -0.4f, 0.4f);
        cc_vec3 d = cc_v3_normalize(cc_v3(tilt, 0, 1));
        cc_vec3 c = cc_tf_point(x, cc_v3_madd(cc_v3(0, y, 0), d, h));
        for (int use_flags = kBare; use_flags <= kAcross; ++use_flags) {
            std::vector<Kept> raw;
            // Threshold just above h: the slopes' far triangles stay out.
            std::vector<Kept> kept = sphere_on_mesh(mesh, c, h * 1.001f, use_flags, &raw);
            ASSERT_EQ(raw.size(), 2u) << "trial " << trial;
            ASSERT_EQ(kept.size(), 1u) << "trial " << trial;
            EXPECT_NEAR(kept[0].m.distance[0], h, 2e-5f);
            EXPECT_VEC_NEAR(kept[0].m.normal, cc_tf_vector(x, cc_v3_neg(d)), 1e-4f);
        }
        // With flags the far triangles' tilted contacts go too, whatever the threshold.
        for (int mode : {kFlags, kAcross}) {
            std::vector<Kept> raw;
            std::vector<Kept> kept = sphere_on_mesh(mesh, c, h + 2.0f, mode, &raw);
            ASSERT_EQ(kept.size(), 1u) << "trial " << trial << " mode " << mode << describe(raw, mesh);
        }
    }
}

TEST(TriangleDuplicates, SphereInConcaveFoldGetsOnePerFace)
{
    // Floor (z = 0, x > 0) and wall (x = 0, facing +x) sharing the fold line.
    Mesh fold;
    fold.v = {cc_v3(0, 0, 0), cc_v3(0, 2, 0), cc_v3(2, 1, 0), cc_v3(0, 1, 2)};
    fold.t = {{{0, 2, 1}}, {{0, 1, 3}}};
    fold.compute_flags();
    EXPECT_TRUE(fold.flags[0] & CC_TRI_EDGE_FLAT(2)) << "the fold is concave";
    std::mt19937 rng(9);
    for (int trial = 0; trial < 300; ++trial) {
        Mesh mesh = fold;
        cc_transform x = trial == 0 ? cc_tf_identity() : nptest::random_motion(rng);
        mesh.move(x);
        float r = uniform(rng, 0.2f, 0.5f), y = uniform(rng, 0.8f, 1.2f);
        cc_vec3 c = cc_tf_point(x, cc_v3(r, y, r));
        for (int use_flags = kBare; use_flags <= kAcross; ++use_flags) {
            std::vector<Kept> kept = sphere_on_mesh(mesh, c, r + 0.01f, use_flags);
            ASSERT_EQ(kept.size(), 2u) << "trial " << trial;
            std::sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) { return a.triangle < b.triangle; });
            EXPECT_NEAR(kept[0].m.distance[0], r, 2e-5f);
            EXPECT_NEAR(kept[1].m.distance[0], r, 2e-5f);
            EXPECT_VEC_NEAR(kept[0].m.normal, cc_tf_vector(x, cc_v3(0, 0, -1)), 1e-4f);
            EXPECT_VEC_NEAR(kept[1].m.normal, cc_tf_vector(x, cc_v3(-1, 0, 0)), 1e-4f);
        }
    }
}

TEST(TriangleDuplicates, SphereOnHeightfieldCellDiagonalKeepsOne)
{
    Mesh field = heightfield_mesh(3, flat_height);
    std::mt19937 rng(10);
    cc_vec3 n = front_of(field.tri(0));
    for (int trial = 0; trial < 1000; ++trial) {
        // On a diagonal of one of the nine cells, exactly (the centre along
        // the normal from a point of the diagonal).
        int r = trial % 3, c0 = (trial / 3) % 3;
        // Without flags, away from the cell's corners (near a corner, the
        // neighbour cells' tilted contacts on their shared vertex join).
        float s = uniform(rng, 0.1f, 0.9f), h = uniform(rng, 0.05f, 0.8f);
        cc_vec3 on = cc_v3((float)c0 + s, (float)r + s, 0);
        on.z = flat_height(on.x, on.y);
        cc_vec3 c = cc_v3_madd(on, n, h);
        for (int use_flags = kBare; use_flags <= kAcross; ++use_flags) {
            std::vector<Kept> raw;
            std::vector<Kept> kept = sphere_on_mesh(field, c, h + 0.001f, use_flags, &raw);
            ASSERT_EQ(kept.size(), 1u) << "trial " << trial << " s " << s << " flags " << use_flags
                                       << describe(raw, field);
            EXPECT_NEAR(kept[0].m.distance[0], h, 2e-5f);
        }
        // Anywhere over the field, with a generous threshold: one with flags.
        cc_vec3 any = cc_v3(uniform(rng, 0.2f, 2.8f), uniform(rng, 0.2f, 2.8f), 0);
        any.z = flat_height(any.x, any.y);
        for (int mode : {kFlags, kAcross}) {
            std::vector<Kept> raw;
            std::vector<Kept> kept = sphere_on_mesh(field, cc_v3_madd(any, n, h), h + 1.0f, mode, &raw);
            ASSERT_EQ(kept.size(), 1u) << "trial " << trial << " mode " << mode << describe(raw, field);
            EXPECT_NEAR(kept[0].m.distance[0], h, 2e-5f);
        }
    }
}

// Distance from x to triangle t (double).
double point_triangle_distance(cc_vec3 x, const Tri& t)
{
    dvec q = closest_on_triangle(nptest::dv(x), nptest::dv(t.p[0]), nptest::dv(t.p[1]), nptest::dv(t.p[2]));
    return norm(q - nptest::dv(x));
}

TEST(TriangleDuplicates, RollingHeightfieldKeepsLocalMinimaOnce)
{
    // Curved terrain, neighbours' normals known: the kept contacts include
    // the closest one; each kept contact is a local minimum (no triangle
    // through its point reports a closer one); no two kept contacts are the
    // same. Edges and vertices with several triangles are all exercised.
    Mesh field = heightfield_mesh(6, rolling_height);
    std::mt19937 rng(11);
    int multiple = 0, counted = 0, spurious_vertex = 0, spurious_near = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        cc_vec3 p = cc_v3(uniform(rng, 1.0f, 5.0f), uniform(rng, 1.0f, 5.0f), 0);
        p.z = rolling_height(p.x, p.y) + uniform(rng, 0.1f, 0.6f);
        std::vector<Kept> raw;
        std::vector<Kept> kept = sphere_on_mesh(field, p, 0.7f, kAcross, &raw);
        if (raw.empty()) continue;
        ++counted;
        float best_raw = 1e30f, best_kept = 1e30f;
        for (const Kept& k : raw) best_raw = std::min(best_raw, k.m.distance[0]);
        for (const Kept& k : kept) best_kept = std::min(best_kept, k.m.distance[0]);
        EXPECT_NEAR(best_kept, best_raw, 1e-6f) << "trial " << trial << describe(raw, field);
        for (const Kept& k : kept) {
            cc_vec3 q = nptest::core_b(k.m, 0);
            bool local_min = true;
            for (const Kept& r : raw)
                if (point_triangle_distance(q, field.tri(r.triangle)) < 1e-5)
                    local_min = local_min && r.m.distance[0] >= k.m.distance[0] - 1e-5f;
            // Face and edge contacts exactly; a tilted vertex contact can
            // hide behind a fan triangle that is no neighbour across its
            // edges (counted, not asserted).
            if ((k.feature & CC_TRI_KIND_MASK) >= CC_TRI_VERTEX0) {
                spurious_vertex += !local_min;
                spurious_near += !local_min && k.m.distance[0] <= best_raw + 0.02f;
            }
            else
                EXPECT_TRUE(local_min) << "trial " << trial << ": kept contact of triangle " << k.triangle
                                       << " is not a local minimum" << describe(raw, field);
        }
        for (size_t i = 0; i < kept.size(); ++i)
            for (size_t j = i + 1; j < kept.size(); ++j) {
                bool same = nptest::dist3(kept[i].m.point[0], kept[j].m.point[0]) < 1e-3f &&
                            nptest::dist3(kept[i].m.normal, kept[j].m.normal) < 1e-2f;
                EXPECT_FALSE(same) << "trial " << trial << " triangles " << kept[i].triangle << " "
                                   << kept[j].triangle << describe(raw, field);
            }
        multiple += kept.size() > 1;
    }
    std::printf("rolling heightfield: %d of %d spheres keep several contacts; %d tilted vertex contacts are "
                "not local minima, %d of them within 0.02 of the closest\n",
                multiple, counted, spurious_vertex, spurious_near);
}

TEST(TriangleDuplicates, KeepRuleBasics)
{
    cc_vec3 a = cc_v3(0, 0, 0), b = cc_v3(1, 0, 0), c = cc_v3(0, 1, 0), ref = cc_v3(0.2f, 0.2f, 1);
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_NONE, a, b, c, ref, 0u), 0);
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_FACE, a, b, c, ref, 0u), 1);
    // Edge 0 runs a -> b, a <lex b: owned; the neighbour runs b -> a.
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_EDGE0, a, b, c, ref, 0u), 1);
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_EDGE0, b, a, cc_v3(1, -1, 0), ref, 0u), 0);
    // Open edges keep; flat edges drop tilted contacts only.
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_EDGE0, b, a, cc_v3(1, -1, 0), ref, CC_TRI_EDGE_OPEN(0)), 1);
    cc_vec3 tilted = cc_v3_normalize(cc_v3(0, 0.5f, -1)); // normal of A beyond edge 0 (y < 0)
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_EDGE0 | CC_TRI_OUTSIDE, a, b, c, ref, CC_TRI_EDGE_FLAT(0)), 0);
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_EDGE0, a, b, c, ref, CC_TRI_EDGE_FLAT(0)), 1);
    // Vertex 0 (edges 0 and 2): both flat drops a tilted contact; an open
    // edge that the tilt crosses keeps it; one it does not cross covers.
    cc_vec3 beyond_both = cc_v3(-0.4f, -0.4f, 1); // A's reference point
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_VERTEX0 | CC_TRI_OUTSIDE, a, b, c, beyond_both,
                                       CC_TRI_EDGE_FLAT(0) | CC_TRI_EDGE_FLAT(2)),
              0);
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_VERTEX0 | CC_TRI_OUTSIDE, a, b, c, beyond_both,
                                       CC_TRI_EDGE_OPEN(0) | CC_TRI_EDGE_FLAT(2)),
              1);
    cc_vec3 beyond_2 = cc_v3(-0.4f, 0.1f, 1); // beyond edge 2 (x < 0) only
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_VERTEX0 | CC_TRI_OUTSIDE, a, b, c, beyond_2,
                                       CC_TRI_EDGE_OPEN(0) | CC_TRI_EDGE_FLAT(2)),
              0);
    EXPECT_EQ(cc_triangle_keep_feature(CC_TRI_VERTEX0, a, b, c, ref, CC_TRI_VERTEX_OPEN(0)), 1);
    // Across: a coplanar neighbour drops a tilted edge contact, a ridge
    // neighbour keeps it within its wedge.
    cc_vec3 flat[3] = {cc_v3(0, 0, 1), cc_v3(0, 0, 1), cc_v3(0, 0, 1)};
    EXPECT_EQ(cc_triangle_keep_feature_across(CC_TRI_EDGE0 | CC_TRI_OUTSIDE, a, b, c, ref, tilted, 0u, flat), 0);
    cc_vec3 ridge[3] = {cc_v3_normalize(cc_v3(0, -1, 1)), cc_v3(0, 0, 1), cc_v3(0, 0, 1)};
    EXPECT_EQ(cc_triangle_keep_feature_across(CC_TRI_EDGE0 | CC_TRI_OUTSIDE, a, b, c, ref, tilted, 0u, ridge), 1);
    cc_vec3 steep = cc_v3_normalize(cc_v3(0, 1.2f, -1)); // tilted past the neighbour's normal
    EXPECT_EQ(cc_triangle_keep_feature_across(CC_TRI_EDGE0 | CC_TRI_OUTSIDE, a, b, c, ref, steep, 0u, ridge), 0);
}

// --------------------------------------------------------- convex shapes

const TestHull* make_test_hull(const std::vector<cc_vec3>& pts) { return build_test_hull(pts, 64, "test hull"); }

const TestHull* cube_hull()
{
    static const TestHull* h = [] {
        std::vector<cc_vec3> p;
        for (int i = 0; i < 8; ++i) p.push_back(cc_v3(i & 1 ? 1.f : -1.f, i & 2 ? 1.f : -1.f, i & 4 ? 1.f : -1.f));
        return make_test_hull(p);
    }();
    return h;
}

const TestHull* random_hull()
{
    static const TestHull* h = [] {
        std::mt19937 rng(77);
        std::normal_distribution<float> g(0.0f, 1.0f);
        std::vector<cc_vec3> p;
        for (int i = 0; i < 20; ++i) p.push_back(cc_v3_normalize(cc_v3(g(rng), g(rng), g(rng))));
        return make_test_hull(p);
    }();
    return h;
}

struct Shape {
    int type;
    cc_geom g;
    const TestHull* hull = nullptr;
};

Shape make_shape(int type, cc_vec3 size, cc_vec3 p, cc_quat q, const TestHull* hull = nullptr)
{
    Shape s;
    s.type = type;
    s.g = make_geom(p, q, size);
    s.g.hull = hull ? hull->ref : cc_hull_ref{};
    s.hull = hull;
    return s;
}

convref::V rv(cc_vec3 v) { return convref::v3(v.x, v.y, v.z); }

convref::Shape ref_shape(const Shape& s)
{
    const cc_transform& x = s.g.xf;
    convref::Pose p = convref::pose_from_quat(x.q.x, x.q.y, x.q.z, x.q.w, rv(x.p));
    cc_vec3 z = s.g.size;
    switch (s.type) {
    case CC_SHAPE_CAPSULE: return convref::make_shape(convref::SEGMENT, p, convref::v3(0, z.y, 0));
    case CC_SHAPE_BOX: return convref::make_shape(convref::BOX, p, rv(z));
    case CC_SHAPE_CYLINDER: return convref::make_shape(convref::CYLINDER, p, convref::v3(z.x, z.y, 0));
    case CC_SHAPE_CONE: return convref::make_shape(convref::CONE, p, convref::v3(z.x, z.y, 0));
    case CC_SHAPE_ELLIPSOID: return convref::make_shape(convref::ELLIPSOID, p, rv(z));
    default: return convref::make_hull(p, s.hull->vertices, rv(z));
    }
}

convref::Shape ref_triangle(const Tri& t)
{
    convref::Pose p = convref::pose_from_quat(0, 0, 0, 1, convref::v3(0, 0, 0));
    return convref::make_hull(p, {rv(t.p[0]), rv(t.p[1]), rv(t.p[2])}, convref::v3(1, 1, 1));
}

double shape_size(const Shape& s)
{
    cc_convex c = cc_convex_of(&s.g, s.type, cc_v3(0, 0, 0));
    return c.extent;
}

// The same shape against the triangle's (infinite) plane.
cc_manifold on_plane(const Shape& s, const Tri& t, float threshold)
{
    cc_geom plane = make_geom(t.p[0], quat_z_to(front_of(t)), cc_v3(0, 0, 0));
    cc_manifold m;
    switch (s.type) {
    case CC_SHAPE_CAPSULE: cc_collide_plane_capsule(&plane, &s.g, threshold, &m); break;
    case CC_SHAPE_BOX: cc_collide_plane_box(&plane, &s.g, threshold, &m); break;
    default: cc_collide_plane_convex(&plane, &s.g, s.type, threshold, &m); break;
    }
    return m;
}

std::vector<float> sorted_distances(const cc_manifold& m)
{
    std::vector<float> d(m.distance, m.distance + m.count);
    std::sort(d.begin(), d.end());
    return d;
}

const char* type_name(int t) { return cc_shape_type_name((cc_shape_type)t); }

// Shapes resting (flat) on the plane z = 0 at core distance `gap` (a
// capsule: its radius plus `gap`), footprint around (x, y).
Shape resting_shape(int type, float x, float y, float yaw, float gap)
{
    cc_quat q = quat_axis_angle(cc_v3(0, 0, 1), yaw);
    switch (type) {
    case CC_SHAPE_CAPSULE: // lying flat: segment along local z turned horizontal
        return make_shape(type, cc_v3(0.2f, 0.4f, 0), cc_v3(x, y, 0.2f + gap),
                          cc_q_mul(q, quat_axis_angle(cc_v3(0, 1, 0), 0.5f * kPi)));
    case CC_SHAPE_BOX: return make_shape(type, cc_v3(0.4f, 0.3f, 0.2f), cc_v3(x, y, 0.2f + gap), q);
    case CC_SHAPE_CYLINDER: return make_shape(type, cc_v3(0.3f, 0.25f, 0), cc_v3(x, y, 0.25f + gap), q);
    case CC_SHAPE_CONE: return make_shape(type, cc_v3(0.3f, 0.25f, 0), cc_v3(x, y, 0.25f + gap), q);
    case CC_SHAPE_ELLIPSOID: return make_shape(type, cc_v3(0.4f, 0.3f, 0.2f), cc_v3(x, y, 0.2f + gap), q);
    default: return make_shape(type, cc_v3(0.35f, 0.3f, 0.25f), cc_v3(x, y, 0.25f + gap), q, cube_hull());
    }
}

const int kConvexTypes[] = {CC_SHAPE_CAPSULE, CC_SHAPE_BOX,       CC_SHAPE_CYLINDER,
                            CC_SHAPE_CONE,    CC_SHAPE_ELLIPSOID, CC_SHAPE_CONVEX_HULL};

TEST(ConvexTriangle, RestingOnLargeTriangleMatchesPlane)
{
    const Tri base{{cc_v3(-6, -5, 0), cc_v3(6, -5, 0), cc_v3(0, 7, 0)}};
    std::mt19937 rng(12);
    for (int type : kConvexTypes) {
        int compared = 0;
        for (int trial = 0; trial < 300; ++trial) {
            cc_transform x = trial == 0 ? cc_tf_identity() : nptest::random_motion(rng);
            float gap = trial % 3 == 0 ? 0.0f : uniform(rng, -0.03f, 0.05f);
            Shape s = resting_shape(type, uniform(rng, -1.5f, 1.5f), uniform(rng, -1.5f, 1.5f),
                                    uniform(rng, 0.0f, 2 * kPi), gap);
            s.g = nptest::moved(x, s.g);
            Tri t = moved_tri(x, base);
            const float threshold = 0.3f;
            cc_manifold mt;
            int f = convex_tri(s.g, type, t, threshold, &mt);
            cc_manifold mp = on_plane(s, t, threshold);
            SCOPED_TRACE(testing::Message() << type_name(type) << " trial " << trial << " gap " << gap);
            ASSERT_EQ(mt.count, mp.count);
            ASSERT_GT(mt.count, 0);
            EXPECT_EQ(f, CC_TRI_FACE);
            // Plane route normal: plane (A) -> shape; here shape (A) -> triangle.
            EXPECT_VEC_NEAR(mt.normal, cc_v3_neg(mp.normal), 1e-5f);
            std::vector<float> dt = sorted_distances(mt), dp = sorted_distances(mp);
            for (int i = 0; i < mt.count; ++i) EXPECT_NEAR(dt[i], dp[i], 1e-5f) << "point " << i;
            EXPECT_NEAR(dt[0], gap + (type == CC_SHAPE_CAPSULE ? 0.2f : 0.0f), 1e-5f);
            // Box, capsule and hull pick the same points (their corners/ends).
            if (type == CC_SHAPE_BOX || type == CC_SHAPE_CAPSULE || type == CC_SHAPE_CONVEX_HULL ||
                type == CC_SHAPE_ELLIPSOID)
                nptest::expect_moved(mp, [&] {
                    cc_manifold flipped = mt;
                    flipped.normal = cc_v3_neg(mt.normal);
                    return flipped;
                }(), cc_tf_identity(), 2e-5f);
            ++compared;
        }
        std::printf("%s: %d poses match the plane\n", type_name(type), compared);
    }
}

TEST(ConvexTriangle, BoxCoveringTriangleGivesItsCorners)
{
    // A box face larger than the triangle: the clipped polygon is the triangle.
    const Tri t{{cc_v3(0, 0, 0), cc_v3(0.4f, 0, 0), cc_v3(0, 0.3f, 0)}};
    Shape s = make_shape(CC_SHAPE_BOX, cc_v3(1, 1, 0.2f), cc_v3(0.1f, 0.1f, 0.19f), cc_q_identity());
    cc_manifold m;
    int f = convex_tri(s.g, s.type, t, 0.1f, &m);
    EXPECT_EQ(f, CC_TRI_FACE);
    ASSERT_EQ(m.count, 3);
    for (int k = 0; k < 3; ++k) {
        float best = 1e30f;
        for (int i = 0; i < m.count; ++i) best = std::min(best, nptest::dist3(nptest::core_b(m, i), t.p[k]));
        EXPECT_LE(best, 1e-5f) << "corner " << k;
        EXPECT_NEAR(m.distance[k], -0.01f, 1e-5f);
    }
}

TEST(ConvexTriangle, BoxStraddlingEdgeStaysInsideTriangle)
{
    const Tri base{{cc_v3(0, 0, 0), cc_v3(4, 0, 0), cc_v3(0, 4, 0)}};
    std::mt19937 rng(13);
    for (int trial = 0; trial < 200; ++trial) {
        cc_transform x = trial == 0 ? cc_tf_identity() : nptest::random_motion(rng);
        float yaw = uniform(rng, -0.5f, 0.5f), gap = uniform(rng, -0.02f, 0.02f);
        Shape s = make_shape(CC_SHAPE_BOX, cc_v3(0.5f, 0.5f, 0.2f), cc_v3(1.5f, uniform(rng, -0.3f, 0.3f), 0.2f + gap),
                             quat_axis_angle(cc_v3(0, 0, 1), yaw));
        s.g = nptest::moved(x, s.g);
        Tri t = moved_tri(x, base);
        cc_manifold m;
        convex_tri(s.g, s.type, t, 0.1f, &m);
        SCOPED_TRACE(trial);
        ASSERT_GE(m.count, 3);
        EXPECT_VEC_NEAR(m.normal, cc_tf_vector(x, cc_v3(0, 0, -1)), 1e-5f);
        bool on_edge = false;
        for (int i = 0; i < m.count; ++i) {
            cc_vec3 b = cc_tf_point_inv(x, nptest::core_b(m, i));
            EXPECT_GE(b.y, -1e-5f) << "inside the triangle";
            EXPECT_NEAR(b.z, 0.0f, 1e-5f);
            EXPECT_NEAR(m.distance[i], gap, 1e-5f);
            on_edge = on_edge || std::fabs(b.y) < 1e-4f;
        }
        EXPECT_TRUE(on_edge) << "the clipped polygon has corners on the edge";
    }
}

// Random poses against the dense reference where the closest feature is the
// triangle's front face: separated and shallow.
TEST(ConvexTriangle, RandomPosesMatchReference)
{
    std::mt19937 rng(14);
    const TestHull* hulls[2] = {cube_hull(), random_hull()};
    for (int type : kConvexTypes) {
        int checked = 0;
        double worst = 0;
        for (int trial = 0; trial < 200; ++trial) {
            // A random triangle of size about 3 and a shape of size 0.2..0.8.
            cc_vec3 o = nptest::random_vec(rng, -2, 2);
            cc_quat tq = random_quat(rng);
            Tri t{{cc_tf_point(cc_tf(o, tq), cc_v3(-1.5f, -1.2f, 0)), cc_tf_point(cc_tf(o, tq), cc_v3(1.6f, -1.1f, 0)),
                   cc_tf_point(cc_tf(o, tq), cc_v3(0.1f, 1.8f, 0))}};
            cc_vec3 n = front_of(t);
            cc_vec3 size = nptest::random_vec(rng, 0.2f, 0.8f);
            if (type == CC_SHAPE_CAPSULE || type == CC_SHAPE_CYLINDER || type == CC_SHAPE_CONE) size.z = 0;
            if (type == CC_SHAPE_CAPSULE) size.x = 0.5f * size.x;
            Shape s = make_shape(type, size, cc_v3(0, 0, 0), random_quat(rng), hulls[trial & 1]);
            // Over a point well inside the triangle, at core distance D.
            cc_vec3 over = cc_tf_point(cc_tf(o, tq), cc_v3(uniform(rng, -0.4f, 0.4f), uniform(rng, -0.4f, 0.4f), 0));
            double sz = shape_size(s);
            float D = (float)(sz * uniform(rng, -0.05f, 0.3f));
            cc_convex c = cc_convex_of(&s.g, type, cc_v3(0, 0, 0));
            cc_vec3 low = cc_support(&c, cc_v3_neg(n));
            s.g.xf.p = cc_v3_madd(cc_v3_sub(over, low), n, D);
            convref::Result ref = convref::signed_distance(ref_shape(s), ref_triangle(t));
            if (convref::angle(ref.normal, rv(cc_v3_neg(n))) > 1e-3) continue; // not the face
            cc_manifold m;
            convex_tri(s.g, type, t, (float)sz, &m);
            SCOPED_TRACE(testing::Message() << type_name(type) << " trial " << trial);
            ASSERT_GT(m.count, 0);
            double err = std::fabs(nptest::min_distance(m) - ref.distance) / sz;
            worst = std::max(worst, err);
            EXPECT_LE(err, 1e-4) << "distance " << nptest::min_distance(m) << " reference " << ref.distance;
            EXPECT_LE(convref::angle(rv(m.normal), ref.normal), 1e-3);
            ++checked;
        }
        std::printf("%s: %d poses, worst distance error %.2e of the size\n", type_name(type), checked, worst);
        EXPECT_GT(checked, 100);
    }
}

TEST(ConvexTriangle, EllipsoidOnSharedEdgeKeepsOne)
{
    std::mt19937 rng(15);
    for (int trial = 0; trial < 200; ++trial) {
        Mesh mesh = square_mesh();
        cc_transform x = nptest::random_motion(rng);
        mesh.move(x);
        float s = uniform(rng, 0.3f, 0.7f), gap = uniform(rng, -0.01f, 0.05f);
        Shape e = make_shape(CC_SHAPE_ELLIPSOID, cc_v3(0.2f, 0.15f, 0.1f), cc_v3(s, s, 0.1f + gap),
                             quat_axis_angle(cc_v3(0, 0, 1), uniform(rng, 0, kPi)));
        e.g = nptest::moved(x, e.g);
        int kept = 0, raw = 0;
        for (int i = 0; i < 2; ++i) {
            Tri t = mesh.tri(i);
            cc_manifold m;
            m.count = -1;
            int f = cc_collide_ellipsoid_triangle(&e.g, t.p[0], t.p[1], t.p[2], 0.1f, &m);
            if (f < 0) continue;
            ++raw;
            EXPECT_EQ(m.count, 1);
            EXPECT_NEAR(m.distance[0], gap, 1e-5f);
            kept += cc_triangle_keep_feature(f, t.p[0], t.p[1], t.p[2], cc_triangle_reference(&e.g, e.type), mesh.flags[i]);
        }
        EXPECT_EQ(raw, 2) << "trial " << trial;
        EXPECT_EQ(kept, 1) << "trial " << trial;
    }
}

TEST(ConvexTriangle, BoxAcrossSharedEdgeKeepsSeamPointsOnce)
{
    // A box resting across the diagonal of a split square: each triangle
    // clips the box's face to itself, both find the points on the seam;
    // after the point filter each lies in one manifold only.
    std::mt19937 rng(19);
    int seam_dropped = 0;
    for (int trial = 0; trial < 300; ++trial) {
        Mesh mesh = heightfield_mesh(2, flat_height);
        cc_transform x = trial == 0 ? cc_tf_identity() : nptest::random_motion(rng);
        mesh.move(x);
        cc_vec3 n = cc_tf_vector(x, front_of(heightfield_mesh(2, flat_height).tri(0)));
        cc_vec3 base = cc_v3(uniform(rng, 0.6f, 1.4f), uniform(rng, 0.6f, 1.4f), 0);
        base.z = flat_height(base.x, base.y);
        float gap = uniform(rng, -0.01f, 0.02f);
        // The box's bottom face on the (tilted) plane: local z along n.
        cc_quat q = cc_q_mul(quat_z_to(n), quat_axis_angle(cc_v3(0, 0, 1), uniform(rng, 0, kPi)));
        Shape s = make_shape(CC_SHAPE_BOX, cc_v3(0.3f, 0.2f, 0.1f), cc_v3_madd(cc_tf_point(x, base), n, 0.1f + gap), q);
        cc_vec3 ref = cc_triangle_reference(&s.g, s.type);
        std::vector<cc_vec3> pts;
        int raw = 0;
        for (size_t i = 0; i < mesh.t.size(); ++i) {
            Tri t = mesh.tri((int)i);
            cc_manifold m;
            int f = convex_tri(s.g, s.type, t, 0.1f, &m);
            if (f < 0) continue;
            raw += m.count;
            // Triangles beside the box report tilted contacts across their
            // flat edges: dropped.
            if (!cc_triangle_keep_feature(f, t.p[0], t.p[1], t.p[2], ref, mesh.flags[i])) continue;
            EXPECT_EQ(f, CC_TRI_FACE);
            cc_triangle_dedupe_points(&m, t.p[0], t.p[1], t.p[2], ref, mesh.flags[i]);
            for (int k = 0; k < m.count; ++k) {
                EXPECT_NEAR(m.distance[k], gap, 1e-5f);
                pts.push_back(m.point[k]);
            }
        }
        SCOPED_TRACE(trial);
        seam_dropped += raw - (int)pts.size();
        EXPECT_GE(pts.size(), 4u);
        for (size_t i = 0; i < pts.size(); ++i)
            for (size_t j = i + 1; j < pts.size(); ++j)
                EXPECT_GT(nptest::dist3(pts[i], pts[j]), 1e-4f) << "points " << i << " " << j << " of " << raw;
    }
    std::printf("box across seams: %d duplicate or beside-the-box points dropped in 300 poses\n", seam_dropped);
    EXPECT_GT(seam_dropped, 300);
}

TEST(ConvexTriangle, EdgeContactIsTiltedAndOnTheEdge)
{
    // A box beside edge 0 (y < 0), level with the plane: the contact is the
    // triangle's edge, normal across it.
    const Tri t{{cc_v3(0, 0, 0), cc_v3(4, 0, 0), cc_v3(0, 4, 0)}};
    Shape s = make_shape(CC_SHAPE_BOX, cc_v3(0.3f, 0.3f, 0.3f), cc_v3(2, -0.35f, 0.1f), cc_q_identity());
    cc_manifold m;
    int f = convex_tri(s.g, s.type, t, 0.2f, &m);
    ASSERT_GT(m.count, 0);
    EXPECT_EQ(f, CC_TRI_EDGE0 | CC_TRI_OUTSIDE);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 1, 0), 1e-5f);
    for (int i = 0; i < m.count; ++i) {
        EXPECT_NEAR(m.distance[i], 0.05f, 1e-5f);
        EXPECT_NEAR(nptest::core_b(m, i).y, 0.0f, 1e-5f);
        EXPECT_NEAR(nptest::core_b(m, i).z, 0.0f, 1e-5f);
    }
}

// ------------------------------------------------------------- back faces

TEST(TriangleBackFace, ShapesBehindOrPushedFromBehindGiveNothing)
{
    const Tri base{{cc_v3(-3, -3, 0), cc_v3(3, -3, 0), cc_v3(0, 3, 0)}};
    std::mt19937 rng(16);
    for (int trial = 0; trial < 100; ++trial) {
        cc_transform x = trial == 0 ? cc_tf_identity() : nptest::random_motion(rng);
        Tri t = moved_tri(x, base);
        for (int type : kConvexTypes) {
            // Centre behind: the shape is below, touching or poking through
            // from behind, or just behind.
            float below = uniform(rng, 0.01f, 0.3f);
            Shape s = resting_shape(type, uniform(rng, -0.5f, 0.5f), uniform(rng, -0.5f, 0.5f), 0.3f, 0);
            s.g.xf.p.z = -below;
            s.g = nptest::moved(x, s.g);
            cc_manifold m;
            EXPECT_EQ(convex_tri(s.g, type, t, 0.5f, &m), CC_TRI_NONE) << type_name(type);
            EXPECT_EQ(m.count, 0) << type_name(type);
            // Upside down under the triangle, its top just below the back.
            s = resting_shape(type, 0.2f, -0.1f, 0.5f, 0);
            s.g.xf.p.z = -s.g.xf.p.z - 0.01f;
            s.g = nptest::moved(x, s.g);
            EXPECT_EQ(convex_tri(s.g, type, t, 0.5f, &m), CC_TRI_NONE) << type_name(type);
            EXPECT_EQ(m.count, 0);
        }
        cc_manifold m;
        EXPECT_EQ(sphere_tri(cc_tf_point(x, cc_v3(0.1f, 0.2f, -0.05f)), t, 0.5f, &m), CC_TRI_NONE);
        EXPECT_EQ(m.count, 0);
    }
}

// ------------------------------------------------------------ plane vertex

TEST(PlaneVertex, ThresholdAndFiniteBounds)
{
    std::mt19937 rng(17);
    for (int trial = 0; trial < 200; ++trial) {
        cc_transform x = trial == 0 ? cc_tf_identity() : nptest::random_motion(rng);
        cc_geom inf = make_geom(x.p, x.q, cc_v3(0, 0, 0));
        cc_geom fin = make_geom(x.p, x.q, cc_v3(1.0f, 0.5f, 0));
        float h = uniform(rng, -0.2f, 0.2f);
        cc_vec3 local = cc_v3(uniform(rng, -0.9f, 0.9f), uniform(rng, -0.45f, 0.45f), h);
        cc_vec3 v = cc_tf_point(x, local);
        cc_manifold m;
        m.count = -1;
        cc_collide_plane_vertex(&inf, v, 0.1f, &m);
        EXPECT_EQ(m.count, h <= 0.1f ? 1 : 0);
        EXPECT_VEC_NEAR(m.normal, cc_tf_vector(x, cc_v3(0, 0, 1)), 1e-6f);
        if (m.count == 1) {
            EXPECT_NEAR(m.distance[0], h, 1e-5f);
            EXPECT_VEC_NEAR(nptest::core_b(m, 0), v, 1e-5f);
            EXPECT_NEAR(cc_tf_point_inv(x, nptest::core_a(m, 0)).z, 0.0f, 1e-5f);
        }
        cc_collide_plane_vertex(&fin, v, 0.1f, &m);
        EXPECT_EQ(m.count, h <= 0.1f ? 1 : 0);
        // Outside the finite rectangle: nothing, however deep.
        cc_vec3 out = cc_tf_point(x, cc_v3(1.05f, 0.0f, -0.05f));
        cc_collide_plane_vertex(&fin, out, 0.1f, &m);
        EXPECT_EQ(m.count, 0);
        cc_collide_plane_vertex(&inf, out, 0.1f, &m);
        EXPECT_EQ(m.count, 1);
        out = cc_tf_point(x, cc_v3(0.0f, -0.55f, -0.05f));
        cc_collide_plane_vertex(&fin, out, 0.1f, &m);
        EXPECT_EQ(m.count, 0);
    }
    // Appending: several vertices into one manifold.
    cc_geom plane = make_geom(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(0, 0, 0));
    cc_manifold m;
    m.count = 0;
    for (int i = 0; i < 3; ++i) cc_plane_vertex_add(&plane, cc_v3((float)i, 0, -0.01f * (float)i), 0.0f, &m);
    EXPECT_EQ(m.count, 3);
    // Exact threshold.
    cc_collide_plane_vertex(&plane, cc_v3(0, 0, 0.25f), 0.25f, &m);
    EXPECT_EQ(m.count, 1);
    cc_collide_plane_vertex(&plane, cc_v3(0, 0, 0.25f), std::nextafter(0.25f, 0.0f), &m);
    EXPECT_EQ(m.count, 0);
}

// ------------------------------------------------------- degenerate input

bool manifold_finite(const cc_manifold& m)
{
    if (m.count < 0 || m.count > CC_MANIFOLD_MAX_POINTS) return false;
    if (!std::isfinite(m.normal.x) || !std::isfinite(m.normal.y) || !std::isfinite(m.normal.z)) return false;
    for (int i = 0; i < m.count; ++i)
        if (!std::isfinite(m.distance[i]) || !std::isfinite(m.point[i].x) || !std::isfinite(m.point[i].y) ||
            !std::isfinite(m.point[i].z))
            return false;
    return true;
}

TEST(TriangleDegenerate, NoNaNAndClosestPointRobust)
{
    const Tri degenerate[] = {
        {{cc_v3(0, 0, 0), cc_v3(1, 0, 0), cc_v3(2, 0, 0)}},     // collinear
        {{cc_v3(0, 0, 0), cc_v3(1, 1, 1), cc_v3(0, 0, 0)}},     // two equal
        {{cc_v3(1, 2, 3), cc_v3(1, 2, 3), cc_v3(1, 2, 3)}},     // all equal
        {{cc_v3(0, 0, 0), cc_v3(1, 0, 0), cc_v3(0.5f, 1e-9f, 0)}}, // sliver
    };
    std::mt19937 rng(18);
    for (const Tri& t : degenerate) {
        for (int trial = 0; trial < 200; ++trial) {
            cc_vec3 c = nptest::random_vec(rng, -2, 3);
            // The closest point helper: exact against a brute-force segment
            // search (a degenerate triangle is the union of its edges).
            int region;
            cc_vec3 a = cc_v3_sub(t.p[0], c), b = cc_v3_sub(t.p[1], c), d = cc_v3_sub(t.p[2], c), n;
            int has_n = cc_triangle_normal(a, b, d, &n);
            cc_vec3 q = cc_triangle_closest_origin(a, b, d, n, has_n, &region);
            double best = 1e300;
            for (int k = 0; k < 3; ++k)
                best = std::min(best, nptest::point_segment_distance(nptest::dv(c), nptest::dv(t.p[k]),
                                                                     nptest::dv(t.p[(k + 1) % 3])));
            EXPECT_NEAR(cc_v3_length(q), best, 1e-5);
            EXPECT_GE(region, 0);
            // The routines: no NaN, nothing reported (no front).
            cc_manifold m;
            EXPECT_EQ(sphere_tri(c, t, 10.0f, &m), CC_TRI_NONE);
            EXPECT_TRUE(manifold_finite(m));
            for (int type : kConvexTypes) {
                Shape s = resting_shape(type, c.x, c.y, 0.0f, c.z);
                EXPECT_EQ(convex_tri(s.g, type, t, 10.0f, &m), CC_TRI_NONE);
                EXPECT_TRUE(manifold_finite(m));
            }
        }
    }
    // Coincident centres: the sphere centre on a vertex, an edge, the face;
    // shapes centred on the triangle's plane.
    const Tri t{{cc_v3(0, 0, 0), cc_v3(1, 0, 0), cc_v3(0, 1, 0)}};
    const cc_vec3 at[] = {cc_v3(0, 0, 0), cc_v3(1, 0, 0), cc_v3(0.5f, 0, 0), cc_v3(0.25f, 0.25f, 0), cc_v3(0.5f, 0.5f, 0)};
    for (cc_vec3 c : at) {
        cc_manifold m;
        int f = sphere_tri(c, t, 1.0f, &m);
        EXPECT_GE(f, 0);
        ASSERT_EQ(m.count, 1);
        EXPECT_TRUE(manifold_finite(m));
        EXPECT_NEAR(m.distance[0], 0.0f, 1e-6f);
        EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, -1), 1e-6f);
        for (int type : kConvexTypes) {
            Shape s = resting_shape(type, c.x, c.y, 0.3f, 0);
            s.g.xf.p = c;
            convex_tri(s.g, type, t, 1.0f, &m);
            EXPECT_TRUE(manifold_finite(m)) << type_name(type);
            if (m.count > 0) {
                EXPECT_LE(cc_v3_dot(m.normal, cc_v3(0, 0, 1)), CC_TRI_BACK_COS) << type_name(type);
            }
        }
    }
    // NaN anywhere: no crash, nothing non-finite.
    for (int field = 0; field < 13; ++field) {
        Tri bad = t;
        cc_vec3 c = cc_v3(0.2f, 0.2f, 0.3f);
        float thr = 1.0f;
        if (field < 9) (&bad.p[field / 3].x)[field % 3] = kNaN;
        else if (field < 12) (&c.x)[field - 9] = kNaN;
        else thr = kNaN;
        cc_manifold m;
        sphere_tri(c, bad, thr, &m);
        EXPECT_TRUE(manifold_finite(m));
        for (int type : kConvexTypes) {
            Shape s = resting_shape(type, c.x, c.y, 0.3f, 0.01f);
            if (field >= 9 && field < 12) (&s.g.xf.p.x)[field - 9] = kNaN;
            convex_tri(s.g, type, bad, thr, &m);
            EXPECT_TRUE(manifold_finite(m)) << type_name(type) << " field " << field;
        }
        cc_geom plane = make_geom(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(0, 0, 0));
        cc_collide_plane_vertex(&plane, c, thr, &m);
        EXPECT_TRUE(manifold_finite(m));
    }
}

} // namespace
