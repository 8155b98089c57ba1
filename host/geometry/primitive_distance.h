/* Exact signed distances to primitives and convex hulls in their own frame
 * (negative inside), for building their SDFs: no meshing, no sampling. */
#ifndef CC_HOST_GEOMETRY_PRIMITIVE_DISTANCE_H
#define CC_HOST_GEOMETRY_PRIMITIVE_DISTANCE_H

#include "host/geometry/hull_build.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A primitive as the distance sees it: its type and size (cc_shape_type's
 * conventions), and for a hull its data and the shape's per-axis scale
 * (size). */
typedef struct cc_primitive {
    int type;
    cc_vec3 size;
    const cc_hull_data* hull;
} cc_primitive;

/* Signed distance from p to the primitive's surface [m]. */
double cc_primitive_distance(const cc_primitive* s, cc_vec3 p);

/* Bounds of the primitive in its frame. */
void cc_primitive_bounds(const cc_primitive* s, cc_vec3* lower, cc_vec3* upper);

#ifdef __cplusplus
}
#endif

#endif
