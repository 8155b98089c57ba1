// Mesh work items on the GPU: spheres against triangles.
#include "cuda/mesh/items.cuh"

cc_status cc_cuda_mesh_sphere_items(const cc_pass_view* v, int emit, cudaStream_t s)
{
    const char* what = emit ? "mesh sphere emit kernel" : "mesh sphere item kernel";
    return cc_cuda_mesh_family<CC_MESH_FAMILY_SPHERE>(v, emit, what, s);
}
