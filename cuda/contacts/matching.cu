// Contact matching on the GPU: generation bookkeeping, claims, resolve
// (with the sticky replay), and saving this pass as the previous one.
#include "kernels/contacts/matching.h"
#include "cuda/launch.h"

__global__ void cc_match_begin_kernel(cc_pass_view v) { cc_match_begin(&v.match, v.contacts); }

__global__ void cc_match_claim_kernel(cc_pass_view v)
{
    int n = *v.contacts.count;
    CC_GRID_STRIDE_LOOP(i, n)
    cc_match_claim_thread((int)i, &v.match, &v.model, v.body_pose, v.contacts);
}

__global__ void cc_match_resolve_kernel(cc_pass_view v)
{
    int n = *v.contacts.count;
    CC_GRID_STRIDE_LOOP(i, n)
    cc_match_resolve_thread((int)i, &v.match, &v.model, v.body_pose, v.contacts);
}

__global__ void cc_match_save_kernel(cc_pass_view v)
{
    int n = *v.contacts.count;
    CC_GRID_STRIDE_LOOP(i, n)
    cc_match_save_thread((int)i, &v.match, &v.model, v.body_pose, v.contacts);
}

__global__ void cc_match_end_kernel(cc_pass_view v) { cc_match_end(&v.match, v.contacts); }

cc_status cc_cuda_match(const cc_pass_view* v, cudaStream_t s)
{
    unsigned grid = cc_grid_for(v->raw.capacity);
    cc_match_begin_kernel<<<1, 1, 0, s>>>(*v);
    cudaError_t e = cudaMemsetAsync(v->match.claims, 0xff, sizeof(unsigned long long) * (size_t)v->raw.capacity, s);
    if (e != cudaSuccess) return cc_fail(CC_ERR_CUDA, "cudaMemsetAsync of match claims failed: %s", cudaGetErrorString(e));
    cc_match_claim_kernel<<<grid, CC_BLOCK_SIZE, 0, s>>>(*v);
    cc_match_resolve_kernel<<<grid, CC_BLOCK_SIZE, 0, s>>>(*v);
    return cc_cuda_check("contact matching kernels");
}

cc_status cc_cuda_match_save(const cc_pass_view* v, cudaStream_t s)
{
    cc_match_save_kernel<<<cc_grid_for(v->raw.capacity), CC_BLOCK_SIZE, 0, s>>>(*v);
    cc_match_end_kernel<<<1, 1, 0, s>>>(*v);
    return cc_cuda_check("contact history kernels");
}
