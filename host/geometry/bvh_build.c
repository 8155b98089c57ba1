/* Triangle-mesh BVH builder: binned SAH with an explicit work stack.
 *
 * Each triangle becomes a reference (its bounds and index) in one array that
 * is partitioned in place as nodes split, so a node's triangles are always a
 * contiguous range and every pass over them reads memory in order. Nodes are
 * handed out in pairs (siblings adjacent) in depth-first order. */
#include "host/geometry/bvh_build.h"

#include <float.h>
#include <stddef.h>

typedef struct cc_bvh_ref {
    cc_vec3 lower, upper;
    int triangle;
} cc_bvh_ref;

typedef struct cc_bvh_task {
    int node, begin, end, depth;
} cc_bvh_task;

/* Depth-first with two pushes per split: at most one pending sibling per
 * level plus the two just pushed. */
#define CC_BVH_TASK_STACK (CC_BVH_MAX_DEPTH + 4)

/* Twice the centre of the reference's box along `axis`: orders references
 * like the centre does, without a multiply. */
static float cc_bvh_key(const cc_bvh_ref* r, int axis)
{
    return cc_v3_get(r->lower, axis) + cc_v3_get(r->upper, axis);
}

/* Bin of a key, for a node whose keys start at key_min, with scale =
 * bins / key extent. Binning and partitioning both call this, so they agree
 * bit for bit. A NaN product (0 * inf for a denormal extent) lands in the
 * last bin, which leaves SAH without a split and falls back to the median. */
static int cc_bvh_bin(float key, float key_min, float scale)
{
    float f = (key - key_min) * scale;
    return f < (float)CC_BVH_BINS ? (int)f : CC_BVH_BINS - 1;
}

/* Levels of median splits that bring `count` triangles down to leaves. */
static int cc_bvh_median_levels(int count)
{
    int levels = 0;
    while (count > CC_BVH_LEAF_MAX) {
        count -= count / 2;
        ++levels;
    }
    return levels;
}

/* Half the surface area of a box whose sides are padded by `pad`. The pad
 * makes flat and line-like boxes (a planar grid, triangles on a line)
 * compare by size instead of all costing zero, which would let SAH peel one
 * pair off at a time. */
static double cc_bvh_area(cc_vec3 lo, cc_vec3 hi, double pad)
{
    double dx = (double)hi.x - (double)lo.x + pad;
    double dy = (double)hi.y - (double)lo.y + pad;
    double dz = (double)hi.z - (double)lo.z + pad;
    return dx * dy + dy * dz + dz * dx;
}

/* Best SAH split of refs[begin, end) into bins below / at or above the
 * returned bin index (1 .. CC_BVH_BINS - 1), among splits that leave at
 * least two triangles on each side; -1 when there is none. Two per side
 * keeps leaves at two triangles or more, which bounds the node count by the
 * triangle count. */
static int cc_bvh_sah_split(const cc_bvh_ref* refs, int begin, int end, int axis, float key_min,
                            float scale, double pad)
{
    int count[CC_BVH_BINS];
    cc_vec3 lo[CC_BVH_BINS], hi[CC_BVH_BINS];
    for (int k = 0; k < CC_BVH_BINS; ++k) {
        count[k] = 0;
        lo[k] = cc_v3(FLT_MAX, FLT_MAX, FLT_MAX);
        hi[k] = cc_v3(-FLT_MAX, -FLT_MAX, -FLT_MAX);
    }
    for (int i = begin; i < end; ++i) {
        int k = cc_bvh_bin(cc_bvh_key(&refs[i], axis), key_min, scale);
        count[k] += 1;
        lo[k] = cc_v3_min(lo[k], refs[i].lower);
        hi[k] = cc_v3_max(hi[k], refs[i].upper);
    }
    /* right_cost[s]: area x count of the bins s .. last. */
    double right_cost[CC_BVH_BINS];
    int right_count[CC_BVH_BINS];
    cc_vec3 acc_lo = cc_v3(FLT_MAX, FLT_MAX, FLT_MAX), acc_hi = cc_v3(-FLT_MAX, -FLT_MAX, -FLT_MAX);
    int n = 0;
    for (int s = CC_BVH_BINS - 1; s >= 1; --s) {
        acc_lo = cc_v3_min(acc_lo, lo[s]);
        acc_hi = cc_v3_max(acc_hi, hi[s]);
        n += count[s];
        right_count[s] = n;
        right_cost[s] = n > 0 ? cc_bvh_area(acc_lo, acc_hi, pad) * (double)n : 0.0;
    }
    int best = -1;
    double best_cost = 0.0;
    acc_lo = cc_v3(FLT_MAX, FLT_MAX, FLT_MAX);
    acc_hi = cc_v3(-FLT_MAX, -FLT_MAX, -FLT_MAX);
    n = 0;
    for (int s = 1; s < CC_BVH_BINS; ++s) {
        acc_lo = cc_v3_min(acc_lo, lo[s - 1]);
        acc_hi = cc_v3_max(acc_hi, hi[s - 1]);
        n += count[s - 1];
        if (n < 2 || right_count[s] < 2) continue;
        double cost = cc_bvh_area(acc_lo, acc_hi, pad) * (double)n + right_cost[s];
        if (best < 0 || cost < best_cost) {
            best = s;
            best_cost = cost;
        }
    }
    return best;
}

static void cc_bvh_swap(cc_bvh_ref* a, cc_bvh_ref* b)
{
    cc_bvh_ref t = *a;
    *a = *b;
    *b = t;
}

/* Reorders refs[begin, end) so that position nth holds the reference it
 * would hold if sorted by key, with no greater key before it and no smaller
 * one after (quickselect, median-of-three pivot). The three-way partition
 * makes runs of equal keys cost linear time instead of quadratic. */
static void cc_bvh_select(cc_bvh_ref* refs, int begin, int end, int nth, int axis)
{
    while (end - begin > 1) {
        float a = cc_bvh_key(&refs[begin], axis);
        float b = cc_bvh_key(&refs[begin + (end - begin) / 2], axis);
        float c = cc_bvh_key(&refs[end - 1], axis);
        float pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        int lt = begin, i = begin, gt = end;
        while (i < gt) {
            float k = cc_bvh_key(&refs[i], axis);
            if (k < pivot)
                cc_bvh_swap(&refs[lt++], &refs[i++]);
            else if (k > pivot)
                cc_bvh_swap(&refs[i], &refs[--gt]);
            else
                ++i;
        }
        if (nth < lt)
            end = lt;
        else if (nth >= gt)
            begin = gt;
        else
            return;
    }
}

/* Moves references whose bin is below `split` to the front; returns the
 * first index of the rest. */
static int cc_bvh_partition(cc_bvh_ref* refs, int begin, int end, int axis, float key_min,
                            float scale, int split)
{
    int i = begin, j = end;
    while (i < j) {
        if (cc_bvh_bin(cc_bvh_key(&refs[i], axis), key_min, scale) < split)
            ++i;
        else
            cc_bvh_swap(&refs[i], &refs[--j]);
    }
    return i;
}

cc_status cc_mesh_bvh_build(const cc_vec3* vertices, const int* triangles, int triangle_count,
                            cc_bvh_node** out_nodes, int* out_node_count, int** out_prims)
{
    if (!vertices || !triangles || !out_nodes || !out_node_count || !out_prims)
        return cc_fail(CC_ERR_INVALID_ARGUMENT,
                       "mesh BVH: vertices, triangles and the three outputs must not be NULL");
    if (triangle_count < 1)
        return cc_fail(CC_ERR_INVALID_ARGUMENT,
                       "mesh BVH: triangle count %d; a mesh needs at least one triangle",
                       triangle_count);
    int n = triangle_count;
    cc_bvh_ref* refs = (cc_bvh_ref*)cc_host_alloc((size_t)n * sizeof(cc_bvh_ref));
    /* Leaves hold two triangles or more (one for a one-triangle mesh), so
     * 2 * (n / 2) - 1 <= n - 1 nodes suffice, and never fewer than one. */
    int capacity = n;
    cc_bvh_node* nodes = (cc_bvh_node*)cc_host_alloc((size_t)capacity * sizeof(cc_bvh_node));
    int* prims = (int*)cc_host_alloc((size_t)n * sizeof(int));
    cc_status status = CC_OK;
    if (!refs || !nodes || !prims) {
        status = cc_fail(CC_ERR_OUT_OF_MEMORY,
                         "mesh BVH: cannot allocate the build arrays for %d triangles", n);
        goto fail;
    }
    for (int t = 0; t < n; ++t) {
        const int* v = triangles + 3 * (size_t)t;
        if (v[0] < 0 || v[1] < 0 || v[2] < 0) {
            status = cc_fail(CC_ERR_INVALID_ARGUMENT,
                             "mesh BVH: triangle %d has a negative vertex index (%d %d %d)", t,
                             v[0], v[1], v[2]);
            goto fail;
        }
        cc_vec3 a = vertices[v[0]], b = vertices[v[1]], c = vertices[v[2]];
        if (!cc_is_finite_vec3(a) || !cc_is_finite_vec3(b) || !cc_is_finite_vec3(c)) {
            status = cc_fail(CC_ERR_NOT_FINITE,
                             "mesh BVH: triangle %d has a vertex with NaN or infinite coordinates",
                             t);
            goto fail;
        }
        refs[t].lower = cc_v3_min(cc_v3_min(a, b), c);
        refs[t].upper = cc_v3_max(cc_v3_max(a, b), c);
        refs[t].triangle = t;
    }

    cc_bvh_task stack[CC_BVH_TASK_STACK];
    int top = 0;
    int node_count = 1;
    stack[top].node = 0;
    stack[top].begin = 0;
    stack[top].end = n;
    stack[top].depth = 0;
    ++top;
    while (top > 0) {
        cc_bvh_task task = stack[--top];
        cc_vec3 lo = refs[task.begin].lower, hi = refs[task.begin].upper;
        cc_vec3 key_lo = cc_v3_add(lo, hi), key_hi = key_lo;
        for (int i = task.begin + 1; i < task.end; ++i) {
            lo = cc_v3_min(lo, refs[i].lower);
            hi = cc_v3_max(hi, refs[i].upper);
            cc_vec3 key = cc_v3_add(refs[i].lower, refs[i].upper);
            key_lo = cc_v3_min(key_lo, key);
            key_hi = cc_v3_max(key_hi, key);
        }
        cc_bvh_node* node = &nodes[task.node];
        node->lower = lo;
        node->upper = hi;
        int count = task.end - task.begin;
        if (count <= CC_BVH_LEAF_MAX) {
            node->first = task.begin;
            node->count = count;
            continue;
        }

        cc_vec3 key_ext = cc_v3_sub(key_hi, key_lo);
        int axis = key_ext.x >= key_ext.y ? (key_ext.x >= key_ext.z ? 0 : 2)
                                          : (key_ext.y >= key_ext.z ? 1 : 2);
        float ext = cc_v3_get(key_ext, axis);
        float key_min = cc_v3_get(key_lo, axis);
        int mid = -1;
        /* SAH only while even its most lopsided split leaves room for median
         * splits below to finish within CC_BVH_MAX_DEPTH. */
        if (ext > 0.0f && task.depth + 1 + cc_bvh_median_levels(count) <= CC_BVH_MAX_DEPTH) {
            float scale = (float)CC_BVH_BINS / ext;
            cc_vec3 size = cc_v3_sub(hi, lo);
            double pad = 1.0e-3 * (double)cc_maxf(cc_maxf(size.x, size.y), size.z);
            int split = cc_bvh_sah_split(refs, task.begin, task.end, axis, key_min, scale, pad);
            if (split > 0)
                mid = cc_bvh_partition(refs, task.begin, task.end, axis, key_min, scale, split);
        }
        if (mid < 0) {
            /* Object median; with all centres equal any order is a median. */
            mid = task.begin + count / 2;
            if (ext > 0.0f) cc_bvh_select(refs, task.begin, task.end, mid, axis);
        }

        if (node_count + 2 > capacity || top + 2 > CC_BVH_TASK_STACK) {
            /* Unreachable: both bounds are proved above. */
            status = cc_fail(CC_ERR_INVALID_STATE, "mesh BVH: internal limit exceeded");
            goto fail;
        }
        int child = node_count;
        node_count += 2;
        node->first = child;
        node->count = 0;
        stack[top].node = child + 1;
        stack[top].begin = mid;
        stack[top].end = task.end;
        stack[top].depth = task.depth + 1;
        ++top;
        stack[top].node = child;
        stack[top].begin = task.begin;
        stack[top].end = mid;
        stack[top].depth = task.depth + 1;
        ++top;
    }

    for (int i = 0; i < n; ++i) prims[i] = refs[i].triangle;
    cc_host_free(refs);
    if (node_count < capacity) {
        cc_bvh_node* shrunk =
            (cc_bvh_node*)cc_host_realloc(nodes, (size_t)node_count * sizeof(cc_bvh_node));
        if (shrunk) nodes = shrunk; /* keeping the larger block is harmless */
    }
    *out_nodes = nodes;
    *out_node_count = node_count;
    *out_prims = prims;
    return cc_ok();

fail:
    cc_host_free(refs);
    cc_host_free(nodes);
    cc_host_free(prims);
    return status;
}
