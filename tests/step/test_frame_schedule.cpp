// The collision sub-step scheduler (kernels/step/schedule.h): its decisions
// on scripted speed sequences (refreshes at the horizon's expiry or when the
// travel estimate would exceed the reserve, horizons chosen once and capped
// at the limit and the frame's end, interval_overflow), then scheduled frame
// graphs on each backend: a stationary scene's passes, the observed speed
// bound, a fast sphere stopped at a thin plate, overflow in a real scene,
// the reserve kept only inside the frame, captured against direct runs to
// the bit, and bad input.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/step/schedule.h"
#include "tests/support/step_util.h"

using namespace cctest;

namespace {

// Runs the decisions of one frame over scripted speed bounds (speeds[k]
// before substep k, speeds[n] at the frame's end); returns each substep's
// horizon (0: no pass).
std::vector<int> decide_frame(cc_schedule_state* s, const std::vector<float>& speeds, int limit, float h,
                              float reserve)
{
    int n = (int)speeds.size() - 1;
    std::vector<int> horizons((size_t)n);
    for (int k = 0; k <= n; ++k) {
        int got = cc_schedule_decide(s, k, n, limit, h, reserve, speeds[(size_t)k]);
        if (k < n) horizons[(size_t)k] = got;
        EXPECT_EQ(s->collide != 0, got != 0) << "substep " << k;
    }
    return horizons;
}

cc_schedule_state fresh_state()
{
    cc_schedule_state s;
    std::memset(&s, 0, sizeof s);
    s.observed = cc_schedule_nothing_observed();
    s.speed = -1.0f;
    return s;
}

TEST(ScheduleDecisions, AStationarySceneRefreshesWhenEachHorizonExpires)
{
    // 14 substeps with a limit of 6: passes at 0, 6 and 12, the last one's
    // horizon shortened to the two substeps left in the frame.
    cc_schedule_state s = fresh_state();
    std::vector<int> got = decide_frame(&s, std::vector<float>(15, 0.0f), 6, 1.0f / 840.0f, 0.1f);
    EXPECT_EQ(got, (std::vector<int>{6, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 2, 0}));
    EXPECT_EQ(s.passes, 3);
    EXPECT_EQ(s.overflow, 0);
    EXPECT_EQ(s.frames, 1);
}

TEST(ScheduleDecisions, ConstantSpeedGivesHorizonsThatSpendTheReserve)
{
    // Reserve 1 m, h = 1/8 s, 1 m/s: two shapes close 0.25 m per substep,
    // so each pass lasts 4 substeps.
    cc_schedule_state s = fresh_state();
    std::vector<int> got = decide_frame(&s, std::vector<float>(17, 1.0f), 16, 0.125f, 1.0f);
    EXPECT_EQ(got, (std::vector<int>{4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0}));
    EXPECT_EQ(s.overflow, 0) << "the travel reached the reserve exactly, never beyond";
}

TEST(ScheduleDecisions, RisingSpeedRefreshesEarlyAndADropDoesNotExtendAHorizon)
{
    // Reserve 1 m, h = 1/8 s (2h = 0.25 s), every value exact in binary.
    //  k=0  v=0.5: estimate 0.125 per substep, horizon 8.
    //  k=1  v=1.0: travel 0.25, estimate 0.25 (1.0 + its rise 0.5) * 0.25 = 0.375; 0.625 <= 1.
    //  k=2  v=1.5: travel 0.625, estimate 0.5; 1.125 > 1: pass, horizon floor(1 / 0.5) = 2.
    //  k=4  the horizon expires: pass, estimate 0.375, horizon 2.
    //  k=5  v=0.5: slower, but the horizon chosen at 4 still expires at 6: pass, horizon 8.
    //  k=14 that horizon is capped at the frame's end: pass, horizon 2.
    std::vector<float> v = {0.5f, 1.0f, 1.5f, 1.5f, 1.5f, 0.5f, 0.5f, 0.5f, 0.5f,
                            0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    cc_schedule_state s = fresh_state();
    std::vector<int> got = decide_frame(&s, v, 16, 0.125f, 1.0f);
    EXPECT_EQ(got, (std::vector<int>{8, 0, 2, 0, 2, 0, 8, 0, 0, 0, 0, 0, 0, 0, 2, 0}));
    EXPECT_EQ(s.passes, 5);
    EXPECT_EQ(s.overflow, 0);
}

TEST(ScheduleDecisions, TravelBeyondTheReserveSetsIntervalOverflowForThatFrame)
{
    const float h = 0.125f, reserve = 1.0f;
    {
        // One substep's travel alone (2 * 8 * 0.125 = 2 m) exceeds the reserve.
        cc_schedule_state s = fresh_state();
        std::vector<float> v(9, 8.0f);
        v[0] = 0.0f;
        std::vector<int> got = decide_frame(&s, v, 8, h, reserve);
        EXPECT_EQ(s.overflow, 1);
        EXPECT_EQ(s.passes, 8) << "a pass before every substep, each with a horizon of 1";
        EXPECT_EQ(got, (std::vector<int>{8, 1, 1, 1, 1, 1, 1, 1})) << "the first chosen at rest";
    }
    {
        // Each substep within the reserve, but a jump the estimate did not
        // foresee: 0.125 m per substep, then 0.875 m once after 2 substeps.
        cc_schedule_state s = fresh_state();
        std::vector<float> v = {0.5f, 0.5f, 0.5f, 3.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
        decide_frame(&s, v, 8, h, reserve);
        EXPECT_EQ(s.overflow, 1) << "0.25 + 0.875 travelled since the pass";
        EXPECT_EQ(s.overflow_frames, 1);
        // A calm frame clears the flag; the count of overflowing frames stays.
        decide_frame(&s, std::vector<float>(9, 0.5f), 8, h, reserve);
        EXPECT_EQ(s.overflow, 0);
        EXPECT_EQ(s.frames, 2);
        EXPECT_EQ(s.overflow_frames, 1);
    }
    {
        // A NaN speed (an exploded state) is no bound: overflow, and a pass
        // before every substep.
        cc_schedule_state s = fresh_state();
        std::vector<float> v(5, 0.1f);
        v[1] = v[2] = v[3] = NAN;
        std::vector<int> got = decide_frame(&s, v, 4, h, reserve);
        EXPECT_EQ(s.overflow, 1);
        EXPECT_EQ(got, (std::vector<int>{4, 1, 1, 1}));
    }
}

class FrameSchedule : public DeviceTest {};

cc_pipeline_def speculating(float gap_max, int deterministic = 0)
{
    cc_pipeline_def d = cc_default_pipeline_def();
    d.speculative_contact_gap_max = gap_max;
    d.deterministic = deterministic;
    return d;
}

// Every row of a contact buffer, with its points at `state`'s poses.
std::vector<cc_contact> rows(const cc_contacts* c, const cc_state* state)
{
    std::vector<cc_contact> out((size_t)cc_contacts_capacity(c));
    int n = 0;
    EXPECT_EQ(cc_contacts_download(c, state, out.data(), (int)out.size(), &n), CC_OK) << cc_last_error_message();
    out.resize((size_t)std::min<int>(n, (int)out.size()));
    return out;
}

FrameGraph schedule(Sim& sim, const cc_frame_schedule_def& def)
{
    cc_state* states[2] = {sim.state[0].get(), sim.state[1].get()};
    cc_frame_graph* g = nullptr;
    EXPECT_EQ(cc_frame_graph_create_scheduled(sim.pipeline.get(), sim.solver.get(), states, &def, nullptr, &g), CC_OK)
        << cc_last_error_message();
    return FrameGraph(g);
}

cc_frame_schedule_def frame_def(float frame_dt, int substeps, float collision_dt_max = 0.0f)
{
    cc_frame_schedule_def d = cc_default_frame_schedule_def();
    d.frame_dt = frame_dt;
    d.substeps = substeps;
    d.collision_dt_max = collision_dt_max;
    return d;
}

// A sphere of radius 0.1 at `height` above a static plane, no gravity.
bool sphere_over_plane(Sim& sim, cc_device dev, const cc_pipeline_def& pd, float height, int* ball)
{
    Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
    cc_shape_def sd = cc_default_shape_def();
    EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &sd, nullptr), CC_OK);
    *ball = add_body(b.get(), {0.0f, 0.0f, 0.1f + height});
    EXPECT_EQ(cc_builder_add_sphere(b.get(), *ball, 0.1f, &sd, nullptr), CC_OK);
    return sim.create(b.get(), dev, cc_default_solver_def(), &pd);
}

TEST_P(FrameSchedule, AtRestThePassesFollowTheLimit)
{
    Sim sim;
    int ball = -1;
    ASSERT_TRUE(sphere_over_plane(sim, device(), speculating(1.0f), 0.5f, &ball));
    FrameGraph g = schedule(sim, frame_def(1.0f / 60.0f, 14, 6.0f / 840.0f));
    ASSERT_TRUE(g);
    for (int f = 0; f < 2; ++f) CC_ASSERT_OK(cc_frame_graph_launch(g.get(), nullptr));
    cc_frame_schedule rec;
    std::vector<int> horizons(14);
    std::vector<float> speeds(15);
    CC_ASSERT_OK(cc_frame_graph_get_schedule(g.get(), &rec, horizons.data(), speeds.data()));
    EXPECT_EQ(horizons, (std::vector<int>{6, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 2, 0}));
    EXPECT_EQ(rec.passes, 3);
    EXPECT_EQ(rec.limit, 6);
    EXPECT_EQ(rec.frames, 2);
    EXPECT_EQ(rec.interval_overflow, 0);
    for (float v : speeds) EXPECT_EQ(v, 0.0f);
    // The pass keeps the sphere 0.5 m above the plane, within the reserve
    // (1 m), although nothing moves; a pass outside the frame does not.
    std::vector<cc_contact> kept = rows(cc_frame_graph_contacts(g.get()), sim.state[0].get());
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_NEAR(kept[0].distance, 0.5f, 1e-5f);
    CC_ASSERT_OK(cc_collide(sim.pipeline.get(), sim.state[0].get(), sim.contacts.get(), nullptr));
    std::vector<cc_contact> outside = rows(sim.contacts.get(), sim.state[0].get());
    EXPECT_TRUE(outside.empty()) << "velocity-adapted admission outside the frame";
}

TEST_P(FrameSchedule, TheObservedSpeedBoundsEveryPointOfTheShapes)
{
    Sim sim;
    int ball = -1;
    ASSERT_TRUE(sphere_over_plane(sim, device(), speculating(1.0f), 5.0f, &ball));
    sim.set_velocity(ball, {0.0f, 3.0f, 4.0f}, {0.0f, 0.0f, 2.0f});
    FrameGraph g = schedule(sim, frame_def(0.01f, 2));
    ASSERT_TRUE(g);
    CC_ASSERT_OK(cc_frame_graph_launch(g.get(), nullptr));
    cc_frame_schedule rec;
    float speeds[3];
    CC_ASSERT_OK(cc_frame_graph_get_schedule(g.get(), &rec, nullptr, speeds));
    // |v| = 5 m/s; the spin adds at most |w| times the bounding box's half
    // diagonal (the sphere's, grown by its bounds pad) and at least |w| r.
    for (float v : speeds) {
        EXPECT_GE(v, 5.0f + 2.0f * 0.1f);
        EXPECT_LE(v, 5.0f + 2.0f * 0.1f * std::sqrt(3.0f) * 1.01f);
    }
}

TEST_P(FrameSchedule, ShapesThatNeverCollideAndStaticBodiesAreNotObserved)
{
    // A fast body whose only shape has collisions off, and a static body
    // given a velocity, leave the observed speed at the resting sphere's 0.
    Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
    cc_shape_def sd = cc_default_shape_def();
    CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &sd, nullptr));
    int ball = add_body(b.get(), {0.0f, 0.0f, 0.5f});
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.1f, &sd, nullptr));
    int ghost = add_body(b.get(), {2.0f, 0.0f, 0.5f});
    cc_shape_def off = sd;
    off.has_shape_collision = 0;
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ghost, 0.1f, &off, nullptr));
    int fixed = add_body(b.get(), {-2.0f, 0.0f, 0.5f}, {0, 0, 0, 1}, 1);
    CC_ASSERT_OK(cc_builder_add_box(b.get(), fixed, {0.1f, 0.1f, 0.1f}, &sd, nullptr));
    Sim sim;
    cc_pipeline_def pd = speculating(1.0f);
    ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
    sim.set_velocity(ghost, {0.0f, 0.0f, 50.0f}, {0.0f, 30.0f, 0.0f});
    sim.set_velocity(fixed, {0.0f, 0.0f, 50.0f});
    FrameGraph g = schedule(sim, frame_def(1.0f / 60.0f, 4));
    ASSERT_TRUE(g);
    CC_ASSERT_OK(cc_frame_graph_launch(g.get(), nullptr));
    cc_frame_schedule rec;
    float speeds[5];
    CC_ASSERT_OK(cc_frame_graph_get_schedule(g.get(), &rec, nullptr, speeds));
    for (float v : speeds) EXPECT_EQ(v, 0.0f);
    EXPECT_EQ(rec.passes, 1);
}

// A 1 cm sphere 1 m above the top of a 1 cm plate, closing at 100 m/s.
bool bullet(Sim& sim, cc_device dev, const cc_pipeline_def& pd, int* ball)
{
    Builder b = make_builder_with_gravity({0, 0, -9.81f}, 0.0f);
    cc_shape_def def = cc_default_shape_def();
    int plate = add_body(b.get(), {0, 0, 0}, {0, 0, 0, 1}, 1);
    EXPECT_EQ(cc_builder_add_box(b.get(), plate, {0.5f, 0.5f, 0.005f}, &def, nullptr), CC_OK);
    *ball = add_body(b.get(), {0.01f, -0.02f, 0.005f + 0.01f + 1.0f});
    EXPECT_EQ(cc_builder_add_sphere(b.get(), *ball, 0.01f, &def, nullptr), CC_OK);
    if (!sim.create(b.get(), dev, cc_default_solver_def(), &pd)) return false;
    sim.set_velocity(*ball, {0, 0, -100});
    return true;
}

// The bullet with reserve `gap_max`, its 10-substep scheduled frame, and
// the first frame's record and horizons.
struct FirstFrame {
    Sim sim;
    int ball = -1;
    FrameGraph graph;
    cc_frame_schedule rec{};
    std::vector<int> horizons = std::vector<int>(10);
    bool run(cc_device dev, float gap_max)
    {
        if (!bullet(sim, dev, speculating(gap_max), &ball)) return false;
        graph = schedule(sim, frame_def(1.0f / 60.0f, 10));
        if (!graph) return false;
        EXPECT_EQ(cc_frame_graph_launch(graph.get(), nullptr), CC_OK) << cc_last_error_message();
        EXPECT_EQ(cc_frame_graph_get_schedule(graph.get(), &rec, horizons.data(), nullptr), CC_OK);
        return !::testing::Test::HasFailure();
    }
};

TEST_P(FrameSchedule, AFastSphereStopsAtAThinPlate)
{
    // 10 substeps of 1/600 s with a reserve of 2 m: two shapes at 100 m/s
    // close 1/3 m per substep, so a pass lasts 5 or 6 substeps (gravity
    // adds to the speed, so the travel may reach the reserve a substep
    // before the horizon ends), and the next pass runs then.
    FirstFrame t;
    ASSERT_TRUE(t.run(device(), 2.0f));
    Sim& sim = t.sim;
    int ball = t.ball;
    FrameGraph& g = t.graph;
    cc_frame_schedule& rec = t.rec;
    std::vector<int>& horizons = t.horizons;
    int first = horizons[0];
    EXPECT_TRUE(first == 5 || first == 6) << first;
    int second = 1;
    while (second < 10 && !horizons[second]) ++second;
    EXPECT_TRUE(second == 5 || second == first) << second;
    EXPECT_EQ(rec.passes, 2);
    EXPECT_EQ(rec.interval_overflow, 0);
    for (int f = 1; f < 30; ++f) CC_ASSERT_OK(cc_frame_graph_launch(g.get(), nullptr));
    sim.current = 0;
    float z = sim.pose(ball).p.z;
    EXPECT_GT(z, 0.005f + 0.01f - 0.002f) << "resting on the plate, at most 2 mm in";
    EXPECT_LT(z, 0.005f + 0.01f + 0.001f);
    CC_ASSERT_OK(cc_frame_graph_get_schedule(g.get(), &rec, horizons.data(), nullptr));
    EXPECT_EQ(rec.passes, 1) << "at rest, one pass a frame";
}

TEST_P(FrameSchedule, AReserveTooSmallForTheMotionIsReported)
{
    // A reserve of 5 cm against 1/3 m of travel per substep: a pass before
    // every substep, and interval_overflow. (The plate stops the sphere
    // within the 6 substeps it needs to get there.)
    FirstFrame t;
    ASSERT_TRUE(t.run(device(), 0.05f));
    const cc_frame_schedule& rec = t.rec;
    const std::vector<int>& horizons = t.horizons;
    Sim& sim = t.sim;
    int ball = t.ball;
    EXPECT_NE(rec.interval_overflow, 0);
    EXPECT_EQ(rec.overflow_frames, 1);
    for (int k = 0; k < 6; ++k) EXPECT_EQ(horizons[k], 1) << "substep " << k;
    float z = sim.pose(ball).p.z;
    EXPECT_GT(z, 0.005f + 0.01f - 0.002f) << "still stopped at the plate: the passes ran every substep";
}

TEST_P(FrameSchedule, TheCapturedScheduleEqualsTheDirectOneToTheBit)
{
    // A sphere dropped onto boxes under gravity, both ways, deterministic.
    auto make = [&](Sim& sim, int* ball) {
        Builder b = make_builder_with_gravity({0, 0, -9.81f}, 0.0f);
        cc_shape_def def = cc_default_shape_def();
        EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr), CC_OK);
        for (int i = 0; i < 3; ++i) {
            int box = add_body(b.get(), {0.3f * (float)i, 0.0f, 0.1f + 0.25f * (float)i});
            EXPECT_EQ(cc_builder_add_box(b.get(), box, {0.1f, 0.1f, 0.1f}, &def, nullptr), CC_OK);
        }
        *ball = add_body(b.get(), {0.3f, 0.0f, 2.0f});
        EXPECT_EQ(cc_builder_add_sphere(b.get(), *ball, 0.05f, &def, nullptr), CC_OK);
        cc_solver_def sd = cc_default_solver_def();
        sd.deterministic = 1;
        cc_pipeline_def pd = speculating(0.2f, 1);
        bool ok = sim.create(b.get(), device(), sd, &pd);
        if (ok) sim.set_velocity(*ball, {0, 0, -20});
        return ok;
    };
    Sim captured, direct;
    int ball = -1;
    ASSERT_TRUE(make(captured, &ball));
    ASSERT_TRUE(make(direct, &ball));
    cc_frame_schedule_def d = frame_def(1.0f / 60.0f, 8, 1.0f / 120.0f);
    FrameGraph a = schedule(captured, d);
    d.capture = 0;
    FrameGraph b = schedule(direct, d);
    ASSERT_TRUE(a && b);
    // On CUDA one is a graph with conditional nodes and the other reads
    // each decision on the host; on the CPU both branch on the host.
    EXPECT_EQ(cc_frame_graph_exec(a.get()) != nullptr, GetParam() == CC_DEVICE_CUDA);
    EXPECT_EQ(cc_frame_graph_exec(b.get()), nullptr);
    int passes_a = 0, passes_b = 0;
    for (int f = 0; f < 40; ++f) {
        CC_ASSERT_OK(cc_frame_graph_launch(a.get(), nullptr));
        CC_ASSERT_OK(cc_frame_graph_launch(b.get(), nullptr));
        cc_frame_schedule ra, rb;
        std::vector<int> ha(8), hb(8);
        CC_ASSERT_OK(cc_frame_graph_get_schedule(a.get(), &ra, ha.data(), nullptr));
        CC_ASSERT_OK(cc_frame_graph_get_schedule(b.get(), &rb, hb.data(), nullptr));
        ASSERT_EQ(ha, hb) << "frame " << f;
        passes_a += ra.passes;
        passes_b += rb.passes;
    }
    EXPECT_EQ(passes_a, passes_b);
    EXPECT_GT(passes_a, 40) << "the falling sphere needed passes beyond each frame's first";
    captured.current = direct.current = 0;
    std::vector<float> sa = captured.snapshot(), sb = direct.snapshot();
    ASSERT_EQ(sa.size(), sb.size());
    EXPECT_EQ(0, std::memcmp(sa.data(), sb.data(), sa.size() * sizeof(float)));
    float z = captured.pose(ball).p.z;
    EXPECT_GT(z, 0.24f) << "the sphere rests on the box under it (top at 0.2 m), not in it";
}

TEST_P(FrameSchedule, TheLimitIsWholeSubstepsAndAtMostAFrame)
{
    // 10 substeps of 1/600 s: 1/120 s is 5 of them, 2.9 substeps are 2, and
    // 1/600 s is 1 although float 1/600 over float (1/60) / 10 falls just
    // below 1; a limit past the frame or none is the frame. Before any
    // launch the record is empty.
    Sim sim;
    int ball = -1;
    ASSERT_TRUE(sphere_over_plane(sim, device(), speculating(1.0f), 0.5f, &ball));
    struct Case {
        float limit;
        int substeps;
    } cases[] = {{1.0f / 120.0f, 5}, {2.9f / 600.0f, 2}, {1.0f / 600.0f, 1}, {1.0f, 10}, {0.0f, 10}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.limit);
        FrameGraph g = schedule(sim, frame_def(1.0f / 60.0f, 10, c.limit));
        ASSERT_TRUE(g);
        cc_frame_schedule rec;
        CC_ASSERT_OK(cc_frame_graph_get_schedule(g.get(), &rec, nullptr, nullptr));
        EXPECT_EQ(rec.limit, c.substeps);
        EXPECT_EQ(rec.frames, 0);
        EXPECT_EQ(rec.passes, 0);
    }
}

TEST_P(FrameSchedule, BadSettingsAreRejectedAndCreateNothing)
{
    Sim sim;
    int ball = -1;
    ASSERT_TRUE(sphere_over_plane(sim, device(), speculating(1.0f), 0.5f, &ball));
    cc_state* states[2] = {sim.state[0].get(), sim.state[1].get()};
    struct Case {
        cc_frame_schedule_def def;
        cc_status status;
        const char* says;
    };
    cc_frame_schedule_def odd = frame_def(1.0f / 60.0f, 7);
    cc_frame_schedule_def short_limit = frame_def(1.0f / 60.0f, 10, 1.0f / 1200.0f);
    cc_frame_schedule_def negative = frame_def(1.0f / 60.0f, 10, -1.0f);
    cc_frame_schedule_def nan_limit = frame_def(1.0f / 60.0f, 10, NAN);
    cc_frame_schedule_def zero_frame = frame_def(0.0f, 10);
    cc_frame_schedule_def raw;
    std::memset(&raw, 0, sizeof raw);
    const Case cases[] = {
        {odd, CC_ERR_INVALID_ARGUMENT, "even"},
        {short_limit, CC_ERR_INVALID_ARGUMENT, "shorter than one substep"},
        {negative, CC_ERR_INVALID_ARGUMENT, "collision_dt_max"},
        {nan_limit, CC_ERR_INVALID_ARGUMENT, "collision_dt_max"},
        {zero_frame, CC_ERR_INVALID_ARGUMENT, "frame_dt"},
        {raw, CC_ERR_UNINITIALIZED_DEF, "cc_default_frame_schedule_def"},
    };
    for (const Case& c : cases) {
        cc_frame_graph* g = nullptr;
        EXPECT_EQ(cc_frame_graph_create_scheduled(sim.pipeline.get(), sim.solver.get(), states, &c.def, nullptr, &g),
                  c.status);
        EXPECT_EQ(g, nullptr);
        EXPECT_NE(std::strstr(cc_last_error_message(), c.says), nullptr) << cc_last_error_message();
    }
    // A pipeline without speculation has no reserve to keep.
    Sim plain;
    ASSERT_TRUE(sphere_over_plane(plain, device(), cc_default_pipeline_def(), 0.5f, &ball));
    cc_state* plain_states[2] = {plain.state[0].get(), plain.state[1].get()};
    cc_frame_schedule_def d = cc_default_frame_schedule_def();
    cc_frame_graph* g = nullptr;
    EXPECT_EQ(cc_frame_graph_create_scheduled(plain.pipeline.get(), plain.solver.get(), plain_states, &d, nullptr, &g),
              CC_ERR_INVALID_STATE);
    EXPECT_EQ(g, nullptr);
    EXPECT_NE(std::strstr(cc_last_error_message(), "speculative_contact_gap_max"), nullptr);
    // A fixed-schedule graph keeps no schedule.
    CC_ASSERT_OK(cc_frame_graph_create(sim.pipeline.get(), sim.solver.get(), states, 2, 1, 0.01f, nullptr, &g));
    FrameGraph fixed(g);
    cc_frame_schedule rec;
    EXPECT_EQ(cc_frame_graph_get_schedule(g, &rec, nullptr, nullptr), CC_ERR_INVALID_STATE);
}

CC_INSTANTIATE_DEVICE_TEST(FrameSchedule);

} // namespace
