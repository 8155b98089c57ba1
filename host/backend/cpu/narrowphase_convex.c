/* CPU stage: the convex narrow phase (GJK/MPR, the plane against round
 * shapes and hulls, capsule-box), as on the GPU (cuda/narrowphase/convex.cu). */
#include "host/backend/cpu/stages.h"
#include "host/backend/cpu/threads.h"
#include "kernels/narrowphase/dispatch.h"
#include "kernels/narrowphase/route.h"

/* Routes that iterate GJK/MPR between two solids: microseconds a pair, so
 * threads pay off. The plane routes and capsule-box cost little more than
 * the contact append, which threads contend for, so they stay on one. */
static int route_iterates(int route)
{
    int ta = route / CC_SHAPE_TYPE_COUNT, tb = route % CC_SHAPE_TYPE_COUNT;
    return ta != CC_SHAPE_PLANE && (tb >= CC_SHAPE_CYLINDER && tb <= CC_SHAPE_CONVEX_HULL);
}

static void convex_range(const cc_pass_view* v, cc_contact_sink sink, int start, int end, int parallel)
{
    int threads = parallel ? cc_cpu_parallel_begin(end - start) : 1;
    CC_CPU_PARALLEL_FOR(threads)
    for (int i = start; i < end; ++i)
        cc_narrowphase_class_thread(i, &v->model, v->grouped_pairs, v->shape_pose, v->body_pose, sink,
                                    CC_ROUTE_CLASS_CONVEX);
    cc_cpu_parallel_end(threads);
}

void cc_cpu_narrowphase_convex(const cc_pass_view* v, int start, int end, unsigned seed)
{
    cc_contact_sink sink = cc_pass_contact_sink(v);
    if (seed) { /* tests of order independence: one scrambled loop */
        for (int i = start; i < end; ++i)
            cc_narrowphase_class_thread(cc_cpu_shuffled(i, end, seed), &v->model, v->grouped_pairs, v->shape_pose,
                                        v->body_pose, sink, CC_ROUTE_CLASS_CONVEX);
        return;
    }
    /* Route groups are contiguous after grouping (the type sorts lower
     * first, so a pair's higher type is tb). */
    const cc_pass_counters* c = v->counters;
    int group_start = 0;
    for (int r = 0; r < CC_ROUTE_COUNT && group_start < end; ++r) {
        int group_end = group_start + c->route_count[r];
        int lo = group_start > start ? group_start : start, hi = cc_min_i32(group_end, end);
        if (lo < hi && cc_route_class(r) == CC_ROUTE_CLASS_CONVEX) convex_range(v, sink, lo, hi, route_iterates(r));
        group_start = group_end;
    }
}
