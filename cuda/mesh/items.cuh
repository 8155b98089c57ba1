// The mesh narrow phase's two kernels for one family of work items (a
// translation unit per family: cuda/mesh/*_items.cu): the first pass over
// the items (write, or vote when reducing) and the emit pass over the
// reduction slots. Both call the family's one item function, so a kept
// contact is recomputed by the same code that voted for it. A family whose
// item function is large compiles its two kernels in two units
// (convex_items.cu, convex_emit.cu), which nvcc then builds side by side.
#ifndef CC_CUDA_MESH_ITEMS_CUH
#define CC_CUDA_MESH_ITEMS_CUH

#include "cuda/launch.h"
#include "kernels/mesh/narrowphase.h"

/* Capped at the heavy kernels' budget: the convex family's call chain
 * sits a few registers either side of it as the shared routines change
 * (scripts/kernel-resources.py checks that the cap spills nothing).
 * Internal linkage: the convex family's units compile once per
 * architecture, and each copy's kernels are its own (cuda/arch_units.h). */
template <int Family>
static __global__ void CC_MAX_REGISTERS(CC_HEAVY_REGISTERS) cc_mesh_items_kernel(const __grid_constant__ cc_pass_view v, int pass)
{
    int n = cc_min_i32(v.counters->mesh_item_count, v.mesh.item_capacity);
    /* The sink is rebuilt from the parameters in each iteration, so that
     * its pointers are not held in registers across the item's calls. */
    CC_GRID_STRIDE_LOOP(j, n)
    cc_mesh_narrowphase_thread((int)j, &v.model, v.grouped_pairs, v.shape_pose, v.body_pose, &v.mesh,
                               cc_pass_contact_sink(&v), pass, Family);
}

template <int Family>
static __global__ void CC_MAX_REGISTERS(CC_HEAVY_REGISTERS) cc_mesh_emit_kernel(const __grid_constant__ cc_pass_view v)
{
    int blocks = cc_min_i32(v.counters->mesh_block_count, v.mesh.block_capacity);
    int64_t n = (int64_t)blocks * CC_REDUCE_SLOTS;
    CC_GRID_STRIDE_LOOP(t, n)
    cc_mesh_emit_slot_thread((int)t, blocks, &v.model, v.grouped_pairs, v.shape_pose, v.body_pose, &v.mesh,
                             cc_pass_contact_sink(&v), Family);
}

/* The first pass: write, or vote when reducing. */
template <int Family>
static cc_status cc_cuda_mesh_items_pass(const cc_pass_view* v, const char* what, cudaStream_t s)
{
    int pass = v->mesh.reduce ? CC_MESH_PASS_VOTE : CC_MESH_PASS_DIRECT;
    return cc_launch(what, cc_mesh_items_kernel<Family>, cc_grid_for(v->mesh.item_capacity), s, *v, pass);
}

/* The emit pass: write the kept contacts. */
template <int Family>
static cc_status cc_cuda_mesh_emit_pass(const cc_pass_view* v, const char* what, cudaStream_t s)
{
    unsigned grid = cc_grid_for((int64_t)v->mesh.block_capacity * CC_REDUCE_SLOTS);
    return cc_launch(what, cc_mesh_emit_kernel<Family>, grid, s, *v);
}

#endif
