/* Topology checks of triangle meshes on the host. */
#ifndef CC_HOST_GEOMETRY_MESH_TOPOLOGY_H
#define CC_HOST_GEOMETRY_MESH_TOPOLOGY_H

#include "host/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Counts the edges of a mesh that do not have exactly one neighbour
 * running the other way (boundary edges, edges of three or more triangles,
 * and edges two triangles run in the same direction, i.e. inconsistent
 * winding). A mesh is watertight when the count is 0. Returns -1 when out
 * of host memory. */
int64_t cc_mesh_bad_edge_count(const int* triangles, int triangle_count);

/* Neighbourhood flags of every triangle, as mesh/triangle.h reads
 * them: CC_TRI_EDGE_OPEN(k) for an edge without exactly one neighbour,
 * CC_TRI_EDGE_FLAT(k) for an edge whose neighbour continues in the plane
 * or folds up (concave), CC_TRI_VERTEX_OPEN(k) for a vertex on an open
 * edge, and the ownership of face contacts (CC_TRI_EDGE_COPLANAR,
 * CC_TRI_FACE_VERTEX_OWNER). adjacent[3 t + k]: the triangle across edge k
 * of triangle t, -1 where the edge is open or shared by more than two.
 * Returns 0 when out of host memory. */
int cc_mesh_triangle_flags(const cc_vec3* vertices, int vertex_count, const int* triangles, int triangle_count,
                           unsigned* flags, int* adjacent);

#ifdef __cplusplus
}
#endif

#endif
