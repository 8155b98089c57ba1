/* Triangle meshes and heightfields as kernels see them: flat pools shared by
 * every shape that uses them (and by every replicated world), like the
 * convex hulls of shapes/hull.h.
 *
 * A mesh's vertices are in its own frame; a shape scales them per axis by
 * its size. Triangles are three vertex indices, counter-clockwise seen from
 * outside, absolute into the vertex pool.
 *
 * A heightfield is a grid of rows x cols samples, row-major: row r lies at
 * y = -size.y + 2 size.y r / (rows - 1), column c at
 * x = -size.x + 2 size.x c / (cols - 1), and the surface at z = sample * size.z
 * (size of the shape). Heightfields are static. */
#ifndef CC_KERNELS_SHAPES_MESH_H
#define CC_KERNELS_SHAPES_MESH_H

#include "kernels/math/vec3.h"

typedef struct cc_mesh_triangle {
    int v[3]; /* absolute indices into the mesh vertex pool */
} cc_mesh_triangle;

typedef struct cc_mesh_edge {
    int v[2]; /* absolute indices into the mesh vertex pool */
} cc_mesh_edge;

/* SDF contacts walk a mesh's features (vertex v is feature v, kept edge e
 * feature vertex_count + e) in the order of mesh_feature_order: the
 * vertices along a Morton curve, each followed by the edges whose later
 * end it is. They go in chunks of CC_MESH_FEATURE_CHUNK: each chunk is
 * compact and has a ball around its points (mesh frame, unscaled), so that
 * chunks far from the other surface are never queried. */
#define CC_MESH_FEATURE_CHUNK 16
typedef struct cc_feature_ball {
    cc_vec3 centre;
    float radius;
} cc_feature_ball;

/* One mesh: ranges into the vertex, triangle and BVH pools (mesh/bvh.h). The
 * BVH's leaf slots (bvh_prims) run parallel to the triangles, from
 * triangle_first, and name triangles relative to triangle_first. */
typedef struct cc_mesh_desc {
    int vertex_first, vertex_count;
    int triangle_first, triangle_count;
    int node_first, node_count; /* BVH nodes; node_first is the root */
    int edge_first, edge_count; /* the edges SDF contacts query (mesh_edges) */
    int ball_first;             /* balls of its feature chunks (mesh_feature_balls) */
    int order_first;            /* its features in walking order (mesh_feature_order) */
    int watertight;             /* every edge shared by two opposite triangles */
    cc_vec3 lower, upper;       /* bounds of the vertices, mesh frame [m] */
} cc_mesh_desc;

/* One heightfield: its range in the sample pool and its extreme samples. */
typedef struct cc_hfield_desc {
    int sample_first;
    int rows, cols;
    float min_height, max_height; /* unscaled samples */
} cc_hfield_desc;

#endif
