// Mesh work items on the GPU: other convex shapes against triangles, through
// GJK/MPR; the first pass here, the emit pass in convex_emit.cu. Compiled
// once per architecture (cuda/arch_units.h).
#include "cuda/mesh/items.cuh"

cc_status CC_ARCH_LAUNCHER(cc_cuda_mesh_convex_items)(const cc_pass_view* v, int emit, cudaStream_t s)
{
    if (emit) return CC_ARCH_LAUNCHER(cc_cuda_mesh_convex_emit)(v, s);
    return cc_cuda_mesh_items_pass<CC_MESH_FAMILY_CONVEX>(v, "mesh convex item kernel", s);
}
