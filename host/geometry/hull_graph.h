/* The vertex graph of a built hull: what support climbs and face searches
 * walk on the device (kernels/shapes/hull.h). */
#ifndef CC_HOST_GEOMETRY_HULL_GRAPH_H
#define CC_HOST_GEOMETRY_HULL_GRAPH_H

#include "host/geometry/hull_build.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the vertex graph block of `h` (kernels/shapes/hull.h), of
 * cc_hull_graph_ints(vertex_count, index_count) ints, and the largest
 * distance of a vertex from `center` to *radius. Needs no memory beyond
 * its outputs. */
void cc_hull_graph_build(const cc_hull_data* h, cc_vec3 center, int* graph, float* radius);

#ifdef __cplusplus
}
#endif

#endif
