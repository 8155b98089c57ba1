/* CPU stages of the time-of-impact mode: the candidate lists of the line
 * of sight, then the swept pairs, as on the GPU (cuda/contacts/toi.cu). */
#include "host/backend/cpu/stages.h"
#include "host/backend/cpu/threads.h"
#include "kernels/contacts/toi.h"

void cc_cpu_toi_link(const cc_pass_view* v)
{
    int pairs = cc_min_i32(v->counters->pair_count, v->pairs.capacity);
    for (int i = 0; i < pairs; ++i) cc_toi_link_thread(i, v);
}

void cc_cpu_toi(const cc_pass_view* v)
{
    int pairs = cc_min_i32(v->counters->pair_count, v->pairs.capacity);
    int threads = cc_cpu_parallel_begin(pairs);
    CC_CPU_PARALLEL_FOR(threads)
    for (int i = 0; i < pairs; ++i) cc_toi_thread(i, v, CC_ROUTE_CLASS_ANY);
    cc_cpu_parallel_end(threads);
}
