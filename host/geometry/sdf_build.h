/* A mesh's signed distance field in the kernels' format (kernels/shapes/sdf.h),
 * built on the host: exact distances at the brick corners and, in the bricks
 * they say the band may reach, at every sample (nearest_block.h); the sides
 * from OpenVDB (sdf_volume.h) or the winding number; the samples quantised. */
#ifndef CC_HOST_GEOMETRY_SDF_BUILD_H
#define CC_HOST_GEOMETRY_SDF_BUILD_H

#include "kernels/shapes/sdf.h"
#include "host/geometry/sdf_volume.h"
#include "host/internal.h"
#include "cucontact/sdf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_sdf_data {
    cc_sdf_desc desc;      /* the pool offsets are filled at finalize */
    int* table;            /* brick_count entries */
    int brick_count;
    unsigned short* codes; /* stored * CC_SDF_BRICK_SAMPLES */
    int stored;
    float* coarse;         /* coarse_count exact signed distances at the brick corners */
    int coarse_count;
    float quantization_error; /* largest |decoded - built| [m] */
} cc_sdf_data;

/* The field of the mesh (unscaled vertices, 3 indices a triangle) scaled
 * by def->scale, with the def's lattice, band and padding (checked by the
 * caller). A closed (watertight) mesh takes OpenVDB's inside; an open one
 * is signed by its generalised winding number (inside where it exceeds
 * 1/2), so that a box with a face missing still has an inside. */
cc_status cc_sdf_build(const cc_vec3* vertices, int vertex_count, const int* triangles, int triangle_count,
                       int closed, const cc_sdf_def* def, cc_sdf_data* out);
void cc_sdf_data_free(cc_sdf_data* d);

/* Packs a built band (clamped to [band_lo, band_hi]) into out: takes the
 * volume's brick table, quantises its values, and frees the rest of it.
 * out->coarse is the caller's (set before or after). `pad` is how far the
 * lattice reaches past the surface at least. */
cc_status cc_sdf_pack(cc_sdf_volume* vol, float band_lo, float band_hi, float pad, cc_sdf_data* out);

/* The band stored for the def at spacing `voxel`: the def's, at most
 * CC_SDF_BAND_VOXELS voxels either side [m]. */
void cc_sdf_stored_band(const cc_sdf_def* def, float voxel, float* band_lo, float* band_hi);

/* The voxel size the def asks for, for a mesh whose scaled bounds are
 * [lower, upper] (before padding) [m]. */
float cc_sdf_voxel_size(const cc_sdf_def* def, cc_vec3 lower, cc_vec3 upper);

#ifdef __cplusplus
}
#endif

#endif
