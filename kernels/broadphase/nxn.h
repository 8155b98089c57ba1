/* NXN broad phase: every pair of shapes that can meet, tested each pass.
 *
 * Shapes are listed world by world (shape_index), globals last. The pairs
 * are cut into segments: the pairs within each world's list, each world's
 * shapes against the globals, and the pairs among the globals. A flat thread
 * index finds its segment by binary search over first_pair, then its pair by
 * integer arithmetic, so no pair is enumerated twice and no thread loops. */
#ifndef CC_KERNELS_BROADPHASE_NXN_H
#define CC_KERNELS_BROADPHASE_NXN_H

#include "kernels/broadphase/pair_buffer.h"

typedef struct cc_nxn_segment {
    int64_t first_pair; /* prefix of pair counts over earlier segments */
    int a_start, a_count; /* rows: shape_index[a_start .. a_start + a_count) */
    int b_start, b_count; /* columns; b_count < 0: the pairs within the rows */
} cc_nxn_segment;

typedef struct cc_nxn_view {
    int segment_count;
    const cc_nxn_segment* segments;
    const int* shape_index;
    int64_t total_pairs;
} cc_nxn_view;

CC_HD int64_t cc_nxn_segment_pairs(int a_count, int b_count)
{
    return b_count < 0 ? (int64_t)a_count * (a_count - 1) / 2 : (int64_t)a_count * b_count;
}

/* k-th unordered pair {i, j} of n items, i != j, without a square root: the
 * pairs are the rows r of a circle, each paired with the items d = 1..h
 * steps ahead. For odd n, h = (n-1)/2 covers every pair once; for even n,
 * steps 1..n/2-1 go over all rows and step n/2 over the first n/2 rows. */
CC_HD void cc_triangle_pair(int64_t k, int n, int* i, int* j)
{
    int64_t h = n / 2;
    if (n & 1) {
        int64_t r = k / h, d = k % h + 1;
        *i = (int)r;
        *j = (int)((r + d) % n);
        return;
    }
    int64_t full = (int64_t)n * (h - 1);
    if (k < full) {
        int64_t r = k / (h - 1), d = k % (h - 1) + 1;
        *i = (int)r;
        *j = (int)((r + d) % n);
    } else {
        int64_t r = k - full;
        *i = (int)r;
        *j = (int)(r + h);
    }
}

CC_HD int cc_find_segment(const cc_nxn_segment* s, int count, int64_t t)
{
    int lo = 0, hi = count - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) >> 1;
        if (s[mid].first_pair <= t) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* The pair at local index k of segment s, as shape indices. */
CC_HD void cc_nxn_segment_pair(const cc_nxn_view* v, const cc_nxn_segment* s, int64_t k, int* a, int* b)
{
    int i, j;
    if (s->b_count < 0) {
        cc_triangle_pair(k, s->a_count, &i, &j);
        *a = v->shape_index[s->a_start + i];
        *b = v->shape_index[s->a_start + j];
    } else {
        *a = v->shape_index[s->a_start + (int)(k / s->b_count)];
        *b = v->shape_index[s->b_start + (int)(k % s->b_count)];
    }
}

CC_HD void cc_nxn_thread(int64_t t, const cc_nxn_view* v, const cc_model_view* m,
                         const cc_aabb* aabb, cc_pair_sink sink)
{
    const cc_nxn_segment* s = &v->segments[cc_find_segment(v->segments, v->segment_count, t)];
    int a, b;
    cc_nxn_segment_pair(v, s, t - s->first_pair, &a, &b);
    cc_test_and_emit_pair(m, aabb, a, b, sink);
}

#endif
