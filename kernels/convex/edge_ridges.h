/* The ridges about a face's edges that a supporting segment crosses. */
#ifndef CC_KERNELS_CONVEX_EDGE_RIDGES_H
#define CC_KERNELS_CONVEX_EDGE_RIDGES_H

#include "kernels/convex/query.h"

/* A segment lying across a face's edge (a cylinder's side line across
 * the crease of a hull's roof, a little tilted): the optimum turns about
 * that edge, not about the segment, and an answer on the face's normal
 * leaves the witness points apart across it. The ridge about each edge of
 * the face that the segment crosses, seen along n, is searched. Moves n
 * (returns 1) when one separates more. */
CC_HD_CALL int cc_convex_edge_ridges(const cc_convex* a, const cc_convex* b, float tol, cc_convex_result* r, cc_vec3* n_io,
                                     float* sep_io)
{
    const cc_feature* fa = &r->feature_a;
    const cc_feature* fb = &r->feature_b;
    const cc_feature* seg = fa->count == 2 && fb->count >= 3 ? fa : (fb->count == 2 && fa->count >= 3 ? fb : 0);
    if (!seg) return 0;
    const cc_feature* poly = seg == fa ? fb : fa;
    /* A face of a box or hull: a round cap's polygon is only inscribed. */
    int poly_type = (poly == fa ? a : b)->type;
    if (poly_type != CC_SHAPE_BOX && poly_type != CC_SHAPE_CONVEX_HULL) return 0;
    cc_vec3 n = *n_io;
    if (!(cc_v3_length(cc_v3_reject(cc_v3_sub(r->point_b, r->point_a), n)) > 10.0f * tol)) return 0;
    cc_contact_plane cp = cc_contact_plane_of(poly->p[0], n);
    float su0, sv0, su1, sv1;
    cc_plane_project(&cp, seg->p[0], &su0, &sv0);
    cc_plane_project(&cp, seg->p[1], &su1, &sv1);
    int moved = 0;
    CC_NO_UNROLL
    for (int i = 0; i < poly->count; ++i) {
        int j = i + 1 == poly->count ? 0 : i + 1;
        float u0, v0, u1, v1;
        cc_plane_project(&cp, poly->p[i], &u0, &v0);
        cc_plane_project(&cp, poly->p[j], &u1, &v1);
        /* Each one's ends on either side of the other's line. */
        float d0 = cc_cross2(u1 - u0, v1 - v0, su0 - u0, sv0 - v0), d1 = cc_cross2(u1 - u0, v1 - v0, su1 - u0, sv1 - v0);
        float d2 = cc_cross2(su1 - su0, sv1 - sv0, u0 - su0, v0 - sv0), d3 = cc_cross2(su1 - su0, sv1 - sv0, u1 - su0, v1 - sv0);
        if ((d0 > 0.0f) == (d1 > 0.0f) || (d2 > 0.0f) == (d3 > 0.0f)) continue;
        cc_vec3 e = cc_v3_normalize(cc_v3_sub(poly->p[j], poly->p[i]));
        cc_ridge g;
        g.cone = 0;
        g.c = a;
        g.sign = 1.0f;
        g.rho = g.tau = cc_v3(0.0f, 0.0f, 0.0f);
        g.u = cc_v3_normalize(cc_v3_reject(n, e));
        g.w = cc_v3_cross(e, g.u);
        if (!(cc_v3_length_sq(g.u) > 0.5f) || !(cc_v3_length_sq(e) > 0.5f)) continue;
        moved |= cc_convex_ridge_search(a, b, a->extent + b->extent, tol, &g, n_io, sep_io, &r->iterations);
    }
    return moved;
}

#endif
