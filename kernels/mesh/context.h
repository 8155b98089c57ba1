/* What a mesh work item writes through: its context (the pair's sides,
 * poses, pass and reduction block) and the one routine that routes a raw
 * contact by pass, to a reduction vote or a row. Shared by the item
 * routines of mesh/narrowphase.h and mesh/sdf_contacts.h. */
#ifndef CC_KERNELS_MESH_CONTEXT_H
#define CC_KERNELS_MESH_CONTEXT_H

#include "kernels/mesh/midphase.h"
#include "kernels/narrowphase/dispatch.h"

#define CC_MESH_PASS_DIRECT 0 /* reduction off: write every raw contact */
#define CC_MESH_PASS_VOTE 1
#define CC_MESH_PASS_EMIT 2

/* Writes one contact row with an explicit sub-key (mesh contacts number
 * their rows by triangle, vertex or reduction slot, not by manifold index).
 * The caller has admitted it (d < gap). */
CC_HD void cc_write_point(cc_contact_side a, cc_contact_side b, cc_vec3 point, cc_vec3 normal, float core_distance,
                          cc_vec3 offset, unsigned sub_key, const cc_transform* body_pose, cc_contact_sink sink)
{
    float d = core_distance - (a.thickness + b.thickness);
    int row = cc_atomic_add_i32(sink.counter, 1);
    cc_contacts_view out = sink.rows;
    if (row >= out.capacity) return; /* counted for the overflow report */
    cc_vec3 half = cc_v3_scale(offset, 0.5f);
    out.shape0[row] = a.shape;
    out.shape1[row] = b.shape;
    out.point0[row] = cc_to_body_frame(body_pose, a.body, cc_v3_sub(point, half));
    out.point1[row] = cc_to_body_frame(body_pose, b.body, cc_v3_add(point, half));
    out.normal[row] = normal;
    out.thickness0[row] = a.thickness;
    out.thickness1[row] = b.thickness;
    out.distance[row] = d;
    out.speculative[row] = cc_contact_flagged(sink.spec, a, b, point, normal, d);
    if (sink.keys) sink.keys[row] = cc_contact_key(sink.layout, a.shape, b.shape, sub_key);
}

/* Everything an item's contacts need. */
typedef struct cc_mesh_context {
    const cc_model_view* m;
    const cc_transform* shape_pose;
    const cc_transform* body_pose;
    const cc_mesh_view* mv;
    cc_contact_sink sink;
    int pass;
    const cc_mesh_item* item;
    int single;          /* the item's first element only (the emit pass) */
    unsigned emit_print; /* the emit pass: the one fingerprint to write */
    unsigned emit_slot;  /* the emit pass: its slot in the block, the row's sub-key */
    cc_contact_side a, b;
    cc_vec3 ref; /* the surface shape's origin: reduction points are relative to it */
} cc_mesh_context;

/* One raw contact (manifold conventions: midpoint, normal a -> b, core
 * distance, offset from A's core point to B's) with its geometric
 * fingerprint, routed by pass and block. */
CC_HD void cc_mesh_contact_within(const cc_mesh_context* x, cc_vec3 point, cc_vec3 normal, float dist, cc_vec3 offset,
                                  unsigned fingerprint, float threshold)
{
    if (x->pass == CC_MESH_PASS_EMIT) {
        if (fingerprint == x->emit_print)
            cc_write_point(x->a, x->b, point, normal, dist, offset, x->emit_slot, x->body_pose, x->sink);
        return;
    }
    if (!(dist < threshold)) return; /* strict, as cc_write_manifold */
    if (x->a.reach > 0.0f &&
        !cc_contact_admits(x->sink.spec, x->a, x->b, point, normal, dist - (x->a.thickness + x->b.thickness)))
        return;
    if (x->item->block < 0) {
        cc_write_point(x->a, x->b, point, normal, dist, offset, fingerprint, x->body_pose, x->sink);
        return;
    }
    unsigned long long* slots = x->mv->slots + (size_t)x->item->block * CC_REDUCE_SLOTS;
    cc_reduce_vote(slots, cc_v3_sub(point, x->ref), normal, dist, fingerprint);
}

/* The same at the pair's own threshold (core distance within the gaps). */
CC_HD void cc_mesh_contact(const cc_mesh_context* x, cc_vec3 point, cc_vec3 normal, float dist, cc_vec3 offset,
                           unsigned fingerprint)
{
    cc_mesh_contact_within(x, point, normal, dist, offset, fingerprint, cc_core_threshold(x->a, x->b));
}

#endif
