/* Turns a core manifold into contact rows: subtracts effective radii and
 * margins, admits points with d < gap_a + gap_b (or, with speculation, the
 * separated points that close within the horizon: contacts/speculation.h),
 * reserves rows with one atomic per pair, and writes body-frame points.
 *
 * With thickness t = effective radius + margin, a point at core distance c
 * has contact-space distance d = c - t_a - t_b (= s - m_a - m_b, s being the
 * true surface distance). The bound is strict, as MuJoCo's: with no gap,
 * surfaces that exactly touch (d = 0) make no contact. Rows past the capacity are never written; the
 * counter still counts them so the host can report the capacity needed. */
#ifndef CC_KERNELS_CONTACTS_WRITE_H
#define CC_KERNELS_CONTACTS_WRITE_H

#include "cucontact/contacts.h"
#include "kernels/narrowphase/manifold.h"
#include "kernels/model_view.h"
#include "kernels/contacts/contact_pairs.h"
#include "kernels/contacts/sort_key.h"
#include "kernels/contacts/speculation.h"
#include "kernels/narrowphase/route.h"

/* One shape of a pair as the writer needs it. */
typedef struct cc_contact_side {
    int shape;
    int body;
    float thickness; /* effective radius + margin */
    float gap;
    float reach; /* the pair's speculative growth of its detection distance (both sides alike) */
} cc_contact_side;

CC_HD cc_contact_side cc_contact_side_of(int shape, const cc_shape_geometry* g)
{
    cc_contact_side s;
    s.shape = shape;
    s.body = g->body;
    s.thickness = g->radius + g->margin;
    s.gap = g->gap;
    s.reach = 0.0f;
    return s;
}

/* Both sides of the pair (a, b), with a contact pair's margin and gap in
 * place of the shapes' own and the pair's speculative reach. Called once
 * per pair or work item, and kept out of line on the GPU so that the
 * lookup adds no registers to the heavy kernels around it. */
CC_HD_CALL void cc_contact_sides_of(const cc_model_view* m, const cc_speculation_view* spec, int a, int b,
                                    cc_contact_side* side_a, cc_contact_side* side_b)
{
    float ma, ga, mb, gb;
    cc_pair_margins(m, a, b, &ma, &ga, &mb, &gb);
    *side_a = cc_contact_side_of(a, &m->shape_geom[a]);
    *side_b = cc_contact_side_of(b, &m->shape_geom[b]);
    side_a->thickness = m->shape_geom[a].radius + ma;
    side_a->gap = ga;
    side_b->thickness = m->shape_geom[b].radius + mb;
    side_b->gap = gb;
    int convex = cc_type_is_convex(m->shape_geom[a].type) && cc_type_is_convex(m->shape_geom[b].type);
    side_a->reach = side_b->reach = cc_pair_reach(spec, a, b, convex);
}

/* Largest core distance the writer can admit for the pair. */
CC_HD float cc_core_threshold(cc_contact_side a, cc_contact_side b)
{
    return (a.gap + b.gap) + (a.thickness + b.thickness) + a.reach; /* the same bits in either order */
}

/* Whether a point at contact-space distance d (world point p, normal n)
 * is admitted: within the authored gaps, or speculatively. */
CC_HD int cc_contact_admits(const cc_speculation_view* spec, cc_contact_side a, cc_contact_side b, cc_vec3 p,
                            cc_vec3 n, float d)
{
    if (d < a.gap + b.gap) return 1;
    return a.reach > 0.0f && cc_speculation_admits(spec, a.body, b.body, p, n, d);
}

/* The row's speculative flag (contacts/speculation.h), for pairs that
 * speculate by their gap. */
CC_HD_CALL int cc_contact_flagged(const cc_speculation_view* spec, cc_contact_side a, cc_contact_side b, cc_vec3 p,
                                  cc_vec3 n, float d)
{
    if (!spec || !(a.reach > 0.0f)) return 0;
    return cc_speculation_flag(spec, a.shape, b.shape, a.body, b.body, p, n, d);
}

CC_HD cc_vec3 cc_to_body_frame(const cc_transform* body_pose, int body, cc_vec3 world_point)
{
    return body >= 0 ? cc_tf_point_inv(body_pose[body], world_point) : world_point;
}

/* Where rows go: the buffer, its counter, in deterministic mode the
 * per-row sort keys (NULL otherwise), and the pass's speculation. */
typedef struct cc_contact_sink {
    cc_contacts_view rows;
    int* counter;
    uint64_t* keys;
    cc_key_layout layout;
    const cc_speculation_view* spec; /* the pass's published speculation; NULL: off */
} cc_contact_sink;

CC_HD void cc_write_manifold(const cc_manifold* mf, cc_contact_side a, cc_contact_side b,
                             const cc_transform* body_pose, cc_contact_sink sink)
{
    cc_contacts_view out = sink.rows;
    float thick = a.thickness + b.thickness;
    unsigned kept = 0u;
    int admitted = 0;
    for (int k = 0; k < mf->count; ++k) {
        int in = cc_contact_admits(sink.spec, a, b, mf->point[k], mf->normal, mf->distance[k] - thick);
        kept |= (unsigned)in << k;
        admitted += in;
    }
    if (admitted == 0) return;
    int row = cc_atomic_add_i32(sink.counter, admitted);
    for (int k = 0; k < mf->count && row < out.capacity; ++k) {
        float d = mf->distance[k] - thick;
        if (!((kept >> k) & 1u)) continue;
        out.shape0[row] = a.shape;
        out.shape1[row] = b.shape;
        out.point0[row] = cc_to_body_frame(body_pose, a.body, cc_manifold_point_a(mf, k));
        out.point1[row] = cc_to_body_frame(body_pose, b.body, cc_manifold_point_b(mf, k));
        out.normal[row] = mf->normal;
        out.thickness0[row] = a.thickness;
        out.thickness1[row] = b.thickness;
        out.distance[row] = d;
        out.speculative[row] = cc_contact_flagged(sink.spec, a, b, mf->point[k], mf->normal, d);
        /* The manifold index is the geometric sub-key. */
        if (sink.keys) sink.keys[row] = cc_contact_key(sink.layout, a.shape, b.shape, k);
        ++row;
    }
}

#endif
