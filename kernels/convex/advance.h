/* Time of impact of two convex shapes by unilateral conservative
 * advancement. Each shape rides its body's motion over the horizon
 * (contacts/sweep.h): at fraction tau it sits at cc_swept_pose(tau).
 *
 * At tau, GJK gives the contact-space distance d(tau) (core distance less
 * both thicknesses), the unit normal n from A to B and the witnesses. The
 * supporting planes square to n separate every point pair by at least
 * d(tau) along n. Over the rest of the horizon a point p of shape i moves
 * by shift_i + turn_i x (p - com_i), and |n . (turn_i x (p - com_i))| <=
 * |turn_i| r_i, so no two points close along n faster than
 *
 *     v_bound = n . (shift_A - shift_B) + |turn_A| r_A + |turn_B| r_B
 *
 * per horizon: the tangential part of the motion is left out, so a shape
 * skimming along a surface does not stall the search. v_bound <= 0: the
 * shapes never close along n, and there is no impact. Otherwise
 * d(tau + dtau) >= d(tau) - dtau v_bound, and the largest step that
 * provably keeps the clearance target = margin + 0.02 (d(0) - margin) is
 * dtau = (d(tau) - target) / v_bound. The search approaches the target
 * from the separated side only, so GJK always has a separating normal and
 * no overlap query is needed; it stops when d(tau) is within 1 % of the
 * initial clearance of the target, when tau passes 1 (no impact within the
 * horizon) or after CC_ADVANCE_ITERATIONS steps (a pose still apart, where
 * the caller makes its contact). Each distance is the separation along
 * GJK's normal from the two support functions, a lower bound however GJK
 * ended, so its rounding cannot carry a step into overlap.
 * The time of impact itself is refined from there (cc_advance_impact).
 * `margin` is the contact-space distance at which the pair's contacts
 * begin (its gaps). */
#ifndef CC_KERNELS_CONVEX_ADVANCE_H
#define CC_KERNELS_CONVEX_ADVANCE_H

#include "kernels/contacts/sweep.h"
#include "kernels/convex/gjk.h"
#include "kernels/narrowphase/manifold.h"

#define CC_ADVANCE_ITERATIONS 32
#define CC_ADVANCE_TARGET 0.02f
#define CC_ADVANCE_CONVERGED 0.01f
/* Steps toward the margin itself that refine the time of impact. */
#define CC_ADVANCE_REFINE 8
#define CC_ADVANCE_MISS 2.0f
/* GJK's accuracy during the search, relative to the smaller shape. */
#define CC_ADVANCE_GJK_TOLERANCE 1.0e-5f

/* Distance between two convex shapes as the search needs it. */
typedef struct cc_sweep_gap {
    int apart;     /* nonzero: the cores are apart and the rest is set */
    float core;    /* a lower bound of the core distance [m] */
    cc_vec3 n;     /* unit, A -> B */
    cc_vec3 pa, pb; /* core witnesses (world) */
} cc_sweep_gap;

/* Shape a of type ta (a plane: its +z side faces b) and shape b of type
 * tb, both convex. */
CC_HD_CALL cc_sweep_gap cc_sweep_separation(int ta, const cc_geom* a, int tb, const cc_geom* b, cc_vec3 guess)
{
    cc_sweep_gap r;
    cc_vec3 origin = a->xf.p;
    cc_convex cb = cc_convex_of(b, tb, origin);
    if (ta == CC_SHAPE_PLANE) {
        r.n = cc_tf_vector(a->xf, cc_v3(0.0f, 0.0f, 1.0f));
        cc_vec3 low = cc_support(&cb, cc_v3_neg(r.n));
        r.core = cc_v3_dot(r.n, low);
        r.pb = cc_v3_add(low, origin);
        r.pa = cc_v3_madd(r.pb, r.n, -r.core);
        r.apart = r.core > 0.0f;
        return r;
    }
    cc_convex ca = cc_convex_of(a, ta, origin);
    float tol = CC_ADVANCE_GJK_TOLERANCE * cc_minf(ca.extent, cb.extent) + 1.0e-7f;
    cc_gjk_result g;
    cc_gjk(&ca, &cb, cc_v3(0.0f, 0.0f, 0.0f), guess, 3.0e38f, tol, tol, &g);
    r.core = 0.0f;
    r.n = g.normal;
    r.pa = r.pb = origin;
    r.apart = 0;
    if (g.status != CC_GJK_SEPARATED) return r;
    /* The separation along GJK's normal, from the support functions: a
     * lower bound of the distance whichever way GJK stopped. */
    r.core = cc_v3_dot(r.n, cc_support(&cb, cc_v3_neg(r.n))) - cc_v3_dot(r.n, cc_support(&ca, r.n));
    r.apart = r.core > 0.0f;
    r.pa = cc_v3_add(g.point_a, origin);
    r.pb = cc_v3_add(g.point_b, origin);
    return r;
}

typedef struct cc_advance {
    int hit;        /* the shapes reach the target within the horizon */
    int capped;     /* the search stopped at its iteration cap */
    int iterations; /* separation queries after the first */
    float tau;      /* fraction of the horizon reached (a pose apart) */
    float impact;   /* the time of impact, as a fraction of the horizon */
    float d;        /* contact-space distance there [m] */
    cc_vec3 n;      /* the separating normal there, A -> B */
} cc_advance;

/* The time of impact from the search's last pose (fraction r->tau): the
 * same steps continued toward the margin itself (a convex distance, such
 * as two balls', is approached like Newton's method), each a lower bound
 * of the impact, then the last clearance closed at the last rate. The
 * poses it visits are not kept. A step that cannot close (v_bound <= 0)
 * or passes the horizon's end proves that the shapes never meet: the
 * search's target lay within the 2 % clearance of a near miss (a body
 * passing a plate's edge), and CC_ADVANCE_MISS is returned. a0, b0: the
 * shapes at tau = 0. */
CC_HD_CALL float cc_advance_impact(int ta, const cc_geom* a0, const cc_shape_motion* ma, int tb, const cc_geom* b0,
                                   const cc_shape_motion* mb, float thick, float margin, cc_advance* r, float spin,
                                   cc_vec3 shift)
{
    float tau = r->tau, d = r->d;
    cc_vec3 n = r->n;
    cc_geom a = *a0, b = *b0;
    CC_NO_UNROLL
    for (int k = 0; k < CC_ADVANCE_REFINE; ++k) {
        if (!(d > margin)) break; /* there already */
        float closing = cc_v3_dot(n, shift) + spin;
        float next = tau + (d - margin) / closing;
        if (!(closing > 0.0f) || !(next < 1.0f)) return CC_ADVANCE_MISS; /* they never meet */
        if (!(next > tau)) break;
        a.xf = cc_swept_pose(ma, a0->xf, next);
        b.xf = cc_swept_pose(mb, b0->xf, next);
        cc_sweep_gap s = cc_sweep_separation(ta, &a, tb, &b, n);
        ++r->iterations;
        if (!s.apart) break;
        tau = next;
        d = s.core - thick;
        n = s.n;
        if (d - margin <= 1.0e-4f * (r->d - margin)) break;
    }
    float closing = cc_v3_dot(n, shift) + spin;
    float rest = closing > 0.0f ? cc_maxf(d - margin, 0.0f) / closing : 0.0f;
    return cc_minf(tau + rest, 1.0f);
}

/* The search from tau = 0, where the shapes are `d0` apart (contact space,
 * > margin) along n0; `thick` is the sum of both thicknesses. */
CC_HD_CALL cc_advance cc_conservative_advance(int ta, const cc_geom* a0, const cc_shape_motion* ma, int tb,
                                              const cc_geom* b0, const cc_shape_motion* mb, float thick,
                                              float margin, float d0, cc_vec3 n0)
{
    cc_advance r;
    r.hit = 0;
    r.capped = 0;
    r.iterations = 0;
    r.tau = 0.0f;
    r.impact = 1.0f;
    r.d = d0;
    r.n = n0;
    float target = margin + CC_ADVANCE_TARGET * (d0 - margin);
    float done = target + CC_ADVANCE_CONVERGED * (d0 - margin);
    float spin = cc_v3_length(ma->turn) * ma->radius + cc_v3_length(mb->turn) * mb->radius;
    cc_vec3 shift = cc_v3_sub(ma->shift, mb->shift);
    cc_geom a = *a0, b = *b0;
    CC_NO_UNROLL
    for (;;) {
        if (r.d <= done) {
            r.hit = 1;
            r.impact = cc_advance_impact(ta, a0, ma, tb, b0, mb, thick, margin, &r, spin, shift);
            if (r.impact >= CC_ADVANCE_MISS) {
                r.hit = 0;
                r.impact = 1.0f;
            }
            return r;
        }
        float closing = cc_v3_dot(r.n, shift) + spin;
        if (!(closing > 0.0f)) return r; /* never closes along n (NaN too) */
        float tau = r.tau + (r.d - target) / closing;
        if (!(tau < 1.0f)) return r; /* no impact within the horizon */
        if (r.iterations == CC_ADVANCE_ITERATIONS) {
            r.hit = 1;
            r.capped = 1;
            r.impact = r.tau;
            return r;
        }
        a.xf = cc_swept_pose(ma, a0->xf, tau);
        b.xf = cc_swept_pose(mb, b0->xf, tau);
        cc_sweep_gap s = cc_sweep_separation(ta, &a, tb, &b, r.n);
        ++r.iterations;
        if (!s.apart) { /* rounding at the target: keep the last pose apart */
            r.hit = 1;
            r.impact = tau;
            return r;
        }
        r.tau = tau;
        r.d = s.core - thick;
        r.n = s.n;
    }
}

#endif
