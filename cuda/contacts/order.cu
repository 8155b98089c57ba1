// Deterministic contact order on the GPU: sentinel keys, a radix sort over
// the whole capacity (no host read of the count), and the gather.
#include "kernels/contacts/order.h"
#include "cuda/launch.h"

cc_status cc_cuda_keys_clear(const cc_pass_view* v, cudaStream_t s)
{
    return cc_cuda_status(cudaMemsetAsync(v->raw_keys, 0xff, sizeof(uint64_t) * (size_t)v->raw.capacity, s),
                          "cudaMemsetAsync of contact keys");
}

cc_status cc_cuda_contact_sort(const cc_pass_view* v, cudaStream_t s)
{
    return cc_cuda_radix_sort_pairs(v, v->raw_keys, v->sorted_keys, v->identity, v->permutation, v->raw.capacity, s);
}

__global__ void cc_gather_kernel(const __grid_constant__ cc_pass_view v)
{
    int n = *v.contacts.count;
    CC_GRID_STRIDE_LOOP(i, n)
    cc_gather_contact_thread((int)i, v.permutation, v.raw, v.contacts);
}

cc_status cc_cuda_contact_gather(const cc_pass_view* v, cudaStream_t s)
{
    return cc_launch("contact gather kernel", cc_gather_kernel, cc_grid_for(v->raw.capacity), s, *v);
}
