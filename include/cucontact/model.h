/* cuContact: building a model of bodies, shapes and worlds, and its state. */
#ifndef CUCONTACT_MODEL_H
#define CUCONTACT_MODEL_H

#include "cucontact/material.h"
#include "cucontact/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_builder cc_builder; ///< mutable description, host only
typedef struct cc_model cc_model;     ///< immutable model on one device
typedef struct cc_state cc_state;     ///< body poses and velocities on the model's device

/// World index of entities shared by every world (a ground plane, say).
#define CC_WORLD_GLOBAL (-1)
/// In a def's `world` field: use the builder's current world (the one opened
/// by cc_builder_begin_world, else CC_WORLD_GLOBAL).
#define CC_WORLD_CURRENT (-2)
/// In cc_shape_def.gap: take the builder's rigid_gap.
#define CC_GAP_FROM_BUILDER (-1.0f)
/// Body index for shapes fixed to the world frame.
#define CC_BODY_WORLD (-1)

typedef struct cc_builder_def {
    float rigid_gap; ///< gap [m] of shapes whose def leaves gap at CC_GAP_FROM_BUILDER (0.1)
    cc_vec3 gravity; ///< gravitational acceleration of every body [m/s^2] ((0, 0, -9.81): z is up)
    int32_t cookie;  ///< set by cc_default_builder_def; do not touch
} cc_builder_def;

typedef struct cc_body_def {
    cc_transform pose; ///< initial world pose (identity)
    int is_static;     ///< nonzero: the body never moves and never collides with other static geometry (0)
    int parent;        ///< parent body for collision_filter_parent, or -1 (-1)
    int world;         ///< world index, CC_WORLD_GLOBAL or CC_WORLD_CURRENT (CC_WORLD_CURRENT)
    int32_t cookie;    ///< set by cc_default_body_def; do not touch
} cc_body_def;

/// Valid ranges: every nonzero dimension or scale of a shape's size lies in
/// [CC_SIZE_MIN, CC_SIZE_MAX] m, margins and gaps in [0, CC_SIZE_MAX] m,
/// densities in [0, CC_DENSITY_MAX] kg/m^3; outside them float arithmetic
/// loses the mass or the contact (a 1e30 m box weighs infinitely much).
#define CC_SIZE_MIN 1.0e-6f
#define CC_SIZE_MAX 1.0e6f
#define CC_DENSITY_MAX 1.0e6f

typedef struct cc_shape_def {
    cc_transform local;  ///< pose relative to the body frame (identity)
    float margin;        ///< surface offset [m] (0): resting separation of a pair is margin_a + margin_b
    float gap;           ///< extra detection distance [m] (CC_GAP_FROM_BUILDER)
    int collision_group; ///< 0 never collides; >0 with the same group and negatives;
                         ///< <0 with everything but the same negative group (1)
    int collision_filter_parent; ///< nonzero: skip pairs with shapes of the parent/child body (1)
    int has_shape_collision;     ///< zero: the shape collides with no other shape (1)
    /// Bitmask filter beside the groups (MuJoCo's contype/conaffinity): shapes
    /// a and b collide only if (type_a & affinity_b) | (type_b & affinity_a)
    /// is nonzero. Both default to all bits, which never filters anything.
    uint32_t collision_type_bits;     ///< (0xFFFFFFFF)
    uint32_t collision_affinity_bits; ///< (0xFFFFFFFF)
    int world; ///< for shapes on body -1: world index, CC_WORLD_GLOBAL or CC_WORLD_CURRENT;
               ///< shapes on a body take the body's world (CC_WORLD_CURRENT)
    float density;                  ///< [kg/m^3] of the shape's volume, for its body's mass (1000)
    cc_material material;           ///< penalty-model material (cc_default_material())
    cc_compliant_params compliant;  ///< compliant-model parameters (cc_default_compliant_params())
    /// A signed distance field of a primitive or hull, sampled from its
    /// exact distance (cucontact/sdf.h; meshes take cc_builder_build_mesh_sdf):
    /// voxels along the longest side of the padded bounds, a multiple of 8
    /// in [8, 2048]; 0 for none unless sdf_target_voxel_size is set (0).
    int sdf_max_resolution;
    float sdf_target_voxel_size;  ///< voxel size [m]; wins over sdf_max_resolution when > 0 (0)
    float sdf_narrow_band_inner;  ///< inner edge of the band of stored samples [m] (-0.1)
    float sdf_narrow_band_outer;  ///< outer edge [m] (0.1)
    float sdf_padding;            ///< padding of the bounds [m]; negative: the shape's margin + gap (-1)
    int32_t cookie; ///< set by cc_default_shape_def; do not touch
} cc_shape_def;

cc_builder_def cc_default_builder_def(void);
cc_body_def cc_default_body_def(void);
cc_shape_def cc_default_shape_def(void);

cc_status cc_builder_create(const cc_builder_def* def, cc_builder** out);
void cc_builder_destroy(cc_builder* builder);

/// Adds a body; writes its index to *out_body.
cc_status cc_builder_add_body(cc_builder* b, const cc_body_def* def, int* out_body);

/// Adds a shape of any type to `body` (CC_BODY_WORLD for the world frame).
/// `size` follows the cc_shape_type comments. Writes the shape index.
cc_status cc_builder_add_shape(cc_builder* b, int body, cc_shape_type type, cc_vec3 size,
                               const cc_shape_def* def, int* out_shape);
/// Plane through the shape origin with normal local +z; half extents 0, 0 make it infinite.
cc_status cc_builder_add_plane(cc_builder* b, int body, float half_x, float half_y,
                               const cc_shape_def* def, int* out_shape);
cc_status cc_builder_add_sphere(cc_builder* b, int body, float radius, const cc_shape_def* def,
                                int* out_shape);
/// Capsule whose core segment runs along local z from -half_height to +half_height.
cc_status cc_builder_add_capsule(cc_builder* b, int body, float radius, float half_height,
                                 const cc_shape_def* def, int* out_shape);
cc_status cc_builder_add_box(cc_builder* b, int body, cc_vec3 half_extents,
                             const cc_shape_def* def, int* out_shape);

/// Cylinder of `radius` whose axis runs along local z, caps at z = ±half_height.
cc_status cc_builder_add_cylinder(cc_builder* b, int body, float radius, float half_height,
                                  const cc_shape_def* def, int* out_shape);
/// Cone along local z: a base disk of `radius` at z = -half_height and the
/// apex at z = +half_height (the shape origin is the middle of its axis).
cc_status cc_builder_add_cone(cc_builder* b, int body, float radius, float half_height,
                              const cc_shape_def* def, int* out_shape);
/// Ellipsoid with the given semi-axes along local x, y, z.
cc_status cc_builder_add_ellipsoid(cc_builder* b, int body, cc_vec3 semi_axes,
                                   const cc_shape_def* def, int* out_shape);

/// Options for building a convex hull from points.
typedef struct cc_convex_hull_def {
    int max_vertices; ///< hull-vertex limit (4 .. 4096); larger hulls are simplified to
                      ///< this many of their vertices, keeping the extremes (64)
    int32_t cookie;   ///< set by cc_default_convex_hull_def; do not touch
} cc_convex_hull_def;
cc_convex_hull_def cc_default_convex_hull_def(void);

/// Builds the convex hull of `count` points (hull frame, metres) and keeps
/// it in the builder; writes its index to *out_hull. Any number of shapes,
/// in any world, can use one hull; the model stores it once. Rejects fewer
/// than 4 distinct points, coplanar or collinear points and NaN.
cc_status cc_builder_add_convex_hull_data(cc_builder* b, const cc_vec3* points, int count,
                                          const cc_convex_hull_def* def, int* out_hull);
/// Number of vertices and faces hull `hull` kept (after simplification).
cc_status cc_builder_get_convex_hull_info(const cc_builder* b, int hull, int* vertex_count,
                                          int* face_count);
/// Copies the kept vertices of hull `hull` (at most `max`) into `vertices`.
cc_status cc_builder_get_convex_hull_vertices(const cc_builder* b, int hull, cc_vec3* vertices,
                                              int max);
/// A shape made of hull `hull` (from cc_builder_add_convex_hull_data), its
/// points scaled per local axis by `scale` (all > 0).
cc_status cc_builder_add_convex_hull(cc_builder* b, int body, int hull, cc_vec3 scale,
                                     const cc_shape_def* def, int* out_shape);

/// Stores a triangle mesh in the builder and writes its index to *out_mesh.
/// `vertices` are in the mesh frame [m]; `triangles` holds 3 vertex indices
/// per triangle, counter-clockwise seen from outside. Like convex hulls, one
/// mesh serves any number of shapes in any world and the model stores it
/// once. Rejects an empty mesh, indices outside 0..vertex_count-1 and NaN or
/// infinite coordinates; zero-area triangles are kept and reported once
/// through the log callback. At finalize the model builds the mesh's BVH and
/// notes its open and flat edges (see cc_builder_get_mesh_topology).
cc_status cc_builder_add_mesh_data(cc_builder* b, const cc_vec3* vertices, int vertex_count,
                                   const int* triangles, int triangle_count, int* out_mesh);
/// Number of vertices and triangles mesh `mesh` holds.
cc_status cc_builder_get_mesh_info(const cc_builder* b, int mesh, int* vertex_count,
                                   int* triangle_count);
/// Whether mesh `mesh` is watertight: every edge shared by exactly two
/// triangles that run it in opposite directions (closed and consistently
/// wound). `open_edges` receives the number of edges that are not (boundary
/// edges, edges of three or more triangles, inconsistent winding). Either
/// output may be NULL. Only a watertight mesh has a volume and an inside.
cc_status cc_builder_get_mesh_topology(const cc_builder* b, int mesh, int* watertight, int64_t* open_edges);
/// Copies up to `max` vertices of mesh `mesh` into `vertices`.
cc_status cc_builder_get_mesh_vertices(const cc_builder* b, int mesh, cc_vec3* vertices, int max);
/// A shape made of mesh `mesh`, its vertices scaled per local axis by
/// `scale` (all > 0).
cc_status cc_builder_add_mesh(cc_builder* b, int body, int mesh, cc_vec3 scale,
                              const cc_shape_def* def, int* out_shape);

/// What cc_builder_approximate_meshes turns a mesh shape into.
typedef enum cc_mesh_approximation {
    CC_MESH_APPROX_CONVEX_HULL = 0, ///< convex hull of the scaled vertices, at most
                                    ///< cc_default_convex_hull_def()'s vertex limit (64)
    CC_MESH_APPROX_BOX = 1,         ///< a tight oriented bounding box
    CC_MESH_APPROX_SPHERE = 2       ///< the smallest bounding sphere
} cc_mesh_approximation;
/// Replaces the collision geometry of mesh shapes by a convex hull, an
/// oriented bounding box or a bounding sphere. `shapes` lists `count` shape
/// indices (each a mesh shape; repeats count once); NULL selects every mesh
/// shape that collides (has_shape_collision nonzero) and ignores `count`.
/// Indices stay stable: each selected shape keeps its index and becomes the
/// approximation, on the same body and world, with its margin, gap, groups,
/// filters, bitmasks, density, materials and name. A hull keeps the mesh
/// pose and has the mesh scale baked into its points (shape scale (1, 1, 1));
/// a box's or sphere's local pose is the mesh pose composed with its centre
/// (and the box's rotation); cc_builder_get_shape_info reports the new type,
/// size, pose and source. Shapes that use the same mesh with the same scale,
/// replicated worlds included, share one hull, box or sphere, computed once.
/// A hull with more vertices than the limit is simplified to a subset of its
/// vertices (see cc_convex_hull_def), so it may leave out a little of the
/// mesh; the box and the sphere contain every vertex (up to float rounding of
/// the composed pose).
/// keep_visual nonzero keeps each original mesh as a visual-only shape: a
/// copy of it (same body, pose, scale and name) is appended with
/// has_shape_collision 0 and density 0, so it neither collides nor adds
/// mass; the copy of the k-th selected shape in increasing index order gets
/// index shape_count_before + k. With keep_visual 0 no shape is added.
/// Approximating only some copies of a replicated world, or keeping visual
/// shapes in them, makes their worlds differ, so the model stores their
/// pairs per world instead of once per template (correct, a little larger).
/// Errors, with the builder unchanged: NULL builder, negative count, an
/// index that is not a shape or not a mesh shape, an unknown method, a mesh
/// too flat for a hull (coplanar vertices: use a box) or with all vertices
/// at one point, out of memory.
cc_status cc_builder_approximate_meshes(cc_builder* b, const int* shapes, int count,
                                        cc_mesh_approximation method, int keep_visual);

/// The most samples (rows x cols) one heightfield may hold: 2^27, a grid of
/// about 11,585 squared (its triangles keep 32-bit indices with room).
#define CC_HFIELD_MAX_SAMPLES (1 << 27)

/// Stores a heightfield's elevation grid and writes its index to *out_hfield.
/// `heights` holds rows*cols finite samples, row-major: row r lies at
/// y = -hy + 2*hy*r/(rows-1), column c at x = -hx + 2*hx*c/(cols-1) of the
/// shape's half extents (hx, hy). rows and cols must be at least 2, and
/// rows*cols at most CC_HFIELD_MAX_SAMPLES.
cc_status cc_builder_add_heightfield_data(cc_builder* b, int rows, int cols, const float* heights,
                                          int* out_hfield);
/// Grid size and the lowest and highest sample of heightfield `hfield`.
cc_status cc_builder_get_heightfield_info(const cc_builder* b, int hfield, int* rows, int* cols,
                                          float* min_height, float* max_height);
/// A heightfield shape: the grid spans [-size.x, size.x] x [-size.y, size.y]
/// of the shape frame and its surface lies at z = sample * size.z (all > 0).
/// A heightfield is static geometry: it goes on CC_BODY_WORLD or a static
/// body; a dynamic body is rejected with CC_ERR_UNSUPPORTED.
cc_status cc_builder_add_heightfield(cc_builder* b, int body, int hfield, cc_vec3 size,
                                     const cc_shape_def* def, int* out_shape);

/// Shapes a and b never collide.
cc_status cc_builder_add_filter_pair(cc_builder* b, int shape_a, int shape_b);

/// The parameters of an explicit contact pair (MuJoCo's <contact><pair>).
typedef struct cc_contact_pair_def {
    float margin; ///< the pair's margin [m], in place of margin_a + margin_b (0)
    float gap;    ///< the pair's gap [m], in place of gap_a + gap_b (0)
    /// Friction of the pair's contacts in the step, in place of the value
    /// combined from the two shapes' materials; negative keeps that (-1 each).
    float mu, mu_torsional, mu_rolling;
    int32_t cookie; ///< set by cc_default_contact_pair_def; do not touch
} cc_contact_pair_def;
cc_contact_pair_def cc_default_contact_pair_def(void);

/// Shapes a and b are tested for contact whatever their groups, bitmasks,
/// has_shape_collision, filter pairs and parent filter, with the pair's own
/// margin and gap: contacts act below def.margin and are detected within
/// def.gap more (the two shapes' margins and gaps do not count for this
/// pair), and its friction coefficients where given. The world rule still holds (shapes of two different worlds never
/// meet) and two static shapes never collide. Adding the same pair again
/// replaces its parameters. Precedence: a contact pair overrides every
/// filter for its two shapes; the shapes' other pairs follow the usual rules.
cc_status cc_builder_add_contact_pair(cc_builder* b, int shape_a, int shape_b, const cc_contact_pair_def* def);

/// Names shape `shape` (a copy of `name` is kept; NULL removes the name).
/// Names are for tools and messages; they need not be unique, and replicated
/// worlds share their template's names.
cc_status cc_builder_set_shape_name(cc_builder* b, int shape, const char* name);
/// Name of shape `shape`, or NULL when it has none or does not exist.
const char* cc_builder_shape_name(const cc_builder* b, int shape);

/// What the builder holds for one shape, as resolved when it was added.
typedef struct cc_shape_info {
    cc_shape_type type;
    int body;             ///< body index, or CC_BODY_WORLD
    int world;            ///< world index, or CC_WORLD_GLOBAL
    cc_vec3 size;         ///< as in cc_shape_type
    cc_transform local;   ///< pose in the body frame
    float margin, gap;    ///< [m]; gap resolved from the builder's rigid_gap
    int collision_group;
    uint32_t collision_type_bits, collision_affinity_bits;
    int has_shape_collision;
    int source;           ///< hull, mesh or heightfield index, else -1
    float density;        ///< [kg/m^3]
    cc_material material;
    cc_compliant_params compliant;
    /// The shape's SDF (cucontact/sdf.h): a primitive's or hull's own, a
    /// mesh's built on its mesh at its size; -1 for none.
    int sdf;
} cc_shape_info;
cc_status cc_builder_get_shape_info(const cc_builder* b, int shape, cc_shape_info* out);

/// What the builder holds for one body.
typedef struct cc_body_info {
    cc_transform pose; ///< initial world pose
    int is_static;
    int parent;        ///< or -1
    int world;         ///< or CC_WORLD_GLOBAL
} cc_body_info;
cc_status cc_builder_get_body_info(const cc_builder* b, int body, cc_body_info* out);

/// Mass, centre of mass and inertia of a rigid body.
typedef struct cc_mass_properties {
    float mass;       ///< [kg]
    cc_vec3 center;   ///< centre of mass in the body frame [m]
    float inertia[9]; ///< inertia tensor about the centre of mass, body axes, row-major [kg m^2]
} cc_mass_properties;

/// Sets a dynamic body's mass properties explicitly instead of deriving them
/// from its shapes. Rejects a non-positive or non-finite mass and an inertia
/// that is not symmetric positive definite. NULL goes back to the derived ones.
cc_status cc_builder_set_body_mass(cc_builder* b, int body, const cc_mass_properties* mass);
/// The body's mass properties: the explicit ones, else the sum over its
/// shapes of density times volume (planes and heightfields have none), with
/// the analytic inertia of each primitive and the exact inertia of the
/// closed volume of hulls and meshes (an open or inside-out mesh adds no mass
/// and is reported through the log). Margins add no mass. Static bodies
/// report what their shapes weigh; the step never moves them.
cc_status cc_builder_get_body_mass(const cc_builder* b, int body, cc_mass_properties* out);

/// The most worlds a model may hold.
#define CC_MAX_WORLDS (1 << 24)

/// Opens a new world; bodies and shapes added with CC_WORLD_CURRENT go into it
/// until cc_builder_end_world.
cc_status cc_builder_begin_world(cc_builder* b, int* out_world);
cc_status cc_builder_end_world(cc_builder* b);
/// Copies every body, shape and filter pair of `templ` into one new world.
cc_status cc_builder_add_world(cc_builder* b, const cc_builder* templ, int* out_world);
/// Copies `templ` into `copies` new consecutive worlds (at most CC_MAX_WORLDS
/// in all). The template's hulls,
/// meshes, heightfields and shape names are stored once for all copies, and
/// pipelines store the template's precomputed pairs once.
cc_status cc_builder_replicate(cc_builder* b, const cc_builder* templ, int copies,
                               int* out_first_world);

int cc_builder_body_count(const cc_builder* b);
int cc_builder_shape_count(const cc_builder* b);
int cc_builder_world_count(const cc_builder* b);
int cc_builder_mesh_count(const cc_builder* b);
int cc_builder_heightfield_count(const cc_builder* b);

/// Validates and copies the builder onto `device` as an immutable model. The
/// builder is unchanged and stays usable.
cc_status cc_builder_finalize(const cc_builder* b, cc_device device, cc_model** out);
/// Gives up the caller's model. States, pipelines, contact buffers and
/// solvers made from it keep it alive until they are destroyed too, so they
/// may be destroyed before or after it, in any order; the model is freed
/// with the last of them. Nothing else may use the model after this call.
void cc_model_destroy(cc_model* model);

int cc_model_body_count(const cc_model* m);
int cc_model_shape_count(const cc_model* m);
int cc_model_world_count(const cc_model* m);
cc_device cc_model_device(const cc_model* m);
/// Gravity every body of the model falls with [m/s^2].
cc_vec3 cc_model_gravity(const cc_model* m);
/// Mass properties body `body` was finalized with (a dynamic body without
/// mass gets zero mass and never moves under forces).
cc_status cc_model_get_body_mass(const cc_model* m, int body, cc_mass_properties* out);
/// 1 when the body is static (never moves), 0 when it is dynamic, -1 when
/// body is not one of the model's.
int cc_model_body_is_static(const cc_model* m, int body);
/// Device memory the model's arrays occupy [bytes].
size_t cc_model_device_bytes(const cc_model* m);

/// The model's device memory by what it holds [bytes]; the fields add up to
/// cc_model_device_bytes.
typedef struct cc_model_memory {
    size_t shape_bytes;    ///< a row per shape (geometry, pose, filters, materials): grows with the worlds
    size_t body_bytes;     ///< a row per body (world, parent, mass): grows with the worlds
    size_t filter_bytes;   ///< explicit filter pairs and contact pairs
    size_t geometry_bytes; ///< hulls, meshes with their BVHs and edges, heightfields: stored once, whatever uses them
    size_t sdf_bytes;      ///< signed distance fields (cucontact/sdf.h): stored once, like the geometry
} cc_model_memory;

cc_status cc_model_get_memory(const cc_model* m, cc_model_memory* out);

/// A state holding the body poses the builder gave (velocities zero).
cc_status cc_state_create(const cc_model* m, cc_state** out);
void cc_state_destroy(cc_state* s);
/// Copies poses of bodies [first, first+count) from host memory. Non-finite
/// values are rejected and nothing is changed. Quaternions must be unit
/// length (the builder normalises its poses; the state takes them as given).
cc_status cc_state_set_body_poses(cc_state* s, int first, int count, const cc_transform* poses);
cc_status cc_state_get_body_poses(const cc_state* s, int first, int count, cc_transform* poses);
/// Linear [m/s] and angular [rad/s] world velocities; used by the step.
/// The linear velocity is that of the body's centre of mass.
cc_status cc_state_set_body_velocities(cc_state* s, int first, int count, const cc_vec3* linear,
                                       const cc_vec3* angular);
cc_status cc_state_get_body_velocities(const cc_state* s, int first, int count, cc_vec3* linear,
                                       cc_vec3* angular);
/// Copies every pose and velocity of `src` into `dst` (same model), enqueued
/// on `stream` like cc_collide, so it can be captured into a graph.
cc_status cc_state_copy(cc_state* dst, const cc_state* src, cc_stream stream);
/// Device (or, on the CPU, host) array of body poses, for kernels of the user's own.
cc_transform* cc_state_body_poses_device(cc_state* s);

#ifdef __cplusplus
}
#endif

#endif
