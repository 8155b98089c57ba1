/* A cylinder's or cone's ring of side normals against a box's or hull's
 * edges: the overlap's way out through the round side, exactly.
 *
 * Along the ring (the side normals at every azimuth) the round shape's
 * support is its side line, and sep is the polytope's lowest vertex along
 * the normal less a constant: a lower envelope of one sinusoid a vertex,
 * whose maxima lie where two vertices tie, on an edge of the polytope
 * square to the normal. A small polytope deep in a large cylinder or cone
 * (at its centre, where the ring is the way out) has one such maximum for
 * each edge of its outline seen along the axis; the climbs stop on
 * whichever the start led to, too deep by up to the polytope's size. Each
 * edge gives the ring's normals square to it in closed form, so the best
 * of them is exact. */
#ifndef CC_KERNELS_CONVEX_RING_CROSSINGS_H
#define CC_KERNELS_CONVEX_RING_CROSSINGS_H

#include "kernels/convex/query.h"

/* Box y's edge i of 12, pair coordinates. */
CC_HD void cc_box_edge(const cc_convex* y, int i, cc_vec3* p, cc_vec3* q)
{
    int axis = i / 4;
    float c[3] = {0.0f, 0.0f, 0.0f}, h[3] = {y->size.x, y->size.y, y->size.z};
    c[(axis + 1) % 3] = (i & 1) ? -h[(axis + 1) % 3] : h[(axis + 1) % 3];
    c[(axis + 2) % 3] = (i & 2) ? -h[(axis + 2) % 3] : h[(axis + 2) % 3];
    c[axis] = -h[axis];
    *p = cc_frame_point_out(&y->f, cc_v3(c[0], c[1], c[2]));
    c[axis] = h[axis];
    *q = cc_frame_point_out(&y->f, cc_v3(c[0], c[1], c[2]));
}

/* The ring's normals square to edge pq of the polytope (none where the
 * edge runs along the axis k, or a cone's ring has no normal square to
 * it), each kept in *best_n when it separates more than *best. */
CC_HD void cc_ring_try_edge(const cc_convex* a, const cc_convex* b, int x_is_a, cc_vec3 k, float axial, cc_vec3 p,
                            cc_vec3 q, float* best, cc_vec3* best_n, int* evals)
{
    const cc_convex* x = x_is_a ? a : b;
    cc_vec3 e = cc_v3_normalize(cc_v3_sub(q, p));
    cc_vec3 k_across = cc_v3_reject(k, e);
    float kl = cc_v3_length(k_across);
    /* An edge within 1e-3 rad of the axis runs along the side lines: its
     * faces' normals, on the ring already, are the query's starts, and
     * the rounding of k_across would swamp the normal square to it. */
    if (!(kl > 1.0e-3f) || !(cc_v3_length_sq(e) > 0.5f)) return;
    /* The polytope supports s = -(x's outward side normal) on the edge:
     * s . k = -axial, and s square to the edge. */
    float c = -axial / kl;
    if (!(fabsf(c) < 1.0f)) return;
    cc_vec3 u = cc_v3_scale(k_across, 1.0f / kl), w = cc_v3_normalize(cc_v3_cross(e, u));
    float across = sqrtf(1.0f - c * c);
    CC_NO_UNROLL
    for (int side = 0; side < 2; ++side) {
        cc_vec3 s = cc_v3_normalize(cc_v3_madd(cc_v3_scale(u, c), w, side ? -across : across));
        cc_vec3 n = x_is_a ? cc_v3_neg(s) : s;
        /* The edge's point bounds the polytope's support from inside, so
         * this bounds sep along n from above: most crossings end here. */
        float bound = x_is_a ? cc_v3_dot(p, n) - cc_v3_dot(cc_support(x, n), n)
                             : cc_v3_dot(cc_support(x, cc_v3_neg(n)), n) - cc_v3_dot(p, n);
        ++*evals;
        if (!(bound > *best)) continue;
        float sep = cc_convex_separation_along(a, b, n);
        ++*evals;
        if (sep > *best) {
            *best = sep;
            *best_n = n;
        }
    }
}

/* Moves n (returns 1) to the best normal of the ring of cylinder or cone
 * x (a or b) square to an edge of box or hull y (the other) when it
 * separates more than *sep by a tenth of the tolerance. */
CC_HD_CALL int cc_convex_ring_crossings(const cc_convex* a, const cc_convex* b, float tol, cc_vec3* n_io, float* sep_io,
                                        int* evals)
{
    int round_a = a->type == CC_SHAPE_CYLINDER || a->type == CC_SHAPE_CONE;
    int round_b = b->type == CC_SHAPE_CYLINDER || b->type == CC_SHAPE_CONE;
    int poly_a = a->type == CC_SHAPE_BOX || a->type == CC_SHAPE_CONVEX_HULL;
    int poly_b = b->type == CC_SHAPE_BOX || b->type == CC_SHAPE_CONVEX_HULL;
    int x_is_a = round_a && poly_b;
    if (!x_is_a && !(round_b && poly_a)) return 0;
    const cc_convex* x = x_is_a ? a : b;
    const cc_convex* y = x_is_a ? b : a;
    float radial, axial;
    cc_round_side_slope(x, &radial, &axial);
    float best = *sep_io + 0.1f * tol;
    cc_vec3 best_n = *n_io, p, q;
    if (y->type == CC_SHAPE_BOX) {
        CC_NO_UNROLL
        for (int i = 0; i < 12; ++i) {
            cc_box_edge(y, i, &p, &q);
            cc_ring_try_edge(a, b, x_is_a, x->f.z, axial, p, q, &best, &best_n, evals);
        }
    } else {
        /* Each edge once: on the face where it runs from the lower index. */
        const cc_hull_ref* h = &y->hull;
        CC_NO_UNROLL
        for (int f = 0; f < h->face_count; ++f) {
            cc_hull_face fc = h->faces[f];
            CC_NO_UNROLL
            for (int i = 0; i < fc.count; ++i) {
                int u = h->indices[fc.first + i] - h->vertex_first;
                int v = h->indices[fc.first + (i + 1 == fc.count ? 0 : i + 1)] - h->vertex_first;
                if (u > v) continue;
                p = cc_frame_point_out(&y->f, cc_v3_mul(h->vertices[u], y->size));
                q = cc_frame_point_out(&y->f, cc_v3_mul(h->vertices[v], y->size));
                cc_ring_try_edge(a, b, x_is_a, x->f.z, axial, p, q, &best, &best_n, evals);
            }
        }
    }
    if (best_n.x == n_io->x && best_n.y == n_io->y && best_n.z == n_io->z) return 0;
    *n_io = best_n;
    *sep_io = best;
    return 1;
}

#endif
