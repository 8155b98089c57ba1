/* What the convex narrow phase asks of the query beyond it: answers that
 * the query's climbs can leave on the wrong optimum checked again (a
 * round side against a polytope's edges, doubtful overlaps, a segment
 * across a face's edge), the answer sharpened where it touches a round
 * surface at a point, and a hull's witness moved onto the face that
 * touches. (Mesh routes call the query itself: there the triangle's own
 * normal rules, and the kernels have no registers to spare.) */
#ifndef CC_KERNELS_CONVEX_QUERY_SHARP_H
#define CC_KERNELS_CONVEX_QUERY_SHARP_H

#include "kernels/convex/doubtful_overlap.h"
#include "kernels/convex/edge_ridges.h"
#include "kernels/convex/query.h"
#include "kernels/convex/ring_crossings.h"

/* A hull's witness point that misses the other's across the normal: the
 * hull's feature may be a neighbour of the face that touches (two faces of
 * a nearly flat roof tie within the normal's accuracy, and the first was
 * taken). The line through the other point along the normal meets the
 * hull on the face that touches, at the same height. (Convex narrow phase
 * only: a mesh triangle's prism has sides whose points its routes drop.) */
CC_HD_CALL void cc_convex_witness_exit(const cc_convex* a, const cc_convex* b, float tol, cc_convex_result* r)
{
    cc_vec3 n = r->normal, w = cc_v3_sub(r->point_b, r->point_a), hit;
    float slab = cc_minf(cc_convex_slab(a, tol), cc_convex_slab(b, tol));
    if (!(cc_v3_length_sq(cc_v3_reject(w, n)) > slab * slab)) return;
    /* Kept only at the same height along n: beside a touching corner the
     * line runs down a steep face instead. */
    if (cc_convex_line_exit(b, r->point_a, cc_v3_neg(n), &hit) && fabsf(cc_v3_dot(cc_v3_sub(hit, r->point_b), n)) <= slab)
        r->point_b = hit;
    else if (cc_convex_line_exit(a, r->point_b, n, &hit) && fabsf(cc_v3_dot(cc_v3_sub(hit, r->point_a), n)) <= slab)
        r->point_a = hit;
}

/* Takes *n, separating by *sep, as r's answer: polished (both updated),
 * with its features and witness. */
CC_HD_CALL void cc_convex_take(const cc_convex* a, const cc_convex* b, float tol, cc_vec3* n, float* sep,
                               cc_convex_result* r)
{
    cc_convex_polish(a, b, n, sep, tol, &r->feature_a, &r->feature_b);
    r->point_a = cc_support(a, *n);
    r->point_b = cc_support(b, cc_v3_neg(*n));
    cc_convex_witness(a, b, *n, r, &r->point_a, &r->point_b);
    r->normal = *n;
    r->distance = *sep;
}

/* The query, checked again and sharpened: what the convex narrow phase
 * reports. */
CC_HD_CALL int cc_convex_query_sharp(const cc_convex* a, const cc_convex* b, float limit, cc_convex_result* r)
{
    if (!cc_convex_query(a, b, limit, r)) return 0;
    float tol = cc_convex_tolerance(a, b);
    if (!(tol > 0.0f)) return 1; /* two point cores: exact already */
    /* Overlapping enough for the query's other starts, a round side's way
     * out past a polytope has one optimum per edge of its outline, and the
     * starts need not reach the best (cc_convex_ring_crossings). Then
     * doubtful overlaps, and segments across a face's edge. */
    float min_core = cc_minf(cc_convex_core_thickness(a), cc_convex_core_thickness(b));
    cc_vec3 n = r->normal;
    float sep = r->distance;
    if (sep < -CC_CONVEX_ALTERNATIVES * min_core && cc_convex_ring_crossings(a, b, tol, &n, &sep, &r->iterations))
        cc_convex_take(a, b, tol, &n, &sep, r);
    if (cc_convex_recheck_doubtful(a, b, tol, limit, r, &n, &sep)) cc_convex_take(a, b, tol, &n, &sep, r);
    if (cc_convex_edge_ridges(a, b, tol, r, &n, &sep)) cc_convex_take(a, b, tol, &n, &sep, r);
    /* A deep overlap takes the sharper normal only where it separates
     * more: its optima are the multi-start climb's, which a step allowed
     * to lose tol could leave for a saddle. The climb can stall in a
     * narrow valley of sep, where each step gains less than rounding of
     * the pair's coordinates resolves (a small capsule at the centre of a
     * long ellipsoid stopped on the ellipsoid's thin axis, 4 cm too deep
     * and 3 degrees off); Newton's method walks there on the gradient, a
     * few rounds while they gain (each starts its Jacobian afresh). */
    int deep = r->distance < -CC_CONVEX_DEEP * cc_minf(a->extent, b->extent);
    CC_NO_UNROLL
    for (int round = 0; round < (deep ? CC_CONVEX_DEEP_SHARPEN_ROUNDS : 1); ++round) {
        float before = r->distance;
        cc_convex_sharpen(a, b, tol, deep, &r->normal, &r->distance, r);
        if (!(r->distance > before)) break;
    }
    cc_convex_witness_exit(a, b, tol, r);
    return r->distance <= limit;
}

#endif
