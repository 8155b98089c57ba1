// Speculative contacts (velocity-adapted gaps): admission by the closing
// speed at the contact points (linear and angular, receding and common
// motion enlarging nothing, the e_max cap), the broad phase's motion bound
// for every broad phase, meshes, the step's arrest of speculative rows
// (exact for one row, once for a box's four corners, for each law and
// integrator), tunnelling of a fast small sphere through a thin plate
// directly and in a frame graph, slow scenes unchanged, and bad input; the
// arrest scenarios (capsules, corners, random poses, several bullets, a
// spinning rod) in the time-of-impact mode too.
#include <cmath>
#include <algorithm>
#include <cstring>
#include <random>

#include "kernels/math/quat.h"
#include "tests/support/mesh_util.h"
#include "tests/support/step_util.h"

using namespace cctest;

namespace {

class Speculative : public DeviceTest {};

cc_pipeline_def speculative_def(float gap_max, cc_speculative_mode mode = CC_SPECULATIVE_GAP)
{
    cc_pipeline_def d = cc_default_pipeline_def();
    d.speculative_contact_gap_max = gap_max;
    d.speculative_mode = mode;
    return d;
}

// The arrest scenarios run in both modes: the step treats a swept row like
// any other speculative row.
const cc_speculative_mode kBothModes[] = {CC_SPECULATIVE_GAP, CC_SPECULATIVE_TOI};
const char* mode_name(cc_speculative_mode m) { return m == CC_SPECULATIVE_TOI ? "toi mode" : "gap mode"; }

// Sets one body's velocity in a world's state.
void set_velocity(World& w, int body, cc_vec3 v, cc_vec3 omega = {0, 0, 0})
{
    ASSERT_EQ(cc_state_set_body_velocities(w.state.get(), body, 1, &v, &omega), CC_OK) << cc_last_error_message();
}

// A sphere of radius 0.1 whose surface is `d` above an infinite plane; no gaps.
struct SphereOverPlane {
    World w;
    int body = -1;
    bool make(cc_device dev, const cc_pipeline_def& def, float d)
    {
        Builder b = make_builder(0.0f);
        cc_shape_def sd = cc_default_shape_def();
        EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &sd, nullptr), CC_OK);
        body = add_body(b.get(), {0.0f, 0.0f, 0.1f + d});
        EXPECT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, &sd, nullptr), CC_OK);
        cc_status s = make_world(b.get(), dev, def, &w);
        EXPECT_EQ(s, CC_OK) << cc_last_error_message();
        return s == CC_OK;
    }
};

TEST_P(Speculative, AdmissionFollowsTheClosingSpeedAlongTheNormal)
{
    const float d = 0.5f;
    SphereOverPlane s;
    ASSERT_TRUE(s.make(device(), speculative_def(1.0f), d));
    CC_ASSERT_OK(cc_pipeline_set_collision_dt(s.w.pipeline.get(), 0.1f));
    // Kept when the points close d within the horizon; flagged for the
    // step when they would pass touching by more than half the sphere's
    // radius (0.05 m), which the contact law alone may not hold.
    struct Case {
        cc_vec3 v;
        bool kept, flagged;
        const char* what;
    } cases[] = {
        {{0, 0, -10}, true, true, "closing 1 m within the horizon"},
        {{0, 0, -5.0001f}, true, false, "closing just over d"},
        {{0, 0, -5.6f}, true, true, "closing 0.56 m"},
        {{0, 0, -4.9f}, false, false, "closing 0.49 m, short of d"},
        {{0, 0, 10}, false, false, "receding"},
        {{10, 0, 0}, false, false, "moving along the plane"},
        {{3, -4, -10}, true, true, "closing, with a tangential part"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        set_velocity(s.w, s.body, c.v);
        std::vector<cc_contact> got = collide(s.w);
        ASSERT_EQ(got.size(), c.kept ? 1u : 0u);
        if (!c.kept) continue;
        EXPECT_NEAR(got[0].distance, d, 1e-6f) << "the geometry stays at the current pose";
        EXPECT_EQ(got[0].speculative != 0, c.flagged);
    }
    // The limit holds whatever the speed; a zero horizon keeps only the gaps.
    set_velocity(s.w, s.body, {0, 0, -100});
    EXPECT_EQ(collide(s.w).size(), 1u);
    CC_ASSERT_OK(cc_pipeline_set_collision_dt(s.w.pipeline.get(), 0.0f));
    EXPECT_EQ(collide(s.w).size(), 0u);
    SphereOverPlane capped;
    ASSERT_TRUE(capped.make(device(), speculative_def(0.45f), d));
    CC_ASSERT_OK(cc_pipeline_set_collision_dt(capped.w.pipeline.get(), 0.1f));
    set_velocity(capped.w, capped.body, {0, 0, -100});
    EXPECT_EQ(collide(capped.w).size(), 0u) << "d beyond e_max";
    // Off: the same closing sphere makes nothing, and rows carry no flag.
    SphereOverPlane off;
    ASSERT_TRUE(off.make(device(), cc_default_pipeline_def(), d));
    set_velocity(off.w, off.body, {0, 0, -100});
    EXPECT_EQ(collide(off.w).size(), 0u);
    EXPECT_EQ(cc_pipeline_collision_dt_device(off.w.pipeline.get()), nullptr);
}

TEST_P(Speculative, CommonMotionEnlargesNothing)
{
    // Two spheres 0.5 apart, both falling at 10 m/s: no closing speed.
    Builder b = make_builder(0.0f);
    cc_shape_def sd = cc_default_shape_def();
    int lo = add_body(b.get(), {0, 0, 0}), hi = add_body(b.get(), {0, 0, 0.7f});
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), lo, 0.1f, &sd, nullptr));
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), hi, 0.1f, &sd, nullptr));
    World w;
    CC_ASSERT_OK(make_world(b.get(), device(), speculative_def(2.0f), &w));
    CC_ASSERT_OK(cc_pipeline_set_collision_dt(w.pipeline.get(), 0.1f));
    set_velocity(w, lo, {0, 0, -10});
    set_velocity(w, hi, {0, 0, -10});
    EXPECT_EQ(collide(w).size(), 0u);
    set_velocity(w, lo, {0, 0, 0});
    std::vector<cc_contact> c = collide(w);
    ASSERT_EQ(c.size(), 1u) << "only the upper one falls";
    EXPECT_NEAR(c[0].distance, 0.5f, 1e-6f);
}

TEST_P(Speculative, AngularVelocityClosesOnlyTheSideThatTurnsDown)
{
    // A 2 m rod (box) 0.5 m above the plane, turning about +y at 10 rad/s:
    // its +x end descends at 10 m/s, its -x end rises.
    Builder b = make_builder(0.0f);
    cc_shape_def sd = cc_default_shape_def();
    CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &sd, nullptr));
    int rod = add_body(b.get(), {0, 0, 0.55f});
    CC_ASSERT_OK(cc_builder_add_box(b.get(), rod, {1.0f, 0.05f, 0.05f}, &sd, nullptr));
    World w;
    CC_ASSERT_OK(make_world(b.get(), device(), speculative_def(2.0f), &w));
    CC_ASSERT_OK(cc_pipeline_set_collision_dt(w.pipeline.get(), 0.1f));
    set_velocity(w, rod, {0, 0, 0}, {0, 10, 0});
    std::vector<cc_contact> c = collide(w);
    ASSERT_EQ(c.size(), 2u) << "the two corners at x = +1";
    for (const cc_contact& k : c) {
        EXPECT_NEAR(k.distance, 0.5f, 1e-5f);
        // Point 1 is on the rod (shape 1), in its body frame.
        EXPECT_GT(k.point1.x, 0.9f);
        EXPECT_NE(k.speculative, 0);
    }
    // Turning the other way closes the other end.
    set_velocity(w, rod, {0, 0, 0}, {0, -10, 0});
    c = collide(w);
    ASSERT_EQ(c.size(), 2u);
    for (const cc_contact& k : c) EXPECT_LT(k.point1.x, -0.9f);
}

TEST_P(Speculative, EveryBroadPhaseGrowsTheBoundsByTheMotion)
{
    // Two spheres 0.8 apart whose boxes do not overlap; one closes at 10 m/s.
    for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
        SCOPED_TRACE(cc_broad_phase_name(bp));
        Builder b = make_builder(0.0f);
        cc_shape_def sd = cc_default_shape_def();
        int a = add_body(b.get(), {0, 0, 0}), c = add_body(b.get(), {1.0f, 0, 0});
        CC_ASSERT_OK(cc_builder_add_sphere(b.get(), a, 0.1f, &sd, nullptr));
        CC_ASSERT_OK(cc_builder_add_sphere(b.get(), c, 0.1f, &sd, nullptr));
        cc_pipeline_def pd = speculative_def(1.0f);
        pd.broad_phase = bp;
        World w;
        CC_ASSERT_OK(make_world(b.get(), device(), pd, &w));
        CC_ASSERT_OK(cc_pipeline_set_collision_dt(w.pipeline.get(), 0.1f));
        EXPECT_EQ(collide(w).size(), 0u);
        set_velocity(w, c, {-10, 0, 0});
        std::vector<cc_contact> got = collide(w);
        ASSERT_EQ(got.size(), 1u);
        EXPECT_NEAR(got[0].distance, 0.8f, 1e-6f);
        // Spinning in place moves no point toward the other sphere.
        set_velocity(w, c, {0, 0, 0}, {0, 0, 50});
        EXPECT_EQ(collide(w).size(), 0u);
    }
}

TEST_P(Speculative, MeshAndHeightfieldSurfacesAdmitByTheClosingSpeed)
{
    // A sphere 0.5 above a static mesh slab and a heightfield, falling at 10 m/s.
    for (int surface = 0; surface < 2; ++surface) {
        SCOPED_TRACE(surface ? "heightfield" : "mesh");
        for (bool reduce : {true, false}) {
            SCOPED_TRACE(reduce ? "reduced" : "unreduced");
            Builder b = make_builder(0.0f);
            cc_shape_def sd = cc_default_shape_def();
            int ground = add_body(b.get(), {0, 0, 0}, {0, 0, 0, 1}, 1);
            if (surface == 0) {
                int mesh = add_mesh_data(b.get(), tessellated_box_mesh({1.0f, 1.0f, 0.1f}, 4));
                CC_ASSERT_OK(cc_builder_add_mesh(b.get(), ground, mesh, {1, 1, 1}, &sd, nullptr));
            } else {
                std::vector<float> heights(25, 0.5f);
                int hf = -1;
                CC_ASSERT_OK(cc_builder_add_heightfield_data(b.get(), 5, 5, heights.data(), &hf));
                CC_ASSERT_OK(cc_builder_add_heightfield(b.get(), ground, hf, {1.0f, 1.0f, 0.2f}, &sd, nullptr));
            }
            int ball = add_body(b.get(), {0.03f, 0.02f, 0.1f + 0.1f + 0.5f});
            CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.1f, &sd, nullptr));
            cc_pipeline_def pd = speculative_def(1.0f);
            pd.reduce_contacts = reduce;
            World w;
            CC_ASSERT_OK(make_world(b.get(), device(), pd, &w));
            CC_ASSERT_OK(cc_pipeline_set_collision_dt(w.pipeline.get(), 0.1f));
            EXPECT_EQ(collide(w).size(), 0u);
            set_velocity(w, ball, {0, 0, -10});
            std::vector<cc_contact> got = collide(w);
            ASSERT_EQ(got.size(), 1u);
            EXPECT_NEAR(got[0].distance, 0.5f, 1e-5f);
            EXPECT_NEAR(got[0].normal.z, -1.0f, 1e-5f) << "from the sphere (shape 0) to the surface";
            EXPECT_NE(got[0].speculative, 0);
            set_velocity(w, ball, {0, 0, 10});
            EXPECT_EQ(collide(w).size(), 0u);
        }
    }
}

// A 1 cm sphere 1 m above the top of a 1 cm plate (1 m square), no gravity.
struct Bullet {
    Sim sim;
    int ball = -1;
    bool make(cc_device dev, const cc_pipeline_def& pd, const cc_solver_def& sd = cc_default_solver_def())
    {
        Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
        cc_shape_def def = cc_default_shape_def();
        int plate = add_body(b.get(), {0, 0, 0}, {0, 0, 0, 1}, 1);
        EXPECT_EQ(cc_builder_add_box(b.get(), plate, {0.5f, 0.5f, 0.005f}, &def, nullptr), CC_OK);
        ball = add_body(b.get(), {0.01f, -0.02f, 0.005f + 0.01f + 1.0f});
        EXPECT_EQ(cc_builder_add_sphere(b.get(), ball, 0.01f, &def, nullptr), CC_OK);
        if (!sim.create(b.get(), dev, sd, &pd)) return false;
        sim.set_velocity(ball, {0, 0, -100});
        return true;
    }
};

const float kFrameDt = 1.0f / 60.0f;

TEST_P(Speculative, AFastSphereStopsAtAThinPlateInsteadOfPassingThrough)
{
    Bullet off;
    ASSERT_TRUE(off.make(device(), cc_default_pipeline_def()));
    ASSERT_TRUE(off.sim.run(30, kFrameDt));
    EXPECT_LT(off.sim.pose(off.ball).p.z, -1.0f) << "without speculation the sphere tunnels";

    Bullet on;
    ASSERT_TRUE(on.make(device(), speculative_def(2.0f)));
    CC_ASSERT_OK(cc_pipeline_set_collision_dt(on.sim.pipeline.get(), kFrameDt));
    ASSERT_TRUE(on.sim.run(30, kFrameDt));
    float z = on.sim.pose(on.ball).p.z;
    EXPECT_GT(z, 0.005f + 0.01f - 0.002f) << "resting on the plate, at most 2 mm in";
    EXPECT_LT(z, 0.005f + 0.01f + 0.001f);
    EXPECT_LT(std::fabs(on.sim.linear(on.ball).z), 0.5f);
}

TEST_P(Speculative, AFrameGraphWritesEachCollidesHorizon)
{
    // Four substeps of 1/240 s, colliding every second one: the horizon is
    // two substeps, written by the graph, and the frame graph's replay
    // equals a direct loop that sets the same horizons to the bit.
    const float dt = kFrameDt / 4.0f;
    const int substeps = 4, every = 2, frames = 30;
    cc_pipeline_def pd = speculative_def(2.0f);
    pd.deterministic = 1;
    cc_solver_def sd = cc_default_solver_def();
    sd.deterministic = 1;
    Bullet direct, graph;
    ASSERT_TRUE(direct.make(device(), pd, sd));
    ASSERT_TRUE(graph.make(device(), pd, sd));
    for (int f = 0; f < frames; ++f)
        for (int k = 0; k < substeps; ++k) {
            Sim& s = direct.sim;
            cc_state* in = s.state[s.current].get();
            cc_state* out = s.state[1 - s.current].get();
            if (k % every == 0) {
                CC_ASSERT_OK(cc_pipeline_set_collision_dt(s.pipeline.get(), every * dt));
                CC_ASSERT_OK(cc_collide(s.pipeline.get(), in, s.contacts.get(), nullptr));
            }
            CC_ASSERT_OK(cc_step(s.solver.get(), in, out, s.contacts.get(), dt, nullptr));
            s.current = 1 - s.current;
        }
    cc_state* states[2] = {graph.sim.state[0].get(), graph.sim.state[1].get()};
    cc_frame_graph* g = nullptr;
    CC_ASSERT_OK(cc_frame_graph_create(graph.sim.pipeline.get(), graph.sim.solver.get(), states, substeps, every, dt,
                                       nullptr, &g));
    FrameGraph owned(g);
    for (int f = 0; f < frames; ++f) CC_ASSERT_OK(cc_frame_graph_launch(g, nullptr));
    graph.sim.current = 0;
    std::vector<float> a = direct.sim.snapshot(), b = graph.sim.snapshot();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float)));
    float z = graph.sim.pose(graph.ball).p.z;
    EXPECT_GT(z, 0.005f + 0.01f - 0.002f) << "stopped at the plate";
    EXPECT_LT(z, 0.005f + 0.01f + 0.001f);
}

TEST_P(Speculative, OneStepLandsTheBodyOnTheSurfaceForEveryLawAndIntegrator)
{
    // A sphere 0.3 m above a plane closing at 30 m/s with a 1/60 s step
    // (t = 0.6 of the step): the arrest leaves 0.6 of the closing speed
    // (d / dt = 18 m/s), and the sphere ends the step on the surface.
    // In the TOI mode the row comes from the sweep, its distance the
    // effective one (kernels/contacts/toi.h), to the same end.
    for (cc_speculative_mode mode : kBothModes)
        for (cc_contact_model law : {CC_CONTACT_COMPLIANT, CC_CONTACT_PENALTY})
            for (cc_integrator it : {CC_INTEGRATOR_IMPLICIT, CC_INTEGRATOR_EXPLICIT}) {
                SCOPED_TRACE(testing::Message() << mode_name(mode) << ", law " << (int)law << ", integrator "
                                                << (int)it);
                Builder b = make_builder_with_gravity({0, 0, -9.81f}, 0.0f);
                cc_shape_def def = cc_default_shape_def();
                CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr));
                int ball = add_body(b.get(), {0, 0, 0.1f + 0.3f});
                CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.1f, &def, nullptr));
                cc_solver_def sd = cc_default_solver_def();
                sd.contact_model = law;
                sd.integrator = it;
                Sim sim;
                cc_pipeline_def pd = speculative_def(1.0f, mode);
                ASSERT_TRUE(sim.create(b.get(), device(), sd, &pd));
                CC_ASSERT_OK(cc_pipeline_set_collision_dt(sim.pipeline.get(), kFrameDt));
                sim.set_velocity(ball, {0, 0, -30});
                ASSERT_TRUE(sim.run(1, kFrameDt));
                cc_speculation_stats st;
                CC_ASSERT_OK(cc_pipeline_get_speculation_stats(sim.pipeline.get(), &st));
                EXPECT_EQ(st.toi_contacts, mode == CC_SPECULATIVE_TOI ? 1 : 0);
                EXPECT_NEAR(sim.pose(ball).p.z, 0.1f, 1e-5f);
                EXPECT_NEAR(sim.linear(ball).z, -0.3f / kFrameDt, 0.01f * 0.3f / kFrameDt);
            }
}

TEST_P(Speculative, FourCornersOfAFallingBoxArrestItOnce)
{
    Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
    cc_shape_def def = cc_default_shape_def();
    CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr));
    int box = add_body(b.get(), {0, 0, 0.1f + 0.2f});
    CC_ASSERT_OK(cc_builder_add_box(b.get(), box, {0.2f, 0.15f, 0.1f}, &def, nullptr));
    Sim sim;
    cc_pipeline_def pd = speculative_def(1.0f);
    ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
    CC_ASSERT_OK(cc_pipeline_set_collision_dt(sim.pipeline.get(), 0.01f));
    sim.set_velocity(box, {0, 0, -40});
    ASSERT_TRUE(sim.run(1, 0.01f));
    int n = 0;
    CC_ASSERT_OK(cc_contacts_count(sim.contacts.get(), &n));
    EXPECT_EQ(n, 4);
    EXPECT_NEAR(sim.pose(box).p.z, 0.1f, 1e-5f) << "on the plane, not above it";
    EXPECT_NEAR(sim.linear(box).z, -20.0f, 0.01f);
    cc_vec3 w = sim.angular(box);
    EXPECT_LT(std::fabs(w.x) + std::fabs(w.y) + std::fabs(w.z), 1e-3f);
}

TEST_P(Speculative, ABodyAtRestGetsTheContactsOfNoSpeculation)
{
    // A box resting on a plane and a sphere resting on the box, after
    // settling: speculation changes no row and flags none.
    auto settle = [&](float gap_max, std::vector<cc_contact>* out) {
        Builder b = make_builder(0.01f);
        cc_shape_def def = cc_default_shape_def();
        ASSERT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr), CC_OK);
        int box = add_body(b.get(), {0, 0, 0.1f});
        ASSERT_EQ(cc_builder_add_box(b.get(), box, {0.2f, 0.2f, 0.1f}, &def, nullptr), CC_OK);
        int ball = add_body(b.get(), {0, 0, 0.3f});
        ASSERT_EQ(cc_builder_add_sphere(b.get(), ball, 0.1f, &def, nullptr), CC_OK);
        cc_pipeline_def pd = speculative_def(gap_max);
        pd.deterministic = 1;
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
        ASSERT_TRUE(sim.run(2000, 1.0e-3f)); // settle without speculation: no horizon yet
        if (gap_max > 0.0f) CC_ASSERT_OK(cc_pipeline_set_collision_dt(sim.pipeline.get(), kFrameDt));
        CC_ASSERT_OK(cc_collide(sim.pipeline.get(), sim.now(), sim.contacts.get(), nullptr));
        out->resize(64);
        int n = 0;
        CC_ASSERT_OK(cc_contacts_download(sim.contacts.get(), sim.now(), out->data(), 64, &n));
        out->resize((size_t)n);
    };
    std::vector<cc_contact> off, on;
    settle(0.0f, &off);
    settle(0.1f, &on);
    ASSERT_FALSE(off.empty());
    ASSERT_EQ(off.size(), on.size());
    EXPECT_EQ(0, std::memcmp(off.data(), on.data(), off.size() * sizeof(cc_contact)));
}

TEST_P(Speculative, BadSettingsAreRejectedAndChangeNothing)
{
    Builder b = make_builder(0.0f);
    cc_shape_def sd = cc_default_shape_def();
    int body = add_body(b.get(), {0, 0, 0});
    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), body, 0.1f, &sd, nullptr));
    cc_model* m = nullptr;
    CC_ASSERT_OK(cc_builder_finalize(b.get(), device(), &m));
    Model model(m);
    for (float bad : {-0.1f, NAN, INFINITY}) {
        cc_pipeline_def pd = speculative_def(bad);
        cc_pipeline* p = nullptr;
        EXPECT_EQ(cc_pipeline_create(m, &pd, &p), CC_ERR_INVALID_ARGUMENT);
        EXPECT_EQ(p, nullptr);
        EXPECT_NE(std::string(cc_last_error_message()).find("speculative_contact_gap_max"), std::string::npos);
    }
    cc_pipeline_def plain = cc_default_pipeline_def();
    cc_pipeline* p = nullptr;
    CC_ASSERT_OK(cc_pipeline_create(m, &plain, &p));
    Pipeline off(p);
    EXPECT_EQ(cc_pipeline_set_collision_dt(off.get(), 0.1f), CC_ERR_INVALID_STATE);
    EXPECT_EQ(cc_pipeline_set_collision_dt(nullptr, 0.1f), CC_ERR_INVALID_ARGUMENT);

    // A bad horizon leaves the previous one in place.
    SphereOverPlane s;
    ASSERT_TRUE(s.make(device(), speculative_def(1.0f), 0.5f));
    CC_ASSERT_OK(cc_pipeline_set_collision_dt(s.w.pipeline.get(), 0.1f));
    set_velocity(s.w, s.body, {0, 0, -10});
    for (float bad : {-1.0f, NAN, INFINITY}) {
        EXPECT_EQ(cc_pipeline_set_collision_dt(s.w.pipeline.get(), bad), CC_ERR_INVALID_ARGUMENT);
        EXPECT_NE(std::string(cc_last_error_message()).find("dt"), std::string::npos);
        EXPECT_EQ(collide(s.w).size(), 1u);
    }
    cc_pipeline_info info;
    CC_ASSERT_OK(cc_pipeline_get_info(s.w.pipeline.get(), &info));
    EXPECT_EQ(info.speculative_contact_gap_max, 1.0f);
}

// Kinetic energy of body b of `sim` (translation and turn).
float kinetic_energy(Sim& sim, int b)
{
    cc_mass_properties mp;
    EXPECT_EQ(cc_model_get_body_mass(sim.model.get(), b, &mp), CC_OK);
    cc_transform p = sim.pose(b);
    cc_vec3 v = sim.linear(b), w = cc_q_rotate_inv(p.q, sim.angular(b)); /* body axes, like the inertia */
    const float* I = mp.inertia;
    cc_vec3 Iw = {I[0] * w.x + I[1] * w.y + I[2] * w.z, I[3] * w.x + I[4] * w.y + I[5] * w.z,
                  I[6] * w.x + I[7] * w.y + I[8] * w.z};
    return 0.5f * mp.mass * (v.x * v.x + v.y * v.y + v.z * v.z) + 0.5f * (w.x * Iw.x + w.y * Iw.y + w.z * Iw.z);
}

// A static slab of half width `half` and 1 cm thickness whose top is at `top`.
void add_slab(cc_builder* b, float half, float top)
{
    cc_shape_def d = cc_default_shape_def();
    d.local.p = {0.0f, 0.0f, top - 0.005f};
    EXPECT_EQ(cc_builder_add_box(b, CC_BODY_WORLD, {half, half, 0.005f}, &d, nullptr), CC_OK);
}

TEST_P(Speculative, ACapsuleFallingAlongItsAxisStopsAtItsLeadingEnd)
{
    // Its two ends give two rows along one normal, the upper one 4 cm
    // farther: the arrest follows the leading end, not the mean of the two.
    // Colliding every fourth substep, a body that comes to rest exactly
    // touching has no row until the next pass and sinks by g H^2 / 2
    // (1.4 mm) under gravity, speculation or not: the capsule has a 2 mm
    // gap, as a scene colliding this seldom should.
    for (cc_speculative_mode mode : kBothModes) {
        SCOPED_TRACE(mode_name(mode));
        for (float speed : {23.0f, 61.0f, 97.0f}) {
            SCOPED_TRACE(speed);
            Builder b = make_builder_with_gravity({0, 0, -9.81f}, 0.0f);
            add_slab(b.get(), 0.5f, 0.0f);
            int capsule = add_body(b.get(), {0.0f, 0.0f, 0.5f});
            cc_shape_def d = cc_default_shape_def();
            d.gap = 0.002f;
            CC_ASSERT_OK(cc_builder_add_capsule(b.get(), capsule, 0.005f, 0.02f, &d, nullptr));
            Sim sim;
            cc_pipeline_def pd = speculative_def(2.0f, mode);
            ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
            sim.set_velocity(capsule, {0, 0, -speed});
            ASSERT_TRUE(run_collide_every(sim, 48, 4, 1.0f / 240.0f, [&](int k) {
                float z = sim.pose(capsule).p.z;
                EXPECT_GT(z, 0.025f - 1e-3f) << "substep " << k << ": its tip more than 1 mm into the slab";
                return z > 0.025f - 1e-3f;
            }));
            EXPECT_NEAR(sim.pose(capsule).p.z, 0.025f, 1e-3f);
            EXPECT_LT(std::fabs(sim.linear(capsule).z), 0.1f);
        }
    }
}

TEST_P(Speculative, ABodyFallingPastTheEdgeOfAPlateIsNotDeflected)
{
    // A capsule 7 cm beside a plate's edge: the row through their closest
    // points closes along its normal, but the two cannot touch. The capsule
    // passes the plate untouched and lands on the table under it.
    for (cc_speculative_mode mode : kBothModes) {
        SCOPED_TRACE(mode_name(mode));
        Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
        add_slab(b.get(), 0.15f, 1.0f);
        add_slab(b.get(), 0.5f, 0.5f);
        int capsule = add_body(b.get(), {0.22f, -0.1f, 1.35f});
        cc_shape_def d = cc_default_shape_def();
        CC_ASSERT_OK(cc_builder_add_capsule(b.get(), capsule, 0.005f, 0.02f, &d, nullptr));
        Sim sim;
        cc_pipeline_def pd = speculative_def(2.0f, mode);
        ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
        sim.set_velocity(capsule, {0, 0, -52.8f});
        ASSERT_TRUE(run_collide_every(sim, 24, 4, 1.0f / 240.0f, [&](int k) {
            cc_transform p = sim.pose(capsule);
            cc_vec3 v = sim.linear(capsule), w = sim.angular(capsule);
            bool straight =
                std::fabs(p.p.x - 0.22f) < 1e-6f && std::fabs(w.x) + std::fabs(w.y) + std::fabs(w.z) < 1e-6f;
            bool unslowed = p.p.z < 0.6f || std::fabs(v.z + 52.8f) < 1e-3f;
            EXPECT_TRUE(straight && unslowed) << "substep " << k << ": x " << p.p.x << ", vz " << v.z;
            return straight && unslowed;
        }));
        float z = sim.pose(capsule).p.z;
        EXPECT_GT(z, 0.525f - 1e-3f) << "on the table, not in it";
        EXPECT_LT(z, 0.525f + 5e-3f) << "on the table, not bounced off";
    }
}

TEST_P(Speculative, ArrestsOfFastBodiesAtRandomPosesAddNoEnergy)
{
    // Boxes, capsules, cylinders and thin plates at random orientations and
    // spins, shot at 20-100 m/s onto a 1 cm slab, colliding before every
    // step: no step adds kinetic energy (no gravity), and no body passes
    // through the slab. (An impact on a corner can spin a light body up to
    // thousands of rad/s, as a real one would; rows collided several steps
    // earlier cannot follow that, which is the scheduler's business.)
    for (cc_speculative_mode mode : kBothModes) {
        SCOPED_TRACE(mode_name(mode));
        std::mt19937 rng(41);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (int c = 0; c < 40; ++c) {
            SCOPED_TRACE(c);
            Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
            add_slab(b.get(), 2.0f, 0.0f);
            cc_quat q = {u(rng), u(rng), u(rng), u(rng) + 1.5f};
            float ql = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
            q = {q.x / ql, q.y / ql, q.z / ql, q.w / ql};
            int body = add_body(b.get(), {0.1f * u(rng), 0.1f * u(rng), 0.3f + 0.2f * (u(rng) + 1.0f)}, q);
            cc_shape_def d = cc_default_shape_def();
            switch (c % 4) {
            case 0: CC_ASSERT_OK(cc_builder_add_box(b.get(), body, {0.03f, 0.02f, 0.01f}, &d, nullptr)); break;
            case 1: CC_ASSERT_OK(cc_builder_add_capsule(b.get(), body, 0.005f, 0.03f, &d, nullptr)); break;
            case 2: CC_ASSERT_OK(cc_builder_add_cylinder(b.get(), body, 0.02f, 0.01f, &d, nullptr)); break;
            default: CC_ASSERT_OK(cc_builder_add_box(b.get(), body, {0.04f, 0.04f, 0.002f}, &d, nullptr)); break;
            }
            Sim sim;
            cc_pipeline_def pd = speculative_def(2.0f, mode);
            ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
            sim.set_velocity(body, {0, 0, -(60.0f + 40.0f * u(rng))}, {20.0f * u(rng), 20.0f * u(rng), 20.0f * u(rng)});
            auto energy = [&]() { return kinetic_energy(sim, body); };
            // The contact law that holds the body once it is stopped may turn
            // what is left of a penetration into motion, a part in 1e4 of the
            // impact's energy here; an arrest that adds energy adds far more.
            float start = energy(), before = start;
            ASSERT_TRUE(run_collide_every(sim, 40, 1, 1.0f / 240.0f, [&](int k) {
                float e = energy(), z = sim.pose(body).p.z;
                bool kept = e <= before * 1.001f + 1e-3f * start;
                EXPECT_TRUE(kept) << "substep " << k << ": energy " << before << " -> " << e;
                EXPECT_GT(z, 0.0f) << "substep " << k << ": the centre below the slab's top";
                before = e;
                return kept && z > 0.0f;
            }));
        }
    }
}

TEST_P(Speculative, BulletsStrikingOnePlateEachLoseTheirOwnSpeed)
{
    // Two or three 1 cm spheres at 50 m/s hit a free 1 cm plate side by
    // side in the same step: rows against different partners arrest
    // independently, so none passes through, whether the plate is heavy
    // (1.6 kg against 4 g spheres) or light (against 4 kg spheres, where
    // independent arrests at full weight would throw the plate off faster
    // than the spheres came: no energy may be gained).
    for (cc_speculative_mode mode : kBothModes) {
        SCOPED_TRACE(mode_name(mode));
        for (int bullets : {2, 3})
            for (float density : {1000.0f, 1.0e6f}) {
                SCOPED_TRACE(testing::Message() << bullets << " bullets of density " << density);
                Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
                int plate = add_body(b.get(), {0.0f, 0.0f, 0.0f});
                cc_shape_def d = cc_default_shape_def();
                CC_ASSERT_OK(cc_builder_add_box(b.get(), plate, {0.2f, 0.2f, 0.005f}, &d, nullptr));
                cc_shape_def heavy = d;
                heavy.density = density;
                std::vector<int> balls;
                for (int k = 0; k < bullets; ++k) {
                    balls.push_back(add_body(b.get(), {-0.1f + 0.1f * (float)k, 0.0f, 0.3f}));
                    CC_ASSERT_OK(cc_builder_add_sphere(b.get(), balls.back(), 0.01f, &heavy, nullptr));
                }
                Sim sim;
                cc_pipeline_def pd = speculative_def(2.0f, mode);
                ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
                float start = 0.0f;
                for (int ball : balls) {
                    sim.set_velocity(ball, {0, 0, -50});
                    start += kinetic_energy(sim, ball);
                }
                ASSERT_TRUE(run_collide_every(sim, 12, 1, 1.0f / 240.0f, [&](int k) {
                    float top = sim.pose(plate).p.z + 0.005f, energy = kinetic_energy(sim, plate);
                    bool above = true;
                    for (int ball : balls) {
                        above = above && sim.pose(ball).p.z > top + 0.01f - 2e-3f;
                        energy += kinetic_energy(sim, ball);
                    }
                    EXPECT_TRUE(above) << "substep " << k << ": a sphere more than 2 mm into the plate";
                    EXPECT_LE(energy, start * 1.001f) << "substep " << k;
                    return above && energy <= start * 1.001f;
                }));
                // Momentum is kept: the plate moves with what the spheres lost.
                cc_mass_properties mp, ms;
                CC_ASSERT_OK(cc_model_get_body_mass(sim.model.get(), plate, &mp));
                CC_ASSERT_OK(cc_model_get_body_mass(sim.model.get(), balls[0], &ms));
                float momentum = mp.mass * sim.linear(plate).z;
                for (int ball : balls) momentum += ms.mass * sim.linear(ball).z;
                EXPECT_NEAR(momentum, -50.0f * (float)bullets * ms.mass, 1e-3f * 50.0f * (float)bullets * ms.mass);
            }
    }
}

TEST_P(Speculative, ABulletBesideAFreeBoxStopsAtThePlate)
{
    // A 1 cm sphere at (30, 0, -100) m/s lands on a plate 2 cm from a free
    // 10 cm box resting there, closing on both within one step: the box
    // pushes it along x and the plate along z, so each row arrests in full
    // although they are against different partners.
    for (cc_speculative_mode mode : kBothModes) {
        SCOPED_TRACE(mode_name(mode));
        Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
        add_slab(b.get(), 1.0f, 0.0f);
        cc_shape_def d = cc_default_shape_def();
        int box = add_body(b.get(), {0.08f, 0.0f, 0.05f});
        CC_ASSERT_OK(cc_builder_add_box(b.get(), box, {0.05f, 0.05f, 0.05f}, &d, nullptr));
        int ball = add_body(b.get(), {-0.3f, 0.0f, 1.01f});
        CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.01f, &d, nullptr));
        Sim sim;
        cc_pipeline_def pd = speculative_def(2.0f, mode);
        ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
        sim.set_velocity(ball, {30, 0, -100});
        float start = kinetic_energy(sim, ball);
        ASSERT_TRUE(run_collide_every(sim, 8, 1, 1.0f / 60.0f, [&](int k) {
            float z = sim.pose(ball).p.z, energy = kinetic_energy(sim, ball) + kinetic_energy(sim, box);
            EXPECT_GT(z, 0.01f - 2e-3f) << "substep " << k << ": the sphere more than 2 mm into the plate";
            EXPECT_LE(energy, start * 1.001f) << "substep " << k;
            return z > 0.01f - 2e-3f && energy <= start * 1.001f;
        }));
    }
}

TEST_P(Speculative, ABulletOntoABoardOnAPlateStopsAtThePlate)
{
    // A 1 cm sphere at 60 m/s strikes a free 1 cm board resting on a static
    // plate (touching it, within a 2 mm gap) and drives it into the plate:
    // the board's rows, which the contact law holds, join the later arrest
    // rounds, which stop the board at the plate and the sphere at the
    // board, for a sphere lighter than the board (4 g against 1.6 kg) or
    // heavier (4 kg).
    for (cc_speculative_mode mode : kBothModes) {
        SCOPED_TRACE(mode_name(mode));
        for (float density : {1000.0f, 1.0e6f}) {
            SCOPED_TRACE(testing::Message() << "sphere density " << density);
            Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
            add_slab(b.get(), 1.0f, 0.0f);
            cc_shape_def d = cc_default_shape_def();
            d.gap = 0.002f;
            int board = add_body(b.get(), {0.0f, 0.0f, 0.005f});
            CC_ASSERT_OK(cc_builder_add_box(b.get(), board, {0.2f, 0.2f, 0.005f}, &d, nullptr));
            cc_shape_def heavy = d;
            heavy.density = density;
            int ball = add_body(b.get(), {0.03f, 0.02f, 0.6f});
            CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.01f, &heavy, nullptr));
            Sim sim;
            cc_pipeline_def pd = speculative_def(2.0f, mode);
            ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
            sim.set_velocity(ball, {0, 0, -60});
            float start = kinetic_energy(sim, ball);
            ASSERT_TRUE(run_collide_every(sim, 12, 1, 1.0f / 240.0f, [&](int k) {
                float bottom = sim.pose(board).p.z - 0.005f, top = bottom + 0.01f, z = sim.pose(ball).p.z;
                float energy = kinetic_energy(sim, ball) + kinetic_energy(sim, board);
                EXPECT_GT(bottom, -2e-3f) << "substep " << k << ": the board more than 2 mm into the plate";
                EXPECT_GT(z, top + 0.01f - 2e-3f) << "substep " << k << ": the sphere more than 2 mm into the board";
                EXPECT_LE(energy, start * 1.001f) << "substep " << k;
                return bottom > -2e-3f && z > top + 0.01f - 2e-3f && energy <= start * 1.001f;
            }));
        }
    }
}

TEST_P(Speculative, ASphereThrownIntoACornerStopsAtBothWalls)
{
    // A floor and a wall of the world, both 1 cm slabs: the two rows push
    // the sphere along different axes, so each arrests in full.
    for (cc_speculative_mode mode : kBothModes) {
        SCOPED_TRACE(mode_name(mode));
        for (float speed : {20.0f, 60.0f, 100.0f}) {
            SCOPED_TRACE(speed);
            Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
            add_slab(b.get(), 0.5f, 0.0f);
            cc_shape_def wall = cc_default_shape_def();
            wall.local.p = {-0.005f, 0.0f, 0.25f};
            CC_ASSERT_OK(cc_builder_add_box(b.get(), CC_BODY_WORLD, {0.005f, 0.5f, 0.25f}, &wall, nullptr));
            int ball = add_body(b.get(), {0.3f, 0.0f, 0.3f});
            cc_shape_def d = cc_default_shape_def();
            CC_ASSERT_OK(cc_builder_add_sphere(b.get(), ball, 0.05f, &d, nullptr));
            Sim sim;
            cc_pipeline_def pd = speculative_def(2.0f, mode);
            ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
            sim.set_velocity(ball, {-speed * 0.70710678f, 0.0f, -speed * 0.70710678f});
            ASSERT_TRUE(run_collide_every(sim, 24, 1, 1.0f / 240.0f, [&](int k) {
                cc_vec3 p = sim.pose(ball).p;
                bool outside = p.x > 0.05f - 2e-3f && p.z > 0.05f - 2e-3f;
                EXPECT_TRUE(outside) << "substep " << k << ": at " << p.x << ", " << p.z;
                return outside;
            }));
        }
    }
}

TEST_P(Speculative, ASpinningRodIsNotThrownOffTheFloor)
{
    // A 1 m rod at rest but spinning at 60 rad/s, its ends 5 cm over a
    // slab: the ends close at 30 m/s by the spin alone, which no arrest of
    // the centre of mass can take away; the rod must not be thrown up.
    for (cc_speculative_mode mode : kBothModes) {
        SCOPED_TRACE(mode_name(mode));
        Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
        add_slab(b.get(), 2.0f, 0.0f);
        int rod = add_body(b.get(), {0.0f, 0.0f, 0.06f}, {0.0f, 0.70710678f, 0.0f, 0.70710678f});
        cc_shape_def d = cc_default_shape_def();
        CC_ASSERT_OK(cc_builder_add_capsule(b.get(), rod, 0.01f, 0.5f, &d, nullptr));
        Sim sim;
        cc_pipeline_def pd = speculative_def(2.0f, mode);
        ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
        sim.set_velocity(rod, {0.0f, 0.0f, 0.0f}, {0.0f, 60.0f, 0.0f});
        float start = kinetic_energy(sim, rod);
        ASSERT_TRUE(run_collide_every(sim, 8, 1, 1.0f / 240.0f, [&](int k) {
            float e = kinetic_energy(sim, rod);
            EXPECT_LE(e, start * 1.01f) << "substep " << k;
            return e <= start * 1.01f;
        }));
    }
}

TEST_P(Speculative, NearlyParallelRowsAgainstTheWorldArrestABodyOnce)
{
    // Three spheres of one body close at 30 m/s on three planes whose
    // normals differ by about 1.4 degrees (each a different dominant axis):
    // the rows against the world stop the body once, never push it back.
    for (cc_speculative_mode mode : kBothModes) {
        SCOPED_TRACE(mode_name(mode));
        Builder b = make_builder_with_gravity({0, 0, 0}, 0.0f);
        const float k = 0.57735027f; // 1 / sqrt(3)
        cc_vec3 mean = {k, k, k};
        for (int axis = 0; axis < 3; ++axis) {
            cc_vec3 n = {1.0f, 1.0f, 1.0f};
            (axis == 0 ? n.x : axis == 1 ? n.y : n.z) += 0.03f;
            float l = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
            n = {n.x / l, n.y / l, n.z / l};
            // The rotation taking +z to n: about z x n by the angle between them.
            cc_vec3 axis_v = {-n.y, n.x, 0.0f};
            float s = std::sqrt(axis_v.x * axis_v.x + axis_v.y * axis_v.y), c = n.z;
            float half = 0.5f * std::atan2(s, c);
            cc_shape_def d = cc_default_shape_def();
            d.local.q = {axis_v.x / s * std::sin(half), axis_v.y / s * std::sin(half), 0.0f, std::cos(half)};
            d.local.p = {-0.3f * mean.x, -0.3f * mean.y, -0.3f * mean.z};
            CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &d, nullptr));
        }
        int body = add_body(b.get(), {0.0f, 0.0f, 0.0f});
        for (float offset : {-0.05f, 0.0f, 0.05f}) {
            cc_shape_def d = cc_default_shape_def();
            d.local.p = {offset, -offset, 0.0f};
            CC_ASSERT_OK(cc_builder_add_sphere(b.get(), body, 0.02f, &d, nullptr));
        }
        Sim sim;
        cc_pipeline_def pd = speculative_def(2.0f, mode);
        ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def(), &pd));
        sim.set_velocity(body, {-30.0f * mean.x, -30.0f * mean.y, -30.0f * mean.z});
        float fastest = 0.0f;
        ASSERT_TRUE(run_collide_every(sim, 16, 1, 1.0f / 240.0f, [&](int) {
            cc_vec3 v = sim.linear(body);
            fastest = std::max(fastest, std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z));
            return true;
        }));
        EXPECT_LE(fastest, 30.0f * 1.001f) << "no arrest adds speed";
        cc_vec3 v = sim.linear(body);
        EXPECT_LT(std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z), 1.0f) << "stopped at the planes";
    }
}

CC_INSTANTIATE_DEVICE_TEST(Speculative);

}  // namespace
