// Mesh work items on the GPU: other convex shapes against triangles, through GJK/MPR.
#include "cuda/mesh/items.cuh"

cc_status cc_cuda_mesh_convex_items(const cc_pass_view* v, int emit, cudaStream_t s)
{
    const char* what = emit ? "mesh convex emit kernel" : "mesh convex item kernel";
    return cc_cuda_mesh_family<CC_MESH_FAMILY_CONVEX>(v, emit, what, s);
}
