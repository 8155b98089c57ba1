/* What a narrow-phase pair routine produces: up to CC_MANIFOLD_MAX_POINTS
 * contact points sharing one normal, measured between the shapes' cores.
 *
 * A shape's core is the shape without its effective radius: the centre of a
 * sphere, the segment of a capsule, the solid box, the plane. For every
 * point the routine reports the midpoint between the two closest core
 * features and their signed distance along the normal (negative when the
 * cores overlap), so that the core points are
 *     on A: point - normal * distance/2,   on B: point + normal * distance/2.
 * The contact writer subtracts effective radii and margins from there. */
#ifndef CC_KERNELS_NARROWPHASE_MANIFOLD_H
#define CC_KERNELS_NARROWPHASE_MANIFOLD_H

#include "kernels/shapes/hull.h"
#include "kernels/math/transform.h"

/* The largest per-pair count in the reference's primitive table. */
#define CC_MANIFOLD_MAX_POINTS 5

typedef struct cc_manifold {
    int count;
    cc_vec3 normal;                         /* world unit vector, shape A -> shape B */
    cc_vec3 point[CC_MANIFOLD_MAX_POINTS];  /* world midpoints between the cores [m] */
    float distance[CC_MANIFOLD_MAX_POINTS]; /* signed core distance along normal [m] */
} cc_manifold;

/* World pose and size of one shape, as the pair routines see it. `size`
 * follows the cc_shape_type comments (sphere radius in x, capsule radius and
 * half height in x and y, box half extents, plane half extents or zeros;
 * cylinder and cone radius and half height; ellipsoid semi-axes; hull
 * scale). */
typedef struct cc_geom {
    cc_transform xf;
    cc_vec3 size;
    cc_hull_ref hull; /* convex hulls only */
} cc_geom;

/* Appends a point when its core distance is within the threshold. */
CC_HD void cc_manifold_add(cc_manifold* m, cc_vec3 point, float distance, float threshold)
{
    if (m->count < CC_MANIFOLD_MAX_POINTS && distance <= threshold) {
        m->point[m->count] = point;
        m->distance[m->count] = distance;
        m->count++;
    }
}

/* Appends the contact between core point pa on A and core point pb on B:
 * midpoint and signed distance along the manifold normal. */
CC_HD void cc_manifold_add_pair(cc_manifold* m, cc_vec3 pa, cc_vec3 pb, float threshold)
{
    float d = cc_v3_dot(cc_v3_sub(pb, pa), m->normal);
    cc_manifold_add(m, cc_v3_scale(cc_v3_add(pa, pb), 0.5f), d, threshold);
}

#endif
