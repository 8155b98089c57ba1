/* MPR (Minkowski portal refinement): penetration normal and depth of two
 * overlapping convex cores.
 *
 * D = B - A holds the origin when the cores overlap. MPR casts a ray from a
 * point v0 inside D (the difference of the shapes' centres) through the
 * origin, finds a portal triangle of support points that the ray crosses,
 * and refines the portal towards D's boundary. The portal's outward normal
 * n at the end gives the penetration direction (B leaves A along -n, so the
 * contact normal A -> B is -n) and its distance from the origin the depth
 * along that ray. That depth is exact for the direction found but the
 * direction is the ray's, not always the minimum-depth one; the caller
 * refines the direction afterwards (convex/query.h).
 *
 * `inflate` grows D by a ball of that radius (both cores swept by half of
 * it). The caller runs MPR on the inflated cores for every pair GJK finds
 * closer than `inflate`, so touching and barely separated pairs take the
 * same path step after step instead of flipping between GJK and MPR. */
#ifndef CC_KERNELS_CONVEX_MPR_H
#define CC_KERNELS_CONVEX_MPR_H

#include "kernels/convex/gjk.h"

#define CC_MPR_MAX_DISCOVERY 32
#define CC_MPR_MAX_REFINEMENT 64

typedef struct cc_mpr_result {
    int hit;        /* 1 when the inflated cores overlap */
    cc_vec3 normal; /* unit contact normal A -> B */
    float depth;    /* penetration of the inflated cores along -normal [m] */
    int iterations;
    int has_tetra;     /* 1 when tetra holds the final portal and v0 */
    cc_vec3 tetra[4];  /* v0 (inside D) and the portal: a tetrahedron around the origin */
} cc_mpr_result;

CC_HD cc_simplex_vertex cc_mpr_support(const cc_convex* a, const cc_convex* b, cc_vec3 d, float inflate)
{
    cc_simplex_vertex v = cc_simplex_support(a, b, cc_v3(0.0f, 0.0f, 0.0f), d);
    float len = cc_v3_length(d);
    if (len > 0.0f) v.w = cc_v3_madd(v.w, d, inflate / len);
    return v;
}

CC_HD void cc_mpr_finish(cc_mpr_result* r, cc_vec3 n, float depth)
{
    cc_vec3 u = cc_v3_normalize(n);
    if (!(cc_v3_length_sq(u) > 0.5f)) u = cc_v3(0.0f, 0.0f, 1.0f);
    r->hit = 1;
    r->normal = cc_v3_neg(u);
    r->depth = depth;
}

/* `tolerance`: portal convergence distance [m]. */
CC_HD_CALL void cc_mpr(const cc_convex* a, const cc_convex* b, float inflate, float tolerance, cc_mpr_result* r)
{
    r->hit = 0;
    r->iterations = 0;
    r->has_tetra = 0;
    cc_vec3 v0 = cc_v3_sub(cc_convex_center(b), cc_convex_center(a));
    /* Coincident centres: any interior point near them serves. */
    if (!(cc_v3_length_sq(v0) > tolerance * tolerance)) v0 = cc_v3(tolerance * 10.0f, 0.0f, 0.0f);
    cc_vec3 n = cc_v3_neg(v0);
    cc_simplex_vertex v1 = cc_mpr_support(a, b, n, inflate);
    if (cc_v3_dot(v1.w, n) <= 0.0f) return;
    n = cc_v3_cross(v1.w, v0);
    if (!(cc_v3_length_sq(n) > 1.0e-12f * cc_v3_length_sq(v1.w) * cc_v3_length_sq(v0))) {
        /* v0, the origin and v1 are collinear: the ray meets D's boundary at v1. */
        cc_vec3 u = cc_v3_normalize(cc_v3_neg(v0));
        cc_mpr_finish(r, u, cc_v3_dot(v1.w, u));
        return;
    }
    cc_simplex_vertex v2 = cc_mpr_support(a, b, n, inflate);
    if (cc_v3_dot(v2.w, n) <= 0.0f) return;
    n = cc_v3_cross(cc_v3_sub(v1.w, v0), cc_v3_sub(v2.w, v0));
    if (cc_v3_dot(n, v0) > 0.0f) {
        cc_simplex_vertex t = v1;
        v1 = v2;
        v2 = t;
        n = cc_v3_neg(n);
    }
    cc_simplex_vertex v3;
    int found = 0;
    for (int it = 0; it < CC_MPR_MAX_DISCOVERY; ++it) {
        r->iterations++;
        v3 = cc_mpr_support(a, b, n, inflate);
        if (cc_v3_dot(v3.w, n) <= 0.0f) return;
        if (cc_v3_dot(cc_v3_cross(v1.w, v3.w), v0) < 0.0f) {
            v2 = v3;
            n = cc_v3_cross(cc_v3_sub(v1.w, v0), cc_v3_sub(v3.w, v0));
            continue;
        }
        if (cc_v3_dot(cc_v3_cross(v3.w, v2.w), v0) < 0.0f) {
            v1 = v3;
            n = cc_v3_cross(cc_v3_sub(v3.w, v0), cc_v3_sub(v2.w, v0));
            continue;
        }
        found = 1;
        break;
    }
    if (!found) {
        /* No portal in the cap: report the best guess so far, never garbage. */
        cc_vec3 u = cc_v3_normalize(n);
        if (cc_v3_dot(v3.w, u) > 0.0f) cc_mpr_finish(r, u, cc_v3_dot(v3.w, u));
        return;
    }
    int hit = 0;
    cc_vec3 u = cc_v3_normalize(n);
    for (int it = 0; it < CC_MPR_MAX_REFINEMENT; ++it) {
        r->iterations++;
        cc_vec3 pn = cc_v3_cross(cc_v3_sub(v2.w, v1.w), cc_v3_sub(v3.w, v1.w));
        cc_vec3 un = cc_v3_normalize(pn);
        if (!(cc_v3_length_sq(un) > 0.5f)) break; /* flat portal: keep the last normal */
        u = un;
        if (cc_v3_dot(u, v1.w) >= 0.0f) hit = 1;
        cc_simplex_vertex v4 = cc_mpr_support(a, b, u, inflate);
        float reach = cc_v3_dot(v4.w, u);
        if (!hit && reach <= 0.0f) return;
        if (cc_v3_dot(cc_v3_sub(v4.w, v3.w), u) <= tolerance || reach <= 0.0f) break;
        /* Replace the portal vertex on the far side of the plane (v4, v0, origin). */
        cc_vec3 t = cc_v3_cross(v4.w, v0);
        if (cc_v3_dot(v1.w, t) > 0.0f) {
            if (cc_v3_dot(v2.w, t) > 0.0f) v1 = v4;
            else v3 = v4;
        } else {
            if (cc_v3_dot(v3.w, t) > 0.0f) v2 = v4;
            else v1 = v4;
        }
    }
    if (!hit && !(cc_v3_dot(u, v1.w) >= 0.0f)) return;
    cc_mpr_finish(r, u, cc_v3_dot(u, v1.w));
    r->has_tetra = 1;
    r->tetra[0] = v0;
    r->tetra[1] = v1.w;
    r->tetra[2] = v2.w;
    r->tetra[3] = v3.w;
}

#endif
