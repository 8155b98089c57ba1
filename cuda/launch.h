/* Launch helpers shared by the CUDA translation units: grid sizing for
 * grid-stride loops and error reporting after each launch. */
#ifndef CC_CUDA_LAUNCH_H
#define CC_CUDA_LAUNCH_H

#include <cuda_runtime.h>

#include "host/backend/backend.h"

#define CC_BLOCK_SIZE 256
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

/* Turns the last launch's error, if any, into a status naming the stage. */
static inline cc_status cc_cuda_check(const char* what)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return CC_OK;
    return cc_fail(CC_ERR_CUDA, "%s failed: %s", what, cudaGetErrorString(e));
}

#define CC_GRID_STRIDE_LOOP(i, n) \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (int64_t)gridDim.x * blockDim.x)

/* Stage launchers, one translation unit each. */
cc_status cc_cuda_shape_bounds(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_broadphase_nxn(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_broadphase_explicit(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_sap_axis(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_sap_project(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_sap_sort(const cc_pass_view* v, cudaStream_t s);
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
cc_status cc_cuda_narrowphase(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_finalize(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_mesh_midphase(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_mesh_clear_slots(const cc_pass_view* v, cudaStream_t s);
cc_status cc_cuda_mesh_group(const cc_pass_view* v, cudaStream_t s);
/* emit = 0: write or vote (with reduction); 1: write the kept contacts. */
cc_status cc_cuda_mesh_contacts(const cc_pass_view* v, int emit, cudaStream_t s);
/* Stable radix sort of n (key, value) pairs with caller-provided scratch. */
cc_status cc_cuda_sort_u64_pairs(void* temp, size_t temp_bytes, const uint64_t* keys_in, uint64_t* keys_out,
                                 const int* values_in, int* values_out, int n, cudaStream_t s);
cc_status cc_cuda_step_stage(cc_step_stage stage, const cc_step_view* v, cudaStream_t s);

#endif
