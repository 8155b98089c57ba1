// Where a line leaves a convex core (kernels/shapes/line_exit.h), against
// references of its own in double precision: for boxes, cylinders, cones,
// ellipsoids and hulls in random poses, a line through an interior point
// leaves at the parameter a bisection on an exact inside test finds, and
// the point lies on the exact surface; lines that pass the shape by are
// misses; lines that start a thousand sizes away keep the accuracy
// (cancellation); lines grazing a cone's apex are either misses or hits on
// its surface; sphere and capsule cores (no volume) are never hit.
//
// Tolerance: 2e-6 of the shape's extent on the parameter and the surface
// residual (float32 coordinates of unit magnitude relative to the shape).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "kernels/shapes/line_exit.h"
#include "tests/support/test_hull.h"

namespace {

struct D3 {
    double x, y, z;
};
D3 d3(cc_vec3 v) { return {v.x, v.y, v.z}; }
double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// A point in c's own frame, in double.
D3 to_local(const cc_convex& c, D3 x)
{
    D3 o = d3(c.f.o), r = {x.x - o.x, x.y - o.y, x.z - o.z};
    return {dot(r, d3(c.f.x)), dot(r, d3(c.f.y)), dot(r, d3(c.f.z))};
}

// Signed residual of a local point against the core's surface (negative
// inside), in lengths of the shape's own units: exact per type.
double residual(const cc_convex& c, D3 p)
{
    double sx = c.size.x, sy = c.size.y, sz = c.size.z;
    switch (c.type) {
    case CC_SHAPE_BOX: return std::max({std::fabs(p.x) - sx, std::fabs(p.y) - sy, std::fabs(p.z) - sz});
    case CC_SHAPE_CYLINDER: return std::max(std::hypot(p.x, p.y) - sx, std::fabs(p.z) - sy);
    case CC_SHAPE_CONE: {
        // The side line from the apex (0, h) to the rim (r, -h) in the
        // (radius, z) half plane: the signed distance to its line.
        double rho = std::hypot(p.x, p.y), len = std::hypot(sx, 2 * sy);
        double side = (2 * sy * rho + sx * (p.z - sy)) / len;
        return std::max(side, -sy - p.z);
    }
    case CC_SHAPE_ELLIPSOID: {
        double q = std::sqrt(p.x * p.x / (sx * sx) + p.y * p.y / (sy * sy) + p.z * p.z / (sz * sz));
        return (q - 1.0) * std::min({sx, sy, sz});
    }
    case CC_SHAPE_CONVEX_HULL: {
        double worst = -1e300;
        for (int i = 0; i < c.hull.face_count; ++i) {
            const cc_hull_face& f = c.hull.faces[i];
            D3 u = {p.x / sx, p.y / sy, p.z / sz};
            worst = std::max(worst, dot(d3(f.normal), u) - f.offset);
        }
        return worst * std::min({sx, sy, sz});
    }
    default: return 1e300;
    }
}

bool inside(const cc_convex& c, D3 x) { return residual(c, to_local(c, x)) <= 0.0; }

cc_quat random_quat(std::mt19937& rng)
{
    std::normal_distribution<float> g;
    cc_quat q = {g(rng), g(rng), g(rng), g(rng)};
    float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x / n, q.y / n, q.z / n, q.w / n};
}

cc_vec3 random_unit(std::mt19937& rng)
{
    std::normal_distribution<float> g;
    return cc_v3_normalize(cc_v3(g(rng), g(rng), g(rng)));
}

// A random core of `type`: sizes over two orders of magnitude.
cc_convex random_core(std::mt19937& rng, int type, const cc_hull_ref* hull)
{
    std::uniform_real_distribution<float> size(0.05f, 5.0f), pos(-3.0f, 3.0f);
    cc_geom g;
    g.xf.p = cc_v3(pos(rng), pos(rng), pos(rng));
    g.xf.q = random_quat(rng);
    g.size = cc_v3(size(rng), size(rng), size(rng));
    g.hull = hull ? *hull : cc_hull_ref_none();
    return cc_convex_of(&g, type, cc_v3(0, 0, 0));
}

// A point strictly inside c: its centre moved a little toward a random
// direction's support point.
cc_vec3 interior_point(std::mt19937& rng, const cc_convex& c)
{
    std::uniform_real_distribution<float> frac(0.0f, 0.9f);
    cc_vec3 centre = cc_convex_center(&c), s = cc_support(&c, random_unit(rng));
    return cc_v3_madd(centre, cc_v3_sub(s, centre), frac(rng));
}

const TestHull* sample_hull()
{
    static const TestHull* h = [] {
        std::mt19937 rng(5);
        std::vector<cc_vec3> pts;
        for (int i = 0; i < 60; ++i) pts.push_back(cc_v3_scale(random_unit(rng), 1.0f));
        return build_test_hull(pts, 64, "line-exit sample");
    }();
    return h;
}

const int kTypes[] = {CC_SHAPE_BOX, CC_SHAPE_CYLINDER, CC_SHAPE_CONE, CC_SHAPE_ELLIPSOID, CC_SHAPE_CONVEX_HULL};

TEST(LineExit, LeavesWhereTheExactSurfaceIs)
{
    const TestHull* hull = sample_hull();
    ASSERT_NE(hull, nullptr);
    std::mt19937 rng(11);
    for (int type : kTypes) {
        for (int trial = 0; trial < 400; ++trial) {
            cc_convex c = random_core(rng, type, &hull->ref);
            cc_vec3 out = random_unit(rng), x = interior_point(rng, c);
            // Start the line anywhere along itself, up to 1000 extents back.
            float back = trial % 4 == 3 ? 1000.0f * c.extent : (float)(trial % 4) * c.extent;
            cc_vec3 start = cc_v3_madd(x, out, -back);
            cc_vec3 hit;
            ASSERT_TRUE(cc_convex_line_exit(&c, start, out, &hit)) << "type " << type << " trial " << trial;
            // The reference exit: bisection between x (inside) and a point
            // beyond the shape along the line.
            D3 dx = d3(x), dout = d3(out);
            double lo = 0.0, hi = 4.0 * c.extent;
            for (int i = 0; i < 100; ++i) {
                double mid = 0.5 * (lo + hi);
                (inside(c, {dx.x + mid * dout.x, dx.y + mid * dout.y, dx.z + mid * dout.z}) ? lo : hi) = mid;
            }
            D3 h = d3(hit), rel = {h.x - dx.x, h.y - dx.y, h.z - dx.z};
            double along = dot(rel, dout);
            double tol = 2e-6 * c.extent + 1e-6 * back; // the start's own float rounding
            EXPECT_NEAR(along, lo, tol) << "type " << type << " trial " << trial;
            EXPECT_NEAR(residual(c, to_local(c, h)), 0.0, tol) << "type " << type << " trial " << trial;
            // On the line.
            D3 off = {rel.x - along * dout.x, rel.y - along * dout.y, rel.z - along * dout.z};
            EXPECT_LE(std::sqrt(dot(off, off)), tol) << "type " << type << " trial " << trial;
        }
    }
}

TEST(LineExit, LinesPassingByMiss)
{
    const TestHull* hull = sample_hull();
    ASSERT_NE(hull, nullptr);
    std::mt19937 rng(12);
    for (int type : kTypes) {
        for (int trial = 0; trial < 400; ++trial) {
            cc_convex c = random_core(rng, type, &hull->ref);
            // A line whose nearest point to the centre lies beyond the
            // shape's bounding sphere (its extent about that centre).
            cc_vec3 out = random_unit(rng), side = cc_v3_normalize(cc_v3_cross(out, random_unit(rng)));
            cc_vec3 start = cc_v3_madd(cc_v3_madd(cc_convex_center(&c), side, 1.01f * c.extent), out, -2.0f * c.extent);
            cc_vec3 hit;
            EXPECT_FALSE(cc_convex_line_exit(&c, start, out, &hit)) << "type " << type << " trial " << trial;
        }
    }
}

// Lines passing within a hair of a cone's apex, steeper than its side:
// float cancellation once made a line that misses seem to cross it, with a
// "hit" 1e-3 of the size off the surface.
TEST(LineExit, LinesGrazingAConeApexHitOnlyItsSurface)
{
    std::mt19937 rng(13);
    std::uniform_real_distribution<float> offset(-1e-4f, 1e-4f), tilt(-0.3f, 0.3f);
    int hits = 0, misses = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        cc_convex c = random_core(rng, CC_SHAPE_CONE, nullptr);
        cc_vec3 apex = cc_frame_point_out(&c.f, cc_v3(0, 0, c.size.y));
        cc_vec3 out = cc_frame_vector_out(&c.f, cc_v3_normalize(cc_v3(tilt(rng), tilt(rng), -1.0f)));
        cc_vec3 through = cc_v3_add(apex, cc_v3_scale(random_unit(rng), offset(rng) * c.extent));
        cc_vec3 start = cc_v3_madd(through, out, -2.0f * c.extent), hit;
        if (!cc_convex_line_exit(&c, start, out, &hit)) {
            ++misses;
            continue;
        }
        ++hits;
        EXPECT_NEAR(residual(c, to_local(c, d3(hit))), 0.0, 2e-6 * c.extent) << "trial " << trial;
    }
    EXPECT_GT(hits, 100);
    EXPECT_GT(misses, 100);
}

TEST(LineExit, CoresWithoutVolumeAreNeverHit)
{
    std::mt19937 rng(14);
    for (int type : {CC_SHAPE_SPHERE, CC_SHAPE_CAPSULE}) {
        cc_convex c = random_core(rng, type, nullptr);
        cc_vec3 hit;
        EXPECT_FALSE(cc_convex_line_exit(&c, cc_v3_madd(c.f.o, c.f.z, -5.0f), c.f.z, &hit));
    }
}

} // namespace
