/* Contact forces of one step: each contact row becomes a force pair on its
 * two bodies, applied at the midpoint of the two surface points, under the
 * solver's contact model. The distance is re-evaluated at the step's poses
 * from the body-frame points, so contacts kept across substeps (collide
 * every n substeps) follow the bodies. Speculative rows that would close
 * within the step are arrested instead (kernels/step/speculative.h). */
#ifndef CC_KERNELS_STEP_FORCE_H
#define CC_KERNELS_STEP_FORCE_H

#include "kernels/contacts/contact_pairs.h"
#include "kernels/contacts/sort_key.h"
#include "kernels/step/implicit.h"
#include "kernels/step/law_compliant.h"
#include "kernels/step/law_penalty.h"
#include "kernels/step/law_rolling.h"
#include "kernels/step/speculative.h"
#include "kernels/step/step_view.h"

/* Per component: the sum order varies on a GPU (see deterministic mode). */
CC_HD void cc_atomic_add_v3(cc_vec3* addr, cc_vec3 v)
{
    cc_atomic_add_f32(&addr->x, v.x);
    cc_atomic_add_f32(&addr->y, v.y);
    cc_atomic_add_f32(&addr->z, v.z);
}

/* Whether body b moves under forces (world-frame shapes have body -1). */
CC_HD int cc_step_body_moves(const cc_step_view* v, int b)
{
    return b >= 0 && !v->model.body_static[b] && v->model.body_mass[b].inv_mass != 0.0f;
}

CC_HD cc_vec3 cc_step_point_velocity(const cc_step_view* v, int b, cc_vec3 com, cc_vec3 p)
{
    if (b < 0) return cc_v3(0.0f, 0.0f, 0.0f);
    return cc_v3_add(v->linear_in[b], cc_v3_cross(v->angular_in[b], cc_v3_sub(p, com)));
}

/* Area a point contact between shapes s0 and s1 stands for [m^2]: the
 * solver's fixed weight, or the smaller of the shapes' point areas (planes
 * and heightfields have none; two such never touch, 1 m^2 if they do). */
CC_HD float cc_point_contact_weight(const cc_step_view* v, int s0, int s1)
{
    if (v->point_weight > 0.0f) return v->point_weight;
    float a = cc_minf(v->model.shape_point_area[s0], v->model.shape_point_area[s1]);
    return a < 3.0e38f ? a : 1.0f;
}

/* Force on shape 1 (shape 0 gets its opposite) under the compliant model,
 * and its rates (kernels/step/rates.h) for the same weight.
 * The collider, whose field gives the distance and normal, is the shape
 * that does not move when only one moves, else shape 0; a shape that is no
 * collider hands the role to the other. The other shape is the colliding
 * one. "Static" here means "does not move": static, world or massless. */
CC_HD cc_vec3 cc_compliant_pair_force(const cc_step_view* v, int s0, int s1, int static0, int static1, float d,
                                      cc_vec3 n, cc_vec3 v_rel10, cc_contact_rates* rates)
{
    const cc_compliant_params* c0 = &v->model.shape_compliant[s0];
    const cc_compliant_params* c1 = &v->model.shape_compliant[s1];
    *rates = cc_contact_rates_zero();
    if (!c0->is_collider && !c1->is_collider) return cc_v3(0.0f, 0.0f, 0.0f);
    int collider_is_0 = !(static1 && !static0);
    if (collider_is_0 && !c0->is_collider) collider_is_0 = 0;
    else if (!collider_is_0 && !c1->is_collider) collider_is_0 = 1;
    float weight = cc_point_contact_weight(v, s0, s1);
    /* Point contacts come from closest points, so the colliding surface's
     * normal is exactly opposite the collider's: alignment never rejects
     * them, and the colliding normal is left out (NULL). The rates do not
     * depend on the side (n n^T, and the slip's direction squared). */
    if (collider_is_0) {
        cc_compliant_pair p = cc_compliant_combine(c1, c0, static0);
        cc_pair_friction(&v->model, s0, s1, &p.mu, 0, 0);
        cc_vec3 t = cc_compliant_traction(&p, d, n, (const cc_vec3*)0, v_rel10);
        *rates = cc_contact_rates_scale(cc_compliant_rates(&p, d, n, v_rel10), weight);
        return cc_v3_scale(t, weight);
    }
    cc_compliant_pair p = cc_compliant_combine(c0, c1, static1);
    cc_pair_friction(&v->model, s0, s1, &p.mu, 0, 0);
    cc_vec3 t = cc_compliant_traction(&p, d, cc_v3_neg(n), (const cc_vec3*)0, cc_v3_neg(v_rel10));
    *rates = cc_contact_rates_scale(cc_compliant_rates(&p, d, cc_v3_neg(n), cc_v3_neg(v_rel10)), weight);
    return cc_v3_scale(t, -weight);
}

/* The largest dt the explicit step holds at this contact: 2 / (sqrt(k w) +
 * c w + c_rot w_rot) for the normal stiffness k, the largest damping rate
 * c, the bodies' summed inverse inertia w along the normal, the largest
 * angular damping rate c_rot and a bound w_rot of the summed inverse
 * rotational inertias; the step's smallest goes to the report. */
CC_HD void cc_step_note_limit(const cc_step_view* v, const cc_contact_rates* r, float w, float w_rot)
{
    float c = cc_maxf(r->c_normal, r->c_tangent);
    float rate = sqrtf(cc_maxf(r->k_normal, 0.0f) * w) + c * w + cc_maxf(r->c_roll, r->c_spin) * w_rot;
    if (!(rate > 0.0f) || !v->report) return;
    float limit = 2.0f / rate;
    cc_atomic_min_u32(&v->report->step_limit_bits, cc_float_order_bits(limit));
}

/* Row i at the step's poses: its shapes and bodies, the distance, the
 * contact point (the midpoint of the surface points), the bodies' centres
 * of mass, and the velocity of shape 1's point relative to shape 0's. */
typedef struct cc_step_row {
    int s0, s1, b0, b1, moves0, moves1;
    cc_vec3 n, at, com0, com1, v_rel;
    cc_vec3 slip; /* shape 1's point from shape 0's, across the normal [m] */
    float d;
} cc_step_row;

CC_HD cc_step_row cc_step_row_of(int i, const cc_step_view* v)
{
    const cc_contacts_view* c = &v->contacts;
    cc_step_row r;
    r.s0 = c->shape0[i], r.s1 = c->shape1[i];
    r.b0 = v->model.shape_geom[r.s0].body, r.b1 = v->model.shape_geom[r.s1].body;
    cc_transform x0 = r.b0 >= 0 ? v->pose_in[r.b0] : cc_tf_identity();
    cc_transform x1 = r.b1 >= 0 ? v->pose_in[r.b1] : cc_tf_identity();
    r.n = c->normal[i];
    cc_vec3 p0 = cc_v3_madd(cc_tf_point(x0, c->point0[i]), r.n, c->thickness0[i]);
    cc_vec3 p1 = cc_v3_madd(cc_tf_point(x1, c->point1[i]), r.n, -c->thickness1[i]);
    r.d = cc_v3_dot(r.n, cc_v3_sub(p1, p0));
    r.slip = cc_v3_madd(cc_v3_sub(p1, p0), r.n, -r.d);
    r.at = cc_v3_scale(cc_v3_add(p0, p1), 0.5f);
    r.com0 = r.b0 >= 0 ? cc_tf_point(x0, v->model.body_mass[r.b0].com) : r.at;
    r.com1 = r.b1 >= 0 ? cc_tf_point(x1, v->model.body_mass[r.b1].com) : r.at;
    r.v_rel = cc_v3_sub(cc_step_point_velocity(v, r.b1, r.com1, r.at), cc_step_point_velocity(v, r.b0, r.com0, r.at));
    r.moves0 = cc_step_body_moves(v, r.b0), r.moves1 = cc_step_body_moves(v, r.b1);
    return r;
}

/* Whether a row of a speculating pipeline is a ghost this step: its two
 * shapes' swept boxes do not meet, so they cannot touch within it. Rows
 * of a speculating pipeline may have been found far from where the bodies
 * are now (a pass keeps candidates that close within the horizon, and a
 * scheduled pass everything within its reserve); the plane through the
 * closest points they were found with then says nothing of the bodies now
 * (a body falling past the edge of a plate, or passing beside another),
 * and its stale points can even seem to overlap. A ghost exerts nothing. */
CC_HD int cc_step_row_ghost(const cc_step_view* v, const cc_step_row* r)
{
    if (!v->body_spec) return 0;
    cc_shape_sweep a = cc_speculative_sweep(v, r->s0, r->b0, r->moves0);
    cc_shape_sweep b = cc_speculative_sweep(v, r->s1, r->b1, r->moves1);
    return !cc_speculative_sweeps_meet(a, b, v->dt);
}

/* The same for a row the contact law would hold: its points still facing
 * each other (within 0.1 mm across the normal, as every row of a pass at
 * these poses does) make it no ghost, and the sweep is spent on rows the
 * bodies have moved along. */
CC_HD int cc_step_law_row_ghost(const cc_step_view* v, const cc_step_row* r)
{
    return cc_v3_dot(r->slip, r->slip) > 1.0e-8f && cc_step_row_ghost(v, r);
}

/* The closing speed [m/s] of row i's centres of mass after an
 * unconstrained step, with the arrests of the rounds so far. */
CC_HD float cc_speculative_com_closing(const cc_step_view* v, int b0, int b1, int moves0, int moves1, cc_vec3 n)
{
    cc_vec3 v_com = cc_v3_sub(moves1 ? cc_speculative_velocity(v, b1) : cc_v3(0.0f, 0.0f, 0.0f),
                              moves0 ? cc_speculative_velocity(v, b0) : cc_v3(0.0f, 0.0f, 0.0f));
    return cc_speculative_closing(v, n, v_com, moves0, moves1);
}

/* Offers row i this round's loss (what its centres of mass close faster
 * than its target) when the loss carries them more than
 * CC_SPEC_TOLERANCE within the step; else it takes no part. */
CC_HD void cc_speculative_offer(const cc_step_view* v, int i, int b0, int b1, int moves0, int moves1, cc_vec3 n,
                                float loss)
{
    if (!(loss * v->dt > CC_SPEC_TOLERANCE)) {
        v->row_spec_loss[i] = -1.0f;
        return;
    }
    loss = cc_minf(loss, CC_SPEC_LOSS_MAX);
    v->row_spec_loss[i] = loss;
    if (moves0) cc_speculative_add_loss(v, b0, moves1 ? b1 : -1, cc_v3_neg(n), loss);
    if (moves1) cc_speculative_add_loss(v, b1, moves0 ? b0 : -1, n, loss);
}

/* Row r's target closing speed of its centres of mass (index i): what is
 * left of max(d, 0) / dt once the closing that spins cause at its points
 * is taken out; -1 for a row that cannot arrest (no body moves, or it is
 * not finite). */
CC_HD float cc_speculative_target(const cc_step_view* v, int i, const cc_step_row* r)
{
    if (!r->moves0 && !r->moves1) return -1.0f;
    /* Each body's own surface point: a speculative row's points can be far
     * apart (a body closing on what it will strike), and a turning body's
     * velocity at their midpoint is not its surface's. */
    const cc_contacts_view* k = &v->contacts;
    cc_vec3 p0 = r->b0 >= 0 ? cc_tf_point(v->pose_in[r->b0], k->point0[i]) : k->point0[i];
    cc_vec3 p1 = r->b1 >= 0 ? cc_tf_point(v->pose_in[r->b1], k->point1[i]) : k->point1[i];
    cc_vec3 v_points = cc_v3_sub(cc_step_point_velocity(v, r->b1, r->com1, p1), cc_step_point_velocity(v, r->b0, r->com0, p0));
    cc_vec3 v_com = cc_v3_sub(r->moves1 ? v->linear_in[r->b1] : cc_v3(0.0f, 0.0f, 0.0f),
                              r->moves0 ? v->linear_in[r->b0] : cc_v3(0.0f, 0.0f, 0.0f));
    float spin = cc_speculative_closing(v, r->n, v_points, r->moves0, r->moves1) -
                 cc_speculative_closing(v, r->n, v_com, r->moves0, r->moves1);
    float target = cc_maxf(cc_maxf(r->d, 0.0f) / v->dt - spin, 0.0f);
    return target < 3.0e38f ? target : -1.0f;
}

/* Admits row r to the rounds with its target: a ghost is refused (target
 * -1); else its target and slack go to the row, and a body touching what
 * does not move (within the pair's allowance this step) is noted as held
 * from behind along the row's push. Whether it was admitted. */
CC_HD int cc_speculative_admit(const cc_step_view* v, int i, const cc_step_row* r, float target)
{
    int flagged = v->contacts.speculative[i] != 0;
    v->row_spec_target[i] = -1.0f;
    if (!(target >= 0.0f)) return 0;
    if (flagged ? cc_step_row_ghost(v, r) : cc_step_law_row_ghost(v, r)) return 0;
    float allowance = 0.5f * cc_minf(cc_shape_smallest_half_extent(&v->model, r->s0),
                                     cc_shape_smallest_half_extent(&v->model, r->s1));
    v->row_spec_target[i] = target;
    v->row_spec_slack[i] = flagged ? 0.0f : allowance / v->dt;
    if (r->moves0 != r->moves1 && target * v->dt <= allowance) {
        if (r->moves0) cc_speculative_add_backing(v, r->b0, cc_v3_neg(r->n));
        else cc_speculative_add_backing(v, r->b1, r->n);
    }
    return 1;
}

/* Marks a row whose target is found only if an arrest moves one of its
 * bodies (cc_speculative_residual_thread). */
#define CC_SPEC_PENDING -2.0f

/* The first round, per row: a speculative row that closes past its target
 * is admitted and offers its loss; every other row waits. A waiting row
 * joins a later round only when the arrests of other rows have moved one
 * of its bodies and its centres of mass then close past its target, by
 * more than the pair's allowance within the step for a row the contact
 * law holds (half the smaller of the two shapes' smallest half extents, as
 * at the flag: kernels/contacts/speculation.h): a board struck while it
 * rests on the floor. That allowance is its slack (0 for a speculative
 * row). */
CC_HD void cc_speculative_rows_thread(int i, const cc_step_view* v)
{
    if (i >= *v->contacts.count) return;
    v->row_spec_target[i] = CC_SPEC_PENDING;
    v->row_spec_loss[i] = -1.0f;
    v->row_spec_impulse[i] = 0.0f;
    if (!v->contacts.speculative[i]) return;
    cc_step_row r = cc_step_row_of(i, v);
    float target = cc_speculative_target(v, i, &r);
    if (!(target >= 0.0f)) {
        v->row_spec_target[i] = -1.0f;
        return;
    }
    float loss = cc_speculative_com_closing(v, r.b0, r.b1, r.moves0, r.moves1, r.n) - target;
    if (!(loss * v->dt > CC_SPEC_TOLERANCE)) return;
    if (cc_speculative_admit(v, i, &r, target)) cc_speculative_offer(v, i, r.b0, r.b1, r.moves0, r.moves1, r.n, loss);
}

/* Row i's bodies and normal, for the later rounds. */
CC_HD void cc_speculative_row_bodies(const cc_step_view* v, int i, int* b0, int* b1, int* moves0, int* moves1)
{
    *b0 = v->model.shape_geom[v->contacts.shape0[i]].body;
    *b1 = v->model.shape_geom[v->contacts.shape1[i]].body;
    *moves0 = cc_step_body_moves(v, *b0);
    *moves1 = cc_step_body_moves(v, *b1);
}

/* A later round, per row that can arrest: what its centres of mass still
 * close faster than its target, into its bodies' (cleared) slots. A
 * waiting row is admitted once an arrest has moved one of its bodies, and
 * joins past its slack. */
CC_HD void cc_speculative_residual_thread(int i, const cc_step_view* v)
{
    if (i >= *v->contacts.count || !cc_speculative_round_runs(v)) return;
    v->row_spec_loss[i] = -1.0f;
    float target = v->row_spec_target[i];
    if (!(target >= 0.0f) && target != CC_SPEC_PENDING) return;
    int b0, b1, moves0, moves1;
    cc_speculative_row_bodies(v, i, &b0, &b1, &moves0, &moves1);
    if (target == CC_SPEC_PENDING) {
        if (!((moves0 && cc_speculative_pushed(v, b0)) || (moves1 && cc_speculative_pushed(v, b1)))) return;
        cc_step_row r = cc_step_row_of(i, v);
        target = cc_speculative_target(v, i, &r);
        if (!cc_speculative_admit(v, i, &r, target)) return;
    }
    cc_vec3 n = v->contacts.normal[i];
    float excess = cc_speculative_com_closing(v, b0, b1, moves0, moves1, n) - target;
    if (v->row_spec_impulse[i] == 0.0f && !(excess > v->row_spec_slack[i])) return;
    cc_speculative_offer(v, i, b0, b1, moves0, moves1, n, excess);
}

/* Every round, per row with a loss: its impulse grows by the loss's share,
 * and its bodies' velocity changes with it. */
CC_HD void cc_speculative_arrest_thread(int i, const cc_step_view* v)
{
    if (i >= *v->contacts.count || !cc_speculative_round_runs(v)) return;
    float loss = v->row_spec_loss[i];
    if (!(loss > 0.0f)) return;
    int b0, b1, moves0, moves1;
    cc_speculative_row_bodies(v, i, &b0, &b1, &moves0, &moves1);
    cc_vec3 n = v->contacts.normal[i];
    float impulse = cc_speculative_impulse(v, b0, b1, moves0, moves1, n, loss);
    if (!(impulse > 0.0f)) return;
    v->row_spec_impulse[i] += impulse;
    if (!v->spec_rounds_active[v->spec_round]) v->spec_rounds_active[v->spec_round] = 1;
    if (moves0) cc_speculative_push(v, b0, cc_v3_neg(n), impulse);
    if (moves1) cc_speculative_push(v, b1, n, impulse);
}

CC_HD void cc_contact_force_thread(int i, const cc_step_view* v)
{
    if (i >= *v->contacts.count) return;
    cc_step_row r = cc_step_row_of(i, v);
    int s0 = r.s0, s1 = r.s1, b0 = r.b0, b1 = r.b1, moves0 = r.moves0, moves1 = r.moves1;
    cc_vec3 n = r.n, at = r.at, com0 = r.com0, com1 = r.com1, v_rel = r.v_rel;
    float d = r.d;
    /* Decided before the forces, in the arrest rounds. */
    int arrested = v->body_spec && v->row_spec_impulse[i] > 0.0f;
    int ghost = !arrested && cc_step_law_row_ghost(v, &r);

    cc_vec3 f1;
    cc_contact_rates rates;
    cc_vec3 lever0 = cc_v3_sub(at, com0), lever1 = cc_v3_sub(at, com1);
    if (ghost || arrested) {
        f1 = arrested ? cc_v3_scale(n, v->row_spec_impulse[i] / v->dt) : cc_v3(0.0f, 0.0f, 0.0f);
        rates = cc_contact_rates_zero();
    } else if (v->contact_model == 1 /* CC_CONTACT_PENALTY */) {
        cc_penalty_pair p = cc_penalty_combine(&v->model.shape_material[s0], &v->model.shape_material[s1]);
        cc_pair_friction(&v->model, s0, s1, &p.mu, 0, 0);
        f1 = cc_penalty_force(&p, d, n, v_rel);
        rates = cc_penalty_rates(&p, d, n, v_rel);
    } else {
        f1 = cc_compliant_pair_force(v, s0, s1, !moves0, !moves1, d, n, v_rel, &rates);
    }
    cc_vec3 f0 = cc_v3_neg(f1);
    /* Rolling and torsional resistance, from the normal load (none while
     * the surfaces do not touch). */
    float mu_rolling = 0.0f, mu_torsional = 0.0f;
    if (!arrested && !ghost) {
        cc_rolling_combine(&v->model.shape_material[s0], &v->model.shape_material[s1], &mu_rolling, &mu_torsional);
        cc_pair_friction(&v->model, s0, s1, 0, &mu_torsional, &mu_rolling);
    }
    cc_vec3 w_rel = cc_v3_sub(b1 >= 0 ? v->angular_in[b1] : cc_v3(0.0f, 0.0f, 0.0f),
                              b0 >= 0 ? v->angular_in[b0] : cc_v3(0.0f, 0.0f, 0.0f));
    cc_vec3 roll1 = cc_rolling_torque(mu_rolling, mu_torsional, cc_v3_dot(f1, n), n, w_rel, &rates);
    /* An arrest acts through the centres of mass (step/speculative.h). */
    cc_vec3 t0 = cc_v3_sub(arrested ? cc_v3(0.0f, 0.0f, 0.0f) : cc_v3_cross(lever0, f0), roll1);
    cc_vec3 t1 = cc_v3_add(arrested ? cc_v3(0.0f, 0.0f, 0.0f) : cc_v3_cross(lever1, f1), roll1);
    if (moves0 || moves1) {
        float w = (moves0 ? cc_step_inverse_inertia_along(v, b0, lever0, n) : 0.0f) +
                  (moves1 ? cc_step_inverse_inertia_along(v, b1, lever1, n) : 0.0f);
        float w_rot = (moves0 ? cc_step_inverse_inertia_bound(v, b0) : 0.0f) +
                      (moves1 ? cc_step_inverse_inertia_bound(v, b1) : 0.0f);
        cc_step_note_limit(v, &rates, w, w_rot);
    }
    /* Also for a contact where nothing moves: its coupling row then says so. */
    if (v->integrator == 0 /* CC_INTEGRATOR_IMPLICIT */)
        cc_implicit_contact_terms(i, v, &rates, n, v_rel, b0, b1, moves0, moves1, lever0, lever1);
    if (v->deterministic) {
        /* Entries sorted by body are summed in a fixed order later. */
        int e0 = 2 * i, e1 = 2 * i + 1;
        v->entry_keys[e0] = moves0 ? ((uint64_t)(uint32_t)b0 << 32) | (uint32_t)e0 : CC_KEY_EMPTY;
        v->entry_keys[e1] = moves1 ? ((uint64_t)(uint32_t)b1 << 32) | (uint32_t)e1 : CC_KEY_EMPTY;
        v->entry_ids[e0] = e0;
        v->entry_ids[e1] = e1;
        v->entry_force[e0] = f0;
        v->entry_force[e1] = f1;
        v->entry_torque[e0] = t0;
        v->entry_torque[e1] = t1;
        return;
    }
    if (moves0) {
        cc_atomic_add_v3(&v->body_force[b0], f0);
        cc_atomic_add_v3(&v->body_torque[b0], t0);
    }
    if (moves1) {
        cc_atomic_add_v3(&v->body_force[b1], f1);
        cc_atomic_add_v3(&v->body_torque[b1], t1);
    }
}

/* Deterministic mode: body b sums its entries in sorted order (by contact
 * row, then side), and the implicit terms likewise. n is the number of
 * entries written (2 * contacts). */
CC_HD void cc_reduce_body_forces_thread(int b, const cc_step_view* v, int n)
{
    int lo = cc_step_first_entry(v, b, n);
    cc_vec3 f = cc_v3(0.0f, 0.0f, 0.0f), t = cc_v3(0.0f, 0.0f, 0.0f);
    for (int k = lo; k < n && (v->sorted_keys[k] >> 32) == (uint64_t)(uint32_t)b; ++k) {
        int e = v->sorted_ids[k];
        f = cc_v3_add(f, v->entry_force[e]);
        t = cc_v3_add(t, v->entry_torque[e]);
    }
    v->body_force[b] = f;
    v->body_torque[b] = t;
    if (v->integrator == 0 /* CC_INTEGRATOR_IMPLICIT */)
        cc_reduce_body_terms(b, v, n, v->entry_implicit, v->body_implicit, CC_IMPLICIT_TERMS);
}

/* The step's clear, per body: zero sums. */
CC_HD void cc_step_clear_body(int b, const cc_step_view* v)
{
    v->body_force[b] = cc_v3(0.0f, 0.0f, 0.0f);
    v->body_torque[b] = cc_v3(0.0f, 0.0f, 0.0f);
    if (v->body_spec) cc_speculative_clear_body(v, b);
    if (v->integrator != 0) return;
    for (int k = 0; k < CC_IMPLICIT_TERMS; ++k) v->body_implicit[(size_t)b * CC_IMPLICIT_TERMS + k] = 0.0f;
    for (int k = 0; k < CC_TWIST; ++k) v->body_coupling[(size_t)b * CC_TWIST + k] = 0.0f;
}

/* Opens the step's report (no limit yet) and its arrest rounds (none has
 * arrested anything). */
CC_HD void cc_step_open_report(const cc_step_view* v)
{
    if (v->report) v->report->step_limit_bits = cc_float_order_bits(INFINITY);
    if (v->spec_rounds_active)
        for (int r = 0; r < CC_SPEC_ROUNDS; ++r) v->spec_rounds_active[r] = 0;
}

/* The whole clear, for a backend that runs it in one thread. */
CC_HD void cc_step_clear_thread(const cc_step_view* v)
{
    for (int b = 0; b < v->model.body_count; ++b) cc_step_clear_body(b, v);
    cc_step_open_report(v);
}

#endif
