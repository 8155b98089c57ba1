/* Narrow phase for convex pairs without an analytic routine: cylinders,
 * cones, ellipsoids and convex hulls against each other and against
 * spheres, capsules, boxes and planes.
 *
 * Convex against convex: GJK/MPR (convex/query.h) for the deepest point and
 * the normal, then a manifold clipped from both shapes' supporting features
 * (convex/manifold.h). A plane against a convex shape: the shape's feature
 * facing the plane, each vertex measured against the plane, plus the
 * shape's exact support point. Per-pair counts never exceed
 * cc_convex_max_points, the reference's table. */
#ifndef CC_KERNELS_NARROWPHASE_CONVEX_H
#define CC_KERNELS_NARROWPHASE_CONVEX_H

#include "kernels/convex/manifold.h"
#include "kernels/convex/query_sharp.h"
#include "kernels/narrowphase/plane.h"

/* Depth by which the exact deepest point must beat the clipped points to
 * join the manifold, relative to the smaller shape's size. */
#define CC_WITNESS_MARGIN 1.0e-5f

/* Largest contact count of a pair (lower type first), from the reference
 * table: 1 with a sphere or an ellipsoid; 2 with a capsule, whose core is a
 * segment (a segment touches a convex solid along at most a segment: its
 * two ends); 4 for a box or cylinder against a plane; else 5. */
CC_HD int cc_convex_max_points(int ta, int tb)
{
    if (ta == CC_SHAPE_SPHERE || tb == CC_SHAPE_SPHERE || ta == CC_SHAPE_ELLIPSOID || tb == CC_SHAPE_ELLIPSOID)
        return 1;
    if (ta == CC_SHAPE_CAPSULE || tb == CC_SHAPE_CAPSULE) return 2;
    if (ta == CC_SHAPE_PLANE && (tb == CC_SHAPE_BOX || tb == CC_SHAPE_CYLINDER)) return 4;
    return 5;
}

/* Writes the picked candidates into the manifold, back in world coordinates. */
CC_HD void cc_manifold_from_candidates(const cc_candidates* c, const int* pick, int n, cc_vec3 origin,
                                       float threshold, cc_manifold* m)
{
    for (int i = 0; i < n; ++i) {
        int k = pick[i];
        cc_manifold_add_points(m, cc_v3_add(c->a[k], origin), cc_v3_add(c->b[k], origin), c->distance[k], threshold);
    }
}

/* Chooses the points from the candidates plus the exact deepest point
 * (witness): the witness leads when it is clearly deeper than every
 * candidate, as the fifth point where the table allows five, else as the
 * first of four. */
CC_HD void cc_manifold_select(cc_candidates* c, cc_vec3 wa, cc_vec3 wb, float witness_distance, float margin,
                              int max_points, cc_vec3 origin, float threshold, cc_manifold* m)
{
    float deepest_candidate = 3.0e38f;
    for (int i = 0; i < c->count; ++i) deepest_candidate = cc_minf(deepest_candidate, c->distance[i]);
    int witness_deeper = c->count == 0 || witness_distance < deepest_candidate - margin;
    int pick[5];
    int n;
    if (witness_deeper && c->count < CC_CLIP_MAX && max_points < 5) {
        int w = c->count++;
        c->a[w] = wa;
        c->b[w] = wb;
        c->distance[w] = witness_distance;
        /* 2-D position: same plane as the others (origin at the witness). */
        c->u[w] = 0.0f;
        c->v[w] = 0.0f;
        n = cc_candidates_select(c, w, max_points, pick);
        cc_manifold_from_candidates(c, pick, n, origin, threshold, m);
        return;
    }
    n = cc_candidates_select(c, -1, max_points < 4 ? max_points : 4, pick);
    cc_manifold_from_candidates(c, pick, n, origin, threshold, m);
    if (witness_deeper && max_points >= 5)
        cc_manifold_add_points(m, cc_v3_add(wa, origin), cc_v3_add(wb, origin), witness_distance, threshold);
}

/* Points of B (pair coordinates) a manifold may keep: those with
 * dot(n, pb - p) >= -tol. The triangle routes keep only a prism's front face. */
typedef struct cc_keep_side {
    cc_vec3 n, p;
    float tol;
} cc_keep_side;

CC_HD int cc_keep_side_holds(const cc_keep_side* k, cc_vec3 pb)
{
    return !k || cc_v3_dot(cc_v3_sub(pb, k->p), k->n) >= -k->tol;
}

/* The manifold of a convex query's answer: one point when either feature
 * is a point or the pair allows one, else both supporting features clipped
 * in the contact plane and a well-spread subset with the witness. With
 * `keep`, B-side points outside it are dropped (a dropped witness never
 * joins). Points are in pair coordinates relative to `origin`. */
CC_HD void cc_manifold_from_query(const cc_convex_result* r, const cc_convex* a, const cc_convex* b, int max_points,
                                  cc_vec3 origin, float threshold, const cc_keep_side* keep, cc_manifold* m)
{
    m->normal = r->normal;
    int witness_kept = cc_keep_side_holds(keep, r->point_b);
    cc_vec3 mid = cc_v3_scale(cc_v3_add(r->point_a, r->point_b), 0.5f);
    const cc_feature* fa = &r->feature_a;
    const cc_feature* fb = &r->feature_b;
    if (max_points == 1 || fa->count == 1 || fb->count == 1) {
        if (witness_kept)
            cc_manifold_add_points(m, cc_v3_add(r->point_a, origin), cc_v3_add(r->point_b, origin), r->distance,
                                   threshold);
        return;
    }
    /* The witness's overlap when the query computed one. */
    cc_contact_plane cp;
    float own_u[CC_CLIP_MAX], own_v[CC_CLIP_MAX];
    const float *ou = own_u, *ov = own_v;
    int k = r->overlap_count;
    if (k >= 0) {
        cp = r->overlap_plane;
        ou = r->overlap_u;
        ov = r->overlap_v;
    } else {
        cp = cc_contact_plane_of(mid, r->normal);
        k = cc_feature_overlap(fa, fb, &cp, own_u, own_v);
    }
    cc_candidates c;
    c.count = 0;
    for (int i = 0; i < k; ++i) {
        cc_vec3 pa, pb;
        if (cc_feature_lift(fa, &cp, ou[i], ov[i], &pa) && cc_feature_lift(fb, &cp, ou[i], ov[i], &pb) &&
            cc_keep_side_holds(keep, pb))
            cc_candidates_add(&c, &cp, pa, pb, threshold);
    }
    /* Relative to the smaller shape, whose own rim the witness refines (a
     * small cylinder's rim point between its polygon's corners on a large
     * face: a margin of the pair's size hid it), and never below rounding
     * of the pair's coordinates. */
    float margin = cc_maxf(CC_WITNESS_MARGIN * cc_minf(a->extent, b->extent), CC_CONVEX_ROUNDING * (a->extent + b->extent));
    /* A witness outside `keep` is made unreachable rather than removed. */
    cc_manifold_select(&c, r->point_a, r->point_b, witness_kept ? r->distance : 3.0e38f, margin, max_points, origin,
                       threshold, m);
}

CC_HD_CALL void cc_collide_convex(const cc_geom* ga, int ta, const cc_geom* gb, int tb, float threshold, cc_manifold* m)
{
    m->count = 0;
    cc_vec3 origin = ga->xf.p;
    cc_convex a = cc_convex_of(ga, ta, origin), b = cc_convex_of(gb, tb, origin);
    cc_convex_result r;
    if (!cc_convex_query_sharp(&a, &b, threshold, &r)) return;
    cc_manifold_from_query(&r, &a, &b, cc_convex_max_points(ta, tb), origin, threshold, (const cc_keep_side*)0, m);
}

/* Plane A against convex shape B. The plane's solid is the half-space
 * below it, restricted to its rectangle when finite (narrowphase/plane.h). */
CC_HD_CALL void cc_collide_plane_convex(const cc_geom* ga, const cc_geom* gb, int tb, float threshold, cc_manifold* m)
{
    float hx, hy;
    cc_plane_extent(ga, &hx, &hy);
    cc_frame pf = cc_frame_of(ga->xf);
    cc_vec3 n = pf.z;
    m->count = 0;
    m->normal = n;
    cc_vec3 origin = gb->xf.p;
    cc_convex b = cc_convex_of(gb, tb, origin);
    cc_vec3 plane_o = cc_v3_sub(pf.o, origin);
    cc_vec3 down = cc_v3_neg(n);
    cc_vec3 deep = cc_support(&b, down);
    float deep_h = cc_v3_dot(cc_v3_sub(deep, plane_o), n);
    if (!(deep_h <= threshold)) return;
    int max_points = cc_convex_max_points(CC_SHAPE_PLANE, tb);
    cc_vec3 deep_a = cc_v3_madd(deep, n, -deep_h);
    int deep_inside = cc_plane_in_footprint(cc_frame_point_in(&pf, cc_v3_add(deep_a, origin)), hx, hy);
    if (max_points == 1) {
        if (deep_inside) cc_manifold_add(m, cc_v3_add(cc_v3_madd(deep, n, -0.5f * deep_h), origin), deep_h, threshold);
        return;
    }
    cc_feature f;
    cc_convex_feature(&b, down, &f);
    cc_contact_plane cp = cc_contact_plane_of(deep, n);
    cc_candidates c;
    c.count = 0;
    for (int i = 0; i < f.count; ++i) {
        float h = cc_v3_dot(cc_v3_sub(f.p[i], plane_o), n);
        cc_vec3 pa = cc_v3_madd(f.p[i], n, -h);
        if (cc_plane_in_footprint(cc_frame_point_in(&pf, cc_v3_add(pa, origin)), hx, hy))
            cc_candidates_add(&c, &cp, pa, f.p[i], threshold);
    }
    if (!deep_inside && c.count == 0) return;
    float margin = CC_WITNESS_MARGIN * b.extent;
    if (!deep_inside) deep_h = 3.0e38f; /* never the witness: it is off the plane */
    cc_manifold_select(&c, deep_a, deep, deep_h, margin, max_points, origin, threshold, m);
}

#endif
