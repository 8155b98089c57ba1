/* SAP broad phase: sort and sweep along the principal axis of the shape
 * centres.
 *
 * Each pass: (1) the covariance of the finite AABB centres gives the axis of
 * largest spread (power iteration, no trigonometry); (2) every entry's AABB
 * is projected on it and keyed by (segment << 32 | ordered bits of the lower
 * bound), segment being the entry's world; (3) the keys are radix sorted;
 * (4) each sorted entry sweeps forward within its segment while the next
 * lower bound does not pass its upper bound.
 *
 * Global shapes appear once in every world's segment (entries are laid out
 * at creation), so they meet each world's shapes; a pair of two globals is
 * reported only in the first segment. */
#ifndef CC_KERNELS_BROADPHASE_SAP_H
#define CC_KERNELS_BROADPHASE_SAP_H

#include <string.h>

#include "kernels/broadphase/pair_buffer.h"

typedef struct cc_moments {
    float n;
    cc_vec3 sum;     /* sum of centres */
    cc_vec3 sum_sq;  /* sums of x*x, y*y, z*z */
    cc_vec3 sum_xyz; /* sums of x*y, x*z, y*z */
} cc_moments;

typedef struct cc_sap_view {
    int entry_count;
    const int* entry_shape;   /* (entry_count) shape of each entry */
    const int* entry_segment; /* (entry_count) world segment of each entry */
    uint64_t* unsorted_keys;  /* (entry_count) sort keys written by the projection */
    int* unsorted_values;     /* (entry_count) entry index written by the projection */
    uint64_t* keys;           /* (entry_count) the keys after the radix sort */
    int* values;              /* (entry_count) entry indices in key order */
    float* upper;             /* (entry_count) projected upper bound, by entry */
    cc_vec3* axis;            /* (1) sweep axis of this pass */
} cc_sap_view;

CC_HD cc_moments cc_moments_zero(void)
{
    cc_moments m;
    m.n = 0.0f;
    m.sum = m.sum_sq = m.sum_xyz = cc_v3(0.0f, 0.0f, 0.0f);
    return m;
}

CC_HD cc_moments cc_moments_combine(cc_moments a, cc_moments b)
{
    a.n += b.n;
    a.sum = cc_v3_add(a.sum, b.sum);
    a.sum_sq = cc_v3_add(a.sum_sq, b.sum_sq);
    a.sum_xyz = cc_v3_add(a.sum_xyz, b.sum_xyz);
    return a;
}

/* Moments of the centres of shapes tid, tid + stride, ... with finite AABBs
 * (unbounded ones, such as infinite planes, would swamp the statistics).
 * Partials are combined in a fixed order, so the axis is reproducible. */
CC_HD cc_moments cc_sap_moments_partial(int tid, int stride, int shape_count, const cc_aabb* aabb)
{
    cc_moments m = cc_moments_zero();
    for (int i = tid; i < shape_count; i += stride) {
        cc_aabb b = aabb[i];
        cc_vec3 ext = cc_v3_sub(b.upper, b.lower);
        if (!(ext.x < 1.0e20f && ext.y < 1.0e20f && ext.z < 1.0e20f)) continue;
        cc_vec3 c = cc_v3_scale(cc_v3_add(b.lower, b.upper), 0.5f);
        m.n += 1.0f;
        m.sum = cc_v3_add(m.sum, c);
        m.sum_sq = cc_v3_add(m.sum_sq, cc_v3_mul(c, c));
        m.sum_xyz = cc_v3_add(m.sum_xyz, cc_v3(c.x * c.y, c.x * c.z, c.y * c.z));
    }
    return m;
}

/* Dominant eigenvector of the centre covariance by power iteration, started
 * from the coordinate axis of largest variance. Falls back to x. */
CC_HD cc_vec3 cc_sap_axis_from_moments(cc_moments m)
{
    if (!(m.n > 1.0f)) return cc_v3(1.0f, 0.0f, 0.0f);
    float inv = 1.0f / m.n;
    cc_vec3 mean = cc_v3_scale(m.sum, inv);
    float cxx = m.sum_sq.x * inv - mean.x * mean.x;
    float cyy = m.sum_sq.y * inv - mean.y * mean.y;
    float czz = m.sum_sq.z * inv - mean.z * mean.z;
    float cxy = m.sum_xyz.x * inv - mean.x * mean.y;
    float cxz = m.sum_xyz.y * inv - mean.x * mean.z;
    float cyz = m.sum_xyz.z * inv - mean.y * mean.z;
    cc_vec3 v = cxx >= cyy && cxx >= czz ? cc_v3(1.0f, 0.0f, 0.0f)
                : (cyy >= czz ? cc_v3(0.0f, 1.0f, 0.0f) : cc_v3(0.0f, 0.0f, 1.0f));
    for (int it = 0; it < 16; ++it) {
        cc_vec3 w = cc_v3(cxx * v.x + cxy * v.y + cxz * v.z, cxy * v.x + cyy * v.y + cyz * v.z,
                          cxz * v.x + cyz * v.y + czz * v.z);
        w = cc_v3_normalize(w);
        if (cc_v3_length_sq(w) < 0.5f) break; /* zero covariance or NaN: keep v */
        v = w;
    }
    return v;
}

/* Per entry: project its shape's AABB on the axis and write its sort key. */
CC_HD void cc_sap_project_thread(int e, const cc_sap_view* v, const cc_aabb* aabb)
{
    cc_vec3 axis = *v->axis;
    cc_aabb b = aabb[v->entry_shape[e]];
    /* Per component, the corner that minimises (maximises) the projection.
     * No centre/half-width form: for a half-unbounded box (an infinite
     * plane) that would cancel the finite bound against the 1e30 one. */
    cc_vec3 lo_corner = cc_v3(axis.x >= 0.0f ? b.lower.x : b.upper.x, axis.y >= 0.0f ? b.lower.y : b.upper.y,
                              axis.z >= 0.0f ? b.lower.z : b.upper.z);
    cc_vec3 hi_corner = cc_v3(axis.x >= 0.0f ? b.upper.x : b.lower.x, axis.y >= 0.0f ? b.upper.y : b.lower.y,
                              axis.z >= 0.0f ? b.upper.z : b.lower.z);
    float lo = cc_v3_dot(lo_corner, axis), hi = cc_v3_dot(hi_corner, axis);
    v->upper[e] = hi;
    v->unsorted_keys[e] = ((uint64_t)(uint32_t)v->entry_segment[e] << 32) | cc_float_order_bits(lo);
    v->unsorted_values[e] = e;
}

/* Per sorted position i: sweep forward through its segment. Keys order by
 * segment, then lower bound, so one comparison against (segment, upper
 * bound) ends the sweep at whichever comes first. */
CC_HD void cc_sap_sweep_thread(int i, const cc_sap_view* v, const cc_model_view* m,
                               const cc_aabb* aabb, cc_pair_sink sink)
{
    int ei = v->values[i];
    uint64_t segment = v->keys[i] >> 32;
    uint64_t limit = (segment << 32) | cc_float_order_bits(v->upper[ei]);
    int a = v->entry_shape[ei];
    cc_aabb box = aabb[a];
    int a_global = m->shape_world[a] < 0;
    for (int j = i + 1; j < v->entry_count && v->keys[j] <= limit; ++j) {
        int b = v->entry_shape[v->values[j]];
        if (!cc_aabb_overlap(box, aabb[b])) continue;
        /* Two globals meet in every segment; report them in the first only. */
        if (a_global && segment != 0 && m->shape_world[b] < 0) continue;
        if (cc_pair_may_collide(m, a, b)) cc_emit_pair(sink, a, b);
    }
}

#endif
