// End-to-end contact semantics through the public API: for every implemented
// pair a configuration with an analytic answer (count, contact-space
// distance, normal direction, margin-shifted surface points, thickness,
// friction offsets), margin and gap admission, swap and rigid-motion
// invariance, body-frame points and world-frame (body -1) shapes.
//
// Every shape is checked against an independent double-precision signed
// distance function. Tolerances: 1e-5 for positions, distances and normals
// (float32 pipeline, scenes of a few metres), 1e-6 for quantities that are
// exact up to one or two roundings.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using namespace cctest;

namespace {

// ---------------------------------------------------------------- double math

struct V {
    double x, y, z;
};
V operator+(V a, V b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V operator-(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V operator-(V a) { return {-a.x, -a.y, -a.z}; }
V operator*(V a, double s) { return {a.x * s, a.y * s, a.z * s}; }
V operator*(double s, V a) { return a * s; }
double dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V cross(V a, V b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double norm(V a) { return std::sqrt(dot(a, a)); }
V vabs(V a) { return {std::fabs(a.x), std::fabs(a.y), std::fabs(a.z)}; }
V vmax0(V a) { return {std::max(a.x, 0.0), std::max(a.y, 0.0), std::max(a.z, 0.0)}; }

struct Q {
    double x, y, z, w;
};
Q qmul(Q a, Q b)
{
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Q qconj(Q q) { return {-q.x, -q.y, -q.z, q.w}; }
V rot(Q q, V v)
{
    V u{q.x, q.y, q.z};
    V t = 2.0 * cross(u, v);
    return v + q.w * t + cross(u, t);
}
V rot_inv(Q q, V v) { return rot(qconj(q), v); }
Q axis_angle(V axis, double angle)
{
    V u = axis * (1.0 / norm(axis));
    double s = std::sin(0.5 * angle);
    return {u.x * s, u.y * s, u.z * s, std::cos(0.5 * angle)};
}
const Q kIdQ{0, 0, 0, 1};
// Local z onto world x (a capsule lying along x), and onto world y.
const Q kZtoX = axis_angle({0, 1, 0}, M_PI / 2);
const Q kZtoY = axis_angle({1, 0, 0}, -M_PI / 2);

struct X {
    V p;
    Q q;
};
X xmul(X a, X b) { return {a.p + rot(a.q, b.p), qmul(a.q, b.q)}; }
X xinv(X t)
{
    Q qi = qconj(t.q);
    return {-rot(qi, t.p), qi};
}
V xpt(X t, V v) { return t.p + rot(t.q, v); }
const X kIdX{{0, 0, 0}, kIdQ};

cc_vec3 to_cc(V v) { return {(float)v.x, (float)v.y, (float)v.z}; }
cc_transform to_cc(X t)
{
    cc_transform r;
    r.p = to_cc(t.p);
    r.q = {(float)t.q.x, (float)t.q.y, (float)t.q.z, (float)t.q.w};
    return r;
}
V from_cc(cc_vec3 v) { return {v.x, v.y, v.z}; }
X from_cc(cc_transform t) { return {from_cc(t.p), {t.q.x, t.q.y, t.q.z, t.q.w}}; }

Q random_q(std::mt19937& rng)
{
    std::normal_distribution<double> n(0.0, 1.0);
    Q q{n(rng), n(rng), n(rng), n(rng)};
    double l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x / l, q.y / l, q.z / l, q.w / l};
}
V random_v(std::mt19937& rng, double lo, double hi)
{
    std::uniform_real_distribution<double> u(lo, hi);
    return {u(rng), u(rng), u(rng)};
}

::testing::AssertionResult v_near(V a, V b, double tol)
{
    double e = norm(a - b);
    if (e <= tol) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got (" << a.x << ", " << a.y << ", " << a.z << ") expected (" << b.x
                                         << ", " << b.y << ", " << b.z << "), error " << e << " > " << tol;
}
#define EXPECT_V_NEAR(a, b, tol) EXPECT_TRUE(v_near((a), (b), (tol)))

constexpr double kTol = 1e-5;

// ---------------------------------------------------------------- shapes

struct Spec {
    cc_shape_type type;
    cc_vec3 size;
    X pose;        // intended world pose
    float margin;
    float gap;
    bool world_body = false;  // on body -1 (world frame)
    bool static_body = false; // on a static body
};

float eff_radius(const Spec& s)
{
    return (s.type == CC_SHAPE_SPHERE || s.type == CC_SHAPE_CAPSULE) ? s.size.x : 0.0f;
}

bool plane_finite(const Spec& s) { return s.type == CC_SHAPE_PLANE && s.size.x > 0 && s.size.y > 0; }

// Signed distance from world point p to the true surface of shape s posed at
// `pose` (a finite plane: the height above its plane; its footprint is
// checked separately).
double sdf(const Spec& s, X pose, V p)
{
    V l = rot_inv(pose.q, p - pose.p);
    switch (s.type) {
    case CC_SHAPE_PLANE:
        return l.z;
    case CC_SHAPE_SPHERE:
        return norm(l) - s.size.x;
    case CC_SHAPE_CAPSULE: {
        double hh = s.size.y;
        double z = std::max(-hh, std::min(hh, l.z));
        return norm(l - V{0, 0, z}) - s.size.x;
    }
    case CC_SHAPE_BOX: {
        V q = vabs(l) - V{s.size.x, s.size.y, s.size.z};
        return norm(vmax0(q)) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0);
    }
    default:
        ADD_FAILURE() << "unexpected shape type";
        return 0;
    }
}

// A scene built from specs: each spec on its own body with a random pose and
// a compensating local transform (or on body -1), so that its world pose is
// motion * spec.pose and every body-frame conversion is non-trivial.
struct Scene {
    Builder builder;
    std::vector<int> shape; // shape index per spec
    std::vector<int> body;  // body index per spec, -1 for the world frame
    std::vector<cc_transform> local; // local pose given to the builder per spec
};

Scene build_scene(const std::vector<Spec>& specs, const std::vector<int>& order, X motion, uint32_t seed,
                  bool identity_bodies = false)
{
    Scene sc;
    sc.builder = make_builder(0.1f);
    sc.shape.assign(specs.size(), -1);
    sc.body.assign(specs.size(), -1);
    sc.local.resize(specs.size());
    std::mt19937 rng(seed);
    for (int i : order) {
        const Spec& s = specs[(size_t)i];
        X world = xmul(motion, s.pose);
        cc_shape_def d = cc_default_shape_def();
        d.margin = s.margin;
        d.gap = s.gap;
        int body = -1;
        if (s.world_body) {
            d.local = to_cc(world);
        } else {
            X bp = identity_bodies ? world : X{world.p + random_v(rng, -1, 1), random_q(rng)};
            cc_body_def bd = cc_default_body_def();
            bd.pose = to_cc(bp);
            bd.is_static = s.static_body;
            EXPECT_EQ(cc_builder_add_body(sc.builder.get(), &bd, &body), CC_OK) << cc_last_error_message();
            d.local = to_cc(identity_bodies ? kIdX : xmul(xinv(bp), world));
        }
        int shape = -1;
        EXPECT_EQ(cc_builder_add_shape(sc.builder.get(), body, s.type, s.size, &d, &shape), CC_OK)
            << cc_last_error_message();
        sc.shape[(size_t)i] = shape;
        sc.body[(size_t)i] = body;
        sc.local[(size_t)i] = d.local;
    }
    return sc;
}

// World pose of spec i as the library sees it (body pose from the state times
// the local transform the builder stored).
struct Posed {
    std::vector<X> body_pose; // by body index
};

Posed read_poses(World& w)
{
    Posed p;
    int n = cc_model_body_count(w.model.get());
    std::vector<cc_transform> poses((size_t)n);
    if (n) {
        EXPECT_EQ(cc_state_get_body_poses(w.state.get(), 0, n, poses.data()), CC_OK);
    }
    for (auto& t : poses) p.body_pose.push_back(from_cc(t));
    return p;
}

V to_world(const Posed& p, int body, cc_vec3 local)
{
    return body >= 0 ? xpt(p.body_pose[(size_t)body], from_cc(local)) : from_cc(local);
}
V vec_to_body(const Posed& p, int body, V v) { return body >= 0 ? rot_inv(p.body_pose[(size_t)body].q, v) : v; }

// The conventions of contacts.h for one downloaded contact between specs
// s0 (shape0) and s1 (shape1) whose actual world poses are x0 and x1.
void check_conventions(const cc_contact& c, const Spec& s0, X x0, int body0, const Spec& s1, X x1, int body1,
                       const Posed& p)
{
    V n = from_cc(c.normal);
    EXPECT_NEAR(norm(n), 1.0, kTol) << "normal is not unit";
    // thickness = effective radius + margin, computed the same way in float.
    EXPECT_EQ(c.thickness0, eff_radius(s0) + s0.margin);
    EXPECT_EQ(c.thickness1, eff_radius(s1) + s1.margin);
    V w0 = to_world(p, body0, c.point0), w1 = to_world(p, body1, c.point1);
    // distance column = dot(n, w1 - w0) - t0 - t1.
    EXPECT_NEAR(dot(n, w1 - w0) - c.thickness0 - c.thickness1, c.distance, kTol);
    // Margin-shifted surface points lie on the surfaces offset by the margins.
    EXPECT_NEAR(sdf(s0, x0, w0 + n * c.thickness0), s0.margin, kTol) << "shape0 margin-shifted point off its surface";
    EXPECT_NEAR(sdf(s1, x1, w1 - n * c.thickness1), s1.margin, kTol) << "shape1 margin-shifted point off its surface";
    // A finite plane's contact lies over its rectangle.
    if (plane_finite(s0)) {
        V l = rot_inv(x0.q, w0 - x0.p);
        EXPECT_LE(std::fabs(l.x), s0.size.x + kTol);
        EXPECT_LE(std::fabs(l.y), s0.size.y + kTol);
    }
    // Friction offsets: +normal*t0 and -normal*t1 in the bodies' frames.
    EXPECT_V_NEAR(from_cc(c.offset0), vec_to_body(p, body0, n * c.thickness0), 1e-6);
    EXPECT_V_NEAR(from_cc(c.offset1), vec_to_body(p, body1, -n * c.thickness1), 1e-6);
}

// ---------------------------------------------------------------- analytic cases

struct PairCase {
    std::string name;
    std::vector<Spec> specs; // specs[0] is shape0: the lower type, or the first added of one type
    int count;
    V normal;   // world, specs[0] -> specs[1]
    double s;   // true surface distance
    std::vector<std::pair<V, V>> points; // expected core points (on specs[0], on specs[1]), world
};

Spec sp(cc_shape_type t, cc_vec3 size, X pose, float margin, float gap)
{
    Spec s;
    s.type = t;
    s.size = size;
    s.pose = pose;
    s.margin = margin;
    s.gap = gap;
    return s;
}

std::vector<PairCase> pair_cases()
{
    std::vector<PairCase> cases;
    const V up{0, 0, 1};
    {
        PairCase c;
        c.name = "plane_sphere";
        Spec plane = sp(CC_SHAPE_PLANE, {0, 0, 0}, kIdX, 0.01f, 0.05f);
        plane.world_body = true;
        V ctr{0.3, -0.2, 0.5 + 0.04};
        c.specs = {plane, sp(CC_SHAPE_SPHERE, {0.5f, 0, 0}, {ctr, kIdQ}, 0.02f, 0.05f)};
        c.count = 1;
        c.normal = up;
        c.s = 0.04;
        c.points = {{{0.3, -0.2, 0}, ctr}};
        cases.push_back(c);
    }
    {
        PairCase c;
        c.name = "plane_capsule";
        Spec plane = sp(CC_SHAPE_PLANE, {0, 0, 0}, kIdX, 0.005f, 0.05f);
        plane.world_body = true;
        V ctr{0.1, 0.2, 0.2 + 0.03};
        c.specs = {plane, sp(CC_SHAPE_CAPSULE, {0.2f, 0.5f, 0}, {ctr, kZtoX}, 0.01f, 0.04f)};
        c.count = 2;
        c.normal = up;
        c.s = 0.03;
        for (double sx : {-0.5, 0.5}) c.points.push_back({{0.1 + sx, 0.2, 0}, {0.1 + sx, 0.2, 0.23}});
        cases.push_back(c);
    }
    {
        PairCase c;
        c.name = "plane_box";
        Spec plane = sp(CC_SHAPE_PLANE, {0, 0, 0}, kIdX, 0.01f, 0.05f);
        plane.world_body = true;
        Q q = axis_angle(up, 0.3);
        V ctr{0.0, 0.0, 0.2 + 0.02};
        c.specs = {plane, sp(CC_SHAPE_BOX, {0.5f, 0.3f, 0.2f}, {ctr, q}, 0.02f, 0.05f)};
        c.count = 4;
        c.normal = up;
        c.s = 0.02;
        for (double sx : {-1.0, 1.0})
            for (double sy : {-1.0, 1.0}) {
                V k = ctr + rot(q, V{0.5 * sx, 0.3 * sy, -0.2});
                c.points.push_back({{k.x, k.y, 0}, k});
            }
        cases.push_back(c);
    }
    {
        PairCase c;
        c.name = "sphere_sphere";
        V u{0.48, 0.64, 0.6};
        V cb = u * (0.3 + 0.4 + 0.025);
        c.specs = {sp(CC_SHAPE_SPHERE, {0.3f, 0, 0}, kIdX, 0.01f, 0.02f),
                   sp(CC_SHAPE_SPHERE, {0.4f, 0, 0}, {cb, kIdQ}, 0.02f, 0.02f)};
        c.count = 1;
        c.normal = u;
        c.s = 0.025;
        c.points = {{{0, 0, 0}, cb}};
        cases.push_back(c);
    }
    {
        PairCase c;
        c.name = "sphere_capsule";
        V cs{1.52, 1, 1.1};
        c.specs = {sp(CC_SHAPE_SPHERE, {0.3f, 0, 0}, {cs, kIdQ}, 0.01f, 0.03f),
                   sp(CC_SHAPE_CAPSULE, {0.2f, 0.5f, 0}, {{1, 1, 1}, kIdQ}, 0.015f, 0.03f)};
        c.count = 1;
        c.normal = {-1, 0, 0};
        c.s = 0.02;
        c.points = {{cs, {1, 1, 1.1}}};
        cases.push_back(c);
    }
    {
        PairCase c;
        c.name = "sphere_box";
        V cs{0.1, -0.1, 0.3 + 0.25 + 0.01};
        c.specs = {sp(CC_SHAPE_SPHERE, {0.25f, 0, 0}, {cs, kIdQ}, 0.02f, 0.02f),
                   sp(CC_SHAPE_BOX, {0.5f, 0.4f, 0.3f}, kIdX, 0.01f, 0.02f)};
        c.count = 1;
        c.normal = {0, 0, -1};
        c.s = 0.01;
        c.points = {{cs, {0.1, -0.1, 0.3}}};
        cases.push_back(c);
    }
    {
        PairCase c;
        c.name = "capsule_capsule_crossing";
        c.specs = {sp(CC_SHAPE_CAPSULE, {0.1f, 0.6f, 0}, {{0, 0, 0}, kZtoX}, 0.01f, 0.03f),
                   sp(CC_SHAPE_CAPSULE, {0.15f, 0.4f, 0}, {{0.1, -0.05, 0.28}, kZtoY}, 0.01f, 0.03f)};
        c.count = 1;
        c.normal = up;
        c.s = 0.03;
        c.points = {{{0.1, 0, 0}, {0.1, 0, 0.28}}};
        cases.push_back(c);
    }
    {
        PairCase c;
        c.name = "capsule_capsule_parallel";
        c.specs = {sp(CC_SHAPE_CAPSULE, {0.1f, 0.5f, 0}, {{0, 0, 0}, kZtoX}, 0.005f, 0.02f),
                   sp(CC_SHAPE_CAPSULE, {0.1f, 0.4f, 0}, {{0.2, 0, 0.21}, kZtoX}, 0.005f, 0.02f)};
        c.count = 2;
        c.normal = up;
        c.s = 0.01;
        c.points = {{{-0.2, 0, 0}, {-0.2, 0, 0.21}}, {{0.5, 0, 0}, {0.5, 0, 0.21}}};
        cases.push_back(c);
    }
    {
        PairCase c;
        c.name = "capsule_box";
        c.specs = {sp(CC_SHAPE_CAPSULE, {0.1f, 0.4f, 0}, {{0.2, 0.1, 0.37}, kZtoX}, 0.01f, 0.03f),
                   sp(CC_SHAPE_BOX, {1.0f, 0.5f, 0.25f}, kIdX, 0.005f, 0.03f)};
        c.count = 2;
        c.normal = {0, 0, -1};
        c.s = 0.02;
        c.points = {{{-0.2, 0.1, 0.37}, {-0.2, 0.1, 0.25}}, {{0.6, 0.1, 0.37}, {0.6, 0.1, 0.25}}};
        cases.push_back(c);
    }
    {
        PairCase c;
        c.name = "box_box";
        Q q = axis_angle(up, 0.5);
        V ctr{0.1, 0.2, 0.25 + 0.1 + 0.015};
        c.specs = {sp(CC_SHAPE_BOX, {1.0f, 1.0f, 0.25f}, kIdX, 0.01f, 0.02f),
                   sp(CC_SHAPE_BOX, {0.3f, 0.2f, 0.1f}, {ctr, q}, 0.02f, 0.02f)};
        c.count = 4;
        c.normal = up;
        c.s = 0.015;
        for (double sx : {-1.0, 1.0})
            for (double sy : {-1.0, 1.0}) {
                V k = ctr + rot(q, V{0.3 * sx, 0.2 * sy, -0.1});
                c.points.push_back({{k.x, k.y, 0.25}, k});
            }
        cases.push_back(c);
    }
    {
        PairCase c;
        c.name = "finite_plane_box";
        X plane_pose{{0.5, 0.5, 0.1}, axis_angle(up, 0.2)};
        Spec plane = sp(CC_SHAPE_PLANE, {1.0f, 0.8f, 0}, plane_pose, 0.01f, 0.02f);
        plane.static_body = true;
        Q ql = axis_angle(up, 0.4);
        X box_local{{0.3, 0.3, 0.2 + 0.01}, ql};
        X box_pose = xmul(plane_pose, box_local);
        c.specs = {plane, sp(CC_SHAPE_BOX, {0.2f, 0.2f, 0.2f}, box_pose, 0.01f, 0.02f)};
        c.count = 4;
        c.normal = rot(plane_pose.q, up);
        c.s = 0.01;
        for (double sx : {-1.0, 1.0})
            for (double sy : {-1.0, 1.0}) {
                V kl = xpt(box_local, V{0.2 * sx, 0.2 * sy, -0.2});
                c.points.push_back({xpt(plane_pose, {kl.x, kl.y, 0}), xpt(plane_pose, kl)});
            }
        cases.push_back(c);
    }
    {
        // Over the plane's rim: the box's footprint lies outside the rectangle,
        // so the finite plane gives no contact although the AABBs overlap.
        PairCase c;
        c.name = "finite_plane_box_outside";
        Spec plane = sp(CC_SHAPE_PLANE, {1.0f, 0.8f, 0}, kIdX, 0.01f, 0.1f);
        plane.static_body = true;
        c.specs = {plane, sp(CC_SHAPE_BOX, {0.05f, 0.05f, 0.05f}, {{1.1, 0, 0.06}, kIdQ}, 0.01f, 0.1f)};
        c.count = 0;
        c.normal = up;
        c.s = 0.01;
        cases.push_back(c);
    }
    return cases;
}

std::string vstr(V v)
{
    char buf[128];
    std::snprintf(buf, sizeof buf, "(%.6f, %.6f, %.6f)", v.x, v.y, v.z);
    return buf;
}

struct RunOptions {
    X motion = kIdX;
    bool reversed = false;
    uint32_t seed = 1;
    cc_broad_phase broad_phase = CC_BROAD_PHASE_AUTO;
    bool zero_margins = false;
};

struct CaseResult {
    std::vector<cc_contact> contacts;
    std::vector<V> w0, w1; // world core points per contact
};

// Builds, collides and checks one case against its analytic answer moved by
// opts.motion. Returns the contacts for further comparison.
CaseResult run_case(cc_device dev, PairCase pc, const RunOptions& opts)
{
    SCOPED_TRACE(pc.name + (opts.reversed ? " (reversed)" : "") + " seed " + std::to_string(opts.seed));
    CaseResult res;
    if (opts.zero_margins) {
        for (auto& s : pc.specs) {
            s.gap += s.margin; // same admission, so the same contacts
            s.margin = 0.0f;
        }
    }
    std::vector<int> order = opts.reversed ? std::vector<int>{1, 0} : std::vector<int>{0, 1};
    Scene sc = build_scene(pc.specs, order, opts.motion, opts.seed);
    World w;
    cc_pipeline_def def = cc_default_pipeline_def();
    def.broad_phase = opts.broad_phase;
    cc_status st = make_world(sc.builder.get(), dev, def, &w);
    EXPECT_EQ(st, CC_OK) << cc_last_error_message();
    if (st != CC_OK) return res;
    res.contacts = collide(w);
    Posed posed = read_poses(w);
    // Every case is within reach of the broad phase: the narrow phase decides.
    int pair[2] = {-1, -1}, npairs = 0;
    EXPECT_EQ(cc_pipeline_download_pairs(w.pipeline.get(), pair, 1, &npairs), CC_OK);
    EXPECT_EQ(npairs, 1);

    // Who is shape 0: the lower type; for equal types the shape added first.
    bool same_type = pc.specs[0].type == pc.specs[1].type;
    int e0 = (same_type && opts.reversed) ? 1 : 0, e1 = 1 - e0;
    V n_expected = rot(opts.motion.q, e0 == 0 ? pc.normal : -pc.normal);
    double d_expected = pc.s - (double)pc.specs[0].margin - (double)pc.specs[1].margin;

    EXPECT_EQ((int)res.contacts.size(), pc.count);
    std::vector<X> actual(2);
    for (int i = 0; i < 2; ++i) {
        int body = sc.body[(size_t)i];
        // The library composes the float body pose with the float local pose.
        X local = from_cc(sc.local[(size_t)i]);
        actual[(size_t)i] = body >= 0 ? xmul(posed.body_pose[(size_t)body], local) : local;
    }
    std::vector<bool> used(pc.points.size(), false);
    for (const cc_contact& c : res.contacts) {
        EXPECT_EQ(c.shape0, sc.shape[(size_t)e0]);
        EXPECT_EQ(c.shape1, sc.shape[(size_t)e1]);
        if (c.shape0 != sc.shape[(size_t)e0] || c.shape1 != sc.shape[(size_t)e1]) continue;
        check_conventions(c, pc.specs[(size_t)e0], actual[(size_t)e0], sc.body[(size_t)e0], pc.specs[(size_t)e1],
                          actual[(size_t)e1], sc.body[(size_t)e1], posed);
        EXPECT_V_NEAR(from_cc(c.normal), n_expected, kTol);
        EXPECT_NEAR(c.distance, d_expected, kTol);
        V w0 = to_world(posed, sc.body[(size_t)e0], c.point0);
        V w1 = to_world(posed, sc.body[(size_t)e1], c.point1);
        res.w0.push_back(w0);
        res.w1.push_back(w1);
        // Match the expected core-point pair (on specs[0], on specs[1]).
        V on0 = e0 == 0 ? w0 : w1, on1 = e0 == 0 ? w1 : w0;
        size_t best = pc.points.size();
        double best_err = 1e9;
        for (size_t k = 0; k < pc.points.size(); ++k) {
            double err = norm(on0 - xpt(opts.motion, pc.points[k].first)) + norm(on1 - xpt(opts.motion, pc.points[k].second));
            if (!used[k] && err < best_err) {
                best_err = err;
                best = k;
            }
        }
        EXPECT_LT(best_err, 2 * kTol) << "contact core points " << vstr(on0) << " / " << vstr(on1)
                                      << " match no expected pair";
        if (best < used.size()) used[best] = true;
    }
    return res;
}

class PipelineContacts : public DeviceTest {};

// ---------------------------------------------------------------- analytic pairs

TEST_P(PipelineContacts, AnalyticPairs)
{
    for (const PairCase& pc : pair_cases()) run_case(device(), pc, RunOptions());
}

TEST_P(PipelineContacts, AnalyticPairsOnEveryBroadPhase)
{
    for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
        SCOPED_TRACE("broad phase " + std::to_string((int)bp));
        RunOptions o;
        o.broad_phase = bp;
        o.seed = 7;
        for (const PairCase& pc : pair_cases()) run_case(device(), pc, o);
    }
}

// Adding the two bodies in the opposite order: different types keep their
// roles; same types swap shape0/shape1 and flip the normal. Distances and
// the core-point pairs are the same.
TEST_P(PipelineContacts, OppositeAddOrder)
{
    for (const PairCase& pc : pair_cases()) {
        RunOptions a, b;
        b.reversed = true;
        CaseResult ra = run_case(device(), pc, a);
        CaseResult rb = run_case(device(), pc, b);
        ASSERT_EQ(ra.contacts.size(), rb.contacts.size()) << pc.name;
        std::vector<float> da, db;
        for (auto& c : ra.contacts) da.push_back(c.distance);
        for (auto& c : rb.contacts) db.push_back(c.distance);
        std::sort(da.begin(), da.end());
        std::sort(db.begin(), db.end());
        for (size_t i = 0; i < da.size(); ++i) EXPECT_NEAR(da[i], db[i], kTol) << pc.name;
        bool same_type = pc.specs[0].type == pc.specs[1].type;
        for (size_t i = 0; i < ra.contacts.size() && i < rb.contacts.size(); ++i) {
            V na = from_cc(ra.contacts[i].normal), nb = from_cc(rb.contacts[i].normal);
            EXPECT_V_NEAR(nb, same_type ? -na : na, kTol) << pc.name;
        }
    }
}

// A random rigid motion of the whole scene moves normals and points with it
// and leaves distances unchanged.
TEST_P(PipelineContacts, RigidMotionOfTheScene)
{
    std::mt19937 rng(2024);
    for (int trial = 0; trial < 4; ++trial) {
        X motion{random_v(rng, -3, 3), random_q(rng)};
        for (const PairCase& pc : pair_cases()) {
            RunOptions base, moved;
            base.seed = moved.seed = 100 + (uint32_t)trial;
            moved.motion = motion;
            CaseResult r0 = run_case(device(), pc, base);
            CaseResult r1 = run_case(device(), pc, moved);
            ASSERT_EQ(r0.contacts.size(), r1.contacts.size()) << pc.name;
            std::vector<float> d0, d1;
            for (auto& c : r0.contacts) d0.push_back(c.distance);
            for (auto& c : r1.contacts) d1.push_back(c.distance);
            std::sort(d0.begin(), d0.end());
            std::sort(d1.begin(), d1.end());
            for (size_t i = 0; i < d0.size(); ++i) EXPECT_NEAR(d0[i], d1[i], kTol) << pc.name;
            // Every moved contact is a moved original (points and normal).
            for (size_t i = 0; i < r1.contacts.size(); ++i) {
                double best = 1e9;
                for (size_t j = 0; j < r0.contacts.size(); ++j) {
                    double err = norm(r1.w0[i] - xpt(motion, r0.w0[j])) + norm(r1.w1[i] - xpt(motion, r0.w1[j])) +
                                 norm(from_cc(r1.contacts[i].normal) - rot(motion.q, from_cc(r0.contacts[j].normal)));
                    best = std::min(best, err);
                }
                EXPECT_LT(best, 3 * kTol) << pc.name << ": contact " << i << " is not a moved original";
            }
        }
    }
}

// ---------------------------------------------------------------- margins and gaps

// Same geometry with and without margins: the distance column moves by
// exactly margin0 + margin1, the core points and the normal do not move, and
// the thickness grows by the margin.
TEST_P(PipelineContacts, DistanceShiftsByTheMarginSum)
{
    for (const PairCase& pc : pair_cases()) {
        if (pc.count == 0) continue;
        RunOptions with, without;
        with.seed = without.seed = 31;
        without.zero_margins = true;
        CaseResult a = run_case(device(), pc, with);
        CaseResult b = run_case(device(), pc, without);
        ASSERT_EQ(a.contacts.size(), b.contacts.size()) << pc.name;
        float msum = pc.specs[0].margin + pc.specs[1].margin;
        for (size_t i = 0; i < a.contacts.size(); ++i) {
            // The same bodies and poses give the same rows in the same order.
            EXPECT_NEAR(b.contacts[i].distance - a.contacts[i].distance, msum, 1e-6) << pc.name;
            EXPECT_NEAR(a.contacts[i].thickness0 - b.contacts[i].thickness0, pc.specs[0].margin, 1e-7) << pc.name;
            EXPECT_NEAR(a.contacts[i].thickness1 - b.contacts[i].thickness1, pc.specs[1].margin, 1e-7) << pc.name;
            EXPECT_V_NEAR(a.w0[i], b.w0[i], 1e-6);
            EXPECT_V_NEAR(a.w1[i], b.w1[i], 1e-6);
            EXPECT_V_NEAR(from_cc(a.contacts[i].normal), from_cc(b.contacts[i].normal), 1e-6);
        }
    }
}

// Two bodies placed exactly (identity rotations, positions that make every
// intermediate exact in float): admission is d < gap0 + gap1, strict, as
// MuJoCo keeps dist < margin.
TEST_P(PipelineContacts, AdmissionIsStrictAtTheGapSum)
{
    // Spheres r = 0.5; margins 0.25 and 0.125, gaps 0.25 and 0.125:
    // thickness sum 1.375, gap sum 0.375, so centres 1.75 apart give d = 0.375.
    Builder b = make_builder();
    cc_shape_def da = cc_default_shape_def(), db = cc_default_shape_def();
    da.margin = 0.25f;
    da.gap = 0.25f;
    db.margin = 0.125f;
    db.gap = 0.125f;
    int ba = add_body(b.get(), {0, 0, 0});
    int bb = add_body(b.get(), {1.75f, 0, 0});
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ba, 0.5f, &da, nullptr));
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), bb, 0.5f, &db, nullptr));
    World w;
    CC_ASSERT_OK(make_world(b.get(), device(), cc_default_pipeline_def(), &w));
    EXPECT_EQ(collide(w).size(), 0u) << "d == gap0 + gap1 must be rejected";

    cc_transform in{{std::nextafter(1.75f, 0.0f), 0, 0}, {0, 0, 0, 1}};
    CC_ASSERT_OK(cc_state_set_body_poses(w.state.get(), bb, 1, &in));
    auto c = collide(w);
    ASSERT_EQ(c.size(), 1u) << "d one ulp below gap0 + gap1 must be admitted";
    EXPECT_LT(c[0].distance, 0.375f);

    // Plane (margin 0.25, gap 0.125) and box (h 0.5, margin 0.125, gap 0.25):
    // the bottom face at height 0.75 gives d = 0.75 - 0.375 = 0.375 = gap sum.
    Builder b2 = make_builder();
    cc_shape_def dp = cc_default_shape_def(), dbx = cc_default_shape_def();
    dp.margin = 0.25f;
    dp.gap = 0.125f;
    dbx.margin = 0.125f;
    dbx.gap = 0.25f;
    CC_ASSERT_OK(cc_builder_add_plane(b2.get(), CC_BODY_WORLD, 0, 0, &dp, nullptr));
    int bbox = add_body(b2.get(), {0, 0, 1.25f});
    CC_ASSERT_OK(cc_builder_add_box(b2.get(), bbox, {0.5f, 0.5f, 0.5f}, &dbx, nullptr));
    World w2;
    CC_ASSERT_OK(make_world(b2.get(), device(), cc_default_pipeline_def(), &w2));
    EXPECT_EQ(collide(w2).size(), 0u);
    cc_transform down{{0, 0, std::nextafter(1.25f, 0.0f)}, {0, 0, 0, 1}};
    CC_ASSERT_OK(cc_state_set_body_poses(w2.state.get(), bbox, 1, &down));
    auto c2 = collide(w2);
    ASSERT_EQ(c2.size(), 4u);
    for (auto& k : c2) EXPECT_LT(k.distance, 0.375f);
}

// On a diagonal the expanded AABBs overlap, so the narrow phase alone
// decides: 1e-4 inside the gap sum is a contact, 1e-4 outside is not, and
// the pair is a broad-phase candidate in both cases.
TEST_P(PipelineContacts, NarrowPhaseDecidesInsideOverlappingBounds)
{
    for (double delta : {-1e-4, 1e-4}) {
        SCOPED_TRACE("delta " + std::to_string(delta));
        Builder b = make_builder();
        cc_shape_def da = cc_default_shape_def(), db = cc_default_shape_def();
        da.margin = 0.25f;
        da.gap = 0.25f;
        db.margin = 0.125f;
        db.gap = 0.125f;
        double a = (1.75 + delta) / std::sqrt(2.0);
        int ba = add_body(b.get(), {0, 0, 0});
        int bb = add_body(b.get(), {(float)a, (float)a, 0});
        CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ba, 0.5f, &da, nullptr));
        CC_ASSERT_OK(cc_builder_add_sphere(b.get(), bb, 0.5f, &db, nullptr));
        for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
            World w;
            cc_pipeline_def def = cc_default_pipeline_def();
            def.broad_phase = bp;
            CC_ASSERT_OK(make_world(b.get(), device(), def, &w));
            auto c = collide(w);
            int pairs[2], np = 0;
            CC_ASSERT_OK(cc_pipeline_download_pairs(w.pipeline.get(), pairs, 1, &np));
            EXPECT_EQ(np, 1) << "broad phase " << bp;
            double dist = std::sqrt(2.0) * (double)(float)a;
            if (delta < 0) {
                ASSERT_EQ(c.size(), 1u) << "broad phase " << bp;
                EXPECT_NEAR(c[0].distance, dist - 1.375, 2e-6);
                EXPECT_LE(c[0].distance, 0.375f);
            } else {
                EXPECT_EQ(c.size(), 0u) << "broad phase " << bp;
            }
        }
    }
}

// Shapes separated by slightly less than the margin + gap sum, aligned with
// the axes so that their expanded AABBs only just overlap: every broad phase
// keeps the pair and the narrow phase admits it.
TEST_P(PipelineContacts, BroadPhaseNeverCullsAnAdmissiblePair)
{
    const double eps = 1e-4;
    struct Margins {
        float m0, m1, g0, g1;
    };
    for (Margins mg : {Margins{0.03f, 0.02f, 0.04f, 0.01f}, Margins{0.05f, 0.02f, 0.0f, 0.0f},
                       Margins{0.0f, 0.0f, 0.03f, 0.06f}}) {
        double reach = (double)mg.m0 + mg.m1 + mg.g0 + mg.g1;
        double s = reach - eps;
        // (specs, expected contacts) with surfaces s apart along an axis.
        struct Tight {
            const char* name;
            Spec a, b;
            int count;
        };
        std::vector<Tight> tights;
        auto S = [&](cc_shape_type t, cc_vec3 size, V p, Q q, int which) {
            return sp(t, size, {p, q}, which ? mg.m1 : mg.m0, which ? mg.g1 : mg.g0);
        };
        Spec ground = S(CC_SHAPE_PLANE, {0, 0, 0}, {0, 0, 0}, kIdQ, 0);
        ground.world_body = true;
        Spec patch = S(CC_SHAPE_PLANE, {1.0f, 1.0f, 0}, {0, 0, 0}, kIdQ, 0);
        patch.static_body = true;
        tights.push_back({"sphere_sphere", S(CC_SHAPE_SPHERE, {0.3f, 0, 0}, {0, 0, 0}, kIdQ, 0),
                          S(CC_SHAPE_SPHERE, {0.2f, 0, 0}, {0.5 + s, 0, 0}, kIdQ, 1), 1});
        tights.push_back({"sphere_capsule_end", S(CC_SHAPE_SPHERE, {0.3f, 0, 0}, {0, 0, 0.3 + s + 0.2 + 0.5}, kIdQ, 0),
                          S(CC_SHAPE_CAPSULE, {0.2f, 0.5f, 0}, {0, 0, 0}, kIdQ, 1), 1});
        tights.push_back({"sphere_box", S(CC_SHAPE_SPHERE, {0.3f, 0, 0}, {-(0.3 + s + 0.4), 0, 0}, kIdQ, 0),
                          S(CC_SHAPE_BOX, {0.4f, 0.5f, 0.6f}, {0, 0, 0}, kIdQ, 1), 1});
        tights.push_back({"capsule_capsule_end", S(CC_SHAPE_CAPSULE, {0.2f, 0.5f, 0}, {0, 0, 0}, kZtoX, 0),
                          S(CC_SHAPE_CAPSULE, {0.1f, 0.3f, 0}, {0.7 + s + 0.4, 0, 0}, kZtoX, 1), 1});
        tights.push_back({"capsule_box_end", S(CC_SHAPE_CAPSULE, {0.2f, 0.5f, 0}, {0, 0, 0}, kZtoX, 0),
                          S(CC_SHAPE_BOX, {0.4f, 0.5f, 0.6f}, {0.7 + s + 0.4, 0, 0}, kIdQ, 1), 1});
        tights.push_back({"box_box_face", S(CC_SHAPE_BOX, {0.4f, 0.5f, 0.6f}, {0, 0, 0}, kIdQ, 0),
                          S(CC_SHAPE_BOX, {0.4f, 0.5f, 0.6f}, {0.8 + s, 0, 0}, kIdQ, 1), 4});
        tights.push_back({"plane_sphere", ground, S(CC_SHAPE_SPHERE, {0.3f, 0, 0}, {0, 0, 0.3 + s}, kIdQ, 1), 1});
        tights.push_back({"plane_capsule_standing", ground,
                          S(CC_SHAPE_CAPSULE, {0.2f, 0.5f, 0}, {0, 0, 0.7 + s}, kIdQ, 1), 1});
        tights.push_back({"plane_box", ground, S(CC_SHAPE_BOX, {0.4f, 0.5f, 0.6f}, {0, 0, 0.6 + s}, kIdQ, 1), 4});
        tights.push_back({"finite_plane_box", patch, S(CC_SHAPE_BOX, {0.2f, 0.2f, 0.2f}, {0, 0, 0.2 + s}, kIdQ, 1), 4});
        tights.push_back({"finite_plane_sphere", patch, S(CC_SHAPE_SPHERE, {0.3f, 0, 0}, {0.1, 0, 0.3 + s}, kIdQ, 1), 1});

        for (const Tight& t : tights) {
            for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
                SCOPED_TRACE(std::string(t.name) + " broad phase " + std::to_string((int)bp) + " reach " +
                             std::to_string(reach));
                Scene sc = build_scene({t.a, t.b}, {0, 1}, kIdX, 5, /*identity_bodies=*/true);
                World w;
                cc_pipeline_def def = cc_default_pipeline_def();
                def.broad_phase = bp;
                CC_ASSERT_OK(make_world(sc.builder.get(), device(), def, &w));
                auto c = collide(w);
                ASSERT_EQ((int)c.size(), t.count);
                for (auto& k : c) EXPECT_NEAR(k.distance, (double)mg.g0 + mg.g1 - eps, kTol);
            }
        }
    }
}

// A finite plane's solid is the half-space below its rectangle
// (kernels/narrowphase/plane.h), so a sphere or box sinking through it keeps
// one contact whose distance keeps decreasing; the broad phase must keep the
// pair at every depth (kernels/shapes/bounds.h: "keeps every pair the narrow
// phase could admit").
TEST_P(PipelineContacts, FinitePlaneKeepsContactsAtAnyDepth)
{
    for (float z : {-0.3f, -0.55f, -0.8f, -1.5f}) {
        for (int box = 0; box < 2; ++box) {
            Builder b = make_builder(0.1f);
            int plane_body = add_body(b.get(), {0, 0, 0}, {0, 0, 0, 1}, /*is_static=*/1);
            CC_ASSERT_OK(cc_builder_add_plane(b.get(), plane_body, 1.0f, 1.0f, nullptr, nullptr));
            int body = add_body(b.get(), {0.1f, -0.2f, z});
            if (box) {
                CC_ASSERT_OK(cc_builder_add_box(b.get(), body, {0.2f, 0.2f, 0.2f}, nullptr, nullptr));
            } else {
                CC_ASSERT_OK(cc_builder_add_sphere(b.get(), body, 0.5f, nullptr, nullptr));
            }
            for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
                SCOPED_TRACE(std::string(box ? "box" : "sphere") + " centre at z " + std::to_string(z) +
                             ", broad phase " + std::to_string((int)bp));
                World w;
                cc_pipeline_def def = cc_default_pipeline_def();
                def.broad_phase = bp;
                CC_ASSERT_OK(make_world(b.get(), device(), def, &w));
                auto cs = collide(w);
                // The broad phase must keep the plane's solid open below the
                // rectangle, or deep contacts would vanish abruptly.
                EXPECT_EQ(cs.size(), box ? 4u : 1u);
                for (auto& c : cs) {
                    EXPECT_V_NEAR(from_cc(c.normal), V({0, 0, 1}), 1e-6);
                    EXPECT_NEAR(c.distance, box ? z - 0.2 : z - 0.5, kTol);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- frames

// Known body-frame answers: a sphere offset on a rotated body, a box with a
// rotated local transform on a rotated body, both resting on the ground.
TEST_P(PipelineContacts, BodyFramePoints)
{
    Builder b = make_builder(0.0f);
    cc_shape_def ground = cc_default_shape_def();
    ground.margin = 0.01f;
    ground.gap = 0.0f;
    CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, &ground, nullptr));

    // Body rotated 90 degrees about x: body y -> world z, body z -> world -y.
    Q qx = axis_angle({1, 0, 0}, M_PI / 2);
    cc_transform qx_f = to_cc(X{{0, 0, 0}, qx});
    int b1 = add_body(b.get(), {1, 2, 0.8f}, qx_f.q);
    cc_shape_def ds = cc_default_shape_def();
    ds.margin = 0.02f;
    ds.gap = 0.5f;
    ds.local.p = {0.5f, 0, 0};
    int sphere = -1;
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), b1, 0.3f, &ds, &sphere));

    // Body rotated 90 degrees about z at (4, 0, 2); the box's local pose is
    // rotated 90 degrees about x and placed at body (0, 0.3, -1.2 + 0.1 ...).
    Q qz = axis_angle({0, 0, 1}, M_PI / 2);
    int b2 = add_body(b.get(), {4, 0, 2}, to_cc(X{{0, 0, 0}, qz}).q);
    cc_shape_def dbx = cc_default_shape_def();
    dbx.margin = 0.0f;
    dbx.gap = 0.0f;
    // Box half extents (0.2, 0.3, 0.4); local rotation about x by 90 degrees
    // puts its local y (0.3) along body z, so its bottom is 0.3 below its
    // centre. Centre at body (0.5, 0, -1.7) -> world (4, 0.5, 0.3): resting.
    X local{{0.5, 0, -1.7}, axis_angle({1, 0, 0}, M_PI / 2)};
    dbx.local = to_cc(local);
    int box = -1;
    CC_ASSERT_OK(cc_builder_add_box(b.get(), b2, {0.2f, 0.3f, 0.4f}, &dbx, &box));

    World w;
    CC_ASSERT_OK(make_world(b.get(), device(), cc_default_pipeline_def(), &w));
    auto cs = collide(w);
    ASSERT_EQ(cs.size(), 5u);
    int n_sphere = 0, n_box = 0;
    for (auto& c : cs) {
        EXPECT_EQ(c.shape0, 0);
        EXPECT_V_NEAR(from_cc(c.normal), V({0, 0, 1}), 1e-6);
        // The plane is on body -1: its point is in the world frame, at z = 0.
        EXPECT_NEAR(c.point0.z, 0.0f, 1e-6);
        EXPECT_V_NEAR(from_cc(c.offset0), V({0, 0, 0.01}), 1e-7);
        if (c.shape1 == sphere) {
            ++n_sphere;
            // Sphere centre in its body frame is its local position, exactly.
            EXPECT_V_NEAR(from_cc(c.point1), V({0.5, 0, 0}), 1e-6);
            // World centre (1.5, 2, 0.8): the plane point is below it.
            EXPECT_V_NEAR(from_cc(c.point0), V({1.5, 2, 0}), 1e-6);
            EXPECT_NEAR(c.distance, 0.8 - 0.3 - 0.03, kTol);
            // -normal * t1 = (0, 0, -0.32) in world is (0, -0.32, 0) in the body frame.
            EXPECT_V_NEAR(from_cc(c.offset1), V({0, -0.32, 0}), 1e-6);
        } else {
            EXPECT_EQ(c.shape1, box);
            ++n_box;
            // Bottom corners in the body frame: local transform of (+-0.2, -0.3, +-0.4).
            V p1 = from_cc(c.point1);
            V l = rot_inv(local.q, p1 - local.p);
            EXPECT_NEAR(std::fabs(l.x), 0.2, kTol);
            EXPECT_NEAR(l.y, -0.3, kTol);
            EXPECT_NEAR(std::fabs(l.z), 0.4, kTol);
            EXPECT_NEAR(c.distance, -0.01, kTol); // resting: s = 0, ground margin 0.01
            // In the body frame -z world is -z body (rotation about z).
            EXPECT_V_NEAR(from_cc(c.offset1), V({0, 0, 0}), 1e-7);
            // World point: the body pose applied to the body-frame point.
            V wpt = xpt(X{{4, 0, 2}, qz}, p1);
            EXPECT_NEAR(wpt.z, 0.0, kTol);
            EXPECT_NEAR(std::fabs(wpt.x - 4.0), 0.4, kTol);
            EXPECT_NEAR(std::fabs(wpt.y - 0.5), 0.2, kTol);
            EXPECT_V_NEAR(from_cc(c.point0), V({wpt.x, wpt.y, 0}), kTol);
        }
    }
    EXPECT_EQ(n_sphere, 1);
    EXPECT_EQ(n_box, 4);
}

// A box fixed to the world frame (body -1, rotated and translated local
// pose) with a sphere on top: the box's contact point and offset are in the
// world frame.
TEST_P(PipelineContacts, WorldFrameShapeUsesWorldFrame)
{
    Builder b = make_builder(0.05f);
    X box_pose{{2, -1, 0.5}, axis_angle({0, 0, 1}, 0.7)};
    cc_shape_def dbx = cc_default_shape_def();
    dbx.local = to_cc(box_pose);
    dbx.margin = 0.01f;
    int box = -1;
    CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {0.6f, 0.4f, 0.5f}, &dbx, &box));
    // Sphere 0.02 above the box's top face, on a rotated body.
    V centre{2.1, -0.9, 1.0 + 0.25 + 0.02};
    Q qb = axis_angle({1, 1, 0}, 0.9);
    int body = add_body(b.get(), to_cc(centre), to_cc(X{{0, 0, 0}, qb}).q);
    cc_shape_def ds = cc_default_shape_def();
    ds.margin = 0.005f;
    int sphere = -1;
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), body, 0.25f, &ds, &sphere));
    World w;
    CC_ASSERT_OK(make_world(b.get(), device(), cc_default_pipeline_def(), &w));
    auto cs = collide(w);
    ASSERT_EQ(cs.size(), 1u);
    const cc_contact& c = cs[0];
    EXPECT_EQ(c.shape0, sphere);
    EXPECT_EQ(c.shape1, box);
    EXPECT_V_NEAR(from_cc(c.normal), V({0, 0, -1}), kTol);
    EXPECT_NEAR(c.distance, 0.02 - 0.015, kTol);
    // Body -1: the point is the world point on the box's top face.
    EXPECT_V_NEAR(from_cc(c.point1), V({2.1, -0.9, 1.0}), kTol);
    EXPECT_V_NEAR(from_cc(c.offset1), V({0, 0, 0.01}), 1e-6);
    // The sphere's point is its centre in its body frame: the origin.
    EXPECT_V_NEAR(from_cc(c.point0), V({0, 0, 0}), kTol);
    EXPECT_V_NEAR(from_cc(c.offset0), rot_inv(qb, V{0, 0, -0.255}), 1e-6);
}

CC_INSTANTIATE_DEVICE_TEST(PipelineContacts);

}  // namespace
