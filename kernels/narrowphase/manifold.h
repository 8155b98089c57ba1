/* What a narrow-phase pair routine produces: up to CC_MANIFOLD_MAX_POINTS
 * contact points sharing one normal, measured between the shapes' cores.
 *
 * A shape's core is the shape without its effective radius: the centre of a
 * sphere, the segment of a capsule, the solid box, the plane. For every
 * point the routine reports the midpoint between the two closest core
 * features and their signed distance along the normal (negative when the
 * cores overlap), so that the core points are
 *     on A: point - normal * distance/2,   on B: point + normal * distance/2.
 * The contact writer subtracts effective radii and margins from there.
 * `offset` is the core point on B minus the core point on A, so that
 *     on A: point - offset/2,   on B: point + offset/2;
 * it is normal * distance where both lie on one line along the normal (the
 * analytic routines, clipped features), and differs from it where an
 * iteration found the normal to within its tolerance: each point then stays
 * exactly on its core and the distance is the normal's own separation. */
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
    cc_vec3 offset[CC_MANIFOLD_MAX_POINTS];   /* core point of B - core point of A [m] */
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

/* Appends a point whose core points lie on one normal line, when its core
 * distance is within the threshold. */
CC_HD void cc_manifold_add(cc_manifold* m, cc_vec3 point, float distance, float threshold)
{
    if (m->count < CC_MANIFOLD_MAX_POINTS && distance <= threshold) {
        m->point[m->count] = point;
        m->distance[m->count] = distance;
        m->offset[m->count] = cc_v3_scale(m->normal, distance);
        m->count++;
    }
}

/* Appends the contact between core point pa on A and core point pb on B at
 * the given distance along the manifold normal, keeping both points. */
CC_HD void cc_manifold_add_points(cc_manifold* m, cc_vec3 pa, cc_vec3 pb, float distance, float threshold)
{
    if (m->count < CC_MANIFOLD_MAX_POINTS && distance <= threshold) {
        m->point[m->count] = cc_v3_scale(cc_v3_add(pa, pb), 0.5f);
        m->distance[m->count] = distance;
        m->offset[m->count] = cc_v3_sub(pb, pa);
        m->count++;
    }
}

/* The same with the distance measured between the points. */
CC_HD void cc_manifold_add_pair(cc_manifold* m, cc_vec3 pa, cc_vec3 pb, float threshold)
{
    cc_manifold_add_points(m, pa, pb, cc_v3_dot(cc_v3_sub(pb, pa), m->normal), threshold);
}

/* Whether geometry a comes before b in a fixed order of positions, then
 * orientations, sizes and hulls (two shapes at different places differ in
 * the first comparison). Pairs of one type are computed in this order and
 * mirrored back, so that a pair's contacts never depend on which of its
 * shapes came first. */
CC_HD int cc_geom_precedes(const cc_geom* a, const cc_geom* b)
{
    const float x[10] = {a->xf.p.x, a->xf.p.y, a->xf.p.z, a->xf.q.x, a->xf.q.y, a->xf.q.z, a->xf.q.w,
                         a->size.x, a->size.y, a->size.z};
    const float y[10] = {b->xf.p.x, b->xf.p.y, b->xf.p.z, b->xf.q.x, b->xf.q.y, b->xf.q.z, b->xf.q.w,
                         b->size.x, b->size.y, b->size.z};
    for (int i = 0; i < 10; ++i)
        if (x[i] != y[i]) return x[i] < y[i];
    return a->hull.vertices < b->hull.vertices;
}

/* The manifold of the pair (B, A) from that of (A, B). */
CC_HD void cc_manifold_mirror(cc_manifold* m)
{
    m->normal = cc_v3_neg(m->normal);
    for (int k = 0; k < m->count; ++k) m->offset[k] = cc_v3_neg(m->offset[k]);
}

/* Core points of point k on A and on B. */
CC_HD cc_vec3 cc_manifold_point_a(const cc_manifold* m, int k)
{
    return cc_v3_madd(m->point[k], m->offset[k], -0.5f);
}
CC_HD cc_vec3 cc_manifold_point_b(const cc_manifold* m, int k) { return cc_v3_madd(m->point[k], m->offset[k], 0.5f); }

#endif
