// Contact matching on the GPU: generation bookkeeping, claims, resolve
// (with the sticky replay), and saving this pass as the previous one.
#include "kernels/contacts/matching.h"
#include "cuda/launch.h"

__global__ void cc_match_begin_kernel(const __grid_constant__ cc_pass_view v) { cc_match_begin(&v.match, v.contacts); }

__global__ void cc_match_claim_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = *v.contacts.count;
    CC_GRID_STRIDE_LOOP(i, n)
    cc_match_claim_thread((int)i, &v.match, &v.model, v.body_pose, v.contacts);
}

__global__ void cc_match_resolve_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = *v.contacts.count;
    CC_GRID_STRIDE_LOOP(i, n)
    cc_match_resolve_thread((int)i, &v.match, &v.model, v.body_pose, v.contacts);
}

__global__ void cc_match_save_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = *v.contacts.count;
    CC_GRID_STRIDE_LOOP(i, n)
    cc_match_save_thread((int)i, &v.match, &v.model, v.body_pose, v.contacts);
}

__global__ void cc_match_end_kernel(const __grid_constant__ cc_pass_view v) { cc_match_end(&v.match, v.contacts); }

cc_status cc_cuda_match(const cc_pass_view* v, cudaStream_t s)
{
    unsigned grid = cc_grid_for(v->raw.capacity);
    cc_status st = cc_launch_block("match begin kernel", cc_match_begin_kernel, 1, 1, s, *v);
    if (st == CC_OK)
        st = cc_cuda_status(
            cudaMemsetAsync(v->match.claims, 0xff, sizeof(unsigned long long) * (size_t)v->raw.capacity, s),
            "cudaMemsetAsync of match claims");
    if (st == CC_OK) st = cc_launch("match claim kernel", cc_match_claim_kernel, grid, s, *v);
    if (st == CC_OK) st = cc_launch("match resolve kernel", cc_match_resolve_kernel, grid, s, *v);
    return st;
}

cc_status cc_cuda_match_save(const cc_pass_view* v, cudaStream_t s)
{
    cc_status st = cc_launch("match save kernel", cc_match_save_kernel, cc_grid_for(v->raw.capacity), s, *v);
    if (st == CC_OK) st = cc_launch_block("match end kernel", cc_match_end_kernel, 1, 1, s, *v);
    return st;
}
