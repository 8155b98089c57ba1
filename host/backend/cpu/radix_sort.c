/* Stable LSD radix sort, 8 bits per pass, skipping passes where every key
 * has the same digit (common for the high bits of SAP keys). */
#include "host/backend/cpu/radix_sort.h"

#include <string.h>

size_t cc_radix_sort_temp_bytes(int n)
{
    return (size_t)(n > 0 ? n : 1) * (sizeof(uint64_t) + sizeof(int));
}

void cc_radix_sort_pairs_u64(const uint64_t* keys_in, uint64_t* keys_out, const int* values_in,
                             int* values_out, int n, int end_bit, void* temp)
{
    if (n <= 0) return;
    uint64_t* tk = (uint64_t*)temp;
    int* tv = (int*)(tk + n);
    memcpy(keys_out, keys_in, (size_t)n * sizeof *keys_out);
    memcpy(values_out, values_in, (size_t)n * sizeof *values_out);
    /* src/dst alternate between the output and the scratch arrays. */
    uint64_t* src_k = keys_out;
    int* src_v = values_out;
    uint64_t* dst_k = tk;
    int* dst_v = tv;
    for (int shift = 0; shift < end_bit; shift += 8) {
        size_t count[256] = {0};
        for (int i = 0; i < n; ++i) count[(src_k[i] >> shift) & 0xffu]++;
        if (count[(src_k[0] >> shift) & 0xffu] == (size_t)n) continue;
        size_t offset[256], sum = 0;
        for (int d = 0; d < 256; ++d) {
            offset[d] = sum;
            sum += count[d];
        }
        for (int i = 0; i < n; ++i) {
            size_t slot = offset[(src_k[i] >> shift) & 0xffu]++;
            dst_k[slot] = src_k[i];
            dst_v[slot] = src_v[i];
        }
        uint64_t* swap_k = src_k;
        src_k = dst_k;
        dst_k = swap_k;
        int* swap_v = src_v;
        src_v = dst_v;
        dst_v = swap_v;
    }
    if (src_k != keys_out) {
        memcpy(keys_out, src_k, (size_t)n * sizeof *keys_out);
        memcpy(values_out, src_v, (size_t)n * sizeof *values_out);
    }
}
