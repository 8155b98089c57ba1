// Route grouping (a counting sort of the candidate pairs by route) and the
// pass's finalisation on the GPU. Stages that depend on the candidate count
// read it on the device: grids are sized from the capacity and threads past
// the count exit.
#include "cuda/launch.h"
#include "kernels/narrowphase/dispatch.h"
#include "kernels/narrowphase/route_group.h"

__global__ void cc_route_histogram_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_candidate_count(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_route_histogram_thread((int)i, &v.model, v.pairs.pairs, v.counters);
}

__global__ void cc_route_scan_kernel(const __grid_constant__ cc_pass_view v) { cc_route_scan(v.counters); }

__global__ void cc_route_scatter_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_candidate_count(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_route_scatter_thread((int)i, &v.model, v.pairs.pairs, v.grouped_pairs, v.counters);
}

__global__ void cc_finalize_kernel(const __grid_constant__ cc_pass_view v) { cc_pass_finalize(v.counters, cc_pass_contact_sink(&v).rows); }

cc_status cc_cuda_route_group(const cc_pass_view* v, cudaStream_t s)
{
    unsigned grid = cc_grid_for(v->pairs.capacity);
    cc_status st = cc_launch("route histogram kernel", cc_route_histogram_kernel, grid, s, *v);
    if (st == CC_OK) st = cc_launch_block("route scan kernel", cc_route_scan_kernel, 1, 1, s, *v);
    if (st == CC_OK) st = cc_launch("route scatter kernel", cc_route_scatter_kernel, grid, s, *v);
    return st;
}

cc_status cc_cuda_finalize(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch_block("finalize kernel", cc_finalize_kernel, 1, 1, s, *v);
}
