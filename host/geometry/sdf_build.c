/* A mesh's SDF in the kernels' format; see sdf_build.h. */
#include "host/geometry/sdf_build.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "host/geometry/bvh_build.h"
#include "host/geometry/nearest_block.h"
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

/* Whether p is inside by the winding number (over 1/2). */
static int inside_by_winding(const cc_winding_tree* tree, cc_vec3 p) { return cc_winding_number(tree, p) > 0.5f; }

/* Sample (i, j, k) of the lattice [m]. */
static cc_vec3 sample_point(const cc_sdf_volume* vol, int i, int j, int k)
{
    return cc_v3_add(vol->origin, cc_v3_scale(cc_v3((float)i, (float)j, (float)k), vol->voxel));
}

/* Signs the empty bricks of a lattice signed by the winding number (its
 * stored bricks are): the brick corners (the coarse grid), then each empty
 * brick by its corners. Past a hole the inside ends on the winding
 * number's half-way surface, not on a triangle, so an empty brick can hold
 * both sides: one whose corners disagree is stored too, its samples (at
 * least a band away from every triangle) reading the band's edge on their
 * own side. */
static cc_status sign_open_lattice(cc_sdf_volume* vol, const cc_winding_tree* tree, float band_lo, float band_hi)
{
    int bx = vol->nx / CC_SDF_BRICK, by = vol->ny / CC_SDF_BRICK, bz = vol->nz / CC_SDF_BRICK;
    int cx = bx + 1, cy = by + 1, cz = bz + 1;
    float span = vol->voxel * CC_SDF_BRICK;
#pragma omp parallel for schedule(dynamic, 16)
    for (int c = 0; c < cx * cy * cz; ++c) {
        int i = c % cx, j = (c / cx) % cy, k = c / (cx * cy);
        cc_vec3 p = cc_v3_add(vol->origin, cc_v3((float)i * span, (float)j * span, (float)k * span));
        vol->coarse_sign[c] = inside_by_winding(tree, p) ? -1 : 1;
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
#pragma omp parallel for schedule(dynamic, 1)
    for (int b = 0; b < bx * by * bz; ++b) {
        if (vol->table[b] < vol->stored) continue;
        int i0 = (b % bx) * CC_SDF_BRICK, j0 = ((b / bx) % by) * CC_SDF_BRICK, k0 = (b / (bx * by)) * CC_SDF_BRICK;
        float* dst = values + (size_t)vol->table[b] * CC_SDF_BRICK_SAMPLES;
        for (int n = 0; n < CC_SDF_BRICK_SAMPLES; ++n) {
            cc_vec3 p = sample_point(vol, i0 + n % CC_SDF_BRICK, j0 + n / CC_SDF_BRICK % CC_SDF_BRICK,
                                     k0 + n / (CC_SDF_BRICK * CC_SDF_BRICK));
            dst[n] = inside_by_winding(tree, p) ? band_lo : band_hi;
        }
    }
    vol->stored += extra;
    return CC_OK;
}

/* Exact distances from the brick corners (the coarse grid) to the nearest
 * triangle, unsigned. */
static cc_status corner_distances(const cc_vec3* v, const int* tris, const cc_bvh_node* nodes, const int* prims,
                                  const cc_sdf_volume* lattice, float** out, int* count)
{
    int cx = lattice->nx / CC_SDF_BRICK + 1, cy = lattice->ny / CC_SDF_BRICK + 1, cz = lattice->nz / CC_SDF_BRICK + 1;
    *count = cx * cy * cz;
    *out = (float*)cc_host_alloc(sizeof(float) * (size_t)*count);
    if (!*out) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for %d coarse corners", *count);
    float span = lattice->voxel * CC_SDF_BRICK;
    /* Corners deep inside cost the most (many triangles nearly as near). */
#pragma omp parallel for schedule(dynamic, 16)
    for (int c = 0; c < *count; ++c) {
        int i = c % cx, j = (c / cx) % cy, k = c / (cx * cy);
        cc_vec3 p = cc_v3_add(lattice->origin, cc_v3((float)i * span, (float)j * span, (float)k * span));
        (*out)[c] = nearest_distance(p, nodes, prims, v, tris, FLT_MAX);
    }
    return CC_OK;
}

/* The bricks that may hold a sample inside the band: every sample lies
 * within half a brick's diagonal of one of its brick's corners, and the
 * distance changes no faster than the point, so a brick whose corners are
 * all farther than the band plus that half diagonal holds none. */
static unsigned char* wanted_bricks(const cc_sdf_volume* lattice, const float* corner, float reach)
{
    int bx = lattice->nx / CC_SDF_BRICK, by = lattice->ny / CC_SDF_BRICK, bz = lattice->nz / CC_SDF_BRICK;
    int cx = bx + 1, cy = by + 1;
    float within = reach + 0.5f * 1.7320508f * CC_SDF_BRICK * lattice->voxel * 1.001f; /* a little over, for rounding */
    unsigned char* wanted = (unsigned char*)cc_host_alloc((size_t)bx * by * bz);
    if (!wanted) return NULL;
    for (int b = 0; b < bx * by * bz; ++b) {
        int i = b % bx, j = (b / bx) % by, k = b / (bx * by);
        float nearest = FLT_MAX;
        for (int n = 0; n < 8; ++n)
            nearest = fminf(nearest, corner[((size_t)(k + (n >> 2)) * cy + (j + ((n >> 1) & 1))) * cx + (i + (n & 1))]);
        wanted[b] = nearest < within;
    }
    return wanted;
}

/* The lattice the winding number signs (an open mesh, or a build without
 * OpenVDB): the wanted bricks stored, their values for measure_brick to
 * fill, the corners' signs for sign_open_lattice. */
static cc_status own_lattice(float voxel, cc_vec3 lower, cc_vec3 upper, const unsigned char* wanted, cc_sdf_volume* vol)
{
    memset(vol, 0, sizeof *vol);
    int first[3];
    cc_sdf_lattice_place(vol, lower, upper, voxel, first);
    int bx = vol->nx / CC_SDF_BRICK, by = vol->ny / CC_SDF_BRICK, bz = vol->nz / CC_SDF_BRICK;
    int bricks = bx * by * bz, corners = (bx + 1) * (by + 1) * (bz + 1), stored = 0;
    for (int b = 0; b < bricks; ++b) stored += wanted[b] != 0;
    if (stored > INT32_MAX / CC_SDF_BRICK_SAMPLES)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_build_mesh_sdf: the band needs %d bricks, more than a field can index; use a coarser voxel or a narrower band", stored);
    vol->table = (int*)cc_host_alloc(sizeof(int) * (size_t)bricks);
    vol->coarse_sign = (signed char*)cc_host_alloc((size_t)corners);
    vol->values = (float*)cc_host_alloc(sizeof(float) * CC_SDF_BRICK_SAMPLES * (size_t)(stored ? stored : 1));
    if (!vol->table || !vol->coarse_sign || !vol->values) {
        cc_sdf_volume_free(vol);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for a lattice of %d bricks, %d of them stored", bricks, stored);
    }
    int next = 0;
    for (int b = 0; b < bricks; ++b) vol->table[b] = wanted[b] ? next++ : CC_SDF_OUTSIDE;
    for (size_t n = 0; n < (size_t)stored * CC_SDF_BRICK_SAMPLES; ++n) vol->values[n] = 1.0f;
    vol->stored = stored;
    return CC_OK;
}

/* What measuring the samples needs. */
typedef struct lattice_job {
    const cc_vec3* v;
    const int* tris;
    const cc_bvh_node* nodes;
    const int* prims;
    cc_sdf_volume* vol;
    const cc_winding_tree* tree; /* signs by the winding number, else by OpenVDB's signs in the values */
    float band_lo, band_hi;
    float reach; /* the farther of the band's edges [m] */
    float sure;  /* past this from a triangle, surely past the band (float distances err far less) */
} lattice_job;

/* Blocks of 4^3 samples, measured from their centres first. */
#define CC_SDF_PROBE 4
#define CC_SDF_PROBE_SAMPLES (CC_SDF_PROBE * CC_SDF_PROBE * CC_SDF_PROBE)

/* The clamped signed value of a sample at distance d on the side its
 * value holds now (OpenVDB's sign). */
static float signed_value(const lattice_job* job, float d, float sign)
{
    return !(sign > 0.0f) ? fmaxf(-d, job->band_lo) : fminf(d, job->band_hi);
}

/* The samples of block `block` of the brick at sample (i0, j0, k0), whose
 * centre lies `probe` from the nearest triangle: a sample that puts past
 * the band reads the band's edge without a search (the distance changes no
 * faster than the point); the others are within the probe plus their
 * offset of a triangle, which bounds the triangles their block search
 * gathers. Signed by OpenVDB; for the winding number unsigned, for the
 * caller to sign. */
static cc_status measure_block(const lattice_job* job, int i0, int j0, int k0, int block, cc_vec3 centre, float probe,
                               float half_diagonal, float* values, cc_nearest_scratch* scratch)
{
    cc_vec3 points[CC_SDF_PROBE_SAMPLES];
    int index[CC_SDF_PROBE_SAMPLES], searched = 0;
    float found[CC_SDF_PROBE_SAMPLES];
    int x0 = (block & 1) * CC_SDF_PROBE, y0 = ((block >> 1) & 1) * CC_SDF_PROBE, z0 = (block >> 2) * CC_SDF_PROBE;
    for (int z = z0; z < z0 + CC_SDF_PROBE; ++z)
        for (int y = y0; y < y0 + CC_SDF_PROBE; ++y)
            for (int x = x0; x < x0 + CC_SDF_PROBE; ++x) {
                int n = (z * CC_SDF_BRICK + y) * CC_SDF_BRICK + x;
                cc_vec3 p = sample_point(job->vol, i0 + x, j0 + y, k0 + z);
                if (probe - cc_v3_length(cc_v3_sub(p, centre)) >= job->sure) {
                    values[n] = job->tree ? job->reach : signed_value(job, job->reach, values[n]);
                    continue;
                }
                points[searched] = p;
                index[searched++] = n;
            }
    if (!searched) return CC_OK;
    cc_status s = cc_nearest_block(job->nodes, job->prims, job->v, job->tris, points, searched, job->reach,
                                   probe + half_diagonal + 0.01f * job->vol->voxel, scratch, found);
    if (s != CC_OK) return s;
    for (int q = 0; q < searched; ++q)
        values[index[q]] = job->tree ? found[q] : signed_value(job, found[q], values[index[q]]);
    return CC_OK;
}

/* Brick b's samples: the distance to the nearest triangle, signed by the
 * side the sample holds, clamped to the band. */
static cc_status measure_brick(const lattice_job* job, int b, cc_nearest_scratch* scratch)
{
    const cc_sdf_volume* vol = job->vol;
    int bx = vol->nx / CC_SDF_BRICK, by = vol->ny / CC_SDF_BRICK;
    int i0 = (b % bx) * CC_SDF_BRICK, j0 = ((b / bx) % by) * CC_SDF_BRICK, k0 = (b / (bx * by)) * CC_SDF_BRICK;
    float* values = vol->values + (size_t)vol->table[b] * CC_SDF_BRICK_SAMPLES;
    float half = 0.5f * (CC_SDF_PROBE - 1) * vol->voxel, half_diagonal = 1.7320508f * half;
    cc_vec3 centres[8];
    float probes[8];
    for (int block = 0; block < 8; ++block) {
        cc_vec3 first = sample_point(vol, i0 + (block & 1) * CC_SDF_PROBE, j0 + ((block >> 1) & 1) * CC_SDF_PROBE,
                                     k0 + (block >> 2) * CC_SDF_PROBE);
        centres[block] = cc_v3_add(first, cc_v3(half, half, half));
    }
    float far = job->sure + half_diagonal;
    cc_status s = cc_nearest_block(job->nodes, job->prims, job->v, job->tris, centres, 8, far, far, scratch, probes);
    for (int block = 0; block < 8 && s == CC_OK; ++block)
        s = measure_block(job, i0, j0, k0, block, centres[block], probes[block], half_diagonal, values, scratch);
    if (s != CC_OK || !job->tree) return s;
    /* A winding number costs more than a distance: only a brick with a
     * sample inside the band takes one per sample; the others go empty,
     * their sides decided by their corners (sign_open_lattice). */
    int banded = 0;
    for (int n = 0; n < CC_SDF_BRICK_SAMPLES; ++n) banded |= values[n] < job->reach;
    for (int n = 0; n < CC_SDF_BRICK_SAMPLES; ++n) {
        if (!banded) {
            values[n] = job->band_hi;
            continue;
        }
        cc_vec3 p = sample_point(vol, i0 + n % CC_SDF_BRICK, j0 + n / CC_SDF_BRICK % CC_SDF_BRICK,
                                 k0 + n / (CC_SDF_BRICK * CC_SDF_BRICK));
        values[n] = signed_value(job, values[n], inside_by_winding(job->tree, p) ? -1.0f : 1.0f);
    }
    return CC_OK;
}

/* Every stored brick's samples (measure_brick), on every thread. */
static cc_status exact_distances(const cc_vec3* v, const int* tris, const cc_bvh_node* nodes, const int* prims,
                                 cc_sdf_volume* vol, const cc_winding_tree* tree, float band_lo, float band_hi,
                                 const cc_sdf_def* def)
{
    lattice_job job = {v, tris, nodes, prims, vol, tree, band_lo, band_hi, fmaxf(-band_lo, band_hi), 0.0f};
    job.sure = job.reach + 0.01f * vol->voxel;
    int bricks = (vol->nx / CC_SDF_BRICK) * (vol->ny / CC_SDF_BRICK) * (vol->nz / CC_SDF_BRICK);
    int done = 0, failed = 0;
#pragma omp parallel
    {
        cc_nearest_scratch scratch;
        memset(&scratch, 0, sizeof scratch);
#pragma omp for schedule(dynamic, 8)
        for (int b = 0; b < bricks; ++b) {
            int finished;
#pragma omp atomic capture
            finished = ++done;
#if defined(_OPENMP)
            /* The callback runs on the calling thread only. */
            if (omp_get_thread_num() == 0 && (finished & 63) == 0)
                report(def, 0.4f + 0.5f * (float)finished / (float)bricks);
#else
            if ((finished & 63) == 0) report(def, 0.4f + 0.5f * (float)finished / (float)bricks);
#endif
            if (vol->table[b] >= 0 && measure_brick(&job, b, &scratch) != CC_OK) {
#pragma omp atomic write
                failed = 1;
            }
        }
        cc_nearest_scratch_free(&scratch);
    }
    if (failed) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for the triangles near a block of samples");
    return CC_OK;
}

/* Empties the stored bricks whose samples all read one edge of the band:
 * the empty brick reads the same, and memory goes to the surface only. */
static void drop_clamped_bricks(cc_sdf_volume* vol, float band_lo, float band_hi)
{
    int bricks = (vol->nx / CC_SDF_BRICK) * (vol->ny / CC_SDF_BRICK) * (vol->nz / CC_SDF_BRICK), next = 0;
    for (int b = 0; b < bricks; ++b) {
        int stored = vol->table[b];
        if (stored < 0) continue;
        const float* src = vol->values + (size_t)stored * CC_SDF_BRICK_SAMPLES;
        int above = 0, below = 0;
        for (int n = 0; n < CC_SDF_BRICK_SAMPLES; ++n) {
            above += src[n] >= band_hi;
            below += src[n] <= band_lo;
        }
        if (above == CC_SDF_BRICK_SAMPLES || below == CC_SDF_BRICK_SAMPLES) {
            vol->table[b] = above ? CC_SDF_OUTSIDE : CC_SDF_INSIDE;
            continue;
        }
        if (next != stored)
            memmove(vol->values + (size_t)next * CC_SDF_BRICK_SAMPLES, src, sizeof(float) * CC_SDF_BRICK_SAMPLES);
        vol->table[b] = next++;
    }
    vol->stored = next;
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
    cc_vec3 lower = cc_v3_sub(lo, pad), upper = cc_v3_add(hi, pad);
    cc_sdf_volume vol;
    memset(&vol, 0, sizeof vol);
    int first[3];
    cc_sdf_lattice_place(&vol, lower, upper, voxel, first);
    cc_winding_tree tree;
    memset(&tree, 0, sizeof tree);
    cc_bvh_node* nodes = NULL;
    int node_count = 0, *prims = NULL;
    unsigned char* wanted = NULL;
    float* corner = NULL;
    /* The corners' distances say which bricks may hold the band; those are
     * signed (by OpenVDB or the winding number), then measured exactly
     * (OpenVDB's own values, propagated out from the surface, are off by up
     * to 0.15 voxel a few voxels out), and the bricks that turn out wholly
     * past the band are emptied again. */
    /* OpenVDB signs a closed mesh; otherwise (an open mesh, or a build
     * without OpenVDB) every sign comes from the winding number (1 inside a
     * closed mesh, 0 outside). */
    int winding = !closed || !(cc_sdf_volume_available() && use_openvdb);
    cc_status s = cc_mesh_bvh_build(scaled, triangles, triangle_count, &nodes, &node_count, &prims);
    if (s == CC_OK) s = corner_distances(scaled, triangles, nodes, prims, &vol, &corner, &out->coarse_count);
    report(def, 0.1f);
    if (s == CC_OK && !(wanted = wanted_bricks(&vol, corner, fmaxf(-band_lo, band_hi))))
        s = cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for a lattice of %dx%dx%d samples", vol.nx, vol.ny, vol.nz);
    if (s == CC_OK)
        s = winding ? own_lattice(voxel, lower, upper, wanted, &vol)
                    : cc_sdf_volume_build(scaled, vertex_count, triangles, triangle_count, voxel, lower, upper, wanted, &vol);
    report(def, 0.4f);
    if (s == CC_OK && winding) s = cc_winding_tree_build(scaled, triangles, triangle_count, &tree);
    if (s == CC_OK) s = exact_distances(scaled, triangles, nodes, prims, &vol, winding ? &tree : NULL, band_lo, band_hi, def);
    if (s == CC_OK) drop_clamped_bricks(&vol, band_lo, band_hi);
    if (s == CC_OK && winding) s = sign_open_lattice(&vol, &tree, band_lo, band_hi);
    if (s == CC_OK) {
        for (int c = 0; c < out->coarse_count; ++c) corner[c] *= (float)vol.coarse_sign[c];
        out->coarse = corner;
        corner = NULL;
    }
    cc_host_free(corner);
    cc_host_free(wanted);
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
