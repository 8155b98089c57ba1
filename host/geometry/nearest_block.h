/* Distances from a compact block of points to a mesh's nearest triangles,
 * the triangles gathered once for the whole block.
 *
 * Filling a lattice with exact distances asks the same question for
 * thousands of neighbouring points; a branch and bound per point
 * (cc_bvh_closest_triangle) walks the same nodes again for each, and most
 * of its time goes to proving that no other triangle is nearer. Here one
 * walk gathers every triangle whose box comes within reach of the block,
 * ordered by how far its box lies from the block's centre; each point then
 * measures its distance to all those boxes at once (vector lanes) and
 * computes the triangles' distances, nearest boxes first, only where the
 * box is no farther than the best distance found. The answers are exact to
 * float rounding: the minimum of cc_triangle_distance_sq over every
 * triangle within `limit`. */
#ifndef CC_HOST_GEOMETRY_NEAREST_BLOCK_H
#define CC_HOST_GEOMETRY_NEAREST_BLOCK_H

#include "kernels/mesh/bvh.h"
#include "host/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Squared distance from p to triangle abc, from its Voronoi regions (dot
 * products and at most one division; no closest point), in double so that
 * slivers and needles keep it. */
float cc_triangle_distance_sq(cc_vec3 p, cc_vec3 a, cc_vec3 b, cc_vec3 c);

/* Scratch space a thread reuses from block to block. */
typedef struct cc_nearest_scratch {
    struct cc_nearest_candidate* items; /* as gathered */
    float* bounds;                      /* binned: 6 rows of capacity, lower x, y, z then upper x, y, z */
    float* gap;                         /* a point's squared distance to each box */
    int* triangle;                      /* binned */
    int capacity;
} cc_nearest_scratch;
void cc_nearest_scratch_free(cc_nearest_scratch* s);

/* For each of the `count` points, the distance to the nearest triangle of
 * the mesh (BVH nodes and prims over `triangles`, 3 vertex indices each)
 * when it is at most `limit`, else `limit` (cc_bvh_closest_triangle's
 * convention for max_distance). `radius` bounds every point's distance to
 * its nearest triangle where the caller knows one (pass `limit` where it
 * does not): triangles farther than it from all the points are not
 * gathered. Returns CC_OK, or CC_ERR_OUT_OF_MEMORY when the scratch cannot
 * grow. */
cc_status cc_nearest_block(const cc_bvh_node* nodes, const int* prims, const cc_vec3* vertices, const int* triangles,
                           const cc_vec3* points, int count, float limit, float radius, cc_nearest_scratch* scratch,
                           float* distance);

#ifdef __cplusplus
}
#endif

#endif
