// The collision sub-step scheduler's stages on the GPU: thin wrappers
// around kernels/step/schedule.h. The decision kernel also sets the value
// of the frame graph's conditional node that runs the collision pass.
#include "kernels/step/schedule.h"
#include "cuda/launch.h"

__global__ void cc_schedule_observe_kernel(const __grid_constant__ cc_schedule_view v)
{
    CC_GRID_STRIDE_LOOP(i, v.model.shape_count) cc_schedule_observe_thread((int)i, &v);
}

__global__ void cc_schedule_decide_kernel(const __grid_constant__ cc_schedule_view v)
{
    cc_schedule_decide_thread(&v);
#if CUDART_VERSION >= 12040 /* conditional nodes; older toolkits never capture one (cuda/backend.cu) */
    if (v.condition) cudaGraphSetConditional((cudaGraphConditionalHandle)v.condition, v.state->collide ? 1u : 0u);
#endif
}

cc_status cc_cuda_schedule_stage(cc_schedule_stage stage, const cc_schedule_view* v, cudaStream_t s)
{
    if (stage == CC_SCHEDULE_OBSERVE)
        return cc_launch("scheduler observe kernel", cc_schedule_observe_kernel, cc_grid_for(v->model.shape_count), s,
                         *v);
    return cc_launch_block("scheduler decide kernel", cc_schedule_decide_kernel, 1, 1, s, *v);
}
