/* Nearest-triangle distances for a block of points; see nearest_block.h. */
#include "host/geometry/nearest_block.h"

#include <math.h>
#include <string.h>

#include "host/geometry/vec3d.h"

/* Bins of the gathered triangles by their box's distance from the block's
 * centre: the nearest first, so that the best distance shrinks early. */
#define CC_NEAREST_BINS 16

typedef struct cc_nearest_candidate {
    cc_vec3 lower, upper; /* the triangle's box */
    float key;            /* its distance from the block's centre [m] */
    int triangle;
} cc_nearest_candidate;

static double segment_distance_sq(d3 p, d3 a, d3 b)
{
    d3 ab = d3_sub(b, a), ap = d3_sub(p, a);
    double len2 = d3_len2(ab), t = len2 > 0.0 ? d3_dot(ap, ab) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    return d3_len2(d3_sub(ap, d3_scale(ab, t)));
}

/* cc_triangle_distance_sq, inlined into the block search. */
static inline float triangle_distance_sq(cc_vec3 pf, cc_vec3 af, cc_vec3 bf, cc_vec3 cf)
{
    /* In double: a sliver's regions are told apart by products of nearly
     * equal terms, and its float normal may tilt by eps over its angle. */
    d3 p = d3_of(pf), a = d3_of(af), b = d3_of(bf), c = d3_of(cf);
    d3 ab = d3_sub(b, a), ac = d3_sub(c, a), ap = d3_sub(p, a);
    /* p's offsets from each corner, projected on the two sides from a. */
    double ab_a = d3_dot(ab, ap), ac_a = d3_dot(ac, ap);
    if (ab_a <= 0.0 && ac_a <= 0.0) return (float)d3_len2(ap);
    d3 bp = d3_sub(p, b);
    double ab_b = d3_dot(ab, bp), ac_b = d3_dot(ac, bp);
    if (ab_b >= 0.0 && ac_b <= ab_b) return (float)d3_len2(bp);
    d3 cp = d3_sub(p, c);
    double ab_c = d3_dot(ab, cp), ac_c = d3_dot(ac, cp);
    if (ac_c >= 0.0 && ab_c <= ac_c) return (float)d3_len2(cp);
    /* The edges' regions: each edge's barycentric weight of the opposite
     * corner not above zero, the foot between its ends. */
    double wc = ab_a * ac_b - ab_b * ac_a;
    if (wc <= 0.0 && ab_a >= 0.0 && ab_b <= 0.0) return (float)d3_len2(d3_sub(ap, d3_scale(ab, ab_a / (ab_a - ab_b))));
    double wb = ab_c * ac_a - ab_a * ac_c;
    if (wb <= 0.0 && ac_a >= 0.0 && ac_c <= 0.0) return (float)d3_len2(d3_sub(ap, d3_scale(ac, ac_a / (ac_a - ac_c))));
    double wa = ab_b * ac_c - ab_c * ac_b;
    if (wa <= 0.0 && ac_b - ab_b >= 0.0 && ab_c - ac_c >= 0.0)
        return (float)d3_len2(d3_sub(bp, d3_scale(d3_sub(c, b), (ac_b - ab_b) / ((ac_b - ab_b) + (ab_c - ac_c)))));
    /* Over the face: its height above the plane. (Rounding can bring a
     * point of a triangle without area here: its nearest edge then.) */
    d3 n = d3_cross(ab, ac);
    double h = d3_dot(n, ap), nn = d3_len2(n);
    if (nn > 0.0) return (float)(h * h / nn);
    double e = segment_distance_sq(p, a, b), f = segment_distance_sq(p, b, c), g = segment_distance_sq(p, c, a);
    return (float)(e < f ? (e < g ? e : g) : (f < g ? f : g));
}

float cc_triangle_distance_sq(cc_vec3 p, cc_vec3 a, cc_vec3 b, cc_vec3 c) { return triangle_distance_sq(p, a, b, c); }

void cc_nearest_scratch_free(cc_nearest_scratch* s)
{
    if (!s) return;
    cc_host_free(s->items);
    cc_host_free(s->bounds);
    cc_host_free(s->gap);
    cc_host_free(s->triangle);
    memset(s, 0, sizeof *s);
}

static int reserve(cc_nearest_scratch* s, int needed)
{
    if (needed <= s->capacity) return 1;
    int capacity = s->capacity ? s->capacity : 256;
    while (capacity < needed) capacity *= 2;
    cc_nearest_candidate* items = (cc_nearest_candidate*)cc_host_realloc(s->items, sizeof *items * (size_t)capacity);
    if (items) s->items = items;
    float* bounds = (float*)cc_host_realloc(s->bounds, sizeof(float) * 6 * (size_t)capacity);
    if (bounds) s->bounds = bounds;
    float* gap = (float*)cc_host_realloc(s->gap, sizeof(float) * (size_t)capacity);
    if (gap) s->gap = gap;
    int* triangle = (int*)cc_host_realloc(s->triangle, sizeof(int) * (size_t)capacity);
    if (triangle) s->triangle = triangle;
    if (!items || !bounds || !gap || !triangle) return 0;
    s->capacity = capacity;
    return 1;
}

/* Squared distances from p to n boxes, in vector lanes. */
static void box_gaps(cc_vec3 p, const float* restrict lx, const float* restrict ly, const float* restrict lz,
                     const float* restrict ux, const float* restrict uy, const float* restrict uz, int n,
                     float* restrict gap)
{
    for (int j = 0; j < n; ++j) {
        float ax = lx[j] - p.x, bx = p.x - ux[j], ay = ly[j] - p.y, by = p.y - uy[j];
        float az = lz[j] - p.z, bz = p.z - uz[j];
        float dx = ax > bx ? ax : bx, dy = ay > by ? ay : by, dz = az > bz ? az : bz;
        dx = dx > 0.0f ? dx : 0.0f;
        dy = dy > 0.0f ? dy : 0.0f;
        dz = dz > 0.0f ? dz : 0.0f;
        gap[j] = dx * dx + dy * dy + dz * dz;
    }
}

/* Squared gap between two boxes (0 when they touch or overlap). */
static float box_gap_sq(cc_vec3 lo_a, cc_vec3 hi_a, cc_vec3 lo_b, cc_vec3 hi_b)
{
    float dx = cc_maxf(cc_maxf(lo_b.x - hi_a.x, lo_a.x - hi_b.x), 0.0f);
    float dy = cc_maxf(cc_maxf(lo_b.y - hi_a.y, lo_a.y - hi_b.y), 0.0f);
    float dz = cc_maxf(cc_maxf(lo_b.z - hi_a.z, lo_a.z - hi_b.z), 0.0f);
    return dx * dx + dy * dy + dz * dz;
}

cc_status cc_nearest_block(const cc_bvh_node* nodes, const int* prims, const cc_vec3* vertices, const int* triangles,
                           const cc_vec3* points, int count, float limit, float radius, cc_nearest_scratch* scratch,
                           float* distance)
{
    if (count <= 0) return CC_OK;
    cc_vec3 lower = points[0], upper = points[0];
    for (int i = 1; i < count; ++i) {
        lower = cc_v3_min(lower, points[i]);
        upper = cc_v3_max(upper, points[i]);
    }
    cc_vec3 centre = cc_v3_scale(cc_v3_add(lower, upper), 0.5f);
    /* The branch and bound's slack (CC_BVH_DISTANCE_SLACK) at the largest
     * coordinate scale of any point, so nothing it would keep is dropped. */
    cc_vec3 s = cc_v3_max(cc_v3_max(cc_v3_max(cc_v3_abs(lower), cc_v3_abs(upper)), cc_v3_abs(nodes[0].lower)),
                          cc_v3_abs(nodes[0].upper));
    float slack = CC_BVH_DISTANCE_SLACK * cc_maxf(cc_maxf(s.x, s.y), s.z);
    float reach = cc_minf(radius, limit) + slack, reach2 = reach * reach;

    /* Gather: every triangle whose box comes within reach of the block's. */
    int gathered = 0;
    int stack[CC_BVH_MAX_DEPTH + 1], top = 0;
    stack[top++] = 0;
    while (top > 0) {
        cc_bvh_node n = nodes[stack[--top]];
        if (box_gap_sq(lower, upper, n.lower, n.upper) > reach2) continue;
        if (n.count == 0) {
            /* The bound only guards against a malformed tree. */
            if (top + 2 <= CC_BVH_MAX_DEPTH + 1) {
                stack[top++] = n.first + 1;
                stack[top++] = n.first;
            }
            continue;
        }
        if (!reserve(scratch, gathered + n.count))
            return cc_fail(CC_ERR_OUT_OF_MEMORY, "no memory to gather %d triangles near a block of points", gathered + n.count);
        for (int slot = n.first; slot < n.first + n.count; ++slot) {
            int t = prims[slot];
            cc_vec3 a = vertices[triangles[3 * t]], b = vertices[triangles[3 * t + 1]], c = vertices[triangles[3 * t + 2]];
            cc_vec3 lo = cc_v3_min(cc_v3_min(a, b), c), hi = cc_v3_max(cc_v3_max(a, b), c);
            if (box_gap_sq(lower, upper, lo, hi) > reach2) continue;
            cc_nearest_candidate* k = &scratch->items[gathered++];
            k->lower = lo;
            k->upper = hi;
            k->key = sqrtf(cc_bvh_box_distance_sq(centre, lo, hi));
            k->triangle = t;
        }
    }

    /* Bin by key (a counting sort: the order inside a bin does not
     * matter), into rows that the box test below runs down in lanes. */
    float span = cc_maxf(reach + 0.5f * cc_v3_length(cc_v3_sub(upper, lower)), 1e-30f);
    float per_bin = span / CC_NEAREST_BINS;
    int first[CC_NEAREST_BINS + 1] = {0};
    for (int i = 0; i < gathered; ++i) {
        int bin = (int)(scratch->items[i].key / per_bin);
        first[(bin < CC_NEAREST_BINS - 1 ? bin : CC_NEAREST_BINS - 1) + 1]++;
    }
    for (int b = 0; b < CC_NEAREST_BINS; ++b) first[b + 1] += first[b];
    int fill[CC_NEAREST_BINS];
    for (int b = 0; b < CC_NEAREST_BINS; ++b) fill[b] = first[b];
    size_t row = (size_t)scratch->capacity;
    float *lx = scratch->bounds, *ly = lx + row, *lz = ly + row, *ux = lz + row, *uy = ux + row, *uz = uy + row;
    for (int i = 0; i < gathered; ++i) {
        const cc_nearest_candidate* k = &scratch->items[i];
        int bin = (int)(k->key / per_bin);
        int at = fill[bin < CC_NEAREST_BINS - 1 ? bin : CC_NEAREST_BINS - 1]++;
        lx[at] = k->lower.x, ly[at] = k->lower.y, lz[at] = k->lower.z;
        ux[at] = k->upper.x, uy[at] = k->upper.y, uz[at] = k->upper.z;
        scratch->triangle[at] = k->triangle;
    }

    /* Each point: its squared distance to every box first (no branches,
     * so the compiler runs it in vector lanes), then the triangles nearest
     * first, those whose box lies past the best distance found skipped. */
    float* gap = scratch->gap;
    for (int i = 0; i < count; ++i) {
        cc_vec3 p = points[i];
        box_gaps(p, lx, ly, lz, ux, uy, uz, gathered, gap);
        float best2 = limit * limit, best_reach = limit + slack, best_reach2 = best_reach * best_reach;
        int found = 0;
        for (int j = 0; j < gathered; ++j) {
            if (gap[j] > best_reach2) continue;
            int t = scratch->triangle[j];
            float d2 = triangle_distance_sq(p, vertices[triangles[3 * t]], vertices[triangles[3 * t + 1]],
                                            vertices[triangles[3 * t + 2]]);
            if (d2 < best2 || (d2 == best2 && !found)) {
                best2 = d2;
                found = 1;
                best_reach = sqrtf(d2) + slack;
                best_reach2 = best_reach * best_reach;
            }
        }
        distance[i] = found ? sqrtf(best2) : limit;
    }
    return CC_OK;
}
