// Accuracy and robustness of the GJK/MPR narrow phase (convex/query.h and
// narrowphase/convex.h), measured against an independent double-precision
// reference (convex_reference.h: the signed distance as the maximum over
// unit directions of sep(n), dense sampling plus local refinement) and
// against the analytic pair routines where both exist.
//
// Sizes and tolerances (every length tolerance is relative to s, the
// smaller shape's size: its extent, radius included):
//   a. cc_convex_query on random posed pairs, every pair type with a
//      cylinder, cone, ellipsoid or hull (22 types), 500 poses each, sizes
//      0.2..1, centres from -0.6 to +0.6 of the summed extents around the
//      touching offset: distance error p95 <= 1e-4 s, max <= 1e-3 s;
//      normal p95 <= 0.5 degrees where the reference normal is well
//      defined; no wrong sign when |D| > 1e-4 s.
//   b. cc_collide_convex against the analytic routines for the six
//      sphere/capsule/box pairs, 10,000 poses each: deepest distance within
//      1e-4 s, normal within 1e-3 rad (skipping poses whose normal ties);
//      cc_collide_plane_convex against the analytic plane routines: the
//      same tolerances and the same count.
//   c. a hull of a box's 8 corners behaves as that box (count, deepest
//      distance within 1e-4 s, normal within 1.5 degrees; a resting box
//      on the box keeps its face normal, as in b).
//   d. hulls of N = 32 .. 2048 points on a sphere converge to the sphere:
//      the error decreases with N and is below 2% of the radius at 2048.
//   e. swapping A and B: distance within 2e-4 s (each side within the
//      1e-4 p95 of a), normal negated within 1.5 degrees; a rigid motion of
//      the pair: distance within 2e-4 s,
//      normal rotated within 1.5 degrees, witness points moved within
//      2.6e-2 s (1.5 degrees across the shape) or both valid. Pairs more
//      than half inside each other (depth > s/2) have neighbouring local
//      optima; there the depths agree within 1e-2 s.
//   f. 100,000 random pairs with degenerate shapes and mixed scales: all
//      finite, unit normals (| |n| - 1 | < 1e-4), iterations within the cap
//      the kernel constants allow, counts within cc_convex_max_points.
//   g. EPA alone on 900 deep poses of round shapes (a tenth to four tenths
//      of the summed extents inside each other; some 860 of them leave MPR
//      a tetrahedron for EPA to start from): its depth never above the
//      reference's by more than rounding (4e-7 of the sizes), a converged
//      depth within the tolerance below it, and at least 85 % converge.
//   h. the feature of a hull along a direction (the face, edge or vertex
//      it touches with) holds the support vertex: 6- to 1,000-vertex hulls
//      under scales up to 50 : 1, its top within 1e-6 of the extent.
// Every RNG is a std::mt19937 with a fixed seed. Measured numbers are
// printed per pair type so they can be quoted.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "host/internal.h"
#include "host/geometry/hull_build.h"
#include "kernels/narrowphase/dispatch.h"

#include "tests/support/convex_reference.h"
#include "tests/support/test_hull.h"

namespace
{

using convref::V;

const double kPi = 3.14159265358979323846;
const double kDeg = kPi / 180.0;

// ----------------------------------------------------------------- tolerances
// a. accuracy against the reference
const double kDistP95 = 1e-4;     // distance error p95, relative to s
const double kDistMax = 1e-3;     // distance error max, relative to s
const double kNormalP95Deg = 0.5; // normal angle p95 [degrees]
const double kSignBand = 1e-4;    // |D| above this (relative to s) must keep its sign
// b. generic path against the analytic routines
const double kAnalyticDist = 1e-4;   // relative to s
const double kAnalyticNormal = 1e-3; // [rad]
// c, e. identities (the same geometry computed another way). Each side is
// held to the accuracy of (a), so they agree to about its p95 distance; a
// normal on a curved contact is resolved only to about 1e-3 rad in float32
// (sep is flat to second order around it) and a few poses in a hundred sit
// near the p95 normal bound of (a) (0.5 degrees), so two answers agree
// within three times that; witness points within the distance that angle
// moves them across a unit-sized shape.
const double kSameDist = 1e-4;               // relative to s
const double kSameNormal = 1.5 * kDeg;       // [rad]
const double kSamePoint = 1.5 * kDeg;        // relative to s
// Normal ties (convref::normals_tie): both normals within kFlatTol times
// the summed sizes of the maximum (a plateau at the kernel's own accuracy,
// twice CC_CONVEX_TOLERANCE of the summed extents: e.g. two point cores
// closer than that have no meaningful normal), or two distinct local maxima
// within kTieTol * s of each other (two faces tying).
const double kFlatTol = 2e-6;
const double kTieTol = 1e-4;
// f. robustness
const double kUnitNormal = 1e-4;
// Structural cap on cc_convex_query's iteration count, which sums GJK, MPR
// and EPA iterations and the sep evaluations of the direction climb
// (convex/query.h as of this test): one GJK (CC_GJK_MAX_ITERATIONS); on the
// MPR path one MPR (CC_MPR_MAX_DISCOVERY + CC_MPR_MAX_REFINEMENT), 14 start
// directions, one EPA (its loop runs at most 64 times) and at most three
// climbs. A climb's ascent evaluates sep once, then per step
// (CC_CONVEX_ASCENT_STEPS) one line search (CC_CONVEX_ASCENT_SEARCH) and
// at most three crease probes, each one evaluation plus a line search.
#if defined(CC_CONVEX_ASCENT_STEPS)
const int kEpaIterations = 64;
const int kAscentEvaluations =
    1 + CC_CONVEX_ASCENT_STEPS * (CC_CONVEX_ASCENT_SEARCH + 3 * (1 + CC_CONVEX_ASCENT_SEARCH));
const int kIterationCap =
    CC_GJK_MAX_ITERATIONS + CC_MPR_MAX_DISCOVERY + CC_MPR_MAX_REFINEMENT + 14 + kEpaIterations + 3 * kAscentEvaluations;
#else // the earlier kernel: GJK, MPR, then CC_CONVEX_REFINE_STEPS more GJK runs
const int kIterationCap = CC_GJK_MAX_ITERATIONS + CC_MPR_MAX_DISCOVERY + CC_MPR_MAX_REFINEMENT +
                          CC_CONVEX_REFINE_STEPS * CC_GJK_MAX_ITERATIONS;
#endif

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

const char* type_name(int t) { return cc_shape_type_name((cc_shape_type)t); }

const int kConvexTypes[] = {CC_SHAPE_SPHERE,   CC_SHAPE_CAPSULE, CC_SHAPE_BOX,         CC_SHAPE_CYLINDER,
                            CC_SHAPE_CONE,     CC_SHAPE_ELLIPSOID, CC_SHAPE_CONVEX_HULL};

bool is_gjk_type(int t)
{
    return t == CC_SHAPE_CYLINDER || t == CC_SHAPE_CONE || t == CC_SHAPE_ELLIPSOID || t == CC_SHAPE_CONVEX_HULL;
}

// Pair types (lower type first) with at least one GJK/MPR-only shape.
std::vector<std::pair<int, int>> gjk_pair_types()
{
    std::vector<std::pair<int, int>> out;
    for (int i = 0; i < 7; ++i)
        for (int j = i; j < 7; ++j)
            if (is_gjk_type(kConvexTypes[i]) || is_gjk_type(kConvexTypes[j]))
                out.push_back({kConvexTypes[i], kConvexTypes[j]});
    return out;
}

// --------------------------------------------------------------------- hulls

const TestHull* build_hull(const std::vector<cc_vec3>& pts, int max_vertices, const std::string& name)
{
    return build_test_hull(pts, max_vertices, name);
}

std::vector<cc_vec3> box_corners(float hx, float hy, float hz)
{
    std::vector<cc_vec3> p;
    for (int i = 0; i < 8; ++i)
        p.push_back(cc_v3((i & 1) ? hx : -hx, (i & 2) ? hy : -hy, (i & 4) ? hz : -hz));
    return p;
}

std::vector<cc_vec3> fibonacci_points(int n)
{
    std::vector<cc_vec3> p;
    for (const V& d : convref::fibonacci_sphere(n)) p.push_back(cc_v3((float)d.x, (float)d.y, (float)d.z));
    return p;
}

const TestHull* cube_hull()
{
    static const TestHull* h = build_hull(box_corners(1, 1, 1), 8, "cube");
    return h;
}

// Random hulls of unit-ish size (scaled per shape by its size), points
// centred on their mean: a few vertices (sharp), many (round), flat-ish.
const std::vector<const TestHull*>& random_hulls()
{
    static std::vector<const TestHull*> hulls = [] {
        std::mt19937 rng(1234);
        std::normal_distribution<float> g(0.0f, 1.0f);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        auto centred = [](std::vector<cc_vec3> p) {
            cc_vec3 c = cc_v3(0, 0, 0);
            for (const cc_vec3& x : p) c = cc_v3_add(c, x);
            c = cc_v3_scale(c, 1.0f / (float)p.size());
            for (cc_vec3& x : p) x = cc_v3_sub(x, c);
            return p;
        };
        auto on_sphere = [&](int n, cc_vec3 axes) {
            std::vector<cc_vec3> p;
            for (int i = 0; i < n; ++i)
                p.push_back(cc_v3_mul(cc_v3_normalize(cc_v3(g(rng), g(rng), g(rng))), axes));
            return p;
        };
        std::vector<const TestHull*> out;
        out.push_back(build_hull(centred(on_sphere(6, cc_v3(1, 1, 1))), 64, "random6"));
        out.push_back(build_hull(centred(on_sphere(16, cc_v3(1, 1, 1))), 64, "random16"));
        out.push_back(build_hull(centred(on_sphere(40, cc_v3(1, 0.7f, 0.5f))), 64, "ellipsoid40"));
        std::vector<cc_vec3> cube;
        for (int i = 0; i < 30; ++i) cube.push_back(cc_v3(u(rng), u(rng), u(rng)));
        out.push_back(build_hull(centred(cube), 64, "cube30"));
        return out;
    }();
    return hulls;
}

// -------------------------------------------------------------------- bodies

struct Body {
    int type = CC_SHAPE_SPHERE;
    cc_geom g{};
    const TestHull* hull = nullptr;
};

Body make_body(int type, cc_vec3 size, cc_vec3 p, cc_quat q, const TestHull* hull = nullptr)
{
    Body b;
    b.type = type;
    b.g.xf = cc_tf(p, q);
    b.g.size = size;
    b.hull = hull;
    if (hull) b.g.hull = hull->ref;
    return b;
}

V dv(cc_vec3 v) { return convref::v3(v.x, v.y, v.z); }
cc_vec3 fv(V v) { return cc_v3((float)v.x, (float)v.y, (float)v.z); }

convref::Pose pose_of(const cc_transform& xf)
{
    return convref::pose_from_quat(xf.q.x, xf.q.y, xf.q.z, xf.q.w, dv(xf.p));
}

convref::Shape ref_of(const Body& b)
{
    convref::Pose p = pose_of(b.g.xf);
    cc_vec3 s = b.g.size;
    switch (b.type) {
    case CC_SHAPE_SPHERE: return convref::make_shape(convref::POINT, p, convref::v3(0, 0, 0));
    case CC_SHAPE_CAPSULE: return convref::make_shape(convref::SEGMENT, p, convref::v3(0, s.y, 0));
    case CC_SHAPE_BOX: return convref::make_shape(convref::BOX, p, dv(s));
    case CC_SHAPE_CYLINDER: return convref::make_shape(convref::CYLINDER, p, convref::v3(s.x, s.y, 0));
    case CC_SHAPE_CONE: return convref::make_shape(convref::CONE, p, convref::v3(s.x, s.y, 0));
    case CC_SHAPE_ELLIPSOID: return convref::make_shape(convref::ELLIPSOID, p, dv(s));
    default: return convref::make_hull(p, b.hull->vertices, dv(s));
    }
}

// The shape's size: its extent (centre to farthest surface point bound),
// the radius of a sphere or capsule included.
double size_of(const Body& b)
{
    cc_vec3 s = b.g.size;
    switch (b.type) {
    case CC_SHAPE_SPHERE: return s.x;
    case CC_SHAPE_CAPSULE: return (double)s.x + s.y;
    case CC_SHAPE_BOX: return std::sqrt((double)s.x * s.x + (double)s.y * s.y + (double)s.z * s.z);
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: return std::hypot((double)s.x, (double)s.y);
    case CC_SHAPE_ELLIPSOID: return std::max((double)s.x, std::max((double)s.y, (double)s.z));
    case CC_SHAPE_CONVEX_HULL: {
        double e = 0;
        for (const V& v : b.hull->vertices) e = std::max(e, convref::norm(convref::mul(v, dv(s))));
        return e;
    }
    default: return 0;
    }
}

std::string describe(const Body& b)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s%s%s size (%.9g, %.9g, %.9g) p (%.9g, %.9g, %.9g) q (%.9g, %.9g, %.9g, %.9g)",
                  type_name(b.type), b.hull ? " " : "", b.hull ? b.hull->name.c_str() : "", b.g.size.x,
                  b.g.size.y, b.g.size.z, b.g.xf.p.x, b.g.xf.p.y, b.g.xf.p.z, b.g.xf.q.x, b.g.xf.q.y, b.g.xf.q.z,
                  b.g.xf.q.w);
    return buf;
}

float uni(std::mt19937& rng, float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }

cc_quat random_quat(std::mt19937& rng)
{
    std::normal_distribution<float> n(0.0f, 1.0f);
    for (;;) {
        cc_quat q = cc_q(n(rng), n(rng), n(rng), n(rng));
        if (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w > 1e-3f) return cc_q_normalize(q);
    }
}

cc_vec3 random_unit(std::mt19937& rng)
{
    std::normal_distribution<float> n(0.0f, 1.0f);
    for (;;) {
        cc_vec3 v = cc_v3(n(rng), n(rng), n(rng));
        if (cc_v3_length_sq(v) > 1e-3f) return cc_v3_normalize(v);
    }
}

cc_quat quat_axis_angle(cc_vec3 axis, double angle)
{
    cc_vec3 u = cc_v3_normalize(axis);
    float s = (float)std::sin(0.5 * angle);
    return cc_q(u.x * s, u.y * s, u.z * s, (float)std::cos(0.5 * angle));
}

// Size parameters in 0.2 .. 1 (the core's dimensions and the radius).
Body random_body(std::mt19937& rng, int type)
{
    cc_vec3 size;
    const TestHull* hull = nullptr;
    switch (type) {
    case CC_SHAPE_SPHERE: size = cc_v3(uni(rng, 0.2f, 1), 0, 0); break;
    case CC_SHAPE_CAPSULE:
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: size = cc_v3(uni(rng, 0.2f, 1), uni(rng, 0.2f, 1), 0); break;
    case CC_SHAPE_CONVEX_HULL:
        hull = random_hulls()[std::uniform_int_distribution<int>(0, (int)random_hulls().size() - 1)(rng)];
        size = cc_v3(uni(rng, 0.2f, 1), uni(rng, 0.2f, 1), uni(rng, 0.2f, 1));
        break;
    default: size = cc_v3(uni(rng, 0.2f, 1), uni(rng, 0.2f, 1), uni(rng, 0.2f, 1)); break;
    }
    return make_body(type, size, cc_v3(uni(rng, -1, 1), uni(rng, -1, 1), uni(rng, -1, 1)), random_quat(rng), hull);
}

// Offset along unit u at which the cores' supports along u meet (sep(u) = 0
// there, so the cores touch or are barely apart).
double touching_offset(const Body& a, const Body& b, V u)
{
    convref::Shape ra = ref_of(a), rb = ref_of(b);
    ra.pose.t = convref::v3(0, 0, 0);
    rb.pose.t = convref::v3(0, 0, 0);
    return convref::support_height(ra, u) + convref::support_height(rb, -u);
}

// Moves b to a's centre + u * (touching offset + delta * (size_a + size_b)).
void place(const Body& a, Body* b, cc_vec3 u, double delta)
{
    V du = dv(u);
    double t = touching_offset(a, *b, du) + delta * (size_of(a) + size_of(*b));
    b->g.xf.p = fv(dv(a.g.xf.p) + du * t);
}

// Offsets around contact, as fractions of the summed extents: 10% touching
// (|delta| <= 1e-4), 10% near (|delta| <= 1e-2), 80% from -0.6 to +0.6.
double random_delta(std::mt19937& rng)
{
    float k = uni(rng, 0, 1);
    if (k < 0.1f) return uni(rng, -1e-4f, 1e-4f);
    if (k < 0.2f) return uni(rng, -1e-2f, 1e-2f);
    return uni(rng, -0.6f, 0.6f);
}

// -------------------------------------------------------------- kernel calls

struct KQuery {
    int ok = 0;
    cc_convex_result r{};
    cc_vec3 origin{};
    cc_vec3 world_a() const { return cc_v3_add(r.point_a, origin); }
    cc_vec3 world_b() const { return cc_v3_add(r.point_b, origin); }
};

// As cc_collide_convex runs it: coordinates relative to A's centre.
KQuery kquery(const Body& a, const Body& b, float limit)
{
    KQuery q;
    q.origin = a.g.xf.p;
    cc_convex ca = cc_convex_of(&a.g, a.type, q.origin), cb = cc_convex_of(&b.g, b.type, q.origin);
    q.ok = cc_convex_query(&ca, &cb, limit, &q.r);
    return q;
}

cc_manifold kcores(const Body& a, const Body& b, float threshold)
{
    cc_manifold m;
    m.count = -1;
    cc_collide_cores(cc_route_of(a.type, b.type), &a.g, &b.g, threshold, &m);
    return m;
}

cc_manifold kconvex(const Body& a, const Body& b, float threshold)
{
    cc_manifold m;
    m.count = -1;
    cc_collide_convex(&a.g, a.type, &b.g, b.type, threshold, &m);
    return m;
}

float deepest(const cc_manifold& m)
{
    float d = INFINITY;
    for (int i = 0; i < m.count; ++i) d = std::min(d, m.distance[i]);
    return d;
}

double angle_f(cc_vec3 a, cc_vec3 b) { return convref::angle(dv(a), dv(b)); }

// ------------------------------------------------------------------- stats

struct Series {
    std::vector<double> v;
    void add(double x) { v.push_back(x); }
    double quantile(double q) const
    {
        if (v.empty()) return 0;
        std::vector<double> s = v;
        size_t k = std::min(s.size() - 1, (size_t)std::ceil(q * (double)s.size()) - 1);
        std::nth_element(s.begin(), s.begin() + (long)k, s.end());
        return s[k];
    }
    double max() const { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }
};

struct Worst {
    double value = -1;
    std::string what;
    void offer(double x, const std::string& w)
    {
        if (x > value) value = x, what = w;
    }
};

std::string pair_text(const Body& a, const Body& b)
{
    return "A: " + describe(a) + "\n    B: " + describe(b);
}

// =========================================================================
// The reference itself, against closed forms (so a failure below is the
// kernel's, not the reference's): point-box and point-cylinder signed
// distances, box-box penetration depth from the 15 SAT axes, and
// segment-segment distances.

double point_box_signed(V x, V h)
{
    V q = convref::v3(std::fabs(x.x) - h.x, std::fabs(x.y) - h.y, std::fabs(x.z) - h.z);
    V o = convref::v3(std::max(q.x, 0.0), std::max(q.y, 0.0), std::max(q.z, 0.0));
    double out = convref::norm(o);
    return out > 0 ? out : std::max(q.x, std::max(q.y, q.z));
}

double point_cylinder_signed(V x, double r, double h)
{
    double dr = std::hypot(x.x, x.y) - r, dz = std::fabs(x.z) - h;
    if (dr <= 0 && dz <= 0) return std::max(dr, dz);
    return std::hypot(std::max(dr, 0.0), std::max(dz, 0.0));
}

double box_box_sat_depth(const convref::Shape& a, const convref::Shape& b)
{
    std::vector<V> axes;
    for (int i = 0; i < 3; ++i) axes.push_back(a.pose.col[i]), axes.push_back(b.pose.col[i]);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            V c = convref::cross(a.pose.col[i], b.pose.col[j]);
            if (convref::norm(c) > 1e-6) axes.push_back(convref::unit(c));
        }
    double ha[3] = {a.dim.x, a.dim.y, a.dim.z}, hb[3] = {b.dim.x, b.dim.y, b.dim.z};
    double depth = 1e300;
    for (const V& l : axes) {
        double ra = 0, rb = 0;
        for (int k = 0; k < 3; ++k) {
            ra += ha[k] * std::fabs(convref::dot(a.pose.col[k], l));
            rb += hb[k] * std::fabs(convref::dot(b.pose.col[k], l));
        }
        depth = std::min(depth, ra + rb - std::fabs(convref::dot(b.pose.t - a.pose.t, l)));
    }
    return depth; // > 0: overlapping by that much; else separated along some axis
}

double segment_segment(V a0, V a1, V b0, V b1)
{
    auto point_seg = [](V x, V p, V q) {
        V d = q - p;
        double t = std::min(1.0, std::max(0.0, convref::dot(x - p, d) / convref::dot(d, d)));
        return convref::norm(x - (p + d * t));
    };
    double lo = 0, hi = 1;
    for (int it = 0; it < 200; ++it) {
        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (point_seg(a0 + (a1 - a0) * m1, b0, b1) < point_seg(a0 + (a1 - a0) * m2, b0, b1))
            hi = m2;
        else
            lo = m1;
    }
    double best = point_seg(a0 + (a1 - a0) * (0.5 * (lo + hi)), b0, b1);
    return std::min(best, std::min(point_seg(a0, b0, b1), point_seg(a1, b0, b1)));
}

TEST(ConvexReference, MatchesClosedForms)
{
    std::mt19937 rng(7);
    const double tol = 1e-9; // the reference is exact up to its 1e-10 rad step
    Series err_pb, err_pc, err_bb, err_ss;
    for (int i = 0; i < 150; ++i) {
        // Point against box, inside and outside.
        Body box = random_body(rng, CC_SHAPE_BOX);
        Body pt = random_body(rng, CC_SHAPE_SPHERE);
        pt.g.xf.p = cc_v3_add(box.g.xf.p, cc_v3(uni(rng, -1.2f, 1.2f), uni(rng, -1.2f, 1.2f), uni(rng, -1.2f, 1.2f)));
        convref::Shape rb = ref_of(box), rp = ref_of(pt);
        double exact = point_box_signed(convref::to_local(rb.pose, rp.pose.t), rb.dim);
        err_pb.add(std::fabs(convref::signed_distance(rb, rp).distance - exact));

        // Point against cylinder.
        Body cyl = random_body(rng, CC_SHAPE_CYLINDER);
        pt.g.xf.p = cc_v3_add(cyl.g.xf.p, cc_v3(uni(rng, -1.2f, 1.2f), uni(rng, -1.2f, 1.2f), uni(rng, -1.2f, 1.2f)));
        convref::Shape rc = ref_of(cyl);
        rp = ref_of(pt);
        exact = point_cylinder_signed(convref::to_local(rc.pose, rp.pose.t), rc.dim.x, rc.dim.y);
        err_pc.add(std::fabs(convref::signed_distance(rc, rp).distance - exact));

        // Overlapping boxes: minus the SAT depth.
        Body b2 = random_body(rng, CC_SHAPE_BOX);
        place(box, &b2, random_unit(rng), uni(rng, -0.4f, -0.01f));
        convref::Shape r2 = ref_of(b2);
        double depth = box_box_sat_depth(rb, r2);
        if (depth > 0) err_bb.add(std::fabs(convref::signed_distance(rb, r2).distance + depth));

        // Segments (distance >= 0 always).
        Body s1 = random_body(rng, CC_SHAPE_CAPSULE), s2 = random_body(rng, CC_SHAPE_CAPSULE);
        place(s1, &s2, random_unit(rng), uni(rng, -0.3f, 0.3f));
        convref::Shape q1 = ref_of(s1), q2 = ref_of(s2);
        V a0 = convref::to_world(q1.pose, convref::v3(0, 0, -q1.dim.y)), a1 = convref::to_world(q1.pose, convref::v3(0, 0, q1.dim.y));
        V b0 = convref::to_world(q2.pose, convref::v3(0, 0, -q2.dim.y)), b1 = convref::to_world(q2.pose, convref::v3(0, 0, q2.dim.y));
        err_ss.add(std::fabs(convref::signed_distance(q1, q2).distance - segment_segment(a0, a1, b0, b1)));
    }
    std::printf("[reference] max |error|: point-box %.2e, point-cylinder %.2e, box-box depth %.2e (%zu), "
                "segment-segment %.2e\n",
                err_pb.max(), err_pc.max(), err_bb.max(), err_bb.v.size(), err_ss.max());
    EXPECT_LE(err_pb.max(), tol);
    EXPECT_LE(err_pc.max(), tol);
    EXPECT_LE(err_bb.max(), tol);
    EXPECT_GE(err_bb.v.size(), 100u);
    EXPECT_LE(err_ss.max(), tol);
}

// =========================================================================
// a. cc_convex_query against the reference, per pair type.

// Whether the reference normal is defined to the normal tolerance: no
// direction outside the kNormalP95Deg cone is as good (plateau within
// kFlatTol times the summed sizes at the cone's rim), and no distinct local maximum outside it
// ties within kTieTol * s.
bool reference_normal_defined(const convref::Shape& ra, const convref::Shape& rb, const convref::Result& ref,
                              double s, double sum)
{
    double alpha = kNormalP95Deg * kDeg;
    if (convref::ring_max(ra, rb, ref.normal, alpha) >= ref.distance - kFlatTol * sum) return false;
    for (size_t i = 1; i < ref.maxima.size(); ++i) {
        const convref::Maximum& m = ref.maxima[i];
        if (convref::angle(m.n, ref.normal) > alpha &&
            convref::normals_tie(ra, rb, ref.distance, ref.normal, m.n, kFlatTol * sum, kTieTol * s))
            return false;
    }
    return true;
}

TEST(ConvexAccuracy, QueryMatchesReferencePerPairType)
{
    const int kPoses = 500;
    auto t_all = std::chrono::steady_clock::now();
    std::mt19937 rng(20240601);
    std::printf("\n[a] cc_convex_query vs reference, %d poses per pair type; errors relative to the smaller size\n",
                kPoses);
    std::printf("%-20s %10s %10s %10s %10s %8s %6s %7s %6s\n", "pair", "dist p95", "dist max", "n p95 deg",
                "n max deg", "checked", "sign", "mpr%", "s");
    bool all_ok = true;
    for (auto pt : gjk_pair_types()) {
        auto t0 = std::chrono::steady_clock::now();
        Series dist_err, normal_err;
        Worst worst_d, worst_n;
        int wrong_sign = 0, mpr = 0, missing = 0, ref_missed = 0;
        std::string sign_case;
        for (int i = 0; i < kPoses; ++i) {
            Body a = random_body(rng, pt.first), b = random_body(rng, pt.second);
            place(a, &b, random_unit(rng), random_delta(rng));
            double s = std::min(size_of(a), size_of(b));
            KQuery q = kquery(a, b, 1e3f);
            if (!q.ok) {
                ++missing;
                continue;
            }
            mpr += q.r.path == CC_CONVEX_PATH_MPR;
            convref::Shape ra = ref_of(a), rb = ref_of(b);
            convref::Result ref = convref::signed_distance(ra, rb);
            // Safety net for the reference: the basin of the kernel's normal,
            // climbed in double, must not beat the global search.
            convref::Maximum seeded = convref::local_max(ra, rb, dv(q.r.normal));
            if (seeded.value > ref.distance + 1e-9 * s) {
                ++ref_missed;
                ref.distance = seeded.value;
                ref.normal = seeded.n;
            }
            double e = std::fabs((double)q.r.distance - ref.distance) / s;
            dist_err.add(e);
            char buf[512];
            std::snprintf(buf, sizeof buf,
                          "kernel d %.9g n (%.6f %.6f %.6f) path %d | reference D %.9g n (%.6f %.6f %.6f) | "
                          "sep_ref(kernel n) %.9g\n    ",
                          q.r.distance, q.r.normal.x, q.r.normal.y, q.r.normal.z, q.r.path, ref.distance,
                          ref.normal.x, ref.normal.y, ref.normal.z, convref::sep(ra, rb, convref::unit(dv(q.r.normal))));
            std::string what = buf + pair_text(a, b);
            worst_d.offer(e, what);
            if (std::fabs(ref.distance) > kSignBand * s && (q.r.distance < 0) != (ref.distance < 0)) {
                ++wrong_sign;
                sign_case = what;
            }
            if (reference_normal_defined(ra, rb, ref, s, size_of(a) + size_of(b))) {
                double an = convref::angle(dv(q.r.normal), ref.normal) / kDeg;
                normal_err.add(an);
                worst_n.offer(an, what);
            }
        }
        double p95d = dist_err.quantile(0.95), maxd = dist_err.max(), p95n = normal_err.quantile(0.95);
        std::printf("%-20s %10.2e %10.2e %10.4f %10.4f %8zu %6d %6.1f%% %6.2f\n",
                    (std::string(type_name(pt.first)) + "-" + type_name(pt.second)).c_str(), p95d, maxd, p95n,
                    normal_err.max(), normal_err.v.size(), wrong_sign, 100.0 * mpr / kPoses, seconds_since(t0));
        std::string key = std::string(type_name(pt.first)) + "_" + type_name(pt.second);
        ::testing::Test::RecordProperty(key + "_dist_p95", std::to_string(p95d));
        ::testing::Test::RecordProperty(key + "_dist_max", std::to_string(maxd));
        ::testing::Test::RecordProperty(key + "_normal_p95_deg", std::to_string(p95n));
        bool ok = p95d <= kDistP95 && maxd <= kDistMax && p95n <= kNormalP95Deg && wrong_sign == 0 && missing == 0;
        EXPECT_EQ(missing, 0) << type_name(pt.first) << "-" << type_name(pt.second) << ": query returned 0";
        EXPECT_EQ(ref_missed, 0) << type_name(pt.first) << "-" << type_name(pt.second)
                                 << ": the reference's global search missed a better maximum (a defect of the test)";
        EXPECT_LE(p95d, kDistP95) << type_name(pt.first) << "-" << type_name(pt.second);
        EXPECT_LE(maxd, kDistMax) << type_name(pt.first) << "-" << type_name(pt.second) << "\n  worst: "
                                  << worst_d.what;
        EXPECT_LE(p95n, kNormalP95Deg) << type_name(pt.first) << "-" << type_name(pt.second) << "\n  worst: "
                                       << worst_n.what;
        EXPECT_EQ(wrong_sign, 0) << type_name(pt.first) << "-" << type_name(pt.second) << "\n  last: " << sign_case;
        if (!ok) all_ok = false;
    }
    std::printf("[a] total %.1f s%s\n", seconds_since(t_all), all_ok ? "" : " (failures above)");
}


// Round shapes stacked cap on cap, nearly coaxial, as in a stacking scene:
// their contact runs rim against rim or rim against cap, where the rims'
// supporting points swing fast with the direction (the case the rim solve
// of cc_convex_rim_jump is for). Cylinders on cylinders and cones standing
// on their base on a cylinder's top, against the reference.
TEST(ConvexAccuracy, StackedRoundShapesMatchReference)
{
    const int kPoses = 300;
    std::mt19937 rng(2718);
    for (int top : {CC_SHAPE_CYLINDER, CC_SHAPE_CONE}) {
        Series dist_err, normal_err;
        Worst worst_d;
        for (int i = 0; i < kPoses; ++i) {
            float r = uni(rng, 0.2f, 1), h = uni(rng, 0.2f, 1), rt = r * uni(rng, 0.9f, 1.1f), ht = uni(rng, 0.2f, 1);
            cc_quat tilt_a = quat_axis_angle(cc_v3(uni(rng, -1, 1), uni(rng, -1, 1), 0), uni(rng, 0, 2) * kDeg);
            cc_quat tilt_b = quat_axis_angle(cc_v3(uni(rng, -1, 1), uni(rng, -1, 1), 0), uni(rng, 0, 2) * kDeg);
            Body a = make_body(CC_SHAPE_CYLINDER, cc_v3(r, h, 0), cc_v3(0, 0, 0), tilt_a);
            float gap = uni(rng, -2e-3f, 2e-3f) * (r + h);
            cc_vec3 at = cc_v3(uni(rng, -0.02f, 0.02f) * r, uni(rng, -0.02f, 0.02f) * r, h + ht + gap);
            Body b = make_body(top, cc_v3(rt, ht, 0), at, tilt_b);
            double s = std::min(size_of(a), size_of(b));
            KQuery q = kquery(a, b, 1e3f);
            ASSERT_TRUE(q.ok);
            convref::Shape ra = ref_of(a), rb = ref_of(b);
            convref::Result ref = convref::signed_distance(ra, rb);
            convref::Maximum seeded = convref::local_max(ra, rb, dv(q.r.normal));
            if (seeded.value > ref.distance) {
                ref.distance = seeded.value;
                ref.normal = seeded.n;
            }
            double e = std::fabs((double)q.r.distance - ref.distance) / s;
            dist_err.add(e);
            char buf[256];
            std::snprintf(buf, sizeof buf, "kernel d %.9g | reference %.9g\n    ", q.r.distance, ref.distance);
            worst_d.offer(e, buf + pair_text(a, b));
            if (reference_normal_defined(ra, rb, ref, s, size_of(a) + size_of(b)))
                normal_err.add(convref::angle(dv(q.r.normal), ref.normal) / kDeg);
        }
        std::printf("stacked cylinder-%-9s distance p95 %.2e max %.2e, normal p95 %.4f deg (%zu)\n",
                    type_name(top), dist_err.quantile(0.95), dist_err.max(), normal_err.quantile(0.95),
                    normal_err.v.size());
        EXPECT_LE(dist_err.quantile(0.95), kDistP95) << type_name(top);
        EXPECT_LE(dist_err.max(), kDistMax) << type_name(top) << "\n  worst: " << worst_d.what;
        EXPECT_LE(normal_err.quantile(0.95), kNormalP95Deg) << type_name(top);
    }
}

// =========================================================================
// b. The generic path (cc_collide_convex) against the analytic routines
// (cc_collide_cores) for the pairs that have both.

// When two normals differ, whether the pose's normal is ambiguous (the
// reference finds both equally good; see kFlatTol, kTieTol). With
// ref_distance, against the reference's global maximum (returned there);
// without, against the maximum of the better normal's basin (enough to
// compare two runs of the kernel with each other, and much cheaper).
bool normals_tie(const Body& a, const Body& b, cc_vec3 n1, cc_vec3 n2, double* ref_distance = nullptr)
{
    convref::Shape ra = ref_of(a), rb = ref_of(b);
    convref::Result ref;
    if (ref_distance) {
        ref = convref::signed_distance(ra, rb);
        *ref_distance = ref.distance;
    } else {
        V seed = convref::sep(ra, rb, convref::unit(dv(n1))) >= convref::sep(ra, rb, convref::unit(dv(n2))) ? dv(n1) : dv(n2);
        ref.distance = convref::local_max(ra, rb, seed).value;
    }
    double s = std::min(size_of(a), size_of(b)), sum = size_of(a) + size_of(b);
    return convref::normals_tie(ra, rb, ref.distance, dv(n1), dv(n2), kFlatTol * sum, kTieTol * s);
}

// Poses around contact as in random_delta, plus 5% with coincident centres
// and 5% deep (centres within 0.1 s of each other).
void place_with_deep(std::mt19937& rng, const Body& a, Body* b)
{
    float k = uni(rng, 0, 1);
    double s = std::min(size_of(a), size_of(*b));
    if (k < 0.05f) {
        b->g.xf.p = a.g.xf.p;
    } else if (k < 0.10f) {
        b->g.xf.p = cc_v3_add(a.g.xf.p, cc_v3_scale(random_unit(rng), (float)(0.1 * s) * uni(rng, 0, 1)));
    } else {
        place(a, b, random_unit(rng), random_delta(rng));
    }
}

// One deliberate difference is counted apart: a box resting on a box or
// just above it (overlap below 1% of the pair's size, or a gap) whose exact
// normal is an edge or vertex pair within CC_FEATURE_ANGLE of a face normal
// keeps the analytic face manifold and its face normal
// (narrowphase/box_box.h), at the same distance within the tolerance.
TEST(ConvexAccuracy, GenericPathMatchesAnalyticPairs)
{
    const int kPoses = 10000;
    const float kThreshold = 1e3f; // every pose gives a contact
    auto t_all = std::chrono::steady_clock::now();
    std::mt19937 rng(777);
    const int pairs[6][2] = {{CC_SHAPE_SPHERE, CC_SHAPE_SPHERE},   {CC_SHAPE_SPHERE, CC_SHAPE_CAPSULE},
                             {CC_SHAPE_SPHERE, CC_SHAPE_BOX},      {CC_SHAPE_CAPSULE, CC_SHAPE_CAPSULE},
                             {CC_SHAPE_CAPSULE, CC_SHAPE_BOX},     {CC_SHAPE_BOX, CC_SHAPE_BOX}};
    std::printf("\n[b] cc_collide_convex vs analytic, %d poses per pair\n", kPoses);
    std::printf("%-18s %10s %10s %12s %12s %6s %7s %7s %7s %7s %6s\n", "pair", "dist p95", "dist max", "n p95 rad",
                "n max rad", "ties", "d fails", "(conv)", "n fails", "(conv)", "s");
    for (const auto& pr : pairs) {
        auto t0 = std::chrono::steady_clock::now();
        Series derr, nerr;
        Worst worst_d, worst_n;
        int ties = 0, dist_fail = 0, normal_fail = 0, empty = 0, convex_off = 0, analytic_off = 0, convex_n_off = 0,
            face_kept = 0;
        for (int i = 0; i < kPoses; ++i) {
            Body a = random_body(rng, pr[0]), b = random_body(rng, pr[1]);
            place_with_deep(rng, a, &b);
            double s = std::min(size_of(a), size_of(b));
            cc_manifold ma = kcores(a, b, kThreshold), mc = kconvex(a, b, kThreshold);
            if (ma.count <= 0 || mc.count <= 0) {
                ++empty;
                continue;
            }
            double de = std::fabs((double)deepest(ma) - deepest(mc)) / s;
            double an = angle_f(ma.normal, mc.normal);
            derr.add(de);
            bool resting_face = false;
            if (pr[0] == CC_SHAPE_BOX && pr[1] == CC_SHAPE_BOX) {
                /* The kernel's pair scale: half extents of both plus the
                 * centre offset per axis of A (at most the 1-norm used here). */
                cc_vec3 ha = a.g.size, hb = b.g.size, d = cc_v3_sub(b.g.xf.p, a.g.xf.p);
                double scale = ha.x + ha.y + ha.z + hb.x + hb.y + hb.z + std::fabs(d.x) + std::fabs(d.y) +
                               std::fabs(d.z);
                resting_face = ma.count >= 3 && an <= 0.1 && de <= kAnalyticDist && deepest(ma) >= -0.01 * scale;
            }
            if (resting_face && an > kAnalyticNormal) {
                ++face_kept;
                continue;
            }
            if (de > kAnalyticDist || an > kAnalyticNormal) {
                double D = 0;
                bool tie = an > kAnalyticNormal && normals_tie(a, b, ma.normal, mc.normal, &D);
                if (tie) {
                    ++ties;
                } else if (an > kAnalyticNormal) {
                    nerr.add(an);
                    ++normal_fail;
                }
                if (!tie || de > kAnalyticDist) {
                    if (!(D != 0)) D = convref::signed_distance(ref_of(a), ref_of(b)).distance;
                    if (de > kAnalyticDist) {
                        ++dist_fail;
                        // Which side the reference sides with.
                        if (std::fabs(deepest(mc) - D) > std::fabs(deepest(ma) - D)) ++convex_off;
                        else ++analytic_off;
                    }
                    // The reference's sep along each normal: the lower one is off.
                    convref::Shape ra = ref_of(a), rb = ref_of(b);
                    double sep_a = convref::sep(ra, rb, convref::unit(dv(ma.normal)));
                    double sep_c = convref::sep(ra, rb, convref::unit(dv(mc.normal)));
                    if (!tie && an > kAnalyticNormal && sep_c < sep_a) ++convex_n_off;
                    char buf[640];
                    std::snprintf(buf, sizeof buf,
                                  "analytic d %.9g n (%.6f %.6f %.6f) count %d | convex d %.9g n (%.6f %.6f %.6f) "
                                  "count %d | reference D %.9g, sep_ref(analytic n) %.9g, sep_ref(convex n) %.9g\n    ",
                                  deepest(ma), ma.normal.x, ma.normal.y, ma.normal.z, ma.count, deepest(mc),
                                  mc.normal.x, mc.normal.y, mc.normal.z, mc.count, D, sep_a, sep_c);
                    std::string what = buf + pair_text(a, b);
                    worst_d.offer(de, what);
                    if (!tie) worst_n.offer(an, what);
                }
            } else {
                nerr.add(an);
            }
        }
        std::string name = std::string(type_name(pr[0])) + "-" + type_name(pr[1]);
        std::printf("%-18s %10.2e %10.2e %12.2e %12.2e %6d %7d %7d %7d %7d %6.2f\n", name.c_str(), derr.quantile(0.95),
                    derr.max(), nerr.quantile(0.95), nerr.max(), ties, dist_fail, convex_off, normal_fail, convex_n_off,
                    seconds_since(t0));
        if (face_kept) std::printf("%-18s %d resting face manifolds kept with the face normal\n", "", face_kept);
        (void)analytic_off;
        EXPECT_EQ(empty, 0) << name;
        EXPECT_EQ(dist_fail, 0) << name << ": deepest distance differs by more than " << kAnalyticDist
                                << " s (" << convex_off << " times the generic path is the one off the reference, "
                                << analytic_off << " times the analytic routine); worst (" << worst_d.value
                                << "):\n    " << worst_d.what;
        EXPECT_EQ(normal_fail, 0) << name << ": normal differs by more than " << kAnalyticNormal
                                  << " rad without a tie (" << convex_n_off
                                  << " times the generic path's normal is the worse one by the reference's sep, "
                                  << normal_fail - convex_n_off << " times the analytic one's); worst (" << worst_n.value << " rad):\n    "
                                  << worst_n.what;
    }
    std::printf("[b] total %.1f s\n", seconds_since(t_all));
}

// Plane against sphere, capsule and box: cc_collide_plane_convex against the
// analytic plane routines. The generic routine keeps the supporting feature
// (face, edge or point within CC_FEATURE_ANGLE of the plane) and the
// analytic one every vertex or end within the threshold, so counts are
// compared where the geometry fixes them: a box face down (tilt 0.01..3
// degrees) with the threshold between its face and the other vertices: 4;
// an edge down (both faces 10..80 degrees off, edge tilt 0.01..3 degrees),
// threshold above its ends only: 2; a vertex down (10 degrees off every
// face and edge), threshold below the second vertex: 1; a capsule lying
// (0.01..3 degrees) with both ends in: 2; a capsule tilted 10..90 degrees
// with the threshold between its ends: 1; a sphere: 1 or 0. Random
// orientations with a large threshold compare the deepest point only.

cc_quat qmul(cc_quat a, cc_quat b) { return cc_q_normalize(cc_q_mul(a, b)); }

// A pair placed 10 to 40 % of the smaller size into each other at random,
// in the pair coordinates the query uses (A's centre), with the skin and
// the certifying EPA tolerance of the deep overlap path, and the inflated
// cores' depth by the reference with the rounding its support points allow
// (a few ulps of the pair's coordinates).
struct DeepPair {
    Body a, b;
    cc_convex ca, cb;
    float small, scale, skin, fine;
    double depth, rounding;
};

DeepPair deep_pair(std::mt19937& rng, int type_a, int type_b)
{
    DeepPair p;
    p.a = random_body(rng, type_a);
    p.b = random_body(rng, type_b);
    place(p.a, &p.b, random_unit(rng), uni(rng, -0.4f, -0.1f));
    p.ca = cc_convex_of(&p.a.g, p.a.type, p.a.g.xf.p);
    p.cb = cc_convex_of(&p.b.g, p.b.type, p.a.g.xf.p);
    p.small = std::min(p.ca.extent, p.cb.extent);
    p.scale = p.ca.extent + p.cb.extent;
    p.skin = CC_CONVEX_SKIN * p.small;
    p.fine = 0.5f * CC_CONVEX_CERTIFIED * p.small;
    p.depth = p.skin - convref::signed_distance(ref_of(p.a), ref_of(p.b)).distance;
    p.rounding = 4e-7 * (size_of(p.a) + size_of(p.b) + 2.0);
    return p;
}

// EPA on deep pairs of round shapes, as the deep overlap path runs it (on
// MPR's tetrahedron, the inflated cores, the tolerance that certifies a
// climb): its nearest face never claims more depth than the reference's
// (the bound the certificate rests on), a converged answer is within the
// tolerance of it, and the pools hold enough vertices for nearly every pair
// to converge (a curved optimum takes 40 to 60).
TEST(ConvexAccuracy, EpaBoundsTheDepthAndConvergesOnRoundPairs)
{
    const int kPoses = 150;
    const std::pair<int, int> kPairs[] = {{CC_SHAPE_ELLIPSOID, CC_SHAPE_ELLIPSOID}, {CC_SHAPE_CYLINDER, CC_SHAPE_ELLIPSOID},
                                          {CC_SHAPE_CAPSULE, CC_SHAPE_ELLIPSOID},   {CC_SHAPE_SPHERE, CC_SHAPE_ELLIPSOID},
                                          {CC_SHAPE_CYLINDER, CC_SHAPE_CYLINDER},   {CC_SHAPE_BOX, CC_SHAPE_CYLINDER}};
    std::mt19937 rng(20261206);
    int runs = 0, converged = 0;
    for (const auto& pt : kPairs) {
        for (int i = 0; i < kPoses; ++i) {
            DeepPair p = deep_pair(rng, pt.first, pt.second);
            const Body &a = p.a, &b = p.b;
            const cc_convex &ca = p.ca, &cb = p.cb;
            float skin = p.skin, tolerance = p.fine, scale = p.scale;
            double depth = p.depth, rounding = p.rounding;
            cc_mpr_result m;
            cc_mpr(&ca, &cb, skin, CC_CONVEX_MPR_TOLERANCE * scale, &m);
            if (!m.has_tetra) continue;
            cc_epa_result e;
            cc_epa(&ca, &cb, skin, tolerance, 3.0e38f, m.tetra, &e);
            ASSERT_TRUE(e.ok) << pair_text(a, b);
            ++runs;
            converged += e.converged;
            EXPECT_LE(e.depth, depth + rounding) << "EPA's bound above the depth: " << pair_text(a, b);
            if (e.converged) {
                EXPECT_GE(e.depth, depth - tolerance - rounding) << "EPA converged short: " << pair_text(a, b);
            }
            EXPECT_NEAR(cc_v3_length(e.normal), 1.0f, 1e-5f);
        }
    }
    std::printf("EPA on %d deep round pairs: %d converged\n", runs, converged);
    EXPECT_GT(runs, 800);
    EXPECT_GE(converged, 0.85 * runs); // 0.92 here; 0.71 with 40 vertices
}

// EPA kept between runs, as the deep overlap path runs it on round shapes:
// from GJK's last simplex, stopped coarse for the climb's start, then run
// on to the tolerance that certifies. The coarse stop bounds the depth from
// below, within its own tolerance once converged, and running on is the
// same expansion as one run to the fine tolerance from the same simplex:
// the same answer, to the bit.
TEST(ConvexAccuracy, EpaRunOnFromACoarseStopMatchesOneRun)
{
    const int kPoses = 150;
    const std::pair<int, int> kPairs[] = {{CC_SHAPE_ELLIPSOID, CC_SHAPE_ELLIPSOID}, {CC_SHAPE_CYLINDER, CC_SHAPE_ELLIPSOID},
                                          {CC_SHAPE_CYLINDER, CC_SHAPE_CYLINDER}, {CC_SHAPE_BOX, CC_SHAPE_CYLINDER}};
    std::mt19937 rng(20261207);
    int runs = 0, converged = 0;
    for (const auto& pt : kPairs) {
        for (int i = 0; i < kPoses; ++i) {
            DeepPair p = deep_pair(rng, pt.first, pt.second);
            float coarse = CC_CONVEX_EPA_START * p.scale;
            cc_gjk_result g;
            cc_vec3 zero = cc_v3(0.0f, 0.0f, 0.0f);
            cc_gjk(&p.ca, &p.cb, zero, zero, 3.0e38f, p.skin, CC_CONVEX_GJK_TOLERANCE * p.small, &g);
            if (g.status == CC_GJK_BEYOND || !g.has_tetra) continue;
            cc_epa_state s;
            cc_epa_begin(&s, g.tetra);
            cc_epa_result first, on, once;
            cc_epa_run(&p.ca, &p.cb, p.skin, coarse, 3.0e38f, &s, &first);
            ASSERT_TRUE(first.ok) << pair_text(p.a, p.b);
            ++runs;
            EXPECT_LE(first.depth, p.depth + p.rounding) << "coarse bound above the depth: " << pair_text(p.a, p.b);
            if (first.converged) {
                EXPECT_GE(first.depth, p.depth - coarse - p.rounding) << "coarse stop short: " << pair_text(p.a, p.b);
            }
            cc_epa_run(&p.ca, &p.cb, p.skin, p.fine, 3.0e38f, &s, &on);
            cc_epa(&p.ca, &p.cb, p.skin, p.fine, 3.0e38f, g.tetra, &once);
            ASSERT_TRUE(on.ok && once.ok) << pair_text(p.a, p.b);
            EXPECT_EQ(on.converged, once.converged) << pair_text(p.a, p.b);
            EXPECT_EQ(on.depth, once.depth) << pair_text(p.a, p.b);
            EXPECT_EQ(on.normal.x, once.normal.x) << pair_text(p.a, p.b);
            EXPECT_EQ(on.normal.y, once.normal.y) << pair_text(p.a, p.b);
            EXPECT_EQ(on.normal.z, once.normal.z) << pair_text(p.a, p.b);
            EXPECT_EQ(first.iterations + on.iterations, once.iterations) << pair_text(p.a, p.b);
            EXPECT_LE(on.depth, p.depth + p.rounding) << "bound above the depth: " << pair_text(p.a, p.b);
            if (on.converged) {
                ++converged;
                EXPECT_GE(on.depth, p.depth - p.fine - p.rounding) << "run on stopped short: " << pair_text(p.a, p.b);
            }
        }
    }
    std::printf("EPA run on from a coarse stop, %d deep round pairs: %d converged\n", runs, converged);
    EXPECT_GT(runs, 400);
    EXPECT_GE(converged, 0.8 * runs);
}

TEST(ConvexAccuracy, PlaneConvexMatchesAnalyticPlane)
{
    const int kPoses = 10000; // per shape type
    auto t_all = std::chrono::steady_clock::now();
    std::mt19937 rng(4242);
    const cc_vec3 ex = cc_v3(1, 0, 0), ey = cc_v3(0, 1, 0), ez = cc_v3(0, 0, 1);
    const cc_quat face_down[6] = {cc_q_identity(),
                                  quat_axis_angle(ex, kPi),
                                  quat_axis_angle(ex, kPi / 2),
                                  quat_axis_angle(ex, -kPi / 2),
                                  quat_axis_angle(ey, kPi / 2),
                                  quat_axis_angle(ey, -kPi / 2)};
    std::printf("\n[b] cc_collide_plane_convex vs analytic plane routines, %d poses per shape\n", kPoses);
    std::printf("%-10s %10s %10s %12s %10s %10s %6s\n", "shape", "dist p95", "dist max", "n max rad", "counts",
                "count diff", "s");
    const int shapes[3] = {CC_SHAPE_SPHERE, CC_SHAPE_CAPSULE, CC_SHAPE_BOX};
    for (int tb : shapes) {
        auto t0 = std::chrono::steady_clock::now();
        Series derr, nerr;
        Worst worst_d, worst_c;
        int compared = 0, count_diff = 0, dist_fail = 0, normal_fail = 0;
        for (int i = 0; i < kPoses; ++i) {
            cc_quat qp = random_quat(rng);
            Body plane = make_body(CC_SHAPE_PLANE, cc_v3(0, 0, 0),
                                   cc_v3(uni(rng, -1, 1), uni(rng, -1, 1), uni(rng, -1, 1)), qp);
            Body b = random_body(rng, tb);
            double s = size_of(b);
            int category = std::uniform_int_distribution<int>(0, 3)(rng);
            cc_quat rel = cc_q_identity();
            float psi = uni(rng, 0, 2 * (float)kPi);
            if (tb == CC_SHAPE_BOX) {
                if (category == 0) {
                    float phi = uni(rng, 0, 2 * (float)kPi);
                    rel = qmul(quat_axis_angle(ez, psi),
                               qmul(quat_axis_angle(cc_v3(std::cos(phi), std::sin(phi), 0), uni(rng, 0.01f, 3) * kDeg),
                                    face_down[std::uniform_int_distribution<int>(0, 5)(rng)]));
                } else if (category == 1) {
                    float tilt = uni(rng, 0.01f, 3) * (uni(rng, 0, 1) < 0.5f ? -1 : 1);
                    rel = qmul(quat_axis_angle(ez, psi),
                               qmul(quat_axis_angle(ey, tilt * kDeg),
                                    qmul(quat_axis_angle(ex, uni(rng, 10, 80) * kDeg),
                                         face_down[std::uniform_int_distribution<int>(0, 5)(rng)])));
                } else if (category == 2) {
                    for (;;) {
                        rel = random_quat(rng);
                        cc_vec3 d = cc_q_rotate_inv(rel, cc_v3(0, 0, -1));
                        cc_vec3 ad = cc_v3_abs(d);
                        float mx = std::max(ad.x, std::max(ad.y, ad.z)), mn = std::min(ad.x, std::min(ad.y, ad.z));
                        if (mx < std::cos(10 * kDeg) && mn > std::sin(10 * kDeg)) break;
                    }
                } else {
                    rel = random_quat(rng);
                }
            } else if (tb == CC_SHAPE_CAPSULE) {
                if (category == 0)
                    rel = qmul(quat_axis_angle(ez, psi),
                               quat_axis_angle(ex, (90 + uni(rng, 0.01f, 3) * (uni(rng, 0, 1) < 0.5f ? -1 : 1)) * kDeg));
                else if (category == 1)
                    rel = qmul(quat_axis_angle(ez, psi), quat_axis_angle(ex, (90 - uni(rng, 10, 90)) * kDeg));
                else
                    rel = random_quat(rng);
            } else {
                rel = random_quat(rng);
            }
            b.g.xf.q = qmul(qp, rel);
            // Heights of the core's vertices (ends, corners, centre) relative
            // to its centre, in double.
            convref::Pose pp = pose_of(plane.g.xf);
            V n = pp.col[2];
            convref::Shape rb = ref_of(b);
            std::vector<double> rel_h;
            if (tb == CC_SHAPE_BOX) {
                for (int k = 0; k < 8; ++k)
                    rel_h.push_back(convref::dot(convref::to_world_dir(rb.pose, convref::v3((k & 1) ? rb.dim.x : -rb.dim.x,
                                                                                            (k & 2) ? rb.dim.y : -rb.dim.y,
                                                                                            (k & 4) ? rb.dim.z : -rb.dim.z)),
                                                 n));
            } else if (tb == CC_SHAPE_CAPSULE) {
                for (int k = 0; k < 2; ++k)
                    rel_h.push_back(convref::dot(convref::to_world_dir(rb.pose, convref::v3(0, 0, k ? rb.dim.y : -rb.dim.y)), n));
            } else {
                rel_h.push_back(0);
            }
            std::sort(rel_h.begin(), rel_h.end());
            double low = uni(rng, -0.6f, 0.6f) * s;
            V tangent = convref::unit(convref::cross(n, dv(random_unit(rng))));
            b.g.xf.p = fv(pp.t + tangent * (double)uni(rng, -1, 1) + n * (low - rel_h[0]));
            // Heights as placed (after rounding the centre to float).
            double c_h = convref::dot(dv(b.g.xf.p) - pp.t, n);
            std::vector<double> h;
            for (double r : rel_h) h.push_back(c_h + r);
            int expect = -1; // -1: the count is not compared
            float threshold = 1e3f;
            if (tb == CC_SHAPE_SPHERE) {
                threshold = (float)(uni(rng, -0.3f, 0.6f) * s);
                if (std::fabs(h[0] - threshold) > 1e-5 * s) expect = h[0] <= threshold ? 1 : 0;
            } else {
                int k = tb == CC_SHAPE_BOX ? (category == 0 ? 4 : category == 1 ? 2 : category == 2 ? 1 : -1)
                                           : (category == 0 ? 2 : category == 1 ? 1 : -1);
                if (k > 0 && k < (int)h.size() && h[k] - h[k - 1] > 1e-3 * s) {
                    threshold = (float)(0.5 * (h[k - 1] + h[k]));
                    expect = k;
                } else if (k == 2 && tb == CC_SHAPE_CAPSULE) {
                    threshold = (float)(h[1] + 0.1 * s);
                    expect = 2;
                }
            }
            cc_manifold ma = kcores(plane, b, threshold);
            cc_manifold mc;
            mc.count = -1;
            cc_collide_plane_convex(&plane.g, &b.g, tb, threshold, &mc);
            char buf[512];
            std::snprintf(buf, sizeof buf,
                          "category %d threshold %.9g | analytic count %d d %.9g | convex count %d d %.9g\n    ", category,
                          threshold, ma.count, ma.count ? deepest(ma) : 0.0f, mc.count, mc.count ? deepest(mc) : 0.0f);
            std::string what = buf + std::string("plane: ") + describe(plane) + "\n    B: " + describe(b);
            if (expect >= 0) {
                ++compared;
                if (ma.count != mc.count) {
                    ++count_diff;
                    worst_c.offer(1, what);
                }
            }
            if (ma.count > 0 && mc.count > 0) {
                double de = std::fabs((double)deepest(ma) - deepest(mc)) / s, an = angle_f(ma.normal, mc.normal);
                derr.add(de);
                nerr.add(an);
                if (de > kAnalyticDist) ++dist_fail, worst_d.offer(de, what);
                if (an > kAnalyticNormal) ++normal_fail;
            }
        }
        std::printf("%-10s %10.2e %10.2e %12.2e %10d %10d %6.2f\n", type_name(tb), derr.quantile(0.95), derr.max(),
                    nerr.max(), compared, count_diff, seconds_since(t0));
        EXPECT_EQ(dist_fail, 0) << type_name(tb) << "; worst:\n    " << worst_d.what;
        EXPECT_EQ(normal_fail, 0) << type_name(tb);
        EXPECT_EQ(count_diff, 0) << type_name(tb) << "; last:\n    " << worst_c.what;
        EXPECT_GT(compared, kPoses / 2) << type_name(tb);
    }
    std::printf("[b] plane total %.1f s\n", seconds_since(t_all));
}

// =========================================================================
// c. A hull of a box's 8 corners (scaled by the half extents) gives what the
// box gives, against spheres, capsules, boxes and cylinders.

TEST(ConvexAccuracy, BoxHullBehavesAsBox)
{
    const int kPoses = 2000; // per opponent type
    auto t_all = std::chrono::steady_clock::now();
    const TestHull* cube = cube_hull();
    ASSERT_NE(cube, nullptr);
    ASSERT_EQ(cube->data.face_count, 6);
    std::mt19937 rng(99);
    std::printf("\n[c] hull of a box's corners vs the box, %d poses per opponent\n", kPoses);
    std::printf("%-10s %10s %12s %8s %8s %10s %8s %7s %8s %6s\n", "opponent", "dist max", "n max rad", "ties",
                "count!=", "(wide thr)", "dist!=", "(hull)", "n!=", "s");
    const int opponents[4] = {CC_SHAPE_SPHERE, CC_SHAPE_CAPSULE, CC_SHAPE_BOX, CC_SHAPE_CYLINDER};
    for (int to : opponents) {
        auto t0 = std::chrono::steady_clock::now();
        Series derr, nerr;
        Worst worst_c, worst_d, worst_n;
        int ties = 0, count_diff = 0, count_diff_wide = 0, dist_fail = 0, normal_fail = 0, hull_off = 0;
        for (int i = 0; i < kPoses; ++i) {
            Body box = random_body(rng, CC_SHAPE_BOX);
            Body hull = make_body(CC_SHAPE_CONVEX_HULL, box.g.size, box.g.xf.p, box.g.xf.q, cube);
            Body o = random_body(rng, to);
            place_with_deep(rng, box, &o);
            double s = std::min(size_of(box), size_of(o));
            // Half the poses with a large threshold, half with one just past
            // the deepest point (1e-3 s), where the count is that of the
            // deepest feature. Counts are compared at the tight threshold:
            // with a large one the analytic routines keep every clipped
            // point within it (capsule-box spans the segment up to 25
            // degrees off a face, box-box clips faces up to about 5.7
            // degrees) while the generic path keeps the supporting feature
            // (CC_FEATURE_ANGLE), a difference of design, printed only.
            bool tight = (i & 1) != 0;
            float threshold = 1e3f;
            cc_manifold mb, mh;
            for (int pass = 0; pass < 2; ++pass) {
                if (to <= CC_SHAPE_BOX) {
                    mb = kcores(o, box, threshold);
                } else {
                    mb = kcores(box, o, threshold);
                    mb.normal = cc_v3_neg(mb.normal); // as seen from the opponent
                }
                mh = kcores(o, hull, threshold);
                if (!tight || pass == 1 || mb.count == 0) break;
                threshold = deepest(mb) + (float)(1e-3 * s);
            }
            char buf[512];
            std::snprintf(buf, sizeof buf,
                          "threshold %.9g | box count %d d %.9g n (%.6f %.6f %.6f) | hull count %d d %.9g n (%.6f "
                          "%.6f %.6f)\n    ",
                          threshold, mb.count, deepest(mb), mb.normal.x, mb.normal.y, mb.normal.z, mh.count,
                          deepest(mh), mh.normal.x, mh.normal.y, mh.normal.z);
            std::string what = buf + std::string("opponent: ") + describe(o) + "\n    box: " + describe(box);
            // Box against box runs the analytic routine, which keeps a resting
            // face manifold with the face's normal (see b); its counts and
            // those normals follow that rule, not the generic one. Capsule
            // against box, also analytic, spans the segment further off a
            // face (25 degrees against 5): counts are compared for the
            // generic opponents only.
            bool analytic_face = to == CC_SHAPE_BOX && mb.count >= 3 && deepest(mb) >= -0.01 * (size_of(o) + size_of(box));
            if (mb.count != mh.count && to != CC_SHAPE_BOX && to != CC_SHAPE_CAPSULE) {
                if (tight) {
                    ++count_diff;
                    worst_c.offer(1, what);
                } else {
                    ++count_diff_wide;
                }
            }
            if (mb.count == 0 || mh.count == 0) continue;
            double de = std::fabs((double)deepest(mb) - deepest(mh)) / s, an = angle_f(mb.normal, mh.normal);
            derr.add(de);
            // The reference's distance: which side is off, and the record of
            // the worst cases.
            double D = 0;
            bool have_D = false;
            auto with_reference = [&]() {
                if (!have_D) D = convref::signed_distance(ref_of(o), ref_of(box)).distance, have_D = true;
                char ref[96];
                std::snprintf(ref, sizeof ref, "reference D %.9g | ", D);
                return ref + what;
            };
            if (de > kSameDist) {
                ++dist_fail;
                std::string w = with_reference();
                if (std::fabs(deepest(mh) - D) > std::fabs(deepest(mb) - D)) ++hull_off;
                if (de > worst_d.value) worst_d.offer(de, w);
            }
            if (an > kSameNormal && !(analytic_face && an <= 0.1)) {
                if (normals_tie(o, box, mb.normal, mh.normal)) {
                    ++ties;
                    continue;
                }
                ++normal_fail;
                if (an > worst_n.value) worst_n.offer(an, with_reference());
            }
            nerr.add(an);
        }
        std::printf("%-10s %10.2e %12.2e %8d %8d %10d %8d %7d %8d %6.2f\n", type_name(to), derr.max(), nerr.max(), ties,
                    count_diff, count_diff_wide, dist_fail, hull_off, normal_fail, seconds_since(t0));
        EXPECT_EQ(count_diff, 0) << type_name(to) << "; last:\n    " << worst_c.what;
        EXPECT_EQ(dist_fail, 0) << type_name(to) << " (" << hull_off << " of them the hull side is the one off the reference, "
                                << dist_fail - hull_off << " the box side); worst (" << worst_d.value << "):\n    "
                                << worst_d.what;
        EXPECT_EQ(normal_fail, 0) << type_name(to) << "; worst (" << worst_n.value << " rad):\n    " << worst_n.what;
    }
    std::printf("[c] total %.1f s\n", seconds_since(t_all));
}

// h. The feature a hull touches with along a direction holds the support
// vertex there: its highest point is as high as the hull's support point.
// Hulls with few vertices offer every face to the feature search (they
// keep no vertex graph), and under a non-uniform scale the face whose
// normal lies nearest the direction can be one that does not hold the
// vertex: a capsule lying on such a hull took a corner 0.2 m higher as its
// contact. Hulls of 6 to 40 points and a 1,000-point one (which climbs its
// graph), scales up to 50 : 1, 4,000 directions each: the feature's top
// within 1e-6 of the extent of the support height (rounding).
TEST(ConvexAccuracy, HullFeaturesHoldTheSupportVertex)
{
    std::vector<const TestHull*> hulls = random_hulls();
    hulls.push_back(build_hull(fibonacci_points(1000), 1000, "fibonacci1000"));
    std::mt19937 rng(77);
    std::uniform_real_distribution<float> log_scale(0.0f, std::log(50.0f));
    std::normal_distribution<float> g(0.0f, 1.0f);
    int checked = 0;
    for (const TestHull* h : hulls) {
        ASSERT_NE(h, nullptr);
        for (int i = 0; i < 4000; ++i) {
            cc_vec3 size = cc_v3(std::exp(log_scale(rng)), std::exp(log_scale(rng)), std::exp(log_scale(rng)));
            cc_quat q = cc_q_normalize(cc_q(g(rng), g(rng), g(rng), g(rng)));
            Body b = make_body(CC_SHAPE_CONVEX_HULL, size, cc_v3(0.3f, -0.2f, 0.1f), q, h);
            cc_convex c = cc_convex_of(&b.g, b.type, cc_v3(0, 0, 0));
            cc_vec3 d = cc_v3_normalize(cc_v3(g(rng), g(rng), g(rng)));
            cc_feature f;
            cc_convex_feature(&c, d, &f);
            float top = -3.0e38f;
            for (int k = 0; k < f.count; ++k) top = std::max(top, cc_v3_dot(f.p[k], d));
            float support = cc_v3_dot(cc_support(&c, d), d);
            ASSERT_NEAR(top, support, 1e-6f * c.extent)
                << h->name << " scale (" << size.x << " " << size.y << " " << size.z << "), direction (" << d.x << " "
                << d.y << " " << d.z << "): a feature of " << f.count << " points";
            ++checked;
        }
    }
    EXPECT_EQ(checked, 4000 * (int)hulls.size());
}

// =========================================================================
// d. Hulls of N points on a sphere (Fibonacci, max_vertices = N) converge to
// the sphere: against a plane and a box at fixed poses the deepest distance
// approaches the ball's exact one (height - R; point-box distance - R) as N
// grows, to within 2% of R at N = 2048.

TEST(ConvexAccuracy, SphereHullConvergesToSphere)
{
    const float R = 0.5f;
    const int Ns[4] = {32, 128, 512, 2048};
    std::mt19937 rng(31);
    // Fixed poses: hull rotations, heights over the plane, box offsets.
    std::vector<cc_quat> rot;
    for (int i = 0; i < 6; ++i) rot.push_back(random_quat(rng));
    const float heights[3] = {0.7f * R, 0.95f * R, 1.2f * R};
    Body box = make_body(CC_SHAPE_BOX, cc_v3(0.4f, 0.3f, 0.5f), cc_v3(0.1f, -0.2f, 0.3f), random_quat(rng));
    std::vector<cc_vec3> offsets; // centre of the ball, outside the box
    for (int i = 0; i < 6; ++i)
        offsets.push_back(cc_v3_add(box.g.xf.p, cc_v3_scale(random_unit(rng), 0.75f + 0.1f * (float)i)));
    Body plane = make_body(CC_SHAPE_PLANE, cc_v3(0, 0, 0), cc_v3(0, 0, 0), cc_q_identity());
    convref::Shape rbox = ref_of(box);
    std::printf("\n[d] hull of N points on a sphere (R = %.2f): max |error| / R\n%-6s %12s %12s\n", R, "N", "plane",
                "box");
    double prev_plane = 1e9, prev_box = 1e9;
    for (int N : Ns) {
        const TestHull* h = build_hull(fibonacci_points(N), N, "sphere" + std::to_string(N));
        ASSERT_NE(h, nullptr);
        double err_plane = 0, err_box = 0;
        for (size_t r = 0; r < rot.size(); ++r) {
            for (float z : heights) {
                Body ball = make_body(CC_SHAPE_CONVEX_HULL, cc_v3(R, R, R), cc_v3(0.3f, -0.1f, z), rot[r], h);
                cc_manifold m = kcores(plane, ball, 1e3f);
                ASSERT_GT(m.count, 0);
                err_plane = std::max(err_plane, std::fabs((double)deepest(m) - ((double)z - R)) / R);
            }
            for (const cc_vec3& c : offsets) {
                Body ball = make_body(CC_SHAPE_CONVEX_HULL, cc_v3(R, R, R), c, rot[r], h);
                cc_manifold m = kcores(box, ball, 1e3f);
                ASSERT_GT(m.count, 0);
                double exact = point_box_signed(convref::to_local(rbox.pose, dv(c)), rbox.dim) - R;
                err_box = std::max(err_box, std::fabs((double)deepest(m) - exact) / R);
            }
        }
        std::printf("%-6d %12.3e %12.3e\n", N, err_plane, err_box);
        EXPECT_LT(err_plane, prev_plane) << "N = " << N;
        EXPECT_LT(err_box, prev_box) << "N = " << N;
        prev_plane = err_plane;
        prev_box = err_box;
    }
    EXPECT_LT(prev_plane, 0.02);
    EXPECT_LT(prev_box, 0.02);
}

// =========================================================================
// e. Swap symmetry and rigid-motion invariance of cc_convex_query, every
// GJK/MPR pair type.

// A witness pair is valid when both points lie on their cores (within tol)
// and realise the distance along the normal: then another valid pair is an
// equally correct answer (flat contacts have many).
bool valid_witness(const Body& a, const Body& b, cc_vec3 pa, cc_vec3 pb, cc_vec3 n, float d, double tol)
{
    convref::Shape ra = ref_of(a), rb = ref_of(b);
    V un = convref::unit(dv(n));
    double off_a = convref::point_distance(ra, dv(pa), un), off_b = convref::point_distance(rb, dv(pb), -un);
    double along = convref::dot(dv(pb) - dv(pa), un);
    return off_a <= tol && off_b <= tol && std::fabs(along - d) <= tol;
}

TEST(ConvexAccuracy, SwapSymmetryAndRigidMotion)
{
    const int kPoses = 300; // per pair type
    auto t_all = std::chrono::steady_clock::now();
    std::mt19937 rng(5150);
    std::printf("\n[e] swap and rigid motion, %d poses per pair type\n", kPoses);
    std::printf("%-20s %10s %12s %10s %12s %10s %6s %6s %12s %6s\n", "pair", "swap d", "swap n rad", "motion d",
                "motion n rad", "motion pt", "alt pt", "ties", "n incl. ties", "fails");
    for (auto pt : gjk_pair_types()) {
        Series sd, sn, md, mn, mp;
        double raw_n = 0;
        int other_witness = 0; // moved witnesses elsewhere on a flat contact, both valid
        int invalid_witness = 0, deep_poses = 0;
        Worst worst;
        int ties = 0, fails = 0;
        std::string name = std::string(type_name(pt.first)) + "-" + type_name(pt.second);
        for (int i = 0; i < kPoses; ++i) {
            Body a = random_body(rng, pt.first), b = random_body(rng, pt.second);
            place(a, &b, random_unit(rng), random_delta(rng));
            double s = std::min(size_of(a), size_of(b));
            cc_transform T = cc_tf(cc_v3(uni(rng, -3, 3), uni(rng, -3, 3), uni(rng, -3, 3)), random_quat(rng));
            Body ma = a, mb = b;
            ma.g.xf = cc_tf_mul(T, a.g.xf);
            mb.g.xf = cc_tf_mul(T, b.g.xf);
            KQuery q = kquery(a, b, 1e3f), qs = kquery(b, a, 1e3f), qm = kquery(ma, mb, 1e3f);
            if (!q.ok || !qs.ok || !qm.ok) {
                ++fails;
                worst.offer(1e9, "query returned 0\n    " + pair_text(a, b));
                continue;
            }
            double e_sd = std::fabs((double)q.r.distance - qs.r.distance) / s;
            double e_sn = angle_f(q.r.normal, cc_v3_neg(qs.r.normal));
            double e_md = std::fabs((double)q.r.distance - qm.r.distance) / s;
            double e_mn = angle_f(cc_tf_vector(T, q.r.normal), qm.r.normal);
            double e_mp = std::max(convref::norm(dv(cc_tf_point(T, q.world_a())) - dv(qm.world_a())),
                                   convref::norm(dv(cc_tf_point(T, q.world_b())) - dv(qm.world_b()))) / s;
            bool bad = false;
            char buf[768];
            std::snprintf(buf, sizeof buf,
                          "d %.9g n (%.6f %.6f %.6f) | swapped d %.9g n (%.6f %.6f %.6f) | moved d %.9g n_back "
                          "(%.6f %.6f %.6f) | errors: swap d %.2e n %.2e, motion d %.2e n %.2e pt %.2e\n    T: p "
                          "(%.9g %.9g %.9g) q (%.9g %.9g %.9g %.9g)\n    ",
                          q.r.distance, q.r.normal.x, q.r.normal.y, q.r.normal.z, qs.r.distance, qs.r.normal.x,
                          qs.r.normal.y, qs.r.normal.z, qm.r.distance, cc_tf_vector_inv(T, qm.r.normal).x,
                          cc_tf_vector_inv(T, qm.r.normal).y, cc_tf_vector_inv(T, qm.r.normal).z, e_sd, e_sn, e_md,
                          e_mn, e_mp, T.p.x, T.p.y, T.p.z, T.q.x, T.q.y, T.q.z, T.q.w);
            std::string what = buf + pair_text(a, b);
            sd.add(e_sd);
            md.add(e_md);
            raw_n = std::max(raw_n, std::max(e_sn, e_mn));
            // Shapes more than half inside each other have several local
            // optima within a few tenths of a percent of the depth; the
            // search from another frame can settle on a neighbour. There
            // only the depth is compared, within 1e-2 s.
            bool interpenetrated = q.r.distance < -0.5 * s;
            if (interpenetrated) {
                ++deep_poses;
                bad |= e_sd > 1e-2 || e_md > 1e-2;
                if (bad) {
                    ++fails;
                    worst.offer(std::max(e_sd, e_md) / 1e-2, what);
                }
                continue;
            }
            bad |= e_sd > 2 * kSameDist || e_md > 2 * kSameDist;
            bool tie_s = e_sn > kSameNormal && normals_tie(a, b, q.r.normal, cc_v3_neg(qs.r.normal));
            bool tie_m = e_mn > kSameNormal && normals_tie(ma, mb, cc_tf_vector(T, q.r.normal), qm.r.normal);
            if (tie_s || tie_m) ++ties;
            if (!tie_s) sn.add(e_sn), bad |= e_sn > kSameNormal;
            if (!tie_m) mn.add(e_mn), bad |= e_mn > kSameNormal;
            // Two flat features (faces or edges of boxes and hulls) touch
            // along a whole patch: any pair on it is a witness, so only a
            // point or a curved side makes the witness unique.
            bool unique_witness = q.r.feature_a.count == 1 || q.r.feature_b.count == 1;
            if (!tie_m && unique_witness) {
                bool pts_ok = e_mp <= kSamePoint ||
                              (valid_witness(ma, mb, qm.world_a(), qm.world_b(), qm.r.normal, qm.r.distance, kSamePoint * s) &&
                               valid_witness(a, b, q.world_a(), q.world_b(), q.r.normal, q.r.distance, kSamePoint * s));
                mp.add(e_mp);
                other_witness += e_mp > kSamePoint && pts_ok;
                // Printed, not asserted: on a faceted hull the point facing
                // a vertex can sit on either of two faces that tie.
                invalid_witness += !pts_ok;
            }
            if (bad) {
                ++fails;
                worst.offer(std::max(std::max(e_sd, e_md) / kSameDist, std::max(e_sn, e_mn) / kSameNormal), what);
            }
        }
        std::printf("%-20s %10.2e %12.2e %10.2e %12.2e %10.2e %6d %6d %12.2e %6d\n", name.c_str(), sd.max(), sn.max(),
                    md.max(), mn.max(), mp.max(), other_witness, ties, raw_n, fails);
        if (invalid_witness) std::printf("%-20s %d moved witness pairs off a surface\n", "", invalid_witness);
        if (deep_poses) std::printf("%-20s %d poses over half inside: depth compared only\n", "", deep_poses);
        EXPECT_EQ(fails, 0) << name << "; worst:\n    " << worst.what;
    }
    std::printf("[e] total %.1f s\n", seconds_since(t_all));
}

// =========================================================================
// f. Robustness: 100,000 random pairs over every convex type (plane
// included in the manifold check), with degenerate shapes and mixed scales.

Body degenerate_body(std::mt19937& rng, int type)
{
    // Scale class: tiny (1e-3), unit, huge (1e3).
    float k = uni(rng, 0, 1);
    float sc = k < 0.2f ? 1e-3f : (k < 0.8f ? 1.0f : 1e3f);
    bool degen = uni(rng, 0, 1) < 0.4f;
    Body b = random_body(rng, type == CC_SHAPE_PLANE ? CC_SHAPE_BOX : type);
    b.type = type;
    cc_vec3 s = b.g.size;
    int axis = std::uniform_int_distribution<int>(0, 2)(rng);
    switch (type) {
    case CC_SHAPE_PLANE:
        s = uni(rng, 0, 1) < 0.5f ? cc_v3(0, 0, 0) : cc_v3(s.x, s.y, 0); // infinite or finite
        break;
    case CC_SHAPE_CAPSULE:
        if (degen) s = uni(rng, 0, 1) < 0.5f ? cc_v3(1e-3f, 0.5f, 0) : cc_v3(s.x, 1e-3f * s.x, 0); // needle or ball
        break;
    case CC_SHAPE_BOX:
    case CC_SHAPE_ELLIPSOID:
    case CC_SHAPE_CONVEX_HULL:
        if (degen) { // one half extent / semi-axis / scale 1e-3 of the others
            float m = std::max(s.x, std::max(s.y, s.z)) * 1e-3f;
            s = axis == 0 ? cc_v3(m, s.y, s.z) : (axis == 1 ? cc_v3(s.x, m, s.z) : cc_v3(s.x, s.y, m));
        }
        break;
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE:
        if (degen) s = uni(rng, 0, 1) < 0.5f ? cc_v3(1e-3f * s.y, s.y, 0) : cc_v3(s.x, 1e-3f * s.x, 0); // needle or disk
        break;
    default: break;
    }
    b.g.size = cc_v3_scale(s, sc);
    return b;
}

bool finite3(cc_vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

TEST(ConvexAccuracy, RobustOnDegenerateInputs)
{
    const int kPairs = 100000;
    auto t0 = std::chrono::steady_clock::now();
    std::mt19937 rng(8675309);
    const int types[8] = {CC_SHAPE_PLANE, CC_SHAPE_SPHERE,    CC_SHAPE_CAPSULE,    CC_SHAPE_BOX,
                          CC_SHAPE_CYLINDER, CC_SHAPE_CONE, CC_SHAPE_ELLIPSOID, CC_SHAPE_CONVEX_HULL};
    int max_iterations = 0, nonfinite = 0, bad_normal = 0, over_cap = 0, over_count = 0, missing = 0, queries = 0;
    Worst worst;
    std::vector<int> iteration_hist;
    for (int i = 0; i < kPairs; ++i) {
        int ta = types[std::uniform_int_distribution<int>(0, 7)(rng)];
        int tb = types[std::uniform_int_distribution<int>(1, 7)(rng)];
        if (ta > tb) std::swap(ta, tb);
        Body a = degenerate_body(rng, ta), b = degenerate_body(rng, tb);
        float k = uni(rng, 0, 1);
        if (k < 0.1f) {
            b.g.xf = a.g.xf; // identical poses
        } else if (k < 0.2f) {
            b.g.xf.p = a.g.xf.p; // coincident centres
        } else if (ta != CC_SHAPE_PLANE) {
            place(a, &b, random_unit(rng), random_delta(rng));
        } else {
            b.g.xf.p = cc_v3_add(a.g.xf.p, cc_v3_scale(random_unit(rng), uni(rng, 0, 1.2f) * (float)size_of(b)));
        }
        std::string what = pair_text(a, b);
        if (ta != CC_SHAPE_PLANE) {
            ++queries;
            KQuery q = kquery(a, b, 1e9f);
            if (!q.ok) {
                ++missing;
                worst.offer(1, "query returned 0: " + what);
            } else {
                max_iterations = std::max(max_iterations, q.r.iterations);
                if ((int)iteration_hist.size() <= q.r.iterations) iteration_hist.resize(q.r.iterations + 1, 0);
                iteration_hist[q.r.iterations]++;
                if (q.r.iterations > kIterationCap) ++over_cap, worst.offer(2, "iterations over the cap: " + what);
                if (!std::isfinite(q.r.distance) || !finite3(q.r.normal) || !finite3(q.r.point_a) || !finite3(q.r.point_b)) {
                    ++nonfinite;
                    worst.offer(4, "non-finite query result: " + what);
                } else if (!(std::fabs(cc_v3_length(q.r.normal) - 1.0f) < kUnitNormal)) {
                    ++bad_normal;
                    worst.offer(3, "query normal not unit: " + what);
                }
            }
        }
        cc_manifold m = kcores(a, b, 1e9f);
        if (m.count < 0 || m.count > cc_convex_max_points(ta, tb)) {
            ++over_count;
            worst.offer(2, "manifold count " + std::to_string(m.count) + ": " + what);
        }
        if (m.count > 0) {
            bool fin = finite3(m.normal);
            for (int j = 0; j < m.count && j < CC_MANIFOLD_MAX_POINTS; ++j)
                fin = fin && finite3(m.point[j]) && std::isfinite(m.distance[j]);
            if (!fin) {
                ++nonfinite;
                worst.offer(4, "non-finite manifold: " + what);
            } else if (!(std::fabs(cc_v3_length(m.normal) - 1.0f) < kUnitNormal)) {
                ++bad_normal;
                worst.offer(3, "manifold normal not unit: " + what);
            }
        }
    }
    // Iteration distribution: p50, p99, max.
    long total = 0, acc = 0;
    for (int c : iteration_hist) total += c;
    int p50 = 0, p99 = 0;
    for (size_t it = 0; it < iteration_hist.size(); ++it) {
        acc += iteration_hist[it];
        if (!p50 && acc * 2 >= total) p50 = (int)it;
        if (!p99 && acc * 100 >= total * 99) p99 = (int)it;
    }
    std::printf("\n[f] %d pairs (%d queries) in %.1f s: iterations p50 %d p99 %d max %d (cap %d); non-finite %d, "
                "non-unit normals %d, over cap %d, counts over the table %d, missing %d\n",
                kPairs, queries, seconds_since(t0), p50, p99, max_iterations, kIterationCap, nonfinite, bad_normal,
                over_cap, over_count, missing);
    ::testing::Test::RecordProperty("max_iterations", max_iterations);
    EXPECT_EQ(nonfinite, 0) << worst.what;
    EXPECT_EQ(bad_normal, 0) << worst.what;
    EXPECT_EQ(over_cap, 0) << worst.what;
    EXPECT_EQ(over_count, 0) << worst.what;
    EXPECT_EQ(missing, 0) << worst.what;
    EXPECT_LE(max_iterations, kIterationCap);
}

} // namespace
