/* Candidate pairs appended by the broad phase into a bounded buffer. The
 * counter keeps counting past the capacity, so after the pass it holds the
 * number of pairs the pass needed; rows past the capacity are never written. */
#ifndef CC_KERNELS_BROADPHASE_PAIR_BUFFER_H
#define CC_KERNELS_BROADPHASE_PAIR_BUFFER_H

#include "kernels/broadphase/filter.h"
#include "kernels/shapes/bounds.h"

typedef struct cc_pair {
    int a, b; /* shape indices, a < b */
} cc_pair;

typedef struct cc_pair_sink {
    cc_pair* pairs;
    int capacity;
    int* count; /* pairs found so far, possibly above capacity */
} cc_pair_sink;

CC_HD void cc_emit_pair(cc_pair_sink sink, int a, int b)
{
    int slot = cc_atomic_add_i32(sink.count, 1);
    if (slot < sink.capacity) {
        cc_pair p;
        p.a = a < b ? a : b;
        p.b = a < b ? b : a;
        sink.pairs[slot] = p;
    }
}

/* The test every broad phase applies to a pair it enumerates. */
CC_HD void cc_test_and_emit_pair(const cc_model_view* m, const cc_aabb* aabb, int a, int b,
                                 cc_pair_sink sink)
{
    if (cc_aabb_overlap(aabb[a], aabb[b]) && cc_pair_may_collide(m, a, b)) cc_emit_pair(sink, a, b);
}

#endif
