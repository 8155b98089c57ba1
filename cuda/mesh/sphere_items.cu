// Mesh work items on the GPU: spheres against triangles.
#include "cuda/mesh/items.cuh"

cc_status cc_cuda_mesh_sphere_items(const cc_pass_view* v, int emit, cudaStream_t s)
{
    if (emit) return cc_cuda_mesh_emit_pass<CC_MESH_FAMILY_SPHERE>(v, "mesh sphere emit kernel", s);
    return cc_cuda_mesh_items_pass<CC_MESH_FAMILY_SPHERE>(v, "mesh sphere item kernel", s);
}
