/* Pipeline creation (broad-phase choice, capacities, every buffer) and the
 * collision pass: bounds, broad phase, route grouping, narrow phase. */
#include <math.h>
#include <string.h>

#include "host/runtime/broad_phase_choice.h"
#include "host/runtime/capacity.h"
#include "host/runtime/pair_layout.h"
#include "host/runtime/pipeline_internal.h"
#include "host/testing.h"

#define CC_DEF_COOKIE 0x63635f64
#define DEFAULT_EXPLICIT_BUDGET ((size_t)64 << 20)
/* Warn when the contact buffer estimate reaches this size. */
#define LARGE_BUFFER_BYTES ((int64_t)256 << 20)
/* Device bytes of one contact row (see cc_contacts_view). */
#define CONTACT_ROW_BYTES 60

cc_pipeline_def cc_default_pipeline_def(void)
{
    cc_pipeline_def d;
    d.broad_phase = CC_BROAD_PHASE_AUTO;
    d.rigid_contact_max = CC_CAPACITY_AUTO;
    d.shape_pairs_max = CC_CAPACITY_AUTO;
    d.explicit_pair_budget_bytes = DEFAULT_EXPLICIT_BUDGET;
    d.deterministic = 0;
    d.contact_matching = CC_MATCHING_DISABLED;
    d.contact_matching_pos_threshold = 0.0005f;
    d.contact_matching_normal_dot_threshold = 0.9f;
    d.contact_report = 0;
    d.skip_unsupported_pairs = 0;
    d.reduce_contacts = 1;
    d.mesh_work_items_max = CC_CAPACITY_AUTO;
    d.mesh_reduction_pairs_max = CC_CAPACITY_AUTO;
    d.speculative_contact_gap_max = 0.0f;
    d.speculative_mode = CC_SPECULATIVE_GAP;
    d.cookie = CC_DEF_COOKIE;
    return d;
}

/* Allocates a device buffer owned by the pipeline (zeroed on the CPU). */
static cc_status pipeline_alloc(cc_pipeline* p, size_t bytes, void** out)
{
    if (p->buffer_count == CC_MAX_PIPELINE_BUFFERS)
        return cc_fail(CC_ERR_INVALID_STATE, "internal: too many pipeline buffers");
    cc_status s = cc_device_alloc(p->backend, bytes ? bytes : 16, out);
    if (s != CC_OK) return s;
    p->buffers[p->buffer_count++] = *out;
    p->info.device_bytes += bytes;
    return CC_OK;
}

static cc_status pipeline_upload(cc_pipeline* p, const void* src, size_t bytes, void** out)
{
    cc_status s = pipeline_alloc(p, bytes, out);
    if (s == CC_OK && bytes) s = p->backend->upload(*out, src, bytes);
    return s;
}

static cc_status validate_def(const cc_pipeline_def* d)
{
    static const char* what = "cc_pipeline_create";
    if (d->cookie != CC_DEF_COOKIE)
        return cc_fail(CC_ERR_UNINITIALIZED_DEF, "%s: the def was not made by cc_default_pipeline_def(); start from it and change fields", what);
    if ((int)d->broad_phase < CC_BROAD_PHASE_AUTO || d->broad_phase > CC_BROAD_PHASE_EXPLICIT)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: broad_phase %d is not a cc_broad_phase value", what, (int)d->broad_phase);
    if (d->rigid_contact_max == 0 || d->rigid_contact_max < CC_CAPACITY_AUTO)
        return cc_fail(CC_ERR_INVALID_CAPACITY, "%s: rigid_contact_max %d is invalid; give a positive row count or CC_CAPACITY_AUTO", what, d->rigid_contact_max);
    if (d->shape_pairs_max == 0 || d->shape_pairs_max < CC_CAPACITY_AUTO)
        return cc_fail(CC_ERR_INVALID_CAPACITY, "%s: shape_pairs_max %d is invalid; give a positive pair count or CC_CAPACITY_AUTO", what, d->shape_pairs_max);
    if ((int)d->contact_matching < CC_MATCHING_DISABLED || d->contact_matching > CC_MATCHING_STICKY)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: contact_matching %d is not a cc_contact_matching value", what, (int)d->contact_matching);
    if (!(d->contact_matching_pos_threshold >= 0.0f) || !isfinite(d->contact_matching_pos_threshold))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: contact_matching_pos_threshold %g must be a finite distance >= 0", what, (double)d->contact_matching_pos_threshold);
    if (!(d->contact_matching_normal_dot_threshold >= -1.0f && d->contact_matching_normal_dot_threshold <= 1.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: contact_matching_normal_dot_threshold %g must lie in [-1, 1]", what, (double)d->contact_matching_normal_dot_threshold);
    if (d->mesh_work_items_max == 0 || d->mesh_work_items_max < CC_CAPACITY_AUTO)
        return cc_fail(CC_ERR_INVALID_CAPACITY, "%s: mesh_work_items_max %d is invalid; give a positive item count or CC_CAPACITY_AUTO", what, d->mesh_work_items_max);
    if (d->mesh_reduction_pairs_max == 0 || d->mesh_reduction_pairs_max < CC_CAPACITY_AUTO)
        return cc_fail(CC_ERR_INVALID_CAPACITY, "%s: mesh_reduction_pairs_max %d is invalid; give a positive pair count or CC_CAPACITY_AUTO", what, d->mesh_reduction_pairs_max);
    if (!(d->speculative_contact_gap_max >= 0.0f) || !isfinite(d->speculative_contact_gap_max))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: speculative_contact_gap_max %g must be a finite distance >= 0 [m] (0 turns speculation off)", what, (double)d->speculative_contact_gap_max);
    if (d->speculative_contact_gap_max > CC_SIZE_MAX)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: speculative_contact_gap_max %g exceeds CC_SIZE_MAX (%g m)", what, (double)d->speculative_contact_gap_max, (double)CC_SIZE_MAX);
    if (d->speculative_mode != CC_SPECULATIVE_GAP && d->speculative_mode != CC_SPECULATIVE_TOI)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: speculative_mode %d is not a cc_speculative_mode (CC_SPECULATIVE_GAP or CC_SPECULATIVE_TOI)", what, (int)d->speculative_mode);
    if (d->contact_report && d->contact_matching == CC_MATCHING_DISABLED)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: contact_report needs a contact_matching mode (CC_MATCHING_LATEST or CC_MATCHING_STICKY)", what);
    return CC_OK;
}

/* Sort-key layout for sub-keys below sub_count: the narrowest sub-key that
 * holds them (3 bits at least), the shapes in the rest. */
cc_status cc_testing_key_layout(int shape_count, uint64_t sub_count, cc_key_layout* out)
{
    int sub_bits = CC_KEY_SUB_BITS_SIMPLE;
    while (sub_bits < 62 && ((uint64_t)1 << sub_bits) < sub_count) sub_bits++;
    *out = cc_key_layout_make(sub_bits);
    if ((int64_t)shape_count > ((int64_t)1 << out->shape_bits))
        return cc_fail(CC_ERR_INVALID_ARGUMENT,
                       "cc_pipeline_create: deterministic ordering and matching hold at most 2^%d shapes when the "
                       "model's largest mesh or heightfield needs %d sub-key bits; the model has %d shapes. Turn "
                       "them off, split the model, or use smaller meshes",
                       out->shape_bits, sub_bits, shape_count);
    return CC_OK;
}

/* The sub-keys a model's pairs can produce: manifold points (8) for every
 * pair; for a surface, reduction slots, triangle fingerprints (triangle * 8
 * + point), vertex fingerprints (vertex * 2 + side) and, with SDFs, feature
 * fingerprints ((feature * 2 + which) * 2 + side). */
static uint64_t model_sub_count(const cc_model_view* v)
{
    uint64_t n = 8;
    int surfaces = 0;
    for (int i = 0; i < v->meshes_count; ++i) {
        uint64_t t = 8u * (uint64_t)v->meshes[i].triangle_count, w = 2u * (uint64_t)v->meshes[i].vertex_count;
        uint64_t f = 4u * ((uint64_t)v->meshes[i].vertex_count + (uint64_t)v->meshes[i].edge_count);
        n = t > n ? t : n;
        n = w > n ? w : n;
        n = v->sdfs_count && f > n ? f : n;
        surfaces = 1;
    }
    for (int i = 0; i < v->hfields_count; ++i) {
        /* Triangles (16 a cell), or with SDFs grid nodes (16 sub-keys a node). */
        uint64_t t = 16u * (uint64_t)v->hfields[i].rows * (uint64_t)v->hfields[i].cols;
        n = t > n ? t : n;
        surfaces = 1;
    }
    if (surfaces && n < CC_REDUCE_SLOTS) n = CC_REDUCE_SLOTS;
    return n;
}

static cc_status choose_key_layout(const cc_model* m, cc_key_layout* out)
{
    const cc_model_view* v = &m->host_view;
    return cc_testing_key_layout(v->shape_count, model_sub_count(v), out);
}

static cc_status setup_nxn(cc_pipeline* p, int64_t* possible)
{
    cc_nxn_layout l;
    cc_status s = cc_nxn_layout_build(p->model, &l);
    void *seg = NULL, *idx = NULL;
    if (s == CC_OK) s = pipeline_upload(p, l.segments, sizeof(cc_nxn_segment) * (size_t)l.segment_count, &seg);
    if (s == CC_OK) s = pipeline_upload(p, l.shape_index, sizeof(int) * (size_t)l.shape_index_count, &idx);
    if (s == CC_OK) {
        p->view.nxn.segment_count = l.segment_count;
        p->view.nxn.segments = (const cc_nxn_segment*)seg;
        p->view.nxn.shape_index = (const int*)idx;
        p->view.nxn.total_pairs = l.total_pairs;
        *possible = l.total_pairs;
    }
    cc_nxn_layout_free(&l);
    return s;
}

static cc_status setup_explicit(cc_pipeline* p, int64_t* possible)
{
    cc_explicit_layout l;
    cc_status s = cc_explicit_layout_build(p->model, 0, &l);
    void *groups = NULL, *pairs = NULL, *offsets = NULL;
    if (s == CC_OK) s = pipeline_upload(p, l.groups, sizeof(cc_explicit_group) * (size_t)l.group_count, &groups);
    if (s == CC_OK) s = pipeline_upload(p, l.pairs, sizeof(cc_pair) * (size_t)l.pair_count, &pairs);
    if (s == CC_OK) s = pipeline_upload(p, l.instance_offset, sizeof(int) * (size_t)l.instance_count, &offsets);
    if (s == CC_OK) {
        p->view.explicit_pairs.group_count = l.group_count;
        p->view.explicit_pairs.groups = (const cc_explicit_group*)groups;
        p->view.explicit_pairs.pairs = (const cc_pair*)pairs;
        p->view.explicit_pairs.instance_offset = (const int*)offsets;
        p->view.explicit_pairs.total_tests = l.total_tests;
        p->info.explicit_pairs_stored = l.pair_count;
        p->info.explicit_pairs_tested = l.total_tests;
        *possible = l.total_tests;
    }
    cc_explicit_layout_free(&l);
    return s;
}

static cc_status setup_sap(cc_pipeline* p, int64_t* possible)
{
    cc_sap_layout l;
    cc_status s = cc_sap_layout_build(p->model, &l);
    if (s != CC_OK) return s;
    size_t n = (size_t)l.entry_count;
    cc_sap_view* v = &p->view.sap;
    void *shape = NULL, *segment = NULL, *uk = NULL, *uv = NULL, *k = NULL, *val = NULL, *hi = NULL, *axis = NULL;
    void *sorted_shape = NULL, *sorted_bounds = NULL, *sorted_limit = NULL;
    s = pipeline_upload(p, l.entry_shape, sizeof(int) * n, &shape);
    if (s == CC_OK) s = pipeline_upload(p, l.entry_segment, sizeof(int) * n, &segment);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(uint64_t) * n, &uk);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(int) * n, &uv);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(uint64_t) * n, &k);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(int) * n, &val);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(float) * n, &hi);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(int), &axis);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(int) * n, &sorted_shape);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(float) * 4 * n, &sorted_bounds);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(uint64_t) * n, &sorted_limit);
    if (s == CC_OK) p->view.sort_temp_bytes = p->backend->sort_temp_bytes(l.entry_count);
    if (s == CC_OK) {
        v->entry_count = l.entry_count;
        v->entry_shape = (const int*)shape;
        v->entry_segment = (const int*)segment;
        v->unsorted_keys = (uint64_t*)uk;
        v->unsorted_values = (int*)uv;
        v->keys = (uint64_t*)k;
        v->values = (int*)val;
        v->upper = (float*)hi;
        v->axis = (int*)axis;
        v->sorted_shape = (int*)sorted_shape;
        v->sorted_bounds = (float*)sorted_bounds;
        v->sorted_limit = (uint64_t*)sorted_limit;
        /* Pairs SAP can report: all pairs within each segment. */
        int64_t per = l.entry_count;
        *possible = per * (per - 1) / 2;
    }
    cc_sap_layout_free(&l);
    return s;
}

/* Deterministic order and matching: raw rows and keys, the sorted keys and
 * permutation, and the matcher's history of the previous pass. */
static cc_status setup_order_and_matching(cc_pipeline* p)
{
    cc_pass_view* v = &p->view;
    int cap = p->info.rigid_contact_max;
    size_t n = (size_t)cap;
    cc_status s = choose_key_layout(p->model, &v->key_layout);
    if (s != CC_OK) return s;
    p->info.deterministic = 1;
    p->info.key_shape_bits = v->key_layout.shape_bits;
    p->info.key_sub_bits = v->key_layout.sub_bits;
    void *raw = NULL, *raw_keys = NULL, *sorted = NULL, *identity = NULL, *perm = NULL;
    memset(&v->raw, 0, sizeof v->raw);
    s = pipeline_alloc(p, cc_contact_columns_layout(&v->raw, cap, NULL), &raw);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(uint64_t) * n, &raw_keys);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(uint64_t) * n, &sorted);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(int) * n, &perm);
    if (s == CC_OK) {
        int* iota = (int*)cc_host_alloc(sizeof(int) * n);
        if (!iota) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_pipeline_create: out of host memory");
        for (int i = 0; i < cap; ++i) iota[i] = i;
        s = pipeline_upload(p, iota, sizeof(int) * n, &identity);
        cc_host_free(iota);
    }
    if (s != CC_OK) return s;
    cc_contact_columns_layout(&v->raw, cap, (char*)raw);
    v->raw.capacity = cap;
    v->raw_keys = (uint64_t*)raw_keys;
    v->sorted_keys = (uint64_t*)sorted;
    v->identity = (const int*)identity;
    v->permutation = (int*)perm;
    size_t sort_bytes = p->backend->sort_temp_bytes(cap);
    if (sort_bytes > v->sort_temp_bytes) v->sort_temp_bytes = sort_bytes;

    cc_match_view* mv = &v->match;
    memset(mv, 0, sizeof *mv);
    if (p->def.contact_matching == CC_MATCHING_DISABLED) return CC_OK;
    mv->mode = (int)p->def.contact_matching;
    mv->pos_threshold = p->def.contact_matching_pos_threshold;
    mv->normal_dot_threshold = p->def.contact_matching_normal_dot_threshold;
    mv->layout = v->key_layout;
    mv->keys = v->sorted_keys;
    void *prev_keys = NULL, *claims = NULL, *mid = NULL, *normal = NULL, *p0 = NULL, *p1 = NULL, *state = NULL;
    /* 40 bytes a slot: keys, claims, midpoints, normals; sticky adds 24. */
    s = pipeline_alloc(p, sizeof(uint64_t) * n, &prev_keys);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(unsigned long long) * n, &claims);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(cc_vec3) * n, &mid);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(cc_vec3) * n, &normal);
    if (s == CC_OK && mv->mode == CC_MATCHING_STICKY) s = pipeline_alloc(p, sizeof(cc_vec3) * n, &p0);
    if (s == CC_OK && mv->mode == CC_MATCHING_STICKY) s = pipeline_alloc(p, sizeof(cc_vec3) * n, &p1);
    cc_match_state initial = {0, -1, -1};
    if (s == CC_OK) s = pipeline_upload(p, &initial, sizeof initial, &state);
    if (s != CC_OK) return s;
    mv->prev_keys = (uint64_t*)prev_keys;
    mv->claims = (unsigned long long*)claims;
    mv->prev_mid = (cc_vec3*)mid;
    mv->prev_normal = (cc_vec3*)normal;
    mv->prev_point0 = (cc_vec3*)p0;
    mv->prev_point1 = (cc_vec3*)p1;
    mv->state = (cc_match_state*)state;
    v->report = p->def.contact_report != 0;
    if (v->report) {
        size_t select_bytes = p->backend->select_temp_bytes(cap);
        if (select_bytes > v->sort_temp_bytes) v->sort_temp_bytes = select_bytes;
    }
    return CC_OK;
}

/* Pairs that pass every filter but have no route in this build (meshes and
 * heightfields for now). Cheap when the model has none of those types: one
 * pass over the shapes. Otherwise each such shape is checked against the
 * shapes it could meet (its world and the globals, or every world for a
 * global one); a regular replica block is checked in its first copy and
 * counted once per copy. Without skip, the first such pair fails creation. */
static cc_status find_unsupported_pairs(const cc_model* m, int skip, int64_t* out_count)
{
    const cc_model_view* v = &m->host_view;
    *out_count = 0;
    int any = 0;
    for (int s = 0; s < v->shape_count && !any; ++s)
        any = !cc_type_has_route(v->shape_geom[s].type) && (v->shape_flags[s] & CC_SHAPE_FLAG_COLLIDES);
    if (!any) return CC_OK;
    int W = v->world_count;
    /* Colliding shapes bucketed by world (bucket W: the globals), and the
     * weight each world's pairs count with. */
    int* start = (int*)cc_host_calloc((size_t)W + 2, sizeof(int));
    int* cursor = (int*)cc_host_calloc((size_t)W + 2, sizeof(int));
    int* index = (int*)cc_host_alloc(sizeof(int) * (size_t)(v->shape_count + 1));
    int64_t* weight = (int64_t*)cc_host_alloc(sizeof(int64_t) * (size_t)(W + 1));
    if (!start || !cursor || !index || !weight) {
        cc_host_free(start), cc_host_free(cursor), cc_host_free(index), cc_host_free(weight);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_pipeline_create: out of host memory");
    }
    for (int s = 0; s < v->shape_count; ++s)
        if (v->shape_flags[s] & CC_SHAPE_FLAG_COLLIDES) start[(v->shape_world[s] < 0 ? W : v->shape_world[s]) + 1]++;
    for (int w = 0; w <= W; ++w) start[w + 1] += start[w];
    memcpy(cursor, start, sizeof(int) * ((size_t)W + 2));
    for (int s = 0; s < v->shape_count; ++s)
        if (v->shape_flags[s] & CC_SHAPE_FLAG_COLLIDES) index[cursor[v->shape_world[s] < 0 ? W : v->shape_world[s]]++] = s;
    for (int w = 0; w <= W; ++w) weight[w] = 1;
    for (int k = 0; k < m->block_count; ++k) {
        const cc_replica_block* b = &m->blocks[k];
        if (b->irregular) continue;
        weight[b->first_world] = b->copies;
        for (int c = 1; c < b->copies; ++c) weight[b->first_world + c] = 0;
    }
    int64_t count = 0;
    int first_u = -1, first_v = -1;
    for (int u = 0; u < v->shape_count && (skip || first_u < 0); ++u) {
        if (cc_type_has_route(v->shape_geom[u].type) || !(v->shape_flags[u] & CC_SHAPE_FLAG_COLLIDES)) continue;
        int wu = v->shape_world[u];
        if (wu >= 0 && weight[wu] == 0) continue;
        for (int w = 0; w <= W && (skip || first_u < 0); ++w) {
            /* A world shape meets its own world and the globals; a global meets all. */
            if (wu >= 0 && w != wu && w != W) continue;
            int64_t wt = wu >= 0 ? weight[wu] : weight[w];
            if (wt == 0) continue;
            for (int i = start[w]; i < start[w + 1]; ++i) {
                int o = index[i];
                /* A pair of two route-less shapes is counted from the lower one. */
                if (!cc_type_has_route(v->shape_geom[o].type) && o < u) continue;
                if (!cc_pair_passes_rules(v, u, o, 0)) continue;
                const cc_shape_geometry *gu = &v->shape_geom[u], *go = &v->shape_geom[o];
                if (cc_route_exists(gu->type, gu->size, go->type, go->size)) continue;
                count += wt;
                if (first_u < 0) first_u = u, first_v = o;
                if (!skip) break;
            }
        }
    }
    cc_host_free(start), cc_host_free(cursor), cc_host_free(index), cc_host_free(weight);
    *out_count = count;
    if (!skip && first_u >= 0)
        return cc_fail(CC_ERR_UNSUPPORTED,
                       "cc_pipeline_create: no narrow-phase route for %s shape %d against %s shape %d yet; "
                       "set skip_unsupported_pairs in cc_pipeline_def to ignore such pairs",
                       cc_shape_type_name((cc_shape_type)v->shape_geom[first_u].type), first_u,
                       cc_shape_type_name((cc_shape_type)v->shape_geom[first_v].type), first_v);
    return CC_OK;
}

static int64_t clamp_capacity(int64_t n) { return n > INT32_MAX / 2 ? INT32_MAX / 2 : n; }

/* Whether some mesh or heightfield can collide at all. */
static int has_surfaces(const cc_model* m)
{
    const cc_model_view* v = &m->host_view;
    for (int s = 0; s < v->shape_count; ++s)
        if (v->shape_geom[s].type >= CC_SHAPE_MESH && (v->shape_flags[s] & CC_SHAPE_FLAG_COLLIDES)) return 1;
    return 0;
}

/* Speculative contacts: each shape's reach and thickness, and the
 * device-side horizon and scheduler's reserve (0: velocity-adapted); in
 * the TOI mode also each shape's sweep and the line of sight's candidate
 * lists (a head per shape, two entries per candidate pair). */
static cc_status setup_speculation(cc_pipeline* p, int64_t pair_cap)
{
    float gap_max = p->def.speculative_contact_gap_max;
    if (!(gap_max > 0.0f)) return CC_OK;
    const cc_model_view* hv = &p->model->host_view;
    int n = hv->shape_count;
    float* thin_host = (float*)cc_host_alloc(sizeof(float) * (size_t)(n + 1));
    if (!thin_host) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_pipeline_create: out of host memory");
    for (int i = 0; i < n; ++i) thin_host[i] = cc_shape_smallest_half_extent(hv, i);
    void *reach = NULL, *horizon = NULL, *thin = NULL, *published = NULL;
    float zeros[2] = {0.0f, 0.0f}; /* horizon, reserve */
    cc_status s = pipeline_alloc(p, sizeof(float) * (size_t)n, &reach);
    if (s == CC_OK) s = pipeline_upload(p, thin_host, sizeof(float) * (size_t)n, &thin);
    cc_host_free(thin_host);
    if (s == CC_OK) s = pipeline_upload(p, zeros, sizeof zeros, &horizon);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(cc_speculation_view), &published);
    int toi = p->def.speculative_mode == CC_SPECULATIVE_TOI;
    void *sweep = NULL, *heads = NULL, *next = NULL;
    if (s == CC_OK && toi) s = pipeline_alloc(p, sizeof(float) * (size_t)n, &sweep);
    if (s == CC_OK && toi) s = pipeline_alloc(p, sizeof(int) * (size_t)n, &heads);
    if (s == CC_OK && toi) s = pipeline_alloc(p, sizeof(int) * 2 * (size_t)pair_cap, &next);
    if (s != CC_OK) return s;
    p->view.spec_published = (cc_speculation_view*)published;
    p->view.spec = cc_speculation_off();
    p->view.spec.toi = toi;
    p->view.spec.shape_sweep = (float*)sweep;
    p->view.spec.partner_head = (int*)heads;
    p->view.partner_next = (int*)next;
    p->info.speculative_mode = p->def.speculative_mode;
    p->view.spec.shape_reach = (float*)reach;
    p->view.spec.shape_thin = (const float*)thin;
    p->view.spec.horizon = (const float*)horizon;
    p->view.spec.reserve = (const float*)horizon + 1;
    p->view.spec.gap_max = gap_max;
    p->view.spec.body_mass = p->model->view.body_mass;
    p->view.mesh.shape_reach = (const float*)reach;
    p->horizon = (float*)horizon;
    p->reserve = (float*)horizon + 1;
    p->info.speculative_contact_gap_max = gap_max;
    return CC_OK;
}

cc_status cc_pipeline_set_collision_dt(cc_pipeline* p, float dt)
{
    static const char* what = "cc_pipeline_set_collision_dt";
    if (!p) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: pipeline is NULL", what);
    if (!p->horizon)
        return cc_fail(CC_ERR_INVALID_STATE, "%s: the pipeline has no speculative contacts; create it with speculative_contact_gap_max > 0", what);
    if (!(dt >= 0.0f) || !isfinite(dt))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: dt %g must be a finite time >= 0 [s]", what, (double)dt);
    cc_status s = cc_model_activate(p->model);
    if (s == CC_OK) s = p->backend->upload(p->horizon, &dt, sizeof dt);
    return s == CC_OK ? cc_ok() : s;
}

float* cc_pipeline_collision_dt_device(cc_pipeline* p) { return p ? p->horizon : NULL; }

/* Work items and reduction blocks of the mesh stages. */
static cc_status setup_mesh(cc_pipeline* p, const cc_capacity_estimate* est)
{
    const cc_pipeline_def* d = &p->def;
    int64_t items = d->mesh_work_items_max > 0 ? d->mesh_work_items_max : clamp_capacity(est->mesh_items);
    int64_t blocks = !d->reduce_contacts ? 0
                     : d->mesh_reduction_pairs_max > 0 ? d->mesh_reduction_pairs_max
                                                       : clamp_capacity(est->mesh_blocks);
    if (d->mesh_work_items_max < 0 && items < 1024) items = 1024;
    if (d->reduce_contacts && blocks < 1) blocks = 1;
    if (blocks > INT32_MAX / CC_REDUCE_SLOTS) blocks = INT32_MAX / CC_REDUCE_SLOTS;
    void *item_buf = NULL, *grouped = NULL, *slots = NULL, *block_pair = NULL;
    cc_status s = pipeline_alloc(p, sizeof(cc_mesh_item) * (size_t)items, &item_buf);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(cc_mesh_item) * (size_t)items, &grouped);
    if (s == CC_OK && blocks)
        s = pipeline_alloc(p, sizeof(unsigned long long) * CC_REDUCE_SLOTS * (size_t)blocks, &slots);
    if (s == CC_OK && blocks) s = pipeline_alloc(p, sizeof(int) * (size_t)blocks, &block_pair);
    if (s != CC_OK) return s;
    cc_mesh_view* mv = &p->view.mesh;
    mv->items = (cc_mesh_item*)item_buf;
    mv->grouped_items = (cc_mesh_item*)grouped;
    mv->item_capacity = (int)items;
    mv->slots = (unsigned long long*)slots;
    mv->block_pair = (int*)block_pair;
    mv->block_capacity = (int)blocks;
    mv->reduce = d->reduce_contacts != 0;
    p->info.mesh_work_items_max = (int)items;
    p->info.mesh_reduction_pairs_max = (int)blocks;
    return CC_OK;
}

cc_status cc_pipeline_create(const cc_model* model, const cc_pipeline_def* def, cc_pipeline** out)
{
    static const char* what = "cc_pipeline_create";
    if (!model || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: model or out is NULL", what);
    cc_pipeline_def d = def ? *def : cc_default_pipeline_def();
    cc_status s = validate_def(&d);
    if (s != CC_OK) return s;
    if (d.contact_matching != CC_MATCHING_DISABLED) d.deterministic = 1;
    int64_t unsupported = 0;
    s = find_unsupported_pairs(model, d.skip_unsupported_pairs, &unsupported);
    if (s != CC_OK) return s;
    cc_broad_phase bp;
    s = cc_choose_broad_phase(model, &d, &bp);
    if (s != CC_OK) return s;
    if ((s = cc_model_activate(model)) != CC_OK) return s;
    cc_pipeline* p = (cc_pipeline*)cc_host_calloc(1, sizeof *p);
    if (!p) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    p->model = model;
    p->backend = model->backend;
    p->info.broad_phase = bp;
    p->info.unsupported_pairs = unsupported;
    p->def = d;
    p->view.model = model->view;
    p->info.reduce_contacts = d.reduce_contacts != 0;

    int64_t possible = 0;
    if (bp == CC_BROAD_PHASE_NXN) s = setup_nxn(p, &possible);
    else if (bp == CC_BROAD_PHASE_EXPLICIT) s = setup_explicit(p, &possible);
    else s = setup_sap(p, &possible);
    if (s != CC_OK) goto fail;

    cc_capacity_estimate est = cc_estimate_capacity(model, possible, d.reduce_contacts != 0);
    int64_t pair_cap = d.shape_pairs_max > 0 ? d.shape_pairs_max : clamp_capacity(est.pairs);
    int64_t contact_cap = d.rigid_contact_max > 0 ? d.rigid_contact_max : clamp_capacity(est.contacts);
    if (d.rigid_contact_max < 0 && contact_cap * CONTACT_ROW_BYTES >= LARGE_BUFFER_BYTES)
        cc_log(CC_LOG_WARNING, "estimated rigid_contact_max %lld needs %lld MiB per contact buffer (%d shapes, %d worlds); pass rigid_contact_max to choose the memory",
               (long long)contact_cap, (long long)(contact_cap * CONTACT_ROW_BYTES >> 20), model->host_view.shape_count, model->host_view.world_count);
    p->info.shape_pairs_max = (int)pair_cap;
    p->info.rigid_contact_max = (int)contact_cap;
    p->last_contact_capacity = (int)contact_cap;

    int n = model->host_view.shape_count;
    void *pose = NULL, *aabb = NULL, *pairs = NULL, *grouped = NULL, *counters = NULL;
    s = pipeline_alloc(p, sizeof(cc_transform) * (size_t)n, &pose);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(cc_aabb) * (size_t)n, &aabb);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(cc_pair) * (size_t)pair_cap, &pairs);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(cc_pair) * (size_t)pair_cap, &grouped);
    if (s == CC_OK) s = pipeline_alloc(p, sizeof(cc_pass_counters), &counters);
    for (int i = 0; i < CC_TIMER_COUNT && s == CC_OK; ++i) s = p->backend->timer_create(&p->timers[i]);
    if (s == CC_OK && d.deterministic) s = setup_order_and_matching(p);
    if (s == CC_OK && has_surfaces(model)) s = setup_mesh(p, &est);
    if (s == CC_OK) s = setup_speculation(p, pair_cap);
    if (s == CC_OK && p->view.sort_temp_bytes) s = pipeline_alloc(p, p->view.sort_temp_bytes, &p->view.sort_temp);
    if (s != CC_OK) goto fail;
    p->view.shape_pose = (cc_transform*)pose;
    p->view.aabb = (cc_aabb*)aabb;
    p->view.pairs.pairs = (cc_pair*)pairs;
    p->view.pairs.capacity = (int)pair_cap;
    p->view.grouped_pairs = (cc_pair*)grouped;
    p->view.counters = (cc_pass_counters*)counters;
    p->view.pairs.count = &p->view.counters->pair_count;
    if (p->view.spec.toi) p->view.spec.fast_shapes = &p->view.counters->fast_shapes;
    cc_model_retain(p->model);
    *out = p;
    return cc_ok();
fail:
    cc_pipeline_destroy(p);
    return s;
}

void cc_pipeline_destroy(cc_pipeline* p)
{
    if (!p) return;
    const cc_model* m = p->model;
    cc_model_activate(m);
    for (int i = 0; i < p->buffer_count; ++i) p->backend->free(p->buffers[i]);
    for (int i = 0; i < CC_TIMER_COUNT; ++i)
        if (p->timers[i]) p->backend->timer_destroy(p->timers[i]);
    cc_host_free(p);
    cc_model_release(m);
}

cc_status cc_pipeline_get_info(const cc_pipeline* p, cc_pipeline_info* out)
{
    if (!p || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_pipeline_get_info: pipeline or out is NULL");
    *out = p->info;
    return cc_ok();
}

/* Records timer i when profiling. */
static cc_status mark(cc_pipeline* p, int i, cc_stream stream)
{
    return p->profiling ? p->backend->timer_record(p->timers[i], stream) : CC_OK;
}

cc_status cc_collide(cc_pipeline* p, const cc_state* state, cc_contacts* contacts, cc_stream stream)
{
    static const char* what = "cc_collide";
    if (!p || !state || !contacts) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: pipeline, state or contacts is NULL", what);
    if (state->model != p->model || contacts->model != p->model)
        return cc_fail(CC_ERR_MISMATCH, "%s: the state and contacts must come from the pipeline's model", what);
    cc_status active = cc_model_activate(p->model);
    if (active != CC_OK) return active;
    const cc_backend* be = p->backend;
    cc_pass_view v = p->view;
    v.body_pose = state->body_pose;
    v.contacts = contacts->view;
    if (p->horizon) {
        v.spec.linear = state->body_linear;
        v.spec.angular = state->body_angular;
        v.spec.body_pose = state->body_pose;
    }
    int deterministic = p->info.deterministic, matching = v.match.mode != CC_MATCHING_DISABLED;
    if ((matching && !contacts->view.match_index) || (v.report && !contacts->view.new_indices))
        return cc_fail(CC_ERR_MISMATCH, "%s: the pipeline matches contacts but the buffer has no matching columns; create it with cc_contacts_create on this pipeline", what);
    /* Matching indexes previous rows and reports them: every buffer the
     * pipeline writes must hold as many rows as its history does. */
    if (matching && contacts->view.capacity != p->info.rigid_contact_max)
        return cc_fail(CC_ERR_MISMATCH, "%s: the pipeline matches contacts, so its buffers need its rigid_contact_max (%d) rows; this one has %d. Create it with cc_contacts_create on this pipeline", what, p->info.rigid_contact_max, contacts->view.capacity);
    if (deterministic) {
        /* The raw rows share the user's count and never exceed its capacity. */
        v.raw.count = contacts->view.count;
        v.raw.capacity = cc_min_i32(p->view.raw.capacity, contacts->view.capacity);
        v.match.buffer_id = contacts->id;
    }
    p->last_contact_capacity = deterministic ? v.raw.capacity : contacts->view.capacity;
    v.route_seconds = p->profiling && be == cc_backend_cpu() ? p->route_seconds : NULL;
    cc_status s = CC_OK;
#define RUN(stage)                                             \
    do {                                                       \
        if (s == CC_OK) s = be->run_stage((stage), &v, stream); \
    } while (0)
    s = mark(p, 0, stream);
    RUN(CC_STAGE_CLEAR_COUNTERS);
    if (deterministic) RUN(CC_STAGE_KEYS_CLEAR);
    RUN(CC_STAGE_SHAPE_BOUNDS);
    if (s == CC_OK) s = mark(p, 1, stream);
    switch (p->info.broad_phase) {
    case CC_BROAD_PHASE_NXN:
        RUN(CC_STAGE_NXN);
        break;
    case CC_BROAD_PHASE_EXPLICIT:
        RUN(CC_STAGE_EXPLICIT);
        break;
    default:
        RUN(CC_STAGE_SAP_AXIS);
        RUN(CC_STAGE_SAP_PROJECT);
        RUN(CC_STAGE_SAP_SORT);
        RUN(CC_STAGE_SAP_GATHER);
        RUN(CC_STAGE_SAP_SWEEP);
        break;
    }
    if (s == CC_OK) s = mark(p, 2, stream);
    RUN(CC_STAGE_ROUTE_GROUP);
    if (s == CC_OK) s = mark(p, 3, stream);
    RUN(CC_STAGE_NARROWPHASE);
    if (v.spec.toi) {
        RUN(CC_STAGE_TOI_LINK);
        RUN(CC_STAGE_TOI);
    }
    if (v.mesh.item_capacity) {
        RUN(CC_STAGE_MESH_MIDPHASE);
        RUN(CC_STAGE_MESH_GROUP);
        if (v.mesh.reduce) RUN(CC_STAGE_MESH_CLEAR_SLOTS);
        RUN(CC_STAGE_MESH_CONTACTS);
        if (v.mesh.reduce) RUN(CC_STAGE_MESH_EMIT);
    }
    if (s == CC_OK) s = mark(p, 4, stream);
    RUN(CC_STAGE_FINALIZE);
    if (deterministic) {
        RUN(CC_STAGE_CONTACT_SORT);
        RUN(CC_STAGE_CONTACT_GATHER);
    }
    if (matching) {
        RUN(CC_STAGE_MATCH);
        if (v.report) RUN(CC_STAGE_REPORT);
        RUN(CC_STAGE_MATCH_SAVE);
    }
    if (s == CC_OK) s = mark(p, 5, stream);
#undef RUN
    if (s != CC_OK) return s;
    if (p->profiling) {
        double t[5];
        s = be->synchronize(stream);
        for (int i = 0; i < 5 && s == CC_OK; ++i) s = be->timer_elapsed_ms(p->timers[i], p->timers[i + 1], &t[i]);
        if (s != CC_OK) return s;
        p->times.aabb_ms = t[0];
        p->times.broad_phase_ms = t[1];
        p->times.other_ms = t[2] + t[4];
        p->times.narrow_phase_ms = t[3];
        p->times.total_ms = t[0] + t[1] + t[2] + t[3] + t[4];
    }
    return cc_ok();
}

cc_status cc_pipeline_get_overflow(const cc_pipeline* p, cc_overflow* out)
{
    if (!p || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_pipeline_get_overflow: pipeline or out is NULL");
    cc_pass_counters c;
    cc_status s = cc_model_activate(p->model);
    if (s == CC_OK) s = p->backend->download(&c, p->view.counters, sizeof c);
    if (s != CC_OK) return s;
    out->pairs_needed = c.pair_count;
    out->pairs_capacity = p->info.shape_pairs_max;
    out->pairs_overflowed = c.pair_count > p->info.shape_pairs_max;
    out->contacts_needed = c.contact_count;
    out->contacts_capacity = p->last_contact_capacity;
    out->contacts_overflowed = c.contact_count > p->last_contact_capacity;
    out->mesh_items_needed = c.mesh_item_count;
    out->mesh_items_capacity = p->info.mesh_work_items_max;
    out->mesh_items_overflowed = c.mesh_item_count > p->info.mesh_work_items_max;
    out->mesh_pairs_unreduced = p->view.mesh.reduce && c.mesh_block_count > p->view.mesh.block_capacity
                                    ? c.mesh_block_count - p->view.mesh.block_capacity
                                    : 0;
    return cc_ok();
}

cc_status cc_pipeline_get_speculation_stats(const cc_pipeline* p, cc_speculation_stats* out)
{
    if (!p || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_pipeline_get_speculation_stats: pipeline or out is NULL");
    cc_pass_counters c;
    cc_status s = cc_model_activate(p->model);
    if (s == CC_OK) s = p->backend->download(&c, p->view.counters, sizeof c);
    if (s != CC_OK) return s;
    out->fast_shapes = c.fast_shapes;
    out->swept_pairs = c.toi_pairs;
    out->toi_contacts = c.toi_contacts;
    out->occluded_pairs = c.toi_occluded;
    out->capped_searches = c.toi_capped;
    out->iterations_max = c.toi_iterations_max;
    return cc_ok();
}

cc_status cc_pipeline_download_pairs(const cc_pipeline* p, int* pairs_ab, int max_pairs, int* out_count)
{
    if (!p || !out_count || (max_pairs > 0 && !pairs_ab))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_pipeline_download_pairs: pipeline, pairs or out_count is NULL");
    int found;
    cc_status s = cc_model_activate(p->model);
    if (s == CC_OK) s = p->backend->download(&found, &p->view.counters->pair_count, sizeof found);
    if (s != CC_OK) return s;
    int n = cc_min_i32(cc_min_i32(found, p->info.shape_pairs_max), max_pairs);
    if (n > 0) s = p->backend->download(pairs_ab, p->view.pairs.pairs, sizeof(cc_pair) * (size_t)n);
    if (s != CC_OK) return s;
    *out_count = cc_min_i32(found, p->info.shape_pairs_max);
    return cc_ok();
}

cc_status cc_pipeline_get_route_stats(const cc_pipeline* p, cc_route_stats* out, int max, int* out_count)
{
    if (!p || !out_count || (max > 0 && !out))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_pipeline_get_route_stats: pipeline, out or out_count is NULL");
    cc_pass_counters c;
    cc_status s = cc_model_activate(p->model);
    if (s == CC_OK) s = p->backend->download(&c, p->view.counters, sizeof c);
    if (s != CC_OK) return s;
    int n = 0;
    int timed = p->profiling && p->backend == cc_backend_cpu();
    for (int r = 0; r < CC_ROUTE_COUNT; ++r) {
        if (c.route_count[r] == 0) continue;
        if (n < max) {
            out[n].type_a = (cc_shape_type)(r / CC_SHAPE_TYPE_COUNT);
            out[n].type_b = (cc_shape_type)(r % CC_SHAPE_TYPE_COUNT);
            out[n].pairs = c.route_count[r];
            out[n].ns_per_pair = timed ? 1e9 * p->route_seconds[r] / c.route_count[r] : -1.0;
        }
        n++;
    }
    *out_count = n < max ? n : max;
    return cc_ok();
}

void cc_testing_shuffle_narrowphase(cc_pipeline* p, unsigned seed)
{
    if (p) p->view.shuffle_seed = seed;
}

void cc_testing_jitter_mesh_emit(cc_pipeline* p, float relative)
{
    if (p) p->view.emit_jitter = relative;
}

cc_status cc_pipeline_set_profiling(cc_pipeline* p, int enabled)
{
    if (!p) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_pipeline_set_profiling: pipeline is NULL");
    p->profiling = enabled != 0;
    return cc_ok();
}

cc_status cc_pipeline_get_stage_times(const cc_pipeline* p, cc_stage_times* out)
{
    if (!p || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_pipeline_get_stage_times: pipeline or out is NULL");
    *out = p->times;
    return cc_ok();
}
