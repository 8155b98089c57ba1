// The heavy units' launchers (cuda/arch_units.h): each calls the copy of
// its unit compiled for the current device.
#include "cuda/arch_units.h"
#include "cuda/launch.h"
/* The units of this build, generated from cmake/cuda_arch_units.h.in:
 * CC_ARCH_UNITS(X) expands X(arch) for each, in increasing order. */
#include "cuda_arch_units.h"

#define CC_ARCH_DECLARE(arch)                                                                            \
    cc_status cc_cuda_narrowphase_convex_arch##arch(const cc_pass_view* v, cudaStream_t s);             \
    cc_status cc_cuda_mesh_convex_items_arch##arch(const cc_pass_view* v, int emit, cudaStream_t s);    \
    cc_status cc_cuda_toi_convex_arch##arch(const cc_pass_view* v, cudaStream_t s);
CC_ARCH_UNITS(CC_ARCH_DECLARE)

namespace {

struct cc_arch_unit {
    int arch;
    cc_status (*narrowphase_convex)(const cc_pass_view*, cudaStream_t);
    cc_status (*mesh_convex_items)(const cc_pass_view*, int, cudaStream_t);
    cc_status (*toi_convex)(const cc_pass_view*, cudaStream_t);
};

#define CC_ARCH_ENTRY(arch) \
    {arch, cc_cuda_narrowphase_convex_arch##arch, cc_cuda_mesh_convex_items_arch##arch, cc_cuda_toi_convex_arch##arch},
const cc_arch_unit cc_arch_units[] = {CC_ARCH_UNITS(CC_ARCH_ENTRY)};
const int cc_arch_unit_count = (int)(sizeof cc_arch_units / sizeof cc_arch_units[0]);

/* The unit for the current device, or NULL with the error set. Attribute
 * queries are not stream work, so this is safe while a stream captures. */
const cc_arch_unit* cc_arch_unit_for_device(const char* what)
{
    int device = 0, major = 0, minor = 0;
    cc_status st = cc_cuda_status(cudaGetDevice(&device), "cudaGetDevice");
    if (st == CC_OK)
        st = cc_cuda_status(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
                            "cudaDeviceGetAttribute");
    if (st == CC_OK)
        st = cc_cuda_status(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device),
                            "cudaDeviceGetAttribute");
    if (st != CC_OK) return nullptr;
    int archs[sizeof cc_arch_units / sizeof cc_arch_units[0]];
    for (int i = 0; i < cc_arch_unit_count; ++i) archs[i] = cc_arch_units[i].arch;
    int pick = cc_arch_unit_pick(major * 10 + minor, archs, cc_arch_unit_count);
    if (pick >= 0) return &cc_arch_units[pick];
    cc_fail(CC_ERR_CUDA,
            "%s: this library has no machine code for compute capability %d.%d (built for sm_%d and newer); "
            "rebuild with -DCUCONTACT_CUDA_ARCHS listing %d%d",
            what, major, minor, cc_arch_units[0].arch, major, minor);
    return nullptr;
}

} // namespace

cc_status cc_cuda_narrowphase_convex(const cc_pass_view* v, cudaStream_t s)
{
    const cc_arch_unit* u = cc_arch_unit_for_device("convex narrow-phase kernel");
    return u ? u->narrowphase_convex(v, s) : CC_ERR_CUDA;
}

cc_status cc_cuda_mesh_convex_items(const cc_pass_view* v, int emit, cudaStream_t s)
{
    const cc_arch_unit* u = cc_arch_unit_for_device("mesh convex item kernel");
    return u ? u->mesh_convex_items(v, emit, s) : CC_ERR_CUDA;
}

cc_status cc_cuda_toi_convex(const cc_pass_view* v, cudaStream_t s)
{
    const cc_arch_unit* u = cc_arch_unit_for_device("TOI kernel (convex routes)");
    return u ? u->toi_convex(v, s) : CC_ERR_CUDA;
}
