/* Mesh against mesh through a signed distance field: the features of one
 * mesh (its vertices and its kept edges, walked in the order of
 * shapes/mesh.h) sampled in the other's SDF; and a heightfield's grid
 * against a mesh's SDF the same way.
 *
 * A vertex closer than the pair's threshold is a contact, its normal the
 * field's gradient. An edge adds what its ends miss: where the field dips
 * inside the edge (an edge crossing the other's edge or rim), and where a
 * flat stretch of it (an edge lying on the other's face) ends inside the
 * edge. The distance along the edge is piecewise trilinear, neither convex
 * nor smooth, so the search brackets first and refines second: samples a
 * voxel apart (at most CC_SDF_EDGE_STEPS) find the lowest sample; a dip
 * there is refined by the parabola through it and its neighbours (the field
 * is smooth within a cell, and one more sample keeps the lower of the two),
 * and a flat stretch (samples within CC_SDF_FLAT_VOXELS of the lowest) is
 * followed to its ends, each found by bisection to 1/256 of a step. An
 * edge whose end a vertex feature of the same chunk sampled takes that
 * sample (the walking order puts each edge after its later end, most
 * often in the chunk of both). An edge whose known ends, or else its
 * midpoint, keep it clear of the other surface is not walked; a walk of an
 * even number of steps that short takes the midpoint's sample as its own.
 * Contacts are routed like the vertex route's (reduction votes, then the
 * emit pass by fingerprint: ((i * 2 + which) * 2 + side), i the feature's
 * place in the walking order, which the end of a flat stretch, side 1 for
 * the second mesh). */
#ifndef CC_KERNELS_MESH_SDF_CONTACTS_H
#define CC_KERNELS_MESH_SDF_CONTACTS_H

#include "kernels/mesh/context.h"

#define CC_SDF_EDGE_STEPS 64
/* Samples within this many voxels of an edge's lowest belong to its flat stretch. */
#define CC_SDF_FLAT_VOXELS 0.02f
#define CC_SDF_REFINE_STEPS 8

/* Whether the surface queries of mesh shape x against shape y go through
 * y's SDF. */
CC_HD int cc_sdf_route(const cc_model_view* m, int x, int y)
{
    return m->shape_geom[x].type == CC_SHAPE_MESH && m->shape_geom[y].type == CC_SHAPE_MESH && m->shape_sdf[y] >= 0;
}

/* The field along a segment of y's frame, at parameter t, where it can
 * matter: below `near`; past it, a bound no lower. */
CC_HD float cc_sdf_along(const cc_sdf_ref* f, cc_vec3 l0, cc_vec3 dl, float t, float near)
{
    cc_vec3 g;
    return cc_sdf_distance_below(f, cc_v3_madd(l0, dl, t), near, &g);
}

/* One contact of x's point l (y's frame) with the surface of y, its normal
 * the field's gradient at `toward` (l itself, or for the end of a flat
 * stretch a point inside it: at the end the edge leaves y's face, where
 * interpolation blends the face's normal with the rim's), when the field
 * has a direction there. Returns the field at l, below `threshold` exact
 * (from it up, possibly a bound: cc_sdf_distance_below). */
CC_HD_CALL float cc_sdf_point_contact(const cc_mesh_context* x, const cc_sdf_ref* f, cc_transform py, cc_vec3 l,
                                      cc_vec3 toward, int of_a, unsigned fingerprint)
{
    cc_vec3 g;
    float threshold = cc_core_threshold(x->a, x->b);
    float d = cc_sdf_distance_below(f, l, threshold, &g);
    /* What cc_mesh_contact would drop, dropped before the normal is made. */
    if (x->pass == CC_MESH_PASS_EMIT ? fingerprint != x->emit_print : !(d < threshold)) return d;
    if (toward.x != l.x || toward.y != l.y || toward.z != l.z) cc_sdf_distance(f, toward, &g);
    float len = cc_v3_length(g);
    if (!(len > 0.0f)) return d;
    cc_vec3 out = cc_tf_vector(py, cc_v3_scale(g, 1.0f / len));
    cc_vec3 p = cc_tf_point(py, l);
    /* Manifold conventions: normal from a to b, the midpoint, the core distance. */
    cc_vec3 normal = of_a ? cc_v3_neg(out) : out;
    cc_vec3 mid = cc_v3_madd(p, out, -0.5f * d);
    cc_mesh_contact(x, mid, normal, d, cc_v3_scale(normal, d), fingerprint);
    return d;
}

/* Where the field along the edge crosses `level` between parameters
 * `inside` (at or below it) and `outside` (above). */
CC_HD float cc_sdf_flat_end(const cc_sdf_ref* f, cc_vec3 l0, cc_vec3 dl, float inside, float outside, float level,
                            float near)
{
    for (int i = 0; i < CC_SDF_REFINE_STEPS; ++i) {
        float mid = 0.5f * (inside + outside);
        if (cc_sdf_along(f, l0, dl, mid, near) <= level) inside = mid;
        else outside = mid;
    }
    return inside;
}

/* The lowest point of the dip around sample `at` of an edge sampled every
 * `inv` of its length, from the samples before, at and after it: the
 * parabola's vertex when the field there is lower still, else the sample. */
CC_HD float cc_sdf_dip(const cc_sdf_ref* f, cc_vec3 l0, cc_vec3 dl, int at, float inv, float before, float lowest,
                       float after, float near)
{
    float curve = before - 2.0f * lowest + after;
    float t = (float)at * inv;
    if (!(curve > 0.0f)) return t;
    float shift = cc_clampf(0.5f * (before - after) / curve, -1.0f, 1.0f);
    float vertex = ((float)at + shift) * inv;
    return cc_sdf_along(f, l0, dl, vertex, near) < lowest ? vertex : t;
}

/* A sample of a vertex that a vertex feature took (at `threshold`, by
 * cc_sdf_point_contact), or CC_SDF_UNKNOWN. */
#define CC_SDF_UNKNOWN (-3.4e38f)

/* The sample at an end of an edge, for a search that needs it exact below
 * `near`: a vertex's sample taken at `threshold` reads the same when below
 * it, or from `near` up (both then bound the same way); else sampled. */
CC_HD float cc_sdf_end_sample(const cc_sdf_ref* f, cc_vec3 l, float known, float threshold, float near)
{
    if (known != CC_SDF_UNKNOWN && (known < threshold || known >= near)) return known;
    cc_vec3 g;
    return cc_sdf_distance_below(f, l, near, &g);
}

/* Edge l0 -> l1 (y's frame): contacts inside it that its ends miss. `end`:
 * the ends' samples where vertex features took them, else CC_SDF_UNKNOWN. */
CC_HD_CALL void cc_sdf_edge_contacts(const cc_mesh_context* x, const cc_sdf_ref* f, cc_transform py, cc_vec3 l0,
                                     cc_vec3 l1, const float* end, float threshold, int of_a, unsigned base)
{
    cc_vec3 dl = cc_v3_sub(l1, l0);
    float voxel = f->d->voxel, length = cc_v3_length(dl);
    /* Clear of the other surface by the field at its known ends, or else at
     * its midpoint (cc_sdf_ball_low): the distance changes no faster than
     * the point, so along the edge the field is at least the mean of both
     * ends' less half the length, or one end's less the whole length, each
     * less CC_SDF_TWO_POINT_SLACK voxels. */
    float two_point = CC_SDF_TWO_POINT_SLACK * voxel;
    int known0 = end[0] != CC_SDF_UNKNOWN, known1 = end[1] != CC_SDF_UNKNOWN;
    float by_ends = known0 && known1 ? 0.5f * (end[0] + end[1]) - (0.5f * length + two_point)
                    : known0         ? end[0] - length - two_point
                    : known1         ? end[1] - length - two_point
                                     : -3.4e38f;
    if (by_ends > threshold) return;
    float middle_sample;
    if (cc_sdf_ball_low(f, cc_v3_madd(l0, dl, 0.5f), 0.5f * length, threshold, &middle_sample) > threshold) return;
    int steps = (int)ceilf(length / voxel);
    steps = steps < 2 ? 2 : (steps > CC_SDF_EDGE_STEPS ? CC_SDF_EDGE_STEPS : steps);
    /* Between two samples the field dips at most the sampling step below
     * them (it changes at most ~sqrt(3) per metre across a cell), so
     * samples from `near` up can neither be the lowest that counts nor
     * belong to its flat stretch: their exact value is not needed. */
    float step = length / (float)steps;
    float near = threshold + 1.7320508f * step + CC_SDF_FLAT_VOXELS * voxel;
    /* The midpoint's sample serves the walk when it is exact up to the
     * walk's `near` (and a bound past it): short edges, an even count. */
    int middle_at = (steps & 1) == 0 && threshold + (0.5f * length + two_point) >= near ? steps / 2 : -1;
    /* Kept for the flat stretch's walk, which would otherwise sample its
     * whole length again. */
    float sample[CC_SDF_EDGE_STEPS + 1];
    float lowest = 3.4e38f;
    int at = 0;
    CC_NO_UNROLL
    for (int k = 0; k <= steps; ++k) {
        if (k == 0) sample[k] = cc_sdf_end_sample(f, l0, end[0], threshold, near);
        else if (k == steps) sample[k] = cc_sdf_end_sample(f, l1, end[1], threshold, near);
        else if (k == middle_at) sample[k] = middle_sample;
        else sample[k] = cc_sdf_along(f, l0, dl, (float)k / (float)steps, near);
        if (sample[k] < lowest) lowest = sample[k], at = k;
    }
    if (!(lowest - 1.7320508f * step < threshold)) return;
    float level = lowest + CC_SDF_FLAT_VOXELS * voxel;
    int first = at, last = at;
    while (first > 0 && sample[first - 1] <= level) --first;
    while (last < steps && sample[last + 1] <= level) ++last;
    float inv = 1.0f / (float)steps;
    if (first == last) {
        if (at == 0 || at == steps) return; /* the end's vertex holds it */
        float t = cc_sdf_dip(f, l0, dl, at, inv, sample[at - 1], lowest, sample[at + 1], near);
        cc_vec3 l = cc_v3_madd(l0, dl, t);
        cc_sdf_point_contact(x, f, py, l, l, of_a, base);
        return;
    }
    /* The normal of a flat stretch: at its middle sample. */
    cc_vec3 middle = cc_v3_madd(l0, dl, (float)((first + last) / 2) * inv);
    if (first > 0) {
        float t = cc_sdf_flat_end(f, l0, dl, (float)first * inv, (float)(first - 1) * inv, level, near);
        cc_sdf_point_contact(x, f, py, cc_v3_madd(l0, dl, t), middle, of_a, base);
    }
    if (last < steps) {
        float t = cc_sdf_flat_end(f, l0, dl, (float)last * inv, (float)(last + 1) * inv, level, near);
        cc_sdf_point_contact(x, f, py, cc_v3_madd(l0, dl, t), middle, of_a, base + 2u);
    }
}

/* Features [element, +CHUNK) of mesh x (shape a when of_a, else b) against
 * the SDF of the other. */
CC_HD_CALL void cc_mesh_sdf_item(const cc_mesh_context* x, int of_a)
{
    const cc_model_view* m = x->m;
    int sx = of_a ? x->a.shape : x->b.shape, sy = of_a ? x->b.shape : x->a.shape;
    cc_sdf_ref f = cc_sdf_ref_of(m, sy);
    const cc_mesh_desc* d = &m->meshes[m->shape_source[sx]];
    cc_transform py = x->shape_pose[sy];
    /* x's frame seen from y's, composed once for the chunk. */
    cc_transform rel = cc_tf_mul(cc_tf_inverse(py), x->shape_pose[sx]);
    cc_vec3 k = m->shape_geom[sx].size;
    float threshold = cc_core_threshold(x->a, x->b);
    unsigned side = of_a ? 0u : 1u;
    int count = d->vertex_count + d->edge_count;
    int end = x->item->element + (x->single ? 1 : CC_MESH_FEATURE_CHUNK);
    end = end < count ? end : count;
    /* The chunk's vertex samples, a slot per vertex id modulo the chunk. */
    int seen[CC_MESH_FEATURE_CHUNK];
    float seen_value[CC_MESH_FEATURE_CHUNK];
    CC_NO_UNROLL
    for (int s = 0; s < CC_MESH_FEATURE_CHUNK; ++s) seen[s] = -1;
    CC_NO_UNROLL
    for (int i = x->item->element; i < end; ++i) {
        int e = m->mesh_feature_order[d->order_first + i];
        if (e < d->vertex_count) {
            int id = d->vertex_first + e;
            cc_vec3 l = cc_tf_point(rel, cc_v3_mul(m->mesh_vertices[id], k));
            seen_value[id % CC_MESH_FEATURE_CHUNK] = cc_sdf_point_contact(x, &f, py, l, l, of_a, (unsigned)i * 4u + side);
            seen[id % CC_MESH_FEATURE_CHUNK] = id;
            continue;
        }
        cc_mesh_edge edge = m->mesh_edges[d->edge_first + (e - d->vertex_count)];
        cc_vec3 l0 = cc_tf_point(rel, cc_v3_mul(m->mesh_vertices[edge.v[0]], k));
        cc_vec3 l1 = cc_tf_point(rel, cc_v3_mul(m->mesh_vertices[edge.v[1]], k));
        float ends[2];
        CC_NO_UNROLL
        for (int j = 0; j < 2; ++j) {
            int slot = edge.v[j] % CC_MESH_FEATURE_CHUNK;
            ends[j] = seen[slot] == edge.v[j] ? seen_value[slot] : CC_SDF_UNKNOWN;
        }
        cc_sdf_edge_contacts(x, &f, py, l0, l1, ends, threshold, of_a, (unsigned)i * 4u + side);
    }
}

/* Grid nodes [element, +CHUNK) of heightfield b's row (to the row's end)
 * against the SDF of mesh a: each node's sample point, and the grid edges
 * that leave it toward +column, +row and the cell's diagonal (the one its
 * triangles share), as a mesh's vertices and edges. Fingerprints:
 * ((node * 4 + feature) * 2 + which) * 2 + 1. */
CC_HD_CALL void cc_mesh_hfield_sdf_item(const cc_mesh_context* x)
{
    const cc_model_view* m = x->m;
    int sa = x->a.shape, sb = x->b.shape;
    cc_sdf_ref f = cc_sdf_ref_of(m, sa);
    cc_hfield_ref h = cc_hfield_ref_of(m, sb);
    cc_transform py = x->shape_pose[sa];
    cc_transform rel = cc_tf_mul(cc_tf_inverse(py), x->shape_pose[sb]);
    float threshold = cc_core_threshold(x->a, x->b);
    int node = x->item->element, r = node / h.cols, c0 = node % h.cols;
    int end = c0 + (x->single ? 1 : CC_MESH_FEATURE_CHUNK);
    end = end < h.cols ? end : h.cols;
    for (int c = c0; c < end; ++c) {
        unsigned base = (unsigned)(r * h.cols + c) * 16u + 1u;
        cc_vec3 p = cc_tf_point(rel, cc_hfield_point(&h, r, c));
        /* The node's sample starts each of its edges. */
        float ends[2] = {cc_sdf_point_contact(x, &f, py, p, p, 0, base), CC_SDF_UNKNOWN};
        if (c + 1 < h.cols)
            cc_sdf_edge_contacts(x, &f, py, p, cc_tf_point(rel, cc_hfield_point(&h, r, c + 1)), ends, threshold, 0,
                                 base + 4u);
        if (r + 1 < h.rows)
            cc_sdf_edge_contacts(x, &f, py, p, cc_tf_point(rel, cc_hfield_point(&h, r + 1, c)), ends, threshold, 0,
                                 base + 8u);
        if (c + 1 < h.cols && r + 1 < h.rows)
            cc_sdf_edge_contacts(x, &f, py, p, cc_tf_point(rel, cc_hfield_point(&h, r + 1, c + 1)), ends, threshold, 0,
                                 base + 12u);
    }
}

#endif
