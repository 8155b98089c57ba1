/* SAP broad phase: sort and sweep along the coordinate axis over which the
 * shape centres spread most.
 *
 * Each pass: (1) the variances of the finite AABB centres choose the axis;
 * (2) every entry is keyed by (segment << 32 | ordered bits of its AABB's
 * lower bound on the axis), segment being the entry's world; (3) the keys
 * are radix sorted; (4) each sorted position gathers its shape, sweep limit
 * and its AABB's bounds on the other two axes, so the sweep reads them in
 * order rather than through two indirections; (5) each sorted entry sweeps
 * forward within its segment while the next lower bound does not pass its
 * upper bound, and reports the entries whose bounds on the other two axes
 * overlap its own (the sweep has already tested the first axis).
 *
 * A coordinate axis rather than the principal direction: AABBs are tightest
 * along the coordinate axes, and a diagonal one widens every interval as
 * much as it spreads the centres, so it does not cut the candidates.
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
    cc_vec3 sum;    /* sum of centres */
    cc_vec3 sum_sq; /* sums of x*x, y*y, z*z */
} cc_moments;

#define CC_SAP_BLOCK 8 /* candidates the sweep tests per step: one 64-bit mask of bytes */
typedef char cc_sap_block_fills_a_u64[CC_SAP_BLOCK == sizeof(uint64_t) ? 1 : -1];

typedef struct cc_sap_view {
    int entry_count;
    const int* entry_shape;   /* (entry_count) shape of each entry */
    const int* entry_segment; /* (entry_count) world segment of each entry */
    uint64_t* unsorted_keys;  /* (entry_count) sort keys written by the projection */
    int* unsorted_values;     /* (entry_count) entry index written by the projection */
    uint64_t* keys;           /* (entry_count) the keys after the radix sort */
    int* values;              /* (entry_count) entry indices in key order */
    float* upper;             /* (entry_count) upper bound on the axis, by entry */
    int* sorted_shape;        /* (entry_count) shape at each sorted position */
    float* sorted_bounds;     /* (4 entry_count) its bounds on the other two axes, in four
                                 runs: lower u, lower w, upper u, upper w */
    uint64_t* sorted_limit;   /* (entry_count) segment and upper bound, as a key */
    int* axis;                /* (1) sweep axis of this pass: 0, 1 or 2 */
} cc_sap_view;

CC_HD cc_moments cc_moments_zero(void)
{
    cc_moments m;
    m.n = 0.0f;
    m.sum = m.sum_sq = cc_v3(0.0f, 0.0f, 0.0f);
    return m;
}

CC_HD cc_moments cc_moments_combine(cc_moments a, cc_moments b)
{
    a.n += b.n;
    a.sum = cc_v3_add(a.sum, b.sum);
    a.sum_sq = cc_v3_add(a.sum_sq, b.sum_sq);
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
    }
    return m;
}

/* The coordinate axis of largest centre variance; x when there is none. */
CC_HD int cc_sap_axis_from_moments(cc_moments m)
{
    if (!(m.n > 1.0f)) return 0;
    float inv = 1.0f / m.n;
    cc_vec3 mean = cc_v3_scale(m.sum, inv);
    float vx = m.sum_sq.x * inv - mean.x * mean.x;
    float vy = m.sum_sq.y * inv - mean.y * mean.y;
    float vz = m.sum_sq.z * inv - mean.z * mean.z;
    if (vy > vx && vy >= vz) return 1;
    if (vz > vx && vz > vy) return 2;
    return 0;
}

/* Per entry: its AABB's bounds on the axis and its sort key. */
CC_HD void cc_sap_project_thread(int e, const cc_sap_view* v, const cc_aabb* aabb)
{
    int axis = *v->axis;
    cc_aabb b = aabb[v->entry_shape[e]];
    v->upper[e] = cc_v3_get(b.upper, axis);
    v->unsorted_keys[e] =
        ((uint64_t)(uint32_t)v->entry_segment[e] << 32) | cc_float_order_bits(cc_v3_get(b.lower, axis));
    v->unsorted_values[e] = e;
}

/* Per sorted position i: copy what the sweep reads into key order. */
CC_HD void cc_sap_gather_thread(int i, const cc_sap_view* v, const cc_aabb* aabb)
{
    int n = v->entry_count;
    int e = v->values[i];
    int shape = v->entry_shape[e];
    int u = (*v->axis + 1) % 3, w = (*v->axis + 2) % 3;
    cc_aabb b = aabb[shape];
    v->sorted_bounds[i] = cc_v3_get(b.lower, u);
    v->sorted_bounds[n + i] = cc_v3_get(b.lower, w);
    v->sorted_bounds[2 * n + i] = cc_v3_get(b.upper, u);
    v->sorted_bounds[3 * n + i] = cc_v3_get(b.upper, w);
    v->sorted_shape[i] = shape;
    v->sorted_limit[i] = (v->keys[i] & 0xffffffff00000000ull) | cc_float_order_bits(v->upper[e]);
}

/* Per sorted position i: sweep forward through its segment. Keys order by
 * segment, then lower bound, so one comparison against (segment, upper
 * bound) ends the sweep at whichever comes first. */
CC_HD void cc_sap_sweep_thread(int i, const cc_sap_view* v, const cc_model_view* m, cc_pair_sink sink)
{
    int n = v->entry_count;
    const float* lower_u = v->sorted_bounds;
    const float* lower_w = lower_u + n;
    const float* upper_u = lower_w + n;
    const float* upper_w = upper_u + n;
    uint64_t limit = v->sorted_limit[i];
    int segment = (int)(v->keys[i] >> 32);
    int a = v->sorted_shape[i];
    float lu = lower_u[i], lw = lower_w[i], hu = upper_u[i], hw = upper_w[i];
    int a_global = m->shape_world[a] < 0;
    /* Candidates are tested a block at a time, with & rather than && and no
     * exits, so compilers vectorise the block; hits are rare and handled
     * after it. Keys are sorted, so a block whose last key is within the
     * limit is whole, and the first that is not is the sweep's last. */
    for (int base = i + 1; base < n; base += CC_SAP_BLOCK) {
        int count = CC_SAP_BLOCK;
        unsigned char hit[CC_SAP_BLOCK];
        if (base + CC_SAP_BLOCK <= n && v->keys[base + CC_SAP_BLOCK - 1] <= limit) {
            for (int k = 0; k < CC_SAP_BLOCK; ++k) {
                int j = base + k;
                hit[k] = (unsigned char)((lu <= upper_u[j]) & (lower_u[j] <= hu) & (lw <= upper_w[j]) &
                                         (lower_w[j] <= hw));
            }
        } else {
            count = 0;
            while (count < CC_SAP_BLOCK && base + count < n && v->keys[base + count] <= limit) ++count;
            for (int k = 0; k < CC_SAP_BLOCK; ++k) {
                int j = base + k;
                hit[k] = (unsigned char)(k < count && lu <= upper_u[j] && lower_u[j] <= hu && lw <= upper_w[j] &&
                                         lower_w[j] <= hw);
            }
        }
        uint64_t any;
        memcpy(&any, hit, sizeof any);
        for (int k = 0; any != 0 && k < count; ++k) {
            if (!hit[k]) continue;
            int b = v->sorted_shape[base + k];
            /* Two globals meet in every segment; report them in the first only. */
            if (a_global && segment != 0 && m->shape_world[b] < 0) continue;
            if (cc_pair_may_collide(m, a, b)) cc_emit_pair(sink, a, b);
        }
        if (count < CC_SAP_BLOCK) break;
    }
}

#endif
