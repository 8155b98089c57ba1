/* Narrow phase for a capsule against a capsule or a box.
 *
 * A capsule's core is its segment along local z, from -half_height to
 * +half_height (size.y); the radius is left to the contact writer. Points are
 * midpoints between the closest core features with the signed core distance
 * along the normal (capsule A -> shape B). See narrowphase/manifold.h.
 *
 * Side-on contacts span the segment with two points so that a capsule lying
 * on another capsule or on a box face rests stably; crossing, edge and
 * vertex contacts are a single point. Against a box face the two points are
 * the ends of the clipped segment, each kept when within the threshold (as
 * for a plane), so an end-on capsule gives one point unless the threshold
 * reaches its far end. */
#ifndef CC_KERNELS_NARROWPHASE_CAPSULE_H
#define CC_KERNELS_NARROWPHASE_CAPSULE_H

#include "kernels/math/closest_points.h"
#include "kernels/narrowphase/manifold.h"
#include "kernels/math/frame.h"
#include "kernels/narrowphase/convex.h"

/* Two contact points closer than this along a segment are one point [m]. */
#define CC_CAPSULE_MERGE_LENGTH 1.0e-6f

/* Segment p + t*d, t in [0, 1], of a capsule, relative to `origin`. */
CC_HD void cc_capsule_segment(const cc_geom* g, cc_vec3 origin, cc_vec3* p, cc_vec3* d)
{
    cc_vec3 half = cc_q_rotate(g->xf.q, cc_v3(0.0f, 0.0f, g->size.y));
    *p = cc_v3_sub(cc_v3_sub(g->xf.p, origin), half);
    *d = cc_v3_scale(half, 2.0f);
}

/* Segment to segment, in coordinates relative to A's centre (so rounding
 * does not depend on where the pair is). The normal joins the closest
 * points. When the segments are parallel and overlap in projection, the
 * closest pairs form a range: we emit its two ends (the overlap interval on
 * A, each paired with its closest point on B) under the common normal.
 * Degenerate normals, when the closest points coincide up to rounding:
 * crossing segments use +-(d1 x d2) (which flips when A and B are swapped);
 * parallel touching segments use a perpendicular of d1; two coincident
 * points use +z; each turned to the side of what remains of pb - pa, or of
 * B's centre seen from A's. */
CC_HD void cc_collide_capsule_capsule(const cc_geom* a, const cc_geom* b, float threshold,
                                      cc_manifold* m)
{
    cc_vec3 o = a->xf.p;
    cc_vec3 p1, d1, p2, d2;
    cc_capsule_segment(a, o, &p1, &d1);
    cc_capsule_segment(b, o, &p2, &d2);
    float s, t;
    int parallel = cc_segment_segment_closest(p1, d1, p2, d2, &s, &t);
    cc_vec3 pa = cc_v3_madd(p1, d1, s), pb = cc_v3_madd(p2, d2, t);

    cc_vec3 n = cc_v3_sub(pb, pa);
    cc_vec3 a1 = cc_v3_abs(d1), a2 = cc_v3_abs(d2), ap = cc_v3_abs(p2);
    float tol = CC_GEOM_REL_TOL * (a1.x + a1.y + a1.z + a2.x + a2.y + a2.z + ap.x + ap.y + ap.z);
    /* Closest points inside both segments: the lines' common perpendicular
     * d1 x d2 is the normal, exact where pb - pa is short and rounded. Only
     * where pb - pa runs along it (up to rounding): parameters a hair inside
     * an end by rounding belong to an end's closest pair, whose normal is
     * not the lines'. */
    int crossed = 0;
    if (!parallel && s > 0.0f && s < 1.0f && t > 0.0f && t < 1.0f) {
        cc_vec3 c = cc_v3_normalize(cc_v3_cross(d1, d2));
        float along = cc_v3_dot(n, c);
        float off = cc_v3_length(cc_v3_madd(n, c, -along));
        crossed = cc_v3_length_sq(c) > 0.5f && along != 0.0f && off <= cc_maxf(1.0e-3f * fabsf(along), tol);
        if (crossed) n = cc_v3_scale(c, along);
    }
    /* Otherwise an end against the inside of the other segment (nearly
     * parallel segments too: their closest pair is at an end of the
     * overlap): the normal is square to the segment whose point lies
     * farther inside it. Its rounding along that segment, which the long
     * lever of the segment's ends turns into a tilt, is removed. */
    float in1 = cc_minf(s, 1.0f - s) * cc_v3_length(d1), in2 = cc_minf(t, 1.0f - t) * cc_v3_length(d2);
    if (!crossed && (in1 > 0.0f || in2 > 0.0f)) {
        cc_vec3 d = in1 > in2 ? d1 : d2;
        float dd = cc_v3_dot(d, d);
        cc_vec3 q = cc_v3_madd(n, d, -cc_v3_dot(n, d) / dd);
        if (cc_v3_length_sq(q) > 0.25f * cc_v3_length_sq(n)) n = q;
    }
    if (!(cc_v3_length_sq(n) > tol * tol)) {
        cc_vec3 dir = cc_v3_length_sq(d1) > 0.0f ? d1 : d2;
        cc_vec3 perp = cc_v3_length_sq(dir) > 0.0f ? cc_v3_any_perpendicular(cc_v3_normalize(dir))
                                                   : cc_v3(0.0f, 0.0f, 1.0f);
        cc_vec3 f = cc_normalize_or(cc_v3_cross(d1, d2), perp);
        /* Side: along what is left of pb - pa, else from A's centre to B's
         * (the origin here), so the normal does not flip as the closest
         * points cross the tolerance. */
        float side = cc_v3_dot(n, f);
        side = side != 0.0f ? side : cc_v3_dot(cc_v3_madd(p2, d2, 0.5f), f);
        n = side < 0.0f ? cc_v3_neg(f) : f;
    }
    m->count = 0;
    m->normal = cc_normalize_or(n, cc_v3(0.0f, 0.0f, 1.0f));

    if (parallel) {
        /* Overlap on A's parameter: B's ends project to u0, u1. */
        float aa = cc_v3_dot(d1, d1);
        float u0 = cc_v3_dot(cc_v3_sub(p2, p1), d1) / aa;
        float u1 = u0 + cc_v3_dot(d2, d1) / aa;
        float lo = cc_maxf(cc_minf(u0, u1), 0.0f), hi = cc_minf(cc_maxf(u0, u1), 1.0f);
        if ((hi - lo) * sqrtf(aa) > CC_CAPSULE_MERGE_LENGTH) {
            cc_vec3 qa = cc_v3_madd(p1, d1, lo), qb = cc_v3_madd(p1, d1, hi);
            cc_vec3 ra = cc_v3_madd(p2, d2, cc_segment_closest_param(qa, p2, d2));
            cc_vec3 rb = cc_v3_madd(p2, d2, cc_segment_closest_param(qb, p2, d2));
            cc_manifold_add_pair(m, cc_v3_add(qa, o), cc_v3_add(ra, o), threshold);
            cc_manifold_add_pair(m, cc_v3_add(qb, o), cc_v3_add(rb, o), threshold);
            return;
        }
    }
    cc_vec3 mid = cc_v3_add(o, cc_v3_scale(cc_v3_add(pa, pb), 0.5f));
    cc_manifold_add(m, mid, cc_v3_dot(cc_v3_sub(pb, pa), m->normal), threshold);
}

/* The closest pair's direction must be within about 25 degrees of a box
 * face normal (|n_k| >= this) for the contact to span the segment with two
 * points; farther from every face it is an edge or vertex contact. */
#define CC_CAPSULE_FACE_COS 0.9f
/* Rounding of a separation along a face normal, relative to the box-frame
 * coordinates it comes from. */
#define CC_CAPSULE_FACE_ROUNDING 1.0e-6f

/* The unit normal into the box through its face on side s of axis k (the
 * face x_k = s h_k), in the box frame. */
CC_HD cc_vec3 cc_capsule_box_inward(int k, float s)
{
    return cc_v3(k == 0 ? -s : 0.0f, k == 1 ? -s : 0.0f, k == 2 ? -s : 0.0f);
}

/* Emits the pair (segment point x, box point q), both in the box frame, at
 * distance `dist` along the manifold normal. */
CC_HD void cc_capsule_box_add(const cc_frame* box, cc_vec3 x, cc_vec3 q, float dist,
                              float threshold, cc_manifold* m)
{
    cc_manifold_add(m, cc_frame_point_out(box, cc_v3_scale(cc_v3_add(x, q), 0.5f)), dist,
                    threshold);
}

/* Segment to solid box, in the box frame; n is the contact direction from
 * the segment into the box.
 * 1. Find the segment point x* closest to the box and its box point q*
 *    (cc_segment_box_closest_param).
 * 2. Separated: n = (q* - x*) / |q* - x*|. Its largest component picks the
 *    face k it is closest to. Farther than CC_CAPSULE_FACE_COS from that face
 *    normal, the contact is an edge or vertex one: the single closest pair.
 * 3. Touching or crossing: n is a face normal, the face through which the
 *    whole segment leaves with the least travel (h_i + |e_i| - |c_i| for
 *    centre c and half axis e; the same rule as a sphere centre), unless an
 *    edge axis d x e_j needs less: then the GJK/MPR routine answers.
 * 4. Near a face (2) or crossing (3): project the segment along n onto the
 *    plane of face k, x(t) -> q(t) = x(t) + lambda(t) n with
 *    lambda(t) = (s h_k - x_k(t)) / n_k, clip to the face rectangle (the two
 *    other axes' slabs), widen the interval to contain x*, and emit both
 *    ends: each a segment point, the box face point straight along n, and
 *    lambda, the distance between them (negative inside the box). When n is
 *    the face normal this is plain clipping to the face, so a capsule lying
 *    on a face gives two points at the clipped ends; a slightly tilted n (the
 *    segment overhanging an edge) still gives two, one of them the exact
 *    closest pair. */
CC_HD void cc_collide_capsule_box(const cc_geom* a, const cc_geom* b, float threshold,
                                  cc_manifold* m)
{
    cc_vec3 h = b->size;
    cc_frame fb = cc_frame_of(b->xf), fa = cc_frame_of(a->xf);
    cc_vec3 c = cc_frame_point_in(&fb, a->xf.p);
    cc_vec3 e = cc_frame_vector_in(&fb, cc_v3_scale(fa.z, a->size.y));
    cc_vec3 p = cc_v3_sub(c, e), d = cc_v3_scale(e, 2.0f);

    float t = cc_segment_box_closest_param(p, d, h);
    cc_vec3 x = cc_v3_madd(p, d, t);
    cc_vec3 q = cc_box_closest_point(x, h);
    cc_vec3 diff = cc_v3_sub(q, x);
    float dist = cc_v3_length(diff);
    cc_vec3 ac = cc_v3_abs(c), ae = cc_v3_abs(e);
    float tol = CC_GEOM_REL_TOL * (h.x + h.y + h.z + ac.x + ac.y + ac.z + ae.x + ae.y + ae.z);

    m->count = 0;
    cc_vec3 n;
    int k;
    float s;
    if (dist > tol) {
        n = cc_v3_scale(diff, 1.0f / dist);
        /* Exactly, the closest pair's direction is square to the segment
         * where x* is inside it (and to the box's edge where q* is on one,
         * which clamping keeps exactly). Rounding of t along a long
         * segment tilts n along d by the segment's rounding over the
         * distance; across the segment's length that tilt loses
         * separation, so it is taken out. */
        if (t > 0.0f && t < 1.0f) {
            float dd = cc_v3_length_sq(d);
            cc_vec3 square = cc_v3_madd(n, d, -cc_v3_dot(n, d) / dd);
            float length = cc_v3_length(square);
            if (length > 0.5f) n = cc_v3_scale(square, 1.0f / length);
        }
        cc_vec3 an = cc_v3_abs(n);
        k = an.y > an.x ? 1 : 0;
        if (an.z > (k ? an.y : an.x)) k = 2;
        float nk = cc_v3_get(n, k);
        s = nk < 0.0f ? 1.0f : -1.0f;
        if (!(fabsf(nk) >= CC_CAPSULE_FACE_COS)) {
            m->normal = cc_frame_vector_out(&fb, n);
            cc_capsule_box_add(&fb, x, q, dist, threshold, m);
            return;
        }
        /* A segment parallel to the face and over it is equally close all
         * along: rounding of t can put x* a hair past the face's rim, which
         * tilts n by that hair over the distance, and across the segment's
         * length the tilted normal then separates less than `dist`. Where
         * x* is over the face and the face's own normal separates the whole
         * segment by `dist`, both to rounding, that normal is the exact
         * one. */
        float hk = cc_v3_get(h, k), pk = cc_v3_get(p, k), dk = cc_v3_get(d, k);
        float face_sep = cc_minf(s * pk, s * (pk + dk)) - hk;
        /* The segment's direction in the box frame is rounded by its length. */
        float len = cc_v3_length(d);
        int over_face = face_sep >= dist - CC_CAPSULE_FACE_ROUNDING * (hk + fabsf(pk) + len);
        for (int j = 0; j < 3; ++j) {
            float xj = cc_v3_get(x, j), hj = cc_v3_get(h, j);
            if (j != k && !(fabsf(xj) <= hj + CC_CAPSULE_FACE_ROUNDING * (hj + fabsf(xj) + len))) over_face = 0;
        }
        if (over_face) n = cc_capsule_box_inward(k, s);
    } else {
        float face = cc_box_least_penetration(c, cc_v3_add(h, ae), &k, &s);
        /* A segment crossing the box diagonally can leave with less travel
         * across an edge (axis d x box axis) than through any face. That
         * deep case is rare; the exact GJK/MPR routine handles it. */
        for (int j = 0; j < 3; ++j) {
            cc_vec3 axis = cc_v3(j == 0 ? 1.0f : 0.0f, j == 1 ? 1.0f : 0.0f, j == 2 ? 1.0f : 0.0f);
            cc_vec3 l = cc_v3_cross(d, axis);
            float len = cc_v3_length(l);
            if (!(len > 1.0e-3f * cc_v3_length(d))) continue;
            l = cc_v3_scale(l, 1.0f / len);
            float travel = fabsf(l.x) * h.x + fabsf(l.y) * h.y + fabsf(l.z) * h.z - fabsf(cc_v3_dot(c, l));
            if (travel < face) {
                cc_collide_convex(a, CC_SHAPE_CAPSULE, b, CC_SHAPE_BOX, threshold, m);
                return;
            }
        }
        n = cc_capsule_box_inward(k, s);
    }
    m->normal = cc_frame_vector_out(&fb, n);

    /* lambda(t) = l0 + t dl; the projected segment pp + t dp lies on the
     * plane x_k = s h_k. |n_k| >= 1/sqrt(3) here, so the division is safe. */
    float nk = cc_v3_get(n, k), hk = cc_v3_get(h, k), pk = cc_v3_get(p, k), dk = cc_v3_get(d, k);
    float l0 = (s * hk - pk) / nk, dl = -dk / nk;
    cc_vec3 pp = cc_v3_madd(p, n, l0), dp = cc_v3_madd(d, n, dl);
    float t0 = 0.0f, t1 = 1.0f;
    if (k != 0) cc_segment_clip_slab(pp.x, dp.x, h.x, &t0, &t1);
    if (k != 1) cc_segment_clip_slab(pp.y, dp.y, h.y, &t0, &t1);
    if (k != 2) cc_segment_clip_slab(pp.z, dp.z, h.z, &t0, &t1);
    /* x* projects onto the rectangle's rim at worst (up to rounding): keep
     * it inside so the nearest contact is never clipped away. */
    t0 = cc_minf(t0, t);
    t1 = cc_maxf(t1, t);
    if (!((t1 - t0) * cc_v3_length(d) > CC_CAPSULE_MERGE_LENGTH)) {
        t0 = t;
        t1 = t;
    }
    cc_capsule_box_add(&fb, cc_v3_madd(p, d, t0), cc_v3_madd(pp, dp, t0), l0 + t0 * dl, threshold,
                       m);
    if (t1 > t0)
        cc_capsule_box_add(&fb, cc_v3_madd(p, d, t1), cc_v3_madd(pp, dp, t1), l0 + t1 * dl,
                           threshold, m);
}

#endif
