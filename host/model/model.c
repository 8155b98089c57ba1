/* Finalize: the builder's records become the SoA model of
 * kernels/model_view.h, laid out in one block, mirrored on the host and
 * uploaded to the device. Also the state (body poses and velocities). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/geometry/bvh_build.h"
#include "host/geometry/hull_graph.h"
#include "host/geometry/mesh_topology.h"
#include "host/geometry/mesh_edges.h"
#include "host/model/model_internal.h"
#include "kernels/shapes/bounds.h"

/* Aligns every column to 16 bytes inside the block. */
static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* Byte size of the model block and the offset of each column. */
static size_t layout(cc_model_view* v, char* base)
{
    size_t off = 0;
#define CC_PLACE_SHAPE(type, name, comment)                      \
    v->name = base ? (type*)(base + off) : NULL;                 \
    off += align16(sizeof(type) * (size_t)v->shape_count);
#define CC_PLACE_BODY(type, name, comment)                       \
    v->name = base ? (type*)(base + off) : NULL;                 \
    off += align16(sizeof(type) * (size_t)v->body_count);
    CC_SHAPE_COLUMNS(CC_PLACE_SHAPE)
    CC_BODY_COLUMNS(CC_PLACE_BODY)
#undef CC_PLACE_SHAPE
#undef CC_PLACE_BODY
    v->filter_pairs = base ? (uint64_t*)(base + off) : NULL;
    off += align16(sizeof(uint64_t) * (size_t)v->filter_pair_count);
#define CC_PLACE_POOL(type, name, comment)                       \
    v->name = base ? (type*)(base + off) : NULL;                 \
    off += align16(sizeof(type) * (size_t)v->name##_count);
    CC_POOL_COLUMNS(CC_PLACE_POOL)
#undef CC_PLACE_POOL
    return off;
}

static int compare_u64(const void* a, const void* b)
{
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : (x > y);
}

/* Marks blocks whose copies no longer match: a shape or body added to one
 * of their worlds from outside the block. */
static void mark_irregular_blocks(const cc_builder* b, cc_replica_block* blocks, int count)
{
    for (int k = 0; k < count; ++k) {
        cc_replica_block* blk = &blocks[k];
        int end_shape = blk->first_shape + blk->shape_stride * blk->copies;
        int end_world = blk->first_world + blk->copies;
        for (int s = 0; s < b->shape_count && !blk->irregular; ++s) {
            if (s >= blk->first_shape && s < end_shape) continue;
            int w = b->shapes[s].world;
            if (w >= blk->first_world && w < end_world) blk->irregular = 1;
        }
    }
}

/* What finalize derives from one builder mesh: its BVH and the
 * neighbourhood flags of its triangles. */
typedef struct mesh_bvh {
    cc_bvh_node* nodes;
    int node_count;
    int* prims;
    unsigned* flags;
    int* adjacent; /* 3 per triangle */
    int* edges;    /* the edges SDF contacts query, when the mesh chose none */
    int edge_count;
} mesh_bvh;

static void free_bvhs(mesh_bvh* bvh, int count)
{
    for (int i = 0; bvh && i < count; ++i) {
        cc_host_free(bvh[i].nodes);
        cc_host_free(bvh[i].prims);
        cc_host_free(bvh[i].flags);
        cc_host_free(bvh[i].adjacent);
        cc_host_free(bvh[i].edges);
    }
    cc_host_free(bvh);
}

/* One BVH per builder mesh (so once for every shape and replicated world). */
static cc_status build_bvhs(const cc_builder* b, mesh_bvh** out)
{
    mesh_bvh* bvh = (mesh_bvh*)cc_host_calloc((size_t)b->mesh_count + 1, sizeof *bvh);
    if (!bvh) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_finalize: out of host memory");
    for (int i = 0; i < b->mesh_count; ++i) {
        const cc_mesh_data* m = &b->meshes[i];
        cc_status s = cc_mesh_bvh_build(m->vertices, m->triangles, m->triangle_count, &bvh[i].nodes, &bvh[i].node_count,
                                        &bvh[i].prims);
        bvh[i].flags = (unsigned*)cc_host_alloc(sizeof(unsigned) * (size_t)m->triangle_count);
        bvh[i].adjacent = (int*)cc_host_alloc(sizeof(int) * 3 * (size_t)m->triangle_count);
        if (s == CC_OK && (!bvh[i].flags || !bvh[i].adjacent ||
                           !cc_mesh_triangle_flags(m->vertices, m->vertex_count, m->triangles, m->triangle_count,
                                                   bvh[i].flags, bvh[i].adjacent)))
            s = cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_finalize: out of host memory");
        /* A mesh without an SDF of its own still queries another's: its
         * edges, with the default simplification. */
        if (s == CC_OK && !m->edges) {
            cc_sdf_def def = cc_default_sdf_def();
            s = cc_mesh_collision_edges(m->vertices, m->vertex_count, m->triangles, m->triangle_count,
                                        def.edge_lower_angle_threshold, def.edge_concave_filter && m->bad_edges == 0,
                                        NULL, &bvh[i].edges, &bvh[i].edge_count);
        }
        if (s != CC_OK) {
            free_bvhs(bvh, b->mesh_count);
            return s;
        }
    }
    *out = bvh;
    return CC_OK;
}

/* Pool sizes of the builder's hulls, meshes and heightfields. */
static void count_pools(const cc_builder* b, const mesh_bvh* bvh, cc_model_view* v)
{
    v->hulls_count = b->hull_count;
    v->hull_vertices_count = v->hull_faces_count = v->hull_indices_count = v->hull_graph_count = 0;
    for (int h = 0; h < b->hull_count; ++h) {
        v->hull_vertices_count += b->hulls[h].vertex_count;
        v->hull_faces_count += b->hulls[h].face_count;
        v->hull_indices_count += b->hulls[h].index_count;
        v->hull_graph_count += cc_hull_graph_ints(b->hulls[h].vertex_count, b->hulls[h].index_count);
    }
    v->meshes_count = b->mesh_count;
    v->mesh_vertices_count = v->mesh_triangles_count = v->bvh_nodes_count = 0;
    for (int i = 0; i < b->mesh_count; ++i) {
        v->mesh_vertices_count += b->meshes[i].vertex_count;
        v->mesh_triangles_count += b->meshes[i].triangle_count;
        v->bvh_nodes_count += bvh[i].node_count;
    }
    v->bvh_prims_count = v->mesh_triangle_flags_count = v->mesh_triangle_adjacent_count = v->mesh_triangles_count;
    v->mesh_edges_count = v->mesh_feature_balls_count = v->mesh_feature_order_count = 0;
    for (int i = 0; i < b->mesh_count; ++i) {
        int edges = b->meshes[i].edges ? b->meshes[i].edge_count : bvh[i].edge_count;
        v->mesh_edges_count += edges;
        v->mesh_feature_balls_count += (b->meshes[i].vertex_count + edges + CC_MESH_FEATURE_CHUNK - 1) / CC_MESH_FEATURE_CHUNK;
        v->mesh_feature_order_count += b->meshes[i].vertex_count + edges;
    }
    v->sdfs_count = b->sdf_count;
    v->sdf_table_count = v->sdf_values_count = v->sdf_coarse_count = 0;
    for (int i = 0; i < b->sdf_count; ++i) {
        v->sdf_table_count += b->sdfs[i].data.brick_count;
        v->sdf_values_count += b->sdfs[i].data.stored * CC_SDF_BRICK_SAMPLES;
        v->sdf_coarse_count += b->sdfs[i].data.coarse_count;
    }
    v->hfields_count = b->hfield_count;
    v->hfield_samples_count = 0;
    for (int i = 0; i < b->hfield_count; ++i) v->hfield_samples_count += b->hfields[i].rows * b->hfields[i].cols;
}

/* The 30-bit Morton code of p in the box [lo, lo + span]. */
static uint32_t morton_code(cc_vec3 p, cc_vec3 lo, cc_vec3 span)
{
    float u[3] = {(p.x - lo.x) / span.x, (p.y - lo.y) / span.y, (p.z - lo.z) / span.z};
    uint32_t code = 0;
    uint32_t q[3];
    for (int k = 0; k < 3; ++k) q[k] = (uint32_t)fminf(fmaxf(u[k] * 1023.0f, 0.0f), 1023.0f);
    for (int bit = 9; bit >= 0; --bit)
        for (int k = 0; k < 3; ++k) code = (code << 1) | ((q[k] >> bit) & 1u);
    return code;
}

typedef struct keyed_feature {
    uint32_t key;
    int feature;
} keyed_feature;

static int compare_features(const void* a, const void* b)
{
    const keyed_feature *x = (const keyed_feature*)a, *y = (const keyed_feature*)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->feature > y->feature) - (x->feature < y->feature);
}

/* A mesh's features in walking order (order[]): its vertices along a
 * Morton curve, each followed by the edges it ends (of an edge's two
 * vertices, the later on the curve), so that an edge comes right after the
 * vertex features that sampled its ends, most often in its chunk; and the
 * balls of the chunks (out[]). Returns the ball count, or -1 without
 * memory. */
static int feature_chunks(const cc_mesh_data* m, const int* edges, int edge_count, int* order, cc_feature_ball* out)
{
    int vertices = m->vertex_count, features = vertices + edge_count, count = 0;
    size_t slots = (size_t)(vertices ? vertices : 1);
    keyed_feature* keyed = (keyed_feature*)cc_host_alloc(sizeof *keyed * slots);
    int* rank = (int*)cc_host_alloc(sizeof(int) * slots);
    int* place = (int*)cc_host_alloc(sizeof(int) * (slots + 1));
    if (!keyed || !rank || !place) {
        cc_host_free(keyed);
        cc_host_free(rank);
        cc_host_free(place);
        return -1;
    }
    cc_vec3 span = cc_v3_sub(m->upper, m->lower);
    span = cc_v3(fmaxf(span.x, 1e-30f), fmaxf(span.y, 1e-30f), fmaxf(span.z, 1e-30f));
    for (int v = 0; v < vertices; ++v) {
        keyed[v].key = morton_code(m->vertices[v], m->lower, span);
        keyed[v].feature = v;
    }
    qsort(keyed, (size_t)vertices, sizeof *keyed, compare_features);
    for (int r = 0; r < vertices; ++r) rank[keyed[r].feature] = r;
    /* place[r]: where the vertex of rank r goes, after every vertex before
     * it and the edges they end. */
    memset(place, 0, sizeof(int) * (slots + 1));
    for (int e = 0; e < edge_count; ++e) {
        int r0 = rank[edges[2 * e]], r1 = rank[edges[2 * e + 1]];
        place[(r0 > r1 ? r0 : r1) + 1]++;
    }
    for (int r = 0; r < vertices; ++r) place[r + 1] += place[r] + 1;
    for (int r = 0; r < vertices; ++r) order[place[r]++] = keyed[r].feature;
    for (int e = 0; e < edge_count; ++e) {
        int r0 = rank[edges[2 * e]], r1 = rank[edges[2 * e + 1]];
        order[place[r0 > r1 ? r0 : r1]++] = vertices + e;
    }
    cc_host_free(keyed);
    cc_host_free(rank);
    cc_host_free(place);
    for (int first = 0; first < features; first += CC_MESH_FEATURE_CHUNK) {
        cc_vec3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
        int end = first + CC_MESH_FEATURE_CHUNK < features ? first + CC_MESH_FEATURE_CHUNK : features;
        for (int i = first; i < end; ++i) {
            int f = order[i];
            for (int k = 0; k < (f < m->vertex_count ? 1 : 2); ++k) {
                cc_vec3 p = m->vertices[f < m->vertex_count ? f : edges[2 * (f - m->vertex_count) + k]];
                lo = cc_v3_min(lo, p);
                hi = cc_v3_max(hi, p);
            }
        }
        out[count].centre = cc_v3_scale(cc_v3_add(lo, hi), 0.5f);
        /* A little more than the half diagonal, against its rounding. */
        out[count].radius = cc_v3_length(cc_v3_scale(cc_v3_sub(hi, lo), 0.5f)) * (1.0f + 1e-6f);
        count++;
    }
    return count;
}

/* Meshes and heightfields back to back, their ranges made absolute. */
static cc_status fill_mesh_pools(const cc_builder* b, const mesh_bvh* bvh, cc_model_view* v)
{
    int vert = 0, tri = 0, node = 0, sample = 0, edge = 0, ball = 0, order = 0;
    for (int i = 0; i < b->mesh_count; ++i) {
        const cc_mesh_data* src = &b->meshes[i];
        cc_mesh_desc* d = &v->meshes[i];
        d->vertex_first = vert;
        d->vertex_count = src->vertex_count;
        d->triangle_first = tri;
        d->triangle_count = src->triangle_count;
        d->node_first = node;
        d->node_count = bvh[i].node_count;
        d->watertight = src->bad_edges == 0;
        d->lower = src->lower;
        d->upper = src->upper;
        memcpy(v->mesh_vertices + vert, src->vertices, sizeof(cc_vec3) * (size_t)src->vertex_count);
        for (int t = 0; t < src->triangle_count; ++t)
            for (int k = 0; k < 3; ++k) v->mesh_triangles[tri + t].v[k] = src->triangles[3 * t + k] + vert;
        memcpy(v->bvh_nodes + node, bvh[i].nodes, sizeof(cc_bvh_node) * (size_t)bvh[i].node_count);
        memcpy(v->bvh_prims + tri, bvh[i].prims, sizeof(int) * (size_t)src->triangle_count);
        memcpy(v->mesh_triangle_flags + tri, bvh[i].flags, sizeof(unsigned) * (size_t)src->triangle_count);
        memcpy(v->mesh_triangle_adjacent + tri, bvh[i].adjacent, sizeof(cc_mesh_triangle) * (size_t)src->triangle_count);
        const int* edges = src->edges ? src->edges : bvh[i].edges;
        d->edge_first = edge;
        d->edge_count = src->edges ? src->edge_count : bvh[i].edge_count;
        for (int e = 0; e < d->edge_count; ++e) {
            v->mesh_edges[edge + e].v[0] = edges[2 * e] + vert;
            v->mesh_edges[edge + e].v[1] = edges[2 * e + 1] + vert;
        }
        d->ball_first = ball;
        d->order_first = order;
        int balls = feature_chunks(src, edges, d->edge_count, v->mesh_feature_order + order, v->mesh_feature_balls + ball);
        if (balls < 0) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_finalize: out of host memory");
        ball += balls;
        order += src->vertex_count + d->edge_count;
        edge += d->edge_count;
        vert += src->vertex_count;
        tri += src->triangle_count;
        node += bvh[i].node_count;
    }
    for (int i = 0; i < b->hfield_count; ++i) {
        const cc_hfield_data* src = &b->hfields[i];
        cc_hfield_desc* d = &v->hfields[i];
        int n = src->rows * src->cols;
        d->sample_first = sample;
        d->rows = src->rows;
        d->cols = src->cols;
        d->min_height = src->min_height;
        d->max_height = src->max_height;
        memcpy(v->hfield_samples + sample, src->heights, sizeof(float) * (size_t)n);
        sample += n;
    }
    return CC_OK;
}

/* SDFs back to back, their ranges made absolute. */
static void fill_sdf_pools(const cc_builder* b, cc_model_view* v)
{
    int table = 0, value = 0, coarse = 0;
    for (int i = 0; i < b->sdf_count; ++i) {
        const cc_sdf_data* src = &b->sdfs[i].data;
        cc_sdf_desc d = src->desc;
        d.table_first = table;
        d.value_first = value;
        d.coarse_first = coarse;
        d.mesh = b->sdfs[i].mesh;
        v->sdfs[i] = d;
        memcpy(v->sdf_table + table, src->table, sizeof(int) * (size_t)src->brick_count);
        memcpy(v->sdf_values + value, src->codes, sizeof(unsigned short) * (size_t)src->stored * CC_SDF_BRICK_SAMPLES);
        memcpy(v->sdf_coarse + coarse, src->coarse, sizeof(float) * (size_t)src->coarse_count);
        table += src->brick_count;
        value += src->stored * CC_SDF_BRICK_SAMPLES;
        coarse += src->coarse_count;
    }
}

/* Hulls back to back, their ranges made absolute. */
static void fill_hull_pools(const cc_builder* b, cc_model_view* v)
{
    int vert = 0, face = 0, index = 0, graph = 0;
    for (int h = 0; h < b->hull_count; ++h) {
        const cc_hull_data* src = &b->hulls[h];
        cc_hull_desc* d = &v->hulls[h];
        d->vertex_first = vert;
        d->vertex_count = src->vertex_count;
        d->face_first = face;
        d->face_count = src->face_count;
        d->lower = src->lower;
        d->upper = src->upper;
        memcpy(v->hull_vertices + vert, src->vertices, sizeof(cc_vec3) * (size_t)src->vertex_count);
        double mean[3] = {0.0, 0.0, 0.0};
        for (int i = 0; i < src->vertex_count; ++i) {
            mean[0] += src->vertices[i].x;
            mean[1] += src->vertices[i].y;
            mean[2] += src->vertices[i].z;
        }
        double inv = src->vertex_count > 0 ? 1.0 / src->vertex_count : 0.0;
        d->center.x = (float)(mean[0] * inv);
        d->center.y = (float)(mean[1] * inv);
        d->center.z = (float)(mean[2] * inv);
        for (int f = 0; f < src->face_count; ++f) {
            cc_hull_face hf = src->faces[f];
            hf.first += index;
            v->hull_faces[face + f] = hf;
        }
        for (int i = 0; i < src->index_count; ++i) v->hull_indices[index + i] = src->indices[i] + vert;
        d->graph_first = graph;
        cc_hull_graph_build(src, d->center, v->hull_graph + graph, &d->radius);
        graph += cc_hull_graph_ints(src->vertex_count, src->index_count);
        vert += src->vertex_count;
        face += src->face_count;
        index += src->index_count;
    }
}

/* The area a point contact on shape i stands for (cc_solver_def's
 * automatic point_contact_weight): the product of the two larger half
 * extents of its bounding box in its own frame, margin included. Planes and
 * heightfields have none (FLT_MAX: the other shape's counts). Needs the
 * hull and mesh pools filled. */
static float shape_point_area(const cc_model_view* v, int i)
{
    cc_shape_geometry g = v->shape_geom[i];
    if (g.type == CC_SHAPE_PLANE || g.type == CC_SHAPE_HEIGHTFIELD) return FLT_MAX;
    cc_transform local = cc_tf_identity();
    cc_aabb box = g.type == CC_SHAPE_MESH ? cc_pooled_shape_aabb(v, g.type, v->shape_source[i], g.size, local, g.margin)
                                          : cc_shape_aabb(g.type, g.size, local, g.margin,
                                                          g.type == CC_SHAPE_CONVEX_HULL ? &v->hulls[v->shape_source[i]] : NULL);
    float e[3] = {0.5f * (box.upper.x - box.lower.x), 0.5f * (box.upper.y - box.lower.y),
                  0.5f * (box.upper.z - box.lower.z)};
    float lo = fminf(e[0], fminf(e[1], e[2]));
    float area = e[0] * e[1] * e[2] / lo;
    if (!(lo > 0.0f)) area = fmaxf(e[0] * e[1], fmaxf(e[0] * e[2], e[1] * e[2]));
    return isfinite(area) && area > 0.0f ? area : FLT_MAX;
}

/* A contact pair's key and its place in the order added. */
typedef struct keyed_pair {
    uint64_t key;
    int order;
} keyed_pair;

static int compare_keyed(const void* a, const void* b)
{
    const keyed_pair *x = (const keyed_pair*)a, *y = (const keyed_pair*)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* The contact pairs as sorted, duplicate-free keys (the last added of a
 * repeated pair wins) with their parameters; *out_keys and *out_params are
 * cc_host_alloc'd. Returns the count, or -1 on no memory. */
static int sorted_contact_pairs(const cc_builder* b, uint64_t** out_keys, cc_contact_pair_params** out_params)
{
    int n = b->contact_pair_count;
    keyed_pair* kp = (keyed_pair*)cc_host_alloc(sizeof *kp * (size_t)(n + 1));
    uint64_t* keys = (uint64_t*)cc_host_alloc(sizeof(uint64_t) * (size_t)(n + 1));
    cc_contact_pair_params* params = (cc_contact_pair_params*)cc_host_alloc(sizeof *params * (size_t)(n + 1));
    if (!kp || !keys || !params) {
        cc_host_free(kp), cc_host_free(keys), cc_host_free(params);
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        kp[i].key = cc_filter_pair_key(b->contact_pairs[i].a, b->contact_pairs[i].b);
        kp[i].order = i;
    }
    qsort(kp, (size_t)n, sizeof *kp, compare_keyed);
    int count = 0;
    for (int i = 0; i < n; ++i) {
        if (i + 1 < n && kp[i + 1].key == kp[i].key) continue; /* a later one follows */
        const cc_contact_pair_record* r = &b->contact_pairs[kp[i].order];
        keys[count] = kp[i].key;
        params[count].margin = r->margin;
        params[count].gap = r->gap;
        params[count].mu = r->mu;
        params[count].mu_torsional = r->mu_torsional;
        params[count].mu_rolling = r->mu_rolling;
        count++;
    }
    cc_host_free(kp);
    *out_keys = keys;
    *out_params = params;
    return count;
}

static cc_status fill_host_view(const cc_builder* b, cc_model_view* v, uint64_t* filter_keys, const cc_mass_properties* mass,
                           const mesh_bvh* bvh, const uint64_t* pair_keys, const cc_contact_pair_params* pair_params)
{
    v->gravity = b->gravity;
    for (int i = 0; i < b->body_count; ++i) {
        const cc_body_record* r = &b->bodies[i];
        v->body_world[i] = r->world;
        v->body_parent[i] = r->parent;
        v->body_static[i] = r->is_static;
        v->body_mass[i] = cc_body_mass_record(&mass[i], r->is_static);
    }
    for (int i = 0; i < b->shape_count; ++i) {
        const cc_shape_record* r = &b->shapes[i];
        unsigned flags = 0;
        /* Zero type and affinity bits meet nothing, like group 0. */
        if (r->has_shape_collision && r->group != 0 && (r->type_bits | r->affinity_bits) != 0u)
            flags |= CC_SHAPE_FLAG_COLLIDES;
        if (r->body < 0 || b->bodies[r->body].is_static) flags |= CC_SHAPE_FLAG_STATIC;
        if (r->filter_parent) flags |= CC_SHAPE_FLAG_FILTER_PARENT;
        cc_shape_geometry* g = &v->shape_geom[i];
        g->type = r->type;
        g->body = r->body;
        g->size = r->size;
        g->margin = r->margin;
        g->gap = r->gap;
        g->radius = (r->type == CC_SHAPE_SPHERE || r->type == CC_SHAPE_CAPSULE) ? r->size.x : 0.0f;
        v->shape_world[i] = r->world;
        v->shape_group[i] = r->group;
        v->shape_flags[i] = flags;
        v->shape_local[i] = r->local;
        v->shape_source[i] = r->source;
        v->shape_type_bits[i] = r->type_bits;
        v->shape_affinity_bits[i] = r->affinity_bits;
        v->shape_material[i] = r->material;
        v->shape_compliant[i] = r->compliant;
        v->shape_bounds_pad[i] = r->margin + r->gap;
        v->shape_sdf[i] = cc_shape_sdf_of(b, r);
    }
    /* Contact pairs: both shapes take part (COLLIDES), those whose own
     * rules meet nothing only through their pairs (PAIRS_ONLY); their
     * bounds grow to half the pair's reach, so that the two boxes meet
     * whenever the shapes are within the pair's margin and gap. */
    for (int i = 0; i < v->contact_pair_keys_count; ++i) {
        v->contact_pair_keys[i] = pair_keys[i];
        v->contact_pair_params[i] = pair_params[i];
        int ends[2] = {(int)(pair_keys[i] >> 32), (int)(pair_keys[i] & 0xffffffffu)};
        for (int k = 0; k < 2; ++k) {
            unsigned* f = &v->shape_flags[ends[k]];
            if (!(*f & CC_SHAPE_FLAG_COLLIDES)) *f |= CC_SHAPE_FLAG_COLLIDES | CC_SHAPE_FLAG_PAIRS_ONLY;
            *f |= CC_SHAPE_FLAG_IN_CONTACT_PAIR;
            float half = 0.5f * (pair_params[i].margin + pair_params[i].gap);
            if (half > v->shape_bounds_pad[ends[k]]) v->shape_bounds_pad[ends[k]] = half;
        }
    }
    fill_hull_pools(b, v);
    cc_status s = fill_mesh_pools(b, bvh, v);
    if (s != CC_OK) return s;
    fill_sdf_pools(b, v);
    for (int i = 0; i < b->shape_count; ++i) v->shape_point_area[i] = shape_point_area(v, i);
    for (int i = 0; i < v->filter_pair_count; ++i) {
        v->filter_pairs[i] = filter_keys[i];
        v->shape_flags[filter_keys[i] >> 32] |= CC_SHAPE_FLAG_HAS_FILTERS;
        v->shape_flags[filter_keys[i] & 0xffffffffu] |= CC_SHAPE_FLAG_HAS_FILTERS;
    }
    return CC_OK;
}

/* Sorted, duplicate-free filter keys. Returns the count, or -1 on no memory. */
static int sorted_filter_keys(const cc_builder* b, uint64_t** out)
{
    uint64_t* keys = (uint64_t*)cc_host_alloc(sizeof(uint64_t) * (size_t)(b->filter_count + 1));
    if (!keys) return -1;
    for (int i = 0; i < b->filter_count; ++i) keys[i] = cc_filter_pair_key(b->filters[i].a, b->filters[i].b);
    qsort(keys, (size_t)b->filter_count, sizeof *keys, compare_u64);
    int n = 0;
    for (int i = 0; i < b->filter_count; ++i)
        if (n == 0 || keys[n - 1] != keys[i]) keys[n++] = keys[i];
    *out = keys;
    return n;
}

cc_status cc_builder_finalize(const cc_builder* b, cc_device device, cc_model** out)
{
    static const char* what = "cc_builder_finalize";
    if (!b || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder or out is NULL", what);
    if (b->open_world >= 0)
        return cc_fail(CC_ERR_INVALID_STATE, "%s: world %d is still open; call cc_builder_end_world first", what, b->open_world);
    const cc_backend* be;
    cc_status s = cc_backend_for(device, &be);
    if (s != CC_OK) return s;

    cc_model* m = (cc_model*)cc_host_calloc(1, sizeof *m);
    uint64_t* keys = NULL;
    uint64_t* pair_keys = NULL;
    cc_contact_pair_params* pair_params = NULL;
    mesh_bvh* bvh = NULL;
    if (!m) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    m->refs = 1; /* the user's */
    m->device = device;
    m->backend = be;
    int filter_count = sorted_filter_keys(b, &keys);
    if (filter_count < 0) goto no_memory;
    int pair_count = sorted_contact_pairs(b, &pair_keys, &pair_params);
    if (pair_count < 0) goto no_memory;
    cc_model_view* hv = &m->host_view;
    hv->shape_count = b->shape_count;
    hv->body_count = b->body_count;
    hv->world_count = b->world_count;
    hv->filter_pair_count = filter_count;
    s = build_bvhs(b, &bvh);
    if (s != CC_OK) goto fail;
    count_pools(b, bvh, hv);
    hv->contact_pair_keys_count = hv->contact_pair_params_count = pair_count;
    m->block_bytes = layout(hv, NULL);
    m->host_block = cc_host_calloc(1, m->block_bytes);
    m->initial_pose = (cc_transform*)cc_host_alloc(sizeof(cc_transform) * (size_t)(b->body_count + 1));
    m->blocks = (cc_replica_block*)cc_host_alloc(sizeof(cc_replica_block) * (size_t)(b->block_count + 1));
    m->body_mass = (cc_mass_properties*)cc_host_calloc((size_t)b->body_count + 1, sizeof *m->body_mass);
    if (!m->host_block || !m->initial_pose || !m->blocks || !m->body_mass) goto no_memory;
    s = cc_builder_body_masses(b, m->body_mass, what);
    if (s != CC_OK) goto fail;
    layout(hv, (char*)m->host_block);
    s = fill_host_view(b, hv, keys, m->body_mass, bvh, pair_keys, pair_params);
    if (s != CC_OK) goto fail;
    free_bvhs(bvh, b->mesh_count);
    bvh = NULL;
    cc_host_free(keys);
    keys = NULL;
    cc_host_free(pair_keys);
    cc_host_free(pair_params);
    pair_keys = NULL;
    pair_params = NULL;
    for (int i = 0; i < b->body_count; ++i) m->initial_pose[i] = b->bodies[i].pose;
    if (b->block_count) memcpy(m->blocks, b->blocks, sizeof(cc_replica_block) * (size_t)b->block_count);
    m->block_count = b->block_count;
    mark_irregular_blocks(b, m->blocks, m->block_count);

    s = cc_device_alloc(be, m->block_bytes, &m->device_block);
    if (s != CC_OK) goto fail;
    s = be->upload(m->device_block, m->host_block, m->block_bytes);
    if (s != CC_OK) goto fail;
    m->view = *hv;
    layout(&m->view, (char*)m->device_block);
    *out = m;
    return cc_ok();
no_memory:
    s = cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
fail:
    cc_host_free(keys);
    cc_host_free(pair_keys);
    cc_host_free(pair_params);
    free_bvhs(bvh, b->mesh_count);
    cc_model_destroy(m);
    return s;
}

cc_status cc_model_activate(const cc_model* m)
{
    return m->backend->activate ? m->backend->activate(m->device.ordinal) : CC_OK;
}

void cc_model_retain(const cc_model* m) { __atomic_add_fetch(&((cc_model*)m)->refs, 1, __ATOMIC_RELAXED); }

static void model_free(cc_model* m)
{
    cc_model_activate(m);
    if (m->device_block) m->backend->free(m->device_block);
    cc_host_free(m->host_block);
    cc_host_free(m->initial_pose);
    cc_host_free(m->body_mass);
    cc_host_free(m->blocks);
    cc_host_free(m);
}

void cc_model_release(const cc_model* m)
{
    if (__atomic_sub_fetch(&((cc_model*)m)->refs, 1, __ATOMIC_ACQ_REL) == 0) model_free((cc_model*)m);
}

void cc_model_destroy(cc_model* m)
{
    if (m) cc_model_release(m);
}

int cc_model_body_count(const cc_model* m) { return m ? m->host_view.body_count : 0; }
int cc_model_shape_count(const cc_model* m) { return m ? m->host_view.shape_count : 0; }
int cc_model_world_count(const cc_model* m) { return m ? m->host_view.world_count : 0; }
cc_device cc_model_device(const cc_model* m) { return m ? m->device : cc_device_cpu(); }
size_t cc_model_device_bytes(const cc_model* m) { return m ? m->block_bytes : 0; }

cc_status cc_model_get_memory(const cc_model* m, cc_model_memory* out)
{
    if (!m || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_model_get_memory: model or out is NULL");
    const cc_model_view* v = &m->host_view;
    cc_model_memory r = {0, 0, 0, 0, 0};
#define CC_COUNT_SHAPE(type, name, comment) r.shape_bytes += align16(sizeof(type) * (size_t)v->shape_count);
#define CC_COUNT_BODY(type, name, comment) r.body_bytes += align16(sizeof(type) * (size_t)v->body_count);
#define CC_COUNT_POOL(type, name, comment) r.geometry_bytes += align16(sizeof(type) * (size_t)v->name##_count);
    CC_SHAPE_COLUMNS(CC_COUNT_SHAPE)
    CC_BODY_COLUMNS(CC_COUNT_BODY)
    CC_POOL_COLUMNS(CC_COUNT_POOL)
#undef CC_COUNT_SHAPE
#undef CC_COUNT_BODY
#undef CC_COUNT_POOL
    /* The contact pairs live among the pools but are pair tables too. */
    size_t pair_bytes = align16(sizeof(uint64_t) * (size_t)v->contact_pair_keys_count) +
                        align16(sizeof(cc_contact_pair_params) * (size_t)v->contact_pair_params_count);
    r.geometry_bytes -= pair_bytes;
    r.filter_bytes = align16(sizeof(uint64_t) * (size_t)v->filter_pair_count) + pair_bytes;
    /* The SDFs, a part of the geometry that the report names apart. */
    r.sdf_bytes = align16(sizeof(cc_sdf_desc) * (size_t)v->sdfs_count) + align16(sizeof(int) * (size_t)v->sdf_table_count) +
                  align16(sizeof(unsigned short) * (size_t)v->sdf_values_count) +
                  align16(sizeof(float) * (size_t)v->sdf_coarse_count);
    r.geometry_bytes -= r.sdf_bytes;
    *out = r;
    return cc_ok();
}

cc_vec3 cc_model_gravity(const cc_model* m)
{
    cc_vec3 zero = {0.0f, 0.0f, 0.0f};
    return m ? m->host_view.gravity : zero;
}

cc_status cc_model_get_body_mass(const cc_model* m, int body, cc_mass_properties* out)
{
    static const char* what = "cc_model_get_body_mass";
    if (!m || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: model or out is NULL", what);
    if (body < 0 || body >= m->host_view.body_count)
        return cc_fail(CC_ERR_INVALID_BODY, "%s: body %d is not in 0..%d", what, body, m->host_view.body_count - 1);
    *out = m->body_mass[body];
    return cc_ok();
}

int cc_model_body_is_static(const cc_model* m, int body)
{
    if (!m || body < 0 || body >= m->host_view.body_count) return -1;
    return m->host_view.body_static[body] != 0;
}

cc_status cc_state_create(const cc_model* m, cc_state** out)
{
    if (!m || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_state_create: model or out is NULL");
    cc_status active = cc_model_activate(m);
    if (active != CC_OK) return active;
    int n = m->host_view.body_count;
    size_t pose_bytes = align16(sizeof(cc_transform) * (size_t)n);
    size_t vel_bytes = align16(sizeof(cc_vec3) * (size_t)n);
    cc_state* s = (cc_state*)cc_host_calloc(1, sizeof *s);
    if (!s) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_state_create: out of host memory");
    s->model = m;
    const cc_backend* be = m->backend;
    size_t total = pose_bytes + 2 * vel_bytes;
    cc_status st = cc_device_alloc(be, total, &s->device_block);
    if (st != CC_OK) {
        cc_host_free(s);
        return st;
    }
    s->block_bytes = total;
    char* base = (char*)s->device_block;
    s->body_pose = (cc_transform*)base;
    s->body_linear = (cc_vec3*)(base + pose_bytes);
    s->body_angular = (cc_vec3*)(base + pose_bytes + vel_bytes);
    /* Poses from the builder, velocities zero. */
    char* staging = (char*)cc_host_calloc(1, total);
    if (!staging) {
        cc_state_destroy(s);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_state_create: out of host memory");
    }
    if (n) memcpy(staging, m->initial_pose, sizeof(cc_transform) * (size_t)n);
    st = be->upload(s->device_block, staging, total);
    cc_host_free(staging);
    if (st != CC_OK) {
        cc_state_destroy(s);
        return st;
    }
    cc_model_retain(m);
    *out = s;
    return cc_ok();
}

void cc_state_destroy(cc_state* s)
{
    if (!s) return;
    const cc_model* m = s->model;
    cc_model_activate(m);
    if (s->device_block) m->backend->free(s->device_block);
    cc_host_free(s);
    cc_model_release(m);
}

static cc_status check_range(const cc_state* s, int first, int count, const void* data, const char* what)
{
    if (!s || (!data && count > 0)) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: state or data is NULL", what);
    int n = s->model->host_view.body_count;
    if (first < 0 || count < 0 || first > n - count)
        return cc_fail(CC_ERR_INVALID_BODY, "%s: bodies [%d, %lld) are outside 0..%d", what, first, (long long)first + count, n);
    return cc_model_activate(s->model);
}

cc_status cc_state_set_body_poses(cc_state* s, int first, int count, const cc_transform* poses)
{
    static const char* what = "cc_state_set_body_poses";
    cc_status st = check_range(s, first, count, poses, what);
    if (st != CC_OK) return st;
    for (int i = 0; i < count; ++i)
        if (!cc_is_finite_transform(poses[i]))
            return cc_fail(CC_ERR_NOT_FINITE, "%s: pose of body %d holds NaN or infinity; nothing was changed", what, first + i);
    st = s->model->backend->upload(s->body_pose + first, poses, sizeof(cc_transform) * (size_t)count);
    return st == CC_OK ? cc_ok() : st;
}

cc_status cc_state_get_body_poses(const cc_state* s, int first, int count, cc_transform* poses)
{
    cc_status st = check_range(s, first, count, poses, "cc_state_get_body_poses");
    if (st != CC_OK) return st;
    st = s->model->backend->download(poses, s->body_pose + first, sizeof(cc_transform) * (size_t)count);
    return st == CC_OK ? cc_ok() : st;
}

cc_status cc_state_set_body_velocities(cc_state* s, int first, int count, const cc_vec3* linear,
                                       const cc_vec3* angular)
{
    static const char* what = "cc_state_set_body_velocities";
    cc_status st = check_range(s, first, count, linear, what);
    if (st == CC_OK) st = check_range(s, first, count, angular, what);
    if (st != CC_OK) return st;
    for (int i = 0; i < count; ++i)
        if (!cc_is_finite_vec3(linear[i]) || !cc_is_finite_vec3(angular[i]))
            return cc_fail(CC_ERR_NOT_FINITE, "%s: velocity of body %d holds NaN or infinity; nothing was changed", what, first + i);
    const cc_backend* be = s->model->backend;
    size_t bytes = sizeof(cc_vec3) * (size_t)count;
    st = be->upload(s->body_linear + first, linear, bytes);
    if (st == CC_OK) st = be->upload(s->body_angular + first, angular, bytes);
    return st == CC_OK ? cc_ok() : st;
}

cc_status cc_state_get_body_velocities(const cc_state* s, int first, int count, cc_vec3* linear,
                                       cc_vec3* angular)
{
    static const char* what = "cc_state_get_body_velocities";
    cc_status st = check_range(s, first, count, linear, what);
    if (st == CC_OK) st = check_range(s, first, count, angular, what);
    if (st != CC_OK) return st;
    const cc_backend* be = s->model->backend;
    size_t bytes = sizeof(cc_vec3) * (size_t)count;
    st = be->download(linear, s->body_linear + first, bytes);
    if (st == CC_OK) st = be->download(angular, s->body_angular + first, bytes);
    return st == CC_OK ? cc_ok() : st;
}

cc_status cc_state_copy(cc_state* dst, const cc_state* src, cc_stream stream)
{
    static const char* what = "cc_state_copy";
    if (!dst || !src) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: dst or src is NULL", what);
    if (dst->model != src->model)
        return cc_fail(CC_ERR_MISMATCH, "%s: the states belong to different models; copy between states of one model", what);
    if (dst == src) return cc_ok();
    cc_status st = cc_model_activate(src->model);
    if (st != CC_OK) return st;
    st = src->model->backend->copy_async(dst->device_block, src->device_block, src->block_bytes, stream);
    return st == CC_OK ? cc_ok() : st;
}

cc_transform* cc_state_body_poses_device(cc_state* s) { return s ? s->body_pose : NULL; }
