// The mesh stages on the GPU: mid phase (one thread per candidate pair),
// reduction-slot clearing, and the narrow phase over work items (one
// thread per item, once to write or vote, once more to emit the kept
// contacts). Grids are sized from capacities; threads read the device-side
// counts and exit past them, so the stages can be captured into a graph.
#include "kernels/mesh/narrowphase.h"
#include "cuda/launch.h"

__global__ void cc_mesh_midphase_kernel(cc_pass_view v)
{
    int n = cc_min_i32(v.counters->pair_count, v.pairs.capacity);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_mesh_midphase_thread((int)i, &v.model, v.grouped_pairs, v.shape_pose, v.aabb, &v.mesh, v.counters);
}

__global__ void cc_mesh_clear_slots_kernel(cc_pass_view v)
{
    int64_t n = (int64_t)cc_min_i32(v.counters->mesh_block_count, v.mesh.block_capacity) * CC_REDUCE_SLOTS;
    CC_GRID_STRIDE_LOOP(i, n) v.mesh.slots[i] = 0ull;
}

__global__ void cc_mesh_narrowphase_kernel(cc_pass_view v, int pass)
{
    int n = cc_min_i32(v.counters->mesh_item_count, v.mesh.item_capacity);
    cc_contact_sink sink = cc_pass_contact_sink(&v);
    CC_GRID_STRIDE_LOOP(j, n)
    cc_mesh_narrowphase_thread((int)j, &v.model, v.grouped_pairs, v.shape_pose, v.body_pose, &v.mesh, sink, pass);
}

__global__ void cc_mesh_emit_slots_kernel(cc_pass_view v)
{
    int blocks = cc_min_i32(v.counters->mesh_block_count, v.mesh.block_capacity);
    int64_t n = (int64_t)blocks * CC_REDUCE_SLOTS;
    cc_contact_sink sink = cc_pass_contact_sink(&v);
    CC_GRID_STRIDE_LOOP(t, n)
    cc_mesh_emit_slot_thread((int)t, blocks, &v.model, v.grouped_pairs, v.shape_pose, v.body_pose, &v.mesh, sink);
}

__global__ void cc_mesh_kind_histogram_kernel(cc_pass_view v)
{
    int n = cc_mesh_item_total(&v.mesh, v.counters);
    CC_GRID_STRIDE_LOOP(j, n) cc_mesh_kind_histogram_thread((int)j, &v.mesh, v.counters);
}

__global__ void cc_mesh_kind_scan_kernel(cc_pass_view v) { cc_mesh_kind_scan(v.counters); }

__global__ void cc_mesh_kind_scatter_kernel(cc_pass_view v)
{
    int n = cc_mesh_item_total(&v.mesh, v.counters);
    CC_GRID_STRIDE_LOOP(j, n) cc_mesh_kind_scatter_thread((int)j, &v.mesh, v.counters);
}

cc_status cc_cuda_mesh_group(const cc_pass_view* v, cudaStream_t s)
{
    unsigned grid = cc_grid_for(v->mesh.item_capacity);
    cc_mesh_kind_histogram_kernel<<<grid, CC_BLOCK_SIZE, 0, s>>>(*v);
    cc_mesh_kind_scan_kernel<<<1, 1, 0, s>>>(*v);
    cc_mesh_kind_scatter_kernel<<<grid, CC_BLOCK_SIZE, 0, s>>>(*v);
    return cc_cuda_check("mesh work-item grouping kernels");
}

cc_status cc_cuda_mesh_midphase(const cc_pass_view* v, cudaStream_t s)
{
    cc_mesh_midphase_kernel<<<cc_grid_for(v->pairs.capacity), CC_BLOCK_SIZE, 0, s>>>(*v);
    return cc_cuda_check("mesh mid-phase kernel");
}

cc_status cc_cuda_mesh_clear_slots(const cc_pass_view* v, cudaStream_t s)
{
    cc_mesh_clear_slots_kernel<<<cc_grid_for((int64_t)v->mesh.block_capacity * CC_REDUCE_SLOTS), CC_BLOCK_SIZE, 0, s>>>(*v);
    return cc_cuda_check("mesh reduction-slot clearing kernel");
}

cc_status cc_cuda_mesh_contacts(const cc_pass_view* v, int emit, cudaStream_t s)
{
    if (emit) {
        int64_t slots = (int64_t)v->mesh.block_capacity * CC_REDUCE_SLOTS;
        cc_mesh_emit_slots_kernel<<<cc_grid_for(slots), CC_BLOCK_SIZE, 0, s>>>(*v);
        return cc_cuda_check("mesh emit kernel");
    }
    int pass = v->mesh.reduce ? CC_MESH_PASS_VOTE : CC_MESH_PASS_DIRECT;
    cc_mesh_narrowphase_kernel<<<cc_grid_for(v->mesh.item_capacity), CC_BLOCK_SIZE, 0, s>>>(*v, pass);
    return cc_cuda_check("mesh narrow-phase kernel");
}
