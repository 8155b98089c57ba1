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

/* Route classes, each run by its own CUDA kernel (cuda/narrowphase/) and
 * CPU loop (host/backend/cpu/), so that the light analytic routines keep
 * their registers and occupancy and never pull the GJK/MPR stack in:
 *   ANALYTIC: pairs among planes, spheres, capsules and boxes, except
 *             capsule-box;
 *   CONVEX:   every other convex pair (GJK/MPR), the plane against round
 *             shapes and hulls, and capsule-box, whose analytic routine
 *             hands deep diagonal crossings to the convex query;
 *   MESH:     pairs with a mesh or heightfield, run by the mesh stages
 *             (mesh/midphase.h). */
#define CC_ROUTE_CLASS_ANY (-1)
#define CC_ROUTE_CLASS_ANALYTIC 0
#define CC_ROUTE_CLASS_CONVEX 1
#define CC_ROUTE_CLASS_MESH 2

#define CC_ROUTE_CAPSULE_BOX (CC_SHAPE_CAPSULE * CC_SHAPE_TYPE_COUNT + CC_SHAPE_BOX)

CC_HD int cc_route_class(int route)
{
    int ta = route / CC_SHAPE_TYPE_COUNT, tb = route % CC_SHAPE_TYPE_COUNT;
    if (tb >= CC_SHAPE_MESH || ta >= CC_SHAPE_MESH) return CC_ROUTE_CLASS_MESH;
    if (route == CC_ROUTE_CAPSULE_BOX) return CC_ROUTE_CLASS_CONVEX;
    return ta <= CC_SHAPE_BOX && tb <= CC_SHAPE_BOX ? CC_ROUTE_CLASS_ANALYTIC : CC_ROUTE_CLASS_CONVEX;
}

#endif
