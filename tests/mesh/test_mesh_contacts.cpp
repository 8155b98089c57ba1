// Mesh and heightfield contacts through the public API: a closed box mesh
// against the analytic box, tessellated spheres converging, heightfields
// against planes, back-face culling, reduction bounds and determinism,
// mesh-plane and mesh-mesh contacts, and work-item overflow.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "host/testing.h"
#include "kernels/math/quat.h"
#include "tests/support/mesh_util.h"

using namespace cctest;

namespace {

class MeshContacts : public DeviceTest {};

// A static surface (added by `add_surface`) and one dynamic shape of each
// primitive type resting on it, each in its own world so that they do not
// meet each other.
enum Probe { kSphere, kCapsule, kBox, kCylinder, kCone, kEllipsoid, kHull, kProbeCount };

int add_probe(cc_builder* b, Probe p, cc_vec3 pos, cc_quat q)
{
    int body = add_body(b, pos, q);
    int s = -1;
    switch (p) {
    case kSphere: EXPECT_EQ(cc_builder_add_sphere(b, body, 0.1f, nullptr, &s), CC_OK); break;
    case kCapsule: EXPECT_EQ(cc_builder_add_capsule(b, body, 0.05f, 0.1f, nullptr, &s), CC_OK); break;
    case kBox: EXPECT_EQ(cc_builder_add_box(b, body, {0.1f, 0.08f, 0.06f}, nullptr, &s), CC_OK); break;
    case kCylinder: EXPECT_EQ(cc_builder_add_cylinder(b, body, 0.1f, 0.05f, nullptr, &s), CC_OK); break;
    case kCone: EXPECT_EQ(cc_builder_add_cone(b, body, 0.1f, 0.08f, nullptr, &s), CC_OK); break;
    case kEllipsoid: EXPECT_EQ(cc_builder_add_ellipsoid(b, body, {0.1f, 0.07f, 0.05f}, nullptr, &s), CC_OK); break;
    default: {
        const cc_vec3 pts[] = {{-0.1f, -0.1f, -0.05f}, {0.1f, -0.1f, -0.05f}, {0.0f, 0.12f, -0.05f}, {0.0f, 0.0f, 0.1f},
                               {0.05f, 0.05f, 0.05f}};
        int hull = -1;
        EXPECT_EQ(cc_builder_add_convex_hull_data(b, pts, 5, nullptr, &hull), CC_OK);
        EXPECT_EQ(cc_builder_add_convex_hull(b, body, hull, {1, 1, 1}, nullptr, &s), CC_OK);
    }
    }
    return s;
}

// Contacts of probe p at pose (pos, q) against a static box of half
// extents 0.5 centred at the origin, as an analytic box or as a mesh.
std::vector<cc_contact> probe_on_box(cc_device dev, Probe p, cc_vec3 pos, cc_quat q, bool as_mesh, int reduce = 1,
                                     float gap = 0.0f)
{
    Builder b = make_builder(gap);
    if (as_mesh) {
        int mesh = add_mesh_data(b.get(), box_mesh({0.5f, 0.5f, 0.5f}));
        EXPECT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, mesh, {1, 1, 1}, nullptr, nullptr), CC_OK);
    } else {
        EXPECT_EQ(cc_builder_add_box(b.get(), CC_BODY_WORLD, {0.5f, 0.5f, 0.5f}, nullptr, nullptr), CC_OK);
    }
    add_probe(b.get(), p, pos, q);
    World w;
    EXPECT_EQ(make_world(b.get(), dev, plain_def(reduce), &w), CC_OK) << cc_last_error_message();
    return collide(w);
}

cc_quat axis_angle(cc_vec3 axis, float angle)
{
    float len = std::sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
    float s = std::sin(0.5f * angle) / len;
    return {axis.x * s, axis.y * s, axis.z * s, std::cos(0.5f * angle)};
}

TEST_P(MeshContacts, ClosedBoxMeshMatchesTheAnalyticBox)
{
    // Each probe resting on (or slightly into) the top face, upright and
    // tilted: the deepest distance agrees within 1e-4 m and every normal
    // within 1e-3 of the analytic pair's (mesh normals point from the probe
    // into the box: the box is shape 1 of mesh pairs, shape 0 of some analytic ones).
    const float heights[] = {0.0f, -0.004f, 0.003f};
    for (int p = 0; p < kProbeCount; ++p)
        for (float dz : heights)
            for (int tilt = 0; tilt < 2; ++tilt) {
                cc_quat q = tilt ? axis_angle({1.0f, 0.4f, 0.0f}, 0.3f) : cc_quat{0, 0, 0, 1};
                // Height of the probe's lowest point, found from the analytic pair.
                std::vector<cc_contact> ref0 = probe_on_box(device(), (Probe)p, {0.05f, -0.03f, 0.8f}, q, false, 1, 1.0f);
                ASSERT_FALSE(ref0.empty()) << "probe " << p;
                float gap = min_distance(ref0);
                cc_vec3 pos = {0.05f, -0.03f, 0.8f - gap + dz};
                std::vector<cc_contact> ref = probe_on_box(device(), (Probe)p, pos, q, false, 1, 0.01f);
                std::vector<cc_contact> got = probe_on_box(device(), (Probe)p, pos, q, true, 1, 0.01f);
                ASSERT_FALSE(got.empty()) << "probe " << p << " dz " << dz << " tilt " << tilt;
                EXPECT_NEAR(min_distance(got), min_distance(ref), 1e-4f) << "probe " << p << " dz " << dz << " tilt " << tilt;
                for (const auto& c : got) {
                    // Probe is shape 0 of the mesh pair: its normal points down into the box.
                    EXPECT_NEAR(c.normal.z, -1.0f, 1e-3f) << "probe " << p;
                }
                // The support, upright: the penetrating contacts span at
                // least the analytic pair's footprint (within 1 mm; the convex
                // route may keep rim extremes the analytic one does not) and
                // lie on the box's top face.
                if (tilt || dz > 0.0f) continue;
                auto range = [](const std::vector<cc_contact>& cs, bool box_is_1, int axis) {
                    float lo = INFINITY, hi = -INFINITY;
                    for (const auto& c : cs) {
                        if (c.distance > 1e-5f) continue; // touching, within rounding
                        cc_vec3 w = box_is_1 ? c.point1 : c.point0; // the static box's point: world frame
                        lo = std::min(lo, axis ? w.y : w.x);
                        hi = std::max(hi, axis ? w.y : w.x);
                    }
                    return std::make_pair(lo, hi);
                };
                // The analytic box (type 3) is shape 1 against sphere and capsule only.
                bool ref_box_is_1 = p <= kCapsule;
                for (int axis = 0; axis < 2; ++axis) {
                    auto r = range(ref, ref_box_is_1, axis), g = range(got, true, axis);
                    EXPECT_LE(g.first, r.first + 1e-3f) << "probe " << p << " axis " << axis;
                    EXPECT_GE(g.second, r.second - 1e-3f) << "probe " << p << " axis " << axis;
                }
                for (const auto& c : got) EXPECT_NEAR(c.point1.z, 0.5f, 1e-4f) << "probe " << p;
            }
}

// Contacts of one dynamic shape `add` puts on a static surface.
template <typename AddShape>
std::vector<cc_contact> on_surface(cc_device dev, const MeshData* mesh, const std::vector<float>* heights, int rows,
                                   int cols, cc_vec3 size, AddShape add, int reduce = 1, float gap = 0.01f)
{
    Builder b = make_builder(gap);
    if (mesh) {
        int id = add_mesh_data(b.get(), *mesh);
        EXPECT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, id, size, nullptr, nullptr), CC_OK);
    } else if (heights) {
        int id = -1;
        EXPECT_EQ(cc_builder_add_heightfield_data(b.get(), rows, cols, heights->data(), &id), CC_OK);
        EXPECT_EQ(cc_builder_add_heightfield(b.get(), CC_BODY_WORLD, id, size, nullptr, nullptr), CC_OK);
    } else {
        EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
    }
    add(b.get());
    World w;
    EXPECT_EQ(make_world(b.get(), dev, plain_def(reduce), &w), CC_OK) << cc_last_error_message();
    return collide(w);
}

TEST_P(MeshContacts, TessellatedSphereConvergesToTheSphere)
{
    // A sphere resting 2 mm into a sphere mesh of radius 0.5, off the poles:
    // the distance error against the analytic sphere pair shrinks with each
    // subdivision and ends below 1 mm.
    float prev = INFINITY;
    for (int level = 1; level <= 4; ++level) {
        MeshData sphere = sphere_mesh(0.5f, level);
        std::vector<cc_contact> got = on_surface(
            device(), &sphere, nullptr, 0, 0, {1, 1, 1},
            [](cc_builder* b) {
                int body = add_body(b, {0.13f, 0.21f, 0.5f + 0.1f - 0.002f});
                EXPECT_EQ(cc_builder_add_sphere(b, body, 0.1f, nullptr, nullptr), CC_OK);
            },
            1, 0.1f); // a 10 cm gap: the coarse levels lie well inside the sphere
        ASSERT_FALSE(got.empty()) << "level " << level;
        // The analytic pair: centre distance |(0.13, 0.21, 0.598)| - 0.6.
        float exact = std::sqrt(0.13f * 0.13f + 0.21f * 0.21f + 0.598f * 0.598f) - 0.6f;
        float err = std::fabs(min_distance(got) - exact);
        EXPECT_LT(err, prev + 1e-6f) << "level " << level;
        prev = err;
    }
    EXPECT_LT(prev, 1e-3f);
}

TEST_P(MeshContacts, ShapesWhoseCentreIsUnderAHeightfieldArePushedOut)
{
    // The ground under a heightfield is solid: a probe whose centre has sunk
    // below the surface (5 mm, 34 mm, 0.3 m) gets the contact the infinite
    // plane gives it (its deepest point, normal straight down), not nothing.
    std::vector<float> flat(9 * 9, 0.0f);
    for (int p = 0; p < kProbeCount; ++p)
        for (float sunk : {0.005f, 0.034f, 0.3f}) {
            auto placed = [p, sunk](cc_builder* b) {
                add_probe(b, (Probe)p, {0.13f, -0.27f, -sunk}, axis_angle({0.3f, 1.0f, 0.2f}, 0.5f));
            };
            std::vector<cc_contact> ref = on_surface(device(), nullptr, nullptr, 0, 0, {}, placed);
            std::vector<cc_contact> got = on_surface(device(), nullptr, &flat, 9, 9, {2.0f, 2.0f, 1.0f}, placed);
            ASSERT_FALSE(ref.empty());
            ASSERT_FALSE(got.empty()) << "probe " << p << " sunk " << sunk;
            EXPECT_NEAR(min_distance(got), min_distance(ref), 1e-5f) << "probe " << p << " sunk " << sunk;
            for (const auto& c : got) EXPECT_NEAR(c.normal.z, -1.0f, 1e-5f) << "probe " << p;
        }
    // On a ramp z = 0.5 y the push is along the ramp's normal: a sphere of
    // radius 0.05 whose centre is 1 cm under it (measured vertically) is
    // 0.01 / sqrt(1.25) + 0.05 deep.
    std::vector<float> ramp(5 * 5);
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 5; ++c) ramp[r * 5 + c] = 0.5f * (-1.0f + 0.5f * (float)r);
    auto ball = [](cc_builder* b) {
        int body = add_body(b, {0.3f, 0.2f, 0.5f * 0.2f - 0.01f});
        EXPECT_EQ(cc_builder_add_sphere(b, body, 0.05f, nullptr, nullptr), CC_OK);
    };
    std::vector<cc_contact> got = on_surface(device(), nullptr, &ramp, 5, 5, {1.0f, 1.0f, 1.0f}, ball);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_NEAR(got[0].distance, -(0.01f / std::sqrt(1.25f) + 0.05f), 1e-5f);
    EXPECT_NEAR(got[0].normal.y, 0.5f / std::sqrt(1.25f), 1e-5f);
    EXPECT_NEAR(got[0].normal.z, -1.0f / std::sqrt(1.25f), 1e-5f);
    // Beyond the footprint there is no ground.
    auto outside = [](cc_builder* b) {
        int body = add_body(b, {1.02f, 0.0f, -0.01f});
        EXPECT_EQ(cc_builder_add_sphere(b, body, 0.01f, nullptr, nullptr), CC_OK);
    };
    EXPECT_TRUE(on_surface(device(), nullptr, &flat, 9, 9, {1.0f, 1.0f, 1.0f}, outside, 1, 0.0f).empty());
}

TEST_P(MeshContacts, FlatHeightfieldBehavesAsAPlane)
{
    std::vector<float> flat(9 * 9, 0.0f);
    for (int p = 0; p < kProbeCount; ++p) {
        auto put = [p](cc_builder* b) { add_probe(b, (Probe)p, {0.13f, -0.27f, 0.0f}, axis_angle({0.3f, 1.0f, 0.2f}, 0.5f)); };
        // Lower the probe onto the plane first: its lowest point from the plane pair.
        std::vector<cc_contact> ref0 = on_surface(device(), nullptr, nullptr, 0, 0, {}, put, 1, 1.0f);
        ASSERT_FALSE(ref0.empty());
        float lift = -min_distance(ref0) - 0.003f; // 3 mm into the ground
        auto placed = [p, lift](cc_builder* b) {
            add_probe(b, (Probe)p, {0.13f, -0.27f, lift}, axis_angle({0.3f, 1.0f, 0.2f}, 0.5f));
        };
        std::vector<cc_contact> ref = on_surface(device(), nullptr, nullptr, 0, 0, {}, placed);
        std::vector<cc_contact> got = on_surface(device(), nullptr, &flat, 9, 9, {2.0f, 2.0f, 1.0f}, placed);
        ASSERT_FALSE(got.empty()) << "probe " << p;
        EXPECT_NEAR(min_distance(got), min_distance(ref), 1e-4f) << "probe " << p;
        for (const auto& c : got) EXPECT_NEAR(c.normal.z, -1.0f, 1e-4f) << "probe " << p << " d " << c.distance;
    }
}

TEST_P(MeshContacts, SlopedHeightfieldGivesTheSlopeNormal)
{
    // z = 0.25 x over [-2, 2]: the surface normal is (-0.25, 0, 1)/|.|.
    const int n = 9;
    std::vector<float> ramp((size_t)n * n);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) ramp[(size_t)(r * n + c)] = 0.25f * (-2.0f + 4.0f * c / (n - 1));
    std::vector<cc_contact> got = on_surface(device(), nullptr, &ramp, n, n, {2.0f, 2.0f, 1.0f}, [](cc_builder* b) {
        // A sphere centre 0.099 m from the slope along its normal.
        float k = 1.0f / std::sqrt(1.0f + 0.0625f);
        int body = add_body(b, {0.3f - 0.25f * k * 0.099f, 0.1f, 0.075f + k * 0.099f});
        EXPECT_EQ(cc_builder_add_sphere(b, body, 0.1f, nullptr, nullptr), CC_OK);
    });
    ASSERT_EQ(got.size(), 1u);
    float k = 1.0f / std::sqrt(1.0f + 0.0625f);
    EXPECT_NEAR(got[0].normal.x, 0.25f * k, 1e-4f);
    EXPECT_NEAR(got[0].normal.z, -k, 1e-4f);
    EXPECT_NEAR(got[0].distance, -0.001f, 1e-5f);
}

TEST_P(MeshContacts, SphereOnACellDiagonalGetsOneContact)
{
    std::vector<float> flat(5 * 5, 0.0f);
    for (float t : {0.0f, 0.25f, 0.5f}) {
        // Cells are 1 m wide; the diagonal of cell (1, 1) runs from (-1, -1) to (0, 0).
        std::vector<cc_contact> got = on_surface(device(), nullptr, &flat, 5, 5, {2.0f, 2.0f, 1.0f}, [t](cc_builder* b) {
            int body = add_body(b, {-1.0f + t, -1.0f + t, 0.099f});
            EXPECT_EQ(cc_builder_add_sphere(b, body, 0.1f, nullptr, nullptr), CC_OK);
        });
        EXPECT_EQ(got.size(), 1u) << "t = " << t;
    }
}

TEST_P(MeshContacts, BackFacesCullShapesBehindATriangle)
{
    MeshData tri;
    tri.vertices = {{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}};
    tri.triangles = {0, 1, 2};
    auto sphere_at = [](float z) {
        return [z](cc_builder* b) {
            int body = add_body(b, {0.0f, -0.2f, z});
            EXPECT_EQ(cc_builder_add_sphere(b, body, 0.1f, nullptr, nullptr), CC_OK);
        };
    };
    EXPECT_EQ(on_surface(device(), &tri, nullptr, 0, 0, {1, 1, 1}, sphere_at(0.09f)).size(), 1u) << "in front";
    EXPECT_EQ(on_surface(device(), &tri, nullptr, 0, 0, {1, 1, 1}, sphere_at(-0.09f)).size(), 0u) << "behind";
    EXPECT_EQ(on_surface(device(), &tri, nullptr, 0, 0, {1, 1, 1}, sphere_at(-0.01f)).size(), 0u) << "centre behind";
    auto box_at = [](float z) {
        return [z](cc_builder* b) {
            int body = add_body(b, {0.0f, -0.2f, z});
            EXPECT_EQ(cc_builder_add_box(b, body, {0.1f, 0.1f, 0.1f}, nullptr, nullptr), CC_OK);
        };
    };
    EXPECT_EQ(on_surface(device(), &tri, nullptr, 0, 0, {1, 1, 1}, box_at(0.099f)).size(), 4u) << "box in front";
    EXPECT_EQ(on_surface(device(), &tri, nullptr, 0, 0, {1, 1, 1}, box_at(-0.099f)).size(), 0u) << "box behind";
}

// A 0.3 m box face resting 1 mm into an n x n grid mesh of 2 m.
std::vector<cc_contact> box_on_grid(cc_device dev, int n, int reduce, unsigned shuffle = 0, bool deterministic = false)
{
    Builder b = make_builder(0.01f);
    int id = add_mesh_data(b.get(), grid_mesh(n, 1.0f));
    EXPECT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, id, {1, 1, 1}, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0.037f, -0.051f, 0.149f}, axis_angle({0, 0, 1}, 0.3f));
    EXPECT_EQ(cc_builder_add_box(b.get(), body, {0.15f, 0.15f, 0.15f}, nullptr, nullptr), CC_OK);
    cc_pipeline_def d = plain_def(reduce);
    d.deterministic = deterministic;
    if (!reduce) d.rigid_contact_max = 1 << 17; // unreduced, a patch keeps every triangle's points
    World w;
    EXPECT_EQ(make_world(b.get(), dev, d, &w), CC_OK) << cc_last_error_message();
    if (shuffle) cc_testing_shuffle_narrowphase(w.pipeline.get(), shuffle);
    return collide(w);
}

// Area of the convex hull of the contacts' points on the grid (x, y).
double hull_area(const std::vector<cc_contact>& cs)
{
    std::vector<std::pair<double, double>> p;
    for (const auto& c : cs) p.push_back({c.point1.x, c.point1.y});
    std::sort(p.begin(), p.end());
    p.erase(std::unique(p.begin(), p.end()), p.end());
    if (p.size() < 3) return 0.0;
    auto cross = [](std::pair<double, double> o, std::pair<double, double> a, std::pair<double, double> b) {
        return (a.first - o.first) * (b.second - o.second) - (a.second - o.second) * (b.first - o.first);
    };
    std::vector<std::pair<double, double>> h(2 * p.size());
    size_t k = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
        h[k++] = p[i];
    }
    for (size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
        while (k >= t && cross(h[k - 2], h[k - 1], p[i - 1]) <= 0) --k;
        h[k++] = p[i - 1];
    }
    double a = 0.0;
    for (size_t i = 0; i + 1 < k; ++i) a += h[i].first * h[i + 1].second - h[i + 1].first * h[i].second;
    return 0.5 * std::fabs(a);
}

TEST_P(MeshContacts, ReductionBoundsABoxFaceOnAFineMesh)
{
    // The unreduced count grows with the tessellation; the reduced one stays
    // at most 12, keeps the deepest contact and covers at least 90% of the
    // unreduced patch.
    size_t previous = 0;
    for (int n : {10, 40, 100}) {
        std::vector<cc_contact> raw = box_on_grid(device(), n, 0);
        std::vector<cc_contact> kept = box_on_grid(device(), n, 1);
        EXPECT_GT(raw.size(), previous) << n;
        previous = raw.size();
        EXPECT_LE(kept.size(), 12u) << n;
        EXPECT_GE(kept.size(), 3u) << n;
        EXPECT_NEAR(min_distance(kept), min_distance(raw), 1e-6f) << n;
        EXPECT_GE(hull_area(kept), 0.9 * hull_area(raw)) << n;
        // The face is 0.3 m square: the patch is its footprint.
        EXPECT_NEAR(hull_area(raw), 0.09, 0.09 * 0.05) << n;
    }
}

TEST_P(MeshContacts, ReducedContactsDoNotDependOnThreadOrder)
{
    if (GetParam() != CC_DEVICE_CPU) GTEST_SKIP() << "the CPU backend scrambles its order; the GPU's varies by itself";
    std::vector<cc_contact> first = box_on_grid(device(), 60, 1, 0, true);
    for (unsigned seed : {3u, 17u, 1234u}) {
        std::vector<cc_contact> again = box_on_grid(device(), 60, 1, seed, true);
        ASSERT_EQ(again.size(), first.size());
        EXPECT_EQ(0, std::memcmp(again.data(), first.data(), first.size() * sizeof(cc_contact))) << "seed " << seed;
    }
}

// The emit pass writes what the vote kept, named by fingerprint, even when
// its recomputation rounds differently from the vote's (on a GPU: another
// kernel, other multiply-add contraction). Every item family: spheres and
// a box on a grid, a mesh on a plane, a mesh on a mesh, each pair reduced
// and each with more raw contacts than its bins keep.
TEST_P(MeshContacts, EmitKeepsEveryVotedContactWhenItsRecomputationRoundsDifferently)
{
    if (GetParam() != CC_DEVICE_CPU) GTEST_SKIP() << "the jitter hook perturbs the CPU backend's emit pass";
    Builder b = make_builder(0.005f);
    int grid = add_mesh_data(b.get(), grid_mesh(60, 1.0f));
    EXPECT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, grid, {1, 1, 1}, nullptr, nullptr), CC_OK);
    EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0.037f, -0.051f, 0.149f}, axis_angle({0, 0, 1}, 0.3f));
    EXPECT_EQ(cc_builder_add_box(b.get(), body, {0.15f, 0.15f, 0.15f}, nullptr, nullptr), CC_OK);
    for (int k = 0; k < 3; ++k) {
        int s = add_body(b.get(), {-0.6f + 0.21f * k, 0.5f, 0.149f});
        EXPECT_EQ(cc_builder_add_sphere(b.get(), s, 0.15f, nullptr, nullptr), CC_OK);
    }
    int sphere_mesh_id = add_mesh_data(b.get(), sphere_mesh(0.2f, 3));
    int m1 = add_body(b.get(), {0.6f, -0.5f, 0.199f});
    EXPECT_EQ(cc_builder_add_mesh(b.get(), m1, sphere_mesh_id, {1, 1, 1}, nullptr, nullptr), CC_OK);
    int block = add_mesh_data(b.get(), box_mesh({0.05f, 0.05f, 0.05f}));
    int m2 = add_body(b.get(), {0.6f, -0.5f, 0.447f});
    EXPECT_EQ(cc_builder_add_mesh(b.get(), m2, block, {1, 1, 1}, nullptr, nullptr), CC_OK);
    cc_pipeline_def d = plain_def(1);
    d.deterministic = 1;
    World w;
    ASSERT_EQ(make_world(b.get(), device(), d, &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> exact = collide(w);
    ASSERT_GT(exact.size(), 20u);
    for (float jitter : {1.2e-7f, 1e-6f, 1e-5f}) {
        cc_testing_jitter_mesh_emit(w.pipeline.get(), jitter);
        std::vector<cc_contact> again = collide(w);
        ASSERT_EQ(again.size(), exact.size()) << "jitter " << jitter << ": the emit pass lost or added contacts";
        for (size_t i = 0; i < exact.size(); ++i) {
            EXPECT_EQ(again[i].shape0, exact[i].shape0);
            EXPECT_EQ(again[i].shape1, exact[i].shape1);
            EXPECT_NEAR(again[i].distance, exact[i].distance, 20.0f * jitter) << i;
        }
    }
    cc_testing_jitter_mesh_emit(w.pipeline.get(), 0.0f);
}

TEST_P(MeshContacts, WorkItemOverflowIsReportedWithTheCountNeeded)
{
    Builder b = make_builder(0.01f);
    int id = add_mesh_data(b.get(), grid_mesh(100, 1.0f));
    EXPECT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, id, {1, 1, 1}, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0.0f, 0.0f, 0.149f});
    EXPECT_EQ(cc_builder_add_box(b.get(), body, {0.15f, 0.15f, 0.15f}, nullptr, nullptr), CC_OK);
    cc_pipeline_def d = plain_def();
    d.mesh_work_items_max = 16;
    World w;
    ASSERT_EQ(make_world(b.get(), device(), d, &w), CC_OK) << cc_last_error_message();
    collide(w);
    cc_overflow o;
    ASSERT_EQ(cc_pipeline_get_overflow(w.pipeline.get(), &o), CC_OK);
    EXPECT_TRUE(o.mesh_items_overflowed);
    EXPECT_EQ(o.mesh_items_capacity, 16);
    // A 0.3 m square over 2 cm cells: at least 15 x 15 cells, two triangles each.
    EXPECT_GE(o.mesh_items_needed, 2 * 15 * 15);
    d.mesh_work_items_max = o.mesh_items_needed;
    World roomy;
    ASSERT_EQ(make_world(b.get(), device(), d, &roomy), CC_OK);
    EXPECT_FALSE(collide(roomy).empty());
    ASSERT_EQ(cc_pipeline_get_overflow(roomy.pipeline.get(), &o), CC_OK);
    EXPECT_FALSE(o.mesh_items_overflowed);
}

TEST_P(MeshContacts, DefaultCapacitiesReduceEveryPairOfManyWorlds)
{
    // 300 worlds (more than the smallest block pool), each with a box
    // resting across the seam of two fine static grids: two surface pairs
    // per dynamic shape, each with far more raw contacts than a pair keeps
    // unreduced. With default capacities every pair is reduced and nothing
    // overflows.
    const int worlds = 300;
    Builder env = make_builder(0.01f);
    int id = add_mesh_data(env.get(), grid_mesh(20, 0.5f));
    cc_shape_def left = cc_default_shape_def(), right = cc_default_shape_def();
    left.local.p = {-0.5f, 0.0f, 0.0f};
    right.local.p = {0.5f, 0.0f, 0.0f};
    EXPECT_EQ(cc_builder_add_mesh(env.get(), CC_BODY_WORLD, id, {1, 1, 1}, &left, nullptr), CC_OK);
    EXPECT_EQ(cc_builder_add_mesh(env.get(), CC_BODY_WORLD, id, {1, 1, 1}, &right, nullptr), CC_OK);
    int body = add_body(env.get(), {0.01f, 0.013f, 0.049f});
    EXPECT_EQ(cc_builder_add_box(env.get(), body, {0.15f, 0.15f, 0.05f}, nullptr, nullptr), CC_OK);
    Builder b = make_builder(0.01f);
    ASSERT_EQ(cc_builder_replicate(b.get(), env.get(), worlds, nullptr), CC_OK) << cc_last_error_message();
    World w;
    ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> c = collide(w);
    cc_pipeline_info info;
    ASSERT_EQ(cc_pipeline_get_info(w.pipeline.get(), &info), CC_OK);
    EXPECT_GE(info.mesh_reduction_pairs_max, 2 * worlds);
    cc_overflow o;
    ASSERT_EQ(cc_pipeline_get_overflow(w.pipeline.get(), &o), CC_OK);
    EXPECT_EQ(o.mesh_pairs_unreduced, 0);
    EXPECT_FALSE(o.contacts_overflowed || o.mesh_items_overflowed);
    // Both grids hold the box 1 mm deep (the open edges at the seam add
    // speculative side contacts within the gap), with at most 12 contacts
    // per pair.
    EXPECT_GE(c.size(), 2u * 4u * worlds);
    EXPECT_LE(c.size(), 2u * 12u * worlds);
    EXPECT_NEAR(min_distance(c), -0.001f, 1e-5f);
    for (const auto& x : c) EXPECT_TRUE(x.distance >= 0.0f || std::fabs(x.normal.z) > 1.0f - 1e-5f) << x.distance;
}

TEST_P(MeshContacts, MeshRestsOnAPlaneByItsVertices)
{
    // A box mesh 2 mm into the ground: its four bottom corners.
    Builder b = make_builder(0.01f);
    EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
    int id = add_mesh_data(b.get(), box_mesh({0.2f, 0.1f, 0.05f}));
    int body = add_body(b.get(), {0.3f, 0.0f, 0.048f});
    EXPECT_EQ(cc_builder_add_mesh(b.get(), body, id, {1, 1, 1}, nullptr, nullptr), CC_OK);
    World w;
    ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> c = collide(w);
    ASSERT_EQ(c.size(), 4u);
    for (const auto& x : c) {
        EXPECT_NEAR(x.distance, -0.002f, 1e-6f);
        EXPECT_NEAR(x.normal.z, 1.0f, 1e-6f);
        EXPECT_NEAR(std::fabs(x.point1.x), 0.2f, 1e-6f);
    }
}

TEST_P(MeshContacts, MeshOnMeshByVertices)
{
    // A small box mesh resting 2 mm into a large one: the small box's bottom
    // corners against the large box's top face, normal straight down from
    // the lower-index shape (the large box) ... toward the small one: up.
    Builder b = make_builder(0.01f);
    int big = add_mesh_data(b.get(), box_mesh({0.5f, 0.5f, 0.5f}));
    EXPECT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, big, {1, 1, 1}, nullptr, nullptr), CC_OK);
    int small = add_mesh_data(b.get(), box_mesh({0.1f, 0.1f, 0.1f}));
    int body = add_body(b.get(), {0.1f, 0.05f, 0.598f});
    EXPECT_EQ(cc_builder_add_mesh(b.get(), body, small, {1, 1, 1}, nullptr, nullptr), CC_OK);
    World w;
    ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> c = collide(w);
    ASSERT_GE(c.size(), 4u);
    EXPECT_NEAR(min_distance(c), -0.002f, 1e-5f);
    for (const auto& x : c) EXPECT_NEAR(x.normal.z, 1.0f, 1e-4f) << "d " << x.distance;
}

TEST_P(MeshContacts, ScaledMeshMatchesTheScaledBox)
{
    // A unit box mesh scaled by (0.4, 0.2, 0.1) behaves as the box of those
    // half extents against a resting sphere.
    Builder b = make_builder(0.01f);
    int id = add_mesh_data(b.get(), box_mesh({1.0f, 1.0f, 1.0f}));
    EXPECT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, id, {0.4f, 0.2f, 0.1f}, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0.3f, -0.1f, 0.197f});
    EXPECT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, nullptr, nullptr), CC_OK);
    World w;
    ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> c = collide(w);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR(c[0].distance, -0.003f, 1e-6f);
    EXPECT_NEAR(c[0].normal.z, -1.0f, 1e-6f);
}

TEST_P(MeshContacts, ReductionNeverExceedsItsBoundOnACurvedPatch)
{
    // A sphere mesh (8,192 triangles) 3 cm into a fine grid (20,000
    // triangles): vertices of both meshes touch over a curved patch whose
    // normals spread over several bins. Unreduced rows run into the
    // hundreds; reduced ones stay within 240 and 12 per normal bin.
    auto run = [&](int reduce) {
        Builder b = make_builder(0.005f);
        int grid = add_mesh_data(b.get(), grid_mesh(100, 1.0f));
        EXPECT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, grid, {1, 1, 1}, nullptr, nullptr), CC_OK);
        int ball = add_mesh_data(b.get(), sphere_mesh(0.3f, 5));
        int body = add_body(b.get(), {0.01f, -0.02f, 0.27f});
        EXPECT_EQ(cc_builder_add_mesh(b.get(), body, ball, {1, 1, 1}, nullptr, nullptr), CC_OK);
        cc_pipeline_def d = plain_def(reduce);
        d.rigid_contact_max = 1 << 16;
        World w;
        EXPECT_EQ(make_world(b.get(), device(), d, &w), CC_OK) << cc_last_error_message();
        return collide(w);
    };
    std::vector<cc_contact> raw = run(0), kept = run(1);
    EXPECT_GT(raw.size(), 240u);
    EXPECT_LE(kept.size(), 240u);
    EXPECT_GE(kept.size(), 4u);
    EXPECT_NEAR(min_distance(kept), min_distance(raw), 1e-6f);
    EXPECT_NEAR(min_distance(raw), -0.03f, 2e-3f);
}

// A shape much larger than the triangles under it (a box, the same box as
// a hull, a cylinder) pressed tilted into the bottom of a fine sphere mesh:
// every contact lies where the two overlap, no deeper than the shape
// reaches into the sphere the mesh is inscribed in. Along a small
// triangle's tilted normal, a big shape's lowest point is far beyond the
// triangle; the depth over the triangle, and the touching point, are
// where the shape meets the triangle's prism, not that far corner.
TEST_P(MeshContacts, LargeShapesOnAFineMeshTouchOnlyWhereTheyOverlap)
{
    const float r = 0.5f;
    const cc_vec3 h = {0.3f, 0.25f, 0.1f}; // the box's half extents; the cylinder: radius 0.3, half height 0.1
    // Signed distance from a point of A's frame to A.
    auto box_dist = [&](cc_vec3 p) {
        float qx = std::fabs(p.x) - h.x, qy = std::fabs(p.y) - h.y, qz = std::fabs(p.z) - h.z;
        float ox = std::max(qx, 0.0f), oy = std::max(qy, 0.0f), oz = std::max(qz, 0.0f);
        return std::sqrt(ox * ox + oy * oy + oz * oz) + std::min(std::max(qx, std::max(qy, qz)), 0.0f);
    };
    auto cyl_dist = [&](cc_vec3 p) {
        float qr = std::sqrt(p.x * p.x + p.y * p.y) - h.x, qz = std::fabs(p.z) - h.z;
        float or_ = std::max(qr, 0.0f), oz = std::max(qz, 0.0f);
        return std::sqrt(or_ * or_ + oz * oz) + std::min(std::max(qr, qz), 0.0f);
    };
    for (int level : {4, 5}) {
        MeshData sphere = sphere_mesh(r, level);
        float edge = 0.0f; // the longest edge: the mesh lies within its sagitta of the sphere
        for (int t = 0; t < sphere.triangle_count(); ++t)
            for (int k = 0; k < 3; ++k)
                edge = std::max(edge, cc_v3_length(cc_v3_sub(sphere.vertices[sphere.triangles[3 * t + k]],
                                                             sphere.vertices[sphere.triangles[3 * t + (k + 1) % 3]])));
        const float sagitta = edge * edge / (8.0f * r);
        std::mt19937 rng(91 + level);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (int shape = 0; shape < 3; ++shape)
            for (int trial = 0; trial < 12; ++trial) {
                cc_quat q = axis_angle({u(rng), u(rng), 0.0f}, 0.25f * u(rng));
                cc_vec3 lateral = {0.05f * u(rng), 0.05f * u(rng), 0.0f};
                // Lowered until its top reaches 2 mm above the sphere's bottom.
                float top = 0.0f;
                for (int c = 0; c < 8; ++c) {
                    cc_vec3 corner = {c & 1 ? h.x : -h.x, c & 2 ? h.y : -h.y, c & 4 ? h.z : -h.z};
                    top = std::max(top, cc_q_rotate(q, corner).z);
                }
                cc_vec3 pos = {lateral.x, lateral.y, -r - top + 0.002f};
                Builder b = make_builder(0.0f);
                int mesh = add_mesh_data(b.get(), sphere);
                ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, mesh, {1, 1, 1}, nullptr, nullptr), CC_OK);
                int body = add_body(b.get(), pos, q);
                if (shape == 0) {
                    ASSERT_EQ(cc_builder_add_box(b.get(), body, h, nullptr, nullptr), CC_OK);
                } else if (shape == 1) {
                    cc_vec3 pts[8];
                    for (int c = 0; c < 8; ++c) pts[c] = {c & 1 ? h.x : -h.x, c & 2 ? h.y : -h.y, c & 4 ? h.z : -h.z};
                    int hull = -1;
                    ASSERT_EQ(cc_builder_add_convex_hull_data(b.get(), pts, 8, nullptr, &hull), CC_OK);
                    ASSERT_EQ(cc_builder_add_convex_hull(b.get(), body, hull, {1, 1, 1}, nullptr, nullptr), CC_OK);
                } else {
                    ASSERT_EQ(cc_builder_add_cylinder(b.get(), body, h.x, h.z, nullptr, nullptr), CC_OK);
                }
                World w;
                ASSERT_EQ(make_world(b.get(), device(), plain_def(1), &w), CC_OK) << cc_last_error_message();
                std::vector<cc_contact> got = collide(w);
                auto dist_a = [&](cc_vec3 world) {
                    cc_vec3 l = cc_q_rotate(cc_q_conj(q), cc_v3_sub(world, pos));
                    return shape == 2 ? cyl_dist(l) : box_dist(l);
                };
                // How deep A reaches into the sphere: r less the distance
                // from the centre to A.
                float reach = r - dist_a({0.0f, 0.0f, 0.0f});
                std::string what = "level " + std::to_string(level) + " shape " + std::to_string(shape) + " trial " +
                                   std::to_string(trial);
                if (dist_a({0.0f, 0.0f, -r + 1e-4f}) < 0.0f) {
                    EXPECT_FALSE(got.empty()) << what;
                }
                for (const cc_contact& c : got) {
                    bool a_first = c.shape0 == 1;
                    cc_vec3 pa_body = a_first ? c.point0 : c.point1, pb = a_first ? c.point1 : c.point0;
                    cc_vec3 pa = cc_v3_add(pos, cc_q_rotate(q, pa_body));
                    // On A, inside the sphere; the mesh's point inside A.
                    EXPECT_NEAR(dist_a(pa), 0.0f, 1e-5f) << what;
                    EXPECT_LE(cc_v3_length(pa), r + 1e-5f) << what << " A's point lies outside the sphere";
                    EXPECT_LE(dist_a(pb), 1e-5f) << what << " the mesh's point lies outside A";
                    EXPECT_NEAR(cc_v3_length(cc_v3_sub(pa, pb)), std::fabs(c.distance), 1e-5f) << what;
                    // No deeper than A reaches, measured along a triangle's
                    // normal (tilted from the radius by at most an edge's
                    // angle, which stretches it by under 1 %).
                    EXPECT_GE(c.distance, -1.01f * (reach + sagitta) - 1e-5f) << what;
                }
            }
    }
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Devices, MeshContacts, ::testing::Values(CC_DEVICE_CPU, CC_DEVICE_CUDA),
                         [](const ::testing::TestParamInfo<cc_device_kind>& i) {
                             return std::string(cctest::device_name(i.param));
                         });
