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
 * the row must lose D = c - d+ / dt of its closing speed: the remaining
 * d+ / dt carries the points exactly onto each other (the arrested
 * fraction is 1 - t for t = d / (c dt), the time of impact as a fraction
 * of the step). The arrest moves the bodies' centres of mass only: the
 * impulse D / w along the normal, w the moving bodies' inverse masses,
 * through each centre of mass. Applied at the contact point with w
 * including the turn, the impulse on a corner of a light body at tens of
 * m/s spins it by thousands of rad/s, a turn of radians within the step
 * that carries its far side through what it struck. A translation cannot
 * take away closing that a spin causes (a spinning rod's end striking the
 * floor while its centre rests): D is capped at the centres of mass' own
 * closing speed, so that no arrest throws a body off, and the rest is the
 * contact law's.
 *
 * A body's arrested rows against one partner (the world and every body
 * that does not move counting as one; other partners in seven slots by
 * their index) stop it as one, along each direction: row i takes
 * min(1, D_max / sum_k |u_ik| S_k) of its D_i, u_i the direction it pushes
 * the body and S_k the partner's losses summed along the half axis u_ik
 * points to, with D_max the partner's largest. Parallel rows (a box's four
 * corners, a capsule's two ends) share the largest loss in proportion to
 * their own; orthogonal ones (a floor and a wall) each arrest in full.
 * Rows against different partners arrest independently (two bullets on
 * one plate), each with the body's inverse mass weighted by the number of
 * partners it arrests against, so that independent arrests of a light
 * body add no energy. The bookkeeping is in fixed point and extremes, the
 * same in any order, and each row's loss is decided once, in the first
 * pass, for the others to read. The row's other forces (the contact law,
 * friction, rolling) are left out this step. */
#ifndef CC_KERNELS_STEP_SPECULATIVE_H
#define CC_KERNELS_STEP_SPECULATIVE_H

#include "kernels/shapes/bounds.h"
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
    if (!v->body_spec || !k->speculative || !k->speculative[i]) return 0;
    return c * v->dt > cc_maxf(d, 0.0f);
}

/* Where a shape may be during the step: its world AABB grown by how far
 * its body's turn can carry any of its points, and the velocity of the
 * box's centre after an unconstrained step. */
typedef struct cc_shape_sweep {
    cc_aabb box;
    cc_vec3 velocity;
} cc_shape_sweep;

CC_HD cc_shape_sweep cc_speculative_sweep(const cc_step_view* v, int s, int b, int moves)
{
    cc_transform xf = v->model.shape_local[s];
    if (b >= 0) xf = cc_tf_mul(v->pose_in[b], xf);
    cc_shape_sweep w;
    w.box = cc_shape_world_aabb(&v->model, s, xf);
    w.velocity = cc_v3(0.0f, 0.0f, 0.0f);
    if (!moves) return w;
    /* The turn moves no point farther than |w| r dt (the centre's own turn
     * included), so the box grows by that and its centre moves with the
     * centre of mass. */
    cc_vec3 com = cc_tf_point(v->pose_in[b], v->model.body_mass[b].com);
    float turn = cc_shape_speed_bound(cc_v3(0.0f, 0.0f, 0.0f), v->angular_in[b], com, w.box.lower, w.box.upper) * v->dt;
    w.box.lower = cc_v3_sub(w.box.lower, cc_v3(turn, turn, turn));
    w.box.upper = cc_v3_add(w.box.upper, cc_v3(turn, turn, turn));
    w.velocity = cc_v3_madd(v->linear_in[b], v->model.gravity, v->dt);
    return w;
}

/* Whether two shapes' boxes can overlap within the step: b's box swept by
 * the relative translation over [0, dt] against a's (true when either is
 * unbounded). A body falling past the edge of a plate is then not stopped
 * by the plane through their closest points. */
CC_HD int cc_speculative_sweeps_meet(cc_shape_sweep a, cc_shape_sweep b, float dt)
{
    cc_vec3 shift = cc_v3_scale(cc_v3_sub(b.velocity, a.velocity), dt);
    for (int k = 0; k < 3; ++k) {
        float lo = cc_v3_get(b.box.lower, k) + cc_minf(cc_v3_get(shift, k), 0.0f);
        float hi = cc_v3_get(b.box.upper, k) + cc_maxf(cc_v3_get(shift, k), 0.0f);
        if (lo > cc_v3_get(a.box.upper, k) || hi < cc_v3_get(a.box.lower, k)) return 0;
    }
    return 1;
}

/* Losses are summed in fixed point, 2^-20 m/s, each clamped to 1e5 m/s
 * (a NaN to 0) so that no sum of a contact buffer's rows overflows. */
#define CC_SPEC_SPEED_SCALE 1048576.0f
#define CC_SPEC_LOSS_MAX 1.0e5f
#define CC_SPEC_LARGEST 0
#define CC_SPEC_AXIS_SUMS 1

/* The slot of body b's rows against `partner` (-1: the world or a body
 * that does not move). Partners whose indices agree modulo
 * CC_SPEC_SLOTS - 1 share a slot, which can only under-arrest them; bodies
 * built one after another (a stack, bullets in a row) differ there. */
CC_HD unsigned long long* cc_speculative_slot(const cc_step_view* v, int b, int partner)
{
    int slot = partner < 0 ? 0 : 1 + partner % (CC_SPEC_SLOTS - 1);
    return &v->body_spec[((size_t)b * CC_SPEC_SLOTS + (size_t)slot) * CC_SPEC_SLOT_WORDS];
}

CC_HD void cc_speculative_clear_body(const cc_step_view* v, int b)
{
    unsigned long long* w = &v->body_spec[(size_t)b * CC_SPEC_SLOTS * CC_SPEC_SLOT_WORDS];
    for (int k = 0; k < CC_SPEC_SLOTS * CC_SPEC_SLOT_WORDS; ++k) w[k] = 0ull;
    for (int slot = 0; slot < CC_SPEC_SLOTS; ++slot)
        w[slot * CC_SPEC_SLOT_WORDS + CC_SPEC_LARGEST] = (unsigned long long)cc_float_order_bits(0.0f);
}

/* The closing speed [m/s] an arrested row must lose: c - max(d, 0) / dt,
 * no more than the centres of mass close (c_com), in [0, 1e5]. */
CC_HD float cc_speculative_loss(const cc_step_view* v, float d, float c, float c_com)
{
    float loss = cc_minf(c - cc_maxf(d, 0.0f) / v->dt, c_com);
    return loss > 0.0f ? cc_minf(loss, CC_SPEC_LOSS_MAX) : 0.0f;
}

/* Adds a row's loss to body b's slot for `partner`; `push` is the unit
 * direction in which the row pushes b. */
CC_HD void cc_speculative_add_loss(const cc_step_view* v, int b, int partner, cc_vec3 push, float loss)
{
    unsigned long long* w = cc_speculative_slot(v, b, partner);
    cc_atomic_max_u64(&w[CC_SPEC_LARGEST], (unsigned long long)cc_float_order_bits(loss));
    for (int k = 0; k < 3; ++k) {
        float u = cc_v3_get(push, k);
        unsigned long long part = (unsigned long long)(long long)(loss * fabsf(u) * CC_SPEC_SPEED_SCALE);
        cc_atomic_add_u64(&w[CC_SPEC_AXIS_SUMS + 2 * k + (u < 0.0f)], part);
    }
}

/* The part of its loss a row of body b against `partner` takes, pushing b
 * along `push` with loss `loss`: min(1, D_max / sum_k |u_k| S_k). */
CC_HD float cc_speculative_share(const cc_step_view* v, int b, int partner, cc_vec3 push, float loss)
{
    const unsigned long long* w = cc_speculative_slot(v, b, partner);
    float largest = cc_float_from_order_bits((uint32_t)w[CC_SPEC_LARGEST]);
    double along = 0.0;
    for (int k = 0; k < 3; ++k) {
        float u = cc_v3_get(push, k);
        along += (double)fabsf(u) * (double)w[CC_SPEC_AXIS_SUMS + 2 * k + (u < 0.0f)] / CC_SPEC_SPEED_SCALE;
    }
    if (!(along > (double)loss)) return 1.0f; /* the row alone along its direction */
    return cc_minf((float)((double)largest / along), 1.0f);
}

/* How many partners body b arrests against this step. */
CC_HD int cc_speculative_partners(const cc_step_view* v, int b)
{
    const unsigned long long* w = &v->body_spec[(size_t)b * CC_SPEC_SLOTS * CC_SPEC_SLOT_WORDS];
    int n = 0;
    for (int slot = 0; slot < CC_SPEC_SLOTS; ++slot)
        n += w[slot * CC_SPEC_SLOT_WORDS + CC_SPEC_LARGEST] > (unsigned long long)cc_float_order_bits(0.0f);
    return n > 0 ? n : 1;
}

/* The arresting force on shape 1's body [N] (shape 0's gets its opposite),
 * through the centres of mass: the row's loss times the smaller share of
 * its two sides, over the moving bodies' inverse masses (each times the
 * partners it arrests against), applied over the step. */
CC_HD cc_vec3 cc_speculative_force(const cc_step_view* v, int b0, int b1, int moves0, int moves1, cc_vec3 n, float loss)
{
    float w = 0.0f, share = 1.0f;
    if (moves0) {
        w += (float)cc_speculative_partners(v, b0) * v->model.body_mass[b0].inv_mass;
        share = cc_minf(share, cc_speculative_share(v, b0, moves1 ? b1 : -1, cc_v3_neg(n), loss));
    }
    if (moves1) {
        w += (float)cc_speculative_partners(v, b1) * v->model.body_mass[b1].inv_mass;
        share = cc_minf(share, cc_speculative_share(v, b1, moves0 ? b0 : -1, n, loss));
    }
    if (!(w > 0.0f)) return cc_v3(0.0f, 0.0f, 0.0f);
    return cc_v3_scale(n, loss * share / (w * v->dt));
}

#endif
