/* The torque-free turn of a rigid body over one step: Euler's equations
 * I dw/dt = -w x (I w) in body axes, where the inertia is constant.
 * Explicit Euler on them gains energy every step, by a factor that grows
 * with |w| dt: a thin plate spinning at a few hundred rad/s at 1/60 s
 * reaches infinity within a few steps. Here one Newton step of backward
 * Euler, w = w0 - J^-1 f(w0) for f(w) = I (w - w0) + dt w x (I w) and its
 * Jacobian J = I + dt ([w]x I - [I w]x), takes the turn; it is stable at
 * any |w| dt, and is then scaled so that it gains no energy (the
 * gyroscopic torque does no work). Both integrators turn their bodies with
 * it before the rest of the step. */
#ifndef CC_KERNELS_STEP_GYROSCOPIC_H
#define CC_KERNELS_STEP_GYROSCOPIC_H

#include "kernels/math/sym3.h"

/* The body-axes angular velocity after a torque-free step of dt from w,
 * for the body-axes inertia `inertia` (cc_sym3 layout). */
CC_HD cc_vec3 cc_gyroscopic_turn(const float inertia[6], cc_vec3 w, float dt)
{
    float scale = (inertia[0] + inertia[1] + inertia[2]) / 3.0f;
    if (!(scale > 0.0f) || !(dt > 0.0f)) return w;
    cc_vec3 iw = cc_sym3_mul(inertia, w);
    /* J's columns and f(w0) = dt w0 x (I w0), both over the inertia's
     * scale, so that the determinant stays within the floats for small
     * bodies. */
    cc_vec3 f = cc_v3_scale(cc_v3_cross(w, iw), dt / scale);
    cc_vec3 c[3];
    for (int k = 0; k < 3; ++k) {
        cc_vec3 e = cc_v3(k == 0 ? 1.0f : 0.0f, k == 1 ? 1.0f : 0.0f, k == 2 ? 1.0f : 0.0f);
        cc_vec3 ie = cc_sym3_mul(inertia, e);
        cc_vec3 col = cc_v3_add(ie, cc_v3_scale(cc_v3_sub(cc_v3_cross(w, ie), cc_v3_cross(iw, e)), dt));
        c[k] = cc_v3_scale(col, 1.0f / scale);
    }
    cc_vec3 c12 = cc_v3_cross(c[1], c[2]);
    float det = cc_v3_dot(c[0], c12);
    cc_vec3 next = w;
    if (fabsf(det) > 1.0e-30f && det < 3.0e38f) {
        /* Cramer's rule for J step = f. */
        cc_vec3 step = cc_v3(cc_v3_dot(f, c12), cc_v3_dot(c[0], cc_v3_cross(f, c[2])), cc_v3_dot(c[0], cc_v3_cross(c[1], f)));
        next = cc_v3_sub(w, cc_v3_scale(step, 1.0f / det));
    }
    /* The exact turn keeps the energy and |I w| (the angular momentum's
     * size). Backward Euler loses some of both at large |w| dt, drifting
     * toward the axis of largest inertia: |I w| is restored, as long as
     * the energy stays at most where it started. */
    cc_vec3 in = cc_sym3_mul(inertia, next);
    float e0 = cc_v3_dot(w, iw), e1 = cc_v3_dot(next, in);
    float l0 = cc_v3_dot(iw, iw), l1 = cc_v3_dot(in, in);
    if (!(e1 < 3.0e38f && l1 < 3.0e38f)) return w;
    float s = l1 > 0.0f ? sqrtf(l0 / l1) : 1.0f;
    if (e1 > 0.0f) s = cc_minf(s, sqrtf(e0 / e1));
    return cc_v3_scale(next, s);
}

#endif
