// The time-of-impact mode on the GPU (kernels/contacts/toi.h): the
// candidate lists of the line of sight, then one thread per candidate pair
// that sweeps the convex pairs with a fast shape. A kernel of their own, so
// that the advancement and the line of sight add no registers to the
// narrow phase's; and one for each class of routes, the pairs of analytic
// routes here and those of the convex query in toi_convex.cu, so that each
// unit compiles only its own class's routines. The chain of out-of-line
// parts (search, advancement, separation, GJK) makes ptxas reserve far
// more registers than any part needs; capped at the heavy budget, the
// kernels spill nothing.
#include "cuda/launch.h"
#include "kernels/contacts/toi.h"

__global__ void cc_toi_link_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_candidate_count(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_toi_link_thread((int)i, &v);
}

__global__ void CC_MAX_REGISTERS(CC_HEAVY_REGISTERS) cc_toi_analytic_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_candidate_count(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_toi_thread((int)i, &v, CC_ROUTE_CLASS_ANALYTIC);
}

cc_status cc_cuda_toi_link(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch("TOI candidate-list kernel", cc_toi_link_kernel, cc_grid_for(v->pairs.capacity), s, *v);
}

cc_status cc_cuda_toi(const cc_pass_view* v, cudaStream_t s)
{
    cc_status st = cc_launch("TOI kernel (analytic routes)", cc_toi_analytic_kernel, cc_grid_for(v->pairs.capacity), s, *v);
    return st == CC_OK ? cc_cuda_toi_convex(v, s) : st;
}
