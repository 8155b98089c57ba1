// cc_builder_approximate_meshes: mesh shapes turned into convex hulls,
// oriented bounding boxes and bounding spheres, in place.
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "tests/support/mesh_util.h"

using namespace cctest;

namespace {

struct V3 {
    double x, y, z;
};
V3 of(cc_vec3 v) { return {v.x, v.y, v.z}; }
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V3 operator*(V3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double norm(V3 a) { return std::sqrt(dot(a, a)); }

V3 rotate(cc_quat q, V3 v)
{
    V3 u = {q.x, q.y, q.z};
    V3 t = cross(u, v) * 2.0;
    return v + t * q.w + cross(u, t);
}
V3 rotate_inv(cc_quat q, V3 v) { return rotate({-q.x, -q.y, -q.z, q.w}, v); }
cc_quat axis_angle(V3 axis, double angle)
{
    V3 a = axis * (1.0 / norm(axis));
    double s = std::sin(0.5 * angle);
    return {(float)(a.x * s), (float)(a.y * s), (float)(a.z * s), (float)std::cos(0.5 * angle)};
}
cc_quat qmul(cc_quat a, cc_quat b)
{
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
cc_vec3 to_f(V3 v) { return {(float)v.x, (float)v.y, (float)v.z}; }

using Mesh = MeshData;

// The closed box [-h, h], each vertex then rotated by q and moved by t.
Mesh posed_box_mesh(cc_vec3 h, cc_quat q, cc_vec3 t)
{
    Mesh m = cctest::box_mesh(h);
    for (auto& v : m.vertices) v = to_f(rotate(q, of(v)) + of(t));
    return m;
}

Mesh l_mesh()
{
    const float poly[6][2] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 3}, {0, 3}};
    Mesh m;
    for (int k = 0; k < 2; ++k)
        for (const auto& p : poly) m.vertices.push_back({p[0], p[1], k ? 0.5f : 0.0f});
    const int fan[4][3] = {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 5}};
    for (const auto& t : fan) {
        m.triangles.insert(m.triangles.end(), {6 + t[0], 6 + t[1], 6 + t[2]}); // top, up
        m.triangles.insert(m.triangles.end(), {t[0], t[2], t[1]});             // bottom, down
    }
    for (int i = 0; i < 6; ++i) {
        int j = (i + 1) % 6;
        m.triangles.insert(m.triangles.end(), {i, j, 6 + j, i, 6 + j, 6 + i});
    }
    return m;
}

int add_mesh_shape(cc_builder* b, int body, int mesh, cc_vec3 scale, cc_transform local = {{0, 0, 0}, {0, 0, 0, 1}})
{
    cc_shape_def d = cc_default_shape_def();
    d.local = local;
    int s = -1;
    EXPECT_EQ(cc_builder_add_mesh(b, body, mesh, scale, &d, &s), CC_OK) << cc_last_error_message();
    return s;
}

cc_shape_info info_of(const cc_builder* b, int shape)
{
    cc_shape_info i;
    std::memset(&i, 0, sizeof i);
    EXPECT_EQ(cc_builder_get_shape_info(b, shape, &i), CC_OK) << cc_last_error_message();
    return i;
}

int hull_count(const cc_builder* b)
{
    int n = 0;
    while (cc_builder_get_convex_hull_info(b, n, nullptr, nullptr) == CC_OK) ++n;
    return n;
}

// Mesh vertices of a mesh shape in its body frame: local * (scale . v).
std::vector<V3> posed_vertices(const Mesh& m, const cc_shape_info& mesh_shape)
{
    std::vector<V3> out;
    for (const auto& v : m.vertices) {
        V3 s = {(double)(v.x * mesh_shape.size.x), (double)(v.y * mesh_shape.size.y), (double)(v.z * mesh_shape.size.z)};
        out.push_back(of(mesh_shape.local.p) + rotate(mesh_shape.local.q, s));
    }
    return out;
}

// Supporting planes (outward normal n, offset d: n.x <= d inside) of the
// convex hull of a small point set, by brute force over triples.
std::vector<std::pair<V3, double>> hull_planes(const std::vector<V3>& pts)
{
    std::vector<std::pair<V3, double>> planes;
    double scale = 0.0;
    for (const auto& p : pts) scale = std::max(scale, norm(p - pts[0]));
    double tol = 1e-7 * scale;
    for (size_t i = 0; i < pts.size(); ++i)
        for (size_t j = i + 1; j < pts.size(); ++j)
            for (size_t k = j + 1; k < pts.size(); ++k) {
                V3 n = cross(pts[j] - pts[i], pts[k] - pts[i]);
                if (norm(n) < 1e-9 * scale * scale) continue;
                n = n * (1.0 / norm(n));
                double d = dot(n, pts[i]);
                bool below = true, above = true;
                for (const auto& p : pts) {
                    double t = dot(n, p) - d;
                    below = below && t <= tol;
                    above = above && t >= -tol;
                }
                if (below) planes.push_back({n, d});
                else if (above) planes.push_back({n * -1.0, -d});
            }
    return planes;
}

// Every point (body frame) lies inside the approximation shape `info`
// within `tol` [m].
void expect_contains(const cc_builder* b, const cc_shape_info& info, const std::vector<V3>& pts, double tol)
{
    std::vector<std::pair<V3, double>> planes;
    if (info.type == CC_SHAPE_CONVEX_HULL) {
        int nv = 0;
        ASSERT_EQ(cc_builder_get_convex_hull_info(b, info.source, &nv, nullptr), CC_OK);
        std::vector<cc_vec3> hv((size_t)nv);
        ASSERT_EQ(cc_builder_get_convex_hull_vertices(b, info.source, hv.data(), nv), CC_OK);
        std::vector<V3> hp;
        for (const auto& v : hv) hp.push_back({v.x * info.size.x, v.y * info.size.y, v.z * info.size.z});
        planes = hull_planes(hp);
        ASSERT_GE(planes.size(), 4u);
    }
    for (size_t i = 0; i < pts.size(); ++i) {
        V3 q = rotate_inv(info.local.q, pts[i] - of(info.local.p)); // approximation frame
        switch (info.type) {
        case CC_SHAPE_SPHERE:
            EXPECT_LE(norm(q), info.size.x + tol) << "vertex " << i;
            break;
        case CC_SHAPE_BOX:
            EXPECT_LE(std::fabs(q.x), info.size.x + tol) << "vertex " << i;
            EXPECT_LE(std::fabs(q.y), info.size.y + tol) << "vertex " << i;
            EXPECT_LE(std::fabs(q.z), info.size.z + tol) << "vertex " << i;
            break;
        case CC_SHAPE_CONVEX_HULL:
            for (const auto& pl : planes) EXPECT_LE(dot(pl.first, q) - pl.second, tol) << "vertex " << i;
            break;
        default:
            ADD_FAILURE() << "unexpected type " << info.type;
        }
    }
}

const cc_mesh_approximation kMethods[3] = {CC_MESH_APPROX_CONVEX_HULL, CC_MESH_APPROX_BOX, CC_MESH_APPROX_SPHERE};
const cc_shape_type kTypes[3] = {CC_SHAPE_CONVEX_HULL, CC_SHAPE_BOX, CC_SHAPE_SPHERE};

// Adds `m` as one mesh shape on a body, approximates it with every method
// (a fresh builder each), checks type and containment, and returns the infos.
std::vector<cc_shape_info> approximate_each(const Mesh& m, cc_vec3 scale, cc_transform local, double tol)
{
    std::vector<cc_shape_info> out;
    for (int k = 0; k < 3; ++k) {
        Builder b = make_builder();
        int body = add_body(b.get(), {0.5f, -1.0f, 2.0f});
        int mesh = add_mesh_data(b.get(), m);
        int shape = add_mesh_shape(b.get(), body, mesh, scale, local);
        cc_shape_info before = info_of(b.get(), shape);
        EXPECT_EQ(cc_builder_approximate_meshes(b.get(), &shape, 1, kMethods[k], 0), CC_OK) << cc_last_error_message();
        EXPECT_EQ(cc_builder_shape_count(b.get()), 1);
        cc_shape_info after = info_of(b.get(), shape);
        EXPECT_EQ(after.type, kTypes[k]);
        if (kTypes[k] == CC_SHAPE_CONVEX_HULL) {
            EXPECT_EQ(after.size.x, 1.0f);
            EXPECT_EQ(after.size.y, 1.0f);
            EXPECT_EQ(after.size.z, 1.0f);
            EXPECT_EQ(hull_count(b.get()), 1);
        } else {
            EXPECT_EQ(after.source, -1);
            EXPECT_EQ(hull_count(b.get()), 0);
        }
        expect_contains(b.get(), after, posed_vertices(m, before), tol);
        out.push_back(after);
    }
    return out;
}

const cc_transform kIdentity = {{0, 0, 0}, {0, 0, 0, 1}};

}  // namespace

TEST(MeshApproximation, AxisAlignedBoxMesh)
{
    Mesh m = box_mesh({0.3f, 0.5f, 0.7f});
    auto infos = approximate_each(m, {1, 1, 1}, kIdentity, 1e-6);
    // The hull is the box's 8 corners; the box is the box; the sphere passes
    // through the corners.
    const cc_shape_info& box = infos[1];
    EXPECT_NEAR(box.size.x, 0.3f, 1e-6);
    EXPECT_NEAR(box.size.y, 0.5f, 1e-6);
    EXPECT_NEAR(box.size.z, 0.7f, 1e-6);
    EXPECT_NEAR(box.local.q.w, 1.0f, 1e-6) << "an axis-aligned box keeps the identity rotation";
    EXPECT_NEAR(norm(of(box.local.p)), 0.0, 1e-6);
    const cc_shape_info& sphere = infos[2];
    EXPECT_NEAR(sphere.size.x, std::sqrt(0.09 + 0.25 + 0.49), 1e-5);
    EXPECT_NEAR(norm(of(sphere.local.p)), 0.0, 1e-6);
}

TEST(MeshApproximation, RotatedScaledBoxIsRecoveredExactly)
{
    // A box rotated and moved inside the mesh frame, a uniform shape scale
    // (a non-uniform one would shear the rotated box) and a rotated shape pose.
    cc_quat q0 = axis_angle({1, 2, 3}, 0.7);
    cc_vec3 t0 = {0.1f, -0.2f, 0.3f};
    cc_vec3 h = {0.3f, 0.5f, 0.7f};
    Mesh m = posed_box_mesh(h, q0, t0);
    cc_transform local = {{1.0f, 2.0f, 3.0f}, axis_angle({0, 1, 1}, 0.4)};
    float s = 2.0f;
    auto infos = approximate_each(m, {s, s, s}, local, 1e-5);
    const cc_shape_info& box = infos[1];

    V3 centre = of(local.p) + rotate(local.q, of(t0) * s);
    EXPECT_NEAR(norm(of(box.local.p) - centre), 0.0, 1e-5);
    // Each true axis (with its half extent) is one box axis up to sign.
    cc_quat qt = qmul(local.q, q0);
    const V3 unit[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const double th[3] = {h.x * s, h.y * s, h.z * s};
    const double gh[3] = {box.size.x, box.size.y, box.size.z};
    for (int i = 0; i < 3; ++i) {
        V3 u = rotate(qt, unit[i]);
        int matched = 0;
        for (int j = 0; j < 3; ++j) {
            V3 v = rotate(box.local.q, unit[j]);
            if (std::fabs(std::fabs(dot(u, v)) - 1.0) < 1e-5) {
                ++matched;
                EXPECT_NEAR(gh[j], th[i], 1e-5) << "axis " << i;
            }
        }
        EXPECT_EQ(matched, 1) << "true axis " << i << " is no axis of the box";
    }
    // The hull is the 8 corners.
    Builder b = make_builder();
    int mesh = add_mesh_data(b.get(), m);
    int shape = add_mesh_shape(b.get(), add_body(b.get(), {0, 0, 0}), mesh, {s, s, s}, local);
    ASSERT_EQ(cc_builder_approximate_meshes(b.get(), &shape, 1, CC_MESH_APPROX_CONVEX_HULL, 0), CC_OK);
    int nv = 0;
    ASSERT_EQ(cc_builder_get_convex_hull_info(b.get(), info_of(b.get(), shape).source, &nv, nullptr), CC_OK);
    EXPECT_EQ(nv, 8);
    // The sphere is the box's circumsphere.
    EXPECT_NEAR(infos[2].size.x, s * std::sqrt(0.09 + 0.25 + 0.49), 1e-5);
    EXPECT_NEAR(norm(of(infos[2].local.p) - centre), 0.0, 1e-5);
}

TEST(MeshApproximation, NonUniformScaleOnAnAxisAlignedBox)
{
    Mesh m = box_mesh({0.3f, 0.5f, 0.7f});
    cc_transform local = {{0.0f, 0.0f, 1.0f}, axis_angle({1, 0, 0}, 0.3)};
    auto infos = approximate_each(m, {1.0f, 2.0f, 3.0f}, local, 1e-5);
    const cc_shape_info& box = infos[1];
    EXPECT_NEAR(box.size.x, 0.3, 1e-5);
    EXPECT_NEAR(box.size.y, 1.0, 1e-5);
    EXPECT_NEAR(box.size.z, 2.1, 1e-5);
    EXPECT_NEAR(std::fabs(box.local.q.x * local.q.x + box.local.q.y * local.q.y + box.local.q.z * local.q.z +
                          box.local.q.w * local.q.w),
                1.0, 1e-6)
        << "the box keeps the shape's rotation";
    EXPECT_NEAR(norm(of(box.local.p) - of(local.p)), 0.0, 1e-6);
}

TEST(MeshApproximation, SphereLikeMesh)
{
    Mesh m = sphere_mesh(0.5f, 3); // 258 vertices
    ASSERT_GT(m.vertices.size(), 64u);
    cc_transform local = {{0.2f, 0.0f, -0.1f}, axis_angle({0, 0, 1}, 1.0)};
    std::vector<cc_shape_info> infos;
    for (int k = 0; k < 3; ++k) {
        Builder b = make_builder();
        int mesh = add_mesh_data(b.get(), m);
        int shape = add_mesh_shape(b.get(), add_body(b.get(), {0, 0, 0}), mesh, {2, 2, 2}, local);
        cc_shape_info before = info_of(b.get(), shape);
        ASSERT_EQ(cc_builder_approximate_meshes(b.get(), nullptr, 0, kMethods[k], 0), CC_OK) << cc_last_error_message();
        cc_shape_info after = info_of(b.get(), shape);
        ASSERT_EQ(after.type, kTypes[k]);
        std::vector<V3> pts = posed_vertices(m, before);
        if (kTypes[k] == CC_SHAPE_CONVEX_HULL) {
            int nv = 0;
            ASSERT_EQ(cc_builder_get_convex_hull_info(b.get(), after.source, &nv, nullptr), CC_OK);
            EXPECT_LE(nv, 64);
            EXPECT_GE(nv, 4);
            // A subset of the vertices: inside the true sphere, close to it.
            std::vector<cc_vec3> hv((size_t)nv);
            ASSERT_EQ(cc_builder_get_convex_hull_vertices(b.get(), after.source, hv.data(), nv), CC_OK);
            for (const auto& v : hv) EXPECT_NEAR(norm(of(v)), 1.0, 1e-5);
        } else {
            expect_contains(b.get(), after, pts, 1e-5);
        }
        infos.push_back(after);
    }
    EXPECT_NEAR(infos[2].size.x, 1.0, 0.01) << "bounding sphere within 1% of the true radius";
    EXPECT_GE(infos[2].size.x, 1.0 - 1e-6);
    EXPECT_NEAR(norm(of(infos[2].local.p) - of(local.p)), 0.0, 0.01);
    // The box of a sphere is a cube of about its diameter.
    for (float h : {infos[1].size.x, infos[1].size.y, infos[1].size.z}) {
        EXPECT_GE(h, 0.95f);
        EXPECT_LE(h, 1.0f + 1e-5f);
    }
}

TEST(MeshApproximation, LShapedMeshIsContained)
{
    Mesh m = l_mesh();
    cc_transform local = {{-0.5f, 0.25f, 0.0f}, axis_angle({1, -1, 2}, 2.0)};
    auto infos = approximate_each(m, {0.5f, 1.5f, 2.0f}, local, 1e-5);
    // Scaled, the L spans [0,1] x [0,4.5] x [0,1]; no tilted box beats that
    // bounding box (volume 4.5), and the sphere is no larger than its
    // circumsphere.
    const cc_shape_info& box = infos[1];
    double volume = 8.0 * box.size.x * box.size.y * box.size.z;
    EXPECT_LE(volume, 4.5 * (1.0 + 1e-5));
    EXPECT_GE(volume, 4.5 * (1.0 - 1e-5));
    EXPECT_LE(infos[2].size.x, 0.5 * std::sqrt(1.0 + 4.5 * 4.5 + 1.0) + 1e-5);
}

TEST(MeshApproximation, LShapedHullVertexCount)
{
    Mesh m = l_mesh();
    Builder b = make_builder();
    int mesh = add_mesh_data(b.get(), m);
    int shape = add_mesh_shape(b.get(), CC_BODY_WORLD, mesh, {1, 1, 1});
    ASSERT_EQ(cc_builder_approximate_meshes(b.get(), &shape, 1, CC_MESH_APPROX_CONVEX_HULL, 0), CC_OK);
    int nv = 0;
    ASSERT_EQ(cc_builder_get_convex_hull_info(b.get(), info_of(b.get(), shape).source, &nv, nullptr), CC_OK);
    EXPECT_EQ(nv, 10) << "the L's 12 corners but the two reflex ones at (1, 1)";
}

TEST(MeshApproximation, KeepVisualAppendsNonCollidingCopies)
{
    for (int keep = 0; keep < 2; ++keep) {
        Builder b = make_builder();
        int body = add_body(b.get(), {0, 0, 1});
        int box_mesh_id = add_mesh_data(b.get(), box_mesh({0.2f, 0.2f, 0.2f}));
        int l_mesh_id = add_mesh_data(b.get(), l_mesh());
        cc_transform local = {{0.1f, 0.2f, 0.3f}, axis_angle({0, 1, 0}, 0.5)};
        int s0 = add_mesh_shape(b.get(), body, box_mesh_id, {1, 2, 1}, local);
        int s1 = -1;
        ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, nullptr, &s1), CC_OK);
        int s2 = add_mesh_shape(b.get(), CC_BODY_WORLD, l_mesh_id, {1, 1, 1});
        cc_shape_info before0 = info_of(b.get(), s0), before1 = info_of(b.get(), s1), before2 = info_of(b.get(), s2);

        ASSERT_EQ(cc_builder_approximate_meshes(b.get(), nullptr, 0, CC_MESH_APPROX_BOX, keep), CC_OK) << cc_last_error_message();
        ASSERT_EQ(cc_builder_shape_count(b.get()), keep ? 5 : 3);
        // The indices describe the approximations; the sphere is untouched.
        EXPECT_EQ(info_of(b.get(), s0).type, CC_SHAPE_BOX);
        EXPECT_EQ(info_of(b.get(), s0).has_shape_collision, 1);
        EXPECT_EQ(info_of(b.get(), s2).type, CC_SHAPE_BOX);
        cc_shape_info after1 = info_of(b.get(), s1);
        EXPECT_EQ(0, std::memcmp(&before1, &after1, sizeof before1)) << "the sphere changed";
        if (!keep) continue;
        // Shapes 3 and 4 are the originals of shapes 0 and 2, visual only.
        const cc_shape_info* orig[2] = {&before0, &before2};
        for (int k = 0; k < 2; ++k) {
            cc_shape_info v = info_of(b.get(), 3 + k);
            EXPECT_EQ(v.type, CC_SHAPE_MESH);
            EXPECT_EQ(v.has_shape_collision, 0);
            EXPECT_EQ(v.density, 0.0f) << "a visual copy adds no mass";
            EXPECT_EQ(v.body, orig[k]->body);
            EXPECT_EQ(v.world, orig[k]->world);
            EXPECT_EQ(v.source, orig[k]->source);
            EXPECT_EQ(0, std::memcmp(&v.size, &orig[k]->size, sizeof v.size));
            EXPECT_EQ(0, std::memcmp(&v.local, &orig[k]->local, sizeof v.local));
        }
        // A second NULL call leaves the visual-only meshes alone.
        ASSERT_EQ(cc_builder_approximate_meshes(b.get(), nullptr, 0, CC_MESH_APPROX_SPHERE, 1), CC_OK);
        EXPECT_EQ(cc_builder_shape_count(b.get()), 5);
        EXPECT_EQ(info_of(b.get(), 3).type, CC_SHAPE_MESH);
        // The body's mass comes from the box alone: 0.4 x 0.8 x 0.4 at 1000 kg/m^3.
        cc_mass_properties mass;
        ASSERT_EQ(cc_builder_get_body_mass(b.get(), body, &mass), CC_OK);
        double box_kg = 1000.0 * 0.4 * 0.8 * 0.4, sphere_kg = 1000.0 * 4.0 / 3.0 * 3.14159265358979 * 0.001;
        EXPECT_NEAR(mass.mass, box_kg + sphere_kg, 1e-3 * box_kg);
    }
}

TEST(MeshApproximation, PropertiesArePreserved)
{
    for (int k = 0; k < 3; ++k) {
        Builder b = make_builder();
        int world = -1;
        ASSERT_EQ(cc_builder_begin_world(b.get(), &world), CC_OK);
        int body = add_body(b.get(), {1, 1, 1});
        int mesh = add_mesh_data(b.get(), l_mesh());
        cc_shape_def d = cc_default_shape_def();
        d.local = {{0.1f, 0.0f, 0.0f}, axis_angle({0, 0, 1}, 0.3)};
        d.margin = 0.01f;
        d.gap = 0.02f;
        d.collision_group = 3;
        d.collision_filter_parent = 0;
        d.collision_type_bits = 0x5u;
        d.collision_affinity_bits = 0xAu;
        d.density = 700.0f;
        d.material.mu = 0.3f;
        d.material.ke = 1234.0f;
        d.compliant.coulomb_friction = 0.25f;
        int other = -1, shape = -1;
        ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, nullptr, &other), CC_OK);
        ASSERT_EQ(cc_builder_add_mesh(b.get(), body, mesh, {1, 1, 1}, &d, &shape), CC_OK);
        ASSERT_EQ(cc_builder_set_shape_name(b.get(), shape, "link_collision"), CC_OK);
        ASSERT_EQ(cc_builder_add_filter_pair(b.get(), other, shape), CC_OK);
        ASSERT_EQ(cc_builder_end_world(b.get()), CC_OK);
        cc_shape_info before = info_of(b.get(), shape);

        ASSERT_EQ(cc_builder_approximate_meshes(b.get(), &shape, 1, kMethods[k], 1), CC_OK) << cc_last_error_message();
        cc_shape_info after = info_of(b.get(), shape);
        EXPECT_EQ(after.type, kTypes[k]);
        EXPECT_EQ(after.body, body);
        EXPECT_EQ(after.world, world);
        EXPECT_EQ(after.margin, 0.01f);
        EXPECT_EQ(after.gap, 0.02f);
        EXPECT_EQ(after.collision_group, 3);
        EXPECT_EQ(after.collision_type_bits, 0x5u);
        EXPECT_EQ(after.collision_affinity_bits, 0xAu);
        EXPECT_EQ(after.has_shape_collision, 1);
        EXPECT_EQ(after.density, 700.0f);
        EXPECT_EQ(0, std::memcmp(&after.material, &before.material, sizeof after.material));
        EXPECT_EQ(0, std::memcmp(&after.compliant, &before.compliant, sizeof after.compliant));
        ASSERT_NE(cc_builder_shape_name(b.get(), shape), nullptr);
        EXPECT_STREQ(cc_builder_shape_name(b.get(), shape), "link_collision");
        int visual = cc_builder_shape_count(b.get()) - 1;
        ASSERT_EQ(visual, 2);
        ASSERT_NE(cc_builder_shape_name(b.get(), visual), nullptr);
        EXPECT_STREQ(cc_builder_shape_name(b.get(), visual), "link_collision");
        EXPECT_EQ(info_of(b.get(), visual).collision_group, 3);
        EXPECT_EQ(info_of(b.get(), visual).margin, 0.01f);
    }
}

TEST(MeshApproximation, SharedMeshAndScaleIsApproximatedOnce)
{
    Builder b = make_builder();
    int mesh = add_mesh_data(b.get(), sphere_mesh(0.5f, 2));
    int body = add_body(b.get(), {0, 0, 0});
    std::vector<int> shapes;
    for (int i = 0; i < 5; ++i) shapes.push_back(add_mesh_shape(b.get(), body, mesh, {1, 1, 1}));
    shapes.push_back(add_mesh_shape(b.get(), body, mesh, {2, 1, 1})); // another scale
    ASSERT_EQ(cc_builder_approximate_meshes(b.get(), nullptr, 0, CC_MESH_APPROX_CONVEX_HULL, 0), CC_OK);
    EXPECT_EQ(hull_count(b.get()), 2);
    for (int i = 1; i < 5; ++i) EXPECT_EQ(info_of(b.get(), shapes[(size_t)i]).source, info_of(b.get(), shapes[0]).source);
    EXPECT_NE(info_of(b.get(), shapes[5]).source, info_of(b.get(), shapes[0]).source);
}

// ---- replicated worlds ---------------------------------------------------

class MeshApproximationWorlds : public DeviceTest {};

// A template of one body holding a box mesh whose bottom dips 1 cm below
// z = 0, replicated 100 times, with a global ground plane.
static Builder replicated_scene(int copies, int* first_shape)
{
    Builder templ = make_builder();
    int body = add_body(templ.get(), {0, 0, 0.49f});
    int mesh = add_mesh_data(templ.get(), box_mesh({0.5f, 0.5f, 0.5f}));
    add_mesh_shape(templ.get(), body, mesh, {1, 1, 1});
    Builder b = make_builder();
    int plane = -1;
    cc_shape_def pd = cc_default_shape_def();
    pd.world = CC_WORLD_GLOBAL;
    EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, &pd, &plane), CC_OK);
    *first_shape = cc_builder_shape_count(b.get());
    EXPECT_EQ(cc_builder_replicate(b.get(), templ.get(), copies, nullptr), CC_OK) << cc_last_error_message();
    return b;
}

// Every approximated shape touches the plane.
static void expect_all_touch(World& w, int first_shape, int copies)
{
    std::vector<cc_contact> contacts = collide(w);
    std::set<int> touching;
    for (const auto& c : contacts) {
        touching.insert(c.shape0);
        touching.insert(c.shape1);
    }
    for (int i = 0; i < copies; ++i) EXPECT_TRUE(touching.count(first_shape + i)) << "shape " << first_shape + i << " has no contact";
}

TEST_P(MeshApproximationWorlds, OneHullForAHundredCopies)
{
    const int copies = 100;
    int first = 0;
    Builder b = replicated_scene(copies, &first);
    ASSERT_EQ(cc_builder_shape_count(b.get()), 1 + copies);
    ASSERT_EQ(hull_count(b.get()), 0);
    ASSERT_EQ(cc_builder_approximate_meshes(b.get(), nullptr, 0, CC_MESH_APPROX_CONVEX_HULL, 0), CC_OK) << cc_last_error_message();
    EXPECT_EQ(hull_count(b.get()), 1) << "one hull for the template's (mesh, scale)";
    EXPECT_EQ(cc_builder_shape_count(b.get()), 1 + copies);
    for (int i = 0; i < copies; ++i) {
        cc_shape_info in = info_of(b.get(), first + i);
        EXPECT_EQ(in.type, CC_SHAPE_CONVEX_HULL);
        EXPECT_EQ(in.source, 0);
        EXPECT_EQ(in.world, i);
    }
    World w;
    CC_ASSERT_OK(make_world(b.get(), device(), cc_default_pipeline_def(), &w));
    cc_pipeline_info info;
    CC_ASSERT_OK(cc_pipeline_get_info(w.pipeline.get(), &info));
    EXPECT_EQ(info.unsupported_pairs, 0);
    if (info.broad_phase == CC_BROAD_PHASE_EXPLICIT) {
        EXPECT_EQ(info.explicit_pairs_stored, 1) << "the copies still match: their pairs are stored once";
    }
    expect_all_touch(w, first, copies);
}

TEST_P(MeshApproximationWorlds, BoxesAndSpheresWithVisualCopiesCollide)
{
    const int copies = 100;
    for (cc_mesh_approximation method : {CC_MESH_APPROX_BOX, CC_MESH_APPROX_SPHERE}) {
        int first = 0;
        Builder b = replicated_scene(copies, &first);
        ASSERT_EQ(cc_builder_approximate_meshes(b.get(), nullptr, 0, method, 1), CC_OK) << cc_last_error_message();
        ASSERT_EQ(cc_builder_shape_count(b.get()), 1 + 2 * copies);
        for (int i = 0; i < copies; ++i) {
            cc_shape_info v = info_of(b.get(), first + copies + i);
            EXPECT_EQ(v.type, CC_SHAPE_MESH);
            EXPECT_EQ(v.has_shape_collision, 0);
            EXPECT_EQ(v.world, i) << "the visual copy lives in its original's world";
        }
        World w;
        CC_ASSERT_OK(make_world(b.get(), device(), cc_default_pipeline_def(), &w));
        std::vector<cc_contact> contacts = collide(w);
        std::set<int> touching;
        for (const auto& c : contacts) {
            EXPECT_LT(std::max(c.shape0, c.shape1), first + copies) << "a visual-only mesh collided";
            touching.insert(c.shape0);
            touching.insert(c.shape1);
        }
        for (int i = 0; i < copies; ++i) EXPECT_TRUE(touching.count(first + i)) << "shape " << first + i;
    }
}

TEST_P(MeshApproximationWorlds, ApproximatingSomeCopiesStaysCorrect)
{
    // Only every other copy becomes a sphere: the copies differ, and the
    // pipeline must see each world as it is. The spheres (radius sqrt(3)/2
    // around z = 0.49) reach below the plane; the untouched meshes too.
    const int copies = 20;
    int first = 0;
    Builder b = replicated_scene(copies, &first);
    std::vector<int> some;
    for (int i = 0; i < copies; i += 2) some.push_back(first + i);
    ASSERT_EQ(cc_builder_approximate_meshes(b.get(), some.data(), (int)some.size(), CC_MESH_APPROX_SPHERE, 0), CC_OK);
    for (int i = 0; i < copies; ++i)
        EXPECT_EQ(info_of(b.get(), first + i).type, i % 2 ? CC_SHAPE_MESH : CC_SHAPE_SPHERE);
    World w;
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.skip_unsupported_pairs = 1; // in case this build has no mesh-plane route
    CC_ASSERT_OK(make_world(b.get(), device(), pd, &w));
    cc_pipeline_info info;
    CC_ASSERT_OK(cc_pipeline_get_info(w.pipeline.get(), &info));
    if (info.broad_phase == CC_BROAD_PHASE_EXPLICIT) {
        EXPECT_EQ(info.explicit_pairs_stored, copies) << "copies that differ keep their own pairs";
    }
    std::vector<cc_contact> contacts = collide(w);
    std::set<int> touching;
    for (const auto& c : contacts) touching.insert(std::max(c.shape0, c.shape1));
    for (int i = 0; i < copies; i += 2) EXPECT_TRUE(touching.count(first + i)) << "sphere " << first + i;
    // Contacts of a sphere carry the sphere's thickness; of a mesh, none.
    for (const auto& c : contacts) {
        int s = std::max(c.shape0, c.shape1);
        float t = c.shape0 == s ? c.thickness0 : c.thickness1;
        if ((s - first) % 2 == 0) EXPECT_GT(t, 0.5f) << "shape " << s;
        else EXPECT_LT(t, 0.5f) << "shape " << s;
    }
}

CC_INSTANTIATE_DEVICE_TEST(MeshApproximationWorlds);

// ---- bad input -----------------------------------------------------------

TEST(MeshApproximation, BadInputChangesNothing)
{
    Builder b = make_builder();
    int body = add_body(b.get(), {0, 0, 0});
    int mesh = add_mesh_data(b.get(), box_mesh({0.2f, 0.3f, 0.4f}));
    int s0 = add_mesh_shape(b.get(), body, mesh, {1, 1, 1});
    int sphere = -1;
    ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, nullptr, &sphere), CC_OK);
    // A flat mesh: no hull.
    Mesh flat;
    flat.vertices = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    flat.triangles = {0, 1, 2, 0, 2, 3};
    int flat_mesh = add_mesh_data(b.get(), flat);
    int s2 = add_mesh_shape(b.get(), body, flat_mesh, {1, 1, 1});

    auto snapshot = [&]() {
        std::vector<cc_shape_info> v;
        for (int i = 0; i < cc_builder_shape_count(b.get()); ++i) v.push_back(info_of(b.get(), i));
        return v;
    };
    auto same = [&](const std::vector<cc_shape_info>& a, const std::vector<cc_shape_info>& c) {
        if (a.size() != c.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (std::memcmp(&a[i], &c[i], sizeof a[i]) != 0) return false;
        return true;
    };
    const std::vector<cc_shape_info> start = snapshot();

    EXPECT_EQ(cc_builder_approximate_meshes(nullptr, nullptr, 0, CC_MESH_APPROX_BOX, 0), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::strstr(cc_last_error_message(), "NULL"), nullptr) << cc_last_error_message();

    int out_of_range[2] = {s0, 99};
    EXPECT_EQ(cc_builder_approximate_meshes(b.get(), out_of_range, 2, CC_MESH_APPROX_BOX, 1), CC_ERR_INVALID_SHAPE);
    EXPECT_NE(std::strstr(cc_last_error_message(), "99"), nullptr) << cc_last_error_message();
    int negative = -1;
    EXPECT_EQ(cc_builder_approximate_meshes(b.get(), &negative, 1, CC_MESH_APPROX_BOX, 0), CC_ERR_INVALID_SHAPE);

    int not_mesh[2] = {s0, sphere};
    EXPECT_EQ(cc_builder_approximate_meshes(b.get(), not_mesh, 2, CC_MESH_APPROX_SPHERE, 1), CC_ERR_INVALID_SHAPE);
    EXPECT_NE(std::strstr(cc_last_error_message(), "not a mesh"), nullptr) << cc_last_error_message();

    EXPECT_EQ(cc_builder_approximate_meshes(b.get(), &s0, 1, (cc_mesh_approximation)3, 0), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::strstr(cc_last_error_message(), "method"), nullptr) << cc_last_error_message();
    EXPECT_EQ(cc_builder_approximate_meshes(b.get(), &s0, 1, (cc_mesh_approximation)-1, 0), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_builder_approximate_meshes(b.get(), &s0, -1, CC_MESH_APPROX_BOX, 0), CC_ERR_INVALID_ARGUMENT);

    // The flat mesh fails the hull after shape 0's hull was built: that
    // hull is dropped again.
    int both[2] = {s0, s2};
    EXPECT_NE(cc_builder_approximate_meshes(b.get(), both, 2, CC_MESH_APPROX_CONVEX_HULL, 1), CC_OK);
    EXPECT_NE(std::strstr(cc_last_error_message(), "hull"), nullptr) << cc_last_error_message();
    EXPECT_EQ(hull_count(b.get()), 0);

    EXPECT_EQ(cc_builder_shape_count(b.get()), 3);
    EXPECT_TRUE(same(start, snapshot())) << "a rejected call changed the builder";

    // An empty selection is no error and changes nothing.
    EXPECT_EQ(cc_builder_approximate_meshes(b.get(), &s0, 0, CC_MESH_APPROX_BOX, 1), CC_OK);
    EXPECT_TRUE(same(start, snapshot()));

    // A flat mesh still gets a (thin) box and a sphere.
    ASSERT_EQ(cc_builder_approximate_meshes(b.get(), &s2, 1, CC_MESH_APPROX_BOX, 0), CC_OK) << cc_last_error_message();
    cc_shape_info fb = info_of(b.get(), s2);
    EXPECT_EQ(fb.type, CC_SHAPE_BOX);
    EXPECT_NEAR(fb.size.x, 0.5, 1e-5);
    EXPECT_NEAR(fb.size.y, 0.5, 1e-5);
    EXPECT_GT(fb.size.z, 0.0f);
    EXPECT_LT(fb.size.z, 1e-4f);
}
