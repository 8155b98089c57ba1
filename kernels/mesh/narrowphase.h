/* The mesh narrow phase: one thread per mid-phase work item (a triangle, or
 * a chunk of mesh vertices) computes its raw contacts. Without reduction
 * they are written at once. With reduction the first pass votes each raw
 * contact into its pair's reduction block (contacts/reduction.h); the second
 * runs one thread per slot of the blocks in use: a slot holds the
 * fingerprint of the contact it kept, which names its triangle or vertex
 * and its point, and only that element is recomputed and the contact with
 * that fingerprint written. The emit pass takes no decision of its own
 * (no threshold, no ownership test): the vote decided, and the fingerprint
 * names the contact, so a recomputation that rounds differently (another
 * kernel, other contraction of multiply-adds) never loses a kept contact.
 * A pair keeps a dozen or so of its raw contacts, so the second pass costs
 * a fraction of the first. Items of pairs that got no block (more pairs
 * than blocks) are written unreduced in the first pass: more rows, nothing
 * dropped.
 *
 * Item kinds come in three families with their own CUDA kernels (spheres
 * on triangles, other convex shapes on triangles through GJK/MPR, mesh
 * vertices against a plane or a surface), so that the light routines do
 * not carry the convex stack's registers. */
#ifndef CC_KERNELS_MESH_NARROWPHASE_H
#define CC_KERNELS_MESH_NARROWPHASE_H

#include "kernels/mesh/context.h"
#include "kernels/mesh/triangle.h"
#include "kernels/mesh/sdf_contacts.h"

/* Families of item kinds, one CUDA kernel each (CC_MESH_FAMILY_ALL: every
 * kind, as the CPU backend runs them). */
#define CC_MESH_FAMILY_ALL (-1)
#define CC_MESH_FAMILY_SPHERE 0   /* CC_MESH_ITEM_SPHERE_TRIANGLE */
#define CC_MESH_FAMILY_CONVEX 1   /* CC_MESH_ITEM_CONVEX_TRIANGLE */
#define CC_MESH_FAMILY_VERTICES 2 /* plane vertices and mesh vertices against a surface */
#define CC_MESH_FAMILY_SDF 3      /* mesh features and heightfield grids against an SDF */

CC_HD int cc_mesh_kind_family(int kind)
{
    if (kind == CC_MESH_ITEM_SPHERE_TRIANGLE) return CC_MESH_FAMILY_SPHERE;
    if (kind == CC_MESH_ITEM_CONVEX_TRIANGLE) return CC_MESH_FAMILY_CONVEX;
    if (kind == CC_MESH_ITEM_SDF_OF_A || kind == CC_MESH_ITEM_SDF_OF_B || kind == CC_MESH_ITEM_HFIELD_SDF)
        return CC_MESH_FAMILY_SDF;
    return CC_MESH_FAMILY_VERTICES;
}

/* How deep a vertex may sink into a watertight surface and still find its
 * way out, relative to the surface's size: the vertex query searches that
 * far beyond the pair's threshold. */
#define CC_MESH_PENETRATION_REACH 0.05f

/* Rounding of world coordinates that a touching contact's distance may
 * carry (about 8 float ulps of their magnitude). */
#define CC_MESH_TOUCH_ROUNDING 1.0e-6f

/* World corners of triangle `id` of surface shape s. Each world vertex is
 * computed from its own data alone, so triangles sharing a vertex get the
 * same bits (the duplicate rule of mesh/triangle.h relies on it). */
CC_HD void cc_surface_triangle(const cc_model_view* m, int s, cc_transform pose, int id, cc_vec3* t0, cc_vec3* t1,
                               cc_vec3* t2)
{
    cc_vec3 l0, l1, l2;
    if (m->shape_geom[s].type == CC_SHAPE_MESH) {
        const cc_mesh_desc* d = &m->meshes[m->shape_source[s]];
        cc_mesh_triangle t = m->mesh_triangles[d->triangle_first + id];
        cc_vec3 k = m->shape_geom[s].size;
        l0 = cc_v3_mul(m->mesh_vertices[t.v[0]], k);
        l1 = cc_v3_mul(m->mesh_vertices[t.v[1]], k);
        l2 = cc_v3_mul(m->mesh_vertices[t.v[2]], k);
    } else {
        cc_hfield_ref h = cc_hfield_ref_of(m, s);
        cc_hfield_triangle(&h, id, &l0, &l1, &l2);
    }
    *t0 = cc_tf_point(pose, l0);
    *t1 = cc_tf_point(pose, l1);
    *t2 = cc_tf_point(pose, l2);
}

/* Whether `far` lies on or above the plane of (a, b, c): the neighbour
 * across an edge continues flat or folds up (concave). */
CC_HD int cc_folds_up(cc_vec3 a, cc_vec3 b, cc_vec3 c, cc_vec3 far)
{
    cc_vec3 n = cc_v3_cross(cc_v3_sub(b, a), cc_v3_sub(c, a));
    float len = cc_v3_length(n);
    if (!(len > 0.0f)) return 0;
    float size = cc_v3_length(cc_v3_sub(b, a)) + cc_v3_length(cc_v3_sub(c, a));
    return cc_v3_dot(n, cc_v3_sub(far, a)) >= -1.0e-6f * size * len;
}

/* Whether `far` lies in the plane of (a, b, c), within rounding of the
 * triangle's size. */
CC_HD int cc_lies_in_plane(cc_vec3 a, cc_vec3 b, cc_vec3 c, cc_vec3 far)
{
    cc_vec3 n = cc_v3_cross(cc_v3_sub(b, a), cc_v3_sub(c, a));
    float len = cc_v3_length(n);
    if (!(len > 0.0f)) return 0;
    float size = cc_v3_length(cc_v3_sub(b, a)) + cc_v3_length(cc_v3_sub(c, a));
    return fabsf(cc_v3_dot(n, cc_v3_sub(far, a))) <= 1.0e-6f * size * len;
}

/* Heightfield triangles in one plane: their unnormalised normals are
 * parallel. Symmetric in the two, so that every triangle of a fan draws
 * the same fans. */
CC_HD int cc_hfield_coplanar(const cc_hfield_ref* h, int id0, int id1)
{
    int lo = id0 < id1 ? id0 : id1, hi = id0 < id1 ? id1 : id0;
    cc_vec3 a0, a1, a2, b0, b1, b2;
    cc_hfield_triangle(h, lo, &a0, &a1, &a2);
    cc_hfield_triangle(h, hi, &b0, &b1, &b2);
    cc_vec3 na = cc_v3_cross(cc_v3_sub(a1, a0), cc_v3_sub(a2, a0));
    cc_vec3 nb = cc_v3_cross(cc_v3_sub(b1, b0), cc_v3_sub(b2, b0));
    float s = cc_v3_length(cc_v3_cross(na, nb)), scale = cc_v3_length(na) * cc_v3_length(nb);
    return cc_v3_dot(na, nb) > 0.0f && s <= 1.0e-6f * scale;
}

/* The triangle of the wedge `w` (0..5, counter-clockwise from +column)
 * around grid vertex (r, c), or -1 past the grid. Wedges w and w + 1 share
 * an edge. */
CC_HD int cc_hfield_wedge(const cc_hfield_ref* h, int r, int c, int w)
{
    /* Cell offsets (rows, columns) and triangle of each wedge. */
    const int dr[6] = {0, 0, 0, -1, -1, -1}, dc[6] = {0, 0, -1, -1, -1, 0}, k[6] = {0, 1, 0, 1, 0, 1};
    int cr = r + dr[w % 6], cc = c + dc[w % 6];
    if (cr < 0 || cc < 0 || cr > h->rows - 2 || cc > h->cols - 2) return -1;
    return 2 * (cr * (h->cols - 1) + cc) + k[w % 6];
}

/* Grid row and column of corner k of heightfield triangle `id`: a cell's
 * half 0 is (r,c) (r,c+1) (r+1,c+1), its half 1 (r,c) (r+1,c+1) (r+1,c). */
CC_HD void cc_hfield_corner(const cc_hfield_ref* h, int id, int k, int* row, int* col)
{
    int cell = id >> 1, half = id & 1, r = cell / (h->cols - 1), c = cell % (h->cols - 1);
    *row = k == 0 ? r : (k == 1 ? (half == 0 ? r : r + 1) : r + 1);
    *col = k == 0 ? c : (k == 1 ? c + 1 : (half == 0 ? c + 1 : c));
}

/* CC_TRI_FACE_VERTEX_OWNER bits of heightfield triangle `id` (with
 * CC_TRI_FACE_OWNERS): per corner, whether it is the lowest triangle of
 * the run of coplanar wedges around that grid vertex that holds it. */
CC_HD unsigned cc_hfield_face_owners(const cc_hfield_ref* h, int id)
{
    unsigned flags = CC_TRI_FACE_OWNERS;
    for (int v = 0; v < 3; ++v) {
        int vr, vc, self = -1;
        cc_hfield_corner(h, id, v, &vr, &vc);
        for (int w = 0; w < 6; ++w)
            if (cc_hfield_wedge(h, vr, vc, w) == id) self = w;
        int lowest = id;
        /* Both ways round from this wedge while the next one is coplanar. */
        CC_NO_UNROLL
        for (int dir = 1; dir <= 5 && self >= 0; dir += 4) {
            int prev = id;
            CC_NO_UNROLL
            for (int step = 1; step < 6; ++step) {
                int t = cc_hfield_wedge(h, vr, vc, self + dir * step);
                if (t < 0 || t == id || !cc_hfield_coplanar(h, prev, t)) break;
                lowest = t < lowest ? t : lowest;
                prev = t;
            }
        }
        if (lowest == id) flags |= CC_TRI_FACE_VERTEX_OWNER(v);
    }
    return flags;
}

/* Neighbourhood flags of heightfield triangle `id`, from the grid: the
 * neighbour across each edge is known, and the grid's border is open. */
CC_HD unsigned cc_hfield_triangle_flags(const cc_hfield_ref* h, int id)
{
    int cell = id >> 1, k = id & 1;
    int r = cell / (h->cols - 1), c = cell % (h->cols - 1);
    cc_vec3 t0, t1, t2;
    cc_hfield_triangle(h, id, &t0, &t1, &t2);
    /* Per edge: the neighbour's far vertex (row, column), or -1: open. */
    int fr[3], fc[3];
    if (k == 0) { /* (r,c) (r,c+1) (r+1,c+1) */
        fr[0] = r > 0 ? r - 1 : -1, fc[0] = c;
        fr[1] = c + 2 < h->cols ? r + 1 : -1, fc[1] = c + 2;
        fr[2] = r + 1, fc[2] = c;
    } else { /* (r,c) (r+1,c+1) (r+1,c) */
        fr[0] = r, fc[0] = c + 1;
        fr[1] = r + 2 < h->rows ? r + 2 : -1, fc[1] = c + 1;
        fr[2] = c > 0 ? r : -1, fc[2] = c - 1;
    }
    unsigned flags = 0u;
    for (int e = 0; e < 3; ++e) {
        if (fr[e] < 0) {
            flags |= CC_TRI_EDGE_OPEN(e);
            continue;
        }
        cc_vec3 far = cc_hfield_point(h, fr[e], fc[e]);
        if (cc_folds_up(t0, t1, t2, far)) flags |= CC_TRI_EDGE_FLAT(e);
        if (cc_lies_in_plane(t0, t1, t2, far)) flags |= CC_TRI_EDGE_COPLANAR(e);
    }
    /* Vertices on the grid's border. */
    for (int v = 0; v < 3; ++v) {
        int vr, vc;
        cc_hfield_corner(h, id, v, &vr, &vc);
        if (vr == 0 || vr == h->rows - 1 || vc == 0 || vc == h->cols - 1) flags |= CC_TRI_VERTEX_OPEN(v);
    }
    return flags;
}

/* Open and flat edges of triangle `id` of surface shape s. */
CC_HD unsigned cc_surface_triangle_flags(const cc_model_view* m, int s, int id)
{
    if (m->shape_geom[s].type == CC_SHAPE_MESH)
        return m->mesh_triangle_flags[m->meshes[m->shape_source[s]].triangle_first + id];
    cc_hfield_ref h = cc_hfield_ref_of(m, s);
    return cc_hfield_triangle_flags(&h, id);
}

/* The triangle across edge k of triangle `id` of surface shape s, or -1
 * where the edge is open. A heightfield's come from the grid. */
CC_HD int cc_surface_adjacent(const cc_model_view* m, int s, int id, int k)
{
    if (m->shape_geom[s].type == CC_SHAPE_MESH)
        return m->mesh_triangle_adjacent[m->meshes[m->shape_source[s]].triangle_first + id].v[k];
    cc_hfield_ref h = cc_hfield_ref_of(m, s);
    int cell = id >> 1, half = id & 1, cols = h.cols - 1;
    int r = cell / cols, c = cell % cols;
    /* (row, column) offset of the neighbour's cell and its half, per edge. */
    int dr = 0, dc = 0, other = 1 - half;
    if (half == 0) {
        if (k == 0) dr = -1;
        else if (k == 1) dc = 1;
    } else {
        if (k == 1) dr = 1;
        else if (k == 2) dc = -1;
    }
    int nr = r + dr, nc = c + dc;
    if (nr < 0 || nc < 0 || nr > h.rows - 2 || nc > h.cols - 2) return -1;
    return 2 * (nr * cols + nc) + other;
}

/* Whether triangle `id` clearly faces A's reference point `ref` (its plane
 * culls nothing there, beyond a band of rounding): such a triangle reports
 * its own contacts near the shared features. Ties count as not facing, so
 * that a triangle in doubt never takes a contact away from another. */
CC_HD int cc_surface_faces(const cc_model_view* m, int s, cc_transform pose, int id, cc_vec3 ref)
{
    cc_vec3 t0, t1, t2, n;
    cc_surface_triangle(m, s, pose, id, &t0, &t1, &t2);
    cc_vec3 rel[3] = {cc_v3_sub(t0, ref), cc_v3_sub(t1, ref), cc_v3_sub(t2, ref)};
    if (!cc_triangle_normal(rel[0], rel[1], rel[2], &n)) return 0;
    float band = CC_TRI_BAND_REL * cc_v3_length(rel[0]) + CC_TRI_BAND_COORD * cc_tri_abs_max(t0);
    return -cc_v3_dot(rel[0], n) > band;
}

/* Whether triangle `id` keeps a contact at its vertex k, for A's
 * reference point ref. The fan of triangles around the vertex is walked
 * both ways round from this one, to where it closes or an open edge ends
 * it. When ref is A's core (a sphere's centre), a fan triangle that faces
 * ref and is clearly nearer to it than the vertex has a contact of its
 * own, nearer than the vertex: the vertex contact is dropped; otherwise
 * the lowest-numbered triangle that faces ref keeps it (this one counts as
 * facing: it reports). Ties of facing count as not facing, so that a
 * triangle in doubt never takes a contact from another. (An owner chosen
 * by position alone can be a culled triangle, which reports nothing: a
 * contact where a fan turns away from A was lost.) Other shapes' queries
 * can drop a facing triangle's contact (A reaching below its plane beside
 * it), so for them the lower-numbered facing triangles go to `lower` (at
 * most CC_SURFACE_FAN_MAX) and the answer is CC_SURFACE_ASK_NEIGHBOUR when
 * there are any: this one keeps the vertex when none of them reports A.
 * Spheres pass lower = NULL. */
#define CC_SURFACE_FAN_MAX 32
#define CC_SURFACE_DROP 0
#define CC_SURFACE_KEEP 1
/* The feature is kept only when none of the triangles asked (the
 * lower-numbered neighbour across its edge, the fan's lower-numbered
 * facing triangles) reports A (see cc_mesh_triangle_contacts). */
#define CC_SURFACE_ASK_NEIGHBOUR 2
/* A contact tilted over a flat or concave edge: the neighbour across it
 * (asks[0]) is closer where A's foot lies over its face, and then keeps a
 * face contact; otherwise the two share the contact's feature like any
 * edge (cc_mesh_flat_neighbour_keeps). */
#define CC_SURFACE_ASK_FLAT 3
CC_HD_CALL int cc_surface_fan_owner(const cc_model_view* m, int s, cc_transform pose, int id, int k, cc_vec3 ref,
                                    int ref_is_core, int* lower, int* lower_count)
{
    int listed = 0;
    int is_mesh = m->shape_geom[s].type == CC_SHAPE_MESH;
    const cc_mesh_triangle* tris = is_mesh ? m->mesh_triangles + m->meshes[m->shape_source[s]].triangle_first : 0;
    /* The vertex: a mesh's vertex index, a heightfield's world point. */
    int vid = is_mesh ? tris[id].v[k] : -1;
    cc_vec3 t[3];
    cc_surface_triangle(m, s, pose, id, &t[0], &t[1], &t[2]);
    cc_vec3 vp = t[k];
    int closed = 0;
    CC_NO_UNROLL
    for (int way = 0; way < 2 && !closed; ++way) {
        /* way 0 crosses the edge that starts at the vertex, way 1 the one
         * that ends there; either way the walk keeps turning one way. */
        int cur = id, corner = k;
        CC_NO_UNROLL
        for (int step = 0; step < CC_SURFACE_FAN_MAX; ++step) {
            int edge = way == 0 ? corner : (corner == 0 ? 2 : corner - 1);
            int next = cc_surface_adjacent(m, s, cur, edge);
            if (next == id) closed = 1;
            if (next < 0 || next == id) break;
            cc_vec3 q[3];
            cc_surface_triangle(m, s, pose, next, &q[0], &q[1], &q[2]);
            int at = -1;
            for (int j = 0; j < 3; ++j)
                if (is_mesh ? tris[next].v[j] == vid : (q[j].x == vp.x && q[j].y == vp.y && q[j].z == vp.z)) at = j;
            if (at < 0) break;
            cc_vec3 rel[3] = {cc_v3_sub(q[0], ref), cc_v3_sub(q[1], ref), cc_v3_sub(q[2], ref)}, n;
            if (cc_triangle_normal(rel[0], rel[1], rel[2], &n)) {
                float band = CC_TRI_BAND_REL * cc_v3_length(rel[0]) + CC_TRI_BAND_COORD * cc_tri_abs_max(q[0]);
                if (-cc_v3_dot(rel[0], n) > band) {
                    /* A lower-numbered facing triangle owns it. */
                    if (next < id && !lower) return CC_SURFACE_DROP;
                    if (next < id && listed < CC_SURFACE_FAN_MAX) lower[listed++] = next;
                    /* A sphere (ref is its core): a facing triangle
                     * clearly nearer to it than the vertex (beyond the
                     * band; a tie is no cover) reports that nearer contact,
                     * which covers this one. (Another shape's nearest
                     * points need not be its centre's.) */
                    if (ref_is_core) {
                        int region;
                        cc_vec3 c = cc_triangle_closest_origin(rel[0], rel[1], rel[2], n, 1, &region);
                        float to_vertex = cc_v3_length(rel[at]);
                        if (cc_v3_length(c) < to_vertex - band) return 0;
                    }
                }
            }
            cur = next;
            corner = at;
        }
    }
    if (lower_count) *lower_count = listed;
    return listed ? CC_SURFACE_ASK_NEIGHBOUR : CC_SURFACE_KEEP;
}

/* Whether a contact at a vertex, tilted out over it, has flat or concave
 * edges on both sides there: the triangles across them are nearer, and
 * the triangle leaves it to them without asking. */
CC_HD int cc_surface_flat_vertex_drops(int feature, unsigned flags)
{
    int kind = feature & CC_TRI_KIND_MASK;
    if (feature < 0 || kind < CC_TRI_VERTEX0 || !(feature & CC_TRI_OUTSIDE)) return 0;
    int k = kind - CC_TRI_VERTEX0, kp = k == 0 ? 2 : k - 1;
    return !(flags & (CC_TRI_EDGE_OPEN(k) | CC_TRI_EDGE_OPEN(kp))) && (flags & CC_TRI_EDGE_FLAT(k)) &&
           (flags & CC_TRI_EDGE_FLAT(kp));
}

/* cc_triangle_keep_feature with the neighbours read from the surface: an
 * edge whose neighbour does not clearly face A (culled: A's reference
 * point behind it) is this triangle's alone, and a vertex is kept by the
 * lowest-numbered triangle of its fan that faces A. (Without the
 * neighbours, an owner chosen by position alone can be a culled triangle,
 * which reports nothing: a contact at a box's edge, or at a vertex where
 * a fan of faces turns away from A, was lost.) Shapes other than spheres
 * can lose a contact the same way to a facing owner: its own query drops
 * what lies below its plane beside it (A lying over the other face of a
 * convex edge). For them a shared edge or vertex goes to the
 * lowest-numbered facing triangle around it that reports A at all: a
 * lower-numbered neighbour or fan triangle is asked first
 * (CC_SURFACE_ASK_NEIGHBOUR, the triangles in asks). The order is one
 * for every feature, so no two triangles leave a contact to each other.
 * Spheres (ref_is_core) pass asks = NULL. */
CC_HD_CALL int cc_surface_keep_feature(const cc_model_view* m, int s, cc_transform pose, int id, int feature,
                                       cc_vec3 t0, cc_vec3 t1, cc_vec3 t2, cc_vec3 ref, int ref_is_core, unsigned flags,
                                       int* asks, int* ask_count)
{
    if (ask_count) *ask_count = 0;
    if (feature < 0) return CC_SURFACE_DROP;
    int kind = feature & CC_TRI_KIND_MASK;
    if (kind == CC_TRI_FACE) return CC_SURFACE_KEEP;
    /* The neighbours are measured in the surface's frame (no rotation per
     * vertex), the same way by every triangle that asks. */
    cc_vec3 ref_local = cc_tf_point_inv(pose, ref);
    cc_transform local = cc_tf_identity();
    if (kind < CC_TRI_VERTEX0) {
        int k = kind - CC_TRI_EDGE0;
        int nb = cc_surface_adjacent(m, s, id, k);
        if (nb < 0 || !cc_surface_faces(m, s, local, nb, ref_local)) return CC_SURFACE_KEEP;
        /* A sphere's query never clips (its closest points are exact on
         * both triangles): the owner by the edge's direction always has
         * it. */
        if (ref_is_core) return cc_triangle_keep_feature(feature, t0, t1, t2, ref, flags) ? CC_SURFACE_KEEP : CC_SURFACE_DROP;
        /* Tilted over a flat or concave edge: the neighbour's face contact
         * is closer, when it has one. */
        if ((feature & CC_TRI_OUTSIDE) && (flags & CC_TRI_EDGE_FLAT(k))) {
            asks[0] = nb;
            *ask_count = 1;
            return CC_SURFACE_ASK_FLAT;
        }
        /* Otherwise the lower-numbered of the two keeps it, unless that is
         * the neighbour and it reports nothing. */
        if (nb > id) return CC_SURFACE_KEEP;
        asks[0] = nb;
        *ask_count = 1;
        return CC_SURFACE_ASK_NEIGHBOUR;
    }
    int k = kind - CC_TRI_VERTEX0;
    /* The flag rules first: a tilted contact over flat or concave edges on
     * both sides is the neighbours' (their own face contacts are closer). */
    if (cc_surface_flat_vertex_drops(feature, flags)) return CC_SURFACE_DROP;
    return cc_surface_fan_owner(m, s, local, id, k, ref_local, ref_is_core, ref_is_core ? 0 : asks,
                                ref_is_core ? 0 : ask_count);
}

/* Half the diagonal of a surface's bounds [m]: its size for the reach. */
CC_HD float cc_surface_extent(const cc_model_view* m, int s)
{
    cc_vec3 k = m->shape_geom[s].size;
    if (m->shape_geom[s].type == CC_SHAPE_MESH) {
        const cc_mesh_desc* d = &m->meshes[m->shape_source[s]];
        return 0.5f * cc_v3_length(cc_v3_mul(cc_v3_sub(d->upper, d->lower), k));
    }
    return cc_v3_length(cc_v3(k.x, k.y, 0.0f));
}

/* How far behind triangle `id` of surface s its solid can lie [m]: a
 * mesh's bounds seen from the triangle's plane (nothing of the mesh is
 * deeper), a heightfield's footprint (its ground goes on below). */
CC_HD float cc_surface_reach(const cc_model_view* m, int s, int id)
{
    if (m->shape_geom[s].type != CC_SHAPE_MESH) return 2.0f * cc_surface_extent(m, s) * (1.0f + 1.0e-5f);
    const cc_mesh_desc* d = &m->meshes[m->shape_source[s]];
    cc_mesh_triangle t = m->mesh_triangles[d->triangle_first + id];
    cc_vec3 k = m->shape_geom[s].size;
    cc_vec3 l0 = cc_v3_mul(m->mesh_vertices[t.v[0]], k), l1 = cc_v3_mul(m->mesh_vertices[t.v[1]], k),
            l2 = cc_v3_mul(m->mesh_vertices[t.v[2]], k);
    cc_vec3 n = cc_v3_normalize(cc_v3_cross(cc_v3_sub(l1, l0), cc_v3_sub(l2, l0)));
    cc_vec3 c = cc_v3_mul(cc_v3_scale(cc_v3_add(d->lower, d->upper), 0.5f), k);
    cc_vec3 h = cc_v3_abs(cc_v3_mul(cc_v3_scale(cc_v3_sub(d->upper, d->lower), 0.5f), k));
    /* The lowest bounds corner under the plane: c.n - sum_i h_i |n_i|. */
    float lowest = cc_v3_dot(c, n) - (h.x * fabsf(n.x) + h.y * fabsf(n.y) + h.z * fabsf(n.z));
    float depth = cc_v3_dot(l0, n) - lowest;
    /* A degenerate triangle has no plane: the whole extent. */
    if (!(depth >= 0.0f)) depth = 2.0f * cc_surface_extent(m, s);
    return depth * (1.0f + 1.0e-5f) + 1.0e-6f * cc_surface_extent(m, s);
}

/* Triangle `id` of surface b, world frame, and the detection threshold
 * of A against it. */
CC_HD float cc_mesh_triangle_of(const cc_mesh_context* x, const cc_geom* ga, int id, cc_vec3* t)
{
    int sb = x->b.shape;
    cc_surface_triangle(x->m, sb, x->shape_pose[sb], id, &t[0], &t[1], &t[2]);
    /* Touching within rounding of the coordinates counts: a shape resting
     * on the surface at a gap of 0 computes its distance from a pose and
     * vertices a few ulps off, which may land either side of 0. */
    float coord = cc_maxf(cc_tri_abs_max(ga->xf.p),
                          cc_maxf(cc_tri_abs_max(t[0]), cc_maxf(cc_tri_abs_max(t[1]), cc_tri_abs_max(t[2]))));
    return cc_core_threshold(x->a, x->b) + CC_MESH_TOUCH_ROUNDING * coord;
}

/* The contacts of triangle `id` with A (a sphere or another convex shape):
 * its vertices t, the threshold and the manifold; returns the feature
 * code. One routine for the item's own triangle and the neighbours it may
 * ask, so that the GPU compiles the query once. */
CC_HD_CALL int cc_mesh_triangle_query(const cc_mesh_context* x, int ta, const cc_geom* ga, int id, cc_vec3* t,
                                      float* threshold, cc_manifold* mf)
{
    *threshold = cc_mesh_triangle_of(x, ga, id, t);
    mf->count = 0;
    if (ta == CC_SHAPE_SPHERE) return cc_collide_sphere_triangle(ga, t[0], t[1], t[2], *threshold, mf);
    float reach = cc_surface_reach(x->m, x->b.shape, id);
    return cc_collide_convex_triangle_within(ga, ta, t[0], t[1], t[2], *threshold, reach, mf);
}

/* Whether triangle `id` reports a contact with A, when that can be told
 * without its query (1 yes, 0 no, -1 ask the query). A has a contact with
 * the asking triangle at core distance `own` on the feature the two
 * share. A farther from the triangle's plane than the threshold gets
 * nothing from it; A wholly in front of the plane, which the prism's
 * clipping cannot touch, gets the contact (the triangle holds the shared
 * feature, so its closest points are at most `own` away when A is apart
 * from the asking triangle too); A crossing the plane with its lowest
 * point over the face gets the face's contact. */
CC_HD_CALL int cc_mesh_reports_plainly(const cc_mesh_context* x, int ta, const cc_geom* ga, int id, float own)
{
    cc_vec3 origin = cc_triangle_reference(ga, ta);
    cc_vec3 q[3], rel[3], n;
    float threshold = cc_mesh_triangle_of(x, ga, id, q);
    for (int k = 0; k < 3; ++k) rel[k] = cc_v3_sub(q[k], origin);
    if (!cc_triangle_normal(rel[0], rel[1], rel[2], &n)) return 0;
    if (!(cc_v3_dot(rel[0], n) <= 0.0f)) return 0; /* culled: A's reference point behind it */
    cc_convex a = cc_convex_of(ga, ta, origin);
    cc_vec3 low = cc_support(&a, cc_v3_neg(n));
    float low_h = cc_v3_dot(cc_v3_sub(low, rel[0]), n);
    if (!(low_h <= threshold)) return 0;
    if (low_h >= 0.0f && own >= 0.0f && own <= threshold) return 1;
    if (low_h < 0.0f && cc_tri_over_face(rel, n, low, 0.0f)) return 1;
    return -1;
}

/* Settles CC_SURFACE_ASK_FLAT for triangle `id`. The neighbour `nb` across
 * the flat edge has A over it (its contact is not tilted beyond its own
 * boundary), is tilted over a flat edge or corner of its own, or reports
 * nothing: the closer contact lies farther on, towards A's foot; drop.
 * A beside both, past a sharp edge or corner of the neighbour (a shape
 * beside a box's vertical edge, seen from the two triangles of one side):
 * the lower-numbered of the two keeps it. (Dropping it outright lost it
 * when the neighbour in turn left its corner contact to this triangle.) */
CC_HD_CALL int cc_mesh_flat_neighbour_keeps(const cc_mesh_context* x, int ta, const cc_geom* ga, int id, int nb)
{
    cc_vec3 q[3];
    float threshold;
    cc_manifold other;
    int f = cc_mesh_triangle_query(x, ta, ga, nb, q, &threshold, &other);
    if (f == CC_TRI_NONE || !(f & CC_TRI_OUTSIDE)) return CC_SURFACE_DROP;
    /* The neighbour tilted over a flat edge of its own, or a corner
     * between two: it passes the contact on towards A's foot in turn. */
    unsigned flags = cc_surface_triangle_flags(x->m, x->b.shape, nb);
    int kind = f & CC_TRI_KIND_MASK;
    if (kind < CC_TRI_VERTEX0) {
        if (flags & CC_TRI_EDGE_FLAT(kind - CC_TRI_EDGE0)) return CC_SURFACE_DROP;
    } else {
        int k = kind - CC_TRI_VERTEX0, kp = k == 0 ? 2 : k - 1;
        if ((flags & CC_TRI_EDGE_FLAT(k)) && (flags & CC_TRI_EDGE_FLAT(kp))) return CC_SURFACE_DROP;
    }
    return nb > id ? CC_SURFACE_KEEP : CC_SURFACE_DROP;
}

/* Triangle `id`'s flags with its face owners: meshes carry theirs; a
 * heightfield's come from the grid around the triangle's corners, needed
 * only for points at a vertex (none there, none asks, and edges need only
 * the coplanar flags). */
CC_HD unsigned cc_mesh_face_flags(const cc_mesh_context* x, int id, const cc_vec3* t, cc_vec3 ref, unsigned flags,
                                  const cc_manifold* mf)
{
    int sb = x->b.shape;
    if (x->m->shape_geom[sb].type != CC_SHAPE_HEIGHTFIELD) return flags;
    cc_hfield_ref h = cc_hfield_ref_of(x->m, sb);
    return flags | (cc_triangle_points_near_vertices(mf, t[0], t[1], t[2], ref) ? cc_hfield_face_owners(&h, id)
                                                                                : CC_TRI_FACE_OWNERS);
}

/* The points of triangle `id`'s manifold mf (feature code `feature`, its
 * vertices t) that it keeps, as a bitmask: a contact on an edge or vertex shared
 * by several triangles is kept by one of them only, and so is each point
 * of a face contact on a seam. `verdict` is cc_surface_keep_feature's,
 * settled. */
CC_HD_CALL unsigned cc_mesh_keep_mask(const cc_mesh_context* x, int id, int verdict, int feature, const cc_vec3* t,
                                      cc_vec3 ref, unsigned flags, const cc_manifold* mf)
{
    if (verdict == CC_SURFACE_DROP) return 0u;
    if (feature != CC_TRI_FACE) return (1u << mf->count) - 1u;
    return cc_triangle_dedupe_mask(mf, t[0], t[1], t[2], ref, cc_mesh_face_flags(x, id, t, ref, flags, mf));
}

/* Whether any of triangles `asks` keeps a contact with A: its query
 * reports one, and a face contact keeps a point after its seams are
 * shared out (a one-point face contact on the edge it shares with the
 * asking triangle goes to that edge's owner, which may be the one
 * asking). cc_mesh_reports_plainly skips the triangles that clearly
 * report nothing. */
CC_HD_CALL int cc_mesh_others_keep(const cc_mesh_context* x, int ta, const cc_geom* ga, float own, const int* asks,
                                   int ask_count)
{
    cc_vec3 ref = cc_triangle_reference(ga, ta);
    CC_NO_UNROLL
    for (int i = 0; i < ask_count; ++i) {
        if (cc_mesh_reports_plainly(x, ta, ga, asks[i], own) == 0) continue;
        cc_vec3 q[3];
        float threshold;
        cc_manifold other;
        int f = cc_mesh_triangle_query(x, ta, ga, asks[i], q, &threshold, &other);
        if (f == CC_TRI_NONE) continue;
        unsigned flags = cc_surface_triangle_flags(x->m, x->b.shape, asks[i]);
        /* A vertex contact the asked triangle leaves to its flat
         * neighbours is not kept there: where the vertex sits on a sharp
         * edge of the surface (a box's, split into triangles), those
         * neighbours are the askers, tilted over the same vertex. */
        if (cc_surface_flat_vertex_drops(f, flags)) continue;
        if (f != CC_TRI_FACE) return 1;
        if (cc_mesh_keep_mask(x, asks[i], CC_SURFACE_KEEP, f, q, ref, flags, &other)) return 1;
    }
    return 0;
}

/* The kept points of a sphere's contact with triangle t. */
CC_HD unsigned cc_mesh_sphere_keep(const cc_mesh_context* x, const cc_geom* ga, int feature, const cc_vec3* t,
                                   const cc_manifold* mf)
{
    int sb = x->b.shape;
    cc_vec3 ref = cc_triangle_reference(ga, CC_SHAPE_SPHERE);
    unsigned flags = cc_surface_triangle_flags(x->m, sb, x->item->element);
    int verdict = cc_surface_keep_feature(x->m, sb, x->shape_pose[sb], x->item->element, feature, t[0], t[1], t[2], ref, 1,
                                          flags, 0, 0);
    return cc_mesh_keep_mask(x, x->item->element, verdict, feature, t, ref, flags, mf);
}

/* A key for vertex k of triangle `id` that every triangle around the
 * vertex shares: a mesh's vertex index, a heightfield's grid index. */
CC_HD int cc_surface_vertex_key(const cc_model_view* m, int s, int id, int k)
{
    if (m->shape_geom[s].type == CC_SHAPE_MESH)
        return m->mesh_triangles[m->meshes[m->shape_source[s]].triangle_first + id].v[k];
    cc_hfield_ref h = cc_hfield_ref_of(m, s);
    int vr, vc;
    cc_hfield_corner(&h, id, k, &vr, &vc);
    return vr * h.cols + vc;
}

/* The n-th lower-numbered triangle (from 0) of the run of coplanar
 * triangles around corner k of triangle `id`, or -1 past the last: the
 * triangles that own face points at the vertex before this one does (the
 * run's lowest owns them). The run is walked across coplanar edges, one
 * way round and then the other, afresh for each n, so that no walk state
 * stays live across the queries the caller makes between them. */
CC_HD_CALL int cc_surface_fan_lower(const cc_model_view* m, int s, int id, int k, int n)
{
    int key = cc_surface_vertex_key(m, s, id, k);
    int is_mesh = m->shape_geom[s].type == CC_SHAPE_MESH;
    int first = 0;
    cc_hfield_ref h;
    if (is_mesh) first = m->meshes[m->shape_source[s]].triangle_first;
    else h = cc_hfield_ref_of(m, s);
    CC_NO_UNROLL
    for (int way = 0; way < 2; ++way) {
        int cur = id, corner = k;
        CC_NO_UNROLL
        for (int step = 0; step < CC_SURFACE_FAN_MAX; ++step) {
            /* Way 0 crosses the edge that starts at the vertex, way 1 the
             * one that ends there. */
            int edge = way == 0 ? corner : (corner == 0 ? 2 : corner - 1);
            int next = cc_surface_adjacent(m, s, cur, edge);
            if (next < 0) break;
            /* Coplanar as the face owners are drawn: a mesh's flags, a
             * heightfield's normals. */
            if (is_mesh ? !(m->mesh_triangle_flags[first + cur] & CC_TRI_EDGE_COPLANAR(edge))
                        : !cc_hfield_coplanar(&h, cur, next))
                break;
            /* A closed run is seen whole one way round. */
            if (next == id) return -1;
            int at = -1;
            for (int j = 0; j < 3; ++j)
                if (cc_surface_vertex_key(m, s, next, j) == key) at = j;
            if (at < 0) break;
            if (next < id && n-- == 0) return next;
            cur = next;
            corner = at;
        }
    }
    return -1;
}

/* The seam that point i of face contact mf lies on, as a bit: edge k
 * (bit k) when its neighbour is coplanar, vertex k (bit 3 + k) when an
 * edge there is; none when the point lies inside the face or on a sharp
 * edge. */
CC_HD_CALL unsigned cc_mesh_seam_of(const cc_vec3* t, cc_vec3 ref, unsigned flags, const cc_manifold* mf, int i)
{
    cc_vec3 rel[3] = {cc_v3_sub(t[0], ref), cc_v3_sub(t[1], ref), cc_v3_sub(t[2], ref)};
    float ref_coord = cc_tri_abs_max(ref), bound = cc_tri_band_bound(rel, t, ref_coord), band;
    int kind = cc_tri_near_feature(cc_v3_sub(cc_manifold_point_b(mf, i), ref), rel, t, ref_coord, bound, &band);
    if (kind < 0) return 0u;
    if (kind < CC_TRI_VERTEX0) return flags & CC_TRI_EDGE_COPLANAR(kind - CC_TRI_EDGE0) ? 1u << (kind - CC_TRI_EDGE0) : 0u;
    int k = kind - CC_TRI_VERTEX0, kp = k == 0 ? 2 : k - 1;
    return flags & (CC_TRI_EDGE_COPLANAR(k) | CC_TRI_EDGE_COPLANAR(kp)) ? 1u << (3 + k) : 0u;
}

/* Points of a face contact on a coplanar seam that the seam's owner
 * leaves unclaimed, as a bitmask of mf's points to keep after all. A point
 * where the contact meets an edge or vertex shared with coplanar
 * neighbours goes to the feature's owner (cc_triangle_dedupe_mask), which
 * keeps it only when it reports a face contact there too. With its lowest
 * point just past the owner's boundary, A's answer there is tilted over an
 * edge, or is the depth over the owner's own face, or nothing at all (A
 * crossing the plane beside it), and that in turn leaves the seam to this
 * triangle's face contact: each left the point to the other and it was
 * lost. So the triangles that come first are asked: across an edge, the
 * neighbour; at a vertex, the lower-numbered triangles of the coplanar run
 * around it (the run's lowest is the owner; the lowest that reports a face
 * contact keeps the point). A face contact of theirs claims the point,
 * anything else leaves it here. */
CC_HD_CALL unsigned cc_mesh_seam_unclaimed(const cc_mesh_context* x, int ta, const cc_geom* ga, int id, const cc_vec3* t,
                                           cc_vec3 ref, unsigned flags, const cc_manifold* mf, unsigned keep)
{
    if (!(flags & CC_TRI_FACE_OWNERS)) return 0u;
    /* The seams of the dropped points, asked one at a time, so that little
     * is live across the queries. */
    unsigned ask = 0u;
    CC_NO_UNROLL
    for (int i = 0; i < mf->count; ++i)
        if (!(keep >> i & 1u)) ask |= cc_mesh_seam_of(t, ref, flags, mf, i);
    unsigned claims = 0u;
    int sb = x->b.shape;
    CC_NO_UNROLL
    for (int seam = 0; seam < 6; ++seam) {
        if (!(ask >> seam & 1u)) continue;
        CC_NO_UNROLL
        for (int asked = 0;; ++asked) {
            int nb = seam >= 3 ? cc_surface_fan_lower(x->m, sb, id, seam - 3, asked)
                               : (asked == 0 ? cc_surface_adjacent(x->m, sb, id, seam) : -1);
            if (nb < 0) break;
            cc_vec3 q[3];
            float threshold;
            cc_manifold other;
            if (cc_mesh_triangle_query(x, ta, ga, nb, q, &threshold, &other) == CC_TRI_FACE) {
                claims |= 1u << seam;
                break;
            }
        }
    }
    unsigned extra = 0u;
    CC_NO_UNROLL
    for (int i = 0; i < mf->count; ++i) {
        if (keep >> i & 1u) continue;
        unsigned seam = cc_mesh_seam_of(t, ref, flags, mf, i);
        if (seam && !(seam & claims)) extra |= 1u << i;
    }
    return extra;
}

/* The kept points of another convex shape's contact with triangle t: a
 * shared feature owned by other triangles is kept when none of them
 * reports A. */
CC_HD unsigned cc_mesh_convex_keep(const cc_mesh_context* x, int ta, const cc_geom* ga, int feature, const cc_vec3* t,
                                   const cc_manifold* mf)
{
    int sb = x->b.shape;
    cc_vec3 ref = cc_triangle_reference(ga, ta);
    unsigned flags = cc_surface_triangle_flags(x->m, sb, x->item->element);
    int asks[CC_SURFACE_FAN_MAX], ask_count = 0;
    int verdict = cc_surface_keep_feature(x->m, sb, x->shape_pose[sb], x->item->element, feature, t[0], t[1], t[2], ref, 0,
                                          flags, asks, &ask_count);
    if (verdict == CC_SURFACE_ASK_NEIGHBOUR) {
        float own = 3.0e38f;
        CC_NO_UNROLL
        for (int k = 0; k < mf->count; ++k) own = cc_minf(own, mf->distance[k]);
        verdict = cc_mesh_others_keep(x, ta, ga, own, asks, ask_count) ? CC_SURFACE_DROP : CC_SURFACE_KEEP;
    } else if (verdict == CC_SURFACE_ASK_FLAT) {
        verdict = cc_mesh_flat_neighbour_keeps(x, ta, ga, x->item->element, asks[0]);
    }
    unsigned keep = cc_mesh_keep_mask(x, x->item->element, verdict, feature, t, ref, flags, mf);
    unsigned all = (1u << mf->count) - 1u;
    if (verdict == CC_SURFACE_DROP || feature != CC_TRI_FACE || keep == all) return keep;
    flags = cc_mesh_face_flags(x, x->item->element, t, ref, flags, mf);
    return keep | cc_mesh_seam_unclaimed(x, ta, ga, x->item->element, t, ref, flags, mf, keep);
}

/* A shape whose reference point lies under heightfield triangle `id`, in
 * the grid column the triangle covers, is inside the ground: the query
 * culls the triangle (the point is behind it), which would leave a shape
 * that sank below the surface with no contact at all. The triangle over
 * the point pushes A out instead, along its front normal: A's deepest core
 * point against the triangle's plane (a capsule's two ends). Exactly one
 * triangle of the grid holds the column, so the contact needs no
 * ownership. Returns CC_TRI_FACE | CC_TRI_OVER with mf filled, or
 * CC_TRI_NONE. */
CC_HD_CALL int cc_hfield_buried_contact(const cc_mesh_context* x, int ta, const cc_geom* ga, int id, const cc_vec3* t,
                                        float threshold, cc_manifold* mf)
{
    const cc_model_view* m = x->m;
    int sb = x->b.shape;
    mf->count = 0;
    if (m->shape_geom[sb].type != CC_SHAPE_HEIGHTFIELD) return CC_TRI_NONE;
    cc_hfield_ref h = cc_hfield_ref_of(m, sb);
    cc_vec3 ref = cc_triangle_reference(ga, ta);
    if (cc_hfield_column_triangle(&h, cc_tf_point_inv(x->shape_pose[sb], ref)) != id) return CC_TRI_NONE;
    cc_vec3 rel[3], n;
    for (int k = 0; k < 3; ++k) rel[k] = cc_v3_sub(t[k], ref);
    if (!cc_triangle_normal(rel[0], rel[1], rel[2], &n)) return CC_TRI_NONE;
    if (!(cc_v3_dot(rel[0], n) > 0.0f)) return CC_TRI_NONE; /* in front: the query's own case */
    mf->normal = cc_v3_neg(n);
    cc_vec3 low[2];
    int count = 1;
    if (ta == CC_SHAPE_CAPSULE) {
        cc_vec3 half = cc_v3_scale(cc_tf_vector(ga->xf, cc_v3(0.0f, 0.0f, 1.0f)), ga->size.y);
        low[0] = cc_v3_add(cc_v3_sub(ga->xf.p, ref), half);
        low[1] = cc_v3_sub(cc_v3_sub(ga->xf.p, ref), half);
        count = 2;
    } else {
        cc_convex a = cc_convex_of(ga, ta, ref);
        low[0] = cc_support(&a, mf->normal);
    }
    CC_NO_UNROLL
    for (int k = 0; k < count; ++k) {
        float depth = cc_v3_dot(cc_v3_sub(low[k], rel[0]), n); /* < 0: under the plane */
        cc_manifold_add(mf, cc_v3_add(ref, cc_v3_madd(low[k], n, -0.5f * depth)), depth, threshold);
    }
    return mf->count ? (CC_TRI_FACE | CC_TRI_OVER) : CC_TRI_NONE;
}

/* Shape a (a primitive or hull) against one triangle of surface b. The
 * fingerprint of point k of the triangle's manifold is triangle * 8 + k.
 * `sphere` (ta is CC_SHAPE_SPHERE) is a constant of each caller, so that
 * each route's kernel compiles its own ownership rules only; so is
 * `emit` (the emit pass, which writes the one point its fingerprint
 * names, already kept by the first pass, and needs no ownership rules). */
CC_HD void cc_mesh_triangle_contacts(const cc_mesh_context* x, int ta, int sphere, int emit)
{
    const cc_model_view* m = x->m;
    int sa = x->a.shape;
    cc_geom ga;
    ga.xf = x->shape_pose[sa];
    ga.size = m->shape_geom[sa].size;
    ga.hull = ta == CC_SHAPE_CONVEX_HULL ? cc_hull_ref_of(m, sa) : cc_hull_ref_none();
    cc_vec3 t[3];
    float threshold;
    cc_manifold mf;
    int feature = cc_mesh_triangle_query(x, ta, &ga, x->item->element, t, &threshold, &mf);
    int buried = feature == CC_TRI_NONE &&
                 cc_hfield_buried_contact(x, ta, &ga, x->item->element, t, threshold, &mf) != CC_TRI_NONE;
    unsigned keep = (1u << mf.count) - 1u;
    if (!emit && !buried)
        keep = sphere ? cc_mesh_sphere_keep(x, &ga, feature, t, &mf) : cc_mesh_convex_keep(x, ta, &ga, feature, t, &mf);
    CC_NO_UNROLL
    for (int k = 0; k < mf.count; ++k)
        if (keep >> k & 1u)
            cc_mesh_contact_within(x, mf.point[k], mf.normal, mf.distance[k], mf.offset[k],
                                   (unsigned)x->item->element * 8u + (unsigned)k, threshold);
}

/* The two triangle families, each one function for the first pass and
 * one for the emit pass, whose kernel then holds none of the ownership
 * rules (the convex route's emit kernel is at its register bound). */
CC_HD_CALL void cc_mesh_sphere_triangle_item(const cc_mesh_context* x)
{
    cc_mesh_triangle_contacts(x, CC_SHAPE_SPHERE, 1, x->pass == CC_MESH_PASS_EMIT);
}
CC_HD_CALL void cc_mesh_convex_triangle_item(const cc_mesh_context* x, int ta) { cc_mesh_triangle_contacts(x, ta, 0, 0); }
CC_HD_CALL void cc_mesh_convex_triangle_emit(const cc_mesh_context* x, int ta) { cc_mesh_triangle_contacts(x, ta, 0, 1); }

/* One past the last vertex of the item's chunk (of a mesh of n vertices). */
CC_HD int cc_mesh_chunk_end(const cc_mesh_context* x, int n)
{
    int end = x->item->element + (x->single ? 1 : CC_MESH_VERTEX_CHUNK);
    return end < n ? end : n;
}

/* World position of vertex v of mesh shape s. */
CC_HD cc_vec3 cc_mesh_world_vertex(const cc_model_view* m, int s, cc_transform pose, int v)
{
    const cc_mesh_desc* d = &m->meshes[m->shape_source[s]];
    return cc_tf_point(pose, cc_v3_mul(m->mesh_vertices[d->vertex_first + v], m->shape_geom[s].size));
}

/* Mesh vertices against plane a. */
CC_HD_CALL void cc_mesh_plane_vertices_item(const cc_mesh_context* x)
{
    const cc_model_view* m = x->m;
    int sa = x->a.shape, sb = x->b.shape;
    cc_geom plane;
    plane.xf = x->shape_pose[sa];
    plane.size = m->shape_geom[sa].size;
    float threshold = cc_core_threshold(x->a, x->b);
    int end = cc_mesh_chunk_end(x, cc_mesh_vertex_count(m, sb));
    CC_NO_UNROLL
    for (int v = x->item->element; v < end; ++v) {
        cc_manifold mf;
        cc_collide_plane_vertex(&plane, cc_mesh_world_vertex(m, sb, x->shape_pose[sb], v), threshold, &mf);
        if (mf.count) cc_mesh_contact(x, mf.point[0], mf.normal, mf.distance[0], mf.offset[0], (unsigned)v);
    }
}

/* Closest point of surface shape y to world point p, searched within
 * `radius`: 1 with the point q and the front normal n of its triangle
 * (world), 0 when no triangle lies that close. Ties go to the lower
 * triangle id, so the answer does not depend on the BVH's shape. */
CC_HD int cc_surface_closest(const cc_model_view* m, int y, cc_transform pose, cc_vec3 p, float radius, cc_vec3* q,
                             cc_vec3* n)
{
    cc_vec3 k = m->shape_geom[y].size;
    cc_vec3 pl = cc_tf_point_inv(pose, p);
    float best = radius * radius;
    int found = 0;
    cc_vec3 bq = pl, bn = cc_v3(0.0f, 0.0f, 1.0f);
    if (m->shape_geom[y].type == CC_SHAPE_MESH) {
        const cc_mesh_desc* d = &m->meshes[m->shape_source[y]];
        const cc_bvh_node* nodes = m->bvh_nodes + d->node_first;
        const int* prims = m->bvh_prims + d->triangle_first;
        const cc_mesh_triangle* tris = m->mesh_triangles + d->triangle_first;
        cc_vec3 r = cc_v3(radius / k.x, radius / k.y, radius / k.z);
        cc_vec3 pu = cc_v3(pl.x / k.x, pl.y / k.y, pl.z / k.z);
        cc_bvh_query it;
        cc_bvh_query_begin(&it, cc_v3_sub(pu, r), cc_v3_add(pu, r));
        int best_t = -1;
        CC_NO_UNROLL
        for (int t = cc_bvh_query_next(&it, nodes, prims); t >= 0; t = cc_bvh_query_next(&it, nodes, prims)) {
            cc_vec3 a = cc_v3_mul(m->mesh_vertices[tris[t].v[0]], k), b = cc_v3_mul(m->mesh_vertices[tris[t].v[1]], k),
                    c = cc_v3_mul(m->mesh_vertices[tris[t].v[2]], k);
            cc_vec3 cp = cc_closest_point_on_triangle(pl, a, b, c);
            float d2 = cc_v3_length_sq(cc_v3_sub(pl, cp));
            if (d2 < best || (d2 == best && found && t < best_t)) {
                cc_vec3 tn;
                if (!cc_triangle_normal(a, b, c, &tn)) continue;
                best = d2, best_t = t, bq = cp, bn = tn, found = 1;
            }
        }
    } else {
        cc_hfield_ref h = cc_hfield_ref_of(m, y);
        cc_vec3 r = cc_v3(radius, radius, radius);
        int r0, r1, c0, c1;
        if (cc_hfield_cell_range(&h, cc_v3_sub(pl, r), cc_v3_add(pl, r), &r0, &r1, &c0, &c1))
            for (int row = r0; row <= r1; ++row)
                for (int col = c0; col <= c1; ++col)
                    for (int j = 0; j < 2; ++j) {
                        cc_vec3 a, b, c, tn;
                        cc_hfield_triangle(&h, 2 * (row * (h.cols - 1) + col) + j, &a, &b, &c);
                        cc_vec3 cp = cc_closest_point_on_triangle(pl, a, b, c);
                        float d2 = cc_v3_length_sq(cc_v3_sub(pl, cp));
                        if (d2 < best && cc_triangle_normal(a, b, c, &tn)) best = d2, bq = cp, bn = tn, found = 1;
                    }
    }
    if (!found) return 0;
    *q = cc_tf_point(pose, bq);
    *n = cc_tf_vector(pose, bn);
    return 1;
}

/* Vertices of mesh x (shape a when of_a, else b) against surface y. A
 * vertex outside y makes a contact along the line to its closest point; a
 * vertex inside a closed surface (a watertight mesh, or under a
 * heightfield) one that pushes it out; behind an open surface, none. */
CC_HD_CALL void cc_mesh_vertices_item(const cc_mesh_context* x, int of_a)
{
    const cc_model_view* m = x->m;
    int sx = of_a ? x->a.shape : x->b.shape, sy = of_a ? x->b.shape : x->a.shape;
    int ty = m->shape_geom[sy].type;
    int closed = ty == CC_SHAPE_HEIGHTFIELD || m->meshes[m->shape_source[sy]].watertight;
    float threshold = cc_core_threshold(x->a, x->b);
    float radius = threshold + (closed ? CC_MESH_PENETRATION_REACH * cc_surface_extent(m, sy) : 0.0f);
    cc_transform px = x->shape_pose[sx], py = x->shape_pose[sy];
    int end = cc_mesh_chunk_end(x, cc_mesh_vertex_count(m, sx));
    CC_NO_UNROLL
    for (int v = x->item->element; v < end; ++v) {
        cc_vec3 p = cc_mesh_world_vertex(m, sx, px, v), q, fn;
        if (!cc_surface_closest(m, sy, py, p, radius, &q, &fn)) continue;
        cc_vec3 pq = cc_v3_sub(p, q);
        float len = cc_v3_length(pq);
        int inside = cc_v3_dot(pq, fn) < 0.0f;
        if (inside && !closed) continue;
        /* Out of y: from q toward p, or the face normal at the surface. */
        cc_vec3 out = len > 0.0f ? cc_v3_scale(pq, (inside ? -1.0f : 1.0f) / len) : fn;
        float s = inside ? -len : len;
        if (x->pass != CC_MESH_PASS_EMIT && !(s <= threshold)) continue;
        /* Manifold conventions: normal from a to b, midpoint, distance. */
        cc_vec3 normal = of_a ? cc_v3_neg(out) : out;
        cc_vec3 mid = cc_v3_scale(cc_v3_add(p, q), 0.5f);
        cc_mesh_contact(x, mid, normal, s, cc_v3_scale(normal, s), (unsigned)v * 2u + (unsigned)(of_a ? 0 : 1));
    }
}

/* Runs x's item (x->item, single and the emit fields set) of pair p when
 * its kind belongs to `family` (CC_MESH_FAMILY_ALL: any). */
CC_HD void cc_mesh_run_item(cc_mesh_context* x, cc_mesh_pair p, const cc_model_view* m, const cc_transform* shape_pose,
                            const cc_transform* body_pose, const cc_mesh_view* mv, cc_contact_sink sink, int pass,
                            int family)
{
    int kind = x->item->kind;
    if (family != CC_MESH_FAMILY_ALL && cc_mesh_kind_family(kind) != family) return;
    x->m = m;
    x->shape_pose = shape_pose;
    x->body_pose = body_pose;
    x->mv = mv;
    x->sink = sink;
    x->pass = pass;
    cc_contact_sides_of(m, sink.spec, p.a, p.b, &x->a, &x->b);
    x->ref = shape_pose[p.b].p;
    /* A constant family compiles the other families' routines away. */
    if (family == CC_MESH_FAMILY_SPHERE) cc_mesh_sphere_triangle_item(x);
    else if (family == CC_MESH_FAMILY_CONVEX) {
        if (pass == CC_MESH_PASS_EMIT) cc_mesh_convex_triangle_emit(x, p.ta);
        else cc_mesh_convex_triangle_item(x, p.ta);
    }
    else if (family == CC_MESH_FAMILY_VERTICES) {
        if (kind == CC_MESH_ITEM_PLANE_VERTICES) cc_mesh_plane_vertices_item(x);
        else cc_mesh_vertices_item(x, kind == CC_MESH_ITEM_VERTICES_OF_A);
    } else if (family == CC_MESH_FAMILY_SDF) {
        if (kind == CC_MESH_ITEM_HFIELD_SDF) cc_mesh_hfield_sdf_item(x);
        else cc_mesh_sdf_item(x, kind == CC_MESH_ITEM_SDF_OF_A);
    } else if (kind == CC_MESH_ITEM_SPHERE_TRIANGLE) cc_mesh_sphere_triangle_item(x);
    else if (kind == CC_MESH_ITEM_CONVEX_TRIANGLE) {
        if (pass == CC_MESH_PASS_EMIT) cc_mesh_convex_triangle_emit(x, p.ta);
        else cc_mesh_convex_triangle_item(x, p.ta);
    }
    else if (kind == CC_MESH_ITEM_PLANE_VERTICES) cc_mesh_plane_vertices_item(x);
    else if (kind == CC_MESH_ITEM_SDF_OF_A || kind == CC_MESH_ITEM_SDF_OF_B) cc_mesh_sdf_item(x, kind == CC_MESH_ITEM_SDF_OF_A);
    else if (kind == CC_MESH_ITEM_HFIELD_SDF) cc_mesh_hfield_sdf_item(x);
    else cc_mesh_vertices_item(x, kind == CC_MESH_ITEM_VERTICES_OF_A);
}

/* First pass: one thread per work item (votes, or writes unreduced). */
CC_HD void cc_mesh_narrowphase_thread(int j, const cc_model_view* m, const cc_pair* grouped,
                                      const cc_transform* shape_pose, const cc_transform* body_pose,
                                      const cc_mesh_view* mv, cc_contact_sink sink, int pass, int family)
{
    cc_mesh_item it = mv->grouped_items[j];
    /* The first pass never emits: a constant the emit routines compile
     * away on. */
    pass = pass == CC_MESH_PASS_VOTE ? CC_MESH_PASS_VOTE : CC_MESH_PASS_DIRECT;
    cc_mesh_context x;
    x.item = &it;
    x.single = 0;
    x.emit_print = 0u;
    x.emit_slot = 0u;
    cc_mesh_run_item(&x, cc_mesh_pair_of(m, grouped[it.pair]), m, shape_pose, body_pose, mv, sink, pass, family);
}

/* Second pass: one thread per slot t of the `blocks` blocks in use. A kept
 * contact may hold several slots of its bin; the first writes it, with that
 * slot as its sub-key. Its fingerprint names the element to recompute: a
 * triangle (id * 8 + point) against a primitive, a vertex against a plane,
 * a vertex (id * 2, + 1 for the second mesh) of a mesh against a
 * surface, or a feature of a mesh against an SDF (mesh/sdf_contacts.h). */
CC_HD void cc_mesh_emit_slot_thread(int t, int blocks, const cc_model_view* m, const cc_pair* grouped,
                                    const cc_transform* shape_pose, const cc_transform* body_pose,
                                    const cc_mesh_view* mv, cc_contact_sink sink, int family)
{
    int b = t / CC_REDUCE_SLOTS, j = t % CC_REDUCE_SLOTS;
    if (b >= blocks) return;
    const unsigned long long* slots = mv->slots + (size_t)b * CC_REDUCE_SLOTS;
    unsigned long long key = slots[j];
    if (key == 0ull) return;
    unsigned print = (unsigned)key;
    CC_NO_UNROLL
    for (int i = j - j % CC_REDUCE_SLOTS_PER_BIN; i < j; ++i)
        if (slots[i] != 0ull && (unsigned)slots[i] == print) return;
    cc_mesh_item it;
    it.pair = mv->block_pair[b];
    it.block = b;
    cc_mesh_pair p = cc_mesh_pair_of(m, grouped[it.pair]);
    if (p.ta == CC_SHAPE_PLANE) {
        it.kind = CC_MESH_ITEM_PLANE_VERTICES;
        it.element = (int)print;
    } else if (p.ta == CC_SHAPE_MESH) {
        int of_b = (int)(print & 1u);
        if (of_b && p.tb == CC_SHAPE_HEIGHTFIELD) {
            it.kind = CC_MESH_ITEM_HFIELD_SDF;
            it.element = (int)(print >> 4);
        } else if (cc_sdf_route(m, of_b ? p.b : p.a, of_b ? p.a : p.b)) {
            it.kind = of_b ? CC_MESH_ITEM_SDF_OF_B : CC_MESH_ITEM_SDF_OF_A;
            it.element = (int)(print >> 2);
        } else {
            it.kind = of_b ? CC_MESH_ITEM_VERTICES_OF_B : CC_MESH_ITEM_VERTICES_OF_A;
            it.element = (int)(print >> 1);
        }
    } else {
        it.kind = p.ta == CC_SHAPE_SPHERE ? CC_MESH_ITEM_SPHERE_TRIANGLE : CC_MESH_ITEM_CONVEX_TRIANGLE;
        it.element = (int)(print >> 3);
    }
    cc_mesh_context x;
    x.item = &it;
    x.single = 1;
    x.emit_print = print;
    x.emit_slot = (unsigned)j;
    cc_mesh_run_item(&x, p, m, shape_pose, body_pose, mv, sink, CC_MESH_PASS_EMIT, family);
}

#endif
