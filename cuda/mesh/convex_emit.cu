// Mesh work items on the GPU: the emit pass for convex shapes on triangles
// (a unit of its own, so that its kernel compiles beside the first pass's;
// compiled once per architecture, cuda/arch_units.h).
#include "cuda/mesh/items.cuh"

cc_status CC_ARCH_LAUNCHER(cc_cuda_mesh_convex_emit)(const cc_pass_view* v, cudaStream_t s)
{
    return cc_cuda_mesh_emit_pass<CC_MESH_FAMILY_CONVEX>(v, "mesh convex emit kernel", s);
}
