/* Signed distance, normal and witness points of two convex cores: GJK for
 * separated cores, MPR for touching and overlapping ones, then a direction
 * refinement that makes the penetration depth exact.
 *
 * Path choice, with skin = CC_CONVEX_SKIN * (smaller extent):
 *   - GJK first. Distance above the skin: that is the answer (exact).
 *   - Otherwise MPR on the cores inflated by the skin. Resting pairs sit
 *     near distance 0, well inside the inflated band, so they take the MPR
 *     path every step and never flip between algorithms; at the band's edge
 *     both paths give the same distance.
 *   - MPR's direction is the ray's, not yet the minimum-depth one. The
 *     separation along a unit n, sep(n) = min over B of x.n - max over A of
 *     x.n, is at most the signed distance for every n and equal to it at the
 *     contact normal. Moving B along n until sep(n) equals the skin and
 *     running GJK on that separated pair returns a direction n' with
 *     sep(n') >= sep(n) (the shifted pair's GJK maximises sep plus a
 *     multiple of n.n'), so repeating it climbs to the exact normal; the
 *     steps stop when sep stops growing. */
#ifndef CC_KERNELS_CONVEX_QUERY_H
#define CC_KERNELS_CONVEX_QUERY_H

#include "mpr.h"

/* Skin of the GJK/MPR switch, relative to the smaller extent. */
#define CC_CONVEX_SKIN 1.0e-3f
/* Accuracy of GJK and MPR, relative to the pair's size. */
#define CC_CONVEX_TOLERANCE 1.0e-6f
/* Portal convergence of MPR, relative to the pair's size: loose, since the
 * refinement below corrects the direction and the depth follows from it. */
#define CC_CONVEX_MPR_TOLERANCE 1.0e-4f
/* Direction refinement after MPR: at most this many steps, each lifting B
 * to a separation of CC_CONVEX_LIFT * (smaller extent) along the current
 * direction and running GJK with a looser tolerance (the separation itself
 * is evaluated exactly from support points, and it is flat at the optimum,
 * so direction errors enter the depth only squared). */
#define CC_CONVEX_REFINE_STEPS 6
#define CC_CONVEX_LIFT 0.25f
#define CC_CONVEX_REFINE_TOLERANCE 1.0e-5f
/* 1 - cos of a turn small enough to stop refining (about 0.03 degrees). */
#define CC_CONVEX_REFINE_TURN 1.0e-7f

#define CC_CONVEX_PATH_GJK 0
#define CC_CONVEX_PATH_MPR 1

typedef struct cc_convex_result {
    float distance;  /* signed core distance, negative when overlapping [m] */
    cc_vec3 normal;  /* unit, A -> B */
    cc_vec3 point_a; /* witness on A's core, pair coordinates */
    cc_vec3 point_b; /* witness on B's core */
    int path;        /* CC_CONVEX_PATH_* */
    int iterations;  /* GJK and MPR iterations, all calls together */
} cc_convex_result;

/* Separation of the cores along unit n (positive: apart). */
CC_HD float cc_convex_separation(const cc_convex* a, const cc_convex* b, cc_vec3 n, cc_vec3* pa, cc_vec3* pb)
{
    *pa = cc_support(a, n);
    *pb = cc_support(b, cc_v3_neg(n));
    return cc_v3_dot(cc_v3_sub(*pb, *pa), n);
}

/* Returns 0 when the cores are farther apart than `limit`; otherwise 1 and
 * the result. Every exit leaves a finite unit normal. */
CC_HD int cc_convex_query(const cc_convex* a, const cc_convex* b, float limit, cc_convex_result* r)
{
    float scale = a->extent + b->extent;
    float tol = CC_CONVEX_TOLERANCE * scale;
    float skin = cc_maxf(CC_CONVEX_SKIN * cc_minf(a->extent, b->extent), 8.0f * tol);
    if (!(tol > 0.0f)) { /* two point cores at most: fixed, tiny tolerances */
        tol = 1.0e-9f;
        skin = 8.0e-9f;
    }
    cc_vec3 zero = cc_v3(0.0f, 0.0f, 0.0f);
    cc_gjk_result g;
    cc_gjk(a, b, zero, zero, limit, skin, tol, &g);
    r->iterations = g.iterations;
    if (g.status == CC_GJK_BEYOND) return 0;
    if (g.status == CC_GJK_SEPARATED && g.distance > skin) {
        if (g.distance > limit) return 0;
        r->distance = g.distance;
        r->normal = g.normal;
        r->point_a = g.point_a;
        r->point_b = g.point_b;
        r->path = CC_CONVEX_PATH_GJK;
        return 1;
    }
    cc_mpr_result m;
    cc_mpr(a, b, skin, CC_CONVEX_MPR_TOLERANCE * scale, &m);
    r->iterations += m.iterations;
    r->path = CC_CONVEX_PATH_MPR;
    cc_vec3 n = m.hit ? m.normal : (g.status == CC_GJK_SEPARATED ? g.normal : cc_v3(0.0f, 0.0f, 1.0f));
    cc_vec3 pa, pb;
    float sep = cc_convex_separation(a, b, n, &pa, &pb);
    float lift = cc_maxf(CC_CONVEX_LIFT * cc_minf(a->extent, b->extent), skin);
    for (int step = 0; step < CC_CONVEX_REFINE_STEPS; ++step) {
        cc_vec3 shift = cc_v3_scale(n, lift - sep);
        cc_gjk_result s;
        cc_gjk(a, b, shift, n, 3.0e38f, tol, CC_CONVEX_REFINE_TOLERANCE * scale, &s);
        r->iterations += s.iterations;
        if (s.status != CC_GJK_SEPARATED) break;
        cc_vec3 qa, qb;
        float sep_new = cc_convex_separation(a, b, s.normal, &qa, &qb);
        if (sep_new >= sep - tol) {
            /* Closest points of the lifted pair: on flat features they sit
             * where the features face each other, not at an arbitrary
             * support vertex. */
            pa = s.point_a;
            pb = cc_v3_sub(s.point_b, shift);
        }
        if (!(sep_new > sep + 0.1f * tol)) break;
        /* The step is a fraction of the way on curved surfaces: extend it
         * along the same arc while the separation keeps growing (two
         * support points per try, far cheaper than another GJK). */
        cc_vec3 step_dir = cc_v3_sub(s.normal, n), best_n = s.normal;
        float best = sep_new;
        for (float t = 2.0f; t <= 64.0f; t *= 2.0f) {
            cc_vec3 cand = cc_v3_normalize(cc_v3_madd(n, step_dir, t));
            float sc = cc_convex_separation(a, b, cand, &qa, &qb);
            if (!(sc > best)) break;
            best = sc;
            best_n = cand;
        }
        float turn = 1.0f - cc_v3_dot(n, best_n);
        n = best_n;
        sep = best;
        if (turn < CC_CONVEX_REFINE_TURN) break;
    }
    if (sep > limit) return 0;
    r->distance = sep;
    r->normal = n;
    r->point_a = pa;
    r->point_b = pb;
    return 1;
}

#endif
