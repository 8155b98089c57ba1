/* CPU stages of meshes and heightfields: the midphase, grouping of its
 * items, their contacts and the reduction's emit pass. */
#include <string.h>

#include "host/backend/cpu/stages.h"
#include "host/backend/cpu/threads.h"
#include "kernels/mesh/midphase.h"
#include "kernels/mesh/narrowphase.h"

void cc_cpu_mesh_midphase(const cc_pass_view* v)
{
    cc_pass_counters* c = v->counters;
    int pairs = cc_min_i32(c->pair_count, v->pairs.capacity);
    int threads = cc_cpu_parallel_begin(pairs);
    CC_CPU_PARALLEL_FOR(threads)
    for (int i = 0; i < pairs; ++i)
        cc_mesh_midphase_thread(i, &v->model, v->grouped_pairs, v->shape_pose, v->aabb, &v->mesh, c);
    cc_cpu_parallel_end(threads);
}

void cc_cpu_mesh_clear_slots(const cc_pass_view* v)
{
    int blocks = cc_min_i32(v->counters->mesh_block_count, v->mesh.block_capacity);
    memset(v->mesh.slots, 0, sizeof(unsigned long long) * CC_REDUCE_SLOTS * (size_t)blocks);
}

void cc_cpu_mesh_group(const cc_pass_view* v)
{
    cc_pass_counters* c = v->counters;
    int items = cc_mesh_item_total(&v->mesh, c);
    for (int j = 0; j < items; ++j) cc_mesh_kind_histogram_thread(j, &v->mesh, c);
    cc_mesh_kind_scan(c);
    for (int j = 0; j < items; ++j) cc_mesh_kind_scatter_thread(j, &v->mesh, c);
}

void cc_cpu_mesh_contacts(const cc_pass_view* v)
{
    int pass = v->mesh.reduce ? CC_MESH_PASS_VOTE : CC_MESH_PASS_DIRECT;
    int items = cc_min_i32(v->counters->mesh_item_count, v->mesh.item_capacity);
    cc_contact_sink sink = cc_pass_contact_sink(v);
    int threads = cc_cpu_parallel_begin(items);
    CC_CPU_PARALLEL_FOR(threads)
    for (int j = 0; j < items; ++j)
        cc_mesh_narrowphase_thread(cc_cpu_shuffled(j, items, v->shuffle_seed), &v->model, v->grouped_pairs,
                                   v->shape_pose, v->body_pose, &v->mesh, sink, pass, CC_MESH_FAMILY_ALL);
    cc_cpu_parallel_end(threads);
}

cc_status cc_cpu_mesh_emit(const cc_pass_view* v)
{
    const cc_model_view* m = &v->model;
    int blocks = cc_min_i32(v->counters->mesh_block_count, v->mesh.block_capacity);
    int slots = blocks * CC_REDUCE_SLOTS;
    cc_contact_sink sink = cc_pass_contact_sink(v);
    cc_transform* poses = v->shape_pose;
    if (v->emit_jitter != 0.0f) { /* tests only: the emit pass recomputes with rounding of its own */
        poses = (cc_transform*)cc_host_alloc(sizeof(cc_transform) * (size_t)(m->shape_count + 1));
        if (!poses) return cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory");
        for (int i = 0; i < m->shape_count; ++i) {
            poses[i] = v->shape_pose[i];
            poses[i].p = cc_v3_scale(poses[i].p, 1.0f + v->emit_jitter);
        }
    }
    int threads = cc_cpu_parallel_begin(slots);
    CC_CPU_PARALLEL_FOR(threads)
    for (int t = 0; t < slots; ++t)
        cc_mesh_emit_slot_thread(cc_cpu_shuffled(t, slots, v->shuffle_seed), blocks, m, v->grouped_pairs, poses,
                                 v->body_pose, &v->mesh, sink, CC_MESH_FAMILY_ALL);
    cc_cpu_parallel_end(threads);
    if (poses != v->shape_pose) cc_host_free(poses);
    return CC_OK;
}
