/* CPU stages of the broad phase: all pairs, explicit pairs and sweep and
 * prune. */
#include "host/backend/cpu/radix_sort.h"
#include "host/backend/cpu/stages.h"
#include "kernels/broadphase/explicit.h"
#include "kernels/broadphase/pair_buffer.h"
#include "kernels/broadphase/sap.h"

/* The CPU walks the same pairs as the GPU's flat thread index, in nested
 * loops rather than decoding each index. */
void cc_cpu_nxn(const cc_pass_view* v)
{
    for (int si = 0; si < v->nxn.segment_count; ++si) {
        const cc_nxn_segment* s = &v->nxn.segments[si];
        const int* rows = v->nxn.shape_index + s->a_start;
        for (int i = 0; i < s->a_count; ++i) {
            const int* cols = s->b_count < 0 ? rows + i + 1 : v->nxn.shape_index + s->b_start;
            int ncols = s->b_count < 0 ? s->a_count - i - 1 : s->b_count;
            for (int j = 0; j < ncols; ++j) cc_test_and_emit_pair(&v->model, v->aabb, rows[i], cols[j], v->pairs);
        }
    }
}

void cc_cpu_explicit(const cc_pass_view* v)
{
    const cc_explicit_view* e = &v->explicit_pairs;
    for (int gi = 0; gi < e->group_count; ++gi) {
        const cc_explicit_group* g = &e->groups[gi];
        const cc_pair* pairs = e->pairs + g->pair_start;
        for (int inst = 0; inst < g->instance_count; ++inst) {
            int offset = e->instance_offset[g->instance_start + inst];
            for (int p = 0; p < g->pair_count; ++p) cc_explicit_test_entry(pairs[p], offset, v->aabb, v->pairs);
        }
    }
}

void cc_cpu_sap_axis(const cc_pass_view* v)
{
    cc_moments m = cc_sap_moments_partial(0, 1, v->model.shape_count, v->aabb);
    *v->sap.axis = cc_sap_axis_from_moments(m);
}

void cc_cpu_sap_project(const cc_pass_view* v)
{
    for (int e = 0; e < v->sap.entry_count; ++e) cc_sap_project_thread(e, &v->sap, v->aabb);
}

void cc_cpu_sap_sort(const cc_pass_view* v)
{
    cc_radix_sort_pairs_u64(v->sap.unsorted_keys, v->sap.keys, v->sap.unsorted_values, v->sap.values,
                            v->sap.entry_count, 64, v->sort_temp);
}

void cc_cpu_sap_gather(const cc_pass_view* v)
{
    for (int i = 0; i < v->sap.entry_count; ++i) cc_sap_gather_thread(i, &v->sap, v->aabb);
}

void cc_cpu_sap_sweep(const cc_pass_view* v)
{
    for (int i = 0; i < v->sap.entry_count; ++i) cc_sap_sweep_thread(i, &v->sap, &v->model, v->pairs);
}
