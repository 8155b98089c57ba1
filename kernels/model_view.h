/* The model as kernels see it: one device array per shape and body field.
 *
 * CC_SHAPE_COLUMNS and CC_BODY_COLUMNS are the single place a field is
 * declared; the host uses the same tables to size, fill and upload the
 * arrays, so adding a field means adding one line here. */
#ifndef CC_KERNELS_MODEL_VIEW_H
#define CC_KERNELS_MODEL_VIEW_H

#include "kernels/shapes/hull.h"
#include "kernels/math/transform.h"
#include "kernels/mesh/bvh.h"
#include "kernels/shapes/mesh.h"
#include "kernels/shapes/sdf.h"
#include "cucontact/material.h"

/* Bits of the shape `flags` column. */
#define CC_SHAPE_FLAG_COLLIDES 1u      /* has_shape_collision and group != 0 */
#define CC_SHAPE_FLAG_STATIC 2u        /* on body -1 or on a static body */
#define CC_SHAPE_FLAG_FILTER_PARENT 4u /* skip pairs with the parent/child body */
#define CC_SHAPE_FLAG_HAS_FILTERS 8u   /* appears in the explicit filter-pair list */
#define CC_SHAPE_FLAG_IN_CONTACT_PAIR 16u /* appears in the contact-pair list */
/* Collides only through its contact pairs: its own rules (group 0, zero
 * bitmasks, has_shape_collision off) meet nothing (COLLIDES is set so that
 * the broad phases see it). */
#define CC_SHAPE_FLAG_PAIRS_ONLY 32u

/* A contact pair's own margin and gap, in place of the two shapes' sums,
 * and its friction coefficients (negative: combined from the shapes). */
typedef struct cc_contact_pair_params {
    float margin; /* [m] */
    float gap;    /* [m] */
    float mu, mu_torsional, mu_rolling;
} cc_contact_pair_params;

/* What the narrow phase reads of a shape, packed into 32 bytes so that a
 * pair costs two cache lines of static data rather than one per field. */
typedef struct cc_shape_geometry {
    cc_vec3 size; /* as in cc_shape_type */
    float radius; /* effective radius: sphere/capsule radius, else 0 [m] */
    float margin; /* surface offset [m] */
    float gap;    /* detection gap [m] */
    int type;     /* cc_shape_type */
    int body;     /* body index, -1 for the world frame */
} cc_shape_geometry;

/* What the step reads of a body: inverse mass and the inertia tensor about
 * the centre of mass in body axes, both ways (symmetric: xx yy zz xy xz yz).
 * A zero inverse mass never moves under forces. */
typedef struct cc_body_mass {
    cc_vec3 com;          /* centre of mass, body frame [m] */
    float inv_mass;       /* [1/kg] */
    float inertia[6];     /* [kg m^2] */
    float inv_inertia[6]; /* [1/(kg m^2)] */
} cc_body_mass;

/* X(type, name, comment) */
#define CC_SHAPE_COLUMNS(X)                                                          \
    X(cc_shape_geometry, shape_geom, "(nshape) type, body, size, radius, margin, gap") \
    X(int, shape_world, "(nshape) world index, -1 for global shapes")               \
    X(int, shape_group, "(nshape) collision group")                                 \
    X(unsigned, shape_flags, "(nshape) CC_SHAPE_FLAG_* bits")                       \
    X(cc_transform, shape_local, "(nshape) pose in the body frame")                 \
    X(int, shape_source, "(nshape) index of the shape's hull, mesh or heightfield in its pool, or -1") \
    X(uint32_t, shape_type_bits, "(nshape) collision type bitmask (MuJoCo contype)")      \
    X(uint32_t, shape_affinity_bits, "(nshape) collision affinity bitmask (MuJoCo conaffinity)") \
    X(cc_material, shape_material, "(nshape) penalty-model material")                 \
    X(cc_compliant_params, shape_compliant, "(nshape) compliant-model parameters")    \
    X(float, shape_point_area, "(nshape) area a point contact on the shape stands for [m^2]; 3.4e38 for planes and heightfields") \
    X(float, shape_bounds_pad, "(nshape) growth of the shape's bounds: margin + gap, or half a contact pair's margin + gap when larger [m]") \
    X(int, shape_sdf, "(nshape) the SDF a mesh shape collides through (its mesh at its size), or -1")

#define CC_BODY_COLUMNS(X)                                                           \
    X(int, body_world, "(nbody) world index, -1 for global bodies")                 \
    X(int, body_parent, "(nbody) parent body for collision_filter_parent, or -1")   \
    X(int, body_static, "(nbody) nonzero for static bodies")                        \
    X(cc_body_mass, body_mass, "(nbody) inverse mass, centre of mass, inertia")

/* Geometry pools shared by shapes: X(type, name, comment); the element
 * count of each pool is the view's `name##_count`. */
#define CC_POOL_COLUMNS(X)                                                           \
    X(cc_hull_desc, hulls, "convex hulls: ranges into the pools below")              \
    X(cc_vec3, hull_vertices, "hull vertices, hull frame")                           \
    X(cc_hull_face, hull_faces, "hull faces; `first` indexes hull_indices")          \
    X(int, hull_indices, "face vertex indices into hull_vertices (absolute)")        \
    X(int, hull_graph, "vertex graph blocks of the hulls (shapes/hull.h)")          \
    X(cc_mesh_desc, meshes, "triangle meshes: ranges into the pools below")          \
    X(cc_vec3, mesh_vertices, "mesh vertices, mesh frame")                           \
    X(cc_mesh_triangle, mesh_triangles, "vertex indices into mesh_vertices (absolute)") \
    X(cc_bvh_node, bvh_nodes, "mesh BVH nodes; child and leaf indices relative to the mesh's own") \
    X(int, bvh_prims, "BVH leaf slots: triangles relative to the mesh, parallel to mesh_triangles") \
    X(unsigned, mesh_triangle_flags, "open and flat edges of each triangle (mesh/triangle.h)") \
    X(cc_mesh_triangle, mesh_triangle_adjacent, "per edge the neighbour triangle (relative to the mesh), -1 when open") \
    X(cc_mesh_edge, mesh_edges, "the edges SDF contacts query, absolute into mesh_vertices") \
    X(cc_feature_ball, mesh_feature_balls, "balls around each mesh's feature chunks (shapes/mesh.h)") \
    X(int, mesh_feature_order, "each mesh's features (vertices, then edges) along a Morton curve") \
    X(cc_sdf_desc, sdfs, "signed distance fields: lattices and ranges into the pools below") \
    X(int, sdf_table, "per brick: its stored block, CC_SDF_OUTSIDE or CC_SDF_INSIDE") \
    X(unsigned short, sdf_values, "16-bit samples of the stored bricks") \
    X(float, sdf_coarse, "exact signed distances at the brick corners [m]") \
    X(cc_hfield_desc, hfields, "heightfields: ranges into hfield_samples")          \
    X(float, hfield_samples, "heightfield samples, row-major, unscaled") \
    X(uint64_t, contact_pair_keys, "sorted keys (min_shape << 32 | max_shape) of the contact pairs") \
    X(cc_contact_pair_params, contact_pair_params, "margin and gap of each contact pair, parallel to contact_pair_keys")

#define CC_DECLARE_COLUMN_POINTER(type, name, comment) type* name;
#define CC_DECLARE_POOL(type, name, comment) \
    int name##_count;                        \
    type* name;

typedef struct cc_model_view {
    int shape_count;
    int body_count;
    int world_count;
    cc_vec3 gravity; /* [m/s^2] */
    CC_SHAPE_COLUMNS(CC_DECLARE_COLUMN_POINTER)
    CC_BODY_COLUMNS(CC_DECLARE_COLUMN_POINTER)
    /* Sorted keys (min_shape << 32 | max_shape) of pairs that never collide. */
    int filter_pair_count;
    uint64_t* filter_pairs;
    CC_POOL_COLUMNS(CC_DECLARE_POOL)
} cc_model_view;

/* Key of the shape pair (a, b) in the filter and contact-pair tables:
 * min_shape << 32 | max_shape, the same for either order. */
CC_HD uint64_t cc_filter_pair_key(int a, int b)
{
    uint32_t lo = (uint32_t)(a < b ? a : b);
    uint32_t hi = (uint32_t)(a < b ? b : a);
    return ((uint64_t)lo << 32) | hi;
}

/* Row of `key` in the ascending table keys[0, count), or -1 (binary search). */
CC_HD int cc_pair_key_row(const uint64_t* keys, int count, uint64_t key)
{
    int lo = 0, hi = count;
    while (lo < hi) {
        int mid = lo + ((hi - lo) >> 1);
        uint64_t k = keys[mid];
        if (k == key) return mid;
        if (k < key) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

/* The SDF a shape collides through, resolved from the pools (d NULL when
 * it has none). */
CC_HD cc_sdf_ref cc_sdf_ref_of(const cc_model_view* m, int shape)
{
    cc_sdf_ref r;
    int i = m->shape_sdf[shape];
    r.d = i >= 0 ? &m->sdfs[i] : 0;
    r.table = i >= 0 ? m->sdf_table + r.d->table_first : 0;
    r.values = i >= 0 ? m->sdf_values + (size_t)r.d->value_first : 0;
    r.coarse = i >= 0 ? m->sdf_coarse + r.d->coarse_first : 0;
    return r;
}

/* The hull a shape uses, resolved from the model's pools. */
CC_HD cc_hull_ref cc_hull_ref_of(const cc_model_view* m, int shape)
{
    cc_hull_ref h;
    const cc_hull_desc* d = &m->hulls[m->shape_source[shape]];
    h.vertices = m->hull_vertices + d->vertex_first;
    h.faces = m->hull_faces + d->face_first;
    h.indices = m->hull_indices;
    h.vertex_count = d->vertex_count;
    h.face_count = d->face_count;
    h.vertex_first = d->vertex_first;
    h.center = d->center;
    h.radius = d->radius;
    /* Small hulls are scanned: as fast, and no graph to load. */
    h.graph = d->vertex_count > CC_HULL_CLIMB_MIN ? m->hull_graph + d->graph_first : 0;
    return h;
}

#endif
