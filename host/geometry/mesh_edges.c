/* The edges SDF contacts query; see mesh_edges.h. */
#include "host/geometry/mesh_edges.h"

#include <math.h>
#include <stdlib.h>

#include "host/geometry/vec3d.h"

typedef struct half_edge {
    int lo, hi; /* vertex indices, lo < hi */
    int tri;
} half_edge;

static int compare_half_edges(const void* pa, const void* pb)
{
    const half_edge *a = (const half_edge*)pa, *b = (const half_edge*)pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return a->tri < b->tri ? -1 : (a->tri > b->tri);
}

static d3 corner(const cc_vec3* v, const int* tri, int k) { return d3_of(v[tri[k]]); }

/* Unit normal of triangle t (zero for a degenerate one). */
static d3 triangle_normal(const cc_vec3* v, const int* triangles, int t)
{
    const int* tri = triangles + 3 * t;
    d3 a = corner(v, tri, 0), b = corner(v, tri, 1), c = corner(v, tri, 2);
    d3 n = d3_cross(d3_sub(b, a), d3_sub(c, a));
    double len = d3_length(n);
    return len > 0.0 ? d3_scale(n, 1.0 / len) : n;
}

/* The corner of triangle t that is not on edge (lo, hi). */
static int opposite(const int* triangles, int t, int lo, int hi)
{
    for (int k = 0; k < 3; ++k)
        if (triangles[3 * t + k] != lo && triangles[3 * t + k] != hi) return triangles[3 * t + k];
    return triangles[3 * t];
}

/* Fully concave vertices: angle-weighted normals, then the neighbours. */
static void concave_vertices(const cc_vec3* v, int vertex_count, const int* triangles, int triangle_count,
                             const half_edge* e, int half_count, unsigned char* concave)
{
    d3* normal = (d3*)cc_host_calloc((size_t)vertex_count, sizeof *normal);
    unsigned char* state = (unsigned char*)cc_host_calloc((size_t)vertex_count, 1); /* 1 above, 2 below, 4 not manifold */
    if (!normal || !state) {
        cc_host_free(normal);
        cc_host_free(state);
        return; /* out of memory: nothing is concave, every edge kept */
    }
    for (int t = 0; t < triangle_count; ++t) {
        d3 n = triangle_normal(v, triangles, t);
        for (int k = 0; k < 3; ++k) {
            const int* tri = triangles + 3 * t;
            d3 p = corner(v, tri, k), a = d3_sub(corner(v, tri, (k + 1) % 3), p),
                     b = d3_sub(corner(v, tri, (k + 2) % 3), p);
            double angle = atan2(d3_length(d3_cross(a, b)), d3_dot(a, b));
            normal[tri[k]] = d3_add(normal[tri[k]], d3_scale(n, angle));
        }
    }
    for (int i = 0; i < half_count;) {
        int j = i;
        while (j < half_count && e[j].lo == e[i].lo && e[j].hi == e[i].hi) ++j;
        int ends[2] = {e[i].lo, e[i].hi};
        for (int s = 0; s < 2; ++s) {
            int p = ends[s], q = ends[1 - s];
            if (j - i != 2) state[p] |= 4;
            d3 d = d3_sub(d3_of(v[q]), d3_of(v[p]));
            double h = d3_dot(d, normal[p]), tol = 1e-9 * d3_length(d) * d3_length(normal[p]);
            state[p] |= h > tol ? 1 : (h < -tol ? 2 : 0);
        }
        i = j;
    }
    for (int i = 0; i < vertex_count; ++i) concave[i] = state[i] == 1;
    cc_host_free(normal);
    cc_host_free(state);
}

cc_status cc_mesh_collision_edges(const cc_vec3* vertices, int vertex_count, const int* triangles, int triangle_count,
                                  float flat_angle, int concave_filter, int** out_edges, int* out_count)
{
    int half_count = 3 * triangle_count;
    half_edge* e = (half_edge*)cc_host_alloc(sizeof *e * (size_t)half_count);
    unsigned char* concave = concave_filter ? (unsigned char*)cc_host_calloc((size_t)vertex_count, 1) : NULL;
    int* edges = (int*)cc_host_alloc(sizeof(int) * 2 * (size_t)half_count);
    if (!e || !edges || (concave_filter && !concave)) {
        cc_host_free(e);
        cc_host_free(concave);
        cc_host_free(edges);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for the edges of %d triangles", triangle_count);
    }
    for (int t = 0; t < triangle_count; ++t)
        for (int k = 0; k < 3; ++k) {
            int a = triangles[3 * t + k], b = triangles[3 * t + (k + 1) % 3];
            e[3 * t + k].lo = a < b ? a : b;
            e[3 * t + k].hi = a < b ? b : a;
            e[3 * t + k].tri = t;
        }
    qsort(e, (size_t)half_count, sizeof *e, compare_half_edges);
    if (concave_filter) concave_vertices(vertices, vertex_count, triangles, triangle_count, e, half_count, concave);
    int count = 0;
    for (int i = 0; i < half_count;) {
        int j = i;
        while (j < half_count && e[j].lo == e[i].lo && e[j].hi == e[i].hi) ++j;
        int keep = 1;
        if (j - i == 2) {
            d3 n0 = triangle_normal(vertices, triangles, e[i].tri), n1 = triangle_normal(vertices, triangles, e[i + 1].tri);
            double angle = atan2(d3_length(d3_cross(n0, n1)), d3_dot(n0, n1));
            if (flat_angle > 0.0f && angle < (double)flat_angle) keep = 0;
            /* Concave: the second triangle's far corner lies above the first's plane. */
            d3 w = d3_of(vertices[opposite(triangles, e[i + 1].tri, e[i].lo, e[i].hi)]);
            int is_concave = d3_dot(d3_sub(w, d3_of(vertices[e[i].lo])), n0) > 0.0;
            if (concave_filter && is_concave && concave[e[i].lo] && concave[e[i].hi]) keep = 0;
        }
        if (keep) {
            edges[2 * count] = e[i].lo;
            edges[2 * count + 1] = e[i].hi;
            ++count;
        }
        i = j;
    }
    cc_host_free(e);
    cc_host_free(concave);
    *out_edges = edges;
    *out_count = count;
    return CC_OK;
}
