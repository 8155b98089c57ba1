// Device-wide primitives from CUB: radix sort and index selection. The only
// translation unit that includes CUB, to keep builds lean.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "kernels/contacts/matching.h"
#include "cuda/launch.h"

size_t cc_cuda_sort_temp_bytes(int n)
{
    size_t bytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, (const uint64_t*)nullptr, (uint64_t*)nullptr,
                                    (const int*)nullptr, (int*)nullptr, n > 0 ? n : 1);
    return bytes;
}

cc_status cc_cuda_sort_u64_pairs(void* temp, size_t temp_bytes, const uint64_t* keys_in, uint64_t* keys_out,
                                 const int* values_in, int* values_out, int n, cudaStream_t s)
{
    size_t bytes = temp_bytes;
    return cc_cuda_status(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in, values_out, n, 0, 64, s),
                          "radix sort");
}

cc_status cc_cuda_radix_sort_pairs(const cc_pass_view* v, const uint64_t* keys_in, uint64_t* keys_out,
                                   const int* values_in, int* values_out, int n, cudaStream_t s)
{
    return cc_cuda_sort_u64_pairs(v->sort_temp, v->sort_temp_bytes, keys_in, keys_out, values_in, values_out, n, s);
}

// Report predicates over a counting range sized by the capacity; rows past
// the device-side counts are never selected.
struct cc_is_new_row {
    cc_contacts_view c;
    __device__ bool operator()(int i) const { return cc_report_is_new(i, c) != 0; }
};
struct cc_is_broken_row {
    cc_match_view m;
    __device__ bool operator()(int j) const { return cc_report_is_broken(j, &m) != 0; }
};

size_t cc_cuda_select_temp_bytes(int n)
{
    size_t new_bytes = 0, broken_bytes = 0;
    cub::DeviceSelect::If(nullptr, new_bytes, thrust::counting_iterator<int>(0), (int*)nullptr, (int*)nullptr,
                          n > 0 ? n : 1, cc_is_new_row{});
    cub::DeviceSelect::If(nullptr, broken_bytes, thrust::counting_iterator<int>(0), (int*)nullptr, (int*)nullptr,
                          n > 0 ? n : 1, cc_is_broken_row{});
    return new_bytes > broken_bytes ? new_bytes : broken_bytes;
}

cc_status cc_cuda_report(const cc_pass_view* v, cudaStream_t s)
{
    int n = v->raw.capacity;
    size_t bytes = v->sort_temp_bytes;
    cudaError_t e = cub::DeviceSelect::If(v->sort_temp, bytes, thrust::counting_iterator<int>(0),
                                          v->contacts.new_indices, v->contacts.new_count, n,
                                          cc_is_new_row{v->contacts}, s);
    if (e == cudaSuccess) {
        bytes = v->sort_temp_bytes;
        e = cub::DeviceSelect::If(v->sort_temp, bytes, thrust::counting_iterator<int>(0), v->contacts.broken_indices,
                                  v->contacts.broken_count, n, cc_is_broken_row{v->match}, s);
    }
    return cc_cuda_status(e, "contact report selection");
}
