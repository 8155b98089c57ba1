/* Multi-point manifolds from two supporting features (convex/feature.h).
 *
 * Both features are projected onto the contact plane (perpendicular to the
 * normal) and intersected there: polygon against polygon by Sutherland-
 * Hodgman clipping, a segment against a polygon by clipping its parameter
 * range, two parallel segments by overlapping them. Every 2-D point of the
 * intersection is lifted back along the normal onto each feature, which
 * gives a point on each surface and their exact distance. Points beyond the
 * threshold are dropped, and at most four well spread ones are kept: the
 * deepest, the farthest from it, the one spanning the largest triangle with
 * those two, and the one adding the most area to that triangle. When the
 * features are tilted against the normal, the exact deepest point found by
 * GJK/MPR is deeper than every clipped vertex and joins as a fifth point
 * (or starts the selection where the pair's table allows only four). */
#ifndef CC_KERNELS_CONVEX_MANIFOLD_H
#define CC_KERNELS_CONVEX_MANIFOLD_H

#include "kernels/convex/feature.h"

#define CC_CLIP_MAX (2 * CC_FEATURE_MAX)

/* A candidate contact: the points on A and B and their distance along the
 * normal, plus its 2-D position in the contact plane for the selection. */
typedef struct cc_candidates {
    int count;
    cc_vec3 a[CC_CLIP_MAX], b[CC_CLIP_MAX];
    float u[CC_CLIP_MAX], v[CC_CLIP_MAX];
    float distance[CC_CLIP_MAX];
} cc_candidates;

/* Contact plane: origin, normal and two tangents. */
typedef struct cc_contact_plane {
    cc_vec3 o, n, t1, t2;
} cc_contact_plane;

CC_HD cc_contact_plane cc_contact_plane_of(cc_vec3 origin, cc_vec3 n)
{
    cc_contact_plane p;
    p.o = origin;
    p.n = n;
    p.t1 = cc_v3_any_perpendicular(n);
    p.t2 = cc_v3_cross(n, p.t1);
    return p;
}

CC_HD void cc_plane_project(const cc_contact_plane* cp, cc_vec3 x, float* u, float* v)
{
    cc_vec3 r = cc_v3_sub(x, cp->o);
    *u = cc_v3_dot(r, cp->t1);
    *v = cc_v3_dot(r, cp->t2);
}

/* Point of feature f on the line through 2-D point (u, v) along the normal.
 * Returns 0 when f is parallel to the normal there (no unique point). */
CC_HD int cc_feature_lift(const cc_feature* f, const cc_contact_plane* cp, float u, float v, cc_vec3* out)
{
    cc_vec3 x = cc_v3_add(cp->o, cc_v3_add(cc_v3_scale(cp->t1, u), cc_v3_scale(cp->t2, v)));
    if (f->count >= 3) {
        float dn = cc_v3_dot(f->normal, cp->n);
        if (!(fabsf(dn) > 1.0e-3f)) return 0;
        float lambda = cc_v3_dot(f->normal, cc_v3_sub(f->p[0], x)) / dn;
        *out = cc_v3_madd(x, cp->n, lambda);
        return 1;
    }
    if (f->count == 2) {
        float u0, v0, u1, v1;
        cc_plane_project(cp, f->p[0], &u0, &v0);
        cc_plane_project(cp, f->p[1], &u1, &v1);
        float du = u1 - u0, dv = v1 - v0, len = du * du + dv * dv;
        if (!(len > 0.0f)) return 0;
        float t = cc_clampf(((u - u0) * du + (v - v0) * dv) / len, 0.0f, 1.0f);
        *out = cc_v3_add(f->p[0], cc_v3_scale(cc_v3_sub(f->p[1], f->p[0]), t));
        return 1;
    }
    *out = f->p[0];
    return 1;
}

CC_HD float cc_cross2(float ax, float ay, float bx, float by) { return ax * by - ay * bx; }

/* Projects a feature; returns its signed area's sign so that polygons can
 * be put counter-clockwise in the plane. */
CC_HD void cc_feature_project(const cc_feature* f, const cc_contact_plane* cp, float* u, float* v)
{
    for (int i = 0; i < f->count; ++i) cc_plane_project(cp, f->p[i], &u[i], &v[i]);
    if (f->count < 3) return;
    float area = 0.0f;
    for (int i = 0; i < f->count; ++i) {
        int j = i + 1 == f->count ? 0 : i + 1;
        area += cc_cross2(u[i], v[i], u[j], v[j]);
    }
    if (area < 0.0f) { /* reverse in place */
        for (int i = 0, j = f->count - 1; i < j; ++i, --j) {
            float tu = u[i], tv = v[i];
            u[i] = u[j];
            v[i] = v[j];
            u[j] = tu;
            v[j] = tv;
        }
    }
}

/* Clips polygon (su, sv) by the counter-clockwise convex polygon (cu, cv).
 * Returns the vertex count written to (ou, ov). */
CC_HD int cc_clip_polygon(const float* su, const float* sv, int ns, const float* cu, const float* cv, int nc,
                          float* ou, float* ov)
{
    float bu[2][CC_CLIP_MAX], bv[2][CC_CLIP_MAX];
    int n = ns;
    for (int i = 0; i < n; ++i) {
        bu[0][i] = su[i];
        bv[0][i] = sv[i];
    }
    int cur = 0;
    for (int e = 0; e < nc && n > 0; ++e) {
        int e1 = e + 1 == nc ? 0 : e + 1;
        float ex = cu[e1] - cu[e], ey = cv[e1] - cv[e];
        int m = 0, nxt = 1 - cur;
        for (int i = 0; i < n; ++i) {
            int j = i + 1 == n ? 0 : i + 1;
            float pu = bu[cur][i], pv = bv[cur][i], qu = bu[cur][j], qv = bv[cur][j];
            float dp = cc_cross2(ex, ey, pu - cu[e], pv - cv[e]);
            float dq = cc_cross2(ex, ey, qu - cu[e], qv - cv[e]);
            if (dp >= 0.0f && m < CC_CLIP_MAX) {
                bu[nxt][m] = pu;
                bv[nxt][m++] = pv;
            }
            if ((dp >= 0.0f) != (dq >= 0.0f) && m < CC_CLIP_MAX) {
                float t = dp / (dp - dq);
                bu[nxt][m] = pu + t * (qu - pu);
                bv[nxt][m++] = pv + t * (qv - pv);
            }
        }
        n = m;
        cur = nxt;
    }
    for (int i = 0; i < n; ++i) {
        ou[i] = bu[cur][i];
        ov[i] = bv[cur][i];
    }
    return n;
}

/* Clips the segment p0 + t (p1 - p0), t in [0, 1], by a counter-clockwise
 * convex polygon. Returns 0 when nothing is left. */
CC_HD int cc_clip_segment(float u0, float v0, float u1, float v1, const float* cu, const float* cv, int nc,
                          float* t0, float* t1)
{
    float lo = 0.0f, hi = 1.0f;
    for (int e = 0; e < nc; ++e) {
        int e1 = e + 1 == nc ? 0 : e + 1;
        float ex = cu[e1] - cu[e], ey = cv[e1] - cv[e];
        float d0 = cc_cross2(ex, ey, u0 - cu[e], v0 - cv[e]);
        float d1 = cc_cross2(ex, ey, u1 - cu[e], v1 - cv[e]);
        if (d0 < 0.0f && d1 < 0.0f) return 0;
        if (d0 < 0.0f) lo = cc_maxf(lo, d0 / (d0 - d1));
        else if (d1 < 0.0f) hi = cc_minf(hi, d0 / (d0 - d1));
    }
    *t0 = lo;
    *t1 = hi;
    return lo <= hi;
}

/* The point of feature f nearest to 2-D point (u, v) when seen along the
 * normal, lifted onto f: on a segment the nearest point of the projected
 * segment, on a polygon the point itself when it falls inside and else
 * the nearest point of its boundary. Always a point of f. */
CC_HD cc_vec3 cc_feature_lift_nearest(const cc_feature* f, const cc_contact_plane* cp, float u, float v)
{
    cc_vec3 out = f->p[0];
    if (f->count < 3) {
        cc_feature_lift(f, cp, u, v, &out);
        return out;
    }
    float fu[CC_FEATURE_MAX], fv[CC_FEATURE_MAX];
    cc_feature_project(f, cp, fu, fv);
    int inside = 1;
    float best = 3.0e38f;
    int best_e = 0;
    float best_t = 0.0f;
    for (int e = 0; e < f->count; ++e) {
        int e1 = e + 1 == f->count ? 0 : e + 1;
        float eu = fu[e1] - fu[e], ev = fv[e1] - fv[e], len = eu * eu + ev * ev;
        if (cc_cross2(eu, ev, u - fu[e], v - fv[e]) < 0.0f) inside = 0;
        float t = len > 0.0f ? cc_clampf(((u - fu[e]) * eu + (v - fv[e]) * ev) / len, 0.0f, 1.0f) : 0.0f;
        float du = fu[e] + t * eu - u, dv = fv[e] + t * ev - v;
        if (du * du + dv * dv < best) best = du * du + dv * dv, best_e = e, best_t = t;
    }
    if (inside && cc_feature_lift(f, cp, u, v, &out)) return out;
    /* The boundary point, lifted by interpolating its edge's ends (the 2-D
     * projection may have reversed the vertex order: index by the feature). */
    int e1 = best_e + 1 == f->count ? 0 : best_e + 1;
    float mu = fu[best_e] + best_t * (fu[e1] - fu[best_e]), mv = fv[best_e] + best_t * (fv[e1] - fv[best_e]);
    float nearest = 3.0e38f;
    for (int i = 0; i < f->count; ++i) {
        int j = i + 1 == f->count ? 0 : i + 1;
        float pu0, pv0, pu1, pv1;
        cc_plane_project(cp, f->p[i], &pu0, &pv0);
        cc_plane_project(cp, f->p[j], &pu1, &pv1);
        float eu = pu1 - pu0, ev = pv1 - pv0, len = eu * eu + ev * ev;
        float t = len > 0.0f ? cc_clampf(((mu - pu0) * eu + (mv - pv0) * ev) / len, 0.0f, 1.0f) : 0.0f;
        float du = pu0 + t * eu - mu, dv = pv0 + t * ev - mv;
        if (du * du + dv * dv < nearest) {
            nearest = du * du + dv * dv;
            out = cc_v3_add(f->p[i], cc_v3_scale(cc_v3_sub(f->p[j], f->p[i]), t));
        }
    }
    return out;
}

/* 2-D points where the projections of features a and b overlap. */
CC_HD_CALL int cc_feature_overlap(const cc_feature* fa, const cc_feature* fb, const cc_contact_plane* cp, float* ou,
                             float* ov)
{
    float au[CC_FEATURE_MAX], av[CC_FEATURE_MAX], bu[CC_FEATURE_MAX], bv[CC_FEATURE_MAX];
    cc_feature_project(fa, cp, au, av);
    cc_feature_project(fb, cp, bu, bv);
    if (fa->count >= 3 && fb->count >= 3) return cc_clip_polygon(bu, bv, fb->count, au, av, fa->count, ou, ov);
    if (fa->count == 2 && fb->count == 2) {
        /* Parallel segments overlap on an interval; crossing ones meet at
         * one point, which the witness already is. */
        float du = au[1] - au[0], dv = av[1] - av[0], eu = bu[1] - bu[0], ev = bv[1] - bv[0];
        float la = sqrtf(du * du + dv * dv), lb = sqrtf(eu * eu + ev * ev);
        if (!(la > 0.0f) || !(lb > 0.0f) || fabsf(cc_cross2(du, dv, eu, ev)) > CC_FEATURE_SIN * la * lb) return 0;
        float s0 = ((bu[0] - au[0]) * du + (bv[0] - av[0]) * dv) / (la * la);
        float s1 = ((bu[1] - au[0]) * du + (bv[1] - av[0]) * dv) / (la * la);
        float lo = cc_maxf(0.0f, cc_minf(s0, s1)), hi = cc_minf(1.0f, cc_maxf(s0, s1));
        if (lo > hi) return 0;
        /* Within the angle the two lines still drift apart sideways: only
         * where b's line passes within a thousandth of the shorter segment
         * of a's do the two face each other along the normal (a point of
         * one lifted onto the other beyond that is no pair of touching
         * points). w(s): b's line's offset from a's at a's parameter s. */
        if (s1 != s0) {
            float w0 = cc_cross2(du, dv, bu[0] - au[0], bv[0] - av[0]) / la;
            float w1 = cc_cross2(du, dv, bu[1] - au[0], bv[1] - av[0]) / la;
            float slope = (w1 - w0) / (s1 - s0), room = CC_FEATURE_DRIFT * cc_minf(la, lb);
            float w_lo = w0 + slope * (lo - s0), w_hi = w0 + slope * (hi - s0);
            if (fabsf(w_lo) > room || fabsf(w_hi) > room) {
                if (!(slope != 0.0f)) return 0;
                /* The parameters where w = -room and w = +room. */
                float t0 = s0 + (-room - w0) / slope, t1 = s0 + (room - w0) / slope;
                lo = cc_maxf(lo, cc_minf(t0, t1));
                hi = cc_minf(hi, cc_maxf(t0, t1));
                if (!(lo <= hi)) return 0;
            }
        }
        ou[0] = au[0] + lo * du;
        ov[0] = av[0] + lo * dv;
        ou[1] = au[0] + hi * du;
        ov[1] = av[0] + hi * dv;
        return 2;
    }
    if (fa->count + fb->count >= 5 && fa->count >= 2 && fb->count >= 2) {
        /* A segment against a polygon. */
        int seg_is_a = fa->count == 2;
        const float* su = seg_is_a ? au : bu;
        const float* sv = seg_is_a ? av : bv;
        float t0, t1;
        if (!cc_clip_segment(su[0], sv[0], su[1], sv[1], seg_is_a ? bu : au, seg_is_a ? bv : av,
                             seg_is_a ? fb->count : fa->count, &t0, &t1))
            return 0;
        ou[0] = su[0] + t0 * (su[1] - su[0]);
        ov[0] = sv[0] + t0 * (sv[1] - sv[0]);
        ou[1] = su[0] + t1 * (su[1] - su[0]);
        ov[1] = sv[0] + t1 * (sv[1] - sv[0]);
        return 2;
    }
    return 0; /* a point feature: the witness is the contact */
}

/* Appends a candidate when within the threshold. */
CC_HD void cc_candidates_add(cc_candidates* c, const cc_contact_plane* cp, cc_vec3 pa, cc_vec3 pb, float threshold)
{
    float d = cc_v3_dot(cc_v3_sub(pb, pa), cp->n);
    if (c->count >= CC_CLIP_MAX || !(d <= threshold)) return;
    int i = c->count++;
    c->a[i] = pa;
    c->b[i] = pb;
    c->distance[i] = d;
    cc_vec3 mid = cc_v3_scale(cc_v3_add(pa, pb), 0.5f);
    cc_plane_project(cp, mid, &c->u[i], &c->v[i]);
}

CC_HD float cc_tri_area2(const cc_candidates* c, int i, int j, int k)
{
    return cc_cross2(c->u[j] - c->u[i], c->v[j] - c->v[i], c->u[k] - c->u[i], c->v[k] - c->v[i]);
}

/* Picks up to `max` spread candidates, `first` (or the deepest when -1)
 * first. Writes their indices; returns how many. */
CC_HD_CALL int cc_candidates_select(const cc_candidates* c, int first, int max, int* pick)
{
    if (c->count == 0 || max <= 0) return 0;
    int i0 = first;
    if (i0 < 0) {
        i0 = 0;
        for (int i = 1; i < c->count; ++i)
            if (c->distance[i] < c->distance[i0]) i0 = i;
    }
    pick[0] = i0;
    if (max == 1 || c->count == 1) return 1;
    int i1 = -1;
    float far = 0.0f;
    for (int i = 0; i < c->count; ++i) {
        float du = c->u[i] - c->u[i0], dv = c->v[i] - c->v[i0], d2 = du * du + dv * dv;
        if (d2 > far) {
            far = d2;
            i1 = i;
        }
    }
    if (i1 < 0 || !(far > 1.0e-12f)) return 1;
    pick[1] = i1;
    if (max == 2) return 2;
    int i2 = -1;
    float big = 0.0f;
    for (int i = 0; i < c->count; ++i) {
        float a = fabsf(cc_tri_area2(c, i0, i1, i));
        if (a > big) {
            big = a;
            i2 = i;
        }
    }
    if (i2 < 0 || !(big > 1.0e-6f * far)) return 2;
    pick[2] = i2;
    if (max == 3) return 3;
    /* Orient the triangle counter-clockwise, then take the point outside
     * one of its edges by the largest area. */
    int t[3] = {i0, i1, i2};
    if (cc_tri_area2(c, i0, i1, i2) < 0.0f) {
        t[1] = i2;
        t[2] = i1;
    }
    int i3 = -1;
    float gain = 0.0f;
    for (int i = 0; i < c->count; ++i) {
        for (int e = 0; e < 3; ++e) {
            float a = -cc_tri_area2(c, t[e], t[(e + 1) % 3], i);
            if (a > gain) {
                gain = a;
                i3 = i;
            }
        }
    }
    if (i3 < 0 || !(gain > 1.0e-6f * far)) return 3;
    pick[3] = i3;
    return 4;
}

#endif
