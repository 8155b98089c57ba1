/* Narrow phase for a sphere against a sphere, a capsule or a box.
 *
 * A sphere's core is its centre; the radius is left to the contact writer.
 * Each routine emits at most one point: the midpoint between the centre and
 * the closest point of the other core, with the signed core distance along
 * the normal (sphere -> other shape). See narrowphase/manifold.h for the conventions. */
#ifndef CC_KERNELS_NARROWPHASE_SPHERE_H
#define CC_KERNELS_NARROWPHASE_SPHERE_H

#include "kernels/math/closest_points.h"
#include "kernels/narrowphase/manifold.h"
#include "kernels/math/frame.h"

/* Centre to centre. Coincident centres fall back to +z (distance 0). */
CC_HD void cc_collide_sphere_sphere(const cc_geom* a, const cc_geom* b, float threshold,
                                    cc_manifold* m)
{
    cc_vec3 ca = a->xf.p, cb = b->xf.p;
    m->count = 0;
    m->normal = cc_normalize_or(cc_v3_sub(cb, ca), cc_v3(0.0f, 0.0f, 1.0f));
    cc_manifold_add_pair(m, ca, cb, threshold);
}

/* Centre to the closest point of the capsule segment, in coordinates
 * relative to the capsule centre (translation-invariant rounding). A centre
 * on the segment (within rounding: CC_GEOM_REL_TOL of the sizes involved)
 * falls back to the capsule's local x axis, perpendicular to the segment
 * (on the side of what remains of q - c), since rounding noise in q - c
 * has no meaningful direction there. */
CC_HD void cc_collide_sphere_capsule(const cc_geom* a, const cc_geom* b, float threshold,
                                     cc_manifold* m)
{
    /* In the capsule's frame the segment is the z axis, so the offset from
     * the centre to its closest point is exact in x and y: no cancellation
     * when the centre lies close to the segment. */
    cc_frame f = cc_frame_of(b->xf);
    cc_vec3 c = cc_frame_point_in(&f, a->xf.p);
    float h = b->size.y;
    cc_vec3 q = cc_v3(0.0f, 0.0f, cc_clampf(c.z, -h, h));
    cc_vec3 diff = cc_v3_sub(q, c);
    float dist = cc_v3_length(diff);
    cc_vec3 ac = cc_v3_abs(c);
    float tol = CC_GEOM_REL_TOL * (fabsf(h) + ac.x + ac.y + ac.z);
    m->count = 0;
    cc_vec3 fallback = diff.x < 0.0f ? cc_v3(-1.0f, 0.0f, 0.0f) : cc_v3(1.0f, 0.0f, 0.0f);
    cc_vec3 nl = dist > tol && dist > CC_EPSILON_LENGTH ? cc_v3_scale(diff, 1.0f / dist) : fallback;
    m->normal = cc_frame_vector_out(&f, nl);
    cc_vec3 mid = cc_frame_point_out(&f, cc_v3_scale(cc_v3_add(c, q), 0.5f));
    cc_manifold_add(m, mid, cc_v3_dot(diff, nl), threshold);
}

/* Centre to box, in the box frame. Outside: the clamped point is the
 * closest one. Inside (or on the surface): push out through the face of
 * least penetration; the distance is minus that depth and the normal is the
 * inward face normal (pointing from the sphere centre into the box, i.e.
 * from A toward B). */
CC_HD void cc_collide_sphere_box(const cc_geom* a, const cc_geom* b, float threshold,
                                 cc_manifold* m)
{
    cc_vec3 h = b->size;
    cc_frame fb = cc_frame_of(b->xf);
    cc_vec3 c = cc_frame_point_in(&fb, a->xf.p);
    cc_vec3 q = cc_box_closest_point(c, h);
    cc_vec3 diff = cc_v3_sub(q, c);
    float dist = cc_v3_length(diff);
    cc_vec3 n_local;
    m->count = 0;
    if (dist > CC_EPSILON_LENGTH) {
        n_local = cc_v3_scale(diff, 1.0f / dist);
    } else {
        int k;
        float s;
        dist = -cc_box_least_penetration(c, h, &k, &s);
        /* Closest face point: c moved onto face k on side s. */
        q = c;
        q.x = k == 0 ? s * h.x : q.x;
        q.y = k == 1 ? s * h.y : q.y;
        q.z = k == 2 ? s * h.z : q.z;
        n_local = cc_v3(k == 0 ? -s : 0.0f, k == 1 ? -s : 0.0f, k == 2 ? -s : 0.0f);
    }
    m->normal = cc_frame_vector_out(&fb, n_local);
    cc_vec3 mid = cc_frame_point_out(&fb, cc_v3_scale(cc_v3_add(c, q), 0.5f));
    cc_manifold_add(m, mid, dist, threshold);
}

#endif
