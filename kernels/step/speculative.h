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
 * of the step). The arrest moves the bodies' centres of mass only, by
 * impulses along the normal through each centre of mass. Applied at the
 * contact point with the turn included, the impulse on a corner of a
 * light body at tens of m/s spins it by thousands of rad/s, a turn of
 * radians within the step that carries its far side through what it
 * struck. A translation cannot take away closing that a spin causes (a
 * spinning rod's end striking the floor while its centre rests), so each
 * row asks of the centres of mass' closing speed c_com only that it fall
 * to its target max(d+ / dt - (c - c_com), 0), and the rest is the
 * contact law's.
 *
 * The impulses are found in CC_SPEC_ROUNDS rounds. Each round takes the
 * rows whose centres of mass still close faster than their targets (with
 * the velocity changes of the rounds before) and adds to each an impulse
 * for its remaining loss D_i, shared out as follows, so that one round
 * never asks more of a body than its rows need:
 * - a body's rows against one partner (the world and every body that does
 *   not move counting as one; other partners in seven slots by their
 *   index) stop it as one, along each direction: row i takes
 *   min(1, D_max / sum_k |u_ik| S_k) of its D_i, u_i the direction it
 *   pushes the body and S_k the partner's losses summed along the half
 *   axis u_ik points to, with D_max the partner's largest. Parallel rows
 *   (a box's four corners, a capsule's two ends) share the largest loss in
 *   proportion to their own; orthogonal ones (a floor and a wall) each
 *   arrest in full;
 * - rows against different partners arrest at once, each with the body's
 *   inverse mass weighted by how many of its partners push along the
 *   row's direction: sum over partners p of min(1, sum_k |u_ik| R_pk), R_pk
 *   the largest |u_k| of p's rows along the half axis u_ik points to (1
 *   for the row's own partner; partners pushing the other way add nothing
 *   to share). Two
 *   bullets striking a light plate side by side share its mass and add no
 *   energy; a plate below and a box beside a bullet push along orthogonal
 *   axes and each arrests in full.
 * Later rounds take what the rounds before left, and rows that wait: a
 * speculative row that did not close, or a row the contact law holds,
 * joins once an arrest has moved one of its bodies (the law's row only
 * when it then closes past what the law holds within the step). A body
 * touching what does not move is held from behind along that contact's
 * push: a row between two moving bodies leaves out the held side's
 * inverse mass along it, so a bullet striking a board on the floor stops
 * on the board in one round and the board's floor rows take up the push
 * in the next, instead of each round passing on about the mass ratio.
 * A round after one that arrested nothing does nothing. Impulses only
 * grow, and every sum is in fixed point or extremes, the same in any
 * order and for any thread count. An arrested row's other forces (the
 * contact law, friction, rolling) are left out this step. */
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

/* Losses and velocity changes are summed in fixed point, 2^-20 m/s, each
 * clamped to 1e5 m/s (a NaN to 0) so that no sum of a contact buffer's
 * rows overflows. A row whose centres of mass close less than 1 um faster
 * than its target within the step takes no further round. */
#define CC_SPEC_SPEED_SCALE 1048576.0f
#define CC_SPEC_LOSS_MAX 1.0e5f
#define CC_SPEC_TOLERANCE 1.0e-6f /* [m] */
#define CC_SPEC_LARGEST 0
#define CC_SPEC_AXIS_SUMS 1
#define CC_SPEC_AXIS_REACH 7 /* 6 words: the largest |u_k| per half axis */

/* A speed [m/s] in fixed point (2^-20 m/s), clamped to 1e5 m/s, NaN as 0. */
CC_HD long long cc_speculative_fixed(float speed)
{
    float s = speed == speed ? cc_clampf(speed, -CC_SPEC_LOSS_MAX, CC_SPEC_LOSS_MAX) : 0.0f;
    return (long long)(s * CC_SPEC_SPEED_SCALE);
}

/* The slot of body b's rows against `partner` (-1: the world or a body
 * that does not move). Partners whose indices agree modulo
 * CC_SPEC_SLOTS - 1 share a slot, which can only under-arrest them (what a
 * later round takes up); bodies built one after another (a stack, bullets
 * in a row) differ there. */
CC_HD unsigned long long* cc_speculative_slot(const cc_step_view* v, int b, int partner)
{
    int slot = partner < 0 ? 0 : 1 + partner % (CC_SPEC_SLOTS - 1);
    return &v->body_spec[((size_t)b * CC_SPEC_SLOTS + (size_t)slot) * CC_SPEC_SLOT_WORDS];
}

/* Whether the view's round runs: the first always, a later one only when
 * the round before arrested something (else nothing has changed since). */
CC_HD int cc_speculative_round_runs(const cc_step_view* v)
{
    return v->spec_round == 0 || v->spec_rounds_active[v->spec_round - 1] != 0;
}

/* Empties body b's slots. */
CC_HD void cc_speculative_empty_slots(const cc_step_view* v, int b)
{
    unsigned long long* w = &v->body_spec[(size_t)b * CC_SPEC_SLOTS * CC_SPEC_SLOT_WORDS];
    unsigned long long zero = (unsigned long long)cc_float_order_bits(0.0f);
    for (int slot = 0; slot < CC_SPEC_SLOTS; ++slot) {
        unsigned long long* s = w + slot * CC_SPEC_SLOT_WORDS;
        for (int k = 0; k < CC_SPEC_SLOT_WORDS; ++k) s[k] = 0ull;
        s[CC_SPEC_LARGEST] = zero;
        for (int k = 0; k < 6; ++k) s[CC_SPEC_AXIS_REACH + k] = zero;
    }
}

/* Empties body b's slots for a later round that runs. */
CC_HD void cc_speculative_clear_slots(const cc_step_view* v, int b)
{
    if (cc_speculative_round_runs(v)) cc_speculative_empty_slots(v, b);
}

/* Body b at the step's start: empty slots, no velocity change, nothing
 * behind it. */
CC_HD void cc_speculative_clear_body(const cc_step_view* v, int b)
{
    cc_speculative_empty_slots(v, b);
    long long* w = &v->body_arrest[(size_t)b * CC_SPEC_BODY_WORDS];
    for (int k = 0; k < 3; ++k) w[k] = 0;
    for (int k = 0; k < 6; ++k) w[CC_SPEC_BACKING + k] = (long long)cc_float_order_bits(0.0f);
}

/* Notes that a row against what does not move holds body b from behind,
 * pushing it along `push`: per half axis, the largest component. */
CC_HD void cc_speculative_add_backing(const cc_step_view* v, int b, cc_vec3 push)
{
    unsigned long long* w = (unsigned long long*)&v->body_arrest[(size_t)b * CC_SPEC_BODY_WORDS + CC_SPEC_BACKING];
    for (int k = 0; k < 3; ++k) {
        float u = cc_v3_get(push, k);
        cc_atomic_max_u64(&w[2 * k + (u < 0.0f)], (unsigned long long)cc_float_order_bits(fabsf(u)));
    }
}

/* How much of a push along `push` what holds body b from behind takes:
 * sum_k |u_k| B_k over the half axes opposite the push, at most 1 (an
 * upper bound of the largest -u . u_back). */
CC_HD float cc_speculative_backing(const cc_step_view* v, int b, cc_vec3 push)
{
    const unsigned long long* w = (const unsigned long long*)&v->body_arrest[(size_t)b * CC_SPEC_BODY_WORDS + CC_SPEC_BACKING];
    float f = 0.0f;
    for (int k = 0; k < 3; ++k) {
        float u = cc_v3_get(push, k);
        f += fabsf(u) * cc_float_from_order_bits((uint32_t)w[2 * k + (u >= 0.0f)]);
    }
    return cc_minf(f, 1.0f);
}

/* Body b's centre-of-mass velocity with the arrests of the rounds so far. */
CC_HD cc_vec3 cc_speculative_velocity(const cc_step_view* v, int b)
{
    const long long* dv = &v->body_arrest[(size_t)b * CC_SPEC_BODY_WORDS];
    cc_vec3 change = cc_v3((float)dv[0], (float)dv[1], (float)dv[2]);
    return cc_v3_madd(v->linear_in[b], change, 1.0f / CC_SPEC_SPEED_SCALE);
}

/* Whether the arrests so far have changed body b's velocity. */
CC_HD int cc_speculative_pushed(const cc_step_view* v, int b)
{
    const long long* dv = &v->body_arrest[(size_t)b * CC_SPEC_BODY_WORDS];
    return dv[0] != 0 || dv[1] != 0 || dv[2] != 0;
}

/* Adds a row's loss this round to body b's slot for `partner`; `push` is
 * the unit direction in which the row pushes b. */
CC_HD void cc_speculative_add_loss(const cc_step_view* v, int b, int partner, cc_vec3 push, float loss)
{
    unsigned long long* w = cc_speculative_slot(v, b, partner);
    cc_atomic_max_u64(&w[CC_SPEC_LARGEST], (unsigned long long)cc_float_order_bits(loss));
    for (int k = 0; k < 3; ++k) {
        float u = cc_v3_get(push, k);
        unsigned long long part = (unsigned long long)cc_speculative_fixed(loss * fabsf(u));
        cc_atomic_add_u64(&w[CC_SPEC_AXIS_SUMS + 2 * k + (u < 0.0f)], part);
        cc_atomic_max_u64(&w[CC_SPEC_AXIS_REACH + 2 * k + (u < 0.0f)], (unsigned long long)cc_float_order_bits(fabsf(u)));
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

/* How many of body b's partners this round push it along `push`: the sum
 * over partners of min(1, sum_k |u_k| R_k), R_k the partner's largest
 * component along the half axis u_k points to, at least 1. Partners that
 * push the other way are left out: an impulse from one only adds to what
 * the other must take (a board between a bullet and the floor), never to
 * what it is given twice. */
CC_HD float cc_speculative_partner_weight(const cc_step_view* v, int b, cc_vec3 push)
{
    const unsigned long long* w = &v->body_spec[(size_t)b * CC_SPEC_SLOTS * CC_SPEC_SLOT_WORDS];
    float weight = 0.0f;
    for (int slot = 0; slot < CC_SPEC_SLOTS; ++slot) {
        const unsigned long long* s = w + slot * CC_SPEC_SLOT_WORDS;
        if (s[CC_SPEC_LARGEST] <= (unsigned long long)cc_float_order_bits(0.0f)) continue;
        float along = 0.0f;
        for (int k = 0; k < 3; ++k) {
            float u = cc_v3_get(push, k);
            along += fabsf(u) * cc_float_from_order_bits((uint32_t)s[CC_SPEC_AXIS_REACH + 2 * k + (u < 0.0f)]);
        }
        weight += cc_minf(along, 1.0f);
    }
    return cc_maxf(weight, 1.0f);
}

/* The impulse [N s] a row adds this round (along n on shape 1's body, its
 * opposite on shape 0's): its loss times the smaller share of its two
 * sides, over the moving bodies' inverse masses, each times its partner
 * weight along the row. Where one of two moving bodies is held from
 * behind along the push, that part of its inverse mass is left out: the
 * row stops the other body as if against what holds it, and the holding
 * rows take up what this pushes into them in the next round (a bullet
 * striking a board on the floor stops in two rounds, not one per mass
 * ratio). */
CC_HD float cc_speculative_impulse(const cc_step_view* v, int b0, int b1, int moves0, int moves1, cc_vec3 n, float loss)
{
    float w = 0.0f, share = 1.0f, held0 = 0.0f, held1 = 0.0f;
    if (moves0 && moves1 && v->spec_round < CC_SPEC_ROUNDS - 1) {
        /* (not in the last round: no round after it would take up the
         * push into what holds the body) */
        held0 = cc_speculative_backing(v, b0, cc_v3_neg(n));
        held1 = cc_speculative_backing(v, b1, n);
        if (held0 > 0.0f && held1 > 0.0f) held0 = held1 = 0.0f; /* both held: their own masses */
    }
    if (moves0) {
        w += cc_speculative_partner_weight(v, b0, cc_v3_neg(n)) * v->model.body_mass[b0].inv_mass * (1.0f - held0);
        share = cc_minf(share, cc_speculative_share(v, b0, moves1 ? b1 : -1, cc_v3_neg(n), loss));
    }
    if (moves1) {
        w += cc_speculative_partner_weight(v, b1, n) * v->model.body_mass[b1].inv_mass * (1.0f - held1);
        share = cc_minf(share, cc_speculative_share(v, b1, moves0 ? b0 : -1, n, loss));
    }
    if (!(w > 0.0f)) return 0.0f;
    return loss * share / w;
}

/* Adds the impulse's velocity change to body b (moving it along `push`). */
CC_HD void cc_speculative_push(const cc_step_view* v, int b, cc_vec3 push, float impulse)
{
    float dv = impulse * v->model.body_mass[b].inv_mass;
    for (int k = 0; k < 3; ++k)
        cc_atomic_add_u64((unsigned long long*)&v->body_arrest[(size_t)b * CC_SPEC_BODY_WORDS + k],
                          (unsigned long long)cc_speculative_fixed(dv * cc_v3_get(push, k)));
}

#endif
