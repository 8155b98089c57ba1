/* Line of sight of a time-of-impact contact. Each pair is swept on its own,
 * so a box falling toward a floor under a thin table would also find the
 * floor. Before its rows are written, the segment between the pair's two
 * surface witnesses at the pass's poses is tested against the other shapes
 * that could collide with both of its shapes; one that the segment meets
 * hides the contact, which is dropped (a free body's shape only while the
 * fast body has not sunk into it).
 *
 * The shapes tested are the candidates of the two shapes' broad-phase
 * pairs: whatever lies between a fast shape and what it strikes within
 * the horizon lies inside its swept box. Each candidate pair with a fast
 * shape is linked into both of its shapes' lists (a head per shape, a next
 * entry per pair side; entry 2i + side of grouped pair i), in any order,
 * since the test is an "any". */
#ifndef CC_KERNELS_CONTACTS_LINE_OF_SIGHT_H
#define CC_KERNELS_CONTACTS_LINE_OF_SIGHT_H

#include "kernels/broadphase/filter.h"
#include "kernels/broadphase/pair_buffer.h"
#include "kernels/contacts/speculation.h"
#include "kernels/convex/gjk.h"
#include "kernels/mesh/bvh.h"
#include "kernels/mesh/narrowphase.h"

/* Links grouped pair i into its shapes' lists when one of them is fast. */
CC_HD void cc_partner_link_thread(int i, const cc_pair* grouped, const cc_speculation_view* s, int* next)
{
    cc_pair p = grouped[i];
    if (!(s->shape_sweep[p.a] > 0.0f) && !(s->shape_sweep[p.b] > 0.0f)) return;
    next[2 * i] = cc_atomic_exchange_i32(&s->partner_head[p.a], 2 * i);
    next[2 * i + 1] = cc_atomic_exchange_i32(&s->partner_head[p.b], 2 * i + 1);
}

/* Whether the segment [p, q] crosses triangle (a, b, c), either side, at a
 * fraction of its length within [lo, hi]. */
CC_HD int cc_segment_hits_triangle(cc_vec3 p, cc_vec3 q, cc_vec3 a, cc_vec3 b, cc_vec3 c, float lo, float hi)
{
    cc_vec3 d = cc_v3_sub(q, p), e1 = cc_v3_sub(b, a), e2 = cc_v3_sub(c, a);
    cc_vec3 h = cc_v3_cross(d, e2);
    float det = cc_v3_dot(e1, h);
    if (!(fabsf(det) > 0.0f)) return 0;
    float inv = 1.0f / det;
    cc_vec3 s = cc_v3_sub(p, a);
    float u = cc_v3_dot(s, h) * inv;
    if (u < 0.0f || u > 1.0f) return 0;
    cc_vec3 k = cc_v3_cross(s, e1);
    float v = cc_v3_dot(d, k) * inv;
    if (v < 0.0f || u + v > 1.0f) return 0;
    float t = cc_v3_dot(e2, k) * inv;
    return t >= lo && t <= hi;
}

/* Whether the segment [p, q] meets surface shape s (mesh or heightfield)
 * at pose xf: it crosses one of the triangles under its box farther than
 * `trim` from both ends. */
CC_HD_CALL int cc_segment_hits_surface(const cc_model_view* m, int s, cc_transform xf, cc_vec3 p, cc_vec3 q,
                                       float trim)
{
    float len = cc_v3_length(cc_v3_sub(q, p));
    float t_lo = len > 0.0f ? trim / len : 0.0f, t_hi = 1.0f - t_lo;
    if (!(t_lo < t_hi)) return 0;
    cc_vec3 lp = cc_tf_point_inv(xf, p), lq = cc_tf_point_inv(xf, q);
    cc_vec3 lo = cc_v3_min(lp, lq), hi = cc_v3_max(lp, lq);
    const cc_shape_geometry* g = &m->shape_geom[s];
    if (g->type == CC_SHAPE_MESH) {
        const cc_mesh_desc* d = &m->meshes[m->shape_source[s]];
        cc_vec3 k = g->size;
        cc_vec3 ulo = cc_v3(lo.x / k.x, lo.y / k.y, lo.z / k.z), uhi = cc_v3(hi.x / k.x, hi.y / k.y, hi.z / k.z);
        cc_bvh_query it;
        cc_bvh_query_begin(&it, cc_v3_min(ulo, uhi), cc_v3_max(ulo, uhi));
        const cc_bvh_node* nodes = m->bvh_nodes + d->node_first;
        const int* prims = m->bvh_prims + d->triangle_first;
        const cc_mesh_triangle* tris = m->mesh_triangles + d->triangle_first;
        for (int t = cc_bvh_query_next(&it, nodes, prims); t >= 0; t = cc_bvh_query_next(&it, nodes, prims)) {
            cc_vec3 a = cc_v3_mul(m->mesh_vertices[tris[t].v[0]], k), b = cc_v3_mul(m->mesh_vertices[tris[t].v[1]], k),
                    c = cc_v3_mul(m->mesh_vertices[tris[t].v[2]], k);
            if (cc_segment_hits_triangle(lp, lq, a, b, c, t_lo, t_hi)) return 1;
        }
        return 0;
    }
    cc_hfield_ref h = cc_hfield_ref_of(m, s);
    int r0, r1, c0, c1;
    if (!cc_hfield_cell_range(&h, lo, hi, &r0, &r1, &c0, &c1)) return 0;
    for (int r = r0; r <= r1; ++r)
        for (int col = c0; col <= c1; ++col)
            for (int k = 0; k < 2; ++k) {
                cc_vec3 a, b, c;
                cc_hfield_triangle(&h, 2 * (r * (h.cols - 1) + col) + k, &a, &b, &c);
                if (cc_segment_hits_triangle(lp, lq, a, b, c, t_lo, t_hi)) return 1;
            }
    return 0;
}

/* Distance of world point x from shape c's core at pose xf (a convex,
 * bounded shape), 0 when inside it; a lower bound when beyond `limit`. */
CC_HD float cc_point_core_distance(const cc_geom* shape, int type, cc_vec3 x, float limit)
{
    cc_geom point;
    point.xf = cc_tf(x, cc_q_identity());
    point.size = cc_v3(0.0f, 0.0f, 0.0f);
    point.hull = cc_hull_ref_none();
    cc_convex a = cc_convex_of(&point, CC_SHAPE_SPHERE, x), b = cc_convex_of(shape, type, x);
    float tol = 1.0e-6f * b.extent + 1.0e-9f;
    cc_gjk_result r;
    cc_gjk(&a, &b, cc_v3(0.0f, 0.0f, 0.0f), cc_v3(0.0f, 0.0f, 0.0f), limit, tol, tol, &r);
    if (r.status == CC_GJK_BEYOND) return limit;
    return r.status == CC_GJK_SEPARATED ? r.distance : 0.0f;
}

/* Whether shape s at pose xf lies between the ends of the segment [p, q].
 * A plane must have one end in front and the other behind it, crossing
 * within its extent; a surface must be crossed farther than `trim` from
 * both ends; a convex shape must come within its effective radius
 * (margins left out) of the segment less `trim` at each end, and must not
 * hold both ends (within `trim`): a shape both bodies rest on is beside
 * the contact, not between. A convex shape of a free body (`free`) must
 * hold neither end: one that an end lies in (a fast body sunk into its
 * side) pushes that body out sideways, not back, and the body goes on
 * toward what lies behind. */
CC_HD_CALL int cc_segment_hits_shape(const cc_model_view* m, int s, cc_transform xf, cc_vec3 p, cc_vec3 q,
                                     float trim, int free)
{
    const cc_shape_geometry* g = &m->shape_geom[s];
    if (cc_type_is_surface(g->type)) return cc_segment_hits_surface(m, s, xf, p, q, trim);
    if (g->type == CC_SHAPE_PLANE) {
        cc_vec3 lp = cc_tf_point_inv(xf, p), lq = cc_tf_point_inv(xf, q);
        int crosses = (lp.z > trim && lq.z < -trim) || (lq.z > trim && lp.z < -trim);
        if (!crosses) return 0;
        cc_vec3 at = cc_v3_add(lp, cc_v3_scale(cc_v3_sub(lq, lp), lp.z / (lp.z - lq.z)));
        int finite = g->size.x > 0.0f || g->size.y > 0.0f;
        return !finite || (fabsf(at.x) <= g->size.x && fabsf(at.y) <= g->size.y);
    }
    if (!cc_type_is_convex(g->type)) return 0;
    cc_geom shape;
    shape.xf = xf;
    shape.size = g->size;
    shape.hull = g->type == CC_SHAPE_CONVEX_HULL ? cc_hull_ref_of(m, s) : cc_hull_ref_none();
    float clear = g->radius + trim;
    int holds_p = cc_point_core_distance(&shape, g->type, p, clear) < clear;
    int holds_q = cc_point_core_distance(&shape, g->type, q, clear) < clear;
    if (holds_p && holds_q) return 0; /* what both rest on (a floor under a sliding box and a wall) */
    if (free && (holds_p || holds_q)) return 0;
    cc_vec3 d = cc_v3_sub(q, p);
    float len = cc_v3_length(d);
    if (!(len > 2.0f * trim)) return 0;
    /* The segment's interior: a shape holding one end may still lie
     * across the rest (a table under a box, struck from below). */
    cc_vec3 u = cc_v3_scale(d, 1.0f / len);
    p = cc_v3_madd(p, u, trim);
    q = cc_v3_madd(q, u, -trim);
    d = cc_v3_sub(q, p);
    len -= 2.0f * trim;
    cc_geom seg;
    seg.xf = cc_tf(cc_v3_scale(cc_v3_add(p, q), 0.5f), len > 0.0f ? cc_q_from_z(cc_v3_scale(d, 1.0f / len)) : cc_q_identity());
    seg.size = cc_v3(0.0f, 0.5f * len, 0.0f);
    seg.hull = cc_hull_ref_none();
    cc_vec3 origin = seg.xf.p;
    cc_convex a = cc_convex_of(&seg, CC_SHAPE_CAPSULE, origin), b = cc_convex_of(&shape, g->type, origin);
    float tol = 1.0e-6f * (len + b.extent) + 1.0e-9f;
    cc_gjk_result r;
    cc_gjk(&a, &b, cc_v3(0.0f, 0.0f, 0.0f), cc_v3(0.0f, 0.0f, 0.0f), g->radius, tol, tol, &r);
    if (r.status == CC_GJK_BEYOND) return 0;
    return r.status != CC_GJK_SEPARATED || r.distance < g->radius;
}

/* Whether another shape hides the segment [p, q] between the surfaces of
 * shapes a and b: a candidate of either that the pair rules (all but the
 * static-static one) let collide with both, the shapes of a moving body of
 * a or b excepted (they move with it). A free body's shape hides only
 * while the fast body has not sunk into it (cc_segment_hits_shape): then
 * it takes the blow and passes it on through its own contacts. `trim`: how
 * far from an end a shape counts as beside it rather than between. */
CC_HD_CALL int cc_line_of_sight_blocked(const cc_model_view* m, const cc_speculation_view* s, const cc_pair* grouped,
                                        const int* next, int pair_count, const cc_transform* shape_pose, int a, int b,
                                        cc_vec3 p, cc_vec3 q, float trim)
{
    int ba = m->shape_geom[a].body, bb = m->shape_geom[b].body;
    for (int side = 0; side < 2; ++side) {
        int e = s->partner_head[side ? b : a];
        for (int guard = 0; e >= 0 && e < 2 * pair_count && guard < 2 * pair_count; ++guard, e = next[e]) {
            cc_pair pr = grouped[e >> 1];
            int c = (e & 1) ? pr.a : pr.b;
            if (c == a || c == b) continue;
            int bc = m->shape_geom[c].body;
            if (bc >= 0 && (bc == ba || bc == bb)) continue;
            if (!cc_pair_passes_rules_of_any_motion(m, c, a, 0) || !cc_pair_passes_rules_of_any_motion(m, c, b, 0))
                continue;
            int free = bc >= 0 && !m->body_static[bc] && m->body_mass[bc].inv_mass != 0.0f;
            if (cc_segment_hits_shape(m, c, shape_pose[c], p, q, trim, free)) return 1;
        }
    }
    return 0;
}

#endif
