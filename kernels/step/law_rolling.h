/* Rolling and torsional resistance at one contact, for both contact
 * models: torques that oppose the bodies' relative angular velocity, in
 * the tangent plane (rolling) and about the normal (spinning), of at most
 * mu_rolling and mu_torsional [m] times the contact's normal load, with the
 * same regularised ramp as Coulomb friction (rho of the compliant model)
 * and an angular falloff of CC_ROLLING_FALLOFF. Without them nothing stops
 * a ball rolling on a plane: its contact point does not slip, so friction
 * does no work. Only + - * / and sqrtf, float32. */
#ifndef CC_KERNELS_STEP_LAW_ROLLING_H
#define CC_KERNELS_STEP_LAW_ROLLING_H

#include "cucontact/material.h"
#include "kernels/math/vec3.h"
#include "kernels/step/law_compliant.h"
#include "kernels/step/rates.h"

/* Angular speed [rad/s] below which the resistance is viscous (grows with
 * the speed) rather than at its cap. */
#define CC_ROLLING_FALLOFF 0.1f

/* The pair's coefficients: means of the two shapes' materials. */
CC_HD void cc_rolling_combine(const cc_material* a, const cc_material* b, float* mu_rolling, float* mu_torsional)
{
    *mu_rolling = 0.5f * (a->mu_rolling + b->mu_rolling);
    *mu_torsional = 0.5f * (a->mu_torsional + b->mu_torsional);
}

/* Torque [N m] on body 1 (body 0 gets its opposite) for the relative
 * angular velocity w_rel = w1 - w0, unit normal n and normal load >= 0 [N];
 * its damping rates go to r->c_roll (in the tangent plane, at the across
 * rate, which bounds the along one) and r->c_spin. */
CC_HD cc_vec3 cc_rolling_torque(float mu_rolling, float mu_torsional, float load, cc_vec3 n, cc_vec3 w_rel,
                                cc_contact_rates* r)
{
    r->c_roll = r->c_spin = 0.0f;
    if (!(load > 0.0f)) return cc_v3(0.0f, 0.0f, 0.0f);
    float wn = cc_v3_dot(w_rel, n);
    cc_vec3 wt = cc_v3_madd(w_rel, n, -wn);
    r->c_roll = mu_rolling * load * cc_friction_ramp_ratio(cc_v3_length(wt), CC_ROLLING_FALLOFF);
    r->c_spin = mu_torsional * load * cc_friction_ramp_ratio(fabsf(wn), CC_ROLLING_FALLOFF);
    return cc_v3_add(cc_v3_scale(wt, -r->c_roll), cc_v3_scale(n, -r->c_spin * wn));
}

#endif
