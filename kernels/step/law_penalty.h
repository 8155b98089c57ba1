/* Penalty contact model (CC_CONTACT_PENALTY) at one contact point.
 *
 * A spring ke on the contact-space distance d, damping kd while the shapes
 * approach, and friction that is viscous (kf |v_t|) at low slip and capped
 * at the Coulomb limit mu |f_n + f_d|. Inside the adhesion band 0 <= d < ka
 * the spring pulls the shapes together; damping and friction act only once
 * the shapes overlap (d < 0). Only + - * / and sqrtf, float32. */
#ifndef CC_KERNELS_STEP_LAW_PENALTY_H
#define CC_KERNELS_STEP_LAW_PENALTY_H

#include "cucontact/material.h"
#include "kernels/math/vec3.h"
#include "kernels/step/rates.h"

/* Coefficients of a shape pair. */
typedef struct cc_penalty_pair {
    float ke; /* normal stiffness [N/m] */
    float kd; /* normal damping [N s/m] */
    float kf; /* friction gain [N s/m] */
    float ka; /* adhesion distance [m] */
    float mu; /* Coulomb coefficient */
} cc_penalty_pair;

/* The pair uses the arithmetic mean of each coefficient, so it is symmetric
 * in the two shapes. */
CC_HD cc_penalty_pair cc_penalty_combine(const cc_material* a, const cc_material* b)
{
    cc_penalty_pair p;
    p.ke = 0.5f * (a->ke + b->ke);
    p.kd = 0.5f * (a->kd + b->kd);
    p.kf = 0.5f * (a->kf + b->kf);
    p.ka = 0.5f * (a->ka + b->ka);
    p.mu = 0.5f * (a->mu + b->mu);
    return p;
}

/* Force [N] on shape 1.
 *   d      contact-space distance (negative when within the pair margin)
 *   n      unit contact normal, from shape 0 toward shape 1
 *   v_rel  v1 - v0 at the contact point
 * Shape 0 receives the opposite force. A zero tangential velocity gives no
 * friction (the division by |v_t| is skipped). */
CC_HD cc_vec3 cc_penalty_force(const cc_penalty_pair* p, float d, cc_vec3 n, cc_vec3 v_rel)
{
    if (d >= p->ka) return cc_v3(0.0f, 0.0f, 0.0f);
    /* f_n < 0 pushes shape 1 away along +n; f_n > 0 (adhesion) pulls it. */
    float fn = p->ke * d;
    if (!(d < 0.0f)) return cc_v3_scale(n, -fn);

    float vn = cc_v3_dot(v_rel, n);
    /* Damp only approach (vn < 0): separating shapes are not held back. */
    float fnd = fn + p->kd * cc_minf(vn, 0.0f);
    cc_vec3 f = cc_v3_scale(n, -fnd);

    cc_vec3 vt = cc_v3_madd(v_rel, n, -vn);
    float vt_len = cc_v3_length(vt);
    if (vt_len > 0.0f) {
        float ft = cc_minf(p->kf * vt_len, p->mu * fabsf(fnd));
        f = cc_v3_madd(f, vt, -ft / vt_len);
    }
    return f;
}

/* The rates of cc_penalty_force at the same arguments: the spring ke within
 * the adhesion band and beyond, the damping kd while approaching, and
 * friction's secant: kf below the Coulomb cap, the cap over the slip once
 * sliding. */
CC_HD cc_contact_rates cc_penalty_rates(const cc_penalty_pair* p, float d, cc_vec3 n, cc_vec3 v_rel)
{
    cc_contact_rates r = cc_contact_rates_zero();
    if (d >= p->ka) return r;
    r.k_normal = p->ke;
    if (!(d < 0.0f)) return r;
    float vn = cc_v3_dot(v_rel, n);
    if (vn < 0.0f) r.c_normal = p->kd;
    float fnd = p->ke * d + p->kd * cc_minf(vn, 0.0f);
    float s = cc_v3_length(cc_v3_madd(v_rel, n, -vn));
    float cap = p->mu * fabsf(fnd);
    r.c_tangent = p->kf * s <= cap ? p->kf : cap / s;
    return r;
}

#endif
