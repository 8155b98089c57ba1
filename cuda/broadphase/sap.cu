// SAP broad phase on the GPU: axis (one block, fixed-order reduction),
// projection, radix sort (device_primitives.cu), gather, sweep.
#include "kernels/broadphase/sap.h"
#include "cuda/launch.h"

// One block: each thread accumulates a strided subset, thread 0 combines the
// partials in index order so the axis is the same every run.
__global__ void cc_sap_axis_kernel(const __grid_constant__ cc_pass_view v)
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

__global__ void cc_sap_project_kernel(const __grid_constant__ cc_pass_view v)
{
    CC_GRID_STRIDE_LOOP(e, v.sap.entry_count)
    cc_sap_project_thread((int)e, &v.sap, v.aabb);
}

__global__ void cc_sap_gather_kernel(const __grid_constant__ cc_pass_view v)
{
    CC_GRID_STRIDE_LOOP(i, v.sap.entry_count)
    cc_sap_gather_thread((int)i, &v.sap, v.aabb);
}

__global__ void cc_sap_sweep_kernel(const __grid_constant__ cc_pass_view v)
{
    CC_GRID_STRIDE_LOOP(i, v.sap.entry_count)
    cc_sap_sweep_thread((int)i, &v.sap, &v.model, v.pairs);
}

cc_status cc_cuda_sap_axis(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch("SAP axis kernel", cc_sap_axis_kernel, 1, s, *v);
}

cc_status cc_cuda_sap_project(const cc_pass_view* v, cudaStream_t s)
{
    if (v->sap.entry_count == 0) return CC_OK;
    return cc_launch("SAP projection kernel", cc_sap_project_kernel, cc_grid_for(v->sap.entry_count), s, *v);
}

cc_status cc_cuda_sap_sort(const cc_pass_view* v, cudaStream_t s)
{
    if (v->sap.entry_count == 0) return CC_OK;
    return cc_cuda_radix_sort_pairs(v, v->sap.unsorted_keys, v->sap.keys, v->sap.unsorted_values, v->sap.values,
                                    v->sap.entry_count, s);
}

cc_status cc_cuda_sap_gather(const cc_pass_view* v, cudaStream_t s)
{
    if (v->sap.entry_count == 0) return CC_OK;
    return cc_launch("SAP gather kernel", cc_sap_gather_kernel, cc_grid_for(v->sap.entry_count), s, *v);
}

cc_status cc_cuda_sap_sweep(const cc_pass_view* v, cudaStream_t s)
{
    if (v->sap.entry_count == 0) return CC_OK;
    return cc_launch("SAP sweep kernel", cc_sap_sweep_kernel, cc_grid_for(v->sap.entry_count), s, *v);
}
