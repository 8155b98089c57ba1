/* Closest points between the core features that the primitive pair routines
 * meet: a point, a segment, a solid box. Segments are written p + t*d with t
 * in [0, 1]; boxes are centred at the origin of their own frame with half
 * extents h (callers move the other feature into that frame first).
 *
 * Everything here is loop-free or has a fixed trip count, never divides by
 * zero, and only uses + - * / and sqrt, so strict-FP builds match bit for bit
 * on the CPU and the GPU. NaN input never hangs or indexes out of bounds. */
#ifndef CC_KERNELS_MATH_CLOSEST_POINTS_H
#define CC_KERNELS_MATH_CLOSEST_POINTS_H

#include "kernels/math/vec3.h"

/* Two segment directions count as parallel when sin^2 of their angle is below
 * this (angle below about 1e-3 rad). Near that angle the closest-point
 * parameters become ill-conditioned: (b f - c e) / (a e - b^2) divides by a
 * quantity that is pure rounding noise. */
#define CC_PARALLEL_SIN2 1.0e-6f

/* Relative tolerance for decisions at rounding level (touching or not,
 * coincident closest points), scaled by the magnitudes involved: about a
 * hundred float ulps. */
#define CC_GEOM_REL_TOL 1.0e-5f

/* Parameter t in [0, 1] of the point of segment p + t*d closest to x:
 * t = clamp(dot(x - p, d) / dot(d, d)). A zero-length segment gives 0. */
CC_HD float cc_segment_closest_param(cc_vec3 x, cc_vec3 p, cc_vec3 d)
{
    float dd = cc_v3_dot(d, d);
    float t = dd > 0.0f ? cc_v3_dot(cc_v3_sub(x, p), d) / dd : 0.0f;
    return cc_clampf(t, 0.0f, 1.0f);
}

/* Closest points of segments p1 + s*d1 and p2 + t*d2 (s, t in [0, 1]).
 * Minimises |p1 + s d1 - p2 - t d2|^2; with r = p1 - p2, a = d1.d1,
 * b = d1.d2, e = d2.d2, c = d1.r, f = d2.r the unconstrained optimum is
 * s = (b f - c e) / (a e - b^2). We clamp s, take the t closest to that
 * point, then re-clamp s against the clamped t (exact for segments, since
 * the squared distance is convex in (s, t)).
 * Parallel segments (a e - b^2 <= CC_PARALLEL_SIN2 a e) have a whole range
 * of closest pairs; we take s at the middle of the part of segment 1 that
 * overlaps segment 2 in projection (or the nearer end when they do not
 * overlap), so the choice is deterministic and symmetric along the overlap,
 * unless an end of that part is measurably closer (nearly parallel).
 * Returns 1 for that parallel case, 0 otherwise. Zero-length segments are
 * points (their parameter is 0). */
CC_HD int cc_segment_segment_closest(cc_vec3 p1, cc_vec3 d1, cc_vec3 p2, cc_vec3 d2, float* s_out,
                                     float* t_out)
{
    cc_vec3 r = cc_v3_sub(p1, p2);
    float a = cc_v3_dot(d1, d1), e = cc_v3_dot(d2, d2);
    float b = cc_v3_dot(d1, d2), c = cc_v3_dot(d1, r), f = cc_v3_dot(d2, r);
    float s = 0.0f, t = 0.0f;
    int parallel = 0;
    if (!(a > 0.0f)) {
        t = e > 0.0f ? cc_clampf(f / e, 0.0f, 1.0f) : 0.0f;
    } else if (!(e > 0.0f)) {
        s = cc_clampf(-c / a, 0.0f, 1.0f);
    } else {
        float denom = a * e - b * b; /* = |d1 x d2|^2 >= 0 */
        if (denom > CC_PARALLEL_SIN2 * a * e) {
            s = cc_clampf((b * f - c * e) / denom, 0.0f, 1.0f);
        } else {
            /* Segment 2's ends projected on segment 1's parameter: (-c) / a
             * and (b - c) / a. Middle of their span intersected with [0, 1];
             * an empty intersection lands outside [0, 1] on the near side. */
            float u0 = -c / a, u1 = (b - c) / a;
            float lo = cc_maxf(cc_minf(u0, u1), 0.0f), hi = cc_minf(cc_maxf(u0, u1), 1.0f);
            s = cc_clampf(0.5f * (lo + hi), 0.0f, 1.0f);
            parallel = 1;
        }
        t = cc_clampf((b * s + f) / e, 0.0f, 1.0f);
        s = cc_clampf((b * t - c) / a, 0.0f, 1.0f);
        if (parallel) {
            /* Nearly parallel is not parallel: the distance still changes
             * along the overlap, and its minimum is at an end of it. An end
             * replaces the middle when it is closer by more than rounding
             * (exactly parallel segments keep the symmetric middle). */
            float u0 = -c / a, u1 = (b - c) / a;
            float ends[2] = {cc_maxf(cc_minf(u0, u1), 0.0f), cc_minf(cc_maxf(u0, u1), 1.0f)};
            float best = cc_v3_length(cc_v3_add(r, cc_v3_sub(cc_v3_scale(d1, s), cc_v3_scale(d2, t))));
            float margin = 1.0e-6f * (sqrtf(a) + sqrtf(e) + cc_v3_length(r));
            for (int k = 0; k < 2; ++k) {
                float se = cc_clampf(ends[k], 0.0f, 1.0f);
                float te = cc_clampf((b * se + f) / e, 0.0f, 1.0f);
                se = cc_clampf((b * te - c) / a, 0.0f, 1.0f);
                float dist = cc_v3_length(cc_v3_add(r, cc_v3_sub(cc_v3_scale(d1, se), cc_v3_scale(d2, te))));
                if (dist < best - margin) {
                    best = dist;
                    s = se;
                    t = te;
                }
            }
        }
    }
    *s_out = s;
    *t_out = t;
    return parallel;
}

/* Closest point of the solid box to x (x itself when inside). */
CC_HD cc_vec3 cc_box_closest_point(cc_vec3 x, cc_vec3 h)
{
    return cc_v3(cc_clampf(x.x, -h.x, h.x), cc_clampf(x.y, -h.y, h.y), cc_clampf(x.z, -h.z, h.z));
}

/* Face of least penetration for x inside the box: per axis the distance to
 * the nearer face is h_i - |x_i|; returns the smallest (the depth, negative
 * if x is outside along that axis), its axis and the face side (+1 when
 * x_i >= 0). Ties go to the lower axis. Passing h + |e| instead of h gives
 * the same answer for a segment x +- e (how far the whole segment must move
 * to leave the box through each face). */
CC_HD float cc_box_least_penetration(cc_vec3 x, cc_vec3 h, int* axis, float* side)
{
    float dx = h.x - fabsf(x.x), dy = h.y - fabsf(x.y), dz = h.z - fabsf(x.z);
    int k = 0;
    float depth = dx;
    float v = x.x;
    if (dy < depth) {
        k = 1;
        depth = dy;
        v = x.y;
    }
    if (dz < depth) {
        k = 2;
        depth = dz;
        v = x.z;
    }
    *axis = k;
    *side = v >= 0.0f ? 1.0f : -1.0f;
    return depth;
}

/* One axis of the slope below: d_i * (x_i - clamp(x_i, -h_i, h_i)). */
CC_HD float cc_segment_box_slope_axis(float p, float d, float h, float t)
{
    float x = p + t * d;
    return d * (x - cc_clampf(x, -h, h));
}

/* g(t) = 1/2 d/dt dist^2(p + t d, box) = sum_i d_i (x_i - clamp(x_i)). */
CC_HD float cc_segment_box_slope(cc_vec3 p, cc_vec3 d, cc_vec3 h, float t)
{
    return cc_segment_box_slope_axis(p.x, d.x, h.x, t) +
           cc_segment_box_slope_axis(p.y, d.y, h.y, t) +
           cc_segment_box_slope_axis(p.z, d.z, h.z, t);
}

/* Narrows the bracket br = {lo, g(lo), hi, g(hi)} around the root of g
 * with breakpoint b where g(b) = g: b becomes lo when g < 0 and b > lo, hi
 * when g >= 0 and b < hi. Breakpoints outside (0, 1) change nothing (the
 * ends are already in the bracket). Selects instead of branches: which way
 * it goes is data-dependent and would mispredict. */
CC_HD void cc_segment_box_bracket(float b, float g, float* br)
{
    int inside = (b > 0.0f) & (b < 1.0f);
    int below = g < 0.0f;
    int raise = inside & below & (b > br[0]);
    int lower = inside & !below & (b < br[2]);
    br[0] = raise ? b : br[0];
    br[1] = raise ? g : br[1];
    br[2] = lower ? b : br[2];
    br[3] = lower ? g : br[3];
}

/* The two breakpoints t = (+-h - p) / d of one axis (p, d, h). The axis'
 * own term of g vanishes there, so g sums the other two axes (u, v). */
CC_HD void cc_segment_box_bracket_axis(float p, float d, float h, float pu, float du, float hu,
                                       float pv, float dv, float hv, float* br)
{
    float inv = d != 0.0f ? 1.0f / d : 0.0f;
    float b0 = (-h - p) * inv, b1 = (h - p) * inv;
    cc_segment_box_bracket(
        b0, cc_segment_box_slope_axis(pu, du, hu, b0) + cc_segment_box_slope_axis(pv, dv, hv, b0),
        br);
    cc_segment_box_bracket(
        b1, cc_segment_box_slope_axis(pu, du, hu, b1) + cc_segment_box_slope_axis(pv, dv, hv, b1),
        br);
}

/* Parameter t in [0, 1] of a point of segment p + t*d closest to the solid
 * box (any point inside the box when the segment crosses it).
 * f(t) = dist^2(p + t d, box) is convex and piecewise quadratic, with breaks
 * where a coordinate crosses +-h_i; its slope g is piecewise linear and
 * nondecreasing. We evaluate g at the six breakpoints and keep the largest
 * one where g < 0 (lo) and the smallest where g >= 0 (hi): no breakpoint lies
 * strictly between them, so g is linear on [lo, hi] and its root is found by
 * one interpolation. No sorting and a fixed amount of work. */
CC_HD float cc_segment_box_closest_param(cc_vec3 p, cc_vec3 d, cc_vec3 h)
{
    float br[4];
    br[0] = 0.0f;
    br[1] = cc_segment_box_slope(p, d, h, 0.0f);
    br[2] = 1.0f;
    br[3] = cc_segment_box_slope(p, d, h, 1.0f);
    if (!(br[1] < 0.0f)) return 0.0f; /* f increasing from the start (also NaN) */
    if (!(br[3] > 0.0f)) return 1.0f; /* f decreasing to the end */
    cc_segment_box_bracket_axis(p.x, d.x, h.x, p.y, d.y, h.y, p.z, d.z, h.z, br);
    cc_segment_box_bracket_axis(p.y, d.y, h.y, p.x, d.x, h.x, p.z, d.z, h.z, br);
    cc_segment_box_bracket_axis(p.z, d.z, h.z, p.x, d.x, h.x, p.y, d.y, h.y, br);
    /* g(hi) >= 0 > g(lo), so the denominator is positive. */
    return br[0] + (br[2] - br[0]) * (-br[1] / (br[3] - br[1]));
}

/* Intersects the parameter interval [*t0, *t1] of segment coordinate p + t*d
 * with the slab |p + t d| <= h. Leaves *t0 > *t1 when nothing remains. */
CC_HD void cc_segment_clip_slab(float p, float d, float h, float* t0, float* t1)
{
    if (d != 0.0f) {
        float inv = 1.0f / d;
        float ta = (-h - p) * inv, tb = (h - p) * inv;
        *t0 = cc_maxf(*t0, cc_minf(ta, tb));
        *t1 = cc_minf(*t1, cc_maxf(ta, tb));
    } else if (!(fabsf(p) <= h)) {
        *t0 = 1.0f;
        *t1 = 0.0f;
    }
}

/* A unit vector along v, or `fallback` when v is too short to normalise. */
CC_HD cc_vec3 cc_normalize_or(cc_vec3 v, cc_vec3 fallback)
{
    float len = cc_v3_length(v);
    return len > CC_EPSILON_LENGTH ? cc_v3_scale(v, 1.0f / len) : fallback;
}

#endif
