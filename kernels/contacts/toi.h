/* Time-of-impact contacts: the stage after the narrow phase in the TOI
 * mode of speculation. It owns every candidate pair of convex shapes
 * (planes included) with a fast shape (contacts/sweep.h); the narrow phase
 * writes nothing for them. Within the pair's gaps it writes the pair's
 * ordinary contacts, as the gap mode would; beyond them it sweeps the pair
 * over the horizon:
 *
 *   1. the swept bounding-sphere filter (or its plane variant) drops pairs
 *      whose balls never come within the pair's gaps;
 *   2. conservative advancement (convex/advance.h) finds the fraction tau
 *      at which they come within 2 % of their clearance of touching, and
 *      proves near misses none;
 *   3. the pair's own routine at the advanced poses gives the manifold
 *      (four points for a box on a plane, up to five for polytopes), and
 *      the line of sight (contacts/line_of_sight.h) drops it when another
 *      shape lies between the two;
 *   4. each point goes back to the pass's poses: its two surface points
 *      are carried back along their bodies' motion, and the contact sits at
 *      their mean weighted by each shape's share of the sweep (a shape that
 *      does not move keeps its own point).
 *
 * Effective distance. The row's distance is not the pass's separation
 * but the one that makes the step arrest the right fraction. The step
 * arrests a speculative row whose points would close more than max(d, 0)
 * within a step of length h, taking away c - d / h of its closing speed c
 * (kernels/step/speculative.h) and leaving the rest to carry the points
 * onto each other at the step's end. The same arrest serves the compliant
 * and penalty laws and both integrators: an arrested row exerts no law
 * force that step, and its impulse goes through the centres of mass at
 * the step's start, so neither the law nor the integrator enters. For the
 * impact at fraction t of a horizon H to leave the fraction t of the
 * closing speed c, d / h = t c, and with the step equal to the horizon
 * (h = H):
 *
 *     d_eff = t c H.
 *
 * With c the closing travel per horizon along n at the contact point
 * (C = c H), and t = tau + d(tau) / C (the search stops a little short of
 * touching; the remaining clearance closes at the same rate),
 *
 *     d_eff = tau C + d(tau).
 *
 * For a translation this equals the separation along n at the pass's
 * poses; for a turning body it is the distance the points will really
 * close before they meet, which the separation along the pass's normal is
 * not. The row's points are placed d_eff apart along n about the contact
 * point, each shape's offset from it in proportion to the other's share of
 * the sweep (a shape that does not move takes it all, a fast one keeps its
 * point on its own surface, where its turn carries the point as it carries
 * the surface), so that the step, which measures each row anew at its
 * poses, sees the distance shrink as the bodies move: in a frame whose
 * horizon spans several steps, the row arrests in the step that holds the
 * impact. The
 * law's inverse is not used: the compliant law is nonlinear in the
 * penetration, and an explicit step cannot arrest a stiff contact's
 * closing without exceeding its stability limit. */
#ifndef CC_KERNELS_CONTACTS_TOI_H
#define CC_KERNELS_CONTACTS_TOI_H

#include "kernels/contacts/line_of_sight.h"
#include "kernels/contacts/sweep.h"
#include "kernels/convex/advance.h"
#include "kernels/narrowphase/dispatch.h"
#include "kernels/pass_view.h"

/* One shape of a swept pair, at the pass's poses. */
typedef struct cc_swept_shape {
    int shape, type;
    cc_geom geom;
    cc_shape_motion motion;
} cc_swept_shape;

CC_HD_CALL cc_swept_shape cc_swept_shape_of(const cc_pass_view* v, const cc_speculation_view* s, int shape)
{
    cc_swept_shape w;
    cc_shape_geometry g = v->model.shape_geom[shape];
    w.shape = shape;
    w.type = g.type;
    w.geom.xf = v->shape_pose[shape];
    w.geom.size = g.size;
    w.geom.hull = g.type == CC_SHAPE_CONVEX_HULL ? cc_hull_ref_of(&v->model, shape) : cc_hull_ref_none();
    cc_aabb box = cc_shape_world_aabb(&v->model, shape, w.geom.xf);
    int moves = g.body >= 0 && !v->model.body_static[g.body];
    w.motion = cc_shape_motion_of(s, g.body, moves, w.geom.xf.p, box.lower, box.upper);
    return w;
}

/* A world point of shape w at the advanced poses (xf_tau) back at the
 * pass's. */
CC_HD cc_vec3 cc_swept_point_back(const cc_swept_shape* w, cc_transform xf_tau, cc_vec3 p)
{
    return cc_tf_point(w->geom.xf, cc_tf_point_inv(xf_tau, p));
}

/* Writes the manifold found at fraction tau as speculative rows at the
 * pass's poses (see the file comment); returns the rows' count. */
CC_HD_CALL int cc_write_toi_rows(const cc_pass_view* v, const cc_manifold* mf, float tau, const cc_swept_shape* A,
                                 const cc_swept_shape* B, const cc_transform* pa, const cc_transform* pb,
                                 const cc_contact_side* side_a, const cc_contact_side* side_b)
{
    cc_contact_sink sink = cc_pass_contact_sink(v);
    cc_contacts_view out = sink.rows;
    cc_contact_side a = *side_a, b = *side_b;
    cc_transform xa = *pa, xb = *pb;
    float sweeps = A->motion.sweep + B->motion.sweep;
    float wa = sweeps > 0.0f ? A->motion.sweep / sweeps : 0.5f;
    int row = cc_atomic_add_i32(sink.counter, mf->count);
    cc_vec3 n = mf->normal;
    for (int k = 0; k < mf->count && row < out.capacity; ++k, ++row) {
        float d = mf->distance[k] - (a.thickness + b.thickness);
        cc_vec3 sa = cc_swept_point_back(A, xa, cc_v3_madd(cc_manifold_point_a(mf, k), n, a.thickness));
        cc_vec3 sb = cc_swept_point_back(B, xb, cc_v3_madd(cc_manifold_point_b(mf, k), n, -b.thickness));
        cc_vec3 x = cc_v3_add(cc_v3_scale(sa, wa), cc_v3_scale(sb, 1.0f - wa));
        float closing = cc_v3_dot(n, cc_v3_sub(cc_motion_point_travel(&A->motion, x), cc_motion_point_travel(&B->motion, x)));
        float d_eff = cc_maxf(d, 0.0f) + tau * cc_maxf(closing, 0.0f);
        /* The faster shape's point stays on its own surface (a turn of its
         * body then moves the point as it moves the surface); the slower's
         * takes the offset. */
        cc_vec3 p0 = cc_v3_madd(x, n, -(1.0f - wa) * d_eff - a.thickness);
        cc_vec3 p1 = cc_v3_madd(x, n, wa * d_eff + b.thickness);
        out.shape0[row] = a.shape;
        out.shape1[row] = b.shape;
        out.point0[row] = cc_to_body_frame(v->body_pose, a.body, p0);
        out.point1[row] = cc_to_body_frame(v->body_pose, b.body, p1);
        out.normal[row] = n;
        out.thickness0[row] = a.thickness;
        out.thickness1[row] = b.thickness;
        out.distance[row] = d_eff;
        out.speculative[row] = 1;
        if (sink.keys) sink.keys[row] = cc_contact_key(sink.layout, a.shape, b.shape, k);
    }
    return mf->count;
}

/* The pair's routine at the advanced poses; out of line on the GPU, so that
 * the routes' registers are not the sweep's too. */
CC_HD_CALL void cc_toi_manifold_analytic(int route, const cc_geom* a, const cc_geom* b, float threshold,
                                         cc_manifold* mf)
{
    cc_collide_analytic(route, a, b, threshold, mf);
}

CC_HD_CALL void cc_toi_manifold_generic(int route, const cc_geom* a, const cc_geom* b, float threshold,
                                        cc_manifold* mf)
{
    cc_collide_generic(route, a, b, threshold, mf);
}

/* `routes` is the class of routes the pass takes (CC_ROUTE_CLASS_ANY for
 * both): a constant in each GPU unit, so that the other class's routines
 * are not compiled into it. */
CC_HD void cc_toi_manifold(int route, const cc_geom* a, const cc_geom* b, float threshold, cc_manifold* mf,
                           int routes)
{
    int cls = cc_route_class(route);
    mf->count = 0;
    if (cls == CC_ROUTE_CLASS_ANALYTIC && routes != CC_ROUTE_CLASS_CONVEX)
        cc_toi_manifold_analytic(route, a, b, threshold, mf);
    else if (cls == CC_ROUTE_CLASS_CONVEX && routes != CC_ROUTE_CLASS_ANALYTIC)
        cc_toi_manifold_generic(route, a, b, threshold, mf);
}

/* What the search found of a pair. */
#define CC_TOI_NONE 0 /* not swept, or no impact within the horizon */
#define CC_TOI_HIT 1  /* an impact at adv->tau */
#define CC_TOI_NEAR 2 /* already within the pair's gaps: its ordinary contacts */

/* The search of grouped pair i: its two shapes (lower type first), their
 * sides, and the advancement (CC_TOI_*). A swept pair is the stage's alone:
 * the narrow phase wrote nothing for it (cc_pair_swept). Pairs whose route
 * is not of class `routes` are another pass's (CC_TOI_NONE). */
CC_HD_CALL int cc_toi_search(int i, const cc_pass_view* v, int routes, cc_swept_shape* A, cc_swept_shape* B,
                             cc_contact_side* a, cc_contact_side* b, cc_advance* adv)
{
    const cc_speculation_view* s = v->spec_published;
    cc_pair p = v->grouped_pairs[i];
    if (!cc_pair_swept(s, p.a, p.b)) return CC_TOI_NONE;
    int ta = v->model.shape_geom[p.a].type, tb = v->model.shape_geom[p.b].type;
    if (!cc_type_is_convex(ta) || !cc_type_is_convex(tb) || (ta == CC_SHAPE_PLANE && tb == CC_SHAPE_PLANE))
        return CC_TOI_NONE;
    if (routes != CC_ROUTE_CLASS_ANY && cc_route_class(ta < tb ? cc_route_of(ta, tb) : cc_route_of(tb, ta)) != routes)
        return CC_TOI_NONE;
    int swap = ta > tb; /* lower type first, as the narrow phase */
    *A = cc_swept_shape_of(v, s, swap ? p.b : p.a);
    *B = cc_swept_shape_of(v, s, swap ? p.a : p.b);
    cc_contact_sides_of(&v->model, s, A->shape, B->shape, a, b);
    float margin = a->gap + b->gap + a->reach, thick = a->thickness + b->thickness;
    if (A->type == CC_SHAPE_PLANE) {
        cc_vec3 n = cc_tf_vector(A->geom.xf, cc_v3(0.0f, 0.0f, 1.0f));
        if (!cc_swept_sphere_meets_plane(A->geom.xf.p, n, A->motion.shift, &B->motion, margin + thick))
            return CC_TOI_NONE;
    } else if (!cc_swept_spheres_meet(&A->motion, &B->motion, margin + thick)) {
        return CC_TOI_NONE;
    }
    /* Within the gaps (or a scheduled pass's reserve), or touching: the
     * pair's own contacts at the pass's poses, as the narrow phase would
     * write them. */
    cc_sweep_gap start = cc_sweep_separation(A->type, &A->geom, B->type, &B->geom, cc_v3(0.0f, 0.0f, 0.0f));
    float d0 = start.core - thick;
    if (!start.apart || !(d0 >= margin)) return CC_TOI_NEAR;
    cc_pass_counters* c = v->counters;
    cc_atomic_add_i32(&c->toi_pairs, 1);
    *adv = cc_conservative_advance(A->type, &A->geom, &A->motion, B->type, &B->geom, &B->motion, thick, margin, d0,
                                   start.n);
    cc_atomic_max_i32(&c->toi_iterations_max, adv->iterations);
    if (!adv->hit) return CC_TOI_NONE;
    if (adv->capped) cc_atomic_add_i32(&c->toi_capped, 1);
    return CC_TOI_HIT;
}

/* Writes a near pair's manifold (computed in the order `mirror` says) as
 * the narrow phase does in the gap mode. */
CC_HD_CALL void cc_toi_write_near(const cc_pass_view* v, cc_manifold* mf, const cc_contact_side* a,
                                  const cc_contact_side* b, int mirror)
{
    if (mirror) cc_manifold_mirror(mf);
    cc_contact_side sa = *a, sb = *b;
    sa.reach = sb.reach = cc_pair_reach(v->spec_published, sa.shape, sb.shape, 0);
    cc_write_manifold(mf, sa, sb, v->body_pose, cc_pass_contact_sink(v));
}

/* A swept pair already within its gaps: the pair's routine at the pass's
 * poses, written as the narrow phase writes in the gap mode (same
 * sub-keys, admission and flags: points touching while closing fast are
 * kept and arrested), two shapes of one type taken in the narrow phase's
 * fixed order. */
CC_HD_CALL void cc_toi_near(const cc_pass_view* v, const cc_swept_shape* A, const cc_swept_shape* B,
                            const cc_contact_side* a, const cc_contact_side* b, int routes)
{
    float reach = cc_pair_reach(v->spec_published, A->shape, B->shape, 0);
    float threshold = (a->gap + b->gap) + (a->thickness + b->thickness) + reach;
    int mirror = A->type == B->type && A->type != CC_SHAPE_SPHERE && cc_geom_precedes(&B->geom, &A->geom);
    cc_manifold mf;
    cc_toi_manifold(cc_route_of(A->type, B->type), mirror ? &B->geom : &A->geom, mirror ? &A->geom : &B->geom,
                    threshold, &mf, routes);
    cc_toi_write_near(v, &mf, a, b, mirror);
}


/* A pair that meets at adv->tau: its poses there and its manifold. */
typedef struct cc_toi_impact {
    cc_transform xa, xb;
    cc_manifold mf;
} cc_toi_impact;

/* The manifold at the advanced poses: the points within half the thinner
 * shape's smallest half extent of the nearest (the pair's routine, or the
 * witnesses where it finds none); zero when there is none. */
CC_HD_CALL int cc_toi_impact_of(const cc_pass_view* v, const cc_swept_shape* A, const cc_swept_shape* B,
                                const cc_contact_side* a, const cc_contact_side* b, const cc_advance* adv, int routes,
                                cc_toi_impact* w)
{
    const cc_speculation_view* s = v->spec_published;
    float thick = a->thickness + b->thickness;
    cc_geom ga = A->geom, gb = B->geom;
    ga.xf = w->xa = cc_swept_pose(&A->motion, A->geom.xf, adv->tau);
    gb.xf = w->xb = cc_swept_pose(&B->motion, B->geom.xf, adv->tau);
    float slack = 0.5f * cc_minf(s->shape_thin[A->shape], s->shape_thin[B->shape]);
    cc_manifold* mf = &w->mf;
    cc_toi_manifold(cc_route_of(A->type, B->type), &ga, &gb, thick + adv->d + slack, mf, routes);
    if (A->type == CC_SHAPE_PLANE) return mf->count > 0; /* none: past a finite plane's edge */
    if (mf->count > 0 && cc_v3_dot(mf->normal, adv->n) > 0.0f) return 1;
    cc_sweep_gap at = cc_sweep_separation(A->type, &ga, B->type, &gb, adv->n);
    if (!at.apart) return 0;
    mf->count = 1;
    mf->normal = at.n;
    mf->point[0] = cc_v3_scale(cc_v3_add(at.pa, at.pb), 0.5f);
    mf->distance[0] = at.core;
    mf->offset[0] = cc_v3_sub(at.pb, at.pa);
    return 1;
}

/* Whether another shape hides the impact: the segment between the nearest
 * point's surface points, carried back to the pass's poses. */
CC_HD_CALL int cc_toi_hidden(const cc_pass_view* v, const cc_swept_shape* A, const cc_swept_shape* B,
                             const cc_contact_side* a, const cc_contact_side* b, const cc_toi_impact* w)
{
    const cc_manifold* mf = &w->mf;
    int k0 = 0;
    for (int k = 1; k < mf->count; ++k)
        if (mf->distance[k] < mf->distance[k0]) k0 = k;
    cc_vec3 sa = cc_swept_point_back(A, w->xa, cc_v3_madd(cc_manifold_point_a(mf, k0), mf->normal, a->thickness));
    cc_vec3 sb = cc_swept_point_back(B, w->xb, cc_v3_madd(cc_manifold_point_b(mf, k0), mf->normal, -b->thickness));
    int pairs = cc_min_i32(v->counters->pair_count, v->pairs.capacity);
    const cc_speculation_view* s = v->spec_published;
    float trim = cc_minf(0.25f * cc_v3_length(cc_v3_sub(sb, sa)),
                         0.5f * cc_minf(s->shape_thin[A->shape], s->shape_thin[B->shape]));
    return cc_line_of_sight_blocked(&v->model, s, v->grouped_pairs, v->partner_next, pairs, v->shape_pose, A->shape,
                                    B->shape, sa, sb, trim);
}

/* Grouped pair i in the TOI mode, when its route is of class `routes`
 * (CC_ROUTE_CLASS_ANALYTIC, _CONVEX, or _ANY for both: the GPU runs a
 * kernel for each class, so that the analytic routines and the convex
 * query compile in units of their own). Each part is out of line and the
 * parts share their results through memory, so that on the GPU no part's
 * registers add to another's. */
CC_HD void cc_toi_thread(int i, const cc_pass_view* v, int routes)
{
    cc_swept_shape A, B;
    cc_contact_side a, b;
    cc_advance adv;
    cc_toi_impact w;
    int found = cc_toi_search(i, v, routes, &A, &B, &a, &b, &adv);
    if (found == CC_TOI_NEAR) cc_toi_near(v, &A, &B, &a, &b, routes);
    if (found != CC_TOI_HIT || !cc_toi_impact_of(v, &A, &B, &a, &b, &adv, routes, &w)) return;
    cc_pass_counters* c = v->counters;
    if (cc_toi_hidden(v, &A, &B, &a, &b, &w)) {
        cc_atomic_add_i32(&c->toi_occluded, 1);
        return;
    }
    cc_atomic_add_i32(&c->toi_contacts, cc_write_toi_rows(v, &w.mf, adv.tau, &A, &B, &w.xa, &w.xb, &a, &b));
}

/* Links grouped pair i into the candidate lists the line of sight reads. */
CC_HD void cc_toi_link_thread(int i, const cc_pass_view* v)
{
    cc_partner_link_thread(i, v->grouped_pairs, v->spec_published, v->partner_next);
}

#endif
