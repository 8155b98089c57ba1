// Meshes and heightfields in the builder and the model: validation of each
// bad input, zero-area triangles reported once, sharing of the pools across
// replicated worlds, their bounding boxes, and pipelines over models with
// mesh and heightfield pairs.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/shapes/bounds.h"
#include "tests/support/test_support.h"

using namespace cctest;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct LogCapture {
    std::vector<std::string> messages;
    LogCapture() { cc_set_log_callback(&LogCapture::sink, this); }
    ~LogCapture() { cc_set_log_callback(nullptr, nullptr); }
    static void sink(cc_log_level, const char* m, void* user) { static_cast<LogCapture*>(user)->messages.push_back(m); }
};

// A closed tetrahedron, counter-clockwise seen from outside.
const cc_vec3 kTet[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
const int kTetTris[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};

// A grid mesh of n x n quads (2 n^2 triangles) over [-1, 1]^2.
void grid_mesh(int n, std::vector<cc_vec3>* v, std::vector<int>* t)
{
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) v->push_back({-1.0f + 2.0f * i / n, -1.0f + 2.0f * j / n, 0.0f});
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
            t->insert(t->end(), {a, b, d, a, d, c});
        }
}

std::string message() { return cc_last_error_message(); }

} // namespace

TEST(MeshStorage, MeshValidation)
{
    Builder b = make_builder();
    int mesh = -7;
    EXPECT_EQ(cc_builder_add_mesh_data(b.get(), kTet, 4, kTetTris, 0, &mesh), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("empty"), std::string::npos);
    EXPECT_EQ(cc_builder_add_mesh_data(b.get(), kTet, 2, kTetTris, 4, &mesh), CC_ERR_INVALID_ARGUMENT);
    const int bad[3] = {0, 1, 4};
    EXPECT_EQ(cc_builder_add_mesh_data(b.get(), kTet, 4, bad, 1, &mesh), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("vertex 4"), std::string::npos) << message();
    const int negative[3] = {0, -1, 2};
    EXPECT_EQ(cc_builder_add_mesh_data(b.get(), kTet, 4, negative, 1, &mesh), CC_ERR_INVALID_ARGUMENT);
    cc_vec3 nan_verts[4] = {kTet[0], kTet[1], {0, kNaN, 0}, kTet[3]};
    EXPECT_EQ(cc_builder_add_mesh_data(b.get(), nan_verts, 4, kTetTris, 4, &mesh), CC_ERR_NOT_FINITE);
    EXPECT_NE(message().find("vertex 2"), std::string::npos);
    EXPECT_EQ(cc_builder_add_mesh_data(b.get(), nullptr, 4, kTetTris, 4, &mesh), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(mesh, -7);
    EXPECT_EQ(cc_builder_mesh_count(b.get()), 0);
    ASSERT_EQ(cc_builder_add_mesh_data(b.get(), kTet, 4, kTetTris, 4, &mesh), CC_OK);
    EXPECT_EQ(mesh, 0);

    // Shapes: the mesh must exist, scales must be positive, add_shape needs data.
    int body = add_body(b.get(), {0, 0, 0});
    EXPECT_EQ(cc_builder_add_mesh(b.get(), body, 1, {1, 1, 1}, nullptr, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_builder_add_mesh(b.get(), body, 0, {1, 0, 1}, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_EQ(cc_builder_add_shape(b.get(), body, CC_SHAPE_MESH, {1, 1, 1}, nullptr, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("cc_builder_add_mesh_data"), std::string::npos);
    int shape = -1;
    ASSERT_EQ(cc_builder_add_mesh(b.get(), body, 0, {2, 2, 2}, nullptr, &shape), CC_OK);
    cc_shape_info si;
    ASSERT_EQ(cc_builder_get_shape_info(b.get(), shape, &si), CC_OK);
    EXPECT_EQ(si.type, CC_SHAPE_MESH);
    EXPECT_EQ(si.source, 0);
}

TEST(MeshStorage, ZeroAreaTrianglesAreKeptAndReportedOnce)
{
    LogCapture log;
    Builder b = make_builder();
    const cc_vec3 v[5] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const int t[12] = {0, 1, 2, /* collinear */ 0, 0, 3, /* repeated vertex */ 0, 1, 3, 0, 3, 4};
    int mesh = -1;
    ASSERT_EQ(cc_builder_add_mesh_data(b.get(), v, 5, t, 4, &mesh), CC_OK);
    ASSERT_EQ(log.messages.size(), 1u);
    EXPECT_NE(log.messages[0].find("2 zero-area triangles"), std::string::npos) << log.messages[0];
    int verts = 0, tris = 0;
    ASSERT_EQ(cc_builder_get_mesh_info(b.get(), mesh, &verts, &tris), CC_OK);
    EXPECT_EQ(tris, 4);
}

TEST(MeshStorage, HeightfieldValidation)
{
    Builder b = make_builder();
    const float h[6] = {0, 1, 2, 3, 4, 5};
    int hf = -7;
    EXPECT_EQ(cc_builder_add_heightfield_data(b.get(), 1, 6, h, &hf), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_builder_add_heightfield_data(b.get(), 3, 1, h, &hf), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_builder_add_heightfield_data(b.get(), 2, 3, nullptr, &hf), CC_ERR_INVALID_ARGUMENT);
    const float bad[6] = {0, 1, kNaN, 3, 4, 5};
    EXPECT_EQ(cc_builder_add_heightfield_data(b.get(), 2, 3, bad, &hf), CC_ERR_NOT_FINITE);
    EXPECT_NE(message().find("row 0, column 2"), std::string::npos) << message();
    EXPECT_EQ(hf, -7);
    ASSERT_EQ(cc_builder_add_heightfield_data(b.get(), 2, 3, h, &hf), CC_OK);
    int rows, cols;
    float lo, hi;
    ASSERT_EQ(cc_builder_get_heightfield_info(b.get(), hf, &rows, &cols, &lo, &hi), CC_OK);
    EXPECT_EQ(rows, 2);
    EXPECT_EQ(cols, 3);
    EXPECT_EQ(lo, 0.0f);
    EXPECT_EQ(hi, 5.0f);

    int dynamic = add_body(b.get(), {0, 0, 0});
    int fixed = add_body(b.get(), {0, 0, 0}, {0, 0, 0, 1}, 1);
    EXPECT_EQ(cc_builder_add_heightfield(b.get(), dynamic, hf, {1, 1, 1}, nullptr, nullptr), CC_ERR_UNSUPPORTED);
    EXPECT_NE(message().find("static geometry"), std::string::npos) << message();
    EXPECT_EQ(cc_builder_add_heightfield(b.get(), CC_BODY_WORLD, hf, {1, -1, 1}, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_EQ(cc_builder_add_heightfield(b.get(), CC_BODY_WORLD, 3, {1, 1, 1}, nullptr, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_builder_shape_count(b.get()), 0);
    EXPECT_EQ(cc_builder_add_heightfield(b.get(), CC_BODY_WORLD, hf, {1, 1, 1}, nullptr, nullptr), CC_OK);
    EXPECT_EQ(cc_builder_add_heightfield(b.get(), fixed, hf, {1, 1, 1}, nullptr, nullptr), CC_OK);
}

TEST(MeshStorage, ReplicatedWorldsShareThePools)
{
    std::vector<cc_vec3> v;
    std::vector<int> t;
    grid_mesh(100, &v, &t); // 10,201 vertices, 20,000 triangles
    std::vector<float> heights(128 * 128, 0.5f);
    std::vector<size_t> geometry, rows; // model bytes by kind, per call below
    auto model_bytes = [&](int worlds) {
        Builder templ = make_builder();
        int mesh = -1, body = add_body(templ.get(), {0, 0, 0});
        EXPECT_EQ(cc_builder_add_mesh_data(templ.get(), v.data(), (int)v.size(), t.data(), (int)t.size() / 3, &mesh), CC_OK);
        EXPECT_EQ(cc_builder_add_mesh(templ.get(), body, mesh, {1, 1, 1}, nullptr, nullptr), CC_OK);
        EXPECT_EQ(cc_builder_add_mesh(templ.get(), body, mesh, {0.5f, 0.5f, 0.5f}, nullptr, nullptr), CC_OK);
        EXPECT_EQ(cc_builder_set_shape_name(templ.get(), 0, "tray"), CC_OK);
        Builder b = make_builder();
        int hf = -1;
        EXPECT_EQ(cc_builder_add_heightfield_data(b.get(), 128, 128, heights.data(), &hf), CC_OK);
        EXPECT_EQ(cc_builder_add_heightfield(b.get(), CC_BODY_WORLD, hf, {10, 10, 1}, nullptr, nullptr), CC_OK);
        EXPECT_EQ(cc_builder_replicate(b.get(), templ.get(), worlds, nullptr), CC_OK);
        EXPECT_EQ(cc_builder_mesh_count(b.get()), 1);
        EXPECT_STREQ(cc_builder_shape_name(b.get(), 1 + 2 * (worlds - 1)), "tray");
        cc_shape_info si;
        EXPECT_EQ(cc_builder_get_shape_info(b.get(), 2 * worlds, &si), CC_OK);
        EXPECT_EQ(si.source, 0);
        cc_model* m = nullptr;
        EXPECT_EQ(cc_builder_finalize(b.get(), cc_device_cpu(), &m), CC_OK);
        Model model(m);
        cc_model_memory mem;
        EXPECT_EQ(cc_model_get_memory(m, &mem), CC_OK);
        EXPECT_EQ(mem.shape_bytes + mem.body_bytes + mem.filter_bytes + mem.geometry_bytes, cc_model_device_bytes(m));
        geometry.push_back(mem.geometry_bytes);
        rows.push_back(mem.shape_bytes + mem.body_bytes);
        return cc_model_device_bytes(m);
    };
    size_t one = model_bytes(1), many = model_bytes(256);
    // The mesh, its BVH and the heightfield are the same bytes at 1 and 256
    // worlds; the rows grow with the worlds' shapes and bodies.
    EXPECT_EQ(geometry[0], geometry[1]);
    EXPECT_GT(geometry[0], 400000u);
    EXPECT_GT(rows[1], 100u * rows[0]);
    // Per world: 2 shapes and a body, a few hundred bytes; the pools (about
    // 420 KB of mesh and 64 KB of samples) are stored once.
    EXPECT_GT(one, 400000u);
    EXPECT_LT(many, one + 256u * 600u) << one << " " << many;
    EXPECT_LT((double)many, 1.4 * (double)one);
}

TEST(MeshStorage, BoundsOfMeshesAndHeightfields)
{
    cc_model_view m = {};
    cc_mesh_desc mesh = {};
    mesh.lower = {-1, -2, -3};
    mesh.upper = {1, 2, 3};
    cc_hfield_desc hf = {};
    hf.min_height = 0.25f;
    hf.max_height = 0.75f;
    m.meshes = &mesh;
    m.hfields = &hf;
    cc_transform xf = {{10, 0, 0}, {0, 0, std::sqrt(0.5f), std::sqrt(0.5f)}}; // 90 deg about z
    cc_aabb a = cc_pooled_shape_aabb(&m, CC_SHAPE_MESH, 0, {2, 1, 1}, xf, 0.5f);
    // Scaled box (-2..2, -2..2, -3..3), turned: x extent from y, y from x.
    EXPECT_NEAR(a.lower.x, 10 - 2 - 0.5f, 1e-5f);
    EXPECT_NEAR(a.upper.x, 10 + 2 + 0.5f, 1e-5f);
    EXPECT_NEAR(a.lower.y, -2 - 0.5f, 1e-5f);
    EXPECT_NEAR(a.upper.z, 3 + 0.5f, 1e-5f);
    cc_transform id = {{0, 0, 1}, {0, 0, 0, 1}};
    cc_aabb h = cc_pooled_shape_aabb(&m, CC_SHAPE_HEIGHTFIELD, 0, {4, 3, 2}, id, 0.0f);
    EXPECT_NEAR(h.lower.x, -4, 1e-6f);
    EXPECT_NEAR(h.upper.y, 3, 1e-6f);
    // 1 + 0.25 * 2 at the lowest sample, and the solid ground under it down
    // by the footprint's diagonal, 2 * |(4, 3)|.
    EXPECT_NEAR(h.lower.z, 1.5f - 10.0f, 1e-5f);
    EXPECT_NEAR(h.upper.z, 2.5f, 1e-6f);
}

// ------------------------------------------------- pairs with no route yet

class SurfacePairs : public DeviceTest {};

TEST_P(SurfacePairs, MeshAndHeightfieldPairsHaveRoutes)
{
    // A tetrahedron mesh 5 cm above the ground and a box on it: every pair
    // has a route now, so creation succeeds without skipping anything.
    Builder b = make_builder();
    int mesh = -1;
    ASSERT_EQ(cc_builder_add_mesh_data(b.get(), kTet, 4, kTetTris, 4, &mesh), CC_OK);
    int plane = -1, mesh_shape = -1;
    ASSERT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, &plane), CC_OK);
    int body = add_body(b.get(), {0, 0, 0.05f});
    ASSERT_EQ(cc_builder_add_mesh(b.get(), body, mesh, {1, 1, 1}, nullptr, &mesh_shape), CC_OK);
    int box_body = add_body(b.get(), {5, 0, 0.45f});
    ASSERT_EQ(cc_builder_add_box(b.get(), box_body, {0.5f, 0.5f, 0.5f}, nullptr, nullptr), CC_OK);
    cc_pipeline_def d = cc_default_pipeline_def();
    for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
        d.broad_phase = bp;
        World w;
        ASSERT_EQ(make_world(b.get(), device(), d, &w), CC_OK) << cc_last_error_message();
        cc_pipeline_info info;
        ASSERT_EQ(cc_pipeline_get_info(w.pipeline.get(), &info), CC_OK);
        EXPECT_EQ(info.unsupported_pairs, 0);
        EXPECT_GT(info.mesh_work_items_max, 0);
        auto c = collide(w);
        // The box's four corners, and the tetrahedron's three base corners
        // 5 cm above the plane (within the pair gap of 0.2 m).
        int on_mesh = 0;
        for (const cc_contact& k : c)
            if (k.shape1 == mesh_shape) {
                ++on_mesh;
                EXPECT_EQ(k.shape0, plane);
                EXPECT_NEAR(k.distance, 0.05f, 1e-6f);
            }
        EXPECT_EQ(on_mesh, 3);
        EXPECT_EQ(c.size(), 7u);
    }
}

TEST_P(SurfacePairs, FiltersDecideWhetherASurfacePairCollides)
{
    // A heightfield (global, static) under replicated worlds of one sphere
    // and one mesh; the mesh is kept off everything by its bitmask.
    float heights[4] = {0, 0, 0, 0};
    Builder templ = make_builder();
    int mesh = -1;
    ASSERT_EQ(cc_builder_add_mesh_data(templ.get(), kTet, 4, kTetTris, 4, &mesh), CC_OK);
    cc_shape_def off = cc_default_shape_def();
    off.collision_type_bits = 0;
    off.collision_affinity_bits = 0;
    int s = add_body(templ.get(), {0, 0, 0.55f}), k = add_body(templ.get(), {3, 0, 0.05f});
    ASSERT_EQ(cc_builder_add_sphere(templ.get(), s, 0.5f, nullptr, nullptr), CC_OK);
    ASSERT_EQ(cc_builder_add_mesh(templ.get(), k, mesh, {1, 1, 1}, &off, nullptr), CC_OK);
    Builder b = make_builder();
    int hf = -1;
    ASSERT_EQ(cc_builder_add_heightfield_data(b.get(), 2, 2, heights, &hf), CC_OK);
    ASSERT_EQ(cc_builder_add_heightfield(b.get(), CC_BODY_WORLD, hf, {10, 10, 1}, nullptr, nullptr), CC_OK);
    ASSERT_EQ(cc_builder_replicate(b.get(), templ.get(), 8, nullptr), CC_OK);
    World w;
    ASSERT_EQ(make_world(b.get(), device(), cc_default_pipeline_def(), &w), CC_OK) << cc_last_error_message();
    auto c = collide(w);
    ASSERT_EQ(c.size(), 8u); // one sphere contact per world; the mesh meets nothing
    for (const cc_contact& x : c) {
        EXPECT_EQ(x.shape1, 0); // the heightfield
        EXPECT_NEAR(x.distance, 0.05f, 1e-6f);
        EXPECT_NEAR(x.normal.z, -1.0f, 1e-6f);
    }
}

CC_INSTANTIATE_DEVICE_TEST(SurfacePairs);
