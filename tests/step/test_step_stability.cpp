// The step at its defaults: single bodies of every type dropped on a plane
// settle without gaining energy, a mixed pile settles with each shipped
// material, the implicit step holds a stiffness the explicit one cannot,
// the stability report flags a too-long explicit step and stays silent
// otherwise, and the restitution calibration as the implicit step gives it.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "benchmarks/settle.h"
#include "kernels/step/integrate.h"
#include "tests/support/mesh_util.h"
#include "tests/support/step_util.h"

using namespace cctest;

namespace {

class Stability : public DeviceTest {};

const float kDt = 1.0e-3f;

enum Kind { SPHERE, CAPSULE, BOX, CYLINDER, CONE, ELLIPSOID, HULL, MESH, KIND_COUNT };
const char* const kKindNames[KIND_COUNT] = {"sphere", "capsule", "box", "cylinder", "cone", "ellipsoid", "hull", "mesh"};

// One body of `kind` and size s (its largest half extent) whose lowest
// point is `drop` above the ground plane, resting pose upright (a capsule
// lying). Returns its body.
int drop_one(cc_builder* b, Kind kind, float s, float drop, const cc_shape_def& def)
{
    EXPECT_EQ(cc_builder_add_plane(b, CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr), CC_OK);
    // Half heights of the resting shapes below their origin.
    const float low[KIND_COUNT] = {s, 0.5f * s, 0.6f * s, 0.7f * s, s, 0.5f * s, s, 0.6f * s};
    int body = add_body(b, {0.0f, 0.0f, low[kind] + drop});
    cc_status st = CC_OK;
    switch (kind) {
    case SPHERE: st = cc_builder_add_sphere(b, body, s, &def, nullptr); break;
    case CAPSULE: {
        cc_shape_def d = def;
        d.local.q = {0.0f, 0.70710678f, 0.0f, 0.70710678f}; // along x
        st = cc_builder_add_capsule(b, body, 0.5f * s, 0.5f * s, &d, nullptr);
        break;
    }
    case BOX: st = cc_builder_add_box(b, body, {s, 0.8f * s, 0.6f * s}, &def, nullptr); break;
    case CYLINDER: st = cc_builder_add_cylinder(b, body, s, 0.7f * s, &def, nullptr); break;
    case CONE: st = cc_builder_add_cone(b, body, s, s, &def, nullptr); break;
    case ELLIPSOID: st = cc_builder_add_ellipsoid(b, body, {s, 0.7f * s, 0.5f * s}, &def, nullptr); break;
    case HULL: {
        // An octahedron: a point down, as a hull rests on a vertex or a face.
        std::vector<cc_vec3> pts = {{s, 0, 0}, {-s, 0, 0}, {0, s, 0}, {0, -s, 0}, {0, 0, s}, {0, 0, -s},
                                    {0.5f * s, 0.5f * s, -0.9f * s}, {-0.5f * s, 0.5f * s, -0.9f * s},
                                    {0.5f * s, -0.5f * s, -0.9f * s}, {-0.5f * s, -0.5f * s, -0.9f * s}};
        cc_convex_hull_def hd = cc_default_convex_hull_def();
        int hull = -1;
        EXPECT_EQ(cc_builder_add_convex_hull_data(b, pts.data(), (int)pts.size(), &hd, &hull), CC_OK);
        st = cc_builder_add_convex_hull(b, body, hull, {1, 1, 1}, &def, nullptr);
        break;
    }
    case MESH:
    default: {
        int mesh = add_mesh_data(b, box_mesh({s, 0.8f * s, 0.6f * s}));
        st = cc_builder_add_mesh(b, body, mesh, {1, 1, 1}, &def, nullptr);
        break;
    }
    }
    EXPECT_EQ(st, CC_OK) << cc_last_error_message();
    return body;
}

struct Drop {
    double e0 = 0, worst_gain = 0, highest_after_contact = 0, z0 = 0;
    double speed = 0, spin = 0, deepest = 0, hover = 0;
    bool finite = true, touched = false;
};

// Drops one body 15 cm and steps 3 s at 1 ms, collide every step.
Drop run_drop(cc_device device, Kind kind, float s, const cc_solver_def& sd)
{
    Builder b = make_builder(0.02f);
    cc_shape_def def = cc_default_shape_def();
    int body = drop_one(b.get(), kind, s, 0.15f, def);
    Sim sim;
    Drop d;
    if (!sim.create(b.get(), device, sd)) return d;
    cc_mass_properties mp;
    EXPECT_EQ(cc_model_get_body_mass(sim.model.get(), body, &mp), CC_OK);
    auto energy = [&]() {
        cc_transform t = sim.pose(body);
        cc_vec3 v = sim.linear(body), w = sim.angular(body);
        // Body axes: w_b = R^T w (the shapes' centre of mass is the origin).
        cc_quat c = {-t.q.x, -t.q.y, -t.q.z, t.q.w};
        cc_vec3 u = {2 * (c.y * w.z - c.z * w.y), 2 * (c.z * w.x - c.x * w.z), 2 * (c.x * w.y - c.y * w.x)};
        double wb[3] = {w.x + c.w * u.x + (c.y * u.z - c.z * u.y), w.y + c.w * u.y + (c.z * u.x - c.x * u.z),
                        w.z + c.w * u.z + (c.x * u.y - c.y * u.x)};
        double rot = 0;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) rot += 0.5 * wb[i] * mp.inertia[3 * i + j] * wb[j];
        return mp.mass * 9.81 * (t.p.z + mp.center.z) + 0.5 * mp.mass * (v.x * v.x + v.y * v.y + v.z * v.z) + rot;
    };
    d.e0 = energy();
    d.z0 = sim.pose(body).p.z;
    const int steps = 3000;
    std::vector<cc_contact> rows((size_t)cc_contacts_capacity(sim.contacts.get()) + 1);
    for (int k = 0; k < steps; ++k) {
        if (!sim.run(1, kDt)) return d;
        cc_transform t = sim.pose(body);
        cc_vec3 v = sim.linear(body);
        if (!std::isfinite(t.p.z) || !std::isfinite(v.z)) {
            d.finite = false;
            return d;
        }
        d.worst_gain = std::max(d.worst_gain, energy() / d.e0 - 1.0);
        int n = 0;
        EXPECT_EQ(cc_contacts_download(sim.contacts.get(), sim.now(), rows.data(), (int)rows.size(), &n), CC_OK);
        bool loaded = false;
        for (int i = 0; i < n; ++i) {
            loaded = loaded || rows[(size_t)i].distance < 0.001f;
            if (k > steps - 500) {
                d.deepest = std::max(d.deepest, (double)-rows[(size_t)i].distance);
                d.hover = std::max(d.hover, (double)rows[(size_t)i].distance);
            }
        }
        if (loaded) d.touched = true;
        if (d.touched) d.highest_after_contact = std::max(d.highest_after_contact, (double)t.p.z);
    }
    cc_vec3 v = sim.linear(body), w = sim.angular(body);
    d.speed = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    d.spin = std::sqrt(w.x * w.x + w.y * w.y + w.z * w.z);
    return d;
}

TEST_P(Stability, EveryBodyTypeDroppedOnAPlaneSettlesAtTheDefaults)
{
    // The defaults (implicit step, reference compliant parameters, point
    // areas from the shapes) at dt = 1 ms, bodies of 1 cm to 1 m: no
    // rebound above the drop, no energy gained beyond 1 %, at rest within
    // 3 s, resting inside the ramp: at most delta = 1 mm above the surface
    // (where the penalty starts) and less than 2 eps - delta = 9 mm deep
    // (where it turns linear).
    for (float s : {0.01f, 0.1f, 1.0f})
        for (int kind = 0; kind < KIND_COUNT; ++kind) {
            SCOPED_TRACE(testing::Message() << kKindNames[kind] << " of size " << s << " m");
            Drop d = run_drop(device(), (Kind)kind, s, cc_default_solver_def());
            ASSERT_TRUE(d.finite);
            EXPECT_TRUE(d.touched);
            EXPECT_LT(d.highest_after_contact, d.z0) << "it rebounded above its drop height";
            EXPECT_LT(d.worst_gain, 0.01) << "energy grew";
            EXPECT_LT(d.speed, 1.0e-3) << "still moving after 3 s";
            EXPECT_LT(d.spin, 0.01) << "still turning after 3 s";
            EXPECT_LT(d.deepest, 0.009);
            EXPECT_LE(d.hover, 0.001);
        }
}

// The settle scene's pile (benchmarks/scenes.c): 42 bodies of the seven
// convex kinds dropped into a bin.
struct PileRun {
    bool finite = true;
    double fastest_late = 0, fastest_at_end = 0, deepest = 0;
    std::vector<double> end_speeds; // the fastest body's speed at each sample of the last 1.5 s
    int steps_over_limit = 0;
};

PileRun run_pile(cc_device device, const cc_shape_def* shape, const cc_solver_def& sd, int steps)
{
    cc_builder_def bd = cc_default_builder_def();
    cc_builder* raw = nullptr;
    EXPECT_EQ(cc_builder_create(&bd, &raw), CC_OK);
    Builder b(raw);
    // Every shape of the pile and the bin gets the material.
    scene_params p = {1, 42, 0.0f, 0.01f, 0u, shape};
    EXPECT_EQ(scene_build(SCENE_SETTLE, &p, b.get()), CC_OK) << cc_last_error_message();
    settle_sim s;
    PileRun r;
    if (settle_create(b.get(), device, &sd, 0, &s) != CC_OK) {
        ADD_FAILURE() << cc_last_error_message();
        return r;
    }
    cc_vec3 g = cc_model_gravity(s.model);
    for (int k = 1; k <= steps; ++k) {
        if (settle_step(&s, kDt) != CC_OK) {
            ADD_FAILURE() << cc_last_error_message();
            break;
        }
        if (k % 100 != 0) continue;
        settle_measures m;
        EXPECT_EQ(settle_measure(&s, g, &m), CC_OK);
        if (!m.finite) {
            r.finite = false;
            break;
        }
        // After the first contacts (the last layer lands by 0.4 s).
        if (k > 500) r.fastest_late = std::max(r.fastest_late, m.max_speed);
        // At rest for the last 1.5 s, not at one sampled instant: a body
        // creeping at a few mm/s may still tip over once on the way.
        if (k >= steps - 1500) {
            r.fastest_at_end = std::max(r.fastest_at_end, m.max_speed);
            r.end_speeds.push_back(m.max_speed);
        }
        r.deepest = std::max(r.deepest, m.deepest);
    }
    cc_solver_report rep;
    EXPECT_EQ(cc_solver_get_report(s.solver, &rep), CC_OK);
    r.steps_over_limit = rep.steps_over_limit;
    settle_destroy(&s);
    return r;
}

TEST_P(Stability, AMixedPileSettlesWithEachShippedMaterial)
{
    // 10 s at 1 ms with the defaults, with the graph_replay example's soft
    // material (with its 1 m^2 per point contact) and with the penalty
    // model: finite throughout, nothing faster than 10 m/s once it has
    // landed, every body below 1 cm/s from 8.5 s to the end (a round body
    // that lands on its side rolls on the pile for a while, its rolling
    // resistance 1e-4 of the load, and how long depends on where it lands;
    // on the penalty model's soft 2.5 kN/m springs an ellipsoid perched on
    // the pile rocks longer), none deeper than 2 cm. On the soft material
    // bodies creep at 1-2 mm/s and one may topple over slowly in that
    // window, when depends on where each landed (one turned at 0.5 rad/s,
    // 1.3 cm/s at 10 s, and lay still again by 10.5 s): there every body
    // stays below 3 cm/s, and at half the samples or more below 5 mm/s, at
    // rest but for one slow topple, where a jittering pile would not be.
    // (cucontact-bench --scene settle --seconds 100 runs 10^5 steps.)
    cc_shape_def soft = cc_default_shape_def();
    soft.compliant.penalty_coefficient = 1.0e5f;
    soft.compliant.smoothing_half_distance = 1.0e-4f;
    soft.compliant.threshold = 0.0f;
    soft.compliant.normal_damping = 20.0f;
    cc_solver_def soft_def = cc_default_solver_def();
    soft_def.point_contact_weight = 1.0f;
    cc_solver_def penalty = cc_default_solver_def();
    penalty.contact_model = CC_CONTACT_PENALTY;
    struct Case {
        const char* name;
        const cc_shape_def* shape;
        cc_solver_def sd;
        double at_rest; // [m/s], every body from 8.5 s on
    } cases[] = {{"defaults", nullptr, cc_default_solver_def(), 0.01},
                 {"graph_replay's soft material", &soft, soft_def, 0.03},
                 {"penalty model", nullptr, penalty, 0.01}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        PileRun r = run_pile(device(), c.shape, c.sd, 10000);
        ASSERT_TRUE(r.finite);
        EXPECT_LT(r.fastest_late, 10.0);
        EXPECT_LT(r.fastest_at_end, c.at_rest);
        ASSERT_FALSE(r.end_speeds.empty());
        std::vector<double> sorted = r.end_speeds;
        std::nth_element(sorted.begin(), sorted.begin() + (long)sorted.size() / 2, sorted.end());
        EXPECT_LT(sorted[sorted.size() / 2], 0.005);
        EXPECT_LT(r.deepest, 0.02);
        EXPECT_EQ(r.steps_over_limit, 0);
    }
}

// A sphere of 10 cm dropped 20 cm with k = 1e9 Pa/m over 1 m^2 per point:
// the impact reaches some 1e8 N/m on 4.2 kg, omega dt of several at 1 ms.
struct StiffDrop {
    double highest_after_contact = 0, speed = 0, dt_limit = 0;
    int steps_over_limit = 0;
    bool finite = true;
};

StiffDrop stiff_sphere(cc_device device, cc_integrator it)
{
    cc_solver_def sd = cc_default_solver_def();
    sd.integrator = it;
    sd.point_contact_weight = 1.0f;
    Builder b = make_builder(0.02f);
    cc_shape_def def = cc_default_shape_def();
    int body = drop_one(b.get(), SPHERE, 0.1f, 0.2f, def);
    Sim sim;
    StiffDrop d;
    if (!sim.create(b.get(), device, sd)) return d;
    bool touched = false;
    for (int k = 0; k < 3000; ++k) {
        if (!sim.run(1, kDt)) break;
        cc_transform t = sim.pose(body);
        cc_vec3 v = sim.linear(body);
        d.speed = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        if (!std::isfinite(d.speed) || !std::isfinite(t.p.z)) {
            d.finite = false;
            break;
        }
        touched = touched || t.p.z < 0.101f;
        if (touched) d.highest_after_contact = std::max(d.highest_after_contact, (double)t.p.z);
    }
    cc_solver_report rep;
    EXPECT_EQ(cc_solver_get_report(sim.solver.get(), &rep), CC_OK);
    d.steps_over_limit = rep.steps_over_limit;
    d.dt_limit = rep.dt_limit;
    return d;
}

TEST_P(Stability, TheImplicitStepHoldsAStiffnessTheExplicitOneCannot)
{
    StiffDrop implicit = stiff_sphere(device(), CC_INTEGRATOR_IMPLICIT);
    ASSERT_TRUE(implicit.finite);
    EXPECT_LT(implicit.highest_after_contact, 0.3) << "the implicit step rebounded above the drop";
    EXPECT_LT(implicit.speed, 1.0e-3) << "the implicit step did not come to rest";
    // The explicit step gains energy: it bounces to more than twice the
    // drop height (or diverges), and its report says why.
    StiffDrop explicit_step = stiff_sphere(device(), CC_INTEGRATOR_EXPLICIT);
    EXPECT_TRUE(!explicit_step.finite || explicit_step.highest_after_contact > 0.1 + 2 * 0.2)
        << "the explicit step held: the test cannot tell the integrators apart";
    EXPECT_GT(explicit_step.steps_over_limit, 0);
    EXPECT_LT(explicit_step.dt_limit, kDt);
}

TEST(StepIntegrate, ADivergedBodyKeepsItsPoseStopsAndIsCounted)
{
    // The integrator's last line of defence, on its kernel body: a summed
    // force that overflowed (an explicit step far past its limit) would
    // give an infinite velocity and a NaN pose, which every later pass
    // and step would spread. The body keeps its pose and stops instead,
    // and the report counts it; a finite step of the same body is
    // untouched.
    cc_body_mass mass{};
    mass.inv_mass = 1.0f;
    mass.inertia[0] = mass.inertia[1] = mass.inertia[2] = 1.0f;
    mass.inv_inertia[0] = mass.inv_inertia[1] = mass.inv_inertia[2] = 1.0f;
    int is_static = 0;
    cc_transform pose_in = {{1.0f, 2.0f, 3.0f}, {0.0f, 0.0f, 0.0f, 1.0f}}, pose_out{};
    cc_vec3 lin_in = {1.0f, 0.0f, 0.0f}, ang_in = {0.0f, 0.0f, 2.0f}, lin_out{}, ang_out{};
    cc_vec3 force = {INFINITY, 0.0f, 0.0f}, torque = {0.0f, 0.0f, 0.0f};
    cc_step_report_state report{};
    cc_step_view v;
    std::memset(&v, 0, sizeof v);
    v.model.body_count = 1;
    v.model.body_mass = &mass;
    v.model.body_static = &is_static;
    v.pose_in = &pose_in;
    v.linear_in = &lin_in;
    v.angular_in = &ang_in;
    v.pose_out = &pose_out;
    v.linear_out = &lin_out;
    v.angular_out = &ang_out;
    v.body_force = &force;
    v.body_torque = &torque;
    v.integrator = CC_INTEGRATOR_EXPLICIT;
    v.gyroscopic = 1;
    v.report = &report;
    v.dt = 0.01f;
    cc_integrate_body_thread(0, &v);
    EXPECT_EQ(std::memcmp(&pose_out, &pose_in, sizeof pose_in), 0);
    EXPECT_EQ(lin_out.x, 0.0f);
    EXPECT_EQ(ang_out.z, 0.0f);
    EXPECT_EQ(report.bodies_stopped, 1);
    force = {1.0f, 0.0f, 0.0f};
    cc_integrate_body_thread(0, &v);
    EXPECT_FLOAT_EQ(lin_out.x, 1.01f);
    EXPECT_FLOAT_EQ(pose_out.p.x, 1.0f + 0.01f * 1.01f);
    EXPECT_FLOAT_EQ(ang_out.z, 2.0f);
    EXPECT_EQ(report.bodies_stopped, 1);
}

TEST_P(Stability, AFastTumblingPlateNeitherGainsEnergyNorLosesMomentum)
{
    // A 10 x 6 x 0.8 cm plate tumbling at 400 rad/s about a generic axis,
    // free, at 1/240 s (1.7 rad a step): explicit Euler on the gyroscopic
    // term gained energy every step until it overflowed, and the
    // linearised implicit step gained 7.5 times its energy in one. Each
    // integrator now keeps the energy from growing and the angular
    // momentum's size to within 1e-3 of where they started, every step.
    for (cc_integrator it : {CC_INTEGRATOR_IMPLICIT, CC_INTEGRATOR_EXPLICIT}) {
        SCOPED_TRACE(it == CC_INTEGRATOR_IMPLICIT ? "implicit" : "explicit");
        Builder b = make_builder_with_gravity({0.0f, 0.0f, 0.0f});
        int body = add_body(b.get(), {0.0f, 0.0f, 0.0f});
        CC_ASSERT_OK(cc_builder_add_box(b.get(), body, {0.05f, 0.03f, 0.004f}, nullptr, nullptr));
        cc_solver_def sd = cc_default_solver_def();
        sd.integrator = it;
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), sd));
        cc_mass_properties mp;
        CC_ASSERT_OK(cc_model_get_body_mass(sim.model.get(), body, &mp));
        // Energy and |L| from the body-axes angular velocity (the box's axes
        // are its principal ones and its body frame).
        auto measure = [&](double* energy, double* momentum) {
            cc_transform t = sim.pose(body);
            cc_vec3 w = sim.angular(body);
            cc_quat c = {-t.q.x, -t.q.y, -t.q.z, t.q.w};
            cc_vec3 u = {2 * (c.y * w.z - c.z * w.y), 2 * (c.z * w.x - c.x * w.z), 2 * (c.x * w.y - c.y * w.x)};
            double wb[3] = {w.x + c.w * u.x + (c.y * u.z - c.z * u.y), w.y + c.w * u.y + (c.z * u.x - c.x * u.z),
                            w.z + c.w * u.z + (c.x * u.y - c.y * u.x)};
            double I[3] = {mp.inertia[0], mp.inertia[4], mp.inertia[8]};
            *energy = 0.5 * (I[0] * wb[0] * wb[0] + I[1] * wb[1] * wb[1] + I[2] * wb[2] * wb[2]);
            *momentum = std::sqrt(I[0] * I[0] * wb[0] * wb[0] + I[1] * I[1] * wb[1] * wb[1] + I[2] * I[2] * wb[2] * wb[2]);
        };
        sim.set_velocity(body, {0, 0, 0}, {300.0f, 150.0f, 230.0f});
        double e0, l0;
        measure(&e0, &l0);
        for (int k = 0; k < 240; ++k) {
            ASSERT_TRUE(sim.run(1, 1.0f / 240.0f));
            double e, l;
            measure(&e, &l);
            ASSERT_LE(e, e0 * (1.0 + 1e-3)) << "step " << k;
            ASSERT_NEAR(l, l0, 1e-3 * l0) << "step " << k;
        }
    }
}

TEST_P(Stability, TheReportFlagsATooLongExplicitStepAndNothingElse)
{
    // A box of 10 cm resting on the ground with the defaults: its explicit
    // limit is about 2 / sqrt(k w / m) with w the box's point area.
    auto run = [&](cc_integrator it, float dt, cc_solver_report* rep) {
        cc_solver_def sd = cc_default_solver_def();
        sd.integrator = it;
        Builder b = make_builder(0.02f);
        cc_shape_def def = cc_default_shape_def();
        drop_one(b.get(), BOX, 0.1f, -0.001f, def);
        Sim sim;
        ASSERT_TRUE(sim.create(b.get(), device(), sd));
        ASSERT_TRUE(sim.run(200, dt));
        CC_ASSERT_OK(cc_solver_get_report(sim.solver.get(), rep));
    };
    cc_solver_report rep;
    run(CC_INTEGRATOR_IMPLICIT, kDt, &rep);
    EXPECT_EQ(rep.steps, 200);
    EXPECT_EQ(rep.steps_over_limit, 0) << "the implicit step needs no limit";
    ASSERT_TRUE(std::isfinite(rep.dt_limit));
    float limit = rep.dt_limit;
    EXPECT_GT(limit, 0.0f);
    run(CC_INTEGRATOR_EXPLICIT, 0.25f * limit, &rep);
    EXPECT_EQ(rep.steps_over_limit, 0) << "a step well within the limit was flagged";
    run(CC_INTEGRATOR_EXPLICIT, 4.0f * limit, &rep);
    EXPECT_GT(rep.steps_over_limit, 0) << "a step four times the limit went unflagged";
    EXPECT_LT(rep.dt_limit, 4.0f * limit);
    // A fresh report, and a step without contacts has no limit.
    Builder b = make_builder();
    int body = add_body(b.get(), {0, 0, 1});
    ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, nullptr, nullptr), CC_OK);
    Sim sim;
    ASSERT_TRUE(sim.create(b.get(), device(), cc_default_solver_def()));
    ASSERT_TRUE(sim.run(3, kDt));
    CC_ASSERT_OK(cc_solver_get_report(sim.solver.get(), &rep));
    EXPECT_EQ(rep.steps, 3);
    EXPECT_TRUE(std::isinf(rep.dt_limit));
    CC_ASSERT_OK(cc_solver_reset_report(sim.solver.get()));
    CC_ASSERT_OK(cc_solver_get_report(sim.solver.get(), &rep));
    EXPECT_EQ(rep.steps, 0);
}

// Rebound speed over impact speed of a 10 cm sphere hitting the ground at
// 1 m/s without gravity, the normal damping calibrated for e.
double rebound(cc_device device, cc_integrator it, float e, float dt)
{
    cc_shape_def def = compliant_shape(1.0e6f, 1.0e-6f, 0.0f, 0.0f, cc_restitution_damping(e, 1.0f));
    Builder b = make_builder_with_gravity({0.0f, 0.0f, 0.0f});
    EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0.0f, 0.0f, &def, nullptr), CC_OK);
    int body = add_body(b.get(), {0.0f, 0.0f, 0.1001f});
    EXPECT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, &def, nullptr), CC_OK);
    cc_solver_def sd = cc_default_solver_def();
    sd.integrator = it;
    sd.point_contact_weight = 1.0f;
    Sim sim;
    if (!sim.create(b.get(), device, sd)) return -1.0;
    sim.set_velocity(body, {0.0f, 0.0f, -1.0f});
    // The contact lasts about 6.4 ms; 20 ms covers it at any of the steps.
    if (!sim.run((int)std::lround(0.02 / dt), dt)) return -1.0;
    return sim.linear(body).z;
}

TEST_P(Stability, RestitutionOfTheFirstOrderImplicitStep)
{
    // Resolved (dt = 10 us, 640 steps per contact) the implicit step
    // reproduces the calibration within 5 %, like the explicit one; at
    // 0.1 ms (64 steps) its numerical damping takes off 5 to 7 % of e (the
    // measured loss, asserted as stated in the README: at most 8 %).
    for (float e : {0.3f, 0.5f, 0.8f}) {
        SCOPED_TRACE(testing::Message() << "e = " << e);
        EXPECT_NEAR(rebound(device(), CC_INTEGRATOR_IMPLICIT, e, 1.0e-5f), e, 0.05 * e);
        double coarse = rebound(device(), CC_INTEGRATOR_IMPLICIT, e, 1.0e-4f);
        EXPECT_LT(coarse, e * 1.0);
        EXPECT_GT(coarse, e * 0.92);
    }
}

CC_INSTANTIATE_DEVICE_TEST(Stability);

}  // namespace
