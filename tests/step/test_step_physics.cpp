// The step checked against closed-form physics: resting penetration, the
// restitution calibration, friction on an incline (compliant and penalty
// models), energy of frictionless bouncing, ballistic flight, torque-free
// rotation, and independence and reproducibility across worlds.
#include <cmath>
#include <cstring>

#include "kernels/step/law_compliant.h"
#include "tests/support/step_util.h"

using namespace cctest;

namespace {

const float kPi = 3.14159265358979f;

class Step : public DeviceTest {};

// Both integrators, for the tests whose closed forms hold for either.
const cc_integrator kIntegrators[] = {CC_INTEGRATOR_IMPLICIT, CC_INTEGRATOR_EXPLICIT};

const char* integrator_name(cc_integrator it) { return it == CC_INTEGRATOR_IMPLICIT ? "implicit" : "explicit"; }

// The defaults with integrator `it`.
cc_solver_def integrator_def(cc_integrator it)
{
    cc_solver_def d = cc_default_solver_def();
    d.integrator = it;
    return d;
}

// One square metre per point contact, so that the closed forms below read
// k h w = m g with w = 1.
cc_solver_def unit_def(cc_integrator it)
{
    cc_solver_def d = integrator_def(it);
    d.point_contact_weight = 1.0f;
    return d;
}

// A sphere of radius r (density 1000) on an infinite ground plane; returns the sphere's body.
int sphere_on_plane(cc_builder* b, float r, float height, const cc_shape_def& def)
{
    EXPECT_EQ(cc_builder_add_plane(b, CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr), CC_OK);
    int body = add_body(b, {0.0f, 0.0f, height});
    EXPECT_EQ(cc_builder_add_sphere(b, body, r, &def, nullptr), CC_OK) << cc_last_error_message();
    return body;
}

float sphere_mass(float r) { return 1000.0f * 4.0f / 3.0f * kPi * r * r * r; }

// Penetration at which the compliant normal load k h h' w balances m g.
double rest_penetration(double k, double eps, double delta, double weight, double mg)
{
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 200; ++i) {
        double mid = 0.5 * (lo + hi);
        double load = k * cc_ramp_h((float)mid, (float)eps, (float)delta) *
                      cc_ramp_slope((float)mid, (float)eps, (float)delta) * weight;
        (load < mg ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

TEST_P(Step, SphereRestsWherePenaltyBalancesWeightInTheLinearRegion)
{
    for (cc_integrator it : kIntegrators) {
        SCOPED_TRACE(integrator_name(it));
        // eps = 1 mm, delta = 0: the linear region starts at 2 mm of penetration;
        // k h w = m g puts the sphere at about 5 mm, so h = penetration - eps.
        const float r = 0.1f, k = 1.0e4f, eps = 1.0e-3f;
        Builder b = make_builder();
        cc_shape_def def = compliant_shape(k, eps, 0.0f, 0.5f, 5.0f);
        int body = sphere_on_plane(b.get(), r, r, def);
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), unit_def(it)));
        ASSERT_TRUE(sim.run(3000, 1.0e-3f));
        double mg = sphere_mass(r) * 9.81;
        double expected = mg / k + eps; // k (pen - eps) * 1 m^2 = m g
        ASSERT_GT(expected, 2.0 * eps) << "the test must rest in the linear region";
        double pen = r - sim.pose(body).p.z;
        EXPECT_NEAR(pen, expected, 0.01 * expected);
        EXPECT_LT(std::fabs(sim.linear(body).z), 1e-3f);
    }
}

TEST_P(Step, SphereRestsWhereSmoothedLoadBalancesWeight)
{
    for (cc_integrator it : kIntegrators) {
        SCOPED_TRACE(integrator_name(it));
        // The reference defaults for eps and delta, with k such that the rest
        // point lies inside the smoothing interval, where the load is k h h'.
        const float r = 0.1f, k = 1.0e6f;
        cc_compliant_params p = cc_default_compliant_params();
        Builder b = make_builder();
        cc_shape_def def = compliant_shape(k, p.smoothing_half_distance, p.threshold, 0.5f, 20.0f);
        int body = sphere_on_plane(b.get(), r, r, def);
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), unit_def(it)));
        ASSERT_TRUE(sim.run(4000, 2.5e-4f));
        double mg = sphere_mass(r) * 9.81;
        double expected = rest_penetration(k, p.smoothing_half_distance, p.threshold, 1.0, mg);
        double z = expected - (p.smoothing_half_distance - p.threshold);
        ASSERT_LT(std::fabs(z), p.smoothing_half_distance) << "the test must rest in the smoothing interval";
        double pen = r - sim.pose(body).p.z;
        EXPECT_NEAR(pen, expected, 0.01 * expected);
    }
}

// Rebound speed of a sphere hitting the plane at speed v (no gravity).
double rebound_ratio(cc_device device, float e, float v)
{
    const float r = 0.1f, k = 1.0e6f;
    float cn = cc_restitution_damping(e, v);
    EXPECT_GT(cn, 0.0f);
    Builder b = make_builder_with_gravity({0.0f, 0.0f, 0.0f});
    // A tiny smoothing interval: the impact happens in the linear region.
    cc_shape_def def = compliant_shape(k, 1.0e-6f, 0.0f, 0.0f, cn);
    int body = sphere_on_plane(b.get(), r, r + 1.0e-4f, def);
    Sim sim;
    if (!sim.create(b.get(), device, unit_def(CC_INTEGRATOR_EXPLICIT))) return -1.0;
    sim.set_velocity(body, {0.0f, 0.0f, -v});
    // Contact lasts about pi sqrt(m/k) = 6.4 ms; dt resolves it with 640 steps.
    if (!sim.run(2000, 1.0e-5f)) return -1.0;
    EXPECT_GT(sim.pose(body).p.z, r) << "the sphere must have left the plane";
    return sim.linear(body).z / v;
}

TEST_P(Step, RestitutionCalibrationGivesTheRequestedBounce)
{
    for (float e : {0.2f, 0.5f, 0.8f}) {
        double measured = rebound_ratio(device(), e, 1.0f);
        EXPECT_NEAR(measured, e, 0.05 * e) << "e = " << e;
    }
}

// A 0.2 m box (8 kg) on the ground, gravity tilted by theta about y: the
// ground acts as an incline. Returns the box's body.
int box_on_incline(cc_builder* b, const cc_shape_def& def)
{
    EXPECT_EQ(cc_builder_add_plane(b, CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr), CC_OK);
    int body = add_body(b, {0.0f, 0.0f, 0.1f});
    EXPECT_EQ(cc_builder_add_box(b, body, {0.1f, 0.1f, 0.1f}, &def, nullptr), CC_OK);
    return body;
}

cc_vec3 incline_gravity(float theta)
{
    return {9.81f * std::sin(theta), 0.0f, -9.81f * std::cos(theta)};
}

TEST_P(Step, CompliantFrictionHoldsBelowTheFrictionAngle)
{
    for (cc_integrator it : kIntegrators) {
        SCOPED_TRACE(integrator_name(it));
        const float theta = 20.0f * kPi / 180.0f, mu = 0.5f; // tan 20 deg = 0.36 < 0.5
        Builder b = make_builder_with_gravity(incline_gravity(theta));
        cc_shape_def def = compliant_shape(1.0e5f, 1.0e-5f, 0.0f, mu, 20.0f);
        int body = box_on_incline(b.get(), def);
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), unit_def(it)));
        ASSERT_TRUE(sim.run(10000, 1.0e-4f));
        float vf = def.compliant.friction_falloff_velocity;
        EXPECT_LT(std::fabs(sim.linear(body).x), vf) << "the box must creep below the falloff velocity";
        EXPECT_LT(std::fabs(sim.pose(body).p.x), vf * 1.0f) << "it may creep at most V_f x 1 s";
    }
}

TEST_P(Step, CompliantFrictionSlidesWithCoulombAcceleration)
{
    for (cc_integrator it : kIntegrators) {
        SCOPED_TRACE(integrator_name(it));
        const float theta = 35.0f * kPi / 180.0f, mu = 0.5f; // tan 35 deg = 0.70 > 0.5
        Builder b = make_builder_with_gravity(incline_gravity(theta));
        cc_shape_def def = compliant_shape(1.0e5f, 1.0e-5f, 0.0f, mu, 20.0f);
        int body = box_on_incline(b.get(), def);
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), unit_def(it)));
        ASSERT_TRUE(sim.run(5000, 1.0e-4f));
        float v1 = sim.linear(body).x;
        ASSERT_TRUE(sim.run(5000, 1.0e-4f));
        float v2 = sim.linear(body).x;
        double measured = (v2 - v1) / 0.5;
        double expected = 9.81 * (std::sin(theta) - mu * std::cos(theta));
        EXPECT_NEAR(measured, expected, 0.02 * expected);
    }
}

TEST_P(Step, PenaltyFrictionCreepsAtTheGainSpeed)
{
    for (cc_integrator it : kIntegrators) {
        SCOPED_TRACE(integrator_name(it));
        const float theta = 20.0f * kPi / 180.0f;
        Builder b = make_builder_with_gravity(incline_gravity(theta));
        cc_shape_def def = cc_default_shape_def(); // ke 2.5e3, kd 100, kf 1000, mu 1
        int body = box_on_incline(b.get(), def);
        cc_solver_def sd = unit_def(it);
        sd.contact_model = CC_CONTACT_PENALTY;
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), sd));
        ASSERT_TRUE(sim.run(4000, 5.0e-4f));
        double m = 8.0, contacts = 4.0;
        int n = 0;
        ASSERT_EQ(cc_contacts_count(sim.contacts.get(), &n), CC_OK);
        EXPECT_EQ(n, 4);
        double expected = m * 9.81 * std::sin(theta) / (contacts * def.material.kf);
        EXPECT_NEAR(sim.linear(body).x, expected, 0.1 * expected);
    }
}

TEST_P(Step, FrictionlessBouncingGainsNoEnergy)
{
    // Undamped, frictionless: the energy at the top of each bounce may only
    // wander within the integrator's error, not grow. Bound: +0.5% of the
    // initial energy after 1000 bounces (semi-implicit Euler is symplectic,
    // so the error stays bounded instead of drifting).
    const float r = 0.05f, k = 1.0e5f, h0 = 0.005f;
    Builder b = make_builder();
    cc_shape_def def = compliant_shape(k, 1.0e-4f, 0.0f, 0.0f, 0.0f);
    int body = sphere_on_plane(b.get(), r, r + h0, def);
    Sim sim;
    ASSERT_TRUE(sim.create(b.get(), device(), unit_def(CC_INTEGRATOR_EXPLICIT)));
    const double m = sphere_mass(r), g = 9.81;
    auto energy = [&]() {
        double z = sim.pose(body).p.z - r;
        cc_vec3 v = sim.linear(body);
        return m * g * z + 0.5 * m * (v.x * v.x + v.y * v.y + v.z * v.z);
    };
    double e0 = energy();
    // One bounce lasts 2 sqrt(2 h0 / g) = 64 ms; 1000 bounces.
    const float dt = 2.0e-4f;
    int bounces = 0;
    float prev_vz = 0.0f;
    double worst = 0.0;
    while (bounces < 1000) {
        ASSERT_TRUE(sim.run(1, dt));
        float vz = sim.linear(body).z;
        if (prev_vz > 0.0f && vz <= 0.0f) { // apex: out of contact
            ++bounces;
            worst = std::max(worst, energy() / e0 - 1.0);
        }
        prev_vz = vz;
    }
    EXPECT_LT(worst, 5e-3) << "energy grew beyond the integrator's error";
    EXPECT_GT(energy() / e0, 0.99) << "frictionless undamped contact must not lose energy either";
}

TEST_P(Step, BallisticFlightMatchesSemiImplicitEulerExactly)
{
    for (cc_integrator it : kIntegrators) {
        SCOPED_TRACE(integrator_name(it));
        Builder b = make_builder();
        int body = add_body(b.get(), {0.0f, 0.0f, 10.0f});
        ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, nullptr, nullptr), CC_OK);
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), unit_def(it)));
        sim.set_velocity(body, {1.0f, 0.0f, 2.0f});
        const int n = 100;
        const double dt = 1.0e-2;
        ASSERT_TRUE(sim.run(n, (float)dt));
        // v_k = v0 - g k dt, z_n = z0 + dt sum_{k=1..n} v_k.
        double z = 10.0 + dt * (2.0 * n - 9.81 * dt * n * (n + 1) / 2.0);
        EXPECT_NEAR(sim.pose(body).p.z, z, 2e-4);
        EXPECT_NEAR(sim.pose(body).p.x, 1.0, 1e-5);
        EXPECT_NEAR(sim.linear(body).z, 2.0 - 9.81 * n * dt, 1e-4);
    }
}

TEST_P(Step, TorqueFreeRotationKeepsAngularMomentum)
{
    // A 0.1 x 0.2 x 0.3 box spinning about a generic axis in free fall: with
    // the gyroscopic term the world angular momentum stays put (within the
    // explicit integrator's drift, 1% over 1 s at dt = 1e-4) and the
    // quaternion stays unit.
    Builder b = make_builder_with_gravity({0.0f, 0.0f, 0.0f});
    int body = add_body(b.get(), {0.0f, 0.0f, 0.0f});
    ASSERT_EQ(cc_builder_add_box(b.get(), body, {0.05f, 0.1f, 0.15f}, nullptr, nullptr), CC_OK);
    Sim sim;
    ASSERT_TRUE(sim.create(b.get(), device(), unit_def(CC_INTEGRATOR_EXPLICIT)));
    cc_mass_properties mp;
    ASSERT_EQ(cc_model_get_body_mass(sim.model.get(), body, &mp), CC_OK);
    auto momentum = [&]() {
        cc_transform t = sim.pose(body);
        cc_vec3 w = sim.angular(body);
        // L = R I R^T w, with R from the quaternion.
        float x = t.q.x, y = t.q.y, zq = t.q.z, s = t.q.w;
        double R[3][3] = {{1 - 2 * (y * y + zq * zq), 2 * (x * y - s * zq), 2 * (x * zq + s * y)},
                          {2 * (x * y + s * zq), 1 - 2 * (x * x + zq * zq), 2 * (y * zq - s * x)},
                          {2 * (x * zq - s * y), 2 * (y * zq + s * x), 1 - 2 * (x * x + y * y)}};
        double wv[3] = {w.x, w.y, w.z}, wb[3], lb[3], l[3];
        for (int i = 0; i < 3; ++i) wb[i] = R[0][i] * wv[0] + R[1][i] * wv[1] + R[2][i] * wv[2];
        for (int i = 0; i < 3; ++i)
            lb[i] = mp.inertia[3 * i] * wb[0] + mp.inertia[3 * i + 1] * wb[1] + mp.inertia[3 * i + 2] * wb[2];
        for (int i = 0; i < 3; ++i) l[i] = R[i][0] * lb[0] + R[i][1] * lb[1] + R[i][2] * lb[2];
        return std::vector<double>{l[0], l[1], l[2]};
    };
    sim.set_velocity(body, {0, 0, 0}, {3.0f, 0.2f, 1.0f});
    std::vector<double> l0 = momentum();
    ASSERT_TRUE(sim.run(10000, 1.0e-4f));
    std::vector<double> l1 = momentum();
    double norm = std::sqrt(l0[0] * l0[0] + l0[1] * l0[1] + l0[2] * l0[2]);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(l1[(size_t)i], l0[(size_t)i], 0.01 * norm) << "component " << i;
    cc_quat q = sim.pose(body).q;
    EXPECT_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1.0, 1e-6);
    // The body actually turned (the axis is not principal): w changed.
    cc_vec3 w = sim.angular(body);
    EXPECT_GT(std::fabs(w.x - 3.0f) + std::fabs(w.y - 0.2f) + std::fabs(w.z - 1.0f), 0.05f);
}

// Four worlds of a small box pile on a shared ground plane.
Builder box_pile_worlds(int worlds)
{
    Builder templ = make_builder();
    cc_shape_def def = compliant_shape(1.0e5f, 1.0e-4f, 0.0f, 0.5f, 1.0f);
    for (int i = 0; i < 4; ++i) {
        int body = add_body(templ.get(), {0.05f * (float)(i % 2), 0.0f, 0.1f + 0.21f * (float)i},
                            {0.0f, 0.0f, std::sin(0.1f * (float)i), std::cos(0.1f * (float)i)});
        EXPECT_EQ(cc_builder_add_box(templ.get(), body, {0.1f, 0.1f, 0.1f}, &def, nullptr), CC_OK);
    }
    Builder b = make_builder();
    EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr), CC_OK);
    EXPECT_EQ(cc_builder_replicate(b.get(), templ.get(), worlds, nullptr), CC_OK);
    return b;
}

TEST_P(Step, PerturbingOneWorldLeavesTheOthersBitIdentical)
{
    for (cc_integrator it : kIntegrators) {
        SCOPED_TRACE(integrator_name(it));
        // On the GPU, atomics sum in a varying order, so only the deterministic
        // pipeline and solver are bit-reproducible there.
        for (int deterministic = GetParam() == CC_DEVICE_CUDA; deterministic < 2; ++deterministic) {
            Builder b = box_pile_worlds(3);
            cc_solver_def sd = integrator_def(it);
            sd.deterministic = deterministic;
            cc_pipeline_def pd = cc_default_pipeline_def();
            pd.deterministic = deterministic;
            Sim a, c;
            ASSERT_TRUE(a.create(b.get(), device(), sd, &pd));
            ASSERT_TRUE(c.create(b.get(), device(), sd, &pd));
            // World 1 (bodies 4..7) gets a kick in one run only.
            c.set_velocity(5, {0.3f, -0.2f, 0.0f}, {0.0f, 0.0f, 2.0f});
            ASSERT_TRUE(a.run(300, 1.0e-3f));
            ASSERT_TRUE(c.run(300, 1.0e-3f));
            std::vector<float> sa = a.snapshot(), sc = c.snapshot();
            const size_t per_world = 4 * 13;
            EXPECT_EQ(0, std::memcmp(sa.data(), sc.data(), per_world * sizeof(float))) << "world 0 changed";
            EXPECT_NE(0, std::memcmp(sa.data() + per_world, sc.data() + per_world, per_world * sizeof(float)))
                << "world 1 was not perturbed";
            EXPECT_EQ(0, std::memcmp(sa.data() + 2 * per_world, sc.data() + 2 * per_world, per_world * sizeof(float)))
                << "world 2 changed";
        }
    }
}

TEST_P(Step, DeterministicStepRepeatsToTheBit)
{
    for (cc_integrator it : kIntegrators) {
        SCOPED_TRACE(integrator_name(it));
        Builder b = box_pile_worlds(8);
        cc_solver_def sd = integrator_def(it);
        sd.deterministic = 1;
        cc_pipeline_def pd = cc_default_pipeline_def();
        pd.deterministic = 1;
        std::vector<float> first;
        for (int run = 0; run < 2; ++run) {
            Sim sim;
            ASSERT_TRUE(sim.create(b.get(), device(), sd, &pd));
            ASSERT_TRUE(sim.run(100, 1.0e-3f));
            std::vector<float> s = sim.snapshot();
            if (run == 0) first = s;
            else EXPECT_EQ(0, std::memcmp(first.data(), s.data(), s.size() * sizeof(float)));
        }
        // The boxes did move and touch: the pile settled under gravity.
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), sd, &pd));
        ASSERT_TRUE(sim.run(100, 1.0e-3f));
        int n = 0;
        ASSERT_EQ(cc_contacts_count(sim.contacts.get(), &n), CC_OK);
        EXPECT_GT(n, 8 * 4);
    }
}

TEST_P(Step, DeterministicAndAtomicSumsAgree)
{
    for (cc_integrator it : kIntegrators) {
        SCOPED_TRACE(integrator_name(it));
        Builder b = box_pile_worlds(2);
        cc_solver_def sd = integrator_def(it);
        Sim atomic, sorted;
        ASSERT_TRUE(atomic.create(b.get(), device(), sd));
        sd.deterministic = 1;
        ASSERT_TRUE(sorted.create(b.get(), device(), sd));
        ASSERT_TRUE(atomic.run(50, 1.0e-3f));
        ASSERT_TRUE(sorted.run(50, 1.0e-3f));
        std::vector<float> a = atomic.snapshot(), s = sorted.snapshot();
        for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], s[i], 1e-4f) << "entry " << i;
    }
}

TEST_P(Step, FrameGraphReplayEqualsTheDirectLoop)
{
    for (cc_integrator it : kIntegrators) {
        SCOPED_TRACE(integrator_name(it));
        for (int substeps : {1, 4}) {
            // Deterministic collide and step, so that the GPU's two runs can be
            // compared to the bit as well.
            Builder b = box_pile_worlds(4);
            cc_solver_def sd = integrator_def(it);
            sd.deterministic = 1;
            cc_pipeline_def pd = cc_default_pipeline_def();
            pd.deterministic = 1;
            Sim direct, graph;
            ASSERT_TRUE(direct.create(b.get(), device(), sd, &pd));
            ASSERT_TRUE(graph.create(b.get(), device(), sd, &pd));
            const float dt = 1.0e-3f;
            const int collide_every = 2, frames = 1000;
            // The direct loop: collide every second substep, ping-pong states.
            for (int f = 0; f < frames; ++f) {
                for (int k = 0; k < substeps; ++k) {
                    cc_state* in = direct.state[direct.current].get();
                    cc_state* out = direct.state[1 - direct.current].get();
                    if (k % collide_every == 0) CC_ASSERT_OK(cc_collide(direct.pipeline.get(), in, direct.contacts.get(), nullptr));
                    CC_ASSERT_OK(cc_step(direct.solver.get(), in, out, direct.contacts.get(), dt, nullptr));
                    direct.current = 1 - direct.current;
                }
            }
            cc_state* states[2] = {graph.state[0].get(), graph.state[1].get()};
            cc_frame_graph* g = nullptr;
            CC_ASSERT_OK(cc_frame_graph_create(graph.pipeline.get(), graph.solver.get(), states, substeps, collide_every, dt,
                                               nullptr, &g));
            FrameGraph owned(g);
            for (int f = 0; f < frames; ++f) CC_ASSERT_OK(cc_frame_graph_launch(g, nullptr));
            graph.current = 0; // the frame always ends in states[0]
            std::vector<float> d = direct.snapshot(), r = graph.snapshot();
            ASSERT_EQ(d.size(), r.size());
            EXPECT_EQ(0, std::memcmp(d.data(), r.data(), d.size() * sizeof(float))) << substeps << " substeps";
            int n = 0;
            ASSERT_EQ(cc_contacts_count(cc_frame_graph_contacts(g), &n), CC_OK);
            EXPECT_GT(n, 0);
            EXPECT_EQ(cc_frame_graph_exec(g) != nullptr, GetParam() == CC_DEVICE_CUDA);
        }
    }
}

CC_INSTANTIATE_DEVICE_TEST(Step);

// Loads the CPU simulation's current poses and velocities into `dst`.
void copy_state(Sim& src, Sim& dst)
{
    int n = cc_model_body_count(src.model.get());
    std::vector<cc_transform> poses((size_t)n);
    std::vector<cc_vec3> lin((size_t)n), ang((size_t)n);
    ASSERT_EQ(cc_state_get_body_poses(src.now(), 0, n, poses.data()), CC_OK);
    ASSERT_EQ(cc_state_get_body_velocities(src.now(), 0, n, lin.data(), ang.data()), CC_OK);
    ASSERT_EQ(cc_state_set_body_poses(dst.now(), 0, n, poses.data()), CC_OK);
    ASSERT_EQ(cc_state_set_body_velocities(dst.now(), 0, n, lin.data(), ang.data()), CC_OK);
}

TEST(StepCrossBackend, CudaStepsAgreeWithTheCpu)
{
    if (cc_cuda_device_count() == 0)
        GTEST_SKIP() << "no CUDA device on this machine; the cross-check runs in scripts/gpu-check.sh";
    // A settling pile is chaotic: a few ulps of difference per step (nvcc
    // contracts multiply-adds) grow over a trajectory, so trajectories are
    // not compared. Instead, from states along the CPU's trajectory, one
    // collide and step on each backend must agree within rounding noise:
    // 1e-5 of a metre, a metre per second or a radian per second (a stiff
    // contact turns a 1e-7 m difference in depth into about 1e-5 m/s).
    Builder b = box_pile_worlds(16);
    cc_solver_def sd = cc_default_solver_def();
    sd.deterministic = 1;
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.deterministic = 1;
    Sim cpu, gpu;
    ASSERT_TRUE(cpu.create(b.get(), cc_device_cpu(), sd, &pd));
    ASSERT_TRUE(gpu.create(b.get(), cc_device_cuda(0), sd, &pd));
    for (int leg = 0; leg < 5; ++leg) {
        SCOPED_TRACE(testing::Message() << "after " << 40 * leg << " steps");
        copy_state(cpu, gpu);
        Sim* sims[2] = {&cpu, &gpu};
        std::vector<float> after[2];
        for (int k = 0; k < 2; ++k) {
            ASSERT_TRUE(sims[k]->run(1, 1.0e-3f));
            after[k] = sims[k]->snapshot();
        }
        ASSERT_EQ(after[0].size(), after[1].size());
        for (size_t i = 0; i < after[0].size(); ++i) EXPECT_NEAR(after[0][i], after[1][i], 1e-5f) << "entry " << i;
        ASSERT_TRUE(cpu.run(39, 1.0e-3f));
    }
}

#if defined(CC_TEST_STRICT_FP)
TEST(StepCrossBackend, StrictFloatingPointTrajectoriesAgreeToTheBit)
{
    if (cc_cuda_device_count() == 0)
        GTEST_SKIP() << "no CUDA device on this machine; the cross-check runs in scripts/gpu-check.sh";
    // Without multiply-add contraction both backends evaluate the same
    // float operations in the same order: 200 steps agree to the bit.
    Builder b = box_pile_worlds(16);
    cc_solver_def sd = cc_default_solver_def();
    sd.deterministic = 1;
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.deterministic = 1;
    Sim cpu, gpu;
    ASSERT_TRUE(cpu.create(b.get(), cc_device_cpu(), sd, &pd));
    ASSERT_TRUE(gpu.create(b.get(), cc_device_cuda(0), sd, &pd));
    ASSERT_TRUE(cpu.run(200, 1.0e-3f));
    ASSERT_TRUE(gpu.run(200, 1.0e-3f));
    std::vector<float> c = cpu.snapshot(), g = gpu.snapshot();
    ASSERT_EQ(c.size(), g.size());
    EXPECT_EQ(0, std::memcmp(c.data(), g.data(), sizeof(float) * c.size()));
}
#endif

}  // namespace
