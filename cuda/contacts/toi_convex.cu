// The time-of-impact kernel for the pairs of convex-query routes (the
// analytic routes' kernel is in toi.cu): a unit of its own, so that the
// GJK/MPR manifold and the analytic routines compile side by side (and
// once per architecture: cuda/arch_units.h).
#include "cuda/launch.h"
#include "kernels/contacts/toi.h"

static __global__ void CC_MAX_REGISTERS(CC_HEAVY_REGISTERS) cc_toi_convex_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = cc_candidate_count(&v);
    CC_GRID_STRIDE_LOOP(i, n)
    cc_toi_thread((int)i, &v, CC_ROUTE_CLASS_CONVEX);
}

cc_status CC_ARCH_LAUNCHER(cc_cuda_toi_convex)(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch("TOI kernel (convex routes)", cc_toi_convex_kernel, cc_grid_for(v->pairs.capacity), s, *v);
}
