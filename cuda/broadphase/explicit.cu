// EXPLICIT broad phase on the GPU: one thread per (stored pair, instance).
#include "kernels/broadphase/explicit.h"
#include "cuda/launch.h"

__global__ void cc_explicit_kernel(cc_pass_view v)
{
    CC_GRID_STRIDE_LOOP(t, v.explicit_pairs.total_tests)
    cc_explicit_thread(t, &v.explicit_pairs, v.aabb, v.pairs);
}

cc_status cc_cuda_broadphase_explicit(const cc_pass_view* v, cudaStream_t s)
{
    if (v->explicit_pairs.total_tests == 0) return CC_OK;
    cc_explicit_kernel<<<cc_grid_for(v->explicit_pairs.total_tests), CC_BLOCK_SIZE, 0, s>>>(*v);
    return cc_cuda_check("EXPLICIT broad-phase kernel");
}
