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
 * - margin and gap as MuJoCo 4 reads them: a pair is detected when the
 *   surface distance is below margin_a + margin_b + gap_a + gap_b and acts
 *   below margin_a + margin_b. The shapes take the geoms' margin and gap
 *   unchanged (margin_semantics selects MuJoCo 3.4's rule for older files).
 * - planes are infinite for collisions, as in MuJoCo, unless finite_planes.
 * - <asset><mesh> from STL (binary or ASCII), OBJ, MSH (MuJoCo's legacy
 *   binary format) or inline vertex/face, with scale, maxhullvert and
 *   <compiler meshdir/assetdir>. Mesh geoms collide as the convex hulls of
 *   their vertices, as in MuJoCo, unless mesh_mode keeps triangle meshes.
 * - <hfield> from inline nrow/ncol/elevation or a PNG file; in both the
 *   first row given is the far (+y) edge, as MuJoCo reads them, and values
 *   are normalised to [0, 1].
 * - <contact><pair geom1 geom2 margin gap friction> becomes a contact pair
 *   (cc_builder_add_contact_pair): the two geoms collide whatever their
 *   bits and filters, with the pair's margin and gap (0 unless given, as in
 *   MuJoCo) in place of the geoms', and its friction (tangential,
 *   torsional and rolling; isotropic) in the step. condim and the solver
 *   parameters are reported and ignored.
 * - files may have <mujoco> or <mujocoinclude> roots; several top-level
 *   <default> blocks add to the main class, as in MuJoCo.
 * Elements and attributes with no meaning here (rgba, mass, site, actuator,
 * ...) are summed up at the end of the load, one note per kind with a count
 * and the first place (every occurrence with report_every_note). Malformed
 * XML, missing files and invalid values fail with "file:line: what is
 * wrong"; a failed load leaves the builder unchanged.
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

/// How geom margins and gaps combine.
typedef enum cc_mjcf_margin_semantics {
    /// MuJoCo 4: the pair detects below the sum of margins and gaps and acts
    /// below the sum of margins; each shape keeps its geom's margin and gap.
    CC_MJCF_MARGIN_MUJOCO4 = 0,
    /// MuJoCo 3.4 and older: the pair's margin is the larger geom margin,
    /// contacts act below margin - gap. Each shape takes (margin - gap) / 2
    /// as its margin and gap / 2 as its gap, exact for two geoms with equal
    /// settings (the mean instead of the larger otherwise).
    CC_MJCF_MARGIN_MUJOCO3 = 1
} cc_mjcf_margin_semantics;

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
    cc_mjcf_mesh_mode mesh_mode;   ///< (CC_MJCF_MESH_AS_CONVEX_HULL, as MuJoCo)
    /// Vertex limit of hulls made from meshes, 4..4096, where the mesh has no
    /// maxhullvert; 0 keeps the whole hull as MuJoCo does (up to 4096) (0).
    int hull_max_vertices;
    cc_mjcf_margin_semantics margin_semantics; ///< (CC_MJCF_MARGIN_MUJOCO4)
    /// Nonzero: every ignored element and attribute is logged where it
    /// occurs, not only summed up per kind at the end (0).
    int report_every_note;
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
