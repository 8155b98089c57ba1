/* CPU stages after the narrow phase: the deterministic order (keys, sort,
 * gather) and matching against the previous frame's contacts. */
#include <string.h>

#include "host/backend/cpu/radix_sort.h"
#include "host/backend/cpu/stages.h"
#include "kernels/contacts/matching.h"
#include "kernels/contacts/order.h"

void cc_cpu_keys_clear(const cc_pass_view* v)
{
    memset(v->raw_keys, 0xff, sizeof(uint64_t) * (size_t)v->raw.capacity);
}

void cc_cpu_contact_sort(const cc_pass_view* v)
{
    /* Only the written rows: the sentinels past them would sort last. */
    cc_radix_sort_pairs_u64(v->raw_keys, v->sorted_keys, v->identity, v->permutation, *v->contacts.count, 64,
                            v->sort_temp);
}

void cc_cpu_contact_gather(const cc_pass_view* v)
{
    for (int i = 0; i < *v->contacts.count; ++i) cc_gather_contact_thread(i, v->permutation, v->raw, v->contacts);
}

void cc_cpu_match(const cc_pass_view* v)
{
    const cc_model_view* m = &v->model;
    cc_match_begin(&v->match, v->contacts);
    memset(v->match.claims, 0xff, sizeof(unsigned long long) * (size_t)v->raw.capacity);
    for (int i = 0; i < *v->contacts.count; ++i) cc_match_claim_thread(i, &v->match, m, v->body_pose, v->contacts);
    for (int i = 0; i < *v->contacts.count; ++i) cc_match_resolve_thread(i, &v->match, m, v->body_pose, v->contacts);
}

void cc_cpu_report(const cc_pass_view* v)
{
    int n_new = 0, n_broken = 0;
    for (int i = 0; i < *v->contacts.count; ++i)
        if (cc_report_is_new(i, v->contacts)) v->contacts.new_indices[n_new++] = i;
    for (int j = 0; j < v->match.state->prev_count; ++j)
        if (cc_report_is_broken(j, &v->match)) v->contacts.broken_indices[n_broken++] = j;
    *v->contacts.new_count = n_new;
    *v->contacts.broken_count = n_broken;
}

void cc_cpu_match_save(const cc_pass_view* v)
{
    for (int i = 0; i < *v->contacts.count; ++i)
        cc_match_save_thread(i, &v->match, &v->model, v->body_pose, v->contacts);
    cc_match_end(&v->match, v->contacts);
}
