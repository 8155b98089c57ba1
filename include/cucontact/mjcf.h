/* cuContact: scenes from MJCF files (MuJoCo's XML format).
 *
 * The loader turns an MJCF model into bodies and shapes of a builder with
 * MuJoCo's meaning:
 * - <worldbody> geoms, and geoms of bodies welded to it (bodies without
 *   joints), are static geometry on CC_BODY_WORLD. A body with a joint is a
 *   dynamic body at its initial pose; a body without joints is welded to
 *   its parent (its geoms move with the parent). <freejoint> and
 *   <joint type="free"> make free bodies; hinge, slide and ball joints are
 *   not simulated (reported once): their bodies become dynamic bodies whose
 *   parent is the enclosing dynamic body, so that parent/child pairs are
 *   skipped as MuJoCo's filterparent does.
 * - geom types plane, sphere, capsule, ellipsoid, cylinder, box, mesh and
 *   hfield with MuJoCo's size semantics, fromto, pos and every orientation
 *   form (quat, axisangle, euler with <compiler angle eulerseq>, xyaxes,
 *   zaxis); <default> classes, nesting and childclass; <frame>; <include>.
 * - contype/conaffinity become the shape's collision_type_bits and
 *   collision_affinity_bits; <contact><exclude body1 body2> filters every
 *   pair of geoms of the two bodies.
 * - margin and gap: MuJoCo detects a contact when the surface distance is
 *   below margin and lets it act below margin - gap (pair values: the larger
 *   of the two geoms'). Here a pair acts below margin_a + margin_b and is
 *   detected within gap_a + gap_b more, so each shape takes half of MuJoCo's
 *   active distance as its margin, (margin - gap) / 2 (0 when gap exceeds
 *   margin), and half of MuJoCo's gap as its gap. Two geoms with equal
 *   settings then behave exactly as in MuJoCo; where they differ the pair
 *   uses the mean instead of MuJoCo's maximum.
 * - planes are infinite for collisions, as in MuJoCo, unless finite_planes.
 * - <asset><mesh> from STL (binary or ASCII), OBJ, or inline vertex/face,
 *   with scale and <compiler meshdir/assetdir>; <hfield> from inline
 *   nrow/ncol/elevation or a PNG file (rows flipped so that the image's top
 *   row is at +y, grey levels normalised to [0, 1] as MuJoCo does).
 * Elements and attributes with no meaning here (rgba, mass, inertial, site,
 * actuator, ...) are reported once each through the log callback and
 * skipped. Malformed XML, missing files and invalid values fail with
 * "file:line: what is wrong"; a failed load leaves the builder unchanged.
 * Bodies, frames and default classes nest to any depth (the loader walks
 * them without recursion). Includes nest at most 16 files deep, a scene
 * includes at most CC_MJCF_MAX_INCLUDES files in all, and the scene's and
 * its includes' XML together hold at most CC_MJCF_MAX_TEXT_BYTES. */
#ifndef CUCONTACT_MJCF_H
#define CUCONTACT_MJCF_H

#include "cucontact/model.h"

/// The most files one scene may include, counting every inclusion.
#define CC_MJCF_MAX_INCLUDES 4096
/// The most bytes of XML a scene and its includes may hold together.
#define CC_MJCF_MAX_TEXT_BYTES (1LL << 30)

#ifdef __cplusplus
extern "C" {
#endif

/// How mesh geoms become shapes.
typedef enum cc_mjcf_mesh_mode {
    CC_MJCF_MESH_AS_MESH = 0,       ///< triangle mesh shapes
    CC_MJCF_MESH_AS_CONVEX_HULL = 1 ///< the convex hull of the mesh's vertices (MuJoCo collides meshes so)
} cc_mjcf_mesh_mode;

typedef struct cc_mjcf_options {
    /// Copies of the scene, one world each (1). Static geometry is loaded once,
    /// global (world -1), unless static_geoms_global is zero.
    int worlds;
    /// Nonzero: static geoms (worldbody geoms and those of bodies welded to the
    /// world) are global, shared by every world (1); zero: copied into each world.
    int static_geoms_global;
    /// Directory of mesh and heightfield files, replacing the file's
    /// <compiler meshdir/assetdir> (NULL: the file's settings, relative to the
    /// file's directory).
    const char* asset_dir;
    cc_mjcf_mesh_mode mesh_mode;   ///< (CC_MJCF_MESH_AS_MESH)
    int hull_max_vertices;         ///< vertex limit of hulls made from meshes (64)
    /// Nonzero: planes with nonzero half sizes are finite rectangles; zero:
    /// every plane is infinite, as MuJoCo collides them (0).
    int finite_planes;
    int32_t cookie; ///< set by cc_default_mjcf_options; do not touch
} cc_mjcf_options;

cc_mjcf_options cc_default_mjcf_options(void);

/// Loads the MJCF file at `path` into `b` (options NULL: the defaults). Geom
/// names become shape names (cc_builder_shape_name). The builder must have no
/// open world. Errors: CC_ERR_IO (a file cannot be read), CC_ERR_PARSE
/// (malformed XML, unknown geom type, bad number, invalid eulerseq, ...),
/// CC_ERR_INVALID_SIZE (a negative or missing size), each with file and line.
cc_status cc_builder_load_mjcf(cc_builder* b, const char* path, const cc_mjcf_options* options);

/// Loads MJCF from a string; relative asset and include paths start at
/// `base_dir` (NULL: the working directory). Messages name it "<string>".
cc_status cc_builder_load_mjcf_string(cc_builder* b, const char* xml, const char* base_dir,
                                      const cc_mjcf_options* options);

#ifdef __cplusplus
}
#endif

#endif
