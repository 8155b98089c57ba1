/* Capacity planning: conservative default sizes for the candidate-pair and
 * contact buffers, from shape types and the world layout. */
#ifndef CC_HOST_RUNTIME_CAPACITY_H
#define CC_HOST_RUNTIME_CAPACITY_H

#include "host/model/model_internal.h"

typedef struct cc_capacity_estimate {
    int64_t pairs;
    int64_t contacts;
    int64_t mesh_items;  /* mid-phase work items; 0 without surface pairs */
    int64_t mesh_blocks; /* reduction blocks */
} cc_capacity_estimate;

/* `possible_pairs` is the number of pairs the broad phase can ever report
 * (an upper bound); the estimate never exceeds what it implies. */
cc_capacity_estimate cc_estimate_capacity(const cc_model* m, int64_t possible_pairs, int reduce);

/* Contacts a pair of these types can produce at most (reference table). */
int cc_max_contacts_per_pair(int type_a, int type_b);

#endif
