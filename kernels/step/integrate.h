/* Semi-implicit (symplectic) Euler for free rigid bodies: velocities first,
 * from gravity and the summed contact forces, then poses from the new
 * velocities. The angular update works in body axes, where the inertia is
 * constant, and includes the gyroscopic torque -w x (I w). */
#ifndef CC_KERNELS_STEP_INTEGRATE_H
#define CC_KERNELS_STEP_INTEGRATE_H

#include "kernels/math/quat.h"
#include "kernels/math/sym3.h"
#include "kernels/step/step_view.h"

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
    cc_vec3 force = v->body_force[b];
    cc_vec3 torque = v->body_torque[b];
    cc_vec3 acc = cc_v3_madd(v->model.gravity, force, m->inv_mass);
    cc_vec3 lin = cc_v3_madd(v->linear_in[b], acc, dt);

    cc_vec3 w_body = cc_q_rotate_inv(pose.q, v->angular_in[b]);
    cc_vec3 t_body = cc_q_rotate_inv(pose.q, torque);
    if (v->gyroscopic) t_body = cc_v3_sub(t_body, cc_v3_cross(w_body, cc_sym3_mul(m->inertia, w_body)));
    w_body = cc_v3_madd(w_body, cc_sym3_mul(m->inv_inertia, t_body), dt);
    cc_vec3 ang = cc_q_rotate(pose.q, w_body);

    /* The centre of mass moves with the linear velocity; the body origin
     * follows from the new orientation. */
    cc_vec3 com = cc_v3_madd(cc_tf_point(pose, m->com), lin, dt);
    cc_quat spin = cc_q(ang.x, ang.y, ang.z, 0.0f);
    cc_quat dq = cc_q_mul(spin, pose.q);
    float h = 0.5f * dt;
    cc_quat q = cc_q_normalize(cc_q(pose.q.x + h * dq.x, pose.q.y + h * dq.y, pose.q.z + h * dq.z, pose.q.w + h * dq.w));
    v->pose_out[b] = cc_tf(cc_v3_sub(com, cc_q_rotate(q, m->com)), q);
    v->linear_out[b] = lin;
    v->angular_out[b] = ang;
}

#endif
