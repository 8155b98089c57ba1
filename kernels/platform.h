/* Compiler glue so that every kernel body compiles as C11 under gcc and as
 * CUDA C++ under nvcc. */
#ifndef CC_KERNELS_PLATFORM_H
#define CC_KERNELS_PLATFORM_H

#include <stdint.h>

#if defined(__CUDACC__)
#define CC_HD __host__ __device__ __forceinline__
#define CC_ON_DEVICE_BUILD 1
#else
#define CC_HD static inline
#define CC_ON_DEVICE_BUILD 0
#endif

/* Atomic helpers. The CPU backend runs kernel bodies on one thread, so the
 * host definitions are plain read-modify-writes. */
#if defined(__CUDA_ARCH__)
CC_HD int cc_atomic_add_i32(int* addr, int value) { return atomicAdd(addr, value); }
CC_HD int cc_atomic_max_i32(int* addr, int value) { return atomicMax(addr, value); }
#else
CC_HD int cc_atomic_add_i32(int* addr, int value)
{
    int old = *addr;
    *addr = old + value;
    return old;
}
CC_HD int cc_atomic_max_i32(int* addr, int value)
{
    int old = *addr;
    if (value > old) *addr = value;
    return old;
}
#endif

#endif
