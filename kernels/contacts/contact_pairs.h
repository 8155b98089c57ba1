/* Explicit contact pairs (cc_builder_add_contact_pair) as kernels see
 * them: a sorted key table with each pair's margin and gap. The filter
 * rules let a listed pair through whatever its other filters say; the
 * narrow phase gives its two sides the pair's margin and gap, and the step
 * its friction. */
#ifndef CC_KERNELS_CONTACTS_CONTACT_PAIRS_H
#define CC_KERNELS_CONTACTS_CONTACT_PAIRS_H

#include "kernels/model_view.h"

/* Row of the contact pair (a, b) in the model's table, or -1. */
CC_HD int cc_contact_pair_index(const cc_model_view* m, int a, int b)
{
    return cc_pair_key_row(m->contact_pair_keys, m->contact_pair_keys_count, cc_filter_pair_key(a, b));
}

/* The margin and gap of the pair of shapes a and b: the contact pair's when
 * they form one (half on each side, so that sums and thicknesses keep their
 * meaning), else each shape's own. */
CC_HD void cc_pair_margins(const cc_model_view* m, int a, int b, float* margin_a, float* gap_a, float* margin_b,
                           float* gap_b)
{
    *margin_a = m->shape_geom[a].margin, *gap_a = m->shape_geom[a].gap;
    *margin_b = m->shape_geom[b].margin, *gap_b = m->shape_geom[b].gap;
    if (!(m->shape_flags[a] & m->shape_flags[b] & CC_SHAPE_FLAG_IN_CONTACT_PAIR)) return;
    int row = cc_contact_pair_index(m, a, b);
    if (row < 0) return;
    cc_contact_pair_params p = m->contact_pair_params[row];
    *margin_a = *margin_b = 0.5f * p.margin;
    *gap_a = *gap_b = 0.5f * p.gap;
}

/* The friction coefficients of the pair (a, b): a contact pair's own where
 * it gives them (>= 0), else the values passed in (the shapes' combined);
 * NULL skips a coefficient. */
CC_HD void cc_pair_friction(const cc_model_view* m, int a, int b, float* mu, float* mu_torsional, float* mu_rolling)
{
    if (!(m->shape_flags[a] & m->shape_flags[b] & CC_SHAPE_FLAG_IN_CONTACT_PAIR)) return;
    int row = cc_contact_pair_index(m, a, b);
    if (row < 0) return;
    cc_contact_pair_params p = m->contact_pair_params[row];
    if (mu && p.mu >= 0.0f) *mu = p.mu;
    if (mu_torsional && p.mu_torsional >= 0.0f) *mu_torsional = p.mu_torsional;
    if (mu_rolling && p.mu_rolling >= 0.0f) *mu_rolling = p.mu_rolling;
}

#endif
