/* Building a triangle mesh's BVH (kernels/mesh/bvh.h) on the host. */
#ifndef CC_HOST_GEOMETRY_BVH_BUILD_H
#define CC_HOST_GEOMETRY_BVH_BUILD_H

#include "kernels/mesh/bvh.h"
#include "host/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Binned SAH builds (16 bins on the longest axis of the triangle centres);
 * object-median splits where SAH finds no split leaving two or more
 * triangles on each side, and wherever SAH could otherwise push a leaf
 * deeper than CC_BVH_MAX_DEPTH. */
#define CC_BVH_BINS 16

/* BVH of `triangle_count` triangles, triangle t having corners
 * vertices[triangles[3t + k]] (k = 0, 1, 2); a cc_mesh_triangle array can be
 * passed as (const int*). On success *out_nodes (*out_node_count nodes, root
 * at 0) and *out_prims (triangle_count entries, the triangle index 0 ..
 * triangle_count - 1 of each leaf slot) are new arrays from cc_host_alloc,
 * released with cc_host_free.
 *
 * Guarantees: node boxes are the exact bounds of their triangles; leaves
 * hold 1..CC_BVH_LEAF_MAX triangles, and at least 2 unless the mesh has a
 * single triangle, so there are at most max(1, triangle_count - 1) nodes
 * (at most 36 bytes per triangle with prims); no leaf is deeper than
 * CC_BVH_MAX_DEPTH. The result depends only on the input. Zero-area and
 * coincident triangles are fine.
 *
 * Rejects, setting no output: a NULL pointer, triangle_count < 1
 * (CC_ERR_INVALID_ARGUMENT), a negative vertex index (CC_ERR_INVALID_ARGUMENT;
 * the caller checks the upper bound, which this function cannot know), a
 * non-finite vertex (CC_ERR_NOT_FINITE), failed allocation
 * (CC_ERR_OUT_OF_MEMORY). */
cc_status cc_mesh_bvh_build(const cc_vec3* vertices, const int* triangles, int triangle_count,
                            cc_bvh_node** out_nodes, int* out_node_count, int** out_prims);

#ifdef __cplusplus
}
#endif

#endif
