/* A mesh's SDF in the kernels' format; see sdf_build.h. */
#include "host/geometry/sdf_build.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "host/geometry/bvh_build.h"
#include "host/geometry/sdf_volume.h"
#include "host/geometry/winding.h"
#include "host/testing.h"
#include "kernels/math/closest_points.h"

#if defined(_OPENMP)
#include <omp.h>
#endif

static int use_openvdb = 1;
void cc_testing_sdf_use_openvdb(int on) { use_openvdb = on != 0; }

static void report(const cc_sdf_def* def, float fraction)
{
    if (def->progress) def->progress(fraction, def->progress_user);
}

void cc_sdf_data_free(cc_sdf_data* d)
{
    if (!d) return;
    cc_host_free(d->table);
    cc_host_free(d->codes);
    cc_host_free(d->coarse);
    memset(d, 0, sizeof *d);
}

void cc_sdf_stored_band(const cc_sdf_def* def, float voxel, float* band_lo, float* band_hi)
{
    *band_lo = fmaxf(def->narrow_band_inner, -CC_SDF_BAND_VOXELS * voxel);
    *band_hi = fminf(def->narrow_band_outer, CC_SDF_BAND_VOXELS * voxel);
}

float cc_sdf_voxel_size(const cc_sdf_def* def, cc_vec3 lower, cc_vec3 upper)
{
    if (def->target_voxel_size > 0.0f) return def->target_voxel_size;
    float longest = fmaxf(upper.x - lower.x, fmaxf(upper.y - lower.y, upper.z - lower.z)) + 2.0f * def->margin;
    return longest / (float)def->max_resolution;
}

/* Distance from p to the nearest triangle (the BVH's branch and bound), or
 * `limit` when none is nearer. */
static float nearest_distance(cc_vec3 p, const cc_bvh_node* nodes, const int* prims, const cc_vec3* v, const int* tris,
                              float limit)
{
    float d = limit;
    cc_bvh_closest_triangle(nodes, prims, v, (const cc_mesh_triangle*)tris, p, limit, NULL, &d);
    return d;
}

/* Whether p is inside: OpenVDB's sign `vdb` for a closed mesh, the
 * winding number for an open one (tree non-NULL). */
static int inside_at(const cc_winding_tree* tree, cc_vec3 p, float vdb)
{
    return tree ? cc_winding_number(tree, p) > 0.5f : !(vdb > 0.0f);
}

/* Signs an open mesh's lattice by its winding number: the brick corners
 * (the coarse grid), then each empty brick by its corners. Past a hole the
 * inside ends on the winding number's half-way surface, not on a triangle,
 * so an empty brick can hold both sides: one whose corners disagree is
 * stored too (its samples, at least a band away from every triangle, read
 * the band's value on their own side). */
static cc_status sign_open_lattice(cc_sdf_volume* vol, const cc_winding_tree* tree)
{
    int bx = vol->nx / CC_SDF_BRICK, by = vol->ny / CC_SDF_BRICK, bz = vol->nz / CC_SDF_BRICK;
    int cx = bx + 1, cy = by + 1, cz = bz + 1;
    float span = vol->voxel * CC_SDF_BRICK;
#pragma omp parallel for schedule(dynamic, 16)
    for (int c = 0; c < cx * cy * cz; ++c) {
        int i = c % cx, j = (c / cx) % cy, k = c / (cx * cy);
        cc_vec3 p = cc_v3_add(vol->origin, cc_v3((float)i * span, (float)j * span, (float)k * span));
        vol->coarse_sign[c] = inside_at(tree, p, 1.0f) ? -1 : 1;
    }
    int extra = 0;
    for (int b = 0; b < bx * by * bz; ++b) {
        if (vol->table[b] >= 0) continue;
        int i = b % bx, j = (b / bx) % by, k = b / (bx * by), sum = 0;
        for (int n = 0; n < 8; ++n)
            sum += vol->coarse_sign[((size_t)(k + (n >> 2)) * cy + (j + ((n >> 1) & 1))) * cx + (i + (n & 1))];
        if (sum == 8 || sum == -8) vol->table[b] = sum > 0 ? CC_SDF_OUTSIDE : CC_SDF_INSIDE;
        else vol->table[b] = -3 - extra++; /* stored below */
    }
    if (!extra) return CC_OK;
    if ((int64_t)vol->stored + extra > INT32_MAX / CC_SDF_BRICK_SAMPLES)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_build_mesh_sdf: the field needs more bricks than it can index; use a coarser voxel");
    float* values = (float*)cc_host_realloc(vol->values, sizeof(float) * CC_SDF_BRICK_SAMPLES * (size_t)(vol->stored + extra));
    if (!values) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for %d more bricks", extra);
    vol->values = values;
    for (int b = 0; b < bx * by * bz; ++b)
        if (vol->table[b] <= -3) vol->table[b] = vol->stored + (-3 - vol->table[b]);
    for (size_t n = (size_t)vol->stored * CC_SDF_BRICK_SAMPLES; n < (size_t)(vol->stored + extra) * CC_SDF_BRICK_SAMPLES; ++n)
        values[n] = 1.0f;
    vol->stored += extra;
    return CC_OK;
}

/* Exact distances: OpenVDB's level set says where the band lies and which
 * side is inside, and the nearest triangle how far (OpenVDB's own values,
 * propagated outward from the surface, are off by up to 0.15 voxel two or
 * three voxels out on a tessellated sphere). The band's samples, clamped to
 * the band, then the brick corners. */
/* The band without OpenVDB: the lattice as OpenVDB's, and a brick stored
 * when its centre lies within the band plus the brick's half diagonal of a
 * triangle (a superset of the bricks with a sample in the band). The signs
 * come from the winding number afterwards, as for an open mesh. */
static cc_status own_band(const cc_vec3* v, const int* tris, const cc_bvh_node* nodes, const int* prims, float voxel,
                          cc_vec3 lower, cc_vec3 upper, float band_lo, float band_hi, cc_sdf_volume* vol)
{
    memset(vol, 0, sizeof *vol);
    int first[3];
    cc_sdf_lattice_place(vol, lower, upper, voxel, first);
    int bx = vol->nx / CC_SDF_BRICK, by = vol->ny / CC_SDF_BRICK, bz = vol->nz / CC_SDF_BRICK;
    int bricks = bx * by * bz, corners = (bx + 1) * (by + 1) * (bz + 1);
    vol->table = (int*)cc_host_alloc(sizeof(int) * (size_t)bricks);
    vol->coarse_sign = (signed char*)cc_host_alloc((size_t)corners);
    if (!vol->table || !vol->coarse_sign) {
        cc_sdf_volume_free(vol);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for a lattice of %d bricks", bricks);
    }
    float half = 0.5f * (CC_SDF_BRICK - 1) * voxel, reach = fmaxf(-band_lo, band_hi) + 1.7320508f * half;
#pragma omp parallel for schedule(dynamic, 16)
    for (int b = 0; b < bricks; ++b) {
        int i = b % bx, j = (b / bx) % by, k = b / (bx * by);
        cc_vec3 c = cc_v3_add(vol->origin, cc_v3_scale(cc_v3((float)(i * CC_SDF_BRICK), (float)(j * CC_SDF_BRICK),
                                                               (float)(k * CC_SDF_BRICK)), voxel));
        c = cc_v3_add(c, cc_v3(half, half, half));
        vol->table[b] = nearest_distance(c, nodes, prims, v, tris, reach) < reach ? 0 : CC_SDF_OUTSIDE;
    }
    int stored = 0;
    for (int b = 0; b < bricks; ++b)
        if (vol->table[b] == 0) vol->table[b] = stored++;
    if (stored > INT32_MAX / CC_SDF_BRICK_SAMPLES) {
        cc_sdf_volume_free(vol);
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_build_mesh_sdf: the band needs %d bricks, more than a field can index; use a coarser voxel or a narrower band", stored);
    }
    vol->values = (float*)cc_host_alloc(sizeof(float) * CC_SDF_BRICK_SAMPLES * (size_t)(stored ? stored : 1));
    if (!vol->values) {
        cc_sdf_volume_free(vol);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for %d bricks", stored);
    }
    for (size_t n = 0; n < (size_t)stored * CC_SDF_BRICK_SAMPLES; ++n) vol->values[n] = 1.0f;
    vol->stored = stored;
    return CC_OK;
}

static cc_status exact_distances(const cc_vec3* v, const int* tris, const cc_bvh_node* nodes, const int* prims,
                                 cc_sdf_volume* vol, const cc_winding_tree* tree, float band_lo, float band_hi,
                                 const cc_sdf_def* def, cc_sdf_data* out)
{
    int bx = vol->nx / CC_SDF_BRICK, by = vol->ny / CC_SDF_BRICK, bricks = bx * by * (vol->nz / CC_SDF_BRICK);
    float reach = fmaxf(-band_lo, band_hi);
    int done = 0;
#pragma omp parallel for schedule(dynamic, 8)
    for (int b = 0; b < bricks; ++b) {
        int finished;
#pragma omp atomic capture
        finished = ++done;
#if defined(_OPENMP)
        /* The callback runs on the calling thread only. */
        if (omp_get_thread_num() == 0 && (finished & 63) == 0) report(def, 0.3f + 0.6f * (float)finished / (float)bricks);
#else
        if ((finished & 63) == 0) report(def, 0.3f + 0.6f * (float)finished / (float)bricks);
#endif
        int stored = vol->table[b];
        int i0 = (b % bx) * CC_SDF_BRICK, j0 = ((b / bx) % by) * CC_SDF_BRICK, k0 = (b / (bx * by)) * CC_SDF_BRICK;
        if (stored < 0) continue;
        float* values = vol->values + (size_t)stored * CC_SDF_BRICK_SAMPLES;
        for (int n = 0; n < CC_SDF_BRICK_SAMPLES; ++n) {
            int x = n % CC_SDF_BRICK, y = (n / CC_SDF_BRICK) % CC_SDF_BRICK, z = n / (CC_SDF_BRICK * CC_SDF_BRICK);
            cc_vec3 p = cc_v3_add(vol->origin, cc_v3_scale(cc_v3((float)(i0 + x), (float)(j0 + y), (float)(k0 + z)), vol->voxel));
            float d = nearest_distance(p, nodes, prims, v, tris, reach);
            values[n] = inside_at(tree, p, values[n]) ? fmaxf(-d, band_lo) : fminf(d, band_hi);
        }
    }
    int cx = vol->nx / CC_SDF_BRICK + 1, cy = vol->ny / CC_SDF_BRICK + 1, cz = vol->nz / CC_SDF_BRICK + 1;
    out->coarse_count = cx * cy * cz;
    out->coarse = (float*)cc_host_alloc(sizeof(float) * (size_t)out->coarse_count);
    if (!out->coarse) {
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for %d coarse corners", out->coarse_count);
    }
    float span = vol->voxel * CC_SDF_BRICK;
    for (int k = 0; k < cz; ++k)
        for (int j = 0; j < cy; ++j)
            for (int i = 0; i < cx; ++i) {
                size_t c = ((size_t)k * cy + j) * cx + i;
                cc_vec3 p = cc_v3_add(vol->origin, cc_v3((float)i * span, (float)j * span, (float)k * span));
                out->coarse[c] = (float)vol->coarse_sign[c] * nearest_distance(p, nodes, prims, v, tris, FLT_MAX);
            }
    return CC_OK;
}

cc_status cc_sdf_pack(cc_sdf_volume* vol, float band_lo, float band_hi, float pad, cc_sdf_data* out)
{
    cc_sdf_desc* d = &out->desc;
    memset(d, 0, sizeof *d);
    d->origin = vol->origin;
    d->voxel = vol->voxel;
    d->nx = vol->nx, d->ny = vol->ny, d->nz = vol->nz;
    d->band_lo = band_lo;
    d->band_hi = band_hi;
    d->pad = pad;
    d->scale = cc_v3(1.0f, 1.0f, 1.0f);
    d->mesh = -1;
    out->brick_count = (vol->nx / CC_SDF_BRICK) * (vol->ny / CC_SDF_BRICK) * (vol->nz / CC_SDF_BRICK);
    out->table = vol->table;
    vol->table = NULL;
    out->stored = vol->stored;
    size_t n = (size_t)vol->stored * CC_SDF_BRICK_SAMPLES;
    out->codes = (unsigned short*)cc_host_alloc(sizeof(unsigned short) * (n ? n : 1));
    if (!out->codes) {
        cc_sdf_volume_free(vol);
        cc_sdf_data_free(out);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory for an SDF of %d bricks", out->stored);
    }
    /* Codes round to nearest; the decoded value is what the kernels compute. */
    float range = band_hi - band_lo, err = 0.0f;
    for (size_t i = 0; i < n; ++i) {
        float v = vol->values[i];
        float code = (float)floor(((double)v - band_lo) / range * CC_SDF_CODE_MAX + 0.5);
        code = fminf(fmaxf(code, 0.0f), CC_SDF_CODE_MAX);
        out->codes[i] = (unsigned short)code;
        float decoded = band_lo + code * (range / CC_SDF_CODE_MAX);
        err = fmaxf(err, fabsf(decoded - v));
    }
    out->quantization_error = err;
    cc_sdf_volume_free(vol);
    return CC_OK;
}

cc_status cc_sdf_build(const cc_vec3* vertices, int vertex_count, const int* triangles, int triangle_count,
                       int closed, const cc_sdf_def* def, cc_sdf_data* out)
{
    memset(out, 0, sizeof *out);
    report(def, 0.0f);
    cc_vec3* scaled = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)vertex_count);
    if (!scaled) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for %d vertices", vertex_count);
    cc_vec3 lo = cc_v3_mul(vertices[0], def->scale), hi = lo;
    for (int i = 0; i < vertex_count; ++i) {
        scaled[i] = cc_v3_mul(vertices[i], def->scale);
        lo = cc_v3_min(lo, scaled[i]);
        hi = cc_v3_max(hi, scaled[i]);
    }
    float voxel = cc_sdf_voxel_size(def, lo, hi), band_lo, band_hi;
    cc_sdf_stored_band(def, voxel, &band_lo, &band_hi);
    cc_vec3 pad = cc_v3(def->margin, def->margin, def->margin);
    cc_sdf_volume vol;
    memset(&vol, 0, sizeof vol);
    cc_winding_tree tree;
    memset(&tree, 0, sizeof tree);
    cc_bvh_node* nodes = NULL;
    int node_count = 0, *prims = NULL;
    /* Without OpenVDB the band is found here and every sign comes from the
     * winding number (1 inside a closed mesh, 0 outside). */
    int vdb = cc_sdf_volume_available() && use_openvdb;
    int winding = !closed || !vdb;
    cc_status s = cc_mesh_bvh_build(scaled, triangles, triangle_count, &nodes, &node_count, &prims);
    if (s == CC_OK)
        s = vdb ? cc_sdf_volume_build(scaled, vertex_count, triangles, triangle_count, closed, voxel, cc_v3_sub(lo, pad),
                                      cc_v3_add(hi, pad), band_lo, band_hi, &vol)
                : own_band(scaled, triangles, nodes, prims, voxel, cc_v3_sub(lo, pad), cc_v3_add(hi, pad), band_lo,
                           band_hi, &vol);
    report(def, 0.3f);
    if (s == CC_OK && winding) s = cc_winding_tree_build(scaled, triangles, triangle_count, &tree);
    if (s == CC_OK && winding) s = sign_open_lattice(&vol, &tree);
    if (s == CC_OK)
        s = exact_distances(scaled, triangles, nodes, prims, &vol, winding ? &tree : NULL, band_lo, band_hi, def, out);
    cc_winding_tree_free(&tree);
    cc_host_free(nodes);
    cc_host_free(prims);
    cc_host_free(scaled);
    if (s != CC_OK) {
        cc_sdf_volume_free(&vol);
        cc_sdf_data_free(out);
        return s;
    }
    s = cc_sdf_pack(&vol, band_lo, band_hi, def->margin, out);
    if (s != CC_OK) return s;
    out->desc.shape_margin = def->shape_margin;
    out->desc.scale = def->scale;
    report(def, 1.0f);
    return CC_OK;
}
