/* The common normal of two circular rims (a cylinder's cap edges, a cone's
 * base edge).
 *
 * The separation's optimum is where the two supporting points lie on one
 * line along the normal. Between polytope features that line is a cross
 * product or a face normal; a rim's supporting point moves with the
 * direction, and near a cap's normal it swings so fast that ascending the
 * separation crawls along a narrow valley (two cylinders stacked cap on
 * cap). Solved on the rims instead, it is a small root-finding problem:
 * the line from one point to the other must be perpendicular to both
 * tangents, which Newton's method settles in a few steps from the current
 * supporting points. */
#ifndef CC_KERNELS_CONVEX_RIM_H
#define CC_KERNELS_CONVEX_RIM_H

#include "kernels/shapes/support.h"

/* Newton steps of a rim solve, and the summed turn of both points (rad)
 * below which it has converged. */
#define CC_RIM_NEWTON_STEPS 4
#define CC_RIM_CONVERGED 1.0e-6f

typedef struct cc_rim {
    cc_vec3 c;    /* centre, pair coordinates */
    cc_vec3 x, y; /* unit axes of the rim's plane */
    float r;      /* radius */
    float cu, su; /* the current point: c + r (cu x + su y) */
} cc_rim;

CC_HD cc_vec3 cc_rim_radial(const cc_rim* k) { return cc_v3_madd(cc_v3_scale(k->x, k->cu), k->y, k->su); }
CC_HD cc_vec3 cc_rim_point(const cc_rim* k) { return cc_v3_madd(k->c, cc_rim_radial(k), k->r); }
CC_HD cc_vec3 cc_rim_tangent(const cc_rim* k) { return cc_v3_madd(cc_v3_scale(k->y, k->cu), k->x, -k->su); }

/* Turns the current point by `angle` around the rim: a first-order turn
 * put back on the unit circle, all Newton's method needs. */
CC_HD void cc_rim_turn(cc_rim* k, float angle)
{
    float cu = k->cu - k->su * angle, su = k->su + k->cu * angle;
    float len = sqrtf(cu * cu + su * su);
    k->cu = cu / len;
    k->su = su / len;
}

/* The rim carrying c's support point along unit d, when that point is a
 * single point of a rim (not an apex, a side line or a whole cap) and d
 * lies within asin(near) of the rim's axis, where the point swings fast. */
CC_HD int cc_rim_of_support(const cc_convex* c, cc_vec3 d, float near, cc_rim* k)
{
    if (c->type != CC_SHAPE_CYLINDER && c->type != CC_SHAPE_CONE) return 0;
    cc_vec3 l = cc_frame_vector_in(&c->f, d);
    float rxy = sqrtf(l.x * l.x + l.y * l.y);
    cc_vec3 s = cc_support_local(c, l);
    if (!(rxy > 1.0e-6f) || !(rxy < near) || (c->type == CC_SHAPE_CONE && s.z > 0.0f)) return 0;
    k->c = cc_frame_point_out(&c->f, cc_v3(0.0f, 0.0f, s.z));
    k->x = c->f.x;
    k->y = c->f.y;
    k->r = c->size.x;
    k->cu = l.x / rxy;
    k->su = l.y / rxy;
    return 1;
}

/* Two rims: points whose connecting line is perpendicular to both
 * tangents. F1 = d.tA, F2 = d.tB with d = pB - pA; the point moves by
 * r t per radian, the tangent by -(radial). */
CC_HD int cc_rim_rim(cc_rim* ka, cc_rim* kb)
{
    CC_NO_UNROLL
    for (int it = 0; it < CC_RIM_NEWTON_STEPS; ++it) {
        cc_vec3 ta = cc_rim_tangent(ka), tb = cc_rim_tangent(kb);
        cc_vec3 d = cc_v3_sub(cc_rim_point(kb), cc_rim_point(ka));
        float f1 = cc_v3_dot(d, ta), f2 = cc_v3_dot(d, tb), tt = cc_v3_dot(ta, tb);
        float j11 = -ka->r - cc_v3_dot(d, cc_rim_radial(ka)), j12 = kb->r * tt;
        float j21 = -ka->r * tt, j22 = kb->r - cc_v3_dot(d, cc_rim_radial(kb));
        float det = j11 * j22 - j12 * j21;
        if (!(fabsf(det) > 1.0e-12f * ka->r * kb->r)) return 0;
        float da = cc_clampf((-f1 * j22 + f2 * j12) / det, -0.5f, 0.5f);
        float db = cc_clampf((-f2 * j11 + f1 * j21) / det, -0.5f, 0.5f);
        cc_rim_turn(ka, da);
        cc_rim_turn(kb, db);
        if (fabsf(da) + fabsf(db) < CC_RIM_CONVERGED) return 1;
    }
    return 1;
}

#endif
