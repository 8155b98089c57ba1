// The default capacities cover the scenes users build with meshes: a clutter
// of mesh objects packed in a bin, and a robot arm of mesh links over a table
// of mesh objects, each at the builder's default gap and tighter ones, one
// world and replicated. A default pipeline must not overflow on them, and the
// estimate must stay within a stated factor of what the pass needed, so that
// covering them does not cost absurd memory.
#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/support/mesh_util.h"

using namespace cctest;

namespace {

// Objects of half size h packed in a k x k x k lattice, touching (spacing
// 2h, each jittered by up to 10% of h), inside a bin: a ground plane and
// four static box walls.
void build_clutter(cc_builder* b, int k, float h)
{
    int meshes[3] = {add_mesh_data(b, sphere_mesh(h, 2)), add_mesh_data(b, tessellated_box_mesh({h, h, h}, 3)),
                     add_mesh_data(b, tessellated_box_mesh({h, 0.5f * h, 0.5f * h}, 4))};
    EXPECT_EQ(cc_builder_add_plane(b, CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
    float side = 2.0f * h * k, wall = 0.05f;
    int walls = add_body(b, {0, 0, 0}, {0, 0, 0, 1}, 1);
    for (int i = 0; i < 4; ++i) {
        float sx = (i & 1) ? 1.0f : -1.0f;
        cc_shape_def d = cc_default_shape_def();
        d.local.p = (i & 2) ? cc_vec3{0, sx * (0.5f * side + wall), 0.5f * side} : cc_vec3{sx * (0.5f * side + wall), 0, 0.5f * side};
        cc_vec3 half = (i & 2) ? cc_vec3{0.5f * side + 2 * wall, wall, 0.5f * side} : cc_vec3{wall, 0.5f * side, 0.5f * side};
        EXPECT_EQ(cc_builder_add_box(b, walls, half, &d, nullptr), CC_OK);
    }
    unsigned rng = 12345;
    auto jitter = [&]() {
        rng = rng * 1664525u + 1013904223u;
        return (float)((rng >> 8) & 0xffff) / 65535.0f * 0.2f - 0.1f;
    };
    int n = 0;
    for (int z = 0; z < k; ++z)
        for (int y = 0; y < k; ++y)
            for (int x = 0; x < k; ++x, ++n) {
                cc_vec3 p = {-0.5f * side + h * (2 * x + 1) + jitter() * h, -0.5f * side + h * (2 * y + 1) + jitter() * h,
                             h * (2 * z + 1) + jitter() * h};
                float a = 0.7f * n;
                int body = add_body(b, p, {0, 0, std::sin(a), std::cos(a)});
                EXPECT_EQ(cc_builder_add_mesh(b, body, meshes[n % 3], {1, 1, 1}, nullptr, nullptr), CC_OK);
            }
}

// A seven-link arm of tessellated mesh links (each 30 cm long, folded over
// the table so that links meet their neighbours' neighbours), a static
// table top, and a row of mesh objects on it.
void build_arm_over_table(cc_builder* b)
{
    int link = add_mesh_data(b, tessellated_box_mesh({0.15f, 0.04f, 0.04f}, 8));
    int object = add_mesh_data(b, sphere_mesh(0.03f, 3));
    int table = add_body(b, {0, 0, 0.4f}, {0, 0, 0, 1}, 1);
    EXPECT_EQ(cc_builder_add_box(b, table, {0.6f, 0.4f, 0.02f}, nullptr, nullptr), CC_OK);
    int prev = -1;
    for (int i = 0; i < 7; ++i) {
        float a = 0.9f * i;
        cc_vec3 p = {0.15f * std::cos(a), 0.15f * std::sin(a), 0.5f + 0.06f * i};
        int body = add_body(b, p, {0, 0, std::sin(0.5f * a + 0.8f), std::cos(0.5f * a + 0.8f)});
        int shape = -1;
        EXPECT_EQ(cc_builder_add_mesh(b, body, link, {1, 1, 1}, nullptr, &shape), CC_OK);
        if (prev >= 0) {
            EXPECT_EQ(cc_builder_add_filter_pair(b, prev, shape), CC_OK);
        }
        prev = shape;
    }
    for (int i = 0; i < 8; ++i) {
        int body = add_body(b, {-0.5f + 0.13f * i, 0.3f, 0.45f});
        EXPECT_EQ(cc_builder_add_mesh(b, body, object, {1, 1, 1}, nullptr, nullptr), CC_OK);
    }
}

// Objects resting on a 1000 x 1000 heightfield of gentle waves (10 m x
// 10 m, a 1 cm grid): spheres of several sizes, boxes and mesh balls.
void build_terrain(cc_builder* b)
{
    const int n = 1000;
    std::vector<float> heights((size_t)n * n);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) heights[(size_t)r * n + c] = 0.5f + 0.5f * std::sin(0.05f * r) * std::cos(0.07f * c);
    int field = -1;
    EXPECT_EQ(cc_builder_add_heightfield_data(b, n, n, heights.data(), &field), CC_OK) << cc_last_error_message();
    int ground = add_body(b, {0, 0, 0}, {0, 0, 0, 1}, 1);
    EXPECT_EQ(cc_builder_add_heightfield(b, ground, field, {5.0f, 5.0f, 0.2f}, nullptr, nullptr), CC_OK);
    int ball = add_mesh_data(b, sphere_mesh(0.1f, 3));
    for (int i = 0; i < 12; ++i) {
        float x = -4.0f + 0.7f * i, y = 0.3f * (i % 5) - 0.6f;
        // Rest each object on the surface: the field's height there.
        int r = (int)((y + 5.0f) / 10.0f * (n - 1) + 0.5f), c = (int)((x + 5.0f) / 10.0f * (n - 1) + 0.5f);
        float z = 0.2f * heights[(size_t)r * n + c];
        float size = 0.05f + 0.05f * (i % 4);
        int body = add_body(b, {x, y, z + size});
        if (i % 3 == 0) {
            EXPECT_EQ(cc_builder_add_sphere(b, body, size, nullptr, nullptr), CC_OK);
        } else if (i % 3 == 1) {
            EXPECT_EQ(cc_builder_add_box(b, body, {size, size, 0.5f * size}, nullptr, nullptr), CC_OK);
        } else {
            EXPECT_EQ(cc_builder_add_mesh(b, body, ball, {1, 1, 1}, nullptr, nullptr), CC_OK);
        }
    }
}

enum Scene { kSmallClutter, kLargeClutter, kArm, kTerrain, kSceneCount };
const char* const kSceneNames[kSceneCount] = {"64 meshes of 5 cm in a bin", "27 meshes of 15 cm in a bin",
                                              "mesh arm over a table of mesh objects", "objects on a 1000 x 1000 heightfield"};

void build(Scene s, cc_builder* b)
{
    switch (s) {
    case kSmallClutter: build_clutter(b, 4, 0.05f); break;
    case kLargeClutter: build_clutter(b, 3, 0.15f); break;
    case kArm: build_arm_over_table(b); break;
    default: build_terrain(b); break;
    }
}

struct Pass {
    cc_overflow overflow;
    cc_pipeline_info info;
};

// One default pass over `worlds` copies of scene `s`, every shape at `gap`.
Pass collide_default(Scene s, float gap, int worlds)
{
    Builder templ = make_builder(gap);
    build(s, templ.get());
    Builder b = make_builder(gap);
    EXPECT_EQ(cc_builder_replicate(b.get(), templ.get(), worlds, nullptr), CC_OK) << cc_last_error_message();
    World w;
    EXPECT_EQ(make_world(b.get(), cc_device_cpu(), cc_default_pipeline_def(), &w), CC_OK) << cc_last_error_message();
    Pass p{};
    EXPECT_EQ(cc_collide(w.pipeline.get(), w.state.get(), w.contacts.get(), nullptr), CC_OK) << cc_last_error_message();
    EXPECT_EQ(cc_pipeline_get_overflow(w.pipeline.get(), &p.overflow), CC_OK);
    EXPECT_EQ(cc_pipeline_get_info(w.pipeline.get(), &p.info), CC_OK);
    return p;
}

// Nothing overflows and nothing is written unreduced, at the default gap,
// a tight one and none, in one world and in two.
TEST(CapacityEstimate, CoversMeshScenes)
{
    for (int s = 0; s < kSceneCount; ++s)
        for (float gap : {0.1f, 0.01f, 0.0f})
            for (int worlds : {1, 2}) {
                Pass p = collide_default((Scene)s, gap, worlds);
                const cc_overflow& o = p.overflow;
                SCOPED_TRACE(testing::Message() << kSceneNames[s] << ", gap " << gap << " m, " << worlds << " worlds");
                EXPECT_FALSE(o.pairs_overflowed) << o.pairs_needed << " pairs, capacity " << o.pairs_capacity;
                EXPECT_FALSE(o.contacts_overflowed) << o.contacts_needed << " contacts, capacity " << o.contacts_capacity;
                EXPECT_FALSE(o.mesh_items_overflowed) << o.mesh_items_needed << " items, capacity " << o.mesh_items_capacity;
                EXPECT_EQ(o.mesh_pairs_unreduced, 0) << "reduction blocks " << p.info.mesh_reduction_pairs_max;
                EXPECT_GT(o.contacts_needed, 0);
            }
}

// Where the default gap makes these scenes crowded, the estimate stays
// within 5x of the need (or at the buffers' floors), so covering them does
// not cost memory out of proportion.
TEST(CapacityEstimate, StaysNearTheNeedAtTheDefaultGap)
{
    for (int s = 0; s < kSceneCount; ++s) {
        Pass p = collide_default((Scene)s, 0.1f, 2);
        const cc_overflow& o = p.overflow;
        SCOPED_TRACE(kSceneNames[s]);
        EXPECT_LE(o.pairs_capacity, std::max(5 * o.pairs_needed, 256 * 2));
        EXPECT_LE(o.contacts_capacity, std::max(5 * o.contacts_needed, 256 * 2));
        EXPECT_LE(o.mesh_items_capacity, std::max(5 * o.mesh_items_needed, 1024 * 2));
    }
}

}  // namespace
