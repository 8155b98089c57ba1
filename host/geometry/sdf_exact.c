/* The SDF of a primitive or hull from its exact distance function
 * (host/geometry/primitive_distance.h): the same lattice, band, bricks and
 * coarse grid as a mesh's (sdf_build.c), but every sample is the closed
 * form's, and a brick is stored when the distance at its centre says the
 * band may cross it. */
#include "host/geometry/sdf_exact.h"

#include <math.h>
#include <string.h>

#include "host/geometry/sdf_volume.h"

static float clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

cc_status cc_sdf_build_primitive(const cc_primitive* s, const cc_sdf_def* def, cc_sdf_data* out)
{
    static const char* what = "cc_builder_add_shape";
    memset(out, 0, sizeof *out);
    cc_vec3 lo, hi;
    cc_primitive_bounds(s, &lo, &hi);
    float voxel = cc_sdf_voxel_size(def, lo, hi), band_lo, band_hi;
    cc_sdf_stored_band(def, voxel, &band_lo, &band_hi);
    cc_vec3 pad = cc_v3(def->margin, def->margin, def->margin);
    cc_sdf_volume vol;
    memset(&vol, 0, sizeof vol);
    int first[3];
    cc_sdf_lattice_place(&vol, cc_v3_sub(lo, pad), cc_v3_add(hi, pad), voxel, first);
    int bx = vol.nx / CC_SDF_BRICK, by = vol.ny / CC_SDF_BRICK, bz = vol.nz / CC_SDF_BRICK;
    int bricks = bx * by * bz, cx = bx + 1, cy = by + 1, cz = bz + 1;
    vol.table = (int*)cc_host_alloc(sizeof(int) * (size_t)bricks);
    out->coarse_count = cx * cy * cz;
    out->coarse = (float*)cc_host_alloc(sizeof(float) * (size_t)out->coarse_count);
    if (!vol.table || !out->coarse) {
        cc_sdf_volume_free(&vol);
        cc_sdf_data_free(out);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: no memory for an SDF of %d bricks", what, bricks);
    }
    /* A brick's samples lie within its half diagonal of its centre, and the
     * distance is 1-Lipschitz: past the band by more, the brick is empty. */
    float half = 0.5f * (CC_SDF_BRICK - 1) * voxel, reach = 1.7320508f * half;
    int stored = 0;
    for (int b = 0; b < bricks; ++b) {
        int i = b % bx, j = (b / bx) % by, k = b / (bx * by);
        cc_vec3 c = cc_v3_add(vol.origin, cc_v3((float)(i * CC_SDF_BRICK) * voxel + half, (float)(j * CC_SDF_BRICK) * voxel + half,
                                                (float)(k * CC_SDF_BRICK) * voxel + half));
        double d = cc_primitive_distance(s, c);
        vol.table[b] = d - reach >= band_hi ? CC_SDF_OUTSIDE : (d + reach <= band_lo ? CC_SDF_INSIDE : stored++);
    }
    vol.values = (float*)cc_host_alloc(sizeof(float) * CC_SDF_BRICK_SAMPLES * (size_t)(stored ? stored : 1));
    if (!vol.values) {
        cc_sdf_volume_free(&vol);
        cc_sdf_data_free(out);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: no memory for an SDF of %d bricks", what, stored);
    }
    vol.stored = stored;
#pragma omp parallel for schedule(dynamic, 8)
    for (int b = 0; b < bricks; ++b) {
        if (vol.table[b] < 0) continue;
        float* values = vol.values + (size_t)vol.table[b] * CC_SDF_BRICK_SAMPLES;
        int i0 = (b % bx) * CC_SDF_BRICK, j0 = ((b / bx) % by) * CC_SDF_BRICK, k0 = (b / (bx * by)) * CC_SDF_BRICK;
        for (int n = 0; n < CC_SDF_BRICK_SAMPLES; ++n) {
            int x = n % CC_SDF_BRICK, y = (n / CC_SDF_BRICK) % CC_SDF_BRICK, z = n / (CC_SDF_BRICK * CC_SDF_BRICK);
            cc_vec3 p = cc_v3_add(vol.origin, cc_v3_scale(cc_v3((float)(i0 + x), (float)(j0 + y), (float)(k0 + z)), voxel));
            values[n] = clampf((float)cc_primitive_distance(s, p), band_lo, band_hi);
        }
    }
    float span = voxel * CC_SDF_BRICK;
    for (int k = 0; k < cz; ++k)
        for (int j = 0; j < cy; ++j)
            for (int i = 0; i < cx; ++i) {
                cc_vec3 p = cc_v3_add(vol.origin, cc_v3((float)i * span, (float)j * span, (float)k * span));
                out->coarse[((size_t)k * cy + j) * cx + i] = (float)cc_primitive_distance(s, p);
            }
    cc_status st = cc_sdf_pack(&vol, band_lo, band_hi, def->margin, out); /* frees out on failure */
    if (st != CC_OK) return st;
    out->desc.shape_margin = def->shape_margin;
    return CC_OK;
}
