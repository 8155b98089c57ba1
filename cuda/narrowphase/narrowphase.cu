// Route grouping, narrow phase and pass finalisation on the GPU. Stages that
// depend on the candidate count read it on the device: grids are sized from
// the capacity and threads past the count exit.
#include "kernels/narrowphase/dispatch.h"
#include "kernels/narrowphase/route_group.h"
#include "cuda/launch.h"

__device__ __forceinline__ int cc_candidate_count(const cc_pass_view& v)
{
    return cc_min_i32(v.counters->pair_count, v.pairs.capacity);
}

__global__ void cc_route_histogram_kernel(cc_pass_view v)
{
    int n = cc_candidate_count(v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_route_histogram_thread((int)i, &v.model, v.pairs.pairs, v.counters);
}

__global__ void cc_route_scan_kernel(cc_pass_view v) { cc_route_scan(v.counters); }

__global__ void cc_route_scatter_kernel(cc_pass_view v)
{
    int n = cc_candidate_count(v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_route_scatter_thread((int)i, &v.model, v.pairs.pairs, v.grouped_pairs, v.counters);
}

/* One kernel per route class (kernels/narrowphase/dispatch.h): the GJK/MPR routes
 * use many registers and a deep stack, which the analytic routes would
 * otherwise share and lose occupancy to. Each skips the other's pairs. */
template <int RouteClass>
__global__ void cc_narrowphase_kernel(cc_pass_view v)
{
    int n = cc_candidate_count(v);
    cc_contact_sink sink = cc_pass_contact_sink(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_narrowphase_class_thread((int)i, &v.model, v.grouped_pairs, v.shape_pose, v.body_pose, sink, RouteClass);
}

__global__ void cc_finalize_kernel(cc_pass_view v) { cc_pass_finalize(v.counters, cc_pass_contact_sink(&v).rows); }

cc_status cc_cuda_route_group(const cc_pass_view* v, cudaStream_t s)
{
    unsigned grid = cc_grid_for(v->pairs.capacity);
    cc_route_histogram_kernel<<<grid, CC_BLOCK_SIZE, 0, s>>>(*v);
    cc_route_scan_kernel<<<1, 1, 0, s>>>(*v);
    cc_route_scatter_kernel<<<grid, CC_BLOCK_SIZE, 0, s>>>(*v);
    return cc_cuda_check("route grouping kernels");
}

cc_status cc_cuda_narrowphase(const cc_pass_view* v, cudaStream_t s)
{
    unsigned grid = cc_grid_for(v->pairs.capacity);
    cc_narrowphase_kernel<CC_ROUTE_CLASS_ANALYTIC><<<grid, CC_BLOCK_SIZE, 0, s>>>(*v);
    cc_narrowphase_kernel<CC_ROUTE_CLASS_CONVEX><<<grid, CC_BLOCK_SIZE, 0, s>>>(*v);
    return cc_cuda_check("narrow-phase kernels");
}

cc_status cc_cuda_finalize(const cc_pass_view* v, cudaStream_t s)
{
    cc_finalize_kernel<<<1, 1, 0, s>>>(*v);
    return cc_cuda_check("finalize kernel");
}
