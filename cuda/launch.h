/* Launch helpers shared by the CUDA translation units: grid sizing for
 * grid-stride loops, launches that report their own errors, and the stage
 * launchers of each translation unit. */
#ifndef CC_CUDA_LAUNCH_H
#define CC_CUDA_LAUNCH_H

#include <cuda_runtime.h>

#include "cuda/arch_units.h"
#include "host/backend/backend.h"

/* Kernels take their view (cc_pass_view, cc_step_view) as a
 * `const __grid_constant__` parameter: routines may then take the address
 * of its members without every thread copying the whole view, a kilobyte
 * and more, to its stack. */
#define CC_BLOCK_SIZE 256

/* A kernel's register cap (CUDA 12.4+; older compilers leave the choice to
 * ptxas). For kernels whose call chains ptxas pads far beyond what they
 * need: the cap must cause no spills (scripts/kernel-resources.py). The
 * heavy kernels take CC_HEAVY_REGISTERS: with 256-thread blocks any count
 * from 129 to 255 runs one block per SM, so the cap only bounds growth. It
 * was 192, then 224; at each the convex query's call chains spilled a few
 * bytes once the query grew (at 224, its last step for a disk's witness). */
#if defined(__CUDACC_VER_MAJOR__) && (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define CC_MAX_REGISTERS(n) __maxnreg__(n)
#else
#define CC_MAX_REGISTERS(n)
#endif
#define CC_HEAVY_REGISTERS 240
/* Grids never exceed this many blocks; grid-stride loops cover the rest. */
#define CC_MAX_GRID_BLOCKS 4096

static inline unsigned cc_grid_for(int64_t items)
{
    int64_t blocks = (items + CC_BLOCK_SIZE - 1) / CC_BLOCK_SIZE;
    if (blocks < 1) blocks = 1;
    if (blocks > CC_MAX_GRID_BLOCKS) blocks = CC_MAX_GRID_BLOCKS;
    return (unsigned)blocks;
}

static inline cudaStream_t cc_cuda_stream(cc_stream s) { return (cudaStream_t)s; }

/* Launches kernel<<<grid, block, 0, s>>>(args...) and returns this launch's
 * own status: cudaLaunchKernelEx reports the launch's error (an invalid
 * configuration, a broken context) and never an unrelated earlier error
 * that the application left behind, which cudaGetLastError after a <<<>>>
 * launch would blame on this kernel. */
template <typename... Params, typename... Args>
static inline cc_status cc_launch_block(const char* what, void (*kernel)(Params...), unsigned grid, unsigned block,
                                        cudaStream_t s, Args&&... args)
{
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(grid);
    config.blockDim = dim3(block);
    config.dynamicSmemBytes = 0;
    config.stream = s;
    cudaError_t e = cudaLaunchKernelEx(&config, kernel, static_cast<Args&&>(args)...);
    if (e == cudaSuccess) return CC_OK;
    return cc_fail(CC_ERR_CUDA, "%s failed to launch: %s", what, cudaGetErrorString(e));
}

/* The same with CC_BLOCK_SIZE threads a block. */
template <typename... Params, typename... Args>
static inline cc_status cc_launch(const char* what, void (*kernel)(Params...), unsigned grid, cudaStream_t s,
                                  Args&&... args)
{
    return cc_launch_block(what, kernel, grid, CC_BLOCK_SIZE, s, static_cast<Args&&>(args)...);
}

/* A CUDA runtime call's own status, naming the call. */
static inline cc_status cc_cuda_status(cudaError_t e, const char* what)
{
    if (e == cudaSuccess) return CC_OK;
    return cc_fail(CC_ERR_CUDA, "%s failed: %s", what, cudaGetErrorString(e));
}

#define CC_GRID_STRIDE_LOOP(i, n) \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (int64_t)gridDim.x * blockDim.x)

/* Candidate pairs of the pass, read on the device (clamped to capacity). */
__device__ __forceinline__ int cc_candidate_count(const cc_pass_view* v)
{
    return cc_min_i32(v->counters->pair_count, v->pairs.capacity);
}

/* Stage launchers, one translation unit each. */
cc_status cc_cuda_shape_bounds(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_broadphase_nxn(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_broadphase_explicit(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_sap_axis(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_sap_project(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_sap_sort(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_sap_gather(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_sap_sweep(const cc_pass_view* v, cudaStream_t s);
size_t cc_cuda_sort_temp_bytes(int n);
size_t cc_cuda_select_temp_bytes(int n);
/* Stable radix sort of n (key, value) pairs with the pass's scratch. */
cc_status cc_cuda_radix_sort_pairs(const cc_pass_view* v, const uint64_t* keys_in, uint64_t* keys_out,
                                   const int* values_in, int* values_out, int n, cudaStream_t s);
cc_status cc_cuda_keys_clear(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_contact_sort(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_contact_gather(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_match(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_report(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_match_save(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_route_group(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_narrowphase_analytic(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_narrowphase_convex(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_toi_link(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_toi(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_toi_convex(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_finalize(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_mesh_midphase(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_mesh_clear_slots(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_mesh_group(const cc_pass_view* v, cudaStream_t s);
/* Mesh work items by family (cuda/mesh/*_items.cu); emit = 0: write or
 * vote (with reduction); 1: write the kept contacts. */
cc_status cc_cuda_mesh_sphere_items(const cc_pass_view* v, int emit, cudaStream_t s);
cc_status cc_cuda_mesh_convex_items(const cc_pass_view* v, int emit, cudaStream_t s);
cc_status cc_cuda_mesh_vertex_items(const cc_pass_view* v, int emit, cudaStream_t s);
cc_status cc_cuda_mesh_sdf_items(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_mesh_sdf_emit(const cc_pass_view* v, cudaStream_t s);
/* Stable radix sort of n (key, value) pairs with caller-provided scratch. */
cc_status cc_cuda_sort_u64_pairs(void* temp, size_t temp_bytes, const uint64_t* keys_in, uint64_t* keys_out,
                                 const int* values_in, int* values_out, int n, cudaStream_t s);
/* The copy of each heavy unit being compiled (cuda/arch_units.h). */
#ifdef CC_CUDA_ARCH_UNIT
cc_status CC_ARCH_LAUNCHER(cc_cuda_narrowphase_convex)(const cc_pass_view* v, cudaStream_t s);
cc_status CC_ARCH_LAUNCHER(cc_cuda_mesh_convex_items)(const cc_pass_view* v, int emit, cudaStream_t s);
cc_status CC_ARCH_LAUNCHER(cc_cuda_mesh_convex_emit)(const cc_pass_view* v, cudaStream_t s);
cc_status CC_ARCH_LAUNCHER(cc_cuda_toi_convex)(const cc_pass_view* v, cudaStream_t s);
#endif
cc_status cc_cuda_step_stage(cc_step_stage stage, const cc_step_view* v, cudaStream_t s);
cc_status cc_cuda_schedule_stage(cc_schedule_stage stage, const cc_schedule_view* v, cudaStream_t s);

#endif
