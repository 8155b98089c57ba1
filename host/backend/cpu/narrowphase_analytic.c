/* CPU stages: route grouping, the analytic narrow phase (pairs among
 * planes, spheres, capsules and boxes) and the pass's final count. Apart
 * from the convex class, as on the GPU (cuda/narrowphase/analytic.cu). */
#include "host/backend/cpu/stages.h"
#include "kernels/narrowphase/dispatch.h"
#include "kernels/narrowphase/route_group.h"

void cc_cpu_route_group(const cc_pass_view* v)
{
    cc_pass_counters* c = v->counters;
    int pairs = cc_min_i32(c->pair_count, v->pairs.capacity);
    for (int i = 0; i < pairs; ++i) cc_route_histogram_thread(i, &v->model, v->pairs.pairs, c);
    cc_route_scan(c);
    for (int i = 0; i < pairs; ++i) cc_route_scatter_thread(i, &v->model, v->pairs.pairs, v->grouped_pairs, c);
}

void cc_cpu_narrowphase_analytic(const cc_pass_view* v, int start, int end, unsigned seed)
{
    cc_contact_sink sink = cc_pass_contact_sink(v);
    for (int i = start; i < end; ++i)
        cc_narrowphase_class_thread(seed ? cc_cpu_shuffled(i, end, seed) : i, &v->model, v->grouped_pairs,
                                    v->shape_pose, v->body_pose, sink, CC_ROUTE_CLASS_ANALYTIC);
}

void cc_cpu_finalize(const cc_pass_view* v) { cc_pass_finalize(v->counters, cc_pass_contact_sink(v).rows); }
