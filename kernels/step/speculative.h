/* Speculative rows in the step. A flagged row (its points close past
 * touching by more than the contact law can hold within the horizon:
 * kernels/contacts/speculation.h) whose points would close more than
 * max(d, 0) within this step is arrested: separated points meet at the
 * surface at the step's end instead of passing through each other, and
 * touching ones sink no deeper this step.
 *
 * With closing speed c along the normal after an unconstrained step
 * (gravity included; the bodies' velocities at the step's start), semi-
 * implicit Euler moves the points c dt closer. Where c dt > d+ = max(d, 0),
 * the row takes the impulse J = (c - d+ / dt) / w along the normal, w being
 * both bodies' inverse inertia along it at the contact point, applied as
 * the force J / dt over the step: the remaining closing speed d+ / dt
 * carries the points exactly onto each other (the arrested fraction is
 * 1 - t for t = d / (c dt), the time of impact as a fraction of the step).
 * A body with k > 1 such rows arrests as a whole: each row takes 1/k of the
 * body's translational share (w from the inverse masses alone), so that
 * the four corners of a box that falls flat arrest it once, and their
 * torques cancel where the rows lie symmetrically. The row's other forces
 * (the contact law, friction, rolling) are left out this step. */
#ifndef CC_KERNELS_STEP_SPECULATIVE_H
#define CC_KERNELS_STEP_SPECULATIVE_H

#include "kernels/step/implicit.h"
#include "kernels/step/step_view.h"

/* The closing speed [m/s] of row i's points after an unconstrained step;
 * v_rel is the velocity of shape 1's point relative to shape 0's. */
CC_HD float cc_speculative_closing(const cc_step_view* v, cc_vec3 n, cc_vec3 v_rel, int moves0, int moves1)
{
    float fall = (float)(moves1 - moves0) * v->dt; /* gravity's relative velocity change, per g */
    return -cc_v3_dot(cc_v3_madd(v_rel, v->model.gravity, fall), n);
}

/* Whether row i (distance d at the step's poses, closing speed c) is
 * arrested this step. */
CC_HD int cc_speculative_arrests(const cc_step_view* v, int i, float d, float c)
{
    const cc_contacts_view* k = &v->contacts;
    if (!v->body_spec_count || !k->speculative || !k->speculative[i]) return 0;
    return c * v->dt > cc_maxf(d, 0.0f);
}

/* The arresting force on shape 1's body [N] (shape 0's gets its opposite). */
CC_HD cc_vec3 cc_speculative_force(const cc_step_view* v, int b0, int b1, int moves0, int moves1, cc_vec3 lever0,
                                   cc_vec3 lever1, cc_vec3 n, float d, float c)
{
    int share = 1;
    if (moves0 && v->body_spec_count[b0] > share) share = v->body_spec_count[b0];
    if (moves1 && v->body_spec_count[b1] > share) share = v->body_spec_count[b1];
    float w;
    if (share == 1)
        w = (moves0 ? cc_step_inverse_inertia_along(v, b0, lever0, n) : 0.0f) +
            (moves1 ? cc_step_inverse_inertia_along(v, b1, lever1, n) : 0.0f);
    else
        w = (moves0 ? v->model.body_mass[b0].inv_mass : 0.0f) + (moves1 ? v->model.body_mass[b1].inv_mass : 0.0f);
    if (!(w > 0.0f)) return cc_v3(0.0f, 0.0f, 0.0f);
    float impulse = (c - cc_maxf(d, 0.0f) / v->dt) / w;
    return cc_v3_scale(n, impulse / (v->dt * (float)share));
}

#endif
