/* Everything one collision pass touches, as plain pointers: the model, the
 * body poses of the state, the pipeline's work buffers and the contact
 * buffer. Backends pass it by value to every stage. */
#ifndef CC_KERNELS_PASS_VIEW_H
#define CC_KERNELS_PASS_VIEW_H

#include "kernels/broadphase/explicit.h"
#include "kernels/broadphase/nxn.h"
#include "kernels/broadphase/sap.h"
#include "kernels/contacts/matching.h"
#include "kernels/contacts/write.h"
#include "cucontact/contacts.h"
#include "kernels/mesh/midphase.h"
#include "kernels/pass_counters.h"
#include "kernels/contacts/sort_key.h"

typedef struct cc_pass_view {
    cc_model_view model;
    const cc_transform* body_pose; /* (nbody) from the state */
    cc_transform* shape_pose;      /* (nshape) world poses of this pass */
    cc_aabb* aabb;                 /* (nshape) expanded world AABBs */
    cc_pair_sink pairs;            /* candidate pairs, count in counters */
    cc_pair* grouped_pairs;        /* (pairs.capacity) candidates grouped by route */
    cc_pass_counters* counters;    /* (1) */
    cc_contacts_view contacts;
    cc_nxn_view nxn;
    cc_explicit_view explicit_pairs;
    cc_sap_view sap;
    cc_mesh_view mesh;             /* item_capacity 0: no mesh or heightfield pairs */
    cc_speculation_view spec;      /* speculative contacts (linear NULL: off) */
    cc_speculation_view* spec_published; /* (1) device copy of spec, written by the bounds stage */
    int* partner_next;             /* (2 * pairs.capacity) TOI mode: candidate lists (contacts/line_of_sight.h) */
    void* sort_temp;               /* radix-sort and selection scratch */
    size_t sort_temp_bytes;
    /* Deterministic order (raw_keys NULL when off): the narrow phase writes
     * raw rows and keys, the sort permutes, the gather fills `contacts`. */
    cc_contacts_view raw;          /* columns of the raw rows; count shared with contacts */
    uint64_t* raw_keys;            /* (raw.capacity) CC_KEY_EMPTY where no row was written */
    uint64_t* sorted_keys;         /* (raw.capacity) */
    const int* identity;           /* (raw.capacity) 0, 1, 2, ... */
    int* permutation;              /* (raw.capacity) raw row of each sorted row */
    cc_key_layout key_layout;
    cc_match_view match;           /* mode 0: matching off */
    int report;                    /* new/broken lists on */
    /* CPU backend, for tests: nonzero runs the narrow phase's pairs in a
     * scrambled order, as GPU scheduling may. */
    unsigned shuffle_seed;
    /* CPU backend, for tests: nonzero makes the mesh emit pass recompute
     * from shape positions scaled by (1 + emit_jitter), as a recomputation
     * that rounds differently (another kernel, other contraction) would. */
    float emit_jitter;
    /* Host array (CC_ROUTE_COUNT) of seconds spent per route, filled by the
     * CPU backend when profiling; NULL otherwise and on the GPU. */
    double* route_seconds;
} cc_pass_view;

/* Where the narrow phase writes: raw rows and keys in deterministic mode,
 * the user's buffer otherwise. */
CC_HD cc_contact_sink cc_pass_contact_sink(const cc_pass_view* v)
{
    cc_contact_sink s;
    s.rows = v->raw_keys ? v->raw : v->contacts;
    s.counter = &v->counters->contact_count;
    s.keys = v->raw_keys;
    s.layout = v->key_layout;
    s.spec = v->spec.linear ? v->spec_published : (const cc_speculation_view*)0;
    return s;
}

#endif
