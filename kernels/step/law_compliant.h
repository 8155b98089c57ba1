/* Compliant contact model (CC_CONTACT_COMPLIANT) at one contact point.
 *
 * A colliding shape A samples a point whose signed distance in the collider
 * B's field is phi (positive outside B). The conservative part comes from
 * the energy density W = k/2 h(-phi)^2 with the C2 ramp h below; friction
 * and normal damping scale with the normal load and a factor a that fades
 * them out as the two surface normals stop opposing each other.
 *
 * Rigid bodies only: the collider's deformation gradient is a rotation, so
 * collider-reference quantities equal world ones and everything here is in
 * the world frame. Only + - * / and sqrtf, float32. */
#ifndef CC_KERNELS_STEP_LAW_COMPLIANT_H
#define CC_KERNELS_STEP_LAW_COMPLIANT_H

#include "cucontact/material.h"
#include "kernels/math/vec3.h"
#include "kernels/step/rates.h"

/* ----------------------------------------------------------------- ramps */

/* Smoothed activation h_{eps,delta}(penetration), penetration = -phi.
 * With z = penetration - (eps - delta) it is 0 for z <= -eps, z for
 * z >= eps and a quartic in between whose value, slope and curvature match
 * both neighbours (C2), so the penalty turns on at phi = delta and becomes
 * linear at phi = delta - 2 eps.
 * The quartic 3eps/16 + (1/2 + 3z/(8eps) - z^3/(16eps^3)) z equals
 * eps u^3 (4 - u) / 16 with u = (z + eps)/eps in (0, 2). That factored form
 * is used: the expanded one cancels near z = -eps and can go slightly
 * negative in float, and dividing by eps once avoids eps^3 underflow. */
CC_HD float cc_ramp_h(float penetration, float eps, float delta)
{
    float z = penetration - (eps - delta);
    if (z <= -eps) return 0.0f;
    if (z >= eps) return z;
    float u = (z + eps) / eps;
    return 0.0625f * eps * u * u * u * (4.0f - u);
}

/* dh/d(penetration): 0, then u^2 (3 - u)/4 rising to 1, then 1. */
CC_HD float cc_ramp_slope(float penetration, float eps, float delta)
{
    float z = penetration - (eps - delta);
    if (z <= -eps) return 0.0f;
    if (z >= eps) return 1.0f;
    float u = (z + eps) / eps;
    return 0.25f * u * u * (3.0f - u);
}

/* d^2 h/d(penetration)^2: 0 outside the smoothing interval, 3u(2 - u)/(4 eps)
 * inside it (the slope of u^2 (3 - u)/4 with du = d(penetration)/eps). */
CC_HD float cc_ramp_curvature(float penetration, float eps, float delta)
{
    float z = penetration - (eps - delta);
    if (z <= -eps || z >= eps) return 0.0f;
    float u = (z + eps) / eps;
    return 0.75f * u * (2.0f - u) / eps;
}

/* rho'(vt) of the regularised Coulomb ramp: 2r - r^2 with r = vt/vf below
 * the falloff velocity (static regime), 1 at and above it (sliding). */
CC_HD float cc_friction_ramp_slope(float vt, float vf)
{
    if (vt >= vf) return 1.0f;
    float r = vt / vf;
    return 2.0f * r - r * r;
}

/* rho'(vt) / vt, the factor that multiplies the tangential velocity vector.
 * Below vf it is (2 - vt/vf)/vf, finite at vt = 0, so the Coulomb term goes
 * to zero with the slip without a division by the slip speed. */
CC_HD float cc_friction_ramp_ratio(float vt, float vf)
{
    if (vt < vf) return (2.0f - vt / vf) / vf;
    return vt > 0.0f ? 1.0f / vt : 0.0f;
}

/* ---------------------------------------------------------- pair params */

/* Parameters of one colliding/collider pair, combined from both shapes. */
typedef struct cc_compliant_pair {
    float k;             /* penalty coefficient [Pa/m] */
    float eps;           /* ramp smoothing half-width [m] */
    float delta;         /* activation distance, padding included [m] */
    float vf;            /* friction falloff velocity [m/s] */
    float mu;            /* Coulomb coefficient */
    float ct;            /* tangential viscous coefficient [s/m] */
    float cn;            /* normal (Hunt-Crossley) damping [s/m] */
    float max_alignment; /* m: reject when G_B . N_A > m */
    int friction_with_collider_normal;
    int fade_friction;
} cc_compliant_pair;

/* Geometric mean of two nonnegative coefficients. sqrtf(a*a) == a exactly
 * in IEEE arithmetic, so equal inputs pass through unchanged. */
CC_HD float cc_compliant_gmean(float a, float b) { return sqrtf(a * b); }

/* Combines the colliding shape's and the collider's parameters. Dissipation
 * coefficients are always geometric means. A static collider has no
 * stiffness or velocity scale of its own worth averaging, so k and vf then
 * come from the colliding shape. The field-related settings (ramp, threshold,
 * alignment) belong to whoever supplies the field: the collider. A colliding
 * shape that is no collider (thin, sampled only) may ask for extra threshold
 * padding against tunnelling. */
CC_HD cc_compliant_pair cc_compliant_combine(const cc_compliant_params* colliding,
                                             const cc_compliant_params* collider,
                                             int collider_static)
{
    cc_compliant_pair p;
    p.mu = cc_compliant_gmean(colliding->coulomb_friction, collider->coulomb_friction);
    p.ct = cc_compliant_gmean(colliding->viscous_friction, collider->viscous_friction);
    p.cn = cc_compliant_gmean(colliding->normal_damping, collider->normal_damping);
    if (collider_static) {
        p.k = colliding->penalty_coefficient;
        p.vf = colliding->friction_falloff_velocity;
    } else {
        p.k = cc_compliant_gmean(colliding->penalty_coefficient, collider->penalty_coefficient);
        p.vf = cc_compliant_gmean(colliding->friction_falloff_velocity,
                                  collider->friction_falloff_velocity);
    }
    p.eps = collider->smoothing_half_distance;
    p.delta = collider->threshold;
    if (!colliding->is_collider) p.delta += colliding->threshold_extra_padding;
    p.max_alignment = collider->max_alignment;
    p.friction_with_collider_normal = collider->friction_with_collider_normal;
    p.fade_friction = collider->fade_friction;
    return p;
}

/* -------------------------------------------------------------- traction */

/* Traction [Pa] on the colliding surface A at one sample, world frame.
 *   phi              signed distance of the sample in B's field (> 0 outside)
 *   collider_normal  G_B, unit gradient of B's field (points from B toward A)
 *   colliding_normal N_A, A's outward unit normal, or NULL when A has none
 *                    (shells, rods): then nothing is rejected or faded
 *   v_rel            v_A - v_B at the sample
 * Zero vectors give a finite result (no normalisation divides by zero). */
CC_HD cc_vec3 cc_compliant_traction(const cc_compliant_pair* p, float phi,
                                    cc_vec3 collider_normal, const cc_vec3* colliding_normal,
                                    cc_vec3 v_rel)
{
    cc_vec3 zero = cc_v3(0.0f, 0.0f, 0.0f);
    float pen = -phi;
    float h = cc_ramp_h(pen, p->eps, p->delta);
    if (h <= 0.0f) return zero; /* outside the threshold: no load, no friction */

    /* -dW/dx_A = k h h' G_B: the load coefficient includes the ramp slope,
     * which is 1 once the ramp is linear. */
    float lambda_n = p->k * h * cc_ramp_slope(pen, p->eps, p->delta);

    /* Friction plane normal: the collider field direction by default. */
    cc_vec3 n = cc_v3_normalize(collider_normal);
    float a = 1.0f;
    if (colliding_normal) {
        /* Opposing normals give s = -1; normals that agree (s > m) mean the
         * sample sits on the wrong side of a thin feature: drop it. Raw
         * vectors, as specified, so a may exceed 1 for non-unit input. */
        float s = cc_v3_dot(collider_normal, *colliding_normal);
        float m = p->max_alignment;
        if (s > m) return zero;
        if (p->fade_friction && m > -1.0f) a = (m - s) / (m + 1.0f);
        if (!p->friction_with_collider_normal) {
            cc_vec3 na = cc_v3_normalize(*colliding_normal);
            /* A degenerate N_A keeps the collider direction. */
            if (cc_v3_length_sq(na) > 0.0f) n = cc_v3_neg(na);
        }
    }
    float lambda_hat = a * lambda_n;

    float vn = cc_v3_dot(v_rel, n);
    cc_vec3 vt = cc_v3_madd(v_rel, n, -vn);
    float vt_len = cc_v3_length(vt);

    /* Viscous and regularised Coulomb friction both act along -V_t; normal
     * damping along -V_n N (Hunt-Crossley: proportional to the load). */
    float c_tan = lambda_hat * (p->ct + p->mu * cc_friction_ramp_ratio(vt_len, p->vf));
    float c_nrm = p->cn * lambda_hat * vn;

    cc_vec3 t = cc_v3_scale(collider_normal, lambda_n);
    t = cc_v3_madd(t, n, -c_nrm);
    t = cc_v3_madd(t, vt, -c_tan);
    return t;
}

/* The rates of cc_compliant_traction (per unit area) for a sample without
 * a colliding normal (point contacts: no rejection, no fading), at the
 * same phi, collider normal G and relative velocity: the load's slope
 * k (h'^2 + h h''), the normal damping c_n lambda, and friction's secant
 * lambda (c_t + mu rho'(s)/s). */
CC_HD cc_contact_rates cc_compliant_rates(const cc_compliant_pair* p, float phi, cc_vec3 collider_normal,
                                          cc_vec3 v_rel)
{
    cc_contact_rates r = cc_contact_rates_zero();
    float pen = -phi;
    float h = cc_ramp_h(pen, p->eps, p->delta);
    if (h <= 0.0f) return r;
    float slope = cc_ramp_slope(pen, p->eps, p->delta);
    float lambda = p->k * h * slope;
    r.k_normal = p->k * (slope * slope + h * cc_ramp_curvature(pen, p->eps, p->delta));
    r.c_normal = p->cn * lambda;
    cc_vec3 n = cc_v3_normalize(collider_normal);
    cc_vec3 vt = cc_v3_reject(v_rel, n);
    r.c_tangent = lambda * (p->ct + p->mu * cc_friction_ramp_ratio(cc_v3_length(vt), p->vf));
    return r;
}

/* ------------------------------------------------------------ restitution */

/* Normal damping c_n [s/m] giving restitution e at impact speed v, from the
 * rational fit c_n = (1-e)(1 + 9e/2) / (e v (1 + 8e/3)), which reproduces
 * Hunt-Crossley's 3(1-e)/(2v) as e -> 1 and e v -> 1/c_n as e -> 0.
 * -1 when e is outside (0, 1] or v is not positive (NaN included). */
CC_HD float cc_restitution_damping_hd(float e, float v)
{
    if (!(e > 0.0f && e <= 1.0f) || !(v > 0.0f)) return -1.0f;
    return (1.0f - e) * (1.0f + 4.5f * e) / (e * v * (1.0f + (8.0f / 3.0f) * e));
}

/* Inverse of the fit: with C = c_n v, e is the positive root of
 * (8C/3 + 9/2) e^2 + (C - 7/2) e - 1 = 0 (the other root is negative since
 * the product of roots is negative). Each branch avoids cancellation:
 * (D - B)/(2A) for B < 0, the equivalent 2/(B + D) for B >= 0.
 * -1 when c_n < 0 or v is not positive (NaN included). */
CC_HD float cc_restitution_from_damping_hd(float cn, float v)
{
    if (!(cn >= 0.0f) || !(v > 0.0f)) return -1.0f;
    if (cn == 0.0f) return 1.0f; /* no damping: elastic, also for v = inf */
    float c = cn * v;
    float qa = (8.0f / 3.0f) * c + 4.5f;
    float qb = c - 3.5f;
    float d = sqrtf(qb * qb + 4.0f * qa);
    float e = qb >= 0.0f ? 2.0f / (qb + d) : (d - qb) / (2.0f * qa);
    return cc_minf(e, 1.0f);
}

#endif
