/* Hooks for the test suite; not part of the public API. */
#ifndef CC_HOST_TESTING_H
#define CC_HOST_TESTING_H

#include "cucontact/cucontact.h"
#include "kernels/contacts/sort_key.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CPU backend: run the narrow phase's pairs in an order scrambled by seed
 * (0 restores the natural order), as GPU scheduling may. */
void cc_testing_shuffle_narrowphase(cc_pipeline* p, unsigned seed);

/* CPU backend: the mesh emit pass recomputes its contacts from shape
 * positions scaled by (1 + relative), as a recomputation that rounds
 * differently would (0 turns it off). */
void cc_testing_jitter_mesh_emit(cc_pipeline* p, float relative);

/* The sort-key layout a pipeline would use for a model of shape_count
 * shapes whose pairs produce sub-keys below sub_count (8 for primitives
 * and convex shapes); CC_OK when it fits. */
cc_status cc_testing_key_layout(int shape_count, uint64_t sub_count, cc_key_layout* out);

/* SDF builds on this process: 0 finds the band and the signs without
 * OpenVDB, as a build without it does; 1 (the default) uses OpenVDB when
 * the build has it. */
void cc_testing_sdf_use_openvdb(int on);

#ifdef __cplusplus
}
#endif

#endif
