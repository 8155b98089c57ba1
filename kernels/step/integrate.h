/* The end of a step for free rigid bodies: new velocities, then poses from
 * them. Semi-implicit (symplectic) Euler takes the velocities from gravity
 * and the summed contact forces, the angular update in body axes, where the
 * inertia is constant, after the torque-free turn (kernels/step/
 * gyroscopic.h); the implicit step adds the velocity change its solve
 * found, which holds that turn. */
#ifndef CC_KERNELS_STEP_INTEGRATE_H
#define CC_KERNELS_STEP_INTEGRATE_H

#include "kernels/math/quat.h"
#include "kernels/math/sym3.h"
#include "kernels/step/gyroscopic.h"
#include "kernels/step/implicit.h"
#include "kernels/step/step_view.h"

/* The pose after dt at the new velocities: the centre of mass moves with
 * the linear velocity, the orientation turns with the angular one
 * (renormalised), and the body origin follows from both. */
CC_HD cc_transform cc_advance_pose(cc_transform pose, const cc_body_mass* m, cc_vec3 lin, cc_vec3 ang, float dt)
{
    cc_vec3 com = cc_v3_madd(cc_tf_point(pose, m->com), lin, dt);
    cc_quat spin = cc_q(ang.x, ang.y, ang.z, 0.0f);
    cc_quat dq = cc_q_mul(spin, pose.q);
    float h = 0.5f * dt;
    cc_quat q = cc_q_normalize(cc_q(pose.q.x + h * dq.x, pose.q.y + h * dq.y, pose.q.z + h * dq.z, pose.q.w + h * dq.w));
    return cc_tf(cc_v3_sub(com, cc_q_rotate(q, m->com)), q);
}

/* Whether a body's new pose and velocities are all finite. */
CC_HD int cc_body_state_finite(cc_transform x, cc_vec3 lin, cc_vec3 ang)
{
    return isfinite(x.p.x) && isfinite(x.p.y) && isfinite(x.p.z) && isfinite(x.q.x) && isfinite(x.q.y) &&
           isfinite(x.q.z) && isfinite(x.q.w) && isfinite(lin.x) && isfinite(lin.y) && isfinite(lin.z) &&
           isfinite(ang.x) && isfinite(ang.y) && isfinite(ang.z);
}

CC_HD void cc_integrate_body_thread(int b, const cc_step_view* v)
{
    cc_transform pose = v->pose_in[b];
    const cc_body_mass* m = &v->model.body_mass[b];
    if (v->model.body_static[b] || m->inv_mass == 0.0f) {
        /* Static bodies and bodies without mass stay where they are. */
        v->pose_out[b] = pose;
        v->linear_out[b] = cc_v3(0.0f, 0.0f, 0.0f);
        v->angular_out[b] = cc_v3(0.0f, 0.0f, 0.0f);
        return;
    }
    float dt = v->dt;
    cc_vec3 lin, ang;
    if (v->integrator == 0 /* CC_INTEGRATOR_IMPLICIT */) {
        /* The velocity change the implicit solve found (kernels/step/
         * implicit.h), and the torque-free turn beside it. */
        const float* dv = v->body_dv + (size_t)b * CC_TWIST;
        lin = cc_v3_add(v->linear_in[b], cc_v3(dv[0], dv[1], dv[2]));
        ang = cc_v3_add(cc_v3_add(v->angular_in[b], cc_v3(dv[3], dv[4], dv[5])), v->body_system[b].turn);
    } else {
        cc_vec3 acc = cc_v3_madd(v->model.gravity, v->body_force[b], m->inv_mass);
        lin = cc_v3_madd(v->linear_in[b], acc, dt);
        cc_vec3 w_body = cc_q_rotate_inv(pose.q, v->angular_in[b]);
        cc_vec3 t_body = cc_q_rotate_inv(pose.q, v->body_torque[b]);
        if (v->gyroscopic) w_body = cc_gyroscopic_turn(m->inertia, w_body, dt);
        w_body = cc_v3_madd(w_body, cc_sym3_mul(m->inv_inertia, t_body), dt);
        ang = cc_q_rotate(pose.q, w_body);
    }
    cc_transform next = cc_advance_pose(pose, m, lin, ang, dt);
    if (!cc_body_state_finite(next, lin, ang)) {
        /* A diverged step (an explicit one far past its limit): a non-finite
         * state would spread to every pass and step after it, so the body
         * keeps its pose, stops, and the report counts it. */
        next = pose;
        lin = ang = cc_v3(0.0f, 0.0f, 0.0f);
        if (v->report) cc_atomic_add_i32(&v->report->bodies_stopped, 1);
    }
    v->pose_out[b] = next;
    v->linear_out[b] = lin;
    v->angular_out[b] = ang;
}

/* Once per step, after the contact forces: the step's stability limit
 * joins the report (kernels/step/step_view.h), and an explicit step longer
 * than it is counted. */
CC_HD void cc_step_report_thread(const cc_step_view* v)
{
    cc_step_report_state* r = v->report;
    if (!r) return;
    uint32_t limit = r->step_limit_bits;
    r->steps += 1;
    if (limit < r->min_limit_bits) r->min_limit_bits = limit;
    if (v->integrator != 0 && cc_float_order_bits(v->dt) > limit) r->steps_over_limit += 1;
}

#endif
