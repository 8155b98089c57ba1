/* The CPU backend's stages: each runs its kernel body from kernels/ in a
 * loop (on the calling thread, or on several where threads.h says), so the
 * CPU runs exactly the GPU's algorithms. One translation unit per stage
 * family, like cuda/, so that each compiles on its own and the compiler's
 * inlining choices in one (the GJK/MPR stack is large) never change
 * another's. */
#ifndef CC_HOST_BACKEND_CPU_STAGES_H
#define CC_HOST_BACKEND_CPU_STAGES_H

#include "host/backend/backend.h"

/* Row i of a pass over n rows; with a nonzero seed the order is a fixed
 * scramble of [0, n), for tests of order independence. */
int cc_cpu_shuffled(int i, int n, unsigned seed);

void cc_cpu_shape_bounds(const cc_pass_view* v);

void cc_cpu_nxn(const cc_pass_view* v);
void cc_cpu_explicit(const cc_pass_view* v);
void cc_cpu_sap_axis(const cc_pass_view* v);
void cc_cpu_sap_project(const cc_pass_view* v);
void cc_cpu_sap_sort(const cc_pass_view* v);
void cc_cpu_sap_gather(const cc_pass_view* v);
void cc_cpu_sap_sweep(const cc_pass_view* v);

void cc_cpu_route_group(const cc_pass_view* v);
/* Grouped pairs [start, end) of route class `route_class` (others are
 * skipped), visited in order, or scrambled by `seed` over [0, end). */
void cc_cpu_narrowphase_analytic(const cc_pass_view* v, int start, int end, unsigned seed);
void cc_cpu_narrowphase_convex(const cc_pass_view* v, int start, int end, unsigned seed);

void cc_cpu_toi_link(const cc_pass_view* v);
void cc_cpu_toi(const cc_pass_view* v);

void cc_cpu_mesh_midphase(const cc_pass_view* v);
void cc_cpu_mesh_clear_slots(const cc_pass_view* v);
void cc_cpu_mesh_group(const cc_pass_view* v);
void cc_cpu_mesh_contacts(const cc_pass_view* v);
cc_status cc_cpu_mesh_emit(const cc_pass_view* v);

void cc_cpu_finalize(const cc_pass_view* v);
void cc_cpu_keys_clear(const cc_pass_view* v);
void cc_cpu_contact_sort(const cc_pass_view* v);
void cc_cpu_contact_gather(const cc_pass_view* v);
void cc_cpu_match(const cc_pass_view* v);
void cc_cpu_report(const cc_pass_view* v);
void cc_cpu_match_save(const cc_pass_view* v);

cc_status cc_cpu_run_step_stage(cc_step_stage stage, const cc_step_view* v, cc_stream stream);
cc_status cc_cpu_run_schedule_stage(cc_schedule_stage stage, const cc_schedule_view* v, cc_stream stream);

#endif
