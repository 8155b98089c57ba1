/* Default buffer sizes.
 *
 * A shape at rest in a pile touches a handful of neighbours; each touching
 * pair yields the contacts its types produce at rest (1 for spheres, 2 for a
 * capsule lying down, 4 for a box face). The estimate gives every dynamic
 * shape NEIGHBOURS_AT_REST / 2 such pairs (each pair is shared by two
 * shapes) plus one resting contact patch with static geometry when the
 * world has any, and never more than the pairs that can exist allow. */
#include "capacity.h"

#include "../kernels/narrowphase_convex.h"

/* Typical number of touching neighbours of a shape in a resting pile. */
#define NEIGHBOURS_AT_REST 8
/* Candidate pairs per dynamic shape: touching neighbours plus those within
 * margin + gap. */
#define CANDIDATES_PER_SHAPE 16
/* Lower bound on every buffer, so that small scenes never start tight. */
#define MIN_CAPACITY 256
/* Mesh and heightfield pairs: triangles a resting shape overlaps, and the
 * reduced contacts of its patch (at most 12 per normal bin; a resting patch
 * mostly fills one bin). Unreduced, a patch keeps every triangle's points. */
#define TRIANGLES_PER_SHAPE 64
#define REDUCED_CONTACTS_PER_PATCH 12
#define UNREDUCED_CONTACTS_PER_PATCH 96
#define MIN_MESH_ITEMS 1024

int cc_max_contacts_per_pair(int ta, int tb)
{
    int lo = ta < tb ? ta : tb, hi = ta < tb ? tb : ta;
    if (lo < 0 || !cc_type_is_convex(hi)) return CC_MANIFOLD_MAX_POINTS;
    return cc_convex_max_points(lo, hi);
}

/* Contacts a resting pair of a shape of this type typically has. */
static int resting_contacts(int type)
{
    switch (type) {
    case CC_SHAPE_SPHERE:
    case CC_SHAPE_ELLIPSOID: return 1;
    case CC_SHAPE_CAPSULE: return 2;
    default: return 4; /* a face: box, cylinder, cone, hull */
    }
}

static int64_t vertex_chunks(const cc_model_view* v, int s)
{
    return (v->meshes[v->shape_source[s]].vertex_count + 15) / 16;
}

cc_capacity_estimate cc_estimate_capacity(const cc_model* m, int64_t possible_pairs, int reduce)
{
    const cc_model_view* v = &m->host_view;
    int W = v->world_count;
    /* Per world (index W: the globals): bit 1 static geometry, bit 2 a
     * mesh or heightfield. */
    char* world_has = (char*)cc_host_calloc((size_t)W + 1, 1);
    for (int s = 0; s < v->shape_count && world_has; ++s) {
        if (!(v->shape_flags[s] & CC_SHAPE_FLAG_COLLIDES)) continue;
        int w = v->shape_world[s] < 0 ? W : v->shape_world[s];
        if (v->shape_flags[s] & CC_SHAPE_FLAG_STATIC) world_has[w] |= 1;
        if (v->shape_geom[s].type >= CC_SHAPE_MESH) world_has[w] |= 2;
    }
    int64_t pairs = 0, contacts = 0, items = 0, blocks = 0;
    for (int s = 0; s < v->shape_count; ++s) {
        unsigned f = v->shape_flags[s];
        if (!(f & CC_SHAPE_FLAG_COLLIDES) || (f & CC_SHAPE_FLAG_STATIC)) continue;
        int type = v->shape_geom[s].type;
        int c = resting_contacts(type);
        int w = v->shape_world[s];
        int has = world_has ? world_has[W] | (w >= 0 ? world_has[w] : 0) : 1;
        pairs += CANDIDATES_PER_SHAPE;
        contacts += (int64_t)c * NEIGHBOURS_AT_REST / 2 + ((has & 1) ? c : 0);
        if (type == CC_SHAPE_MESH) {
            /* Its vertices against a plane or another mesh, both ways. */
            items += 2 * vertex_chunks(v, s);
            blocks += 1;
            contacts += reduce ? REDUCED_CONTACTS_PER_PATCH : UNREDUCED_CONTACTS_PER_PATCH;
        }
        if (has & 2) {
            /* One reduced surface pair per shape: a block is 1.9 KiB, and a
             * pair without one is only written unreduced. */
            items += TRIANGLES_PER_SHAPE;
            blocks += 1;
            contacts += reduce ? REDUCED_CONTACTS_PER_PATCH : UNREDUCED_CONTACTS_PER_PATCH;
        }
    }
    cc_host_free(world_has);
    cc_capacity_estimate e;
    e.mesh_items = items > 0 && items < MIN_MESH_ITEMS ? MIN_MESH_ITEMS : items;
    e.mesh_blocks = blocks > 0 && blocks < MIN_CAPACITY ? MIN_CAPACITY : blocks;
    e.pairs = pairs < possible_pairs ? pairs : possible_pairs;
    /* A reduced surface pair keeps at most 240 contacts, others at most 5. */
    int64_t bound = possible_pairs * (items ? 240 : 5);
    e.contacts = contacts < bound ? contacts : bound;
    if (e.pairs < MIN_CAPACITY) e.pairs = MIN_CAPACITY;
    if (e.contacts < MIN_CAPACITY) e.contacts = MIN_CAPACITY;
    return e;
}
