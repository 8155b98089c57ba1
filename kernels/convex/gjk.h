/* GJK: distance and closest points between two separated convex cores.
 *
 * Works on the Minkowski difference D = B - A, whose support point in
 * direction d is s_B(d) - s_A(-d); the point of D nearest the origin is
 * p_B - p_A for the closest pair of points. Each iteration adds the support
 * point opposite the current nearest point v and reduces the simplex to the
 * smallest face holding the new nearest point (Voronoi-region tests). It
 * stops when the gap between the upper bound |v| and the lower bound
 * dot(v, w)/|v| on the distance is below `tolerance`, when the lower bound
 * exceeds `limit` (the pair is farther apart than the caller cares about),
 * or when the origin is inside the simplex (the cores touch or overlap; the
 * caller then runs MPR, or EPA from that simplex). Iterations are capped. */
#ifndef CC_KERNELS_CONVEX_GJK_H
#define CC_KERNELS_CONVEX_GJK_H

#include "kernels/shapes/support.h"

#define CC_GJK_MAX_ITERATIONS 64

/* Outcomes of cc_gjk. */
#define CC_GJK_SEPARATED 0 /* distance, normal and points are set */
#define CC_GJK_BEYOND 1    /* farther apart than `limit`; nothing else is set */
#define CC_GJK_OVERLAP 2   /* distance within tolerance of zero, or overlapping */

/* A vertex of D: w = b - a for support points a of A and b of B. b is not
 * kept: the closest point of B is the closest point of A plus the nearest
 * point of D, which keeps GJK's live state (and its registers) small. */
typedef struct cc_simplex_vertex {
    cc_vec3 w; /* b - a */
    cc_vec3 a;
} cc_simplex_vertex;

typedef struct cc_simplex {
    cc_simplex_vertex v[4];
    float bary[4];
    int count;
} cc_simplex;

typedef struct cc_gjk_result {
    int status;
    float distance;   /* >= 0 [m] */
    cc_vec3 normal;   /* unit, A -> B; with CC_GJK_OVERLAP the last search
                       * direction when the cores came within `touch`, else zero */
    cc_vec3 point_a;  /* closest point of A's core, pair coordinates */
    cc_vec3 point_b;  /* closest point of B's core (shift included) */
    int iterations;
    /* CC_GJK_OVERLAP with the origin inside the last simplex: its four
     * points of D, a tetrahedron that EPA can expand. */
    int has_tetra;
    cc_vec3 tetra[4];
} cc_gjk_result;

CC_HD cc_simplex_vertex cc_simplex_support(const cc_convex* a, const cc_convex* b, cc_vec3 b_shift,
                                           cc_vec3 d)
{
    cc_simplex_vertex v;
    v.a = cc_support(a, cc_v3_neg(d));
    v.w = cc_v3_sub(cc_v3_add(cc_support(b, d), b_shift), v.a);
    return v;
}

/* A face of the simplex: which vertices, their barycentric weights and
 * its point nearest the origin. */
typedef struct cc_subsimplex {
    int count;
    int index[3];
    float bary[3];
    cc_vec3 point;
} cc_subsimplex;

CC_HD cc_subsimplex cc_sub1(const cc_simplex* s, int i)
{
    cc_subsimplex f;
    f.count = 1;
    f.index[0] = i;
    f.bary[0] = 1.0f;
    f.point = s->v[i].w;
    return f;
}

CC_HD cc_subsimplex cc_sub2(const cc_simplex* s, int i, int j, float t)
{
    cc_subsimplex f;
    f.count = 2;
    f.index[0] = i;
    f.index[1] = j;
    f.bary[0] = 1.0f - t;
    f.bary[1] = t;
    f.point = cc_v3_madd(s->v[i].w, cc_v3_sub(s->v[j].w, s->v[i].w), t);
    return f;
}

/* The origin's projection onto the plane of triangle (a, b, c), known to
 * fall inside it, with its barycentric weights. On a sliver (a cone's
 * apex metres from its rim, the origin centimetres from the triangle) the
 * region tests' weights keep only a few digits and their blend of the
 * vertices leaves the plane, so GJK stalled short of the distance. The
 * plane is taken from the two shortest edges (those at the vertex facing
 * the longest, whose cross product loses least) and its offset from the
 * vertex nearest the origin; the weights are the areas of the triangles
 * the point cuts, which stay accurate to the coordinates' rounding. */
CC_HD cc_subsimplex cc_sub3_interior(const cc_simplex* s, int i, int j, int k)
{
    cc_vec3 a = s->v[i].w, b = s->v[j].w, c = s->v[k].w;
    cc_vec3 ab = cc_v3_sub(b, a), bc = cc_v3_sub(c, b), ca = cc_v3_sub(a, c);
    float lab = cc_v3_length_sq(ab), lbc = cc_v3_length_sq(bc), lca = cc_v3_length_sq(ca);
    cc_vec3 n = lab >= lbc && lab >= lca ? cc_v3_cross(bc, ca) : (lbc >= lca ? cc_v3_cross(ca, ab) : cc_v3_cross(ab, bc));
    float nn = cc_v3_length_sq(n);
    if (!(nn > 0.0f)) return cc_sub2(s, i, j, 0.0f);
    cc_vec3 closest = a;
    if (cc_v3_length_sq(b) < cc_v3_length_sq(closest)) closest = b;
    if (cc_v3_length_sq(c) < cc_v3_length_sq(closest)) closest = c;
    cc_subsimplex f;
    f.count = 3;
    f.index[0] = i;
    f.index[1] = j;
    f.index[2] = k;
    f.point = cc_v3_scale(n, cc_v3_dot(n, closest) / nn);
    cc_vec3 pa = cc_v3_sub(a, f.point), pb = cc_v3_sub(b, f.point), pc = cc_v3_sub(c, f.point);
    float wa = cc_maxf(cc_v3_dot(n, cc_v3_cross(pb, pc)), 0.0f), wb = cc_maxf(cc_v3_dot(n, cc_v3_cross(pc, pa)), 0.0f),
          wc = cc_maxf(cc_v3_dot(n, cc_v3_cross(pa, pb)), 0.0f);
    float sum = wa + wb + wc;
    if (!(sum > 0.0f)) wa = wb = wc = sum = 1.0f;
    f.bary[1] = wb / sum;
    f.bary[2] = wc / sum;
    f.bary[0] = 1.0f - f.bary[1] - f.bary[2];
    return f;
}

/* Face of triangle (i, j, k) nearest the origin: Ericson's region tests
 * with the query point at the origin. */
CC_HD cc_subsimplex cc_simplex_triangle(const cc_simplex* s, int i, int j, int k)
{
    cc_vec3 a = s->v[i].w, b = s->v[j].w, c = s->v[k].w;
    cc_vec3 ab = cc_v3_sub(b, a), ac = cc_v3_sub(c, a);
    float d1 = -cc_v3_dot(ab, a), d2 = -cc_v3_dot(ac, a);
    if (d1 <= 0.0f && d2 <= 0.0f) return cc_sub1(s, i);
    float d3 = -cc_v3_dot(ab, b), d4 = -cc_v3_dot(ac, b);
    if (d3 >= 0.0f && d4 <= d3) return cc_sub1(s, j);
    float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return cc_sub2(s, i, j, d1 / (d1 - d3));
    float d5 = -cc_v3_dot(ab, c), d6 = -cc_v3_dot(ac, c);
    if (d6 >= 0.0f && d5 <= d6) return cc_sub1(s, k);
    float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return cc_sub2(s, i, k, d2 / (d2 - d6));
    float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f)
        return cc_sub2(s, j, k, (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    float denom = va + vb + vc;
    if (!(denom > 0.0f)) { /* degenerate (collinear) triangle: its first edge */
        float len = cc_v3_length_sq(ab);
        return cc_sub2(s, i, j, len > 0.0f ? cc_clampf(-cc_v3_dot(a, ab) / len, 0.0f, 1.0f) : 0.0f);
    }
    return cc_sub3_interior(s, i, j, k);
}

/* Keeps only the face's vertices, in order; *nearest gets its point. */
CC_HD void cc_simplex_keep(cc_simplex* s, const cc_subsimplex* f, cc_vec3* nearest)
{
    cc_simplex_vertex v[3];
    for (int i = 0; i < f->count; ++i) v[i] = s->v[f->index[i]];
    for (int i = 0; i < f->count; ++i) {
        s->v[i] = v[i];
        s->bary[i] = f->bary[i];
    }
    *nearest = f->point;
    s->count = f->count;
}

/* Reduces the simplex to the face nearest the origin, whose point nearest
 * the origin goes to *nearest. Returns 0 when the origin is inside the
 * tetrahedron. */
CC_HD_CALL int cc_simplex_reduce(cc_simplex* s, cc_vec3* nearest)
{
    cc_subsimplex f;
    if (s->count == 1) {
        s->bary[0] = 1.0f;
        *nearest = s->v[0].w;
        return 1;
    }
    if (s->count == 2) {
        cc_vec3 a = s->v[0].w, ab = cc_v3_sub(s->v[1].w, a);
        float len = cc_v3_length_sq(ab);
        float t = len > 0.0f ? -cc_v3_dot(a, ab) / len : 0.0f;
        f = t <= 0.0f ? cc_sub1(s, 0) : (t >= 1.0f ? cc_sub1(s, 1) : cc_sub2(s, 0, 1, t));
        cc_simplex_keep(s, &f, nearest);
        return 1;
    }
    if (s->count == 3) {
        f = cc_simplex_triangle(s, 0, 1, 2);
        cc_simplex_keep(s, &f, nearest);
        return 1;
    }
    /* Tetrahedron: the nearest point lies on a face the origin is outside
     * of; none means the origin is inside. The new vertex (3) was found
     * beyond the old triangle (0, 1, 2) as seen from the origin, so the
     * origin cannot be outside that face: only the three faces through
     * vertex 3 are tried. */
    const int face[3][4] = {{0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
    /* A nearly flat tetrahedron (a new point almost in the old triangle's
     * plane) has no reliable inside: its nearest face is taken instead. */
    cc_vec3 e1 = cc_v3_sub(s->v[1].w, s->v[0].w), e2 = cc_v3_sub(s->v[2].w, s->v[0].w);
    cc_vec3 e3 = cc_v3_sub(s->v[3].w, s->v[0].w);
    float volume = fabsf(cc_v3_dot(cc_v3_cross(e1, e2), e3));
    float size = cc_maxf(cc_v3_length_sq(e1), cc_maxf(cc_v3_length_sq(e2), cc_v3_length_sq(e3)));
    int flat = !(volume > 1.0e-6f * size * sqrtf(size));
    float best = 3.0e38f;
    int found = 0;
    cc_subsimplex best_f = cc_sub1(s, 3);
    for (int k = 0; k < 3; ++k) {
        cc_vec3 a = s->v[face[k][0]].w, b = s->v[face[k][1]].w, c = s->v[face[k][2]].w;
        cc_vec3 d = s->v[face[k][3]].w;
        cc_vec3 n = cc_v3_cross(cc_v3_sub(b, a), cc_v3_sub(c, a));
        float side_origin = -cc_v3_dot(n, a), side_d = cc_v3_dot(n, cc_v3_sub(d, a));
        /* Outside when the origin and the fourth vertex are on opposite
         * sides of the face. */
        if (!flat && side_origin * side_d > 0.0f) continue;
        found = 1;
        cc_subsimplex cand = cc_simplex_triangle(s, face[k][0], face[k][1], face[k][2]);
        float dist = cc_v3_length_sq(cand.point);
        if (dist < best) {
            best = dist;
            best_f = cand;
        }
    }
    if (!found) return 0;
    cc_simplex_keep(s, &best_f, nearest);
    return 1;
}

/* Distance between the cores of a and b (b moved by b_shift). `guess`: a
 * direction from A towards B to start from (zero: the centres' offset).
 * `limit`: stop with CC_GJK_BEYOND once the distance provably exceeds it;
 * `touch`: stop with CC_GJK_OVERLAP once it is provably below it (>= the
 * tolerance); `tolerance`: absolute accuracy of the distance [m]. */
CC_HD_CALL void cc_gjk(const cc_convex* a, const cc_convex* b, cc_vec3 b_shift, cc_vec3 guess, float limit,
                  float touch, float tolerance, cc_gjk_result* r)
{
    cc_simplex s;
    cc_vec3 d = guess;
    if (!(cc_v3_length_sq(d) > 0.0f)) d = cc_v3_sub(cc_v3_add(cc_convex_center(b), b_shift), cc_convex_center(a));
    if (!(cc_v3_length_sq(d) > 0.0f)) d = cc_v3(1.0f, 0.0f, 0.0f);
    s.v[0] = cc_simplex_support(a, b, b_shift, cc_v3_neg(d));
    s.bary[0] = 1.0f;
    s.count = 1;
    cc_vec3 v = s.v[0].w;
    float vv = cc_v3_length_sq(v);
    /* The closest point of A for the current v; B's is pa + v. Kept per
     * iteration, so that a step without progress needs no copy of the
     * previous simplex. */
    cc_vec3 pa = s.v[0].a;
    r->status = CC_GJK_OVERLAP;
    r->normal = cc_v3(0.0f, 0.0f, 0.0f);
    r->iterations = 0;
    r->has_tetra = 0;
    for (int it = 0; it < CC_GJK_MAX_ITERATIONS; ++it) {
        r->iterations = it + 1;
        float vlen = sqrtf(vv);
        if (!(vlen > touch)) { /* closer than `touch`: the caller's overlap path */
            /* Touching within `touch`, v still points across the gap: the
             * overlap path's fallback where its own test rounds the other way. */
            if (vlen > 0.0f) r->normal = cc_v3_scale(v, 1.0f / vlen);
            return;
        }
        cc_simplex_vertex w = cc_simplex_support(a, b, b_shift, cc_v3_neg(v));
        float vw = cc_v3_dot(v, w.w);
        if (vw > limit * vlen) {
            r->status = CC_GJK_BEYOND;
            return;
        }
        /* Upper minus lower bound on the distance. */
        if (vlen - vw / vlen <= tolerance) break;
        int repeated = 0;
        for (int i = 0; i < s.count; ++i)
            repeated |= cc_v3_length_sq(cc_v3_sub(s.v[i].w, w.w)) <= tolerance * tolerance;
        if (repeated) break;
        s.v[s.count++] = w;
        cc_vec3 nv;
        if (!cc_simplex_reduce(&s, &nv)) { /* origin inside: overlap */
            r->has_tetra = 1;
            for (int i = 0; i < 4; ++i) r->tetra[i] = s.v[i].w;
            return;
        }
        float nvv = cc_v3_length_sq(nv);
        if (!(nvv < vv)) break; /* no progress: rounding has taken over; keep the last v */
        v = nv;
        vv = nvv;
        pa = cc_v3(0.0f, 0.0f, 0.0f);
        for (int i = 0; i < s.count; ++i) pa = cc_v3_madd(pa, s.v[i].a, s.bary[i]);
    }
    float dist = sqrtf(vv);
    if (!(dist > touch)) {
        if (dist > 0.0f) r->normal = cc_v3_scale(v, 1.0f / dist);
        return;
    }
    r->status = CC_GJK_SEPARATED;
    r->distance = dist;
    r->normal = cc_v3_scale(v, 1.0f / dist);
    r->point_a = pa;
    r->point_b = cc_v3_add(pa, v);
}

#endif
