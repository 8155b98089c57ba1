/* CPU stage: the convex narrow phase (GJK/MPR, the plane against round
 * shapes and hulls, capsule-box), as on the GPU (cuda/narrowphase/convex.cu). */
#include "host/backend/cpu/stages.h"
#include "kernels/narrowphase/dispatch.h"

void cc_cpu_narrowphase_convex(const cc_pass_view* v, int start, int end, unsigned seed)
{
    cc_contact_sink sink = cc_pass_contact_sink(v);
    for (int i = start; i < end; ++i)
        cc_narrowphase_class_thread(seed ? cc_cpu_shuffled(i, end, seed) : i, &v->model, v->grouped_pairs,
                                    v->shape_pose, v->body_pose, sink, CC_ROUTE_CLASS_CONVEX);
}
