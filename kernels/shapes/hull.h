/* Convex hulls as kernels see them: flat pools shared by every shape that
 * uses the hull (and by every replicated world).
 *
 * A hull's vertices are in its own frame; a shape scales them per axis by
 * its size. Faces are convex polygons whose vertex indices run counter-
 * clockwise seen from outside, with the outward unit normal and offset of
 * their plane (points x on the face satisfy dot(normal, x) == offset). */
#ifndef CC_KERNELS_SHAPES_HULL_H
#define CC_KERNELS_SHAPES_HULL_H

#include "kernels/math/vec3.h"

typedef struct cc_hull_face {
    cc_vec3 normal; /* outward unit normal, hull frame */
    float offset;   /* plane offset: dot(normal, vertex) for its vertices [m] */
    int first;      /* first entry in the hull's index pool */
    int count;      /* vertices of the polygon (>= 3) */
} cc_hull_face;

/* One hull: ranges into the vertex, face and index pools (the pools hold
 * every hull of the model back to back; `first` fields are absolute). */
typedef struct cc_hull_desc {
    int vertex_first, vertex_count;
    int face_first, face_count;
    cc_vec3 lower, upper; /* bounds of the vertices, hull frame [m] */
    cc_vec3 center;       /* mean of the vertices: a point inside the hull */
} cc_hull_desc;

/* A hull with its pools resolved, as the pair routines take it. */
typedef struct cc_hull_ref {
    const cc_vec3* vertices; /* vertex_count of them */
    const cc_hull_face* faces;
    const int* indices; /* pool of face vertex indices, absolute into `vertices` - vertex_first */
    int vertex_count, face_count;
    int vertex_first; /* subtract from indices to index `vertices` */
    cc_vec3 center;
} cc_hull_ref;

/* No hull: for shapes of other types, so that copies of a cc_geom never
 * read uninitialised fields. */
CC_HD cc_hull_ref cc_hull_ref_none(void)
{
    cc_hull_ref h;
    h.vertices = 0;
    h.faces = 0;
    h.indices = 0;
    h.vertex_count = h.face_count = h.vertex_first = 0;
    h.center = cc_v3(0.0f, 0.0f, 0.0f);
    return h;
}

#endif
