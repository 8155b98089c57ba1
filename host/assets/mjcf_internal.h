/* The MJCF loader's shared state and helpers. The loader is split by
 * concern: the document and its includes (mjcf.c), messages and attribute
 * values, frames, default classes, assets, geoms, bodies and the contact
 * section, one file each. Nothing here is public. */
#ifndef CC_HOST_ASSETS_MJCF_INTERNAL_H
#define CC_HOST_ASSETS_MJCF_INTERNAL_H

#include "cucontact/mjcf.h"
#include "host/assets/asset_io.h"
#include "host/assets/mjcf_xml.h"
#include "host/model/builder_internal.h"

#define MAX_NUMBERS 8
#define PI_D 3.14159265358979323846

#if defined(__GNUC__)
#define CC_MJCF_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CC_MJCF_PRINTF(f, a)
#endif

/* A frame in double precision: a position and a quaternion (w, x, y, z),
 * MJCF's order; rotate then translate. */
typedef struct mj_frame {
    double p[3];
    double q[4];
} mj_frame;

/* An attribute of a default class: the element kind it applies to. */
typedef struct mj_default_attr {
    const char* kind;
    const char* name;
    const char* value;
    const char* file;
    int line;
} mj_default_attr;

typedef struct mj_class {
    const char* name;
    const char* file; /* where it is first defined */
    int line;
    mj_default_attr* attrs; /* merged with the ancestors' */
    int count, capacity;
} mj_class;

/* Which builder a geom or asset lives in. */
enum { IN_TEMPLATE = 0, IN_TARGET = 1 };

typedef struct mj_mesh_asset {
    const char* name;
    const char* file;
    int line;
    cc_tri_mesh mesh; /* scaled; triangle_count 0 for a vertex-only mesh */
    int max_hull_vertices; /* maxhullvert, -1 when not given */
    const char* vdb_path; /* a level set's file: the mesh is its zero level and carries it as its SDF */
    int mesh_index[2], hull_index[2];
} mj_mesh_asset;

typedef struct mj_hfield_asset {
    const char* name;
    const char* file;
    int line;
    float* samples; /* normalised to [0, 1] */
    int rows, cols;
    double size[4];
    int index[2];
} mj_hfield_asset;

typedef struct mj_shape_ref {
    int where; /* IN_TEMPLATE or IN_TARGET */
    int index;
} mj_shape_ref;

typedef struct mj_body {
    const char* name;
    mj_shape_ref* shapes;
    int count, capacity;
} mj_body;

/* A <pair> of a global shape and a template one, added to every world
 * once the template is replicated. */
typedef struct mj_late_pair {
    int global, templ;
    cc_contact_pair_def def;
} mj_late_pair;

/* One kind of loader note, counted (mjcf_notes.c). */
typedef struct mj_note {
    const char* key;
    const char* message;
    const char* file; /* the first place */
    int line;
    int count;
    cc_log_level level;
    int grouped; /* an ignored attribute: summed up on one shared line */
} mj_note;

typedef struct mj_loader {
    cc_builder* target;
    cc_builder* templ;
    cc_mjcf_options opt;
    cc_xml_arena arena;
    const char* base_dir; /* "" for the working directory */
    int includes;          /* files included so far (CC_MJCF_MAX_INCLUDES) */
    int* body_slots;       /* open-addressing table of named bodies: index + 1, 0 empty */
    int body_slot_count;   /* a power of two, at least twice the named bodies */
    int named_bodies;
    const cc_xml_node** body_nodes; /* (bodies) the element each came from, NULL for the world */
    int body_node_capacity;
    long long text_bytes;  /* bytes of XML read so far, the scene's and its includes' (CC_MJCF_MAX_TEXT_BYTES) */
    int degrees;
    char eulerseq[4];
    const char* meshdir;
    const char* assetdir;
    mj_class** classes;
    int class_count, class_capacity;
    mj_mesh_asset* meshes;
    int mesh_count, mesh_capacity;
    mj_hfield_asset* hfields;
    int hfield_count, hfield_capacity;
    mj_body* bodies;
    int body_count, body_capacity;
    mj_shape_ref* late_filters; /* pairs (global, template) to filter after replication */
    int late_count, late_capacity;
    mj_late_pair* late_pairs; /* contact pairs (global, template) to add after replication */
    int late_pair_count, late_pair_capacity;
    mj_note* notes; /* (mjcf_notes.c) */
    int note_count, note_capacity;
} mj_loader;

/* Where the geoms of the current element go. */
typedef struct mj_frame_ctx {
    mj_frame to_anchor;   /* this frame in the anchor's frame */
    int anchor;           /* template body the geoms hang on, or -1 for the world */
    mj_frame anchor_pose; /* world pose of the anchor */
    const mj_class* childclass;
    int body;             /* index into mj_loader.bodies */
} mj_frame_ctx;

/* An attribute value with the element (or default class) it came from. */
typedef struct mj_attr {
    const char* value;
    const char* file;
    int line;
    const char* kind;
    const char* name;
} mj_attr;

/* ---- Messages and attribute values (mjcf_attributes.c) */

cc_status mjcf_fail_at(cc_status s, const char* file, int line, const char* format, ...)
    CC_MJCF_PRINTF(4, 5);
int mjcf_get_attr(cc_xml_node* n, const mj_class* c, const char* kind, const char* name, mj_attr* out);
int mjcf_in_list(const char* name, const char* const* list);
cc_status mjcf_out_of_memory(void);
int mjcf_parse_bool(const char* v);
cc_status mjcf_parse_float_list(const mj_attr* a, float** out, int* count);
cc_status mjcf_parse_int(const mj_attr* a, long long lo, long long hi, long long* out);
cc_status mjcf_parse_int_list(const mj_attr* a, int** out, int* count);
cc_status mjcf_parse_numbers(const mj_attr* a, double* out, int min_count, int max_count, int* count);
cc_status mjcf_read_vector(cc_xml_node* n, const mj_class* c, const char* kind, const char* name, double* out,
                           int count, int* found);
cc_status mjcf_relabel(cc_status s, const cc_xml_node* n);

/* ---- Notes, counted per kind and logged at the end (mjcf_notes.c) */

/* A note of kind `key` at file:line; the message says what and why. */
void mjcf_note(mj_loader* L, const char* key, cc_log_level level, const char* file, int line, const char* format, ...)
    CC_MJCF_PRINTF(6, 7);
/* An element that is skipped; `why` completes "<name> is ...". */
void mjcf_report_element(mj_loader* L, const cc_xml_node* n, const char* why, cc_log_level level);
/* The attributes of `n` that are not in `known`. */
void mjcf_report_unknown_attrs(mj_loader* L, const cc_xml_node* n, const char* kind, const char* const* known);
/* Logs the counted notes: one line per kind, the ignored attributes on one. */
void mjcf_flush_notes(mj_loader* L);

/* ---- Frames and orientations in double precision (mjcf_frame.c) */

mj_frame mjcf_frame_identity(void);
mj_frame mjcf_frame_mul(const mj_frame* a, const mj_frame* b);
int mjcf_normalize3(double v[3]);
void mjcf_quat_from_zaxis(const double z[3], double q[4]);
void mjcf_quat_rotate(const double q[4], const double v[3], double out[3]);
cc_status mjcf_read_frame(mj_loader* L, cc_xml_node* n, const mj_class* c, const char* kind, mj_frame* out);
cc_transform mjcf_to_transform(const mj_frame* f);
/* The attributes that give an orientation; at most one per element. */
extern const char* const mjcf_orientation_attrs[];

/* ---- Default classes (mjcf_defaults.c) */

cc_status mjcf_class_of(const mj_loader* L, cc_xml_node* n, const mj_class* childclass, const mj_class** out);
const mj_class* mjcf_find_class(const mj_loader* L, const char* name);
cc_status mjcf_read_default(mj_loader* L, cc_xml_node* n, const mj_class* parent);
/* Attributes read from elements of each kind (and from their defaults). */
extern const char* const mjcf_geom_attrs[];
extern const char* const mjcf_joint_attrs[];
extern const char* const mjcf_mesh_attrs[];
extern const char* const mjcf_pair_attrs[];

/* ---- Paths and mesh and heightfield assets (mjcf_assets.c) */

cc_status mjcf_hfield_in(mj_loader* L, mj_hfield_asset* h, int where, const cc_xml_node* n, int* out);
const char* mjcf_join_path(mj_loader* L, const char* dir, const char* file);
cc_status mjcf_mesh_in(mj_loader* L, mj_mesh_asset* m, int where, int as_hull, const cc_xml_node* n, int* out);
cc_status mjcf_read_assets(mj_loader* L, cc_xml_node* n);

/* ---- Geoms (mjcf_geoms.c) */

cc_status mjcf_read_geom(mj_loader* L, cc_xml_node* n, const mj_frame_ctx* ctx);

/* ---- Bodies and frames of the world tree (mjcf_bodies.c) */

/* Adds a body record; a name other than "" must be new (the world is
 * "world"), else it fails naming both elements. n is the body's element
 * (NULL for the world). */
cc_status mjcf_add_body_record(mj_loader* L, const char* name, const cc_xml_node* n, int* out);
/* The body record of that name, or -1. */
int mjcf_find_body(const mj_loader* L, const char* name);
cc_status mjcf_read_children(mj_loader* L, cc_xml_node* parent, const mj_frame_ctx* ctx);
cc_status mjcf_remember_shape(mj_loader* L, int body, int where, int index);

/* ---- The <contact> section (mjcf_contact.c) */

cc_status mjcf_read_contact(mj_loader* L, cc_xml_node* n);

#endif
