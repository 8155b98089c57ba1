// A small simulation harness for the step tests: a model, a pipeline, a
// contact buffer, a solver and two ping-pong states, stepped with collide
// before every step.
#pragma once

#include <cmath>
#include <vector>

#include "tests/support/test_support.h"

namespace cctest {

struct SolverDeleter {
    void operator()(cc_solver* s) const { cc_solver_destroy(s); }
};
struct FrameGraphDeleter {
    void operator()(cc_frame_graph* g) const { cc_frame_graph_destroy(g); }
};
using Solver = std::unique_ptr<cc_solver, SolverDeleter>;
using FrameGraph = std::unique_ptr<cc_frame_graph, FrameGraphDeleter>;

inline Builder make_builder_with_gravity(cc_vec3 gravity, float rigid_gap = 0.1f)
{
    cc_builder_def d = cc_default_builder_def();
    d.rigid_gap = rigid_gap;
    d.gravity = gravity;
    cc_builder* b = nullptr;
    EXPECT_EQ(cc_builder_create(&d, &b), CC_OK) << cc_last_error_message();
    return Builder(b);
}

struct Sim {
    Model model;
    Pipeline pipeline;
    Contacts contacts;
    Solver solver;
    State state[2];
    int current = 0;

    // Returns false (with a gtest failure) when anything cannot be created.
    bool create(const cc_builder* b, cc_device device, const cc_solver_def& solver_def,
                const cc_pipeline_def* pipeline_def = nullptr)
    {
        cc_model* m = nullptr;
        if (cc_builder_finalize(b, device, &m) != CC_OK) {
            ADD_FAILURE() << cc_last_error_message();
            return false;
        }
        model.reset(m);
        cc_pipeline_def pd = pipeline_def ? *pipeline_def : cc_default_pipeline_def();
        cc_pipeline* p = nullptr;
        if (cc_pipeline_create(m, &pd, &p) != CC_OK) {
            ADD_FAILURE() << cc_last_error_message();
            return false;
        }
        pipeline.reset(p);
        cc_contacts* c = nullptr;
        cc_pipeline_info info;
        if (cc_contacts_create(p, &c) != CC_OK || cc_pipeline_get_info(p, &info) != CC_OK) {
            ADD_FAILURE() << cc_last_error_message();
            return false;
        }
        contacts.reset(c);
        cc_solver* s = nullptr;
        if (cc_solver_create(m, &solver_def, info.rigid_contact_max, &s) != CC_OK) {
            ADD_FAILURE() << cc_last_error_message();
            return false;
        }
        solver.reset(s);
        for (auto& st : state) {
            cc_state* x = nullptr;
            if (cc_state_create(m, &x) != CC_OK) {
                ADD_FAILURE() << cc_last_error_message();
                return false;
            }
            st.reset(x);
        }
        return true;
    }

    cc_state* now() { return state[current].get(); }

    // Collide and step `steps` times; false on the first failure.
    bool run(int steps, float dt)
    {
        for (int k = 0; k < steps; ++k) {
            cc_state* in = state[current].get();
            cc_state* out = state[1 - current].get();
            if (cc_collide(pipeline.get(), in, contacts.get(), nullptr) != CC_OK ||
                cc_step(solver.get(), in, out, contacts.get(), dt, nullptr) != CC_OK) {
                ADD_FAILURE() << cc_last_error_message();
                return false;
            }
            current = 1 - current;
        }
        return true;
    }

    cc_transform pose(int body)
    {
        cc_transform t{};
        EXPECT_EQ(cc_state_get_body_poses(now(), body, 1, &t), CC_OK);
        return t;
    }
    cc_vec3 linear(int body)
    {
        cc_vec3 v{}, w{};
        EXPECT_EQ(cc_state_get_body_velocities(now(), body, 1, &v, &w), CC_OK);
        return v;
    }
    cc_vec3 angular(int body)
    {
        cc_vec3 v{}, w{};
        EXPECT_EQ(cc_state_get_body_velocities(now(), body, 1, &v, &w), CC_OK);
        return w;
    }
    void set_velocity(int body, cc_vec3 v, cc_vec3 w = {0, 0, 0})
    {
        EXPECT_EQ(cc_state_set_body_velocities(now(), body, 1, &v, &w), CC_OK);
    }

    // Every pose and velocity, as raw bytes, for bitwise comparisons.
    std::vector<float> snapshot()
    {
        int n = cc_model_body_count(model.get());
        std::vector<cc_transform> poses((size_t)n);
        std::vector<cc_vec3> lin((size_t)n), ang((size_t)n);
        EXPECT_EQ(cc_state_get_body_poses(now(), 0, n, poses.data()), CC_OK);
        EXPECT_EQ(cc_state_get_body_velocities(now(), 0, n, lin.data(), ang.data()), CC_OK);
        std::vector<float> out;
        for (int i = 0; i < n; ++i) {
            const cc_transform& t = poses[(size_t)i];
            float v[13] = {t.p.x, t.p.y, t.p.z, t.q.x, t.q.y, t.q.z, t.q.w, lin[(size_t)i].x, lin[(size_t)i].y,
                           lin[(size_t)i].z, ang[(size_t)i].x, ang[(size_t)i].y, ang[(size_t)i].z};
            out.insert(out.end(), v, v + 13);
        }
        return out;
    }
};

// A shape def whose compliant parameters are set for a test.
inline cc_shape_def compliant_shape(float k, float eps, float delta, float mu, float cn)
{
    cc_shape_def d = cc_default_shape_def();
    d.compliant.penalty_coefficient = k;
    d.compliant.smoothing_half_distance = eps;
    d.compliant.threshold = delta;
    d.compliant.coulomb_friction = mu;
    d.compliant.normal_damping = cn;
    return d;
}

// Collides every `every` steps of h (horizon every * h) and steps `steps`
// times, calling check(k) after each step; false on the first failure
// (of the library, or a check that returns false).
template <typename Check>
bool run_collide_every(Sim& sim, int steps, int every, float h, Check check)
{
    for (int k = 0; k < steps; ++k) {
        cc_state* in = sim.state[sim.current].get();
        cc_state* out = sim.state[1 - sim.current].get();
        if (k % every == 0 && (cc_pipeline_set_collision_dt(sim.pipeline.get(), (float)every * h) != CC_OK ||
                               cc_collide(sim.pipeline.get(), in, sim.contacts.get(), nullptr) != CC_OK)) {
            ADD_FAILURE() << cc_last_error_message();
            return false;
        }
        if (cc_step(sim.solver.get(), in, out, sim.contacts.get(), h, nullptr) != CC_OK) {
            ADD_FAILURE() << cc_last_error_message();
            return false;
        }
        sim.current = 1 - sim.current;
        if (!check(k)) return false;
    }
    return true;
}

}  // namespace cctest
