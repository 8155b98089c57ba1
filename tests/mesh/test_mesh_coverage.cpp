// Mesh contacts that must exist and contacts that must not: shapes
// overhanging a face of a closed mesh, shapes penetrating a tessellated box
// at random poses, and a thin disk near a finely tessellated box. Each is
// scored against the same box as an analytic shape (the mesh is exactly its
// surface): where the box has a penetrating or within-gap contact, so does
// the mesh, no mesh contact is deeper than the box's, and where the box has
// none, neither has the mesh.
#include <algorithm>
#include <cmath>
#include <random>

#include "tests/support/convex_reference.h"
#include "tests/support/mesh_util.h"

using namespace cctest;

namespace {

class MeshCoverage : public DeviceTest {};

enum Probe { kSphere, kCapsule, kBox, kCylinder, kCone, kEllipsoid, kProbeCount };
const char* probe_name(int p)
{
    static const char* names[] = {"sphere", "capsule", "box", "cylinder", "cone", "ellipsoid"};
    return names[p];
}

// Probe p of size scale s at pose (pos, q).
void add_probe(cc_builder* b, int p, float s, cc_vec3 pos, cc_quat q)
{
    int body = add_body(b, pos, q);
    int id = -1;
    switch (p) {
    case kSphere: ASSERT_EQ(cc_builder_add_sphere(b, body, s, nullptr, &id), CC_OK); break;
    case kCapsule: ASSERT_EQ(cc_builder_add_capsule(b, body, 0.5f * s, s, nullptr, &id), CC_OK); break;
    case kBox: ASSERT_EQ(cc_builder_add_box(b, body, {s, 0.8f * s, 0.6f * s}, nullptr, &id), CC_OK); break;
    case kCylinder: ASSERT_EQ(cc_builder_add_cylinder(b, body, s, 0.5f * s, nullptr, &id), CC_OK); break;
    case kCone: ASSERT_EQ(cc_builder_add_cone(b, body, s, 0.8f * s, nullptr, &id), CC_OK); break;
    default: ASSERT_EQ(cc_builder_add_ellipsoid(b, body, {s, 0.7f * s, 0.5f * s}, nullptr, &id), CC_OK); break;
    }
}

// Contacts of a shape (added by `add`) against a static box of half extents
// h at the origin, as a mesh of n x n quads a face or (n = 0) as a box.
template <typename AddShape>
std::vector<cc_contact> against_box(cc_device dev, cc_vec3 h, int n, float gap, AddShape add)
{
    Builder b = make_builder(gap);
    if (n > 0) {
        int mesh = add_mesh_data(b.get(), n == 1 ? box_mesh(h) : tessellated_box_mesh(h, n));
        EXPECT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, mesh, {1, 1, 1}, nullptr, nullptr), CC_OK);
    } else {
        EXPECT_EQ(cc_builder_add_box(b.get(), CC_BODY_WORLD, h, nullptr, nullptr), CC_OK);
    }
    add(b.get());
    World w;
    cc_pipeline_def d = cc_default_pipeline_def();
    EXPECT_EQ(make_world(b.get(), dev, d, &w), CC_OK) << cc_last_error_message();
    return collide(w);
}

// Probe p's core (its radius apart) for the reference: sphere and capsule
// cores are a point and a segment.
convref::Shape probe_core(int p, float s, cc_vec3 pos, cc_quat q, double* radius)
{
    convref::Pose pose = convref::pose_from_quat(q.x, q.y, q.z, q.w, convref::v3(pos.x, pos.y, pos.z));
    *radius = 0.0;
    switch (p) {
    case kSphere: *radius = s; return convref::make_shape(convref::POINT, pose, convref::v3(0, 0, 0));
    case kCapsule: *radius = 0.5 * s; return convref::make_shape(convref::SEGMENT, pose, convref::v3(0, s, 0));
    case kBox: return convref::make_shape(convref::BOX, pose, convref::v3(s, 0.8 * s, 0.6 * s));
    case kCylinder: return convref::make_shape(convref::CYLINDER, pose, convref::v3(s, 0.5 * s, 0));
    case kCone: return convref::make_shape(convref::CONE, pose, convref::v3(s, 0.8 * s, 0));
    default: return convref::make_shape(convref::ELLIPSOID, pose, convref::v3(s, 0.7 * s, 0.5 * s));
    }
}

cc_quat random_rotation(std::mt19937& g)
{
    std::normal_distribution<float> n(0.0f, 1.0f);
    float x = n(g), y = n(g), z = n(g), w = n(g), len = std::sqrt(x * x + y * y + z * z + w * w);
    return {x / len, y / len, z / len, w / len};
}

TEST_P(MeshCoverage, ABoxOverhangingACubeMeshFaceRestsOnIt)
{
    // A plate wider than the mesh's top face (half extents 1.01 x 1.01 x 0.1
    // on a cube of half extent 1), sunk 1 mm, and resting within a 0.1 mm
    // gap: the mesh's four face corners carry the contact, as on the
    // analytic cube.
    for (float sink : {0.001f, 0.0f}) {
        auto plate = [&](cc_builder* b) {
            int body = add_body(b, {0.0f, 0.0f, 1.1f - sink});
            ASSERT_EQ(cc_builder_add_box(b, body, {1.01f, 1.01f, 0.1f}, nullptr, nullptr), CC_OK);
        };
        float gap = sink > 0.0f ? 0.0f : 1.0e-4f;
        std::vector<cc_contact> ref = against_box(device(), {1, 1, 1}, 0, gap, plate);
        std::vector<cc_contact> got = against_box(device(), {1, 1, 1}, 1, gap, plate);
        ASSERT_EQ(ref.size(), 4u);
        ASSERT_GE(got.size(), 4u) << "sink " << sink;
        EXPECT_NEAR(min_distance(got), -sink, 1e-5f);
        for (const auto& c : got) EXPECT_NEAR(std::fabs(c.normal.z), 1.0f, 1e-5f);
    }
}

TEST_P(MeshCoverage, AWideCylinderOnACubeMeshGetsItsContacts)
{
    // A cylinder of radius 1.5 lying flat on the cube's top face overhangs
    // it on every side (sunk 1 mm, or resting within a 0.1 mm gap).
    for (float sink : {0.001f, 0.0f}) {
        auto disk = [&](cc_builder* b) {
            int body = add_body(b, {0.1f, -0.05f, 1.2f - sink});
            ASSERT_EQ(cc_builder_add_cylinder(b, body, 1.5f, 0.2f, nullptr, nullptr), CC_OK);
        };
        float gap = sink > 0.0f ? 0.0f : 1.0e-4f;
        std::vector<cc_contact> ref = against_box(device(), {1, 1, 1}, 0, gap, disk);
        std::vector<cc_contact> got = against_box(device(), {1, 1, 1}, 1, gap, disk);
        ASSERT_FALSE(ref.empty());
        ASSERT_GE(got.size(), 3u) << "sink " << sink;
        EXPECT_NEAR(min_distance(got), min_distance(ref), 1e-5f);
    }
}

TEST_P(MeshCoverage, PenetratingShapesWithTheirCentreOutsideATessellatedBoxGetContacts)
{
    // Random poses of every probe type around a box of half extent 0.15 made
    // of 4 x 4 quads a face, each penetrating it (the analytic box has a
    // contact) with its centre outside: the mesh has contacts too. None is
    // deeper than the box allows along its own normal (a triangle pushes
    // along its face normal, by the depth below its plane: deeper than the
    // box's shortest way out when that leaves through another face).
    const cc_vec3 h = {0.15f, 0.15f, 0.15f};
    const convref::Shape box = convref::make_shape(
        convref::BOX, convref::pose_from_quat(0, 0, 0, 1, convref::v3(0, 0, 0)), convref::v3(h.x, h.y, h.z));
    std::mt19937 g(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int tested = 0;
    for (int p = 0; p < kProbeCount; ++p)
        for (int k = 0; k < 150; ++k) {
            float s = 0.02f + 0.08f * (0.5f + 0.5f * u(g));
            cc_vec3 pos = {0.3f * u(g), 0.3f * u(g), 0.3f * u(g)};
            if (std::fabs(pos.x) <= h.x && std::fabs(pos.y) <= h.y && std::fabs(pos.z) <= h.z) continue;
            cc_quat q = random_rotation(g);
            auto probe = [&](cc_builder* b) { add_probe(b, p, s, pos, q); };
            std::vector<cc_contact> ref = against_box(device(), h, 0, 0.0f, probe);
            if (ref.empty() || min_distance(ref) > -1e-4f) continue;
            ++tested;
            std::vector<cc_contact> got = against_box(device(), h, 4, 0.0f, probe);
            EXPECT_FALSE(got.empty()) << probe_name(p) << " size " << s << " at " << pos.x << " " << pos.y << " "
                                      << pos.z << " q " << q.x << " " << q.y << " " << q.z << " " << q.w
                                      << ": box d " << min_distance(ref);
            double radius;
            convref::Shape core = probe_core(p, s, pos, q, &radius);
            for (const cc_contact& c : got) {
                // Oriented probe -> box (the probe is shape 1 of the world).
                double sign = c.shape0 == 1 ? 1.0 : -1.0;
                convref::V n = convref::v3(sign * c.normal.x, sign * c.normal.y, sign * c.normal.z);
                double bound = convref::sep(core, box, convref::unit(n)) - radius;
                EXPECT_GE((double)c.distance, bound - 1e-5) << probe_name(p) << " size " << s;
            }
        }
    EXPECT_GT(tested, 100);
}

TEST_P(MeshCoverage, ShapesNearestABoxEdgeAtATessellationVertexGetThatDistance)
{
    // A box of 2 x 2 quads a face has a vertex in the middle of each edge,
    // where four triangles of the two faces meet besides the two along the
    // edge. Each probe, turned at random, has its lowest point along -n at
    // distance d from such a vertex E, n square to the edge and between the
    // two faces' normals: the box is exactly d away, through E, and the
    // mesh's nearest contact must say so. (The triangles around E each left
    // the vertex to another, which dropped it too, and only a farther edge
    // contact remained.)
    const cc_vec3 h = {0.1f, 0.12f, 0.05f};
    const convref::V edge_vertex = convref::v3(h.x, 0.0, -h.z);
    const float gap = 0.01f;
    std::mt19937 g(11);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    int tested = 0;
    for (int p = 0; p < kProbeCount; ++p)
        for (int k = 0; k < 24; ++k) {
            float s = 0.02f + 0.04f * u(g);
            double phi = 0.1 + (0.5 * 3.14159265358979 - 0.2) * u(g);
            convref::V n = convref::v3(std::cos(phi), 0.0, -std::sin(phi));
            double d = 0.0005 + 0.008 * u(g);
            cc_quat q = random_rotation(g);
            double radius;
            convref::Shape core = probe_core(p, s, {0.0f, 0.0f, 0.0f}, q, &radius);
            convref::V lowest = convref::support(core, -n) - n * radius; // from the probe's centre
            convref::V c = edge_vertex + n * d - lowest;
            cc_vec3 pos = {(float)c.x, (float)c.y, (float)c.z};
            auto probe = [&](cc_builder* b) { add_probe(b, p, s, pos, q); };
            std::vector<cc_contact> ref = against_box(device(), h, 0, gap, probe);
            std::vector<cc_contact> got = against_box(device(), h, 2, gap, probe);
            ASSERT_FALSE(ref.empty()) << probe_name(p) << " at distance " << d;
            ++tested;
            // Float poses and vertices: a few ulps of the coordinates.
            EXPECT_NEAR(min_distance(ref), d, 2e-6) << probe_name(p);
            ASSERT_FALSE(got.empty()) << probe_name(p) << " size " << s << " at distance " << d;
            EXPECT_NEAR(min_distance(got), min_distance(ref), 2e-6)
                << probe_name(p) << " size " << s << " at " << pos.x << " " << pos.y << " " << pos.z << " q " << q.x
                << " " << q.y << " " << q.z << " " << q.w;
        }
    EXPECT_EQ(tested, kProbeCount * 24);
}

TEST_P(MeshCoverage, AThinDiskNearAFineMeshGetsNoPhantomContacts)
{
    // A disk (radius 1.39, half height 0.0107) at least 0.21 m from a cube
    // mesh of 12 x 12 quads a face scaled to 0.038 x 0.013 x 0.012: nothing
    // touches, so there is no contact, at any orientation of the disk.
    std::mt19937 g(3);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const cc_vec3 h = {0.038f, 0.013f, 0.012f};
    for (int k = 0; k < 40; ++k) {
        cc_quat q = random_rotation(g);
        cc_vec3 dir = {u(g), u(g), u(g)};
        float len = std::sqrt(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z);
        float reach = 1.39f + 0.21f + 0.05f; // beyond the disk's radius from the box's corner
        cc_vec3 pos = {dir.x / len * reach, dir.y / len * reach, dir.z / len * reach};
        auto disk = [&](cc_builder* b) {
            int body = add_body(b, pos, q);
            ASSERT_EQ(cc_builder_add_cylinder(b, body, 1.39f, 0.0107f, nullptr, nullptr), CC_OK);
        };
        std::vector<cc_contact> ref = against_box(device(), h, 0, 0.0f, disk);
        if (!ref.empty()) continue; // the disk's rim reaches the box: not this test's case
        std::vector<cc_contact> got = against_box(device(), h, 12, 0.0f, disk);
        EXPECT_TRUE(got.empty()) << "disk at " << pos.x << " " << pos.y << " " << pos.z << ": " << got.size()
                                 << " contacts, deepest " << min_distance(got);
    }
}

} // namespace

CC_INSTANTIATE_DEVICE_TEST(MeshCoverage);
