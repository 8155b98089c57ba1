// The CPU backend on several threads (host/backend/cpu/threads.h): threads
// change the order of rows, never their values, so deterministic mode gives
// the same bytes for any thread count and every mode the same rows; a
// malformed CUCONTACT_CPU_THREADS is an error that names it.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using namespace cctest;

namespace {

// Eight worlds of 48 overlapping shapes of every convex kind and a hull,
// over a ground plane and a heightfield, so that the broad phase, both
// narrow-phase classes and the surface stages each have more items than the
// loops need to start threads.
Builder busy_scene()
{
    std::mt19937 rng(2026);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Builder b = make_builder(0.02f);
    EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
    std::vector<float> heights(16 * 16);
    for (int i = 0; i < 16 * 16; ++i) heights[(size_t)i] = 0.5f + 0.5f * std::sin(0.7f * (float)i);
    int hf = -1;
    EXPECT_EQ(cc_builder_add_heightfield_data(b.get(), 16, 16, heights.data(), &hf), CC_OK);
    cc_shape_def ground = cc_default_shape_def();
    ground.local.p = {2.5f, 0.0f, -0.15f};
    EXPECT_EQ(cc_builder_add_heightfield(b.get(), CC_BODY_WORLD, hf, {1.0f, 1.0f, 0.2f}, &ground, nullptr), CC_OK);
    const cc_vec3 corners[8] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {0.5f, 0.5f, 1.4f}};
    int hull = -1;
    EXPECT_EQ(cc_builder_add_convex_hull_data(b.get(), corners, 8, nullptr, &hull), CC_OK) << cc_last_error_message();
    for (int w = 0; w < 8; ++w) {
        EXPECT_EQ(cc_builder_begin_world(b.get(), nullptr), CC_OK);
        for (int i = 0; i < 48; ++i) {
            cc_vec3 p = {4.0f * u(rng) - 1.5f, 2.0f * u(rng) - 1.0f, 0.05f + 0.6f * u(rng)};
            cc_quat q = {u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f};
            float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
            q = {q.x / n, q.y / n, q.z / n, q.w / n};
            int body = add_body(b.get(), p, q);
            float r = 0.08f + 0.08f * u(rng);
            cc_status s = CC_OK;
            switch (i % 7) {
            case 0: s = cc_builder_add_sphere(b.get(), body, r, nullptr, nullptr); break;
            case 1: s = cc_builder_add_capsule(b.get(), body, r, r, nullptr, nullptr); break;
            case 2: s = cc_builder_add_box(b.get(), body, {r, 0.8f * r, 1.2f * r}, nullptr, nullptr); break;
            case 3: s = cc_builder_add_cylinder(b.get(), body, r, r, nullptr, nullptr); break;
            case 4: s = cc_builder_add_cone(b.get(), body, r, r, nullptr, nullptr); break;
            case 5: s = cc_builder_add_ellipsoid(b.get(), body, {r, 0.7f * r, 1.3f * r}, nullptr, nullptr); break;
            default: s = cc_builder_add_convex_hull(b.get(), body, hull, {r, r, r}, nullptr, nullptr); break;
            }
            EXPECT_EQ(s, CC_OK) << cc_last_error_message();
        }
        EXPECT_EQ(cc_builder_end_world(b.get()), CC_OK);
    }
    return b;
}

cc_pipeline_def roomy(cc_broad_phase bp, int deterministic)
{
    cc_pipeline_def d = cc_default_pipeline_def();
    d.broad_phase = bp;
    d.deterministic = deterministic;
    d.rigid_contact_max = 1 << 16;
    d.shape_pairs_max = 1 << 15;
    return d;
}

std::vector<cc_contact> collide_with(const Builder& b, const cc_pipeline_def& d, int threads)
{
    ScopedCpuThreads t(threads);
    World w;
    EXPECT_EQ(make_world(b.get(), cc_device_cpu(), d, &w), CC_OK) << cc_last_error_message();
    if (!w.pipeline) return {};
    std::vector<cc_contact> out = collide(w);
    cc_overflow o;
    EXPECT_EQ(cc_pipeline_get_overflow(w.pipeline.get(), &o), CC_OK);
    EXPECT_FALSE(o.contacts_overflowed || o.pairs_overflowed);
    return out;
}

bool same_bytes(const std::vector<cc_contact>& a, const std::vector<cc_contact>& b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), sizeof(cc_contact) * a.size()) == 0);
}

std::vector<cc_contact> byte_sorted(std::vector<cc_contact> v)
{
    std::sort(v.begin(), v.end(),
              [](const cc_contact& a, const cc_contact& b) { return std::memcmp(&a, &b, sizeof a) < 0; });
    return v;
}

TEST(CpuThreads, DeterministicModeGivesTheSameBytesForAnyThreadCount)
{
    Builder b = busy_scene();
    for (cc_broad_phase bp : {CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
        SCOPED_TRACE(cc_broad_phase_name(bp));
        std::vector<cc_contact> one = collide_with(b, roomy(bp, 1), 1);
        ASSERT_GT(one.size(), 400u) << "the scene should keep every stage busy";
        for (int threads : {2, 3, 4, 7}) {
            SCOPED_TRACE(std::to_string(threads) + " threads");
            EXPECT_TRUE(same_bytes(one, collide_with(b, roomy(bp, 1), threads)));
        }
    }
}

TEST(CpuThreads, TimeOfImpactRowsAreTheSameBytesForAnyThreadCount)
{
    // The busy scene with every body thrown at up to 30 m/s and spun, swept
    // over 1/60 s: the swept pairs, their line of sight and their rows are
    // decided per pair, in any order.
    Builder b = busy_scene();
    cc_pipeline_def d = roomy(CC_BROAD_PHASE_SAP, 1);
    d.speculative_contact_gap_max = 1.0f;
    d.speculative_mode = CC_SPECULATIVE_TOI;
    auto run = [&](int threads, cc_speculation_stats* st) {
        ScopedCpuThreads t(threads);
        World w;
        EXPECT_EQ(make_world(b.get(), cc_device_cpu(), d, &w), CC_OK) << cc_last_error_message();
        if (!w.pipeline) return std::vector<cc_contact>();
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (int i = 0; i < cc_model_body_count(w.model.get()); ++i) {
            cc_vec3 v = {30.0f * u(rng), 30.0f * u(rng), 30.0f * u(rng)}, spin = {5 * u(rng), 5 * u(rng), 5 * u(rng)};
            EXPECT_EQ(cc_state_set_body_velocities(w.state.get(), i, 1, &v, &spin), CC_OK);
        }
        EXPECT_EQ(cc_pipeline_set_collision_dt(w.pipeline.get(), 1.0f / 60.0f), CC_OK);
        std::vector<cc_contact> out = collide(w);
        EXPECT_EQ(cc_pipeline_get_speculation_stats(w.pipeline.get(), st), CC_OK);
        return out;
    };
    cc_speculation_stats st1, st;
    std::vector<cc_contact> one = run(1, &st1);
    EXPECT_GT(st1.swept_pairs, 50) << "the scene should sweep many pairs";
    EXPECT_GT(st1.toi_contacts, 50);
    for (int threads : {2, 3}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        EXPECT_TRUE(same_bytes(one, run(threads, &st)));
        EXPECT_EQ(st.swept_pairs, st1.swept_pairs);
        EXPECT_EQ(st.occluded_pairs, st1.occluded_pairs);
    }
}

TEST(CpuThreads, UnorderedModeGivesTheSameRowsInSomeOrder)
{
    Builder b = busy_scene();
    std::vector<cc_contact> one = byte_sorted(collide_with(b, roomy(CC_BROAD_PHASE_SAP, 0), 1));
    ASSERT_GT(one.size(), 400u);
    for (int threads : {2, 4}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        EXPECT_TRUE(same_bytes(one, byte_sorted(collide_with(b, roomy(CC_BROAD_PHASE_SAP, 0), threads))));
    }
}

TEST(CpuThreads, MalformedThreadCountIsAnErrorNamingTheVariable)
{
    Builder b = busy_scene();
    for (const char* bad : {"zero", "0", "-2", "3x", "100000"}) {
        SCOPED_TRACE(bad);
        ScopedCpuThreads t(bad);
        cc_model* m = nullptr;
        EXPECT_EQ(cc_builder_finalize(b.get(), cc_device_cpu(), &m), CC_ERR_INVALID_ARGUMENT);
        EXPECT_EQ(m, nullptr);
        EXPECT_NE(std::string(cc_last_error_message()).find("CUCONTACT_CPU_THREADS"), std::string::npos)
            << cc_last_error_message();
    }
}

} // namespace
