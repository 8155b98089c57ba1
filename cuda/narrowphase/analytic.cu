// The analytic narrow phase on the GPU: pairs among planes, spheres,
// capsules and boxes (route class ANALYTIC of kernels/narrowphase/dispatch.h).
// Its own translation unit and kernel, so that it never carries the GJK/MPR
// stack and keeps a small register and stack footprint.
#include "cuda/launch.h"
#include "kernels/narrowphase/dispatch.h"

__global__ void cc_narrowphase_analytic_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_candidate_count(&v);
    cc_contact_sink sink = cc_pass_contact_sink(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_narrowphase_class_thread((int)i, &v.model, v.grouped_pairs, v.shape_pose, v.body_pose, sink,
                                CC_ROUTE_CLASS_ANALYTIC);
}

cc_status cc_cuda_narrowphase_analytic(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch("analytic narrow-phase kernel", cc_narrowphase_analytic_kernel, cc_grid_for(v->pairs.capacity),
                     s, *v);
}
