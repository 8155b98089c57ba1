/* The edges of a mesh that its SDF contacts query (kernels/mesh/sdf_contacts.h),
 * after dropping those no other surface can touch first. */
#ifndef CC_HOST_GEOMETRY_MESH_EDGES_H
#define CC_HOST_GEOMETRY_MESH_EDGES_H

#include "host/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every edge of the mesh once, as two vertex indices (lower first), in
 * ascending order, less:
 *  - manifold edges (two triangles) whose triangles meet within
 *    `flat_angle` [rad] of flat (flat_angle <= 0 keeps them all): the face
 *    on either side already holds any contact there;
 *  - with `concave_filter`, concave manifold edges whose two ends are
 *    fully concave: every neighbour of the end lies on or above its
 *    angle-weighted tangent plane, one strictly above, and the end's
 *    edges are all manifold.
 * Open edges and edges of three or more triangles are always kept. On
 * success *out_edges (2 * *out_count ints, cc_host_alloc) is new. */
cc_status cc_mesh_collision_edges(const cc_vec3* vertices, int vertex_count, const int* triangles, int triangle_count,
                                  float flat_angle, int concave_filter, int** out_edges, int* out_count);

#ifdef __cplusplus
}
#endif

#endif
