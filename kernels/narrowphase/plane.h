/* Narrow phase for a plane against a sphere, a capsule, a box or a plane.
 *
 * A plane passes through its pose origin with normal local +z; its solid is
 * the half-space z <= 0. size.x, size.y are half extents; both 0 make the
 * plane infinite. A finite plane is the same half-space restricted to points
 * whose projection onto the plane falls inside its rectangle |x| <= hx,
 * |y| <= hy: a core feature whose projection lies outside the rectangle
 * gives no contact (there is no contact with the rectangle's rim).
 *
 * The normal is always plane A's world normal. Distances are signed heights
 * of the other core's features above the plane, negative below it; each
 * point is the midpoint between the feature and its projection onto the
 * plane (plane-plane also measures A's corners along that normal, see
 * cc_collide_plane_plane). See narrowphase/manifold.h for the conventions. */
#ifndef CC_KERNELS_NARROWPHASE_PLANE_H
#define CC_KERNELS_NARROWPHASE_PLANE_H

#include "kernels/math/closest_points.h"
#include "kernels/narrowphase/manifold.h"
#include "kernels/math/frame.h"

/* Half extent used for an infinite plane: every finite coordinate passes. */
#define CC_PLANE_UNBOUNDED 3.0e38f
/* Two points closer than this along a segment are one point [m]. */
#define CC_PLANE_MERGE_LENGTH 1.0e-6f
/* A finite plane A's corners meet plane B along A's normal only when the
 * planes face each other: n_a . n_b below minus this. */
#define CC_PLANE_FACING_COS 1.0e-3f

/* Footprint half extents: (hx, hy) of a finite plane, unbounded otherwise. */
CC_HD void cc_plane_extent(const cc_geom* g, float* hx, float* hy)
{
    int finite = g->size.x > 0.0f || g->size.y > 0.0f;
    *hx = finite ? g->size.x : CC_PLANE_UNBOUNDED;
    *hy = finite ? g->size.y : CC_PLANE_UNBOUNDED;
}

CC_HD int cc_plane_in_footprint(cc_vec3 local, float hx, float hy)
{
    return fabsf(local.x) <= hx && fabsf(local.y) <= hy;
}

/* 1 when candidate i is set in `mask` and fewer than four set candidates
 * are deeper (ties broken by the lower index): i is among the deepest four.
 * Eight compares per candidate instead of a sort. */
CC_HD int cc_plane_among_deepest4(const float* depth, unsigned mask, int i)
{
    int rank = 0;
    for (int j = 0; j < 8; ++j)
        rank += (int)((mask >> j) & 1u) & (depth[j] < depth[i] || (depth[j] == depth[i] && j < i));
    return (int)((mask >> i) & 1u) & (rank < 4);
}

/* Sphere centre: one point. */
CC_HD void cc_collide_plane_sphere(const cc_geom* a, const cc_geom* b, float threshold,
                                   cc_manifold* m)
{
    float hx, hy;
    cc_plane_extent(a, &hx, &hy);
    cc_frame f = cc_frame_of(a->xf);
    cc_vec3 n = f.z;
    cc_vec3 l = cc_frame_point_in(&f, b->xf.p);
    m->count = 0;
    m->normal = n;
    if (cc_plane_in_footprint(l, hx, hy))
        cc_manifold_add(m, cc_v3_madd(b->xf.p, n, -0.5f * l.z), l.z, threshold);
}

/* Capsule segment: clipped to the footprint (skipped for an infinite
 * plane), then both ends of what remains, each within the threshold. A
 * capsule lying flat gives two points; a zero-length segment one. */
CC_HD void cc_collide_plane_capsule(const cc_geom* a, const cc_geom* b, float threshold,
                                    cc_manifold* m)
{
    float hx, hy;
    cc_plane_extent(a, &hx, &hy);
    cc_frame f = cc_frame_of(a->xf), fc = cc_frame_of(b->xf);
    cc_vec3 n = f.z;
    cc_vec3 half = cc_v3_scale(fc.z, b->size.y);
    cc_vec3 pw = cc_v3_sub(b->xf.p, half), dw = cc_v3_scale(half, 2.0f); /* world segment */
    cc_vec3 p = cc_frame_point_in(&f, pw);
    cc_vec3 d = cc_frame_vector_in(&f, dw);
    m->count = 0;
    m->normal = n;
    float t0 = 0.0f, t1 = 1.0f;
    if (hx < CC_PLANE_UNBOUNDED) {
        cc_segment_clip_slab(p.x, d.x, hx, &t0, &t1);
        cc_segment_clip_slab(p.y, d.y, hy, &t0, &t1);
        if (!(t0 <= t1)) return;
    }
    float z0 = p.z + t0 * d.z, z1 = p.z + t1 * d.z;
    cc_manifold_add(m, cc_v3_madd(cc_v3_madd(pw, dw, t0), n, -0.5f * z0), z0, threshold);
    if ((t1 - t0) * fabsf(b->size.y) * 2.0f > CC_PLANE_MERGE_LENGTH)
        cc_manifold_add(m, cc_v3_madd(cc_v3_madd(pw, dw, t1), n, -0.5f * z1), z1, threshold);
}

/* sigma * v with sigma = +1 when `bit` is set in i, else -1. */
CC_HD cc_vec3 cc_plane_signed(cc_vec3 v, unsigned i, unsigned bit)
{
    return (i & bit) ? v : cc_v3_neg(v);
}

/* Box vertices: those inside the footprint and within the threshold, the
 * four deepest kept. Vertex i is centre + sum_k sigma_k h_k axis_k with
 * sigma_k = +1 when bit k of i is set. A box resting flat gives its bottom
 * face's four vertices at distance = height of that face above the plane.
 *
 * No sorting: with a_k the height of half axis k, a vertex's height is
 * c + sum_k sigma_k a_k. The deepest vertex has sigma_k = -sign(a_k); with
 * |a| sorted as b1 >= b2 >= b3 (axis bits m1, m2, m3) the others rise above
 * it by twice: b3, b2, min(b1, b2 + b3), max(b1, b2 + b3), b1 + b3, b1 + b2,
 * b1 + b2 + b3, always in that order. Visiting vertices in that order and
 * keeping the first four valid ones keeps the deepest four, even when some
 * are outside a finite footprint. */
CC_HD void cc_collide_plane_box(const cc_geom* a, const cc_geom* b, float threshold, cc_manifold* m)
{
    float hx, hy;
    cc_plane_extent(a, &hx, &hy);
    cc_frame f = cc_frame_of(a->xf), fb = cc_frame_of(b->xf);
    cc_vec3 n = f.z;
    cc_vec3 bx = cc_v3_scale(fb.x, b->size.x), by = cc_v3_scale(fb.y, b->size.y);
    cc_vec3 bz = cc_v3_scale(fb.z, b->size.z);
    /* Centre and half axes in the plane frame. */
    cc_vec3 c = cc_frame_point_in(&f, b->xf.p);
    cc_vec3 ex = cc_frame_vector_in(&f, bx), ey = cc_frame_vector_in(&f, by);
    cc_vec3 ez = cc_frame_vector_in(&f, bz);
    m->count = 0;
    m->normal = n;

    unsigned base = (ex.z < 0.0f ? 1u : 0u) | (ey.z < 0.0f ? 2u : 0u) | (ez.z < 0.0f ? 4u : 0u);
    float b1 = fabsf(ex.z), b2 = fabsf(ey.z), b3 = fabsf(ez.z), tf;
    unsigned m1 = 1u, m2 = 2u, m3 = 4u, tm;
    /* Three compare-exchanges sort (b1, b2, b3) descending with their bits. */
    if (b1 < b2) {
        tf = b1, b1 = b2, b2 = tf;
        tm = m1, m1 = m2, m2 = tm;
    }
    if (b2 < b3) {
        tf = b2, b2 = b3, b3 = tf;
        tm = m2, m2 = m3, m3 = tm;
    }
    if (b1 < b2) {
        tf = b1, b1 = b2, b2 = tf;
        tm = m1, m1 = m2, m2 = tm;
    }
    int single_first = b1 <= b2 + b3; /* flip axis 1 alone before axes 2 and 3 together */

    for (int j = 0; j < 8 && m->count < 4; ++j) {
        unsigned flip = j == 0   ? 0u
                        : j == 1 ? m3
                        : j == 2 ? m2
                        : j == 3 ? (single_first ? m1 : (m2 | m3))
                        : j == 4 ? (single_first ? (m2 | m3) : m1)
                        : j == 5 ? (m1 | m3)
                        : j == 6 ? (m1 | m2)
                                 : 7u;
        unsigned i = base ^ flip;
        cc_vec3 l = cc_v3_add(cc_v3_add(c, cc_plane_signed(ex, i, 1u)),
                              cc_v3_add(cc_plane_signed(ey, i, 2u), cc_plane_signed(ez, i, 4u)));
        if (!(l.z <= threshold && cc_plane_in_footprint(l, hx, hy))) continue;
        cc_vec3 w = cc_v3_add(cc_v3_add(b->xf.p, cc_plane_signed(bx, i, 1u)),
                              cc_v3_add(cc_plane_signed(by, i, 2u), cc_plane_signed(bz, i, 4u)));
        cc_manifold_add(m, cc_v3_madd(w, n, -0.5f * l.z), l.z, threshold);
    }
}

/* Corner i (0..3) of a finite plane, world: o +- hx x +- hy y. */
CC_HD cc_vec3 cc_plane_corner(const cc_frame* f, const cc_geom* g, int i)
{
    return cc_v3_madd(cc_v3_madd(f->o, f->x, (i & 1) ? g->size.x : -g->size.x), f->y,
                      (i & 2) ? g->size.y : -g->size.y);
}

/* Number of set bits in an 8-bit mask (a bit-parallel sum). */
CC_HD unsigned cc_plane_popcount8(unsigned v)
{
    v = v - ((v >> 1) & 0x55u);
    v = (v & 0x33u) + ((v >> 2) & 0x33u);
    return (v + (v >> 4)) & 0x0Fu;
}

/* Up to eight candidates, all measured along A's normal na:
 *   0..3: corner i of B (when B is finite), at its height above plane A; it
 *         must project inside A's footprint.
 *   4..7: corner i-4 of A (when A is finite and the planes face each other,
 *         n_a . n_b < -CC_PLANE_FACING_COS), at the distance t along na at
 *         which the ray from the corner meets plane B; the hit must fall
 *         inside B's footprint.
 * The four deepest within the threshold are kept. Two infinite planes give
 * nothing. */
CC_HD void cc_collide_plane_plane(const cc_geom* a, const cc_geom* b, float threshold,
                                  cc_manifold* m)
{
    float ahx, ahy, bhx, bhy;
    cc_plane_extent(a, &ahx, &ahy);
    cc_plane_extent(b, &bhx, &bhy);
    cc_frame fa = cc_frame_of(a->xf), fb = cc_frame_of(b->xf);
    cc_vec3 na = fa.z;
    cc_vec3 na_b = cc_frame_vector_in(&fb, na); /* A's normal in B's frame */
    int b_finite = bhx < CC_PLANE_UNBOUNDED;
    int a_corners = ahx < CC_PLANE_UNBOUNDED && na_b.z < -CC_PLANE_FACING_COS;
    float inv_nz = a_corners ? -1.0f / na_b.z : 0.0f;
    m->count = 0;
    m->normal = na;

    float depth[8];
    cc_vec3 mid[8];
    unsigned mask = 0u;
    for (int i = 0; i < 8; ++i) {
        int ok;
        if (i < 4) {
            cc_vec3 w = cc_plane_corner(&fb, b, i);
            cc_vec3 v = cc_frame_point_in(&fa, w);
            depth[i] = v.z;
            mid[i] = cc_v3_madd(w, na, -0.5f * v.z);
            ok = b_finite && cc_plane_in_footprint(v, ahx, ahy);
        } else {
            cc_vec3 w = cc_plane_corner(&fa, a, i - 4);
            cc_vec3 u = cc_frame_point_in(&fb, w);
            float t = u.z * inv_nz; /* u + t na_b lies on z = 0 */
            depth[i] = t;
            mid[i] = cc_v3_madd(w, na, 0.5f * t);
            ok = a_corners && cc_plane_in_footprint(cc_v3_madd(u, na_b, t), bhx, bhy);
        }
        mask |= (unsigned)(ok && depth[i] <= threshold) << i;
    }
    int all = cc_plane_popcount8(mask) <= 4u; /* the usual case: no ranking */
    for (int i = 0; i < 8; ++i)
        if (all ? (int)((mask >> i) & 1u) : cc_plane_among_deepest4(depth, mask, i))
            cc_manifold_add(m, mid[i], depth[i], threshold);
}

#endif
