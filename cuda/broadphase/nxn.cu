// NXN broad phase on the GPU: one thread per pair slot.
#include "kernels/broadphase/nxn.h"
#include "cuda/launch.h"

__global__ void cc_nxn_kernel(const __grid_constant__ cc_pass_view v)
{
    CC_GRID_STRIDE_LOOP(t, v.nxn.total_pairs)
    cc_nxn_thread(t, &v.nxn, &v.model, v.aabb, v.pairs);
}

cc_status cc_cuda_broadphase_nxn(const cc_pass_view* v, cudaStream_t s)
{
    if (v->nxn.total_pairs == 0) return CC_OK;
    return cc_launch("NXN broad-phase kernel", cc_nxn_kernel, cc_grid_for(v->nxn.total_pairs), s, *v);
}
