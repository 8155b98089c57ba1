// Bodies' mass properties through the builder (shapes summed, explicit
// overrides, the finalized model), and the solver API's rejection of bad
// input: each bad call names what was wrong and changes nothing.
#include <cmath>
#include <cstring>
#include <string>

#include "tests/support/step_util.h"

using namespace cctest;

namespace {

std::string message() { return cc_last_error_message(); }

TEST(BodyMass, TwoShapesSumWithTheParallelAxisTheorem)
{
    Builder b = make_builder();
    int body = add_body(b.get(), {1, 2, 3});
    // Two unit-density-1000 boxes of 0.2 m, at x = -0.5 and x = +0.5.
    cc_shape_def def = cc_default_shape_def();
    def.local.p = {-0.5f, 0.0f, 0.0f};
    ASSERT_EQ(cc_builder_add_box(b.get(), body, {0.1f, 0.1f, 0.1f}, &def, nullptr), CC_OK);
    def.local.p = {0.5f, 0.0f, 0.0f};
    def.density = 3000.0f;
    ASSERT_EQ(cc_builder_add_box(b.get(), body, {0.1f, 0.1f, 0.1f}, &def, nullptr), CC_OK);
    cc_mass_properties mp;
    ASSERT_EQ(cc_builder_get_body_mass(b.get(), body, &mp), CC_OK);
    const double m1 = 8.0, m2 = 24.0, own = 8.0 * 0.04 / 6.0; // box: m (2a)^2 / 6
    EXPECT_NEAR(mp.mass, m1 + m2, 1e-4);
    double cx = (m1 * -0.5 + m2 * 0.5) / (m1 + m2);
    EXPECT_NEAR(mp.center.x, cx, 1e-6);
    EXPECT_NEAR(mp.center.y, 0.0, 1e-7);
    // Ixx: no offset along y or z; Iyy, Izz: parallel axis about cx.
    double iyy = own * (1 + 3) + m1 * (-0.5 - cx) * (-0.5 - cx) + m2 * (0.5 - cx) * (0.5 - cx);
    EXPECT_NEAR(mp.inertia[0], own * 4, 1e-5);
    EXPECT_NEAR(mp.inertia[4], iyy, 1e-5);
    EXPECT_NEAR(mp.inertia[8], iyy, 1e-5);
    EXPECT_NEAR(mp.inertia[1], 0.0, 1e-6);
}

TEST(BodyMass, PlanesAndZeroDensityAddNothingAndExplicitMassWins)
{
    Builder b = make_builder();
    int body = add_body(b.get(), {0, 0, 0});
    cc_shape_def light = cc_default_shape_def();
    light.density = 0.0f;
    ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.5f, &light, nullptr), CC_OK);
    ASSERT_EQ(cc_builder_add_plane(b.get(), body, 1.0f, 1.0f, nullptr, nullptr), CC_OK);
    cc_mass_properties mp;
    ASSERT_EQ(cc_builder_get_body_mass(b.get(), body, &mp), CC_OK);
    EXPECT_EQ(mp.mass, 0.0f);
    cc_mass_properties explicit_mass = {2.0f, {0.1f, 0.0f, 0.0f}, {1, 0, 0, 0, 2, 0, 0, 0, 3}};
    ASSERT_EQ(cc_builder_set_body_mass(b.get(), body, &explicit_mass), CC_OK);
    ASSERT_EQ(cc_builder_get_body_mass(b.get(), body, &mp), CC_OK);
    EXPECT_EQ(mp.mass, 2.0f);
    EXPECT_EQ(mp.inertia[8], 3.0f);
    cc_model* m = nullptr;
    ASSERT_EQ(cc_builder_finalize(b.get(), cc_device_cpu(), &m), CC_OK);
    Model model(m);
    ASSERT_EQ(cc_model_get_body_mass(m, body, &mp), CC_OK);
    EXPECT_EQ(mp.center.x, 0.1f);
    EXPECT_EQ(cc_model_gravity(m).z, -9.81f);
    // NULL returns to the shapes' (zero) mass.
    ASSERT_EQ(cc_builder_set_body_mass(b.get(), body, nullptr), CC_OK);
    ASSERT_EQ(cc_builder_get_body_mass(b.get(), body, &mp), CC_OK);
    EXPECT_EQ(mp.mass, 0.0f);
}

TEST(BodyMass, AMasslessDynamicBodyStaysPut)
{
    Builder b = make_builder();
    int body = add_body(b.get(), {0, 0, 1});
    cc_shape_def light = cc_default_shape_def();
    light.density = 0.0f;
    ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.5f, &light, nullptr), CC_OK);
    Sim sim;
    ASSERT_TRUE(sim.create(b.get(), cc_device_cpu(), cc_default_solver_def()));
    ASSERT_TRUE(sim.run(10, 0.01f));
    EXPECT_EQ(sim.pose(body).p.z, 1.0f);
}

TEST(BodyMass, BadMassesAreRejected)
{
    Builder b = make_builder();
    int body = add_body(b.get(), {0, 0, 0});
    cc_mass_properties mp = {1.0f, {0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}};
    cc_mass_properties bad = mp;
    bad.mass = -1.0f;
    EXPECT_EQ(cc_builder_set_body_mass(b.get(), body, &bad), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("mass"), std::string::npos) << message();
    bad = mp;
    bad.inertia[1] = 0.5f; // not symmetric
    EXPECT_EQ(cc_builder_set_body_mass(b.get(), body, &bad), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("symmetric positive definite"), std::string::npos) << message();
    bad = mp;
    bad.inertia[8] = -1.0f; // indefinite
    EXPECT_EQ(cc_builder_set_body_mass(b.get(), body, &bad), CC_ERR_INVALID_ARGUMENT);
    bad = mp;
    bad.center.x = NAN;
    EXPECT_EQ(cc_builder_set_body_mass(b.get(), body, &bad), CC_ERR_NOT_FINITE);
    EXPECT_EQ(cc_builder_set_body_mass(b.get(), 7, &mp), CC_ERR_INVALID_BODY);
    cc_mass_properties got;
    ASSERT_EQ(cc_builder_get_body_mass(b.get(), body, &got), CC_OK);
    EXPECT_EQ(got.mass, 0.0f) << "a rejected call changed the body";
}

TEST(MaterialInput, BadMaterialsAreRejectedAndAddNoShape)
{
    Builder b = make_builder();
    int body = add_body(b.get(), {0, 0, 0});
    struct Case {
        const char* field;
        void (*spoil)(cc_shape_def*);
    } cases[] = {
        {"density", [](cc_shape_def* d) { d->density = -1.0f; }},
        {"density", [](cc_shape_def* d) { d->density = NAN; }},
        {"material.mu", [](cc_shape_def* d) { d->material.mu = -0.1f; }},
        {"material.ke", [](cc_shape_def* d) { d->material.ke = INFINITY; }},
        {"material.restitution", [](cc_shape_def* d) { d->material.restitution = 1.5f; }},
        {"compliant.penalty_coefficient", [](cc_shape_def* d) { d->compliant.penalty_coefficient = -1.0f; }},
        {"compliant.smoothing_half_distance", [](cc_shape_def* d) { d->compliant.smoothing_half_distance = 0.0f; }},
        {"compliant.threshold", [](cc_shape_def* d) { d->compliant.threshold = NAN; }},
        {"compliant.friction_falloff_velocity", [](cc_shape_def* d) { d->compliant.friction_falloff_velocity = 0.0f; }},
        {"compliant.max_alignment", [](cc_shape_def* d) { d->compliant.max_alignment = 1.5f; }},
        {"compliant.normal_damping", [](cc_shape_def* d) { d->compliant.normal_damping = -2.0f; }},
    };
    for (const Case& c : cases) {
        cc_shape_def d = cc_default_shape_def();
        c.spoil(&d);
        EXPECT_NE(cc_builder_add_sphere(b.get(), body, 0.1f, &d, nullptr), CC_OK) << c.field;
        EXPECT_NE(message().find(c.field), std::string::npos) << message();
    }
    EXPECT_EQ(cc_builder_shape_count(b.get()), 0);
}

TEST(MaterialInput, DefaultsAreTheReferenceDefaults)
{
    cc_shape_def d = cc_default_shape_def();
    EXPECT_EQ(d.density, 1000.0f);
    EXPECT_EQ(d.material.mu, 1.0f);
    EXPECT_EQ(d.material.ke, 2.5e3f);
    EXPECT_EQ(d.material.kd, 100.0f);
    EXPECT_EQ(d.material.kf, 1000.0f);
    EXPECT_EQ(d.material.ka, 0.0f);
    EXPECT_EQ(d.material.mu_torsional, 0.005f);
    EXPECT_EQ(d.material.mu_rolling, 0.0001f);
    EXPECT_EQ(d.material.kh, 1.0e10f);
    EXPECT_EQ(d.compliant.penalty_coefficient, 1.0e9f);
    EXPECT_EQ(d.compliant.smoothing_half_distance, 0.005f);
    EXPECT_EQ(d.compliant.threshold, 0.001f);
    EXPECT_EQ(d.compliant.friction_falloff_velocity, 0.01f);
    EXPECT_EQ(d.compliant.coulomb_friction, 0.5f);
    EXPECT_EQ(d.compliant.max_alignment, 0.0f);
    EXPECT_EQ(d.compliant.friction_with_collider_normal, 1);
    cc_shape_info info;
    Builder b = make_builder();
    ASSERT_EQ(cc_builder_add_sphere(b.get(), CC_BODY_WORLD, 0.1f, &d, nullptr), CC_OK);
    ASSERT_EQ(cc_builder_get_shape_info(b.get(), 0, &info), CC_OK);
    EXPECT_EQ(info.material.kf, 1000.0f);
    EXPECT_EQ(info.density, 1000.0f);
}

TEST(SolverInput, BadCallsNameTheProblem)
{
    Builder b = make_builder();
    int body = add_body(b.get(), {0, 0, 1});
    ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, nullptr, nullptr), CC_OK);
    Sim sim;
    ASSERT_TRUE(sim.create(b.get(), cc_device_cpu(), cc_default_solver_def()));
    cc_solver* s = nullptr;
    cc_solver_def d = cc_default_solver_def();
    d.point_contact_weight = -1.0f;
    EXPECT_EQ(cc_solver_create(sim.model.get(), &d, 16, &s), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("point_contact_weight"), std::string::npos) << message();
    d = cc_default_solver_def();
    d.integrator = (cc_integrator)7;
    EXPECT_EQ(cc_solver_create(sim.model.get(), &d, 16, &s), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("integrator"), std::string::npos) << message();
    d = cc_default_solver_def();
    d.implicit_sweeps = 65;
    EXPECT_EQ(cc_solver_create(sim.model.get(), &d, 16, &s), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("implicit_sweeps"), std::string::npos) << message();
    EXPECT_EQ(cc_solver_get_report(nullptr, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_solver_reset_report(nullptr), CC_ERR_INVALID_ARGUMENT);
    cc_solver_def raw;
    std::memset(&raw, 0, sizeof raw);
    EXPECT_EQ(cc_solver_create(sim.model.get(), &raw, 16, &s), CC_ERR_UNINITIALIZED_DEF);
    EXPECT_EQ(cc_solver_create(sim.model.get(), nullptr, -1, &s), CC_ERR_INVALID_CAPACITY);

    cc_state* a = sim.state[0].get();
    cc_state* c = sim.state[1].get();
    EXPECT_EQ(cc_step(sim.solver.get(), a, a, nullptr, 0.01f, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("same state"), std::string::npos) << message();
    EXPECT_EQ(cc_step(sim.solver.get(), a, c, nullptr, 0.0f, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_step(sim.solver.get(), a, c, nullptr, NAN, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("dt"), std::string::npos) << message();
    EXPECT_EQ(cc_step(sim.solver.get(), a, c, nullptr, 1e30f, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(message().find("(0, 10] s"), std::string::npos) << message();
    EXPECT_EQ(cc_step(sim.solver.get(), a, c, nullptr, CC_STEP_DT_MAX, nullptr), CC_OK);

    // A state of another model.
    Sim other;
    ASSERT_TRUE(other.create(b.get(), cc_device_cpu(), cc_default_solver_def()));
    EXPECT_EQ(cc_step(sim.solver.get(), a, other.state[0].get(), nullptr, 0.01f, nullptr), CC_ERR_MISMATCH);
    EXPECT_EQ(cc_state_copy(a, other.state[0].get(), nullptr), CC_ERR_MISMATCH);

    // Nothing moved: the rejected steps changed no state.
    EXPECT_EQ(sim.pose(body).p.z, 1.0f);

    cc_state* states[2] = {a, c};
    cc_state* same[2] = {a, a};
    cc_frame_graph* g = nullptr;
    EXPECT_EQ(cc_frame_graph_create(sim.pipeline.get(), sim.solver.get(), states, 0, 1, 0.01f, nullptr, &g),
              CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_frame_graph_create(sim.pipeline.get(), sim.solver.get(), same, 2, 1, 0.01f, nullptr, &g),
              CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_frame_graph_create(sim.pipeline.get(), other.solver.get(), states, 2, 1, 0.01f, nullptr, &g),
              CC_ERR_MISMATCH);
    ASSERT_EQ(cc_pipeline_set_profiling(sim.pipeline.get(), 1), CC_OK);
    EXPECT_EQ(cc_frame_graph_create(sim.pipeline.get(), sim.solver.get(), states, 2, 1, 0.01f, nullptr, &g),
              CC_ERR_INVALID_STATE);
    EXPECT_NE(message().find("profiling"), std::string::npos) << message();
    EXPECT_EQ(g, nullptr);
}

TEST(SolverInput, DeterministicSolverRejectsALargerContactBuffer)
{
    Builder b = make_builder();
    ASSERT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0, 0, 0.1f});
    ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, nullptr, nullptr), CC_OK);
    Sim sim;
    ASSERT_TRUE(sim.create(b.get(), cc_device_cpu(), cc_default_solver_def()));
    cc_solver_def d = cc_default_solver_def();
    d.deterministic = 1;
    cc_solver* s = nullptr;
    ASSERT_EQ(cc_solver_create(sim.model.get(), &d, 1, &s), CC_OK);
    Solver small(s);
    EXPECT_EQ(cc_step(s, sim.state[0].get(), sim.state[1].get(), sim.contacts.get(), 0.01f, nullptr),
              CC_ERR_INVALID_CAPACITY);
    EXPECT_NE(message().find("rigid_contact_max"), std::string::npos) << message();
}

TEST(SolverInput, ASolverSteppingSpeculativeRowsRejectsALargerContactBuffer)
{
    // Speculative rows keep per-row scratch in the solver, so even the
    // explicit step without sweeps needs the buffer's capacity; a plain
    // buffer still steps with any solver.
    Builder b = make_builder();
    ASSERT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0, 0, 0.1f});
    ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, nullptr, nullptr), CC_OK);
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.speculative_contact_gap_max = 1.0f;
    Sim sim;
    ASSERT_TRUE(sim.create(b.get(), cc_device_cpu(), cc_default_solver_def(), &pd));
    cc_solver_def d = cc_default_solver_def();
    d.integrator = CC_INTEGRATOR_EXPLICIT;
    d.implicit_sweeps = 0;
    cc_solver* s = nullptr;
    ASSERT_EQ(cc_solver_create(sim.model.get(), &d, 1, &s), CC_OK);
    Solver small(s);
    EXPECT_EQ(cc_step(s, sim.state[0].get(), sim.state[1].get(), sim.contacts.get(), 0.01f, nullptr),
              CC_ERR_INVALID_CAPACITY);
    EXPECT_NE(message().find("speculative"), std::string::npos) << message();
    Sim plain;
    ASSERT_TRUE(plain.create(b.get(), cc_device_cpu(), cc_default_solver_def()));
    cc_solver* t = nullptr;
    ASSERT_EQ(cc_solver_create(plain.model.get(), &d, 1, &t), CC_OK);
    Solver other(t);
    EXPECT_EQ(cc_step(t, plain.state[0].get(), plain.state[1].get(), plain.contacts.get(), 0.01f, nullptr), CC_OK)
        << message();
}

TEST(RestitutionHelpers, PublicCalibrationRoundTrips)
{
    for (float e : {0.1f, 0.5f, 0.9f, 1.0f}) {
        float cn = cc_restitution_damping(e, 2.0f);
        EXPECT_NEAR(cc_restitution_from_damping(cn, 2.0f), e, 1e-5f);
    }
    EXPECT_LT(cc_restitution_damping(0.0f, 1.0f), 0.0f);
    EXPECT_LT(cc_restitution_damping(0.5f, -1.0f), 0.0f);
    EXPECT_LT(cc_restitution_from_damping(-1.0f, 1.0f), 0.0f);
}

}  // namespace
