/* Building a convex hull from a point set on the host (with qhull). */
#ifndef CC_HOST_GEOMETRY_HULL_BUILD_H
#define CC_HOST_GEOMETRY_HULL_BUILD_H

#include "kernels/shapes/hull.h"
#include "host/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A built hull. face[i].first indexes `indices` (0-based within this hull);
 * indices index `vertices`. Owned arrays, released by cc_hull_data_free. */
typedef struct cc_hull_data {
    cc_vec3* vertices;
    int vertex_count;
    cc_hull_face* faces;
    int face_count;
    int* indices;
    int index_count;
    cc_vec3 lower, upper; /* bounds of the vertices */
} cc_hull_data;

/* Points closer than this fraction of the bounding-box diagonal count as
 * one point, and a set thinner than it counts as flat. qhull merges faces
 * that are coplanar within the same distance, so that float noise in the
 * input (a rotated box, say) does not split a face into slivers. */
#define CC_HULL_FLAT_TOLERANCE 1.0e-6

/* Most vertices a hull may keep (and the largest max_vertices accepted). */
#define CC_HULL_VERTEX_LIMIT 4096

/* Convex hull of `points` with at most `max_vertices` vertices (4 ..
 * CC_HULL_VERTEX_LIMIT). When the exact hull has more, it is simplified to
 * a hull of max_vertices of its vertices that keeps the extremes. Rejects,
 * with a message starting with `what` and changing nothing: fewer than 4
 * distinct points, NaN or infinity, all points coplanar (or collinear),
 * an out-of-range max_vertices. Coplanar facets are merged, so a box's
 * corners give 6 quadrilateral faces. */
cc_status cc_hull_build(const cc_vec3* points, int count, int max_vertices, const char* what,
                        cc_hull_data* out);
void cc_hull_data_free(cc_hull_data* h);

#ifdef __cplusplus
}
#endif

#endif
