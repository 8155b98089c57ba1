/* Fixed broad-phase data computed at pipeline creation. Only shapes that
 * can collide at all (CC_SHAPE_FLAG_COLLIDES) take part. */
#include <string.h>

#include "host/runtime/pair_layout.h"

static int collides(const cc_model_view* v, int s) { return (v->shape_flags[s] & CC_SHAPE_FLAG_COLLIDES) != 0; }

/* Colliding shapes listed world by world, globals last; world_start has
 * world_count + 2 entries (the last two bound the globals). */
static cc_status list_by_world(const cc_model_view* v, int** out_index, int** out_start, int* out_count)
{
    int W = v->world_count;
    int* start = (int*)cc_host_calloc((size_t)W + 2, sizeof(int));
    int* index = (int*)cc_host_alloc(sizeof(int) * (size_t)(v->shape_count + 1));
    int* cursor = (int*)cc_host_calloc((size_t)W + 2, sizeof(int));
    if (!start || !index || !cursor) {
        cc_host_free(start);
        cc_host_free(index);
        cc_host_free(cursor);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory while laying out the broad phase");
    }
    /* Bucket w holds world w; bucket W holds the globals. */
    for (int s = 0; s < v->shape_count; ++s)
        if (collides(v, s)) start[(v->shape_world[s] < 0 ? W : v->shape_world[s]) + 1]++;
    for (int w = 0; w <= W; ++w) start[w + 1] += start[w];
    memcpy(cursor, start, sizeof(int) * ((size_t)W + 2));
    for (int s = 0; s < v->shape_count; ++s)
        if (collides(v, s)) index[cursor[v->shape_world[s] < 0 ? W : v->shape_world[s]]++] = s;
    *out_count = start[W + 1];
    cc_host_free(cursor);
    *out_index = index;
    *out_start = start;
    return CC_OK;
}

cc_status cc_nxn_layout_build(const cc_model* m, cc_nxn_layout* out)
{
    const cc_model_view* v = &m->host_view;
    memset(out, 0, sizeof *out);
    int* start;
    cc_status s = list_by_world(v, &out->shape_index, &start, &out->shape_index_count);
    if (s != CC_OK) return s;
    int W = v->world_count;
    out->segments = (cc_nxn_segment*)cc_host_alloc(sizeof(cc_nxn_segment) * (size_t)(2 * W + 1));
    if (!out->segments) {
        cc_host_free(start);
        cc_nxn_layout_free(out);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory while laying out NXN");
    }
    int g_start = start[W], g_count = start[W + 1] - start[W];
    int64_t total = 0;
    int n = 0;
    for (int w = 0; w <= W; ++w) {
        int a_start = start[w], a_count = start[w + 1] - start[w];
        /* Pairs within the world (or among the globals for w == W). */
        cc_nxn_segment tri = {total, a_start, a_count, 0, -1};
        if (cc_nxn_segment_pairs(a_count, -1) > 0) {
            out->segments[n++] = tri;
            total += cc_nxn_segment_pairs(a_count, -1);
        }
        if (w == W) break;
        /* The world's shapes against the globals. */
        cc_nxn_segment rect = {total, a_start, a_count, g_start, g_count};
        if (cc_nxn_segment_pairs(a_count, g_count) > 0) {
            out->segments[n++] = rect;
            total += cc_nxn_segment_pairs(a_count, g_count);
        }
    }
    out->segment_count = n;
    out->total_pairs = total;
    cc_host_free(start);
    return CC_OK;
}

void cc_nxn_layout_free(cc_nxn_layout* l)
{
    cc_host_free(l->segments);
    cc_host_free(l->shape_index);
    memset(l, 0, sizeof *l);
}

/* Which regular replica block, if any, owns world w. */
static const cc_replica_block* regular_block_of_world(const cc_model* m, int w)
{
    for (int k = 0; k < m->block_count; ++k) {
        const cc_replica_block* b = &m->blocks[k];
        if (!b->irregular && w >= b->first_world && w < b->first_world + b->copies) return b;
    }
    return NULL;
}

int64_t cc_explicit_pairs_upper_bound(const cc_model* m, int64_t* tests_bound)
{
    const cc_model_view* v = &m->host_view;
    int64_t globals = 0, bound = 0, tests = 0;
    int W = v->world_count;
    int64_t* per_world = (int64_t*)cc_host_calloc((size_t)W + 1, sizeof(int64_t));
    if (!per_world) {
        if (tests_bound) *tests_bound = INT64_MAX;
        return INT64_MAX;
    }
    for (int s = 0; s < v->shape_count; ++s) {
        if (!collides(v, s)) continue;
        if (v->shape_world[s] < 0) globals++;
        else per_world[v->shape_world[s]]++;
    }
    for (int w = 0; w < W; ++w) {
        int64_t pairs = per_world[w] * (per_world[w] - 1) / 2 + per_world[w] * globals;
        tests += pairs;
        const cc_replica_block* b = regular_block_of_world(m, w);
        if (b && w != b->first_world) continue; /* stored once per template */
        bound += pairs;
    }
    bound += globals * (globals - 1) / 2;
    tests += globals * (globals - 1) / 2;
    cc_host_free(per_world);
    if (tests_bound) *tests_bound = tests;
    return bound;
}

typedef struct pair_list {
    cc_explicit_layout* l;
    int count_only;
    int capacity;
    int failed;
} pair_list;

static void push_pair(pair_list* pl, int a, int b)
{
    cc_explicit_layout* l = pl->l;
    if (!pl->count_only) {
        if (!cc_reserve((void**)&l->pairs, &pl->capacity, l->pair_count + 1, sizeof(cc_pair))) {
            pl->failed = 1;
            return;
        }
        l->pairs[l->pair_count].a = a;
        l->pairs[l->pair_count].b = b;
    }
    l->pair_count++;
}

static int push_group(cc_explicit_layout* l, int pair_start, int instance_start, int instances,
                      int count_only, int* group_capacity)
{
    int pairs = l->pair_count - pair_start;
    if (pairs == 0) return 1;
    l->total_tests += (int64_t)pairs * instances;
    if (count_only) return 1;
    if (!cc_reserve((void**)&l->groups, group_capacity, l->group_count + 1, sizeof(cc_explicit_group))) return 0;
    cc_explicit_group g;
    g.first_test = l->total_tests - (int64_t)pairs * instances;
    g.pair_start = pair_start;
    g.pair_count = pairs;
    g.instance_start = instance_start;
    g.instance_count = instances;
    l->groups[l->group_count++] = g;
    return 1;
}

cc_status cc_explicit_layout_build(const cc_model* m, int count_only, cc_explicit_layout* out)
{
    const cc_model_view* v = &m->host_view;
    memset(out, 0, sizeof *out);
    int* index;
    int* start;
    int listed;
    cc_status s = list_by_world(v, &index, &start, &listed);
    if (s != CC_OK) return s;
    int W = v->world_count, g0 = start[W], gn = start[W + 1] - start[W];
    pair_list pl = {out, count_only, 0, 0};
    int group_capacity = 0, offset_capacity = 0;

    /* Globals among themselves. */
    int first = out->pair_count;
    for (int i = 0; i < gn; ++i)
        for (int j = i + 1; j < gn; ++j)
            if (cc_pair_may_collide(v, index[g0 + i], index[g0 + j]))
                push_pair(&pl, -index[g0 + i] - 1, -index[g0 + j] - 1);
    int loose_first = -1; /* instance slot holding offset 0 */
    if (!count_only && !cc_reserve((void**)&out->instance_offset, &offset_capacity, 1, sizeof(int))) pl.failed = 1;
    if (!pl.failed && !count_only) {
        out->instance_offset[out->instance_count] = 0;
        loose_first = out->instance_count++;
    }
    if (!push_group(out, first, loose_first, 1, count_only, &group_capacity)) pl.failed = 1;

    /* Each world: a regular block's first copy stores pairs relative to its
     * first shape for all copies; other worlds store absolute indices. */
    for (int w = 0; w < W && !pl.failed; ++w) {
        const cc_replica_block* b = regular_block_of_world(m, w);
        if (b && w != b->first_world) continue;
        int base = b ? b->first_shape : 0;
        first = out->pair_count;
        for (int i = start[w]; i < start[w + 1]; ++i) {
            int a = index[i];
            for (int j = i + 1; j < start[w + 1]; ++j)
                if (cc_pair_may_collide(v, a, index[j])) push_pair(&pl, a - base, index[j] - base);
            for (int j = 0; j < gn; ++j)
                if (cc_pair_may_collide(v, a, index[g0 + j])) push_pair(&pl, a - base, -index[g0 + j] - 1);
        }
        if (pl.failed) break;
        if (b) {
            int inst = out->instance_count;
            if (!count_only) {
                if (!cc_reserve((void**)&out->instance_offset, &offset_capacity, inst + b->copies, sizeof(int))) {
                    pl.failed = 1;
                    break;
                }
                for (int c = 0; c < b->copies; ++c) out->instance_offset[inst + c] = b->first_shape + c * b->shape_stride;
                out->instance_count += b->copies;
            }
            if (!push_group(out, first, inst, b->copies, count_only, &group_capacity)) pl.failed = 1;
        } else if (!push_group(out, first, loose_first, 1, count_only, &group_capacity)) {
            pl.failed = 1;
        }
    }
    cc_host_free(index);
    cc_host_free(start);
    if (pl.failed) {
        cc_explicit_layout_free(out);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory while enumerating explicit pairs; use broad_phase SAP");
    }
    return CC_OK;
}

void cc_explicit_layout_free(cc_explicit_layout* l)
{
    cc_host_free(l->groups);
    cc_host_free(l->pairs);
    cc_host_free(l->instance_offset);
    memset(l, 0, sizeof *l);
}

int64_t cc_sap_entry_count(const cc_model* m, int* segment_count)
{
    const cc_model_view* v = &m->host_view;
    int segments = v->world_count > 0 ? v->world_count : 1;
    int64_t locals = 0, globals = 0;
    for (int s = 0; s < v->shape_count; ++s) {
        if (!collides(v, s)) continue;
        if (v->shape_world[s] < 0) globals++;
        else locals++;
    }
    if (segment_count) *segment_count = segments;
    return locals + globals * segments;
}

cc_status cc_sap_layout_build(const cc_model* m, cc_sap_layout* out)
{
    const cc_model_view* v = &m->host_view;
    memset(out, 0, sizeof *out);
    int segments = 1;
    int64_t total = cc_sap_entry_count(m, &segments);
    if (total > INT32_MAX / 4)
        return cc_fail(CC_ERR_INVALID_CAPACITY, "SAP would need %lld entries (global shapes copied into %d worlds); put fewer shapes in world -1 or use EXPLICIT", (long long)total, segments);
    out->entry_shape = (int*)cc_host_alloc(sizeof(int) * (size_t)(total + 1));
    out->entry_segment = (int*)cc_host_alloc(sizeof(int) * (size_t)(total + 1));
    if (!out->entry_shape || !out->entry_segment) {
        cc_sap_layout_free(out);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory while laying out SAP");
    }
    int n = 0;
    for (int s = 0; s < v->shape_count; ++s) {
        if (!collides(v, s)) continue;
        if (v->shape_world[s] >= 0) {
            out->entry_shape[n] = s;
            out->entry_segment[n++] = v->shape_world[s];
        } else {
            for (int w = 0; w < segments; ++w) {
                out->entry_shape[n] = s;
                out->entry_segment[n++] = w;
            }
        }
    }
    out->entry_count = n;
    return CC_OK;
}

void cc_sap_layout_free(cc_sap_layout* l)
{
    cc_host_free(l->entry_shape);
    cc_host_free(l->entry_segment);
    memset(l, 0, sizeof *l);
}
