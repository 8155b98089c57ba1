// The mesh mid phase on the GPU: one thread per candidate pair finds the
// work items and takes reduction blocks; then the blocks taken are cleared
// and the items grouped by kind. Grids are sized from capacities; threads
// read the device-side counts and exit past them, so the stages can be
// captured into a graph.
#include "cuda/launch.h"
#include "kernels/mesh/midphase.h"

__global__ void cc_mesh_midphase_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_candidate_count(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_mesh_midphase_thread((int)i, &v.model, v.grouped_pairs, v.shape_pose, v.aabb, &v.mesh, v.counters);
}

__global__ void cc_mesh_clear_slots_kernel(const __grid_constant__ cc_pass_view v)
{
    int64_t n = (int64_t)cc_min_i32(v.counters->mesh_block_count, v.mesh.block_capacity) * CC_REDUCE_SLOTS;
    CC_GRID_STRIDE_LOOP(i, n) v.mesh.slots[i] = 0ull;
}

__global__ void cc_mesh_kind_histogram_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_mesh_item_total(&v.mesh, v.counters);
    CC_GRID_STRIDE_LOOP(j, n) cc_mesh_kind_histogram_thread((int)j, &v.mesh, v.counters);
}

__global__ void cc_mesh_kind_scan_kernel(const __grid_constant__ cc_pass_view v) { cc_mesh_kind_scan(v.counters); }

__global__ void cc_mesh_kind_scatter_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_mesh_item_total(&v.mesh, v.counters);
    CC_GRID_STRIDE_LOOP(j, n) cc_mesh_kind_scatter_thread((int)j, &v.mesh, v.counters);
}

cc_status cc_cuda_mesh_midphase(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch("mesh mid-phase kernel", cc_mesh_midphase_kernel, cc_grid_for(v->pairs.capacity), s, *v);
}

cc_status cc_cuda_mesh_clear_slots(const cc_pass_view* v, cudaStream_t s)
{
    unsigned grid = cc_grid_for((int64_t)v->mesh.block_capacity * CC_REDUCE_SLOTS);
    return cc_launch("mesh reduction-slot clearing kernel", cc_mesh_clear_slots_kernel, grid, s, *v);
}

cc_status cc_cuda_mesh_group(const cc_pass_view* v, cudaStream_t s)
{
    unsigned grid = cc_grid_for(v->mesh.item_capacity);
    cc_status st = cc_launch("mesh kind histogram kernel", cc_mesh_kind_histogram_kernel, grid, s, *v);
    if (st == CC_OK) st = cc_launch_block("mesh kind scan kernel", cc_mesh_kind_scan_kernel, 1, 1, s, *v);
    if (st == CC_OK) st = cc_launch("mesh kind scatter kernel", cc_mesh_kind_scatter_kernel, grid, s, *v);
    return st;
}
