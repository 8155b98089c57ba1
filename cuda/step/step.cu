// The step's stages on the GPU: thin wrappers around the kernel bodies in
// kernels/step/force.h and kernels/step/integrate.h. Grids are sized
// for the capacity and read the device-side contact count, so a step can
// be captured into a graph.
#include "kernels/step/force.h"
#include "kernels/step/integrate.h"
#include "cuda/launch.h"

__global__ void cc_step_clear_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(b, v.model.body_count)
    {
        v.body_force[b] = cc_v3(0.0f, 0.0f, 0.0f);
        v.body_torque[b] = cc_v3(0.0f, 0.0f, 0.0f);
    }
    if (v.deterministic)
        CC_GRID_STRIDE_LOOP(e, v.entry_capacity) v.entry_keys[e] = CC_KEY_EMPTY;
}

__global__ void cc_contact_force_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(i, v.contacts.capacity)
    {
        if (i >= *v.contacts.count) return;
        cc_contact_force_thread((int)i, &v);
    }
}

__global__ void cc_reduce_body_forces_kernel(const __grid_constant__ cc_step_view v)
{
    int n = 2 * *v.contacts.count;
    CC_GRID_STRIDE_LOOP(b, v.model.body_count) cc_reduce_body_forces_thread((int)b, &v, n);
}

__global__ void cc_integrate_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(b, v.model.body_count) cc_integrate_body_thread((int)b, &v);
}

cc_status cc_cuda_step_stage(cc_step_stage stage, const cc_step_view* v, cudaStream_t s)
{
    unsigned body_grid = cc_grid_for(v->model.body_count);
    switch (stage) {
    case CC_STEP_CLEAR: {
        int64_t items = v->deterministic && v->entry_capacity > v->model.body_count ? v->entry_capacity
                                                                                     : v->model.body_count;
        return cc_launch("step clear kernel", cc_step_clear_kernel, cc_grid_for(items), s, *v);
    }
    case CC_STEP_CONTACT_FORCES:
        return cc_launch("contact force kernel", cc_contact_force_kernel, cc_grid_for(v->contacts.capacity), s, *v);
    case CC_STEP_SORT_ENTRIES:
        // The whole capacity: empty entries hold CC_KEY_EMPTY and sort last,
        // so no host read of the count is needed.
        return cc_cuda_sort_u64_pairs(v->sort_temp, v->sort_temp_bytes, v->entry_keys, v->sorted_keys, v->entry_ids,
                                      v->sorted_ids, v->entry_capacity, s);
    case CC_STEP_REDUCE:
        return cc_launch("body force reduction kernel", cc_reduce_body_forces_kernel, body_grid, s, *v);
    case CC_STEP_INTEGRATE:
        return cc_launch("rigid-body integration kernel", cc_integrate_kernel, body_grid, s, *v);
    }
    return cc_fail(CC_ERR_INVALID_ARGUMENT, "unknown step stage %d", (int)stage);
}
