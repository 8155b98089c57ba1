/* The CPU backend: each stage is its kernel body from kernels/ in a loop on
 * the calling thread, so the CPU runs exactly the GPU's algorithms. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <string.h>
#include <time.h>

#include "host/backend/backend.h"
#include "kernels/step/force.h"
#include "kernels/contacts/order.h"
#include "kernels/mesh/narrowphase.h"
#include "kernels/narrowphase/dispatch.h"
#include "kernels/step/integrate.h"
#include "kernels/narrowphase/route_group.h"
#include "kernels/shapes/bounds.h"
#include "host/backend/radix_sort.h"

static cc_status cpu_open_device(int ordinal)
{
    (void)ordinal;
    return CC_OK;
}

static cc_status cpu_alloc(size_t bytes, void** out)
{
    *out = cc_host_calloc(1, bytes);
    return *out ? CC_OK : cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory allocating %zu bytes", bytes);
}

static cc_status cpu_copy(void* dst, const void* src, size_t bytes)
{
    if (bytes) memcpy(dst, src, bytes);
    return CC_OK;
}

static size_t cpu_sort_temp_bytes(int n) { return cc_radix_sort_temp_bytes(n); }
static size_t cpu_select_temp_bytes(int n)
{
    (void)n;
    return 0;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Row i of a pass over n rows; with a shuffle seed, a multiplier coprime
 * to n scrambles the order (a bijection on [0, n)). */
static int shuffled(int i, int n, unsigned seed)
{
    if (!seed || n < 2) return i;
    uint64_t a = 2u * (seed % 7919u) + 7919u;
    while (gcd_u64(a, (uint64_t)n) != 1) a++;
    return (int)((a * (uint64_t)i + seed) % (uint64_t)n);
}

/* The CPU walks the same pairs as the GPU's flat thread index, in nested
 * loops rather than decoding each index. */
static void cpu_nxn(const cc_pass_view* v)
{
    for (int si = 0; si < v->nxn.segment_count; ++si) {
        const cc_nxn_segment* s = &v->nxn.segments[si];
        const int* rows = v->nxn.shape_index + s->a_start;
        for (int i = 0; i < s->a_count; ++i) {
            const int* cols = s->b_count < 0 ? rows + i + 1 : v->nxn.shape_index + s->b_start;
            int ncols = s->b_count < 0 ? s->a_count - i - 1 : s->b_count;
            for (int j = 0; j < ncols; ++j) cc_test_and_emit_pair(&v->model, v->aabb, rows[i], cols[j], v->pairs);
        }
    }
}

static void cpu_explicit(const cc_pass_view* v)
{
    const cc_explicit_view* e = &v->explicit_pairs;
    for (int gi = 0; gi < e->group_count; ++gi) {
        const cc_explicit_group* g = &e->groups[gi];
        const cc_pair* pairs = e->pairs + g->pair_start;
        for (int inst = 0; inst < g->instance_count; ++inst) {
            int offset = e->instance_offset[g->instance_start + inst];
            for (int p = 0; p < g->pair_count; ++p) cc_explicit_test_entry(pairs[p], offset, v->aabb, v->pairs);
        }
    }
}

static void cpu_sap_axis(const cc_pass_view* v)
{
    cc_moments m = cc_sap_moments_partial(0, 1, v->model.shape_count, v->aabb);
    *v->sap.axis = cc_sap_axis_from_moments(m);
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The narrow phase one route group at a time (the groups are contiguous
 * after route grouping), timing each. */
static void cpu_narrowphase_timed(const cc_pass_view* v)
{
    cc_contact_sink sink = cc_pass_contact_sink(v);
    cc_pass_counters* c = v->counters;
    int start = 0;
    for (int r = 0; r < CC_ROUTE_COUNT; ++r) {
        int end = cc_min_i32(start + c->route_count[r], v->pairs.capacity);
        double t0 = now_seconds();
        for (int i = start; i < end; ++i)
            cc_narrowphase_thread(i, &v->model, v->grouped_pairs, v->shape_pose, v->body_pose, sink);
        v->route_seconds[r] = now_seconds() - t0;
        start = end;
    }
}

static cc_status cpu_run_stage(cc_stage stage, const cc_pass_view* v, cc_stream stream)
{
    (void)stream;
    const cc_model_view* m = &v->model;
    cc_pass_counters* c = v->counters;
    int pairs = cc_min_i32(c->pair_count, v->pairs.capacity);
    switch (stage) {
    case CC_STAGE_CLEAR_COUNTERS:
        memset(c, 0, sizeof *c);
        break;
    case CC_STAGE_SHAPE_BOUNDS:
        for (int i = 0; i < m->shape_count; ++i)
            cc_shape_bounds_thread(i, m, v->body_pose, v->shape_pose, v->aabb);
        break;
    case CC_STAGE_NXN:
        cpu_nxn(v);
        break;
    case CC_STAGE_EXPLICIT:
        cpu_explicit(v);
        break;
    case CC_STAGE_SAP_AXIS:
        cpu_sap_axis(v);
        break;
    case CC_STAGE_SAP_PROJECT:
        for (int e = 0; e < v->sap.entry_count; ++e) cc_sap_project_thread(e, &v->sap, v->aabb);
        break;
    case CC_STAGE_SAP_SORT:
        cc_radix_sort_pairs_u64(v->sap.unsorted_keys, v->sap.keys, v->sap.unsorted_values,
                                v->sap.values, v->sap.entry_count, 64, v->sort_temp);
        break;
    case CC_STAGE_SAP_SWEEP:
        for (int i = 0; i < v->sap.entry_count; ++i) cc_sap_sweep_thread(i, &v->sap, m, v->aabb, v->pairs);
        break;
    case CC_STAGE_ROUTE_GROUP:
        for (int i = 0; i < pairs; ++i) cc_route_histogram_thread(i, m, v->pairs.pairs, c);
        cc_route_scan(c);
        for (int i = 0; i < pairs; ++i) cc_route_scatter_thread(i, m, v->pairs.pairs, v->grouped_pairs, c);
        break;
    case CC_STAGE_NARROWPHASE:
        if (v->route_seconds) {
            cpu_narrowphase_timed(v);
            break;
        }
        {
            cc_contact_sink sink = cc_pass_contact_sink(v);
            for (int i = 0; i < pairs; ++i)
                cc_narrowphase_thread(shuffled(i, pairs, v->shuffle_seed), m, v->grouped_pairs, v->shape_pose,
                                      v->body_pose, sink);
        }
        break;
    case CC_STAGE_MESH_MIDPHASE:
        for (int i = 0; i < pairs; ++i)
            cc_mesh_midphase_thread(i, m, v->grouped_pairs, v->shape_pose, v->aabb, &v->mesh, c);
        break;
    case CC_STAGE_MESH_CLEAR_SLOTS: {
        int blocks = cc_min_i32(c->mesh_block_count, v->mesh.block_capacity);
        memset(v->mesh.slots, 0, sizeof(unsigned long long) * CC_REDUCE_SLOTS * (size_t)blocks);
        break;
    }
    case CC_STAGE_MESH_GROUP: {
        int items = cc_mesh_item_total(&v->mesh, c);
        for (int j = 0; j < items; ++j) cc_mesh_kind_histogram_thread(j, &v->mesh, c);
        cc_mesh_kind_scan(c);
        for (int j = 0; j < items; ++j) cc_mesh_kind_scatter_thread(j, &v->mesh, c);
        break;
    }
    case CC_STAGE_MESH_CONTACTS: {
        int pass = v->mesh.reduce ? CC_MESH_PASS_VOTE : CC_MESH_PASS_DIRECT;
        int items = cc_min_i32(c->mesh_item_count, v->mesh.item_capacity);
        cc_contact_sink sink = cc_pass_contact_sink(v);
        for (int j = 0; j < items; ++j)
            cc_mesh_narrowphase_thread(shuffled(j, items, v->shuffle_seed), m, v->grouped_pairs, v->shape_pose,
                                       v->body_pose, &v->mesh, sink, pass, CC_MESH_FAMILY_ALL);
        break;
    }
    case CC_STAGE_MESH_EMIT: {
        int blocks = cc_min_i32(c->mesh_block_count, v->mesh.block_capacity);
        int slots = blocks * CC_REDUCE_SLOTS;
        cc_contact_sink sink = cc_pass_contact_sink(v);
        cc_transform* poses = v->shape_pose;
        if (v->emit_jitter != 0.0f) { /* tests only */
            poses = (cc_transform*)cc_host_alloc(sizeof(cc_transform) * (size_t)(m->shape_count + 1));
            if (!poses) return cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory");
            for (int i = 0; i < m->shape_count; ++i) {
                poses[i] = v->shape_pose[i];
                poses[i].p = cc_v3_scale(poses[i].p, 1.0f + v->emit_jitter);
            }
        }
        for (int t = 0; t < slots; ++t)
            cc_mesh_emit_slot_thread(shuffled(t, slots, v->shuffle_seed), blocks, m, v->grouped_pairs, poses,
                                     v->body_pose, &v->mesh, sink, CC_MESH_FAMILY_ALL);
        if (poses != v->shape_pose) cc_host_free(poses);
        break;
    }
    case CC_STAGE_FINALIZE:
        cc_pass_finalize(c, cc_pass_contact_sink(v).rows);
        break;
    case CC_STAGE_KEYS_CLEAR:
        memset(v->raw_keys, 0xff, sizeof(uint64_t) * (size_t)v->raw.capacity);
        break;
    case CC_STAGE_CONTACT_SORT:
        /* Only the written rows: the sentinels past them would sort last. */
        cc_radix_sort_pairs_u64(v->raw_keys, v->sorted_keys, v->identity, v->permutation, *v->contacts.count, 64,
                                v->sort_temp);
        break;
    case CC_STAGE_CONTACT_GATHER:
        for (int i = 0; i < *v->contacts.count; ++i) cc_gather_contact_thread(i, v->permutation, v->raw, v->contacts);
        break;
    case CC_STAGE_MATCH:
        cc_match_begin(&v->match, v->contacts);
        memset(v->match.claims, 0xff, sizeof(unsigned long long) * (size_t)v->raw.capacity);
        for (int i = 0; i < *v->contacts.count; ++i) cc_match_claim_thread(i, &v->match, m, v->body_pose, v->contacts);
        for (int i = 0; i < *v->contacts.count; ++i) cc_match_resolve_thread(i, &v->match, m, v->body_pose, v->contacts);
        break;
    case CC_STAGE_REPORT: {
        int n_new = 0, n_broken = 0;
        for (int i = 0; i < *v->contacts.count; ++i)
            if (cc_report_is_new(i, v->contacts)) v->contacts.new_indices[n_new++] = i;
        for (int j = 0; j < v->match.state->prev_count; ++j)
            if (cc_report_is_broken(j, &v->match)) v->contacts.broken_indices[n_broken++] = j;
        *v->contacts.new_count = n_new;
        *v->contacts.broken_count = n_broken;
        break;
    }
    case CC_STAGE_MATCH_SAVE:
        for (int i = 0; i < *v->contacts.count; ++i) cc_match_save_thread(i, &v->match, m, v->body_pose, v->contacts);
        cc_match_end(&v->match, v->contacts);
        break;
    }
    return CC_OK;
}

static cc_status cpu_run_step_stage(cc_step_stage stage, const cc_step_view* v, cc_stream stream)
{
    (void)stream;
    int bodies = v->model.body_count;
    int contacts = v->contacts.count ? *v->contacts.count : 0;
    switch (stage) {
    case CC_STEP_CLEAR:
        memset(v->body_force, 0, sizeof(cc_vec3) * (size_t)bodies);
        memset(v->body_torque, 0, sizeof(cc_vec3) * (size_t)bodies);
        break;
    case CC_STEP_CONTACT_FORCES:
        for (int i = 0; i < contacts; ++i) cc_contact_force_thread(i, v);
        break;
    case CC_STEP_SORT_ENTRIES:
        /* Only the written entries; the GPU sorts the whole capacity. */
        cc_radix_sort_pairs_u64(v->entry_keys, v->sorted_keys, v->entry_ids, v->sorted_ids, 2 * contacts, 64,
                                v->sort_temp);
        break;
    case CC_STEP_REDUCE:
        for (int b = 0; b < bodies; ++b) cc_reduce_body_forces_thread(b, v, 2 * contacts);
        break;
    case CC_STEP_INTEGRATE:
        for (int b = 0; b < bodies; ++b) cc_integrate_body_thread(b, v);
        break;
    }
    return CC_OK;
}

static cc_status cpu_copy_async(void* dst, const void* src, size_t bytes, cc_stream stream)
{
    (void)stream;
    if (bytes) memmove(dst, src, bytes);
    return CC_OK;
}

static cc_status cpu_timer_create(void** timer)
{
    *timer = cc_host_calloc(1, sizeof(struct timespec));
    return *timer ? CC_OK : cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory");
}

static cc_status cpu_timer_record(void* timer, cc_stream stream)
{
    (void)stream;
    clock_gettime(CLOCK_MONOTONIC, (struct timespec*)timer);
    return CC_OK;
}

static cc_status cpu_timer_elapsed(void* start, void* end, double* ms)
{
    const struct timespec* a = (const struct timespec*)start;
    const struct timespec* b = (const struct timespec*)end;
    *ms = (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) * 1e-6;
    return CC_OK;
}

static cc_status cpu_synchronize(cc_stream stream)
{
    (void)stream;
    return CC_OK;
}

static const cc_backend cpu_backend = {
    .name = "cpu",
    .open_device = cpu_open_device,
    .activate = NULL,
    .alloc = cpu_alloc,
    .free = cc_host_free,
    .upload = cpu_copy,
    .download = cpu_copy,
    .sort_temp_bytes = cpu_sort_temp_bytes,
    .select_temp_bytes = cpu_select_temp_bytes,
    .run_stage = cpu_run_stage,
    .timer_create = cpu_timer_create,
    .timer_destroy = cc_host_free,
    .timer_record = cpu_timer_record,
    .timer_elapsed_ms = cpu_timer_elapsed,
    .synchronize = cpu_synchronize,
    .run_step_stage = cpu_run_step_stage,
    .copy_async = cpu_copy_async,
    /* Frames are recorded by the frame graph itself; no streams. */
    .capture_begin = NULL,
    .capture_end = NULL,
    .graph_launch = NULL,
    .graph_destroy = NULL,
    .stream_create = NULL,
    .stream_destroy = NULL,
};

const cc_backend* cc_backend_cpu(void) { return &cpu_backend; }
