// Mesh work items on the GPU: mesh vertices against a plane or another surface.
#include "cuda/mesh/items.cuh"

cc_status cc_cuda_mesh_vertex_items(const cc_pass_view* v, int emit, cudaStream_t s)
{
    if (emit) return cc_cuda_mesh_emit_pass<CC_MESH_FAMILY_VERTICES>(v, "mesh vertex emit kernel", s);
    return cc_cuda_mesh_items_pass<CC_MESH_FAMILY_VERTICES>(v, "mesh vertex item kernel", s);
}
