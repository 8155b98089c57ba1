/* The CPU backend's thread count (threads.h). */
#include "host/backend/cpu/threads.h"

#include <errno.h>
#include <stdlib.h>

#include "host/internal.h"

#if defined(_OPENMP)
#include <omp.h>
#endif

/* Items below which a loop stays on the calling thread. */
#define PARALLEL_MIN_ITEMS 64

/* The configured count, or 0 when CUCONTACT_CPU_THREADS is malformed. */
static int configured_threads(void)
{
    const char* text = getenv("CUCONTACT_CPU_THREADS");
    if (!text || !*text) {
#if defined(_OPENMP)
        return omp_get_num_procs();
#else
        return 1;
#endif
    }
    char* end = NULL;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || n < 1 || n > CC_CPU_THREADS_MAX) return 0;
    return (int)n;
}

/* Loops running on several threads right now, in any pipeline. */
int cc_cpu_parallel_loops;

int cc_cpu_parallel_begin(int n)
{
#if defined(_OPENMP)
    if (n < PARALLEL_MIN_ITEMS) return 1;
    int t = configured_threads();
    if (t <= 1) return 1;
    __atomic_fetch_add(&cc_cpu_parallel_loops, 1, __ATOMIC_SEQ_CST);
    return t;
#else
    (void)n;
    return 1;
#endif
}

void cc_cpu_parallel_end(int threads)
{
    if (threads > 1) __atomic_fetch_sub(&cc_cpu_parallel_loops, 1, __ATOMIC_SEQ_CST);
}

cc_status cc_cpu_threads_check(void)
{
    if (configured_threads() > 0) return CC_OK;
    return cc_fail(CC_ERR_INVALID_ARGUMENT,
                   "CUCONTACT_CPU_THREADS is \"%s\": expected a whole number of CPU threads from 1 to %d (or unset, for "
                   "every processor)",
                   getenv("CUCONTACT_CPU_THREADS"), CC_CPU_THREADS_MAX);
}
