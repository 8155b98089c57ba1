/* The builder's records, shared by builder.c and model.c. */
#ifndef CC_HOST_BUILDER_INTERNAL_H
#define CC_HOST_BUILDER_INTERNAL_H

#include "convex_hull_build.h"
#include "internal.h"

typedef struct cc_body_record {
    cc_transform pose;
    int is_static;
    int parent;
    int world;
} cc_body_record;

typedef struct cc_shape_record {
    int type;
    int body;
    int world;
    cc_transform local;
    cc_vec3 size;
    float margin, gap;
    int group;
    int filter_parent;
    int has_shape_collision;
    int source; /* hull index for convex hulls, else -1 */
} cc_shape_record;

typedef struct cc_index_pair {
    int a, b;
} cc_index_pair;

/* Consecutive copies of one template laid out with fixed strides: copy c
 * owns shapes first_shape + c*shape_stride + [0, shape_stride) and world
 * first_world + c. A block turns irregular when something makes one copy
 * differ from the others (a filter pair or shape added afterwards). */
typedef struct cc_replica_block {
    int first_shape, shape_stride;
    int first_body, body_stride;
    int first_world, copies;
    int irregular;
} cc_replica_block;

struct cc_builder {
    float rigid_gap;
    cc_body_record* bodies;
    int body_count, body_capacity;
    cc_shape_record* shapes;
    int shape_count, shape_capacity;
    cc_index_pair* filters;
    int filter_count, filter_capacity;
    cc_hull_data* hulls; /* hull pool, shared by shapes of every world */
    int hull_count, hull_capacity;
    cc_replica_block* blocks;
    int block_count, block_capacity;
    int world_count;
    int open_world; /* world opened by begin_world, or -1 */
};

#endif
