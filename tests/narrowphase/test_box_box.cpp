// Box-box narrow phase: analytic cases, symmetry and invariance, threshold
// exactness, degenerate inputs, and a fuzz test against an independent
// double-precision reference (exact polytope distance / exact SAT depth,
// itself checked against a brute-force sweep of directions).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/narrowphase/box_box.h"

namespace {

const double kPi = 3.14159265358979323846;
const float kInf = std::numeric_limits<float>::infinity();

cc_geom make_box(cc_vec3 p, cc_quat q, cc_vec3 h)
{
    cc_geom g;
    g.xf = cc_tf(p, q);
    g.size = h;
    return g;
}

cc_quat axis_angle(double x, double y, double z, double angle)
{
    double n = std::sqrt(x * x + y * y + z * z);
    double s = std::sin(angle / 2) / n;
    return cc_q((float)(x * s), (float)(y * s), (float)(z * s), (float)std::cos(angle / 2));
}

cc_manifold collide(const cc_geom& a, const cc_geom& b, float threshold)
{
    cc_manifold m;
    std::memset(&m, 0xff, sizeof m); // garbage in: the routine must set everything it reports
    cc_collide_box_box(&a, &b, threshold, &m);
    return m;
}

// ---------------------------------------------------------------------------
// Double-precision reference, written independently of the kernel.

struct D3 {
    double v[3];
    double operator[](int i) const { return v[i]; }
    double& operator[](int i) { return v[i]; }
};
D3 d3(double x, double y, double z) { return D3{{x, y, z}}; }
D3 operator+(D3 a, D3 b) { return d3(a[0] + b[0], a[1] + b[1], a[2] + b[2]); }
D3 operator-(D3 a, D3 b) { return d3(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }
D3 operator*(D3 a, double s) { return d3(a[0] * s, a[1] * s, a[2] * s); }
double dot(D3 a, D3 b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
D3 cross(D3 a, D3 b)
{
    return d3(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}
double norm(D3 a) { return std::sqrt(dot(a, a)); }
D3 from(cc_vec3 a) { return d3(a.x, a.y, a.z); }

struct RefBox {
    D3 c;
    D3 axis[3];
    double h[3];
};

RefBox ref_box(const cc_geom& g)
{
    RefBox b;
    b.c = from(g.xf.p);
    double x = g.xf.q.x, y = g.xf.q.y, z = g.xf.q.z, w = g.xf.q.w;
    double n = std::sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    // Rotation matrix columns of a unit quaternion (scalar last).
    b.axis[0] = d3(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
    b.axis[1] = d3(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
    b.axis[2] = d3(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
    b.h[0] = g.size.x, b.h[1] = g.size.y, b.h[2] = g.size.z;
    return b;
}

D3 local(const RefBox& b, D3 p)
{
    D3 d = p - b.c;
    return d3(dot(d, b.axis[0]), dot(d, b.axis[1]), dot(d, b.axis[2]));
}

// Signed distance from p to the box surface (negative inside).
double box_sdf(const RefBox& b, D3 p)
{
    D3 q = local(b, p);
    double out2 = 0, inside = -1e300;
    for (int i = 0; i < 3; ++i) {
        double e = std::fabs(q[i]) - b.h[i];
        if (e > 0) out2 += e * e;
        inside = std::max(inside, e);
    }
    return out2 > 0 ? std::sqrt(out2) : inside;
}

// Closest point of the box to p and its distance (0 inside).
double point_box_distance(const RefBox& b, D3 p)
{
    D3 q = local(b, p);
    double d2 = 0;
    for (int i = 0; i < 3; ++i) {
        double e = std::fabs(q[i]) - b.h[i];
        if (e > 0) d2 += e * e;
    }
    return std::sqrt(d2);
}

double support_radius(const RefBox& b, D3 u)
{
    return b.h[0] * std::fabs(dot(u, b.axis[0])) + b.h[1] * std::fabs(dot(u, b.axis[1])) +
           b.h[2] * std::fabs(dot(u, b.axis[2]));
}

// Separation of the boxes' projections on unit direction u (B ahead of A).
double separation_along(const RefBox& a, const RefBox& b, D3 u)
{
    return dot(u, b.c - a.c) - support_radius(a, u) - support_radius(b, u);
}

D3 vertex(const RefBox& b, int code)
{
    D3 p = b.c;
    for (int i = 0; i < 3; ++i) p = p + b.axis[i] * ((code >> i & 1) ? b.h[i] : -b.h[i]);
    return p;
}

// Segment-segment distance: the squared distance is convex in (s, t) on
// [0,1]^2, so its minimum is the unconstrained stationary point when that lies
// inside, else on one of the four sides, where it is a clamped projection.
double segment_distance(D3 p0, D3 p1, D3 q0, D3 q1)
{
    D3 u = p1 - p0, v = q1 - q0, w = p0 - q0;
    double uu = dot(u, u), vv = dot(v, v), uv = dot(u, v), uw = dot(u, w), vw = dot(v, w);
    auto dist = [&](double s, double t) { return norm(w + u * s - v * t); };
    auto clamp01 = [](double x) { return std::min(1.0, std::max(0.0, x)); };
    double best = 1e300;
    double den = uu * vv - uv * uv;
    if (den > 1e-14 * uu * vv) {
        double s = (uv * vw - vv * uw) / den, t = (uu * vw - uv * uw) / den;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) best = dist(s, t);
    }
    for (double s : {0.0, 1.0}) best = std::min(best, dist(s, clamp01((vw + s * uv) / vv)));
    for (double t : {0.0, 1.0}) best = std::min(best, dist(clamp01((t * uv - uw) / uu), t));
    return best;
}

// Exact distance between disjoint boxes: the closest pair of two convex
// polytopes is realised by a vertex and the other solid, or by two edges.
double polytope_distance(const RefBox& a, const RefBox& b)
{
    double best = 1e300;
    for (int c = 0; c < 8; ++c) {
        best = std::min(best, point_box_distance(b, vertex(a, c)));
        best = std::min(best, point_box_distance(a, vertex(b, c)));
    }
    for (int ea = 0; ea < 12; ++ea) {
        int ia = ea / 4, ca = ea % 4;
        int ja = (ia + 1) % 3, ka = (ia + 2) % 3;
        D3 ma = a.c + a.axis[ja] * ((ca & 1) ? a.h[ja] : -a.h[ja]) + a.axis[ka] * ((ca & 2) ? a.h[ka] : -a.h[ka]);
        D3 a0 = ma - a.axis[ia] * a.h[ia], a1 = ma + a.axis[ia] * a.h[ia];
        for (int eb = 0; eb < 12; ++eb) {
            int ib = eb / 4, cb = eb % 4;
            int jb = (ib + 1) % 3, kb = (ib + 2) % 3;
            D3 mb = b.c + b.axis[jb] * ((cb & 1) ? b.h[jb] : -b.h[jb]) + b.axis[kb] * ((cb & 2) ? b.h[kb] : -b.h[kb]);
            best = std::min(best, segment_distance(a0, a1, mb - b.axis[ib] * b.h[ib], mb + b.axis[ib] * b.h[ib]));
        }
    }
    return best;
}

// Largest separation over the 15 box axes, in double, skipping only exactly
// degenerate cross products. For overlapping boxes this is minus the minimum
// translation depth (the axes are the face normals of B - A).
double sat_separation(const RefBox& a, const RefBox& b)
{
    double best = -1e300;
    for (int i = 0; i < 3; ++i) {
        best = std::max(best, std::max(separation_along(a, b, a.axis[i]), separation_along(a, b, a.axis[i] * -1)));
        best = std::max(best, std::max(separation_along(a, b, b.axis[i]), separation_along(a, b, b.axis[i] * -1)));
        for (int j = 0; j < 3; ++j) {
            D3 l = cross(a.axis[i], b.axis[j]);
            double n = norm(l);
            if (n < 1e-9) continue;
            l = l * (1 / n);
            best = std::max(best, std::max(separation_along(a, b, l), separation_along(a, b, l * -1)));
        }
    }
    return best;
}

// Signed distance between two boxes: positive gap, or minus the minimum
// translation depth.
double signed_distance(const RefBox& a, const RefBox& b)
{
    double s = sat_separation(a, b);
    return s > 0 ? polytope_distance(a, b) : s;
}

// Independent check of signed_distance: for convex sets the signed distance is
// max over unit u of separation_along(u). Dense Fibonacci sweep, then a
// random-direction hill climb on the sphere from the best few samples (random
// directions, because the maximum sits on kinks of the support functions
// where a fixed stencil stalls).
double sweep_signed_distance(const RefBox& a, const RefBox& b, std::mt19937& gen)
{
    const int n = 3000;
    std::vector<std::pair<double, D3>> samples;
    samples.reserve(n);
    double golden = kPi * (3 - std::sqrt(5.0));
    for (int k = 0; k < n; ++k) {
        double z = 1 - 2 * (k + 0.5) / n, r = std::sqrt(1 - z * z), phi = golden * k;
        D3 u = d3(r * std::cos(phi), r * std::sin(phi), z);
        samples.push_back({separation_along(a, b, u), u});
    }
    std::partial_sort(samples.begin(), samples.begin() + 4, samples.end(),
                      [](const std::pair<double, D3>& x, const std::pair<double, D3>& y) { return x.first > y.first; });
    std::normal_distribution<double> g;
    double best = samples[0].first;
    for (int s = 0; s < 4; ++s) {
        D3 u = samples[s].second;
        double f = samples[s].first;
        for (int restart = 0; restart < 2; ++restart) {
            double step = 0.05;
            int fails = 0;
            while (step > 1e-10) {
                D3 c = u + d3(g(gen), g(gen), g(gen)) * step;
                c = c * (1 / norm(c));
                double fc = separation_along(a, b, c);
                if (fc > f) {
                    f = fc, u = c, fails = 0;
                } else if (++fails > 150) {
                    step *= 0.5, fails = 0;
                }
            }
        }
        best = std::max(best, f);
    }
    return best;
}

// ---------------------------------------------------------------------------
// Result comparison helpers.

struct Pt {
    double x, y, z, d;
};

std::vector<Pt> points_of(const cc_manifold& m)
{
    std::vector<Pt> v;
    for (int k = 0; k < m.count; ++k) v.push_back({m.point[k].x, m.point[k].y, m.point[k].z, m.distance[k]});
    return v;
}

// True when every expected point is matched one-to-one by a reported point
// within tol (position and distance).
::testing::AssertionResult same_points(const std::vector<Pt>& got, const std::vector<Pt>& want, double tol)
{
    if (got.size() != want.size())
        return ::testing::AssertionFailure() << "count " << got.size() << " != " << want.size();
    std::vector<bool> used(got.size(), false);
    for (const Pt& w : want) {
        bool found = false;
        for (size_t k = 0; k < got.size() && !found; ++k) {
            if (used[k]) continue;
            const Pt& g = got[k];
            if (std::fabs(g.x - w.x) <= tol && std::fabs(g.y - w.y) <= tol && std::fabs(g.z - w.z) <= tol &&
                std::fabs(g.d - w.d) <= tol) {
                used[k] = true;
                found = true;
            }
        }
        if (!found) {
            ::testing::AssertionResult r = ::testing::AssertionFailure();
            r << "no reported point near (" << w.x << ", " << w.y << ", " << w.z << ") d=" << w.d << "; got:";
            for (const Pt& g : got) r << " (" << g.x << ", " << g.y << ", " << g.z << ") d=" << g.d;
            return r;
        }
    }
    return ::testing::AssertionSuccess();
}

void expect_normal(const cc_manifold& m, double x, double y, double z, double tol)
{
    EXPECT_NEAR(m.normal.x, x, tol);
    EXPECT_NEAR(m.normal.y, y, tol);
    EXPECT_NEAR(m.normal.z, z, tol);
}

// ---------------------------------------------------------------------------
// Random configurations near contact.

struct Rng {
    std::mt19937 gen;
    explicit Rng(unsigned seed) : gen(seed) {}
    double uni(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(gen); }
    D3 unit()
    {
        std::normal_distribution<double> g;
        D3 u = d3(g(gen), g(gen), g(gen));
        return u * (1 / norm(u));
    }
    cc_quat rotation()
    {
        std::normal_distribution<double> g;
        double q[4] = {g(gen), g(gen), g(gen), g(gen)};
        double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        return cc_q((float)(q[0] / n), (float)(q[1] / n), (float)(q[2] / n), (float)(q[3] / n));
    }
    // One of the 24 rotations mapping axes to axes, times a small tilt.
    cc_quat near_axis_aligned(double max_tilt)
    {
        cc_quat q = cc_q_identity();
        static const double ax[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        for (int k = 0; k < 3; ++k) {
            int t = pick(4);
            q = cc_q_mul(axis_angle(ax[k][0], ax[k][1], ax[k][2], t * kPi / 2), q);
        }
        D3 u = unit();
        return cc_q_normalize(cc_q_mul(axis_angle(u[0], u[1], u[2], uni(0, max_tilt)), q));
    }
};

struct Config {
    cc_geom a, b;
    float threshold;
};

// Places B along a random direction u from A's centre where the largest SAT
// separation equals a random gap g (bisection: it grows along the ray). For
// g <= 0 that is the signed distance; for g > 0 the true gap is at least g.
Config random_config(Rng& rng, int mode)
{
    Config c;
    cc_vec3 ha = cc_v3((float)rng.uni(0.05, 1.0), (float)rng.uni(0.05, 1.0), (float)rng.uni(0.05, 1.0));
    cc_vec3 hb = cc_v3((float)rng.uni(0.05, 1.0), (float)rng.uni(0.05, 1.0), (float)rng.uni(0.05, 1.0));
    cc_quat qa, qb;
    D3 u;
    if (mode == 0) { // generic orientations
        qa = rng.rotation();
        qb = rng.rotation();
        u = rng.unit();
    } else if (mode == 1) { // nearly axis-aligned: face-face, parallel edges
        qa = rng.near_axis_aligned(0.02);
        qb = rng.near_axis_aligned(0.02);
        u = rng.unit();
    } else { // resting-like: B above A, yawed and slightly tilted, whole pair rotated
        cc_quat g = rng.rotation();
        qa = g;
        qb = cc_q_normalize(cc_q_mul(g, cc_q_mul(axis_angle(0, 0, 1, rng.uni(-kPi, kPi)), rng.near_axis_aligned(0.005))));
        cc_vec3 up = cc_q_rotate(g, cc_v3(0, 0, 1));
        D3 jitter = rng.unit() * rng.uni(0, 0.5);
        u = from(up) + jitter;
        u = u * (1 / norm(u));
    }
    c.a = make_box(cc_v3((float)rng.uni(-2, 2), (float)rng.uni(-2, 2), (float)rng.uni(-2, 2)), qa, ha);
    c.b = make_box(cc_v3(0, 0, 0), qb, hb);
    RefBox ra = ref_box(c.a), rb = ref_box(c.b);
    double minh = std::min({ha.x, ha.y, ha.z, hb.x, hb.y, hb.z});
    double gap = rng.pick(2) ? rng.uni(-0.5 * minh, 0.0) : rng.uni(0.0, 0.2);
    double lo = 0, hi = support_radius(ra, u) + support_radius(rb, u) + std::max(gap, 0.0) + 1e-3;
    for (int k = 0; k < 50; ++k) {
        double mid = (lo + hi) / 2;
        rb.c = ra.c + u * mid;
        (sat_separation(ra, rb) < gap ? lo : hi) = mid;
    }
    D3 pos = ra.c + u * lo;
    c.b.xf.p = cc_v3((float)pos[0], (float)pos[1], (float)pos[2]);
    static const float thresholds[5] = {0.0f, 0.05f, 0.2f, 0.5f, kInf};
    c.threshold = thresholds[rng.pick(5)];
    return c;
}

// ---------------------------------------------------------------------------
// Analytic cases.

// A small box resting flat (yawed) on a big one: 4 contacts at the small
// box's bottom corners, distance = gap, midway between the two faces.
TEST(BoxBox, RestingFlatGivesFourCornerContacts)
{
    const cc_vec3 big = cc_v3(2.0f, 2.0f, 0.5f), small = cc_v3(0.3f, 0.2f, 0.1f);
    for (double gap : {-0.01, 0.0, 0.05}) {
        for (double yaw : {0.0, 0.3, -1.1}) {
            cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), big);
            cc_vec3 cb = cc_v3(0.1f, -0.2f, (float)(0.5 + 0.1 + gap));
            cc_geom b = make_box(cb, axis_angle(0, 0, 1, yaw), small);
            cc_manifold m = collide(a, b, 0.1f);
            ASSERT_EQ(m.count, 4) << "gap " << gap << " yaw " << yaw;
            expect_normal(m, 0, 0, 1, 1e-6);
            std::vector<Pt> want;
            double c = std::cos(yaw), s = std::sin(yaw);
            for (int k = 0; k < 4; ++k) {
                double x = (k & 1) ? 0.3 : -0.3, y = (k & 2) ? 0.2 : -0.2;
                want.push_back({cb.x + c * x - s * y, cb.y + s * x + c * y, 0.5 + gap / 2, gap});
            }
            EXPECT_TRUE(same_points(points_of(m), want, 1e-5)) << "gap " << gap << " yaw " << yaw;
        }
    }
}

// Two equal boxes stacked exactly: 4 contacts at the shared face's corners.
TEST(BoxBox, EqualBoxesStackedExactly)
{
    const cc_vec3 h = cc_v3(0.5f, 0.5f, 0.5f);
    cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), h);
    cc_geom b = make_box(cc_v3(0, 0, 1), cc_q_identity(), h);
    cc_manifold m = collide(a, b, 0.0f);
    ASSERT_EQ(m.count, 4);
    expect_normal(m, 0, 0, 1, 1e-6);
    std::vector<Pt> want = {{-0.5, -0.5, 0.5, 0}, {0.5, -0.5, 0.5, 0}, {0.5, 0.5, 0.5, 0}, {-0.5, 0.5, 0.5, 0}};
    EXPECT_TRUE(same_points(points_of(m), want, 1e-6));
}

// A cube standing on one bottom edge (rotated 45 degrees about y): the edge
// touches the face along its length, 2 contacts at its ends.
TEST(BoxBox, BoxOnEdgeGivesTwoContacts)
{
    const double r2 = std::sqrt(2.0);
    for (double gap : {-0.02, 0.0, 0.03}) {
        cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(2.0f, 2.0f, 0.5f));
        cc_vec3 cb = cc_v3(0.3f, 0.1f, (float)(0.5 + 0.5 * r2 + gap));
        cc_geom b = make_box(cb, axis_angle(0, 1, 0, kPi / 4), cc_v3(0.5f, 0.5f, 0.5f));
        cc_manifold m = collide(a, b, 0.2f);
        ASSERT_EQ(m.count, 2) << "gap " << gap;
        expect_normal(m, 0, 0, 1, 1e-6);
        std::vector<Pt> want = {{0.3, 0.1 - 0.5, 0.5 + gap / 2, gap}, {0.3, 0.1 + 0.5, 0.5 + gap / 2, gap}};
        EXPECT_TRUE(same_points(points_of(m), want, 1e-5)) << "gap " << gap;
    }
}

cc_quat rotation_between(D3 from_dir, D3 to_dir)
{
    D3 f = from_dir * (1 / norm(from_dir)), t = to_dir * (1 / norm(to_dir));
    D3 c = cross(f, t);
    double w = 1 + dot(f, t);
    double n = std::sqrt(dot(c, c) + w * w);
    return cc_q((float)(c[0] / n), (float)(c[1] / n), (float)(c[2] / n), (float)(w / n));
}

// A cube balanced on a corner: 1 contact below the corner.
TEST(BoxBox, CornerOnFaceGivesOneContact)
{
    const double h = 0.4, s3 = std::sqrt(3.0);
    for (double gap : {-0.01, 0.0, 0.04}) {
        cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(2.0f, 2.0f, 0.5f));
        cc_quat q = rotation_between(d3(-1, -1, -1), d3(0, 0, -1)); // corner (-h,-h,-h) points down
        cc_vec3 cb = cc_v3(-0.4f, 0.7f, (float)(0.5 + h * s3 + gap));
        cc_geom b = make_box(cb, q, cc_v3((float)h, (float)h, (float)h));
        cc_manifold m = collide(a, b, 0.1f);
        ASSERT_EQ(m.count, 1) << "gap " << gap;
        expect_normal(m, 0, 0, 1, 1e-6);
        std::vector<Pt> want = {{-0.4, 0.7, 0.5 + gap / 2, gap}};
        EXPECT_TRUE(same_points(points_of(m), want, 1e-5)) << "gap " << gap;
    }
}

// Crossed edges: A's top edge along y (A rotated 45 degrees about y), B's
// bottom edge along (cos 30, sin 30, 0) (B rotated 45 degrees about x, then
// yawed). One contact at the crossing, normal = edge_A x edge_B oriented A->B.
TEST(BoxBox, CrossedEdgesGiveOneContact)
{
    const double r2 = std::sqrt(2.0), yaw = kPi / 6;
    for (double gap : {-0.02, 0.0, 0.05}) {
        cc_geom a = make_box(cc_v3(0, 0, 0), axis_angle(0, 1, 0, kPi / 4), cc_v3(0.5f, 0.5f, 0.5f));
        cc_quat qb = cc_q_mul(axis_angle(0, 0, 1, yaw), axis_angle(1, 0, 0, kPi / 4));
        // B's bottom edge (height zb) passes through (0, -0.15), its centre slid 0.2 along it.
        double zb = 0.5 * r2 + gap, zc = zb + 0.5 * r2;
        D3 off = d3(0.2 * std::cos(yaw), 0.2 * std::sin(yaw), 0); // slide along B's edge
        D3 center = d3(0, -0.15, zc) + off;
        cc_geom b = make_box(cc_v3((float)center[0], (float)center[1], (float)center[2]), qb, cc_v3(0.5f, 0.5f, 0.5f));
        cc_manifold m = collide(a, b, 0.1f);
        ASSERT_EQ(m.count, 1) << "gap " << gap;
        expect_normal(m, 0, 0, 1, 1e-5);
        // Crossing of x = 0 (A's edge) with B's edge line (0,-0.15) + s (cos, sin).
        double y = -0.15;
        std::vector<Pt> want = {{0, y, 0.5 * r2 + gap / 2, gap}};
        EXPECT_TRUE(same_points(points_of(m), want, 1e-5)) << "gap " << gap;
    }
}

// Rotation with the given orthonormal right-handed columns.
cc_quat quat_from_axes(D3 x, D3 y, D3 z)
{
    double m[3][3] = {{x[0], y[0], z[0]}, {x[1], y[1], z[1]}, {x[2], y[2], z[2]}};
    double tr = m[0][0] + m[1][1] + m[2][2], q[4];
    if (tr > 0) {
        double s = 2 * std::sqrt(tr + 1);
        q[3] = s / 4, q[0] = (m[2][1] - m[1][2]) / s, q[1] = (m[0][2] - m[2][0]) / s, q[2] = (m[1][0] - m[0][1]) / s;
    } else {
        int i = 0;
        if (m[1][1] > m[0][0]) i = 1;
        if (m[2][2] > m[i][i]) i = 2;
        int j = (i + 1) % 3, k = (i + 2) % 3;
        double s = 2 * std::sqrt(1 + m[i][i] - m[j][j] - m[k][k]);
        q[i] = s / 4, q[j] = (m[j][i] + m[i][j]) / s, q[k] = (m[k][i] + m[i][k]) / s, q[3] = (m[k][j] - m[j][k]) / s;
    }
    return cc_q((float)q[0], (float)q[1], (float)q[2], (float)q[3]);
}

// Crossed edges with a normal that is no coordinate axis: A's top edge along
// y (normal cone: the xz directions within 45 degrees of +z), B's bottom edge
// along e, perpendicular to n = (sin 20, 0, cos 20), with B's two faces at
// 45 degrees on either side of -n. The contact normal is n = +-(y x e).
TEST(BoxBox, CrossedEdgesNormalIsEdgeCrossProduct)
{
    const double r2 = std::sqrt(2.0), al = 20 * kPi / 180, be = 50 * kPi / 180;
    D3 n = d3(std::sin(al), 0, std::cos(al));
    D3 e = d3(std::cos(al), 0, -std::sin(al)) * std::cos(be) + d3(0, 1, 0) * std::sin(be);
    D3 w = cross(e, n);
    D3 u1 = (n - w) * (1 / r2), u2 = (n + w) * (1 / r2); // u1 x u2 = e
    D3 yn = cross(d3(0, 1, 0), e);
    yn = yn * (1 / norm(yn));
    ASSERT_NEAR(std::fabs(dot(yn, n)), 1.0, 1e-12); // n is the edges' common normal
    for (double gap : {-0.02, 0.0, 0.03}) {
        cc_geom a = make_box(cc_v3(0, 0, 0), axis_angle(0, 1, 0, kPi / 4), cc_v3(0.5f, 0.5f, 0.5f));
        D3 apex = d3(0, 0.12, 0.5 * r2); // on A's top edge
        // B's edge along e nearest A runs through center - 0.5 (u1 + u2) = center - (sqrt2 / 2) n.
        D3 center = apex + n * (gap + 0.5 * r2) + e * 0.1;
        cc_geom b = make_box(cc_v3((float)center[0], (float)center[1], (float)center[2]), quat_from_axes(e, u1, u2),
                             cc_v3(0.5f, 0.5f, 0.5f));
        cc_manifold m = collide(a, b, 0.1f);
        ASSERT_EQ(m.count, 1) << "gap " << gap;
        expect_normal(m, n[0], n[1], n[2], 1e-5);
        D3 mid = apex + n * (gap / 2);
        std::vector<Pt> want = {{mid[0], mid[1], mid[2], gap}};
        EXPECT_TRUE(same_points(points_of(m), want, 1e-5)) << "gap " << gap;
    }
}

// Separated along a diagonal: the closest features are two corners, farther
// apart than any of the 15 SAT separations; one contact at the true distance.
TEST(BoxBox, SeparatedCornersUseTrueDistance)
{
    const double g = 0.05, s3 = std::sqrt(3.0);
    cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(0.5f, 0.5f, 0.5f));
    cc_geom b = make_box(cc_v3((float)(1 + g), (float)(1 + g), (float)(1 + g)), cc_q_identity(), cc_v3(0.5f, 0.5f, 0.5f));
    cc_manifold m = collide(a, b, 0.2f);
    ASSERT_EQ(m.count, 1);
    expect_normal(m, 1 / s3, 1 / s3, 1 / s3, 1e-5);
    std::vector<Pt> want = {{0.5 + g / 2, 0.5 + g / 2, 0.5 + g / 2, g * s3}};
    EXPECT_TRUE(same_points(points_of(m), want, 1e-5));
    // The SAT separation is only g: a threshold between g and g*sqrt3 gives nothing.
    EXPECT_EQ(collide(a, b, (float)(g * 1.5)).count, 0);
}

// Threshold exactness: contacts appear exactly when the gap is within it.
TEST(BoxBox, ThresholdIsExact)
{
    const float eps = 1e-5f;
    cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(1.0f, 1.0f, 0.5f));
    // Face-face, gap 0.125 (exact in float).
    cc_geom b = make_box(cc_v3(0.1f, 0.2f, 0.5f + 0.25f + 0.125f), axis_angle(0, 0, 1, 0.4), cc_v3(0.3f, 0.3f, 0.25f));
    EXPECT_EQ(collide(a, b, 0.125f + eps).count, 4);
    EXPECT_EQ(collide(a, b, 0.125f - eps).count, 0);
    EXPECT_EQ(collide(a, b, kInf).count, 4);
    // Edge on face with the other side of the box lifted by 0.3: 2 or 4
    // contacts depending on whether the lifted corners are within threshold.
    const double tilt = std::asin(0.3 / 0.6), gap = 0.125;
    cc_geom c = make_box(cc_v3(0, 0, 0), axis_angle(0, 1, 0, tilt), cc_v3(0.3f, 0.3f, 0.2f));
    // Bottom corners (x, +-0.3, -0.2) rotated about y: z' = -x sin(t) - 0.2 cos(t).
    double zl = 0.3 * std::sin(tilt) - 0.2 * std::cos(tilt);
    double zr = -0.3 * std::sin(tilt) - 0.2 * std::cos(tilt);
    double lowest = std::min(zl, zr);
    c.xf.p = cc_v3(0.0f, 0.0f, (float)(0.5 + gap - lowest));
    EXPECT_EQ(collide(a, c, (float)(gap + 0.3) + eps).count, 4);
    EXPECT_EQ(collide(a, c, (float)(gap + 0.3) - eps).count, 2);
    EXPECT_EQ(collide(a, c, (float)gap + eps).count, 2);
    EXPECT_EQ(collide(a, c, (float)gap - eps).count, 0);
    // Corner-corner: true distance g sqrt3.
    const double g = 0.1, dist = g * std::sqrt(3.0);
    cc_geom d = make_box(cc_v3((float)(1 + g), (float)(1 + g), (float)(1 + g)), cc_q_identity(), cc_v3(0.5f, 0.5f, 0.5f));
    cc_geom e = make_box(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(0.5f, 0.5f, 0.5f));
    EXPECT_EQ(collide(e, d, (float)dist + eps).count, 1);
    EXPECT_EQ(collide(e, d, (float)dist - eps).count, 0);
    // Far apart: the separating axis exceeds the threshold.
    cc_geom f = make_box(cc_v3(5, 0, 0), cc_q_identity(), cc_v3(0.5f, 0.5f, 0.5f));
    EXPECT_EQ(collide(e, f, 0.2f).count, 0);
    // Infinite threshold: contacts of the closest features at the true distance.
    cc_manifold m = collide(e, f, kInf);
    ASSERT_EQ(m.count, 4);
    expect_normal(m, 1, 0, 0, 1e-6);
    for (int k = 0; k < m.count; ++k) EXPECT_NEAR(m.distance[k], 4.0, 1e-5);
    m = collide(e, d, kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], dist, 1e-5);
}

// More than 4 clipped points (an octagon: a square on a square rotated by 45
// degrees) reduce to 4 vertices of the octagon spanning most of its area.
TEST(BoxBox, ReductionKeepsFourWellSpreadPoints)
{
    cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(0.5f, 0.5f, 0.5f));
    cc_geom b = make_box(cc_v3(0, 0, 0.99f), axis_angle(0, 0, 1, kPi / 4), cc_v3(0.5f, 0.5f, 0.5f));
    cc_manifold m = collide(a, b, 0.0f);
    ASSERT_EQ(m.count, 4);
    expect_normal(m, 0, 0, 1, 1e-6);
    std::vector<double> xs, ys;
    for (int k = 0; k < 4; ++k) {
        EXPECT_NEAR(m.distance[k], -0.01, 1e-5);
        EXPECT_NEAR(m.point[k].z, 0.495, 1e-5);
        double x = m.point[k].x, y = m.point[k].y;
        // Octagon vertex: on the square's boundary and on the diamond's.
        EXPECT_NEAR(std::max(std::fabs(x), std::fabs(y)), 0.5, 1e-5);
        EXPECT_NEAR(std::fabs(x) + std::fabs(y), 0.5 * std::sqrt(2.0), 1e-5);
        xs.push_back(x), ys.push_back(y);
    }
    // Area of the kept quad (sorted by angle) versus the octagon's: the unit
    // square minus 4 corner triangles with legs 1 - 1/sqrt2, i.e. 2 (sqrt2 - 1).
    // The best 4 of its vertices span about 71% of it.
    std::vector<int> idx = {0, 1, 2, 3};
    std::sort(idx.begin(), idx.end(), [&](int i, int j) { return std::atan2(ys[i], xs[i]) < std::atan2(ys[j], xs[j]); });
    double area = 0;
    for (int k = 0; k < 4; ++k) {
        int i = idx[k], j = idx[(k + 1) % 4];
        area += xs[i] * ys[j] - xs[j] * ys[i];
    }
    area = std::fabs(area) / 2;
    double octagon = 2 * (std::sqrt(2.0) - 1);
    EXPECT_GT(area, 0.6 * octagon);
}

// Small tilts and yaws of a resting box keep the face manifold: the face
// axes win over the nearly equivalent edge axes (cross products of the
// horizontal edges), so the contact does not flip to a single edge point.
// Variants: 0 on a big support, offset; 1 on a support just covering it;
// 2 on an equal box, tilted only; 3 on an equal box, yawed, so that its lowest
// corner hangs beyond the rim and the deepest point is an edge crossing there.
TEST(BoxBox, RestingContactStaysOnFaceAxis)
{
    Rng rng(7);
    for (int it = 0; it < 800; ++it) {
        int variant = it % 4;
        cc_vec3 hb = cc_v3((float)rng.uni(0.1, 0.5), (float)rng.uni(0.1, 0.5), (float)rng.uni(0.1, 0.5));
        float hmax = std::max({hb.x, hb.y, hb.z});
        double yaw = variant == 2 ? 0.0 : rng.uni(-kPi, kPi);
        cc_quat q = variant == 0 || variant == 1 ? rng.near_axis_aligned(0.0) : cc_q_identity();
        q = cc_q_normalize(cc_q_mul(axis_angle(0, 0, 1, yaw), q));
        D3 t = rng.unit();
        q = cc_q_normalize(cc_q_mul(axis_angle(t[0], t[1], t[2], rng.uni(0, 2e-3)), q));
        cc_vec3 ha = variant == 0 ? cc_v3(3.0f, 3.0f, 0.5f)
                                  : (variant == 1 ? cc_v3(1.5f * hmax, 1.5f * hmax, 0.5f) : cc_v3(hb.x, hb.y, 0.5f));
        cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), ha);
        cc_geom b = make_box(cc_v3(0, 0, 0), q, hb);
        double depth = rng.uni(0, 2e-3);
        double z = 0.5 + support_radius(ref_box(b), d3(0, 0, 1)) - depth;
        float off = variant == 0 ? 1.0f : (variant == 1 ? 0.0f : 0.02f);
        b.xf.p = cc_v3(off * (float)rng.uni(-1, 1), off * (float)rng.uni(-1, 1), (float)z);
        cc_manifold m = collide(a, b, 0.01f);
        ASSERT_EQ(m.count, 4) << "iteration " << it;
        EXPECT_NEAR(m.normal.z, 1.0, 1e-5) << "iteration " << it;
        float dmin = 1e30f;
        for (int k = 0; k < m.count; ++k) dmin = std::min(dmin, m.distance[k]);
        if (variant < 2) {
            EXPECT_EQ(m.normal.z, 1.0f) << "iteration " << it;
            EXPECT_NEAR(dmin, -depth, 1e-5) << "iteration " << it;
        } else {
            // The reference face may be B's (tilted) and the deepest point a
            // rim crossing, measured along the face normal: within 1e-5 m.
            double sd = signed_distance(ref_box(a), ref_box(b));
            EXPECT_NEAR(dmin, sd, 1e-5) << "iteration " << it;
        }
    }
}

// Face axes win ties with edge axes within the linear tolerance (2e-6 of
// the pair's size, here about 7e-6 m against a 0.02 m penetration): a cube
// whose lowest edge descends toward its lowest corner just inside the rim of
// a face. Sliding the corner toward the rim makes the edge-edge axis (rim
// edge x cube edge, 55 degrees from the face normal) less penetrating than
// the face axis. 0.02% less (4e-6 m): the face manifold stays; 1% less
// (2e-4 m): the edge contact takes over, with the exact depth.
TEST(BoxBox, FaceAxisPreferredWithinTolerance)
{
    const double p = 0.02;
    cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(1.0f, 1.0f, 0.5f));
    cc_quat q = cc_q_mul(axis_angle(-std::sin(kPi / 6), std::cos(kPi / 6), 0, -0.2),
                         cc_q_mul(axis_angle(0, 0, 1, kPi / 6), axis_angle(1, 0, 0, kPi / 4)));
    cc_geom b0 = make_box(cc_v3(0, 0, 0), q, cc_v3(0.25f, 0.25f, 0.25f));
    RefBox rb0 = ref_box(b0);
    int low = 0;
    for (int c = 1; c < 8; ++c)
        if (vertex(rb0, c)[2] < vertex(rb0, low)[2]) low = c;
    D3 lowest = vertex(rb0, low);
    // Corner at (1 - s, 0.1, 0.5 - p); best edge axis separation and direction.
    auto place = [&](double s) {
        cc_geom b = b0;
        D3 c = d3(1 - s, 0.1, 0.5 - p) - lowest;
        b.xf.p = cc_v3((float)c[0], (float)c[1], (float)c[2]);
        return b;
    };
    auto best_edge = [&](const cc_geom& b, D3* axis) {
        RefBox ra = ref_box(a), rb = ref_box(b);
        double se = -1e300;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                D3 l = cross(ra.axis[i], rb.axis[j]);
                if (norm(l) < 1e-6) continue;
                l = l * (1 / norm(l));
                if (dot(l, rb.c - ra.c) < 0) l = l * -1;
                double v = separation_along(ra, rb, l);
                if (v > se) se = v, *axis = l;
            }
        return se;
    };
    for (double ratio : {0.9998, 0.99}) {
        double lo = 0, hi = 0.02; // se / sf rises from ~0.57 to ~1.4 over this range
        for (int k = 0; k < 60; ++k) {
            double mid = (lo + hi) / 2;
            D3 l = d3(0, 0, 0);
            (best_edge(place(mid), &l) / -p < ratio ? lo : hi) = mid;
        }
        cc_geom b = place(lo);
        D3 l = d3(0, 0, 0);
        double se = best_edge(b, &l);
        ASSERT_NEAR(separation_along(ref_box(a), ref_box(b), d3(0, 0, 1)), -p, 1e-6);
        ASSERT_NEAR(se / -p, ratio, 1e-4);
        ASSERT_LT(std::fabs(l[2]), 0.9); // a genuine edge axis, not a copy of the face normal
        cc_manifold m = collide(a, b, 0.0f);
        ASSERT_GE(m.count, 1) << "ratio " << ratio;
        float dmin = 1e30f;
        for (int k = 0; k < m.count; ++k) dmin = std::min(dmin, m.distance[k]);
        if (ratio > 0.999) {
            expect_normal(m, 0, 0, 1, 1e-6);
            EXPECT_NEAR(dmin, -p, 1e-5);
        } else {
            ASSERT_EQ(m.count, 1);
            expect_normal(m, l[0], l[1], l[2], 1e-5);
            EXPECT_NEAR(dmin, se, 1e-5);
        }
    }
}

// A box lying nearly flat across the rim of a larger one's face, touching
// or within a small threshold: the face manifold (face normal) is kept only
// when at least three of its points are within the threshold. A manifold of
// one or two points must carry a normal that separates the boxes by its
// deepest distance; a tilted box's face normal does not (the part past the
// rim dips below the face's plane), the edge pair's does.
TEST(BoxBox, FewPointManifoldsCarryASeparatingNormal)
{
    Rng rng(29);
    cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(1.0f, 1.0f, 0.5f));
    int few = 0;
    for (int it = 0; it < 4000; ++it) {
        cc_vec3 hb = cc_v3((float)rng.uni(0.1, 0.6), (float)rng.uni(0.1, 0.6), (float)rng.uni(0.05, 0.3));
        D3 t = d3(rng.uni(-1, 1), rng.uni(-1, 1), 0);
        t = t * (1 / norm(t));
        cc_quat q = cc_q_normalize(cc_q_mul(axis_angle(t[0], t[1], 0, rng.uni(0, 0.07)),
                                            axis_angle(0, 0, 1, rng.uni(-kPi, kPi))));
        cc_geom b = make_box(cc_v3(0, 0, 0), q, hb);
        double lift = rng.uni(-2e-3, 5e-3);
        double z = 0.5 + support_radius(ref_box(b), d3(0, 0, 1)) + lift;
        double x = 1.0 + rng.uni(-0.8, 0.8) * hb.x;
        b.xf.p = cc_v3((float)x, (float)rng.uni(-0.8, 0.8), (float)z);
        float threshold = (float)rng.uni(0.0, 0.01);
        cc_manifold m = collide(a, b, threshold);
        if (m.count == 0) continue;
        RefBox ra = ref_box(a), rb = ref_box(b);
        double sd = signed_distance(ra, rb);
        double dmin = 1e30;
        for (int k = 0; k < m.count; ++k) dmin = std::min(dmin, (double)m.distance[k]);
        EXPECT_NEAR(dmin, sd, 1e-5) << "iteration " << it;
        if (m.count <= 2) {
            ++few;
            D3 n = d3(m.normal.x, m.normal.y, m.normal.z);
            EXPECT_GE(separation_along(ra, rb, n), dmin - 1e-5)
                << "iteration " << it << ": " << m.count << " points, normal (" << n[0] << ", " << n[1] << ", " << n[2] << ")";
        }
    }
    EXPECT_GT(few, 400); // the class is exercised
}

// Identical coincident boxes: a deterministic face axis of A, 4 contacts.
TEST(BoxBox, CoincidentBoxesAreDeterministic)
{
    for (int variant = 0; variant < 2; ++variant) {
        cc_quat q = variant ? axis_angle(0.3, -0.5, 0.8, 1.1) : cc_q_identity();
        cc_vec3 h = variant ? cc_v3(0.4f, 0.2f, 0.3f) : cc_v3(0.5f, 0.5f, 0.5f);
        cc_geom a = make_box(cc_v3(1, 2, 3), q, h);
        cc_manifold m = collide(a, a, 0.0f);
        ASSERT_EQ(m.count, 4);
        // The least-penetrating face axis is the thinnest one: depth 2 h_min.
        float hmin = std::min({h.x, h.y, h.z});
        for (int k = 0; k < 4; ++k) EXPECT_NEAR(m.distance[k], -2 * hmin, 1e-5);
        cc_vec3 ax[3];
        cc_q_axes(q, &ax[0], &ax[1], &ax[2]);
        int thin = h.x == hmin ? 0 : (h.y == hmin ? 1 : 2);
        EXPECT_NEAR(std::fabs(cc_v3_dot(m.normal, ax[thin])), 1.0, 1e-5);
        cc_manifold m2 = collide(a, a, 0.0f);
        ASSERT_EQ(m2.count, m.count);
        EXPECT_EQ(0, std::memcmp(&m.normal, &m2.normal, sizeof m.normal));
        EXPECT_EQ(0, std::memcmp(m.point, m2.point, sizeof(cc_vec3) * 4));
    }
}

// NaN or infinite poses and sizes give no contacts and touch nothing else.
TEST(BoxBox, NonFiniteInputsGiveNoContacts)
{
    const float bad[3] = {std::numeric_limits<float>::quiet_NaN(), kInf, -kInf};
    for (float v : bad) {
        for (int field = 0; field < 10; ++field) {
            cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(0.5f, 0.5f, 0.5f));
            cc_geom b = make_box(cc_v3(0, 0, 0.9f), cc_q_identity(), cc_v3(0.5f, 0.5f, 0.5f));
            float* f[10] = {&b.xf.p.x, &b.xf.p.y, &b.xf.p.z, &b.xf.q.x, &b.xf.q.y,
                            &b.xf.q.z, &b.xf.q.w, &b.size.x, &b.size.y, &b.size.z};
            *f[field] = v;
            for (int swap = 0; swap < 2; ++swap) {
                cc_manifold m = collide(swap ? b : a, swap ? a : b, kInf);
                EXPECT_EQ(m.count, 0) << "field " << field << " value " << v;
            }
        }
    }
    // NaN threshold: nothing is within it.
    cc_geom a = make_box(cc_v3(0, 0, 0), cc_q_identity(), cc_v3(0.5f, 0.5f, 0.5f));
    cc_geom b = make_box(cc_v3(0, 0, 0.9f), cc_q_identity(), cc_v3(0.5f, 0.5f, 0.5f));
    EXPECT_EQ(collide(a, b, std::numeric_limits<float>::quiet_NaN()).count, 0);
}

// ---------------------------------------------------------------------------
// Symmetry and invariance.

// Pairs whose answer is unique: the analytic cases above (but the octagon,
// whose 8 equally deep points reduce to a tie-dependent 4), generic random
// orientations, and boxes resting on a much larger one in a random frame.
// (Nearly parallel faces of similar boxes have near-tied reference faces, and
// either choice is a valid but different manifold.)
std::vector<Config> symmetry_configs()
{
    std::vector<Config> v;
    const double r2 = std::sqrt(2.0), s3 = std::sqrt(3.0);
    const cc_vec3 big = cc_v3(2.0f, 2.0f, 0.5f), cube = cc_v3(0.5f, 0.5f, 0.5f);
    cc_geom ground = make_box(cc_v3(0, 0, 0), cc_q_identity(), big);
    v.push_back({ground, make_box(cc_v3(0.1f, -0.2f, 0.59f), axis_angle(0, 0, 1, 0.3), cc_v3(0.3f, 0.2f, 0.1f)), 0.1f});
    v.push_back({make_box(cc_v3(0, 0, 0), cc_q_identity(), cube), make_box(cc_v3(0, 0, 1), cc_q_identity(), cube), 0.0f});
    v.push_back({ground, make_box(cc_v3(0.3f, 0.1f, (float)(0.5 + 0.5 * r2 - 0.01)), axis_angle(0, 1, 0, kPi / 4), cube), 0.2f});
    v.push_back({ground,
                 make_box(cc_v3(-0.4f, 0.7f, (float)(0.5 + 0.4 * s3 - 0.01)), rotation_between(d3(-1, -1, -1), d3(0, 0, -1)),
                          cc_v3(0.4f, 0.4f, 0.4f)),
                 0.1f});
    v.push_back({make_box(cc_v3(0, 0, 0), axis_angle(0, 1, 0, kPi / 4), cube),
                 make_box(cc_v3(0.17f, -0.05f, (float)(r2 - 0.01)), cc_q_mul(axis_angle(0, 0, 1, kPi / 6), axis_angle(1, 0, 0, kPi / 4)), cube),
                 0.1f});
    v.push_back({make_box(cc_v3(0, 0, 0), cc_q_identity(), cube), make_box(cc_v3(1.05f, 1.05f, 1.05f), cc_q_identity(), cube), 0.2f});
    Rng rng(11);
    for (int k = 0; k < 500; ++k) v.push_back(random_config(rng, 0));
    for (int k = 0; k < 300; ++k) {
        cc_quat g = rng.rotation();
        cc_vec3 hb = cc_v3((float)rng.uni(0.1, 0.5), (float)rng.uni(0.1, 0.5), (float)rng.uni(0.1, 0.5));
        D3 t = rng.unit();
        cc_quat qb = cc_q_mul(axis_angle(t[0], t[1], t[2], rng.uni(0, 0.05)), axis_angle(0, 0, 1, rng.uni(-kPi, kPi)));
        cc_geom b = make_box(cc_v3(0, 0, 0), qb, hb);
        double z = 0.5 + support_radius(ref_box(b), d3(0, 0, 1)) + rng.uni(-0.01, 0.01);
        cc_vec3 pb = cc_v3((float)rng.uni(-1, 1), (float)rng.uni(-1, 1), (float)z);
        cc_transform frame = cc_tf(cc_v3((float)rng.uni(-2, 2), (float)rng.uni(-2, 2), (float)rng.uni(-2, 2)), g);
        Config c;
        c.a = make_box(frame.p, g, cc_v3(3.0f, 3.0f, 0.5f));
        c.b = make_box(cc_tf_point(frame, pb), cc_q_normalize(cc_q_mul(g, qb)), hb);
        c.threshold = 0.05f;
        v.push_back(c);
    }
    return v;
}

TEST(BoxBox, SwappingShapesFlipsTheNormal)
{
    int with_contacts = 0;
    for (const Config& c : symmetry_configs()) {
        cc_manifold m = collide(c.a, c.b, c.threshold);
        cc_manifold s = collide(c.b, c.a, c.threshold);
        ASSERT_EQ(m.count, s.count);
        if (m.count == 0) continue;
        ++with_contacts;
        expect_normal(s, -m.normal.x, -m.normal.y, -m.normal.z, 1e-5);
        EXPECT_TRUE(same_points(points_of(s), points_of(m), 2e-5));
    }
    EXPECT_GT(with_contacts, 450);
}

TEST(BoxBox, RigidMotionOfBothBoxesTransformsTheResult)
{
    Rng rng(13);
    int with_contacts = 0;
    for (const Config& c : symmetry_configs()) {
        cc_transform t = cc_tf(cc_v3((float)rng.uni(-3, 3), (float)rng.uni(-3, 3), (float)rng.uni(-3, 3)), rng.rotation());
        Config moved = c;
        moved.a.xf = cc_tf_mul(t, c.a.xf);
        moved.b.xf = cc_tf_mul(t, c.b.xf);
        cc_manifold m = collide(c.a, c.b, c.threshold);
        cc_manifold n = collide(moved.a, moved.b, c.threshold);
        ASSERT_EQ(m.count, n.count);
        if (m.count == 0) continue;
        ++with_contacts;
        // A face or edge normal is a rotated axis (error ~1e-7); a vertex-pair
        // normal is a difference of points, error ~ coordinate rounding / gap
        // (1e-6 m over a few cm).
        cc_vec3 nn = cc_tf_vector(t, m.normal);
        expect_normal(n, nn.x, nn.y, nn.z, 1e-4);
        std::vector<Pt> want;
        for (int k = 0; k < m.count; ++k) {
            cc_vec3 p = cc_tf_point(t, m.point[k]);
            want.push_back({p.x, p.y, p.z, m.distance[k]});
        }
        EXPECT_TRUE(same_points(points_of(n), want, 1e-4));
    }
    EXPECT_GT(with_contacts, 450);
}

// ---------------------------------------------------------------------------
// Fuzz against the reference.

// The reference itself: signed_distance equals the max over directions of
// the projection separation, found by an independent sweep.
TEST(BoxBoxReference, MatchesDirectionSweep)
{
    Rng rng(5);
    std::mt19937 gen(6);
    double worst = 0;
    for (int it = 0; it < 300; ++it) {
        Config c = random_config(rng, it % 3);
        RefBox a = ref_box(c.a), b = ref_box(c.b);
        double exact = signed_distance(a, b), sweep = sweep_signed_distance(a, b, gen);
        // No direction separates more than the signed distance ...
        EXPECT_LE(sweep, exact + 1e-9) << "iteration " << it;
        // ... and the best one reaches it.
        EXPECT_GE(sweep, exact - 5e-5) << "iteration " << it;
        worst = std::max(worst, exact - sweep);
    }
    std::printf("reference vs sweep: worst shortfall %.3g m\n", worst);
}

TEST(BoxBox, FuzzAgainstReference)
{
    const int n = 20000;
    // Tolerances: 1e-4 m of float rounding (boxes up to 1 m placed within a
    // few metres); for overlapping boxes too, the reported depth is the
    // minimum translation depth up to rounding. (The
    // skip of edge axes within 1e-3 rad of parallel stays inside these; the
    // nearly axis-aligned mode exercises it.)
    const double tol_abs = 1e-4, tol_surface = 1e-4;
    Rng rng(2024);
    int too_many = 0, bad_normal = 0, flipped = 0, phantom = 0, missing = 0, mismatch = 0, off_surface = 0,
        over_deep = 0, with_contacts = 0;
    double worst_over = 0, worst_under = 0;
    int reported = 0;
    for (int it = 0; it < n; ++it) {
        Config c = random_config(rng, it % 3);
        cc_manifold m = collide(c.a, c.b, c.threshold);
        RefBox a = ref_box(c.a), b = ref_box(c.b);
        double sd = signed_distance(a, b);
        double tol_d = tol_abs;
        auto report = [&](const char* what) {
            if (reported++ < 10) {
                std::printf("%s: it %d mode %d thr %g sd %.6g count %d", what, it, it % 3, c.threshold, sd, m.count);
                for (int k = 0; k < m.count && k < CC_MANIFOLD_MAX_POINTS; ++k) std::printf(" d%d=%.6g", k, m.distance[k]);
                std::printf("\n");
            }
        };
        if (m.count < 0 || m.count > 4) {
            ++too_many;
            report("too many");
            continue;
        }
        if (m.count == 0) {
            if (sd < (double)c.threshold - tol_abs) {
                ++missing;
                report("missing");
            }
            continue;
        }
        ++with_contacts;
        double nl = norm(from(m.normal));
        if (std::fabs(nl - 1) > 1e-5) ++bad_normal, report("normal");
        if (dot(from(m.normal), b.c - a.c) < -1e-5) ++flipped, report("flipped");
        if (sd > (double)c.threshold + tol_abs) ++phantom, report("beyond threshold");
        double dmin = 1e300;
        for (int k = 0; k < m.count; ++k) {
            double d = m.distance[k];
            dmin = std::min(dmin, d);
            if (!(d <= c.threshold)) ++phantom, report("distance over threshold");
            D3 p = from(m.point[k]), nrm = from(m.normal);
            D3 pa = p - nrm * (d / 2), pb = p + nrm * (d / 2);
            if (std::fabs(box_sdf(a, pa)) > tol_surface || std::fabs(box_sdf(b, pb)) > tol_surface) {
                ++off_surface;
                report("core point off its surface");
            }
            if (box_sdf(b, pa) < sd - tol_d || box_sdf(a, pb) < sd - tol_d) {
                ++over_deep;
                report("core point deeper than the penetration depth");
            }
        }
        worst_over = std::max(worst_over, sd - dmin);
        worst_under = std::max(worst_under, dmin - sd);
        if (dmin < sd - tol_d || dmin > sd + tol_abs) {
            ++mismatch;
            report("closest distance mismatch");
        }
    }
    std::printf("fuzz: %d pairs, %d with contacts; worst reported-deeper %.3g m, worst reported-farther %.3g m\n", n,
                with_contacts, worst_over, worst_under);
    EXPECT_EQ(too_many, 0);
    EXPECT_EQ(bad_normal, 0);
    EXPECT_EQ(flipped, 0);
    EXPECT_EQ(phantom, 0);
    EXPECT_EQ(missing, 0);
    EXPECT_EQ(mismatch, 0);
    EXPECT_EQ(off_surface, 0);
    EXPECT_EQ(over_deep, 0);
    EXPECT_GT(with_contacts, n / 3);
}

} // namespace
