/* Box-box narrow phase.
 *
 * Separating-axis test (SAT) over the 15 candidate axes of two boxes: the 3
 * face normals of A, the 3 of B and the 9 cross products a_i x b_j of their
 * edge directions. For a box with half extents h and axes x_k, the radius of
 * its projection on a unit axis L is  r(L) = sum_k h_k |L . x_k|, so the
 * separation along L is
 *     s(L) = |L . (p_B - p_A)| - r_A(L) - r_B(L),
 * positive when L separates the boxes. These 15 directions are exactly the
 * face normals of the Minkowski difference B - A, so for overlapping boxes
 * the largest s (least penetration) is the exact minimum translation depth,
 * and for separated boxes every s is a lower bound of their distance.
 *
 * If some axis separates the boxes by more than the threshold there is no
 * contact. Otherwise the best face axis (reference face on its owner) is
 * preferred to the best edge axis unless the edge separates more by over the
 * rounding plus a small fraction of the smaller box (exact ties go to the
 * face), and the contacts come from one of:
 *   - face: the face of the other box most anti-parallel to the reference
 *     face is the incident face. Its quad is clipped by the reference face's
 *     four side planes (Sutherland-Hodgman, at most 8 vertices), points
 *     farther than the threshold are dropped and at most 4 well-spread ones
 *     kept. Each contact pairs an incident point with its projection on the
 *     reference plane. Exact when the deepest clipped point reaches the
 *     axis' separation (the incident box's support feature lies over the
 *     reference face), which is always so for the least-penetration axis.
 *   - edge: one contact between the closest points of the two support edges
 *     of the axis a_i x b_j; exact when both lie inside their edges.
 *   - vertex: separated boxes whose closest features are an edge or vertex
 *     of the Minkowski difference (vertex-vertex, vertex-edge, parallel
 *     edges) are farther apart than any SAT separation, and neither route
 *     above reaches that distance; they get one contact between the vertex
 *     closest to the other box and its closest point there.
 * The face route is tried first; when it is not exact (to the rounding for
 * separated boxes, whose gap can be far below the linear tolerance) the
 * edge route, then (separated boxes) the vertex route. Every contact pairs a point on A's
 * surface with a point on B's surface; for separated boxes their difference
 * lies along the normal, so no distance is below the true gap, and the
 * smallest one is that gap. For overlapping boxes the deepest contact is
 * the minimum translation depth (within the linear tolerance).
 *
 * Written once for C11 and CUDA C++: no recursion, fixed loops, small local
 * arrays, only + - * / sqrtf fabsf. */
#ifndef CC_KERNELS_NARROWPHASE_BOX_BOX_H
#define CC_KERNELS_NARROWPHASE_BOX_BOX_H

#include "kernels/narrowphase/manifold.h"

/* Edge axes with |a_i x b_j|^2 below this (edges within ~1e-3 rad of
 * parallel) are skipped: the float error of their direction grows like
 * 1e-7 / |a_i x b_j|, while the neighbouring face axes bound the same
 * separation within about (angle x edge length). */
#define CC_BB_PARALLEL_SQ 1.0e-6f
/* An edge axis within ~5.7 degrees of the chosen face normal (|cos| above
 * this) describes a contact at the rim of a face-face configuration, where
 * the face manifold (with the face normal) is kept if it is as deep as the
 * edge pair, while the overlap is shallower than CC_BB_FACE_LIKE_DEPTH of
 * the smaller box's size: resting contacts keep four points rather than flipping
 * to one, deeper ones report the exact edge normal. */
#define CC_BB_FACE_LIKE_COS 0.995f
#define CC_BB_FACE_LIKE_DEPTH 0.005f
/* Linear tolerance as a fraction of the pair's size (sum of half extents plus
 * centre offset): float rounding of the SAT separations is ~1e-7 of it. */
#define CC_BB_LINEAR_TOL 2.0e-6f
/* The rounding of a distance computed in one box's frame alone (about four
 * float ulps of the pair's size). Separated boxes settle which route
 * realises their distance with it: a gap can be far smaller than the
 * linear tolerance, and a route that is only within that tolerance would
 * report the gap a few micrometres too wide on a metre-sized pair. */
#define CC_BB_ROUNDING_TOL 5.0e-7f
/* How much deeper than an edge axis the face axis may be and still be
 * preferred, as a fraction of the smaller box's size (plus the rounding). */
#define CC_BB_FACE_PREFERENCE 5.0e-5f
/* Vertices of the incident quad after clipping by four side planes: each
 * plane adds at most one vertex to a convex polygon, 4 + 4. */
#define CC_BB_CLIP_MAX 8
/* Points per box-box manifold. */
#define CC_BB_MAX_POINTS 4

/* Both boxes expressed in A's frame, plus what the routes share. */
typedef struct cc_bb_pair {
    cc_vec3 pa, pb;   /* world centres [m] */
    cc_vec3 ax[3];    /* A's axes in world */
    cc_vec3 bx[3];    /* B's axes in world */
    float ha[3];      /* A's half extents [m] */
    float hb[3];      /* B's half extents [m] */
    float r[3][3];    /* r[i][j] = ax[i] . bx[j]; column j is b_j in A's frame */
    float ar[3][3];   /* |r[i][j]| */
    float ta[3];      /* p_B - p_A in A's frame [m] */
    float tb[3];      /* p_B - p_A in B's frame [m] */
    float tol;        /* linear tolerance [m] */
    float rounding;   /* rounding of one box's frame coordinates [m] */
    float small;      /* the smaller box's sum of half extents [m] */
} cc_bb_pair;

/* Incident face clipped to the reference face, in the reference box's frame. */
typedef struct cc_bb_clip {
    int n;                            /* vertices, 0..CC_BB_CLIP_MAX */
    float p[CC_BB_CLIP_MAX][3];      /* incident points, reference frame [m] */
    float dist[CC_BB_CLIP_MAX];      /* signed distance above the reference face [m] */
    float dmin;                       /* smallest dist (+huge when n == 0) */
    int ref_is_b;                     /* reference face on B (else on A) */
    int axis;                         /* reference face normal is +-axis `axis` */
    float sign;                       /* outward reference normal = sign * axis */
    int unclipped;                    /* the incident quad lay inside the side planes */
} cc_bb_clip;

CC_HD int cc_bb_next3(int i) { return i == 2 ? 0 : i + 1; }
CC_HD float cc_bb_signf(float x) { return x >= 0.0f ? 1.0f : -1.0f; }
/* Plain comparisons instead of fminf/fmaxf: gcc calls libm for those
 * without -ffinite-math-only, and the inputs here are finite. */
CC_HD float cc_bb_minf(float a, float b) { return b < a ? b : a; }
CC_HD float cc_bb_maxf(float a, float b) { return b > a ? b : a; }

/* origin + sum_k p[k] * axis[k]: a point given in a box's frame, in world. */
CC_HD cc_vec3 cc_bb_to_world(cc_vec3 origin, const cc_vec3* axis, const float* p)
{
    cc_vec3 w = cc_v3_madd(origin, axis[0], p[0]);
    w = cc_v3_madd(w, axis[1], p[1]);
    return cc_v3_madd(w, axis[2], p[2]);
}

CC_HD void cc_bb_pair_init(const cc_geom* a, const cc_geom* b, cc_bb_pair* bp)
{
    bp->pa = a->xf.p;
    bp->pb = b->xf.p;
    cc_q_axes(a->xf.q, &bp->ax[0], &bp->ax[1], &bp->ax[2]);
    cc_q_axes(b->xf.q, &bp->bx[0], &bp->bx[1], &bp->bx[2]);
    bp->ha[0] = a->size.x;
    bp->ha[1] = a->size.y;
    bp->ha[2] = a->size.z;
    bp->hb[0] = b->size.x;
    bp->hb[1] = b->size.y;
    bp->hb[2] = b->size.z;
    cc_vec3 d = cc_v3_sub(bp->pb, bp->pa);
    /* The length scale is the same, bit for bit, with the boxes swapped
     * (ha + hb and |d| are), so every tolerance-guarded choice below is
     * too; sqrt(3) |d| bounds the sum of |d| along either box's axes. */
    float scale = 1.7320508f * sqrtf(cc_v3_dot(d, d));
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            bp->r[i][j] = cc_v3_dot(bp->ax[i], bp->bx[j]);
            bp->ar[i][j] = fabsf(bp->r[i][j]);
        }
        bp->ta[i] = cc_v3_dot(bp->ax[i], d);
        bp->tb[i] = cc_v3_dot(bp->bx[i], d);
        scale += bp->ha[i] + bp->hb[i];
    }
    bp->small = cc_bb_minf(bp->ha[0] + bp->ha[1] + bp->ha[2], bp->hb[0] + bp->hb[1] + bp->hb[2]);
    bp->tol = CC_BB_LINEAR_TOL * scale;
    bp->rounding = CC_BB_ROUNDING_TOL * scale;
}

/* One Sutherland-Hodgman pass: keeps the part of polygon `in` (n vertices,
 * reference frame) with s * p[k] <= h, writing at most CC_BB_CLIP_MAX
 * vertices to `out`. An edge a->b crossing the plane is cut at
 *     f = da / (da - db),   da = s a[k] - h,  db = s b[k] - h,
 * and the cut point is put exactly on the plane. */
CC_HD int cc_bb_clip_pass(float in[][3], int n, float out[][3], int k, float s, float h)
{
    int m = 0;
    for (int v = 0; v < n; ++v) {
        const float* pa = in[v];
        const float* pb = in[v + 1 < n ? v + 1 : 0];
        float da = s * pa[k] - h;
        float db = s * pb[k] - h;
        int a_in = da <= 0.0f;
        if (a_in && m < CC_BB_CLIP_MAX) {
            out[m][0] = pa[0];
            out[m][1] = pa[1];
            out[m][2] = pa[2];
            ++m;
        }
        if (a_in != (db <= 0.0f) && m < CC_BB_CLIP_MAX) {
            float f = da / (da - db); /* da and db differ in sign: no division by 0 */
            out[m][0] = pa[0] + (pb[0] - pa[0]) * f;
            out[m][1] = pa[1] + (pb[1] - pa[1]) * f;
            out[m][2] = pa[2] + (pb[2] - pa[2]) * f;
            out[m][k] = s * h;
            ++m;
        }
    }
    return m;
}

/* Face route, geometry only: clips the incident face against reference face
 * `face` (0..2: A's axes, 3..5: B's axes). */
CC_HD void cc_bb_face_clip(const cc_bb_pair* bp, int face, cc_bb_clip* c)
{
    int ref_b = face >= 3;
    int i = ref_b ? face - 3 : face;
    /* Incident box in the reference frame: centre c0 and axes as columns of m3.
     * For reference B: b_k . a_l = r[l][k], and A's centre is -tb. */
    float m3[3][3], c0[3];
    const float* h_ref = ref_b ? bp->hb : bp->ha;
    const float* h_inc = ref_b ? bp->ha : bp->hb;
    for (int k = 0; k < 3; ++k) {
        for (int l = 0; l < 3; ++l) m3[k][l] = ref_b ? bp->r[l][k] : bp->r[k][l];
        c0[k] = ref_b ? -bp->tb[k] : bp->ta[k];
    }
    float sign = cc_bb_signf(c0[i]);
    c->ref_is_b = ref_b;
    c->axis = i;
    c->sign = sign;

    /* Incident face: the incident axis l most aligned with the reference
     * normal; of its two faces, the one whose outward normal -sl * col_l
     * points against sign * e_i, i.e. sl = sign(sign * m3[i][l]). */
    int l = 0;
    if (fabsf(m3[i][1]) > fabsf(m3[i][l])) l = 1;
    if (fabsf(m3[i][2]) > fabsf(m3[i][l])) l = 2;
    float sl = cc_bb_signf(sign * m3[i][l]);
    int l1 = cc_bb_next3(l), l2 = cc_bb_next3(l1);
    float fc[3], e1[3], e2[3];
    for (int k = 0; k < 3; ++k) {
        fc[k] = c0[k] - sl * h_inc[l] * m3[k][l];
        e1[k] = h_inc[l1] * m3[k][l1];
        e2[k] = h_inc[l2] * m3[k][l2];
    }
    float tmp[CC_BB_CLIP_MAX][3];
    for (int k = 0; k < 3; ++k) {
        c->p[0][k] = fc[k] + e1[k] + e2[k];
        c->p[1][k] = fc[k] - e1[k] + e2[k];
        c->p[2][k] = fc[k] - e1[k] - e2[k];
        c->p[3][k] = fc[k] + e1[k] - e2[k];
    }
    /* Side planes of the reference face: |p[i1]| <= h_ref[i1], |p[i2]| <= h_ref[i2].
     * A quad already inside them (a small box resting on a larger one) is
     * kept as it is: its 4 corners are distinct and need no reduction. */
    int i1 = cc_bb_next3(i), i2 = cc_bb_next3(i1);
    float reach1 = fabsf(fc[i1]) + fabsf(e1[i1]) + fabsf(e2[i1]);
    float reach2 = fabsf(fc[i2]) + fabsf(e1[i2]) + fabsf(e2[i2]);
    int n = 4;
    c->unclipped = reach1 <= h_ref[i1] && reach2 <= h_ref[i2];
    if (!c->unclipped) {
        n = cc_bb_clip_pass(c->p, 4, tmp, i1, 1.0f, h_ref[i1]);
        n = cc_bb_clip_pass(tmp, n, c->p, i1, -1.0f, h_ref[i1]);
        n = cc_bb_clip_pass(c->p, n, tmp, i2, 1.0f, h_ref[i2]);
        n = cc_bb_clip_pass(tmp, n, c->p, i2, -1.0f, h_ref[i2]);
    }
    c->n = n;
    /* Height above the reference face: sign * p[i] - h_ref[i]. */
    float dmin = 3.0e38f;
    for (int v = 0; v < n; ++v) {
        float dv = sign * c->p[v][i] - h_ref[i];
        c->dist[v] = dv;
        dmin = cc_bb_minf(dmin, dv);
    }
    c->dmin = dmin;
}

/* Clipped incident points within the threshold of the reference face. */
CC_HD int cc_bb_clip_count_within(const cc_bb_clip* c, float threshold)
{
    int n = 0;
    for (int v = 0; v < c->n; ++v) n += c->dist[v] <= threshold;
    return n;
}

/* Twice the signed area of triangle (o, p, q) in the reference plane
 * coordinates (u, v) = (p[i1], p[i2]). */
CC_HD float cc_bb_cross2(const float* o, const float* p, const float* q, int i1, int i2)
{
    return (p[i1] - o[i1]) * (q[i2] - o[i2]) - (p[i2] - o[i2]) * (q[i1] - o[i1]);
}

/* Face route, output: keeps the clipped points within the threshold, reduces
 * them to at most 4 and appends them. Reduction in the reference plane:
 * the deepest point; the point farthest from it; the point making the
 * largest triangle with those two; the point adding the most area outside
 * one edge of that triangle. Points closer than the linear tolerance to the
 * ones already kept add nothing and are dropped. */
CC_HD void cc_bb_face_commit(const cc_bb_pair* bp, const cc_bb_clip* c, float threshold,
                              cc_manifold* m)
{
    int i = c->axis, i1 = cc_bb_next3(i), i2 = cc_bb_next3(i1);
    const cc_vec3* ref_axis = c->ref_is_b ? bp->bx : bp->ax;
    cc_vec3 ref_origin = c->ref_is_b ? bp->pb : bp->pa;
    cc_vec3 n_ref = cc_v3_scale(ref_axis[i], c->sign); /* outward reference normal */
    /* The manifold normal points from A to B: along n_ref when A owns the
     * reference face, against it when B does. */
    m->normal = c->ref_is_b ? cc_v3_neg(n_ref) : n_ref;

    /* Incident point x_inc; its projection on the reference face is
     * x_inc - n_ref * dist; the contact is their midpoint. */
    if (c->unclipped) {
        for (int v = 0; v < 4; ++v) {
            float dist = c->dist[v];
            cc_vec3 x_inc = cc_bb_to_world(ref_origin, ref_axis, c->p[v]);
            cc_manifold_add(m, cc_v3_madd(x_inc, n_ref, -0.5f * dist), dist, threshold);
        }
        return;
    }

    int s0 = -1;
    for (int v = 0; v < c->n; ++v)
        if (c->dist[v] <= threshold && (s0 < 0 || c->dist[v] < c->dist[s0])) s0 = v;
    if (s0 < 0) return;
    int sel[CC_BB_MAX_POINTS];
    int ns = 1;
    sel[0] = s0;

    const float* p0 = c->p[s0];
    float tol = bp->tol;
    float best = tol * tol;
    int s1 = -1;
    for (int v = 0; v < c->n; ++v) {
        if (!(c->dist[v] <= threshold)) continue;
        float du = c->p[v][i1] - p0[i1], dv = c->p[v][i2] - p0[i2];
        float d2 = du * du + dv * dv;
        if (d2 > best) {
            best = d2;
            s1 = v;
        }
    }
    if (s1 >= 0) {
        sel[ns++] = s1;
        /* A triangle counts when its height over p0-p1 exceeds tol:
         * |cross| = base * height > tol * |p1 - p0|. */
        float area_eps = tol * sqrtf(best);
        const float* p1 = c->p[s1];
        float best_area = area_eps;
        int s2 = -1;
        for (int v = 0; v < c->n; ++v) {
            if (!(c->dist[v] <= threshold)) continue;
            float ar = fabsf(cc_bb_cross2(p0, p1, c->p[v], i1, i2));
            if (ar > best_area) {
                best_area = ar;
                s2 = v;
            }
        }
        if (s2 >= 0) {
            sel[ns++] = s2;
            const float* p2 = c->p[s2];
            /* Orient the triangle counter-clockwise (o = +1) or not (o = -1);
             * q lies outside edge a->b when o * cross(a, b, q) < 0, and adding
             * it there grows the hull by |cross| / 2. */
            float o = cc_bb_signf(cc_bb_cross2(p0, p1, p2, i1, i2));
            float best_out = area_eps;
            int s3 = -1;
            for (int v = 0; v < c->n; ++v) {
                if (!(c->dist[v] <= threshold)) continue;
                const float* q = c->p[v];
                float out = -o * cc_bb_cross2(p0, p1, q, i1, i2);
                out = cc_bb_maxf(out, -o * cc_bb_cross2(p1, p2, q, i1, i2));
                out = cc_bb_maxf(out, -o * cc_bb_cross2(p2, p0, q, i1, i2));
                if (out > best_out) {
                    best_out = out;
                    s3 = v;
                }
            }
            if (s3 >= 0) sel[ns++] = s3;
        }
    }

    for (int k = 0; k < ns; ++k) {
        float dist = c->dist[sel[k]];
        cc_vec3 x_inc = cc_bb_to_world(ref_origin, ref_axis, c->p[sel[k]]);
        cc_manifold_add(m, cc_v3_madd(x_inc, n_ref, -0.5f * dist), dist, threshold);
    }
}

/* Edge route for axis a_i x b_j: closest points of the support edge of A
 * (direction a_i) and of B (direction b_j) along the axis oriented A -> B.
 * Writes the points and the unit normal; returns 1 when both closest points
 * lie within their edges (the pair then realises the axis' separation),
 * 0 when they had to be clamped. */
CC_HD int cc_bb_edge_points(const cc_bb_pair* bp, int i, int j, cc_vec3* xa, cc_vec3* xb,
                             cc_vec3* normal)
{
    int i1 = cc_bb_next3(i), i2 = cc_bb_next3(i1);
    /* L = e_i x b_j in A's frame: (e_i x c)[i1] = -c[i2], (e_i x c)[i2] = c[i1]. */
    float L[3];
    L[i] = 0.0f;
    L[i1] = -bp->r[i2][j];
    L[i2] = bp->r[i1][j];
    float len2 = L[i1] * L[i1] + L[i2] * L[i2];
    float inv = 1.0f / sqrtf(len2);
    if (L[0] * bp->ta[0] + L[1] * bp->ta[1] + L[2] * bp->ta[2] < 0.0f) inv = -inv;
    L[i1] *= inv;
    L[i2] *= inv;

    /* Support edge of A along L: centre sum_{k != i} sign(L_k) h_k e_k.
     * Support edge of B along -L: centre t - sum_{k != j} sign(L . b_k) h_k b_k. */
    float ea[3], eb[3];
    for (int k = 0; k < 3; ++k) {
        ea[k] = k == i ? 0.0f : cc_bb_signf(L[k]) * bp->ha[k];
        eb[k] = bp->ta[k];
    }
    for (int k = 0; k < 3; ++k) {
        if (k == j) continue;
        float lb = L[0] * bp->r[0][k] + L[1] * bp->r[1][k] + L[2] * bp->r[2][k];
        float w = cc_bb_signf(lb) * bp->hb[k];
        for (int q = 0; q < 3; ++q) eb[q] -= w * bp->r[q][k];
    }
    /* Lines ea + s e_i and eb + t v, v = column j: with w0 = ea - eb,
     * beta = e_i . v, c = w0[i], f = v . w0, the closest parameters solve
     *     s - beta t = -c,  beta s - t = -f
     * so s = (beta f - c) / (1 - beta^2), t = f + beta s. Here
     * 1 - beta^2 = |e_i x v|^2 = len2 >= CC_BB_PARALLEL_SQ. */
    float beta = bp->r[i][j];
    float w0[3] = {ea[0] - eb[0], ea[1] - eb[1], ea[2] - eb[2]};
    float c0 = w0[i];
    float f = bp->r[0][j] * w0[0] + bp->r[1][j] * w0[1] + bp->r[2][j] * w0[2];
    float s = (beta * f - c0) / len2;
    float t = f + beta * s;
    float slack = bp->tol;
    int inside = fabsf(s) <= bp->ha[i] + slack && fabsf(t) <= bp->hb[j] + slack;
    s = cc_clampf(s, -bp->ha[i], bp->ha[i]);
    t = cc_clampf(t, -bp->hb[j], bp->hb[j]);
    ea[i] += s;
    for (int q = 0; q < 3; ++q) eb[q] += t * bp->r[q][j];
    *xa = cc_bb_to_world(bp->pa, bp->ax, ea);
    *xb = cc_bb_to_world(bp->pa, bp->ax, eb);
    *normal = cc_bb_to_world(cc_v3(0.0f, 0.0f, 0.0f), bp->ax, L);
    return inside;
}

/* Closest vertex pair: of the 8 vertices of each box, the one nearest to the
 * other box, with its nearest point there (clamp to the half extents in that
 * box's frame). Exact distance of separated boxes whose closest features
 * include a vertex. Writes both points and the unit direction from A's point
 * to B's (taken in the clamping frame, so it is unit to float precision even
 * when the gap is small against the coordinates); returns the distance. */
CC_HD float cc_bb_closest_vertex(const cc_bb_pair* bp, cc_vec3* xa, cc_vec3* xb, cc_vec3* normal)
{
    float best = 3.0e38f;
    int best_side = 0, best_code = 0;
    float best_q[3] = {0.0f, 0.0f, 0.0f}, best_v[3] = {0.0f, 0.0f, 0.0f};
    for (int side = 0; side < 2; ++side) {
        /* side 0: A's vertex x = sum_i s_i ha_i e_i in B's frame is
         *     R^T x - tb,   (R^T x)[j] = sum_i r[i][j] s_i ha_i;
         * side 1: B's vertex in A's frame is R y + ta. */
        const float* hv = side ? bp->hb : bp->ha;
        const float* ho = side ? bp->ha : bp->hb;
        for (int code = 0; code < 8; ++code) {
            float v[3], q[3], d2 = 0.0f;
            for (int k = 0; k < 3; ++k) {
                float acc = side ? bp->ta[k] : -bp->tb[k];
                for (int l = 0; l < 3; ++l) {
                    float sl = (code >> l) & 1 ? hv[l] : -hv[l];
                    acc += (side ? bp->r[k][l] : bp->r[l][k]) * sl;
                }
                v[k] = acc;
                q[k] = cc_clampf(acc, -ho[k], ho[k]);
                d2 += (v[k] - q[k]) * (v[k] - q[k]);
            }
            if (d2 < best) {
                best = d2;
                best_side = side;
                best_code = code;
                for (int k = 0; k < 3; ++k) {
                    best_q[k] = q[k];
                    best_v[k] = v[k];
                }
            }
        }
    }
    float dist = sqrtf(best);
    float inv = dist > CC_EPSILON_LENGTH ? 1.0f / dist : 0.0f;
    const float* hv = best_side ? bp->hb : bp->ha;
    float vl[3], dir[3];
    for (int l = 0; l < 3; ++l) {
        vl[l] = (best_code >> l) & 1 ? hv[l] : -hv[l];
        dir[l] = (best_v[l] - best_q[l]) * inv; /* from the clamped point to the vertex */
    }
    cc_vec3 zero = cc_v3(0.0f, 0.0f, 0.0f);
    if (best_side) { /* B's vertex, A's point */
        *xb = cc_bb_to_world(bp->pb, bp->bx, vl);
        *xa = cc_bb_to_world(bp->pa, bp->ax, best_q);
        *normal = cc_bb_to_world(zero, bp->ax, dir);
    } else { /* A's vertex, B's point: the normal A -> B is -dir */
        *xa = cc_bb_to_world(bp->pa, bp->ax, vl);
        *xb = cc_bb_to_world(bp->pb, bp->bx, best_q);
        *normal = cc_v3_neg(cc_bb_to_world(zero, bp->bx, dir));
    }
    return dist;
}

/* Contacts between boxes a and b (world pose xf, half extents size) whose
 * core distance is at most `threshold`; see narrowphase/manifold.h. At most 4 points;
 * the normal points from A to B. */
CC_HD void cc_collide_box_box(const cc_geom* a, const cc_geom* b, float threshold, cc_manifold* m)
{
    m->count = 0;
    m->normal = cc_v3(0.0f, 0.0f, 1.0f);
    /* Non-finite pose or size: x * 0 is NaN for NaN and +-inf, 0 otherwise. */
    float probe = a->xf.p.x + a->xf.p.y + a->xf.p.z + a->xf.q.x + a->xf.q.y + a->xf.q.z +
                  a->xf.q.w + a->size.x + a->size.y + a->size.z + b->xf.p.x + b->xf.p.y +
                  b->xf.p.z + b->xf.q.x + b->xf.q.y + b->xf.q.z + b->xf.q.w + b->size.x +
                  b->size.y + b->size.z;
    if (!(probe * 0.0f == 0.0f)) return;

    cc_bb_pair bp;
    cc_bb_pair_init(a, b, &bp);

    /* Face axes: s = |t_i| - h_i - sum_j h_other_j |r_ij|. Ties keep the
     * earlier axis (A before B, x before y before z). */
    int face = 0;
    float sf = -3.0e38f;
    for (int i = 0; i < 3; ++i) {
        float s = fabsf(bp.ta[i]) -
                  (bp.ha[i] + bp.hb[0] * bp.ar[i][0] + bp.hb[1] * bp.ar[i][1] + bp.hb[2] * bp.ar[i][2]);
        if (s > sf) {
            sf = s;
            face = i;
        }
    }
    for (int j = 0; j < 3; ++j) {
        float s = fabsf(bp.tb[j]) -
                  (bp.hb[j] + bp.ha[0] * bp.ar[0][j] + bp.ha[1] * bp.ar[1][j] + bp.ha[2] * bp.ar[2][j]);
        if (s > sf) {
            sf = s;
            face = 3 + j;
        }
    }
    if (sf > threshold) return;

    /* Edge axes L = a_i x b_j (A's frame: L_i = 0, L_i1 = -r[i2][j],
     * L_i2 = r[i1][j]), unnormalised:
     *   L . t      = t_i2 r[i1][j] - t_i1 r[i2][j]
     *   r_A(L)     = h_i1 |r[i2][j]| + h_i2 |r[i1][j]|
     *   r_B(L)     = h_j1 |r[i][j2]| + h_j2 |r[i][j1]|   (L . b_j1 = r[i][j2], L . b_j2 = -r[i][j1])
     * each divided by |L| = sqrt(r[i1][j]^2 + r[i2][j]^2). */
    int edge = -1;
    float se = -3.0e38f;
    for (int i = 0; i < 3; ++i) {
        int i1 = cc_bb_next3(i), i2 = cc_bb_next3(i1);
        for (int j = 0; j < 3; ++j) {
            int j1 = cc_bb_next3(j), j2 = cc_bb_next3(j1);
            float len2 = bp.r[i1][j] * bp.r[i1][j] + bp.r[i2][j] * bp.r[i2][j];
            float num = fabsf(bp.ta[i2] * bp.r[i1][j] - bp.ta[i1] * bp.r[i2][j]) -
                        (bp.ha[i1] * bp.ar[i2][j] + bp.ha[i2] * bp.ar[i1][j] +
                         bp.hb[j1] * bp.ar[i][j2] + bp.hb[j2] * bp.ar[i][j1]);
            /* Near-parallel axes are skipped; the division is always safe. */
            int usable = len2 > CC_BB_PARALLEL_SQ;
            float s = num / sqrtf(usable ? len2 : 1.0f);
            int better = usable && s > se;
            se = better ? s : se;
            edge = better ? 3 * i + j : edge;
        }
    }
    if (edge >= 0 && se > threshold) return;

    /* The face wins ties, but only ties within the rounding plus a small
     * fraction of the smaller box: the linear tolerance grows with a large
     * box's size and would let a small box report a face depth well below
     * the edge axis' least penetration. */
    float prefer_face = cc_bb_minf(bp.tol, bp.rounding + CC_BB_FACE_PREFERENCE * bp.small);
    int use_edge = edge >= 0 && se > sf + prefer_face;
    float smax = edge >= 0 ? cc_bb_maxf(sf, se) : sf;

    /* The face manifold is exact when its deepest clipped point reaches the
     * face separation, i.e. the incident box's support feature lies over the
     * reference face: the common resting case, done here. */
    cc_bb_clip clip;
    cc_bb_face_clip(&bp, face, &clip);
    float dface = clip.n > 0 ? clip.dmin : 3.0e38f;
    /* Separated boxes: sf <= distance <= dface, so the face manifold is
     * exact only to the rounding; otherwise the vertex route below decides. */
    float face_slack = sf > 0.0f ? bp.rounding : bp.tol;
    if (!use_edge && dface <= sf + face_slack) {
        cc_bb_face_commit(&bp, &clip, threshold, m);
        return;
    }
    /* Otherwise the best edge axis, when its closest points are interior to
     * both edges (then the pair realises se exactly) and se is the largest
     * separation. The face manifold is still preferred when the overlap is
     * shallow, the edge axis is nearly the face normal and the face's
     * deepest point is as deep as se: a box yawed on an equal box has its
     * lowest corner beyond the rim and its true deepest point at an edge
     * crossing on the rim, but the face manifold around it is the stable
     * answer (its normal is the face's, a few degrees at most from the
     * edge pair's). */
    cc_vec3 xa = bp.pa, xb = bp.pb, ne = m->normal;
    if (edge >= 0) {
        int inside = cc_bb_edge_points(&bp, edge / 3, edge % 3, &xa, &xb, &ne);
        if (inside && se >= sf - bp.tol) {
            const cc_vec3* fa = clip.ref_is_b ? bp.bx : bp.ax;
            float slack = bp.tol;
            int shallow = -se <= CC_BB_FACE_LIKE_DEPTH * bp.small;
            /* ... and only while the box lies nearly flat on the face: its
             * part beyond the face's rim dips below the face's plane by at
             * most half the shallow depth (a long box tilted a degree over
             * a face touches at one corner, with that corner's normal). */
            float dip = dface - sf;
            /* ... and the face manifold has an area to rest on: at least
             * three of its points within the threshold (an edge or corner
             * of a small box past a large one's rim clips to one or two
             * points, and so does a face whose far side lies beyond the
             * threshold; the edge pair's normal serves those exactly, while
             * the face normal's separation can fall far below their
             * distance when the box tilts past the face's rim). */
            if (shallow && cc_bb_clip_count_within(&clip, threshold) >= 3 && fabsf(cc_v3_dot(fa[clip.axis], ne)) >= CC_BB_FACE_LIKE_COS && dface >= se - slack &&
                dface <= se + bp.tol && dip <= 0.5f * CC_BB_FACE_LIKE_DEPTH * bp.small) {
                cc_bb_face_commit(&bp, &clip, threshold, m);
            } else {
                m->normal = ne;
                cc_manifold_add_pair(m, xa, xb, threshold);
            }
            return;
        }
    }
    if (smax > 0.0f) {
        /* Separated, and neither route reached the SAT bound: the closest
         * features involve a vertex. Keep the face manifold (it has more
         * points) only when it is as close as the closest vertex pair and
         * the box lies nearly flat on the face (as above): a long box
         * tilted a degree over a face has its nearest corner at the vertex
         * pair's distance while its far end dips below the face's plane,
         * and the face normal would not be the contact's. */
        cc_vec3 va, vb, nv;
        float dv = cc_bb_closest_vertex(&bp, &va, &vb, &nv);
        if (dv > CC_EPSILON_LENGTH &&
            (dv < dface - bp.rounding || dface - sf > 0.5f * CC_BB_FACE_LIKE_DEPTH * bp.small)) {
            m->normal = nv;
            cc_manifold_add(m, cc_v3_scale(cc_v3_add(va, vb), 0.5f), dv, threshold);
            return;
        }
        cc_bb_face_commit(&bp, &clip, threshold, m);
        return;
    }
    /* Overlapping but no route verified (rounding at a rim, or the edge
     * pair's closest points at an end of an edge): the axis of the largest
     * separation is the contact normal (SAT: it is the penetration), the
     * edge pair's when that is an edge axis, else the face manifold. */
    if (use_edge || (edge >= 0 && clip.n == 0)) {
        m->normal = ne;
        cc_manifold_add_pair(m, xa, xb, threshold);
    } else if (clip.n > 0) {
        cc_bb_face_commit(&bp, &clip, threshold, m);
    }
}

#endif
