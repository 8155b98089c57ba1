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
 * impulse D / w along the normal, w the sum of the moving bodies' inverse
 * masses, applied through each centre of mass as the force over the step.
 * The contact points' closing speed then drops by exactly D, whatever the
 * bodies' spins, and no arrest turns a body. Applied at the contact point
 * with w including the turn, the impulse on a corner of a light body at
 * tens of m/s spins it up by thousands of rad/s, a turn of radians within
 * the step that carries its far side through what it struck; leaving the
 * turn out only takes energy away.
 *
 * A body's arrested rows against one partner body (the world counting as
 * one) stop it as one: they share the largest loss max_i D_i in proportion
 * to their own D_i (the smaller share of the row's two bodies), so that the
 * four corners of a box that falls flat arrest it once and the two ends of
 * a capsule falling along its axis arrest it as its leading end requires.
 * Rows against different partners arrest independently: two bullets that
 * strike one plate each lose their own closing speed. Each body keeps the
 * rows against its smallest and its largest partner apart; rows against a
 * third partner in the same step share with all of the body's rows, which
 * can only under-arrest them (the next step arrests the rest). Grouping by
 * partner and not by direction keeps nearly parallel rows together (a
 * group of rows in different directions under-arrests, as a wedge between
 * two walls of the world; never over-arrests). The bookkeeping is in fixed
 * point and extremes, the same in any order. The row's other forces (the
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

/* Losses are summed in fixed point, 2^-20 m/s; beyond 1e10 m/s (or NaN) a
 * loss counts as 0. */
#define CC_SPEC_SPEED_SCALE 1048576.0f

/* A body's bookkeeping words: its smallest and largest partner (body + 1,
 * the world 0), then three groups (rows against the smallest partner,
 * against the largest, and all rows) of count, loss sum and largest loss
 * (cc_float_order_bits). */
#define CC_SPEC_PARTNER_MIN 0
#define CC_SPEC_PARTNER_MAX 1
#define CC_SPEC_GROUP_MIN 2
#define CC_SPEC_GROUP_MAX 5
#define CC_SPEC_GROUP_ALL 8
#define CC_SPEC_COUNT 0
#define CC_SPEC_SUM 1
#define CC_SPEC_LARGEST 2

CC_HD void cc_speculative_clear_body(const cc_step_view* v, int b)
{
    unsigned long long* w = &v->body_spec[CC_SPEC_WORDS * (size_t)b];
    w[CC_SPEC_PARTNER_MIN] = ~0ull;
    w[CC_SPEC_PARTNER_MAX] = 0ull;
    for (int g = CC_SPEC_GROUP_MIN; g <= CC_SPEC_GROUP_ALL; g += 3) {
        w[g + CC_SPEC_COUNT] = 0ull;
        w[g + CC_SPEC_SUM] = 0ull;
        w[g + CC_SPEC_LARGEST] = (unsigned long long)cc_float_order_bits(0.0f);
    }
}

/* The closing speed [m/s] an arrested row must lose: c - max(d, 0) / dt. */
CC_HD float cc_speculative_loss(const cc_step_view* v, float d, float c) { return c - cc_maxf(d, 0.0f) / v->dt; }

/* First pass, per arrested row and moving side: the body's partners. */
CC_HD void cc_speculative_note_partner(const cc_step_view* v, int b, int partner)
{
    unsigned long long* w = &v->body_spec[CC_SPEC_WORDS * (size_t)b];
    unsigned long long key = (unsigned long long)(partner + 1);
    cc_atomic_min_u64(&w[CC_SPEC_PARTNER_MIN], key);
    cc_atomic_max_u64(&w[CC_SPEC_PARTNER_MAX], key);
}

/* The group of body b that its rows against `partner` share (a body that
 * does not move, and the world, are partner -1). */
CC_HD int cc_speculative_group(const cc_step_view* v, int b, int partner)
{
    const unsigned long long* w = &v->body_spec[CC_SPEC_WORDS * (size_t)b];
    unsigned long long key = (unsigned long long)(partner + 1);
    if (key == w[CC_SPEC_PARTNER_MIN]) return CC_SPEC_GROUP_MIN;
    if (key == w[CC_SPEC_PARTNER_MAX]) return CC_SPEC_GROUP_MAX;
    return CC_SPEC_GROUP_ALL;
}

/* Second pass, per arrested row and moving side: its loss into its group
 * and into all rows. */
CC_HD void cc_speculative_add_loss(const cc_step_view* v, int b, int partner, float loss)
{
    if (!(loss >= 0.0f && loss < 1.0e10f)) loss = 0.0f;
    unsigned long long* w = &v->body_spec[CC_SPEC_WORDS * (size_t)b];
    unsigned long long fixed = (unsigned long long)(long long)(loss * CC_SPEC_SPEED_SCALE);
    unsigned long long bits = (unsigned long long)cc_float_order_bits(loss);
    int group = cc_speculative_group(v, b, partner);
    int groups[2] = {group, CC_SPEC_GROUP_ALL};
    for (int k = 0; k < (group == CC_SPEC_GROUP_ALL ? 1 : 2); ++k) {
        unsigned long long* g = &w[groups[k]];
        cc_atomic_add_u64(&g[CC_SPEC_COUNT], 1ull);
        cc_atomic_add_u64(&g[CC_SPEC_SUM], fixed);
        cc_atomic_max_u64(&g[CC_SPEC_LARGEST], bits);
    }
}

/* The part of its own loss a row of body b against `partner` takes: 1 when
 * it is its group's only row, else the group's largest loss over their
 * sum. */
CC_HD float cc_speculative_share(const cc_step_view* v, int b, int partner)
{
    const unsigned long long* g = &v->body_spec[CC_SPEC_WORDS * (size_t)b + cc_speculative_group(v, b, partner)];
    if (g[CC_SPEC_COUNT] <= 1ull) return 1.0f;
    float sum = (float)(long long)g[CC_SPEC_SUM] / CC_SPEC_SPEED_SCALE;
    float largest = cc_float_from_order_bits((uint32_t)g[CC_SPEC_LARGEST]);
    return sum > 0.0f ? cc_minf(largest / sum, 1.0f) : 1.0f;
}

/* The arresting force on shape 1's body [N] (shape 0's gets its opposite),
 * through the centres of mass: the row's loss times the smaller share of
 * its two sides, over the sum of the moving bodies' inverse masses,
 * applied over the step. */
CC_HD cc_vec3 cc_speculative_force(const cc_step_view* v, int b0, int b1, int moves0, int moves1, cc_vec3 n, float d,
                                   float c)
{
    float w = 0.0f, share = 1.0f;
    if (moves0) {
        w += v->model.body_mass[b0].inv_mass;
        share = cc_minf(share, cc_speculative_share(v, b0, moves1 ? b1 : -1));
    }
    if (moves1) {
        w += v->model.body_mass[b1].inv_mass;
        share = cc_minf(share, cc_speculative_share(v, b1, moves0 ? b0 : -1));
    }
    if (!(w > 0.0f)) return cc_v3(0.0f, 0.0f, 0.0f);
    return cc_v3_scale(n, cc_speculative_loss(v, d, c) * share / (w * v->dt));
}

#endif
