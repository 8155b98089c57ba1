// Shared helpers for the primitive narrow-phase tests: building poses,
// moving a pair rigidly, reading the core points back out of a manifold,
// independent (double precision, brute-force) distance references, and the
// invariant checks every emitted point must pass.
#ifndef CC_TESTS_NARROWPHASE_TEST_UTIL_H
#define CC_TESTS_NARROWPHASE_TEST_UTIL_H

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/narrowphase/manifold.h"

namespace nptest
{

using collide_fn = void (*)(const cc_geom*, const cc_geom*, float, cc_manifold*);

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
// Tolerances stated in the test plan.
constexpr float kTolValue = 1e-5f; // analytic distances, normals, points
constexpr float kTolCore = 1e-4f;  // "core point lies on its core"

inline cc_geom make_geom(cc_vec3 p, cc_quat q, cc_vec3 size)
{
    cc_geom g;
    g.xf = cc_tf(p, q);
    g.size = size;
    return g;
}

inline cc_quat quat_axis_angle(cc_vec3 axis, float angle)
{
    cc_vec3 u = cc_v3_normalize(axis);
    float s = std::sin(0.5f * angle);
    return cc_q(u.x * s, u.y * s, u.z * s, std::cos(0.5f * angle));
}

// Rotation taking local +z onto unit direction `dir` (for capsules).
inline cc_quat quat_z_to(cc_vec3 dir)
{
    cc_vec3 z = cc_v3(0, 0, 1);
    cc_vec3 axis = cc_v3_cross(z, dir);
    float s = cc_v3_length(axis), c = cc_v3_dot(z, dir);
    if (s < 1e-7f) return c > 0 ? cc_q_identity() : cc_q(1, 0, 0, 0);
    return quat_axis_angle(axis, std::atan2(s, c));
}

inline float uniform(std::mt19937& rng, float lo, float hi)
{
    return std::uniform_real_distribution<float>(lo, hi)(rng);
}

inline cc_vec3 random_vec(std::mt19937& rng, float lo, float hi)
{
    return cc_v3(uniform(rng, lo, hi), uniform(rng, lo, hi), uniform(rng, lo, hi));
}

inline cc_quat random_quat(std::mt19937& rng)
{
    std::normal_distribution<float> n(0.0f, 1.0f);
    return cc_q_normalize(cc_q(n(rng), n(rng), n(rng), n(rng)));
}

inline cc_transform random_motion(std::mt19937& rng)
{
    return cc_tf(random_vec(rng, -3.0f, 3.0f), random_quat(rng));
}

inline cc_geom moved(cc_transform t, cc_geom g)
{
    g.xf = cc_tf_mul(t, g.xf);
    return g;
}

// Not inlined, so that every call runs the same machine code: with
// multiply-add contraction allowed (clang's default), a call inlined with
// constant arguments may be folded with different rounding than a runtime
// call, and the threshold tests compare distances bit for bit.
__attribute__((noinline)) inline cc_manifold run(collide_fn fn, const cc_geom& a, const cc_geom& b,
                                                 float threshold)
{
    cc_manifold m;
    m.count = -1; // the routine must reset it
    fn(&a, &b, threshold, &m);
    return m;
}

// Core points encoded by point i (narrowphase/manifold.h).
inline cc_vec3 core_a(const cc_manifold& m, int i) { return cc_manifold_point_a(&m, i); }
inline cc_vec3 core_b(const cc_manifold& m, int i) { return cc_manifold_point_b(&m, i); }

inline float dist3(cc_vec3 a, cc_vec3 b) { return cc_v3_length(cc_v3_sub(a, b)); }

#define EXPECT_VEC_NEAR(a, b, tol)                                                                 \
    do {                                                                                           \
        cc_vec3 a_ = (a), b_ = (b);                                                                \
        EXPECT_NEAR(a_.x, b_.x, tol) << "x";                                                       \
        EXPECT_NEAR(a_.y, b_.y, tol) << "y";                                                       \
        EXPECT_NEAR(a_.z, b_.z, tol) << "z";                                                       \
    } while (0)

// --- independent references in double precision ---------------------------

struct dvec {
    double x, y, z;
};
inline dvec dv(cc_vec3 v) { return {v.x, v.y, v.z}; }
inline dvec operator+(dvec a, dvec b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline dvec operator-(dvec a, dvec b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline dvec operator*(dvec a, double s) { return {a.x * s, a.y * s, a.z * s}; }
inline double dot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline double norm(dvec a) { return std::sqrt(dot(a, a)); }

// Rotation of a double vector by a (float) unit quaternion, as a matrix.
inline dvec drot(cc_quat q, dvec v, bool inverse = false)
{
    double x = q.x, y = q.y, z = q.z, w = inverse ? -q.w : q.w;
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                      {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                      {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    return {r[0][0] * v.x + r[0][1] * v.y + r[0][2] * v.z,
            r[1][0] * v.x + r[1][1] * v.y + r[1][2] * v.z,
            r[2][0] * v.x + r[2][1] * v.y + r[2][2] * v.z};
}
inline dvec to_local(const cc_geom& g, dvec w) { return drot(g.xf.q, w - dv(g.xf.p), true); }
inline dvec to_world(const cc_geom& g, dvec l) { return drot(g.xf.q, l) + dv(g.xf.p); }

// Capsule segment ends in world space.
inline void segment_ends(const cc_geom& g, dvec* p0, dvec* p1)
{
    *p0 = to_world(g, {0, 0, -(double)g.size.y});
    *p1 = to_world(g, {0, 0, (double)g.size.y});
}

inline double point_segment_distance(dvec x, dvec p0, dvec p1)
{
    dvec d = p1 - p0;
    double dd = dot(d, d);
    double t = dd > 0 ? std::min(1.0, std::max(0.0, dot(x - p0, d) / dd)) : 0.0;
    return norm(x - (p0 + d * t));
}

// Distance from a world point to the solid box (0 inside).
inline double point_box_distance(const cc_geom& box, dvec x)
{
    dvec l = to_local(box, x);
    double h[3] = {box.size.x, box.size.y, box.size.z}, c[3] = {l.x, l.y, l.z}, s = 0;
    for (int i = 0; i < 3; ++i) {
        double e = std::max(0.0, std::fabs(c[i]) - h[i]);
        s += e * e;
    }
    return std::sqrt(s);
}

// Minimum over s in [0, 1] of a convex function, by ternary search.
template <class F> double ternary_min(F f)
{
    double lo = 0, hi = 1;
    for (int it = 0; it < 100; ++it) {
        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (f(m1) < f(m2))
            hi = m2;
        else
            lo = m1;
    }
    return std::min(f(0.5 * (lo + hi)), std::min(f(0.0), f(1.0)));
}

// How far a world point is from lying on each kind of core.
inline double off_point(const cc_geom& g, cc_vec3 x) { return norm(dv(x) - dv(g.xf.p)); }
inline double off_segment(const cc_geom& g, cc_vec3 x)
{
    dvec p0, p1;
    segment_ends(g, &p0, &p1);
    return point_segment_distance(dv(x), p0, p1);
}
// On or inside the box: how far outside it is (0 when inside).
inline double off_box(const cc_geom& g, cc_vec3 x) { return point_box_distance(g, dv(x)); }
// On the plane: |height|, plus how far outside the footprint of a finite plane.
inline double off_plane(const cc_geom& g, cc_vec3 x)
{
    dvec l = to_local(g, dv(x));
    double out = 0;
    if (g.size.x > 0 || g.size.y > 0)
        out = std::max(0.0, std::max(std::fabs(l.x) - g.size.x, std::fabs(l.y) - g.size.y));
    return std::fabs(l.z) + out;
}

// Every invariant of one manifold. Returns "" or the first violation.
template <class OffA, class OffB>
std::string check_manifold(const cc_manifold& m, float threshold, int bound, OffA off_a, OffB off_b)
{
    char buf[256];
    if (m.count < 0 || m.count > bound) {
        snprintf(buf, sizeof buf, "count %d outside [0, %d]", m.count, bound);
        return buf;
    }
    if (m.count == 0) return "";
    float nl = cc_v3_length(m.normal);
    if (!(std::fabs(nl - 1.0f) <= kTolValue)) {
        snprintf(buf, sizeof buf, "normal length %g", nl);
        return buf;
    }
    for (int i = 0; i < m.count; ++i) {
        if (!std::isfinite(m.distance[i]) || !(m.distance[i] <= threshold)) {
            snprintf(buf, sizeof buf, "point %d distance %g above threshold %g", i, m.distance[i],
                     threshold);
            return buf;
        }
        double oa = off_a(core_a(m, i)), ob = off_b(core_b(m, i));
        if (!(oa <= kTolCore) || !(ob <= kTolCore)) {
            snprintf(buf, sizeof buf, "point %d: core A off by %g, core B off by %g", i, oa, ob);
            return buf;
        }
    }
    return "";
}

inline float min_distance(const cc_manifold& m)
{
    float d = kInf;
    for (int i = 0; i < m.count; ++i)
        d = std::min(d, m.distance[i]);
    return d;
}

// m2 must be m1 seen through rigid motion t (points matched as sets, since
// ties in depth may be ordered differently after rounding).
inline void expect_moved(const cc_manifold& m1, const cc_manifold& m2, cc_transform t,
                         float tol_point = 2e-5f)
{
    ASSERT_EQ(m1.count, m2.count);
    if (m1.count == 0) return;
    EXPECT_VEC_NEAR(cc_tf_vector(t, m1.normal), m2.normal, kTolValue);
    std::vector<bool> used(m2.count, false);
    for (int i = 0; i < m1.count; ++i) {
        cc_vec3 p = cc_tf_point(t, m1.point[i]);
        int best = -1;
        for (int j = 0; j < m2.count; ++j)
            if (!used[j] && (best < 0 || dist3(p, m2.point[j]) < dist3(p, m2.point[best])))
                best = j;
        used[best] = true;
        EXPECT_LE(dist3(p, m2.point[best]), tol_point) << "point " << i;
        EXPECT_NEAR(m1.distance[i], m2.distance[best], kTolValue) << "point " << i;
    }
}

// Same-type pairs: m2 = collide(b, a) has the opposite normal and the same
// points and distances.
inline void expect_swapped(const cc_manifold& m1, const cc_manifold& m2)
{
    cc_manifold flipped = m2;
    flipped.normal = cc_v3_neg(m2.normal);
    expect_moved(m1, flipped, cc_tf_identity());
}

// Runs fn on (a, b) and on the pair moved by `trials` random rigid motions.
inline void expect_motion_invariant(collide_fn fn, const cc_geom& a, const cc_geom& b,
                                    float threshold, std::mt19937& rng, int trials = 20)
{
    cc_manifold m1 = run(fn, a, b, threshold);
    ASSERT_GT(m1.count, 0);
    for (int k = 0; k < trials; ++k) {
        cc_transform t = random_motion(rng);
        SCOPED_TRACE(k);
        expect_moved(m1, run(fn, moved(t, a), moved(t, b), threshold), t);
    }
}

// Threshold filtering is exact: a point at distance d is kept for threshold
// d and dropped for the next float below d. `expect_kept` is how many points
// have distance <= d.
inline void expect_threshold_exact(collide_fn fn, const cc_geom& a, const cc_geom& b, float d,
                                   int kept_at_d, int kept_below_d)
{
    EXPECT_EQ(run(fn, a, b, d).count, kept_at_d);
    EXPECT_EQ(run(fn, a, b, std::nextafter(d, -kInf)).count, kept_below_d);
}

// NaN anywhere in a pose or size, or in the threshold: no crash, the count
// within bounds, and whatever is emitted is finite.
inline void expect_nan_safe(collide_fn fn, cc_geom a, cc_geom b, int bound)
{
    float* fields_a[] = {&a.xf.p.x, &a.xf.p.y, &a.xf.p.z, &a.xf.q.x,
                         &a.xf.q.w, &a.size.x, &a.size.y};
    float* fields_b[] = {&b.xf.p.x, &b.xf.p.y, &b.xf.p.z, &b.xf.q.x,
                         &b.xf.q.w, &b.size.x, &b.size.y};
    auto check = [&](const cc_geom& ga, const cc_geom& gb, float thr) {
        cc_manifold m = run(fn, ga, gb, thr);
        ASSERT_GE(m.count, 0);
        ASSERT_LE(m.count, bound);
        if (m.count > 0) {
            EXPECT_TRUE(std::isfinite(m.normal.x) && std::isfinite(m.normal.y) &&
                        std::isfinite(m.normal.z));
            for (int i = 0; i < m.count; ++i)
                EXPECT_TRUE(std::isfinite(m.distance[i]));
        }
    };
    check(a, b, kNaN);
    for (float* f : fields_a) {
        float keep = *f;
        *f = kNaN;
        check(a, b, 1.0f);
        *f = keep;
    }
    for (float* f : fields_b) {
        float keep = *f;
        *f = kNaN;
        check(a, b, 1.0f);
        *f = keep;
    }
}

} // namespace nptest

#endif
