// The time-of-impact mode on the GPU (kernels/contacts/toi.h): the
// candidate lists of the line of sight, then one thread per candidate pair
// that sweeps the convex pairs with a fast shape. Its own kernel, so that
// the advancement and the line of sight add no registers to the narrow
// phase's. Its chain of out-of-line parts (search, advancement, separation,
// GJK) makes ptxas reserve far more registers than any part needs (225);
// capped at the heavy budget it spills nothing.
#include "cuda/launch.h"
#include "kernels/contacts/toi.h"

__global__ void cc_toi_link_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_candidate_count(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_toi_link_thread((int)i, &v);
}

__global__ void CC_MAX_REGISTERS(224) cc_toi_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_candidate_count(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_toi_thread((int)i, &v);
}

cc_status cc_cuda_toi_link(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch("TOI candidate-list kernel", cc_toi_link_kernel, cc_grid_for(v->pairs.capacity), s, *v);
}

cc_status cc_cuda_toi(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch("TOI kernel", cc_toi_kernel, cc_grid_for(v->pairs.capacity), s, *v);
}
