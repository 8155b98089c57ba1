/* Signed distance fields of builder meshes, primitives and hulls: the def,
 * the build, what they hold, and sampling them on the host as the kernels
 * do. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cucontact/sdf.h"
#include "host/geometry/mesh_edges.h"
#include "host/geometry/sdf_cache.h"
#include "host/geometry/sdf_exact.h"
#include "host/geometry/sdf_volume.h"
#include "host/model/builder_internal.h"

#define CC_SDF_RESOLUTION_MAX 2048

cc_sdf_def cc_default_sdf_def(void)
{
    cc_sdf_def d;
    memset(&d, 0, sizeof d);
    d.max_resolution = 64;
    d.target_voxel_size = 0.0f;
    d.narrow_band_inner = -0.1f;
    d.narrow_band_outer = 0.1f;
    d.margin = 0.05f;
    d.shape_margin = 0.0f;
    d.scale = cc_v3(1.0f, 1.0f, 1.0f);
    d.edge_lower_angle_threshold = 0.1f * 3.14159265f / 180.0f;
    d.edge_concave_filter = 1;
    d.edge_box_absorption = 0;
    d.edge_box_half_normal = 0.0f;
    d.edge_box_half_normal_rel = 0.0025f;
    d.edge_box_half_lateral = 0.0f;
    d.edge_box_half_lateral_rel = 0.01f;
    d.cookie = CC_DEF_COOKIE;
    return d;
}

static cc_status check_def(const cc_sdf_def* d, const char* what)
{
    if (d->cookie != CC_DEF_COOKIE)
        return cc_fail(CC_ERR_UNINITIALIZED_DEF, "%s: the def was not made by cc_default_sdf_def(); start from it and change fields", what);
    if (d->max_resolution < 8 || d->max_resolution > CC_SDF_RESOLUTION_MAX || d->max_resolution % 8)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: max_resolution %d must be a multiple of 8 in [8, %d]", what, d->max_resolution, CC_SDF_RESOLUTION_MAX);
    if (!isfinite(d->target_voxel_size) || d->target_voxel_size < 0.0f || d->target_voxel_size > CC_SIZE_MAX)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: target_voxel_size %g must be 0 (use max_resolution) or a size in metres", what, (double)d->target_voxel_size);
    if (d->target_voxel_size > 0.0f && d->target_voxel_size < CC_SIZE_MIN)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: target_voxel_size %g is below %g m", what, (double)d->target_voxel_size, (double)CC_SIZE_MIN);
    if (!isfinite(d->narrow_band_inner) || !isfinite(d->narrow_band_outer) || !(d->narrow_band_inner < 0.0f) ||
        !(d->narrow_band_outer > 0.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: narrow band (%g, %g) must be finite, inner negative and outer positive [m]", what, (double)d->narrow_band_inner, (double)d->narrow_band_outer);
    if (!isfinite(d->margin) || d->margin < 0.0f || d->margin > CC_SIZE_MAX)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: margin %g must be a padding >= 0 [m]", what, (double)d->margin);
    if (!isfinite(d->shape_margin) || d->shape_margin < 0.0f || d->shape_margin > CC_SIZE_MAX)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: shape_margin %g must be a distance >= 0 [m]", what, (double)d->shape_margin);
    if (!cc_is_finite_vec3(d->scale) || d->scale.x < CC_SIZE_MIN || d->scale.y < CC_SIZE_MIN || d->scale.z < CC_SIZE_MIN ||
        d->scale.x > CC_SIZE_MAX || d->scale.y > CC_SIZE_MAX || d->scale.z > CC_SIZE_MAX)
        return cc_fail(CC_ERR_INVALID_SIZE, "%s: scale (%g, %g, %g) must lie in [%g, %g] on every axis", what, (double)d->scale.x, (double)d->scale.y, (double)d->scale.z, (double)CC_SIZE_MIN, (double)CC_SIZE_MAX);
    if (!isfinite(d->edge_lower_angle_threshold))
        return cc_fail(CC_ERR_NOT_FINITE, "%s: edge_lower_angle_threshold is not finite; give an angle in radians (negative keeps every edge)", what);
    const float box[4] = {d->edge_box_half_normal, d->edge_box_half_normal_rel, d->edge_box_half_lateral, d->edge_box_half_lateral_rel};
    const char* box_name[4] = {"edge_box_half_normal", "edge_box_half_normal_rel", "edge_box_half_lateral", "edge_box_half_lateral_rel"};
    for (int k = 0; k < 4; ++k)
        if (!isfinite(box[k]) || box[k] < 0.0f || box[k] > CC_SIZE_MAX)
            return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: %s %g must be a size >= 0 (metres, or a fraction of the bounding-box diagonal)", what, box_name[k], (double)box[k]);
    return CC_OK;
}

static int same_scale(cc_vec3 a, cc_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

int cc_sdf_record_copy(const cc_sdf_record* src, cc_sdf_record* dst)
{
    *dst = *src;
    const cc_sdf_data* s = &src->data;
    cc_sdf_data* d = &dst->data;
    size_t codes = (size_t)s->stored * CC_SDF_BRICK_SAMPLES;
    d->table = (int*)cc_host_alloc(sizeof(int) * (size_t)s->brick_count);
    d->codes = (unsigned short*)cc_host_alloc(sizeof(unsigned short) * (codes ? codes : 1));
    d->coarse = (float*)cc_host_alloc(sizeof(float) * (size_t)s->coarse_count);
    if (!d->table || !d->codes || !d->coarse) {
        cc_sdf_data_free(d);
        return 0;
    }
    memcpy(d->table, s->table, sizeof(int) * (size_t)s->brick_count);
    memcpy(d->codes, s->codes, sizeof(unsigned short) * codes);
    memcpy(d->coarse, s->coarse, sizeof(float) * (size_t)s->coarse_count);
    return 1;
}

cc_status cc_builder_build_mesh_sdf(cc_builder* b, int mesh, const cc_sdf_def* def, int* out_sdf)
{
    static const char* what = "cc_builder_build_mesh_sdf";
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    cc_sdf_def d = def ? *def : cc_default_sdf_def();
    cc_status s = check_def(&d, what);
    if (s != CC_OK) return s;
    if (mesh < 0 || mesh >= b->mesh_count)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: mesh %d does not exist (the builder holds %d); use an index from cc_builder_add_mesh_data", what, mesh, b->mesh_count);
    cc_mesh_data* m = &b->meshes[mesh];
    for (int i = 0; i < b->sdf_count; ++i)
        if (b->sdfs[i].mesh == mesh && same_scale(b->sdfs[i].data.desc.scale, d.scale))
            return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: mesh %d already has SDF %d at scale (%g, %g, %g); a mesh takes one SDF per scale", what, mesh, i, (double)d.scale.x, (double)d.scale.y, (double)d.scale.z);
    /* The lattice, before building it: refuse what cannot be indexed. */
    cc_vec3 lo = cc_v3_mul(m->lower, d.scale), hi = cc_v3_mul(m->upper, d.scale);
    cc_vec3 l2 = cc_v3_min(lo, hi), h2 = cc_v3_max(lo, hi);
    float voxel = cc_sdf_voxel_size(&d, l2, h2);
    double samples = 1.0;
    float ext[3] = {h2.x - l2.x, h2.y - l2.y, h2.z - l2.z};
    for (int k = 0; k < 3; ++k) samples *= ((double)ext[k] + 2.0 * d.margin) / voxel + 2.0 * CC_SDF_BRICK;
    if (!(voxel >= CC_SIZE_MIN) || samples > 2147483647.0)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: a voxel of %g m over bounds %g x %g x %g m (padded by %g) makes about %.3g samples, more than a field holds (2^31); use a larger target_voxel_size or a smaller max_resolution", what, (double)voxel, (double)ext[0], (double)ext[1], (double)ext[2], (double)d.margin, samples);
    if (!cc_reserve((void**)&b->sdfs, &b->sdf_capacity, b->sdf_count + 1, sizeof *b->sdfs))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    int* edges = NULL;
    int edge_count = 0;
    /* The edge boxes are in the mesh's own (unscaled) frame, where the
     * edges are chosen: sizes in metres are taken back by the ratio of the
     * diagonals (the scale's, exactly when it is uniform). */
    cc_vec3 span = cc_v3_mul(cc_v3_sub(m->upper, m->lower), d.scale);
    float diagonal = cc_v3_length(span), unscale = diagonal > 0.0f ? cc_v3_length(cc_v3_sub(m->upper, m->lower)) / diagonal : 1.0f;
    cc_edge_boxes boxes;
    boxes.absorb = d.edge_box_absorption;
    boxes.half_normal = unscale * (d.edge_box_half_normal > 0.0f ? d.edge_box_half_normal : d.edge_box_half_normal_rel * diagonal);
    boxes.half_lateral = unscale * (d.edge_box_half_lateral > 0.0f ? d.edge_box_half_lateral : d.edge_box_half_lateral_rel * diagonal);
    s = cc_mesh_collision_edges(m->vertices, m->vertex_count, m->triangles, m->triangle_count,
                                d.edge_lower_angle_threshold, d.edge_concave_filter, &boxes, &edges, &edge_count);
    if (s != CC_OK) return s;
    cc_sdf_record r;
    memset(&r, 0, sizeof r);
    r.mesh = mesh;
    r.shape_type = CC_SHAPE_MESH;
    r.size = d.scale;
    r.source = -1;
    cc_sdf_cache_key key = cc_sdf_cache_key_of(m->vertices, m->vertex_count, m->triangles, m->triangle_count, &d);
    if (d.cache_dir && cc_sdf_cache_load(d.cache_dir, key, &r.data)) {
        if (d.progress) d.progress(1.0f, d.progress_user);
    } else {
        s = cc_sdf_build(m->vertices, m->vertex_count, m->triangles, m->triangle_count, m->bad_edges == 0, &d, &r.data);
        if (s != CC_OK) {
            cc_host_free(edges);
            return s;
        }
        if (d.cache_dir) cc_sdf_cache_store(d.cache_dir, key, &r.data);
    }
    r.data.desc.mesh = mesh;
    r.data.desc.shape_margin = d.shape_margin;
    cc_host_free(m->edges);
    m->edges = edges;
    m->edge_count = edge_count;
    b->sdfs[b->sdf_count] = r;
    if (out_sdf) *out_sdf = b->sdf_count;
    b->sdf_count++;
    return cc_ok();
}

/* Reads level set `grid_name` of `path` into record r (its mesh still to
 * be set), with the grid's zero level in *surface when it is not NULL. */
static cc_status read_vdb(const char* path, const char* grid_name, const char* what, cc_sdf_record* r,
                          cc_sdf_surface* surface)
{
    cc_sdf_volume vol;
    float band = 0.0f, *coarse = NULL;
    int coarse_count = 0;
    cc_status s = cc_sdf_volume_read_vdb(path, grid_name, what, &vol, &band, &coarse, &coarse_count, surface);
    if (s != CC_OK) return s;
    memset(r, 0, sizeof *r);
    r->data.coarse = coarse;
    r->data.coarse_count = coarse_count;
    /* The lattice reaches a brick past the band's voxels, so at least that
     * far past the surface. */
    s = cc_sdf_pack(&vol, -band, band, CC_SDF_BRICK * vol.voxel, &r->data); /* frees vol, and r's data on failure */
    if (s != CC_OK && surface) cc_sdf_surface_free(surface);
    return s;
}

static void attach(cc_builder* b, cc_sdf_record* r, int mesh, cc_vec3 scale, int* out_sdf)
{
    r->mesh = mesh;
    r->shape_type = CC_SHAPE_MESH;
    r->size = scale;
    r->source = -1;
    r->data.desc.scale = scale;
    r->data.desc.mesh = mesh;
    b->sdfs[b->sdf_count] = *r;
    if (out_sdf) *out_sdf = b->sdf_count;
    b->sdf_count++;
}

cc_status cc_builder_load_mesh_sdf_vdb(cc_builder* b, int mesh, const char* path, const char* grid_name, cc_vec3 scale,
                                       int* out_sdf)
{
    static const char* what = "cc_builder_load_mesh_sdf_vdb";
    if (!b || !path) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder or path is NULL", what);
    if (mesh < 0 || mesh >= b->mesh_count)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: mesh %d does not exist (the builder holds %d); use an index from cc_builder_add_mesh_data", what, mesh, b->mesh_count);
    if (!cc_is_finite_vec3(scale) || scale.x < CC_SIZE_MIN || scale.y < CC_SIZE_MIN || scale.z < CC_SIZE_MIN ||
        scale.x > CC_SIZE_MAX || scale.y > CC_SIZE_MAX || scale.z > CC_SIZE_MAX)
        return cc_fail(CC_ERR_INVALID_SIZE, "%s: scale (%g, %g, %g) must lie in [%g, %g] on every axis", what, (double)scale.x, (double)scale.y, (double)scale.z, (double)CC_SIZE_MIN, (double)CC_SIZE_MAX);
    for (int i = 0; i < b->sdf_count; ++i)
        if (b->sdfs[i].mesh == mesh && same_scale(b->sdfs[i].data.desc.scale, scale))
            return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: mesh %d already has SDF %d at scale (%g, %g, %g); a mesh takes one SDF per scale", what, mesh, i, (double)scale.x, (double)scale.y, (double)scale.z);
    if (!cc_reserve((void**)&b->sdfs, &b->sdf_capacity, b->sdf_count + 1, sizeof *b->sdfs))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    cc_sdf_record r;
    cc_status s = read_vdb(path, grid_name, what, &r, NULL);
    if (s != CC_OK) return s;
    attach(b, &r, mesh, scale, out_sdf);
    return cc_ok();
}

cc_status cc_builder_add_sdf_vdb(cc_builder* b, const char* path, const char* grid_name, int* out_mesh, int* out_sdf)
{
    static const char* what = "cc_builder_add_sdf_vdb";
    if (!b || !path) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder or path is NULL", what);
    if (!cc_reserve((void**)&b->sdfs, &b->sdf_capacity, b->sdf_count + 1, sizeof *b->sdfs))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    cc_sdf_record r;
    cc_sdf_surface surface;
    cc_status s = read_vdb(path, grid_name, what, &r, &surface);
    if (s != CC_OK) return s;
    int mesh = -1;
    s = cc_builder_add_mesh_data(b, surface.vertices, surface.vertex_count, surface.triangles, surface.triangle_count,
                                 &mesh);
    cc_sdf_surface_free(&surface);
    if (s != CC_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", cc_last_error_message());
        cc_sdf_data_free(&r.data);
        return cc_fail(s, "%s: the zero level of '%s' is not a usable mesh: %s", what, path, why);
    }
    attach(b, &r, mesh, cc_v3(1.0f, 1.0f, 1.0f), out_sdf);
    if (out_mesh) *out_mesh = mesh;
    return cc_ok();
}

static int same_lattice(const cc_sdf_def* a, const cc_sdf_def* b)
{
    return a->max_resolution == b->max_resolution && a->target_voxel_size == b->target_voxel_size &&
           a->narrow_band_inner == b->narrow_band_inner && a->narrow_band_outer == b->narrow_band_outer &&
           a->margin == b->margin;
}

cc_status cc_sdf_of_primitive(cc_builder* b, int type, cc_vec3 size, int source, const cc_sdf_def* def, const char* what,
                              int* out_sdf)
{
    cc_status s = check_def(def, what);
    if (s != CC_OK) return s;
    for (int i = 0; i < b->sdf_count; ++i) {
        const cc_sdf_record* r = &b->sdfs[i];
        if (r->mesh < 0 && r->shape_type == type && same_scale(r->size, size) && r->source == source &&
            same_lattice(&r->def, def)) {
            *out_sdf = i;
            return CC_OK;
        }
    }
    cc_primitive prim;
    prim.type = type;
    prim.size = size;
    prim.hull = type == CC_SHAPE_CONVEX_HULL ? &b->hulls[source] : NULL;
    cc_vec3 lo, hi;
    cc_primitive_bounds(&prim, &lo, &hi);
    float voxel = cc_sdf_voxel_size(def, lo, hi);
    double samples = 1.0;
    for (int k = 0; k < 3; ++k)
        samples *= ((double)(k == 0 ? hi.x - lo.x : (k == 1 ? hi.y - lo.y : hi.z - lo.z)) + 2.0 * def->margin) / voxel +
                   2.0 * CC_SDF_BRICK;
    if (!(voxel >= CC_SIZE_MIN) || samples > 2147483647.0)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: an SDF voxel of %g m over the %s's bounds (padded by %g) makes about %.3g samples, more than a field holds (2^31); use a larger sdf_target_voxel_size or a smaller sdf_max_resolution",
                       what, (double)voxel, cc_shape_type_name((cc_shape_type)type), (double)def->margin, samples);
    if (!cc_reserve((void**)&b->sdfs, &b->sdf_capacity, b->sdf_count + 1, sizeof *b->sdfs))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    cc_sdf_record r;
    memset(&r, 0, sizeof r);
    r.mesh = -1;
    r.shape_type = type;
    r.size = size;
    r.source = source;
    r.def = *def;
    s = cc_sdf_build_primitive(&prim, def, &r.data);
    if (s != CC_OK) return s;
    r.data.desc.mesh = -1;
    b->sdfs[b->sdf_count] = r;
    *out_sdf = b->sdf_count++;
    return CC_OK;
}

int cc_shape_sdf_of(const cc_builder* b, const cc_shape_record* r)
{
    if (r->type != CC_SHAPE_MESH) return r->sdf;
    for (int i = 0; i < b->sdf_count; ++i)
        if (b->sdfs[i].mesh == r->source && same_scale(b->sdfs[i].data.desc.scale, r->size)) return i;
    return -1;
}

int cc_builder_sdf_count(const cc_builder* b) { return b ? b->sdf_count : 0; }

static cc_status check_sdf(const cc_builder* b, int sdf, const char* what)
{
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    if (sdf < 0 || sdf >= b->sdf_count)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: SDF %d does not exist (the builder holds %d); use an index from cc_builder_build_mesh_sdf", what, sdf, b->sdf_count);
    return CC_OK;
}

cc_status cc_builder_get_sdf_info(const cc_builder* b, int sdf, cc_sdf_info* out)
{
    cc_status s = check_sdf(b, sdf, "cc_builder_get_sdf_info");
    if (s != CC_OK) return s;
    if (!out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_get_sdf_info: out is NULL");
    const cc_sdf_data* d = &b->sdfs[sdf].data;
    memset(out, 0, sizeof *out);
    out->mesh = b->sdfs[sdf].mesh;
    out->shape_type = (cc_shape_type)b->sdfs[sdf].shape_type;
    out->scale = d->desc.scale;
    out->voxel_size = d->desc.voxel;
    out->band[0] = d->desc.band_lo;
    out->band[1] = d->desc.band_hi;
    out->samples[0] = d->desc.nx, out->samples[1] = d->desc.ny, out->samples[2] = d->desc.nz;
    out->bricks = d->brick_count;
    out->stored_bricks = d->stored;
    out->edges = out->mesh >= 0 ? b->meshes[out->mesh].edge_count : 0;
    out->quantization_error = d->quantization_error;
    out->device_bytes = sizeof(cc_sdf_desc) + sizeof(int) * (size_t)d->brick_count +
                        sizeof(unsigned short) * (size_t)d->stored * CC_SDF_BRICK_SAMPLES +
                        sizeof(float) * (size_t)d->coarse_count;
    return cc_ok();
}

cc_status cc_builder_sample_sdf(const cc_builder* b, int sdf, const cc_vec3* points, int count, float* distances,
                                cc_vec3* gradients)
{
    static const char* what = "cc_builder_sample_sdf";
    cc_status s = check_sdf(b, sdf, what);
    if (s != CC_OK) return s;
    if (count < 0 || (count > 0 && (!points || !distances)))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: give count >= 0 points and a distance array", what);
    const cc_sdf_data* d = &b->sdfs[sdf].data;
    cc_sdf_ref ref;
    ref.d = &d->desc;
    ref.table = d->table;
    ref.values = d->codes;
    ref.coarse = d->coarse;
    for (int i = 0; i < count; ++i)
        if (!cc_is_finite_vec3(points[i])) return cc_fail(CC_ERR_NOT_FINITE, "%s: point %d holds NaN or infinity", what, i);
    for (int i = 0; i < count; ++i) {
        cc_vec3 g;
        distances[i] = cc_sdf_distance(&ref, points[i], &g);
        if (gradients) gradients[i] = g;
    }
    return cc_ok();
}
