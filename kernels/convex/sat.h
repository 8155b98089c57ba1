/* The exact signed distance of two polytope cores (boxes, hulls and a
 * capsule's segment) by separating axes, for deep overlaps that EPA's
 * fixed pools cannot resolve (a small hull deep inside a round hull of
 * hundreds of faces).
 *
 * D = B - A is a polytope; with the origin inside it the penetration depth
 * is the distance to its nearest facet, and outside it the separation
 * along the best facet normal is the distance. D's facets are the faces of
 * A, the faces of B and one facet for each pair of an edge of A and an
 * edge of B whose normal arcs cross on the Gauss map (the arc of an edge
 * runs between the outward normals of its two faces; B's is mirrored,
 * since B supports -n). The best separation over those directions is the
 * answer. Every candidate is scored by sep(n) from the support maps, a
 * lower bound of the distance for any n, so a candidate let through by a
 * lenient arc test costs time, never a wrong answer. A segment's arc is
 * the whole great circle square to it. */
#ifndef CC_KERNELS_CONVEX_SAT_H
#define CC_KERNELS_CONVEX_SAT_H

#include "kernels/convex/separation.h"

/* An edge of a polytope core, in pair coordinates: its direction and the
 * outward normals of its two faces (a segment's are zero: every direction
 * square to it supports it). Where it lies does not matter: candidates are
 * scored by the support maps. */
typedef struct cc_sat_edge {
    cc_vec3 dir;
    cc_vec3 n0, n1;
    int segment;
} cc_sat_edge;

/* Where an enumeration of a core's edges stands. */
typedef struct cc_sat_cursor {
    int face, k; /* hull: face and corner; box and segment: k counts edges */
} cc_sat_cursor;

CC_HD cc_vec3 cc_sat_hull_normal(const cc_convex* x, cc_vec3 local)
{
    cc_vec3 inv = cc_v3(1.0f / x->size.x, 1.0f / x->size.y, 1.0f / x->size.z);
    return cc_frame_vector_out(&x->f, cc_v3_normalize(cc_v3_mul(local, inv)));
}

/* The face of hull x that holds the directed edge i1 -> i0 (hull vertex
 * numbers), the twin of i0 -> i1: found among i1's corners when the hull
 * has a vertex graph, else among every face; -1 when none does. */
CC_HD_CALL int cc_sat_hull_twin(const cc_hull_ref* h, int i0, int i1)
{
    if (h->graph) {
        int c, end;
        CC_NO_UNROLL
        for (cc_hull_corners_of(h, i1, &c, &end); c < end; ++c)
            if (h->graph[c] == i0) return cc_hull_corner_face(h, c);
        return -1;
    }
    CC_NO_UNROLL
    for (int f = 0; f < h->face_count; ++f) {
        const int* idx = h->indices + h->faces[f].first;
        int n = h->faces[f].count;
        CC_NO_UNROLL
        for (int k = 0; k < n; ++k)
            if (idx[k] - h->vertex_first == i1 && idx[(k + 1) % n] - h->vertex_first == i0) return f;
    }
    return -1;
}

/* The next edge of core x after *c (start from a zeroed cursor); returns 0
 * when there are no more. A hull's edges come once each, from the face
 * where their lower-numbered end comes first. */
CC_HD_CALL int cc_sat_next_edge(const cc_convex* x, cc_sat_cursor* c, cc_sat_edge* e)
{
    e->segment = 0;
    if (x->type == CC_SHAPE_CAPSULE) {
        if (c->k++ > 0) return 0;
        e->dir = x->f.z;
        e->n0 = e->n1 = cc_v3(0.0f, 0.0f, 0.0f);
        e->segment = 1;
        return 1;
    }
    if (x->type == CC_SHAPE_BOX) {
        if (c->k >= 12) return 0;
        /* Edge k runs along axis k / 4 at the signs of bits 0 and 1 on the
         * other two axes. */
        int axis = c->k / 4;
        float sj = (c->k & 1) ? -1.0f : 1.0f, sl = (c->k & 2) ? -1.0f : 1.0f;
        c->k++;
        cc_vec3 ax[3] = {x->f.x, x->f.y, x->f.z};
        e->dir = ax[axis];
        e->n0 = cc_v3_scale(ax[(axis + 1) % 3], sj);
        e->n1 = cc_v3_scale(ax[(axis + 2) % 3], sl);
        return 1;
    }
    if (x->type != CC_SHAPE_CONVEX_HULL) return 0;
    const cc_hull_ref* h = &x->hull;
    CC_NO_UNROLL
    for (; c->face < h->face_count; c->face++, c->k = 0) {
        cc_hull_face fc = h->faces[c->face];
        const int* idx = h->indices + fc.first;
        while (c->k < fc.count) {
            int k = c->k++;
            int i0 = idx[k] - h->vertex_first, i1 = idx[(k + 1) % fc.count] - h->vertex_first;
            if (i0 > i1) continue;
            int twin = cc_sat_hull_twin(h, i0, i1);
            if (twin < 0) continue;
            e->dir = cc_frame_vector_out(&x->f, cc_v3_mul(cc_v3_sub(h->vertices[i1], h->vertices[i0]), x->size));
            e->n0 = cc_sat_hull_normal(x, fc.normal);
            e->n1 = cc_sat_hull_normal(x, h->faces[twin].normal);
            return 1;
        }
    }
    return 0;
}

/* Whether unit m lies on the arc from p to q (shorter than a half turn),
 * m being on their great circle: not behind p nor past q, within `slack`. */
CC_HD int cc_sat_on_arc(cc_vec3 m, cc_vec3 p, cc_vec3 q, float slack)
{
    cc_vec3 axis = cc_v3_cross(p, q);
    return cc_v3_dot(cc_v3_cross(p, m), axis) >= -slack && cc_v3_dot(cc_v3_cross(m, q), axis) >= -slack;
}

/* The direction (A -> B) of the facet of D that edges ea and eb make, when
 * their arcs cross; 0 when they do not (or the edges are parallel: their
 * facet is degenerate and its neighbours stand for it). */
CC_HD_CALL int cc_sat_edge_pair(const cc_sat_edge* ea, const cc_sat_edge* eb, cc_vec3* n)
{
    cc_vec3 c = cc_v3_cross(ea->dir, eb->dir);
    float len = cc_v3_length(c);
    if (!(len > 0.0f)) return 0;
    c = cc_v3_scale(c, 1.0f / len);
    const float slack = 1.0e-5f;
    /* B supports -n: its arc mirrored. */
    cc_vec3 b0 = cc_v3_neg(eb->n0), b1 = cc_v3_neg(eb->n1);
    if (ea->segment && eb->segment) return 0; /* two segments: analytic routes */
    if (ea->segment) {
        if (cc_v3_dot(c, cc_v3_add(b0, b1)) < 0.0f) c = cc_v3_neg(c);
        *n = c;
        return cc_sat_on_arc(c, b0, b1, slack);
    }
    if (cc_v3_dot(c, cc_v3_add(ea->n0, ea->n1)) < 0.0f) c = cc_v3_neg(c);
    *n = c;
    if (!cc_sat_on_arc(c, ea->n0, ea->n1, slack)) return 0;
    return eb->segment || cc_sat_on_arc(c, b0, b1, slack);
}

/* Face normal f of box or hull x (f below 6 or the face count), outward. */
CC_HD cc_vec3 cc_sat_face_normal(const cc_convex* x, int f)
{
    if (x->type == CC_SHAPE_BOX) {
        float s = (f & 1) ? -1.0f : 1.0f;
        return cc_frame_vector_out(&x->f, cc_v3(f / 2 == 0 ? s : 0.0f, f / 2 == 1 ? s : 0.0f, f / 2 == 2 ? s : 0.0f));
    }
    return cc_sat_hull_normal(x, x->hull.faces[f].normal);
}

CC_HD int cc_sat_face_count(const cc_convex* x)
{
    return x->type == CC_SHAPE_BOX ? 6 : (x->type == CC_SHAPE_CONVEX_HULL ? x->hull.face_count : 0);
}

/* Edge ea of A against every edge of B: raises *best (normal in *best_n)
 * where a facet of D separates more; returns the separations taken. */
CC_HD_CALL int cc_sat_edge_against(const cc_convex* a, const cc_convex* b, const cc_sat_edge* ea, float* best,
                                   cc_vec3* best_n)
{
    int evals = 0;
    cc_sat_cursor cb = {0, 0};
    cc_sat_edge eb;
    while (cc_sat_next_edge(b, &cb, &eb)) {
        cc_vec3 d;
        if (!cc_sat_edge_pair(ea, &eb, &d)) continue;
        float s = cc_convex_separation_along(a, b, d);
        evals++;
        if (s > *best) {
            *best = s;
            *best_n = d;
        }
    }
    return evals;
}

/* The faces of x (k: 0 for A, 1 for B, whose normals are reversed) as
 * candidates, like cc_sat_edge_against. */
CC_HD_CALL int cc_sat_faces(const cc_convex* a, const cc_convex* b, int k, float* best, cc_vec3* best_n)
{
    const cc_convex* x = k == 0 ? a : b;
    int faces = cc_sat_face_count(x);
    CC_NO_UNROLL
    for (int f = 0; f < faces; ++f) {
        cc_vec3 d = cc_sat_face_normal(x, f);
        if (k == 1) d = cc_v3_neg(d);
        float s = cc_convex_separation_along(a, b, d);
        if (s > *best) {
            *best = s;
            *best_n = d;
        }
    }
    return faces;
}

/* The best separation over D's facet normals, with its normal (A -> B) in
 * *n; *evals counts the separations taken. */
CC_HD_CALL float cc_sat_polytopes(const cc_convex* a, const cc_convex* b, cc_vec3* n, int* evals)
{
    float best = -3.0e38f;
    cc_vec3 best_n = cc_v3(0.0f, 0.0f, 1.0f);
    for (int k = 0; k < 2; ++k) *evals += cc_sat_faces(a, b, k, &best, &best_n);
    cc_sat_cursor ca = {0, 0};
    cc_sat_edge ea;
    while (cc_sat_next_edge(a, &ca, &ea)) *evals += cc_sat_edge_against(a, b, &ea, &best, &best_n);
    *n = best_n;
    return best;
}

#endif
