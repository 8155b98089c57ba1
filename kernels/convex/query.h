/* Signed distance, normal and witness points of two convex cores: GJK for
 * separated cores, MPR for touching and overlapping ones, then an ascent
 * that makes the penetration normal and depth exact.
 *
 * Path choice, with skin = CC_CONVEX_SKIN * (smaller extent):
 *   - GJK first. Distance above the skin: that is the answer (exact).
 *   - Otherwise MPR on the cores inflated by the skin. Resting pairs sit
 *     near distance 0, well inside the inflated band, so they take the MPR
 *     path every step and never flip between algorithms; at the band's edge
 *     both paths give the same distance. Two polytopes, and round shapes
 *     deep along their centres' offset, take EPA from GJK's last simplex
 *     instead: its direction is nearer the global optimum than MPR's ray.
 *   - MPR's direction is the ray's, not yet the minimum-depth one. The
 *     separation along a unit n, sep(n) = min over B of x.n - max over A of
 *     x.n, is at most the signed distance for every n and equal to it at the
 *     contact normal; its gradient is the difference of the two support
 *     points. Steepest ascent on the sphere with a line search climbs from
 *     MPR's direction to the exact normal using support points only. Deep
 *     overlaps can have several local optima (one per face of a long box):
 *     EPA, started from GJK's or MPR's last tetrahedron, bounds the depth
 *     from below, which certifies a climb as the global optimum.
 *   - sep has a kink at a face normal, where the ascent stalls a hair off
 *     the face; the faces and edges supporting the final direction offer the
 *     exact candidates (cc_convex_polish). */
#ifndef CC_KERNELS_CONVEX_QUERY_H
#define CC_KERNELS_CONVEX_QUERY_H

#include "kernels/convex/feature.h"
#include "kernels/convex/manifold.h"
#include "kernels/convex/rim.h"
#include "kernels/math/closest_points.h"
#include "kernels/convex/epa.h"
#include "kernels/convex/sat.h"
#include "kernels/convex/separation.h"
#include "kernels/shapes/line_exit.h"

/* Skin of the GJK/MPR switch, relative to the smaller extent. */
#define CC_CONVEX_SKIN 1.0e-3f
/* Accuracy of the answer, relative to the smaller shape's size, and the
 * floor rounding sets: 4 float ulps of the pair's coordinates. */
#define CC_CONVEX_TOLERANCE 1.0e-6f
#define CC_CONVEX_ROUNDING 4.8e-7f
/* GJK's own accuracy, relative to the smaller shape: loose, the climb
 * after it makes the answer exact, but fine enough that the climb starts
 * near the answer for the small shape (a normal good to the large one's
 * size can be degrees off at a face of it). */
#define CC_CONVEX_GJK_TOLERANCE 1.0e-4f
/* Portal convergence of MPR, relative to the pair's size: loose, since the
 * ascent corrects the direction and the depth follows from it. */
#define CC_CONVEX_MPR_TOLERANCE 1.0e-6f
/* Ascent: at most this many steps, each with at most this many halvings
 * or doublings of its step; it stops when the tangential gradient is below
 * CC_CONVEX_TOLERANCE of the pair's size. */
#define CC_CONVEX_ASCENT_STEPS 24
#define CC_CONVEX_ASCENT_SEARCH 6
/* Two rim points both within asin(this) of their caps' normals start the
 * ascent with a rim solve (cc_convex_rim_jump). */
#define CC_CONVEX_RIM_NEAR 0.25f
/* Overlapping cores can have several local optima, and MPR's ray can pick
 * the wrong one even when shallow for a thin core (a sphere's centre near a
 * box corner leaves through the nearest face, not the one the ray
 * crosses). Overlaps deeper than this fraction of the smaller core
 * thickness (any overlap for spheres and capsules) also climb from the best
 * of the shapes' own face directions when it beats the optimum found;
 * deeper than CC_CONVEX_DEEP of the smaller thickness (half the thinnest
 * width, cc_convex_thickness), also from EPA's. */
#define CC_CONVEX_ALTERNATIVES 0.05f
/* Side normals of a cylinder or cone tried as starts, evenly round its
 * axis (besides the one facing the other shape). */
#define CC_CONVEX_RING_STARTS 16
#define CC_CONVEX_DEEP 0.05f
/* Deeper than this fraction, every start climbs (several are needed where
 * the shapes are mostly inside each other). */
#define CC_CONVEX_VERY_DEEP 0.2f
#define CC_CONVEX_EPA_TOLERANCE 1.0e-5f
/* EPA's first stop for round shapes, relative to the pair's size: a start
 * for the climb, run on to the tolerance above only where overlaps are
 * deep enough for other optima. */
#define CC_CONVEX_EPA_START 1.0e-4f
/* Round shapes start with EPA (not MPR) when their centres' offset shows
 * them deeper than this fraction of the smaller extent. */
#define CC_CONVEX_EPA_FIRST 0.1f
/* A settled climb within this fraction of the smaller extent of EPA's
 * bound is the optimum: the other starts stop there (cc_convex_certify).
 * A twentieth of the accuracy asked of a deep answer; not relative to the
 * query's tolerance, whose rounding floor beside a large shape is more
 * than that. EPA runs to half of it. */
#define CC_CONVEX_CERTIFIED 5.0e-6f
/* A climb has settled when its features' closest points lie across the
 * normal within this many query tolerances. */
#define CC_CONVEX_SETTLED 1000.0f

#define CC_CONVEX_PATH_GJK 0
#define CC_CONVEX_PATH_MPR 1

typedef struct cc_convex_result {
    float distance;  /* signed core distance, negative when overlapping [m] */
    cc_vec3 normal;  /* unit, A -> B */
    cc_vec3 point_a; /* witness on A's core, pair coordinates */
    cc_vec3 point_b; /* witness on B's core */
    int path;        /* CC_CONVEX_PATH_* */
    int iterations;  /* GJK and MPR iterations and ascent evaluations */
    cc_feature feature_a, feature_b; /* supporting features along the normal (A's, and B's along -normal) */
    /* Where the witness came from the overlap of the two features seen
     * along the normal: that overlap, in overlap_plane's coordinates, for
     * the manifold to clip no second time (-1: not computed). */
    int overlap_count;
    cc_contact_plane overlap_plane;
    float overlap_u[CC_CLIP_MAX], overlap_v[CC_CLIP_MAX];
} cc_convex_result;

/* Thickness of the core itself: 0 for a sphere's point and a capsule's
 * segment, the extent of every other shape. */
CC_HD float cc_convex_core_extent(const cc_convex* c)
{
    if (c->type == CC_SHAPE_SPHERE || c->type == CC_SHAPE_CAPSULE) return 0.0f;
    return c->extent;
}

/* Half the shape's thinnest width, or an upper bound on it: a sphere's or
 * capsule's radius, a box's, cylinder's, cone's or ellipsoid's least half
 * size, a hull's extent (its thinness would cost a pass over its
 * vertices). Depths are large against this, not against the extent: a
 * long thin shape overlapped by a fifth of its radius has other optima,
 * however small that is beside its length. */
CC_HD float cc_convex_thickness(const cc_convex* c)
{
    cc_vec3 s = c->size;
    switch (c->type) {
    case CC_SHAPE_SPHERE:
    case CC_SHAPE_CAPSULE: return s.x;
    case CC_SHAPE_BOX:
    case CC_SHAPE_ELLIPSOID: return cc_minf(s.x, cc_minf(s.y, s.z));
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: return cc_minf(s.x, s.y);
    default: return c->extent;
    }
}

/* The same for the core: 0 for a sphere's point and a capsule's segment. */
CC_HD float cc_convex_core_thickness(const cc_convex* c)
{
    return c->type == CC_SHAPE_SPHERE || c->type == CC_SHAPE_CAPSULE ? 0.0f : cc_convex_thickness(c);
}

/* Whether the core is a polytope with edges (box, hull, a capsule's
 * segment): its depth optima against another lie on face or edge pairs. */
CC_HD int cc_convex_core_has_edges(const cc_convex* c)
{
    return c->type == CC_SHAPE_BOX || c->type == CC_SHAPE_CONVEX_HULL || c->type == CC_SHAPE_CAPSULE;
}

/* The most a support set's slab may be, relative to its shape's extent. */
#define CC_CONVEX_SLAB_SIN 1.0e-3f

/* How far below the top a vertex of x still supports a direction: ten
 * tolerances, but never more than CC_CONVEX_SLAB_SIN of x's own extent
 * (and never under one tolerance). A small hull beside a large shape tilts
 * its faces and edges by more than the pair's tolerance; taking such a
 * face or edge as its support set loses the vertex that touches. */
CC_HD float cc_convex_slab(const cc_convex* x, float tol)
{
    return cc_maxf(tol, cc_minf(10.0f * tol, CC_CONVEX_SLAB_SIN * x->extent));
}

/* What the polish needs of a feature f of c along d: the size of its exact
 * support set (the points within `slab` of the highest), the first of its
 * points, and its edge direction: a supporting segment's, or the rim's
 * tangent at a single supporting corner of a cap polygon or side line, or
 * a point feature's own edge (zero when none). */
typedef struct cc_edge_view {
    int count; /* 1, 2, or more: a polygon */
    cc_vec3 p0, e;
} cc_edge_view;

CC_HD cc_edge_view cc_feature_edge_view(const cc_convex* c, const cc_feature* f, cc_vec3 d, float slab)
{
    cc_edge_view v;
    v.count = f->count;
    v.p0 = f->p[0];
    v.e = f->edge;
    if (f->count < 2) return v;
    /* A segment is an edge however it tilts against d: the candidate
     * square to it holds whichever of its ends touches. */
    if (f->count == 2) {
        v.e = cc_v3_sub(f->p[1], f->p[0]);
        return v;
    }
    float top = -3.0e38f;
    CC_NO_UNROLL
    for (int i = 0; i < f->count; ++i) top = cc_maxf(top, cc_v3_dot(f->p[i], d));
    int k = 0;
    cc_vec3 p1 = f->p[0];
    CC_NO_UNROLL
    for (int i = 0; i < f->count; ++i) {
        if (!(cc_v3_dot(f->p[i], d) >= top - slab)) continue;
        if (k == 0) v.p0 = f->p[i];
        if (k == 1) p1 = f->p[i];
        ++k;
    }
    if (k == 2) {
        v.count = 2;
        v.e = cc_v3_sub(p1, v.p0);
    } else if (k == 1) {
        cc_feature corner;
        cc_feature_rim_corner(c, v.p0, &corner);
        v.count = 1;
        v.e = corner.edge;
    } else {
        v.count = k;
    }
    return v;
}

/* The separation has a kink at a face normal, so an iterative direction a
 * hair off a face loses depth to first order. The supporting features
 * along the direction offer the exact candidates: a face normal of either
 * shape, or the cross product of two edges. The best of them replaces the
 * direction when it separates more. */
CC_HD_CALL void cc_convex_polish_once(const cc_convex* a, const cc_convex* b, cc_vec3* n, float* sep, float tol,
                                cc_feature* fa, cc_feature* fb, int* improved)
{
    *improved = 0;
    cc_convex_feature(a, *n, fa);
    cc_convex_feature(b, cc_v3_neg(*n), fb);
    cc_vec3 cand[4];
    int count = 0;
    if (fa->count >= 3) cand[count++] = fa->normal;
    if (fb->count >= 3) cand[count++] = cc_v3_neg(fb->normal);
    /* Two edges (box or hull edges, capsule or side lines, rims at a
     * point): the normal is perpendicular to both. Edges for the candidates come from the exact support sets: a face
     * feature whose support set along n is one of its edges offers that
     * edge, and a single supporting corner of a cap polygon or side line
     * lies on a rim, whose tangent is its edge. The features themselves
     * stay as chosen: the manifold clips them. */
    cc_edge_view ga = cc_feature_edge_view(a, fa, *n, 100.0f * tol);
    cc_edge_view gb = cc_feature_edge_view(b, fb, cc_v3_neg(*n), 100.0f * tol);
    /* Beside a much larger shape the tolerance follows the pair's
     * coordinates, and a hundred of them can span a small hull's face: its
     * corner within its own slab is the point to take (a corner against a
     * long edge, where a normal a hair off the perpendicular loses the
     * edge's length times that angle). */
    if (ga.count > 2) ga = cc_feature_edge_view(a, fa, *n, cc_convex_slab(a, tol));
    if (gb.count > 2) gb = cc_feature_edge_view(b, fb, cc_v3_neg(*n), cc_convex_slab(b, tol));
    cc_vec3 ea = ga.e, eb = gb.e;
    if (ga.count <= 2 && gb.count <= 2) {
        cc_vec3 c = cc_v3_normalize(cc_v3_cross(ea, eb));
        if (cc_v3_length_sq(c) < 0.5f) {
            /* A plain point against an edge: the perpendicular from the
             * point to the edge's line. */
            cc_vec3 p = ga.p0, q = gb.p0, e = eb;
            if (cc_v3_length_sq(eb) < cc_v3_length_sq(ea)) {
                p = gb.p0;
                q = ga.p0;
                e = ea;
            }
            float el = cc_v3_length_sq(e);
            cc_vec3 r = cc_v3_sub(p, q);
            if (el > 0.0f) c = cc_v3_normalize(cc_v3_madd(r, e, -cc_v3_dot(r, e) / el));
        }
        if (cc_v3_dot(c, *n) < 0.0f) c = cc_v3_neg(c);
        if (cc_v3_length_sq(c) > 0.5f) cand[count++] = c;
        /* The direction turned square to an edge: where a point or an edge
         * lies on the other's edge line, any such direction is optimal. */
        cc_vec3 e = cc_v3_length_sq(ea) > cc_v3_length_sq(eb) ? ea : eb;
        float el = cc_v3_length_sq(e);
        if (el > 0.0f) {
            cc_vec3 q = cc_v3_normalize(cc_v3_madd(*n, e, -cc_v3_dot(*n, e) / el));
            if (cc_v3_length_sq(q) > 0.5f) cand[count++] = q;
        }
    }
    /* Any candidate that separates more is closer to the answer: sep never
     * exceeds the signed distance. */
    CC_NO_UNROLL
    for (int i = 0; i < count; ++i) {
        /* The direction itself (a face normal it was snapped to in the
         * last round): its separation is *sep already, never better. */
        if (cand[i].x == n->x && cand[i].y == n->y && cand[i].z == n->z) continue;
        float s = cc_convex_separation_along(a, b, cand[i]);
        if (s > *sep + 0.1f * tol) {
            *sep = s;
            *n = cand[i];
            *improved = 1;
        }
    }
}

/* The separation has a kink at a face normal, so an iterative direction a
 * hair off a face loses depth to first order. The supporting features
 * along the direction offer the exact candidates: a face normal of either
 * shape, or the direction perpendicular to two edges. The best of them
 * replaces the direction when it separates more; curved rims move their
 * contact point with the direction, so that repeats a few rounds. Leaves
 * the features supporting the final direction in fa and fb. Returns 1 when
 * the last round found nothing better: polishing again is a no-op. */
CC_HD_CALL int cc_convex_polish(const cc_convex* a, const cc_convex* b, cc_vec3* n, float* sep, float tol,
                           cc_feature* fa, cc_feature* fb)
{
    int improved = 1;
    CC_NO_UNROLL
    for (int round = 0; round < 4 && improved; ++round) cc_convex_polish_once(a, b, n, sep, tol, fa, fb, &improved);
    if (improved) { /* features along the final direction */
        cc_convex_feature(a, *n, fa);
        cc_convex_feature(b, cc_v3_neg(*n), fb);
    }
    return !improved;
}

/* Steepest ascent of sep on the unit sphere from *n. The gradient of sep
 * is p_B - p_A (the support points); its part across n says which way to
 * turn. Each step searches the turn along that direction, growing it while
 * sep grows and shrinking it until sep grows. */
/* Line search from n along the tangent `dir`: grows the turn while sep
 * grows, shrinks it until sep grows. Returns the accepted turn (0: none)
 * and updates n, sep and the support points. */
CC_HD_CALL float cc_convex_line_search(const cc_convex* a, const cc_convex* b, float tol, cc_vec3 dir, float t,
                                  cc_vec3* n, float* sep, cc_vec3* pa, cc_vec3* pb, int* evals)
{
    float best_t = 0.0f;
    cc_vec3 from = *n, w = cc_v3_sub(*pb, *pa);
    CC_NO_UNROLL
    for (int k = 0; k < CC_CONVEX_ASCENT_SEARCH; ++k) {
        cc_vec3 la, lb, cand = cc_v3_normalize(cc_v3_madd(from, dir, t));
        /* Any points of A and B bound the separation along every x from
         * above: sep(x) <= (p_B - p_A).x. A turn that cannot gain the
         * acceptance margin by that bound is not evaluated; half the margin
         * is kept for rounding, so the same turns are accepted as before.
         * From n, the bound (sep + t slope) / sqrt(1 + t^2) grows with t
         * up to t = slope / sep: below that, smaller turns fail too. */
        if (!(cc_v3_dot(w, cand) > *sep + 0.05f * tol)) {
            if (best_t > 0.0f || !(t * *sep > cc_v3_dot(w, dir))) break;
            t *= 0.25f;
            continue;
        }
        float sc = cc_convex_separation_local(a, b, cand, &la, &lb);
        (*evals)++;
        if (sc > *sep + 0.1f * tol) {
            *sep = sc;
            *n = cand;
            *pa = cc_frame_point_out(&a->f, la);
            *pb = cc_frame_point_out(&b->f, lb);
            w = cc_v3_sub(*pb, *pa);
            best_t = t;
            t *= 2.0f; /* keep going while it improves */
        } else if (best_t > 0.0f) {
            break; /* overshot after an improvement */
        } else {
            t *= 0.25f;
        }
    }
    return best_t;
}

/* In a narrow curved valley of sep (a small shape against the
 * near-round waist of a long ellipsoid) steepest steps zigzag across it
 * and crawl along it; the line through the point two smooth steps back
 * runs along the valley (parallel tangents). Not across creases, where
 * the bundle of two gradients already runs along it. Searched from *n,
 * which may move; *back becomes *n for the next pair of steps. Out of
 * line: the point two steps back stays in memory, not in the registers
 * the triangle kernels need. */
CC_HD_CALL void cc_convex_parallel_tangent(const cc_convex* a, const cc_convex* b, float tol, cc_vec3* back, cc_vec3* n,
                                           float* sep, cc_vec3* pa, cc_vec3* pb, int* evals)
{
    /* Curved valleys come from an ellipsoid's surface; against ruled and
     * flat surfaces the steps cross creases, where the search would only
     * change which stationary point the ascent reaches. */
    int smooth = a->type == CC_SHAPE_ELLIPSOID || b->type == CC_SHAPE_ELLIPSOID;
    cc_vec3 along = smooth ? cc_v3_sub(*n, *back) : cc_v3(0.0f, 0.0f, 0.0f);
    along = cc_v3_reject(along, *n);
    float alen = cc_v3_length(along);
    if (alen > 1.0e-6f) cc_convex_line_search(a, b, tol, cc_v3_scale(along, 1.0f / alen), alen, n, sep, pa, pb, evals);
    *back = *n;
}

/* Both shapes supported by single rim points: near a cap's normal these
 * swing fast with the direction, and the ascent crawls along the valley
 * they make. Their common normal (convex/rim.h) is the optimum when the
 * contact stays rim against rim; n moves there when it separates more
 * (returns 1). */
CC_HD_CALL int cc_convex_rim_jump(const cc_convex* a, const cc_convex* b, float tol, cc_vec3* n, float* sep, int* evals)
{
    cc_rim ka, kb;
    if (!cc_rim_of_support(a, *n, CC_CONVEX_RIM_NEAR, &ka) || !cc_rim_of_support(b, cc_v3_neg(*n), CC_CONVEX_RIM_NEAR, &kb))
        return 0;
    if (!cc_rim_rim(&ka, &kb)) return 0;
    cc_vec3 d = cc_v3_sub(cc_rim_point(&kb), cc_rim_point(&ka));
    float len = cc_v3_length(d);
    if (!(len > 1.0e-6f * (a->extent + b->extent))) return 0;
    d = cc_v3_scale(d, 1.0f / len);
    if (cc_v3_dot(d, *n) < 0.0f) d = cc_v3_neg(d);
    float s = cc_convex_separation_along(a, b, d);
    (*evals)++;
    if (!(s > *sep + 0.1f * tol)) return 0;
    *sep = s;
    *n = d;
    return 1;
}

/* Steepest ascent of sep on the unit sphere from *n. The gradient of sep
 * is p_B - p_A (the support points); its part across n says which way to
 * turn. On a ridge (two surface patches meeting at a sharp edge, where sep
 * has a crease) the gradient points across the crease and gains nothing;
 * the gradient from just across the crease points back, and the shortest
 * combination of the two (a two-piece bundle) runs along the crease. */
CC_HD void cc_convex_ascend(const cc_convex* a, const cc_convex* b, float scale, float tol, cc_vec3* n_io,
                            float* sep_io, int* evaluations)
{
    cc_vec3 n = *n_io, pa, pb;
    float sep = cc_convex_separation(a, b, n, &pa, &pb);
    float turn = 0.0f; /* the last accepted turn, a good first guess for the next */
    int evals = 1;
    cc_vec3 g_prev = cc_v3(0.0f, 0.0f, 0.0f), n_back = n;
    CC_NO_UNROLL
    for (int step = 0; step < CC_CONVEX_ASCENT_STEPS; ++step) {
        cc_vec3 w = cc_v3_sub(pb, pa);
        cc_vec3 g = cc_v3_reject(w, n);
        cc_vec3 gp = cc_v3_reject(g_prev, n);
        g_prev = g;
        int crease = cc_v3_dot(g, gp) < 0.0f; /* the steps cross a crease: no valley to follow */
        if (crease) {
            cc_vec3 diff = cc_v3_sub(gp, g);
            float lambda = cc_clampf(-cc_v3_dot(g, diff) / cc_v3_length_sq(diff), 0.0f, 1.0f);
            g = cc_v3_madd(g, diff, lambda);
        }
        float glen = cc_v3_length(g);
        if (!(glen > tol)) break;
        cc_vec3 dir = cc_v3_scale(g, 1.0f / glen);
        float t0 = turn > 0.0f ? turn : glen / scale;
        float t = cc_convex_line_search(a, b, tol, dir, t0, &n, &sep, &pa, &pb, &evals);
        crease |= !(t > 0.0f);
        CC_NO_UNROLL
        for (float probe = 1.0e-4f; !(t > 0.0f) && probe < 0.1f; probe *= 30.0f) {
            /* Stuck on a crease: the gradient just across it points back;
             * the shortest combination of the two runs along the crease. */
            cc_vec3 qa, qb, across = cc_v3_normalize(cc_v3_madd(n, dir, probe));
            cc_convex_separation(a, b, across, &qa, &qb);
            evals++;
            cc_vec3 w2 = cc_v3_sub(qb, qa);
            cc_vec3 g2 = cc_v3_madd(w2, n, -cc_v3_dot(w2, n));
            if (!(cc_v3_dot(g2, dir) < 0.0f)) continue; /* not across yet */
            cc_vec3 diff = cc_v3_sub(g2, g);
            float lambda = cc_clampf(-cc_v3_dot(g, diff) / cc_v3_length_sq(diff), 0.0f, 1.0f);
            cc_vec3 ridge = cc_v3_madd(g, diff, lambda);
            float rlen = cc_v3_length(ridge);
            if (!(rlen > tol)) break; /* the crease's best point: done */
            t = cc_convex_line_search(a, b, tol, cc_v3_scale(ridge, 1.0f / rlen), rlen / scale, &n, &sep, &pa, &pb,
                                      &evals);
        }
        if (!(t > 0.0f)) break;
        turn = t;
        if (crease) n_back = n;
        else if (step & 1) cc_convex_parallel_tangent(a, b, tol, &n_back, &n, &sep, &pa, &pb, &evals);
    }
    *n_io = n;
    *sep_io = sep;
    *evaluations += evals;
}

/* 2-D distance from point (u, v) to segment (u0, v0)-(u1, v1). */
CC_HD float cc_point_segment_distance2(float u, float v, float u0, float v0, float u1, float v1)
{
    float du = u1 - u0, dv = v1 - v0, len = du * du + dv * dv;
    float t = len > 0.0f ? cc_clampf(((u - u0) * du + (v - v0) * dv) / len, 0.0f, 1.0f) : 0.0f;
    float eu = u0 + t * du - u, ev = v0 + t * dv - v;
    return sqrtf(eu * eu + ev * ev);
}

/* 1 when direction n is a stationary point of sep (a local optimum, since
 * sep is concave): the exact support sets of A along n and of B along -n
 * overlap when seen along n, so that some pair of support points lies on
 * one line along n and the gradient can vanish. Curved surfaces report
 * inscribed polygons, which only ever make this answer "no". */
CC_HD_CALL int cc_convex_stationary(const cc_feature* fa, const cc_feature* fb, cc_vec3 n, float slab)
{
    cc_feature sa, sb;
    cc_feature_support_set(fa, n, slab, &sa);
    cc_feature_support_set(fb, cc_v3_neg(n), slab, &sb);
    cc_contact_plane cp = cc_contact_plane_of(sa.p[0], n);
    float au[CC_FEATURE_MAX], av[CC_FEATURE_MAX], bu[CC_FEATURE_MAX], bv[CC_FEATURE_MAX];
    if (sa.count >= 2 && sb.count >= 2) {
        float ou[CC_CLIP_MAX], ov[CC_CLIP_MAX];
        if (cc_feature_overlap(&sa, &sb, &cp, ou, ov) > 0) return 1;
        if (sa.count != 2 || sb.count != 2) return 0;
        /* Two crossing segments. */
        cc_feature_project(&sa, &cp, au, av);
        cc_feature_project(&sb, &cp, bu, bv);
        float d0 = cc_cross2(au[1] - au[0], av[1] - av[0], bu[0] - au[0], bv[0] - av[0]);
        float d1 = cc_cross2(au[1] - au[0], av[1] - av[0], bu[1] - au[0], bv[1] - av[0]);
        float d2 = cc_cross2(bu[1] - bu[0], bv[1] - bv[0], au[0] - bu[0], av[0] - bv[0]);
        float d3 = cc_cross2(bu[1] - bu[0], bv[1] - bv[0], au[1] - bu[0], av[1] - bv[0]);
        return d0 * d1 <= 0.0f && d2 * d3 <= 0.0f;
    }
    /* A point against a point, a segment or a polygon. */
    const cc_feature* pt = sa.count == 1 ? &sa : &sb;
    const cc_feature* other = sa.count == 1 ? &sb : &sa;
    float pu, pv;
    cc_plane_project(&cp, pt->p[0], &pu, &pv);
    cc_feature_project(other, &cp, au, av);
    if (other->count == 1) return cc_point_segment_distance2(pu, pv, au[0], av[0], au[0], av[0]) <= slab;
    if (other->count == 2) return cc_point_segment_distance2(pu, pv, au[0], av[0], au[1], av[1]) <= slab;
    CC_NO_UNROLL
    for (int i = 0; i < other->count; ++i) {
        int j = i + 1 == other->count ? 0 : i + 1;
        if (cc_cross2(au[j] - au[i], av[j] - av[i], pu - au[i], pv - av[i]) < -slab * cc_maxf(fabsf(au[j] - au[i]), fabsf(av[j] - av[i])))
            return 0;
    }
    return 1;
}

/* Two polygon features that do not face each other along n (nearly
 * parallel faces a hair apart, whose face normals each miss the other's
 * support set): the optimum is the direction square to an edge of each,
 * which no iterative direction resolves at a small distance (float support
 * points give it to their rounding over the distance). Tries every pair of
 * box or hull face edges with up to CC_CONVEX_EDGE_PAIR_SIDES sides each; moves n
 * (returns 1) when one separates more. */
#define CC_CONVEX_EDGE_PAIR_SIDES 8
CC_HD_CALL int cc_convex_edge_pairs(const cc_convex* a, const cc_convex* b, const cc_feature* fa, const cc_feature* fb,
                                    float tol, cc_vec3* n, float* sep, int* evals)
{
    if (fa->count < 3 || fb->count < 3 || fa->count > CC_CONVEX_EDGE_PAIR_SIDES || fb->count > CC_CONVEX_EDGE_PAIR_SIDES)
        return 0;
    /* Real edges only: a cap's inscribed polygon has none (its rim is the
     * rim jump's). */
    int polygon_a = a->type == CC_SHAPE_BOX || a->type == CC_SHAPE_CONVEX_HULL;
    int polygon_b = b->type == CC_SHAPE_BOX || b->type == CC_SHAPE_CONVEX_HULL;
    if (!polygon_a || !polygon_b) return 0;
    cc_vec3 best_n = *n;
    float best = *sep;
    CC_NO_UNROLL
    for (int i = 0; i < fa->count; ++i) {
        cc_vec3 ea = cc_v3_sub(fa->p[i + 1 == fa->count ? 0 : i + 1], fa->p[i]);
        CC_NO_UNROLL
        for (int j = 0; j < fb->count; ++j) {
            cc_vec3 eb = cc_v3_sub(fb->p[j + 1 == fb->count ? 0 : j + 1], fb->p[j]);
            cc_vec3 c = cc_v3_normalize(cc_v3_cross(ea, eb));
            float cn = cc_v3_dot(c, *n);
            if (cn < 0.0f) c = cc_v3_neg(c), cn = -cn;
            /* Only directions near n: the features were chosen for it. */
            if (!(cn > CC_FEATURE_COS)) continue;
            float sc = cc_convex_separation_along(a, b, c);
            (*evals)++;
            if (sc > best) {
                best = sc;
                best_n = c;
            }
        }
    }
    if (!(best > *sep + 0.1f * tol)) return 0;
    *n = best_n;
    *sep = best;
    return 1;
}

/* Local search from *n: exact feature directions, then the ascent unless
 * that direction is already stationary. Returns 1 when it ends polished
 * (fa and fb then hold the features along the final *n and polishing
 * again would change nothing), 0 after the ascent. */
CC_HD int cc_convex_climb(const cc_convex* a, const cc_convex* b, float scale, float tol, cc_vec3* n, float* sep,
                          int* evaluations, cc_feature* fa, cc_feature* fb)
{
    int polished = cc_convex_polish(a, b, n, sep, tol, fa, fb);
    /* A face or edge direction whose support sets face each other is the
     * optimum already (resting polytopes end here). */
    if (cc_convex_stationary(fa, fb, *n, 10.0f * tol)) return polished;
    if (cc_convex_edge_pairs(a, b, fa, fb, tol, n, sep, evaluations)) {
        polished = cc_convex_polish(a, b, n, sep, tol, fa, fb);
        if (cc_convex_stationary(fa, fb, *n, 10.0f * tol)) return polished;
    }
    cc_convex_rim_jump(a, b, tol, n, sep, evaluations);
    cc_convex_ascend(a, b, scale, tol, n, sep, evaluations);
    return 0;
}

/* Closest points of two supporting features along n: a point and the
 * point of the other feature nearest to it seen along n (a side line of a
 * cylinder or cone is the surface only along itself, so the nearest point
 * in space would leave the surface across it), or two segments' closest
 * points. Returns 0 for a segment or polygon against a polygon, whose
 * normal the polish makes exact. */
CC_HD int cc_feature_closest(const cc_feature* fa, const cc_feature* fb, cc_vec3 n, cc_vec3* pa, cc_vec3* pb)
{
    if (fa->count >= 3 && fb->count >= 2) return 0;
    if (fb->count >= 3 && fa->count >= 2) return 0;
    if (fa->count == 2 && fb->count == 2) {
        float s, t;
        cc_vec3 da = cc_v3_sub(fa->p[1], fa->p[0]), db = cc_v3_sub(fb->p[1], fb->p[0]);
        cc_segment_segment_closest(fa->p[0], da, fb->p[0], db, &s, &t);
        *pa = cc_v3_madd(fa->p[0], da, s);
        *pb = cc_v3_madd(fb->p[0], db, t);
        return 1;
    }
    int a_point = fa->count == 1;
    const cc_feature* other = a_point ? fb : fa;
    cc_vec3 p = a_point ? fa->p[0] : fb->p[0], q = other->p[0];
    if (other->count >= 2) {
        cc_contact_plane cp = cc_contact_plane_of(p, n);
        q = cc_feature_lift_nearest(other, &cp, 0.0f, 0.0f);
    }
    *pa = a_point ? p : q;
    *pb = a_point ? q : p;
    return 1;
}

/* Separated cores: the line between the closest points of the features
 * supporting n is the normal at the optimum, and n <- that line's
 * direction converges to it: at once for polytope features, fast while the
 * gap is small against the curvature for round ones. sep is flat or
 * creased there (a point over a long side line), so this sharpens the
 * normal where the ascent crawls. Steps that lose separation beyond the
 * tolerance are refused. Returns 1 when it moved *n. */
CC_HD int cc_convex_align(const cc_convex* a, const cc_convex* b, cc_vec3* n, float* sep, float tol, int* evals)
{
    int moved = 0;
    if (!(*sep > 0.0f)) return 0;
    CC_NO_UNROLL
    for (int it = 0; it < 8; ++it) {
        cc_vec3 pa, pb;
        cc_feature fa, fb;
        cc_convex_feature(a, *n, &fa);
        cc_convex_feature(b, cc_v3_neg(*n), &fb);
        if (!cc_feature_closest(&fa, &fb, *n, &pa, &pb)) break;
        cc_vec3 m = cc_v3_normalize(cc_v3_sub(pb, pa));
        /* Settled: the direction moves by less than float rounding can
         * tell (a face's normal after the polish lands here at once). */
        if (!(cc_v3_length_sq(m) > 0.5f) || cc_v3_length_sq(cc_v3_sub(m, *n)) < 1.0e-12f) break;
        float sm = cc_convex_separation_along(a, b, m);
        (*evals) += 2;
        if (!(sm >= *sep - tol)) break;
        *n = m;
        *sep = cc_maxf(*sep, sm);
        moved = 1;
    }
    return moved;
}

/* Iterations of the sharpening methods below, and their first probe [rad]. */
#define CC_CONVEX_NEWTON_STEPS 6
#define CC_CONVEX_NEWTON_PROBE 1.0e-3f
/* Rounds of sharpening a deep answer gets while each gains. */
#define CC_CONVEX_DEEP_SHARPEN_ROUNDS 3
/* A gradient (the touching points' miss across n) within this fraction of
 * the smaller shape, or ten tolerances, is left as it is: a tenth of what
 * the fuzz harness's witness check allows, and most settled answers are
 * there already (99 % of the bench's convex scene). */
#define CC_CONVEX_SHARP 1.0e-3f
CC_HD float cc_convex_sharp(const cc_convex* a, const cc_convex* b, float tol)
{
    return cc_maxf(10.0f * tol, CC_CONVEX_SHARP * cc_minf(a->extent, b->extent));
}
/* sep along n, and its gradient: the part of pb - pa square to n. */
CC_HD float cc_convex_gradient(const cc_convex* a, const cc_convex* b, cc_vec3 n, cc_vec3* g)
{
    cc_vec3 pa, pb;
    float s = cc_convex_separation(a, b, n, &pa, &pb);
    cc_vec3 w = cc_v3_sub(pb, pa);
    *g = cc_v3_reject(w, n);
    return s;
}

/* Single supporting points on round surfaces: sep is smooth and flat at
 * its optimum, so the ascent, which steps on sep, stops where sep no
 * longer changes in float, with a normal off by about sqrt(tol /
 * curvature); the touching points then slide along the surfaces by that
 * angle times their radii. The optimum is where the gradient, the part g
 * of pb - pa square to n, vanishes: Newton's method on g in n's tangent
 * plane, with the 2x2 Jacobian taken from two differences and then kept
 * by Broyden's update, drives it to rounding (polytope points give the
 * align step). A step is kept only while |g| shrinks and sep holds.
 * Returns 1 when it moved *n. */
CC_HD_CALL int cc_convex_newton(const cc_convex* a, const cc_convex* b, float tol, cc_vec3* n, float* sep, int* evals)
{
    cc_contact_plane tp = cc_contact_plane_of(cc_v3(0.0f, 0.0f, 0.0f), *n);
    cc_vec3 g;
    float s = cc_convex_gradient(a, b, *n, &g);
    float g1 = cc_v3_dot(g, tp.t1), g2 = cc_v3_dot(g, tp.t2);
    /* Sharp already: the points face each other within the accuracy. */
    float sharp = cc_convex_sharp(a, b, tol);
    if (!(g1 * g1 + g2 * g2 > sharp * sharp)) return 0;
    float j[2][2];
    CC_NO_UNROLL
    for (int k = 0; k < 2; ++k) {
        cc_vec3 gk;
        cc_convex_gradient(a, b, cc_v3_normalize(cc_v3_madd(*n, k ? tp.t2 : tp.t1, CC_CONVEX_NEWTON_PROBE)), &gk);
        j[0][k] = (cc_v3_dot(gk, tp.t1) - g1) / CC_CONVEX_NEWTON_PROBE;
        j[1][k] = (cc_v3_dot(gk, tp.t2) - g2) / CC_CONVEX_NEWTON_PROBE;
    }
    *evals += 3;
    /* Near the optimum sep is flat and its rounding noisy: the walk may
     * fall below where it began by tol, the query's accuracy, never more
     * (a deep overlap has saddles, which Newton's method would also reach). */
    float floor = cc_minf(s, *sep) - tol;
    int moved = 0;
    CC_NO_UNROLL
    for (int it = 0; it < CC_CONVEX_NEWTON_STEPS; ++it) {
        float det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
        if (!(fabsf(det) > 0.0f)) break;
        float inv = 1.0f / det;
        float d1 = -(j[1][1] * g1 - j[0][1] * g2) * inv, d2 = -(j[0][0] * g2 - j[1][0] * g1) * inv;
        /* A step that overshoots (onto a rim's crease, or where the
         * Jacobian is rough) is halved, up to three times. */
        cc_vec3 m, gm;
        float sm;
        int ok = 0;
        CC_NO_UNROLL
        for (int half = 0; half < 4 && !ok; ++half, d1 *= 0.5f, d2 *= 0.5f) {
            m = cc_v3_normalize(cc_v3_madd(cc_v3_madd(*n, tp.t1, d1), tp.t2, d2));
            sm = cc_convex_gradient(a, b, m, &gm);
            (*evals)++;
            ok = cc_v3_length_sq(gm) < g1 * g1 + g2 * g2 && sm >= floor;
        }
        if (!ok) break;
        d1 *= 2.0f;
        d2 *= 2.0f;
        /* Broyden's update: the Jacobian made to map this step to the
         * change of g it caused. */
        float h1 = cc_v3_dot(gm, tp.t1), h2 = cc_v3_dot(gm, tp.t2);
        float r1 = h1 - g1 - (j[0][0] * d1 + j[0][1] * d2), r2 = h2 - g2 - (j[1][0] * d1 + j[1][1] * d2);
        float dd = d1 * d1 + d2 * d2;
        if (dd > 0.0f) {
            j[0][0] += r1 * d1 / dd;
            j[0][1] += r1 * d2 / dd;
            j[1][0] += r2 * d1 / dd;
            j[1][1] += r2 * d2 / dd;
        }
        *n = m;
        s = sm;
        g1 = h1;
        g2 = h2;
        moved = 1;
    }
    if (moved) *sep = s;
    return moved;
}

/* The query's accuracy [m]: relative to the smaller shape (a small shape
 * beside a large one needs its own precision), but never finer than
 * rounding of the pair's coordinates. */
CC_HD float cc_convex_tolerance(const cc_convex* a, const cc_convex* b)
{
    float coords = a->extent + b->extent + cc_v3_length(cc_v3_sub(a->f.o, b->f.o));
    return cc_maxf(CC_CONVEX_TOLERANCE * cc_minf(a->extent, b->extent), CC_CONVEX_ROUNDING * coords);
}

/* The mean of a feature's points: a disk's centre (its inscribed polygon
 * is regular). */
CC_HD cc_vec3 cc_feature_centre(const cc_feature* f)
{
    cc_vec3 sum = cc_v3(0.0f, 0.0f, 0.0f);
    for (int i = 0; i < f->count; ++i) sum = cc_v3_add(sum, f->p[i]);
    return cc_v3_scale(sum, 1.0f / (float)f->count);
}

/* Whether feature f of c stands for a round cap: a cylinder's cap or a
 * cone's base is the whole disk, not the inscribed polygon that stands for
 * it in clipping. */
CC_HD int cc_feature_is_disk(const cc_convex* c, const cc_feature* f)
{
    return f->count >= 3 && (c->type == CC_SHAPE_CYLINDER || c->type == CC_SHAPE_CONE);
}

/* The exact support set of c along `out` (c's outward normal of the
 * contact) from its supporting feature f there: a feature chosen within
 * CC_FEATURE_ANGLE of a face or edge is larger than the support set (a
 * hull face tilted 3 degrees touches with one vertex), so it is cut to its
 * vertices within `slab` of the top; a disk stays whole. */
CC_HD void cc_support_set_of(const cc_convex* c, const cc_feature* f, cc_vec3 out, float slab, cc_feature* s)
{
    if (cc_feature_is_disk(c, f)) *s = *f;
    else cc_feature_support_set(f, out, slab, s);
}

/* The point of support set s of c nearest to p seen along the contact
 * normal n; on a disk the disk's own point (a point over the disk beside
 * its inscribed polygon was moved onto the polygon's edge, up to 8 % of
 * the radius from where the shapes touch). */
CC_HD_CALL cc_vec3 cc_support_nearest(const cc_convex* c, const cc_feature* s, cc_vec3 n, cc_vec3 p)
{
    cc_contact_plane cp = cc_contact_plane_of(p, n);
    if (!cc_feature_is_disk(c, s)) return cc_feature_lift_nearest(s, &cp, 0.0f, 0.0f);
    cc_vec3 x;
    if (!cc_feature_lift(s, &cp, 0.0f, 0.0f, &x)) return s->p[0];
    /* The disk in c's frame: its axis is local z, its radius size.x. */
    cc_vec3 l = cc_frame_point_in(&c->f, x);
    float r = sqrtf(l.x * l.x + l.y * l.y);
    if (r > c->size.x) l = cc_v3(l.x * (c->size.x / r), l.y * (c->size.x / r), l.z);
    return cc_frame_point_out(&c->f, l);
}

/* How far below the top, relative to its length, an edge of a hull's
 * support vertex may end and still count as touching: a normal a hair off
 * the edge's normal cone (within the query's accuracy) lifts its other end
 * by that angle times the length. */
#define CC_CONVEX_EDGE_TOUCH_SIN 1.0e-3f
/* The edge of hull c through its support vertex along `out` (c's outward
 * normal of the contact) that still touches: its other end within `slab`
 * plus CC_CONVEX_EDGE_TOUCH_SIN of its length below the vertex (a normal a
 * hair off the edge's normal cone lifts that end). The feature c holds
 * there is the face nearest the normal, which need not be that edge's.
 * Writes the segment, the support vertex first, and returns 1; 0 when no
 * edge touches. */
CC_HD_CALL int cc_hull_touching_edge(const cc_convex* c, cc_vec3 out, float slab, cc_feature* e)
{
    cc_vec3 d = cc_frame_vector_in(&c->f, out);
    int top = cc_hull_support_vertex(&c->hull, cc_v3_mul(c->size, d));
    int other = cc_hull_edge_at(c, d, top, CC_CONVEX_EDGE_TOUCH_SIN, slab);
    if (other < 0) return 0;
    cc_feature_segment(c, cc_v3_mul(c->hull.vertices[top], c->size), cc_v3_mul(c->hull.vertices[other], c->size), e);
    return 1;
}

/* The point of c's support set s along `out` (the contact's normal seen
 * from c) nearest to x seen along it. The feature of a hull holds its
 * support set only when that is a face within CC_FEATURE_ANGLE: when it
 * comes down to one vertex, c may still touch along an edge through it on
 * another face, or along an edge whose other end the normal's last
 * rounding lifted; that edge, when there is one. */
CC_HD_CALL cc_vec3 cc_touching_nearest(const cc_convex* c, const cc_feature* s, cc_vec3 out, float slab, cc_vec3 x)
{
    cc_feature e;
    if (s->count == 1 && c->type == CC_SHAPE_CONVEX_HULL && cc_hull_touching_edge(c, out, slab, &e))
        return cc_support_nearest(c, &e, out, x);
    return cc_support_nearest(c, s, out, x);
}

/* A hull c whose support set along `out` is one vertex, against the other
 * shape's segment `seg`: when an edge of c through that vertex still
 * touches (on a face c's feature did not hold), the two segments cross
 * where they touch, which may lie far along that edge from the vertex.
 * Writes the segments' closest points and returns 1; 0 when no edge
 * touches. */
CC_HD_CALL int cc_touching_edge_witness(const cc_convex* c, cc_vec3 out, float slab, const cc_feature* seg, cc_vec3* on_c,
                                        cc_vec3* on_seg)
{
    cc_feature e;
    if (!cc_hull_touching_edge(c, out, slab, &e)) return 0;
    float s, t;
    cc_vec3 de = cc_v3_sub(e.p[1], e.p[0]), ds = cc_v3_sub(seg->p[1], seg->p[0]);
    cc_segment_segment_closest(e.p[0], de, seg->p[0], ds, &s, &t);
    *on_c = cc_v3_madd(e.p[0], de, s);
    *on_seg = cc_v3_madd(seg->p[0], ds, t);
    return 1;
}

/* A segment and a polygon (support sets) that touch beside each other
 * rather than across: seen along the normal they do not overlap (a long
 * edge beside a small face that its rim touches). Their closest points lie
 * on an edge of each: the closest pair of edges. */
CC_HD_CALL void cc_support_sets_nearest(const cc_feature* sa, const cc_feature* sb, cc_vec3* pa, cc_vec3* pb)
{
    float best = 3.0e38f;
    int edges_a = sa->count == 2 ? 1 : sa->count, edges_b = sb->count == 2 ? 1 : sb->count;
    CC_NO_UNROLL
    for (int i = 0; i < edges_a; ++i) {
        cc_vec3 a0 = sa->p[i], da = cc_v3_sub(sa->p[i + 1 == sa->count ? 0 : i + 1], a0);
        CC_NO_UNROLL
        for (int j = 0; j < edges_b; ++j) {
            cc_vec3 b0 = sb->p[j], db = cc_v3_sub(sb->p[j + 1 == sb->count ? 0 : j + 1], b0);
            float s, t;
            cc_segment_segment_closest(a0, da, b0, db, &s, &t);
            cc_vec3 qa = cc_v3_madd(a0, da, s), qb = cc_v3_madd(b0, db, t);
            float d2 = cc_v3_length_sq(cc_v3_sub(qb, qa));
            if (d2 < best) {
                best = d2;
                *pa = qa;
                *pb = qb;
            }
        }
    }
}

/* A disk feature seen along n (the contact plane's normal) as a circle in
 * that plane: its centre, and the radius of the largest circle inside its
 * projection (an ellipse when the cap tilts within CC_FEATURE_ANGLE). */
CC_HD void cc_disk_in_plane(const cc_convex* c, const cc_feature* f, const cc_contact_plane* cp, float* u, float* v,
                            float* radius)
{
    cc_plane_project(cp, cc_feature_centre(f), u, v);
    *radius = c->size.x * fabsf(cc_v3_dot(f->normal, cp->n));
}

/* A point where two features overlap seen along the contact plane's
 * normal, when at least one is a disk (a cylinder's cap, a cone's base)
 * and their polygons do not overlap: the inscribed polygon of a disk falls
 * short of its rim by 8 % of the radius, and misses a thin lens where two
 * caps, or a cap and a face, overlap by less. Between two disks, the middle
 * of their lens on the line through the centres; a disk against a polygon
 * or a segment, the point of that feature nearest the disk's centre.
 * Returns 0 when the features do not overlap. */
CC_HD_CALL int cc_disk_overlap_point(const cc_convex* a, const cc_feature* fa, const cc_convex* b, const cc_feature* fb,
                                     const cc_contact_plane* cp, float* ou, float* ov)
{
    int disk_a = cc_feature_is_disk(a, fa), disk_b = cc_feature_is_disk(b, fb);
    float u1, v1, r1, u2, v2, r2;
    if (disk_a && disk_b) {
        cc_disk_in_plane(a, fa, cp, &u1, &v1, &r1);
        cc_disk_in_plane(b, fb, cp, &u2, &v2, &r2);
        float du = u2 - u1, dv = v2 - v1, d = sqrtf(du * du + dv * dv);
        if (!(d < r1 + r2)) return 0;
        /* The lens spans [max(-r1, d - r2), min(r1, d + r2)] from centre 1
         * towards centre 2. */
        float s = 0.5f * (cc_maxf(-r1, d - r2) + cc_minf(r1, d + r2));
        *ou = u1 + (d > 0.0f ? du * (s / d) : 0.0f);
        *ov = v1 + (d > 0.0f ? dv * (s / d) : 0.0f);
        return 1;
    }
    const cc_feature* other = disk_a ? fb : fa;
    cc_disk_in_plane(disk_a ? a : b, disk_a ? fa : fb, cp, &u1, &v1, &r1);
    /* The point of the other feature nearest the centre: the centre itself
     * inside a polygon (on one side of every edge, whichever way the
     * projection turned it). */
    int edges = other->count == 2 ? 1 : other->count, left = 0, right = 0;
    float best = 3.0e38f, qu = u1, qv = v1;
    CC_NO_UNROLL
    for (int e = 0; e < edges; ++e) {
        float au, av, bu, bv;
        cc_plane_project(cp, other->p[e], &au, &av);
        cc_plane_project(cp, other->p[e + 1 == other->count ? 0 : e + 1], &bu, &bv);
        float eu = bu - au, ev = bv - av, len = eu * eu + ev * ev;
        float side = cc_cross2(eu, ev, u1 - au, v1 - av);
        left |= side > 0.0f;
        right |= side < 0.0f;
        float t = len > 0.0f ? cc_clampf(((u1 - au) * eu + (v1 - av) * ev) / len, 0.0f, 1.0f) : 0.0f;
        float du = au + t * eu - u1, dv = av + t * ev - v1;
        if (du * du + dv * dv < best) best = du * du + dv * dv, qu = au + t * eu, qv = av + t * ev;
    }
    int inside = other->count >= 3 && !(left && right);
    if (inside) qu = u1, qv = v1;
    else if (!(best < r1 * r1)) return 0;
    *ou = qu;
    *ov = qv;
    return 1;
}

/* The part t in [t0, t1] of [0, 1] where the point t (eu, ev) of the
 * contact plane lies over the support set s of c, a polygon or a disk,
 * seen along the plane's normal: the shadow of a segment from the plane's
 * origin, or of the origin itself when (eu, ev) is zero. Returns 0 when
 * none of it does. */
CC_HD_CALL int cc_shadow_cut(const cc_convex* c, const cc_feature* s, const cc_contact_plane* cp, float eu, float ev,
                             float* t0, float* t1)
{
    *t0 = 0.0f;
    *t1 = 1.0f;
    if (cc_feature_is_disk(c, s)) {
        /* |t (eu, ev) - centre|^2 <= radius^2 */
        float cu, cv, radius;
        cc_disk_in_plane(c, s, cp, &cu, &cv, &radius);
        float qa = eu * eu + ev * ev, qb = eu * cu + ev * cv, qc = cu * cu + cv * cv - radius * radius;
        if (!(qa > 0.0f)) return qc <= 0.0f;
        float disc = qb * qb - qa * qc;
        if (!(disc >= 0.0f)) return 0;
        float root = sqrtf(disc);
        *t0 = cc_maxf(*t0, (qb - root) / qa);
        *t1 = cc_minf(*t1, (qb + root) / qa);
        return *t0 <= *t1;
    }
    /* Each edge of the polygon keeps the side its interior lies on (the
     * sign of the polygon's area seen along the normal). */
    float area = 0.0f;
    CC_NO_UNROLL
    for (int i = 0; i < s->count; ++i) {
        float au, av, bu, bv;
        cc_plane_project(cp, s->p[i], &au, &av);
        cc_plane_project(cp, s->p[i + 1 == s->count ? 0 : i + 1], &bu, &bv);
        area += cc_cross2(au, av, bu, bv);
    }
    float sign = area < 0.0f ? -1.0f : 1.0f;
    CC_NO_UNROLL
    for (int i = 0; i < s->count && *t0 <= *t1; ++i) {
        float au, av, bu, bv;
        cc_plane_project(cp, s->p[i], &au, &av);
        cc_plane_project(cp, s->p[i + 1 == s->count ? 0 : i + 1], &bu, &bv);
        /* inside(t) = sign * cross(b - a, t (eu, ev) - a) >= 0, linear in t */
        float f0 = sign * cc_cross2(bu - au, bv - av, -au, -av);
        float slope = sign * cc_cross2(bu - au, bv - av, eu, ev);
        if (slope > 0.0f) *t0 = cc_maxf(*t0, -f0 / slope);
        else if (slope < 0.0f) *t1 = cc_minf(*t1, -f0 / slope);
        else if (f0 < 0.0f) return 0;
    }
    return *t0 <= *t1;
}

/* Where a hull's touching edge e (cc_hull_touching_edge: its support
 * vertex first) overlaps the other shape's support set s, a face or a
 * disk of c, seen along the normal n: the edge's shadow is cut to s's
 * polygon or circle, and of the cut's two ends the deeper is the witness,
 * lifted onto s (e_on_a: the edge is A's). Returns 0, leaving the points,
 * when the edge misses s. */
CC_HD_CALL int cc_edge_overlap_witness(const cc_convex* c, const cc_feature* s, const cc_feature* e, cc_vec3 n, int e_on_a,
                                       cc_vec3* pa, cc_vec3* pb)
{
    cc_contact_plane cp = cc_contact_plane_of(e->p[0], n);
    float eu, ev, t0, t1; /* the edge's shadow runs from the plane's origin along (eu, ev) */
    cc_plane_project(&cp, e->p[1], &eu, &ev);
    if (!cc_shadow_cut(c, s, &cp, eu, ev, &t0, &t1)) return 0;
    float best = 3.0e38f;
    int found = 0;
    CC_NO_UNROLL
    for (int k = 0; k < 2; ++k) {
        float t = k == 0 ? t0 : t1;
        cc_vec3 on_e = cc_v3_madd(e->p[0], cc_v3_sub(e->p[1], e->p[0]), t), on_s;
        if (!cc_feature_lift(s, &cp, t * eu, t * ev, &on_s)) continue;
        float depth = cc_v3_dot(e_on_a ? cc_v3_sub(on_s, on_e) : cc_v3_sub(on_e, on_s), n);
        if (depth < best) {
            best = depth;
            *pa = e_on_a ? on_e : on_s;
            *pb = e_on_a ? on_s : on_e;
            found = 1;
        }
    }
    return found;
}

/* Witness points for the final direction, a pair facing each other along
 * n, from the exact support sets within r's features: two points; a point
 * and the point of the other set nearest to it seen along n (a side line
 * of a cylinder or cone is the surface only along itself, so the nearest
 * point in space would leave the surface across it); two segments at
 * their closest points; otherwise the deepest point where the features
 * overlap seen along n, lifted onto both (where a disk's polygon misses
 * it, a point of the disk's own overlap: cc_disk_overlap_point), or for a
 * segment beside a polygon, not overlapping it, their closest edges'
 * closest points. The
 * overlap of two features of which one is a polygon is kept in r for the
 * manifold's clipping. Without any of these *pa and *pb keep the caller's
 * points. */
CC_HD_CALL void cc_convex_witness(const cc_convex* a, const cc_convex* b, cc_vec3 n, cc_convex_result* r,
                             cc_vec3* pa, cc_vec3* pb)
{
    const cc_feature* fa = &r->feature_a;
    const cc_feature* fb = &r->feature_b;
    r->overlap_count = -1;
    float tol = cc_convex_tolerance(a, b);
    float slab_a = cc_convex_slab(a, tol), slab_b = cc_convex_slab(b, tol);
    /* Two faces, or a segment and a face: their overlap seen along n, which
     * the manifold clips (its count says whether they meet at all). */
    float best = 3.0e38f;
    if (fa->count >= 2 && fb->count >= 2 && (fa->count > 2 || fb->count > 2)) {
        r->overlap_plane = cc_contact_plane_of(fa->p[0], n);
        const cc_contact_plane cp = r->overlap_plane;
        const float *ou = r->overlap_u, *ov = r->overlap_v;
        int k = cc_feature_overlap(fa, fb, &cp, r->overlap_u, r->overlap_v);
        r->overlap_count = k;
        CC_NO_UNROLL
        for (int i = 0; i < k; ++i) { /* the deepest point of the overlap */
            cc_vec3 qa, qb;
            if (!cc_feature_lift(fa, &cp, ou[i], ov[i], &qa) || !cc_feature_lift(fb, &cp, ou[i], ov[i], &qb)) continue;
            float d = cc_v3_dot(cc_v3_sub(qb, qa), n);
            if (d < best) {
                best = d;
                *pa = qa;
                *pb = qb;
            }
        }
        float u, v;
        cc_vec3 qa, qb;
        if (k == 0 && (cc_feature_is_disk(a, fa) || cc_feature_is_disk(b, fb)) &&
            cc_disk_overlap_point(a, fa, b, fb, &cp, &u, &v) && cc_feature_lift(fa, &cp, u, v, &qa) &&
            cc_feature_lift(fb, &cp, u, v, &qb)) {
            *pa = qa;
            *pb = qb;
            return;
        }
    }
    cc_feature sa, sb;
    cc_support_set_of(a, fa, n, slab_a, &sa);
    cc_support_set_of(b, fb, cc_v3_neg(n), slab_b, &sb);
    /* A hull's lone vertex against a segment may touch along an edge of
     * its own through the vertex (cc_touching_edge_witness). */
    int a_vertex = sa.count == 1;
    const cc_convex* vc = a_vertex ? a : b;
    if (sa.count + sb.count == 3 && vc->type == CC_SHAPE_CONVEX_HULL) {
        cc_vec3 on_v, on_seg;
        if (cc_touching_edge_witness(vc, a_vertex ? n : cc_v3_neg(n), a_vertex ? slab_a : slab_b, a_vertex ? &sb : &sa,
                                     &on_v, &on_seg)) {
            *pa = a_vertex ? on_v : on_seg;
            *pb = a_vertex ? on_seg : on_v;
            return;
        }
    }
    if (sa.count == 1 || sb.count == 1) {
        /* A point against a point, a segment or a face, both exactly on
         * their cores (a round shape's point is its exact support point). */
        int a_point = sa.count == 1;
        cc_vec3 p = a_point ? (fa->count == 1 ? cc_support(a, n) : sa.p[0])
                            : (fb->count == 1 ? cc_support(b, cc_v3_neg(n)) : sb.p[0]);
        cc_vec3 q = a_point ? cc_touching_nearest(b, &sb, cc_v3_neg(n), slab_b, p)
                            : cc_touching_nearest(a, &sa, n, slab_a, p);
        /* Where the support set along n is a segment square to n (a side
         * line, an edge), the support point is either end, and the feature
         * may hold the end nearer the other shape (the sharpening cut it
         * there): of the two, the one the other shape's point lies under. */
        const cc_feature* f1 = a_point ? fa : fb;
        cc_vec3 alt = f1->p[0];
        if (f1->count == 1 && fabsf(cc_v3_dot(cc_v3_sub(alt, p), n)) <= (a_point ? slab_a : slab_b) &&
            cc_v3_length_sq(cc_v3_reject(cc_v3_sub(alt, p), n)) > tol * tol) {
            cc_vec3 q_alt = a_point ? cc_touching_nearest(b, &sb, cc_v3_neg(n), slab_b, alt)
                                    : cc_touching_nearest(a, &sa, n, slab_a, alt);
            if (cc_v3_length_sq(cc_v3_reject(cc_v3_sub(q_alt, alt), n)) <
                cc_v3_length_sq(cc_v3_reject(cc_v3_sub(q, p), n))) {
                p = alt;
                q = q_alt;
            }
        }
        *pa = a_point ? p : q;
        *pb = a_point ? q : p;
        /* A hull's lone vertex whose shadow misses the other shape's face
         * or disk (q was moved across the normal to its rim) may touch
         * along an edge through it that its feature did not hold: a long
         * edge lying in the contact plane reaches over the other set. */
        const cc_convex* hull = a_point ? a : b;
        const cc_feature* other = a_point ? &sb : &sa;
        cc_feature edge;
        if (hull->type == CC_SHAPE_CONVEX_HULL && other->count >= 3 &&
            cc_v3_length_sq(cc_v3_reject(cc_v3_sub(q, p), n)) > tol * tol &&
            cc_hull_touching_edge(hull, a_point ? n : cc_v3_neg(n), a_point ? slab_a : slab_b, &edge))
            cc_edge_overlap_witness(a_point ? b : a, other, &edge, n, a_point, pa, pb);
    } else if (sa.count == 2 && sb.count == 2) {
        float s, t;
        cc_vec3 da = cc_v3_sub(sa.p[1], sa.p[0]), db = cc_v3_sub(sb.p[1], sb.p[0]);
        cc_segment_segment_closest(sa.p[0], da, sb.p[0], db, &s, &t);
        *pa = cc_v3_madd(sa.p[0], da, s);
        *pb = cc_v3_madd(sb.p[0], db, t);
    } else if (r->overlap_count == 0 && (sa.count == 2 || sb.count == 2)) {
        cc_support_sets_nearest(&sa, &sb, pa, pb);
    }
}

/* A cylinder's or cone's outward side normal in its frame is
 * (radial cos phi, radial sin phi, axial) at azimuth phi: a cylinder's is
 * level, a cone's (apex up) leans towards the apex by its half angle. */
CC_HD void cc_round_side_slope(const cc_convex* x, float* radial, float* axial)
{
    *radial = 1.0f;
    *axial = 0.0f;
    if (x->type == CC_SHAPE_CONE) {
        float len = sqrtf(4.0f * x->size.y * x->size.y + x->size.x * x->size.x);
        *radial = 2.0f * x->size.y / len;
        *axial = x->size.x / len;
    }
}

/* The side normal of cylinder or cone x at the azimuth of local vector d
 * (its frame), outward; 0 where d runs along the axis. */
CC_HD int cc_round_side_normal(const cc_convex* x, cc_vec3 d, cc_vec3* local)
{
    float rxy = sqrtf(d.x * d.x + d.y * d.y);
    if (!(rxy > 0.0f)) return 0;
    float radial, axial;
    cc_round_side_slope(x, &radial, &axial);
    *local = cc_v3(radial * d.x / rxy, radial * d.y / rxy, axial);
    return 1;
}

/* The direction of the ridge family through n at parameter t: directions
 * square to a straight feature of one shape, along which sep is smooth
 * while it drops at a crease on either side (a point or a round rim over a
 * long edge, side line or segment). For a fixed line e that family is the
 * great circle square to e: n(t) = normalize(u + t w) with u = n's part
 * square to e and w = e x u. A cone's side lines turn with the direction,
 * and its family is the circle of side normals: n(t) is the side normal at
 * the azimuth normalize(rho + t tau) (rho, tau: the support azimuth and
 * its tangent, in the cone's frame), negated when the cone is B. */
typedef struct cc_ridge {
    int cone;         /* 1: a cone's side normals; 0: square to a fixed line */
    cc_vec3 u, w;     /* fixed line: the circle's two axes */
    const cc_convex* c; /* cone: the shape and its side's slope */
    cc_vec3 rho, tau; /* cone: azimuth and its tangent, local frame */
    float sign;       /* cone: -1 when the cone is B (its outward normal is -n) */
} cc_ridge;

CC_HD cc_vec3 cc_ridge_direction(const cc_ridge* g, float t)
{
    if (!g->cone) return cc_v3_normalize(cc_v3_madd(g->u, g->w, t));
    /* rho and tau are unit and square to each other: the azimuth never
     * vanishes. */
    cc_vec3 local = cc_v3(0.0f, 0.0f, 0.0f);
    cc_round_side_normal(g->c, cc_v3_madd(g->rho, g->tau, t), &local);
    return cc_v3_scale(cc_frame_vector_out(&g->c->f, local), g->sign);
}

/* The ridge through n when one supporting feature is a straight segment
 * (B's when `b_first` and both are), or a polygon beside whose edge the
 * other shape's single support point lies (seen along n: the point is past
 * the face's rim, and the edge's ridge turns about it); 0 otherwise. */
CC_HD int cc_ridge_of(const cc_convex* a, const cc_convex* b, const cc_feature* fa, const cc_feature* fb, cc_vec3 n,
                      int b_first, cc_ridge* g)
{
    cc_vec3 zero = cc_v3(0.0f, 0.0f, 0.0f);
    g->cone = 0;
    g->u = g->w = g->rho = g->tau = zero;
    g->c = a;
    g->sign = 1.0f;
    const cc_feature* seg = fa->count == 2 ? fa : (fb->count == 2 ? fb : (const cc_feature*)0);
    if (b_first && fb->count == 2) seg = fb;
    cc_vec3 e0, e1;
    if (seg) {
        e0 = seg->p[0];
        e1 = seg->p[1];
    } else {
        const cc_feature* poly = fa->count >= 3 && fb->count == 1 ? fa : (fb->count >= 3 && fa->count == 1 ? fb : 0);
        if (!poly) return 0;
        cc_contact_plane cp = cc_contact_plane_of(poly->p[0], n);
        float pu, pv;
        cc_plane_project(&cp, (poly == fa ? fb : fa)->p[0], &pu, &pv);
        float pu_[CC_FEATURE_MAX], pv_[CC_FEATURE_MAX], area = 0.0f;
        CC_NO_UNROLL
        for (int i = 0; i < poly->count; ++i) cc_plane_project(&cp, poly->p[i], &pu_[i], &pv_[i]);
        CC_NO_UNROLL
        for (int i = 0; i < poly->count; ++i) {
            int j = i + 1 == poly->count ? 0 : i + 1;
            area += cc_cross2(pu_[i], pv_[i], pu_[j], pv_[j]);
        }
        float orient = area < 0.0f ? -1.0f : 1.0f; /* B's face winds the other way about n */
        float best = 0.0f;
        int edge = -1;
        CC_NO_UNROLL
        for (int i = 0; i < poly->count; ++i) {
            int j = i + 1 == poly->count ? 0 : i + 1;
            float u0 = pu_[i], v0 = pv_[i], u1 = pu_[j], v1 = pv_[j];
            float side = orient * cc_cross2(u1 - u0, v1 - v0, pu - u0, pv - v0); /* < 0: outside this edge */
            float dist = cc_point_segment_distance2(pu, pv, u0, v0, u1, v1);
            if (side < 0.0f && (edge < 0 || dist < best)) {
                best = dist;
                edge = i;
            }
        }
        if (edge < 0) return 0; /* over the face: its normal is the answer */
        seg = poly;
        e0 = poly->p[edge];
        e1 = poly->p[edge + 1 == poly->count ? 0 : edge + 1];
    }
    const cc_convex* owner = seg == fa ? a : b;
    g->c = owner;
    g->cone = owner->type == CC_SHAPE_CONE && seg->count == 2;
    if (g->cone) {
        cc_vec3 d = cc_frame_vector_in(&owner->f, seg == fa ? n : cc_v3_neg(n));
        float rxy = sqrtf(d.x * d.x + d.y * d.y);
        if (!(rxy > 0.0f)) return 0;
        g->rho = cc_v3(d.x / rxy, d.y / rxy, 0.0f);
        g->tau = cc_v3(-g->rho.y, g->rho.x, 0.0f);
        g->sign = seg == fa ? 1.0f : -1.0f;
        return 1;
    }
    cc_vec3 e = cc_v3_normalize(cc_v3_sub(e1, e0));
    if (!(cc_v3_length_sq(e) > 0.5f)) return 0;
    g->u = cc_v3_normalize(cc_v3_reject(n, e));
    if (!(cc_v3_length_sq(g->u) > 0.5f)) return 0;
    g->w = cc_v3_cross(e, g->u);
    return 1;
}

/* The unit tangent of the ridge at n = n(t), towards growing t, from the
 * derivative of n(t). (A difference of two rounded directions is off by
 * 1e-4 of its length, and so leans that much along a long edge: the slope
 * then took that fraction of the distance to the edge's far end, tens of
 * metres away, and the secant ran off.) */
CC_HD cc_vec3 cc_ridge_tangent(const cc_ridge* g, float t, cc_vec3 n)
{
    if (!g->cone) return cc_v3_normalize(cc_v3_reject(g->w, n));
    cc_vec3 d = cc_v3_normalize(cc_v3_madd(g->rho, g->tau, t));
    /* The azimuth turns square to itself; the side normal's axial part
     * stays. */
    cc_vec3 local = cc_v3(-d.y, d.x, 0.0f);
    return cc_v3_scale(cc_v3_normalize(cc_frame_vector_out(&g->c->f, local)), g->sign);
}

/* sep along the ridge direction n(t) of g, and in *f its slope along
 * the ridge: (pb - pa) . u, u the ridge's unit tangent at n(t). */
CC_HD float cc_ridge_slope(const cc_convex* a, const cc_convex* b, const cc_ridge* g, float t, cc_vec3* n, float* f)
{
    *n = cc_ridge_direction(g, t);
    cc_vec3 tangent = cc_ridge_tangent(g, t, *n);
    cc_vec3 pa, pb;
    float s = cc_convex_separation(a, b, *n, &pa, &pb);
    *f = cc_v3_dot(cc_v3_sub(pb, pa), tangent);
    return s;
}

/* A point on a round surface against a straight segment (a box's edge, a
 * capsule's core, a side line): the optimum lies on the segment's ridge,
 * where sep is smooth along the ridge and creased across it. The secant
 * method on sep's slope along the ridge (cc_ridge_slope) ends what the
 * ascent's steps on sep leave (see cc_convex_newton); its steps stay at
 * or above `floor`. Returns 1 when it moved *n. */
#define CC_RIDGE_MAX_T 1.0e6f
CC_HD_CALL int cc_convex_ridge_secant(const cc_convex* a, const cc_convex* b, float tol, const cc_ridge* g, float floor,
                                      cc_vec3* n, float* sep, int* evals)
{
    cc_vec3 m;
    float f0, f1, t0 = 0.0f, t1 = CC_CONVEX_NEWTON_PROBE;
    float s = cc_ridge_slope(a, b, g, t0, &m, &f0);
    (*evals)++;
    if (!(fabsf(f0) > cc_convex_sharp(a, b, tol))) return 0; /* sharp already */
    cc_ridge_slope(a, b, g, t1, &m, &f1);
    (*evals)++;
    int moved = 0;
    CC_NO_UNROLL
    for (int it = 0; it < CC_CONVEX_NEWTON_STEPS; ++it) {
        if (!(f1 != f0)) break;
        float t = t0 - f0 * (t1 - t0) / (f1 - f0);
        /* t is the tangent of the turn along the ridge: beyond a million
         * the step is no step (a flat slope's secant), and far beyond,
         * u + t w overflows and n(t) is no unit vector. */
        if (!(fabsf(t) < CC_RIDGE_MAX_T)) break;
        float f, sm = cc_ridge_slope(a, b, g, t, &m, &f);
        (*evals)++;
        if (!(fabsf(f) < fabsf(f0)) || !(sm >= floor)) break;
        t1 = t0;
        f1 = f0;
        t0 = t;
        f0 = f;
        *n = m;
        s = sm;
        moved = 1;
    }
    if (moved) *sep = s;
    return moved;
}

/* Whether the witness shows n measurably short of its optimum. At an
 * optimum the witness points face each other along n and their distance
 * along n is n's separation; a better normal gains about the difference
 * of the two distances, plus, for points that miss each other by an
 * offset across n, the offset times a turn towards it less what the
 * surfaces' curvature takes back: as far as a point's normal cone
 * reaches, wide at a corner or a rim (a hull's vertex, a cylinder's rim
 * beside an edge), nothing on two smooth surfaces whose offset is within
 * rounding. One probe of that turn (sized to gain 20 tolerances; along
 * the ridge of a straight feature too, either way) tells which. Two faces
 * are left to the polish, which makes their normal exact. */
CC_HD_CALL int cc_convex_unsettled(const cc_convex* a, const cc_convex* b, const cc_convex_result* r, cc_vec3 n, float sep,
                              float tol)
{
    int ca = r->feature_a.count, cb = r->feature_b.count;
    if (ca >= 3 && cb >= 3) return 0;
    cc_vec3 d = cc_v3_sub(r->point_b, r->point_a);
    float along = cc_v3_dot(d, n);
    if (fabsf(along - sep) > 10.0f * tol) return 1;
    cc_vec3 across = cc_v3_madd(d, n, -along);
    float across2 = cc_v3_length_sq(across);
    float offset = sqrtf(across2);
    if (!(offset > 10.0f * tol)) return 0;
    /* Single support points farther apart across n than the smaller shape
     * is large sit on a crease of the larger (another of its vertices ties
     * with the one supporting), not at its optimum: a turn towards the
     * offset leaves the crease and loses, so no probe shows it. */
    if (ca == 1 && cb == 1 && offset > cc_minf(a->extent, b->extent) && offset > 1000.0f * tol) return 1;
    float turn = cc_minf(20.0f * tol / offset, 0.1f);
    /* The turn along the ridge either way, and straight towards the offset
     * (a point past the end of a segment turns towards that end). */
    /* Two segments: each one's ridge (a long edge's is narrow: a turn a
     * hair off it brings in the edge's far end). */
    cc_ridge g;
    CC_NO_UNROLL
    for (int k = 0; k < (ca == 2 && cb == 2 ? 2 : 1); ++k)
        if (cc_ridge_of(a, b, &r->feature_a, &r->feature_b, n, k, &g) &&
            (cc_convex_separation_along(a, b, cc_ridge_direction(&g, turn)) > sep + 2.0f * tol ||
             cc_convex_separation_along(a, b, cc_ridge_direction(&g, -turn)) > sep + 2.0f * tol))
            return 1;
    cc_vec3 probe = cc_v3_normalize(cc_v3_madd(n, across, turn / offset));
    return cc_convex_separation_along(a, b, probe) > sep + 2.0f * tol;
}

/* Golden-section search of sep along ridge g: a bracket around the
 * ridge's own point nearest n (t = 0), widened while the best lies at its
 * edge, then narrowed to the tolerance. Moves n (returns 1) when the ridge
 * separates more. Inlined into its callers: a call of its own cost the
 * mesh kernels registers they do not have. */
#define CC_CONVEX_RIDGE_EVALS 48
CC_HD int cc_convex_ridge_search(const cc_convex* a, const cc_convex* b, float scale, float tol, const cc_ridge* ridge,
                                 cc_vec3* n_io, float* sep_io, int* evals)
{
    cc_ridge g = *ridge;
    const float phi = 0.618034f;
    float lo = -0.05f, hi = 0.05f;
    float flo = cc_convex_separation_along(a, b, cc_ridge_direction(&g, lo));
    float fhi = cc_convex_separation_along(a, b, cc_ridge_direction(&g, hi));
    float f0 = cc_convex_separation_along(a, b, cc_ridge_direction(&g, 0.0f));
    int k = 3;
    /* Widen while an end is the best: the maximum lies beyond it. */
    while (k < 16 && (flo > f0 || fhi > f0)) {
        if (flo > fhi) {
            hi = 0.0f, fhi = f0;
            float t = lo * 3.0f;
            lo = t < -4.0f ? -4.0f : t;
            f0 = flo;
            flo = cc_convex_separation_along(a, b, cc_ridge_direction(&g, lo));
        } else {
            lo = 0.0f, flo = f0;
            float t = hi * 3.0f;
            hi = t > 4.0f ? 4.0f : t;
            f0 = fhi;
            fhi = cc_convex_separation_along(a, b, cc_ridge_direction(&g, hi));
        }
        ++k;
    }
    float x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
    float f1 = cc_convex_separation_along(a, b, cc_ridge_direction(&g, x1));
    float f2 = cc_convex_separation_along(a, b, cc_ridge_direction(&g, x2));
    k += 2;
    float min_width = cc_maxf(tol / scale, 1.0e-7f);
    while (k < CC_CONVEX_RIDGE_EVALS && hi - lo > min_width) {
        if (f1 > f2) {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - phi * (hi - lo);
            f1 = cc_convex_separation_along(a, b, cc_ridge_direction(&g, x1));
        } else {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + phi * (hi - lo);
            f2 = cc_convex_separation_along(a, b, cc_ridge_direction(&g, x2));
        }
        ++k;
    }
    *evals += k;
    float t = f1 > f2 ? x1 : x2, ft = f1 > f2 ? f1 : f2;
    if (!(ft > *sep_io + 0.1f * tol)) return 0;
    *n_io = cc_ridge_direction(&g, t);
    *sep_io = ft;
    return 1;
}

/* The search along the ridge through n of the supporting features fa and
 * fb (cc_ridge_of). */
CC_HD_CALL int cc_convex_ridge_climb_from(const cc_convex* a, const cc_convex* b, float scale, float tol,
                                          const cc_feature* fa, const cc_feature* fb, int b_first, cc_vec3* n_io,
                                          float* sep_io, int* evals)
{
    cc_ridge g;
    if (!cc_ridge_of(a, b, fa, fb, *n_io, b_first, &g)) return 0;
    return cc_convex_ridge_search(a, b, scale, tol, &g, n_io, sep_io, evals);
}

/* The ridge climb through n: along each supporting segment's ridge when
 * both features are segments. */
CC_HD_CALL int cc_convex_ridge_climb(const cc_convex* a, const cc_convex* b, float scale, float tol, cc_vec3* n_io,
                                     float* sep_io, int* evals)
{
    cc_feature fa, fb;
    cc_convex_feature(a, *n_io, &fa);
    cc_convex_feature(b, cc_v3_neg(*n_io), &fb);
    int moved = 0;
    CC_NO_UNROLL
    for (int k = 0; k < (fa.count == 2 && fb.count == 2 ? 2 : 1); ++k)
        moved |= cc_convex_ridge_climb_from(a, b, scale, tol, &fa, &fb, k, n_io, sep_io, evals);
    return moved;
}

/* A derivative-free climb of sep on the sphere, for the rare pair the
 * ascent leaves unsettled: a long side line against a point curving away
 * from it, where sep has a narrow creased valley and every gradient step
 * overshoots across it. Eight tangent directions at the current step
 * angle, the pattern turned by an irrational angle after each failure, the
 * step grown after a success and cut after two failures, down to the
 * tolerance. */
#define CC_CONVEX_PATTERN_STEPS 256
/* The pattern's turn after a failure, 0.4854 rad: cosine and sine. */
#define CC_CONVEX_PATTERN_TURN_COS 0.884498f
#define CC_CONVEX_PATTERN_TURN_SIN 0.466545f

CC_HD_CALL void cc_convex_pattern_climb(const cc_convex* a, const cc_convex* b, float scale, float tol, cc_vec3* n_io,
                                        float* sep_io, int* evals)
{
    cc_vec3 n = *n_io;
    float sep = *sep_io, step = 0.05f;
    float cp = 1.0f, sp = 0.0f; /* the pattern's turn */
    float min_step = cc_maxf(tol / scale, 1.0e-7f);
    int fails = 0;
    CC_NO_UNROLL
    for (int it = 0; it < CC_CONVEX_PATTERN_STEPS && step > min_step; ++it) {
        cc_vec3 u0 = cc_v3_any_perpendicular(n), v0 = cc_v3_cross(n, u0);
        cc_vec3 u = cc_v3_add(cc_v3_scale(u0, cp), cc_v3_scale(v0, sp)), v = cc_v3_cross(n, u);
        cc_vec3 best_n = n;
        float best = sep;
        CC_NO_UNROLL
        for (int k = 0; k < 8; ++k) {
            float ck, sk;
            cc_feature_disk_dir(k, &ck, &sk);
            cc_vec3 dir = cc_v3_add(cc_v3_scale(u, ck), cc_v3_scale(v, sk));
            cc_vec3 cand = cc_v3_normalize(cc_v3_madd(n, dir, step));
            float sc = cc_convex_separation_along(a, b, cand);
            (*evals)++;
            if (sc > best) {
                best = sc;
                best_n = cand;
            }
        }
        if (best > sep + 0.01f * tol) {
            n = best_n;
            sep = best;
            fails = 0;
            step = cc_minf(step * 1.5f, 0.2f);
        } else {
            float c = cp * CC_CONVEX_PATTERN_TURN_COS - sp * CC_CONVEX_PATTERN_TURN_SIN;
            sp = sp * CC_CONVEX_PATTERN_TURN_COS + cp * CC_CONVEX_PATTERN_TURN_SIN;
            cp = c;
            if (++fails >= 2) {
                step *= 0.25f;
                fails = 0;
            }
        }
    }
    *n_io = n;
    *sep_io = sep;
}

/* Settles an unsettled answer (cc_convex_unsettled): first along the ridge
 * of a straight feature, then by the pattern climb, then from the best face
 * normal of a box or hull; each followed by the polish and a new witness
 * in r. */
/* The face normals of a box or hull (B's reversed): when the answer is
 * unsettled against a large polytope, the optimum is often one of its
 * faces far from where a local search stands (a small shape near a big
 * face, seen first from one of its far vertices). Moves n to the best of
 * them when it separates more (returns 1). */
CC_HD_CALL int cc_convex_face_jump(const cc_convex* a, const cc_convex* b, float tol, cc_vec3* n, float* sep, int* evals)
{
    int moved = 0;
    CC_NO_UNROLL
    for (int k = 0; k < 2; ++k) {
        const cc_convex* x = k == 0 ? a : b;
        int faces = x->type == CC_SHAPE_BOX ? 6 : (x->type == CC_SHAPE_CONVEX_HULL ? x->hull.face_count : 0);
        cc_vec3 inv = cc_v3(1.0f / x->size.x, 1.0f / x->size.y, 1.0f / x->size.z);
        CC_NO_UNROLL
        for (int f = 0; f < faces; ++f) {
            cc_vec3 local;
            if (x->type == CC_SHAPE_BOX) {
                float sgn = (f & 1) ? -1.0f : 1.0f;
                local = cc_v3(f / 2 == 0 ? sgn : 0.0f, f / 2 == 1 ? sgn : 0.0f, f / 2 == 2 ? sgn : 0.0f);
            } else {
                local = cc_v3_normalize(cc_v3_mul(x->hull.faces[f].normal, inv));
            }
            cc_vec3 d = cc_frame_vector_out(&x->f, local);
            if (k == 1) d = cc_v3_neg(d);
            float sd = cc_convex_separation_along(a, b, d);
            (*evals)++;
            if (sd > *sep + 0.1f * tol) {
                *sep = sd;
                *n = d;
                moved = 1;
            }
        }
    }
    return moved;
}

CC_HD_CALL void cc_convex_settle(const cc_convex* a, const cc_convex* b, float scale, float tol, cc_vec3* n, float* sep,
                            cc_convex_result* r)
{
    /* After a face jump the local stages run once more from the face. */
    CC_NO_UNROLL
    for (int stage = 0; stage < 5 && cc_convex_unsettled(a, b, r, *n, *sep, tol); ++stage) {
        if (stage % 3 == 0) cc_convex_ridge_climb(a, b, scale, tol, n, sep, &r->iterations);
        else if (stage % 3 == 1) cc_convex_pattern_climb(a, b, scale, tol, n, sep, &r->iterations);
        else if (cc_convex_face_jump(a, b, tol, n, sep, &r->iterations)) /* then climb from the face */
            cc_convex_climb(a, b, scale, tol, n, sep, &r->iterations, &r->feature_a, &r->feature_b);
        cc_convex_polish(a, b, n, sep, tol, &r->feature_a, &r->feature_b);
        r->point_a = cc_support(a, *n);
        r->point_b = cc_support(b, cc_v3_neg(*n));
        cc_convex_witness(a, b, *n, r, &r->point_a, &r->point_b);
    }
}

/* Support set s against the other shape's single point q: a segment whose
 * end q lies beyond, seen along the normal, is cut to that end (count 1). */
CC_HD void cc_convex_sharpen_end(cc_feature* s, cc_vec3 q)
{
    if (s->count != 2) return;
    cc_vec3 d = cc_v3_sub(s->p[1], s->p[0]);
    float t = cc_v3_dot(cc_v3_sub(q, s->p[0]), d);
    if (t < 0.0f || t > cc_v3_length_sq(d)) {
        s->p[0] = t < 0.0f ? s->p[0] : s->p[1];
        s->count = 1;
    }
}

/* The exact support sets of a and b along n, a segment cut against a
 * single point of the other (cc_convex_sharpen_end). */
CC_HD_CALL void cc_convex_sharpen_sets(const cc_convex* a, const cc_convex* b, cc_vec3 n, float tol,
                                       const cc_convex_result* r, cc_feature* sa, cc_feature* sb)
{
    cc_support_set_of(a, &r->feature_a, n, cc_convex_slab(a, tol), sa);
    cc_support_set_of(b, &r->feature_b, cc_v3_neg(n), cc_convex_slab(b, tol), sb);
    if (sb->count == 1) cc_convex_sharpen_end(sa, sb->p[0]);
    if (sa->count == 1) cc_convex_sharpen_end(sb, sa->p[0]);
}

/* The last step of a query whose answer touches a round surface at a
 * point: from the settled normal, Newton's method on the gradient
 * (cc_convex_newton), or the secant method along a segment's ridge
 * (cc_convex_ridge_secant); then the features and the witness along the
 * sharper normal. Nothing changes unless sep holds within tol (or, with
 * gain_only, grows). (A disk's
 * rim point near the cap's normal swings round at the slightest turn, and
 * neither method converges there: disks are left as they are.) */
CC_HD_CALL void cc_convex_sharpen(const cc_convex* a, const cc_convex* b, float tol, int gain_only, cc_vec3* n,
                                  float* sep, cc_convex_result* r)
{
    /* What supports n exactly: a face, or two segments, fix the normal
     * (the polish makes it exact); a segment, its ridge. */
    cc_feature sa, sb;
    cc_convex_sharpen_sets(a, b, *n, tol, r, &sa, &sb);
    if (sa.count >= 3 || sb.count >= 3 || (sa.count == 2 && sb.count == 2)) return;
    cc_vec3 m = *n;
    float sm = *sep;
    cc_ridge g;
    /* As in cc_convex_newton, steps from the caller's n (the ridge's t = 0
     * is n made square to a segment, which can lie lower) may lose tol;
     * with gain_only, any step may, and only the end must gain. */
    float floor = gain_only ? -3.0e38f : *sep - tol;
    int moved;
    if (sa.count == 2 || sb.count == 2)
        moved = cc_ridge_of(a, b, &sa, &sb, m, 0, &g) &&
                cc_convex_ridge_secant(a, b, tol, &g, floor, &m, &sm, &r->iterations);
    else
        moved = cc_convex_newton(a, b, tol, &m, &sm, &r->iterations);
    if (gain_only && (r->feature_a.count == 2 || r->feature_b.count == 2)) {
        /* Deep on a segment's crease (a small capsule across the round
         * waist of a long ellipsoid, its two ends nearly tied): one end
         * supports exactly, and Newton's steps, which cannot cross the
         * crease, stall short of it. The query's segment gives the ridge
         * to search too; the better end is kept. */
        cc_vec3 k = *n;
        float sk = *sep;
        if (cc_ridge_of(a, b, &r->feature_a, &r->feature_b, k, 0, &g) &&
            cc_convex_ridge_secant(a, b, tol, &g, floor, &k, &sk, &r->iterations) && (!moved || sk > sm)) {
            m = k;
            sm = sk;
            moved = 1;
        }
    }
    if (!moved || !(gain_only ? sm > *sep : sm >= *sep - tol)) return;
    if (!(fabsf(cc_v3_length_sq(m) - 1.0f) < 1.0e-4f)) return; /* never a non-unit normal */
    *n = m;
    *sep = sm;
    /* The features along the sharper normal, a segment's end taken as the
     * single point that supports it. */
    cc_convex_feature(a, *n, &r->feature_a);
    cc_convex_feature(b, cc_v3_neg(*n), &r->feature_b);
    cc_convex_sharpen_sets(a, b, *n, tol, r, &sa, &sb);
    if (sa.count == 1) r->feature_a = sa;
    if (sb.count == 1) r->feature_b = sb;
    r->point_a = cc_support(a, *n);
    r->point_b = cc_support(b, cc_v3_neg(*n));
    cc_convex_witness(a, b, *n, r, &r->point_a, &r->point_b);
}

/* The result along a given direction n (unit, A -> B): its separation, the
 * supporting features and their witness, as the query leaves them. For
 * callers that know the contact's normal from elsewhere (a triangle's face
 * normal for a shape over that face). */
CC_HD_CALL void cc_convex_result_along(const cc_convex* a, const cc_convex* b, cc_vec3 n, cc_convex_result* r)
{
    cc_vec3 pa, pb;
    r->distance = cc_convex_separation(a, b, n, &pa, &pb);
    r->normal = n;
    cc_convex_feature(a, n, &r->feature_a);
    cc_convex_feature(b, cc_v3_neg(n), &r->feature_b);
    cc_convex_witness(a, b, n, r, &pa, &pb);
    r->point_a = pa;
    r->point_b = pb;
}

/* The side normal of round shape x (k as below) at azimuth phi, as n runs
 * A -> B, and the separation along it. */
CC_HD_CALL float cc_convex_ring_separation(const cc_convex* a, const cc_convex* b, int k, float radial, float axial,
                                           float phi, cc_vec3* d)
{
    const cc_convex* x = k == 0 ? a : b;
    *d = cc_frame_vector_out(&x->f, cc_v3(cosf(phi) * radial, sinf(phi) * radial, axial));
    if (k == 1) *d = cc_v3_neg(*d); /* B's outward normal is -n */
    return cc_convex_separation_along(a, b, *d);
}

/* Starts on the round side of shape k of the pair (0: A, 1: B), when it
 * is a cylinder or cone: the side normal facing the other shape's centre,
 * and a ring of them around the axis. Against a point every side normal
 * is an equal optimum; the other shape's own extent breaks the tie into as
 * many local optima as it has sides (a small box deep inside a cone),
 * which no single start reaches, and the ascent from the best sample
 * stalls on the side's crease. Along the ring the separation is the other
 * shape's support alone, piecewise smooth with a few maxima: the two best
 * samples are refined by golden-section search over the azimuth between
 * their neighbours. Keeps the best in *start (outward for A, inward for B,
 * as n runs A -> B) when it beats *start_sep; returns the directions
 * tried. Out of line: the kernels that run the query keep their registers
 * for it. */
#define CC_CONVEX_RING_REFINE 20
CC_HD_CALL int cc_convex_round_starts(const cc_convex* a, const cc_convex* b, int k, cc_vec3* start, float* start_sep)
{
    const cc_convex* x = k == 0 ? a : b;
    if (x->type != CC_SHAPE_CYLINDER && x->type != CC_SHAPE_CONE) return 0;
    cc_vec3 towards = cc_frame_vector_in(&x->f, cc_v3_sub(cc_convex_center(k == 0 ? b : a), x->f.o));
    float radial, axial;
    cc_round_side_slope(x, &radial, &axial);
    const float step = 6.28318531f / (float)CC_CONVEX_RING_STARTS;
    float top_phi[2] = {0.0f, 0.0f}, top_sep[2] = {-3.0e38f, -3.0e38f};
    cc_vec3 d;
    CC_NO_UNROLL
    for (int j = 0; j < CC_CONVEX_RING_STARTS; ++j) {
        float sd = cc_convex_ring_separation(a, b, k, radial, axial, step * (float)j, &d);
        if (sd > top_sep[0]) {
            top_sep[1] = top_sep[0];
            top_phi[1] = top_phi[0];
            top_sep[0] = sd;
            top_phi[0] = step * (float)j;
        } else if (sd > top_sep[1]) {
            top_sep[1] = sd;
            top_phi[1] = step * (float)j;
        }
        if (sd > *start_sep) {
            *start_sep = sd;
            *start = d;
        }
    }
    int evals = CC_CONVEX_RING_STARTS;
    if (towards.x * towards.x + towards.y * towards.y > 0.0f) {
        float sd = cc_convex_ring_separation(a, b, k, radial, axial, atan2f(towards.y, towards.x), &d);
        evals++;
        if (sd > *start_sep) {
            *start_sep = sd;
            *start = d;
        }
    }
    const float golden = 0.381966011f;
    CC_NO_UNROLL
    for (int t = 0; t < 2; ++t) {
        float lo = top_phi[t] - step, hi = top_phi[t] + step;
        float p1 = lo + golden * (hi - lo), p2 = hi - golden * (hi - lo);
        float s1 = cc_convex_ring_separation(a, b, k, radial, axial, p1, &d);
        float s2 = cc_convex_ring_separation(a, b, k, radial, axial, p2, &d);
        CC_NO_UNROLL
        for (int it = 0; it < CC_CONVEX_RING_REFINE; ++it) {
            if (s1 > s2) {
                hi = p2;
                p2 = p1;
                s2 = s1;
                p1 = lo + golden * (hi - lo);
                s1 = cc_convex_ring_separation(a, b, k, radial, axial, p1, &d);
            } else {
                lo = p1;
                p1 = p2;
                s1 = s2;
                p2 = hi - golden * (hi - lo);
                s2 = cc_convex_ring_separation(a, b, k, radial, axial, p2, &d);
            }
        }
        float sd = cc_convex_ring_separation(a, b, k, radial, axial, s1 > s2 ? p1 : p2, &d);
        evals += CC_CONVEX_RING_REFINE + 3;
        if (sd > *start_sep) {
            *start_sep = sd;
            *start = d;
        }
    }
    return evals;
}

/* sin 5 degrees: a direction's part along a box axis below this leaves the
 * side of that axis's near face to the other shape's touching point. */
#define CC_CONVEX_NEAR_SQUARE 0.0871557f

/* The faces that meet where shape x (k: 0 for A, 1 for B) supports n, as
 * contact normals A -> B: a box's three faces at its support corner (the
 * corner nearest `touch`, where the other shape touches, along axes a
 * face or an edge leaves undecided), a hull's faces around its support vertex
 * (the first 16), a cylinder's or cone's flat end on that side and its
 * side normal at the support azimuth (*side its index; -1 when there is
 * none). */
#define CC_CONVEX_NEAR_FACES 16
CC_HD_CALL int cc_convex_near_faces(const cc_convex* x, int k, cc_vec3 n, cc_vec3 touch, cc_vec3* out, int* side)
{
    *side = -1;
    cc_vec3 d = cc_frame_vector_in(&x->f, k == 0 ? n : cc_v3_neg(n));
    cc_vec3 local[CC_CONVEX_NEAR_FACES];
    int count = 0;
    if (x->type == CC_SHAPE_BOX) {
        /* Along an axis n is nearly square to (a face or an edge supports
         * it), the side is the other shape's touching point's: the face
         * across the edge it lies nearest. */
        cc_vec3 t = cc_frame_point_in(&x->f, touch);
        local[0] = cc_v3(cc_sign_or_plus(fabsf(d.x) > CC_CONVEX_NEAR_SQUARE ? d.x : t.x), 0.0f, 0.0f);
        local[1] = cc_v3(0.0f, cc_sign_or_plus(fabsf(d.y) > CC_CONVEX_NEAR_SQUARE ? d.y : t.y), 0.0f);
        local[2] = cc_v3(0.0f, 0.0f, cc_sign_or_plus(fabsf(d.z) > CC_CONVEX_NEAR_SQUARE ? d.z : t.z));
        count = 3;
    } else if (x->type == CC_SHAPE_CONVEX_HULL) {
        const cc_hull_ref* hr = &x->hull;
        int top = cc_hull_support_vertex(hr, cc_v3_mul(x->size, d)), corner, end;
        cc_vec3 inv = cc_v3(1.0f / x->size.x, 1.0f / x->size.y, 1.0f / x->size.z);
        CC_NO_UNROLL
        for (cc_hull_corners_of(hr, top, &corner, &end); corner < end && count < CC_CONVEX_NEAR_FACES; ++corner) {
            int face = cc_hull_corner_face(hr, corner);
            if (!hr->graph && !cc_hull_face_holds(hr, face, top)) continue; /* no graph: every face is offered */
            local[count++] = cc_v3_normalize(cc_v3_mul(hr->faces[face].normal, inv));
        }
    } else if (x->type == CC_SHAPE_CYLINDER || x->type == CC_SHAPE_CONE) {
        if (x->type == CC_SHAPE_CYLINDER || d.z < 0.0f) local[count++] = cc_v3(0.0f, 0.0f, cc_sign_or_plus(d.z));
        if (cc_round_side_normal(x, d, &local[count])) *side = count++;
    }
    CC_NO_UNROLL
    for (int i = 0; i < count; ++i) {
        out[i] = cc_frame_vector_out(&x->f, local[i]);
        if (k == 1) out[i] = cc_v3_neg(out[i]);
    }
    return count;
}

/* An overlap's answer n is a local optimum of sep; where the shapes meet
 * at a corner or a rim, a face beside the supporting features can hold a
 * shallower one (a cone's rim dipping into a hull beside the face it
 * rests on, the ray from the centres leaving through the neighbouring
 * face). Each face that meets where either shape supports n is tried, and
 * so is its bisector with n: a point d under n's face and m inside its
 * edge with that face separates by -(d + m) / sqrt(2) along the bisector,
 * more than n's -d exactly when m < 0.41 d, where n is no optimum but a
 * point of zero slope (a cone's apex on the edge: the optimum is beyond
 * the bisector, where the edge meets the cone's side). The best that
 * separates more is climbed from; moves n (returns 1) when it wins.
 * A round side's normal is tried at n's azimuth, which need not be its
 * optimum's. Where a cone's apex meets the other shape's point or line (a
 * rim, a side line, an edge, a corner), the two sides can touch a little
 * way round, which is the shallower way out; on large shapes sep falls
 * off so steeply that the side normal at n's azimuth separates by a large
 * fraction of the size less. There each round side that supports n at a
 * point is climbed from, at n's azimuth and at that of the other's
 * supporting point, whatever they separate; when `climb_sides`: an
 * overlap shallow enough that the query tried no alternative starts
 * (deeper, the ring of side normals is among them). An apex against a
 * face leaves through the face, and against an ellipsoid's smooth surface
 * along its normal: neither is climbed (each would cost two climbs where
 * a cone's apex rests on them). */
CC_HD_CALL int cc_convex_try_near_faces(const cc_convex* a, const cc_convex* b, float scale, float tol,
                                        int climb_sides, cc_vec3* n, float* sep, int* evals, cc_feature* fa,
                                        cc_feature* fb)
{
    int moved = 0;
    CC_NO_UNROLL
    for (int k = 0; k < 2; ++k) {
        cc_vec3 cand[CC_CONVEX_NEAR_FACES];
        cc_feature ga, gb; /* the features at n, then each climb's */
        int side;
        /* Where the other shape touches: its supporting feature's centre
         * (r's features at n; one side of a box's edge or the other is all
         * that is asked of it). */
        const cc_feature* of = k == 0 ? fb : fa;
        cc_vec3 met = of->count > 0 ? of->p[0] : cc_convex_center(k == 0 ? b : a);
        CC_NO_UNROLL
        for (int i = 1; i < of->count; ++i) met = cc_v3_add(met, of->p[i]);
        if (of->count > 1) met = cc_v3_scale(met, 1.0f / (float)of->count);
        int count = cc_convex_near_faces(k == 0 ? a : b, k, *n, met, cand, &side);
        cc_vec3 best_n = *n;
        float best = *sep + 0.1f * tol;
        CC_NO_UNROLL
        for (int i = 0; i < 2 * count; ++i) {
            cc_vec3 c = i < count ? cand[i] : cc_v3_normalize(cc_v3_add(*n, cand[i - count]));
            if (!(cc_v3_length_sq(c) > 0.5f)) continue;
            float sc = cc_convex_separation_along(a, b, c);
            if (sc > best) {
                best = sc;
                best_n = c;
            }
        }
        *evals += 2 * count;
        if (best_n.x == n->x && best_n.y == n->y && best_n.z == n->z) {
            if (side < 0 || !climb_sides) continue;
            cc_convex_feature(a, *n, &ga);
            cc_convex_feature(b, cc_v3_neg(*n), &gb);
            /* A cone's apex on either side, against a point or a line
             * of the other (not a face, not an ellipsoid's smooth point). */
            int apex_a = a->type == CC_SHAPE_CONE && ga.count == 1 && cc_v3_length_sq(ga.edge) == 0.0f;
            int apex_b = b->type == CC_SHAPE_CONE && gb.count == 1 && cc_v3_length_sq(gb.edge) == 0.0f;
            int own = k == 0 ? ga.count : gb.count, other = k == 0 ? gb.count : ga.count;
            if (!(apex_a || apex_b) || own != 1 || other > 2 || (k == 0 ? b : a)->type == CC_SHAPE_ELLIPSOID) continue;
            /* The side at n's azimuth, and at the other's supporting point's. */
            const cc_convex* x = k == 0 ? a : b;
            cc_vec3 sides[2], local;
            sides[0] = cand[side];
            int side_count = 1;
            cc_vec3 touch = k == 0 ? cc_support(b, cc_v3_neg(*n)) : cc_support(a, *n);
            if (cc_round_side_normal(x, cc_frame_point_in(&x->f, touch), &local)) {
                sides[1] = cc_frame_vector_out(&x->f, local);
                if (k == 1) sides[1] = cc_v3_neg(sides[1]);
                side_count = 2;
            }
            CC_NO_UNROLL
            for (int i = 0; i < side_count; ++i) {
                cc_vec3 m = sides[i];
                float sm = cc_convex_separation_along(a, b, m);
                cc_convex_climb(a, b, scale, tol, &m, &sm, evals, &ga, &gb);
                if (sm > *sep) {
                    *n = m;
                    *sep = sm;
                    *fa = ga;
                    *fb = gb;
                    moved = 1;
                }
            }
            continue;
        }
        cc_convex_climb(a, b, scale, tol, &best_n, &best, evals, &ga, &gb);
        if (best > *sep) {
            *n = best_n;
            *sep = best;
            *fa = ga;
            *fb = gb;
            moved = 1;
        }
    }
    return moved;
}

/* Apart, GJK's bounds bracket the distance: when it stopped within its
 * tolerance, the distance is at least `floor` (GJK's distance less that
 * tolerance). sep has one local optimum there (its level sets are
 * connected), so an answer below the floor is a climb stalled on a crease
 * (a box's corner beside a long cone's rim), not another optimum. GJK
 * again, to the query's tolerance from where the climb stopped, and a
 * climb from its normal when that separates more; r's features and
 * witness follow. (The witness points' distance is no such bound: two
 * faces' points need not stand opposite each other.) */
#define CC_CONVEX_CERTIFY_GAP 2.0f
CC_HD_CALL void cc_convex_certify_apart(const cc_convex* a, const cc_convex* b, float scale, float tol, float limit,
                                        float skin, float floor, cc_vec3* n, float* sep, cc_convex_result* r)
{
    if (!(floor - *sep > CC_CONVEX_CERTIFY_GAP * tol)) return;
    cc_gjk_result fine;
    cc_gjk(a, b, cc_v3(0.0f, 0.0f, 0.0f), *n, limit, skin, tol, &fine);
    r->iterations += fine.iterations;
    if (fine.status != CC_GJK_SEPARATED) return;
    cc_vec3 m = fine.normal;
    float s = cc_convex_separation_along(a, b, m);
    cc_feature fa, fb;
    if (!cc_convex_climb(a, b, scale, tol, &m, &s, &r->iterations, &fa, &fb)) cc_convex_polish(a, b, &m, &s, tol, &fa, &fb);
    if (!(s > *sep + 0.1f * tol)) return;
    *n = m;
    *sep = s;
    r->feature_a = fa;
    r->feature_b = fb;
    cc_vec3 pa = fine.point_a, pb = fine.point_b;
    cc_convex_witness(a, b, m, r, &pa, &pb);
    r->point_a = pa;
    r->point_b = pb;
    cc_convex_settle(a, b, scale, tol, n, sep, r);
}

/* The point of disk feature f that supports along `out`, on its rim (the
 * inscribed polygon's corners lie on it), when the disk tilts off `out`;
 * square to it, the whole disk supports and this returns 0. */
CC_HD int cc_disk_rim_point(const cc_feature* f, cc_vec3 out, cc_vec3* p)
{
    cc_vec3 radial = cc_v3_madd(out, f->normal, -cc_v3_dot(out, f->normal));
    float tilt = cc_v3_length(radial);
    if (!(tilt > 1e-6f)) return 0;
    cc_vec3 centre = cc_feature_centre(f);
    *p = cc_v3_madd(centre, radial, cc_v3_length(cc_v3_sub(f->p[0], centre)) / tilt);
    return 1;
}

/* When feature f of c is a disk tilted off `out`: its rim point p along
 * `out` and, where the other shape o's feature g (a disk or a polygon)
 * lies across p along n, p lifted onto g there, q. In 3D, without a
 * contact plane: this runs at the end of the query, deepest in its
 * callers' register pressure. */
CC_HD_CALL int cc_disk_support_over(const cc_convex* c, const cc_feature* f, cc_vec3 out, const cc_convex* o,
                                    const cc_feature* g, cc_vec3 n, cc_vec3* p, cc_vec3* q)
{
    if (!cc_feature_is_disk(c, f) || g->count < 3 || !cc_disk_rim_point(f, out, p)) return 0;
    float facing = cc_v3_dot(g->normal, n);
    if (!(fabsf(facing) > 1e-6f)) return 0;
    *q = cc_v3_madd(*p, n, cc_v3_dot(g->normal, cc_v3_sub(g->p[0], *p)) / facing);
    if (cc_feature_is_disk(o, g)) {
        cc_vec3 other = cc_feature_centre(g);
        return cc_v3_length_sq(cc_v3_sub(*q, other)) <= cc_v3_length_sq(cc_v3_sub(g->p[0], other));
    }
    int left = 0, right = 0;
    for (int e = 0; e < g->count; ++e) {
        cc_vec3 a = g->p[e], b = g->p[e + 1 == g->count ? 0 : e + 1];
        float side = cc_v3_dot(cc_v3_cross(cc_v3_sub(b, a), cc_v3_sub(*q, a)), g->normal);
        left |= side > 0.0f;
        right |= side < 0.0f;
    }
    return !(left && right);
}

/* The witness of an answer apart, made to stand across the distance
 * along the normal where the supporting features allow it better than
 * the support sets and the features' overlap did. The support sets are
 * cut at the slab, the features more loosely: a long edge or side line
 * that the normal meets a little off square (the normal of a curved rim
 * converges slowly) has only its end in its support set, which may lie
 * far along it from the point opposite the other shape's; there the two
 * features' closest points. And a disk's overlap is that of its inscribed
 * polygon, whose corners fall short of the rim that supports a cap tilted
 * a little off the normal: there the disk's exact support point over the
 * other feature, lifted onto it. The closest points replace the witness
 * when they miss n * sep by less; a rim point only when it realises the
 * distance. */
CC_HD_CALL void cc_convex_oppose_witness(const cc_convex* a, const cc_convex* b, cc_vec3 n, float sep, float tol,
                                         cc_convex_result* r)
{
    const cc_feature* fa = &r->feature_a;
    const cc_feature* fb = &r->feature_b;
    cc_vec3 miss = cc_v3_madd(cc_v3_sub(r->point_b, r->point_a), n, -sep);
    float miss2 = cc_v3_length_sq(miss);
    if (!(miss2 > tol * tol)) return;
    if (fa->count <= 2 && fb->count <= 2) {
        if (fa->count + fb->count < 3) return;
        float s, t;
        cc_vec3 da = fa->count == 2 ? cc_v3_sub(fa->p[1], fa->p[0]) : cc_v3(0.0f, 0.0f, 0.0f);
        cc_vec3 db = fb->count == 2 ? cc_v3_sub(fb->p[1], fb->p[0]) : cc_v3(0.0f, 0.0f, 0.0f);
        cc_segment_segment_closest(fa->p[0], da, fb->p[0], db, &s, &t);
        cc_vec3 qa = cc_v3_madd(fa->p[0], da, s), qb = cc_v3_madd(fb->p[0], db, t);
        if (cc_v3_length_sq(cc_v3_madd(cc_v3_sub(qb, qa), n, -sep)) < miss2) {
            r->point_a = qa;
            r->point_b = qb;
        }
        return;
    }
    /* A candidate stands only where it realises the distance: its points
     * across each other along n, sep apart, to the tolerance. */
    cc_vec3 p, q;
    if (cc_disk_support_over(a, fa, n, b, fb, n, &p, &q) &&
        cc_v3_length_sq(cc_v3_madd(cc_v3_sub(q, p), n, -sep)) <= tol * tol) {
        r->point_a = p;
        r->point_b = q;
        return;
    }
    if (cc_disk_support_over(b, fb, cc_v3_neg(n), a, fa, n, &p, &q) &&
        cc_v3_length_sq(cc_v3_madd(cc_v3_sub(p, q), n, -sep)) <= tol * tol) {
        r->point_a = q;
        r->point_b = p;
    }
}

/* Whether a climb's answer is the optimum EPA's bound certifies: its
 * separation at least `enough` (the bound less its slack), and the climb
 * settled there: polished, or the closest points of the features
 * supporting n across each other within CC_CONVEX_SETTLED tolerances.
 * (A long thin shape's separation is so flat near its optimum that a
 * climb still on its way comes within the slack with its points a few
 * percent of its size apart; a climb that settled has them within a
 * thousandth, which the witness and settle stages then close.) A face
 * among those features whose normal separates more replaces n, as a
 * climb from that face would have: within the slack of each other, the
 * face's normal is the exact one. */
CC_HD_CALL int cc_convex_certify(const cc_convex* a, const cc_convex* b, cc_vec3* n, float* sep, int polished,
                                 float enough, float tol)
{
    if (!(*sep >= enough)) return 0;
    if (polished) return 1;
    cc_feature fa, fb;
    cc_convex_feature(a, *n, &fa);
    cc_convex_feature(b, cc_v3_neg(*n), &fb);
    CC_NO_UNROLL
    for (int k = 0; k < 2; ++k) {
        const cc_feature* f = k == 0 ? &fa : &fb;
        if (f->count < 3) continue;
        cc_vec3 d = k == 0 ? f->normal : cc_v3_neg(f->normal);
        float s = cc_convex_separation_along(a, b, d);
        if (s > *sep) {
            *sep = s;
            *n = d;
            return 1;
        }
    }
    cc_vec3 pa, pb;
    if (!cc_feature_closest(&fa, &fb, *n, &pa, &pb)) return 1; /* faces: the polish makes n exact */
    float settled = CC_CONVEX_SETTLED * tol;
    return cc_v3_length_sq(cc_v3_reject(cc_v3_sub(pb, pa), *n)) <= settled * settled;
}

/* Deep inside a round shape, each vertex of a polytope makes a local
 * optimum where the other's surface is thinnest across it (a small box at
 * the near-round waist of a long ellipsoid: one per corner along the
 * waist, 1e-5 of the box apart). Where no bound certified the answer and a
 * single vertex of a polytope (or a segment's end) supports it, the
 * neighbouring vertices' regions are climbed too, from the answer turned
 * each of CC_CONVEX_HOP_WAYS ways until another vertex supports. Writes
 * those starts and returns their count (at most 2 CC_CONVEX_HOP_WAYS). */
#define CC_CONVEX_HOP_WAYS 6
CC_HD_CALL int cc_convex_vertex_hops(const cc_convex* a, const cc_convex* b, cc_vec3 n, cc_vec3* start, float* start_sep)
{
    int count = 0;
    CC_NO_UNROLL
    for (int side = 0; side < 2; ++side) {
        const cc_convex* x = side == 0 ? a : b;
        if (!cc_convex_core_has_edges(x)) continue;
        cc_vec3 out = side == 0 ? n : cc_v3_neg(n);
        cc_feature f;
        cc_convex_feature(x, out, &f);
        if (f.count != 1) continue;
        cc_vec3 vertex = cc_support(x, out);
        cc_vec3 u = cc_v3_any_perpendicular(out), v = cc_v3_cross(out, u);
        float apart = 1.0e-3f * cc_convex_core_extent(x);
        CC_NO_UNROLL
        for (int k = 0; k < CC_CONVEX_HOP_WAYS; ++k) {
            /* Every 60 degrees about n. */
            const float c[CC_CONVEX_HOP_WAYS] = {1.0f, 0.5f, -0.5f, -1.0f, -0.5f, 0.5f};
            const float s = k == 0 || k == 3 ? 0.0f : (k < 3 ? 0.8660254f : -0.8660254f);
            cc_vec3 t = cc_v3_madd(cc_v3_scale(u, c[k]), v, s);
            CC_NO_UNROLL
            for (float turn = 1.0e-3f; turn < 2.0f; turn *= 2.0f) {
                cc_vec3 d = cc_v3_normalize(cc_v3_madd(out, t, turn));
                if (!(cc_v3_length_sq(cc_v3_sub(cc_support(x, d), vertex)) > apart * apart)) continue;
                start[count] = side == 0 ? d : cc_v3_neg(d);
                start_sep[count] = cc_convex_separation_along(a, b, start[count]);
                count++;
                break;
            }
        }
    }
    return count;
}

/* Returns 0 when the cores are farther apart than `limit`; otherwise 1 and
 * the result. Every exit leaves a finite unit normal. */
CC_HD_CALL int cc_convex_query(const cc_convex* a, const cc_convex* b, float limit, cc_convex_result* r)
{
    float scale = a->extent + b->extent;
    float tol = cc_convex_tolerance(a, b);
    float skin = cc_maxf(CC_CONVEX_SKIN * cc_minf(a->extent, b->extent), 8.0f * tol);
    if (!(tol > 0.0f)) { /* two point cores at most: fixed, tiny tolerances */
        tol = 1.0e-9f;
        skin = 8.0e-9f;
    }
    cc_vec3 zero = cc_v3(0.0f, 0.0f, 0.0f);
    cc_gjk_result g;
    float gjk_tolerance = cc_maxf(CC_CONVEX_GJK_TOLERANCE * cc_minf(a->extent, b->extent), tol);
    cc_gjk(a, b, zero, zero, limit, skin, gjk_tolerance, &g);
    r->iterations = g.iterations;
    if (g.status == CC_GJK_BEYOND) return 0;
    /* GJK's distance is an upper bound; only the separation along its
     * normal, a lower bound from support points, proves the cores apart.
     * A long thin core can stall GJK with the origin inside D (a point in a
     * needle of a cone): without the proof, the overlap path. */
    float gjk_sep = g.status == CC_GJK_SEPARATED ? cc_convex_separation_along(a, b, g.normal) : 0.0f;
    if (g.status == CC_GJK_SEPARATED && g.distance > skin && !(gjk_sep > skin)) {
        /* Apart, but GJK's coarse stop left a normal that does not show it
         * (a small shape near a large one's corner: the stop is relative to
         * both sizes). Refined to the query's tolerance from where it
         * stopped; a climb from the coarse normal can stall on a crease. */
        cc_gjk_result fine;
        cc_gjk(a, b, zero, g.normal, limit, skin, tol, &fine);
        r->iterations += fine.iterations;
        if (fine.status == CC_GJK_BEYOND) return 0;
        if (fine.status == CC_GJK_SEPARATED) {
            float fine_sep = cc_convex_separation_along(a, b, fine.normal);
            if (fine_sep > gjk_sep) {
                g = fine;
                gjk_sep = fine_sep;
            }
        }
    }
    if (g.status == CC_GJK_SEPARATED && gjk_sep > limit) return 0;
    if (g.status == CC_GJK_SEPARATED && g.distance > skin && gjk_sep > skin) {
        /* GJK stops early on curved shapes; the climb makes it exact. */
        cc_vec3 n = g.normal, pa, pb;
        float sep = gjk_sep;
        int polished = cc_convex_climb(a, b, scale, tol, &n, &sep, &r->iterations, &r->feature_a, &r->feature_b);
        /* Polished and stationary with a face or an edge on either side,
         * the normal is that feature's exactly; aligning only helps two
         * single supporting points. */
        int points = r->feature_a.count == 1 && r->feature_b.count == 1;
        if (((!polished || points) && cc_convex_align(a, b, &n, &sep, tol, &r->iterations)) || !polished)
            cc_convex_polish(a, b, &n, &sep, tol, &r->feature_a, &r->feature_b);
        if (sep > limit) return 0;
        pa = g.point_a;
        pb = g.point_b;
        cc_convex_witness(a, b, n, r, &pa, &pb);
        r->point_a = pa;
        r->point_b = pb;
        cc_convex_settle(a, b, scale, tol, &n, &sep, r);
        cc_convex_certify_apart(a, b, scale, tol, limit, skin, g.distance - gjk_tolerance, &n, &sep, r);
        if (sep > limit) return 0;
        cc_convex_oppose_witness(a, b, n, sep, tol, r);
        r->distance = sep;
        r->normal = n;
        r->path = CC_CONVEX_PATH_GJK;
        return 1;
    }
    /* Two polytopes have a local optimum at every edge pair, which no face
     * direction reaches: EPA, exact for them, runs at any overlap it can
     * resolve, ten times its tolerance. (However shallow the overlap, the
     * origin can lie near a ridge of D, where the climb may stop on the
     * deeper of two facets; shallower than that, EPA's facets are no
     * better than the climb's.) A capsule's core is a segment, an edge:
     * across a thin hull its optima lie on edge pairs too (a capsule
     * through a plate, pushed out past one rim or the other). */
    int polytopes = cc_convex_core_has_edges(a) && cc_convex_core_has_edges(b);
    float min_extent = cc_minf(a->extent, b->extent);
    /* EPA's tolerance: relative to the smaller polytope, whose facets it
     * must tell apart; else to the pair (a round shape's facets never
     * end, and a finer stop only adds iterations). */
    float epa_tolerance = CC_CONVEX_EPA_TOLERANCE * (polytopes ? min_extent : scale);
    /* EPA's polytope lies inside D, so its nearest facet's distance bounds
     * the depth from below, and no direction separates by more than the
     * bound. A climb certified against it (cc_convex_certify) is the
     * optimum, and the search ends there. Only where the bound resolves
     * the slack: beside a much larger shape rounding of the pair's
     * coordinates is coarser, and EPA keeps its own tolerance (a finer one
     * fills its pools short of the optimum, and its facets are poorer
     * starts). */
    float slack = CC_CONVEX_CERTIFIED * min_extent, enough = 3.0e38f;
    int certifiable = slack >= tol;
    float epa_stop = certifiable ? cc_minf(epa_tolerance, 0.5f * slack) : epa_tolerance;
    cc_epa_state es;
    cc_epa_result e;
    e.ok = 0;
    cc_mpr_result m;
    if (g.has_tetra) {
        /* GJK's last simplex encloses the origin. From it EPA reaches a
         * facet of D in a few iterations (D of two polytopes is one), and
         * its direction starts the climb: MPR's ray would only find a
         * start, at more support evaluations than EPA takes.
         * Round shapes take EPA first only when deep along their centres'
         * offset (an upper bound on the depth; coincident centres are as
         * deep as pairs come): shallower, MPR's ray lands nearer the optimum
         * than a coarse EPA, at fewer evaluations. Their EPA stops coarse
         * (the climb makes the direction exact) and runs on below when its
         * bound is wanted. */
        int epa_first = polytopes;
        if (!polytopes) {
            cc_vec3 apart = cc_v3_normalize(cc_v3_sub(cc_convex_center(b), cc_convex_center(a)));
            epa_first = !(cc_v3_length_sq(apart) > 0.5f) ||
                        !(cc_convex_separation_along(a, b, apart) > -CC_CONVEX_EPA_FIRST * min_extent);
        }
        if (epa_first) {
            cc_epa_begin(&es, g.tetra);
            cc_epa_run(a, b, skin, polytopes ? epa_stop : cc_maxf(CC_CONVEX_EPA_START * scale, epa_stop), 3.0e38f, &es, &e);
            r->iterations += e.iterations;
        }
    }
    int epa_ran = e.ok;
    if (epa_ran) { /* EPA's answer stands for MPR's; no second EPA */
        m.hit = 1;
        m.normal = e.normal;
        m.depth = e.depth;
        m.iterations = 0;
        m.has_tetra = 0;
    } else {
        cc_mpr(a, b, skin, CC_CONVEX_MPR_TOLERANCE * scale, &m);
        r->iterations += m.iterations;
    }
    r->path = CC_CONVEX_PATH_MPR;
    /* MPR misses when the cores are apart by about the skin (GJK, rounding
     * the other way, stopped within it): GJK's direction then, or the
     * centres' offset, never an arbitrary axis (a climb from a poor start
     * ends on a poor local optimum of two polytopes). */
    cc_vec3 n = m.hit ? m.normal : g.normal;
    if (!(cc_v3_length_sq(n) > 0.5f)) n = cc_v3_normalize(cc_v3_sub(cc_convex_center(b), cc_convex_center(a)));
    if (!(cc_v3_length_sq(n) > 0.5f)) n = cc_v3(0.0f, 0.0f, 1.0f);
    cc_vec3 pa, pb;
    float sep = cc_convex_separation_along(a, b, n);
    /* Whether r's features already belong to the final n, polished. */
    int polished = cc_convex_climb(a, b, scale, tol, &n, &sep, &r->iterations, &r->feature_a, &r->feature_b);
    /* Relative to the cores' thickness: a sphere's core is a point, whose
     * ray from the other shape's centre can leave through the wrong face at
     * any depth, and a thin cylinder's is as shallow beside a cap's rim. */
    float min_core = cc_minf(cc_convex_core_thickness(a), cc_convex_core_thickness(b));
    /* Whether EPA's bound proves the answer the optimum. */
    int certified = 0;
    int alternatives = sep < -CC_CONVEX_ALTERNATIVES * min_core || (polytopes && sep < -10.0f * epa_tolerance);
    if (alternatives) {
        /* Overlapping enough for other local optima: the shapes' six axis
         * directions each, hull face normals and the side normals of round
         * shapes (the optima of each shape against a point), and EPA's
         * direction are tried too. */
        float min_thickness = cc_minf(cc_convex_thickness(a), cc_convex_thickness(b));
        int deep = sep < -CC_CONVEX_DEEP * min_thickness;
        int very_deep = sep < -CC_CONVEX_VERY_DEEP * min_thickness;
        /* EPA first where it runs (if it has not): its bound may certify
         * the climb, and the other starts can add no more. */
        float claim = certifiable ? skin - sep - slack : 3.0e38f;
        if (epa_ran && !polytopes) {
            cc_epa_run(a, b, skin, epa_stop, claim, &es, &e);
            r->iterations += e.iterations;
        } else if (!epa_ran && m.has_tetra && (polytopes || deep)) {
            cc_epa_begin(&es, m.tetra);
            cc_epa_run(a, b, skin, epa_stop, claim, &es, &e);
            r->iterations += e.iterations;
        }
        if (e.ok && certifiable) enough = skin - e.depth - slack;
        certified = e.ok && cc_convex_certify(a, b, &n, &sep, polished, enough, tol);
        if (!certified && e.ok && e.converged && certifiable) {
            /* The climb from the first direction stopped on another
             * optimum; EPA's converged direction is within its tolerance of
             * the one its bound admits, certified before any other start
             * is made (the polish below makes it exact). */
            float sd = cc_convex_separation_along(a, b, e.normal);
            if (sd > sep) {
                sep = sd;
                n = e.normal;
                polished = 0;
                certified = cc_convex_certify(a, b, &n, &sep, polished, enough, tol);
            }
        }
        /* Starts: 0 and 1, the best direction of each shape's own; then
         * EPA's, and MPR's with the shapes swapped (the ray from the other
         * side, so that A-B and B-A try the same starts). */
        /* Very deep, each axis of an ellipsoid (on its better side) is a
         * start of its own, beyond the best of each shape's: the best start
         * does not always climb highest (two long ellipsoids crossed at one
         * centre have an optimum near each one's thin axis, and the axis
         * that separates most, a middle one, climbs to the shallower).
         * Polytopes and round sides have their faces and rings below. */
        cc_vec3 start[11 + CC_EPA_CANDIDATES];
        float start_sep[11 + CC_EPA_CANDIDATES];
        int starts = 2;
        start[0] = start[1] = n;
        start_sep[0] = start_sep[1] = -3.0e38f;
        const cc_frame* frames[2] = {&a->f, &b->f};
        /* Two polytopes go to EPA alone, exact for them, when it had a
         * tetrahedron; else to the shapes' own directions too. */
        int epa_alone = polytopes && (epa_ran || m.has_tetra);
        CC_NO_UNROLL
        for (int k = 0; k < (epa_alone || certified ? 0 : 12); ++k) {
            const cc_frame* f = frames[k / 6];
            int axis = (k % 6) / 2;
            cc_vec3 d = axis == 0 ? f->x : (axis == 1 ? f->y : f->z);
            if (k & 1) d = cc_v3_neg(d);
            float sd = cc_convex_separation_along(a, b, d);
            if (sd > start_sep[k / 6]) {
                start_sep[k / 6] = sd;
                start[k / 6] = d;
            }
            int own = very_deep && (k < 6 ? a : b)->type == CC_SHAPE_ELLIPSOID;
            if (own && (!(k & 1) || sd > start_sep[starts])) {
                start[starts] = d; /* the axis's + side, replaced by its - side when better */
                start_sep[starts] = sd;
            }
            if (own && (k & 1)) starts++;
        }
        /* Hull faces: their outward normals (B's reversed). */
        CC_NO_UNROLL
        for (int k = 0; k < (epa_alone || certified ? 0 : 2); ++k) {
            const cc_convex* x = k == 0 ? a : b;
            if (x->type != CC_SHAPE_CONVEX_HULL) continue;
            cc_vec3 inv = cc_v3(1.0f / x->size.x, 1.0f / x->size.y, 1.0f / x->size.z);
            CC_NO_UNROLL
            for (int f = 0; f < x->hull.face_count; ++f) {
                cc_vec3 d = cc_frame_vector_out(&x->f, cc_v3_normalize(cc_v3_mul(x->hull.faces[f].normal, inv)));
                if (k == 1) d = cc_v3_neg(d);
                float sd = cc_convex_separation_along(a, b, d);
                if (sd > start_sep[k]) {
                    start_sep[k] = sd;
                    start[k] = d;
                }
            }
            r->iterations += x->hull.face_count;
        }
        /* Round sides: the side normals of a cylinder or cone. */
        CC_NO_UNROLL
        for (int k = 0; k < (certified ? 0 : 2); ++k)
            r->iterations += cc_convex_round_starts(a, b, k, &start[k], &start_sep[k]);
        r->iterations += 14;
        /* EPA's best direction and nearest facets (one when it converged):
         * very deep, each is a start (the best start does not always climb
         * highest); otherwise the best of them. */
        int first = starts;
        if (!certified && e.ok) cc_epa_candidates(&es, &e);
        CC_NO_UNROLL
        for (int k = 0; !certified && e.ok && k < e.candidate_count; ++k) {
            float sd = cc_convex_separation_along(a, b, e.candidate[k]);
            if (very_deep || starts == first) {
                start[starts] = e.candidate[k];
                start_sep[starts++] = sd;
            } else if (sd > start_sep[first]) {
                start[first] = e.candidate[k];
                start_sep[first] = sd;
            }
        }
        if (polytopes && !(e.ok && e.converged) && !certified) {
            /* EPA's pools filled before its bounds met (D has hundreds of
             * facets) or it had no start: every facet of D, exactly. */
            start_sep[starts] = cc_sat_polytopes(a, b, &start[starts], &r->iterations);
            starts++;
        }
        if (very_deep && !certified) {
            cc_mpr_result ms;
            cc_mpr(b, a, skin, CC_CONVEX_MPR_TOLERANCE * scale, &ms);
            r->iterations += ms.iterations;
            if (ms.hit) {
                start[starts] = cc_v3_neg(ms.normal);
                start_sep[starts] = cc_convex_separation_along(a, b, start[starts]);
                starts++;
            }
        }
        /* The most separating start climbs first, so that the bound is
         * met as early as it can be. */
        unsigned tried = 0u;
        int hopped = 0;
        CC_NO_UNROLL
        for (int round = 0; !certified; ++round) {
            if (round == starts) {
                /* Uncertified at the end: the neighbouring vertices'
                 * regions of the answer climb next. */
                if (hopped) break;
                hopped = 1;
                starts = cc_convex_vertex_hops(a, b, n, start, start_sep);
                r->iterations += starts;
                tried = 0u;
                round = 0;
                if (starts == 0) break;
            }
            int k = -1;
            CC_NO_UNROLL
            for (int i = 0; i < starts; ++i)
                if (!((tried >> i) & 1u) && (k < 0 || start_sep[i] > start_sep[k])) k = i;
            tried |= 1u << k;
            /* Shallower, a shape's direction below the optimum found is not
             * worth a climb; very deep, every start is. */
            if (!hopped && k < 2 && !very_deep && start_sep[k] < sep) continue;
            cc_feature fa, fb;
            int start_polished = cc_convex_climb(a, b, scale, tol, &start[k], &start_sep[k], &r->iterations, &fa, &fb);
            /* A hop that climbs back to the answer ties with it in rounding. */
            if (start_sep[k] > sep + (hopped ? 0.1f * tol : 0.0f)) {
                sep = start_sep[k];
                n = start[k];
                polished = start_polished;
                r->feature_a = fa;
                r->feature_b = fb;
                certified = cc_convex_certify(a, b, &n, &sep, polished, enough, tol);
            }
        }
    }
    /* The faces around the answer (also after the alternatives: EPA may
     * have gone alone), unless EPA's bound certified it for two
     * polytopes: no face then separates more by more than the slack, and
     * their sep falls off linearly from its optimum, so the direction is
     * within slack / size of it and the polish makes it exact. (A round
     * shape's sep is flat there: within the slack its direction can be
     * degrees off, which a climb from a near face corrects.) */
    if (!(certified && polytopes) &&
        cc_convex_try_near_faces(a, b, scale, tol, !alternatives, &n, &sep, &r->iterations, &r->feature_a,
                                 &r->feature_b))
        polished = 0;
    if (!polished) cc_convex_polish(a, b, &n, &sep, tol, &r->feature_a, &r->feature_b);
    if (sep > limit) return 0;
    pa = cc_support(a, n);
    pb = cc_support(b, cc_v3_neg(n));
    cc_convex_witness(a, b, n, r, &pa, &pb);
    r->point_a = pa;
    r->point_b = pb;
    cc_convex_settle(a, b, scale, tol, &n, &sep, r);
    if (sep > limit) return 0;
    r->distance = sep;
    r->normal = n;
    return 1;
}

#endif
