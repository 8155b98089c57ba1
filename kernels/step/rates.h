/* How a contact force changes with the contact's motion, for the implicit
 * step: the normal stiffness along the contact normal and the damping
 * rates along the normal and in the tangent plane. Each law fills one
 * (kernels/step/law_*.h) beside its force. All are >= 0: the force's
 * Jacobian with respect to the relative velocity at the point is taken as
 * -(c_normal n n^T + c_tangent (I - n n^T)), and with respect to the
 * distance along n it is -k_normal n. Friction's rate is its secant, the
 * force's magnitude over the slip, in every tangent direction: linearised
 * so, friction can stop a slip within a step but never reverse it (its
 * tangent, zero once the force reaches the Coulomb cap, would let a large
 * capped force overshoot). The rolling and
 * torsional torques' Jacobian with respect to the relative angular
 * velocity is -(c_roll (I - n n^T) + c_spin n n^T). Cross terms (friction
 * growing with the normal load, the normal turning with the bodies) are
 * left out, which keeps the per-contact matrices symmetric. */
#ifndef CC_KERNELS_STEP_RATES_H
#define CC_KERNELS_STEP_RATES_H

#include "kernels/math/vec3.h"

typedef struct cc_contact_rates {
    float k_normal; /* -d(f . n)/d(distance) [N/m, or Pa/m per area] */
    float c_normal; /* normal damping [N s/m, or Pa s/m per area] */
    float c_tangent; /* friction's magnitude over the slip [N s/m, or Pa s/m per area] */
    /* Angular: the rolling and torsional resistance's rates with respect to
     * the relative angular velocity, in the tangent plane and about n
     * [N m s] (kernels/step/law_rolling.h). */
    float c_roll;
    float c_spin;
} cc_contact_rates;

CC_HD cc_contact_rates cc_contact_rates_zero(void)
{
    cc_contact_rates r;
    r.k_normal = r.c_normal = r.c_tangent = r.c_roll = r.c_spin = 0.0f;
    return r;
}

CC_HD cc_contact_rates cc_contact_rates_scale(cc_contact_rates r, float s)
{
    r.k_normal *= s;
    r.c_normal *= s;
    r.c_tangent *= s;
    return r;
}

#endif
