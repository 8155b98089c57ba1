// Mesh work items on the GPU: the emit pass of the SDF family (sdf_items.cu).
#include "cuda/mesh/items.cuh"

cc_status cc_cuda_mesh_sdf_emit(const cc_pass_view* v, cudaStream_t s)
{
    return cc_cuda_mesh_emit_pass<CC_MESH_FAMILY_SDF>(v, "mesh SDF emit kernel", s);
}
