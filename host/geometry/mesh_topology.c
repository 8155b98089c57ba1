/* Watertightness: every directed edge (a, b) of a closed, consistently
 * wound mesh meets exactly one (b, a) of a neighbour. The directed edges
 * are sorted by their undirected key, so each undirected edge's uses sit
 * together and are checked in one sweep. */
#include <math.h>
#include <stdlib.h>

#include "kernels/mesh/triangle.h"
#include "host/geometry/mesh_topology.h"

static int compare_u64(const void* a, const void* b)
{
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : (x > y);
}

int64_t cc_mesh_bad_edge_count(const int* triangles, int triangle_count)
{
    size_t n = 3 * (size_t)triangle_count;
    /* Key: (lower vertex, higher vertex, direction bit). */
    uint64_t* keys = (uint64_t*)cc_host_alloc(sizeof(uint64_t) * (n + 1));
    if (!keys) return -1;
    for (int t = 0; t < triangle_count; ++t)
        for (int k = 0; k < 3; ++k) {
            uint32_t a = (uint32_t)triangles[3 * t + k], b = (uint32_t)triangles[3 * t + (k + 1) % 3];
            uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
            keys[3 * (size_t)t + (size_t)k] = (lo << 33) | (hi << 1) | (uint64_t)(a > b);
        }
    qsort(keys, n, sizeof *keys, compare_u64);
    int64_t bad = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && keys[j] >> 1 == keys[i] >> 1) ++j;
        /* Good: exactly two uses, one each way (sorted: direction 0, then 1). */
        if (!(j - i == 2 && (keys[i] & 1u) == 0u && (keys[i + 1] & 1u) == 1u)) bad++;
        i = j;
    }
    cc_host_free(keys);
    return bad;
}

/* Key of directed edge k of triangle t, sorted by the undirected edge. */
static uint64_t edge_key(const int* triangles, int t, int k)
{
    uint32_t a = (uint32_t)triangles[3 * t + k], b = (uint32_t)triangles[3 * t + (k + 1) % 3];
    uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
    return (lo << 33) | (hi << 1) | (uint64_t)(a > b);
}

typedef struct edge_use {
    uint64_t key;
    int triangle, k;
} edge_use;

static int compare_use(const void* a, const void* b)
{
    const edge_use *x = (const edge_use*)a, *y = (const edge_use*)b;
    if (x->key >> 1 != y->key >> 1) return x->key >> 1 < y->key >> 1 ? -1 : 1;
    return x->triangle < y->triangle ? -1 : (x->triangle > y->triangle);
}

/* Whether the neighbour's far vertex `far` lies on or above the plane of
 * triangle t (flat or concave), relative to the triangle's size. */
static int folds_up(const cc_vec3* v, const int* triangles, int t, cc_vec3 far)
{
    cc_vec3 a = v[triangles[3 * t]], b = v[triangles[3 * t + 1]], c = v[triangles[3 * t + 2]];
    double e1[3] = {(double)b.x - a.x, (double)b.y - a.y, (double)b.z - a.z};
    double e2[3] = {(double)c.x - a.x, (double)c.y - a.y, (double)c.z - a.z};
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0.0)) return 0;
    double h = (n[0] * ((double)far.x - a.x) + n[1] * ((double)far.y - a.y) + n[2] * ((double)far.z - a.z)) / len;
    double size = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]) + sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]);
    return h >= -1e-6 * size;
}

/* Signed height of `far` over the plane of triangle t, relative to the
 * triangle's size (so that the tolerance is scale-free). */
static double relative_height(const cc_vec3* v, const int* triangles, int t, cc_vec3 far)
{
    cc_vec3 a = v[triangles[3 * t]], b = v[triangles[3 * t + 1]], c = v[triangles[3 * t + 2]];
    double e1[3] = {(double)b.x - a.x, (double)b.y - a.y, (double)b.z - a.z};
    double e2[3] = {(double)c.x - a.x, (double)c.y - a.y, (double)c.z - a.z};
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double size = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]) + sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]);
    if (!(len > 0.0) || !(size > 0.0)) return 1.0; /* degenerate: never coplanar */
    return (n[0] * ((double)far.x - a.x) + n[1] * ((double)far.y - a.y) + n[2] * ((double)far.z - a.z)) / len / size;
}

/* Corners (triangle t, corner k: index 3 t + k) joined into the fans of
 * coplanar triangles around each vertex. */
static int find_root(int* parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static void join(int* parent, int i, int j)
{
    int a = find_root(parent, i), b = find_root(parent, j);
    /* The lower corner index is the root: the fan's lowest triangle. */
    if (a < b) parent[b] = a;
    else if (b < a) parent[a] = b;
}

int cc_mesh_triangle_flags(const cc_vec3* vertices, int vertex_count, const int* triangles, int triangle_count,
                           unsigned* flags, int* adjacent)
{
    size_t n = 3 * (size_t)triangle_count;
    edge_use* uses = (edge_use*)cc_host_alloc(sizeof(edge_use) * (n + 1));
    char* open_vertex = (char*)cc_host_calloc((size_t)vertex_count + 1, 1);
    int* fan = (int*)cc_host_alloc(sizeof(int) * (n + 1));
    if (!uses || !open_vertex || !fan) {
        cc_host_free(uses);
        cc_host_free(open_vertex);
        cc_host_free(fan);
        return 0;
    }
    for (size_t i = 0; i < n; ++i) fan[i] = (int)i;
    for (int t = 0; t < triangle_count; ++t) {
        flags[t] = CC_TRI_FACE_OWNERS;
        adjacent[3 * t] = adjacent[3 * t + 1] = adjacent[3 * t + 2] = -1;
        for (int k = 0; k < 3; ++k) {
            edge_use* u = &uses[3 * (size_t)t + (size_t)k];
            u->key = edge_key(triangles, t, k);
            u->triangle = t;
            u->k = k;
        }
    }
    qsort(uses, n, sizeof *uses, compare_use);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && uses[j].key >> 1 == uses[i].key >> 1) ++j;
        if (j - i == 2 && (uses[i].key & 1u) != (uses[i + 1].key & 1u)) {
            /* Two neighbours: each sees the other's far vertex. */
            adjacent[3 * uses[i].triangle + uses[i].k] = uses[i + 1].triangle;
            adjacent[3 * uses[i + 1].triangle + uses[i + 1].k] = uses[i].triangle;
            int coplanar = 1;
            for (int s = 0; s < 2; ++s) {
                const edge_use *me = &uses[i + (size_t)s], *other = &uses[i + (size_t)(1 - s)];
                int far = triangles[3 * other->triangle + (other->k + 2) % 3];
                if (folds_up(vertices, triangles, me->triangle, vertices[far])) flags[me->triangle] |= CC_TRI_EDGE_FLAT(me->k);
                coplanar &= fabs(relative_height(vertices, triangles, me->triangle, vertices[far])) <= 1e-6;
            }
            if (coplanar) {
                /* Both triangles hold the edge's two vertices: their corners
                 * there are in one fan. Edge k runs from corner k to k + 1;
                 * the neighbour runs it the other way. */
                const edge_use *p = &uses[i], *q = &uses[i + 1];
                flags[p->triangle] |= CC_TRI_EDGE_COPLANAR(p->k);
                flags[q->triangle] |= CC_TRI_EDGE_COPLANAR(q->k);
                join(fan, 3 * p->triangle + p->k, 3 * q->triangle + (q->k + 1) % 3);
                join(fan, 3 * p->triangle + (p->k + 1) % 3, 3 * q->triangle + q->k);
            }
        } else {
            for (size_t u = i; u < j; ++u) {
                flags[uses[u].triangle] |= CC_TRI_EDGE_OPEN(uses[u].k);
                int t = uses[u].triangle, k = uses[u].k;
                open_vertex[triangles[3 * t + k]] = 1;
                open_vertex[triangles[3 * t + (k + 1) % 3]] = 1;
            }
        }
        i = j;
    }
    for (int t = 0; t < triangle_count; ++t)
        for (int k = 0; k < 3; ++k) {
            if (open_vertex[triangles[3 * t + k]]) flags[t] |= CC_TRI_VERTEX_OPEN(k);
            /* The fan's root is its lowest corner, of its lowest triangle. */
            if (find_root(fan, 3 * t + k) == 3 * t + k) flags[t] |= CC_TRI_FACE_VERTEX_OWNER(k);
        }
    cc_host_free(uses);
    cc_host_free(open_vertex);
    cc_host_free(fan);
    return 1;
}
