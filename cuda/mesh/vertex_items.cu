// Mesh work items on the GPU: mesh vertices against a plane or another surface.
#include "cuda/mesh/items.cuh"

cc_status cc_cuda_mesh_vertex_items(const cc_pass_view* v, int emit, cudaStream_t s)
{
    const char* what = emit ? "mesh vertex emit kernel" : "mesh vertex item kernel";
    return cc_cuda_mesh_family<CC_MESH_FAMILY_VERTICES>(v, emit, what, s);
}
