/* Where a line leaves a convex core: exact, per type, from the core's own
 * surface (slabs, quadrics, face planes) rather than from support points.
 *
 * A contact's two points must face each other across its normal. Where a
 * core touches at a point of a nearly flat curved surface (a flat
 * ellipsoid's pole, a long cylinder's side line), the support point along
 * a normal that is off by 1e-4 rad can lie centimetres from where the two
 * touch, while the height barely changes. The point of the core straight
 * across from the other shape's point, along the normal, is then the
 * right witness: well conditioned, and on the surface to rounding. */
#ifndef CC_KERNELS_SHAPES_LINE_EXIT_H
#define CC_KERNELS_SHAPES_LINE_EXIT_H

#include "kernels/shapes/support.h"

/* Clips [*enter, *leave] to the t where |p + t d| <= half. */
CC_HD void cc_line_clip_slab(float p, float d, float half, float* enter, float* leave)
{
    if (d == 0.0f) {
        if (fabsf(p) > half) *enter = 3.0e38f;
        return;
    }
    float t0 = (-half - p) / d, t1 = (half - p) / d;
    *enter = cc_maxf(*enter, cc_minf(t0, t1));
    *leave = cc_minf(*leave, cc_maxf(t0, t1));
}

/* Clips [*enter, *leave] to the t where a t^2 + 2 b t + c <= 0: an
 * interval for a > 0 (an ellipsoid, a cylinder's round side), or for
 * a < 0 two rays, of which `upper` keeps the one toward +t (a cone's
 * quadric holds both nappes; a line steeper than the cone crosses both).
 * A line along a cylinder's axis or a cone's side line makes a = 0, where
 * a tiny positive a keeps the root that exists and puts the other beyond
 * reach. Roots in the form that keeps the smaller one accurate. */
CC_HD void cc_line_clip_quadric(float a, float b, float c, int upper, float* enter, float* leave)
{
    if (a == 0.0f) a = 1.0e-30f;
    float disc = b * b - a * c;
    if (!(disc >= 0.0f)) {
        if (a > 0.0f) *enter = 3.0e38f; /* no root: never inside (for a < 0, always) */
        return;
    }
    float q = -(b + copysignf(sqrtf(disc), b));
    float r0 = q / a, r1 = q != 0.0f ? c / q : r0;
    float lo = cc_minf(r0, r1), hi = cc_maxf(r0, r1);
    if (a > 0.0f) {
        *enter = cc_maxf(*enter, lo);
        *leave = cc_minf(*leave, hi);
    } else if (upper) *enter = cc_maxf(*enter, hi);
    else *leave = cc_minf(*leave, lo);
}

/* Clips [*enter, *leave] to the solid cone of base radius r at z = -h and
 * apex at z = +h, for the line p + t d (local frame), whose z slab the
 * caller clips too: that keeps the lower nappe only. Of the two rays of a
 * line steeper than the cone, the lower nappe's runs down to the base. */
CC_HD void cc_line_clip_cone(cc_vec3 p, cc_vec3 d, float r, float h, float* enter, float* leave)
{
    float k = r / (2.0f * h), k2 = k * k;
    float w = h - p.z, wd = -d.z; /* height below the apex: w + t wd */
    cc_line_clip_quadric(d.x * d.x + d.y * d.y - k2 * wd * wd, p.x * d.x + p.y * d.y - k2 * w * wd,
                         p.x * p.x + p.y * p.y - k2 * w * w, wd > 0.0f, enter, leave);
}

/* Clips [*enter, *leave] to the hull c (local frame, p and d unscaled by
 * its size: the faces' planes are stored unscaled). */
CC_HD void cc_line_clip_hull(const cc_hull_ref* hull, cc_vec3 p, cc_vec3 d, float* enter, float* leave)
{
    CC_NO_UNROLL
    for (int i = 0; i < hull->face_count; ++i) {
        cc_hull_face f = hull->faces[i];
        float rate = cc_v3_dot(f.normal, d), room = f.offset - cc_v3_dot(f.normal, p);
        if (rate > 0.0f) *leave = cc_minf(*leave, room / rate);
        else if (rate < 0.0f) *enter = cc_maxf(*enter, room / rate);
        else if (room < 0.0f) *enter = 3.0e38f;
    }
}

/* The span [*enter, *leave] of the line p + t d (c's frame) within c.
 * Returns 0 when c has no volume. */
CC_HD int cc_line_span(const cc_convex* c, cc_vec3 p, cc_vec3 d, float* enter, float* leave)
{
    cc_vec3 s = c->size;
    *enter = -3.0e38f;
    *leave = 3.0e38f;
    switch (c->type) {
    case CC_SHAPE_BOX:
        cc_line_clip_slab(p.x, d.x, s.x, enter, leave);
        cc_line_clip_slab(p.y, d.y, s.y, enter, leave);
        cc_line_clip_slab(p.z, d.z, s.z, enter, leave);
        return 1;
    case CC_SHAPE_CYLINDER:
        cc_line_clip_slab(p.z, d.z, s.y, enter, leave);
        cc_line_clip_quadric(d.x * d.x + d.y * d.y, p.x * d.x + p.y * d.y, p.x * p.x + p.y * p.y - s.x * s.x, 0, enter,
                             leave);
        return 1;
    case CC_SHAPE_CONE:
        cc_line_clip_slab(p.z, d.z, s.y, enter, leave);
        cc_line_clip_cone(p, d, s.x, s.y, enter, leave);
        return 1;
    case CC_SHAPE_ELLIPSOID: {
        /* The unit sphere after dividing by the semi-axes; t unchanged. */
        cc_vec3 inv = cc_v3(1.0f / s.x, 1.0f / s.y, 1.0f / s.z);
        cc_vec3 q = cc_v3_mul(p, inv), e = cc_v3_mul(d, inv);
        cc_line_clip_quadric(cc_v3_dot(e, e), cc_v3_dot(q, e), cc_v3_dot(q, q) - 1.0f, 0, enter, leave);
        return 1;
    }
    case CC_SHAPE_CONVEX_HULL: {
        /* Unscaled, where t is the same: the line's points scale alike. */
        cc_vec3 inv = cc_v3(1.0f / s.x, 1.0f / s.y, 1.0f / s.z);
        cc_line_clip_hull(&c->hull, cc_v3_mul(p, inv), cc_v3_mul(d, inv), enter, leave);
        return 1;
    }
    default: return 0;
    }
}

/* Where the line through x (pair coordinates) along unit `out` leaves core
 * c going along `out`. Returns 0 when the line misses c, or when c has no
 * volume (a sphere's point, a capsule's segment: their own support points
 * are exact). A quadric's roots lose digits to cancellation when the line
 * starts far from the core: the first pass starts from the line's point
 * nearest c's centre, and a second from the first hit, where the constant
 * term is near 0, confirms it (a line that grazes a cone's apex can seem
 * to cross it in float). */
CC_HD_CALL int cc_convex_line_exit(const cc_convex* c, cc_vec3 x, cc_vec3 out, cc_vec3* hit)
{
    cc_vec3 p = cc_frame_point_in(&c->f, x), d = cc_frame_vector_in(&c->f, out);
    p = cc_v3_madd(p, d, -cc_v3_dot(p, d));
    float enter, leave;
    if (!cc_line_span(c, p, d, &enter, &leave) || !(enter <= leave) || !(leave < 1.0e38f)) return 0;
    p = cc_v3_madd(p, d, leave);
    if (!cc_line_span(c, p, d, &enter, &leave) || !(enter <= leave + 1.0e-6f * c->extent) || !(fabsf(leave) < 1.0e38f))
        return 0;
    *hit = cc_frame_point_out(&c->f, cc_v3_madd(p, d, leave));
    return 1;
}

#endif
