// Cylinders, cones, ellipsoids and convex hulls through the public API:
// every cell of the shape-compatibility table among plane, sphere, capsule,
// box, cylinder, cone, ellipsoid and convex hull touches with the right
// depth and normal and never exceeds the reference table's count; standing,
// lying and tilted poses give the contact sets their geometry implies; a
// hull of a box's corners behaves as the box; shape bounds contain the
// shapes and touch them; hulls are stored once for every replicated world;
// contacts move with a rigid motion of the whole scene.
//
// Tolerances: 2e-5 m on distances and points for unit-sized shapes (float32,
// GJK/MPR accuracy 1e-6 of the pair's size), 1e-4 on normal components.
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "kernels/shapes/support.h"
#include "kernels/narrowphase/convex.h"
#include "kernels/shapes/bounds.h"
#include "tests/support/test_support.h"

using namespace cctest;

namespace {

constexpr float kPen = 0.001f;  // penetration every touching pose is given [m]
constexpr float kTol = 2e-5f;   // distance and point tolerance [m]
constexpr float kNormalTol = 1e-4f;
constexpr cc_quat kIdentity = {0, 0, 0, 1};

const cc_shape_type kConvexTypes[] = {CC_SHAPE_PLANE,    CC_SHAPE_SPHERE, CC_SHAPE_CAPSULE,
                                      CC_SHAPE_BOX,      CC_SHAPE_CYLINDER, CC_SHAPE_CONE,
                                      CC_SHAPE_ELLIPSOID, CC_SHAPE_CONVEX_HULL};

// The reference table "CollisionPipeline primitive and convex-hull pairs".
int table_count(cc_shape_type a, cc_shape_type b)
{
    auto lo = std::min(a, b), hi = std::max(a, b);
    if (lo == CC_SHAPE_SPHERE || hi == CC_SHAPE_SPHERE || lo == CC_SHAPE_ELLIPSOID || hi == CC_SHAPE_ELLIPSOID)
        return 1;
    if (lo == CC_SHAPE_PLANE && (hi == CC_SHAPE_BOX || hi == CC_SHAPE_CYLINDER)) return 4;
    if ((lo == CC_SHAPE_PLANE || lo == CC_SHAPE_CAPSULE) && hi == CC_SHAPE_CAPSULE) return 2;
    return 5;
}

const cc_vec3 kCubeCorners[8] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                 {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};

// Adds a shape of `type` whose extent along local z is `half_z` (and whose
// other dimensions are fixed, unit-sized) to `body`; returns the shape.
int add_typed(cc_builder* b, int body, cc_shape_type type, const cc_shape_def* def, int cube_hull)
{
    int s = -1;
    switch (type) {
    case CC_SHAPE_PLANE: EXPECT_EQ(cc_builder_add_plane(b, body, 0, 0, def, &s), CC_OK); break;
    case CC_SHAPE_SPHERE: EXPECT_EQ(cc_builder_add_sphere(b, body, 0.5f, def, &s), CC_OK); break;
    case CC_SHAPE_CAPSULE: EXPECT_EQ(cc_builder_add_capsule(b, body, 0.25f, 0.25f, def, &s), CC_OK); break;
    case CC_SHAPE_BOX: EXPECT_EQ(cc_builder_add_box(b, body, {0.6f, 0.4f, 0.5f}, def, &s), CC_OK); break;
    case CC_SHAPE_CYLINDER: EXPECT_EQ(cc_builder_add_cylinder(b, body, 0.4f, 0.5f, def, &s), CC_OK); break;
    case CC_SHAPE_CONE: EXPECT_EQ(cc_builder_add_cone(b, body, 0.4f, 0.5f, def, &s), CC_OK); break;
    case CC_SHAPE_ELLIPSOID: EXPECT_EQ(cc_builder_add_ellipsoid(b, body, {0.7f, 0.4f, 0.5f}, def, &s), CC_OK); break;
    default: EXPECT_EQ(cc_builder_add_convex_hull(b, body, cube_hull, {0.5f, 0.3f, 0.5f}, def, &s), CC_OK); break;
    }
    return s;
}

// Every shape above reaches exactly 0.5 m above and below its centre.
constexpr float kHalfZ = 0.5f;

cc_pipeline_def small_gap_def()
{
    cc_pipeline_def d = cc_default_pipeline_def();
    d.broad_phase = CC_BROAD_PHASE_NXN;
    return d;
}

cc_shape_def gap_def(float gap)
{
    cc_shape_def d = cc_default_shape_def();
    d.gap = gap;
    return d;
}

float deepest(const std::vector<cc_contact>& c)
{
    float d = 1e30f;
    for (const auto& x : c) d = std::min(d, x.distance);
    return d;
}

class ConvexShapes : public DeviceTest {};

// A on the ground (a static body at the origin, or the plane), B above it,
// sunk kPen into it: one touching pose per table cell.
TEST_P(ConvexShapes, EveryTableCellTouches)
{
    for (cc_shape_type ta : kConvexTypes)
        for (cc_shape_type tb : kConvexTypes) {
            if (tb == CC_SHAPE_PLANE) continue; // a plane is the lower shape only
            SCOPED_TRACE(std::string(cc_shape_type_name(ta)) + " under " + cc_shape_type_name(tb));
            Builder b = make_builder();
            int hull = -1;
            CC_ASSERT_OK(cc_builder_add_convex_hull_data(b.get(), kCubeCorners, 8, nullptr, &hull));
            cc_shape_def d = gap_def(0.01f);
            int ground = add_body(b.get(), {0, 0, 0}, kIdentity, 1);
            int sa = add_typed(b.get(), ta == CC_SHAPE_PLANE ? CC_BODY_WORLD : ground, ta, &d, hull);
            float top = ta == CC_SHAPE_PLANE ? 0.0f : kHalfZ;
            int body = add_body(b.get(), {0.0f, 0.0f, top + kHalfZ - kPen});
            int sb = add_typed(b.get(), body, tb, &d, hull);
            World w;
            CC_ASSERT_OK(make_world(b.get(), device(), small_gap_def(), &w));
            auto c = collide(w);
            ASSERT_GE(c.size(), 1u);
            EXPECT_LE((int)c.size(), table_count(ta, tb));
            EXPECT_NEAR(deepest(c), -kPen, kTol);
            for (const auto& x : c) {
                // Normal from shape 0 to shape 1: up when A is shape 0.
                float up = x.shape0 == sa ? 1.0f : -1.0f;
                EXPECT_TRUE((x.shape0 == sa && x.shape1 == sb) || (x.shape0 == sb && x.shape1 == sa));
                EXPECT_NEAR(x.normal.z, up, kNormalTol);
                EXPECT_LE(x.distance, 0.02f + 1e-6f);
            }
        }
}

struct Resting {
    World w;
    std::vector<cc_contact> c;
};

// One dynamic shape built by `add` at pose (p, q) over the infinite ground
// plane; collides once.
template <class Add>
void rest_on_plane(cc_device dev, cc_vec3 p, cc_quat q, Add add, Resting* r)
{
    Builder b = make_builder();
    cc_shape_def d = gap_def(0.005f);
    ASSERT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, &d, nullptr), CC_OK);
    int body = add_body(b.get(), p, q);
    add(b.get(), body, &d);
    CC_ASSERT_OK(make_world(b.get(), dev, small_gap_def(), &r->w));
    r->c = collide(r->w);
}

// Twice the area of the convex hull of the contacts' x, y (a few points).
double hull_area_xy(std::vector<cc_vec3> p)
{
    std::sort(p.begin(), p.end(), [](cc_vec3 a, cc_vec3 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    std::vector<cc_vec3> h;
    auto cross = [](cc_vec3 o, cc_vec3 a, cc_vec3 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); };
    for (int pass = 0; pass < 2; ++pass) {
        size_t start = h.size();
        for (auto& x : p) {
            while (h.size() >= start + 2 && cross(h[h.size() - 2], h.back(), x) <= 0) h.pop_back();
            h.push_back(x);
        }
        h.pop_back();
        std::reverse(p.begin(), p.end());
    }
    double a = 0;
    for (size_t i = 0; i < h.size(); ++i) {
        const auto& u = h[i];
        const auto& v = h[(i + 1) % h.size()];
        a += (double)u.x * v.y - (double)u.y * v.x;
    }
    return std::fabs(a) * 0.5;
}

TEST_P(ConvexShapes, CylinderStandingOnPlaneSpansItsRim)
{
    const float r = 0.4f, h = 0.5f;
    Resting s;
    rest_on_plane(device(), {1, 2, h - kPen}, kIdentity,
                  [&](cc_builder* b, int body, const cc_shape_def* d) { cc_builder_add_cylinder(b, body, r, h, d, nullptr); }, &s);
    ASSERT_EQ(s.c.size(), 4u); // the table's plane-cylinder count
    std::vector<cc_vec3> pts;
    for (const auto& c : s.c) {
        EXPECT_NEAR(c.distance, -kPen, kTol);
        EXPECT_NEAR(c.normal.z, 1.0f, kNormalTol);
        // point1 is on the cylinder, in its body frame: on the bottom rim.
        EXPECT_NEAR(c.point1.z, -h, kTol);
        EXPECT_NEAR(std::hypot(c.point1.x, c.point1.y), r, kTol);
        pts.push_back(c.point1);
    }
    // Four rim points can span at most the inscribed square, 2/pi of the
    // disk; the selection reaches it.
    EXPECT_NEAR(hull_area_xy(pts), 2.0 * r * r, 1e-4);
}

TEST_P(ConvexShapes, CylinderLyingOnPlaneSpansItsLength)
{
    const float r = 0.4f, h = 0.5f;
    cc_quat lying = {0.70710678f, 0, 0, 0.70710678f}; // axis along y
    Resting s;
    rest_on_plane(device(), {0, 0, r - kPen}, lying,
                  [&](cc_builder* b, int body, const cc_shape_def* d) { cc_builder_add_cylinder(b, body, r, h, d, nullptr); }, &s);
    ASSERT_EQ(s.c.size(), 2u);
    float zs[2] = {s.c[0].point1.z, s.c[1].point1.z};
    for (const auto& c : s.c) EXPECT_NEAR(c.distance, -kPen, kTol);
    EXPECT_NEAR(std::fabs(zs[0] - zs[1]), 2.0f * h, kTol); // the ends of the side line
}

TEST_P(ConvexShapes, TiltedCylinderTouchesAtItsLowestRimPoint)
{
    const float r = 0.4f, h = 0.5f, tilt = 0.35f; // 20 degrees about x
    cc_quat q = {std::sin(0.5f * tilt), 0, 0, std::cos(0.5f * tilt)};
    float lowest = h * std::cos(tilt) + r * std::sin(tilt);
    Resting s;
    rest_on_plane(device(), {0, 0, lowest - kPen}, q,
                  [&](cc_builder* b, int body, const cc_shape_def* d) { cc_builder_add_cylinder(b, body, r, h, d, nullptr); }, &s);
    ASSERT_EQ(s.c.size(), 1u);
    EXPECT_NEAR(s.c[0].distance, -kPen, kTol);
    EXPECT_NEAR(s.c[0].point1.z, -h, kTol);
    EXPECT_NEAR(std::fabs(s.c[0].point1.y), r, kTol);
}

TEST_P(ConvexShapes, ConeOnPlaneByPose)
{
    const float r = 0.4f, h = 0.5f;
    auto cone = [&](cc_builder* b, int body, const cc_shape_def* d) { cc_builder_add_cone(b, body, r, h, d, nullptr); };
    Resting base;
    rest_on_plane(device(), {0, 0, h - kPen}, kIdentity, cone, &base);
    EXPECT_GE(base.c.size(), 4u);
    EXPECT_LE(base.c.size(), 5u);
    for (const auto& c : base.c) EXPECT_NEAR(c.point1.z, -h, kTol);
    Resting apex;
    cc_quat upside_down = {1, 0, 0, 0};
    rest_on_plane(device(), {0, 0, h - kPen}, upside_down, cone, &apex);
    ASSERT_EQ(apex.c.size(), 1u);
    EXPECT_NEAR(apex.c[0].point1.z, h, kTol); // the apex
    // On its side: the side line from the apex to the rim lies on the plane.
    float slant = std::atan2(r, 2.0f * h);
    float angle = 0.5f * 3.14159265f + slant; // turn about x that lays the side line flat
    cc_quat side = {std::sin(0.5f * angle), 0, 0, std::cos(0.5f * angle)};
    // Height of the centre: the side line's distance from the axis point.
    float centre = 2.0f * h * r / std::sqrt(4.0f * h * h + r * r) * 0.5f;
    Resting lying;
    rest_on_plane(device(), {0, 0, centre - kPen}, side, cone, &lying);
    ASSERT_EQ(lying.c.size(), 2u);
    for (const auto& c : lying.c) EXPECT_NEAR(c.distance, -kPen, 5 * kTol);
}

TEST_P(ConvexShapes, EllipsoidTouchesAtItsLowestPoint)
{
    Resting s;
    cc_quat q = {0.0f, std::sin(0.3f), 0.0f, std::cos(0.3f)}; // 0.6 rad about y
    // Lowest point of an ellipsoid rotated about y: half height sqrt((a sin)^2 + (c cos)^2).
    const float a = 0.7f, c = 0.3f;
    float half = std::sqrt(a * a * std::sin(0.6f) * std::sin(0.6f) + c * c * std::cos(0.6f) * std::cos(0.6f));
    rest_on_plane(device(), {0, 0, half - kPen}, q,
                  [&](cc_builder* b, int body, const cc_shape_def* d) { cc_builder_add_ellipsoid(b, body, {a, 0.4f, c}, d, nullptr); }, &s);
    ASSERT_EQ(s.c.size(), 1u);
    EXPECT_NEAR(s.c[0].distance, -kPen, kTol);
}

TEST_P(ConvexShapes, HullRestingOnAFaceGivesItsCorners)
{
    Resting s;
    rest_on_plane(device(), {0, 0, 0.3f - kPen}, kIdentity,
                  [&](cc_builder* b, int body, const cc_shape_def* d) {
                      int hull = -1;
                      cc_builder_add_convex_hull_data(b, kCubeCorners, 8, nullptr, &hull);
                      cc_builder_add_convex_hull(b, body, hull, {0.5f, 0.4f, 0.3f}, d, nullptr);
                  },
                  &s);
    ASSERT_EQ(s.c.size(), 4u);
    for (const auto& c : s.c) {
        EXPECT_NEAR(c.distance, -kPen, kTol);
        EXPECT_NEAR(std::fabs(c.point1.x), 0.5f, kTol);
        EXPECT_NEAR(std::fabs(c.point1.y), 0.4f, kTol);
    }
}

TEST_P(ConvexShapes, CylinderAcrossABoxFace)
{
    // Lying across a broad box face: a manifold spanning its support line.
    Builder b = make_builder();
    cc_shape_def d = gap_def(0.005f);
    int ground = add_body(b.get(), {0, 0, 0}, kIdentity, 1);
    ASSERT_EQ(cc_builder_add_box(b.get(), ground, {2, 2, 0.5f}, &d, nullptr), CC_OK);
    cc_quat lying = {0.70710678f, 0, 0, 0.70710678f};
    int body = add_body(b.get(), {0.3f, -0.2f, 0.5f + 0.4f - kPen}, lying);
    ASSERT_EQ(cc_builder_add_cylinder(b.get(), body, 0.4f, 0.5f, &d, nullptr), CC_OK);
    World w;
    CC_ASSERT_OK(make_world(b.get(), device(), small_gap_def(), &w));
    auto c = collide(w);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_NEAR(std::fabs(c[0].point1.z - c[1].point1.z), 1.0f, kTol);
    for (const auto& x : c) EXPECT_NEAR(x.distance, -kPen, kTol);
}

// The same scene with a box, and with a hull of the box's corners scaled to
// the box, gives the same contacts.
TEST_P(ConvexShapes, HullOfBoxCornersBehavesAsTheBox)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1, 1);
    for (int trial = 0; trial < 20; ++trial) {
        cc_quat q = {u(rng), u(rng), u(rng), u(rng)};
        float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
        q = {q.x / n, q.y / n, q.z / n, q.w / n};
        cc_vec3 p = {0.3f * u(rng), 0.3f * u(rng), 0.9f + 0.2f * u(rng)};
        std::vector<cc_contact> out[2];
        for (int as_hull = 0; as_hull < 2; ++as_hull) {
            Builder b = make_builder();
            cc_shape_def d = gap_def(0.05f);
            int ground = add_body(b.get(), {0, 0, 0}, kIdentity, 1);
            EXPECT_EQ(cc_builder_add_cylinder(b.get(), ground, 0.6f, 0.5f, &d, nullptr), CC_OK);
            int body = add_body(b.get(), p, q);
            cc_vec3 h = {0.3f, 0.2f, 0.25f};
            if (as_hull) {
                int hull = -1;
                CC_ASSERT_OK(cc_builder_add_convex_hull_data(b.get(), kCubeCorners, 8, nullptr, &hull));
                CC_ASSERT_OK(cc_builder_add_convex_hull(b.get(), body, hull, h, &d, nullptr));
            } else {
                CC_ASSERT_OK(cc_builder_add_box(b.get(), body, h, &d, nullptr));
            }
            World w;
            CC_ASSERT_OK(make_world(b.get(), device(), small_gap_def(), &w));
            out[as_hull] = collide(w);
        }
        SCOPED_TRACE(trial);
        ASSERT_EQ(out[0].size(), out[1].size());
        if (out[0].empty()) continue;
        EXPECT_NEAR(deepest(out[0]), deepest(out[1]), 1e-5f);
        // The box sorts before the cylinder and the hull after it, so the
        // pair's normal points the other way.
        EXPECT_NEAR(out[0][0].normal.x, -out[1][0].normal.x, 1e-4f);
        EXPECT_NEAR(out[0][0].normal.y, -out[1][0].normal.y, 1e-4f);
        EXPECT_NEAR(out[0][0].normal.z, -out[1][0].normal.z, 1e-4f);
    }
}

// Bounds (kernels/shapes/bounds.h) contain every support point and touch the
// shape on all six sides.
TEST(ConvexBounds, ContainAndTouchTheShape)
{
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1, 1);
    cc_hull_desc desc;
    desc.vertex_first = 0;
    desc.vertex_count = 8;
    desc.lower = {-1, -1, -1};
    desc.upper = {1, 1, 1};
    desc.center = {0, 0, 0};
    cc_hull_ref ref = {};
    ref.vertices = kCubeCorners;
    ref.vertex_count = 8;
    ref.center = {0, 0, 0};
    for (int type : {CC_SHAPE_CYLINDER, CC_SHAPE_CONE, CC_SHAPE_ELLIPSOID, CC_SHAPE_CONVEX_HULL}) {
        for (int trial = 0; trial < 200; ++trial) {
            cc_geom g;
            cc_quat q = {u(rng), u(rng), u(rng), u(rng)};
            float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
            g.xf.q = {q.x / n, q.y / n, q.z / n, q.w / n};
            g.xf.p = {2 * u(rng), 2 * u(rng), 2 * u(rng)};
            g.size = {0.2f + 0.5f * (u(rng) + 1), 0.2f + 0.5f * (u(rng) + 1), 0.2f + 0.5f * (u(rng) + 1)};
            g.hull = ref;
            cc_aabb box = cc_shape_aabb(type, g.size, g.xf, 0.0f, &desc);
            cc_convex c = cc_convex_of(&g, type, {0, 0, 0});
            const cc_vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
            const float bound[6] = {box.upper.x, -box.lower.x, box.upper.y, -box.lower.y, box.upper.z, -box.lower.z};
            for (int k = 0; k < 6; ++k) {
                cc_vec3 s = cc_support(&c, axes[k]);
                float reach = s.x * axes[k].x + s.y * axes[k].y + s.z * axes[k].z;
                EXPECT_NEAR(reach, bound[k], 1e-5f * (1 + std::fabs(bound[k]))) << "type " << type << " side " << k;
            }
        }
    }
}

// A hull is stored once however many worlds use it.
TEST(ConvexHullSharing, ReplicatedWorldsStoreTheHullOnce)
{
    std::vector<cc_vec3> pts;
    for (int i = 0; i < 400; ++i) {
        double z = 1.0 - 2.0 * (i + 0.5) / 400, r = std::sqrt(1 - z * z), a = 2.39996323 * i;
        pts.push_back({(float)(r * std::cos(a)), (float)(r * std::sin(a)), (float)z});
    }
    auto bytes = [&](int worlds, bool with_hull) {
        Builder env = make_builder();
        int body = add_body(env.get(), {0, 0, 1});
        if (with_hull) {
            int hull = -1;
            cc_convex_hull_def hd = cc_default_convex_hull_def();
            hd.max_vertices = 256;
            EXPECT_EQ(cc_builder_add_convex_hull_data(env.get(), pts.data(), (int)pts.size(), &hd, &hull), CC_OK);
            EXPECT_EQ(cc_builder_add_convex_hull(env.get(), body, hull, {1, 1, 1}, nullptr, nullptr), CC_OK);
        } else {
            EXPECT_EQ(cc_builder_add_box(env.get(), body, {1, 1, 1}, nullptr, nullptr), CC_OK);
        }
        Builder b = make_builder();
        EXPECT_EQ(cc_builder_replicate(b.get(), env.get(), worlds, nullptr), CC_OK);
        cc_model* m = nullptr;
        EXPECT_EQ(cc_builder_finalize(b.get(), cc_device_cpu(), &m), CC_OK);
        size_t n = cc_model_device_bytes(m);
        cc_model_destroy(m);
        return (long long)n;
    };
    long long pool1 = bytes(1, true) - bytes(1, false);
    long long pool256 = bytes(256, true) - bytes(256, false);
    EXPECT_GT(pool1, 256 * 12); // the hull's vertices at least
    EXPECT_EQ(pool256, pool1);
}

// Moving and turning every body by one rigid motion moves the contacts with
// it: same pairs and distances, normals rotated.
TEST_P(ConvexShapes, RigidMotionOfAMixedScene)
{
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-1, 1);
    Builder b = make_builder();
    int hull = -1;
    CC_ASSERT_OK(cc_builder_add_convex_hull_data(b.get(), kCubeCorners, 8, nullptr, &hull));
    cc_shape_def d = gap_def(0.02f);
    std::vector<cc_transform> poses;
    for (int i = 0; i < 40; ++i) {
        cc_quat q = {u(rng), u(rng), u(rng), u(rng)};
        float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
        q = {q.x / n, q.y / n, q.z / n, q.w / n};
        cc_vec3 p = {1.2f * u(rng), 1.2f * u(rng), 1.2f * u(rng)};
        int body = add_body(b.get(), p, q);
        add_typed(b.get(), body, kConvexTypes[1 + i % 7], &d, hull);
        poses.push_back({p, q});
    }
    World w;
    CC_ASSERT_OK(make_world(b.get(), device(), small_gap_def(), &w));
    auto before = collide(w);
    ASSERT_GT(before.size(), 10u);
    // Rotate everything by R about the origin and shift by t.
    const float ang = 0.9f;
    cc_quat R = {0.48f * std::sin(0.5f * ang), 0.6f * std::sin(0.5f * ang), 0.64f * std::sin(0.5f * ang), std::cos(0.5f * ang)};
    cc_vec3 t = {3.0f, -1.0f, 2.0f};
    auto rotate = [&](cc_vec3 v) {
        cc_vec3 uv = {R.x, R.y, R.z};
        auto cr = [](cc_vec3 x, cc_vec3 y) { return cc_vec3{x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x}; };
        cc_vec3 tt = cr(uv, v);
        tt = {2 * tt.x, 2 * tt.y, 2 * tt.z};
        cc_vec3 c2 = cr(uv, tt);
        return cc_vec3{v.x + R.w * tt.x + c2.x, v.y + R.w * tt.y + c2.y, v.z + R.w * tt.z + c2.z};
    };
    std::vector<cc_transform> moved;
    for (const auto& pose : poses) {
        cc_vec3 p = rotate(pose.p);
        cc_quat q = {R.w * pose.q.x + R.x * pose.q.w + R.y * pose.q.z - R.z * pose.q.y,
                     R.w * pose.q.y - R.x * pose.q.z + R.y * pose.q.w + R.z * pose.q.x,
                     R.w * pose.q.z + R.x * pose.q.y - R.y * pose.q.x + R.z * pose.q.w,
                     R.w * pose.q.w - R.x * pose.q.x - R.y * pose.q.y - R.z * pose.q.z};
        moved.push_back({{p.x + t.x, p.y + t.y, p.z + t.z}, q});
    }
    CC_ASSERT_OK(cc_state_set_body_poses(w.state.get(), 0, (int)moved.size(), moved.data()));
    auto after = collide(w);
    // Compare the deepest contact of every pair.
    auto by_pair = [](const std::vector<cc_contact>& c) {
        std::map<std::pair<int, int>, cc_contact> m;
        for (const auto& x : c) {
            auto key = std::make_pair(x.shape0, x.shape1);
            auto it = m.find(key);
            if (it == m.end() || x.distance < it->second.distance) m[key] = x;
        }
        return m;
    };
    auto mb = by_pair(before), ma = by_pair(after);
    int compared = 0;
    for (const auto& [key, c0] : mb) {
        // Pairs at the edge of the gap may come and go with rounding.
        if (c0.distance > 0.03f) continue;
        auto it = ma.find(key);
        ASSERT_NE(it, ma.end()) << "pair " << key.first << "-" << key.second << " lost";
        const cc_contact& c1 = it->second;
        float scale = 1.0f;
        EXPECT_NEAR(c0.distance, c1.distance, 1e-4f * scale) << key.first << "-" << key.second;
        cc_vec3 n0 = rotate(c0.normal);
        float dotn = n0.x * c1.normal.x + n0.y * c1.normal.y + n0.z * c1.normal.z;
        EXPECT_GT(dotn, 1.0f - 1e-4f) << key.first << "-" << key.second;
        compared++;
    }
    EXPECT_GT(compared, 10);
}

CC_INSTANTIATE_DEVICE_TEST(ConvexShapes);

}  // namespace

// Two parallel unit circles, the second shifted by (0.5, 0, 1): by the
// mirror symmetry about the xz plane, the points at angle 0 on both are
// joined by a line perpendicular to both tangents. Newton's method from
// 0.3 rad away lands there.
TEST(ConvexRim, NewtonFindsTheCommonNormalOfTwoParallelCircles)
{
    cc_rim ka, kb;
    ka.c = cc_v3(0.0f, 0.0f, 0.0f);
    kb.c = cc_v3(0.5f, 0.0f, 1.0f);
    ka.x = kb.x = cc_v3(1.0f, 0.0f, 0.0f);
    ka.y = kb.y = cc_v3(0.0f, 1.0f, 0.0f);
    ka.r = kb.r = 1.0f;
    ka.cu = kb.cu = std::cos(0.3f);
    ka.su = kb.su = std::sin(0.3f);
    ASSERT_TRUE(cc_rim_rim(&ka, &kb));
    EXPECT_NEAR(ka.su, 0.0f, 1e-5f);
    EXPECT_NEAR(kb.su, 0.0f, 1e-5f);
    EXPECT_GT(ka.cu, 0.0f);
    cc_vec3 d = cc_v3_sub(cc_rim_point(&kb), cc_rim_point(&ka));
    EXPECT_NEAR(cc_v3_dot(d, cc_rim_tangent(&ka)), 0.0f, 1e-5f);
    EXPECT_NEAR(cc_v3_dot(d, cc_rim_tangent(&kb)), 0.0f, 1e-5f);
}

// The rim solve only takes rim points near their caps' normals: a side
// line, an apex or a whole cap is no rim point, and a direction far from
// the axis leaves the ascent to itself.
TEST(ConvexRim, OnlySupportingRimPointsNearTheCapNormal)
{
    cc_geom g;
    g.xf = cc_tf(cc_v3(0.0f, 0.0f, 0.0f), cc_q(0.0f, 0.0f, 0.0f, 1.0f));
    g.size = cc_v3(0.5f, 1.0f, 0.0f);
    g.hull = cc_hull_ref_none();
    cc_convex cyl = cc_convex_of(&g, CC_SHAPE_CYLINDER, cc_v3(0.0f, 0.0f, 0.0f));
    cc_convex cone = cc_convex_of(&g, CC_SHAPE_CONE, cc_v3(0.0f, 0.0f, 0.0f));
    cc_rim k;
    ASSERT_TRUE(cc_rim_of_support(&cyl, cc_v3_normalize(cc_v3(0.1f, 0.0f, 1.0f)), 0.25f, &k));
    EXPECT_NEAR(k.c.z, 1.0f, 1e-6f);
    EXPECT_NEAR(cc_rim_point(&k).x, 0.5f, 1e-6f);
    EXPECT_FALSE(cc_rim_of_support(&cyl, cc_v3(0.0f, 0.0f, 1.0f), 0.25f, &k));                   // whole cap
    EXPECT_FALSE(cc_rim_of_support(&cyl, cc_v3_normalize(cc_v3(1.0f, 0.0f, 0.5f)), 0.25f, &k)); // far from the axis
    EXPECT_FALSE(cc_rim_of_support(&cone, cc_v3_normalize(cc_v3(0.1f, 0.0f, 1.0f)), 0.25f, &k)); // apex
    ASSERT_TRUE(cc_rim_of_support(&cone, cc_v3_normalize(cc_v3(0.1f, 0.0f, -1.0f)), 0.25f, &k));
    EXPECT_NEAR(k.c.z, -1.0f, 1e-6f);
}
