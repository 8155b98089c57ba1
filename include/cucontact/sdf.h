/* cuContact: signed distance fields of meshes, the fast path of mesh
 * contacts, and of primitives and hulls (asked for on their shape def). */
#ifndef CUCONTACT_SDF_H
#define CUCONTACT_SDF_H

#include "cucontact/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How an SDF is built. The lattice spacing is uniform: target_voxel_size
/// when it is set, else the longest side of the padded bounds divided by
/// max_resolution.
typedef struct cc_sdf_def {
    int max_resolution;      ///< voxels along the longest side of the padded bounds, a multiple of 8 in [8, 2048] (64)
    float target_voxel_size; ///< voxel size [m]; wins over max_resolution when > 0 (0)
    float narrow_band_inner; ///< inner edge of the band of stored samples [m], negative (-0.1)
    float narrow_band_outer; ///< outer edge of the band [m], positive (0.1)
    float margin;            ///< padding of the mesh bounds [m]; keep it at least the shapes' margin + gap (0.05)
    float shape_margin;      ///< subtracted from the field when sampled, not part of the build [m] (0)
    cc_vec3 scale;           ///< mesh scale baked into the field; shapes with this size use it ((1, 1, 1))
    /// Edges whose two triangles meet within this angle of flat are left out
    /// of the edge queries [rad]; 0 or negative keeps every edge (0.1 deg =
    /// 0.00174533).
    float edge_lower_angle_threshold;
    /// Nonzero: also leave out concave edges whose two ends are fully
    /// concave (every neighbour on or above the end's tangent plane): no
    /// other surface can touch them first (1).
    int edge_concave_filter;
    /// Nonzero: also leave out edges lying wholly inside another, longer
    /// edge's box, which on a densely tessellated curved surface adds
    /// nothing that edge's search does not find (0). The box spans its edge
    /// along it, and either side of it across the surface and along its
    /// two triangles' mean normal the half sizes below: metres when > 0,
    /// else the fraction of the mesh's (scaled) bounding-box diagonal.
    int edge_box_absorption;
    float edge_box_half_normal;      ///< [m] (0: use the fraction)
    float edge_box_half_normal_rel;  ///< of the diagonal (0.0025)
    float edge_box_half_lateral;     ///< [m] (0: use the fraction)
    float edge_box_half_lateral_rel; ///< of the diagonal (0.01)
    /// Folder of the on-disk cache, or NULL for none (NULL). A build is
    /// looked up by a hash of the mesh and every parameter above but
    /// shape_margin and the edge options; a hit is bit-identical to a fresh
    /// build. A truncated, corrupt or foreign file is rebuilt and replaced;
    /// a missing or read-only folder is a logged warning, not a failure.
    const char* cache_dir;
    /// Called on the calling thread with the fraction of the build done, 0
    /// first and 1 last (NULL).
    void (*progress)(float fraction, void* user);
    void* progress_user; ///< passed to progress (NULL)
    int32_t cookie; ///< set by cc_default_sdf_def; do not touch
} cc_sdf_def;

cc_sdf_def cc_default_sdf_def(void);

/// Builds the SDF of mesh `mesh` at def->scale and attaches it: at finalize
/// every mesh shape of that mesh whose size equals the scale collides
/// through it (the others keep the BVH route). OpenVDB (when the build has
/// it) finds the narrow band; the stored values are exact distances to the
/// triangles, negative inside: for a watertight mesh the inside OpenVDB
/// floods, for an open mesh (or without OpenVDB) where its generalised
/// winding number exceeds 1/2 (a box with a face missing still has an
/// inside). One SDF per (mesh, scale); building another for the same pair
/// fails. Writes the SDF's index to *out_sdf (may be NULL). Fails, changing
/// nothing, on a mesh index the builder does not hold, an invalid def field
/// (named in the message) and a lattice over 2^31 samples.
cc_status cc_builder_build_mesh_sdf(cc_builder* b, int mesh, const cc_sdf_def* def, int* out_sdf);

/// Attaches level-set grid `grid_name` (NULL or "": the file's first float
/// grid) of the OpenVDB file `path` as the SDF of mesh `mesh` at `scale`,
/// in place of building one: the grid's world frame is the mesh's scaled
/// frame, its values signed distances (negative inside). The band stored is
/// the grid's (its background), at most 8 voxels either side. Fails,
/// changing nothing and naming the file: a file that cannot be read
/// (missing, truncated, not OpenVDB; CC_ERR_PARSE or CC_ERR_IO), a missing
/// grid (the message lists the file's grids), a grid that is not a float
/// level set, voxels that are not uniform cubes along the axes, non-finite
/// values; CC_ERR_UNSUPPORTED in a build without OpenVDB.
cc_status cc_builder_load_mesh_sdf_vdb(cc_builder* b, int mesh, const char* path, const char* grid_name, cc_vec3 scale,
                                       int* out_sdf);

/// Adds the level set `grid_name` (NULL or "": the file's first float grid)
/// of the OpenVDB file `path` as a mesh with that SDF, at scale (1, 1, 1):
/// the mesh is the grid's zero level (a vertex per voxel the surface
/// crosses, in the grid's world frame, facing out), so shapes made of it
/// with cc_builder_add_mesh at size (1, 1, 1) collide with everything a
/// mesh collides with, and with other meshes through the field. Writes the
/// mesh's index to *out_mesh and the SDF's to *out_sdf (either may be
/// NULL). Fails, changing nothing and naming the file, as
/// cc_builder_load_mesh_sdf_vdb does, and on a level set that never
/// crosses zero.
cc_status cc_builder_add_sdf_vdb(cc_builder* b, const char* path, const char* grid_name, int* out_mesh, int* out_sdf);

/// What an SDF holds.
typedef struct cc_sdf_info {
    int mesh;                  ///< the mesh it was built from, or -1 for a primitive's or hull's
    cc_shape_type shape_type;  ///< CC_SHAPE_MESH, or the primitive's or hull's type
    cc_vec3 scale;             ///< the mesh scale baked in ((1, 1, 1) for a primitive's)
    float voxel_size;          ///< [m]
    float band[2];             ///< the band stored: the def's, at most 8 voxels either side [m]
    int samples[3];            ///< lattice samples per axis
    int bricks;                ///< bricks of the lattice
    int stored_bricks;         ///< bricks holding samples (the rest are empty)
    int edges;                 ///< edges of the mesh its queries use, after simplification (0 for a primitive's)
    float quantization_error;  ///< largest difference of a stored sample from the built field [m]
    size_t device_bytes;       ///< what the SDF occupies in the model's pools
} cc_sdf_info;

int cc_builder_sdf_count(const cc_builder* b);
cc_status cc_builder_get_sdf_info(const cc_builder* b, int sdf, cc_sdf_info* out);

/// Samples SDF `sdf` at `count` points of the mesh frame (scaled) [m]:
/// the distance (negative inside) and, when `gradients` is not NULL, the
/// field's gradient, as the narrow phase reads them: about unit length in
/// the band (interpolation stretches or shortens it by a few percent near
/// curved or sharp features), the coarse grid's past it. The narrow phase
/// normalises the gradient for a normal.
cc_status cc_builder_sample_sdf(const cc_builder* b, int sdf, const cc_vec3* points, int count, float* distances,
                                cc_vec3* gradients);

#ifdef __cplusplus
}
#endif

#endif
