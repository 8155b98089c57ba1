/* The CPU backend: the backend table, host memory, timers, and the stage
 * switch over the stage loops of host/backend/cpu/ (one file per stage
 * family, each a kernel body from kernels/ in a loop). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <string.h>
#include <time.h>

#include "host/backend/cpu/radix_sort.h"
#include "host/backend/cpu/stages.h"
#include "kernels/narrowphase/route.h"

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

/* A multiplier coprime to n scrambles the order (a bijection on [0, n)). */
int cc_cpu_shuffled(int i, int n, unsigned seed)
{
    if (!seed || n < 2) return i;
    uint64_t a = 2u * (seed % 7919u) + 7919u;
    while (gcd_u64(a, (uint64_t)n) != 1) a++;
    return (int)((a * (uint64_t)i + seed) % (uint64_t)n);
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
    cc_pass_counters* c = v->counters;
    int start = 0;
    for (int r = 0; r < CC_ROUTE_COUNT; ++r) {
        int end = cc_min_i32(start + c->route_count[r], v->pairs.capacity);
        double t0 = now_seconds();
        if (cc_route_class(r) == CC_ROUTE_CLASS_ANALYTIC) cc_cpu_narrowphase_analytic(v, start, end, 0);
        else if (cc_route_class(r) == CC_ROUTE_CLASS_CONVEX) cc_cpu_narrowphase_convex(v, start, end, 0);
        v->route_seconds[r] = now_seconds() - t0;
        start = end;
    }
}

static cc_status cpu_run_stage(cc_stage stage, const cc_pass_view* v, cc_stream stream)
{
    (void)stream;
    cc_pass_counters* c = v->counters;
    int pairs = cc_min_i32(c->pair_count, v->pairs.capacity);
    switch (stage) {
    case CC_STAGE_CLEAR_COUNTERS: memset(c, 0, sizeof *c); break;
    case CC_STAGE_SHAPE_BOUNDS: cc_cpu_shape_bounds(v); break;
    case CC_STAGE_NXN: cc_cpu_nxn(v); break;
    case CC_STAGE_EXPLICIT: cc_cpu_explicit(v); break;
    case CC_STAGE_SAP_AXIS: cc_cpu_sap_axis(v); break;
    case CC_STAGE_SAP_PROJECT: cc_cpu_sap_project(v); break;
    case CC_STAGE_SAP_SORT: cc_cpu_sap_sort(v); break;
    case CC_STAGE_SAP_GATHER: cc_cpu_sap_gather(v); break;
    case CC_STAGE_SAP_SWEEP: cc_cpu_sap_sweep(v); break;
    case CC_STAGE_ROUTE_GROUP: cc_cpu_route_group(v); break;
    case CC_STAGE_NARROWPHASE:
        if (v->route_seconds) {
            cpu_narrowphase_timed(v);
        } else { /* one loop per route class, as the GPU's kernels */
            cc_cpu_narrowphase_analytic(v, 0, pairs, v->shuffle_seed);
            cc_cpu_narrowphase_convex(v, 0, pairs, v->shuffle_seed);
        }
        break;
    case CC_STAGE_TOI_LINK: cc_cpu_toi_link(v); break;
    case CC_STAGE_TOI: cc_cpu_toi(v); break;
    case CC_STAGE_MESH_MIDPHASE: cc_cpu_mesh_midphase(v); break;
    case CC_STAGE_MESH_CLEAR_SLOTS: cc_cpu_mesh_clear_slots(v); break;
    case CC_STAGE_MESH_GROUP: cc_cpu_mesh_group(v); break;
    case CC_STAGE_MESH_CONTACTS: cc_cpu_mesh_contacts(v); break;
    case CC_STAGE_MESH_EMIT: return cc_cpu_mesh_emit(v);
    case CC_STAGE_FINALIZE: cc_cpu_finalize(v); break;
    case CC_STAGE_KEYS_CLEAR: cc_cpu_keys_clear(v); break;
    case CC_STAGE_CONTACT_SORT: cc_cpu_contact_sort(v); break;
    case CC_STAGE_CONTACT_GATHER: cc_cpu_contact_gather(v); break;
    case CC_STAGE_MATCH: cc_cpu_match(v); break;
    case CC_STAGE_REPORT: cc_cpu_report(v); break;
    case CC_STAGE_MATCH_SAVE: cc_cpu_match_save(v); break;
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
    .run_step_stage = cc_cpu_run_step_stage,
    .copy_async = cpu_copy_async,
    /* Frames are recorded by the frame graph itself; no streams. */
    .capture_begin = NULL,
    .capture_end = NULL,
    .graph_launch = NULL,
    .graph_destroy = NULL,
    .stream_create = NULL,
    .stream_destroy = NULL,
    .run_schedule_stage = cc_cpu_run_schedule_stage,
    .capture_condition = NULL,
    .capture_if = NULL,
    .capture_end_graph = NULL,
    .capture_into_begin = NULL,
    .capture_into_end = NULL,
    .graph_instantiate = NULL,
    .graph_release = NULL,
};

const cc_backend* cc_backend_cpu(void) { return &cpu_backend; }
