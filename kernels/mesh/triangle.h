/* Narrow phase against one triangle of a mesh or heightfield, and a mesh
 * vertex against a plane.
 *
 * The mid phase hands each triangle that may touch shape A to one thread.
 * The triangle is given by three world points t0, t1, t2, counter-clockwise
 * seen from its front (outside): front normal = normalize((t1-t0) x (t2-t0)).
 * The triangle belongs to shape B (meshes and heightfields have the highest
 * shape types), so the manifold normal points from A toward the triangle:
 * about minus the front normal for a shape resting on the front.
 *
 * Core distances as everywhere (narrowphase/manifold.h): a sphere is its centre, the
 * triangle is its zero-thickness surface.
 *
 * Back-face culling (reference, "Mesh Collision Handling"): when A's
 * reference point (cc_triangle_reference: the sphere's centre, a hull's
 * centre, the shape's origin) lies behind the triangle's plane the triangle
 * reports nothing, so that a shape that tunnelled through a surface is not
 * trapped behind it by inverted normals; a contact whose normal would push
 * A through the triangle's back (normal . front > 0) is not reported
 * either. Zero-area triangles have no front and report nothing.
 *
 * Duplicates. A shape resting on an edge or vertex shared by several
 * triangles touches each of them at the same point. Every routine returns a
 * feature code saying where the contact lies: on the face, or on an edge
 * or vertex, either with A above the face next to it (within a tolerance
 * band, so that the triangles sharing the feature agree despite rounding)
 * or with A beside the triangle beyond it (CC_TRI_OUTSIDE: the normal is
 * tilted off the face). cc_triangle_keep_feature then keeps an edge or
 * vertex contact in exactly one of the triangles sharing the feature,
 * using only each triangle's own world points (no adjacency):
 *   - an edge is kept by the triangle that runs along it from the
 *     lexicographically smaller endpoint to the larger one. Neighbours with
 *     consistent winding run along a shared edge in opposite directions, so
 *     exactly one of them owns it;
 *   - a vertex is kept by the triangle whose corner at the vertex, seen
 *     from A's reference point, contains a fixed direction (the world axis
 *     least aligned with the view), the corners being half-open so that a
 *     direction on a shared side belongs to one corner only.
 * Both decisions are expressions of the shared vertices and the reference
 * point only, which triangles sharing a vertex evaluate bit for bit alike;
 * shared vertices must therefore have identical world coordinates in every
 * triangle (compute each world vertex with the same code from its mesh
 * index or grid position).
 * What this cannot tell without neighbours: a contact tilted beyond an
 * edge whose neighbour continues the surface (flat, or convex by less than
 * the tilt) duplicates the neighbour's own, closer contact. Callers that
 * know the neighbourhood pass it: flags for open (boundary) edges and
 * vertices, which keep their contacts, and for flat or concave edges; or
 * the neighbours' front normals (cc_triangle_keep_feature_across), which
 * decide tilted edge contacts exactly. A tilted vertex contact can still
 * duplicate a closer contact of a fan triangle that is no edge neighbour
 * (never closer than the true contact). Multi-point face contacts (a box
 * across a seam) meet shared edges at points that both triangles find:
 * cc_triangle_dedupe_points keeps each such point in one of them. */
#ifndef CC_KERNELS_MESH_TRIANGLE_H
#define CC_KERNELS_MESH_TRIANGLE_H

#include "kernels/narrowphase/convex.h"

/* Feature codes: kind in the low 3 bits, plus a flag. */
#define CC_TRI_NONE (-1)   /* no contact */
#define CC_TRI_FACE 0      /* on the face, away from its boundary */
#define CC_TRI_EDGE0 1     /* on edge k (t_k -> t_(k+1)): CC_TRI_EDGE0 + k */
#define CC_TRI_VERTEX0 4   /* at vertex k: CC_TRI_VERTEX0 + k */
#define CC_TRI_KIND_MASK 7
/* Set on an edge or vertex contact with A beside the triangle, beyond that
 * feature (its normal tilted off the face), rather than above the face. */
#define CC_TRI_OUTSIDE 8
/* Set on a face contact that only this triangle reports (A's reference
 * point over it, the witness on its boundary): never deduplicated. */
#define CC_TRI_OVER 16

/* Caller flags for cc_triangle_keep_feature (all 0: every edge shared and
 * treated as sharp). */
#define CC_TRI_EDGE_OPEN(k) (1u << (k))          /* edge k has no neighbour */
#define CC_TRI_EDGE_FLAT(k) (1u << (3 + (k)))    /* edge k's neighbour is coplanar or folds concavely */
#define CC_TRI_VERTEX_OPEN(k) (1u << (6 + (k)))  /* vertex k lies on the surface's boundary */
/* Ownership of face contacts (the points of a multi-point contact along
 * the face normal), which only triangles in the same plane share: */
#define CC_TRI_EDGE_COPLANAR(k) (1u << (9 + (k)))      /* edge k's neighbour lies in this plane */
#define CC_TRI_FACE_VERTEX_OWNER(k) (1u << (12 + (k))) /* this triangle keeps face points at vertex k */
#define CC_TRI_FACE_OWNERS (1u << 15)                  /* the two flags above are known */

/* Tolerance bands (where a contact counts as on an edge or vertex):
 * relative to the distance from A's reference point to the feature, plus
 * about 30 float ulps of the world coordinates (rounding of the
 * differences); far wider than rounding. A vertex's band is four edge
 * bands wide, so that the bands of two edges meeting at a vertex overlap
 * only inside it (for corners above 29 degrees). */
#define CC_TRI_BAND_REL 1.0e-5f
#define CC_TRI_BAND_COORD 2.0e-6f
#define CC_TRI_VERTEX_BAND 4.0f
/* A triangle whose sin(angle) is below about 1e-6 has no usable normal. */
#define CC_TRI_DEGENERATE_SIN2 1.0e-12f
/* Normals within this sine of the face normal are face contacts (convex
 * route, whose face normals come out exact from the polish). */
#define CC_TRI_FACE_SIN 1.0e-4f
/* A normal pushing A toward the back: normal . front above this. Small and
 * positive so that a contact normal lying in the plane stays. */
#define CC_TRI_BACK_COS 1.0e-5f
/* A manifold point of the triangle's side counts as on the front face when
 * it lies at most this much below the plane, relative to the pair's
 * coordinates: rounding of a point lifted onto the rim, no more (a point on
 * the prism's side below the plane is no part of the triangle, however
 * large the triangle). */
#define CC_TRI_FRONT_ROUNDING 1.0e-6f
/* Edge tests against a neighbour's normal: sines below this count as flat
 * (cc_triangle_keep_feature_across). */
#define CC_TRI_FLAT_SIN 1.0e-5f

CC_HD float cc_tri_abs_max(cc_vec3 v) { return cc_maxf(fabsf(v.x), cc_maxf(fabsf(v.y), fabsf(v.z))); }

/* Unit front normal of triangle (a, b, c); returns 0 (and +z) when the
 * triangle is degenerate or not finite. */
CC_HD int cc_triangle_normal(cc_vec3 a, cc_vec3 b, cc_vec3 c, cc_vec3* n)
{
    cc_vec3 ab = cc_v3_sub(b, a), ac = cc_v3_sub(c, a), bc = cc_v3_sub(c, b);
    cc_vec3 x = cc_v3_cross(ab, ac);
    float nn = cc_v3_length_sq(x);
    float l2 = cc_maxf(cc_v3_length_sq(ab), cc_maxf(cc_v3_length_sq(ac), cc_v3_length_sq(bc)));
    *n = cc_v3(0.0f, 0.0f, 1.0f);
    /* |ab x ac|^2 = (2 area)^2; against the longest edge to the fourth. */
    if (!(nn > CC_TRI_DEGENERATE_SIN2 * l2 * l2) || !(nn < 3.0e38f)) return 0;
    *n = cc_v3_scale(x, 1.0f / sqrtf(nn));
    return 1;
}

CC_HD cc_vec3 cc_tri_vertex(cc_vec3 a, cc_vec3 b, cc_vec3 c, int k)
{
    return k == 0 ? a : (k == 1 ? b : c);
}

/* Closest point of triangle (a, b, c) to the origin (callers pass vertices
 * relative to the query point, which keeps rounding at the triangle's
 * scale), given its unit front normal n from cc_triangle_normal (has_n: it
 * succeeded). *region receives the exact Voronoi region: CC_TRI_FACE,
 * CC_TRI_EDGE0 + k or CC_TRI_VERTEX0 + k. Robust for degenerate triangles
 * (zero area, collinear or coincident points): the face test runs only when
 * the triangle has a usable normal; otherwise, and whenever the projection
 * falls outside, the answer is the nearest of the three edges, each a
 * clamped segment projection that never divides by zero. */
CC_HD cc_vec3 cc_triangle_closest_origin(cc_vec3 a, cc_vec3 b, cc_vec3 c, cc_vec3 n, int has_n, int* region)
{
    cc_vec3 from = cc_v3(0.0f, 0.0f, 0.0f);
    if (has_n) {
        /* Projection of the origin onto the plane; inside when on the inner
         * side of all three edges. */
        cc_vec3 q = cc_v3_scale(n, cc_v3_dot(a, n));
        int inside = cc_v3_dot(cc_v3_cross(cc_v3_sub(b, a), cc_v3_sub(q, a)), n) >= 0.0f &&
                     cc_v3_dot(cc_v3_cross(cc_v3_sub(c, b), cc_v3_sub(q, b)), n) >= 0.0f &&
                     cc_v3_dot(cc_v3_cross(cc_v3_sub(a, c), cc_v3_sub(q, c)), n) >= 0.0f;
        if (inside) {
            *region = CC_TRI_FACE;
            return q;
        }
        /* Outside: the nearest edge point to the origin is the nearest to
         * its projection. Comparing in-plane distances keeps the choice
         * exact where the height dominates: squared 3-D distances would
         * round away an in-plane offset below sqrt(eps) of the height. */
        from = q;
    }
    cc_vec3 best = a;
    float best_d2 = 3.0e38f;
    int best_region = CC_TRI_VERTEX0;
    for (int k = 0; k < 3; ++k) {
        cc_vec3 p = cc_tri_vertex(a, b, c, k), d = cc_v3_sub(cc_tri_vertex(a, b, c, k == 2 ? 0 : k + 1), p);
        float t = cc_segment_closest_param(from, p, d);
        cc_vec3 x = cc_v3_madd(p, d, t);
        float d2 = cc_v3_length_sq(cc_v3_sub(x, from));
        if (d2 < best_d2) {
            best_d2 = d2;
            best = x;
            best_region = t <= 0.0f ? CC_TRI_VERTEX0 + k
                                    : (t >= 1.0f ? CC_TRI_VERTEX0 + (k == 2 ? 0 : k + 1) : CC_TRI_EDGE0 + k);
        }
    }
    *region = best_region;
    return best;
}

/* Bands of vertex k and edge k, computed from data that every triangle
 * sharing the feature has bit for bit (the feature's world vertices, the
 * reference point and their differences, symmetric in an edge's ends), so
 * that those triangles draw the same band and disagree only where their
 * own rounding of a point straddles it. `rel`: vertices relative to the
 * reference point, `w`: world, `ref_coord`: largest absolute world
 * coordinate of the reference point. An edge's band is no wider than
 * either end's vertex band over CC_TRI_VERTEX_BAND. */
CC_HD float cc_tri_vertex_band(cc_vec3 rel, cc_vec3 w, float ref_coord)
{
    return CC_TRI_VERTEX_BAND *
           (CC_TRI_BAND_REL * cc_v3_length(rel) + CC_TRI_BAND_COORD * cc_maxf(ref_coord, cc_tri_abs_max(w)));
}

CC_HD float cc_tri_edge_band(cc_vec3 rel0, cc_vec3 rel1, cc_vec3 w0, cc_vec3 w1, float ref_coord)
{
    return CC_TRI_BAND_REL * cc_minf(cc_v3_length(rel0), cc_v3_length(rel1)) +
           CC_TRI_BAND_COORD * cc_minf(cc_maxf(ref_coord, cc_tri_abs_max(w0)), cc_maxf(ref_coord, cc_tri_abs_max(w1)));
}

/* A bound on every band of the triangle (each vertex band is at most
 * this, and each edge band a quarter of it): points farther than this from
 * a vertex or an edge need no band of theirs measured. */
CC_HD float cc_tri_band_bound(const cc_vec3* rel, const cc_vec3* w, float ref_coord)
{
    float rel2 = cc_maxf(cc_v3_length_sq(rel[0]), cc_maxf(cc_v3_length_sq(rel[1]), cc_v3_length_sq(rel[2])));
    float coord = cc_maxf(ref_coord, cc_maxf(cc_tri_abs_max(w[0]), cc_maxf(cc_tri_abs_max(w[1]), cc_tri_abs_max(w[2]))));
    /* Slightly wide, so that its own rounding never undercuts a band. */
    return 1.001f * CC_TRI_VERTEX_BAND * (CC_TRI_BAND_REL * sqrtf(rel2) + CC_TRI_BAND_COORD * coord);
}

/* The feature of the triangle within its band of point x: the nearest
 * vertex, else the nearest edge; -1 when none. *band gets its band.
 * `bound`: cc_tri_band_bound of the triangle. */
CC_HD int cc_tri_near_feature(cc_vec3 x, const cc_vec3* rel, const cc_vec3* w, float ref_coord, float bound,
                              float* band)
{
    int kind = -1;
    float best = 3.0e38f, bound2 = bound * bound;
    for (int k = 0; k < 3; ++k) {
        if (!(cc_v3_length_sq(cc_v3_sub(x, rel[k])) <= bound2)) continue;
        float b = cc_tri_vertex_band(rel[k], w[k], ref_coord);
        float d = cc_v3_length(cc_v3_sub(x, rel[k]));
        if (d <= b && d < best) {
            best = d;
            *band = b;
            kind = CC_TRI_VERTEX0 + k;
        }
    }
    if (kind >= 0) return kind;
    for (int k = 0; k < 3; ++k) {
        int j = k == 2 ? 0 : k + 1;
        cc_vec3 d = cc_v3_sub(rel[j], rel[k]);
        cc_vec3 off = cc_v3_sub(x, cc_v3_madd(rel[k], d, cc_segment_closest_param(x, rel[k], d)));
        if (!(cc_v3_length_sq(off) <= bound2)) continue;
        float b = cc_tri_edge_band(rel[k], rel[j], w[k], w[j], ref_coord);
        float e = cc_v3_length(off);
        if (e <= b && e < best) {
            best = e;
            *band = b;
            kind = CC_TRI_EDGE0 + k;
        }
    }
    return kind;
}

/* Feature code of a contact whose triangle point is q, for A whose lowest
 * point (the sphere's centre, A's support point along -front) projects onto
 * the plane at `foot`. A above the triangle with the foot within the band
 * of a vertex or edge: that feature (every triangle around it sees the
 * same foot, so they agree). Otherwise the feature q lies on: the face, or
 * an edge or vertex with A beside it (CC_TRI_OUTSIDE). rel: the vertices
 * relative to the reference point, as q and foot; w: world. */
CC_HD_CALL int cc_triangle_feature(cc_vec3 q, cc_vec3 foot, const cc_vec3* rel, const cc_vec3* w, float ref_coord)
{
    float band, bound = cc_tri_band_bound(rel, w, ref_coord);
    int kind = cc_tri_near_feature(foot, rel, w, ref_coord, bound, &band);
    if (kind >= 0) return kind;
    kind = cc_tri_near_feature(q, rel, w, ref_coord, bound, &band);
    return kind >= 0 ? kind | CC_TRI_OUTSIDE : CC_TRI_FACE;
}

/* The edges of the triangle (rel, front normal n) that face in-plane
 * direction u, as bits: those whose outward normal (edge x front) is not
 * turned away from u, to rounding. A shape beside the triangle in
 * direction u touches it on these edges or their corners only: the
 * triangle's support along u. */
#define CC_TRI_FACING_COS 1.0e-3f
CC_HD unsigned cc_tri_facing_edges(const cc_vec3* rel, cc_vec3 n, cc_vec3 u)
{
    unsigned edges = 0u;
    for (int k = 0; k < 3; ++k) {
        cc_vec3 out = cc_v3_cross(cc_v3_sub(rel[k == 2 ? 0 : k + 1], rel[k]), n);
        if (cc_v3_dot(out, u) > -CC_TRI_FACING_COS * cc_v3_length(out) * cc_v3_length(u)) edges |= 1u << k;
    }
    return edges ? edges : 7u;
}

/* Whether edge or vertex feature `kind` lies on one of `edges` (bits). */
CC_HD int cc_tri_kind_on_edges(int kind, unsigned edges)
{
    if (kind < CC_TRI_VERTEX0) return (int)(edges >> (kind - CC_TRI_EDGE0)) & 1;
    int k = kind - CC_TRI_VERTEX0;
    return (int)((edges >> k) | (edges >> (k == 0 ? 2 : k - 1))) & 1;
}

/* The edge or corner of the triangle (rel, relative coordinates) nearest
 * to q among `edges` (bits) and their ends: CC_TRI_EDGE0 + k, or
 * CC_TRI_VERTEX0 + k when the nearest point of that edge is an end. */
CC_HD int cc_tri_nearest_boundary(cc_vec3 q, const cc_vec3* rel, unsigned edges)
{
    int best = CC_TRI_EDGE0;
    float best_d2 = 3.0e38f;
    for (int k = 0; k < 3; ++k) {
        if (!(edges >> k & 1u)) continue;
        cc_vec3 a = rel[k], e = cc_v3_sub(rel[k == 2 ? 0 : k + 1], a);
        float t = cc_segment_closest_param(q, a, e);
        float d2 = cc_v3_length_sq(cc_v3_sub(q, cc_v3_madd(a, e, t)));
        if (d2 < best_d2) {
            best_d2 = d2;
            best = t <= 0.0f ? CC_TRI_VERTEX0 + k : t >= 1.0f ? CC_TRI_VERTEX0 + (k == 2 ? 0 : k + 1) : CC_TRI_EDGE0 + k;
        }
    }
    return best;
}

CC_HD float cc_triangle_size(cc_vec3 a, cc_vec3 b, cc_vec3 c)
{
    return sqrtf(cc_maxf(cc_v3_length_sq(cc_v3_sub(b, a)),
                         cc_maxf(cc_v3_length_sq(cc_v3_sub(c, b)), cc_v3_length_sq(cc_v3_sub(a, c)))));
}

/* A's reference point in world coordinates: a point inside its core that
 * decides back-face culling and vertex ownership (cc_triangle_keep_feature
 * needs the same point for every triangle of the pair): the hull's centre
 * for convex hulls, the shape's origin otherwise. */
CC_HD cc_vec3 cc_triangle_reference(const cc_geom* g, int type)
{
    if (type == CC_SHAPE_CONVEX_HULL) return cc_tf_point(g->xf, cc_v3_mul(g->hull.center, g->size));
    return g->xf.p;
}

/* --- ownership of shared features ----------------------------------------- */

/* Lexicographic order of world points (x, then y, then z). */
CC_HD int cc_tri_lex_less(cc_vec3 a, cc_vec3 b)
{
    return a.x < b.x || (a.x == b.x && (a.y < b.y || (a.y == b.y && a.z < b.z)));
}

/* det(a, b, c) = a . (b x c). */
CC_HD float cc_tri_det(cc_vec3 a, cc_vec3 b, cc_vec3 c) { return cc_v3_dot(a, cc_v3_cross(b, c)); }

/* 1 when this triangle owns its edge from -> to (its own CCW direction):
 * the neighbour runs along it the other way, so exactly one owns it. */
CC_HD int cc_triangle_edge_owner(cc_vec3 from, cc_vec3 to) { return cc_tri_lex_less(from, to); }

/* 1 when this triangle owns vertex v, whose next and previous vertices in
 * CCW order are `next` and `prev`, for a contact seen from the world point
 * `ref` (A's centre). Seen along d = ref - v, the triangles around v are
 * corners [v->next, v->prev) turning counter-clockwise; a fixed direction u
 * (the world axis least aligned with d) falls in exactly one of them. The
 * side v->prev of this corner is the side v->next of the neighbour's, and
 * both evaluate the same det(d, prev - v, u): one takes it as >= 0, the
 * other as < 0, so ties go to exactly one. Back-facing corners (ref behind
 * the triangle) own nothing. */
CC_HD int cc_triangle_vertex_owner(cc_vec3 v, cc_vec3 next, cc_vec3 prev, cc_vec3 ref)
{
    cc_vec3 d = cc_v3_sub(ref, v), ad = cc_v3_abs(d);
    cc_vec3 u = ad.x <= ad.y && ad.x <= ad.z ? cc_v3(1.0f, 0.0f, 0.0f)
                                             : (ad.y <= ad.z ? cc_v3(0.0f, 1.0f, 0.0f) : cc_v3(0.0f, 0.0f, 1.0f));
    cc_vec3 e0 = cc_v3_sub(next, v), e1 = cc_v3_sub(prev, v);
    float start = cc_tri_det(d, e0, u), end = cc_tri_det(d, e1, u);
    return cc_tri_det(d, e0, e1) > 0.0f && start >= 0.0f && end < 0.0f;
}

/* Whether this triangle keeps a contact with feature code `feature` (as
 * returned by the routines below): always for face contacts; for edge and
 * vertex contacts in exactly one of the triangles sharing the feature. `ref` is A's reference point
 * (cc_triangle_reference), the same for every triangle of the pair.
 * `flags` (CC_TRI_EDGE_OPEN, CC_TRI_EDGE_FLAT, CC_TRI_VERTEX_OPEN) describe
 * the neighbourhood when the caller knows it (0: every edge shared and
 * sharp):
 *   - an open edge has no neighbour to take its contacts over: kept;
 *   - a contact tilted beyond a flat or concave edge lies above the
 *     neighbour, which reports its own, closer face contact: dropped;
 *   - a tilted vertex contact with A's reference point beyond the line of
 *     an open edge at the vertex is kept; one whose two edges at the vertex
 *     each are flat or concave, or open with A on this side of its line,
 *     is covered by the neighbours: dropped;
 *   - contacts on an open vertex (whose ring of triangles is incomplete, so
 *     that the ownership direction may fall in the gap) are kept, which can
 *     duplicate them along the surface's boundary. */
CC_HD int cc_triangle_keep_feature(int feature, cc_vec3 t0, cc_vec3 t1, cc_vec3 t2, cc_vec3 ref, unsigned flags)
{
    if (feature < 0) return 0;
    int kind = feature & CC_TRI_KIND_MASK, outside = (feature & CC_TRI_OUTSIDE) != 0;
    if (kind == CC_TRI_FACE) return 1;
    cc_vec3 t[3] = {t0, t1, t2};
    if (kind < CC_TRI_VERTEX0) {
        int k = kind - CC_TRI_EDGE0, k1 = k == 2 ? 0 : k + 1;
        if (flags & CC_TRI_EDGE_OPEN(k)) return 1;
        if (outside && (flags & CC_TRI_EDGE_FLAT(k))) return 0;
        return cc_triangle_edge_owner(t[k], t[k1]);
    }
    /* Vertex k: its edges in this triangle are k (k -> k+1) and kp
     * (k-1 -> k). */
    int k = kind - CC_TRI_VERTEX0, kn = k == 2 ? 0 : k + 1, kp = k == 0 ? 2 : k - 1;
    if (outside) {
        /* Whether A (its reference point, seen from the vertex) lies
         * beyond each edge's line: outward in-plane normal = edge x front. */
        cc_vec3 x = cc_v3_cross(cc_v3_sub(t1, t0), cc_v3_sub(t2, t0)), d = cc_v3_sub(ref, t[k]);
        int cross_k = cc_v3_dot(d, cc_v3_cross(cc_v3_sub(t[kn], t[k]), x)) > 0.0f;
        int cross_kp = cc_v3_dot(d, cc_v3_cross(cc_v3_sub(t[k], t[kp]), x)) > 0.0f;
        int open_k = (flags & CC_TRI_EDGE_OPEN(k)) != 0, open_kp = (flags & CC_TRI_EDGE_OPEN(kp)) != 0;
        if ((open_k && cross_k) || (open_kp && cross_kp)) return 1;
        int covered_k = (flags & CC_TRI_EDGE_FLAT(k)) || open_k;
        int covered_kp = (flags & CC_TRI_EDGE_FLAT(kp)) || open_kp;
        if (covered_k && covered_kp) return 0;
    }
    if (flags & (CC_TRI_VERTEX_OPEN(k) | CC_TRI_EDGE_OPEN(k) | CC_TRI_EDGE_OPEN(kp))) return 1;
    return cc_triangle_vertex_owner(t[k], t[kn], t[kp], ref);
}

/* cc_triangle_keep_feature for callers that know the front normal of the
 * neighbour across each edge (across[k]; any length; zero for an open
 * edge, which keeps its contacts), e.g. heightfields, whose neighbours are
 * implicit. `normal` is the manifold normal (A -> triangle). A contact
 * tilted beyond edge k is kept only when its outward direction -normal
 * also lies beyond the neighbour's side of the edge: then the neighbour's
 * closest point is on the shared edge too (the contact is real and the
 * owner keeps it once); otherwise the neighbour reports its own, closer
 * contact. The neighbours decide the flat and concave edges of the vertex
 * rule as well; `flags` adds open vertices. */
CC_HD int cc_triangle_keep_feature_across(int feature, cc_vec3 t0, cc_vec3 t1, cc_vec3 t2, cc_vec3 ref,
                                          cc_vec3 normal, unsigned flags, const cc_vec3* across)
{
    cc_vec3 t[3] = {t0, t1, t2};
    cc_vec3 x = cc_v3_cross(cc_v3_sub(t1, t0), cc_v3_sub(t2, t0));
    for (int k = 0; k < 3; ++k) {
        int j = k == 2 ? 0 : k + 1;
        cc_vec3 e = cc_v3_sub(t[j], t[k]);
        float scale = cc_v3_length(e) * cc_v3_length(across[k]);
        if (!(scale > 0.0f)) {
            flags |= CC_TRI_EDGE_OPEN(k);
            continue;
        }
        /* Flat or concave: the neighbour's normal does not lean across the
         * edge (outward in-plane normal of the edge: e x front). */
        float lean = cc_v3_dot(across[k], cc_v3_cross(e, x)) / (scale * cc_v3_length(x));
        if (!(lean > CC_TRI_FLAT_SIN)) flags |= CC_TRI_EDGE_FLAT(k);
    }
    int kind = feature & CC_TRI_KIND_MASK;
    if (feature >= 0 && (feature & CC_TRI_OUTSIDE) && kind >= CC_TRI_EDGE0 && kind < CC_TRI_VERTEX0) {
        int k = kind - CC_TRI_EDGE0, j = k == 2 ? 0 : k + 1;
        if (!(flags & CC_TRI_EDGE_OPEN(k))) {
            /* The neighbour's outward in-plane normal of the shared edge is
             * across x e (its edge runs the other way); -normal beyond it. */
            cc_vec3 e = cc_v3_sub(t[j], t[k]);
            cc_vec3 side = cc_v3_cross(across[k], e);
            float beyond = -cc_v3_dot(normal, side);
            /* Ties keep: a duplicate at the wedge's rim is harmless, a gap
             * is not. */
            if (!(beyond >= -CC_TRI_FLAT_SIN * cc_v3_length(side))) return 0;
            return cc_triangle_edge_owner(t[k], t[j]);
        }
    }
    return cc_triangle_keep_feature(feature, t0, t1, t2, ref, flags);
}

/* For a face contact of several points (a box resting across the shared
 * edge of two triangles): the points where the clipped polygon meets an
 * edge or vertex shared with neighbours are found by each of those
 * triangles alike. Keeps such a point in the owner of the edge or vertex
 * only (cc_triangle_keep_feature's rules, the point classified within the
 * bands), and every point inside the face; compacts the manifold and
 * returns its new count. Call after cc_triangle_keep_feature kept a
 * CC_TRI_FACE contact; harmless on a one-point face contact, which never
 * lies within a band. cc_triangle_dedupe_mask gives the same answer as a
 * bitmask of the points kept (bit i: point i), leaving the manifold as it
 * is, so that each point keeps its index. */
CC_HD_CALL unsigned cc_triangle_dedupe_mask(const cc_manifold* m, cc_vec3 t0, cc_vec3 t1, cc_vec3 t2, cc_vec3 ref,
                                       unsigned flags)
{
    cc_vec3 w[3] = {t0, t1, t2};
    cc_vec3 rel[3] = {cc_v3_sub(t0, ref), cc_v3_sub(t1, ref), cc_v3_sub(t2, ref)};
    float ref_coord = cc_tri_abs_max(ref), bound = cc_tri_band_bound(rel, w, ref_coord);
    unsigned keep = 0u;
    CC_NO_UNROLL
    for (int i = 0; i < m->count; ++i) {
        /* The point's core point on the triangle, relative to ref. */
        cc_vec3 q = cc_v3_sub(cc_manifold_point_b(m, i), ref);
        float band;
        int kind = cc_tri_near_feature(q, rel, w, ref_coord, bound, &band);
        if (kind >= 0 && (flags & CC_TRI_FACE_OWNERS)) {
            /* Only the triangles in this plane find the same point with
             * the same normal: one of them keeps it. Across a sharp edge,
             * or at a vertex where this plane's fan ends, the neighbours
             * (often culled, A being behind them) never report it. */
            if (kind >= CC_TRI_VERTEX0) {
                if (!(flags & CC_TRI_FACE_VERTEX_OWNER(kind - CC_TRI_VERTEX0))) continue;
            } else {
                int k = kind - CC_TRI_EDGE0, j = k == 2 ? 0 : k + 1;
                if ((flags & CC_TRI_EDGE_COPLANAR(k)) && !cc_triangle_edge_owner(w[k], w[j])) continue;
            }
        } else if (kind >= 0 && !cc_triangle_keep_feature(kind, t0, t1, t2, ref, flags)) {
            continue;
        }
        keep |= 1u << i;
    }
    return keep;
}

/* Whether a point of the manifold lies within a vertex band of the
 * triangle (the only points whose face owner must be known). */
CC_HD int cc_triangle_points_near_vertices(const cc_manifold* m, cc_vec3 t0, cc_vec3 t1, cc_vec3 t2, cc_vec3 ref)
{
    cc_vec3 w[3] = {t0, t1, t2};
    cc_vec3 rel[3] = {cc_v3_sub(t0, ref), cc_v3_sub(t1, ref), cc_v3_sub(t2, ref)};
    float bound = cc_tri_band_bound(rel, w, cc_tri_abs_max(ref));
    CC_NO_UNROLL
    for (int i = 0; i < m->count; ++i) {
        cc_vec3 q = cc_v3_sub(cc_manifold_point_b(m, i), ref);
        for (int k = 0; k < 3; ++k)
            if (cc_v3_length_sq(cc_v3_sub(q, rel[k])) <= bound * bound) return 1;
    }
    return 0;
}

CC_HD int cc_triangle_dedupe_points(cc_manifold* m, cc_vec3 t0, cc_vec3 t1, cc_vec3 t2, cc_vec3 ref, unsigned flags)
{
    unsigned keep = cc_triangle_dedupe_mask(m, t0, t1, t2, ref, flags);
    int n = 0;
    CC_NO_UNROLL
    for (int i = 0; i < m->count; ++i) {
        if (!(keep >> i & 1u)) continue;
        m->point[n] = m->point[i];
        m->distance[n] = m->distance[i];
        m->offset[n] = m->offset[i];
        ++n;
    }
    m->count = n;
    return n;
}

/* --- sphere ---------------------------------------------------------------- */

/* Sphere A (its centre) against the triangle: one contact at the closest
 * point of the triangle, normal from the centre to it (the reversed front
 * normal when the centre lies on the triangle or the closest point is
 * inside the face), distance |centre - closest| >= 0. Returns the feature
 * code (CC_TRI_NONE when nothing was reported). */
CC_HD_CALL int cc_collide_sphere_triangle(const cc_geom* sphere, cc_vec3 t0, cc_vec3 t1, cc_vec3 t2, float threshold,
                                     cc_manifold* m)
{
    cc_vec3 c = sphere->xf.p;
    cc_vec3 w[3] = {t0, t1, t2};
    /* Relative to the centre: rounding at the triangle's scale. */
    cc_vec3 rel[3] = {cc_v3_sub(t0, c), cc_v3_sub(t1, c), cc_v3_sub(t2, c)};
    cc_vec3 n;
    m->count = 0;
    m->normal = cc_v3(0.0f, 0.0f, -1.0f);
    if (!cc_triangle_normal(rel[0], rel[1], rel[2], &n)) return CC_TRI_NONE;
    m->normal = cc_v3_neg(n);
    float h = -cc_v3_dot(rel[0], n); /* height of the centre above the plane */
    /* Behind (culled), or farther from the plane than the threshold (the
     * triangle is farther still). Also rejects NaN. */
    if (!(h >= 0.0f) || !(h <= threshold)) return CC_TRI_NONE;
    int region;
    cc_vec3 q = cc_triangle_closest_origin(rel[0], rel[1], rel[2], n, 1, &region);
    float size = cc_triangle_size(rel[0], rel[1], rel[2]);
    float ref_coord = cc_tri_abs_max(c);
    float coord = cc_maxf(ref_coord, cc_maxf(cc_tri_abs_max(t0), cc_maxf(cc_tri_abs_max(t1), cc_tri_abs_max(t2))));
    float dist = h;
    cc_vec3 normal = cc_v3_neg(n);
    if (region != CC_TRI_FACE) {
        dist = cc_v3_length(q);
        /* A centre on the boundary (within rounding) has no direction to
         * the closest point: the face normal serves. */
        if (dist > CC_GEOM_REL_TOL * (size + coord)) normal = cc_v3_scale(q, 1.0f / dist);
    }
    m->normal = normal;
    cc_manifold_add(m, cc_v3_madd(c, q, 0.5f), dist, threshold);
    if (m->count == 0) return CC_TRI_NONE;
    return cc_triangle_feature(q, cc_v3_scale(n, -h), rel, w, ref_coord);
}

/* --- convex shapes: the triangle as a backward prism ----------------------- */

/* The triangle extruded backwards along -front by `depth`: a proper solid
 * whose front face is the triangle, so that GJK, MPR, EPA and the feature
 * clipping see an ordinary hull (a zero-thickness hull would give them
 * coplanar support points and zero-volume simplices). Contacts on its front
 * face are exactly the triangle's; those supported by its sides below the
 * front plane or by its back are removed by the caller. */
typedef struct cc_triangle_prism {
    cc_vec3 v[6];        /* 0..2 the triangle, 3..5 the same moved back; frame: prism centre */
    cc_hull_face f[5];   /* front, back, the sides of edges 0, 1, 2 */
    int idx[18];
} cc_triangle_prism;

/* Builds the prism of triangle (p0, p1, p2) (pair coordinates) with unit
 * front normal n, and its convex view. */
CC_HD_CALL cc_convex cc_triangle_prism_convex(cc_triangle_prism* pr, cc_vec3 p0, cc_vec3 p1, cc_vec3 p2, cc_vec3 n,
                                         float depth)
{
    cc_vec3 back = cc_v3_scale(n, -depth);
    /* Frame origin at the prism's centre: the hull centre is 0. */
    cc_vec3 centre = cc_v3_madd(cc_v3_scale(cc_v3_add(p0, cc_v3_add(p1, p2)), 1.0f / 3.0f), n, -0.5f * depth);
    cc_vec3 p[3] = {p0, p1, p2};
    for (int k = 0; k < 3; ++k) {
        pr->v[k] = cc_v3_sub(p[k], centre);
        pr->v[k + 3] = cc_v3_add(pr->v[k], back);
    }
    const int front[3] = {0, 1, 2}, rear[3] = {5, 4, 3};
    for (int i = 0; i < 3; ++i) {
        pr->idx[i] = front[i];
        pr->idx[3 + i] = rear[i];
    }
    pr->f[0].normal = n;
    pr->f[0].offset = cc_v3_dot(n, pr->v[0]);
    pr->f[0].first = 0;
    pr->f[0].count = 3;
    pr->f[1].normal = cc_v3_neg(n);
    pr->f[1].offset = -cc_v3_dot(n, pr->v[3]);
    pr->f[1].first = 3;
    pr->f[1].count = 3;
    for (int k = 0; k < 3; ++k) {
        int j = k == 2 ? 0 : k + 1;
        /* Outward side normal: edge x front (the triangle turns CCW about
         * the front). Quad k, k+3, j+3, j runs CCW about it. */
        cc_vec3 s = cc_v3_normalize(cc_v3_cross(cc_v3_sub(pr->v[j], pr->v[k]), n));
        cc_hull_face* f = &pr->f[2 + k];
        f->normal = s;
        f->offset = cc_v3_dot(s, pr->v[k]);
        f->first = 6 + 4 * k;
        f->count = 4;
        pr->idx[6 + 4 * k] = k;
        pr->idx[7 + 4 * k] = k + 3;
        pr->idx[8 + 4 * k] = j + 3;
        pr->idx[9 + 4 * k] = j;
    }
    cc_convex c;
    c.type = CC_SHAPE_CONVEX_HULL;
    c.size = cc_v3(1.0f, 1.0f, 1.0f);
    c.f.o = centre;
    c.f.x = cc_v3(1.0f, 0.0f, 0.0f);
    c.f.y = cc_v3(0.0f, 1.0f, 0.0f);
    c.f.z = cc_v3(0.0f, 0.0f, 1.0f);
    c.hull = cc_hull_ref_none(); /* six vertices: scanned, no graph */
    c.hull.vertices = pr->v;
    c.hull.faces = pr->f;
    c.hull.indices = pr->idx;
    c.hull.vertex_count = 6;
    c.hull.face_count = 5;
    c.hull.vertex_first = 0;
    c.hull.center = cc_v3(0.0f, 0.0f, 0.0f);
    c.extent = cc_convex_extent_of(CC_SHAPE_CONVEX_HULL, c.size, &c.hull);
    return c;
}

/* Whether point x projects along the unit front normal n into the
 * triangle rel (same coordinates), its boundary and a band of `band` beyond
 * it included (a point on a shared edge is over both triangles). */
CC_HD int cc_tri_over_face(const cc_vec3* rel, cc_vec3 n, cc_vec3 x, float band)
{
    for (int k = 0; k < 3; ++k) {
        cc_vec3 a = rel[k], e = cc_v3_sub(rel[k == 2 ? 0 : k + 1], a);
        /* x on the inner side of edge a -> a + e, seen along n. */
        if (cc_v3_dot(cc_v3_cross(e, cc_v3_sub(x, a)), n) < -band * cc_v3_length(e)) return 0;
    }
    return 1;
}

/* How deep A reaches below the prism's triangle, seen along its front
 * normal n: the largest drop from a point of the triangle straight down to
 * A's lower surface, with that point (above) and A's (below). Exact to
 * rounding, from A's own surface (cc_convex_line_exit), where GJK's
 * normal, a gap of a few tolerances off, can put the support point of a
 * flat pole or a long side line far to the side of where the two touch.
 *
 * A's lower surface is convex, so the drop is concave over A's shadow on
 * the plane. Its maximum lies under A's lowest point `low` when that is
 * over the triangle; else on the rim, on each edge by a golden-section
 * search. Off the shadow a line down misses A; there the search is led
 * back to a point known to be in it: the best of a coarse scan, or where
 * the segment from `inside` (a point of A within the prism) to the foot of
 * `low`, which lies in the shadow, leaves the triangle; a thin sliver of
 * shadow across an edge is then found too. A capsule's segment has a
 * shadow of its own (cc_tri_segment_drop). Returns -3e38 where no line
 * down the triangle meets A, and for a sphere's point core. */
#define CC_TRI_RIM_SAMPLES 8
#define CC_TRI_RIM_STEPS 40
CC_HD float cc_tri_drop(const cc_convex* a, cc_vec3 p, cc_vec3 n, cc_vec3* below)
{
    return cc_convex_line_exit(a, p, cc_v3_neg(n), below) ? cc_v3_dot(cc_v3_sub(p, *below), n) : -3.0e38f;
}

/* The drop at parameter u of edge p0 + u e; off the shadow, a value below
 * every drop that rises toward u0, a parameter in the shadow. */
CC_HD float cc_tri_drop_toward(const cc_convex* a, cc_vec3 p0, cc_vec3 e, float u, float u0, cc_vec3 n,
                               cc_vec3* below)
{
    float d = cc_tri_drop(a, cc_v3_madd(p0, e, u), n, below);
    return d > -3.0e38f ? d : -1.0e30f * (1.0f + fabsf(u - u0));
}

/* The same for a capsule's core, a segment: the part of it over the
 * triangle (seen along n), clipped by the prism's sides, drops linearly
 * along it, so deepest at one of its two ends. */
CC_HD float cc_tri_segment_drop(const cc_convex* a, const cc_vec3* t, cc_vec3 n, cc_vec3* below, cc_vec3* above)
{
    cc_vec3 half = cc_v3_scale(a->f.z, a->size.y);
    cc_vec3 e0 = cc_v3_sub(a->f.o, half), e = cc_v3_scale(half, 2.0f);
    float enter = 0.0f, leave = 1.0f;
    for (int k = 0; k < 3; ++k) {
        cc_vec3 out = cc_v3_cross(cc_v3_sub(t[k == 2 ? 0 : k + 1], t[k]), n);
        float rate = cc_v3_dot(out, e), room = -cc_v3_dot(out, cc_v3_sub(e0, t[k]));
        if (rate > 0.0f) leave = cc_minf(leave, room / rate);
        else if (rate < 0.0f) enter = cc_maxf(enter, room / rate);
        else if (room < 0.0f) return -3.0e38f;
    }
    if (!(enter <= leave)) return -3.0e38f;
    /* The end lower along n. */
    float u = cc_v3_dot(e, n) > 0.0f ? enter : leave;
    *below = cc_v3_madd(e0, e, u);
    float drop = cc_v3_dot(cc_v3_sub(t[0], *below), n);
    *above = cc_v3_madd(*below, n, drop);
    return drop;
}

/* A point of A's shadow on the line of edge p0 + u e (front normal n),
 * as its parameter u clamped to the edge; -1 when the shadow does not
 * cross the line. A's point farthest inside the line and one beyond it
 * (A's lowest point `low` when that is) are both A's, and so is where the
 * segment between them crosses the plane through the edge along n. This
 * finds a thin sliver of shadow across an edge, which the scan can step
 * over (a corner of A just past the edge). */
CC_HD float cc_tri_shadow_on_edge(const cc_convex* a, cc_vec3 low, cc_vec3 p0, cc_vec3 e, cc_vec3 n)
{
    cc_vec3 out = cc_v3_cross(e, n);
    cc_vec3 in = cc_support(a, cc_v3_neg(out));
    float s_in = cc_v3_dot(out, cc_v3_sub(in, p0));
    if (!(s_in < 0.0f)) return -1.0f;
    cc_vec3 beyond = cc_v3_dot(out, cc_v3_sub(low, p0)) > 0.0f ? low : cc_support(a, out);
    float s_beyond = cc_v3_dot(out, cc_v3_sub(beyond, p0));
    if (!(s_beyond > 0.0f)) return -1.0f;
    cc_vec3 x = cc_v3_madd(beyond, cc_v3_sub(in, beyond), s_beyond / (s_beyond - s_in));
    return cc_segment_closest_param(x, p0, e);
}

CC_HD_CALL float cc_tri_deepest_drop(const cc_convex* a, const cc_convex* prism, cc_vec3 n, cc_vec3 low,
                                     cc_vec3 inside, cc_vec3* below, cc_vec3* above)
{
    cc_vec3 t[3], q;
    for (int k = 0; k < 3; ++k) t[k] = cc_v3_add(prism->f.o, prism->hull.vertices[k]);
    if (a->type == CC_SHAPE_CAPSULE) return cc_tri_segment_drop(a, t, n, below, above);
    /* Under the lowest point, or the triangle's point nearest it. */
    int region;
    cc_vec3 nearest = cc_v3_add(low, cc_triangle_closest_origin(cc_v3_sub(t[0], low), cc_v3_sub(t[1], low),
                                                                cc_v3_sub(t[2], low), n, 1, &region));
    *above = nearest;
    float best = cc_tri_drop(a, nearest, n, below);
    if (region == CC_TRI_FACE && best > -3.0e38f) return best;
    /* Where the segment from inside's foot to low's leaves the triangle:
     * the first edge it crosses outward. */
    cc_vec3 from = cc_v3_madd(inside, n, -cc_v3_dot(cc_v3_sub(inside, t[0]), n));
    cc_vec3 to = cc_v3_madd(low, n, -cc_v3_dot(cc_v3_sub(low, t[0]), n));
    int exit_edge = -1;
    float exit_at = 2.0f;
    for (int k = 0; k < 3; ++k) {
        cc_vec3 out = cc_v3_cross(cc_v3_sub(t[k == 2 ? 0 : k + 1], t[k]), n);
        float s0 = cc_minf(cc_v3_dot(out, cc_v3_sub(from, t[k])), 0.0f), s1 = cc_v3_dot(out, cc_v3_sub(to, t[k]));
        if (s1 > 0.0f && s0 / (s0 - s1) < exit_at) exit_at = s0 / (s0 - s1), exit_edge = k;
    }
    cc_vec3 crossing = cc_v3_madd(from, cc_v3_sub(to, from), cc_minf(exit_at, 1.0f));
    for (int k = 0; k < 3; ++k) {
        cc_vec3 p0 = t[k], e = cc_v3_sub(t[k == 2 ? 0 : k + 1], p0);
        /* A parameter in the shadow: the best of the scan and the seeds. */
        float u0 = 0.0f, d0 = -3.0e38f;
        CC_NO_UNROLL
        for (int i = 0; i <= CC_TRI_RIM_SAMPLES + 3; ++i) {
            float u;
            if (i <= CC_TRI_RIM_SAMPLES) u = (float)i / CC_TRI_RIM_SAMPLES;
            else if (i == CC_TRI_RIM_SAMPLES + 1) u = cc_segment_closest_param(nearest, p0, e);
            else if (i == CC_TRI_RIM_SAMPLES + 2) u = k == exit_edge ? cc_segment_closest_param(crossing, p0, e) : -1.0f;
            else u = cc_tri_shadow_on_edge(a, low, p0, e, n);
            if (u < 0.0f) continue;
            float d = cc_tri_drop(a, cc_v3_madd(p0, e, u), n, &q);
            if (d > d0) d0 = d, u0 = u;
        }
        if (!(d0 > -3.0e38f)) continue;
        float lo = 0.0f, hi = 1.0f;
        const float g = 0.381966011f; /* 2 - the golden ratio */
        float u1 = lo + g * (hi - lo), u2 = hi - g * (hi - lo);
        float d1 = cc_tri_drop_toward(a, p0, e, u1, u0, n, &q), d2 = cc_tri_drop_toward(a, p0, e, u2, u0, n, &q);
        CC_NO_UNROLL
        for (int step = 0; step < CC_TRI_RIM_STEPS; ++step) {
            if (d1 >= d2) {
                hi = u2, u2 = u1, d2 = d1;
                u1 = lo + g * (hi - lo);
                d1 = cc_tri_drop_toward(a, p0, e, u1, u0, n, &q);
            } else {
                lo = u1, u1 = u2, d1 = d2;
                u2 = hi - g * (hi - lo);
                d2 = cc_tri_drop_toward(a, p0, e, u2, u0, n, &q);
            }
        }
        /* The search's best point, or the seed where the maximum is at an
         * end of the edge. */
        float u = d1 >= d2 ? u1 : u2;
        if (!(cc_maxf(d1, d2) >= d0)) u = u0;
        cc_vec3 p = cc_v3_madd(p0, e, u);
        float d = cc_tri_drop(a, p, n, &q);
        if (d > best) {
            best = d;
            *below = q;
            *above = p;
        }
    }
    return best;
}

/* Depth of A over the triangle along its front normal n, when A crosses
 * the face with its lowest point beyond the triangle: the smallest lift t
 * along n after which A no longer meets the prism. That is A's deepest
 * drop below the triangle (cc_tri_deepest_drop), exact; for a sphere's
 * point core, a bisection between 0, where A meets the prism, and -low_h,
 * where A is above the plane, with GJK telling which. Writes r as a
 * one-point contact: normal -n, distance -t, the touching points on A and
 * on the triangle's face. `inside` is a point of A within the prism.
 * Returns 0 when GJK cannot tell. */
#define CC_TRI_DEPTH_STEPS 32
#define CC_TRI_FREE_TRIES 4
CC_HD float cc_tri_pow10(int k) { return k == 0 ? 1.0f : (k == 1 ? 10.0f : (k == 2 ? 100.0f : 1000.0f)); }

CC_HD int cc_tri_face_depth(const cc_convex* a, const cc_convex* prism, cc_vec3 n, cc_vec3 low, float low_h,
                            cc_vec3 inside, cc_convex_result* r)
{
    r->normal = cc_v3_neg(n);
    r->overlap_count = -1;
    r->feature_a.count = 1;
    r->feature_b.count = 1;
    float drop = cc_tri_deepest_drop(a, prism, n, low, inside, &r->point_a, &r->point_b);
    if (drop > -3.0e38f) {
        r->distance = -cc_minf(drop, -low_h);
        r->feature_a.p[0] = r->point_a;
        r->feature_b.p[0] = r->point_b;
        return 1;
    }
    float scale = a->extent + prism->extent;
    float tol = 1.0e-6f * scale;
    /* Above the plane by 2 tol, A is apart (or touches the face within
     * GJK's tolerance, when its lowest point is over the triangle after
     * all). */
    float lo = 0.0f, hi = -low_h + 2.0f * tol;
    cc_vec3 zero = cc_v3(0.0f, 0.0f, 0.0f);
    CC_NO_UNROLL
    for (int step = 0; step < CC_TRI_DEPTH_STEPS && hi - lo > tol; ++step) {
        float mid = 0.5f * (lo + hi);
        cc_vec3 shift = cc_v3_scale(n, -mid);
        cc_gjk_result g;
        cc_gjk(a, prism, shift, zero, 3.0e38f, tol, tol, &g);
        /* Apart only when GJK's normal proves it (support points of both
         * along it leave a gap): a stall near touching claims nothing. */
        int apart = g.status == CC_GJK_SEPARATED &&
                    cc_v3_dot(cc_support(prism, cc_v3_neg(g.normal)), g.normal) - cc_v3_dot(shift, cc_v3_neg(g.normal)) -
                            cc_v3_dot(cc_support(a, g.normal), g.normal) >
                        0.0f;
        if (apart) hi = mid;
        else lo = mid;
    }
    /* Just free: the closest points are the touching points. They are
     * found 2 tol higher, where A is apart by more than GJK's tolerance
     * (at hi itself it may be within it, which GJK calls touching); where
     * GJK still stalls (a steep shape whose lowest point lies just past the
     * triangle, touching the face's rim at a grazing angle), ten times
     * higher again, up to three times: the touching lift below follows
     * from the gap GJK measures there. */
    float free_lift = hi;
    cc_gjk_result g;
    g.status = CC_GJK_OVERLAP;
    CC_NO_UNROLL
    for (int k = 0; k < CC_TRI_FREE_TRIES && g.status != CC_GJK_SEPARATED; ++k) {
        free_lift += 2.0f * tol * cc_tri_pow10(k);
        cc_gjk(a, prism, cc_v3_scale(n, -free_lift), zero, 3.0e38f, 0.0f, tol, &g);
    }
    if (g.status != CC_GJK_SEPARATED) return 0;
    /* The bisection's bounds can both stand above the touching lift where
     * GJK could not prove a small gap. The gap at free_lift shrinks at the
     * rate n . normal as A comes down: the touching lift, at most hi. */
    float rate = fabsf(cc_v3_dot(n, g.normal));
    float touching = rate > 0.5f ? cc_clampf(free_lift - g.distance / rate, 0.0f, hi) : hi;
    /* Lifted by -low_h, A lies wholly above the plane: never deeper. */
    touching = cc_minf(touching, -low_h);
    r->normal = cc_v3_neg(n);
    r->distance = -touching;
    /* A's touching point: the point of its supporting feature along GJK's
     * normal nearest GJK's own (a blend of support points, which lies
     * inside a curved surface). One support point alone would be an
     * arbitrary end of a box's edge or of a cylinder's side line lying
     * along the triangle's rim, far from where the two touch; and so would
     * the feature cut to its exact support set, since GJK's normal, a gap
     * of a few tolerances apart, is off by 1e-4 rad or more: a large box
     * face tilted by that much is one corner (a small triangle of a fine
     * mesh under a big box took the box's far corner as the contact). */
    cc_feature fa;
    cc_convex_feature(a, g.normal, &fa);
    r->point_a = cc_support_nearest(a, &fa, g.normal, g.point_a);
    /* Lifted free, A touches the prism only where it leaves last: on the
     * triangle, its face or its rim, across GJK's gap from A's touching
     * point (GJK's own point of the prism is a blend of its vertices, on a
     * chord of the prism where the simplex spans one), then lowered back
     * by the lift; the nearest point of the triangle to that. */
    cc_vec3 touch = cc_v3_madd(cc_v3_madd(r->point_a, g.normal, g.distance), n, free_lift);
    cc_vec3 t[3];
    for (int k = 0; k < 3; ++k) t[k] = cc_v3_sub(cc_v3_add(prism->f.o, prism->hull.vertices[k]), touch);
    int region;
    r->point_b = cc_v3_add(touch, cc_triangle_closest_origin(t[0], t[1], t[2], n, 1, &region));
    r->feature_a.count = 1;
    r->feature_a.p[0] = r->point_a;
    r->feature_b.count = 1;
    r->feature_b.p[0] = r->point_b;
    r->overlap_count = -1;
    return 1;
}

/* Convex shape A (capsule, box, cylinder, cone, ellipsoid, convex hull)
 * against the triangle, through the convex route: GJK/MPR on A and the
 * triangle's backward prism (deeper than A can reach while its centre is
 * in front: twice A's extent), then the manifold clipped from both
 * supporting features (a box face on the triangle gives the corners of
 * their clipped polygon), up to cc_convex_max_points(type_a, hull) points.
 * Points whose triangle-side core point lies below the front plane (the
 * prism's sides or back, no part of the triangle) are dropped, and so is
 * the exact deepest point when it lies there (a one-point contact then
 * gives nothing). This is exact while A does not reach below the plane
 * beside the triangle; where it does (A hanging over a convex edge) the
 * neighbour across that edge reports the contact.
 * Returns the feature code: CC_TRI_FACE for a multi-point contact along
 * the face normal; for an ellipsoid (one point) the feature code as for a
 * sphere (A's lowest point standing in for the centre); for a normal
 * tilted off the face, the edge or vertex where the deepest point meets
 * the triangle, flagged CC_TRI_OUTSIDE. CC_TRI_NONE when nothing was
 * reported. */
/* The convex route's state between its two stages (setup and query, then
 * the contact), kept in memory so that each stage compiles on its own
 * registers: the GPU kernel's register count is the larger stage's, not
 * their sum. */
typedef struct cc_tri_convex {
    cc_vec3 origin, n, low;
    cc_vec3 deep_a, deep_b; /* the deepest point of the features' overlap */
    cc_vec3 w[3], rel[3];
    float low_h, size, threshold;
    int type_a;
    cc_convex a, b;
    cc_triangle_prism prism;
    cc_convex_result r;
} cc_tri_convex;

/* A contact tilted off the face, A apart from the triangle: A touches a
 * vertex or an edge, and where A is round there, the query's normal is
 * good only to about sqrt(tol / curvature). Under a large flat shape (an
 * ellipsoid curving 200 m beside a triangle a metre across) that angle
 * moves A's point along its surface by centimetres, and the two points
 * miss each other across the normal. The convex route's sharpening
 * settles the normal where they face each other. */
CC_HD_CALL void cc_tri_sharpen(cc_tri_convex* q)
{
    cc_convex_result* r = &q->r;
    cc_vec3 tilt = cc_v3_madd(r->normal, q->n, -cc_v3_dot(r->normal, q->n));
    if (r->distance >= 0.0f && cc_v3_length(tilt) > CC_TRI_FACE_SIN)
        cc_convex_sharpen(&q->a, &q->b, cc_convex_tolerance(&q->a, &q->b), 0, &r->normal, &r->distance, r);
}

/* Stage 1: culling, the prism and the convex query. Returns 0 when there
 * is no contact (m then holds none). */
CC_HD_CALL int cc_tri_convex_query(cc_tri_convex* q, const cc_geom* ga, int type_a, cc_vec3 t0, cc_vec3 t1, cc_vec3 t2,
                                   float threshold, float reach, cc_manifold* m)
{
    /* Pair coordinates relative to A's reference point, which is then the
     * origin: culling and vertex ownership use the same point. */
    q->origin = cc_triangle_reference(ga, type_a);
    q->type_a = type_a;
    q->threshold = threshold;
    q->w[0] = t0;
    q->w[1] = t1;
    q->w[2] = t2;
    for (int k = 0; k < 3; ++k) q->rel[k] = cc_v3_sub(q->w[k], q->origin);
    m->count = 0;
    m->normal = cc_v3(0.0f, 0.0f, -1.0f);
    if (!cc_triangle_normal(q->rel[0], q->rel[1], q->rel[2], &q->n)) return 0;
    cc_vec3 n = q->n;
    m->normal = cc_v3_neg(n);
    /* Culling: the reference point behind the plane (NaN rejected too). */
    if (!(cc_v3_dot(q->rel[0], n) <= 0.0f)) return 0;
    q->a = cc_convex_of(ga, type_a, q->origin);
    /* A entirely farther from the plane than the threshold. */
    q->low = cc_support(&q->a, cc_v3_neg(n));
    q->low_h = cc_v3_dot(cc_v3_sub(q->low, q->rel[0]), n);
    if (!(q->low_h <= threshold)) return 0;
    q->size = cc_triangle_size(q->rel[0], q->rel[1], q->rel[2]);
    /* The prism reaches as deep as A can, but no deeper than the surface
     * holds solid behind its face (`reach`): a large shape beside a small
     * mesh would otherwise meet the prism far behind the mesh, where
     * nothing is (phantom deep contacts). A sheet (no solid behind) gets
     * a thousandth of the triangle's size, so that the prism has a
     * volume; a solid gets no more than it holds: a large shape reaching
     * round a small box just apart from it, past its back face, met that
     * padding under a face on the far side, and the face then pushed it
     * by all of its depth below the plane. */
    float pad = 1.0e-3f * q->size;
    float depth = cc_minf(2.0f * q->a.extent + pad, cc_maxf(reach, pad));
    if (!(depth > 0.0f) || !(depth < 3.0e38f)) return 0;
    q->b = cc_triangle_prism_convex(&q->prism, q->rel[0], q->rel[1], q->rel[2], n, depth);
    if (!cc_convex_query(&q->a, &q->b, threshold, &q->r)) return 0;
    cc_tri_sharpen(q);
    return 1;
}

/* The smallest gap along r's normal where its two features overlap seen
 * along it (the overlap cc_convex_witness kept), with that point's lifts
 * onto both features, or 3e38 where they do not overlap. */
#define CC_TRI_OVERLAP_TIE 1.0e-5f
CC_HD_CALL float cc_tri_overlap_gap(const cc_convex_result* r, cc_vec3* pa, cc_vec3* pb)
{
    float best = 3.0e38f;
    CC_NO_UNROLL
    for (int i = 0; i < r->overlap_count; ++i) {
        cc_vec3 qa, qb;
        if (!cc_feature_lift(&r->feature_a, &r->overlap_plane, r->overlap_u[i], r->overlap_v[i], &qa) ||
            !cc_feature_lift(&r->feature_b, &r->overlap_plane, r->overlap_u[i], r->overlap_v[i], &qb))
            continue;
        float gap = cc_v3_dot(cc_v3_sub(qb, qa), r->normal);
        if (gap < best) best = gap, *pa = qa, *pb = qb;
    }
    return best;
}

/* Stage 2: the contact of a query that found one. Returns the feature code
 * (see cc_collide_convex_triangle_within). */
CC_HD_CALL int cc_tri_convex_contact(cc_tri_convex* q, cc_manifold* m)
{
    cc_convex_result* r = &q->r;
    cc_vec3 n = q->n;
    /* A meets the prism: it crosses the triangle's face. The surface pushes
     * it out along the face normal, by the depth of A below the plane over
     * the triangle. The query's own answer may leave the prism through a
     * side (a shape sunk deeper than the triangle is wide, or reaching
     * under it from beside), which is no part of the surface. A shape
     * apart from the prism keeps the query's closest points: over the face
     * or beside an edge or vertex. */
    int own_point = 0, along = 0;
    /* A point of A within the prism, while they overlap: A's deepest. */
    cc_vec3 inside = r->point_a;
    cc_vec3 tilt = cc_v3_madd(r->normal, n, -cc_v3_dot(r->normal, n));
    if (r->distance < 0.0f && cc_v3_length(tilt) > CC_TRI_FACE_SIN) {
        cc_convex_result_along(&q->a, &q->b, cc_v3_neg(n), r);
        along = 1;
    }
    /* A's lowest point, or its lowest edge or face, lies beyond the
     * triangle (seen along n): the deepest point over the triangle is on
     * its boundary, found as the lift that frees A. Along n the separation
     * is A's lowest point's, whatever feature holds it: a face of A tilted
     * off the triangle's plane overlaps the triangle while its lowest
     * corner lies far beyond it (a small triangle of a fine mesh under a
     * large box). There the overlap must reach that depth too (a face
     * parallel to the triangle), or the lowest point lie over the face. */
    float band = cc_tri_band_bound(q->rel, q->w, cc_tri_abs_max(q->origin));
    int beyond, low_over = cc_tri_over_face(q->rel, n, q->low, band);
    /* Needed only where the lowest point is not over the face. */
    float overlap_gap =
        along && r->feature_a.count > 1 && !low_over ? cc_tri_overlap_gap(r, &q->deep_a, &q->deep_b) : 3.0e38f;
    if (r->feature_a.count == 1) beyond = !low_over;
    else if (!along) beyond = r->overlap_count == 0;
    else beyond = !low_over && !(overlap_gap <= r->distance + CC_TRI_OVERLAP_TIE * (q->a.extent + q->size));
    /* Along n, the deepest pair over the face: A's lowest point and its
     * foot, when that is over the face, else the deepest point of the
     * features' overlap. The features' own witness, chosen for the
     * query's normal, can join points far apart: a support point beside a
     * cap polygon inscribed in its rim, or a far corner of a large face
     * tilted to the triangle. */
    if (along && !beyond) {
        if (low_over) {
            r->point_a = q->low;
            r->point_b = cc_v3_madd(q->low, n, -q->low_h);
        } else if (overlap_gap < 3.0e38f) {
            r->point_a = q->deep_a;
            r->point_b = q->deep_b;
        }
    }
    if (r->distance < 0.0f && beyond) {
        if (!cc_tri_face_depth(&q->a, &q->b, n, q->low, q->low_h, inside, r)) return CC_TRI_NONE;
        own_point = 1;
    }
    /* One point along the face normal (a one-point shape, or A's feature a
     * point: a rim's lowest), A's lowest point over the triangle: that
     * point and its foot are the contact, exactly. The query's own point
     * can lie well to the side of it: under a long flat ellipsoid the
     * separation changes only with the square of the offset, and a point
     * beside the foot's triangle, put past an edge, left the contact to the
     * neighbours, which left it back; the face's point of a cone's lowest
     * rim point came out most of the radius to its side. (Every coplanar
     * triangle finds the same foot, so exactly one holds it.) A tilted
     * answer apart is no better: with the lowest point over the face, its
     * height is the distance to the triangle; the query tilts only where
     * that point lies on the rim to rounding (a hull's corner a micrometre
     * over a seam of a plane heightfield, its normal tilted by the ratio). */
    int tilted = cc_v3_length(tilt) > CC_TRI_FACE_SIN;
    int over_apart = r->distance >= 0.0f && q->low_h >= 0.0f &&
                     q->low_h <= r->distance + CC_TRI_FRONT_ROUNDING * (q->a.extent + q->size);
    if (!along && (!tilted || over_apart) && low_over &&
        (cc_convex_max_points(q->type_a, CC_SHAPE_CONVEX_HULL) == 1 || r->feature_a.count == 1)) {
        r->normal = cc_v3_neg(n);
        r->distance = q->low_h;
        r->point_a = q->low;
        r->point_b = cc_v3_madd(q->low, n, -q->low_h);
    }
    if (!(r->distance <= q->threshold)) return CC_TRI_NONE;
    /* Pushing A toward the back: not a front contact. */
    if (cc_v3_dot(r->normal, n) > CC_TRI_BACK_COS) return CC_TRI_NONE;
    /* Points below the front plane lie on the prism's sides or back, no
     * part of the triangle: the manifold keeps the front face only. */
    cc_keep_side front;
    front.n = n;
    front.p = q->rel[0];
    front.tol = CC_TRI_FRONT_ROUNDING * (q->a.extent + q->size);
    int max_points = cc_convex_max_points(q->type_a, CC_SHAPE_CONVEX_HULL);
    cc_manifold_from_query(r, &q->a, &q->b, max_points, q->origin, q->threshold, &front, m);
    if (m->count == 0) return CC_TRI_NONE;
    /* Feature: the face for a multi-point contact along the face normal;
     * else where the deepest point meets the triangle. */
    cc_vec3 lateral = cc_v3_madd(r->normal, n, -cc_v3_dot(r->normal, n));
    int along_face = !(cc_v3_length(lateral) > CC_TRI_FACE_SIN);
    /* The deepest point over the triangle on its boundary, A's lowest point
     * beyond: no neighbour finds this point (theirs is their own deepest),
     * so it is this triangle's, kept whatever the boundary's owners. */
    if (own_point) return CC_TRI_FACE | CC_TRI_OVER;
    if (max_points > 1 && along_face) return CC_TRI_FACE;
    /* The deepest point; points tied with it to rounding (a capsule lying
     * along an edge touches it at both ends) stand together, at their
     * mean: on the edge they span, not at whichever end came first, so
     * that the triangles around the edge classify it alike. */
    int deepest = 0;
    CC_NO_UNROLL
    for (int i = 1; i < m->count; ++i)
        if (m->distance[i] < m->distance[deepest]) deepest = i;
    float tie = CC_TRI_FRONT_ROUNDING * (q->a.extent + q->size);
    cc_vec3 qb = cc_v3(0.0f, 0.0f, 0.0f);
    int tied = 0;
    CC_NO_UNROLL
    for (int i = 0; i < m->count; ++i)
        if (m->distance[i] <= m->distance[deepest] + tie) {
            qb = cc_v3_add(qb, cc_v3_sub(cc_manifold_point_b(m, i), q->origin));
            ++tied;
        }
    qb = cc_v3_scale(qb, 1.0f / (float)tied);
    cc_vec3 foot = cc_v3_madd(q->low, n, -q->low_h);
    int feature = cc_triangle_feature(qb, foot, q->rel, q->w, cc_tri_abs_max(q->origin));
    /* A normal tilted off the face is no face contact: the triangle's
     * boundary supports it, beside A rather than under it, on the edges
     * that face A. (Points tied in depth need not share an edge: a capsule
     * nearly parallel to the face crosses the triangle, touching the edge
     * beside it at one end and another edge at the other; their mean can
     * lie nearer to the wrong one.) A whose lowest point lies over an edge
     * or vertex but below the plane (clearly, past rounding) passes the
     * triangle beside it, through its plane: a tilted contact there is
     * beside the triangle too, and a flat neighbour, which has that lowest
     * point over its face, reports the deeper contact. */
    int below = q->low_h < -tie;
    if (cc_v3_length(lateral) > CC_TRI_FACE_SIN && (feature == CC_TRI_FACE || (feature & CC_TRI_OUTSIDE) || below)) {
        unsigned facing = cc_tri_facing_edges(q->rel, n, cc_v3_neg(lateral));
        int kind = feature & CC_TRI_KIND_MASK;
        if (feature == CC_TRI_FACE || !cc_tri_kind_on_edges(kind, facing)) kind = cc_tri_nearest_boundary(qb, q->rel, facing);
        feature = kind | CC_TRI_OUTSIDE;
    }
    return feature;
}

CC_HD int cc_collide_convex_triangle_within(const cc_geom* ga, int type_a, cc_vec3 t0, cc_vec3 t1, cc_vec3 t2,
                                            float threshold, float reach, cc_manifold* m)
{
    cc_tri_convex q;
    if (!cc_tri_convex_query(&q, ga, type_a, t0, t1, t2, threshold, reach, m)) return CC_TRI_NONE;
    return cc_tri_convex_contact(&q, m);
}

/* The same for a triangle of a surface of unknown extent. */
CC_HD int cc_collide_convex_triangle(const cc_geom* ga, int type_a, cc_vec3 t0, cc_vec3 t1, cc_vec3 t2,
                                     float threshold, cc_manifold* m)
{
    return cc_collide_convex_triangle_within(ga, type_a, t0, t1, t2, threshold, 3.0e38f, m);
}

/* Ellipsoid A against the triangle: one contact, through the convex route
 * (cc_convex_max_points gives one point for ellipsoids). Same feature code
 * and duplicate rule as the sphere. */
CC_HD int cc_collide_ellipsoid_triangle(const cc_geom* ellipsoid, cc_vec3 t0, cc_vec3 t1, cc_vec3 t2,
                                        float threshold, cc_manifold* m)
{
    return cc_collide_convex_triangle(ellipsoid, CC_SHAPE_ELLIPSOID, t0, t1, t2, threshold, m);
}

/* --- mesh vertex against a plane ------------------------------------------- */

/* Appends the contact of world vertex v (of mesh B) with plane A when it is
 * within the threshold and, for a finite plane, projects inside its
 * rectangle: normal = the plane's normal, distance = the vertex's height
 * above the plane, point = midpoint between the vertex and its projection.
 * Sets m->normal; the caller starts m->count at 0. */
CC_HD void cc_plane_vertex_add(const cc_geom* plane, cc_vec3 v, float threshold, cc_manifold* m)
{
    float hx, hy;
    cc_plane_extent(plane, &hx, &hy);
    cc_frame f = cc_frame_of(plane->xf);
    cc_vec3 l = cc_frame_point_in(&f, v);
    m->normal = f.z;
    if (cc_plane_in_footprint(l, hx, hy)) cc_manifold_add(m, cc_v3_madd(v, f.z, -0.5f * l.z), l.z, threshold);
}

/* One vertex per call: a manifold of zero or one point. */
CC_HD void cc_collide_plane_vertex(const cc_geom* plane, cc_vec3 v, float threshold, cc_manifold* m)
{
    m->count = 0;
    cc_plane_vertex_add(plane, v, threshold, m);
}

#endif
