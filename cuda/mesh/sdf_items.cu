// Mesh work items on the GPU: mesh features and heightfield grids against
// an SDF, first pass (the emit pass is its own unit, sdf_emit.cu, so that
// the two compile side by side).
#include "cuda/mesh/items.cuh"

cc_status cc_cuda_mesh_sdf_items(const cc_pass_view* v, cudaStream_t s)
{
    return cc_cuda_mesh_items_pass<CC_MESH_FAMILY_SDF>(v, "mesh SDF item kernel", s);
}
