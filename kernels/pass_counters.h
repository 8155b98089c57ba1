/* Device-side counters of one collision pass. They are cleared at the start
 * of each pass and read by the host only after it synchronises, to report
 * overflow. */
#ifndef CC_KERNELS_PASS_COUNTERS_H
#define CC_KERNELS_PASS_COUNTERS_H

#include "kernels/narrowphase/route.h"

typedef struct cc_pass_counters {
    int pair_count;    /* candidate pairs found, possibly above capacity */
    int contact_count; /* contacts found, possibly above capacity */
    int route_count[CC_ROUTE_COUNT];  /* candidate pairs per route */
    int route_cursor[CC_ROUTE_COUNT]; /* next free row of each route's group */
    int mesh_item_count;  /* mesh work items found, possibly above capacity */
    int mesh_block_count; /* pairs that asked for a reduction block */
    int mesh_kind_count[8];  /* work items per kind (CC_MESH_ITEM_KINDS used) */
    int mesh_kind_cursor[8]; /* next free row of each kind's group */
    /* Time-of-impact mode (contacts/toi.h). */
    int fast_shapes;         /* shapes whose sweep exceeds their smallest half extent */
    int toi_pairs;           /* pairs swept by conservative advancement */
    int toi_contacts;        /* their contacts, written or not */
    int toi_occluded;        /* pairs whose impact another shape hides */
    int toi_capped;          /* searches stopped at their iteration cap */
    int toi_iterations_max;  /* the most separation queries of one search */
} cc_pass_counters;

CC_HD int cc_min_i32(int a, int b) { return a < b ? a : b; }

#endif
