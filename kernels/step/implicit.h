/* The linearly implicit Euler step (CC_INTEGRATOR_IMPLICIT).
 *
 * Per body, with twist V = (v, w) about the centre of mass, generalised
 * mass M and the contact forces linearised in their point's relative
 * position and velocity (kernels/step/rates.h: f + dt K u + (dt K + D) du),
 * the velocity change dV solves
 *
 *   (M - dt sum_c J^T A_c J) dV = dt (F + sum_c J^T dt K_c u_c)
 *
 * with A_c = dt K_c + D_c (symmetric, <= 0) and J the map from V to the
 * contact point's velocity; the body's angular velocity also changes by
 * the torque-free turn (kernels/step/gyroscopic.h), kept outside this
 * system: linearised into it, the gyroscopic term gained energy at large
 * |w| dt (a thin plate spinning at 370 rad/s gained 7.5 times its energy
 * in one step at 1/240 s). A contact between two moving bodies couples
 * their systems. Each body solves its
 * own with the other body's velocity change held and the contact's matrix
 * scaled by alpha = 1 + w_other / w_own (w: inverse inertia along the
 * normal): for one contact between two bodies this is the exact implicit
 * step of their relative motion (rolling and torsional resistance, which
 * act on the relative spin, are split evenly, alpha = 2), and in general
 * the scaled matrix bounds
 * the coupled one from above (Young's inequality), so Jacobi sweeps that
 * feed each body the other's latest change converge to the coupled
 * solution and the first solve is already stable. The sweep count is
 * fixed, so the step is the same work every time. */
#ifndef CC_KERNELS_STEP_IMPLICIT_H
#define CC_KERNELS_STEP_IMPLICIT_H

#include "kernels/math/dense6.h"
#include "kernels/math/quat.h"
#include "kernels/math/sym3.h"
#include "kernels/step/gyroscopic.h"
#include "kernels/step/rates.h"
#include "kernels/step/step_view.h"

/* Inverse inertia of body b along n at lever r (from its centre of mass):
 * 1/m + (r x n)^T I^-1 (r x n), the inertia in body axes. */
CC_HD float cc_step_inverse_inertia_along(const cc_step_view* v, int b, cc_vec3 r, cc_vec3 n)
{
    const cc_body_mass* m = &v->model.body_mass[b];
    cc_vec3 rn = cc_q_rotate_inv(v->pose_in[b].q, cc_v3_cross(r, n));
    return m->inv_mass + cc_v3_dot(rn, cc_sym3_mul(m->inv_inertia, rn));
}

/* A bound of body b's largest inverse principal inertia: the trace of the
 * inverse inertia [1/(kg m^2)]. */
CC_HD float cc_step_inverse_inertia_bound(const cc_step_view* v, int b)
{
    const float* ii = v->model.body_mass[b].inv_inertia;
    return ii[0] + ii[1] + ii[2];
}

/* The angular rates applied to x: c_roll (I - n n^T) x + c_spin n (n . x). */
CC_HD cc_vec3 cc_rates_apply_angular(const cc_contact_rates* r, cc_vec3 n, cc_vec3 x)
{
    return cc_v3_madd(cc_v3_scale(x, r->c_roll), n, (r->c_spin - r->c_roll) * cc_v3_dot(n, x));
}

/* P x with P = -A = dt K' + D' (the rates as a positive semidefinite
 * matrix: c_tangent I, plus the normal's excess along n). */
CC_HD cc_vec3 cc_rates_apply(const cc_contact_rates* r, cc_vec3 n, float dt, cc_vec3 x)
{
    cc_vec3 y = cc_v3_scale(x, r->c_tangent);
    return cc_v3_madd(y, n, (dt * r->k_normal + r->c_normal - r->c_tangent) * cc_v3_dot(n, x));
}

/* Column k of J for lever r: the point velocity of a unit twist. */
CC_HD cc_vec3 cc_twist_column(int k, cc_vec3 r)
{
    cc_vec3 e = cc_v3(k % 3 == 0 ? 1.0f : 0.0f, k % 3 == 1 ? 1.0f : 0.0f, k % 3 == 2 ? 1.0f : 0.0f);
    return k < 3 ? e : cc_v3_cross(e, r);
}

/* One side's implicit terms (CC_IMPLICIT_TERMS floats into out): the drift
 * J^T (sign dt K u) and dt alpha J^T P J, upper triangle by rows, plus the
 * angular rates dt alpha_rot R on the angular block. */
CC_HD void cc_implicit_side_terms(const cc_contact_rates* r, cc_vec3 n, float dt, cc_vec3 lever, float sign,
                                  float alpha, float alpha_rot, cc_vec3 u, float* out)
{
    cc_vec3 drift = cc_v3_scale(n, -sign * dt * r->k_normal * cc_v3_dot(n, u));
    cc_vec3 drift_t = cc_v3_cross(lever, drift);
    out[CC_IMPLICIT_DRIFT + 0] = drift.x;
    out[CC_IMPLICIT_DRIFT + 1] = drift.y;
    out[CC_IMPLICIT_DRIFT + 2] = drift.z;
    out[CC_IMPLICIT_DRIFT + 3] = drift_t.x;
    out[CC_IMPLICIT_DRIFT + 4] = drift_t.y;
    out[CC_IMPLICIT_DRIFT + 5] = drift_t.z;
    /* The columns of J and P J once; then the upper triangle's dots. */
    cc_vec3 col[6], pcol[6];
    for (int k = 0; k < 6; ++k) {
        col[k] = cc_twist_column(k, lever);
        pcol[k] = cc_rates_apply(r, n, dt, col[k]);
    }
    float scale = dt * alpha;
    int at = CC_IMPLICIT_MATRIX;
    for (int k = 0; k < 6; ++k)
        for (int l = k; l < 6; ++l) out[at++] = scale * cc_v3_dot(col[l], pcol[k]);
    /* The angular rates on the angular block (rows and columns 3..5). */
    float rot = dt * alpha_rot;
    if (r->c_roll > 0.0f || r->c_spin > 0.0f) {
        at = CC_IMPLICIT_MATRIX + 15; /* the first entry of row 3 */
        for (int k = 0; k < 3; ++k) {
            cc_vec3 rk = cc_rates_apply_angular(r, n, col[k]);
            for (int l = k; l < 3; ++l) out[at++] += rot * cc_v3_get(rk, l);
        }
    }
}

/* Adds n floats to body b's accumulator (atomics: the order varies on a
 * GPU) or writes them to entry e (deterministic mode sums them later). */
CC_HD void cc_step_deposit(const cc_step_view* v, float* body_acc, float* entry_acc, int b, int e, const float* x,
                           int n)
{
    if (v->deterministic) {
        for (int k = 0; k < n; ++k) entry_acc[(size_t)e * n + k] = x[k];
        return;
    }
    for (int k = 0; k < n; ++k) cc_atomic_add_f32(&body_acc[(size_t)b * n + k], x[k]);
}

/* The implicit terms of contact i on its moving bodies, and what the
 * coupling sweeps need of it. u = v1 - v0 at the point; lever_b = point -
 * centre of mass of body b; the force on body 1 is f1. */
CC_HD void cc_implicit_contact_terms(int i, const cc_step_view* v, const cc_contact_rates* r, cc_vec3 n, cc_vec3 u,
                                     int b0, int b1, int moves0, int moves1, cc_vec3 lever0, cc_vec3 lever1)
{
    float w0 = moves0 ? cc_step_inverse_inertia_along(v, b0, lever0, n) : 0.0f;
    float w1 = moves1 ? cc_step_inverse_inertia_along(v, b1, lever1, n) : 0.0f;
    float alpha0 = moves0 && moves1 ? 1.0f + w1 / w0 : 1.0f;
    float alpha1 = moves0 && moves1 ? 1.0f + w0 / w1 : 1.0f;
    /* The angular rates act on the relative spin alone: an even split. */
    float alpha_rot = moves0 && moves1 ? 2.0f : 1.0f;
    float terms[CC_IMPLICIT_TERMS];
    if (moves0) {
        cc_implicit_side_terms(r, n, v->dt, lever0, -1.0f, alpha0, alpha_rot, u, terms);
        cc_step_deposit(v, v->body_implicit, v->entry_implicit, b0, 2 * i, terms, CC_IMPLICIT_TERMS);
    }
    if (moves1) {
        cc_implicit_side_terms(r, n, v->dt, lever1, 1.0f, alpha1, alpha_rot, u, terms);
        cc_step_deposit(v, v->body_implicit, v->entry_implicit, b1, 2 * i + 1, terms, CC_IMPLICIT_TERMS);
    }
    if (v->sweeps > 0) {
        /* A = -P, as a symmetric 3x3 (xx yy zz xy xz yz). */
        cc_contact_coupling c;
        cc_vec3 ex = cc_rates_apply(r, n, v->dt, cc_v3(1.0f, 0.0f, 0.0f));
        cc_vec3 ey = cc_rates_apply(r, n, v->dt, cc_v3(0.0f, 1.0f, 0.0f));
        cc_vec3 ez = cc_rates_apply(r, n, v->dt, cc_v3(0.0f, 0.0f, 1.0f));
        c.a[0] = -ex.x;
        c.a[1] = -ey.y;
        c.a[2] = -ez.z;
        c.a[3] = -ex.y;
        c.a[4] = -ex.z;
        c.a[5] = -ey.z;
        c.lever0 = lever0;
        c.lever1 = lever1;
        c.normal = n;
        c.c_roll = r->c_roll;
        c.c_spin = r->c_spin;
        /* Zero marks a side that does not move: no coupling there. */
        c.alpha0 = moves0 && moves1 ? alpha0 : 0.0f;
        c.alpha1 = moves0 && moves1 ? alpha1 : 0.0f;
        v->contact_coupling[i] = c;
    }
}

/* A twist's velocity at lever r: linear + angular x r. */
CC_HD cc_vec3 cc_twist_point_velocity(const float* twist, cc_vec3 r)
{
    cc_vec3 lin = cc_v3(twist[0], twist[1], twist[2]), ang = cc_v3(twist[3], twist[4], twist[5]);
    return cc_v3_add(lin, cc_v3_cross(ang, r));
}

/* One sweep's coupling of contact i into each moving side b with other o:
 * dt J_b^T P (J_o dV_o + (alpha_b - 1) J_b dV_b), the other body's latest
 * change and the part of the scaled matrix that the coupled system does
 * not hold. Zero entries (deterministic mode) for contacts on one body. */
CC_HD void cc_coupling_thread(int i, const cc_step_view* v)
{
    const cc_contacts_view* cv = &v->contacts;
    cc_contact_coupling c = v->contact_coupling[i];
    int b0 = v->model.shape_geom[cv->shape0[i]].body, b1 = v->model.shape_geom[cv->shape1[i]].body;
    if (c.alpha0 == 0.0f) {
        /* Only one side moves: the sorted entry keys hold its side only,
         * so a zero contribution there keeps the sums exact. */
        float zero[CC_TWIST] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
        if (v->deterministic) {
            cc_step_deposit(v, v->body_coupling, v->entry_coupling, 0, 2 * i, zero, CC_TWIST);
            cc_step_deposit(v, v->body_coupling, v->entry_coupling, 0, 2 * i + 1, zero, CC_TWIST);
        }
        return;
    }
    const float* dv0 = v->body_dv + (size_t)b0 * CC_TWIST;
    const float* dv1 = v->body_dv + (size_t)b1 * CC_TWIST;
    for (int side = 0; side < 2; ++side) {
        int b = side ? b1 : b0;
        cc_vec3 lever = side ? c.lever1 : c.lever0, lever_o = side ? c.lever0 : c.lever1;
        float alpha = side ? c.alpha1 : c.alpha0;
        cc_vec3 x = cc_v3_add(cc_twist_point_velocity(side ? dv0 : dv1, lever_o),
                              cc_v3_scale(cc_twist_point_velocity(side ? dv1 : dv0, lever), alpha - 1.0f));
        /* P x = -A x. */
        cc_vec3 px = cc_v3_neg(cc_sym3_mul(c.a, x));
        cc_vec3 f = cc_v3_scale(px, v->dt);
        /* The angular rates: dt R (dw_o + (2 - 1) dw_b), the even split. */
        cc_vec3 dw = cc_v3_add(cc_v3(dv0[3], dv0[4], dv0[5]), cc_v3(dv1[3], dv1[4], dv1[5]));
        cc_vec3 rw = cc_v3_madd(cc_v3_scale(dw, c.c_roll), c.normal, (c.c_spin - c.c_roll) * cc_v3_dot(c.normal, dw));
        cc_vec3 t = cc_v3_madd(cc_v3_cross(lever, f), rw, v->dt);
        float out[CC_TWIST] = {f.x, f.y, f.z, t.x, t.y, t.z};
        cc_step_deposit(v, v->body_coupling, v->entry_coupling, b, 2 * i + side, out, CC_TWIST);
    }
}

/* Body b's velocity change. The first solve of a step (sweep 0) assembles
 * its 6x6 system from the mass, the gyroscopic Jacobian and the summed
 * contact terms, factors it and keeps the factors and the right-hand side;
 * each sweep then adds its coupling to that right-hand side and solves with
 * the same factors (the matrix does not change between sweeps). */
CC_HD void cc_implicit_solve_thread(int b, const cc_step_view* v)
{
    float* dv = v->body_dv + (size_t)b * CC_TWIST;
    cc_body_system* sys = &v->body_system[b];
    const cc_body_mass* m = &v->model.body_mass[b];
    if (v->model.body_static[b] || m->inv_mass == 0.0f) {
        for (int k = 0; k < CC_TWIST; ++k) dv[k] = 0.0f;
        return;
    }
    if (v->sweep == 0) {
        float dt = v->dt;
        cc_quat q = v->pose_in[b].q;
        cc_vec3 w = v->angular_in[b];
        /* The inertia in world axes, column by column: R I R^T e_k. */
        cc_vec3 iw[3];
        for (int k = 0; k < 3; ++k)
            iw[k] = cc_q_rotate(q, cc_sym3_mul(m->inertia, cc_q_rotate_inv(q, cc_twist_column(k, cc_v3(0, 0, 0)))));
        float* a = sys->lu;
        for (int k = 0; k < 36; ++k) a[k] = 0.0f;
        float mass = 1.0f / m->inv_mass;
        for (int k = 0; k < 3; ++k) {
            a[k * 6 + k] = mass;
            a[(3 + k) * 6 + 3] = cc_v3_get(iw[0], k);
            a[(3 + k) * 6 + 4] = cc_v3_get(iw[1], k);
            a[(3 + k) * 6 + 5] = cc_v3_get(iw[2], k);
        }
        /* The torque-free turn (kernels/step/gyroscopic.h), which the
         * integration adds to the contacts' change this system finds; the
         * sweeps' coupling never sees it, so each contact's forces on its
         * two bodies stay equal and opposite. */
        sys->turn = cc_v3(0.0f, 0.0f, 0.0f);
        if (v->gyroscopic) {
            cc_vec3 w_body = cc_q_rotate_inv(q, w);
            sys->turn = cc_q_rotate(q, cc_v3_sub(cc_gyroscopic_turn(m->inertia, w_body, dt), w_body));
        }
        const float* t = v->body_implicit + (size_t)b * CC_IMPLICIT_TERMS;
        int at = CC_IMPLICIT_MATRIX;
        for (int k = 0; k < 6; ++k)
            for (int l = k; l < 6; ++l) {
                float x = t[at++];
                a[k * 6 + l] += x;
                if (l != k) a[l * 6 + k] += x;
            }
        cc_vec3 force = cc_v3_madd(v->body_force[b], v->model.gravity, mass);
        cc_vec3 torque = v->body_torque[b];
        float rhs[6] = {dt * (force.x + t[0]),  dt * (force.y + t[1]),  dt * (force.z + t[2]),
                        dt * (torque.x + t[3]), dt * (torque.y + t[4]), dt * (torque.z + t[5])};
        sys->factored = cc_lu6_factor(a, sys->piv);
        if (!sys->factored) {
            /* A singular system (not expected: the mass keeps it definite)
             * falls back to the explicit change, which sweeps keep. */
            cc_vec3 t_body = cc_q_rotate_inv(q, torque);
            cc_vec3 dw = cc_q_rotate(q, cc_sym3_mul(m->inv_inertia, t_body));
            float fallback[6] = {dt * force.x * m->inv_mass, dt * force.y * m->inv_mass, dt * force.z * m->inv_mass,
                                 dt * dw.x,                  dt * dw.y,                  dt * dw.z};
            for (int k = 0; k < 6; ++k) rhs[k] = fallback[k];
        }
        for (int k = 0; k < 6; ++k) sys->rhs[k] = rhs[k];
    }
    float x[6];
    for (int k = 0; k < 6; ++k) x[k] = sys->rhs[k];
    if (v->sweep > 0) {
        float* c = v->body_coupling + (size_t)b * CC_TWIST;
        for (int k = 0; k < 6; ++k) {
            x[k] += c[k];
            /* Atomic mode adds the next sweep into a cleared sum. */
            if (!v->deterministic) c[k] = 0.0f;
        }
    }
    if (sys->factored) cc_lu6_solve(sys->lu, sys->piv, x);
    else
        for (int k = 0; k < 6; ++k) x[k] = sys->rhs[k];
    for (int k = 0; k < CC_TWIST; ++k) dv[k] = x[k];
}

/* Deterministic mode: the first of the m sorted entries that belong to
 * body b (keys are body << 32 | entry), by binary search. */
CC_HD int cc_step_first_entry(const cc_step_view* v, int b, int m)
{
    uint64_t first_key = (uint64_t)(uint32_t)b << 32;
    int lo = 0, hi = m;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (v->sorted_keys[mid] < first_key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Deterministic mode: body b sums n floats per entry, in sorted order,
 * from `entries` into `body_acc`. m is the number of entries written. */
CC_HD void cc_reduce_body_terms(int b, const cc_step_view* v, int m, const float* entries, float* body_acc, int n)
{
    int lo = cc_step_first_entry(v, b, m);
    float* out = body_acc + (size_t)b * n;
    for (int k = 0; k < n; ++k) out[k] = 0.0f;
    for (int j = lo; j < m && (v->sorted_keys[j] >> 32) == (uint64_t)(uint32_t)b; ++j) {
        const float* e = entries + (size_t)v->sorted_ids[j] * n;
        for (int k = 0; k < n; ++k) out[k] += e[k];
    }
}

#endif
