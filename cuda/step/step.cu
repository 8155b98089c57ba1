// The step's stages on the GPU: thin wrappers around the kernel bodies in
// kernels/step/force.h and kernels/step/integrate.h. Grids are sized
// for the capacity and read the device-side contact count, so a step can
// be captured into a graph.
#include "kernels/step/force.h"
#include "kernels/step/integrate.h"
#include "cuda/launch.h"

__global__ void cc_step_clear_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(b, v.model.body_count) cc_step_clear_body((int)b, &v);
    if (v.deterministic)
        CC_GRID_STRIDE_LOOP(e, v.entry_capacity) v.entry_keys[e] = CC_KEY_EMPTY;
    if (blockIdx.x == 0 && threadIdx.x == 0) cc_step_open_report(&v);
}

__global__ void cc_speculative_rows_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(i, v.contacts.capacity)
    {
        if (i >= *v.contacts.count) return;
        cc_speculative_rows_thread((int)i, &v);
    }
}

__global__ void cc_speculative_clear_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(b, v.model.body_count) cc_speculative_clear_slots(&v, (int)b);
}

__global__ void cc_speculative_residual_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(i, v.contacts.capacity)
    {
        if (i >= *v.contacts.count) return;
        cc_speculative_residual_thread((int)i, &v);
    }
}

__global__ void cc_arrest_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(i, v.contacts.capacity)
    {
        if (i >= *v.contacts.count) return;
        cc_speculative_arrest_thread((int)i, &v);
    }
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

__global__ void cc_implicit_solve_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(b, v.model.body_count) cc_implicit_solve_thread((int)b, &v);
}

__global__ void cc_coupling_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(i, v.contacts.capacity)
    {
        if (i >= *v.contacts.count) return;
        cc_coupling_thread((int)i, &v);
    }
}

__global__ void cc_reduce_coupling_kernel(const __grid_constant__ cc_step_view v)
{
    int n = 2 * *v.contacts.count;
    CC_GRID_STRIDE_LOOP(b, v.model.body_count)
    cc_reduce_body_terms((int)b, &v, n, v.entry_coupling, v.body_coupling, CC_TWIST);
}

__global__ void cc_integrate_kernel(const __grid_constant__ cc_step_view v)
{
    CC_GRID_STRIDE_LOOP(b, v.model.body_count) cc_integrate_body_thread((int)b, &v);
    /* The contact kernels of this step have finished: their limit is final. */
    if (blockIdx.x == 0 && threadIdx.x == 0) cc_step_report_thread(&v);
}

cc_status cc_cuda_step_stage(cc_step_stage stage, const cc_step_view* v, cudaStream_t s)
{
    unsigned body_grid = cc_grid_for(v->model.body_count);
    unsigned contact_grid = cc_grid_for(v->contacts.capacity);
    switch (stage) {
    case CC_STEP_CLEAR: {
        int64_t items = v->deterministic && v->entry_capacity > v->model.body_count ? v->entry_capacity
                                                                                     : v->model.body_count;
        return cc_launch("step clear kernel", cc_step_clear_kernel, cc_grid_for(items), s, *v);
    }
    case CC_STEP_SPECULATIVE:
        return cc_launch("speculative rows kernel", cc_speculative_rows_kernel, contact_grid, s, *v);
    case CC_STEP_SPECULATIVE_CLEAR:
        return cc_launch("speculative slot clear kernel", cc_speculative_clear_kernel, body_grid, s, *v);
    case CC_STEP_SPECULATIVE_RESIDUAL:
        return cc_launch("speculative residual kernel", cc_speculative_residual_kernel, contact_grid, s, *v);
    case CC_STEP_ARREST:
        return cc_launch("speculative arrest kernel", cc_arrest_kernel, contact_grid, s, *v);
    case CC_STEP_CONTACT_FORCES:
        return cc_launch("contact force kernel", cc_contact_force_kernel, contact_grid, s, *v);
    case CC_STEP_SORT_ENTRIES:
        // The whole capacity: empty entries hold CC_KEY_EMPTY and sort last,
        // so no host read of the count is needed.
        return cc_cuda_sort_u64_pairs(v->sort_temp, v->sort_temp_bytes, v->entry_keys, v->sorted_keys, v->entry_ids,
                                      v->sorted_ids, v->entry_capacity, s);
    case CC_STEP_REDUCE:
        return cc_launch("body force reduction kernel", cc_reduce_body_forces_kernel, body_grid, s, *v);
    case CC_STEP_SOLVE:
        return cc_launch("implicit body solve kernel", cc_implicit_solve_kernel, body_grid, s, *v);
    case CC_STEP_COUPLING:
        return cc_launch("implicit coupling kernel", cc_coupling_kernel, contact_grid, s, *v);
    case CC_STEP_REDUCE_COUPLING:
        return cc_launch("implicit coupling reduction kernel", cc_reduce_coupling_kernel, body_grid, s, *v);
    case CC_STEP_INTEGRATE:
        return cc_launch("rigid-body integration kernel", cc_integrate_kernel, body_grid, s, *v);
    }
    return cc_fail(CC_ERR_INVALID_ARGUMENT, "unknown step stage %d", (int)stage);
}
