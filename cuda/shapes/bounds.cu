// Stage 1 on the GPU: one thread per shape.
#include "kernels/shapes/bounds.h"
#include "cuda/launch.h"

__global__ void cc_shape_bounds_kernel(const __grid_constant__ cc_pass_view v)
{
    CC_GRID_STRIDE_LOOP(i, v.model.shape_count)
    cc_shape_bounds_thread((int)i, &v.model, v.body_pose, &v.spec, v.spec_published, v.shape_pose, v.aabb);
}

cc_status cc_cuda_shape_bounds(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch("shape bounds kernel", cc_shape_bounds_kernel, cc_grid_for(v->model.shape_count), s, *v);
}
