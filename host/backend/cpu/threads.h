/* Threads of the CPU backend. The stage loops whose items are costly next
 * to the atomic append they share run over OpenMP threads: the GJK/MPR
 * routes of the convex narrow phase and the mesh and heightfield midphase,
 * contacts and emit pass; so do the shape bounds, which append nothing. The
 * rest (the broad phase sweeps, whose appends cost as much as their tests,
 * the analytic pairs, the plane routes and capsule-box, scans, sorts,
 * matching, the step) stays on the calling thread. The count is
 * CUCONTACT_CPU_THREADS, else every processor; loops of fewer than 64 items
 * stay on the calling thread. Without OpenMP every loop does.
 *
 * As on the GPU, threads change the order of candidate pairs and contact
 * rows, never their values; deterministic mode sorts the rows by key, so
 * its output is the same for any thread count. */
#ifndef CC_HOST_BACKEND_CPU_THREADS_H
#define CC_HOST_BACKEND_CPU_THREADS_H

#include "cucontact/types.h"

#define CC_CPU_THREADS_MAX 1024

/* Threads for a loop of n items; while it runs on more than one, between
 * this call and cc_cpu_parallel_end, the atomics of kernels/platform.h are
 * real atomics. Returns 1 below the threshold or without OpenMP. */
int cc_cpu_parallel_begin(int n);
void cc_cpu_parallel_end(int threads);

/* CC_OK, or an error naming CUCONTACT_CPU_THREADS when it is set and is not
 * a whole number from 1 to CC_CPU_THREADS_MAX. */
cc_status cc_cpu_threads_check(void);

#define CC_CPU_PRAGMA(x) _Pragma(#x)
#if defined(_OPENMP)
/* Before a `for (int i = a; i < b; ++i)` loop with independent iterations,
 * `threads` from cc_cpu_parallel_begin: dynamic chunks, since items differ
 * in cost. */
#define CC_CPU_PARALLEL_FOR(threads) \
    CC_CPU_PRAGMA(omp parallel for schedule(dynamic, 16) num_threads(threads) if ((threads) > 1))
#else
#define CC_CPU_PARALLEL_FOR(threads)
#endif

#endif
