// Explicit contact pairs (cc_builder_add_contact_pair, MuJoCo's <pair>):
// the pair collides whatever its shapes' groups, bitmasks, filter pairs and
// parent filter say, with its own margin and gap in place of the shapes',
// in every broad phase, against meshes too, and in every replicated world,
// and with its own friction in the step.
#include <cmath>

#include "host/testing.h"
#include "tests/support/mesh_shapes.h"
#include "tests/support/mesh_util.h"
#include "tests/support/step_util.h"
#include "tests/support/test_support.h"

using namespace cctest;

namespace {

class ContactPairs : public DeviceTest {};

cc_contact_pair_def pair_def(float margin, float gap)
{
    cc_contact_pair_def d = cc_default_contact_pair_def();
    d.margin = margin;
    d.gap = gap;
    return d;
}

// Two unit spheres (radius 0.5) whose surfaces are `sep` apart along x, each
// with margin and gap `own`; `setup` may filter them or pair them.
template <typename Setup>
std::vector<cc_contact> two_spheres(cc_device dev, float sep, float own, Setup setup, cc_broad_phase bp = CC_BROAD_PHASE_AUTO)
{
    Builder b = make_builder(0.0f);
    cc_shape_def d = cc_default_shape_def();
    d.margin = own;
    d.gap = own;
    int s[2];
    for (int k = 0; k < 2; ++k) {
        int body = add_body(b.get(), {k * (1.0f + sep), 0.0f, 0.0f});
        EXPECT_EQ(cc_builder_add_sphere(b.get(), body, 0.5f, &d, &s[k]), CC_OK);
    }
    setup(b.get(), s[0], s[1]);
    World w;
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.broad_phase = bp;
    EXPECT_EQ(make_world(b.get(), dev, pd, &w), CC_OK) << cc_last_error_message();
    return collide(w);
}

} // namespace

TEST_P(ContactPairs, ThePairsMarginAndGapReplaceTheShapes)
{
    // Surfaces 0.03 apart. Own margins and gaps 0.01 each: detected within
    // 0.04, contact-space distance 0.03 - 0.02 = 0.01.
    auto none = [](cc_builder*, int, int) {};
    auto plain = two_spheres(device(), 0.03f, 0.01f, none);
    ASSERT_EQ(plain.size(), 1u);
    EXPECT_NEAR(plain[0].distance, 0.01f, 1e-6f);
    // A pair with margin 0.05 and no gap: acting, d = 0.03 - 0.05.
    for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
        auto deep = two_spheres(
            device(), 0.03f, 0.01f,
            [](cc_builder* b, int a, int c) {
                cc_contact_pair_def d = pair_def(0.05f, 0.0f);
                ASSERT_EQ(cc_builder_add_contact_pair(b, a, c, &d), CC_OK);
            },
            bp);
        ASSERT_EQ(deep.size(), 1u) << bp;
        EXPECT_NEAR(deep[0].distance, -0.02f, 1e-6f);
        EXPECT_NEAR(deep[0].thickness0 + deep[0].thickness1, 1.0f + 0.05f, 1e-6f);
    }
    // A pair with neither: the shapes' own 0.04 reach no longer counts.
    auto gone = two_spheres(device(), 0.03f, 0.01f, [](cc_builder* b, int a, int c) {
        ASSERT_EQ(cc_builder_add_contact_pair(b, a, c, nullptr), CC_OK);
    });
    EXPECT_TRUE(gone.empty());
    // A large gap reaches beyond the shapes' bounds: 0.3 apart, gap 0.5.
    for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
        auto far = two_spheres(
            device(), 0.3f, 0.0f,
            [](cc_builder* b, int a, int c) {
                cc_contact_pair_def d = pair_def(0.0f, 0.5f);
                ASSERT_EQ(cc_builder_add_contact_pair(b, c, a, &d), CC_OK);
            },
            bp);
        ASSERT_EQ(far.size(), 1u) << bp;
        EXPECT_NEAR(far[0].distance, 0.3f, 1e-6f);
    }
}

TEST_P(ContactPairs, APairOverridesEveryFilter)
{
    // Each filter alone stops the touching spheres (a filter pair, zero
    // bitmasks as MuJoCo's contype 0, group 0); the pair brings them back.
    for (int kind = 0; kind < 3; ++kind) {
        for (int paired = 0; paired < 2; ++paired) {
            Builder b = make_builder(0.0f);
            cc_shape_def d = cc_default_shape_def();
            if (kind == 1) d.collision_type_bits = d.collision_affinity_bits = 0u; // meets nothing
            if (kind == 2) d.collision_group = 0;                                   // never collides
            int s[2];
            int parent = add_body(b.get(), {0, 0, 0});
            EXPECT_EQ(cc_builder_add_sphere(b.get(), parent, 0.5f, &d, &s[0]), CC_OK);
            cc_body_def bd = cc_default_body_def();
            bd.pose.p = {0.999f, 0, 0};
            int child = -1;
            ASSERT_EQ(cc_builder_add_body(b.get(), &bd, &child), CC_OK);
            EXPECT_EQ(cc_builder_add_sphere(b.get(), child, 0.5f, &d, &s[1]), CC_OK);
            if (kind == 0) {
                ASSERT_EQ(cc_builder_add_filter_pair(b.get(), s[0], s[1]), CC_OK);
            }
            if (paired) {
                ASSERT_EQ(cc_builder_add_contact_pair(b.get(), s[0], s[1], nullptr), CC_OK);
            }
            World w;
            ASSERT_EQ(make_world(b.get(), device(), cc_default_pipeline_def(), &w), CC_OK) << cc_last_error_message();
            EXPECT_EQ(collide(w).size(), paired ? 1u : 0u) << "filter kind " << kind;
        }
    }
}

TEST_P(ContactPairs, TheParentFilterGivesWayToAPair)
{
    for (int paired = 0; paired < 2; ++paired) {
        Builder b = make_builder(0.0f);
        int parent = add_body(b.get(), {0, 0, 0});
        cc_body_def bd = cc_default_body_def();
        bd.pose.p = {0.999f, 0, 0};
        bd.parent = parent;
        int child = -1;
        ASSERT_EQ(cc_builder_add_body(b.get(), &bd, &child), CC_OK);
        int s0, s1;
        ASSERT_EQ(cc_builder_add_sphere(b.get(), parent, 0.5f, nullptr, &s0), CC_OK);
        ASSERT_EQ(cc_builder_add_sphere(b.get(), child, 0.5f, nullptr, &s1), CC_OK);
        if (paired) {
                ASSERT_EQ(cc_builder_add_contact_pair(b.get(), s1, s0, nullptr), CC_OK);
            }
        World w;
        ASSERT_EQ(make_world(b.get(), device(), cc_default_pipeline_def(), &w), CC_OK);
        EXPECT_EQ(collide(w).size(), paired ? 1u : 0u);
    }
}

TEST_P(ContactPairs, MeshPairsReachAsFarAsTheirGap)
{
    // A sphere 0.2 over a box mesh's top face, detected through a pair gap
    // of 0.25 (the shapes themselves have none): the mid phase must keep the
    // face's triangles.
    Builder b = make_builder(0.0f);
    MeshData box = box_mesh({1, 1, 1});
    int mesh = add_mesh_data(b.get(), box), surface = -1, ball = -1;
    ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, mesh, {1, 1, 1}, nullptr, &surface), CC_OK);
    int body = add_body(b.get(), {0.1f, 0.2f, 1.0f + 0.2f + 0.3f});
    ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.3f, nullptr, &ball), CC_OK);
    cc_contact_pair_def d = pair_def(0.0f, 0.25f);
    ASSERT_EQ(cc_builder_add_contact_pair(b.get(), surface, ball, &d), CC_OK);
    World w;
    ASSERT_EQ(make_world(b.get(), device(), cc_default_pipeline_def(), &w), CC_OK) << cc_last_error_message();
    auto c = collide(w);
    ASSERT_FALSE(c.empty());
    for (const auto& k : c) EXPECT_NEAR(k.distance, 0.2f, 1e-5f);
}

TEST_P(ContactPairs, ReplicatedWorldsKeepTheirPairsAndTheLastDefinitionWins)
{
    Builder t = make_builder(0.0f);
    int s[2];
    for (int k = 0; k < 2; ++k) {
        int body = add_body(t.get(), {k * 1.02f, 0.0f, 0.0f});
        ASSERT_EQ(cc_builder_add_sphere(t.get(), body, 0.5f, nullptr, &s[k]), CC_OK);
    }
    cc_contact_pair_def small = pair_def(0.01f, 0.0f), large = pair_def(0.05f, 0.0f);
    ASSERT_EQ(cc_builder_add_contact_pair(t.get(), s[0], s[1], &small), CC_OK);
    ASSERT_EQ(cc_builder_add_contact_pair(t.get(), s[1], s[0], &large), CC_OK);
    Builder b = make_builder(0.0f);
    ASSERT_EQ(cc_builder_replicate(b.get(), t.get(), 3, nullptr), CC_OK);
    World w;
    ASSERT_EQ(make_world(b.get(), device(), cc_default_pipeline_def(), &w), CC_OK);
    auto c = collide(w);
    ASSERT_EQ(c.size(), 3u);
    for (const auto& k : c) EXPECT_NEAR(k.distance, 0.02f - 0.05f, 1e-6f);
}

TEST_P(ContactPairs, ThePairsFrictionReplacesTheShapesInTheStep)
{
    // A box on a 35 degree incline, the shapes' Coulomb coefficient 0.5: it
    // slides at g (sin - mu cos) with the pair's mu (0.3), and a pair mu of
    // 1 (above tan 35 = 0.70) holds it but for the regularised creep.
    const float theta = 35.0f * 3.14159265f / 180.0f;
    for (float mu : {0.3f, 1.0f}) {
        Builder b = make_builder_with_gravity({9.81f * std::sin(theta), 0.0f, -9.81f * std::cos(theta)});
        cc_shape_def def = compliant_shape(1.0e5f, 1.0e-5f, 0.0f, 0.5f, 20.0f);
        int plane = -1, box = -1;
        ASSERT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, &plane), CC_OK);
        int body = add_body(b.get(), {0.0f, 0.0f, 0.1f});
        ASSERT_EQ(cc_builder_add_box(b.get(), body, {0.1f, 0.1f, 0.1f}, &def, &box), CC_OK);
        cc_contact_pair_def pd = cc_default_contact_pair_def();
        pd.gap = 0.1f;
        pd.mu = mu;
        ASSERT_EQ(cc_builder_add_contact_pair(b.get(), plane, box, &pd), CC_OK);
        cc_solver_def sd = cc_default_solver_def();
        sd.point_contact_weight = 1.0f;
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), sd));
        ASSERT_TRUE(sim.run(5000, 1.0e-4f));
        float v1 = sim.linear(body).x;
        ASSERT_TRUE(sim.run(5000, 1.0e-4f));
        float v2 = sim.linear(body).x;
        double accel = (v2 - v1) / 0.5, expected = 9.81 * (std::sin(theta) - mu * std::cos(theta));
        if (expected > 0.0) EXPECT_NEAR(accel, expected, 0.02 * expected) << "mu " << mu;
        else EXPECT_LT(std::fabs(v2), 0.01f) << "mu " << mu << ": only the regularised creep (the shapes' mu slides at 1.6 m/s^2)";
    }
}

CC_INSTANTIATE_DEVICE_TEST(ContactPairs);

TEST(ContactPairs, BadPairsAreRejectedAndChangeNothing)
{
    Builder b = make_builder();
    int body = add_body(b.get(), {0, 0, 0});
    int s0, s1;
    ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.5f, nullptr, &s0), CC_OK);
    ASSERT_EQ(cc_builder_add_sphere(b.get(), CC_BODY_WORLD, 0.5f, nullptr, &s1), CC_OK);
    EXPECT_EQ(cc_builder_add_contact_pair(nullptr, s0, s1, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_builder_add_contact_pair(b.get(), s0, 7, nullptr), CC_ERR_INVALID_SHAPE);
    EXPECT_NE(std::string(cc_last_error_message()).find("shapes (0, 7) are not both in 0..1"), std::string::npos);
    EXPECT_EQ(cc_builder_add_contact_pair(b.get(), s0, s0, nullptr), CC_ERR_INVALID_ARGUMENT);
    cc_contact_pair_def d = pair_def(-0.1f, 0.0f);
    EXPECT_EQ(cc_builder_add_contact_pair(b.get(), s0, s1, &d), CC_ERR_INVALID_ARGUMENT);
    d = pair_def(0.0f, NAN);
    EXPECT_EQ(cc_builder_add_contact_pair(b.get(), s0, s1, &d), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("must be finite"), std::string::npos);
    d = cc_default_contact_pair_def();
    d.mu = INFINITY;
    EXPECT_EQ(cc_builder_add_contact_pair(b.get(), s0, s1, &d), CC_ERR_INVALID_ARGUMENT);
    cc_contact_pair_def raw{};
    EXPECT_EQ(cc_builder_add_contact_pair(b.get(), s0, s1, &raw), CC_ERR_UNINITIALIZED_DEF);
    // Nothing was added: the overlapping dynamic and static spheres keep
    // their own (zero) margins.
    World w;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), cc_default_pipeline_def(), &w), CC_OK);
    auto c = collide(w);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR(c[0].thickness0 + c[0].thickness1, 1.0f, 1e-6f);
}
