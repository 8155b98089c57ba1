/* CPU stage: world bounds of every shape. */
#include "host/backend/cpu/stages.h"
#include "host/backend/cpu/threads.h"
#include "kernels/shapes/bounds.h"

void cc_cpu_shape_bounds(const cc_pass_view* v)
{
    int threads = cc_cpu_parallel_begin(v->model.shape_count);
    CC_CPU_PARALLEL_FOR(threads)
    for (int i = 0; i < v->model.shape_count; ++i)
        cc_shape_bounds_thread(i, &v->model, v->body_pose, &v->spec, v->spec_published, v->shape_pose, v->aabb);
    cc_cpu_parallel_end(threads);
}
