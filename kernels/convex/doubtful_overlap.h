/* Overlap answers that no overlapping pair can have, checked again: the
 * query's climbs can stop on them where the shapes are in fact apart
 * within GJK's skin (the overlap path runs below a thousandth of the
 * smaller size), or on a saddle. */
#ifndef CC_KERNELS_CONVEX_DOUBTFUL_OVERLAP_H
#define CC_KERNELS_CONVEX_DOUBTFUL_OVERLAP_H

#include "kernels/convex/query.h"

/* Whether point p (pair coordinates) lies outside the core of box, hull,
 * cylinder or cone y by more than tol, and then in *out y's outward normal
 * (pair coordinates) of a face or side it lies beyond; 0 for other shapes. */
CC_HD int cc_convex_point_outside(const cc_convex* y, cc_vec3 p, float tol, cc_vec3* out)
{
    cc_vec3 l = cc_frame_point_in(&y->f, p), s = y->size, local = cc_v3(0.0f, 0.0f, 0.0f);
    float rxy = sqrtf(l.x * l.x + l.y * l.y);
    switch (y->type) {
    case CC_SHAPE_BOX:
        if (fabsf(l.x) > s.x + tol) local.x = l.x > 0.0f ? 1.0f : -1.0f;
        else if (fabsf(l.y) > s.y + tol) local.y = l.y > 0.0f ? 1.0f : -1.0f;
        else if (fabsf(l.z) > s.z + tol) local.z = l.z > 0.0f ? 1.0f : -1.0f;
        break;
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: {
        /* Beyond a cap's plane, or the side: a cone's slants, its distance
         * the radial excess times the side normal's radial part. */
        float radial, axial;
        cc_round_side_slope(y, &radial, &axial);
        float rim = y->type == CC_SHAPE_CONE ? s.x * (s.y - l.z) / (2.0f * s.y) : s.x;
        if (fabsf(l.z) > s.y + tol) local.z = l.z > 0.0f ? 1.0f : -1.0f;
        else if ((rxy - rim) * radial > tol) cc_round_side_normal(y, l, &local);
        break;
    }
    case CC_SHAPE_CONVEX_HULL: {
        /* A face's plane of the scaled hull: normal / size, offset
         * unchanged for the unscaled point l / size. */
        cc_vec3 inv = cc_v3(1.0f / s.x, 1.0f / s.y, 1.0f / s.z), u = cc_v3_mul(l, inv);
        CC_NO_UNROLL
        for (int f = 0; f < y->hull.face_count; ++f) {
            cc_hull_face fc = y->hull.faces[f];
            cc_vec3 m = cc_v3_mul(fc.normal, inv);
            float over = cc_v3_dot(fc.normal, u) - fc.offset;
            if (over > 0.0f && over > tol * cc_v3_length(m)) {
                local = cc_v3_normalize(m);
                break;
            }
        }
        break;
    }
    default: break;
    }
    if (!(cc_v3_length_sq(local) > 0.5f)) return 0;
    *out = cc_frame_vector_out(&y->f, local);
    return 1;
}

/* Whether x's single supporting point p is a corner, fixed as the
 * direction turns: a polytope's vertex, a sphere's or capsule's core
 * point, a cone's apex (a rim point turns with the direction along the
 * rim, and two rims crossing can be an optimum). */
CC_HD int cc_convex_is_corner(const cc_convex* x, cc_vec3 p)
{
    switch (x->type) {
    case CC_SHAPE_BOX:
    case CC_SHAPE_CONVEX_HULL:
    case CC_SHAPE_SPHERE:
    case CC_SHAPE_CAPSULE: return 1;
    case CC_SHAPE_CONE: return cc_frame_point_in(&x->f, p).z > 0.0f;
    default: return 0;
    }
}

/* An overlap answer that cannot be an optimum of overlapping shapes: two
 * single points, one a corner and neither on an ellipsoid (two corners,
 * or a corner and a rim point: sep is smallest there along every turn the
 * points do not follow, a saddle the climb stalls on when the witness
 * faces along n), or a
 * point against a face while lying outside the face's shape (beside a
 * sharp edge, a cone's rim among them; overlapping shapes meet where the
 * point is inside). The shapes may then be apart within GJK's skin, and
 * were never shown to overlap; where they overlap, the face the point
 * lies beyond (in *escape, as a normal A -> B) is a start nearer the
 * optimum. */
CC_HD int cc_convex_doubtful(const cc_convex* a, const cc_convex* b, const cc_convex_result* r, float tol,
                             cc_vec3* escape)
{
    int ca = r->feature_a.count, cb = r->feature_b.count;
    *escape = cc_v3(0.0f, 0.0f, 0.0f);
    if (ca == 1 && cb == 1)
        return a->type != CC_SHAPE_ELLIPSOID && b->type != CC_SHAPE_ELLIPSOID &&
               (cc_convex_is_corner(a, r->feature_a.p[0]) || cc_convex_is_corner(b, r->feature_b.p[0]));
    cc_vec3 out;
    /* The face the point lies beyond: B's outward normal is -n, A's n. */
    if (ca == 1 && cb >= 3 && cc_convex_point_outside(b, r->point_a, tol, &out)) {
        *escape = cc_v3_neg(out);
        return 1;
    }
    if (cb == 1 && ca >= 3 && cc_convex_point_outside(a, r->point_b, tol, &out)) {
        *escape = out;
        return 1;
    }
    return 0;
}

/* Moves n (returns 1) from a doubtful overlap answer r (above) to a
 * better one when there is one: GJK run to the tolerance shows the shapes
 * apart, or within it of touching without enclosing the origin, and its
 * direction is nearly the answer's; overlapping, the face the point lies
 * beyond is the start, and a saddle of two points is left by the
 * derivative-free climb. */
CC_HD_CALL int cc_convex_recheck_doubtful(const cc_convex* a, const cc_convex* b, float tol, float limit,
                                          cc_convex_result* r, cc_vec3* n_io, float* sep_io)
{
    cc_vec3 escape;
    if (!(*sep_io < -10.0f * tol) || !cc_convex_doubtful(a, b, r, tol, &escape)) return 0;
    cc_gjk_result g;
    cc_gjk(a, b, cc_v3(0.0f, 0.0f, 0.0f), *n_io, limit, tol, tol, &g);
    r->iterations += g.iterations;
    if (g.status == CC_GJK_SEPARATED || !g.has_tetra) escape = g.normal;
    cc_vec3 n = *n_io;
    float sep = *sep_io;
    if (cc_v3_length_sq(escape) > 0.5f) {
        cc_feature fa, fb;
        n = escape;
        sep = cc_convex_separation_along(a, b, n);
        cc_convex_climb(a, b, a->extent + b->extent, tol, &n, &sep, &r->iterations, &fa, &fb);
    } else {
        cc_convex_pattern_climb(a, b, a->extent + b->extent, tol, &n, &sep, &r->iterations);
    }
    if (!(sep > *sep_io + tol)) return 0;
    *n_io = n;
    *sep_io = sep;
    return 1;
}

#endif
