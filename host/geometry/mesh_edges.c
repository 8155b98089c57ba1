/* The edges SDF contacts query; see mesh_edges.h. */
#include "host/geometry/mesh_edges.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/geometry/vec3d.h"

typedef struct half_edge {
    int lo, hi; /* vertex indices, lo < hi */
    int tri;
} half_edge;

static int half_edge_before(const half_edge* a, const half_edge* b)
{
    if (a->lo != b->lo) return a->lo < b->lo;
    if (a->hi != b->hi) return a->hi < b->hi;
    return a->tri < b->tri;
}

/* Sorts the half edges by (lo, hi, tri): counted into one bucket per lower
 * vertex, then each bucket (a vertex's few edges) by insertion. Linear in
 * the mesh where a comparison sort is not, which matters on a cache hit,
 * when the edges are most of what building an SDF costs. */
static int sort_half_edges(half_edge* e, int count, int vertex_count)
{
    int* first = (int*)cc_host_calloc((size_t)vertex_count + 1, sizeof(int));
    half_edge* sorted = (half_edge*)cc_host_alloc(sizeof *sorted * (size_t)(count ? count : 1));
    if (!first || !sorted) {
        cc_host_free(first);
        cc_host_free(sorted);
        return 0;
    }
    for (int i = 0; i < count; ++i) first[e[i].lo + 1]++;
    for (int v = 0; v < vertex_count; ++v) first[v + 1] += first[v];
    for (int i = 0; i < count; ++i) sorted[first[e[i].lo]++] = e[i];
    for (int i = 1; i < count; ++i) {
        half_edge x = sorted[i];
        int j = i;
        for (; j > 0 && sorted[j - 1].lo == x.lo && half_edge_before(&x, &sorted[j - 1]); --j) sorted[j] = sorted[j - 1];
        sorted[j] = x;
    }
    memcpy(e, sorted, sizeof *e * (size_t)count);
    cc_host_free(first);
    cc_host_free(sorted);
    return 1;
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

/* A kept manifold edge as a box may absorb: its ends, mean normal and
 * length, and its cell in the grid of midpoints. */
typedef struct edge_box {
    int index;  /* into the kept edges */
    d3 a, b, normal;
    double length;
    long long cell;
} edge_box;

static int longer_first(const void* pa, const void* pb)
{
    const edge_box *a = (const edge_box*)pa, *b = (const edge_box*)pb;
    if (a->length != b->length) return a->length > b->length ? -1 : 1;
    return a->index < b->index ? -1 : (a->index > b->index);
}

typedef struct grid_entry {
    long long key;
    int pos; /* in the boxes' length order */
} grid_entry;

static int by_key(const void* pa, const void* pb)
{
    const grid_entry *a = (const grid_entry*)pa, *b = (const grid_entry*)pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->pos < b->pos ? -1 : (a->pos > b->pos);
}

/* Cell keys of the grid, 21 bits an axis (wrapping far out: a shared key
 * only costs a box test). */
static long long cell_key(long long i, long long j, long long k)
{
    const long long m = (1LL << 21) - 1;
    return ((i & m) << 42) | ((j & m) << 21) | (k & m);
}

/* The first entry of `key` in the sorted grid, or count. */
static int first_of(const grid_entry* g, int count, long long key)
{
    int lo = 0, hi = count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (g[mid].key < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Marks absorbed[pos] for the boxes, in length order, absorbed by longer
 * ones (see cc_edge_boxes). Midpoints go in a grid whose spacing is the
 * mean length: an edge inside e's box has its midpoint within e's half
 * diagonal of e's midpoint (searched at most 4 cells each way, so a box
 * far larger than the mean edge may absorb less than it could). Returns 0
 * when out of memory (nothing absorbed). */
static int absorb_edges(edge_box* box, int count, const cc_edge_boxes* boxes, unsigned char* absorbed)
{
    qsort(box, (size_t)count, sizeof *box, longer_first);
    double h = 0.0;
    for (int i = 0; i < count; ++i) h += box[i].length;
    h = count && h / count > 1e-12 ? h / count : 1e-12;
    grid_entry* g = (grid_entry*)cc_host_alloc(sizeof *g * (size_t)(count ? count : 1));
    if (!g) return 0;
    for (int i = 0; i < count; ++i) {
        d3 m = d3_scale(d3_add(box[i].a, box[i].b), 0.5 / h);
        g[i].key = cell_key((long long)floor(m.x), (long long)floor(m.y), (long long)floor(m.z));
        g[i].pos = i;
    }
    qsort(g, (size_t)count, sizeof *g, by_key);
    for (int i = 0; i < count; ++i) {
        if (absorbed[i]) continue;
        const edge_box* e = &box[i];
        d3 u = d3_scale(d3_sub(e->b, e->a), 1.0 / e->length);
        d3 n = d3_sub(e->normal, d3_scale(u, d3_dot(e->normal, u)));
        double nl = d3_length(n);
        if (!(nl > 0.0)) continue;
        n = d3_scale(n, 1.0 / nl);
        d3 w = d3_cross(u, n), mid = d3_scale(d3_add(e->a, e->b), 0.5);
        double reach = sqrt(0.25 * e->length * e->length + (double)boxes->half_lateral * boxes->half_lateral +
                            (double)boxes->half_normal * boxes->half_normal);
        int span = (int)ceil(reach / h);
        span = span > 4 ? 4 : span;
        long long c[3] = {(long long)floor(mid.x / h), (long long)floor(mid.y / h), (long long)floor(mid.z / h)};
        for (long long x = c[0] - span; x <= c[0] + span; ++x)
            for (long long y = c[1] - span; y <= c[1] + span; ++y)
                for (long long z = c[2] - span; z <= c[2] + span; ++z) {
                    long long key = cell_key(x, y, z);
                    for (int k = first_of(g, count, key); k < count && g[k].key == key; ++k) {
                        int j = g[k].pos;
                        if (j <= i || absorbed[j]) continue;
                        int in = 1;
                        for (int end = 0; end < 2 && in; ++end) {
                            d3 r = d3_sub(end ? box[j].b : box[j].a, mid);
                            double slack = 1e-9 * e->length;
                            in = fabs(d3_dot(r, u)) <= 0.5 * e->length + slack &&
                                 fabs(d3_dot(r, w)) <= boxes->half_lateral + slack &&
                                 fabs(d3_dot(r, n)) <= boxes->half_normal + slack;
                        }
                        if (in) absorbed[j] = 1;
                    }
                }
    }
    cc_host_free(g);
    return 1;
}

cc_status cc_mesh_collision_edges(const cc_vec3* vertices, int vertex_count, const int* triangles, int triangle_count,
                                  float flat_angle, int concave_filter, const cc_edge_boxes* boxes, int** out_edges,
                                  int* out_count)
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
    if (!sort_half_edges(e, half_count, vertex_count)) {
        cc_host_free(e);
        cc_host_free(concave);
        cc_host_free(edges);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory to sort the edges of %d triangles", triangle_count);
    }
    if (concave_filter) concave_vertices(vertices, vertex_count, triangles, triangle_count, e, half_count, concave);
    int absorb = boxes && boxes->absorb;
    edge_box* box = absorb ? (edge_box*)cc_host_alloc(sizeof *box * (size_t)(half_count / 2 + 1)) : NULL;
    int box_count = 0;
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
        if (keep && box && j - i == 2) {
            edge_box* b = &box[box_count++];
            b->index = count;
            b->a = d3_of(vertices[e[i].lo]);
            b->b = d3_of(vertices[e[i].hi]);
            b->normal = d3_add(triangle_normal(vertices, triangles, e[i].tri), triangle_normal(vertices, triangles, e[i + 1].tri));
            b->length = d3_length(d3_sub(b->b, b->a));
            if (!(b->length > 0.0)) --box_count;
        }
        if (keep) {
            edges[2 * count] = e[i].lo;
            edges[2 * count + 1] = e[i].hi;
            ++count;
        }
        i = j;
    }
    /* Out of memory for the boxes or the grid: nothing is absorbed. */
    unsigned char* absorbed = box ? (unsigned char*)cc_host_calloc((size_t)(box_count ? box_count : 1), 1) : NULL;
    unsigned char* drop = box ? (unsigned char*)cc_host_calloc((size_t)(count ? count : 1), 1) : NULL;
    if (absorbed && drop && absorb_edges(box, box_count, boxes, absorbed)) {
        for (int k = 0; k < box_count; ++k) drop[box[k].index] = absorbed[k];
        int kept = 0;
        for (int k = 0; k < count; ++k)
            if (!drop[k]) {
                edges[2 * kept] = edges[2 * k];
                edges[2 * kept + 1] = edges[2 * k + 1];
                ++kept;
            }
        count = kept;
    }
    cc_host_free(box);
    cc_host_free(absorbed);
    cc_host_free(drop);
    cc_host_free(e);
    cc_host_free(concave);
    *out_edges = edges;
    *out_count = count;
    return CC_OK;
}
