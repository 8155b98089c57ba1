/* Compiler glue so that every kernel body compiles as C11 under gcc and as
 * CUDA C++ under nvcc. */
#ifndef CC_KERNELS_PLATFORM_H
#define CC_KERNELS_PLATFORM_H

#include <stdint.h>

/* CC_HD: a kernel body's building block, inlined into its caller.
 * CC_HD_CALL: a large routine that several routes share (GJK, MPR, EPA,
 * the exact convex query, feature clipping). On the GPU it stays one
 * function that its callers call, so that a kernel holds one copy of it:
 * without that every route and every call site inlined the whole convex
 * stack, kernels grew to megabytes and a translation unit took minutes to
 * compile. The host compiler inlines CC_HD as nvcc does (forced: left
 * to itself, its unit-growth limits stopped inlining the small helpers of
 * the bounds and mesh-vertex loops once the convex stack grew, at 20-70%
 * of their speed) and decides for itself about CC_HD_CALL. */
#if defined(__CUDACC__)
#define CC_HD __host__ __device__ __forceinline__
#define CC_HD_CALL static __host__ __device__ __noinline__
#define CC_ON_DEVICE_BUILD 1
#else
#define CC_HD static inline __attribute__((always_inline))
#define CC_HD_CALL static inline
#define CC_ON_DEVICE_BUILD 0
#endif

/* CC_NO_UNROLL: before a loop whose passes each search (a separation along
 * a new direction, a climb, a triangle's test). nvcc unrolls loops whose
 * bodies look small, and a call looks small: every copy is one more call
 * site for ptxas, at no gain, for the call costs the same either way.
 * Loops over a triangle's three corners stay unrolled (their small arrays
 * then live in registers). With the search loops rolled the heaviest units
 * compile in about 60 processor seconds instead of 82-88, and their
 * kernels are 10% smaller. */
#if defined(__CUDACC__)
#define CC_NO_UNROLL _Pragma("unroll 1")
#else
#define CC_NO_UNROLL
#endif

/* Atomic helpers. On the GPU, cc_atomic_add_i32 aggregates within a warp:
 * lanes adding to the same address elect a leader that issues one atomic
 * for their sum and hands each lane its own offset. Appending to one
 * counter from a million threads then costs one atomic per warp instead of
 * 32 serialised ones. */
#if defined(__CUDA_ARCH__)
__device__ __forceinline__ int cc_atomic_add_i32(int* addr, int value)
{
    unsigned active = __activemask();
    int lane = (int)(threadIdx.x & 31u); /* every launch uses 1-D blocks */
    int result = 0;
    unsigned remaining = active;
    while (remaining) {
        int leader = __ffs(remaining) - 1;
        int* leader_addr = (int*)__shfl_sync(active, (unsigned long long)addr, leader);
        int mine = leader_addr == addr;
        unsigned group = __ballot_sync(active, mine);
        int prefix = 0, total = 0;
        for (unsigned g = group; g; g &= g - 1u) {
            int j = __ffs(g) - 1;
            int vj = __shfl_sync(active, value, j);
            total += vj;
            if (j < lane) prefix += vj;
        }
        int base = 0;
        if (lane == leader) base = atomicAdd(addr, total);
        base = __shfl_sync(active, base, leader);
        if (mine) result = base + prefix;
        remaining &= ~group;
    }
    return result;
}
__device__ __forceinline__ unsigned long long cc_atomic_min_u64(unsigned long long* addr, unsigned long long value)
{
    return atomicMin(addr, value);
}
__device__ __forceinline__ unsigned long long cc_atomic_max_u64(unsigned long long* addr, unsigned long long value)
{
    return atomicMax(addr, value);
}
__device__ __forceinline__ float cc_atomic_add_f32(float* addr, float value) { return atomicAdd(addr, value); }
__device__ __forceinline__ unsigned long long cc_atomic_add_u64(unsigned long long* addr, unsigned long long value)
{
    return atomicAdd(addr, value);
}
__device__ __forceinline__ unsigned cc_atomic_min_u32(unsigned* addr, unsigned value) { return atomicMin(addr, value); }
__device__ __forceinline__ int cc_atomic_exchange_i32(int* addr, int value) { return atomicExch(addr, value); }
__device__ __forceinline__ int cc_atomic_max_i32(int* addr, int value) { return atomicMax(addr, value); }
#else
/* The CPU backend runs some stage loops on several threads (host/backend/
 * cpu/threads.h); while any does, cc_cpu_parallel_loops is nonzero and the
 * helpers are compiler atomics (relaxed, as CUDA's: a stage reads what they
 * wrote only after the loop). Otherwise plain read-modify-writes, which
 * cost a single thread nothing. */
#if defined(__cplusplus)
extern "C" int cc_cpu_parallel_loops;
#else
extern int cc_cpu_parallel_loops;
#endif
#define CC_CPU_ATOMIC() __atomic_load_n(&cc_cpu_parallel_loops, __ATOMIC_RELAXED)
CC_HD int cc_atomic_add_i32(int* addr, int value)
{
    if (CC_CPU_ATOMIC()) return __atomic_fetch_add(addr, value, __ATOMIC_RELAXED);
    int old = *addr;
    *addr = old + value;
    return old;
}
CC_HD unsigned long long cc_atomic_min_u64(unsigned long long* addr, unsigned long long value)
{
    if (!CC_CPU_ATOMIC()) {
        unsigned long long old = *addr;
        if (value < old) *addr = value;
        return old;
    }
    unsigned long long old = __atomic_load_n(addr, __ATOMIC_RELAXED);
    while (value < old && !__atomic_compare_exchange_n(addr, &old, value, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return old;
}
CC_HD unsigned long long cc_atomic_max_u64(unsigned long long* addr, unsigned long long value)
{
    if (!CC_CPU_ATOMIC()) {
        unsigned long long old = *addr;
        if (value > old) *addr = value;
        return old;
    }
    unsigned long long old = __atomic_load_n(addr, __ATOMIC_RELAXED);
    while (value > old && !__atomic_compare_exchange_n(addr, &old, value, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return old;
}
CC_HD unsigned long long cc_atomic_add_u64(unsigned long long* addr, unsigned long long value)
{
    if (CC_CPU_ATOMIC()) return __atomic_fetch_add(addr, value, __ATOMIC_RELAXED);
    unsigned long long old = *addr;
    *addr = old + value;
    return old;
}
CC_HD float cc_atomic_add_f32(float* addr, float value)
{
    float old, sum;
    if (!CC_CPU_ATOMIC()) {
        old = *addr;
        *addr = old + value;
        return old;
    }
    __atomic_load(addr, &old, __ATOMIC_RELAXED);
    do {
        sum = old + value;
    } while (!__atomic_compare_exchange(addr, &old, &sum, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}
CC_HD unsigned cc_atomic_min_u32(unsigned* addr, unsigned value)
{
    if (!CC_CPU_ATOMIC()) {
        unsigned old = *addr;
        if (value < old) *addr = value;
        return old;
    }
    unsigned old = __atomic_load_n(addr, __ATOMIC_RELAXED);
    while (value < old && !__atomic_compare_exchange_n(addr, &old, value, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return old;
}
CC_HD int cc_atomic_exchange_i32(int* addr, int value)
{
    if (CC_CPU_ATOMIC()) return __atomic_exchange_n(addr, value, __ATOMIC_RELAXED);
    int old = *addr;
    *addr = value;
    return old;
}
CC_HD int cc_atomic_max_i32(int* addr, int value)
{
    if (!CC_CPU_ATOMIC()) {
        int old = *addr;
        if (value > old) *addr = value;
        return old;
    }
    int old = __atomic_load_n(addr, __ATOMIC_RELAXED);
    while (value > old && !__atomic_compare_exchange_n(addr, &old, value, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return old;
}
#endif

#endif
