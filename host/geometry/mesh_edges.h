/* The edges of a mesh that its SDF contacts query (kernels/mesh/sdf_contacts.h),
 * after dropping those no other surface can touch first. */
#ifndef CC_HOST_GEOMETRY_MESH_EDGES_H
#define CC_HOST_GEOMETRY_MESH_EDGES_H

#include "host/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Edge boxes (absorb nonzero): the box of a manifold edge spans the edge
 * along it, `half_lateral` either side across it in the surface and
 * `half_normal` either side along its triangles' mean normal [m]. A
 * manifold edge lying wholly inside the box of another kept edge adds
 * nothing that edge's search does not find on a densely tessellated curved
 * surface, and is dropped. Longer edges absorb first; an absorbed edge
 * absorbs nothing, so the result does not depend on the input order. */
typedef struct cc_edge_boxes {
    int absorb;
    float half_normal, half_lateral;
} cc_edge_boxes;

/* Every edge of the mesh once, as two vertex indices (lower first), in
 * ascending order, less:
 *  - manifold edges (two triangles) whose triangles meet within
 *    `flat_angle` [rad] of flat (flat_angle <= 0 keeps them all): the face
 *    on either side already holds any contact there;
 *  - with `concave_filter`, concave manifold edges whose two ends are
 *    fully concave: every neighbour of the end lies on or above its
 *    angle-weighted tangent plane, one strictly above, and the end's
 *    edges are all manifold;
 *  - with boxes->absorb, manifold edges inside another's box (above;
 *    boxes may be NULL).
 * Open edges and edges of three or more triangles are always kept. On
 * success *out_edges (2 * *out_count ints, cc_host_alloc) is new. */
cc_status cc_mesh_collision_edges(const cc_vec3* vertices, int vertex_count, const int* triangles, int triangle_count,
                                  float flat_angle, int concave_filter, const cc_edge_boxes* boxes, int** out_edges,
                                  int* out_count);

#ifdef __cplusplus
}
#endif

#endif
