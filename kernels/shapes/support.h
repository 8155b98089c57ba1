/* Convex shapes as support maps, for GJK, MPR and the manifold builder.
 *
 * Every convex type is described by its core (narrowphase/manifold.h): a sphere is its
 * centre and a capsule its segment, the effective radius being added by the
 * contact writer; boxes, cylinders, cones, ellipsoids and hulls are their
 * own core. The support point of a core in direction d is a point of the
 * core maximising dot(x, d).
 *
 * Positions are taken relative to a per-pair origin (the first shape's
 * centre), so that float rounding scales with the pair's size rather than
 * with its distance from the world origin. */
#ifndef CC_KERNELS_SHAPES_SUPPORT_H
#define CC_KERNELS_SHAPES_SUPPORT_H

#include "kernels/narrowphase/manifold.h"
#include "kernels/math/frame.h"

typedef struct cc_convex {
    int type;
    cc_vec3 size;     /* as in cc_shape_type */
    cc_frame f;       /* pose, origin relative to the pair origin */
    cc_hull_ref hull; /* convex hulls only */
    float extent;     /* half the shape's largest dimension, radius included [m] */
} cc_convex;

/* +1 or -1 by the sign bit: a bit operation, branch-free (support points
 * of boxes and caps are in the innermost loop of GJK and MPR). */
CC_HD float cc_sign_or_plus(float x) { return copysignf(1.0f, x); }

/* Half the largest dimension of a shape (used to scale tolerances). */
CC_HD float cc_convex_extent_of(int type, cc_vec3 s, const cc_hull_ref* hull)
{
    switch (type) {
    case CC_SHAPE_SPHERE: return s.x;
    case CC_SHAPE_CAPSULE: return s.x + s.y;
    case CC_SHAPE_BOX: return cc_v3_length(s);
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: return sqrtf(s.x * s.x + s.y * s.y);
    case CC_SHAPE_ELLIPSOID: return cc_maxf(s.x, cc_maxf(s.y, s.z));
    case CC_SHAPE_CONVEX_HULL: {
        /* A uniform scale scales the stored radius; a large hull is not
         * worth a pass over its vertices per pair. */
        if (hull->graph && s.x == s.y && s.y == s.z)
            return s.x * hull->radius;
        float e = 0.0f;
        for (int i = 0; i < hull->vertex_count; ++i)
            e = cc_maxf(e, cc_v3_length_sq(cc_v3_mul(cc_v3_sub(hull->vertices[i], hull->center), s)));
        return sqrtf(e);
    }
    default: return 0.0f;
    }
}

CC_HD cc_convex cc_convex_of(const cc_geom* g, int type, cc_vec3 origin)
{
    cc_convex c;
    c.type = type;
    c.size = g->size;
    c.f = cc_frame_of(g->xf);
    c.f.o = cc_v3_sub(c.f.o, origin);
    c.hull = g->hull;
    c.extent = cc_convex_extent_of(type, g->size, &g->hull);
    return c;
}

/* The hull vertex highest along d. A hull without a graph (a small one,
 * cc_hull_ref_of) tests every vertex (the first of equals is kept). A
 * large one climbs its vertex graph from the seed of d's bin, moving to
 * the first neighbour that is higher until none is: on a convex polytope a vertex no neighbour rises
 * above is highest overall, so the climb ends at the support vertex in a
 * few steps. The hull builder merges faces coplanar within
 * CC_HULL_FLAT_TOLERANCE of the hull's diagonal, so a merged polygon's
 * corners may stand that far off its plane and the vertex a climb ends on
 * may be lower than the highest by as much. Every move rises strictly, so
 * the climb ends (a NaN d stays where it starts). The scan and the climb
 * share one loop: this is inlined in every support map of every GJK/MPR
 * kernel, where registers are short. */
CC_HD int cc_hull_support_vertex(const cc_hull_ref* h, cc_vec3 d)
{
    const cc_vec3* v = h->vertices;
    const int* g = h->graph;
    int cur = g ? g[cc_hull_seed_of(d)] : 0;
    float cur_dot = cc_v3_dot(v[cur], d);
    /* Candidates: the next vertices of cur's corners, or the vertices after
     * the first. */
    int k = g ? g[CC_HULL_SEEDS + cur] : 1;
    int end = g ? g[CC_HULL_SEEDS + cur + 1] : h->vertex_count;
    while (k < end) {
        int w = g ? g[k] : k;
        float t = cc_v3_dot(v[w], d);
        if (t > cur_dot) {
            cur = w;
            cur_dot = t;
            if (g) {
                k = g[CC_HULL_SEEDS + w];
                end = g[CC_HULL_SEEDS + w + 1];
                continue;
            }
        }
        ++k;
    }
    return cur;
}

/* Support point of the core in the shape frame, for a local direction d
 * (any length; a zero d gives some point of the core). */
CC_HD cc_vec3 cc_support_local(const cc_convex* c, cc_vec3 d)
{
    cc_vec3 s = c->size;
    switch (c->type) {
    case CC_SHAPE_CAPSULE: return cc_v3(0.0f, 0.0f, cc_sign_or_plus(d.z) * s.y);
    case CC_SHAPE_BOX:
        return cc_v3(cc_sign_or_plus(d.x) * s.x, cc_sign_or_plus(d.y) * s.y, cc_sign_or_plus(d.z) * s.z);
    case CC_SHAPE_CYLINDER: {
        float r = sqrtf(d.x * d.x + d.y * d.y);
        float k = r > 0.0f ? s.x / r : 0.0f;
        return cc_v3(d.x * k, d.y * k, cc_sign_or_plus(d.z) * s.y);
    }
    case CC_SHAPE_CONE: {
        /* The apex or the base rim point in d's radial direction. */
        float r = sqrtf(d.x * d.x + d.y * d.y);
        if (d.z * s.y >= s.x * r - d.z * s.y) return cc_v3(0.0f, 0.0f, s.y);
        float k = r > 0.0f ? s.x / r : 0.0f;
        return cc_v3(d.x * k, d.y * k, -s.y);
    }
    case CC_SHAPE_ELLIPSOID: {
        /* x = A^2 d / |A d| with A = diag(semi-axes). */
        cc_vec3 ad = cc_v3_mul(s, d);
        float len = cc_v3_length(ad);
        if (!(len > 0.0f)) return cc_v3(0.0f, 0.0f, s.z);
        return cc_v3_scale(cc_v3_mul(s, ad), 1.0f / len);
    }
    case CC_SHAPE_CONVEX_HULL: {
        /* Scaling the hull by S: max over v of (S v).d = max of v.(S d). */
        cc_vec3 sd = cc_v3_mul(s, d);
        return cc_v3_mul(c->hull.vertices[cc_hull_support_vertex(&c->hull, sd)], s);
    }
    default: /* sphere: its centre */
        return cc_v3(0.0f, 0.0f, 0.0f);
    }
}

/* Support point in pair coordinates for a direction in pair coordinates. */
CC_HD cc_vec3 cc_support(const cc_convex* c, cc_vec3 d)
{
    return cc_frame_point_out(&c->f, cc_support_local(c, cc_frame_vector_in(&c->f, d)));
}

/* Height of c's support point along d (its largest x.d), with the point in
 * c's own frame: a separation needs no more, and only the points of the
 * directions kept are moved to pair coordinates. */
CC_HD float cc_support_height(const cc_convex* c, cc_vec3 d, cc_vec3* local)
{
    cc_vec3 dl = cc_frame_vector_in(&c->f, d);
    *local = cc_support_local(c, dl);
    return cc_v3_dot(*local, dl) + cc_v3_dot(c->f.o, d);
}

/* A point strictly inside the core (or the core itself when it is a point
 * or a segment), in pair coordinates. */
CC_HD cc_vec3 cc_convex_center(const cc_convex* c)
{
    if (c->type == CC_SHAPE_CONVEX_HULL) return cc_frame_point_out(&c->f, cc_v3_mul(c->hull.center, c->size));
    return c->f.o;
}

#endif
