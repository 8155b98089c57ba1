/* CPU stages of the step: contact forces, their deterministic per-body
 * sums and the integrator; and the collision sub-step scheduler's. */
#include "host/backend/cpu/radix_sort.h"
#include "host/backend/cpu/stages.h"
#include "kernels/step/force.h"
#include "kernels/step/integrate.h"

cc_status cc_cpu_run_step_stage(cc_step_stage stage, const cc_step_view* v, cc_stream stream)
{
    (void)stream;
    int bodies = v->model.body_count;
    int contacts = v->contacts.count ? *v->contacts.count : 0;
    switch (stage) {
    case CC_STEP_CLEAR:
        cc_step_clear_thread(v);
        break;
    case CC_STEP_SPECULATIVE:
        for (int i = 0; i < contacts; ++i) cc_speculative_rows_thread(i, v);
        break;
    case CC_STEP_SPECULATIVE_CLEAR:
        for (int b = 0; b < bodies && cc_speculative_round_runs(v); ++b) cc_speculative_clear_slots(v, b);
        break;
    case CC_STEP_SPECULATIVE_RESIDUAL:
        for (int i = 0; i < contacts && cc_speculative_round_runs(v); ++i) cc_speculative_residual_thread(i, v);
        break;
    case CC_STEP_ARREST:
        for (int i = 0; i < contacts && cc_speculative_round_runs(v); ++i) cc_speculative_arrest_thread(i, v);
        break;
    case CC_STEP_CONTACT_FORCES:
        for (int i = 0; i < contacts; ++i) cc_contact_force_thread(i, v);
        break;
    case CC_STEP_SORT_ENTRIES:
        /* Only the written entries; the GPU sorts the whole capacity. */
        cc_radix_sort_pairs_u64(v->entry_keys, v->sorted_keys, v->entry_ids, v->sorted_ids, 2 * contacts, 64,
                                v->sort_temp);
        break;
    case CC_STEP_REDUCE:
        for (int b = 0; b < bodies; ++b) cc_reduce_body_forces_thread(b, v, 2 * contacts);
        break;
    case CC_STEP_SOLVE:
        for (int b = 0; b < bodies; ++b) cc_implicit_solve_thread(b, v);
        break;
    case CC_STEP_COUPLING:
        for (int i = 0; i < contacts; ++i) cc_coupling_thread(i, v);
        break;
    case CC_STEP_REDUCE_COUPLING:
        for (int b = 0; b < bodies; ++b)
            cc_reduce_body_terms(b, v, 2 * contacts, v->entry_coupling, v->body_coupling, CC_TWIST);
        break;
    case CC_STEP_INTEGRATE:
        for (int b = 0; b < bodies; ++b) cc_integrate_body_thread(b, v);
        cc_step_report_thread(v);
        break;
    }
    return CC_OK;
}

/* The collision sub-step scheduler's stages: the decision is left in the
 * state, where the frame graph reads it to branch. */
cc_status cc_cpu_run_schedule_stage(cc_schedule_stage stage, const cc_schedule_view* v, cc_stream stream)
{
    (void)stream;
    if (stage == CC_SCHEDULE_OBSERVE)
        for (int i = 0; i < v->model.shape_count; ++i) cc_schedule_observe_thread(i, v);
    else
        cc_schedule_decide_thread(v);
    return CC_OK;
}
