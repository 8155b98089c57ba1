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

/* The vertex graph of a hull, one block of ints per hull (graph_first in
 * its desc), with I the hull's face index count:
 *   [0, CC_HULL_SEEDS)                  climb seeds, by cc_hull_seed_of;
 *   [CC_HULL_SEEDS, + vertex_count + 1) per vertex v, the block offset of
 *                                       its first corner, then one end;
 *   then I corners grouped by vertex:   the vertex after v counter-
 *                                       clockwise in a face around v;
 *   then I ints parallel to them:       that face.
 * (Vertices and faces are numbered within the hull.) A vertex's corners
 * name each of its edge neighbours once and each face around it once:
 * what a support climb walks and a face search starts from. One block, so
 * that a pair routine keeps one pointer per hull. */

/* Hulls with more vertices than this find support points by climbing the
 * vertex graph from a seed (kernels/shapes/support.h); smaller ones test
 * every vertex, which is as fast and needs no graph. */
#define CC_HULL_CLIMB_MIN 32

/* Where a climb starts: the directions are binned like a cube map (the
 * face of the dominant axis and sign, then a CC_HULL_SEED_GRID square grid
 * on it), and each bin keeps the vertex farthest along its centre
 * direction, a step or two from the support vertex of any direction in
 * the bin. 1,536 bins (6 KB a hull): a support of a 1,000-vertex hull
 * then reads 7.9 vertices on average and takes 27 ns here; with 384 bins
 * it read 10.4 and took 35 ns, and with 96 a third longer again. */
#define CC_HULL_SEED_GRID 16
#define CC_HULL_SEEDS (6 * CC_HULL_SEED_GRID * CC_HULL_SEED_GRID)

/* Grid index of the coordinate ratio t in [-1, 1]. */
CC_HD int cc_hull_seed_bin(float t)
{
    int i = (int)((t + 1.0f) * (0.5f * CC_HULL_SEED_GRID));
    return i < 0 ? 0 : (i >= CC_HULL_SEED_GRID ? CC_HULL_SEED_GRID - 1 : i);
}

/* The seed bin of direction d (0 for a zero or NaN d). */
CC_HD int cc_hull_seed_of(cc_vec3 d)
{
    float ax = fabsf(d.x), ay = fabsf(d.y), az = fabsf(d.z);
    int axis = ax >= ay && ax >= az ? 0 : (ay >= az ? 1 : 2);
    float major = axis == 0 ? d.x : (axis == 1 ? d.y : d.z);
    float u = axis == 0 ? d.y : (axis == 1 ? d.z : d.x);
    float v = axis == 0 ? d.z : (axis == 1 ? d.x : d.y);
    float m = fabsf(major);
    if (!(m > 0.0f)) return 0;
    int face = 2 * axis + (major < 0.0f ? 1 : 0);
    return (face * CC_HULL_SEED_GRID + cc_hull_seed_bin(u / m)) * CC_HULL_SEED_GRID + cc_hull_seed_bin(v / m);
}

/* One hull: ranges into the vertex, face and index pools (the pools hold
 * every hull of the model back to back; `first` fields are absolute). */
typedef struct cc_hull_desc {
    int vertex_first, vertex_count;
    int face_first, face_count;
    cc_vec3 lower, upper; /* bounds of the vertices, hull frame [m] */
    cc_vec3 center;       /* mean of the vertices: a point inside the hull */
    float radius;         /* largest distance of a vertex from center [m] */
    int graph_first;      /* the hull's vertex graph block in the graph pool */
} cc_hull_desc;

/* A hull with its pools resolved, as the pair routines take it. */
typedef struct cc_hull_ref {
    const cc_vec3* vertices; /* vertex_count of them */
    const cc_hull_face* faces;
    const int* indices; /* pool of face vertex indices, absolute into `vertices` - vertex_first */
    int vertex_count, face_count;
    int vertex_first; /* subtract from indices to index `vertices` */
    cc_vec3 center;
    float radius; /* as in cc_hull_desc */
    const int* graph; /* the vertex graph block, or NULL: searches test every vertex */
} cc_hull_ref;

/* Ints of a hull's graph block. */
CC_HD int cc_hull_graph_ints(int vertex_count, int index_count)
{
    return CC_HULL_SEEDS + vertex_count + 1 + 2 * index_count;
}

/* The faces around vertex v of h, as a range of corners [*first, *end)
 * whose faces cc_hull_corner_face gives. A hull without a graph gives
 * every face: callers that need only v's check the face's indices. */
CC_HD void cc_hull_corners_of(const cc_hull_ref* h, int v, int* first, int* end)
{
    *first = h->graph ? h->graph[CC_HULL_SEEDS + v] : 0;
    *end = h->graph ? h->graph[CC_HULL_SEEDS + v + 1] : h->face_count;
}

/* Whether face f of h has vertex v (numbered within the hull) among its
 * corners: what callers of cc_hull_corners_of check on a hull without a
 * graph, which offers every face. */
CC_HD int cc_hull_face_holds(const cc_hull_ref* h, int f, int v)
{
    cc_hull_face fc = h->faces[f];
    int has = 0;
    for (int i = 0; i < fc.count; ++i) has |= h->indices[fc.first + i] - h->vertex_first == v;
    return has;
}

/* The face of a corner from cc_hull_corners_of (a corner's face is I ints
 * on, I being the corner count). */
CC_HD int cc_hull_corner_face(const cc_hull_ref* h, int corner)
{
    const int* g = h->graph;
    return g ? g[corner + g[CC_HULL_SEEDS + h->vertex_count] - g[CC_HULL_SEEDS]] : corner;
}

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
    h.radius = 0.0f;
    h.graph = 0;
    return h;
}

#endif
