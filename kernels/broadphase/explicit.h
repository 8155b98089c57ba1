/* EXPLICIT broad phase: compatible pairs enumerated once at pipeline
 * creation, AABB-tested each pass.
 *
 * Pairs are kept per group. A group holds pairs of one template (a
 * replicated environment) in template-relative shape indices, with one shape
 * offset per instance, so 4,096 copies of an environment store its pairs
 * once. A pair entry >= 0 is relative to the instance's first shape; an
 * entry < 0 encodes global shape g as -(g + 1), the same for every instance. */
#ifndef CC_KERNELS_BROADPHASE_EXPLICIT_H
#define CC_KERNELS_BROADPHASE_EXPLICIT_H

#include "kernels/broadphase/pair_buffer.h"

typedef struct cc_explicit_group {
    int64_t first_test; /* prefix of pair_count * instance_count */
    int pair_start, pair_count;
    int instance_start, instance_count;
} cc_explicit_group;

typedef struct cc_explicit_view {
    int group_count;
    const cc_explicit_group* groups;
    const cc_pair* pairs;         /* encoded as described above */
    const int* instance_offset;   /* first shape of each instance */
    int64_t total_tests;
} cc_explicit_view;

CC_HD int cc_explicit_decode(int entry, int offset) { return entry >= 0 ? entry + offset : -entry - 1; }

/* Tests one stored pair entry for the instance whose first shape is offset. */
CC_HD void cc_explicit_test_entry(cc_pair e, int offset, const cc_aabb* aabb, cc_pair_sink sink)
{
    int a = cc_explicit_decode(e.a, offset), b = cc_explicit_decode(e.b, offset);
    /* Filters were applied when the pairs were enumerated. */
    if (cc_aabb_overlap(aabb[a], aabb[b])) cc_emit_pair(sink, a, b);
}

/* Tests stored pair p of group g for one instance. */
CC_HD void cc_explicit_test(const cc_explicit_view* v, const cc_aabb* aabb, const cc_explicit_group* g,
                            int instance, int p, cc_pair_sink sink)
{
    cc_explicit_test_entry(v->pairs[g->pair_start + p], v->instance_offset[g->instance_start + instance], aabb,
                           sink);
}

/* Per-thread body: flat index t over every (group, instance, pair). */
CC_HD void cc_explicit_thread(int64_t t, const cc_explicit_view* v, const cc_aabb* aabb, cc_pair_sink sink)
{
    int lo = 0, hi = v->group_count - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) >> 1;
        if (v->groups[mid].first_test <= t) lo = mid;
        else hi = mid - 1;
    }
    const cc_explicit_group* g = &v->groups[lo];
    int64_t k = t - g->first_test;
    /* 32-bit division where it fits: 64-bit division is slow on GPUs. */
    if (k <= 0x7fffffff) {
        unsigned k32 = (unsigned)k, n = (unsigned)g->pair_count;
        cc_explicit_test(v, aabb, g, (int)(k32 / n), (int)(k32 % n), sink);
    } else {
        cc_explicit_test(v, aabb, g, (int)(k / g->pair_count), (int)(k % g->pair_count), sink);
    }
}

#endif
