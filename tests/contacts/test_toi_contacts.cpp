// Time-of-impact contacts (CC_SPECULATIVE_TOI): a fast small sphere stops
// at a thin plate directly and in frame graphs; the advancement's time of
// impact against closed forms (sphere-plane, sphere-sphere, box-box) and
// its safety on random fast pairs of every convex type (never a pose in
// overlap, certified by the support functions alone, within its cap); the
// line of sight (the effective distance for every law and integrator is
// test_speculative_contacts.cpp's, in both modes);
// slow scenes unchanged; bad input.
#include <cmath>
#include <algorithm>
#include <cstring>
#include <random>

#include "kernels/contacts/toi.h"
#include "tests/support/test_hull.h"
#include "tests/support/step_util.h"

using namespace cctest;

namespace {

class Toi : public DeviceTest {};

const float kFrameDt = 1.0f / 60.0f;

cc_pipeline_def toi_def(float gap_max = 2.0f)
{
    cc_pipeline_def d = cc_default_pipeline_def();
    d.speculative_contact_gap_max = gap_max;
    d.speculative_mode = CC_SPECULATIVE_TOI;
    return d;
}

cc_speculation_stats stats_of(cc_pipeline* p)
{
    cc_speculation_stats s;
    EXPECT_EQ(cc_pipeline_get_speculation_stats(p, &s), CC_OK) << cc_last_error_message();
    return s;
}

// A simulation of the TOI pipeline (e_max `gap_max`) whose passes look one
// frame ahead; false (with a failure) when it cannot be made.
bool create_toi(Sim& sim, const Builder& b, cc_device device, float gap_max = 2.0f)
{
    cc_pipeline_def pd = toi_def(gap_max);
    if (!sim.create(b.get(), device, cc_default_solver_def(), &pd)) return false;
    EXPECT_EQ(cc_pipeline_set_collision_dt(sim.pipeline.get(), kFrameDt), CC_OK) << cc_last_error_message();
    return true;
}

// The rows of the last pass (points at the current state).
std::vector<cc_contact> rows_of(Sim& sim)
{
    std::vector<cc_contact> out((size_t)cc_contacts_capacity(sim.contacts.get()));
    int n = 0;
    EXPECT_EQ(cc_contacts_download(sim.contacts.get(), sim.state[sim.current].get(), out.data(), (int)out.size(), &n),
              CC_OK);
    out.resize((size_t)std::min<int>(n, (int)out.size()));
    return out;
}

// How many rows of the last pass join shapes s and t (either order).
int rows_between(Sim& sim, int s, int t)
{
    int n = 0;
    for (const cc_contact& c : rows_of(sim)) n += (c.shape0 == s && c.shape1 == t) || (c.shape0 == t && c.shape1 == s);
    return n;
}

// A 1 cm sphere 1 m above the top of a 1 cm plate (1 m square) on a static
// body, shot down at 100 m/s under gravity.
struct Bullet {
    Sim sim;
    int ball = -1;
    bool make(cc_device dev, const cc_pipeline_def& pd, const cc_solver_def& sd = cc_default_solver_def())
    {
        Builder b = make_builder_with_gravity({0, 0, -9.81f}, 0.0f);
        cc_shape_def def = cc_default_shape_def();
        int plate = add_body(b.get(), {0, 0, 0}, {0, 0, 0, 1}, 1);
        EXPECT_EQ(cc_builder_add_box(b.get(), plate, {0.5f, 0.5f, 0.005f}, &def, nullptr), CC_OK);
        ball = add_body(b.get(), {0.01f, -0.02f, 0.005f + 0.01f + 1.0f});
        EXPECT_EQ(cc_builder_add_sphere(b.get(), ball, 0.01f, &def, nullptr), CC_OK);
        if (!sim.create(b.get(), dev, sd, &pd)) return false;
        sim.set_velocity(ball, {0, 0, -100});
        return true;
    }
    void expect_on_the_plate()
    {
        float z = sim.pose(ball).p.z;
        EXPECT_GT(z, 0.005f + 0.01f - 0.002f) << "resting on the plate, at most 2 mm in";
        EXPECT_LT(z, 0.005f + 0.01f + 0.001f);
        EXPECT_LT(std::fabs(sim.linear(ball).z), 0.5f);
    }
};

TEST_P(Toi, AFastSphereStopsAtAThinPlate)
{
    Bullet on;
    ASSERT_TRUE(on.make(device(), toi_def()));
    CC_ASSERT_OK(cc_pipeline_set_collision_dt(on.sim.pipeline.get(), kFrameDt));
    // The first pass sweeps the sphere and finds its impact at 0.6 of the
    // horizon: one row, flagged, whose distance is the travel to it.
    ASSERT_TRUE(on.sim.run(1, kFrameDt));
    cc_speculation_stats st = stats_of(on.sim.pipeline.get());
    EXPECT_EQ(st.fast_shapes, 1);
    EXPECT_EQ(st.swept_pairs, 1);
    EXPECT_EQ(st.toi_contacts, 1);
    EXPECT_EQ(st.capped_searches, 0);
    EXPECT_LE(st.iterations_max, 2) << "a translation toward a face converges in one step";
    std::vector<cc_contact> rows = rows_of(on.sim);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_NE(rows[0].speculative, 0);
    EXPECT_NEAR(rows[0].distance, 1.0f, 1e-4f);
    EXPECT_NEAR(std::fabs(rows[0].normal.z), 1.0f, 1e-5f);
    EXPECT_NEAR(on.sim.pose(on.ball).p.z, 0.015f, 1e-4f) << "landed on the plate at the step's end";
    ASSERT_TRUE(on.sim.run(29, kFrameDt));
    on.expect_on_the_plate();
}

TEST_P(Toi, EveryBroadPhaseFindsTheSweptPair)
{
    // The sphere's swept box reaches the plate in every broad phase; its
    // unswept box is a metre away.
    for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
        SCOPED_TRACE(cc_broad_phase_name(bp));
        cc_pipeline_def pd = toi_def();
        pd.broad_phase = bp;
        Bullet on;
        ASSERT_TRUE(on.make(device(), pd));
        CC_ASSERT_OK(cc_pipeline_set_collision_dt(on.sim.pipeline.get(), kFrameDt));
        ASSERT_TRUE(on.sim.run(30, kFrameDt));
        on.expect_on_the_plate();
    }
}

TEST_P(Toi, AFastSphereStopsAtAThinPlateInFrameGraphs)
{
    // A fixed frame (four substeps, colliding every second) and a scheduled
    // one: both stop the sphere, and the fixed graph's replay equals a
    // direct loop with the same horizons to the bit.
    const float dt = kFrameDt / 4.0f;
    cc_pipeline_def pd = toi_def();
    pd.deterministic = 1;
    cc_solver_def sd = cc_default_solver_def();
    sd.deterministic = 1;
    Bullet direct, graph, scheduled;
    ASSERT_TRUE(direct.make(device(), pd, sd));
    ASSERT_TRUE(graph.make(device(), pd, sd));
    ASSERT_TRUE(scheduled.make(device(), pd, sd));
    for (int f = 0; f < 30; ++f)
        for (int k = 0; k < 4; ++k) {
            Sim& s = direct.sim;
            cc_state* in = s.state[s.current].get();
            cc_state* out = s.state[1 - s.current].get();
            if (k % 2 == 0) {
                CC_ASSERT_OK(cc_pipeline_set_collision_dt(s.pipeline.get(), 2 * dt));
                CC_ASSERT_OK(cc_collide(s.pipeline.get(), in, s.contacts.get(), nullptr));
            }
            CC_ASSERT_OK(cc_step(s.solver.get(), in, out, s.contacts.get(), dt, nullptr));
            s.current = 1 - s.current;
        }
    cc_state* states[2] = {graph.sim.state[0].get(), graph.sim.state[1].get()};
    cc_frame_graph* g = nullptr;
    CC_ASSERT_OK(
        cc_frame_graph_create(graph.sim.pipeline.get(), graph.sim.solver.get(), states, 4, 2, dt, nullptr, &g));
    FrameGraph owned(g);
    for (int f = 0; f < 30; ++f) CC_ASSERT_OK(cc_frame_graph_launch(g, nullptr));
    graph.sim.current = 0;
    std::vector<float> a = direct.sim.snapshot(), b = graph.sim.snapshot();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float)));
    direct.expect_on_the_plate();
    graph.expect_on_the_plate();

    cc_state* sstates[2] = {scheduled.sim.state[0].get(), scheduled.sim.state[1].get()};
    cc_frame_schedule_def def = cc_default_frame_schedule_def();
    def.frame_dt = kFrameDt;
    def.substeps = 4;
    cc_frame_graph* sg = nullptr;
    CC_ASSERT_OK(cc_frame_graph_create_scheduled(scheduled.sim.pipeline.get(), scheduled.sim.solver.get(), sstates,
                                                 &def, nullptr, &sg));
    FrameGraph sowned(sg);
    for (int f = 0; f < 30; ++f) CC_ASSERT_OK(cc_frame_graph_launch(sg, nullptr));
    scheduled.sim.current = 0;
    scheduled.expect_on_the_plate();
}

TEST_P(Toi, TheLineOfSightHidesTheFloorUnderATable)
{
    // A box falling at 80 m/s toward a floor under a 2 cm table top (both
    // of the world), horizon 1/60 s: its sweep reaches both, and the floor
    // lies behind the table. Beside the table it gets the floor's contact.
    for (float x : {0.0f, 2.0f}) {
        SCOPED_TRACE(testing::Message() << "box at x " << x);
        Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
        cc_shape_def def = cc_default_shape_def();
        int floor = -1, table = -1, box = -1;
        CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, &floor));
        cc_shape_def top = cc_default_shape_def();
        top.local.p = {0.0f, 0.0f, 0.5f};
        CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {0.5f, 0.5f, 0.01f}, &top, &table));
        int body = add_body(b.get(), {x, 0.0f, 1.2f});
        CC_ASSERT_OK(cc_builder_add_box(b.get(), body, {0.05f, 0.05f, 0.05f}, &def, &box));
        Sim sim;
        ASSERT_TRUE(create_toi(sim, b, device()));
        sim.set_velocity(body, {0, 0, -80});
        CC_ASSERT_OK(cc_collide(sim.pipeline.get(), sim.now(), sim.contacts.get(), nullptr));
        std::vector<cc_contact> rows = rows_of(sim);
        cc_speculation_stats st = stats_of(sim.pipeline.get());
        int with_table = 0, with_floor = 0;
        for (const cc_contact& c : rows) {
            EXPECT_NE(c.speculative, 0);
            with_table += c.shape0 == table || c.shape1 == table;
            with_floor += c.shape0 == floor || c.shape1 == floor;
        }
        if (x == 0.0f) {
            EXPECT_EQ(with_table, 4) << "the box's bottom face on the table top";
            EXPECT_EQ(with_floor, 0);
            EXPECT_EQ(st.occluded_pairs, 1);
            for (const cc_contact& c : rows) EXPECT_NEAR(c.distance, 1.15f - 0.51f, 1e-4f);
        } else {
            EXPECT_EQ(with_table, 0);
            EXPECT_EQ(with_floor, 4);
            EXPECT_EQ(st.occluded_pairs, 0);
        }
        EXPECT_EQ(st.fast_shapes, 1);
    }
}

TEST_P(Toi, AFreeBodyHidesOnlyUntilTheFastBodySinksIntoIt)
{
    // The same fall onto a free 2 cm board where the table was. While the
    // box is clear of the board, the board hides the floor (it takes the
    // blow and passes it on through its own contacts); once the box has
    // sunk 1 cm into the board's edge, the board only pushes it out
    // sideways, and the floor behind keeps its contact.
    for (float sunk : {0.0f, 0.01f}) {
        SCOPED_TRACE(testing::Message() << "box sunk " << sunk << " m into the board");
        Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
        cc_shape_def def = cc_default_shape_def();
        int floor = -1, board = -1;
        CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, &floor));
        int free_board = add_body(b.get(), {0.0f, 0.0f, 0.5f});
        CC_ASSERT_OK(cc_builder_add_box(b.get(), free_board, {0.5f, 0.5f, 0.01f}, &def, &board));
        // Clear: 0.64 m above the board. Sunk: beside the board's +x edge,
        // 1 cm into it, level with it.
        cc_vec3 at = sunk > 0.0f ? cc_vec3{0.5f + 0.05f - sunk, 0.0f, 0.5f} : cc_vec3{0.0f, 0.0f, 1.2f};
        int body = add_body(b.get(), at);
        CC_ASSERT_OK(cc_builder_add_box(b.get(), body, {0.05f, 0.05f, 0.05f}, &def, nullptr));
        Sim sim;
        ASSERT_TRUE(create_toi(sim, b, device()));
        sim.set_velocity(body, {0, 0, -80});
        CC_ASSERT_OK(cc_collide(sim.pipeline.get(), sim.now(), sim.contacts.get(), nullptr));
        int with_floor = rows_between(sim, 2, floor);
        EXPECT_GT(rows_between(sim, 2, board), 0);
        if (sunk > 0.0f) {
            EXPECT_EQ(with_floor, 4) << "the floor behind a body the box is inside";
        } else {
            EXPECT_EQ(with_floor, 0) << "the floor behind a free board the box has not reached";
            EXPECT_EQ(stats_of(sim.pipeline.get()).occluded_pairs, 1);
        }
    }
}

TEST_P(Toi, ABulletInsideTheSideOfAFreeBallStillStopsAtThePlate)
{
    // A 1 cm sphere already 1.5 cm into the side of a free 5 cm ball that
    // rests on a 1 cm plate, falling at 100 m/s: the ball pushes it out
    // sideways only and it goes on down through the ball's side, so the
    // plate's contact, which the ball stands in front of, must stop it.
    Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
    cc_shape_def def = cc_default_shape_def();
    def.gap = 0.002f;
    cc_shape_def top = def;
    top.local.p = {0.0f, 0.0f, -0.005f};
    CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {1.0f, 1.0f, 0.005f}, &top, nullptr));
    int ball = add_body(b.get(), {0.0f, 0.0f, 0.05f});
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.05f, &def, nullptr));
    int bullet = add_body(b.get(), {0.045f, 0.0f, 0.06f});
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), bullet, 0.01f, &def, nullptr));
    Sim sim;
    cc_pipeline_def pd = toi_def();
    ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
    sim.set_velocity(bullet, {0, 0, -100});
    ASSERT_TRUE(run_collide_every(sim, 16, 1, 1.0f / 120.0f, [&](int k) {
        float z = sim.pose(bullet).p.z;
        EXPECT_GT(z, 0.01f - 2e-3f) << "substep " << k << ": the bullet more than 2 mm into the plate";
        return z > 0.01f - 2e-3f;
    }));
}

TEST_P(Toi, PlanesAwayFromTheOriginAreSweptWhereTheyAre)
{
    // A sphere 0.3 m above a floor plane at height h, and 0.3 m from a wall
    // plane at x = w facing -x, closing at 30 m/s with a 1/60 s horizon:
    // one step lands it on each (t = 0.6), wherever the plane lies.
    for (float h : {-1.0f, 0.0f, 2.0f}) {
        SCOPED_TRACE(h);
        Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
        cc_shape_def floor = cc_default_shape_def();
        floor.local.p = {0.0f, 0.0f, h};
        CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &floor, nullptr));
        cc_shape_def wall = cc_default_shape_def();
        wall.local.p = {5.0f + h, 0.0f, 0.0f};
        wall.local.q = {0.0f, -0.70710678f, 0.0f, 0.70710678f}; /* +z to -x */
        CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &wall, nullptr));
        int down = add_body(b.get(), {0.0f, 0.0f, h + 0.4f});
        cc_shape_def d = cc_default_shape_def();
        CC_ASSERT_OK(cc_builder_add_sphere(b.get(), down, 0.1f, &d, nullptr));
        int side = add_body(b.get(), {4.6f + h, 0.0f, h + 3.0f});
        CC_ASSERT_OK(cc_builder_add_sphere(b.get(), side, 0.1f, &d, nullptr));
        Sim sim;
        ASSERT_TRUE(create_toi(sim, b, device(), 1.0f));
        sim.set_velocity(down, {0, 0, -30});
        sim.set_velocity(side, {30, 0, 0});
        ASSERT_TRUE(sim.run(1, kFrameDt));
        EXPECT_EQ(stats_of(sim.pipeline.get()).toi_contacts, 2);
        EXPECT_NEAR(sim.pose(down).p.z, h + 0.1f, 1e-5f);
        EXPECT_NEAR(sim.linear(down).z, -18.0f, 0.18f);
        EXPECT_NEAR(sim.pose(side).p.x, 4.9f + h, 1e-5f);
        EXPECT_NEAR(sim.linear(side).x, 18.0f, 0.18f);
    }
}

TEST_P(Toi, BodiesShotAtAWallWithoutGapsNeverPassIt)
{
    // Spheres and boxes shot at 20-100 m/s along x at a 2 cm wall, no
    // gravity and no gaps: the pass after the landing finds the body
    // touching and still closing, and keeps the row (arrested).
    for (int k = 0; k < 12; ++k) {
        SCOPED_TRACE(k);
        float speed = 20.0f + 80.0f * (float)k / 11.0f;
        Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
        cc_shape_def wall = cc_default_shape_def();
        wall.local.p = {1.0f, 0.0f, 0.0f};
        CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {0.01f, 1.0f, 1.0f}, &wall, nullptr));
        int body = add_body(b.get(), {0.0f, 0.01f * (float)k, 0.0f});
        cc_shape_def d = cc_default_shape_def();
        if (k % 2) CC_ASSERT_OK(cc_builder_add_box(b.get(), body, {0.05f, 0.04f, 0.03f}, &d, nullptr));
        else CC_ASSERT_OK(cc_builder_add_sphere(b.get(), body, 0.05f, &d, nullptr));
        Sim sim;
        ASSERT_TRUE(create_toi(sim, b, device()));
        sim.set_velocity(body, {speed, 0, 0});
        for (int step = 0; step < 12; ++step) {
            ASSERT_TRUE(sim.run(1, kFrameDt));
            ASSERT_LT(sim.pose(body).p.x, 0.99f - 0.05f + 2e-3f) << "step " << step;
        }
        EXPECT_LT(std::fabs(sim.linear(body).x), 0.5f);
    }
}

TEST_P(Toi, ShapesBesideTheContactHideNothing)
{
    // A box sliding at 60 m/s on a floor (resting on it, or 1 mm into it)
    // toward a thin wall sunk into the floor: the floor holds both ends of
    // the line of sight and is not between them. A finite plane patch off
    // to the side of a falling sphere's path hides nothing below it either.
    for (float sunk : {0.0f, 0.001f}) {
        SCOPED_TRACE(sunk);
        Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
        cc_shape_def def = cc_default_shape_def();
        CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr));
        cc_shape_def wall = cc_default_shape_def();
        wall.local.p = {1.5f, 0.0f, 0.4f};
        wall.local.q = {0.0f, 0.0174524f, 0.0f, 0.9998477f}; /* tilted by 2 degrees */
        int wall_shape = -1;
        CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {0.01f, 1.0f, 0.5f}, &wall, &wall_shape));
        int box = add_body(b.get(), {0.8f, 0.0f, 0.1f - sunk});
        CC_ASSERT_OK(cc_builder_add_box(b.get(), box, {0.1f, 0.1f, 0.1f}, &def, nullptr));
        Sim sim;
        ASSERT_TRUE(create_toi(sim, b, device()));
        sim.set_velocity(box, {60, 0, 0});
        CC_ASSERT_OK(cc_collide(sim.pipeline.get(), sim.now(), sim.contacts.get(), nullptr));
        int with_wall = 0;
        for (const cc_contact& c : rows_of(sim)) with_wall += c.shape0 == wall_shape || c.shape1 == wall_shape;
        EXPECT_GT(with_wall, 0);
        EXPECT_EQ(stats_of(sim.pipeline.get()).occluded_pairs, 0);
        ASSERT_TRUE(sim.run(30, kFrameDt));
        EXPECT_LT(sim.pose(box).p.x, 1.5f) << "stopped at the wall";
    }
    Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
    cc_shape_def def = cc_default_shape_def();
    CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {2.0f, 2.0f, 0.005f}, &def, nullptr));
    cc_shape_def patch = cc_default_shape_def();
    patch.local.p = {1.0f, 0.0f, 0.3f};
    CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.2f, 0.2f, &patch, nullptr));
    int ball = add_body(b.get(), {0.0f, 0.0f, 1.0f});
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.01f, &def, nullptr));
    Sim sim;
    ASSERT_TRUE(create_toi(sim, b, device()));
    sim.set_velocity(ball, {0, 0, -80});
    ASSERT_TRUE(sim.run(30, kFrameDt));
    EXPECT_EQ(stats_of(sim.pipeline.get()).occluded_pairs, 0);
    EXPECT_GT(sim.pose(ball).p.z, 0.015f - 2e-3f) << "stopped on the floor, not through it";
    EXPECT_LT(sim.pose(ball).p.z, 0.1f);
}

TEST_P(Toi, AThickTableHidesTheBoxOnItFromBelow)
{
    // A 5 cm table top with a box resting on it, and a sphere shot up at it
    // from below at 60 m/s: the table holds the box's end of the line of
    // sight but lies across the rest, so the sphere gets the table's
    // contact and not the box's.
    Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
    cc_shape_def top = cc_default_shape_def();
    top.local.p = {0.0f, 0.0f, 0.5f};
    int table = -1, box = -1;
    CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {0.5f, 0.5f, 0.025f}, &top, &table));
    cc_shape_def def = cc_default_shape_def();
    int resting = add_body(b.get(), {0.0f, 0.0f, 0.625f});
    CC_ASSERT_OK(cc_builder_add_box(b.get(), resting, {0.1f, 0.1f, 0.1f}, &def, &box));
    int ball = add_body(b.get(), {0.02f, 0.0f, 0.0f});
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.02f, &def, nullptr));
    Sim sim;
    ASSERT_TRUE(create_toi(sim, b, device()));
    sim.set_velocity(ball, {0, 0, 60});
    CC_ASSERT_OK(cc_collide(sim.pipeline.get(), sim.now(), sim.contacts.get(), nullptr));
    EXPECT_EQ(rows_between(sim, 2, table), 1);
    EXPECT_EQ(rows_between(sim, 2, box), 0);
    EXPECT_EQ(stats_of(sim.pipeline.get()).occluded_pairs, 1);
}

TEST_P(Toi, OnlyShapesThatCouldCollideWithBothHide)
{
    // The table of the line-of-sight scene, but filtered against the
    // falling box by its bits: the box would pass through it, so it hides
    // nothing and the floor gets the contact.
    Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
    cc_shape_def def = cc_default_shape_def();
    int floor = -1;
    CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, &floor));
    cc_shape_def top = cc_default_shape_def();
    top.local.p = {0.0f, 0.0f, 0.5f};
    top.collision_type_bits = 2u;
    top.collision_affinity_bits = 2u;
    CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {0.5f, 0.5f, 0.01f}, &top, nullptr));
    int body = add_body(b.get(), {0.0f, 0.0f, 1.2f});
    cc_shape_def boxdef = cc_default_shape_def();
    boxdef.collision_type_bits = 1u;
    boxdef.collision_affinity_bits = 1u;
    CC_ASSERT_OK(cc_builder_add_box(b.get(), body, {0.05f, 0.05f, 0.05f}, &boxdef, nullptr));
    Sim sim;
    ASSERT_TRUE(create_toi(sim, b, device()));
    sim.set_velocity(body, {0, 0, -80});
    CC_ASSERT_OK(cc_collide(sim.pipeline.get(), sim.now(), sim.contacts.get(), nullptr));
    int with_floor = 0;
    for (const cc_contact& c : rows_of(sim)) with_floor += c.shape0 == floor || c.shape1 == floor;
    EXPECT_EQ(with_floor, 4);
    EXPECT_EQ(stats_of(sim.pipeline.get()).occluded_pairs, 0);
}

TEST_P(Toi, ATurningBodyLandsWhereItsHorizonSaysAcrossSeveralSteps)
{
    // A 5 mm sphere coming in at 130 m/s from 7 m away, turning slowly,
    // toward a 1 cm plate, colliding every 4 steps of 1/60 s: the impact is
    // 3.5 steps ahead. The row's points stay on the sphere's surface and
    // the step measures each body's own point, so the sphere lands on the
    // plate at the end of the impact's step (a point 2 m off the sphere,
    // turned with it, let it through), and the next pass stops it there.
    Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
    cc_shape_def plate = cc_default_shape_def();
    CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {0.523f, 0.968f, 0.005f}, &plate, nullptr));
    int ball = add_body(b.get(), {-5.4627f, -3.2448f, 4.4032f});
    cc_shape_def d = cc_default_shape_def();
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.005f, &d, nullptr));
    Sim sim;
    cc_pipeline_def pd = toi_def(11.2f);
    ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
    sim.set_velocity(ball, {89.06f, 54.109f, -74.56f}, {-0.542f, 1.421f, -4.452f});
    ASSERT_TRUE(run_collide_every(sim, 4, 4, kFrameDt, [](int) { return true; }));
    EXPECT_NEAR(sim.pose(ball).p.z, 0.01f, 1e-3f) << "on the plate's top at the impact's step end";
    ASSERT_TRUE(run_collide_every(sim, 4, 4, kFrameDt, [](int) { return true; }));
    EXPECT_NEAR(sim.pose(ball).p.z, 0.01f, 1e-3f) << "stopped there";
    EXPECT_NEAR(sim.linear(ball).z, 0.0f, 0.5f);
}

TEST_P(Toi, ANearMissWithinTheSearchClearanceIsNoImpact)
{
    // A 1 cm sphere at 124 m/s whose straight path passes a plate's edge
    // 10 cm away, swept from 5 m: the search's 2 % clearance (10 cm) would
    // count it a hit; the refinement proves that the two never meet, so the
    // sphere flies on undeflected.
    Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
    cc_shape_def plate = cc_default_shape_def();
    CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {0.5f, 0.5f, 0.005f}, &plate, nullptr));
    const float vx = 30.0f, vz = 120.0f, L = std::sqrt(vx * vx + vz * vz);
    const float nx = vz / L, nz = -vx / L; /* square to the path, away from the plate */
    cc_vec3 pass = {0.5f + nx * 0.11f, 0.0f, -0.005f + nz * 0.11f};
    int ball = add_body(b.get(), {pass.x + vx / L * 5.0f, 0.0f, pass.z + vz / L * 5.0f});
    cc_shape_def d = cc_default_shape_def();
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.01f, &d, nullptr));
    Sim sim;
    cc_pipeline_def pd = toi_def(8.0f);
    ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
    sim.set_velocity(ball, {-vx, 0, -vz});
    ASSERT_TRUE(run_collide_every(sim, 6, 3, kFrameDt, [](int) { return true; }));
    EXPECT_NEAR(sim.linear(ball).x, -vx, 1e-3f);
    EXPECT_NEAR(sim.linear(ball).z, -vz, 1e-3f);
}

TEST_P(Toi, ASpinningCapsuleThatLandsIsNotThrownBack)
{
    // A capsule at 60 m/s spinning at 100 rad/s, colliding every 4 steps:
    // its impact arrests it at the plate, and nothing throws it back up
    // faster than its spin's surface speed (6 m/s at the ends); a row point
    // off its surface, turned with it, threw it up at 40 m/s.
    Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
    cc_shape_def plate = cc_default_shape_def();
    CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {1.0f, 1.0f, 0.005f}, &plate, nullptr));
    int body = add_body(b.get(), {0.0f, 0.0f, 1.0f});
    cc_shape_def d = cc_default_shape_def();
    CC_ASSERT_OK(cc_builder_add_capsule(b.get(), body, 0.01f, 0.05f, &d, nullptr));
    Sim sim;
    cc_pipeline_def pd = toi_def(8.0f);
    ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
    sim.set_velocity(body, {0, 0, -60}, {100, 0, 0});
    ASSERT_TRUE(run_collide_every(sim, 12, 4, kFrameDt, [](int) { return true; }));
    EXPECT_GT(sim.pose(body).p.z, 0.0f) << "above the plate";
    EXPECT_LT(sim.linear(body).z, 6.0f) << "not thrown back";
}

TEST_P(Toi, SlowBodiesGetTheContactsOfNoSpeculation)
{
    // A box on a plane and a sphere on the box, settled: no shape is fast,
    // nothing is swept, and the rows equal those of speculation off.
    auto settle = [&](bool toi, std::vector<cc_contact>* out, cc_speculation_stats* st) {
        Builder b = make_builder(0.01f);
        cc_shape_def def = cc_default_shape_def();
        ASSERT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr), CC_OK);
        int box = add_body(b.get(), {0, 0, 0.1f});
        ASSERT_EQ(cc_builder_add_box(b.get(), box, {0.2f, 0.2f, 0.1f}, &def, nullptr), CC_OK);
        int ball = add_body(b.get(), {0, 0, 0.3f});
        ASSERT_EQ(cc_builder_add_sphere(b.get(), ball, 0.1f, &def, nullptr), CC_OK);
        int cyl = add_body(b.get(), {0.5f, 0, 0.1f});
        ASSERT_EQ(cc_builder_add_cylinder(b.get(), cyl, 0.1f, 0.1f, &def, nullptr), CC_OK);
        cc_pipeline_def pd = toi ? toi_def(0.1f) : cc_default_pipeline_def();
        pd.deterministic = 1;
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
        if (toi) CC_ASSERT_OK(cc_pipeline_set_collision_dt(sim.pipeline.get(), 1.0e-3f));
        ASSERT_TRUE(sim.run(2000, 1.0e-3f));
        if (toi) CC_ASSERT_OK(cc_pipeline_set_collision_dt(sim.pipeline.get(), kFrameDt));
        CC_ASSERT_OK(cc_collide(sim.pipeline.get(), sim.now(), sim.contacts.get(), nullptr));
        *out = rows_of(sim);
        *st = stats_of(sim.pipeline.get());
    };
    std::vector<cc_contact> off, on;
    cc_speculation_stats st_off, st_on;
    settle(false, &off, &st_off);
    settle(true, &on, &st_on);
    ASSERT_FALSE(off.empty());
    EXPECT_EQ(st_on.fast_shapes, 0);
    EXPECT_EQ(st_on.swept_pairs, 0);
    ASSERT_EQ(off.size(), on.size());
    EXPECT_EQ(0, std::memcmp(off.data(), on.data(), off.size() * sizeof(cc_contact)));
}

TEST_P(Toi, BadModesAreRejectedAndTheGapModeSweepsNothing)
{
    Builder b = make_builder(0.0f);
    cc_shape_def sd = cc_default_shape_def();
    int body = add_body(b.get(), {0, 0, 0});
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), body, 0.1f, &sd, nullptr));
    cc_model* m = nullptr;
    CC_ASSERT_OK(cc_builder_finalize(b.get(), device(), &m));
    Model model(m);
    for (int bad : {-1, 2, 99}) {
        cc_pipeline_def pd = toi_def();
        pd.speculative_mode = (cc_speculative_mode)bad;
        cc_pipeline* p = nullptr;
        EXPECT_EQ(cc_pipeline_create(m, &pd, &p), CC_ERR_INVALID_ARGUMENT);
        EXPECT_EQ(p, nullptr);
        EXPECT_NE(std::string(cc_last_error_message()).find("speculative_mode"), std::string::npos);
    }
    EXPECT_EQ(cc_pipeline_get_speculation_stats(nullptr, nullptr), CC_ERR_INVALID_ARGUMENT);
    // The gap mode shoots the same bullet without sweeping.
    cc_pipeline_def gap = toi_def();
    gap.speculative_mode = CC_SPECULATIVE_GAP;
    Bullet g;
    ASSERT_TRUE(g.make(device(), gap));
    CC_ASSERT_OK(cc_pipeline_set_collision_dt(g.sim.pipeline.get(), kFrameDt));
    ASSERT_TRUE(g.sim.run(1, kFrameDt));
    cc_speculation_stats st = stats_of(g.sim.pipeline.get());
    EXPECT_EQ(st.fast_shapes + st.swept_pairs + st.toi_contacts, 0);
    cc_pipeline_info info;
    CC_ASSERT_OK(cc_pipeline_get_info(g.sim.pipeline.get(), &info));
    EXPECT_EQ(info.speculative_mode, CC_SPECULATIVE_GAP);
}

// Two shapes for the advancement, each on its own body (or the world).
struct SweptPair {
    int ta, tb;
    cc_geom a, b;
    cc_shape_motion ma, mb;
    float thick = 0.0f;
};

cc_shape_motion motion_of(cc_vec3 com, cc_vec3 shift, cc_vec3 turn, float radius)
{
    cc_shape_motion m;
    m.com = com;
    m.shift = shift;
    m.turn = turn;
    m.radius = radius;
    m.sweep = cc_v3_length(shift) + cc_v3_length(turn) * radius;
    return m;
}

cc_geom geom_of(cc_vec3 p, cc_quat q, cc_vec3 size)
{
    cc_geom g;
    g.xf = cc_tf(p, q);
    g.size = size;
    g.hull = cc_hull_ref_none();
    return g;
}

cc_advance advance(const SweptPair& s, float margin = 0.0f)
{
    cc_sweep_gap g = cc_sweep_separation(s.ta, &s.a, s.tb, &s.b, cc_v3(0, 0, 0));
    EXPECT_TRUE(g.apart);
    return cc_conservative_advance(s.ta, &s.a, &s.ma, s.tb, &s.b, &s.mb, s.thick, margin, g.core - s.thick, g.n);
}

TEST(ToiSearch, ImpactTimesMatchClosedForms)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int trial = 0; trial < 200; ++trial) {
        // A sphere of radius 0.05 toward the plane z = 0 from height h at
        // speed v (translation only, any tangential part): t = (h - r) / v_z.
        {
            float h = 0.2f + 0.5f * (u(rng) + 1.0f), vz = -(h - 0.05f) / (0.05f + 0.9f * (0.5f * u(rng) + 0.5f));
            SweptPair s;
            s.ta = CC_SHAPE_PLANE;
            s.tb = CC_SHAPE_SPHERE;
            s.a = geom_of({0, 0, 0}, cc_q_identity(), {0, 0, 0});
            s.b = geom_of({u(rng), u(rng), h}, cc_q_identity(), {0.05f, 0, 0});
            s.ma = motion_of({0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 0.0f);
            s.mb = motion_of(s.b.xf.p, {u(rng), u(rng), vz}, {0, 0, 0}, 0.05f);
            s.thick = 0.05f;
            cc_advance r = advance(s);
            ASSERT_TRUE(r.hit);
            EXPECT_NEAR(r.impact, (h - 0.05f) / -vz, 1e-3f);
        }
        // Two spheres (0.1 and 0.2) closing head-on with an offset: the
        // root of |p + t v| = r_a + r_b.
        {
            cc_vec3 p = {1.0f + u(rng), 0.3f * u(rng), 0.3f * u(rng)};
            cc_vec3 v = {-2.0f - u(rng), 0.2f * u(rng), 0.2f * u(rng)};
            float R = 0.3f;
            float A = cc_v3_dot(v, v), B = 2.0f * cc_v3_dot(p, v), C = cc_v3_dot(p, p) - R * R;
            float disc = B * B - 4 * A * C;
            if (disc <= 0.0f) continue;
            float t = (-B - std::sqrt(disc)) / (2 * A);
            if (!(t > 0.0f && t < 0.95f)) continue;
            SweptPair s;
            s.ta = s.tb = CC_SHAPE_SPHERE;
            s.a = geom_of({0, 0, 0}, cc_q_identity(), {0.1f, 0, 0});
            s.b = geom_of(p, cc_q_identity(), {0.2f, 0, 0});
            s.ma = motion_of(s.a.xf.p, {0, 0, 0}, {0, 0, 0}, 0.1f);
            s.mb = motion_of(p, v, {0, 0, 0}, 0.2f);
            s.thick = R;
            cc_advance r = advance(s);
            ASSERT_TRUE(r.hit);
            EXPECT_NEAR(r.impact, t, 1e-3f);
        }
        // Two axis-aligned boxes, one sliding toward the other's face along
        // x with a tangential offset: t = gap / v_x.
        {
            float gap = 0.1f + 0.8f * (0.5f * u(rng) + 0.5f), vx = -(gap / (0.1f + 0.85f * (0.5f * u(rng) + 0.5f)));
            SweptPair s;
            s.ta = s.tb = CC_SHAPE_BOX;
            s.a = geom_of({0, 0, 0}, cc_q_identity(), {0.2f, 0.3f, 0.4f});
            s.b = geom_of({0.2f + 0.1f + gap, 0.2f * u(rng), 0.2f * u(rng)}, cc_q_identity(), {0.1f, 0.1f, 0.1f});
            s.ma = motion_of(s.a.xf.p, {0, 0, 0}, {0, 0, 0}, 0.6f);
            s.mb = motion_of(s.b.xf.p, {vx, 0.1f * u(rng), 0.1f * u(rng)}, {0, 0, 0}, 0.18f);
            cc_advance r = advance(s);
            ASSERT_TRUE(r.hit);
            EXPECT_NEAR(r.impact, gap / -vx, 1e-3f);
        }
    }
}

// A random rotation.
cc_quat random_quat(std::mt19937& rng)
{
    std::normal_distribution<float> g(0.0f, 1.0f);
    return cc_q_normalize(cc_q(g(rng), g(rng), g(rng), g(rng)));
}

// A random convex shape of `type` about `size` across, its thickness (the
// effective radius) and its bounding radius about its centre.
cc_geom random_shape(std::mt19937& rng, int type, float size, const TestHull* hull, float* thick, float* radius)
{
    std::uniform_real_distribution<float> u(0.2f, 1.0f);
    cc_vec3 s = {size * u(rng), size * u(rng), size * u(rng)};
    cc_geom g = geom_of({0, 0, 0}, random_quat(rng), s);
    *thick = 0.0f;
    switch (type) {
    case CC_SHAPE_SPHERE: g.size = {s.x, 0, 0}; *thick = s.x; *radius = s.x; break;
    case CC_SHAPE_CAPSULE: g.size = {s.x, s.y, 0}; *thick = s.x; *radius = s.x + s.y; break;
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: g.size = {s.x, s.y, 0}; *radius = std::sqrt(s.x * s.x + s.y * s.y); break;
    case CC_SHAPE_CONVEX_HULL:
        g.hull = hull->ref;
        *radius = cc_v3_length(s) * 2.0f; /* the hull's points lie within 2 of its origin */
        break;
    default: *radius = cc_v3_length(s); break;
    }
    return g;
}

// The separation of a and b along n from their support functions alone:
// a lower bound of their signed core distance, independent of GJK.
float support_separation(int ta, const cc_geom& a, int tb, const cc_geom& b, cc_vec3 n)
{
    cc_vec3 origin = a.xf.p;
    cc_convex cb = cc_convex_of(&b, tb, origin);
    float low_b = cc_v3_dot(n, cc_support(&cb, cc_v3_neg(n)));
    if (ta == CC_SHAPE_PLANE) {
        cc_vec3 z = cc_tf_vector(a.xf, cc_v3(0, 0, 1));
        return cc_v3_dot(z, n) > 0.999f ? low_b : -3.0e38f;
    }
    cc_convex ca = cc_convex_of(&a, ta, origin);
    return low_b - cc_v3_dot(n, cc_support(&ca, n));
}

TEST(ToiSearch, AdvancementNeverStopsInOverlapAndEndsWithinItsCap)
{
    // Random pairs of every convex type (a plane only first), sizes over
    // two orders of magnitude, moving and turning fast (sweeps of 1 to 20
    // sizes): every hit is a pose whose separation along the returned
    // normal, from the support functions alone, is at least the margin;
    // every earlier fraction sampled is apart too; and the search ends
    // within its cap plus the refinement.
    std::vector<cc_vec3> pts;
    std::mt19937 prng(3);
    std::uniform_real_distribution<float> pu(-1.0f, 1.0f);
    for (int i = 0; i < 40; ++i) pts.push_back({pu(prng), pu(prng), 0.5f * pu(prng)});
    const TestHull* hull = build_test_hull(pts, 64, "toi fuzz hull");
    ASSERT_NE(hull, nullptr);
    const int types[] = {CC_SHAPE_PLANE, CC_SHAPE_SPHERE, CC_SHAPE_CAPSULE, CC_SHAPE_BOX, CC_SHAPE_CYLINDER,
                         CC_SHAPE_CONE, CC_SHAPE_ELLIPSOID, CC_SHAPE_CONVEX_HULL};
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int hits = 0, apart_all = 0, pairs = 0, capped = 0, worst_iterations = 0;
    const int kPairs = 100000;
    for (int k = 0; k < kPairs; ++k) {
        int ta = types[k % 8], tb = types[1 + (k / 8) % 7];
        if (ta > tb) std::swap(ta, tb);
        float size_a = std::pow(10.0f, u(rng)), size_b = std::pow(10.0f, u(rng));
        SweptPair s;
        s.ta = ta;
        s.tb = tb;
        float thick_a = 0, thick_b = 0, ra = 0, rb = 0;
        if (ta == CC_SHAPE_PLANE) {
            s.a = geom_of({0, 0, 0}, random_quat(rng), {0, 0, 0});
            ra = 0.0f;
        } else {
            s.a = random_shape(rng, ta, size_a, hull, &thick_a, &ra);
        }
        s.b = random_shape(rng, tb, size_b, hull, &thick_b, &rb);
        float reach = (ra + rb) * (1.5f + 3.0f * (u(rng) + 1.0f));
        cc_vec3 dir = cc_v3_normalize(cc_v3(u(rng), u(rng), u(rng)));
        if (ta == CC_SHAPE_PLANE) dir = cc_tf_vector(s.a.xf, cc_v3(0, 0, 1));
        s.b.xf.p = cc_v3_scale(dir, ta == CC_SHAPE_PLANE ? rb * (1.5f + 3.0f * (u(rng) + 1.0f)) : reach);
        float scale = std::max(ra, rb);
        float sweep = scale * (1.0f + 9.5f * (u(rng) + 1.0f));
        cc_vec3 toward = cc_v3_normalize(cc_v3_madd(cc_v3_neg(dir), cc_v3(u(rng), u(rng), u(rng)), 0.3f));
        s.ma = motion_of(s.a.xf.p, {0, 0, 0}, {0, 0, 0}, ra);
        if (ta != CC_SHAPE_PLANE && (k & 1))
            s.ma = motion_of(s.a.xf.p, cc_v3_scale(cc_v3(u(rng), u(rng), u(rng)), 0.5f * sweep),
                             cc_v3(2 * u(rng), 2 * u(rng), 2 * u(rng)), ra);
        s.mb = motion_of(s.b.xf.p, cc_v3_scale(toward, sweep), cc_v3(3 * u(rng), 3 * u(rng), 3 * u(rng)), rb);
        s.thick = thick_a + thick_b;
        cc_sweep_gap g = cc_sweep_separation(s.ta, &s.a, s.tb, &s.b, cc_v3(0, 0, 0));
        if (!g.apart || !(g.core - s.thick > 0.0f)) continue;
        ++pairs;
        cc_advance r = cc_conservative_advance(s.ta, &s.a, &s.ma, s.tb, &s.b, &s.mb, s.thick, 0.0f,
                                               g.core - s.thick, g.n);
        worst_iterations = std::max(worst_iterations, r.iterations);
        ASSERT_LE(r.iterations, CC_ADVANCE_ITERATIONS + CC_ADVANCE_REFINE);
        ASSERT_GE(r.tau, 0.0f);
        ASSERT_LT(r.tau, 1.0f);
        ASSERT_GE(r.impact, r.tau);
        if (!r.hit) continue;
        ++hits;
        capped += r.capped;
        cc_geom a = s.a, b = s.b;
        a.xf = cc_swept_pose(&s.ma, s.a.xf, r.tau);
        b.xf = cc_swept_pose(&s.mb, s.b.xf, r.tau);
        float sep = support_separation(s.ta, a, s.tb, b, r.n) - s.thick;
        ASSERT_GE(sep, -2.0e-5f * scale) << "pair " << k << " types " << ta << " " << tb << " tau " << r.tau;
        bool apart = true;
        for (int j = 0; j < 4; ++j) {
            float f = r.tau * (float)j / 4.0f;
            a.xf = cc_swept_pose(&s.ma, s.a.xf, f);
            b.xf = cc_swept_pose(&s.mb, s.b.xf, f);
            cc_sweep_gap q = cc_sweep_separation(s.ta, &a, s.tb, &b, cc_v3(0, 0, 0));
            apart = apart && q.apart && q.core - s.thick > -1.0e-5f * scale;
        }
        EXPECT_TRUE(apart) << "pair " << k << " overlapped before tau " << r.tau;
        apart_all += apart;
    }
    EXPECT_GT(pairs, kPairs * 9 / 10);
    EXPECT_GT(hits, pairs / 4) << "most pairs are aimed at each other";
    EXPECT_EQ(apart_all, hits);
    RecordProperty("hits", hits);
    RecordProperty("capped", capped);
    RecordProperty("worst_iterations", worst_iterations);
}

}  // namespace

CC_INSTANTIATE_DEVICE_TEST(Toi);
