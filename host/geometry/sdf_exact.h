/* SDFs of primitives and hulls from their exact distance functions. */
#ifndef CC_HOST_GEOMETRY_SDF_EXACT_H
#define CC_HOST_GEOMETRY_SDF_EXACT_H

#include "host/geometry/primitive_distance.h"
#include "host/geometry/sdf_build.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The field of primitive s with the def's lattice (over the primitive's
 * bounds), band (at most CC_SDF_BAND_VOXELS voxels either side), padding
 * (def->margin) and shape_margin, checked by the caller. Every stored
 * sample and coarse corner is the exact distance; the only error is the
 * quantisation's. */
cc_status cc_sdf_build_primitive(const cc_primitive* s, const cc_sdf_def* def, cc_sdf_data* out);

#ifdef __cplusplus
}
#endif

#endif
