/* The mesh mid phase: for each candidate pair with a mesh or heightfield,
 * find the pieces of the surface the other shape can touch and emit them
 * as work items for the mesh narrow phase:
 *   - a primitive or hull against a mesh: the triangles whose BVH leaves
 *     overlap the shape's box (mesh/bvh.h); against a heightfield: the two
 *     triangles of every cell under the box whose height range meets it;
 *   - a plane against a mesh: the mesh's vertices, in chunks;
 *   - a mesh against a mesh or a heightfield: the vertices of each mesh,
 *     in chunks, to be tested against the other surface.
 * Items go to a buffer sized from the model; past its capacity they are
 * counted, never written, so the host can report the size needed. When
 * reduction is on, each pair also takes a block of CC_REDUCE_SLOTS slots. */
#ifndef CC_KERNELS_MESH_MIDPHASE_H
#define CC_KERNELS_MESH_MIDPHASE_H

#include "kernels/contacts/reduction.h"
#include "kernels/shapes/support.h"
#include "kernels/shapes/heightfield.h"
#include "kernels/broadphase/pair_buffer.h"
#include "kernels/pass_counters.h"
#include "kernels/shapes/bounds.h"

/* Item kinds, one routine each; the narrow phase runs the items grouped by
 * kind so that a GPU warp runs one routine. */
#define CC_MESH_ITEM_SPHERE_TRIANGLE 0 /* sphere a against triangle `element` of b */
#define CC_MESH_ITEM_CONVEX_TRIANGLE 1 /* another convex shape a against triangle `element` of b */
#define CC_MESH_ITEM_PLANE_VERTICES 2  /* vertices [element, +CHUNK) of mesh b against plane a */
#define CC_MESH_ITEM_VERTICES_OF_A 3   /* vertices of mesh a against the surface of b */
#define CC_MESH_ITEM_VERTICES_OF_B 4   /* vertices of mesh b against the surface of a */
#define CC_MESH_ITEM_SDF_OF_A 5        /* features [element, +CHUNK) of mesh a against the SDF of b */
#define CC_MESH_ITEM_SDF_OF_B 6        /* features of mesh b against the SDF of a */
#define CC_MESH_ITEM_HFIELD_SDF 7      /* grid nodes [element, +CHUNK) of one row of heightfield b against the SDF of mesh a */
#define CC_MESH_ITEM_KINDS 8
#define CC_MESH_VERTEX_CHUNK 16

typedef struct cc_mesh_item {
    int pair;    /* row of the grouped candidate pairs */
    int block;   /* reduction block of the pair, or -1: written unreduced */
    int element; /* triangle id, or the first vertex of a chunk (relative to the mesh) */
    int kind;    /* CC_MESH_ITEM_* */
} cc_mesh_item;

/* The mesh stages' buffers. Counts live in cc_pass_counters. */
typedef struct cc_mesh_view {
    cc_mesh_item* items;         /* as the mid phase found them */
    cc_mesh_item* grouped_items; /* the same, grouped by kind */
    int item_capacity;
    unsigned long long* slots; /* block_capacity * CC_REDUCE_SLOTS */
    int* block_pair;           /* block_capacity: the grouped pair that took each block */
    int block_capacity;
    int reduce; /* contact reduction on */
    const float* shape_reach; /* (nshape) speculative reach of each shape (contacts/speculation.h); NULL: off */
} cc_mesh_view;

CC_HD int cc_type_is_surface(int t) { return t == CC_SHAPE_MESH || t == CC_SHAPE_HEIGHTFIELD; }

/* A pair in type order (lower type first), as every mesh stage sees it. */
typedef struct cc_mesh_pair {
    int a, b;         /* shapes */
    int ta, tb;       /* their types */
} cc_mesh_pair;

CC_HD cc_mesh_pair cc_mesh_pair_of(const cc_model_view* m, cc_pair p)
{
    cc_mesh_pair q;
    int swap = m->shape_geom[p.a].type > m->shape_geom[p.b].type;
    q.a = swap ? p.b : p.a;
    q.b = swap ? p.a : p.b;
    q.ta = m->shape_geom[q.a].type;
    q.tb = m->shape_geom[q.b].type;
    return q;
}

CC_HD cc_hfield_ref cc_hfield_ref_of(const cc_model_view* m, int shape)
{
    const cc_hfield_desc* d = &m->hfields[m->shape_source[shape]];
    cc_hfield_ref h;
    h.samples = m->hfield_samples + d->sample_first;
    h.rows = d->rows;
    h.cols = d->cols;
    h.size = m->shape_geom[shape].size;
    return h;
}

/* World box `box` seen from `pose`: the box around its corners in that
 * frame, divided per axis by `scale`, grown by `pad` (scaled units). */
CC_HD cc_aabb cc_aabb_in_frame(cc_aabb box, cc_transform pose, cc_vec3 scale, float pad)
{
    cc_vec3 c = cc_v3_scale(cc_v3_add(box.lower, box.upper), 0.5f);
    cc_vec3 h = cc_v3_scale(cc_v3_sub(box.upper, box.lower), 0.5f);
    cc_vec3 lc = cc_tf_point_inv(pose, c);
    cc_vec3 ax, ay, az;
    cc_q_axes(pose.q, &ax, &ay, &az);
    /* Half extent along local axis k: sum over world axes of |R_jk| h_j. */
    cc_vec3 lh = cc_v3(fabsf(ax.x) * h.x + fabsf(ax.y) * h.y + fabsf(ax.z) * h.z,
                       fabsf(ay.x) * h.x + fabsf(ay.y) * h.y + fabsf(ay.z) * h.z,
                       fabsf(az.x) * h.x + fabsf(az.y) * h.y + fabsf(az.z) * h.z);
    lh = cc_v3_add(lh, cc_v3(pad, pad, pad));
    cc_aabb r;
    r.lower = cc_v3(cc_v3_sub(lc, lh).x / scale.x, cc_v3_sub(lc, lh).y / scale.y, cc_v3_sub(lc, lh).z / scale.z);
    r.upper = cc_v3(cc_v3_add(lc, lh).x / scale.x, cc_v3_add(lc, lh).y / scale.y, cc_v3_add(lc, lh).z / scale.z);
    return r;
}

/* A reduction block for grouped pair `pair`, or -1 past the capacity (the
 * pair is then written unreduced: more rows, but nothing dropped). */
CC_HD int cc_mesh_take_block(const cc_mesh_view* mv, cc_pass_counters* c, int pair)
{
    int b = cc_atomic_add_i32(&c->mesh_block_count, 1);
    if (b >= mv->block_capacity) return -1;
    mv->block_pair[b] = pair;
    return b;
}

CC_HD void cc_mesh_emit(const cc_mesh_view* mv, cc_pass_counters* c, int pair, int block, int element, int kind)
{
    int slot = cc_atomic_add_i32(&c->mesh_item_count, 1);
    if (slot >= mv->item_capacity) return; /* counted for the overflow report */
    cc_mesh_item it;
    it.pair = pair;
    it.block = block;
    it.element = element;
    it.kind = kind;
    mv->items[slot] = it;
}

/* Triangle items of one pair, emitted through a small hold: a pair whose
 * raw contacts cannot exceed one normal bin's 12 slots (12 sphere
 * triangles, 2 convex ones, at most 1 and 5 contacts each) already meets
 * every bound reduction keeps, so it is written directly and skips the
 * second pass and its block. Past that, the pair takes a block. */
#define CC_MESH_HOLD 12

typedef struct cc_mesh_emitter {
    int pair, kind;
    int reduce;    /* the pipeline reduces */
    int block;     /* -1 until the pair has taken one (or none was left) */
    int taken;     /* the pair asked for its block */
    int limit;     /* items the pair may have and skip reduction */
    int held[CC_MESH_HOLD];
    int held_count;
} cc_mesh_emitter;

CC_HD cc_mesh_emitter cc_mesh_emitter_make(const cc_mesh_view* mv, int pair, int kind)
{
    cc_mesh_emitter e;
    e.pair = pair;
    e.kind = kind;
    e.reduce = mv->reduce;
    e.block = -1;
    e.taken = 0;
    e.limit = kind == CC_MESH_ITEM_SPHERE_TRIANGLE ? CC_REDUCE_SLOTS_PER_BIN : CC_REDUCE_SLOTS_PER_BIN / CC_MANIFOLD_MAX_POINTS;
    e.held_count = 0;
    return e;
}

CC_HD void cc_mesh_emitter_add(cc_mesh_emitter* e, const cc_mesh_view* mv, cc_pass_counters* c, int element)
{
    if (e->reduce && !e->taken) {
        if (e->held_count < e->limit) {
            e->held[e->held_count++] = element;
            return;
        }
        e->block = cc_mesh_take_block(mv, c, e->pair);
        e->taken = 1;
        for (int k = 0; k < e->held_count; ++k) cc_mesh_emit(mv, c, e->pair, e->block, e->held[k], e->kind);
        e->held_count = 0;
    }
    cc_mesh_emit(mv, c, e->pair, e->block, element, e->kind);
}

/* A pair that stayed small: its held items go out unreduced. */
CC_HD void cc_mesh_emitter_finish(cc_mesh_emitter* e, const cc_mesh_view* mv, cc_pass_counters* c)
{
    for (int k = 0; k < e->held_count; ++k) cc_mesh_emit(mv, c, e->pair, -1, e->held[k], e->kind);
    e->held_count = 0;
}

CC_HD void cc_mesh_emit_vertex_chunks(const cc_mesh_view* mv, cc_pass_counters* c, int pair, int block, int vertices,
                                      int kind)
{
    for (int v = 0; v < vertices; v += CC_MESH_VERTEX_CHUNK) cc_mesh_emit(mv, c, pair, block, v, kind);
}

/* A ball around the other shape that holds every point a contact can
 * reach: its centre (the reference point of the triangle routes) and the
 * farthest point of the shape from it, plus both shapes' margins and gaps,
 * in the surface's (scaled) frame. A triangle whose plane or bounding box
 * lies farther from the centre than the radius cannot touch: two cheap
 * bounds, conservative for every shape. */
typedef struct cc_reach {
    cc_vec3 centre; /* surface frame, scaled */
    float radius;
    int exact;      /* a sphere: the ball is the shape, so the exact distance decides */
} cc_reach;

CC_HD int cc_reach_misses(const cc_reach* r, cc_vec3 a, cc_vec3 b, cc_vec3 c)
{
    cc_vec3 lo = cc_v3_min(a, cc_v3_min(b, c)), hi = cc_v3_max(a, cc_v3_max(b, c));
    cc_vec3 out = cc_v3_max(cc_v3_sub(lo, r->centre), cc_v3_sub(r->centre, hi));
    out = cc_v3_max(out, cc_v3(0.0f, 0.0f, 0.0f));
    float r2 = r->radius * r->radius;
    if (cc_v3_length_sq(out) > r2) return 1;
    /* The plane, with an unnormalised normal: h^2 > r^2 |n|^2. */
    cc_vec3 n = cc_v3_cross(cc_v3_sub(b, a), cc_v3_sub(c, a));
    float h = cc_v3_dot(n, cc_v3_sub(r->centre, a));
    if (h * h > r2 * cc_v3_length_sq(n)) return 1;
    if (!r->exact) return 0;
    /* Behind the triangle: culled by the narrow phase anyway. */
    if (h < 0.0f) return 1;
    /* The exact distance. A centre over the triangle is as near as its
     * plane, which passed; otherwise the nearest point lies on an edge whose
     * line the centre is outside of, so only those edges are measured, and
     * the first one near enough settles it. (A degenerate triangle, n = 0,
     * is never culled here; the narrow phase rejects it.) */
    cc_vec3 v[3] = {a, b, c};
    int outside = 0;
    for (int k = 0; k < 3; ++k) {
        cc_vec3 e = cc_v3_sub(v[k == 2 ? 0 : k + 1], v[k]), d = cc_v3_sub(r->centre, v[k]);
        if (!(cc_v3_dot(cc_v3_cross(e, d), n) < 0.0f)) continue;
        outside = 1;
        if (cc_v3_length_sq(cc_v3_madd(d, e, -cc_segment_closest_param(r->centre, v[k], e))) <= r2) return 0;
    }
    return outside;
}

CC_HD cc_reach cc_reach_of(const cc_model_view* m, const cc_mesh_view* mv, const cc_transform* shape_pose, int other,
                           int surface)
{
    const cc_shape_geometry* g = &m->shape_geom[other];
    cc_vec3 centre = shape_pose[other].p;
    float extent;
    if (g->type == CC_SHAPE_CONVEX_HULL) {
        cc_hull_ref h = cc_hull_ref_of(m, other);
        centre = cc_tf_point(shape_pose[other], cc_v3_mul(h.center, g->size));
        extent = cc_convex_extent_of(g->type, g->size, &h);
    } else {
        cc_hull_ref none = cc_hull_ref_none();
        extent = cc_convex_extent_of(g->type, g->size, &none);
    }
    cc_reach r;
    r.exact = g->type == CC_SHAPE_SPHERE;
    r.centre = cc_tf_point_inv(shape_pose[surface], centre);
    /* A little slack against rounding: culling must never drop a contact. */
    float pads = m->shape_bounds_pad[other] + m->shape_bounds_pad[surface];
    if (mv->shape_reach) pads += mv->shape_reach[other] + mv->shape_reach[surface];
    r.radius = (extent + pads) * (1.0f + 1.0e-5f) + 1.0e-6f;
    return r;
}

/* Triangles of surface shape `s` near the other shape: those under its
 * world box `box` (grown by the surface's margin, gap and speculative
 * reach, the box already carries the other shape's) that its reach meets. */
CC_HD void cc_mesh_emit_triangles(const cc_model_view* m, const cc_mesh_view* mv, cc_pass_counters* c,
                                  const cc_transform* shape_pose, int s, int other, cc_aabb box, int pair)
{
    const cc_shape_geometry* g = &m->shape_geom[s];
    float pad = m->shape_bounds_pad[s] + (mv->shape_reach ? mv->shape_reach[s] : 0.0f);
    int kind = m->shape_geom[other].type == CC_SHAPE_SPHERE ? CC_MESH_ITEM_SPHERE_TRIANGLE : CC_MESH_ITEM_CONVEX_TRIANGLE;
    cc_mesh_emitter e = cc_mesh_emitter_make(mv, pair, kind);
    cc_reach reach = cc_reach_of(m, mv, shape_pose, other, s);
    if (g->type == CC_SHAPE_MESH) {
        const cc_mesh_desc* d = &m->meshes[m->shape_source[s]];
        cc_aabb q = cc_aabb_in_frame(box, shape_pose[s], g->size, 0.0f);
        /* The pad is in metres; in the unscaled mesh frame it shrinks by the scale. */
        q.lower = cc_v3_sub(q.lower, cc_v3(pad / g->size.x, pad / g->size.y, pad / g->size.z));
        q.upper = cc_v3_add(q.upper, cc_v3(pad / g->size.x, pad / g->size.y, pad / g->size.z));
        const cc_bvh_node* nodes = m->bvh_nodes + d->node_first;
        const int* prims = m->bvh_prims + d->triangle_first;
        const cc_mesh_triangle* tris = m->mesh_triangles + d->triangle_first;
        cc_bvh_query it;
        cc_bvh_query_begin(&it, q.lower, q.upper);
        cc_bvh_query_set_ball(&it, reach.centre, g->size, reach.radius);
        for (int t = cc_bvh_query_next(&it, nodes, prims); t >= 0; t = cc_bvh_query_next(&it, nodes, prims)) {
            /* The leaf box passed; test the triangle's own box. */
            cc_vec3 v0 = m->mesh_vertices[tris[t].v[0]], v1 = m->mesh_vertices[tris[t].v[1]],
                    v2 = m->mesh_vertices[tris[t].v[2]];
            cc_vec3 lo = cc_v3_min(v0, cc_v3_min(v1, v2)), hi = cc_v3_max(v0, cc_v3_max(v1, v2));
            if (lo.x > q.upper.x || lo.y > q.upper.y || lo.z > q.upper.z || hi.x < q.lower.x || hi.y < q.lower.y ||
                hi.z < q.lower.z)
                continue;
            if (cc_reach_misses(&reach, cc_v3_mul(v0, g->size), cc_v3_mul(v1, g->size), cc_v3_mul(v2, g->size))) continue;
            cc_mesh_emitter_add(&e, mv, c, t);
        }
        cc_mesh_emitter_finish(&e, mv, c);
        return;
    }
    cc_hfield_ref h = cc_hfield_ref_of(m, s);
    cc_aabb q = cc_aabb_in_frame(box, shape_pose[s], cc_v3(1.0f, 1.0f, 1.0f), pad);
    int r0, r1, c0, c1;
    if (!cc_hfield_cell_range(&h, q.lower, q.upper, &r0, &r1, &c0, &c1)) return;
    /* The triangle over A's reference point, when that point is under the
     * surface, carries the contact that pushes A out
     * (cc_hfield_buried_contact), however far the surface is. */
    cc_vec3 ref = reach.centre; /* cc_triangle_reference, in the heightfield's frame */
    int column = cc_hfield_column_triangle(&h, ref);
    for (int r = r0; r <= r1; ++r)
        for (int col = c0; col <= c1; ++col) {
            float lo, hi;
            cc_hfield_cell_height_range(&h, r, col, &lo, &hi);
            int cell = r * (h.cols - 1) + col;
            int holds_column = column >> 1 == cell && ref.z < hi;
            if ((lo > q.upper.z || hi < q.lower.z) && !holds_column) continue;
            for (int k = 0; k < 2; ++k) {
                cc_vec3 t0, t1, t2;
                cc_hfield_triangle(&h, 2 * cell + k, &t0, &t1, &t2);
                int near = !(lo > q.upper.z) && !cc_reach_misses(&reach, t0, t1, t2);
                if (near || (holds_column && 2 * cell + k == column)) cc_mesh_emitter_add(&e, mv, c, 2 * cell + k);
            }
        }
    cc_mesh_emitter_finish(&e, mv, c);
}

CC_HD int cc_mesh_vertex_count(const cc_model_view* m, int s) { return m->meshes[m->shape_source[s]].vertex_count; }

/* The feature chunks of mesh shape sx that come within `pads` of the
 * surface of sy (which has an SDF), each ball against the field; the
 * chunks of a mesh whose whole ball is clear are not looked at. */
CC_HD void cc_mesh_emit_sdf_chunks(const cc_model_view* m, const cc_mesh_view* mv, cc_pass_counters* c,
                                   const cc_transform* shape_pose, int sx, int sy, float pads, int pair, int block,
                                   int kind)
{
    const cc_mesh_desc* d = &m->meshes[m->shape_source[sx]];
    cc_vec3 k = m->shape_geom[sx].size;
    float stretch = cc_maxf(fabsf(k.x), cc_maxf(fabsf(k.y), fabsf(k.z)));
    cc_transform px = shape_pose[sx], py = shape_pose[sy];
    cc_sdf_ref f = cc_sdf_ref_of(m, sy);
    cc_vec3 centre = cc_v3_mul(cc_v3_scale(cc_v3_add(d->lower, d->upper), 0.5f), k);
    float radius = cc_v3_length(cc_v3_mul(cc_v3_scale(cc_v3_sub(d->upper, d->lower), 0.5f), k));
    if (cc_sdf_ball_clear(&f, cc_tf_point_inv(py, cc_tf_point(px, centre)), radius, pads)) return;
    int features = d->vertex_count + d->edge_count;
    for (int first = 0, chunk = 0; first < features; first += CC_MESH_FEATURE_CHUNK, ++chunk) {
        cc_feature_ball ball = m->mesh_feature_balls[d->ball_first + chunk];
        cc_vec3 l = cc_tf_point_inv(py, cc_tf_point(px, cc_v3_mul(ball.centre, k)));
        if (!cc_sdf_ball_clear(&f, l, ball.radius * stretch, pads)) cc_mesh_emit(mv, c, pair, block, first, kind);
    }
}

/* The grid nodes of heightfield shape s under the world box `box` of a
 * mesh with an SDF (grown by `pads`), in runs of up to
 * CC_MESH_FEATURE_CHUNK along a row: each node brings its sample and the
 * grid edges that leave it (mesh/sdf_contacts.h). The rows and columns one
 * past the cells under the box are included, so that the box's cells have
 * every corner and edge. */
CC_HD void cc_mesh_emit_hfield_nodes(const cc_model_view* m, const cc_mesh_view* mv, cc_pass_counters* c,
                                     const cc_transform* shape_pose, int s, cc_aabb box, float pads, int pair, int block)
{
    cc_hfield_ref h = cc_hfield_ref_of(m, s);
    cc_aabb q = cc_aabb_in_frame(box, shape_pose[s], cc_v3(1.0f, 1.0f, 1.0f), pads);
    int r0, r1, c0, c1;
    if (!cc_hfield_cell_range(&h, q.lower, q.upper, &r0, &r1, &c0, &c1)) return;
    for (int r = r0; r <= r1 + 1; ++r)
        for (int col = c0; col <= c1 + 1; col += CC_MESH_FEATURE_CHUNK)
            cc_mesh_emit(mv, c, pair, block, r * h.cols + col, CC_MESH_ITEM_HFIELD_SDF);
}

/* One thread per grouped candidate pair; pairs without a surface return. */
CC_HD void cc_mesh_midphase_thread(int i, const cc_model_view* m, const cc_pair* grouped, const cc_transform* shape_pose,
                                   const cc_aabb* aabb, const cc_mesh_view* mv, cc_pass_counters* c)
{
    cc_mesh_pair p = cc_mesh_pair_of(m, grouped[i]);
    if (!cc_type_is_surface(p.tb)) return;
    if (p.ta != CC_SHAPE_PLANE && p.ta != CC_SHAPE_MESH) {
        cc_mesh_emit_triangles(m, mv, c, shape_pose, p.b, p.a, aabb[p.a], i);
        return;
    }
    int block = -1;
    if (mv->reduce) {
        block = cc_mesh_take_block(mv, c, i);
    }
    if (p.ta == CC_SHAPE_PLANE) {
        if (p.tb == CC_SHAPE_MESH) cc_mesh_emit_vertex_chunks(mv, c, i, block, cc_mesh_vertex_count(m, p.b), CC_MESH_ITEM_PLANE_VERTICES);
        return;
    }
    if (p.ta == CC_SHAPE_MESH) {
        /* Each mesh's features go through the other's SDF when it has one
         * (vertices and edges), else its vertices through the other's BVH. */
        int through_b = p.tb == CC_SHAPE_MESH && m->shape_sdf[p.b] >= 0;
        int through_a = p.tb == CC_SHAPE_MESH && m->shape_sdf[p.a] >= 0;
        /* What a contact can reach: both shapes' pads (margin + gap, or a
         * contact pair's) and speculative reach, as cc_reach_of. */
        float pads = m->shape_bounds_pad[p.a] + m->shape_bounds_pad[p.b];
        if (mv->shape_reach) pads += mv->shape_reach[p.a] + mv->shape_reach[p.b];
        const cc_mesh_desc* da = &m->meshes[m->shape_source[p.a]];
        if (!through_b) cc_mesh_emit_vertex_chunks(mv, c, i, block, da->vertex_count, CC_MESH_ITEM_VERTICES_OF_A);
        else cc_mesh_emit_sdf_chunks(m, mv, c, shape_pose, p.a, p.b, pads, i, block, CC_MESH_ITEM_SDF_OF_A);
        if (p.tb == CC_SHAPE_MESH) {
            const cc_mesh_desc* db = &m->meshes[m->shape_source[p.b]];
            if (!through_a) cc_mesh_emit_vertex_chunks(mv, c, i, block, db->vertex_count, CC_MESH_ITEM_VERTICES_OF_B);
            else cc_mesh_emit_sdf_chunks(m, mv, c, shape_pose, p.b, p.a, pads, i, block, CC_MESH_ITEM_SDF_OF_B);
        } else if (m->shape_sdf[p.a] >= 0) {
            cc_mesh_emit_hfield_nodes(m, mv, c, shape_pose, p.b, aabb[p.a], pads, i, block);
        }
    }
}

/* Grouping by kind: a counting sort like the pairs' route grouping. The
 * order within a kind is thread order on the GPU; nothing downstream
 * depends on it (reduction keys and sort keys come from the geometry). */
CC_HD int cc_mesh_item_total(const cc_mesh_view* mv, const cc_pass_counters* c)
{
    return cc_min_i32(c->mesh_item_count, mv->item_capacity);
}

CC_HD void cc_mesh_kind_histogram_thread(int j, const cc_mesh_view* mv, cc_pass_counters* c)
{
    cc_atomic_add_i32(&c->mesh_kind_count[mv->items[j].kind], 1);
}

CC_HD void cc_mesh_kind_scan(cc_pass_counters* c)
{
    int sum = 0;
    for (int k = 0; k < CC_MESH_ITEM_KINDS; ++k) {
        c->mesh_kind_cursor[k] = sum;
        sum += c->mesh_kind_count[k];
    }
}

CC_HD void cc_mesh_kind_scatter_thread(int j, const cc_mesh_view* mv, cc_pass_counters* c)
{
    cc_mesh_item it = mv->items[j];
    mv->grouped_items[cc_atomic_add_i32(&c->mesh_kind_cursor[it.kind], 1)] = it;
}

#endif
