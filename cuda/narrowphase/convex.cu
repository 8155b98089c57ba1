// The GJK/MPR narrow phase on the GPU (route class CONVEX of
// kernels/narrowphase/dispatch.h): every convex pair without an analytic
// routine, the plane against round shapes and hulls, and capsule-box. The
// convex query's parts are called, not inlined (CC_HD_CALL), so the kernel
// holds one copy of them. Compiled once per architecture (cuda/arch_units.h).
#include "cuda/launch.h"
#include "kernels/narrowphase/dispatch.h"

static __global__ void cc_narrowphase_convex_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_candidate_count(&v);
    cc_contact_sink sink = cc_pass_contact_sink(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_narrowphase_class_thread((int)i, &v.model, v.grouped_pairs, v.shape_pose, v.body_pose, sink,
                                CC_ROUTE_CLASS_CONVEX);
}

cc_status CC_ARCH_LAUNCHER(cc_cuda_narrowphase_convex)(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch("convex narrow-phase kernel", cc_narrowphase_convex_kernel, cc_grid_for(v->pairs.capacity), s,
                     *v);
}
