/* Stage 1: each shape's world pose and its world AABB, expanded by its
 * bounds pad (margin + gap, or half a contact pair's when larger) so that
 * the broad phase keeps every pair the narrow phase could admit
 * (d < gap_a + gap_b), and with speculation by its reach
 * (kernels/contacts/speculation.h). */
#ifndef CC_KERNELS_SHAPES_BOUNDS_H
#define CC_KERNELS_SHAPES_BOUNDS_H

#include "kernels/contacts/sweep.h"
#include "kernels/model_view.h"
#include "kernels/narrowphase/route.h"

/* Stands in for infinity in AABBs, so that projections never form inf - inf. */
#define CC_AABB_UNBOUNDED 1.0e30f

typedef struct cc_aabb {
    cc_vec3 lower, upper;
} cc_aabb;

CC_HD int cc_aabb_overlap(cc_aabb a, cc_aabb b)
{
    return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y &&
           b.lower.y <= a.upper.y && a.lower.z <= b.upper.z && b.lower.z <= a.upper.z;
}

/* Half extents of a box with half sizes h rotated by q: |R| h. */
CC_HD cc_vec3 cc_rotated_box_extent(cc_quat q, cc_vec3 h)
{
    cc_vec3 ax, ay, az;
    cc_q_axes(q, &ax, &ay, &az);
    return cc_v3(fabsf(ax.x) * h.x + fabsf(ay.x) * h.y + fabsf(az.x) * h.z,
                 fabsf(ax.y) * h.x + fabsf(ay.y) * h.y + fabsf(az.y) * h.z,
                 fabsf(ax.z) * h.x + fabsf(ay.z) * h.y + fabsf(az.z) * h.z);
}

/* sqrt(1 - a^2) for |a| <= 1, clamped against rounding. */
CC_HD float cc_bounds_sin_of(float a) { return sqrtf(cc_maxf(0.0f, 1.0f - a * a)); }

/* World AABB of one shape at world pose xf, grown by `expand` on every side.
 * `hull` is the shape's hull for convex hulls (unused otherwise).
 * An infinite plane is the half-space below it: unbounded except on an axis
 * its normal is aligned with, where it stops at the surface. A finite plane
 * is the half-space under its rectangle: bounded by the rectangle across
 * the normal, open below it. */
CC_HD cc_aabb cc_shape_aabb(int type, cc_vec3 size, cc_transform xf, float expand,
                            const cc_hull_desc* hull)
{
    cc_vec3 c = xf.p, e;
    switch (type) {
    case CC_SHAPE_CYLINDER: {
        /* A disk of radius r with unit normal a spans r*sqrt(1 - a_k^2) on axis k. */
        cc_vec3 a = cc_q_rotate(xf.q, cc_v3(0.0f, 0.0f, 1.0f));
        e = cc_v3(fabsf(a.x) * size.y + size.x * cc_bounds_sin_of(a.x),
                  fabsf(a.y) * size.y + size.x * cc_bounds_sin_of(a.y),
                  fabsf(a.z) * size.y + size.x * cc_bounds_sin_of(a.z));
        break;
    }
    case CC_SHAPE_CONE: {
        /* Union of the base disk and the apex. */
        cc_vec3 a = cc_q_rotate(xf.q, cc_v3(0.0f, 0.0f, 1.0f));
        cc_vec3 base = cc_v3_madd(c, a, -size.y), apex = cc_v3_madd(c, a, size.y);
        cc_vec3 r = cc_v3(size.x * cc_bounds_sin_of(a.x), size.x * cc_bounds_sin_of(a.y),
                          size.x * cc_bounds_sin_of(a.z));
        cc_vec3 grow = cc_v3(expand, expand, expand);
        cc_aabb box;
        box.lower = cc_v3_sub(cc_v3_min(cc_v3_sub(base, r), apex), grow);
        box.upper = cc_v3_add(cc_v3_max(cc_v3_add(base, r), apex), grow);
        return box;
    }
    case CC_SHAPE_ELLIPSOID: {
        /* Extent on axis k: |row k of R * diag(size)|. */
        cc_vec3 ax, ay, az;
        cc_q_axes(xf.q, &ax, &ay, &az);
        cc_vec3 sx = cc_v3_scale(ax, size.x), sy = cc_v3_scale(ay, size.y), sz = cc_v3_scale(az, size.z);
        e = cc_v3(sqrtf(sx.x * sx.x + sy.x * sy.x + sz.x * sz.x), sqrtf(sx.y * sx.y + sy.y * sy.y + sz.y * sz.y),
                  sqrtf(sx.z * sx.z + sy.z * sy.z + sz.z * sz.z));
        break;
    }
    case CC_SHAPE_CONVEX_HULL: {
        /* The hull's local box, scaled, then rotated. */
        cc_vec3 lo = cc_v3_mul(hull->lower, size), hi = cc_v3_mul(hull->upper, size);
        c = cc_tf_point(xf, cc_v3_scale(cc_v3_add(lo, hi), 0.5f));
        e = cc_rotated_box_extent(xf.q, cc_v3_scale(cc_v3_sub(hi, lo), 0.5f));
        break;
    }
    case CC_SHAPE_SPHERE:
        e = cc_v3(size.x, size.x, size.x);
        break;
    case CC_SHAPE_CAPSULE: {
        cc_vec3 axis = cc_v3_abs(cc_q_rotate(xf.q, cc_v3(0.0f, 0.0f, size.y)));
        e = cc_v3_add(axis, cc_v3(size.x, size.x, size.x));
        break;
    }
    case CC_SHAPE_BOX:
        e = cc_rotated_box_extent(xf.q, size);
        break;
    case CC_SHAPE_PLANE:
        if (!cc_plane_is_infinite(size)) {
            /* The solid under the rectangle reaches down without limit, so
             * the box is open on the side each normal component points away
             * from. */
            cc_vec3 n = cc_q_rotate(xf.q, cc_v3(0.0f, 0.0f, 1.0f));
            cc_vec3 r = cc_v3_add(cc_rotated_box_extent(xf.q, cc_v3(size.x, size.y, 0.0f)),
                                  cc_v3(expand, expand, expand));
            cc_aabb box;
            box.lower = cc_v3_sub(c, r);
            box.upper = cc_v3_add(c, r);
            if (n.x > 1.0e-6f) box.lower.x = -CC_AABB_UNBOUNDED;
            if (n.x < -1.0e-6f) box.upper.x = CC_AABB_UNBOUNDED;
            if (n.y > 1.0e-6f) box.lower.y = -CC_AABB_UNBOUNDED;
            if (n.y < -1.0e-6f) box.upper.y = CC_AABB_UNBOUNDED;
            if (n.z > 1.0e-6f) box.lower.z = -CC_AABB_UNBOUNDED;
            if (n.z < -1.0e-6f) box.upper.z = CC_AABB_UNBOUNDED;
            return box;
        } else {
            cc_aabb box;
            cc_vec3 n = cc_q_rotate(xf.q, cc_v3(0.0f, 0.0f, 1.0f));
            float lo[3] = {-CC_AABB_UNBOUNDED, -CC_AABB_UNBOUNDED, -CC_AABB_UNBOUNDED};
            float hi[3] = {CC_AABB_UNBOUNDED, CC_AABB_UNBOUNDED, CC_AABB_UNBOUNDED};
            float nc[3] = {n.x, n.y, n.z}, pc[3] = {c.x, c.y, c.z};
            for (int k = 0; k < 3; ++k) {
                /* |n_k| == 1 within rounding: the surface is the plane x_k = p_k. */
                if (nc[k] > 0.999999f) hi[k] = pc[k] + expand;
                if (nc[k] < -0.999999f) lo[k] = pc[k] - expand;
            }
            box.lower = cc_v3(lo[0], lo[1], lo[2]);
            box.upper = cc_v3(hi[0], hi[1], hi[2]);
            return box;
        }
    default:
        e = cc_v3(0.0f, 0.0f, 0.0f);
        break;
    }
    e = cc_v3_add(e, cc_v3(expand, expand, expand));
    cc_aabb box;
    box.lower = cc_v3_sub(c, e);
    box.upper = cc_v3_add(c, e);
    return box;
}

/* World AABB of a local box [lo, hi] at pose xf, grown by `expand`. */
CC_HD cc_aabb cc_local_box_aabb(cc_vec3 lo, cc_vec3 hi, cc_transform xf, float expand)
{
    cc_vec3 c = cc_tf_point(xf, cc_v3_scale(cc_v3_add(lo, hi), 0.5f));
    cc_vec3 e = cc_v3_add(cc_rotated_box_extent(xf.q, cc_v3_scale(cc_v3_sub(hi, lo), 0.5f)),
                          cc_v3(expand, expand, expand));
    cc_aabb box;
    box.lower = cc_v3_sub(c, e);
    box.upper = cc_v3_add(c, e);
    return box;
}

/* Meshes: the mesh's local bounds scaled per axis. Heightfields: the grid's
 * x/y extent and the samples' range times the vertical scale, reaching
 * down by the footprint's diagonal, since the ground under the surface is
 * solid (cc_surface_reach): a shape sunk below it still meets it. */
CC_HD cc_aabb cc_pooled_shape_aabb(const cc_model_view* m, int type, int source, cc_vec3 size,
                                   cc_transform xf, float expand)
{
    cc_vec3 lo, hi;
    if (type == CC_SHAPE_MESH) {
        const cc_mesh_desc* d = &m->meshes[source];
        lo = cc_v3_mul(d->lower, size);
        hi = cc_v3_mul(d->upper, size);
    } else {
        const cc_hfield_desc* d = &m->hfields[source];
        lo = cc_v3(-size.x, -size.y, d->min_height * size.z - 2.0f * sqrtf(size.x * size.x + size.y * size.y));
        hi = cc_v3(size.x, size.y, d->max_height * size.z);
    }
    return cc_local_box_aabb(lo, hi, xf, expand);
}

/* Shape s's smallest half extent [m]: how deep another may sink into it
 * before passing its middle. Planes, heightfields and open meshes have no
 * thickness (3e38: the other shape decides). */
CC_HD float cc_shape_smallest_half_extent(const cc_model_view* m, int s)
{
    const cc_shape_geometry* g = &m->shape_geom[s];
    cc_vec3 z = g->size, lo, hi;
    switch (g->type) {
    case CC_SHAPE_SPHERE:
    case CC_SHAPE_CAPSULE:
        return z.x;
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE:
        return cc_minf(z.x, z.y);
    case CC_SHAPE_BOX:
    case CC_SHAPE_ELLIPSOID:
        return cc_minf(z.x, cc_minf(z.y, z.z));
    case CC_SHAPE_CONVEX_HULL:
        lo = m->hulls[m->shape_source[s]].lower, hi = m->hulls[m->shape_source[s]].upper;
        break;
    case CC_SHAPE_MESH:
        if (!m->meshes[m->shape_source[s]].watertight) return 3.0e38f;
        lo = m->meshes[m->shape_source[s]].lower, hi = m->meshes[m->shape_source[s]].upper;
        break;
    default:
        return 3.0e38f;
    }
    return 0.5f * cc_minf((hi.x - lo.x) * z.x, cc_minf((hi.y - lo.y) * z.y, (hi.z - lo.z) * z.z));
}

/* Shape i's AABB at world pose xf, grown by its bounds pad. */
CC_HD cc_aabb cc_shape_world_aabb(const cc_model_view* m, int i, cc_transform xf)
{
    cc_shape_geometry g = m->shape_geom[i];
    if (g.type == CC_SHAPE_MESH || g.type == CC_SHAPE_HEIGHTFIELD)
        return cc_pooled_shape_aabb(m, g.type, m->shape_source[i], g.size, xf, m->shape_bounds_pad[i]);
    const cc_hull_desc* hull = g.type == CC_SHAPE_CONVEX_HULL ? &m->hulls[m->shape_source[i]] : 0;
    return cc_shape_aabb(g.type, g.size, xf, m->shape_bounds_pad[i], hull);
}

/* Per-thread body: shape i's world pose and expanded AABB (and, with
 * speculation, its reach, by which the box grows too). In the time-of-
 * impact mode a fast shape (contacts/sweep.h) sweeps: its box covers its
 * motion over the horizon instead, grown by a scheduled pass's reserve
 * alone, and its reach serves the mesh and heightfield pairs, which keep
 * the gap; slower shapes are treated as in the gap mode. */
CC_HD void cc_shape_bounds_thread(int i, const cc_model_view* m, const cc_transform* body_pose,
                                  const cc_speculation_view* spec, cc_speculation_view* published,
                                  cc_transform* shape_pose, cc_aabb* aabb)
{
    if (i == 0 && spec->linear) *published = *spec; /* for the later stages (contacts/speculation.h) */
    cc_shape_geometry g = m->shape_geom[i];
    cc_transform xf = m->shape_local[i];
    if (g.body >= 0) xf = cc_tf_mul(body_pose[g.body], xf);
    shape_pose[i] = xf;
    cc_aabb box = cc_shape_world_aabb(m, i, xf);
    if (spec->linear) {
        int moves = g.body >= 0 && !m->body_static[g.body];
        float reach = moves ? cc_shape_reach(spec, g.body, box.lower, box.upper) : 0.0f;
        spec->shape_reach[i] = reach;
        if (spec->toi) {
            cc_shape_motion motion = cc_shape_motion_of(spec, g.body, moves, xf.p, box.lower, box.upper);
            int fast = cc_shape_is_fast(&motion, spec->shape_thin[i]);
            spec->shape_sweep[i] = fast ? motion.sweep : 0.0f;
            spec->partner_head[i] = -1;
            if (fast) {
                cc_atomic_add_i32(spec->fast_shapes, 1);
                cc_swept_box(&motion, &box.lower, &box.upper);
                reach = cc_minf(cc_speculation_reserve(spec), spec->gap_max);
            }
        }
        box.lower = cc_v3_sub(box.lower, cc_v3(reach, reach, reach));
        box.upper = cc_v3_add(box.upper, cc_v3(reach, reach, reach));
    }
    aabb[i] = box;
}

#endif
