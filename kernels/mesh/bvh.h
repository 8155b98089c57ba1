/* Bounding volume hierarchy over one triangle mesh, as kernels see it: flat
 * arrays built on the host (host/geometry/bvh_build.c) and walked here with a
 * small fixed stack, no recursion.
 *
 * Layout. Node 0 is the root. An internal node has count == 0 and its two
 * children at `first` and `first + 1` (siblings adjacent, so one index
 * reaches both). A leaf has count in 1..CC_BVH_LEAF_MAX and owns the slots
 * first .. first + count - 1 of `prims`; prims[slot] is a triangle index
 * relative to the mesh's first triangle (0 .. triangle_count - 1). Every
 * node box is the exact union of its triangles' bounds, in the mesh frame.
 * All these indices are relative to the mesh's own node and prims arrays:
 * with pooled BVHs, pass nodes + the mesh's first node and prims + its
 * first slot.
 *
 * Index convention for the triangle arrays passed in: triangle t of the mesh
 * is triangles[t], and its corners are vertices[triangles[t].v[k]]. With the
 * model's pools that means `triangles` = mesh_triangles + triangle_first and
 * `vertices` = the whole mesh_vertices pool (pool triangles hold absolute
 * vertex indices); a standalone mesh passes its own two arrays. */
#ifndef CC_KERNELS_MESH_BVH_H
#define CC_KERNELS_MESH_BVH_H

#include "kernels/math/closest_points.h"
#include "kernels/shapes/mesh.h"

#define CC_BVH_LEAF_MAX 4
/* The builder keeps every leaf at depth <= this (root at depth 0). The
 * traversals below only stack pending siblings, at most one per level, so
 * this is also the stack size they need. */
#define CC_BVH_MAX_DEPTH 48

typedef struct cc_bvh_node {
    cc_vec3 lower;
    int first; /* internal: left child (right is first + 1); leaf: first prims slot */
    cc_vec3 upper;
    int count; /* 0 for internal nodes, 1..CC_BVH_LEAF_MAX for leaves */
} cc_bvh_node;

/* Closed boxes overlap (touching counts). An empty box (lower > upper on an
 * axis) or NaN overlaps nothing. */
CC_HD int cc_bvh_boxes_overlap(cc_vec3 lo_a, cc_vec3 hi_a, cc_vec3 lo_b, cc_vec3 hi_b)
{
    return (lo_a.x <= hi_b.x) & (lo_b.x <= hi_a.x) & (lo_a.y <= hi_b.y) & (lo_b.y <= hi_a.y) &
           (lo_a.z <= hi_b.z) & (lo_b.z <= hi_a.z);
}

/* Squared distance from p to the solid box (0 inside). Each term is one
 * subtraction, so it is accurate to a few ulps of the result itself. */
CC_HD float cc_bvh_box_distance_sq(cc_vec3 p, cc_vec3 lo, cc_vec3 hi)
{
    float dx = cc_maxf(cc_maxf(lo.x - p.x, p.x - hi.x), 0.0f);
    float dy = cc_maxf(cc_maxf(lo.y - p.y, p.y - hi.y), 0.0f);
    float dz = cc_maxf(cc_maxf(lo.z - p.z, p.z - hi.z), 0.0f);
    return dx * dx + dy * dy + dz * dz;
}

/* ---- Box overlap iterator -------------------------------------------- */

/* q->node before the root has been tested (begin has no nodes to test). */
#define CC_BVH_QUERY_START (-2)

typedef struct cc_bvh_query {
    cc_vec3 lower, upper; /* the query box, mesh frame */
    /* Optional ball (cc_bvh_query_set_ball): nodes must also come within
     * `radius` of `centre`, both in the frame scaled per axis by `scale`. */
    int has_ball;
    cc_vec3 centre, scale;
    float radius2;
    int node;             /* overlapping node to expand next, -1 none */
    int slot, slot_end;   /* prims slots of the current leaf still to return */
    int top;              /* entries in stack */
    int stack[CC_BVH_MAX_DEPTH]; /* right siblings known to overlap */
} cc_bvh_query;

CC_HD void cc_bvh_query_begin(cc_bvh_query* q, cc_vec3 lower, cc_vec3 upper)
{
    q->lower = lower;
    q->upper = upper;
    q->has_ball = 0;
    q->node = CC_BVH_QUERY_START;
    q->slot = 0;
    q->slot_end = 0;
    q->top = 0;
}

/* Also requires nodes to come within `radius` of `centre`, measured after
 * scaling node boxes per axis by `scale` (all > 0): a ball prunes the
 * corners of the query box, where most of a resting shape's box lies. */
CC_HD void cc_bvh_query_set_ball(cc_bvh_query* q, cc_vec3 centre, cc_vec3 scale, float radius)
{
    q->has_ball = 1;
    q->centre = centre;
    q->scale = scale;
    q->radius2 = radius * radius;
}

/* Whether node box [lo, hi] passes the query: overlaps the box and, with a
 * ball, comes within its radius. */
CC_HD int cc_bvh_query_hits(const cc_bvh_query* q, cc_vec3 lo, cc_vec3 hi)
{
    if (!cc_bvh_boxes_overlap(lo, hi, q->lower, q->upper)) return 0;
    if (!q->has_ball) return 1;
    cc_vec3 slo = cc_v3_mul(lo, q->scale), shi = cc_v3_mul(hi, q->scale);
    cc_vec3 out = cc_v3_max(cc_v3_max(cc_v3_sub(slo, q->centre), cc_v3_sub(q->centre, shi)), cc_v3(0.0f, 0.0f, 0.0f));
    return cc_v3_length_sq(out) <= q->radius2;
}

/* Next triangle (relative to the mesh) whose leaf box overlaps the query
 * box, or -1 when there are no more (and on every later call); each such
 * triangle comes once. Only node boxes are tested: the caller tests the
 * triangle itself. Both children are tested before either is stacked, so
 * the stack holds only overlapping right siblings, one per level at most. */
CC_HD int cc_bvh_query_next(cc_bvh_query* q, const cc_bvh_node* nodes, const int* prims)
{
    for (;;) {
        if (q->slot < q->slot_end) return prims[q->slot++];
        if (q->node == CC_BVH_QUERY_START)
            q->node = cc_bvh_query_hits(q, nodes[0].lower, nodes[0].upper) ? 0 : -1;
        if (q->node < 0) {
            if (q->top == 0) return -1;
            q->node = q->stack[--q->top];
        }
        cc_bvh_node n = nodes[q->node];
        if (n.count > 0) {
            q->slot = n.first;
            q->slot_end = n.first + n.count;
            q->node = -1;
            continue;
        }
        int l = n.first;
        int in_l = cc_bvh_query_hits(q, nodes[l].lower, nodes[l].upper);
        int in_r = cc_bvh_query_hits(q, nodes[l + 1].lower, nodes[l + 1].upper);
        /* The bound check never fails on a builder's tree; it only keeps a
         * malformed one from writing past the stack. */
        if (in_l && in_r && q->top < CC_BVH_MAX_DEPTH) q->stack[q->top++] = l + 1;
        q->node = in_l ? l : (in_r ? l + 1 : -1);
    }
}

/* ---- Closest triangle ------------------------------------------------- */

/* Point of triangle abc closest to p. When p projects inside the triangle
 * the answer is that projection; otherwise it lies on an edge, and the
 * nearest of the three edge answers is exact. The inside test uses p itself
 * (moving p along the normal leaves the signs unchanged), and the distance
 * comes from the projection, not from barycentric weights, whose
 * cancellation grows like 1/sin^2 of the smallest angle on thin triangles.
 * A degenerate triangle (a segment or a point) has a zero normal and goes
 * straight to the edges, so nothing divides by zero. On a needle the float
 * normal is tilted by about eps / sin(angle): the distance stays accurate
 * (the tilt changes it to second order) but the point may stray sideways
 * by about that tilt times the distance. */
CC_HD cc_vec3 cc_closest_point_on_triangle(cc_vec3 p, cc_vec3 a, cc_vec3 b, cc_vec3 c)
{
    cc_vec3 ab = cc_v3_sub(b, a), bc = cc_v3_sub(c, b), ca = cc_v3_sub(a, c);
    cc_vec3 n = cc_v3_cross(ab, cc_v3_sub(c, a));
    float nn = cc_v3_dot(n, n);
    if (nn > 0.0f) {
        float ea = cc_v3_dot(cc_v3_cross(ab, cc_v3_sub(p, a)), n);
        float eb = cc_v3_dot(cc_v3_cross(bc, cc_v3_sub(p, b)), n);
        float ec = cc_v3_dot(cc_v3_cross(ca, cc_v3_sub(p, c)), n);
        if (ea >= 0.0f && eb >= 0.0f && ec >= 0.0f)
            return cc_v3_madd(p, n, -cc_v3_dot(cc_v3_sub(p, a), n) / nn);
    }
    cc_vec3 best = cc_v3_madd(a, ab, cc_segment_closest_param(p, a, ab));
    float best_d2 = cc_v3_length_sq(cc_v3_sub(p, best));
    cc_vec3 x = cc_v3_madd(b, bc, cc_segment_closest_param(p, b, bc));
    float d2 = cc_v3_length_sq(cc_v3_sub(p, x));
    if (d2 < best_d2) {
        best = x;
        best_d2 = d2;
    }
    x = cc_v3_madd(c, ca, cc_segment_closest_param(p, c, ca));
    d2 = cc_v3_length_sq(cc_v3_sub(p, x));
    if (d2 < best_d2) best = x;
    return best;
}

/* Boxes are pruned only when farther than the best distance plus this
 * fraction of the coordinate scale (largest |coordinate| of the point and
 * the root box). A closest point computed in float can be off by a few ulps
 * of that scale, so its distance can come out slightly below its leaf box's
 * distance; the slack keeps such leaves in, and the answer is then exactly
 * the minimum of cc_closest_point_on_triangle over all triangles. */
#define CC_BVH_DISTANCE_SLACK 1.0e-5f

/* Nearest triangle to `point` (mesh frame) by branch and bound: the nearer
 * child first, the farther one stacked and dropped when popped if the best
 * distance has shrunk below its box. Considers triangles whose squared
 * distance is <= max_distance^2; among equally near triangles it returns the
 * lowest index, so the answer does not depend on the tree's shape. Returns
 * the triangle index (relative to the mesh, see the index convention at the
 * top) and sets *closest (the point on it) and *distance, or returns -1 and
 * leaves them alone when none is that near. Either pointer may be NULL. */
CC_HD int cc_bvh_closest_triangle(const cc_bvh_node* nodes, const int* prims,
                                  const cc_vec3* vertices, const cc_mesh_triangle* triangles,
                                  cc_vec3 point, float max_distance, cc_vec3* closest,
                                  float* distance)
{
    if (!(max_distance >= 0.0f)) return -1;
    cc_bvh_node n = nodes[0];
    cc_vec3 s = cc_v3_max(cc_v3_max(cc_v3_abs(point), cc_v3_abs(n.lower)), cc_v3_abs(n.upper));
    float slack = CC_BVH_DISTANCE_SLACK * cc_maxf(cc_maxf(s.x, s.y), s.z);
    float best_d2 = max_distance * max_distance;
    float reach = max_distance + slack;
    float reach2 = reach * reach;
    int best = -1;
    cc_vec3 best_point = point;
    int stack[CC_BVH_MAX_DEPTH];
    int top = 0;
    float n_d2 = cc_bvh_box_distance_sq(point, n.lower, n.upper);
    for (;;) {
        if (n_d2 <= reach2) {
            if (n.count > 0) {
                for (int slot = n.first; slot < n.first + n.count; ++slot) {
                    int t = prims[slot];
                    cc_mesh_triangle tri = triangles[t];
                    cc_vec3 x = cc_closest_point_on_triangle(point, vertices[tri.v[0]],
                                                             vertices[tri.v[1]], vertices[tri.v[2]]);
                    float d2 = cc_v3_length_sq(cc_v3_sub(point, x));
                    if (d2 < best_d2 || (d2 == best_d2 && (best < 0 || t < best))) {
                        best = t;
                        best_d2 = d2;
                        best_point = x;
                        reach = sqrtf(d2) + slack;
                        reach2 = reach * reach;
                    }
                }
            } else {
                int near_i = n.first, far_i = n.first + 1;
                cc_bvh_node near_n = nodes[near_i], far_n = nodes[far_i];
                float near_d2 = cc_bvh_box_distance_sq(point, near_n.lower, near_n.upper);
                float far_d2 = cc_bvh_box_distance_sq(point, far_n.lower, far_n.upper);
                if (far_d2 < near_d2) {
                    cc_bvh_node tn = near_n;
                    float td = near_d2;
                    near_n = far_n;
                    near_d2 = far_d2;
                    far_n = tn;
                    far_d2 = td;
                    far_i = near_i;
                }
                /* The bound check only guards against a malformed tree. */
                if (far_d2 <= reach2 && top < CC_BVH_MAX_DEPTH) stack[top++] = far_i;
                n = near_n;
                n_d2 = near_d2;
                continue;
            }
        }
        if (top == 0) break;
        n = nodes[stack[--top]];
        n_d2 = cc_bvh_box_distance_sq(point, n.lower, n.upper);
    }
    if (best >= 0) {
        if (closest) *closest = best_point;
        if (distance) *distance = sqrtf(best_d2);
    }
    return best;
}

#endif
