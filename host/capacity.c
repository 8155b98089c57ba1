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

cc_capacity_estimate cc_estimate_capacity(const cc_model* m, int64_t possible_pairs)
{
    const cc_model_view* v = &m->host_view;
    int W = v->world_count;
    /* Whether each world (index W: the globals) holds static geometry. */
    char* world_static = (char*)cc_host_calloc((size_t)W + 1, 1);
    int global_static = 0;
    for (int s = 0; s < v->shape_count; ++s) {
        if (!(v->shape_flags[s] & CC_SHAPE_FLAG_COLLIDES) || !(v->shape_flags[s] & CC_SHAPE_FLAG_STATIC)) continue;
        if (v->shape_world[s] < 0) global_static = 1;
        else if (world_static) world_static[v->shape_world[s]] = 1;
    }
    int64_t pairs = 0, contacts = 0;
    for (int s = 0; s < v->shape_count; ++s) {
        unsigned f = v->shape_flags[s];
        if (!(f & CC_SHAPE_FLAG_COLLIDES) || (f & CC_SHAPE_FLAG_STATIC)) continue;
        int c = resting_contacts(v->shape_geom[s].type);
        int w = v->shape_world[s];
        int has_static = global_static || (w >= 0 && world_static && world_static[w]);
        pairs += CANDIDATES_PER_SHAPE;
        contacts += (int64_t)c * NEIGHBOURS_AT_REST / 2 + (has_static ? c : 0);
    }
    cc_host_free(world_static);
    cc_capacity_estimate e;
    e.pairs = pairs < possible_pairs ? pairs : possible_pairs;
    e.contacts = contacts < possible_pairs * 5 ? contacts : possible_pairs * 5;
    if (e.pairs < MIN_CAPACITY) e.pairs = MIN_CAPACITY;
    if (e.contacts < MIN_CAPACITY) e.contacts = MIN_CAPACITY;
    return e;
}
