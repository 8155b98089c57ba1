// EXPLICIT broad phase on the GPU: one thread per (stored pair, instance).
#include "kernels/broadphase/explicit.h"
#include "cuda/launch.h"

__global__ void cc_explicit_kernel(const __grid_constant__ cc_pass_view v)
{
    CC_GRID_STRIDE_LOOP(t, v.explicit_pairs.total_tests)
    cc_explicit_thread(t, &v.explicit_pairs, v.aabb, v.pairs);
}

cc_status cc_cuda_broadphase_explicit(const cc_pass_view* v, cudaStream_t s)
{
    if (v->explicit_pairs.total_tests == 0) return CC_OK;
    return cc_launch("EXPLICIT broad-phase kernel", cc_explicit_kernel, cc_grid_for(v->explicit_pairs.total_tests), s,
                     *v);
}
