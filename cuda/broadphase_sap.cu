// SAP broad phase on the GPU: axis (one block, fixed-order reduction),
// projection, CUB radix sort, sweep. The only translation unit using CUB.
#include <cub/device/device_radix_sort.cuh>

#include "kernels/broadphase_sap.h"
#include "launch.h"

// One block: each thread accumulates a strided subset, thread 0 combines the
// partials in index order so the axis is the same every run.
__global__ void cc_sap_axis_kernel(cc_pass_view v)
{
    __shared__ cc_moments partial[CC_BLOCK_SIZE];
    partial[threadIdx.x] = cc_sap_moments_partial(threadIdx.x, blockDim.x, v.model.shape_count, v.aabb);
    __syncthreads();
    if (threadIdx.x == 0) {
        cc_moments total = cc_moments_zero();
        for (int i = 0; i < (int)blockDim.x; ++i) total = cc_moments_combine(total, partial[i]);
        *v.sap.axis = cc_sap_axis_from_moments(total);
    }
}

__global__ void cc_sap_project_kernel(cc_pass_view v)
{
    CC_GRID_STRIDE_LOOP(e, v.sap.entry_count)
    cc_sap_project_thread((int)e, &v.sap, v.aabb);
}

__global__ void cc_sap_sweep_kernel(cc_pass_view v)
{
    CC_GRID_STRIDE_LOOP(i, v.sap.entry_count)
    cc_sap_sweep_thread((int)i, &v.sap, &v.model, v.aabb, v.pairs);
}

cc_status cc_cuda_sap_axis(const cc_pass_view* v, cudaStream_t s)
{
    cc_sap_axis_kernel<<<1, CC_BLOCK_SIZE, 0, s>>>(*v);
    return cc_cuda_check("SAP axis kernel");
}

cc_status cc_cuda_sap_project(const cc_pass_view* v, cudaStream_t s)
{
    if (v->sap.entry_count == 0) return CC_OK;
    cc_sap_project_kernel<<<cc_grid_for(v->sap.entry_count), CC_BLOCK_SIZE, 0, s>>>(*v);
    return cc_cuda_check("SAP projection kernel");
}

size_t cc_cuda_sort_temp_bytes(int n)
{
    size_t bytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, (const uint64_t*)nullptr, (uint64_t*)nullptr,
                                    (const int*)nullptr, (int*)nullptr, n > 0 ? n : 1);
    return bytes;
}

cc_status cc_cuda_sap_sort(const cc_pass_view* v, cudaStream_t s)
{
    if (v->sap.entry_count == 0) return CC_OK;
    size_t bytes = v->sort_temp_bytes;
    cudaError_t e = cub::DeviceRadixSort::SortPairs(v->sort_temp, bytes, v->sap.unsorted_keys, v->sap.keys,
                                                    v->sap.unsorted_values, v->sap.values,
                                                    v->sap.entry_count, 0, 64, s);
    if (e != cudaSuccess) return cc_fail(CC_ERR_CUDA, "SAP radix sort failed: %s", cudaGetErrorString(e));
    return cc_cuda_check("SAP radix sort");
}

cc_status cc_cuda_sap_sweep(const cc_pass_view* v, cudaStream_t s)
{
    if (v->sap.entry_count == 0) return CC_OK;
    cc_sap_sweep_kernel<<<cc_grid_for(v->sap.entry_count), CC_BLOCK_SIZE, 0, s>>>(*v);
    return cc_cuda_check("SAP sweep kernel");
}
