/* The builder's records, shared by host/model/builder.c and host/model/model.c. */
#ifndef CC_HOST_MODEL_BUILDER_INTERNAL_H
#define CC_HOST_MODEL_BUILDER_INTERNAL_H

#include "host/geometry/hull_build.h"
#include "host/geometry/sdf_build.h"
#include "host/internal.h"

#define CC_DEF_COOKIE 0x63635f64 /* marks defs made by their cc_default_* function */

typedef struct cc_body_record {
    cc_transform pose;
    int is_static;
    int parent;
    int world;
    int has_explicit_mass; /* nonzero: `mass` overrides the shapes' */
    cc_mass_properties mass;
} cc_body_record;

typedef struct cc_shape_record {
    int type;
    int body;
    int world;
    cc_transform local;
    cc_vec3 size;
    float margin, gap;
    int group;
    int filter_parent;
    int has_shape_collision;
    uint32_t type_bits, affinity_bits;
    int source; /* hull, mesh or heightfield index, else -1 */
    int name;   /* index into the builder's name pool, or -1 */
    float density;
    cc_material material;
    cc_compliant_params compliant;
    int sdf; /* a primitive's or hull's own SDF, or -1 (a mesh's is found by mesh and scale) */
} cc_shape_record;

/* A triangle mesh kept by the builder: vertices in the mesh frame, three
 * indices per triangle (counter-clockwise seen from outside), and bounds. */
typedef struct cc_mesh_data {
    cc_vec3* vertices;
    int vertex_count;
    int* triangles; /* 3 * triangle_count, indices into vertices */
    int triangle_count;
    cc_vec3 lower, upper;
    int64_t bad_edges; /* edges without exactly one opposite neighbour; 0: watertight */
    char* label;       /* what a loader calls the mesh, for messages, or NULL */
    int* edges;        /* the edges SDF contacts query (2 ints each), chosen by its
                        * latest SDF build; NULL: finalize takes the default filter */
    int edge_count;
} cc_mesh_data;

/* An SDF: of a builder mesh at one scale (mesh >= 0, shape_type
 * CC_SHAPE_MESH, size the scale), or of a primitive or hull (shape_type,
 * size, source: the hull or -1) built with `def`'s lattice, shared by every
 * shape that asks for the same. */
typedef struct cc_sdf_record {
    int mesh;
    int shape_type;
    cc_vec3 size;
    int source;
    cc_sdf_def def; /* a primitive's: the lattice, band and padding it was built with */
    cc_sdf_data data;
} cc_sdf_record;

/* A heightfield's samples, row-major (rows along y, columns along x). */
typedef struct cc_hfield_data {
    float* heights;
    int rows, cols;
    float min_height, max_height;
} cc_hfield_data;

/* Counts of every builder array, so that a loader can undo what it added. */
typedef struct cc_builder_mark {
    int body_count, shape_count, filter_count, contact_pair_count, hull_count, mesh_count, hfield_count;
    int name_count, block_count, world_count, sdf_count;
} cc_builder_mark;

typedef struct cc_index_pair {
    int a, b;
} cc_index_pair;

/* An explicit contact pair: shapes a < b and the pair's parameters. */
typedef struct cc_contact_pair_record {
    int a, b;
    float margin, gap;
    float mu, mu_torsional, mu_rolling; /* negative: the shapes' */
} cc_contact_pair_record;

/* Consecutive copies of one template laid out with fixed strides: copy c
 * owns shapes first_shape + c*shape_stride + [0, shape_stride) and world
 * first_world + c. A block turns irregular when something makes one copy
 * differ from the others (a filter pair or shape added afterwards). */
typedef struct cc_replica_block {
    int first_shape, shape_stride;
    int first_body, body_stride;
    int first_world, copies;
    int irregular;
} cc_replica_block;

struct cc_builder {
    float rigid_gap;
    cc_vec3 gravity;
    cc_body_record* bodies;
    int body_count, body_capacity;
    cc_shape_record* shapes;
    int shape_count, shape_capacity;
    cc_index_pair* filters;
    int filter_count, filter_capacity;
    cc_contact_pair_record* contact_pairs; /* in the order added; the last of a repeated pair wins */
    int contact_pair_count, contact_pair_capacity;
    cc_hull_data* hulls; /* hull pool, shared by shapes of every world */
    int hull_count, hull_capacity;
    cc_mesh_data* meshes; /* mesh pool, shared like hulls */
    int mesh_count, mesh_capacity;
    cc_hfield_data* hfields; /* heightfield pool, shared like hulls */
    int hfield_count, hfield_capacity;
    cc_sdf_record* sdfs; /* SDFs of meshes, shared like hulls */
    int sdf_count, sdf_capacity;
    char** names; /* shape names; replicated shapes share their template's entry */
    int name_count, name_capacity;
    cc_replica_block* blocks;
    int block_count, block_capacity;
    int world_count;
    int open_world; /* world opened by begin_world, or -1 */
};

/* Checks a shape's density, material and compliant parameters (finite,
 * in range); the message starts with `what`. */
cc_status cc_validate_materials(float density, const cc_material* material, const cc_compliant_params* compliant,
                                const char* what);

/* Mass properties of every body (explicit ones, else summed from its
 * shapes) into out[body_count]. A mesh whose volume is not positive (open
 * or inside out) adds no mass and is reported through the log. */
cc_status cc_builder_body_masses(const cc_builder* b, cc_mass_properties* out, const char* what);

/* Undo support for loaders: record the counts, and drop everything added
 * since (a rejected load changes nothing). */
cc_builder_mark cc_builder_get_mark(const cc_builder* b);
void cc_builder_rollback(cc_builder* b, const cc_builder_mark* mark);

/* Copies an SDF record (for a replicated template); 0 when out of memory. */
int cc_sdf_record_copy(const cc_sdf_record* src, cc_sdf_record* dst);
/* The SDF of a shape: a mesh's, the one built on its mesh at its size; a
 * primitive's or hull's, its own; or -1. */
int cc_shape_sdf_of(const cc_builder* b, const cc_shape_record* r);
/* The SDF of primitive or hull shape (type, size, source) that `def` asks
 * for: one already built for the same, or a new one. Checks def (messages
 * start with `what`). */
cc_status cc_sdf_of_primitive(cc_builder* b, int type, cc_vec3 size, int source, const cc_sdf_def* def, const char* what,
                              int* out_sdf);

/* Names mesh `mesh` in the builder's messages (a loader's asset name and
 * place, "'hand' at robot.xml:12"); a copy is kept. */
cc_status cc_builder_label_mesh(cc_builder* b, int mesh, const char* label);

#endif
