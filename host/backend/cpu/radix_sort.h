/* Stable LSD radix sort of 64-bit keys with int values, the CPU
 * counterpart of CUB's DeviceRadixSort::SortPairs (same permutation). */
#ifndef CC_HOST_BACKEND_RADIX_SORT_H
#define CC_HOST_BACKEND_RADIX_SORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch bytes for sorting n items. */
size_t cc_radix_sort_temp_bytes(int n);

/* Sorts (keys_in, values_in) into (keys_out, values_out) by key, stable;
 * only bits [0, end_bit) of the keys take part. `temp` holds
 * cc_radix_sort_temp_bytes(n) bytes. Inputs are left unchanged. */
void cc_radix_sort_pairs_u64(const uint64_t* keys_in, uint64_t* keys_out, const int* values_in,
                             int* values_out, int n, int end_bit, void* temp);

#ifdef __cplusplus
}
#endif

#endif
