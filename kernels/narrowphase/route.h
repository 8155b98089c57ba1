/* Narrow-phase routes. A candidate pair is stored with the lower shape type
 * first; its route is (type_a, type_b) flattened, so that grouping pairs by
 * route puts pairs running the same routine next to each other. */
#ifndef CC_KERNELS_NARROWPHASE_ROUTE_H
#define CC_KERNELS_NARROWPHASE_ROUTE_H

#include "kernels/math/vec3.h"

#define CC_ROUTE_COUNT (CC_SHAPE_TYPE_COUNT * CC_SHAPE_TYPE_COUNT)

CC_HD int cc_route_of(int type_a, int type_b) { return type_a * CC_SHAPE_TYPE_COUNT + type_b; }

CC_HD int cc_plane_is_infinite(cc_vec3 size) { return !(size.x > 0.0f) || !(size.y > 0.0f); }

/* Plane, the primitives and convex hulls: the types GJK/MPR and the
 * analytic routines cover. */
CC_HD int cc_type_is_convex(int t) { return t >= CC_SHAPE_PLANE && t <= CC_SHAPE_CONVEX_HULL; }

/* SDFs are reserved and have no route yet. */
CC_HD int cc_type_has_route(int t) { return t >= CC_SHAPE_PLANE && t <= CC_SHAPE_HEIGHTFIELD; }

/* Whether this build has a routine for the pair. Two infinite planes never
 * touch in a useful way and produce nothing; heightfields are static
 * ground, so planes and other heightfields have nothing to say to them. */
CC_HD int cc_route_exists(int ta, cc_vec3 sa, int tb, cc_vec3 sb)
{
    if (!cc_type_has_route(ta) || !cc_type_has_route(tb)) return 0;
    if (ta == CC_SHAPE_PLANE && tb == CC_SHAPE_PLANE)
        return !cc_plane_is_infinite(sa) || !cc_plane_is_infinite(sb);
    if (tb == CC_SHAPE_HEIGHTFIELD && (ta == CC_SHAPE_PLANE || ta == CC_SHAPE_HEIGHTFIELD)) return 0;
    if (ta == CC_SHAPE_HEIGHTFIELD && tb == CC_SHAPE_PLANE) return 0;
    return 1;
}

#endif
