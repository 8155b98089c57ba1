/* Contact matching across passes, on key-sorted contacts.
 *
 * Each current contact binary-searches the previous pass's sorted keys for
 * rows of the same shape pair and takes the closest one whose normal agrees
 * (dot >= normal threshold) within the position threshold:
 *   latest: distance between world midpoints 0.5 (world(p0) + world(p1));
 *   sticky: the larger distance between each saved body-frame witness, moved
 *           by its body's current pose, and the fresh point.
 * Several current contacts may pick one previous row; each claims it with an
 * atomic minimum of (distance bits, current row), so the closest wins and
 * ties go to the lower row: the same winner whatever the thread order. */
#ifndef CC_KERNELS_CONTACTS_MATCHING_H
#define CC_KERNELS_CONTACTS_MATCHING_H

#include <string.h>

#include "cucontact/contacts.h"
#include "kernels/model_view.h"
#include "kernels/contacts/sort_key.h"

#define CC_CLAIM_NONE 0xffffffffffffffffull

/* Matching state that outlives a pass (device memory). */
typedef struct cc_match_state {
    int prev_count;      /* rows of the previous pass */
    int last_buffer;     /* id of the buffer the previous pass wrote, or -1 */
    int last_generation; /* that buffer's generation after the pass */
} cc_match_state;

typedef struct cc_match_view {
    int mode; /* cc_contact_matching */
    float pos_threshold;
    float normal_dot_threshold;
    int buffer_id;          /* id of the buffer this pass writes */
    cc_key_layout layout;
    const uint64_t* keys;   /* (capacity) sorted keys of this pass */
    uint64_t* prev_keys;    /* (capacity) sorted keys of the previous pass */
    unsigned long long* claims; /* (capacity) per previous row */
    cc_vec3* prev_mid;      /* (capacity) world midpoints */
    cc_vec3* prev_normal;   /* (capacity) world normals */
    cc_vec3* prev_point0;   /* (capacity) body-frame points, sticky only */
    cc_vec3* prev_point1;
    cc_match_state* state;
} cc_match_view;

CC_HD cc_vec3 cc_body_to_world(const cc_transform* body_pose, int body, cc_vec3 p)
{
    return body >= 0 ? cc_tf_point(body_pose[body], p) : p;
}

/* The first index in keys[0, n) whose key is >= k (a lower bound), found
 * by galloping out from a hint:
 * frame to frame a contact's previous row is usually near its own row, so
 * this touches a few nearby keys instead of a full binary search. */
CC_HD int cc_lower_bound_near_u64(const uint64_t* keys, int n, uint64_t k, int hint)
{
    if (n == 0) return 0;
    int at = hint < 0 ? 0 : (hint >= n ? n - 1 : hint);
    int lo, hi; /* the answer lies in (lo, hi] with keys[lo] < k <= keys[hi] */
    if (keys[at] < k) {
        int step = 1;
        lo = at;
        hi = at + step;
        while (hi < n && keys[hi] < k) {
            lo = hi;
            step *= 2;
            hi = lo + step;
        }
        if (hi > n) hi = n;
    } else {
        int step = 1;
        hi = at;
        lo = at - step;
        while (lo >= 0 && !(keys[lo] < k)) {
            hi = lo;
            step *= 2;
            lo = hi - step;
        }
        if (lo < -1) lo = -1;
    }
    /* Binary search of (lo, hi]. */
    int a = lo + 1, b = hi;
    while (a < b) {
        int mid = a + ((b - a) >> 1);
        if (keys[mid] < k) a = mid + 1;
        else b = mid;
    }
    return a;
}

/* One thread before matching: generation bookkeeping. */
CC_HD void cc_match_begin(const cc_match_view* v, cc_contacts_view c)
{
    int generation = *c.generation + 1;
    *c.generation = generation;
    *c.match_generation = v->state->last_buffer == v->buffer_id ? v->state->last_generation : -1;
    v->state->last_buffer = v->buffer_id;
    v->state->last_generation = generation;
}

/* Per current row i: pick the best previous row and claim it. The pick is
 * parked in match_index until cc_match_resolve_thread settles claims. */
CC_HD void cc_match_claim_thread(int i, const cc_match_view* v, const cc_model_view* m,
                                 const cc_transform* body_pose, cc_contacts_view c)
{
    int best = -1;
    float best_d = 0.0f;
    int b0 = m->shape_geom[c.shape0[i]].body, b1 = m->shape_geom[c.shape1[i]].body;
    cc_vec3 w0 = cc_body_to_world(body_pose, b0, c.point0[i]);
    cc_vec3 w1 = cc_body_to_world(body_pose, b1, c.point1[i]);
    cc_vec3 mid = cc_v3_scale(cc_v3_add(w0, w1), 0.5f);
    cc_vec3 n = c.normal[i];
    uint64_t pair = cc_key_pair(v->layout, v->keys[i]);
    int prev_count = v->state->prev_count;
    int j = cc_lower_bound_near_u64(v->prev_keys, prev_count, pair << v->layout.sub_bits, i);
    for (; j < prev_count && cc_key_pair(v->layout, v->prev_keys[j]) == pair; ++j) {
        if (!(cc_v3_dot(n, v->prev_normal[j]) >= v->normal_dot_threshold)) continue;
        float d;
        if (v->mode == 2 /* sticky */) {
            cc_vec3 s0 = cc_body_to_world(body_pose, b0, v->prev_point0[j]);
            cc_vec3 s1 = cc_body_to_world(body_pose, b1, v->prev_point1[j]);
            d = cc_maxf(cc_v3_length(cc_v3_sub(s0, w0)), cc_v3_length(cc_v3_sub(s1, w1)));
        } else {
            d = cc_v3_length(cc_v3_sub(mid, v->prev_mid[j]));
        }
        if (d <= v->pos_threshold && (best < 0 || d < best_d)) {
            best = j;
            best_d = d;
        }
    }
    c.match_index[i] = best;
    if (best >= 0) {
        uint32_t bits;
        memcpy(&bits, &best_d, sizeof bits); /* d >= 0: bit order is numeric order */
        cc_atomic_min_u64(&v->claims[best], ((unsigned long long)bits << 32) | (unsigned)i);
    }
}

/* Per current row i: keep the pick only if this row won its claim. In
 * sticky mode a matched penetrating contact takes the saved geometry. */
CC_HD void cc_match_resolve_thread(int i, const cc_match_view* v, const cc_model_view* m,
                                   const cc_transform* body_pose, cc_contacts_view c)
{
    int j = c.match_index[i];
    if (j < 0) return;
    if ((unsigned)(v->claims[j] & 0xffffffffu) != (unsigned)i) {
        c.match_index[i] = -1;
        return;
    }
    if (v->mode != 2 || !(c.distance[i] < 0.0f)) return;
    cc_vec3 n = v->prev_normal[j];
    int b0 = m->shape_geom[c.shape0[i]].body, b1 = m->shape_geom[c.shape1[i]].body;
    c.point0[i] = v->prev_point0[j];
    c.point1[i] = v->prev_point1[j];
    c.normal[i] = n;
    cc_vec3 w0 = cc_body_to_world(body_pose, b0, c.point0[i]);
    cc_vec3 w1 = cc_body_to_world(body_pose, b1, c.point1[i]);
    c.distance[i] = cc_v3_dot(n, cc_v3_sub(w1, w0)) - c.thickness0[i] - c.thickness1[i];
}

/* Per current row i: this pass becomes the previous one. */
CC_HD void cc_match_save_thread(int i, const cc_match_view* v, const cc_model_view* m,
                                const cc_transform* body_pose, cc_contacts_view c)
{
    int b0 = m->shape_geom[c.shape0[i]].body, b1 = m->shape_geom[c.shape1[i]].body;
    cc_vec3 w0 = cc_body_to_world(body_pose, b0, c.point0[i]);
    cc_vec3 w1 = cc_body_to_world(body_pose, b1, c.point1[i]);
    v->prev_keys[i] = v->keys[i];
    v->prev_mid[i] = cc_v3_scale(cc_v3_add(w0, w1), 0.5f);
    v->prev_normal[i] = c.normal[i];
    if (v->prev_point0) {
        v->prev_point0[i] = c.point0[i];
        v->prev_point1[i] = c.point1[i];
    }
}

/* One thread after the save: remember how many rows the pass kept. */
CC_HD void cc_match_end(const cc_match_view* v, cc_contacts_view c) { v->state->prev_count = *c.count; }

/* Report predicates. */
CC_HD int cc_report_is_new(int i, cc_contacts_view c) { return i < *c.count && c.match_index[i] < 0; }
CC_HD int cc_report_is_broken(int j, const cc_match_view* v)
{
    return j < v->state->prev_count && v->claims[j] == CC_CLAIM_NONE;
}

#endif
